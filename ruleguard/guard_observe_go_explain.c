/* ruleguard/guard_observe_go_explain.c — the difference between belief and expected board,
 * explained by moves of alternating colours through the rules core, or left to flag after a wait.
 * This file finds the difference and runs the steps in order: the plan of moves
 * (guard_observe_go_plan.c), moves no view confirmed (guard_observe_go_unseen.c), committing them
 * (guard_observe_go_commit_plan.c), and what is left unexplained (guard_observe_go_unexplained.c).
 */
#include <stdlib.h>

#include "ruleguard/guard_observe_go_internal.h"

int gog_change_order(const void *a, const void *b)
{
    const struct change *x = a, *y = b;
    if (x->obs != y->obs) return x->obs < y->obs ? -1 : 1;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->point - y->point;
}

/* A stone of colour c on a point empty in the game, first read at or before observation obs and
 * read again at the last view, still being confirmed? */
static bool candidate_since(const struct go_obs_guard *g, uint8_t c, long obs)
{
    const struct go_game *game = gog_game_of(g);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (go_game_at(game, p) != GO_EMPTY || !s->cand_active || s->cand != c ||
                s->belief == c || !s->last_known || s->last != c)
                continue;
            long first = s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
            if (first <= obs) return true;
        }
    return false;
}

/* The points where the belief differs from the expected board, stones new in the game (adds,
 * in the order first seen) apart from the rest (removals, changed colours). A tolerated point
 * (masked after a flag) is no change until it changes again; a prisoner read gone ends its
 * pending capture. Stones read after a pass still waiting for its move are held back. */
static void collect_changes(struct go_obs_guard *g, struct gog_diff *d)
{
    struct change *adds = d->adds, *rest = d->rest;
    int na = 0, nrest = 0;
    bool after_pass = false;
    struct change odd = {0};
    long odd_own = -1;
    const struct go_game *game = gog_game_of(g);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            if (g->mask[p] > 0 && g->pt[p].belief == g->mask[p] &&
                go_game_at(game, p) == GO_EMPTY && g->pt[p].empty_obs == g->nobs) {
                /* a tolerated stone surely seen taken off: gone, even if a stone comes back here
                   before the empty point could be confirmed (a new move on the same point) */
                g->pt[p].belief = GO_EMPTY;
                g->mask[p] = -1;
            }
            uint8_t bel = g->pt[p].belief, exp = gog_expected_at(g, p);
            if (g->mask[p] >= 0) {
                if (bel == exp) {
                    g->mask[p] = -1;
                    continue;
                }
                if (bel == g->mask[p]) continue;
                g->mask[p] = -1;
            }
            if (bel == exp) continue;
            int pi = gog_pending_index(g, p);
            if (pi >= 0) {
                gog_pending_drop(g, pi); /* a prisoner gone */
                if (bel == GO_EMPTY) continue;
            }
            struct change c = {p, (uint8_t)go_game_at(game, p), bel, g->pt[p].seen_obs,
                               g->pt[p].seen_t};
            /* before or after a pass: by the first reading of the stone's own colour (a
               doubtful reading of the other colour before the pass is as likely a misread) */
            long own = g->pt[p].seen_own > 0 ? g->pt[p].seen_own : c.obs;
            /* the earliest stone of the side to move read first after a pass by the other side
               (out of turn) was placed before it, its one view misread (the pass waits) */
            if (c.was == GO_EMPTY && g->nqueue > 0 && own > g->queue[0].obs &&
                g->queue[0].who != go_game_to_move(game) && bel == (uint8_t)go_game_to_move(game)) {
                after_pass |= odd_own >= 0; /* the later ones come after the pass */
                /* read first in the same view: the one read earlier in any colour first */
                if (odd_own < 0 || own < odd_own || (own == odd_own && c.obs < odd.obs))
                    odd_own = own, odd = c;
                continue;
            }
            if (c.was == GO_EMPTY && g->nqueue > 0 && own > g->queue[0].obs) {
                after_pass = true; /* after a pass still waiting for the stones before it */
                continue;
            }
            if (c.was == GO_EMPTY)
                adds[na++] = c;
            else
                rest[nrest++] = c;
        }
    if (odd_own >= 0) { /* only when no stone of the side to move came before the pass */
        bool before = false;
        for (int k = 0; k < na; k++) before |= adds[k].now == odd.now;
        /* nor while a stone of that colour read as early is still being confirmed (on a
           prisoner's point: the prisoner's belief holds until the new stone is sure) */
        before |= candidate_since(g, odd.now, odd_own);
        if (!before) adds[na++] = odd;
        after_pass |= before;
    }
    qsort(adds, (size_t)na, sizeof *adds, gog_change_order);
    d->na = na;
    d->nrest = nrest;
    d->after_pass = after_pass;
}

void gog_explain(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing, struct evbuf *b)
{
    struct gog_diff d;
    struct gog_plan p;
    gog_undo_doubtful_replay(g, t, frame, b);
    gog_illegal_taken_back(g, b);
    collect_changes(g, &d);
    if (!d.na && !d.nrest) {
        g->wait_sig = 0;
        g->wait = 0;
        return;
    }
    gog_plan_moves(g, &d, flushing, &p);
    bool disturbed = p.nleft >= g->cfg.disturbed_min;
    long first_bad = -1;
    for (int k = 0; k < p.nleft; k++)
        if (first_bad < 0 || p.left[k].obs < first_bad) first_bad = p.left[k].obs;
    if (disturbed) gog_commit_plan_before(g, &p, first_bad, flushing, b);
    /* Moves out of the order they were seen, or moves accepted while a change stays unexplained
     * (a stone seen once and captured at once, its captures taken for a removal): the views are
     * read back first. */
    if ((p.reordered || (p.nleft > 0 && p.n > 0)) && !flushing && !g->open_ply &&
        gog_decode(g, t, frame, b))
        return;
    if (!disturbed) gog_commit_plan(g, &p, t, frame, flushing, b);
    if (!p.has_blocker && !p.nleft) {
        g->wait_sig = 0;
        g->wait = 0;
        return;
    }
    /* stones after a pass still waiting may explain what was taken off (a capture): the pass
       first (a stone out of turn before it is judged as usual) */
    if (d.after_pass && !p.has_blocker && !flushing) return;
    gog_flag_unexplained(g, &p, disturbed, first_bad, t, frame, flushing, b);
}

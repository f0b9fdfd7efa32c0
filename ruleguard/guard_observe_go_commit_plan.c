/* ruleguard/guard_observe_go_commit_plan.c — the plan's moves (guard_observe_go_plan.c) into the
 * game, each dated by its first reading, with a note on the moves accepted under doubt (a stone
 * seen once or never, captured at once): the record says why the guard believed them.
 */
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

/* A disturbed board: the moves seen before the disturbance still count (the flag belongs after
 * them); the rest waits for the restoration. */
void gog_commit_plan_before(struct go_obs_guard *g, const struct gog_plan *p, long first_bad,
                            bool flushing, struct evbuf *b)
{
    for (int k = 0; k < p->n; k++) {
        if (!gog_ev_room(b, GUARD_MAX_EVENTS + 2) || p->from[k] < 0) break;
        const struct point_state *s = &g->pt[p->from[k]];
        if (s->seen_obs >= first_bad) break;
        gog_commit_move(g, p->move[k], s->seen_t, s->seen_frame, s, s->seen_obs, flushing, b);
    }
}

/* Every move of the plan: stones read (dated by their first reading), stones seen once and
 * captured at once (dated by that one view, or by their capturer when never read), and passes
 * assumed between two stones of one colour. */
void gog_commit_plan(struct go_obs_guard *g, const struct gog_plan *p, int64_t t, uint64_t frame,
                     bool flushing, struct evbuf *b)
{
    /* a stone seen once, played in its slot and taken off since (p->early_gone): it went after
       the last move read with it or before it */
    int gone_ply = -1;
    long gone_obs = -1;
    for (int k = 0; k < p->n; k++) {
        if (!gog_ev_room(b, GUARD_MAX_EVENTS + 2)) break;
        const struct point_state *s = p->from[k] >= 0 ? &g->pt[p->from[k]] : NULL;
        int n0 = b->n;
        if (p->early[k] && p->move[k].point == p->early_gone) {
            const struct point_state *h = &g->pt[p->early_gone];
            int c = p->move[k].color;
            gone_obs = h->stone_obs[c];
            gog_commit_move(g, p->move[k], h->stone_t[c], h->stone_frame[c], NULL,
                            h->stone_first[c], false, b);
            gog_doubt_events(b, n0, "accepted under doubt: seen once, played when it was read");
            gone_ply = gog_ply_of(g) + 1;
            continue;
        }
        if (gone_ply >= 0 && s && s->seen_obs <= gone_obs) gone_ply = gog_ply_of(g) + 2;
        if (p->from[k] <= -2) {
            /* seen once, captured at once */
            const struct point_state *h = &g->pt[-2 - p->from[k]];
            int c = p->move[k].color;
            if (p->unseen_by[k] >= 0) {
                /* never read: dated by the stone that captured it */
                const struct point_state *by = &g->pt[p->unseen_by[k]];
                gog_commit_move(g, p->move[k], by->seen_t, by->seen_frame, NULL, by->seen_obs,
                                false, b);
                gog_doubt_events(b, n0,
                                 p->unseen_fits[k] > 1
                                     ? "accepted under doubt: never seen, thrown in and "
                                       "captured by the reply before a view; another point "
                                       "fits as well"
                                     : "accepted under doubt: never seen, thrown in and "
                                       "captured by the reply before a view");
                continue;
            }
            gog_commit_move(g, p->move[k], h->stone_t[c], h->stone_frame[c], NULL,
                            h->stone_first[c], false, b);
            int q = p->move[k].point;
            if (p->end[q] == c && g->pt[q].belief == GO_EMPTY) {
                /* it captured and stands (the empty reading after it was the misread): the
                   board holds it until it is surely read gone */
                g->pt[q].belief = (uint8_t)c;
                g->pt[q].cand_active = false;
                gog_doubt_events(b, n0, "accepted under doubt: seen once, it explains the capture");
                continue;
            }
            gog_doubt_events(b, n0,
                             p->early[k] ? "accepted under doubt: seen once, played when it "
                                           "was read, captured later"
                                         : "accepted under doubt: seen once, captured by the "
                                           "reply");
            continue;
        }
        if (k == p->unseen_at) {
            /* not seen: dated by the stone seen after it */
            const struct point_state *next =
                k + 1 < p->n && p->from[k + 1] >= 0 ? &g->pt[p->from[k + 1]] : NULL;
            gog_commit_move(g, p->move[k], next ? next->seen_t : t, next ? next->seen_frame : frame,
                            NULL, next ? next->seen_obs : -1, false, b);
            gog_unseen_commit(g, p, n0, t, frame, b);
            continue;
        }
        gog_commit_move(g, p->move[k], s ? s->seen_t : t, s ? s->seen_frame : frame, s,
                        s ? s->seen_obs : -1, flushing, b);
        if (p->guessed[k])
            gog_doubt_events(b, n0,
                             "accepted under doubt: a stone of its colour came into view with "
                             "it, which came first is a guess");
        if (p->from[k] == -1)
            for (int e = n0; e < b->n; e++)
                if (b->ev[e].kind == GUARD_PASS) {
                    b->ev[e].reason = GUARD_REASON_SIGNAL;
                    strncat(b->ev[e].text, " (assumed: the same colour played twice)",
                            sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
                }
    }
    if (gone_ply >= 0 && g->pt[p->early_gone].belief == GO_EMPTY &&
        gog_expected_at(g, p->early_gone) != GO_EMPTY) {
        struct change ch = {p->early_gone, gog_expected_at(g, p->early_gone), GO_EMPTY, g->nobs, t};
        gog_flag_board(g, &ch, 1, gone_ply, t, frame, b);
    }
}

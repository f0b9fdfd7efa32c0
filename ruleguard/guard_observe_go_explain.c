/* ruleguard/guard_observe_go_explain.c — the difference between belief and expected board,
 * explained by moves of alternating colours through the rules core, or left to flag after a wait.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

static int cmp_change(const void *a, const void *b)
{
    const struct change *x = a, *y = b;
    if (x->obs != y->obs) return x->obs < y->obs ? -1 : 1;
    return x->point - y->point;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

/* A change the guard cannot yet gog_explain: wait until the same situation has been seen in
 * max_wait_obs observations (an unconfirmed capturing stone, a restoration under way). */
static bool waited_enough(struct go_obs_guard *g, uint64_t sig, bool flushing)
{
    if (flushing) return true;
    if (sig != g->wait_sig) {
        g->wait_sig = sig;
        g->wait = 1;
    } else {
        g->wait++;
    }
    return g->wait >= g->cfg.max_wait_obs;
}

/* After an ILLEGAL_MOVE or TWO_MOVES flag: does this change put a point back the way it was
 * before the flagged move (a restoration under way)? */
static bool restoring(const struct go_obs_guard *g, const struct change *c)
{
    return g->open_ply > 0 && g->snap[g->open_ply - 1][c->point] == c->now;
}

/* Could a stone of colour c at q, empty in the game, have stood there until observation `until`
 * and be gone now? The last sure reading of q before `until` (in the last few views) is c, and
 * the last reading of q is empty. An old stone read before it was captured, or a new stone
 * still standing, is no such stone. One view just before `until` may already show q empty (the
 * capturing stone misread there). A prisoner of colour c still believed on its point may be
 * one: taken off and its point played again between two views. */
static bool stood_until(const struct go_obs_guard *g, int q, uint8_t c, long until)
{
    const struct point_state *s = &g->pt[q];
    if (!s->has_last) return false;
    /* or read gone since, and c read there again now (its point played again: a ko) */
    bool again = s->last == c && go_game_at(gog_game_of(g), q) == GO_EMPTY &&
                 gog_read_empty_between(g, q, until, g->nobs);
    if (s->last != GO_EMPTY && !again) return false;
    int pi = gog_pending_index(g, q);
    if (s->belief != GO_EMPTY && !again && !(s->belief == c && pi >= 0 && g->pend[pi].color == c))
        return false;
    bool slack = true;
    for (long o = until - 1; o >= until - 6 && o >= 1 && o > g->nobs - GOG_VIEWS; o--) {
        const struct gog_view *v = &g->views[o % GOG_VIEWS];
        if (v->obs != o || v->v[q] == GOG_UNREAD) continue;
        if (v->v[q] == c) return true;
        if (v->sure[q] && !(slack && v->v[q] == GO_EMPTY)) return false;
        if (v->sure[q]) slack = false;
    }
    return false;
}

/* A stone of colour c out of turn at `at`, on the last liberty of a point q next to it that
 * is empty and surrounded by c otherwise (an eye): the side to move may have thrown a stone in at
 * q that `at` captured before any view read it. The caller asks only when a stone of the side to
 * move came after (a reply elsewhere: with two moves in a row the other side waits for the
 * referee). Two such eyes (a chain just captured, its points empty again) may look the same in
 * every view: the one read in doubt since the last move is taken, else the first; *fits tells
 * how many there were. Returns q or -1. */
static int unseen_throw_in(const struct go_obs_guard *g, const struct go_game *sim, int at,
                           enum go_color c, enum go_color tm, int *fits)
{
    static const int dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int found = -1;
    bool found_hint = false;
    for (int k = 0; k < 4; k++) {
        int x = go_x(at) + dir[k][0], y = go_y(at) + dir[k][1];
        if (x < 0 || y < 0 || x >= g->w || y >= g->h) continue;
        int q = go_point(x, y);
        if (go_game_at(sim, q) != GO_EMPTY) continue;
        /* believed empty, or a prisoner of tm still believed there (its point played again) */
        int pi = gog_pending_index(g, q);
        if (g->pt[q].belief != GO_EMPTY &&
            !(g->pt[q].belief == tm && pi >= 0 && g->pend[pi].color == tm))
            continue;
        struct go_game *cp = go_game_copy(sim);
        struct go_verdict v1 = go_game_play(cp, (struct go_move){tm, q});
        bool ok = v1.kind == GO_LEGAL && v1.captured == 0;
        if (ok) {
            struct go_verdict v2 = go_game_play(cp, (struct go_move){c, at});
            ok = v2.kind == GO_LEGAL && v2.captured == 1 && go_game_at(cp, q) == GO_EMPTY;
        }
        go_game_free(cp);
        if (!ok) continue;
        (*fits)++;
        /* of two, the one read in doubt (or as tm) in a view since the last move */
        bool hint = false;
        for (long o = g->anchor_obs; o <= g->nobs && !hint; o++) {
            const struct gog_view *v = &g->views[o % GOG_VIEWS];
            if (o > 0 && o > g->nobs - GOG_VIEWS && v->obs == o)
                hint = v->doubt[q] || v->v[q] == tm;
        }
        if (found < 0 || (hint && !found_hint)) found = q, found_hint = hint;
    }
    return found;
}

/* A stone of the other colour out of turn, first seen at observation at_obs, may be the capture
 * of a stone the side to move put down and that came off before it could be confirmed (seen
 * once, surely) — next to it, or joined to the captured chain; with unseen (not NULL), a stone
 * thrown in and never read (unseen_throw_in, *unseen: how many points fit, 0 when it was seen).
 * Returns that point, or -1 (none, or more than one: then the views are read back before a
 * flag). */
static int hidden_capture(const struct go_obs_guard *g, const struct go_game *sim, int at,
                          long at_obs, enum go_color c, enum go_color tm, int *unseen)
{
    if (unseen) *unseen = 0;
    int found = -1, seen = 0;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int q = go_point(x, y);
            if (q == at || go_game_at(sim, q) != GO_EMPTY) continue;
            if (!stood_until(g, q, (uint8_t)tm, at_obs)) continue;
            struct go_game *cp = go_game_copy(sim);
            bool ok = go_game_play(cp, (struct go_move){tm, q}).kind == GO_LEGAL &&
                      go_game_play(cp, (struct go_move){c, at}).kind == GO_LEGAL &&
                      go_game_at(cp, q) == GO_EMPTY;
            go_game_free(cp);
            if (!ok) continue;
            found = q;
            seen++;
        }
    if (seen == 1) return found;
    /* none read, or several (the points of a chain just captured, read while it stood); a
       stone of the side to move still being confirmed may be its move: no unseen one then */
    return unseen && !gog_tentative_stone(g, (uint8_t)tm)
               ? unseen_throw_in(g, sim, at, c, tm, unseen)
               : -1;
}

/* New stones of colour tm, not yet planned, all first read (in any confidence) after
 * observation obs, at least one? One read as early may be tm's move itself. */
static bool reply_after(const struct go_obs_guard *g, const struct change *adds, int na,
                        const bool *taken, uint8_t tm, long obs)
{
    bool any = false;
    for (int k = 0; k < na; k++) {
        if (taken[k] || adds[k].now != tm) continue;
        long first = g->pt[adds[k].point].stone_first[tm];
        if (adds[k].obs <= obs || (first > 0 && first <= obs)) return false;
        any = true;
    }
    return any;
}

/* Is a stone of the other colour, seen no later than obs, still being confirmed while it could
 * be the reply that captured a stone of the side to move seen once? Then it may come first. */
static bool tentative_hidden(const struct go_obs_guard *g, const struct go_game *sim, long obs,
                             enum go_color tm)
{
    uint8_t c = (uint8_t)go_other(tm);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            long first = s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
            if (!s->cand_active || s->cand != c || s->belief != GO_EMPTY || s->last != c ||
                first > obs || go_game_at(sim, p) != GO_EMPTY)
                continue;
            if (hidden_capture(g, sim, p, first, (enum go_color)c, tm, NULL) >= 0) return true;
        }
    return false;
}

/* A stone taken off (first seen gone at observation removed_obs, and still read gone) that no
 * move explains may have been captured by a stone of the side to move seen once and captured
 * back at once (a snapback): find that stone. -1 when none, or more than one. */
static int hidden_capturer(const struct go_obs_guard *g, const struct go_game *sim, int removed,
                           long removed_obs, enum go_color tm)
{
    if (!g->pt[removed].has_last || g->pt[removed].last != GO_EMPTY) return -1;
    int found = -1;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int q = go_point(x, y);
            if (go_game_at(sim, q) != GO_EMPTY) continue;
            if (!stood_until(g, q, (uint8_t)tm, removed_obs + 1)) continue;
            struct go_game *cp = go_game_copy(sim);
            bool ok = go_game_play(cp, (struct go_move){tm, q}).kind == GO_LEGAL &&
                      go_game_at(cp, removed) == GO_EMPTY;
            go_game_free(cp);
            if (!ok) continue;
            if (found >= 0) return -1;
            found = q;
        }
    return found;
}

/* Does a stone of the other colour, seen among the additions, capture `point` once `a` is
 * played? Then a stone of a's colour gone at the same time was captured, not moved. */
static bool captured_by_other(const struct go_game *sim, const struct change *a,
                              const struct change *adds, int na, const bool *taken, int point)
{
    for (int k = 0; k < na; k++) {
        if (taken[k] || adds[k].now == a->now) continue;
        struct go_game *cp = go_game_copy(sim);
        enum go_color c = (enum go_color)a->now;
        if (go_game_to_move(cp) != c) go_game_play(cp, (struct go_move){go_other(c), GO_PASS});
        bool ok = go_game_play(cp, (struct go_move){c, a->point}).kind == GO_LEGAL &&
                  go_game_play(cp, (struct go_move){go_other(c), adds[k].point}).kind == GO_LEGAL &&
                  go_game_at(cp, point) == GO_EMPTY;
        go_game_free(cp);
        if (ok) return true;
    }
    return false;
}

/* Is a new stone of colour c, on a point empty in the game, still being confirmed (it may
 * capture what was taken off)? A stone read again where the game has one is a restoration. */
static bool tentative_capturer(const struct go_obs_guard *g, uint8_t c)
{
    const struct go_game *game = gog_game_of(g);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (s->cand_active && s->cand == c && s->belief == GO_EMPTY &&
                go_game_at(game, p) == GO_EMPTY && (!s->last_known || s->last == c))
                return true;
        }
    return false;
}

/* Is a change away from the expected board still being confirmed somewhere (the disturbance
 * still growing)? Stones read back where the game has them are a restoration, not growth. */
static bool change_growing(const struct go_obs_guard *g)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            uint8_t e = gog_expected_at(g, p);
            if (s->cand_active && s->cand != e && s->belief == e && s->last_known &&
                s->last == s->cand && g->mask[p] < 0)
                return true;
        }
    return false;
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

void gog_explain(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing, struct evbuf *b)
{
    struct change adds[GO_POINTS], rest[GO_POINTS];
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
            struct change c = {p, (uint8_t)go_game_at(game, p), bel, g->pt[p].seen_obs};
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
    if (!na && !nrest) {
        g->wait_sig = 0;
        g->wait = 0;
        return;
    }
    qsort(adds, (size_t)na, sizeof *adds, cmp_change);

    /* Simulate the moves on a copy: which removals do their captures gog_explain? A stone of the
     * wrong colour (out of turn) stops the plan: it is a flag, after a wait. */
    struct go_game *sim = go_game_copy(game);
    struct go_move plan[GUARD_OBS_MAX_EVENTS];
    int plan_from[GUARD_OBS_MAX_EVENTS], nplan = 0, handicap_left = g->handicap_left;
    int unseen_by[GUARD_OBS_MAX_EVENTS]; /* a stone never read: the point of its capturer */
    int unseen_fits[GUARD_OBS_MAX_EVENTS];
    for (int k = 0; k < GUARD_OBS_MAX_EVENTS; k++) unseen_by[k] = unseen_fits[k] = -1;
    const struct change *blocker = NULL;
    bool maybe = false; /* an explanation may still come: wait longer */
    bool taken[GO_POINTS] = {false};
    bool reordered = false;
    bool illegal = false; /* the blocker is an illegal move of the side to move */
    for (int step = 0; step < na && nplan < GUARD_OBS_MAX_EVENTS / 3; step++) {
        /* The next stone: the earliest seen of the side to move (a hand may have hidden a stone
         * longer than the reply to it); one of the other colour only when there is none. */
        enum go_color tm = go_game_to_move(sim);
        bool handicap_now = handicap_left > 0;
        int pick = -1;
        /* the earliest stone, out of turn but explained by a stone captured at once, first */
        long first_tm = -1; /* when the earliest stone of the side to move was seen */
        for (int k = 0; k < na && first_tm < 0; k++)
            if (!taken[k] && adds[k].now == tm) first_tm = adds[k].obs;
        for (int k = 0; k < na && pick < 0 && !handicap_now; k++) {
            if (taken[k]) continue;
            if (first_tm >= 0 && adds[k].obs > first_tm) break;
            if (adds[k].now == tm) continue;
            int fits;
            int q = hidden_capture(
                g, sim, adds[k].point, adds[k].obs, (enum go_color)adds[k].now, tm,
                reply_after(g, adds, na, taken, (uint8_t)tm, adds[k].obs) ? &fits : NULL);
            /* first read with a stone of the side to move, the stone "seen" at q being a
               prisoner of the last move read before it came off: that stone first explains both */
            int ply = gog_ply_of(g);
            if (q >= 0 && adds[k].obs == first_tm && ply > 0 && g->snap[ply - 1][q] == tm &&
                go_game_at(game, q) == GO_EMPTY)
                continue;
            if (q >= 0) pick = k;
        }
        for (int k = 0; k < na && pick < 0; k++)
            if (!taken[k] && !handicap_now && adds[k].now == tm) pick = k;
        for (int k = 0; k < na && pick < 0; k++)
            if (!taken[k]) pick = k;
        if (pick < 0) break;
        /* a stone of the side to move put before a reply seen earlier: a guess (a hand hid
           it, or a stone between them was never read); the views are read back first */
        for (int k = 0; k < na; k++)
            if (!taken[k] && k != pick && adds[k].now != tm && adds[k].obs < adds[pick].obs)
                reordered = true;
        taken[pick] = true;
        const struct change *a = &adds[pick];
        enum go_color c = (enum go_color)a->now;
        /* the same colour taken off elsewhere at the same time: a moved stone, not a move */
        bool moved = false;
        for (int k = 0; k < nrest; k++)
            if (rest[k].now == GO_EMPTY && rest[k].was == c && rest[k].obs == a->obs &&
                go_game_at(sim, rest[k].point) == c &&
                !captured_by_other(sim, a, adds, na, taken, rest[k].point))
                moved = true;
        if (moved) {
            rest[nrest++] = *a;
            continue;
        }
        if (restoring(g, a) || gog_tentative_before(g, a->now, a->obs) ||
            (!flushing && gog_stone_in_doubt(g, sim, a->point, a->now, a->obs)) ||
            gog_tentative_removal(g, a->now, a->obs) ||
            (c == tm && tentative_hidden(g, sim, a->obs, tm))) {
            blocker = a;
            maybe = true;
            break;
        }
        bool handicap = handicap_left > 0 && c == GO_BLACK;
        int fits = 0;
        int hidden = !handicap && c != tm
                         ? hidden_capture(
                               g, sim, a->point, a->obs, c, tm,
                               reply_after(g, adds, na, taken, (uint8_t)tm, a->obs) ? &fits : NULL)
                         : -1;
        if (hidden >= 0) {
            go_game_play(sim, (struct go_move){tm, hidden});
            plan[nplan] = (struct go_move){tm, hidden};
            unseen_by[nplan] = fits ? a->point : -1;
            unseen_fits[nplan] = fits;
            plan_from[nplan++] = -2 - hidden;
            go_game_play(sim, (struct go_move){c, a->point});
            plan[nplan] = (struct go_move){c, a->point};
            plan_from[nplan++] = a->point;
            handicap_left = 0;
            continue;
        }
        /* An illegal move (ko, suicide) is a flag only after a wait: the next views may show
         * a legal exchange the guard read too slowly (gog_decode). */
        if (!handicap && c == tm && !flushing && !g->open_ply &&
            go_game_check(sim, (struct go_move){c, a->point}).kind != GO_LEGAL) {
            blocker = a;
            illegal = true;
            break;
        }
        if (!handicap && c != tm && !g->cfg.assume_pass) {
            blocker = a;
            maybe = gog_tentative_stone(g, (uint8_t)tm);
            break;
        }
        if (!handicap && c != tm) {
            plan[nplan] = (struct go_move){tm, GO_PASS};
            plan_from[nplan++] = -1;
            go_game_play(sim, (struct go_move){tm, GO_PASS});
        }
        if (handicap) {
            handicap_left--;
            go_game_setup(sim, GO_BLACK, a->point);
        } else {
            handicap_left = 0;
            go_game_play(sim, (struct go_move){c, a->point});
        }
        plan[nplan] = (struct go_move){c, a->point};
        plan_from[nplan++] = a->point;
    }
    if (!blocker)
        for (int k = 0; k < nrest && nplan < GUARD_OBS_MAX_EVENTS / 3; k++) {
            enum go_color tm = go_game_to_move(sim);
            const struct change *r = &rest[k];
            if (r->now != GO_EMPTY || r->was != go_other(tm) ||
                go_game_at(sim, r->point) == GO_EMPTY)
                continue;
            int q = hidden_capturer(g, sim, r->point, r->obs, tm);
            if (q < 0) continue;
            go_game_play(sim, (struct go_move){tm, q});
            plan[nplan] = (struct go_move){tm, q};
            plan_from[nplan++] = -2 - q;
        }
    /* What the moves do not gog_explain: removals their captures do not cover, changed colours. */
    struct change left[GO_POINTS];
    int nleft = 0;
    bool capturer = false; /* a stone that could capture a removal is still being confirmed */
    for (int k = 0; k < nrest; k++) {
        const struct change *r = &rest[k];
        if (r->was != GO_EMPTY && r->now == GO_EMPTY && go_game_at(sim, r->point) == GO_EMPTY)
            continue; /* captured by a planned move */
        left[nleft++] = *r;
        if (restoring(g, r)) maybe = true;
        if (r->now == GO_EMPTY && gog_tentative_stone(g, (uint8_t)go_other((enum go_color)r->was)))
            maybe = true; /* a capturing stone not yet confirmed */
        if (r->now == GO_EMPTY && tentative_capturer(g, (uint8_t)go_other((enum go_color)r->was)))
            capturer = true;
    }
    uint8_t end[GO_POINTS]; /* the board after the plan */
    gog_board_of(sim, end);
    go_game_free(sim);

    bool disturbed = nleft >= g->cfg.disturbed_min;
    /* A disturbed board: the moves seen before the disturbance still count (the flag belongs
     * after them); the rest waits for the restoration. */
    long first_bad = -1;
    for (int k = 0; k < nleft; k++)
        if (first_bad < 0 || left[k].obs < first_bad) first_bad = left[k].obs;
    if (disturbed)
        for (int k = 0; k < nplan; k++) {
            if (!gog_ev_room(b, GUARD_MAX_EVENTS + 2) || plan_from[k] < 0) break;
            const struct point_state *s = &g->pt[plan_from[k]];
            if (s->seen_obs >= first_bad) break;
            gog_commit_move(g, plan[k], s->seen_t, s->seen_frame, s, s->seen_obs, flushing, b);
        }
    /* Moves out of the order they were seen, or moves accepted while a change stays unexplained
     * (a stone seen once and captured at once, its captures taken for a removal): the views are
     * read back first. */
    if ((reordered || (nleft > 0 && nplan > 0)) && !flushing && !g->open_ply &&
        gog_decode(g, t, frame, b))
        return;
    if (!disturbed) {
        for (int k = 0; k < nplan; k++) {
            if (!gog_ev_room(b, GUARD_MAX_EVENTS + 2)) break;
            const struct point_state *s = plan_from[k] >= 0 ? &g->pt[plan_from[k]] : NULL;
            int n0 = b->n;
            if (plan_from[k] <= -2) {
                /* seen once, captured at once */
                const struct point_state *h = &g->pt[-2 - plan_from[k]];
                int c = plan[k].color;
                if (unseen_by[k] >= 0) {
                    /* never read: dated by the stone that captured it */
                    const struct point_state *by = &g->pt[unseen_by[k]];
                    gog_commit_move(g, plan[k], by->seen_t, by->seen_frame, NULL, by->seen_obs,
                                    false, b);
                    for (int e = n0; e < b->n; e++)
                        if (b->ev[e].kind == GUARD_MOVE)
                            strncat(b->ev[e].text,
                                    unseen_fits[k] > 1
                                        ? " (accepted under doubt: never seen, thrown in and "
                                          "captured by the reply before a view; another point "
                                          "fits as well)"
                                        : " (accepted under doubt: never seen, thrown in and "
                                          "captured by the reply before a view)",
                                    sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
                    continue;
                }
                gog_commit_move(g, plan[k], h->stone_t[c], h->stone_frame[c], NULL,
                                h->stone_first[c], false, b);
                int q = plan[k].point;
                if (end[q] == c && g->pt[q].belief == GO_EMPTY) {
                    /* it captured and stands (the empty reading after it was the misread): the
                       board holds it until it is surely read gone */
                    g->pt[q].belief = (uint8_t)c;
                    g->pt[q].cand_active = false;
                    for (int e = n0; e < b->n; e++)
                        if (b->ev[e].kind == GUARD_MOVE)
                            strncat(b->ev[e].text,
                                    " (accepted under doubt: seen once, it explains the capture)",
                                    sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
                    continue;
                }
                for (int e = n0; e < b->n; e++)
                    if (b->ev[e].kind == GUARD_MOVE)
                        strncat(b->ev[e].text,
                                " (accepted under doubt: seen once, captured by the reply)",
                                sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
                continue;
            }
            gog_commit_move(g, plan[k], s ? s->seen_t : t, s ? s->seen_frame : frame, s,
                            s ? s->seen_obs : -1, flushing, b);
            if (plan_from[k] == -1)
                for (int e = n0; e < b->n; e++)
                    if (b->ev[e].kind == GUARD_PASS) {
                        b->ev[e].reason = GUARD_REASON_SIGNAL;
                        strncat(b->ev[e].text, " (assumed: the same colour played twice)",
                                sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
                    }
        }
    }
    if (!blocker && !nleft) {
        g->wait_sig = 0;
        g->wait = 0;
        return;
    }
    /* stones after a pass still waiting may explain what was taken off (a capture): the pass
       first (a stone out of turn before it is judged as usual) */
    if (after_pass && !blocker && !flushing) return;
    uint64_t sig = 0x51;
    if (blocker) sig = mix(sig, (uint64_t)blocker->point * 3 + blocker->now);
    for (int k = 0; k < nleft; k++) sig = mix(sig, (uint64_t)left[k].point * 7 + left[k].now);
    bool ready = waited_enough(g, sig, flushing);
    if (maybe && !flushing && g->wait < 2 * g->cfg.max_wait_obs + 1) ready = false;
    /* The wait restarts whenever the unexplained set changes; a board changing at every
     * observation (swept, then stones put back one by one in a new game) would never flag. A
     * change still unexplained this many observations after it was first seen flags anyway. */
    if (!flushing && disturbed && first_bad > 0 && !capturer && !(blocker && maybe) &&
        !change_growing(g) && g->nobs - first_bad + 1 >= 2 * g->cfg.max_wait_obs + 1)
        ready = true;
    if (!ready) return;
    /* the illegal stone read gone at this very view: a prisoner still coming off (captured
       before its own readings confirmed it), or a misread; the next view tells */
    bool hold = illegal && !flushing && g->pt[blocker->point].last_known &&
                g->pt[blocker->point].last == GO_EMPTY;
    if (!hold) {
        g->wait_sig = 0;
        g->wait = 0;
    }
    /* Before a flag: a short sequence of legal moves the last views show (a ko fight or a
     * snapback played faster than the views) explains it better. */
    if (!g->open_ply && gog_decode(g, t, frame, b)) return;
    if (hold) return;
    if (blocker && !disturbed && !restoring(g, blocker)) {
        /* Out of turn: two moves in a row, or an unseen pass; the rules core flags it. The rest
         * is judged at the next observation. */
        const struct point_state *s = &g->pt[blocker->point];
        if (gog_ev_room(b, GUARD_MAX_EVENTS + 1))
            gog_commit_move(g, (struct go_move){(enum go_color)blocker->now, blocker->point},
                            s->seen_t, s->seen_frame, s, s->seen_obs, flushing, b);
        for (int e = 0; e < b->n; e++)
            if (b->ev[e].kind == GUARD_TWO_MOVES) {
                size_t used = strlen(b->ev[e].text);
                snprintf(b->ev[e].text + used, sizeof b->ev[e].text - used,
                         "; either %s passed unseen, or two moves in a row (Chinese 1988 §17.1): "
                         "the referee decides",
                         gog_color_name(go_other((enum go_color)blocker->now)));
            }
        return;
    }
    if (blocker) left[nleft++] = *blocker;
    int swept =
        disturbed && !blocker && !g->open_ply ? gog_swept_move(g, left, nleft, first_bad) : -1;
    if (swept >= 0 && gog_ev_room(b, GUARD_MAX_EVENTS + 2)) {
        /* the last move, read once and swept off with the others: played, then disturbed */
        const struct point_state *s = &g->pt[swept];
        enum go_color c = go_game_to_move(gog_game_of(g));
        int n0 = b->n;
        gog_commit_move(g, (struct go_move){c, swept}, s->stone_t[c], s->stone_frame[c], NULL,
                        first_bad - 1, flushing, b);
        for (int e = n0; e < b->n; e++)
            if (b->ev[e].kind == GUARD_MOVE)
                strncat(b->ev[e].text,
                        " (accepted under doubt: read once, then swept off with the stones "
                        "around it)",
                        sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
        left[nleft++] = (struct change){swept, (uint8_t)c, GO_EMPTY, first_bad};
    }
    qsort(left, (size_t)nleft, sizeof *left, cmp_change);
    gog_flag_board(g, left, nleft, t, frame, b);
}

/* ruleguard/guard_observe_go_unseen.c — moves no view confirmed: a stone of the side to move
 * that came off before its readings could confirm it (captured by the reply at once, thrown in and
 * never read, or captured back in a snapback). Views come every few seconds; a fast exchange falls
 * between them, and without these a legal exchange would be flagged as a stone out of turn or a
 * stone removed.
 */
#include "ruleguard/guard_observe_go_internal.h"

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
int gog_hidden_capture(const struct go_obs_guard *g, const struct go_game *sim, int at, long at_obs,
                       enum go_color c, enum go_color tm, int *unseen)
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

/* Is a stone of the other colour, seen no later than obs, still being confirmed while it could
 * be the reply that captured a stone of the side to move seen once? Then it may come first. */
bool gog_tentative_hidden(const struct go_obs_guard *g, const struct go_game *sim, long obs,
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
            if (gog_hidden_capture(g, sim, p, first, (enum go_color)c, tm, NULL) >= 0) return true;
        }
    return false;
}

/* A stone taken off (first seen gone at observation removed_obs, and still read gone) that no
 * move explains may have been captured by a stone of the side to move seen once and captured
 * back at once (a snapback): find that stone. -1 when none, or more than one. */
int gog_hidden_capturer(const struct go_obs_guard *g, const struct go_game *sim, int removed,
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

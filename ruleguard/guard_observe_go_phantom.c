/* ruleguard/guard_observe_go_phantom.c — a new stone confirmed on the fewest readings may be a
 * misread read surely twice (rare, but over a long game it happens): before it becomes a move,
 * the guard waits while the next view can still tell it from the stone actually played. */
#include "ruleguard/guard_observe_go_internal.h"

/* Is the stone believed at p being read away (its latest readings another value, not yet
 * confirmed)? A move is not made of a stone going. */
static bool being_read_away(const struct point_state *s)
{
    return s->cand_active && s->cand != s->belief && s->last_known && s->last == s->cand;
}

/* Views since `from` reading p as c. */
static int reads_since(const struct go_obs_guard *g, int p, uint8_t c, long from)
{
    int n = 0;
    for (long o = from; o <= g->nobs; o++) {
        if (o <= g->nobs - GOG_VIEWS) continue;
        const struct gog_view *v = &g->views[o % GOG_VIEWS];
        n += v->obs == o && v->v[p] == c;
    }
    return n;
}

/* When was a new stone of colour c at p (empty in the game, no prisoner) first seen, believed or
 * still being confirmed? 0 when there is none. */
static long new_stone_since(const struct go_obs_guard *g, int p, uint8_t c)
{
    const struct point_state *s = &g->pt[p];
    if (go_game_at(gog_game_of(g), p) != GO_EMPTY || gog_expected_at(g, p) != GO_EMPTY) return 0;
    if (s->belief == c && g->mask[p] < 0) return s->seen_obs;
    if (s->cand_active && s->cand == c && s->belief == GO_EMPTY && s->last_known && s->last == c)
        return s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
    return 0;
}

/* Another stone of colour c, new, read surely now, still being confirmed and first seen no earlier
 * than `obs`, with no stone of the other colour seen before it that the plan (sim) has not played:
 * a rival for the same move, not the next move of that colour. */
static bool rival_tentative(const struct go_obs_guard *g, const struct go_game *sim, int at,
                            uint8_t c, long obs)
{
    uint8_t o = c == GO_BLACK ? GO_WHITE : GO_BLACK;
    long reply = 0; /* the earliest new stone of the other colour the plan has not played */
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            if (go_game_at(sim, p) != GO_EMPTY) continue;
            long since = new_stone_since(g, p, o);
            if (since > 0 && (!reply || since < reply)) reply = since;
        }
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            if (p == at || g->pt[p].belief != GO_EMPTY) continue;
            /* read surely now: a doubtful single reading is a misread as likely as any */
            const struct gog_view *v = &g->views[g->nobs % GOG_VIEWS];
            if (v->obs != g->nobs || v->v[p] != c || !v->sure[p]) continue;
            long first = new_stone_since(g, p, c);
            if (first >= obs && first > 0 && (!reply || reply > first)) return true;
        }
    return false;
}

/* Is the stone at p (colour c) gone because a reply took it: a neighbour read empty since
 * `first` and now read as the other colour (a ko retaken, a snapback)? A capture, not a misread. */
static bool taken_by_reply(const struct go_obs_guard *g, int p, uint8_t c, long first)
{
    static const int dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    uint8_t o = c == GO_BLACK ? GO_WHITE : GO_BLACK;
    for (int k = 0; k < 4; k++) {
        int x = go_x(p) + dir[k][0], y = go_y(p) + dir[k][1];
        if (x < 0 || y < 0 || x >= g->w || y >= g->h) continue;
        int q = go_point(x, y);
        const struct point_state *s = &g->pt[q];
        if (s->last_known && s->last == o && gog_read_empty_between(g, q, first, g->nobs))
            return true;
    }
    return false;
}

bool gog_stone_in_doubt(const struct go_obs_guard *g, const struct go_game *sim, int p, uint8_t c,
                        long first)
{
    const struct point_state *s = &g->pt[p];
    if (taken_by_reply(g, p, c, first)) return false;
    if (being_read_away(s)) return true;
    /* read just enough to confirm, while another stone of its colour is coming: one more view
       tells which is the move (a misread is rarely read a third time) */
    /* not while prisoners are still on the board: their own waits order those moves */
    return g->npend == 0 && reads_since(g, p, c, first) <= g->cfg.confirm_sure &&
           rival_tentative(g, sim, p, c, first);
}

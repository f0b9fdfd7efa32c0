/* ruleguard/guard_observe_go_capview.c — a capture read whole in one view is a move at once.
 *
 * One reading never makes a stone (a misread), but a view that surely reads a new stone of the
 * side to move, legal, together with every stone it captures surely gone, is several points
 * agreeing on one legal move: no run of misreads does that. Taking it at once matters when the
 * capture lasts one view only: a ko retaken at once (illegal, then restored by the referee), or
 * a stone captured back by the very next move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

static bool sure_in_view(const struct gog_view *v, int p, uint8_t c)
{
    return v->v[p] == c && v->sure[p];
}

/* Is p a new stone of colour c in view v: empty in the game and in the belief, read surely (or,
 * with doubt_ok, read at all)? */
static bool new_in_view(const struct go_obs_guard *g, const struct gog_view *v, int p, uint8_t c,
                        bool doubt_ok)
{
    return go_game_at(gog_game_of(g), p) == GO_EMPTY && g->pt[p].belief == GO_EMPTY &&
           g->mask[p] < 0 && gog_pending_index(g, p) < 0 &&
           (doubt_ok ? v->v[p] == c : sure_in_view(v, p, c));
}

/* The one new stone of colour c in view v that, played on pos, is legal and captures, with every
 * stone it captures (believed there) read surely gone: its point and the captured ones in caps.
 * -1 when none, -2 when more than one. The stone itself may be read in doubt (doubt_ok) when
 * its prisoners are surely gone: a misread does not take stones off. */
static int whole_capture(const struct go_obs_guard *g, const struct go_game *pos,
                         const struct gog_view *v, uint8_t c, bool doubt_ok, int caps[GO_POINTS],
                         int *ncaps)
{
    int found = -1;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            if (go_game_at(pos, p) != GO_EMPTY || !new_in_view(g, v, p, c, doubt_ok)) continue;
            struct go_game *cp = go_game_copy(pos);
            struct go_verdict vd = go_game_play(cp, (struct go_move){(enum go_color)c, p});
            bool whole = vd.kind == GO_LEGAL && vd.captured > 0;
            int n = 0, pts[GO_POINTS];
            for (int q = 0; q < GO_POINTS && whole; q++)
                if (go_game_at(pos, q) != GO_EMPTY && go_game_at(cp, q) == GO_EMPTY) {
                    whole = sure_in_view(v, q, GO_EMPTY) &&
                            g->pt[q].belief == go_game_at(gog_game_of(g), q);
                    pts[n++] = q;
                }
            go_game_free(cp);
            if (!whole) continue;
            if (found >= 0) return -2;
            found = p;
            *ncaps = n;
            memcpy(caps, pts, (size_t)n * sizeof *pts);
        }
    return found;
}

int gog_would_capture(const struct go_game *game, int q, uint8_t c, int pts[GO_POINTS])
{
    static const int dd[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    enum go_color o = go_other((enum go_color)c);
    int n = 0, w = go_game_width(game), h = go_game_height(game);
    bool in[GO_POINTS] = {false};
    for (int k = 0; k < 4; k++) {
        int x = go_x(q) + dd[k][0], y = go_y(q) + dd[k][1];
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        int r = go_point(x, y);
        if (go_game_at(game, r) != o || in[r] || go_game_liberties(game, r) != 1) continue;
        int chain[GO_POINTS];
        int m = go_game_chain(game, r, chain);
        for (int i = 0; i < m; i++) in[chain[i]] = true, pts[n++] = chain[i];
    }
    return n;
}

/* Did view v read a stone of c at q (in any confidence) with every stone it would capture on
 * game surely gone (n of them in pts)? */
bool gog_capture_read(const struct go_obs_guard *g, const struct gog_view *v, int q, uint8_t c,
                      const int *pts, int n)
{
    if (n == 0 || v->v[q] != c) return false;
    for (int i = 0; i < n; i++)
        if (!sure_in_view(v, pts[i], GO_EMPTY)) return false;
    (void)g;
    return true;
}

/* The one stone of c that would capture on the game but may not be played there (a ko retaken at
 * once), read with its prisoners surely gone in this view and the view before (consecutive), the
 * view reading nothing else new: its point and prisoners, -1 when none, -2 when more than one.
 * Its own reading may be in doubt (partial, dim: ko film 160's retake read at 0.71 and 0.73):
 * two views of a capture no one may make, its prisoners gone in both, are no misread. */
static int illegal_capture(const struct go_obs_guard *g, const struct go_game *game, uint8_t c,
                           int caps[GO_POINTS], int *ncaps)
{
    const struct gog_view *v = &g->views[g->nobs % GOG_VIEWS];
    const struct gog_view *prev = &g->views[(g->nobs - 1) % GOG_VIEWS];
    if (g->nobs < 2 || prev->obs != g->nobs - 1) return -1;
    int found = -1;
    for (int q = 0; q < GO_POINTS; q++) {
        if (go_x(q) >= g->w || go_y(q) >= g->h || !new_in_view(g, v, q, c, true)) continue;
        enum go_verdict_kind k = go_game_check(game, (struct go_move){(enum go_color)c, q}).kind;
        if (k != GO_ILLEGAL_KO && k != GO_ILLEGAL_SUPERKO) continue;
        int pts[GO_POINTS];
        int n = gog_would_capture(game, q, c, pts);
        if (!gog_capture_read(g, v, q, c, pts, n) || !gog_capture_read(g, prev, q, c, pts, n))
            continue;
        if (found >= 0) return -2;
        found = q;
        *ncaps = n;
        memcpy(caps, pts, (size_t)n * sizeof *pts);
    }
    return found;
}

/* Is colour c, a candidate at p, read surely in an earlier view of its run? */
static bool read_surely_before(const struct go_obs_guard *g, int p, uint8_t c)
{
    const struct point_state *s = &g->pt[p];
    if (!s->cand_active || s->cand != c) return false;
    for (long o = g->nobs - 1; o >= s->cand_obs && o > g->nobs - GOG_VIEWS && o > 0; o--) {
        const struct gog_view *v = &g->views[o % GOG_VIEWS];
        if (v->obs == o && sure_in_view(v, p, c)) return true;
    }
    return false;
}

static void believe_stone(struct go_obs_guard *g, int p, uint8_t c, const struct observation *o)
{
    struct point_state *s = &g->pt[p];
    bool earlier = s->ep_obs[c] > 0;
    s->belief = c;
    s->seen_obs = s->seen_own = earlier ? s->ep_obs[c] : g->nobs;
    s->seen_t = earlier ? s->ep_t[c] : o->t_ns;
    s->seen_frame = earlier ? s->ep_frame[c] : o->frame_seq;
    s->seen_doubt = false;
    memset(s->ep_obs, 0, sizeof s->ep_obs);
    s->cand_active = false;
    s->streak_sure = s->streak_any = 0;
}

/* Does view v surely read the expected board everywhere but at the move(s) and the captured
 * stones? Another change read surely (a stone played between them, not yet confirmed) leaves
 * the order to the usual confirmation. */
static bool only_these(const struct go_obs_guard *g, const struct gog_view *v, int first, int found,
                       const int *caps, int ncaps)
{
    bool skip[GO_POINTS] = {false};
    if (first >= 0) skip[first] = true;
    skip[found] = true;
    for (int k = 0; k < ncaps; k++) skip[caps[k]] = true;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            if (skip[p] || v->v[p] == GOG_UNREAD || !v->sure[p]) continue;
            uint8_t e = gog_expected_at(g, p);
            if (v->v[p] != e && !(v->v[p] == GO_EMPTY && gog_pending_index(g, p) >= 0))
                return false;
        }
    return true;
}

void gog_confirm_capture_view(struct go_obs_guard *g, const struct observation *o)
{
    const struct go_game *game = gog_game_of(g);
    if (go_game_state(game) != GO_PLAYING || g->handicap_left > 0 || g->open_ply || g->counting ||
        g->nqueue)
        return;
    const struct gog_view *v = &g->views[g->nobs % GOG_VIEWS];
    if (v->obs != g->nobs) return;
    uint8_t c = (uint8_t)go_game_to_move(game), oc = c == GO_BLACK ? GO_WHITE : GO_BLACK;
    int caps[GO_POINTS], ncaps = 0, first = -1;
    /* a capturing stone read surely first; one read in doubt only when no sure one fits */
    int found = whole_capture(g, game, v, c, false, caps, &ncaps);
    if (found == -1) found = whole_capture(g, game, v, c, true, caps, &ncaps);
    if (found == -1) {
        /* the side to move's stone, still being confirmed, then the reply capturing: the one
           new stone of the side to move in the view, then a whole capture by the other. That
           stone read in doubt in this view is taken only when no other is read, sure or not,
           and an earlier view of its run read it surely. */
        int doubtful = -1;
        for (int y = 0; y < g->h; y++)
            for (int x = 0; x < g->w; x++) {
                int p = go_point(x, y);
                /* new, or believed already but not yet played: either is that stone */
                bool believed = go_game_at(game, p) == GO_EMPTY && g->pt[p].belief == c &&
                                g->mask[p] < 0 && v->v[p] == c;
                if (believed || new_in_view(g, v, p, c, false))
                    first = first == -1 ? p : -2;
                else if (new_in_view(g, v, p, c, true))
                    doubtful = doubtful == -1 ? p : -2;
            }
        if (first == -1 && doubtful >= 0 && read_surely_before(g, doubtful, c)) first = doubtful;
        struct go_game *sim = go_game_copy(game);
        if (first >= 0 &&
            go_game_play(sim, (struct go_move){(enum go_color)c, first}).kind == GO_LEGAL) {
            found = whole_capture(g, sim, v, oc, false, caps, &ncaps);
            if (found == -1) found = whole_capture(g, sim, v, oc, true, caps, &ncaps);
        } else if (first == -1) {
            /* no stone of the side to move read: its move may lie where the camera has not read
               for the last two views (glare, out of the picture); then a whole capture by the
               other side, read surely, is that side's move after it (its move not seen, the
               plan says so): ko film 180, glare, a ko taken one view before it was retaken */
            uint8_t dark[GO_POINTS];
            if (gog_dark_points(g, game, (enum go_color)c, g->nobs - 1, true, dark) > 0 &&
                go_game_play(sim, (struct go_move){(enum go_color)c, GO_PASS}).kind == GO_LEGAL &&
                go_game_state(sim) == GO_PLAYING)
                found = whole_capture(g, sim, v, oc, false, caps, &ncaps);
            c = oc; /* the capturing stone's colour */
        }
        go_game_free(sim);
        if (first == -1 && found == -1) {
            c = (uint8_t)go_game_to_move(game);
            found = illegal_capture(g, game, c, caps, &ncaps);
        }
        if (first < 0 && found < 0) return;
    }
    if (found < 0 || !only_these(g, v, first, found, caps, ncaps)) return;
    if (first >= 0 && g->pt[first].belief != c) believe_stone(g, first, c, o);
    believe_stone(g, found, first >= 0 ? oc : c, o);
    for (int k = 0; k < ncaps; k++) {
        struct point_state *q = &g->pt[caps[k]];
        q->belief = GO_EMPTY;
        q->seen_obs = q->seen_own = g->nobs;
        q->seen_t = o->t_ns;
        q->seen_frame = o->frame_seq;
        q->cand_active = false;
        q->streak_sure = q->streak_any = 0;
        memset(q->ep_obs, 0, sizeof q->ep_obs);
    }
}

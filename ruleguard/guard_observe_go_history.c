/* ruleguard/guard_observe_go_history.c — the actions that make the game, rebuilding the go_guard
 * when the past is rewritten, and resync: a board put back to an earlier position takes moves back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

const struct go_game *gog_game_of(const struct go_obs_guard *g)
{
    return go_guard_game(g->guard);
}

int gog_ply_of(const struct go_obs_guard *g)
{
    return go_game_ply(gog_game_of(g));
}

void gog_hist_push(struct go_obs_guard *g, struct action a)
{
    if (g->nhist == g->caphist) {
        int cap = g->caphist ? g->caphist * 2 : 64;
        struct action *h = realloc(g->hist, (size_t)cap * sizeof *h);
        if (!h) return;
        g->hist = h;
        g->caphist = cap;
    }
    g->hist[g->nhist++] = a;
}

void gog_board_of(const struct go_game *game, uint8_t out[GO_POINTS])
{
    memset(out, 0, GO_POINTS);
    for (int y = 0; y < go_game_height(game); y++)
        for (int x = 0; x < go_game_width(game); x++)
            out[go_point(x, y)] = (uint8_t)go_game_at(game, go_point(x, y));
}

/* Keep snap[ply] equal to the board now. */
void gog_snap_now(struct go_obs_guard *g)
{
    int ply = gog_ply_of(g);
    if (ply >= g->capsnap) {
        int cap = g->capsnap ? g->capsnap : 64;
        while (cap <= ply) cap *= 2;
        uint8_t(*s)[GO_POINTS] = realloc(g->snap, (size_t)cap * sizeof *s);
        if (!s) return;
        g->snap = s;
        g->capsnap = cap;
    }
    gog_board_of(gog_game_of(g), g->snap[ply]);
}

/* The go_guard takes the first Black stones of a free handicap as setup: mirror its count. */
static void track_handicap(struct go_obs_guard *g, const struct action *a, bool point_was_empty)
{
    if (a->kind == ACT_HANDICAP) {
        int black = 0;
        for (int p = 0; p < GO_POINTS; p++) black += go_game_at(gog_game_of(g), p) == GO_BLACK;
        g->handicap_left = a->n >= 2 && a->n > black && gog_ply_of(g) == 0 ? a->n - black : 0;
    } else if (a->kind == ACT_MOVE) {
        if (g->handicap_left > 0 && a->m.color == GO_BLACK && a->m.point >= 0 && point_was_empty)
            g->handicap_left--;
        else
            g->handicap_left = 0;
    }
}

int gog_apply_action(struct go_obs_guard *g, const struct action *a, int64_t t, uint64_t frame,
                     struct guard_event ev[GUARD_MAX_EVENTS])
{
    int n = 0;
    bool was_empty = a->m.point >= 0 && go_game_at(gog_game_of(g), a->m.point) == GO_EMPTY;
    switch (a->kind) {
    case ACT_SETUP: go_guard_setup(g->guard, a->m.color, a->m.point); break;
    case ACT_TO_MOVE: go_guard_set_to_move(g->guard, a->m.color); break;
    case ACT_HANDICAP: go_guard_set_handicap(g->guard, a->n); break;
    case ACT_MOVE: n = go_guard_move(g->guard, a->m, t, frame, ev); break;
    case ACT_RESIGN: n = go_guard_resign(g->guard, a->m.color, t, ev); break;
    }
    track_handicap(g, a, was_empty);
    return n;
}

/* Replay the history into a fresh go_guard (after the past was rewritten). */
void gog_rebuild(struct go_obs_guard *g)
{
    go_guard_free(g->guard);
    g->guard = go_guard_new(g->w, g->h, &g->rules);
    struct guard_event ev[GUARD_MAX_EVENTS];
    g->handicap_left = 0;
    gog_snap_now(g);
    for (int i = 0; i < g->nhist; i++) {
        gog_apply_action(g, &g->hist[i], 0, 0, ev);
        gog_snap_now(g);
    }
}

/* The number of history actions that make the game up to ply `ply` (handicap stones given as
 * moves do not count as plies). */
int gog_actions_for_ply(struct go_obs_guard *g, int ply)
{
    struct go_guard *save = g->guard;
    int left = g->handicap_left;
    g->guard = go_guard_new(g->w, g->h, &g->rules);
    struct guard_event ev[GUARD_MAX_EVENTS];
    int i = 0;
    for (; i < g->nhist; i++) {
        gog_apply_action(g, &g->hist[i], 0, 0, ev);
        if (gog_ply_of(g) > ply) break; /* this action made ply+1 */
    }
    go_guard_free(g->guard);
    g->guard = save;
    g->handicap_left = left;
    return i;
}

/* Drop the history after the move that made ply `ply`. */
void gog_truncate_to_ply(struct go_obs_guard *g, int ply)
{
    g->nhist = gog_actions_for_ply(g, ply);
    gog_rebuild(g);
    gog_unseen_truncate(g, ply);
    int j = 0;
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].ply <= ply) g->pend[j++] = g->pend[i];
    g->npend = j;
    for (int p = 0; p < GO_POINTS; p++) g->mask[p] = -1;
    g->open_ply = 0;
    g->counting = false;
}

static bool belief_equals(const struct go_obs_guard *g, const uint8_t board[GO_POINTS])
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            if (g->pt[p].belief != board[p]) return false;
        }
    return true;
}

/* After an ILLEGAL_MOVE or TWO_MOVES flag: is the board back at an earlier position? */
/* Are the last k moves of the history all passes? */
static bool last_moves_pass(const struct go_obs_guard *g, int k)
{
    for (int i = g->nhist - 1; i >= 0 && k > 0; i--) {
        if (g->hist[i].kind != ACT_MOVE) continue;
        if (g->hist[i].m.point != GO_PASS) return false;
        k--;
    }
    return k == 0;
}

/* Is the board the position after ply j with the flagged move of ply j + 1 undone and play gone
 * on from there: that move's point no longer of its colour, every stone of the position still
 * believed, and besides them a few new stones whose colours can alternate (a ko retaken, put back,
 * and the game played on before a view showed the board restored: ko film 66, glare, flagged
 * TWO_MOVES twice and STONE_REMOVED twice after its ILLEGAL_MOVE)? The flagged move is taken
 * back; the new stones are explained as moves, as usual. */
static bool restored_then_played_on(struct go_obs_guard *g, int j)
{
    int k = gog_actions_for_ply(g, j);
    if (k >= g->nhist) return false;
    const struct action *flagged = &g->hist[k];
    if (flagged->kind != ACT_MOVE || flagged->m.point < 0 ||
        g->pt[flagged->m.point].belief == flagged->m.color)
        return false;
    int adds[3] = {0};
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            uint8_t was = g->snap[j][p], now = g->pt[p].belief;
            if (now == was) continue;
            if (was != GO_EMPTY || g->mask[p] >= 0) return false;
            adds[now]++;
        }
    int n = adds[GO_BLACK] + adds[GO_WHITE];
    return n >= 1 && n <= 4 && abs(adds[GO_BLACK] - adds[GO_WHITE]) <= 1;
}

void gog_try_resync(struct go_obs_guard *g, struct evbuf *b, int64_t t, uint64_t frame)
{
    int n = gog_ply_of(g);
    if (!g->open_ply) return;
    if (n >= g->open_ply + 2 || n < g->open_ply) {
        g->open_ply = 0; /* play went on over the flagged move: it stands */
        return;
    }
    for (int j = n - 1; j >= g->open_ply - 1 && j >= 0; j--) {
        bool played_on = false;
        if (!belief_equals(g, g->snap[j]) &&
            !(played_on = j == g->open_ply - 1 && restored_then_played_on(g, j)))
            continue;
        /* a flagged pass leaves the board as it was: nothing was restored */
        if (last_moves_pass(g, n - j)) return;
        gog_truncate_to_ply(g, j);
        struct guard_event *e = gog_ev_add(b, GUARD_MOVE, j, t, frame);
        if (e) {
            e->reason = GUARD_REASON_TAKEBACK;
            snprintf(e->text, sizeof e->text,
                     "the board is back to the position after ply %d%s: moves %d..%d taken back", j,
                     played_on ? " and play went on" : "", j + 1, n);
        }
        return;
    }
}

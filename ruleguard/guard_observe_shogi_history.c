/* ruleguard/guard_observe_shogi_history.c — the moves the board showed, kept so the recorded-move
 * guard (ruleguard/guard_shogi.c) can be rebuilt when the referee, or the board, takes moves
 * back: the rules core's game has no way to forget an outcome that a later take-back undoes
 * beyond its own undo, and rebuilding keeps the guard's reported-once state right too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_shogi_internal.h"

const struct shogi_game *sobs_game(const struct shogi_obs_guard *g)
{
    return shogi_guard_game(g->guard);
}

int sobs_ply(const struct shogi_obs_guard *g)
{
    return g->ply_base + sobs_game(g)->n;
}

static bool keep_move(struct shogi_obs_guard *g, struct shogi_move m)
{
    if (g->nmoves == g->capmoves) {
        int cap = g->capmoves ? g->capmoves * 2 : 256;
        struct shogi_move *v = realloc(g->moves, (size_t)cap * sizeof *v);
        if (!v) return false;
        g->moves = v;
        g->capmoves = cap;
    }
    g->moves[g->nmoves++] = m;
    return true;
}

bool sobs_commit(struct shogi_obs_guard *g, struct shogi_move m, int64_t t, uint64_t frame,
                 const char *note, struct sobs_evbuf *b)
{
    struct guard_event tmp[GUARD_MAX_EVENTS];
    int before = sobs_game(g)->n;
    int n = shogi_guard_move(g->guard, m, t, frame, tmp);
    const struct shogi_game *game = sobs_game(g);
    if (game->n == before) { /* not playable: only its flag, for the move that was to come */
        for (int i = 0; i < n && b->n < GUARD_OBS_MAX_EVENTS; i++) {
            if (!guard_is_flag(tmp[i].kind)) continue;
            b->ev[b->n] = tmp[i];
            b->ev[b->n++].ply = g->ply_base + before + 1;
        }
        return false;
    }
    keep_move(g, m); /* as claimed: a 7) replays as 7), the turn passing */
    g->move_obs = g->nobs;
    for (int i = 0; i < n && b->n < GUARD_OBS_MAX_EVENTS; i++) {
        struct guard_event *e = &b->ev[b->n++];
        *e = tmp[i];
        e->ply += g->ply_base;
        if (e->kind == GUARD_MOVE) guard_event_add_doubt(e, note);
        /* the first foul stays open (a board restored to before it is the referee's
           correction) until the board is put back */
        if ((e->kind == GUARD_ILLEGAL_MOVE || e->kind == GUARD_TWO_MOVES) && !g->open_ply)
            g->open_ply = game->n;
    }
    return true;
}

static void rebuild(struct shogi_obs_guard *g, int keep)
{
    struct shogi_guard *ng = shogi_guard_new(&g->start, &g->rules);
    if (!ng) return;
    struct guard_event scratch[GUARD_MAX_EVENTS];
    for (int i = 0; i < keep; i++) shogi_guard_move(ng, g->moves[i], 0, 0, scratch);
    shogi_guard_free(g->guard);
    g->guard = ng;
    g->nmoves = keep;
}

void sobs_truncate(struct shogi_obs_guard *g, int n, int64_t t, uint64_t frame, const char *why,
                   struct sobs_evbuf *b)
{
    if (n < 0 || n >= g->nmoves) return;
    rebuild(g, n);
    sobs_drop_pending_after(g, n);
    sobs_unseen_truncate(g, n);
    if (g->open_ply > n) g->open_ply = 0;
    g->held.on = false;
    g->resigned = false;
    struct guard_event *e = sobs_event(b, GUARD_MOVE, g->ply_base + n, t, frame);
    if (!e) return;
    e->reason = GUARD_REASON_TAKEBACK;
    snprintf(e->text, sizeof e->text, "back to the position after ply %d: %s", g->ply_base + n,
             why);
}

bool sobs_restart(struct shogi_obs_guard *g, const struct shogi_position *start)
{
    struct shogi_guard *ng = shogi_guard_new(start, &g->rules);
    if (!ng) return false;
    if (g->guard) {
        g->ply_base += sobs_game(g)->n;
        shogi_guard_free(g->guard);
    }
    g->guard = ng;
    g->start = *start;
    g->nmoves = 0;
    g->npend = 0;
    g->open_ply = 0;
    g->nunseen = 0;
    g->held.on = false;
    return true;
}

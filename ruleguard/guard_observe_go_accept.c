/* ruleguard/guard_observe_go_accept.c — accepting one move: through the go_guard, its captures left
 * pending, the stones it took that stay on the board masked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

/* Commit one move through the go_guard: its events, the captured stones still on the board
 * become pending, stones a tolerant replay removed but that stand on the board are masked. */
void gog_commit_move(struct go_obs_guard *g, struct go_move m, int64_t t, uint64_t frame,
                     const struct point_state *s, long seen_obs, bool flushing, struct evbuf *b)
{
    uint8_t before[GO_POINTS];
    gog_board_of(gog_game_of(g), before);
    struct guard_event tmp[GUARD_MAX_EVENTS];
    struct action a = {.kind = ACT_MOVE, .m = m};
    int n = gog_apply_action(g, &a, t, frame, tmp);
    gog_hist_push(g, a);
    gog_snap_now(g);
    int ply = gog_ply_of(g);
    /* a stone put on a prisoner's point: that prisoner came off first */
    int on_prisoner = m.point >= 0 ? gog_pending_index(g, m.point) : -1;
    if (on_prisoner >= 0) gog_pending_drop(g, on_prisoner);
    long move_seen = seen_obs > 0 ? seen_obs : g->nobs; /* when this move's stone appeared */
    g->anchor_obs = move_seen;
    /* prisoners of earlier plies read on the board when this move appeared were left on */
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].ply < ply && g->pend[i].last_seen >= move_seen) g->pend[i].late = true;
    for (int i = 0; i < n; i++) {
        struct guard_event *e = gog_ev_add(b, tmp[i].kind, tmp[i].ply, t, frame);
        if (!e) break;
        *e = tmp[i];
        if (e->kind == GUARD_MOVE && s) gog_doubt_note(e->text, sizeof e->text, s, flushing);
        if ((e->kind == GUARD_ILLEGAL_MOVE || e->kind == GUARD_TWO_MOVES) && !g->open_ply)
            g->open_ply = ply;
    }
    /* a suicide the rules core took off at once: the stone stands on the board until restored */
    if (m.point >= 0 && go_game_at(gog_game_of(g), m.point) == GO_EMPTY &&
        g->pt[m.point].belief == m.color)
        g->mask[m.point] = m.color;
    for (int p = 0; p < GO_POINTS; p++) {
        if (before[p] == GO_EMPTY || go_game_at(gog_game_of(g), p) != GO_EMPTY) continue;
        if (g->pt[p].belief == GO_EMPTY) continue;
        if (seen_obs > 0 && before[p] != m.color && g->pt[p].empty_any_obs >= seen_obs) {
            /* seen taken off since the capturing stone came, before its confirmation (and
               perhaps already played on again: a snapback) */
            g->pt[p].belief = GO_EMPTY;
            continue;
        }
        if (before[p] == m.color) {
            g->mask[p] = g->pt[p].belief; /* own stones a suicide took: the board keeps them */
        } else if (g->npend < GO_POINTS) {
            struct pending *pd = &g->pend[g->npend++];
            pd->point = p;
            pd->color = before[p];
            pd->ply = ply;
            pd->t_ns = t;
            pd->obs = g->nobs;
            pd->last_seen = g->pt[p].last_known && g->pt[p].last == before[p] ? g->nobs : 0;
            pd->late = false;
        }
    }
    if (go_game_state(gog_game_of(g)) == GO_ENDED_PASSES && g->cfg.counting_after_passes) {
        g->counting = true;
        memset(g->removed_in_count, 0, sizeof g->removed_in_count);
    }
}

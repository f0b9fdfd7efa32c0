/* ruleguard/guard_observe_go_accept.c — accepting one move: through the go_guard, its captures left
 * pending, the stones it took that stay on the board masked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

/* The point was surely seen empty after a capture and its belief is empty now; a stone read
 * there since (its point played again at once) becomes a new stone still being confirmed, with
 * its readings so far (else the readings made while the prisoner was believed are lost). */
static void restart_candidate(struct go_obs_guard *g, int p, uint8_t c)
{
    struct point_state *s = &g->pt[p];
    long from = s->stone_first[c];
    int any = 0, sure = 0;
    for (long o = from; o <= g->nobs; o++) {
        if (o <= g->nobs - GOG_VIEWS) continue;
        const struct gog_view *v = &g->views[o % GOG_VIEWS];
        if (v->obs != o || v->v[p] == GOG_UNREAD) continue;
        if (v->v[p] != c) return;
        any++;
        sure = v->sure[p] ? sure + 1 : 0;
    }
    if (!any) return;
    s->cand_active = true;
    s->cand = c;
    s->cand_obs = s->ep_obs[c] = from;
    s->cand_t = s->ep_t[c] = s->stone_t[c];
    s->cand_frame = s->ep_frame[c] = s->stone_frame[c];
    s->streak_any = any;
    s->streak_sure = sure;
    s->cand_minconf = sure == any ? g->cfg.conf_sure : g->cfg.conf_min;
    s->agree = 0;
}

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
    /* the last move's first view: where the views read back start (gog_decode) */
    g->anchor_obs = s && s->seen_own > move_seen ? s->seen_own : move_seen;
    /* prisoners of earlier plies read on the board when this move appeared were left on */
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].ply < ply && g->pend[i].last_seen >= move_seen) g->pend[i].late = true;
    for (int i = 0; i < n; i++) {
        struct guard_event *e = gog_ev_add(b, tmp[i].kind, tmp[i].ply, t, frame);
        if (!e) break;
        *e = tmp[i];
        if (e->kind == GUARD_MOVE && s) gog_doubt_note(e, s, flushing);
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
        uint8_t was = before[p];
        struct point_state *ps = &g->pt[p];
        if (seen_obs > 0 && was != m.color && ps->belief == was && ps->last == was &&
            ps->stone_first[was] > seen_obs &&
            gog_read_empty_between(g, p, ps->seen_own >= seen_obs ? ps->seen_own + 1 : seen_obs,
                                   ps->stone_first[was]) &&
            gog_run_confirmed(g, p, was, ps->stone_first[was]) &&
            go_game_check(gog_game_of(g), (struct go_move){(enum go_color)was, p}).kind ==
                GO_LEGAL) {
            /* seen taken off after the capturing stone came, then a stone of that colour read
               there again (as surely as a change needs), where that colour may now play: not
               the prisoner, a new stone (its point played again) */
            long gone_from = ps->seen_own >= seen_obs ? ps->seen_own + 1 : seen_obs;
            g->replay_in_doubt =
                !gog_read_surely_empty_between(g, p, gone_from, ps->stone_first[was]);
            g->replay_point = p;
            g->replay_ply = gog_ply_of(g);
            ps->seen_obs = ps->seen_own = ps->stone_first[was];
            ps->seen_t = ps->stone_t[was];
            ps->seen_frame = ps->stone_frame[was];
            continue;
        }
        if (seen_obs > 0 && before[p] != m.color && g->pt[p].empty_obs >= seen_obs) {
            /* surely seen taken off since the capturing stone came, before its confirmation
               (and perhaps already played on again: a snapback); one doubtful empty reading of
               a prisoner still on is a misread */
            g->pt[p].belief = GO_EMPTY;
            /* a stone of either colour read there since: the prisoner's colour (a snapback)
               or the capturer's (the point filled at once) */
            if (ps->last != GO_EMPTY && ps->stone_first[ps->last] > ps->empty_obs)
                restart_candidate(g, p, ps->last);
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
            /* read gone since the capturing stone came, and since the prisoner itself came
               (a stone captured at once: its point read empty before it was put down) */
            pd->from = ps->seen_own >= move_seen ? ps->seen_own + 1 : move_seen;
            pd->last_seen = g->pt[p].last_known && g->pt[p].last == before[p] ? g->nobs : 0;
            pd->late = false;
        }
    }
    if (go_game_state(gog_game_of(g)) == GO_ENDED_PASSES && g->cfg.counting_after_passes) {
        g->counting = true;
        memset(g->removed_in_count, 0, sizeof g->removed_in_count);
    }
}

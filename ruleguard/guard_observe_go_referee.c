/* ruleguard/guard_observe_go_referee.c — the referee view's commands: confirm a pass, accept the
 * position, take back, set the result, resume. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

int go_obs_guard_confirm_pass(struct go_obs_guard *g, int ply, int64_t t_ns,
                              struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    int n = gog_ply_of(g);
    if (ply < 1 || ply > n || n - ply + 3 > GUARD_OBS_MAX_EVENTS) return 0;
    int at = gog_actions_for_ply(g, ply - 1);
    while (at < g->nhist && g->hist[at].kind != ACT_MOVE) at++;
    if (at >= g->nhist) return 0;
    int moves;
    enum go_color c = go_other(g->hist[at].m.color);
    gog_hist_push(g, g->hist[g->nhist - 1]); /* room for one more */
    memmove(&g->hist[at + 1], &g->hist[at], (size_t)(g->nhist - 1 - at) * sizeof *g->hist);
    g->hist[at] = (struct action){.kind = ACT_MOVE, .m = {c, GO_PASS}};
    gog_rebuild(g);
    g->open_ply = 0;
    /* Tell the record: back to ply-1, then the plies again. */
    struct evbuf b = {ev, 0};
    struct guard_event *e = gog_ev_add(&b, GUARD_MOVE, ply - 1, t_ns, 0);
    e->reason = GUARD_REASON_TAKEBACK;
    snprintf(e->text, sizeof e->text, "the referee confirms a pass before ply %d: replaying", ply);
    moves = ply - 1;
    for (int i = at; i < g->nhist; i++) {
        if (g->hist[i].kind != ACT_MOVE) continue;
        ++moves;
        struct go_move m = g->hist[i].m;
        e = gog_ev_add(&b, m.point == GO_PASS ? GUARD_PASS : GUARD_MOVE, moves, t_ns, 0);
        if (!e) break;
        e->move = m;
        char name[8];
        snprintf(e->text, sizeof e->text, "%s %s%s", gog_color_name(m.color),
                 go_point_name(m.point, g->h, name),
                 moves == ply ? " (pass confirmed by the referee)" : "");
        if (moves == ply) e->reason = GUARD_REASON_SIGNAL;
    }
    return b.n;
}

int go_obs_guard_accept_position(struct go_obs_guard *g, int64_t t_ns,
                                 struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    int changed = 0;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            uint8_t bel = g->pt[p].belief;
            if (bel == go_game_at(gog_game_of(g), p)) continue;
            struct action a = {.kind = ACT_SETUP, .m = {(enum go_color)bel, p}};
            gog_hist_push(g, a);
            gog_apply_action(g, &a, 0, 0, NULL);
            changed++;
        }
    gog_snap_now(g);
    g->npend = 0;
    for (int p = 0; p < GO_POINTS; p++) g->mask[p] = -1;
    g->open_ply = 0;
    g->wait = 0;
    struct guard_event *e = gog_ev_add(&b, GUARD_MOVE, gog_ply_of(g), t_ns, 0);
    e->reason = GUARD_REASON_SETUP;
    snprintf(e->text, sizeof e->text,
             "the referee accepts the position on the board (%d points set up)", changed);
    return b.n;
}

int go_obs_guard_take_back(struct go_obs_guard *g, int64_t t_ns,
                           struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    int n = gog_ply_of(g);
    if (n < 1) return 0;
    gog_truncate_to_ply(g, n - 1);
    struct evbuf b = {ev, 0};
    struct guard_event *e = gog_ev_add(&b, GUARD_MOVE, n - 1, t_ns, 0);
    e->reason = GUARD_REASON_TAKEBACK;
    snprintf(e->text, sizeof e->text, "the referee takes ply %d back", n);
    return b.n;
}

int go_obs_guard_set_result(struct go_obs_guard *g, enum go_game_state st, enum go_color loser,
                            int64_t t_ns, struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    switch (st) {
    case GO_ENDED_RESIGN: {
        struct action a = {.kind = ACT_RESIGN, .m = {loser, GO_NOPOINT}};
        gog_hist_push(g, a);
        return gog_apply_action(g, &a, t_ns, 0, ev);
    }
    case GO_ENDED_TIME: {
        struct guard_event *e = gog_ev_add(&b, GUARD_GAME_END, gog_ply_of(g), t_ns, 0);
        snprintf(e->text, sizeof e->text, "%s loses on time (the referee)", gog_color_name(loser));
        return b.n;
    }
    case GO_ENDED_PASSES:
        if (g->counting) gog_count_phase(g);
        return gog_count_now(g, t_ns, 0, "the referee counts", ev);
    default: break;
    }
    return 0;
}

void go_obs_guard_resume(struct go_obs_guard *g)
{
    g->counting = false;
    gog_sync_beliefs_to_game(g);
}

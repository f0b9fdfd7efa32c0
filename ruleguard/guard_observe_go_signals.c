/* ruleguard/guard_observe_go_signals.c — passes and the signals players give with the material (Ing
 * SST Art. 9, Chinese 1988 §13.2), and counting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

static const char *const pass_stone_why = "a stone put beside the board, Ing SST Art. 9";

static void pass_with_reason(struct go_obs_guard *g, enum go_color c, int64_t t, uint64_t frame,
                             const char *why, struct evbuf *b)
{
    int n0 = b->n;
    gog_commit_move(g, (struct go_move){c, GO_PASS}, t, frame, NULL, -1, false, b);
    for (int i = n0; i < b->n; i++)
        if (b->ev[i].kind == GUARD_PASS && why) {
            b->ev[i].reason = GUARD_REASON_SIGNAL;
            size_t used = strlen(b->ev[i].text);
            snprintf(b->ev[i].text + used, sizeof b->ev[i].text - used, " (%s)", why);
        }
}

/* Views a pass signalled by the side that just moved waits for the opponent's stone: the one view
 * of a stone placed just before the signal may have misread it, so it is first read after the
 * signal. Only then is the pass two moves in a row. */
#define PASS_HOLD_OBS 3

static bool out_of_turn_waits(const struct go_obs_guard *g)
{
    const struct go_game *game = gog_game_of(g);
    if (go_game_state(game) != GO_PLAYING || g->handicap_left > 0) return false;
    enum go_color tm = go_game_to_move(game);
    if (g->queue[0].who == tm) return false;
    return gog_tentative_stone(g, (uint8_t)tm) || g->nobs - g->queue[0].obs < PASS_HOLD_OBS;
}

/* Passes signalled, in order, once the stones seen before each are played. */
bool gog_commit_queue(struct go_obs_guard *g, bool flushing, struct evbuf *b)
{
    bool any = false;
    while (g->nqueue > 0 && gog_ev_room(b, GUARD_MAX_EVENTS) && !g->counting) {
        if (!flushing && gog_stone_before(g, g->queue[0].obs)) break;
        if (!flushing && out_of_turn_waits(g)) break;
        pass_with_reason(g, g->queue[0].who, g->queue[0].t, g->queue[0].frame, pass_stone_why, b);
        memmove(&g->queue[0], &g->queue[1], (size_t)--g->nqueue * sizeof g->queue[0]);
        any = true;
    }
    return any;
}

static int do_pass(struct go_obs_guard *g, enum go_color c, int64_t t, uint64_t frame,
                   const char *why, struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    pass_with_reason(g, c, t, frame, why, &b);
    return b.n;
}

/* The ply of the open TWO_MOVES flag a pass by c would answer (the other side's stone twice in
 * a row, the second at that ply), or 0. */
static int two_moves_answered_by(struct go_obs_guard *g, enum go_color c)
{
    int ply = g->open_ply;
    if (ply < 2 || ply > gog_ply_of(g)) return 0;
    int at = gog_actions_for_ply(g, ply - 1);
    while (at < g->nhist && g->hist[at].kind != ACT_MOVE) at++;
    int before = at - 1;
    while (before >= 0 && g->hist[before].kind != ACT_MOVE) before--;
    if (at >= g->nhist || before < 0) return 0;
    enum go_color o = go_other(c);
    return g->hist[at].m.color == o && g->hist[before].m.color == o ? ply : 0;
}

int go_obs_guard_pass(struct go_obs_guard *g, enum go_color c, int64_t t_ns,
                      struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    /* after a TWO_MOVES flag the referee's "c passed" is the first reading of it: the pass goes
       in before the second stone, not after it */
    int ply = two_moves_answered_by(g, c);
    if (ply > 0) return go_obs_guard_confirm_pass(g, ply, t_ns, ev);
    return do_pass(g, c, t_ns, 0, "told by the referee", ev);
}

int gog_count_now(struct go_obs_guard *g, int64_t t, uint64_t frame, const char *why,
                  struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    const struct go_game *game = gog_game_of(g);
    uint8_t dead[GO_POINTS];
    bool any = false;
    for (int p = 0; p < GO_POINTS; p++) any |= g->removed_in_count[p] != 0;
    if (any)
        memcpy(dead, g->removed_in_count, sizeof dead);
    else
        go_estimate_dead(game, dead, NULL);
    struct go_score s = go_game_count(game, dead);
    struct guard_event *e = gog_ev_add(&b, GUARD_GAME_END, gog_ply_of(g), t, frame);
    e->reason = GUARD_REASON_SIGNAL;
    e->rule_ref = go_game_rules(game)->ref.scoring;
    snprintf(e->text, sizeof e->text, "%s: counted %s (Black %.1f, White %.1f; dead stones %s)",
             why, s.result, s.black, s.white, any ? "as taken off the board" : "estimated");
    g->counting = false;
    return b.n;
}

int go_obs_guard_signal(struct go_obs_guard *g, enum go_obs_signal s, enum go_color who,
                        int64_t t_ns, uint64_t frame_seq,
                        struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    if ((unsigned)s >= GO_SIGNAL_COUNT || !(g->cfg.signals & (1u << s))) return 0;
    if (who != GO_BLACK && who != GO_WHITE) return 0;
    switch (s) {
    case GO_SIGNAL_PASS_STONE: {
        /* the stones seen before the pass may still be being confirmed: the pass waits */
        if (g->nqueue == (int)(sizeof g->queue / sizeof g->queue[0])) return 0;
        /* a reading set aside before the pass is not joined to a stone read after it (a move
           came between them) */
        for (int p = 0; p < GO_POINTS; p++) memset(g->pt[p].ep_keep, 0, sizeof g->pt[p].ep_keep);
        g->queue[g->nqueue].who = who;
        g->queue[g->nqueue].t = t_ns;
        g->queue[g->nqueue].frame = frame_seq;
        g->queue[g->nqueue].obs = g->nobs;
        g->nqueue++;
        struct evbuf b = {ev, 0};
        gog_commit_queue(g, false, &b);
        return b.n;
    }
    case GO_SIGNAL_END_CONFIRMED:
        if (g->counting) gog_count_phase(g);
        return gog_count_now(g, t_ns, frame_seq,
                             who == GO_BLACK ? "Black confirms the end (Chinese 1988 §13.2)"
                                             : "White confirms the end (Chinese 1988 §13.2)",
                             ev);
    case GO_SIGNAL_RESIGN_TWO_STONES: {
        struct action a = {.kind = ACT_RESIGN, .m = {who, GO_NOPOINT}};
        gog_hist_push(g, a);
        int n = gog_apply_action(g, &a, t_ns, frame_seq, ev);
        if (n) {
            ev[0].frame_seq = frame_seq;
            ev[0].reason = GUARD_REASON_SIGNAL;
            size_t used = strlen(ev[0].text);
            snprintf(ev[0].text + used, sizeof ev[0].text - used,
                     " (two stones put on the board, Ing SST Art. 9)");
        }
        return n;
    }
    case GO_SIGNAL_COUNT: break;
    }
    return 0;
}

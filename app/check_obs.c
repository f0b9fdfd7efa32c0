/* app/check_obs.c — an observation stream through the observation rule guard of its game. */
#include <stdio.h>
#include <string.h>

#include "app/check_obs.h"

static void deliver(const struct guard_event *ev, int n, check_flag_fn on_flag,
                    check_flag_fn on_event, void *ctx, struct check_obs_result *out)
{
    for (int i = 0; i < n; i++) {
        if (on_event) on_event(&ev[i], ctx);
        if (guard_is_flag(ev[i].kind)) {
            out->flags++;
            if (on_flag) on_flag(&ev[i], ctx);
        } else if ((ev[i].kind == GUARD_MOVE || ev[i].kind == GUARD_PASS) &&
                   ev[i].reason != GUARD_REASON_TAKEBACK && ev[i].reason != GUARD_REASON_SETUP) {
            out->moves++;
        }
    }
}

/* A settled view from a daemon's log, given to the guard as the daemon gave it. */
static const struct stable_obs *stable_of(const struct obs_item *it)
{
    static struct stable_obs s;
    obs_item_stable(it, &s);
    return &s;
}

static int apply_referee(struct go_obs_guard *g, const struct obs_item *it,
                         struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    switch (it->referee) {
    case OBS_REF_PASS: return go_obs_guard_pass(g, it->color, it->t_ns, ev);
    case OBS_REF_ACCEPT: return go_obs_guard_accept_position(g, it->t_ns, ev);
    case OBS_REF_TAKEBACK: return go_obs_guard_take_back(g, it->t_ns, ev);
    case OBS_REF_RESIGN:
        return go_obs_guard_set_result(g, GO_ENDED_RESIGN, it->color, it->t_ns, ev);
    case OBS_REF_COUNT: return go_obs_guard_set_result(g, GO_ENDED_PASSES, GO_EMPTY, it->t_ns, ev);
    }
    return 0;
}

static int apply_referee_shogi(struct shogi_obs_guard *g, const struct obs_item *it,
                               struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    switch (it->referee) {
    case OBS_REF_ACCEPT: return shogi_obs_guard_accept_position(g, it->t_ns, ev);
    case OBS_REF_TAKEBACK: return shogi_obs_guard_take_back(g, it->t_ns, ev);
    case OBS_REF_RESIGN: {
        /* in shogi streams B is sente (ruleguard/obs_text.h) */
        enum shogi_color winner = it->color == GO_BLACK ? SHOGI_GOTE : SHOGI_SENTE;
        struct shogi_outcome o = {SHOGI_END_RESIGN, shogi_win_for(winner)};
        return shogi_obs_guard_set_result(g, o, it->t_ns, ev);
    }
    case OBS_REF_PASS:
    case OBS_REF_COUNT: break; /* Go only: the reader does not produce them for shogi */
    }
    return 0;
}

static void check_shogi_stream(const char *cur, int line, const struct obs_stream_header *hdr,
                               check_flag_fn on_flag, check_flag_fn on_event, void *ctx,
                               struct check_obs_result *out)
{
    struct shogi_position start;
    char msg[160];
    if (!shogi_sfen_parse(&start, hdr->start_sfen[0] ? hdr->start_sfen : "startpos", NULL, msg,
                          sizeof msg)) {
        snprintf(out->error, sizeof out->error, "start position: %s", msg);
        return;
    }
    struct shogi_obs_guard *g = shogi_obs_guard_new(&start, NULL, hdr->sente_bottom, NULL);
    if (!g) {
        snprintf(out->error, sizeof out->error, "cannot make a shogi guard");
        return;
    }
    static struct obs_item it;
    static struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    struct obs_text_error err = {0};
    int64_t t = 0;
    int r;
    while ((r = obs_text_next(&cur, &line, hdr, &it, &err)) == 1) {
        int n = 0;
        if (it.kind == OBS_ITEM_OBS) {
            out->observations++;
            t = it.obs.t_ns;
            n = it.stable ? shogi_obs_guard_observe_stable(g, stable_of(&it), ev)
                          : shogi_obs_guard_observe(g, &it.obs, ev);
        } else if (it.kind == OBS_ITEM_REFEREE) {
            t = it.t_ns;
            n = apply_referee_shogi(g, &it, ev);
        }
        deliver(ev, n, on_flag, on_event, ctx, out);
    }
    if (r < 0) {
        snprintf(out->error, sizeof out->error, "%d: %s", err.line, err.message);
        shogi_obs_guard_free(g);
        return;
    }
    deliver(ev, shogi_obs_guard_flush(g, t, ev), on_flag, on_event, ctx, out);
    shogi_obs_guard_free(g);
    out->readable = true;
}

void check_obs_stream(const char *text, const struct go_rules *forced_rules, check_flag_fn on_flag,
                      check_flag_fn on_event, void *ctx, struct check_obs_result *out)
{
    memset(out, 0, sizeof *out);
    const char *cur = text;
    int line = 0;
    struct obs_text_error err = {0};
    static struct obs_stream_header hdr;
    if (!obs_text_header(&cur, &line, &hdr, &err)) {
        snprintf(out->error, sizeof out->error, "%d: %s", err.line, err.message);
        return;
    }
    if (hdr.game != OBS_GAME_GO) {
        check_shogi_stream(cur, line, &hdr, on_flag, on_event, ctx, out);
        return;
    }
    const struct go_rules *rules = forced_rules;
    if (!rules && hdr.rules[0]) {
        rules = go_rules_find(hdr.rules);
        if (!rules) {
            snprintf(out->error, sizeof out->error, "unknown rules '%s'", hdr.rules);
            return;
        }
    }
    if (!rules) rules = go_rules_find("Japanese 1989");
    struct go_obs_guard *g = go_obs_guard_new(hdr.w, hdr.h, rules, NULL);
    if (!g) {
        snprintf(out->error, sizeof out->error, "cannot make a %dx%d guard", hdr.w, hdr.h);
        return;
    }
    for (int i = 0; i < hdr.nsetup; i++)
        go_obs_guard_setup(g, hdr.setup[i].color, hdr.setup[i].point);
    if (hdr.handicap >= 2 &&
        !go_obs_guard_set_handicap(g, hdr.handicap,
                                   hdr.handicap_free ? GO_HANDICAP_FREE : GO_HANDICAP_FIXED)) {
        snprintf(out->error, sizeof out->error, "no fixed handicap of %d on %dx%d", hdr.handicap,
                 hdr.w, hdr.h);
        go_obs_guard_free(g);
        return;
    }
    if (hdr.to_move != GO_EMPTY) go_obs_guard_set_to_move(g, hdr.to_move);
    static struct obs_item it;
    static struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    int64_t t = 0;
    int r;
    while ((r = obs_text_next(&cur, &line, &hdr, &it, &err)) == 1) {
        int n = 0;
        if (it.kind == OBS_ITEM_OBS) {
            out->observations++;
            t = it.obs.t_ns;
            n = it.stable ? go_obs_guard_observe_stable(g, stable_of(&it), ev)
                          : go_obs_guard_observe(g, &it.obs, ev);
        } else if (it.kind == OBS_ITEM_SIGNAL) {
            t = it.t_ns;
            n = go_obs_guard_signal(g, (enum go_obs_signal)it.signal, it.color, it.t_ns, 0, ev);
        } else {
            t = it.t_ns;
            n = apply_referee(g, &it, ev);
        }
        deliver(ev, n, on_flag, on_event, ctx, out);
    }
    if (r < 0) {
        snprintf(out->error, sizeof out->error, "%d: %s", err.line, err.message);
        go_obs_guard_free(g);
        return;
    }
    deliver(ev, go_obs_guard_flush(g, t, ev), on_flag, on_event, ctx, out);
    go_obs_guard_free(g);
    out->readable = true;
}

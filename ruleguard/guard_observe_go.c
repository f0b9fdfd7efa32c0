/* ruleguard/guard_observe_go.c — the Go rule guard fed by observations: creation, setup and the
 * observation loop (belief, resync, captures, explanation, passes signalled), in that order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

void go_obs_config_default(struct go_obs_config *c)
{
    memset(c, 0, sizeof *c);
    c->conf_min = 0.5f;
    c->conf_sure = 0.9f;
    c->confirm_sure = 2;
    c->confirm_any = 3;
    c->max_wait_obs = 2;
    c->disturbed_min = 4;
    c->capture_max_plies = 1;
    c->capture_max_ns = 120 * (int64_t)1000000000;
    c->capture_max_obs = 0;
    c->assume_pass = false;
    c->counting_after_passes = true;
    c->signals = (1u << GO_SIGNAL_COUNT) - 1;
}

struct go_obs_guard *go_obs_guard_new(int width, int height, const struct go_rules *rules,
                                      const struct go_obs_config *cfg)
{
    if (width < GO_MIN || height < GO_MIN || width > GO_MAX || height > GO_MAX) return NULL;
    struct go_obs_guard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    if (!rules) rules = go_rules_presets(&(size_t){0});
    g->rules = *rules;
    if (cfg)
        g->cfg = *cfg;
    else
        go_obs_config_default(&g->cfg);
    g->w = width;
    g->h = height;
    g->guard = go_guard_new(width, height, &g->rules);
    if (!g->guard) {
        free(g);
        return NULL;
    }
    for (int p = 0; p < GO_POINTS; p++) g->mask[p] = -1;
    gog_snap_now(g);
    return g;
}

void go_obs_guard_free(struct go_obs_guard *g)
{
    if (!g) return;
    go_guard_free(g->guard);
    free(g->hist);
    free(g->snap);
    free(g);
}

const struct go_game *go_obs_guard_game(const struct go_obs_guard *g)
{
    return gog_game_of(g);
}

bool go_obs_guard_counting(const struct go_obs_guard *g)
{
    return g->counting;
}

void gog_sync_beliefs_to_game(struct go_obs_guard *g)
{
    for (int p = 0; p < GO_POINTS; p++) g->pt[p].belief = (uint8_t)go_game_at(gog_game_of(g), p);
}

void go_obs_guard_setup(struct go_obs_guard *g, enum go_color c, int point)
{
    struct action a = {.kind = ACT_SETUP, .m = {c, point}};
    gog_hist_push(g, a);
    gog_apply_action(g, &a, 0, 0, NULL);
    gog_snap_now(g);
    g->pt[point].belief = (uint8_t)c;
}

void go_obs_guard_set_to_move(struct go_obs_guard *g, enum go_color c)
{
    struct action a = {.kind = ACT_TO_MOVE, .m = {c, GO_NOPOINT}};
    gog_hist_push(g, a);
    gog_apply_action(g, &a, 0, 0, NULL);
}

bool go_obs_guard_set_handicap(struct go_obs_guard *g, int n, enum go_handicap_placement how)
{
    if (how == GO_HANDICAP_FIXED && n >= 2) {
        int pts[9];
        if (go_handicap_points(g->w, g->h, n, pts) != n) return false;
        for (int i = 0; i < n; i++) go_obs_guard_setup(g, GO_BLACK, pts[i]);
    }
    struct action a = {.kind = ACT_HANDICAP, .n = n};
    gog_hist_push(g, a);
    gog_apply_action(g, &a, 0, 0, NULL);
    return true;
}

void gog_count_phase(struct go_obs_guard *g)
{
    const struct go_game *game = gog_game_of(g);
    for (int p = 0; p < GO_POINTS; p++)
        if (go_game_at(game, p) != GO_EMPTY && g->pt[p].belief == GO_EMPTY)
            g->removed_in_count[p] = 1;
}

static int run(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing,
               struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    if (g->counting) {
        gog_count_phase(g);
        return 0;
    }
    gog_try_resync(g, &b, t, frame);
    gog_unseen_resolve(g, t, frame, &b);
    gog_unseen_flag_lost(g, t, frame, &b);
    gog_check_pending(g, t, frame, false, &b);
    gog_explain(g, t, frame, flushing, &b);
    gog_check_pending(g, t, frame, flushing, &b);
    /* the stones after each pass, then the next pass */
    int most = (int)(sizeof g->queue / sizeof g->queue[0]);
    for (int k = 0; k < most && gog_commit_queue(g, flushing, &b); k++) {
        gog_explain(g, t, frame, flushing, &b);
        gog_check_pending(g, t, frame, flushing, &b);
    }
    return b.n;
}

/* A new stone read in doubt in two observations in a row, of the side to move and legal, counts
 * once a stone of the opponent is surely read after it: the reply confirms it, and a live stream
 * (no flush) must not wait for a third reading that may never come (vision reads some stones in
 * doubt every time, and the board may be cleared right after the game). Only when the rest of the
 * board is quiet: the one stone in doubt, the one reply, nothing else changed or changing. */
static bool quiet_but(const struct go_obs_guard *g, int p, int q)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int r = go_point(x, y);
            if (r == p || r == q) continue;
            const struct point_state *s = &g->pt[r];
            if (s->cand_active || g->mask[r] >= 0 || s->belief != gog_expected_at(g, r))
                return false;
        }
    return true;
}

/* The one reply of colour o, surely read now, first read after observation first; -1 if none. */
static int sure_reply(const struct go_obs_guard *g, int p, uint8_t o, long first)
{
    const struct go_game *game = gog_game_of(g);
    const struct gog_view *v = &g->views[g->nobs % GOG_VIEWS];
    int found = -1;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int q = go_point(x, y);
            const struct point_state *r = &g->pt[q];
            if (q == p || !r->last_known || r->last != o || r->last_obs != g->nobs) continue;
            if (go_game_at(game, q) != GO_EMPTY || gog_expected_at(g, q) != GO_EMPTY) continue;
            if (r->belief != GO_EMPTY && r->belief != o) continue;
            if (r->stone_first[o] <= first || v->obs != g->nobs || !v->sure[q]) continue;
            if (found >= 0) return -1;
            found = q;
        }
    return found;
}

static void confirm_answered(struct go_obs_guard *g)
{
    const struct go_game *game = gog_game_of(g);
    if (go_game_state(game) != GO_PLAYING || g->handicap_left > 0 || g->npend || g->open_ply ||
        g->nqueue)
        return;
    uint8_t c = (uint8_t)go_game_to_move(game), o = c == GO_BLACK ? GO_WHITE : GO_BLACK;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            struct point_state *s = &g->pt[p];
            if (!s->cand_active || s->cand != c || s->belief != GO_EMPTY || !s->last_known ||
                s->last != c || s->last_obs != g->nobs || s->streak_any < 2 || g->mask[p] >= 0)
                continue;
            if (go_game_at(game, p) != GO_EMPTY || gog_expected_at(g, p) != GO_EMPTY) continue;
            long first = s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
            /* read as c at every observation since it came, never as the other colour */
            if (s->ep_obs[o] || g->nobs - first + 1 != s->streak_any) continue;
            if (go_game_check(game, (struct go_move){(enum go_color)c, p}).kind != GO_LEGAL)
                continue;
            int q = sure_reply(g, p, o, first);
            if (q < 0 || !quiet_but(g, p, q)) continue;
            s->belief = c;
            s->seen_t = s->ep_obs[c] ? s->ep_t[c] : s->cand_t;
            s->seen_frame = s->ep_obs[c] ? s->ep_frame[c] : s->cand_frame;
            s->seen_obs = s->seen_own = first;
            memset(s->ep_obs, 0, sizeof s->ep_obs);
            s->seen_doubt = true;
            s->cand_active = false;
            s->streak_sure = s->streak_any = 0;
            return;
        }
}

int go_obs_guard_observe(struct go_obs_guard *g, const struct observation *o,
                         struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    if (o->frame_seq && o->frame_seq == g->last_frame) return 0;
    g->last_frame = o->frame_seq;
    g->prev_view_t = g->last_t;
    g->last_t = o->t_ns;
    if (!o->board_found) return 0;
    if (o->w != g->w || o->h != g->h) {
        struct evbuf b = {ev, 0};
        struct guard_event *e =
            gog_ev_add(&b, GUARD_UNREADABLE, gog_ply_of(g), o->t_ns, o->frame_seq);
        snprintf(e->text, sizeof e->text, "a %dx%d board seen; the game is %dx%d", o->w, o->h, g->w,
                 g->h);
        return b.n;
    }
    g->nobs++;
    bool changed = false;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) gog_read_point(g, go_point(x, y), o, &changed);
    gog_keep_view(g, o);
    gog_unseen_view(g);
    if (!g->counting) gog_confirm_capture_view(g, o);
    if (!g->counting) confirm_answered(g);
    return run(g, o->t_ns, o->frame_seq, false, ev);
}

int go_obs_guard_observe_stable(struct go_obs_guard *g, const struct stable_obs *s,
                                struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    g->read_since = s->read_since_ns;
    int n = go_obs_guard_observe(g, &s->obs, ev);
    g->read_since = NULL;
    return n;
}

int go_obs_guard_flush(struct go_obs_guard *g, int64_t t_ns,
                       struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    gog_confirm_tentative(g);
    return run(g, t_ns, g->last_frame, true, ev);
}

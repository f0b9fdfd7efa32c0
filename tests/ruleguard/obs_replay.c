/* tests/ruleguard/obs_replay.c — generated streams through text into the guards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ruleguard/obs_replay.h"

#define TEXT_MAX (1 << 16)

FILE *replay_trace;

static void trace_obs(const struct go_obs_guard *g, const struct obs_item *it, int k)
{
    const struct go_game *game = go_obs_guard_game(g);
    int h = go_game_height(game), w = go_game_width(game);
    if (it->kind == OBS_ITEM_SIGNAL) {
        fprintf(replay_trace, "obs %d: signal %d by %d\n", k, it->signal, it->color);
        return;
    }
    const struct observation *o = &it->obs;
    fprintf(replay_trace, "obs %d frame %llu ply %d occl %d:", k, (unsigned long long)o->frame_seq,
            go_game_ply(game), o->noccluded);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int p = go_point(x, y);
            if (o->occluded[p] || o->point[p] == go_game_at(game, p)) continue;
            char name[8];
            fprintf(replay_trace, " %s=%c%.2f", go_point_name(p, h, name), ".BW"[o->point[p] % 3],
                    (double)o -> conf[p]);
        }
    fprintf(replay_trace, "\n");
}

static void trace_events(const struct guard_event *ev, int n, int h)
{
    for (int i = 0; i < n; i++) {
        char name[8];
        fprintf(replay_trace, "   -> %s ply %d %c %s reason %d: %s\n", guard_kind_name(ev[i].kind),
                ev[i].ply, ".BW"[ev[i].move.color % 3],
                ev[i].move.point >= 0 ? go_point_name(ev[i].move.point, h, name) : "-",
                ev[i].reason, ev[i].text);
    }
}

void replay_result_free(struct replay_result *r)
{
    free(r->moves);
    free(r->plies);
    memset(r, 0, sizeof *r);
}

static void collect(struct replay_result *r, const struct guard_event *ev, int n)
{
    r->events += n;
    for (int i = 0; i < n; i++) {
        const struct guard_event *e = &ev[i];
        if (guard_is_flag(e->kind)) {
            if (r->nflags < REPLAY_MAX_FLAGS) r->flags[r->nflags] = *e;
            r->nflags++;
            continue;
        }
        if (e->kind == GUARD_MOVE && e->reason == GUARD_REASON_TAKEBACK) {
            while (r->nmoves > 0 && r->plies[r->nmoves - 1] > e->ply) r->nmoves--;
            continue;
        }
        if (e->kind == GUARD_MOVE && e->reason == GUARD_REASON_SETUP) continue;
        if (e->kind != GUARD_MOVE && e->kind != GUARD_PASS) continue;
        if (r->nmoves == r->cap) {
            r->cap = r->cap ? r->cap * 2 : 256;
            r->moves = realloc(r->moves, (size_t)r->cap * sizeof *r->moves);
            r->plies = realloc(r->plies, (size_t)r->cap * sizeof *r->plies);
        }
        r->moves[r->nmoves] = e->move;
        r->plies[r->nmoves] = e->ply;
        r->nmoves++;
    }
}

/* Format and parse back: what `kifucam check` would read from a file. */
static bool through_text(const struct obs_stream_header *hdr, const struct obs_item *in,
                         struct obs_item *out, struct replay_result *r)
{
    static char buf[TEXT_MAX];
    size_t n = obs_text_format_item(hdr, in, buf, sizeof buf);
    if (n >= sizeof buf) {
        snprintf(r->error, sizeof r->error, "item too long for the buffer");
        return false;
    }
    const char *cur = buf;
    int line = 0;
    struct obs_text_error err = {0};
    if (obs_text_next(&cur, &line, hdr, out, &err) != 1) {
        snprintf(r->error, sizeof r->error, "text line %d: %s", err.line, err.message);
        return false;
    }
    return true;
}

static bool header_through_text(const struct obs_stream_header *in, struct obs_stream_header *out,
                                struct replay_result *r)
{
    static char buf[TEXT_MAX];
    obs_text_format_header(in, buf, sizeof buf);
    const char *cur = buf;
    int line = 0;
    struct obs_text_error err = {0};
    if (!obs_text_header(&cur, &line, out, &err)) {
        snprintf(r->error, sizeof r->error, "header line %d: %s", err.line, err.message);
        return false;
    }
    return true;
}

bool replay_go(const struct gen_stream *s, const struct go_obs_config *cfg,
               struct replay_result *out)
{
    memset(out, 0, sizeof *out);
    struct obs_stream_header hdr;
    if (!header_through_text(&s->hdr, &hdr, out)) return false;
    const struct go_rules *rules = hdr.rules[0] ? go_rules_find(hdr.rules) : NULL;
    struct go_obs_guard *g = go_obs_guard_new(hdr.w, hdr.h, rules, cfg);
    if (!g) return false;
    for (int i = 0; i < hdr.nsetup; i++)
        go_obs_guard_setup(g, hdr.setup[i].color, hdr.setup[i].point);
    if (hdr.handicap >= 2)
        go_obs_guard_set_handicap(g, hdr.handicap,
                                  hdr.handicap_free ? GO_HANDICAP_FREE : GO_HANDICAP_FIXED);
    if (hdr.to_move != GO_EMPTY) go_obs_guard_set_to_move(g, hdr.to_move);
    struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    static struct obs_item it;
    int64_t t = 0;
    for (int i = 0; i < s->n; i++) {
        if (!through_text(&hdr, &s->items[i], &it, out)) {
            go_obs_guard_free(g);
            return false;
        }
        int n = 0;
        if (replay_trace) trace_obs(g, &it, i);
        if (it.kind == OBS_ITEM_OBS) {
            out->observations++;
            t = it.obs.t_ns;
            n = go_obs_guard_observe(g, &it.obs, ev);
        } else if (it.kind == OBS_ITEM_SIGNAL) {
            t = it.t_ns;
            n = go_obs_guard_signal(g, (enum go_obs_signal)it.signal, it.color, it.t_ns, 0, ev);
        }
        if (replay_trace) trace_events(ev, n, hdr.h);
        collect(out, ev, n);
    }
    int nf = go_obs_guard_flush(g, t + 1000000000, ev);
    if (replay_trace) trace_events(ev, nf, hdr.h);
    collect(out, ev, nf);
    go_obs_guard_free(g);
    out->text_ok = true;
    return true;
}

bool replay_moves_equal(const struct gen_stream *s, const struct replay_result *r, char *why,
                        size_t len)
{
    /* the game ends at the second pass in a row: passes the record goes on with (a third pass
       in some engine records) are not moves on the board */
    int rec = s->nmoves;
    for (int i = 1; i < s->nmoves; i++)
        if (s->moves[i].point == GO_PASS && s->moves[i - 1].point == GO_PASS) {
            rec = i + 1;
            break;
        }
    int n = rec < r->nmoves ? rec : r->nmoves;
    for (int i = 0; i < n; i++) {
        if (s->moves[i].color == r->moves[i].color && s->moves[i].point == r->moves[i].point)
            continue;
        {
            char a[8], b[8];
            snprintf(why, len, "move %d: record %c %s, guard %c %s", i + 1,
                     s->moves[i].color == GO_BLACK ? 'B' : 'W',
                     go_point_name(s->moves[i].point, s->hdr.h, a),
                     r->moves[i].color == GO_BLACK ? 'B' : 'W',
                     go_point_name(r->moves[i].point, s->hdr.h, b));
        }
        return false;
    }
    if (rec != r->nmoves) {
        snprintf(why, len, "record has %d moves, guard %d", rec, r->nmoves);
        return false;
    }
    return true;
}

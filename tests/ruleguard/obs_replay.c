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
    /* OBS_TRACE_POINT=D4: that point's reading in every observation */
    const char *tp = getenv("OBS_TRACE_POINT");
    for (int y = 0; tp && y < h; y++)
        for (int x = 0; x < w; x++) {
            int p = go_point(x, y);
            char name[8];
            if (strcmp(go_point_name(p, h, name), tp)) continue;
            fprintf(replay_trace, " [%s: %c%.2f%s]", tp, ".BW"[o->point[p] % 3],
                    (double)o -> conf[p], o -> occluded[p] ? " occluded" : "");
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

/* The moves the record counts as on the board: up to the second pass in a row. */
static int record_moves(const struct gen_stream *s)
{
    for (int i = 1; i < s->nmoves; i++)
        if (s->moves[i].point == GO_PASS && s->moves[i - 1].point == GO_PASS) return i + 1;
    return s->nmoves;
}

int replay_first_diff(const struct gen_stream *s, const struct replay_result *r)
{
    int rec = record_moves(s);
    int n = rec < r->nmoves ? rec : r->nmoves;
    for (int i = 0; i < n; i++)
        if (s->moves[i].color != r->moves[i].color || s->moves[i].point != r->moves[i].point)
            return i + 1;
    return rec != r->nmoves ? n + 1 : 0;
}

const char *replay_class_name(enum replay_class c)
{
    static const char *const names[RC_COUNT] = {
        "stone captured by the next move (ko, snapback)", "prisoner's point played again",
        "4+ prisoners at once", "pass nearby", "other (misreads, hands)"};
    return (unsigned)c < RC_COUNT ? names[c] : "?";
}

enum replay_class replay_classify(const struct gen_stream *s, int ply)
{
    const struct go_rules *rules = s->hdr.rules[0] ? go_rules_find(s->hdr.rules) : NULL;
    struct go_game *g = go_game_new(s->hdr.w, s->hdr.h, rules);
    for (int i = 0; i < s->hdr.nsetup; i++)
        go_game_setup(g, s->hdr.setup[i].color, s->hdr.setup[i].point);
    if (s->hdr.handicap >= 2) go_game_set_handicap(g, s->hdr.handicap);
    if (s->hdr.to_move != GO_EMPTY) go_game_set_to_move(g, s->hdr.to_move);
    bool at_once = false, replayed = false, big = false, pass = false;
    int emptied[GO_POINTS]; /* the ply that last emptied each point by a capture */
    for (int p = 0; p < GO_POINTS; p++) emptied[p] = -100;
    for (int i = 0; i < s->nmoves && i < ply + 2; i++) {
        struct go_move m = s->moves[i];
        int k = i + 1; /* this move's ply */
        bool near = k >= ply - 2 && k <= ply + 2;
        uint8_t before[GO_POINTS];
        for (int p = 0; p < GO_POINTS; p++) before[p] = (uint8_t)go_game_at(g, p);
        if (go_game_to_move(g) != m.color) go_game_set_to_move(g, m.color);
        go_game_play(g, m);
        if (m.point == GO_PASS) {
            pass |= near;
            continue;
        }
        if (near && emptied[m.point] >= k - 2) replayed = true;
        int ncap = 0;
        for (int p = 0; p < GO_POINTS; p++)
            if (before[p] != GO_EMPTY && go_game_at(g, p) == GO_EMPTY && p != m.point) {
                ncap++;
                emptied[p] = k;
                /* the previous move's stone taken at once */
                if (near && i > 0 && s->moves[i - 1].point == p) at_once = true;
            }
        if (near && ncap >= 4) big = true;
    }
    go_game_free(g);
    return at_once    ? RC_CAPTURED_AT_ONCE
           : replayed ? RC_POINT_REPLAYED
           : big      ? RC_BIG_CAPTURE
           : pass     ? RC_PASS_NEAR
                      : RC_OTHER;
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

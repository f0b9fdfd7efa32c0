/* tests/ruleguard/shogi_obs_replay.c — generated shogi streams, through the text format, into
 * the observation guard (tests/ruleguard/shogi_obs_replay.h). */
#include <stdlib.h>
#include <string.h>

#include "tests/ruleguard/shogi_obs_replay.h"

FILE *sreplay_trace;

void sreplay_result_free(struct sreplay_result *r)
{
    free(r->moves);
    memset(r, 0, sizeof *r);
}

static void take(struct sreplay_result *r, const struct guard_event *ev, int n)
{
    for (int i = 0; i < n; i++) {
        const struct guard_event *e = &ev[i];
        r->events++;
        if (sreplay_trace)
            fprintf(sreplay_trace, "  ply %d %s (%d): %s\n", e->ply, guard_kind_name(e->kind),
                    e->reason, e->text);
        if (guard_is_flag(e->kind)) {
            if (r->nflags < SREPLAY_MAX_FLAGS) r->flags[r->nflags] = *e;
            r->nflags++;
            continue;
        }
        if (e->kind != GUARD_MOVE) continue;
        if (e->reason == GUARD_REASON_TAKEBACK) {
            if (e->ply < r->nmoves) r->nmoves = e->ply;
            continue;
        }
        if (e->reason == GUARD_REASON_SETUP) continue;
        if (e->ply < 1) continue;
        if (e->ply > r->cap) {
            int cap = e->ply * 2 + 64;
            struct shogi_move *v = realloc(r->moves, (size_t)cap * sizeof *v);
            if (!v) abort();
            r->moves = v;
            r->cap = cap;
        }
        r->moves[e->ply - 1] = e->shogi;
        r->nmoves = e->ply;
    }
}

/* The whole stream as text. */
static char *stream_text(const struct sgen_stream *s)
{
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    for (int i = -1; i < s->n; i++) {
        for (;;) {
            size_t room = cap - used;
            size_t need = i < 0 ? obs_text_format_header(&s->hdr, buf + used, room)
                                : obs_text_format_item(&s->hdr, &s->items[i], buf + used, room);
            if (need < room) {
                used += need;
                break;
            }
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
    }
    return buf;
}

bool sreplay_run(const struct sgen_stream *s, const struct shogi_obs_config *cfg,
                 struct sreplay_result *out)
{
    memset(out, 0, sizeof *out);
    char *text = stream_text(s);
    if (!text) return false;
    const char *cur = text;
    int line = 0;
    struct obs_stream_header hdr;
    struct obs_text_error err;
    bool ok = false;
    struct shogi_obs_guard *g = NULL;
    struct obs_item *it = malloc(sizeof *it);
    if (!it) goto done;
    if (!obs_text_header(&cur, &line, &hdr, &err)) {
        snprintf(out->error, sizeof out->error, "header line %d: %s", err.line, err.message);
        goto done;
    }
    struct shogi_position start;
    char perr[120];
    if (!shogi_sfen_parse(&start, hdr.start_sfen[0] ? hdr.start_sfen : "startpos", NULL, perr,
                          sizeof perr)) {
        snprintf(out->error, sizeof out->error, "start: %s", perr);
        goto done;
    }
    g = shogi_obs_guard_new(&start, NULL, hdr.sente_bottom, cfg);
    struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    int64_t last_t = 0;
    for (;;) {
        int r = obs_text_next(&cur, &line, &hdr, it, &err);
        if (r == 0) break;
        if (r < 0) {
            snprintf(out->error, sizeof out->error, "line %d: %s", err.line, err.message);
            goto done;
        }
        int n = 0;
        if (it->kind == OBS_ITEM_OBS) {
            out->observations++;
            last_t = it->obs.t_ns;
            if (sreplay_trace)
                fprintf(sreplay_trace, "obs %d frame %llu\n", out->observations,
                        (unsigned long long)it->obs.frame_seq);
            if (sreplay_trace && getenv("SOBS_DUMP")) {
                static char dump[8192];
                obs_text_format_item(&hdr, it, dump, sizeof dump);
                fputs(dump, sreplay_trace);
            }
            n = shogi_obs_guard_observe(g, &it->obs, ev);
        } else if (it->kind == OBS_ITEM_REFEREE) {
            if (it->referee == OBS_REF_ACCEPT)
                n = shogi_obs_guard_accept_position(g, it->t_ns, ev);
            else if (it->referee == OBS_REF_TAKEBACK)
                n = shogi_obs_guard_take_back(g, it->t_ns, ev);
            else if (it->referee == OBS_REF_RESIGN) {
                enum shogi_color loser = it->color == GO_BLACK ? SHOGI_SENTE : SHOGI_GOTE;
                struct shogi_outcome o = {SHOGI_END_RESIGN, shogi_win_for(loser ^ 1)};
                n = shogi_obs_guard_set_result(g, o, it->t_ns, ev);
            }
        }
        take(out, ev, n);
    }
    take(out, ev, shogi_obs_guard_flush(g, last_t, ev));
    ok = true;
done:
    shogi_obs_guard_free(g);
    free(it);
    free(text);
    return ok;
}

bool sreplay_moves_equal(const struct sgen_stream *s, const struct sreplay_result *r, char *why,
                         size_t len)
{
    int n = r->nmoves < s->nmoves ? r->nmoves : s->nmoves;
    for (int i = 0; i < n; i++) {
        struct shogi_move a = s->moves[i], b = r->moves[i];
        if (!shogi_move_equal(a, b)) {
            char ua[6], ub[6];
            shogi_move_to_usi(a, ua);
            shogi_move_to_usi(b, ub);
            snprintf(why, len, "ply %d: recorded %s, the game has %s", i + 1, ub, ua);
            return false;
        }
    }
    if (r->nmoves != s->nmoves) {
        snprintf(why, len, "%d moves recorded, the game has %d", r->nmoves, s->nmoves);
        return false;
    }
    return true;
}

void sreplay_compare_flags(const struct sgen_stream *s, const struct sreplay_result *r,
                           int *false_flags, int *missed)
{
    bool used[SGEN_MAX_FLAGS] = {false};
    int kept = r->nflags < SREPLAY_MAX_FLAGS ? r->nflags : SREPLAY_MAX_FLAGS;
    *false_flags = r->nflags - kept;
    for (int i = 0; i < kept; i++) {
        const struct guard_event *e = &r->flags[i];
        bool found = false;
        for (int j = 0; j < s->nexpect && !found; j++)
            if (!used[j] && s->expect[j].ply == e->ply && s->expect[j].kind == e->kind &&
                s->expect[j].reason == e->reason)
                used[j] = found = true;
        if (!found) ++*false_flags;
    }
    *missed = 0;
    for (int j = 0; j < s->nexpect; j++) *missed += !used[j];
}

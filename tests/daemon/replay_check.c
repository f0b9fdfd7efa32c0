/* tests/daemon/replay_check.c — a recording's observation log replayed against its journal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/check_obs.h"
#include "record/journal.h"
#include "tests/daemon/replay_check.h"
#include "tests/testutil.h"

#define RC_MAX_EVENTS 4096

struct rc_events {
    struct guard_event ev[RC_MAX_EVENTS];
    int n;
};

static void keep_event(const struct guard_event *e, void *ctx)
{
    struct rc_events *l = ctx;
    if (l->n < RC_MAX_EVENTS) l->ev[l->n++] = *e;
}

static bool same_event(const struct guard_event *a, const struct guard_event *b)
{
    return a->kind == b->kind && a->ply == b->ply && a->move.color == b->move.color &&
           a->move.point == b->move.point && !memcmp(&a->shogi, &b->shogi, sizeof a->shogi);
}

bool rc_replay_same(const char *out_dir, int *events, char *why, size_t n)
{
    static struct rc_events live, replay;
    live.n = replay.n = 0;
    char path[1200];
    snprintf(path, sizeof path, "%.1100s/game.journal", out_dir);
    struct journal_log log;
    struct journal_error jerr;
    if (journal_read(path, &log, &jerr) < 0) {
        snprintf(why, n, "%s", jerr.message);
        return false;
    }
    for (size_t i = 0; i < log.count; i++) {
        char rule[256];
        struct guard_event e;
        if (journal_decode_event(&log.entries[i], &e, rule, sizeof rule)) keep_event(&e, &live);
    }
    journal_log_free(&log);
    *events = live.n;
    snprintf(path, sizeof path, "%.1100s/observations.obs", out_dir);
    size_t len = 0;
    char *text = tu_read_file(path, &len);
    if (!text) {
        snprintf(why, n, "%s: cannot read", path);
        return false;
    }
    static struct check_obs_result res;
    check_obs_stream(text, NULL, NULL, keep_event, &replay, &res);
    free(text);
    if (!res.readable) {
        snprintf(why, n, "observations.obs: %s", res.error);
        return false;
    }
    for (int i = 0; i < live.n || i < replay.n; i++) {
        if (i < live.n && i < replay.n && same_event(&live.ev[i], &replay.ev[i])) continue;
        snprintf(why, n, "event %d of %d/%d: journal %s ply %d, replay %s ply %d", i + 1, live.n,
                 replay.n, i < live.n ? guard_kind_name(live.ev[i].kind) : "-",
                 i < live.n ? live.ev[i].ply : 0,
                 i < replay.n ? guard_kind_name(replay.ev[i].kind) : "-",
                 i < replay.n ? replay.ev[i].ply : 0);
        return false;
    }
    return true;
}

/* tests/daemon/shogi_testutil.c — the shogi daemon tests' shared pieces (see the header). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/journal.h"
#include "render/render.h"
#include "tests/daemon/shogi_testutil.h"
#include "tests/testutil.h"

struct shogi_record *st_load_game(const char *name)
{
    struct shogi_record **games = NULL;
    struct shogi_record_error err = {0};
    char rel[256];
    snprintf(rel, sizeof rel, "shogi-records/%s", name);
    const char *path = tu_path(tu_fixtures_dir(), rel);
    int n = shogi_record_read_file(path, &games, &err);
    if (n < 1) fail_msg("%s: %s", path, err.message);
    struct shogi_record *rec = games[0];
    for (int i = 1; i < n; i++) shogi_record_free(games[i]);
    free(games);
    return rec;
}

void st_render_game(const struct shogi_record *rec, int moves, const char *dir)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = 640;
    o.height = 480;
    o.seed = 7;
    o.scenario = RENDER_SCENE_OVERHEAD;
    o.max_moves = moves;
    o.bump_rate = 0;
    char err[300] = "";
    if (render_shogi_to_dir(rec, "fixture.kif", &o, dir, err, sizeof err) < 0)
        fail_msg("render: %s", err);
}

void st_config(struct kc_config *c, const char *frames, const char *out)
{
    kc_config_default(c);
    char err[256];
    assert_int_equal(kc_config_set(c, "game", "game", "shogi", err, sizeof err), 0);
    snprintf(c->source, sizeof c->source, "dir:%.500s", frames);
    snprintf(c->out_dir, sizeof c->out_dir, "%.500s", out);
    c->fps = 30;
    c->progress = false;
    c->log_level = KC_LOG_WARN;
}

static bool same_move(struct shogi_move a, struct shogi_move b)
{
    return a.from == b.from && a.to == b.to && a.promote == b.promote;
}

int st_record_matching(const char *path, const struct shogi_record *want, int *count)
{
    struct shogi_record **got = NULL;
    struct shogi_record_error err = {0};
    int n = shogi_record_read_file(path, &got, &err);
    if (n != 1) fail_msg("%s: %s", path, n < 0 ? err.message : "not one game");
    int same = 0;
    while (same < got[0]->nmoves && same < want->nmoves &&
           same_move(got[0]->moves[same].move, want->moves[same].move))
        same++;
    *count = got[0]->nmoves;
    shogi_records_free(got, n);
    return same;
}

int st_journal_moves(const char *path, const struct shogi_record *want, bool torn_ok, bool *torn,
                     int *matching)
{
    struct journal_log log = {0};
    struct journal_error err;
    if (journal_read(path, &log, &err) != 0) fail_msg("%s", err.message);
    if (torn) *torn = log.damaged;
    if (log.damaged && !(torn_ok && strstr(log.damage.message, "torn line")))
        fail_msg("%s", log.damage.message);
    /* the moves in order, a take-back cutting the list back to its ply */
    static struct shogi_move moves[1024];
    int n = 0;
    for (size_t i = 0; i < log.count; i++) {
        struct guard_event ev;
        char rule[256];
        if (!journal_decode_event(&log.entries[i], &ev, rule, sizeof rule)) continue;
        if (ev.kind == GUARD_MOVE && ev.reason == GUARD_REASON_TAKEBACK) {
            if (ev.ply < n) n = ev.ply;
        } else if (ev.kind == GUARD_MOVE && ev.reason != GUARD_REASON_SETUP && n < 1024) {
            moves[n++] = ev.shogi;
        }
    }
    journal_log_free(&log);
    int same = 0;
    while (same < n && same < want->nmoves && same_move(moves[same], want->moves[same].move))
        same++;
    *matching = same;
    return n;
}

int st_frame_count(const char *dir)
{
    int n = 0;
    char path[1200];
    for (;;) {
        snprintf(path, sizeof path, "%.1000s/frame_%06d.jpg", dir, n);
        if (access(path, F_OK)) return n;
        n++;
    }
}

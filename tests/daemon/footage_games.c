/* tests/daemon/footage_games.c — what the two footage tests (the recorder on clean footage, and
 * on footage with one fault each) share: the games they film and how a record is compared with its
 * source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/daemon/daemon_testutil.h"
#include "tests/daemon/footage_games.h"
#include "tests/testutil.h"

int fg_lcs(const uint32_t *a, int na, const uint32_t *b, int nb)
{
    int *row = calloc((size_t)nb + 1, sizeof *row), *prev = calloc((size_t)nb + 1, sizeof *prev);
    assert_non_null(row);
    assert_non_null(prev);
    for (int i = 0; i < na; i++) {
        for (int j = 0; j < nb; j++)
            row[j + 1] = a[i] == b[j] ? prev[j] + 1 : (prev[j + 1] > row[j] ? prev[j + 1] : row[j]);
        int *t = prev;
        prev = row;
        row = t;
    }
    int n = prev[nb];
    free(row);
    free(prev);
    return n;
}

uint32_t fg_go_key(struct go_move m, int s, int n)
{
    if (m.point < 0) return (uint32_t)m.color << 16 | 0xffffu;
    int x = go_x(m.point), y = go_y(m.point);
    if (s & 4) {
        int t = x;
        x = y;
        y = t;
    }
    if (s & 1) x = n - 1 - x;
    if (s & 2) y = n - 1 - y;
    return (uint32_t)m.color << 16 | (uint32_t)go_point(x, y);
}

uint32_t fg_shogi_key(struct shogi_move m)
{
    return (uint32_t)m.from << 24 | (uint32_t)m.to << 16 |
           (uint32_t)(shogi_move_is_drop(m) ? m.piece : 0) << 8 | (uint32_t)m.promote;
}

struct shogi_record **fg_shogi_games(int *n, const char **which)
{
    const char *shared = tu_shared_data_dir();
    struct shogi_record **all = NULL;
    struct shogi_record_error err = {0};
    *n = 0;
    if (shared) {
        const char *path = tu_path(shared, "shogi-games/lishogi-400.usi");
        size_t len;
        char *text = tu_read_file(path, &len);
        char *save = NULL;
        for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
             line = strtok_r(NULL, "\n", &save)) {
            struct shogi_record **one = NULL;
            char name[64];
            snprintf(name, sizeof name, "lishogi-400.usi:%d", *n + 1);
            int got = shogi_record_read(line, strlen(line), name, &one, &err);
            if (got < 1) fail_msg("%s: %s", name, err.message);
            struct shogi_record **grown = realloc(all, (size_t)(*n + 1) * sizeof *all);
            assert_non_null(grown);
            all = grown;
            all[(*n)++] = one[0];
            for (int i = 1; i < got; i++) shogi_record_free(one[i]);
            free(one);
        }
        free(text);
        *which = "../shared/data shogi-games/lishogi-400.usi";
        if (*n > 0) return all;
    }
    static const char *const fixtures[] = {"ryuou201409020101.kif", "kobayashi_kinsho196702.ki2",
                                           "chudan.kif"};
    for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
        char rel[128];
        snprintf(rel, sizeof rel, "shogi-records/%s", fixtures[f]);
        struct shogi_record **got = NULL;
        int ng = shogi_record_read_file(tu_path(tu_fixtures_dir(), rel), &got, &err);
        if (ng < 1) fail_msg("%s: %s", rel, err.message);
        struct shogi_record **grown = realloc(all, (size_t)(*n + 1) * sizeof *all);
        assert_non_null(grown);
        all = grown;
        all[(*n)++] = got[0];
        for (int i = 1; i < ng; i++) shogi_record_free(got[i]);
        free(got);
    }
    *which = "tests/fixtures shogi-records";
    return all;
}

void fg_kept_path(char *out, size_t n, const char *env, const char *name)
{
    const char *keep = getenv(env);
    if (keep && *keep) {
        mkdir(keep, 0755);
        snprintf(out, n, "%.700s/%.200s", keep, name);
    } else {
        dt_make_tmp(out, n, name);
    }
}

bool fg_render_kept(const char *env, const char *dir)
{
    char truth[1200];
    snprintf(truth, sizeof truth, "%.1000s/truth.jsonl", dir);
    return getenv(env) && access(truth, R_OK) == 0;
}

void fg_part_path(char *out, size_t n, const char *dir)
{
    snprintf(out, n, "%.1000s.part", dir);
}

void fg_render_done(const char *part, const char *dir)
{
    if (rename(part, dir)) fail_msg("rename %s -> %s: %s", part, dir, strerror(errno));
}

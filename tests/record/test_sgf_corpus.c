/* tests/record/test_sgf_corpus.c — every real SGF file: the main line has exactly the number of
 * moves its manifest.csv says, and write -> read gives back the same record.
 *
 * Runs over tests/fixtures/sgf (always) and ../shared/data/go-games (when present). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/sgf.h"
#include "tests/record/test_sgf_util.h"
#include "tests/testutil.h"

struct manifest_row {
    char *file;
    int moves;
};

struct run {
    const char *root;
    struct manifest_row *rows;
    int nrows;
    int files, games, moves, count_mismatch, unread, not_in_manifest, roundtrip_fail, warned;
    int charset_counts[8];
    const char *charset_names[8];
};

/* One CSV field (RFC 4180 quoting) starting at *p; advances *p past the comma. */
static char *csv_field(const char **p)
{
    const char *s = *p;
    size_t cap = strlen(s) + 1, n = 0;
    char *out = malloc(cap);
    if (*s == '"') {
        s++;
        while (*s) {
            if (*s == '"' && s[1] == '"') {
                out[n++] = '"';
                s += 2;
            } else if (*s == '"') {
                s++;
                break;
            } else {
                out[n++] = *s++;
            }
        }
    }
    while (*s && *s != ',' && *s != '\n' && *s != '\r') out[n++] = *s++;
    out[n] = '\0';
    if (*s == ',') s++;
    *p = s;
    return out;
}

/* Rows of manifest.csv: file (column 0) and moves (column 7). */
static int read_manifest(const char *path, struct manifest_row **rows)
{
    char *text = tu_read_file(path, NULL);
    if (!text) return -1;
    int n = 0, cap = 0;
    *rows = NULL;
    const char *line = strchr(text, '\n'); /* skip the header */
    while (line && *++line) {
        const char *p = line;
        char *fields[8] = {0};
        for (int i = 0; i < 8; i++) fields[i] = csv_field(&p);
        if (n == cap) *rows = realloc(*rows, sizeof **rows * (size_t)(cap = cap ? cap * 2 : 256));
        (*rows)[n].file = fields[0];
        (*rows)[n].moves = atoi(fields[7]);
        n++;
        for (int i = 1; i < 8; i++) free(fields[i]);
        line = strchr(p, '\n');
    }
    free(text);
    return n;
}

static const struct manifest_row *find_row(const struct run *r, const char *rel)
{
    for (int i = 0; i < r->nrows; i++)
        if (strcmp(r->rows[i].file, rel) == 0) return &r->rows[i];
    return NULL;
}

static void count_charset(struct run *run, const char *cs)
{
    for (int i = 0; i < 8; i++) {
        if (!run->charset_names[i]) run->charset_names[i] = cs;
        if (strcmp(run->charset_names[i], cs) == 0) {
            run->charset_counts[i]++;
            return;
        }
    }
}

static void check_file(const char *path, void *ctx)
{
    struct run *run = ctx;
    const char *rel = path + strlen(run->root) + 1;
    run->files++;
    struct go_record **recs;
    struct sgf_error err;
    int n = sgf_read_file(path, &recs, &err);
    if (n < 1) {
        tu_note("unreadable: %s", err.message);
        run->unread++;
        return;
    }
    run->games += n;
    int moves = sgf_test_count_moves(recs[0]);
    run->moves += moves;
    count_charset(run, recs[0]->charset);
    if (recs[0]->nwarnings > 0) run->warned++;
    const struct manifest_row *row = find_row(run, rel);
    if (!row) {
        run->not_in_manifest++;
    } else if (row->moves != moves) {
        tu_note("%s: %d moves, manifest says %d", rel, moves, row->moves);
        run->count_mismatch++;
    }
    for (int i = 0; i < n; i++) {
        char why[200];
        if (!sgf_test_roundtrip(recs[i], why, sizeof why)) {
            tu_note("%s game %d: round trip: %s", rel, i + 1, why);
            run->roundtrip_fail++;
        }
        go_record_free(recs[i]);
    }
    free(recs);
}

static void run_corpus(const char *root, const char *label)
{
    static const char *const suffixes[] = {".sgf", NULL};
    struct run run = {.root = root};
    char mpath[4096];
    snprintf(mpath, sizeof mpath, "%s/manifest.csv", root);
    run.nrows = read_manifest(mpath, &run.rows);
    assert_true(run.nrows > 0);
    int visited = tu_walk(root, suffixes, check_file, &run);
    assert_true(visited > 0);
    tu_note("%s: %d files, %d games, %d main-line moves, %d with warnings; %d unreadable, %d "
            "move-count mismatches, %d not in manifest, %d round-trip failures",
            label, run.files, run.games, run.moves, run.warned, run.unread, run.count_mismatch,
            run.not_in_manifest, run.roundtrip_fail);
    for (int i = 0; i < 8 && run.charset_names[i]; i++)
        tu_note("%s: charset %s: %d files", label, run.charset_names[i], run.charset_counts[i]);
    assert_int_equal(run.unread, 0);
    assert_int_equal(run.count_mismatch, 0);
    assert_int_equal(run.not_in_manifest, 0);
    assert_int_equal(run.roundtrip_fail, 0);
    assert_int_equal(run.files, run.nrows);
    for (int i = 0; i < run.nrows; i++) free(run.rows[i].file);
    free(run.rows);
}

static void test_fixtures(void **state)
{
    (void)state;
    char root[4096];
    snprintf(root, sizeof root, "%s/sgf", tu_fixtures_dir());
    run_corpus(root, "tests/fixtures/sgf");
}

static void test_shared_corpora(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("shared data absent: shared go-games corpora not run");
        TU_SKIP();
    }
    static const char *const dirs[] = {"foxwq-pro", "gnugo-regression-games",
                                       "computer-go-dataset-ai", "gnugo-selfplay-tt"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char root[4096];
        snprintf(root, sizeof root, "%s/go-games/%s", shared, dirs[i]);
        run_corpus(root, dirs[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_shared_corpora),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

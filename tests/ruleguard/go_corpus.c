/* tests/ruleguard/go_corpus.c — which Go games the observation tests replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/app/manifest.h"
#include "tests/ruleguard/go_corpus.h"
#include "tests/testutil.h"

static void add(struct go_corpus *c, const char *dir, const struct manifest_row *row)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 128;
        c->paths = realloc(c->paths, (size_t)c->cap * sizeof *c->paths);
        c->rules = realloc(c->rules, (size_t)c->cap * sizeof *c->rules);
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, row->file);
    c->paths[c->n] = strdup(path);
    c->rules[c->n] = strdup(row->ru);
    c->n++;
}

/* Clean rows: no anomaly in the independent replay, and no pass except at the end. */
static bool clean(const struct manifest_row *r)
{
    return !r->events[0];
}

void go_corpus_load(struct go_corpus *c, int max_shared)
{
    memset(c, 0, sizeof *c);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/go-check", tu_fixtures_dir());
    struct manifest_row *rows = NULL;
    int n = manifest_read(tu_path(dir, "manifest.csv"), &rows);
    for (int i = 0; i < n; i++)
        if (clean(&rows[i])) add(c, dir, &rows[i]), c->fixtures++;
    free(rows);
    const char *shared = tu_shared_data_dir();
    if (!shared || max_shared <= 0) return;
    static const char *const corpora[] = {"foxwq-pro", "gnugo-regression-games",
                                          "computer-go-dataset-ai", "gnugo-selfplay-tt"};
    /* count first, then sample evenly across all corpora */
    struct manifest_row *all[4] = {0};
    int counts[4] = {0}, total = 0;
    for (int k = 0; k < 4; k++) {
        snprintf(dir, sizeof dir, "%s/go-games/%s", shared, corpora[k]);
        counts[k] = manifest_read(tu_path(dir, "manifest.csv"), &all[k]);
        for (int i = 0; i < counts[k]; i++) total += clean(&all[k][i]);
    }
    c->shared_available = total;
    int step = total > max_shared ? (total + max_shared - 1) / max_shared : 1;
    int seen = 0;
    for (int k = 0; k < 4; k++) {
        snprintf(dir, sizeof dir, "%s/go-games/%s", shared, corpora[k]);
        for (int i = 0; i < counts[k]; i++) {
            if (!clean(&all[k][i])) continue;
            if (seen++ % step == 0) add(c, dir, &all[k][i]), c->shared++;
        }
        free(all[k]);
    }
}

void go_corpus_free(struct go_corpus *c)
{
    for (int i = 0; i < c->n; i++) free(c->paths[i]), free(c->rules[i]);
    free(c->paths);
    free(c->rules);
    memset(c, 0, sizeof *c);
}

struct go_record *go_corpus_read(const char *path)
{
    struct go_record **games = NULL;
    struct sgf_error err = {0};
    int n = sgf_read_file(path, &games, &err);
    if (n < 1) {
        free(games);
        return NULL;
    }
    for (int g = 1; g < n; g++) go_record_free(games[g]);
    struct go_record *r = games[0];
    free(games);
    return r;
}

const struct go_rules *go_corpus_rules(const char *ru)
{
    const struct go_rules *p = ru && ru[0] ? go_rules_find(ru) : NULL;
    return p ? p : go_rules_find("Japanese 1989");
}

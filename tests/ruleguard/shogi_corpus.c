/* tests/ruleguard/shogi_corpus.c — shogi games for the observation tests (shogi_corpus.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/shogi_record.h"
#include "tests/ruleguard/shogi_corpus.h"
#include "tests/testutil.h"

struct load_ctx {
    struct shogi_corpus *c;
    bool fixture;
};

static void add_record(struct load_ctx *x, const struct shogi_record *r, const char *path,
                       int index)
{
    struct shogi_corpus *c = x->c;
    if (!shogi_position_valid(&r->start, NULL, 0)) { /* a problem's diagram, not a game */
        c->invalid_start++;
        return;
    }
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 64;
        struct shogi_corpus_game *v = realloc(c->games, (size_t)cap * sizeof *v);
        if (!v) abort();
        c->games = v;
        c->cap = cap;
    }
    struct shogi_corpus_game *g = &c->games[c->n];
    memset(g, 0, sizeof *g);
    const char *base = strrchr(path, '/');
    snprintf(g->name, sizeof g->name, "%s#%d", base ? base + 1 : path, index + 1);
    g->start = r->start;
    g->fixture = x->fixture;
    g->moves = malloc((size_t)(r->nmoves ? r->nmoves : 1) * sizeof *g->moves);
    if (!g->moves) abort();
    struct shogi_position p = r->start;
    for (int i = 0; i < r->nmoves && r->moves[i].played; i++) {
        struct shogi_move m = r->moves[i].move;
        if (!shogi_move_is_playable(&p, m)) break;
        shogi_do_move(&p, m);
        g->moves[g->nmoves++] = m;
    }
    c->n++;
    if (x->fixture)
        c->fixtures++;
    else
        c->shared++;
}

static void add_file(const char *path, void *ctx)
{
    struct load_ctx *x = ctx;
    struct shogi_record **v = NULL;
    struct shogi_record_error err;
    int n = shogi_record_read_file(path, &v, &err);
    if (n < 0) {
        x->c->unreadable++;
        return;
    }
    for (int i = 0; i < n; i++) add_record(x, v[i], path, i);
    shogi_records_free(v, n);
}

void shogi_corpus_load(struct shogi_corpus *c, bool with_shared)
{
    memset(c, 0, sizeof *c);
    static const char *const exts[] = {".usi",  ".kif", ".kifu", ".ki2",
                                       ".ki2u", ".csa", ".jkf",  NULL};
    char dir[1024];
    struct load_ctx x = {c, true};
    snprintf(dir, sizeof dir, "%s", tu_path(tu_fixtures_dir(), "shogi-rules/lishogi-20.usi"));
    add_file(dir, &x);
    snprintf(dir, sizeof dir, "%s", tu_path(tu_fixtures_dir(), "shogi-records"));
    tu_walk(dir, exts, add_file, &x);
    const char *shared = tu_shared_data_dir();
    c->shared_available = shared != NULL;
    if (!shared || !with_shared) return;
    x.fixture = false;
    snprintf(dir, sizeof dir, "%s", tu_path(shared, "shogi-games/lishogi-400.usi"));
    add_file(dir, &x);
    snprintf(dir, sizeof dir, "%s", tu_path(shared, "shogi-records"));
    tu_walk(dir, exts, add_file, &x);
}

void shogi_corpus_free(struct shogi_corpus *c)
{
    for (int i = 0; i < c->n; i++) free(c->games[i].moves);
    free(c->games);
    memset(c, 0, sizeof *c);
}

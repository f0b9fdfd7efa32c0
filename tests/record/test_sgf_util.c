/* tests/record/test_sgf_util.c — helpers shared by the SGF tests. */
#include "tests/record/test_sgf_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sgf_test_count_moves(const struct go_record *r)
{
    int n = 0;
    for (int i = 0; i < r->nnodes; i++) n += r->nodes[i].has_move;
    return n;
}

static bool str_eq(const char *a, const char *b)
{
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        snprintf(why, why_size, __VA_ARGS__);                                                      \
        return false;                                                                              \
    } while (0)

bool sgf_test_records_equal(const struct go_record *a, const struct go_record *b, char *why,
                            size_t why_size)
{
    if (a->width != b->width || a->height != b->height)
        FAIL("size %dx%d vs %dx%d", a->width, a->height, b->width, b->height);
    const struct {
        const char *name, *x, *y;
    } s[] = {
        {"black", a->black, b->black},
        {"white", a->white, b->white},
        {"black_rank", a->black_rank, b->black_rank},
        {"white_rank", a->white_rank, b->white_rank},
        {"event", a->event, b->event},
        {"round", a->round, b->round},
        {"date", a->date, b->date},
        {"place", a->place, b->place},
        {"result", a->result, b->result},
        {"rules", a->rules, b->rules},
        {"time_control", a->time_control, b->time_control},
        {"overtime", a->overtime, b->overtime},
        {"game_comment", a->game_comment, b->game_comment},
        {"game_name", a->game_name, b->game_name},
        {"source", a->source, b->source},
    };
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        if (!str_eq(s[i].x, s[i].y))
            FAIL("%s \"%.60s\" vs \"%.60s\"", s[i].name, s[i].x ? s[i].x : "(null)",
                 s[i].y ? s[i].y : "(null)");
    if (a->komi != b->komi) FAIL("komi %g vs %g", a->komi, b->komi);
    if (a->handicap != b->handicap) FAIL("handicap %d vs %d", a->handicap, b->handicap);
    if (a->main_time != b->main_time) FAIL("main_time %g vs %g", a->main_time, b->main_time);
    if (a->nnodes != b->nnodes) FAIL("%d nodes vs %d", a->nnodes, b->nnodes);
    for (int i = 0; i < a->nnodes; i++) {
        const struct go_record_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->has_move != y->has_move) FAIL("node %d: has_move differs", i);
        if (x->has_move && (x->move.color != y->move.color || x->move.point != y->move.point))
            FAIL("node %d: move %d/%d vs %d/%d", i, x->move.color, x->move.point, y->move.color,
                 y->move.point);
        if (x->nsetup != y->nsetup) FAIL("node %d: %d setup vs %d", i, x->nsetup, y->nsetup);
        for (int k = 0; k < x->nsetup; k++)
            if (x->setup[k].color != y->setup[k].color || x->setup[k].point != y->setup[k].point)
                FAIL("node %d: setup %d differs", i, k);
        if (x->time_left != y->time_left) FAIL("node %d: time_left differs", i);
        if (x->periods_left != y->periods_left) FAIL("node %d: periods_left differs", i);
        if (x->move_number != y->move_number) FAIL("node %d: move_number differs", i);
        if (x->player != y->player) FAIL("node %d: player differs", i);
        if (!str_eq(x->comment, y->comment)) FAIL("node %d: comment differs", i);
    }
    return true;
}

struct go_record *sgf_test_read(const char *text, struct sgf_error *err)
{
    struct sgf_error local;
    if (!err) err = &local;
    struct sgf_collection *c = sgf_parse(text, strlen(text), err);
    if (!c) return NULL;
    struct go_record *r = c->ngames > 0 ? sgf_to_go_record(c->games[0], err) : NULL;
    sgf_collection_free(c);
    return r;
}

bool sgf_test_roundtrip(const struct go_record *r, char *why, size_t why_size)
{
    char *text = sgf_write_go_record(r);
    if (!text) FAIL("write failed");
    struct sgf_error err;
    struct go_record *back = sgf_test_read(text, &err);
    if (!back) {
        snprintf(why, why_size, "written text does not read back: %s", err.message);
        free(text);
        return false;
    }
    bool ok = sgf_test_records_equal(r, back, why, why_size);
    if (ok && strcmp(back->charset, "UTF-8") != 0) {
        snprintf(why, why_size, "written text read back as %s", back->charset);
        ok = false;
    }
    go_record_free(back);
    free(text);
    return ok;
}

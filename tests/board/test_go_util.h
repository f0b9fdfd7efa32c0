/* tests/board/test_go_util.h — a tiny SGF reader for the Go core tests: SZ, AB/AW/AE, PL and
 * B/W moves of the main line (the first variation everywhere), nothing else (the real reader lives
 * in record/). Header-only. */
#ifndef KIFUCAM_TESTS_TEST_GO_UTIL_H
#define KIFUCAM_TESTS_TEST_GO_UTIL_H

#include "board/go.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum mini_kind { MINI_MOVE, MINI_SETUP, MINI_PLAYER, MINI_HANDICAP };

struct mini_ev {
    enum mini_kind kind;
    enum go_color color; /* GO_EMPTY for AE */
    int point;           /* GO_PASS for a pass; the stone count for HA */
};

struct mini_sgf {
    int w, h, n, moves;
    struct mini_ev ev[2048];
};

/* "dd" -> point, "" or "tt" (boards up to 19) -> GO_PASS, else GO_NOPOINT. */
static inline int mini_point(const char *v, size_t len, int w, int h)
{
    if (len == 0) return GO_PASS;
    if (len != 2) return GO_NOPOINT;
    int x = v[0] - 'a', y = v[1] - 'a';
    if (x == 19 && y == 19 && w <= 19 && h <= 19) return GO_PASS;
    if (x < 0 || y < 0 || x >= w || y >= h) return GO_NOPOINT;
    return go_point(x, y);
}

/* Parse the text; false on anything this reader does not understand. */
static inline bool mini_sgf_parse(const char *s, struct mini_sgf *out)
{
    memset(out, 0, sizeof *out);
    out->w = out->h = 19;
    char id[8] = "";
    while (*s) {
        if (*s >= 'A' && *s <= 'Z') {
            size_t k = 0;
            while (*s >= 'A' && *s <= 'Z') {
                if (k + 1 < sizeof id) id[k++] = *s;
                s++;
            }
            id[k] = '\0';
            continue;
        }
        if (*s == ')') break; /* the first ')' ends the main line: later branches are variations */
        if (*s != '[') {
            if (*s == ';' || *s == '(') id[0] = '\0';
            s++;
            continue;
        }
        const char *v = ++s;
        while (*s && *s != ']') s += (*s == '\\' && s[1]) ? 2 : 1;
        if (!*s) return false;
        size_t len = (size_t)(s - v);
        s++;
        if (strcmp(id, "SZ") == 0) {
            char *end;
            out->w = out->h = (int)strtol(v, &end, 10);
            if (*end == ':') out->h = (int)strtol(end + 1, NULL, 10);
            continue;
        }
        if (out->n >= (int)(sizeof out->ev / sizeof out->ev[0])) return false;
        struct mini_ev *e = &out->ev[out->n];
        if (strcmp(id, "B") == 0 || strcmp(id, "W") == 0) {
            e->kind = MINI_MOVE;
            e->color = id[0] == 'B' ? GO_BLACK : GO_WHITE;
            e->point = mini_point(v, len, out->w, out->h);
            if (e->point == GO_NOPOINT) return false;
            out->n++;
            out->moves++;
        } else if (strcmp(id, "AB") == 0 || strcmp(id, "AW") == 0 || strcmp(id, "AE") == 0) {
            e->kind = MINI_SETUP;
            e->color = id[1] == 'B' ? GO_BLACK : id[1] == 'W' ? GO_WHITE : GO_EMPTY;
            e->point = mini_point(v, len, out->w, out->h);
            if (e->point == GO_NOPOINT || e->point == GO_PASS) return false;
            out->n++;
        } else if (strcmp(id, "HA") == 0) {
            e->kind = MINI_HANDICAP;
            e->point = atoi(v);
            out->n++;
        } else if (strcmp(id, "PL") == 0) {
            e->kind = MINI_PLAYER;
            e->color = (len > 0 && (v[0] == 'B' || v[0] == 'b')) ? GO_BLACK : GO_WHITE;
            out->n++;
        }
    }
    return true;
}

/* Replay setup and the first `upto` moves (all when upto < 0) into a new game; verdicts[i]
 * (may be NULL) receives the verdict of move i (0-based), i.e. of ply i + 1. */
static inline struct go_game *mini_replay(const struct mini_sgf *s, const struct go_rules *r,
                                          int upto, struct go_verdict *verdicts)
{
    struct go_game *g = go_game_new(s->w, s->h, r);
    if (!g) return NULL;
    int moves = 0;
    for (int i = 0; i < s->n; i++) {
        const struct mini_ev *e = &s->ev[i];
        if (e->kind == MINI_SETUP) {
            go_game_setup(g, e->color, e->point);
        } else if (e->kind == MINI_PLAYER) {
            go_game_set_to_move(g, e->color);
        } else if (e->kind == MINI_HANDICAP) {
            go_game_set_handicap(g, e->point);
        } else {
            if (upto >= 0 && moves >= upto) break;
            struct go_move m = {e->color, e->point};
            struct go_verdict v = go_game_play(g, m);
            if (verdicts) verdicts[moves] = v;
            moves++;
        }
    }
    return g;
}

static inline int mini_pt(const char *sgf_point)
{
    return go_point(sgf_point[0] - 'a', sgf_point[1] - 'a');
}

#endif

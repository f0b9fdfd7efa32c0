/* tests/board/test_go_score_sgf.h — a minimal SGF main-line reader for the scoring tests:
 * SZ, KM, HA, RE, RU, AB/AW/AE and B/W moves (passes as [] or [tt]). Header-only. The real
 * reader is record/sgf.h; this one only has to read the corpora the tests use. */
#ifndef KIFUCAM_TESTS_TEST_GO_SCORE_SGF_H
#define KIFUCAM_TESTS_TEST_GO_SCORE_SGF_H

#include "board/go.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ts_event {
    bool setup;          /* AB/AW/AE, else a move */
    enum go_color color; /* GO_EMPTY for AE */
    int point;           /* GO_PASS for a pass */
};

struct ts_game {
    int size;
    double komi;
    int handicap;
    char result[32], rules[32];
    int n;
    struct ts_event ev[1200];
    bool two_passes_at_end; /* the last two events are passes */
};

static inline int ts_point(const char *v, size_t len, int size)
{
    if (len == 0) return GO_PASS;
    if (len != 2) return GO_NOPOINT;
    int x = v[0] - 'a', y = v[1] - 'a';
    if (x == 19 && y == 19 && size <= 19) return GO_PASS;
    if (x < 0 || y < 0 || x >= size || y >= size) return GO_NOPOINT;
    return go_point(x, y);
}

static inline void ts_copy(char *dst, size_t cap, const char *v, size_t len)
{
    if (len >= cap) len = cap - 1;
    memcpy(dst, v, len);
    dst[len] = '\0';
}

/* Parse the main line of the first game; false with a message in err on what it cannot read. */
static inline bool ts_parse(const char *s, struct ts_game *g, char *err, size_t errlen)
{
    char id[8] = "";
    int depth = 0, line = 1;
    bool in_main = true; /* false while skipping a variation that is not the first child */
    int skip_depth = 0;
    bool seen_child[64] = {false};
    memset(g, 0, sizeof *g);
    g->size = 19;
    for (; *s; s++) {
        if (*s == '\n') line++;
        if (!in_main) {
            if (*s == '[') { /* values may hold parentheses */
                for (s++; *s && *s != ']'; s++) {
                    if (*s == '\\' && s[1]) s++;
                    if (*s == '\n') line++;
                }
                if (!*s) break;
            } else if (*s == '(') {
                skip_depth++;
            } else if (*s == ')') {
                if (--skip_depth == 0) in_main = true;
            }
            continue;
        }
        if (*s == '(') {
            if (depth >= 63) {
                snprintf(err, errlen, "line %d: variations nested too deep", line);
                return false;
            }
            if (seen_child[depth]) { /* a later variation: skip it */
                in_main = false;
                skip_depth = 1;
                continue;
            }
            seen_child[depth] = true;
            depth++;
            seen_child[depth] = false;
        } else if (*s == ')') {
            if (depth == 1) break; /* end of the first game */
            depth--;
        } else if (*s >= 'A' && *s <= 'Z') {
            size_t k = 0;
            while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')) {
                if (*s >= 'A' && *s <= 'Z' && k + 1 < sizeof id) id[k++] = *s;
                s++;
            }
            id[k] = '\0';
            s--;
        } else if (*s == '[') {
            const char *v = ++s;
            while (*s && *s != ']') {
                if (*s == '\\' && s[1]) s++;
                if (*s == '\n') line++;
                s++;
            }
            if (!*s) {
                snprintf(err, errlen, "line %d: unterminated value of %s", line, id);
                return false;
            }
            size_t len = (size_t)(s - v);
            if (!strcmp(id, "SZ")) {
                g->size = atoi(v);
                if (g->size < GO_MIN || g->size > GO_MAX) {
                    snprintf(err, errlen, "line %d: board size %d not supported", line, g->size);
                    return false;
                }
            } else if (!strcmp(id, "KM")) {
                g->komi = atof(v);
            } else if (!strcmp(id, "HA")) {
                g->handicap = atoi(v);
            } else if (!strcmp(id, "RE")) {
                ts_copy(g->result, sizeof g->result, v, len);
            } else if (!strcmp(id, "RU")) {
                ts_copy(g->rules, sizeof g->rules, v, len);
            } else if (!strcmp(id, "AB") || !strcmp(id, "AW") || !strcmp(id, "AE") ||
                       !strcmp(id, "B") || !strcmp(id, "W")) {
                bool setup = id[0] == 'A';
                enum go_color c = id[setup] == 'B'   ? GO_BLACK
                                  : id[setup] == 'W' ? GO_WHITE
                                                     : GO_EMPTY;
                int pt = ts_point(v, len, g->size);
                if (pt == GO_NOPOINT || (setup && pt == GO_PASS)) {
                    snprintf(err, errlen, "line %d: bad point %s[%.*s]", line, id, (int)len, v);
                    return false;
                }
                if (g->n >= (int)(sizeof g->ev / sizeof g->ev[0])) {
                    snprintf(err, errlen, "line %d: too many events", line);
                    return false;
                }
                g->ev[g->n++] = (struct ts_event){setup, c, pt};
            }
        }
    }
    g->two_passes_at_end = g->n >= 2 && !g->ev[g->n - 1].setup && !g->ev[g->n - 2].setup &&
                           g->ev[g->n - 1].point == GO_PASS && g->ev[g->n - 2].point == GO_PASS;
    return true;
}

/* Replay under rules (komi already set in them). Returns NULL if a move cannot be executed. */
static inline struct go_game *ts_replay(const struct ts_game *t, const struct go_rules *rules)
{
    struct go_game *g = go_game_new(t->size, t->size, rules);
    int setup_black = 0;
    bool moved = false;
    if (!g) return NULL;
    for (int i = 0; i < t->n; i++) {
        const struct ts_event *e = &t->ev[i];
        if (e->setup) {
            go_game_setup(g, e->color, e->point);
            if (!moved && e->color == GO_BLACK) setup_black++;
        } else {
            if (!moved && t->handicap >= 2 && setup_black > 0) {
                go_game_set_handicap(g, t->handicap);
                go_game_set_to_move(g, GO_WHITE);
            }
            moved = true;
            go_game_play(g, (struct go_move){e->color, e->point});
        }
    }
    return g;
}

#endif

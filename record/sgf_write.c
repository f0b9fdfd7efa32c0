/* record/sgf_write.c — a Go record to FF[4] SGF text (UTF-8), laid out one node per line with
 * the game information one property per line, the way Sabaki, CGoban and KaTrain read it. */
#include "record/sgf_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct out {
    char *buf;
    size_t len, cap;
    bool oom;
};

static void put_n(struct out *o, const char *s, size_t n)
{
    if (o->oom) return;
    if (o->len + n + 1 > o->cap) {
        size_t ncap = o->cap ? o->cap : 4096;
        while (o->len + n + 1 > ncap) ncap *= 2;
        char *nb = realloc(o->buf, ncap);
        if (!nb) {
            o->oom = true;
            return;
        }
        o->buf = nb;
        o->cap = ncap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

static void put(struct out *o, const char *s)
{
    put_n(o, s, strlen(s));
}

/* A value with ']' and '\' escaped; everything else (newlines included) kept as is. */
static void put_value(struct out *o, const char *s)
{
    put(o, "[");
    for (const char *run = s;; s++) {
        if (*s == ']' || *s == '\\' || !*s) {
            put_n(o, run, (size_t)(s - run));
            if (!*s) break;
            put_n(o, "\\", 1);
            run = s; /* the escaped character starts the next run */
        }
    }
    put(o, "]");
}

static void put_prop(struct out *o, const char *id, const char *value)
{
    put(o, id);
    put_value(o, value);
}

static void put_point(struct out *o, int point)
{
    char v[3] = {0};
    if (point != GO_PASS) {
        v[0] = (char)('a' + go_x(point));
        v[1] = (char)('a' + go_y(point));
    }
    put_value(o, v);
}

static void put_number(struct out *o, const char *id, double v)
{
    char buf[40];
    sgf_format_double(buf, sizeof buf, v);
    put_prop(o, id, buf);
}

static void put_int(struct out *o, const char *id, int v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%d", v);
    put_prop(o, id, buf);
}

static bool on_board(const struct go_record *r, int point)
{
    return point >= 0 && point < GO_POINTS && go_x(point) < r->width && go_y(point) < r->height;
}

/* Setup stones grouped by colour, the colours in the order they first appear (which is what the
 * reader gives back). */
static void put_setup(struct out *o, const struct go_record *r, const struct go_record_node *n)
{
    static const char *const ids[] = {"AE", "AB", "AW"};
    enum go_color order[3];
    int norder = 0;
    for (int i = 0; i < n->nsetup; i++) {
        enum go_color c = n->setup[i].color;
        if ((c != GO_EMPTY && c != GO_BLACK && c != GO_WHITE) || !on_board(r, n->setup[i].point))
            continue; /* nothing to write for it, and no empty "AW" either */
        bool seen = false;
        for (int k = 0; k < norder; k++) seen |= order[k] == c;
        if (!seen) order[norder++] = c;
    }
    for (int k = 0; k < norder; k++) {
        put(o, ids[order[k]]);
        for (int i = 0; i < n->nsetup; i++)
            if (n->setup[i].color == order[k] && on_board(r, n->setup[i].point))
                put_point(o, n->setup[i].point);
    }
}

static void put_move(struct out *o, const struct go_record *r, const struct go_record_node *n)
{
    bool black = n->move.color == GO_BLACK;
    put(o, ";");
    put(o, black ? "B" : "W");
    put_point(o, on_board(r, n->move.point) ? n->move.point : GO_PASS);
    if (n->time_left >= 0) put_number(o, black ? "BL" : "WL", n->time_left);
    if (n->periods_left >= 0) put_int(o, black ? "OB" : "OW", n->periods_left);
    if (n->move_number > 0) put_int(o, "MN", n->move_number);
}

char *sgf_write_go_record(const struct go_record *r)
{
    struct out o = {0};
    char buf[64];
    put(&o, "(;GM[1]FF[4]CA[UTF-8]AP[kifucam:0.1]");
    if (r->width == r->height)
        snprintf(buf, sizeof buf, "SZ[%d]\n", r->width);
    else
        snprintf(buf, sizeof buf, "SZ[%d:%d]\n", r->width, r->height);
    put(&o, buf);

    const struct {
        const char *id;
        const char *value;
    } info[] = {
        {"GN", r->game_name},  {"EV", r->event},        {"RO", r->round},      {"DT", r->date},
        {"PC", r->place},      {"PB", r->black},        {"BR", r->black_rank}, {"PW", r->white},
        {"WR", r->white_rank}, {"RU", r->rules},        {"OT", r->overtime},   {"RE", r->result},
        {"SO", r->source},     {"GC", r->game_comment},
    };
    put_number(&o, "KM", r->komi);
    put(&o, "\n");
    if (r->handicap > 0) {
        put_int(&o, "HA", r->handicap);
        put(&o, "\n");
    }
    if (r->time_control) {
        put_prop(&o, "TM", r->time_control);
        put(&o, "\n");
    } else if (r->main_time >= 0) {
        put_number(&o, "TM", r->main_time);
        put(&o, "\n");
    }
    for (size_t i = 0; i < sizeof info / sizeof info[0]; i++) {
        if (!info[i].value) continue;
        put_prop(&o, info[i].id, info[i].value);
        put(&o, "\n");
    }

    for (int i = 0; i < r->nnodes; i++) {
        const struct go_record_node *n = &r->nodes[i];
        bool setup_part = i == 0 || n->nsetup > 0 || n->player != GO_EMPTY || !n->has_move;
        if (setup_part) { /* setup and move properties never share a node (FF[4]) */
            size_t start = o.len;
            if (i > 0) put(&o, ";");
            put_setup(&o, r, n);
            if (n->player != GO_EMPTY) put_prop(&o, "PL", n->player == GO_BLACK ? "B" : "W");
            if (n->comment) put_prop(&o, "C", n->comment);
            if (o.len > start) put(&o, "\n"); /* the root may have nothing of its own */
        }
        if (n->has_move) {
            put_move(&o, r, n);
            if (!setup_part && n->comment) put_prop(&o, "C", n->comment);
            put(&o, "\n");
        }
    }
    put(&o, ")\n");
    if (o.oom) {
        free(o.buf);
        return NULL;
    }
    return o.buf;
}

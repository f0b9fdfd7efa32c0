/* record/live_json.c — the JSON the live page reads, and parsing of the referee's form posts. */
#include "record/live.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/go.h"
#include "board/shogi.h"

struct jbuf {
    char *s;
    size_t n, cap;
    bool oom;
};

static void jb_put(struct jbuf *b, const char *p, size_t len)
{
    if (b->oom) return;
    if (b->n + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + len + 1) cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->n, p, len);
    b->n += len;
    b->s[b->n] = '\0';
}

static void jb_puts(struct jbuf *b, const char *s)
{
    jb_put(b, s, strlen(s));
}

__attribute__((format(printf, 2, 3))) static void jb_printf(struct jbuf *b, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) jb_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* A JSON string; NULL gives null. Control characters are escaped, so the result is one line (the
 * SSE data field must not hold a newline). Bytes >= 0x80 pass through (UTF-8 text). */
static void jb_str(struct jbuf *b, const char *s)
{
    if (!s) {
        jb_puts(b, "null");
        return;
    }
    jb_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char e[2] = {'\\', (char)*p};
            jb_put(b, e, 2);
        } else if (*p < 0x20 || *p == 0x7f) {
            jb_printf(b, "\\u%04x", *p);
        } else if (*p == '<') {
            jb_puts(b, "\\u003c"); /* safe even if someone pastes it into a <script> */
        } else {
            jb_put(b, (const char *)p, 1);
        }
    }
    jb_put(b, "\"", 1);
}

static void jb_key(struct jbuf *b, const char *k)
{
    if (b->n > 0 && b->s[b->n - 1] != '{') jb_put(b, ",", 1);
    jb_str(b, k);
    jb_put(b, ":", 1);
}

static char *jb_done(struct jbuf *b)
{
    if (b->oom) {
        free(b->s);
        return NULL;
    }
    return b->s;
}

static void player_json(struct jbuf *b, const char *key, const struct live_player *p, bool go)
{
    jb_key(b, key);
    jb_puts(b, "{");
    jb_key(b, "name");
    jb_str(b, p->name);
    jb_key(b, "clock_ms");
    if (p->clock_ms >= 0)
        jb_printf(b, "%" PRId64, p->clock_ms);
    else
        jb_puts(b, "null");
    if (go) {
        jb_key(b, "prisoners");
        jb_printf(b, "%d", p->prisoners);
    }
    jb_puts(b, "}");
}

char *live_state_json(const struct live_state *st)
{
    struct jbuf b = {0};
    bool go = st->game && strcmp(st->game, "go") == 0;
    jb_puts(&b, "{");
    jb_key(&b, "game");
    jb_str(&b, st->game);
    jb_key(&b, "event");
    jb_str(&b, st->event);
    jb_key(&b, "board_name");
    jb_str(&b, st->board_name);
    jb_key(&b, "width");
    jb_printf(&b, "%d", st->width);
    jb_key(&b, "height");
    jb_printf(&b, "%d", st->height);
    jb_key(&b, go ? "board" : "sfen");
    jb_str(&b, st->board);
    jb_key(&b, "ply");
    jb_printf(&b, "%d", st->ply);
    jb_key(&b, "last");
    if (st->last_x >= 0 && st->last_y >= 0)
        jb_printf(&b, "[%d,%d]", st->last_x, st->last_y);
    else
        jb_puts(&b, "null");
    player_json(&b, "black", &st->black, go);
    player_json(&b, "white", &st->white, go);
    jb_key(&b, "moves");
    jb_puts(&b, "[");
    for (int i = 0; i < st->n_moves; i++) {
        if (i) jb_puts(&b, ",");
        jb_str(&b, st->moves[i]);
    }
    jb_puts(&b, "]");
    jb_key(&b, "to_move");
    jb_str(&b, st->to_move);
    jb_key(&b, "result");
    jb_str(&b, st->result);
    jb_key(&b, "status");
    jb_str(&b, st->status);
    jb_puts(&b, "}");
    return jb_done(&b);
}

char *live_event_json(const struct guard_event *ev, uint64_t seq, const char *game,
                      int board_height)
{
    struct jbuf b = {0};
    jb_puts(&b, "{");
    jb_key(&b, "seq");
    jb_printf(&b, "%" PRIu64, seq);
    jb_key(&b, "kind");
    jb_str(&b, guard_kind_name(ev->kind));
    jb_key(&b, "flag");
    jb_puts(&b, guard_is_flag(ev->kind) ? "true" : "false");
    jb_key(&b, "ply");
    jb_printf(&b, "%d", ev->ply);
    jb_key(&b, "t_ms");
    jb_printf(&b, "%" PRId64, ev->t_ns / 1000000);
    jb_key(&b, "frame");
    jb_printf(&b, "%" PRIu64, ev->frame_seq);
    if (game && strcmp(game, "shogi") == 0) {
        if (ev->shogi.to < 81 && (ev->shogi.from < 81 || ev->shogi.from == SHOGI_HAND)) {
            char usi[6];
            jb_key(&b, "move");
            jb_str(&b, shogi_move_to_usi(ev->shogi, usi));
            jb_key(&b, "x");
            jb_printf(&b, "%d", ev->shogi.to % 9);
            jb_key(&b, "y");
            jb_printf(&b, "%d", ev->shogi.to / 9);
        }
    } else if (ev->move.color != GO_EMPTY) {
        char name[8];
        jb_key(&b, "color");
        jb_str(&b, ev->move.color == GO_BLACK ? "black" : "white");
        if (ev->move.point == GO_PASS || (ev->move.point >= 0 && ev->move.point < GO_POINTS)) {
            jb_key(&b, "move");
            jb_str(&b, go_point_name(ev->move.point, board_height, name));
        }
        if (ev->move.point >= 0 && ev->move.point < GO_POINTS) {
            jb_key(&b, "x");
            jb_printf(&b, "%d", go_x(ev->move.point));
            jb_key(&b, "y");
            jb_printf(&b, "%d", go_y(ev->move.point));
        }
    }
    jb_key(&b, "rule");
    jb_str(&b, ev->rule_ref);
    char text[sizeof ev->text + 1];
    memcpy(text, ev->text, sizeof ev->text);
    text[sizeof ev->text] = '\0';
    jb_key(&b, "text");
    jb_str(&b, text);
    if (ev->doubt[0]) { /* a move accepted under doubt: the referee's view marks it */
        char doubt[sizeof ev->doubt + 1];
        memcpy(doubt, ev->doubt, sizeof ev->doubt);
        doubt[sizeof ev->doubt] = '\0';
        jb_key(&b, "doubt");
        jb_str(&b, doubt);
    }
    jb_puts(&b, "}");
    return jb_done(&b);
}

char *live_action_json(const struct referee_action *a, uint64_t seq)
{
    struct jbuf b = {0};
    jb_puts(&b, "{");
    jb_key(&b, "seq");
    jb_printf(&b, "%" PRIu64, seq);
    jb_key(&b, "action");
    jb_str(&b, referee_action_name(a->kind));
    jb_key(&b, "ply");
    jb_printf(&b, "%d", a->ply);
    jb_key(&b, "t_ms");
    jb_printf(&b, "%" PRId64, a->t_ns / 1000000);
    jb_key(&b, "text");
    jb_str(&b, a->text);
    jb_puts(&b, "}");
    return jb_done(&b);
}

/* ---- forms ---------------------------------------------------------------------------------- */

static int hexdigit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decode one urlencoded component [p, p+len) into out; -2 when malformed or too long. */
static int form_decode(const char *p, size_t len, char *out, size_t outlen)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        int c = (unsigned char)p[i];
        if (c == '+') {
            c = ' ';
        } else if (c == '%') {
            if (i + 2 >= len) return -2;
            int hi = hexdigit(p[i + 1]), lo = hexdigit(p[i + 2]);
            if (hi < 0 || lo < 0) return -2;
            c = hi << 4 | lo;
            i += 2;
        }
        if (c == 0 || n + 1 >= outlen) return -2;
        out[n++] = (char)c;
    }
    if (outlen == 0) return -2;
    out[n] = '\0';
    return (int)n;
}

int live_form_value(const char *form, size_t len, const char *key, char *out, size_t outlen)
{
    size_t klen = strlen(key);
    size_t i = 0;
    while (i < len) {
        const char *amp = memchr(form + i, '&', len - i);
        size_t end = amp ? (size_t)(amp - form) : len;
        const char *pair = form + i;
        size_t plen = end - i;
        const char *eq = memchr(pair, '=', plen);
        size_t nlen = eq ? (size_t)(eq - pair) : plen;
        char name[64];
        if (nlen < sizeof name && form_decode(pair, nlen, name, sizeof name) == (int)klen &&
            memcmp(name, key, klen) == 0) {
            if (!eq) return outlen ? (out[0] = '\0', 0) : -2;
            return form_decode(eq + 1, plen - nlen - 1, out, outlen);
        }
        i = end + 1;
    }
    return -1;
}

bool live_parse_action(const char *form, size_t len, int64_t t_ns, struct referee_action *a,
                       char *msg, size_t msglen)
{
    memset(a, 0, sizeof *a);
    a->t_ns = t_ns;
    char name[32], ply[16];
    if (live_form_value(form, len, "action", name, sizeof name) < 0 ||
        !referee_action_parse_name(name, &a->kind)) {
        snprintf(msg, msglen, "unknown or missing action (accept, pass, takeback, note, result)");
        return false;
    }
    int r = live_form_value(form, len, "ply", ply, sizeof ply);
    if (r == -2) {
        snprintf(msg, msglen, "bad ply");
        return false;
    }
    if (r >= 0 && ply[0]) {
        char *end;
        long v = strtol(ply, &end, 10);
        if (*end || v < 0 || v > 100000) {
            snprintf(msg, msglen, "bad ply");
            return false;
        }
        a->ply = (int)v;
    }
    r = live_form_value(form, len, "text", a->text, sizeof a->text);
    if (r == -2) {
        snprintf(msg, msglen, "text too long or malformed");
        return false;
    }
    if (r < 0) a->text[0] = '\0';
    if ((a->kind == REFEREE_ADD_NOTE || a->kind == REFEREE_SET_RESULT) && !a->text[0]) {
        snprintf(msg, msglen, "%s needs a text", referee_action_name(a->kind));
        return false;
    }
    return true;
}

bool live_token_equal(const char *want, const char *got)
{
    if (!want || !want[0] || !got) return false;
    size_t wl = strlen(want), gl = strlen(got);
    unsigned char diff = wl != gl;
    for (size_t i = 0; i < gl; i++) diff |= (unsigned char)(got[i] ^ want[i % wl]);
    return diff == 0;
}

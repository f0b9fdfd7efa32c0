/* board/go_text.c — words for people: point names and the sentence of each verdict. */
#include "board/go_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* 25 letters for up to 25 columns: I is skipped, as on real boards and in GTP. */
static const char columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

const char *go_point_name(int point, int height, char buf[8])
{
    if (point == GO_PASS) {
        strcpy(buf, "pass");
        return buf;
    }
    int x = go_x(point), y = go_y(point);
    if (point < 0 || point >= GO_POINTS || height < 1 || height > GO_MAX || y >= height) {
        strcpy(buf, "?");
        return buf;
    }
    snprintf(buf, 8, "%c%u", columns[x], (unsigned)(height - y) % 100u); /* 1..25 */
    return buf;
}

const char *go_verdict_name(enum go_verdict_kind k)
{
    switch (k) {
    case GO_LEGAL: return "legal";
    case GO_ILLEGAL_OFF_BOARD: return "off-board";
    case GO_ILLEGAL_OCCUPIED: return "occupied";
    case GO_ILLEGAL_SUICIDE: return "suicide";
    case GO_ILLEGAL_KO: return "ko";
    case GO_ILLEGAL_SUPERKO: return "superko";
    case GO_WRONG_TURN: return "wrong-turn";
    case GO_AFTER_END: return "after-end";
    case GO_REPETITION_NO_RESULT: return "no-result";
    case GO_REPETITION_REFEREE: return "repetition";
    }
    return "unknown";
}

static const char *color_name(enum go_color c)
{
    return c == GO_BLACK ? "Black" : c == GO_WHITE ? "White" : "Nobody";
}

static void append(struct go_verdict *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void append(struct go_verdict *v, const char *fmt, ...)
{
    size_t n = strlen(v->text);
    if (n + 1 >= sizeof v->text) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->text + n, sizeof v->text - n, fmt, ap);
    va_end(ap);
}

static const char *end_reason(enum go_game_state s)
{
    switch (s) {
    case GO_ENDED_PASSES: return "ended by passes";
    case GO_ENDED_RESIGN: return "ended by resignation";
    case GO_ENDED_TIME: return "ended on time";
    case GO_ENDED_NO_RESULT: return "ended without result";
    case GO_PLAYING: break;
    }
    return "ended";
}

void go_verdict_describe(struct go_verdict *v, struct go_move m, const struct go_verdict_facts *f)
{
    char at[8];
    const char *who = color_name(m.color), *next = color_name(go_other(m.color));
    bool pass = m.point == GO_PASS;
    go_point_name(m.point, f->height, at);
    v->text[0] = '\0';

    switch (v->kind) {
    case GO_LEGAL:
        if (pass) {
            append(v, "%s passes", who);
        } else {
            append(v, "%s plays %s", who, at);
            if (v->captured > 0)
                append(v, ", capturing %d stone%s", v->captured, v->captured == 1 ? "" : "s");
            if (v->captured < 0)
                append(v, ", removing %d own stone%s (suicide)", -v->captured,
                       v->captured == -1 ? "" : "s");
        }
        break;
    case GO_ILLEGAL_OFF_BOARD:
        if (m.color != GO_BLACK && m.color != GO_WHITE)
            append(v, "A move without a colour (point %d)", m.point);
        else
            append(v, "%s plays off the board (point %d)", who, m.point);
        break;
    case GO_ILLEGAL_OCCUPIED: append(v, "%s plays at %s, which is occupied", who, at); break;
    case GO_ILLEGAL_SUICIDE:
        if (f->suicide == 1)
            append(v, "%s's stone at %s would have no liberties (single-stone suicide)", who, at);
        else
            append(v,
                   "%s's stone at %s would leave its chain of %d stones without liberties "
                   "(multi-stone suicide)",
                   who, at, f->suicide);
        break;
    case GO_ILLEGAL_KO: append(v, "%s retakes the ko at %s at once", who, at); break;
    case GO_ILLEGAL_SUPERKO:
        if (f->ko == GO_KO_SITUATIONAL)
            append(v,
                   "%s at %s recreates the position after ply %d with %s to move again "
                   "(situational superko)",
                   who, at, v->repeats_ply, next);
        else
            append(v,
                   "%s at %s recreates the whole-board position after ply %d (positional "
                   "superko)",
                   who, at, v->repeats_ply);
        break;
    case GO_WRONG_TURN:
        if (pass)
            append(v, "%s passes, but it is %s's turn (two %s moves in a row)", who, next, who);
        else
            append(v, "%s plays %s, but it is %s's turn (two %s moves in a row)", who, at, next,
                   who);
        break;
    case GO_AFTER_END:
        if (pass)
            append(v, "%s passes after the game %s", who, end_reason(f->state));
        else
            append(v, "%s plays %s after the game %s%s", who, at, end_reason(f->state),
                   f->state == GO_ENDED_PASSES ? "; play resumes" : "");
        break;
    case GO_REPETITION_NO_RESULT:
        append(v,
               "%s at %s brings back the position of ply %d with %s to move, the %d%s time since "
               "the last pass: no result",
               who, at, v->repeats_ply, next, f->occurrences, f->occurrences == 3 ? "rd" : "th");
        break;
    case GO_REPETITION_REFEREE:
        append(v, "%s at %s recreates the whole-board position after ply %d: the referee rules",
               who, at, v->repeats_ply);
        break;
    }
    if (f->also != GO_LEGAL) append(v, "; also %s", go_verdict_name(f->also));
}

/* record/shogi_kif.c — reading KIF (Kakinoki format): Shift-JIS .kif and UTF-8 .kifu.
 *
 * Line kinds: '#' remarks, "key：value" headers, BOD diagrams, the column header 手数----指手--,
 * move lines "  12 同　歩(23)   ( 0:01/00:00:10)+", terminal lines "  62 詰み", comments "*…",
 * bookmarks "&…", summaries "まで61手で詰み", and 変化：N手 branches (read past: the main line
 * is the record). */
#include "record/shogi_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number of at most 6 digits after optional blanks; -1 if none or longer. */
static long time_number(const char **p)
{
    const char *q = *p;
    while (*q == ' ') q++;
    long v = 0;
    int n = 0;
    while (*q >= '0' && *q <= '9') {
        if (++n > 6) return -1;
        v = v * 10 + (*q++ - '0');
    }
    if (n == 0) return -1;
    while (*q == ' ') q++;
    *p = q;
    return v;
}

static bool time_sep(const char **p, char c)
{
    if (**p != c) return false;
    (*p)++;
    return true;
}

/* "( 0:03/00:00:03)", "(00:31 / 00:00:31)", "( 0:00/0:00:00)": per-move m:ss, total h:mm:ss.
 * Out-of-range numbers (more than six digits) make the time absent, never overflow. */
static bool parse_times(const char *p, int64_t *now_ms, int64_t *total_ms)
{
    p = shogi_skip_space(p);
    if (!time_sep(&p, '(')) return false;
    long m = time_number(&p);
    if (m < 0 || !time_sep(&p, ':')) return false;
    long s = time_number(&p);
    if (s < 0) return false;
    *now_ms = ((int64_t)m * 60 + s) * 1000;
    if (!time_sep(&p, '/')) return true;
    long h2 = time_number(&p), m2 = -1, s2 = -1;
    if (h2 >= 0 && time_sep(&p, ':')) m2 = time_number(&p);
    if (m2 >= 0 && time_sep(&p, ':')) s2 = time_number(&p);
    if (s2 >= 0) *total_ms = (((int64_t)h2 * 60 + m2) * 60 + s2) * 1000;
    return true;
}

/* The written move of a KIF line, before it meets the board. */
struct kif_move {
    int to; /* square, or -1 for 同 */
    enum shogi_type type;
    bool promote;
    bool drop;
    int from; /* square, -1 when not written */
};

/* Parse "７六歩(77)", "同　歩(23)", "同歩(54)", "５六歩打", "１一香成(15)", "２二角不成(88)".
 * Returns the rest of the line after the move, or NULL. */
static const char *parse_kif_move(const char *p, struct kif_move *mv)
{
    memset(mv, 0, sizeof *mv);
    mv->from = -1;
    if (shogi_starts_with(p, "同")) {
        p += strlen("同");
        p = shogi_skip_space(p);
        mv->to = -1;
    } else {
        int f = shogi_kanji_digit(&p);
        int r = shogi_kanji_digit(&p);
        if (!f || !r) return NULL;
        mv->to = shogi_sq(f, r);
        if (shogi_starts_with(p, "同")) p += strlen("同"); /* "２四同　歩" seen in some files */
        p = shogi_skip_space(p);
    }
    mv->type = shogi_kanji_piece(&p);
    if (mv->type == SHOGI_NO_TYPE) return NULL;
    if (shogi_starts_with(p, "不成"))
        p += strlen("不成");
    else if (shogi_starts_with(p, "生"))
        p += strlen("生");
    else if (shogi_starts_with(p, "成"))
        p += strlen("成"), mv->promote = true;
    if (shogi_starts_with(p, "打")) {
        p += strlen("打");
        mv->drop = true;
        return p;
    }
    p = shogi_skip_space(p);
    if (*p == '(') {
        const char *q = p + 1;
        int f = shogi_kanji_digit(&q), r = shogi_kanji_digit(&q);
        if (!f || !r || *q != ')') return NULL;
        mv->from = shogi_sq(f, r);
        return q + 1;
    }
    /* No source square and no 打: a drop written without 打 (some tsume files). */
    mv->drop = true;
    return p;
}

/* Turn the written move into a board move of the side to move. */
static struct shogi_move kif_to_move(const struct shogi_parser *rd, const struct kif_move *mv)
{
    const struct shogi_position *pos = &rd->game.pos;
    int side = pos->side;
    struct shogi_move m = {0};
    m.to = (uint8_t)(mv->to >= 0 ? mv->to : rd->last_to >= 0 ? rd->last_to : 0);
    m.promote = mv->promote;
    if (mv->drop) {
        m.from = SHOGI_HAND;
        m.piece = (uint8_t)shogi_piece((enum shogi_color)side, mv->type);
        return m;
    }
    m.from = (uint8_t)mv->from;
    int on = pos->board[m.from];
    if (on && shogi_piece_type(on) == mv->type && (int)shogi_piece_color(on) == side)
        m.piece = (uint8_t)on;
    else
        m.piece = (uint8_t)shogi_piece((enum shogi_color)side, mv->type);
    m.captured = pos->board[m.to];
    return m;
}

struct kif_state {
    struct shogi_parser rd;
    struct shogi_bod bod;
    bool moves_begun, ended, in_branch;
    bool have_header_handicap;
};

/* Before the first move: a BOD diagram overrides 手合割. */
static void begin_moves(struct kif_state *st)
{
    if (st->moves_begun) return;
    st->moves_begun = true;
    if (st->bod.seen_board || st->bod.seen_hand) {
        if (!st->bod.seen_board) {
            /* Only hands given: the board of the handicap / even start with these hands. */
            struct shogi_position p = st->rd.rec->start;
            memcpy(p.hand, st->bod.pos.hand, sizeof p.hand);
            st->bod.pos = p;
        }
        st->bod.pos.side = st->bod.gote_to_move ? SHOGI_GOTE : SHOGI_SENTE;
        st->bod.pos.ply = 1;
        shogi_position_refresh(&st->bod.pos);
        shogi_parser_set_start(&st->rd, -1, &st->bod.pos);
    }
}

static void add_comment(struct kif_state *st, const char *text)
{
    struct shogi_record *r = st->rd.rec;
    if (st->ended)
        shogi_comment_add(&r->end.comment, text);
    else if (r->nmoves > 0)
        shogi_comment_add(&r->moves[r->nmoves - 1].comment, text);
    else
        shogi_comment_add(&r->head_comment, text);
}

/* A line that starts with a move number. */
static bool move_line(struct kif_state *st, const char *p, int lineno)
{
    struct shogi_parser *rd = &st->rd;
    int number = 0;
    while (*p >= '0' && *p <= '9') {
        if (number < 100000) number = number * 10 + (*p - '0');
        p++;
    }
    p = shogi_skip_space(p);
    if (st->ended) {
        shogi_parser_note(rd, lineno, 0, "line after the terminal move skipped");
        return true;
    }
    begin_moves(st);
    int ply = rd->rec->nmoves + 1;
    if (number != ply)
        shogi_parser_note(rd, lineno, ply, "move numbered %d where %d was expected", number, ply);
    int64_t now = -1, total = -1;
    const char *q = p;
    enum shogi_record_end e = shogi_kif_end_word(&q);
    if (e != SHOGI_REC_END_NONE) {
        rd->rec->end.kind = e;
        parse_times(q, &now, &total);
        rd->rec->end.time_ms = now;
        rd->rec->end.total_ms = total;
        st->ended = true;
        return true;
    }
    struct kif_move mv;
    const char *rest = parse_kif_move(p, &mv);
    if (!rest) return shogi_parser_fail(rd, lineno, "unreadable move \"%.60s\"", p);
    if (mv.to < 0 && rd->last_to < 0)
        return shogi_parser_fail(rd, lineno, "同 (same square) on the first move");
    struct shogi_record_move *rm = shogi_parser_play(rd, kif_to_move(rd, &mv), lineno);
    if (!rm) return shogi_parser_fail(rd, lineno, "out of memory");
    if (parse_times(rest, &now, &total)) {
        rm->time_ms = now;
        rm->total_ms = total;
    }
    return true;
}

struct shogi_record *shogi_kif_read(const char *data, size_t len, const char *name,
                                    struct shogi_record_error *err)
{
    struct kif_state st;
    memset(&st, 0, sizeof st);
    if (!shogi_parser_init(&st.rd, name, err, SHOGI_FORMAT_KIF)) return NULL;
    char *text, **lines;
    int n = shogi_parser_lines(&st.rd, data, len, &text, &lines);
    if (n < 0) return NULL;
    bool ok = true, any = false;
    for (int i = 0; i < n && ok; i++) {
        int lineno = i + 1;
        const char *line = lines[i];
        const char *p = shogi_skip_space(line);
        if (shogi_parser_skip_branch(&st.rd, &st.in_branch, p)) continue;
        if (!*p || *p == '#') continue;
        if (*p >= '0' && *p <= '9') {
            ok = move_line(&st, p, lineno);
            any = true;
            continue;
        }
        if (*p == '*') {
            add_comment(&st, p + 1);
            continue;
        }
        if (*p == '&') continue; /* bookmark */
        if (shogi_starts_with(p, "手数")) {
            if (strstr(p, "----") || strstr(p, "－－")) {
                begin_moves(&st);
                any = true;
            }
            /* "手数＝12" of a BOD: the move number of the diagram; not needed. */
            continue;
        }
        if (shogi_starts_with(p, "まで")) {
            if (!st.ended) {
                enum shogi_record_end e =
                    shogi_kif_summary_end(p, (enum shogi_color)st.rd.game.pos.side);
                if (e != SHOGI_REC_END_NONE) st.rd.rec->end.kind = e;
                st.ended = true;
            }
            continue;
        }
        if (!st.moves_begun && shogi_bod_line(&st.bod, line)) {
            any = true;
            continue;
        }
        if (!st.moves_begun && shogi_kif_header_line(&st.rd, line, lineno)) {
            any = true;
            continue;
        }
        if (st.moves_begun && shogi_kif_header_line(&st.rd, line, lineno)) continue;
        shogi_parser_note(&st.rd, lineno, 0, "line not understood, skipped");
    }
    if (ok && !any) ok = shogi_parser_fail(&st.rd, 0, "no KIF header, diagram or move found");
    if (ok) begin_moves(&st);
    free(lines);
    free(text);
    if (!ok) {
        shogi_parser_abort(&st.rd);
        return NULL;
    }
    return shogi_parser_finish(&st.rd);
}

/* record/shogi_ki2.c — reading KI2: moves without source squares ("▲５七銀右", "△同　歩",
 * "▲１二飛成", "▲５五角打"), resolved against the position with the JSA relative words
 * (棋譜の表記方法): 上 引 寄 直 for the direction of the move, 右 左 for the piece's place.
 * The game's end is read from the summary line ("まで25手で中断"). */
#include "record/shogi_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ki2_move {
    int to; /* -1 for 同 */
    enum shogi_type type;
    bool promote, no_promote, drop;
    bool up, down, side, straight, right, left;
};

static const char *const marks[] = {"▲", "△", "☗", "☖", "▼", "▽"};

static int mark_at(const char *p)
{
    for (int i = 0; i < 6; i++)
        if (shogi_starts_with(p, marks[i])) return i;
    return -1;
}

static bool parse_ki2_move(const char *p, struct ki2_move *mv)
{
    memset(mv, 0, sizeof *mv);
    p = shogi_skip_space(p);
    if (shogi_starts_with(p, "同")) {
        p = shogi_skip_space(p + strlen("同"));
        mv->to = -1;
    } else {
        int f = shogi_kanji_digit(&p), r = shogi_kanji_digit(&p);
        if (!f || !r) return false;
        mv->to = shogi_sq(f, r);
        if (shogi_starts_with(p, "同")) p += strlen("同");
        p = shogi_skip_space(p);
    }
    mv->type = shogi_kanji_piece(&p);
    if (mv->type == SHOGI_NO_TYPE) return false;
    for (;;) {
        static const struct {
            const char *w;
            int k;
        } words[] = {{"右", 0}, {"左", 1}, {"直", 2},   {"上", 3}, {"行", 3}, {"入", 3},
                     {"寄", 4}, {"引", 5}, {"不成", 6}, {"生", 6}, {"成", 7}, {"打", 8}};
        bool found = false;
        for (size_t i = 0; i < sizeof words / sizeof words[0] && !found; i++) {
            if (!shogi_starts_with(p, words[i].w)) continue;
            p += strlen(words[i].w);
            found = true;
            switch (words[i].k) {
            case 0: mv->right = true; break;
            case 1: mv->left = true; break;
            case 2: mv->straight = true; break;
            case 3: mv->up = true; break;
            case 4: mv->side = true; break;
            case 5: mv->down = true; break;
            case 6: mv->no_promote = true; break;
            case 7: mv->promote = true; break;
            case 8: mv->drop = true; break;
            }
        }
        if (!found) break;
    }
    p = shogi_skip_space(p);
    return *p == '\0';
}

/* Does the move from `from` to `to` fit the direction words, seen from the mover? */
static bool fits_direction(const struct ki2_move *mv, int color, int from, int to)
{
    int fr = shogi_sq_rank(from), tr = shogi_sq_rank(to);
    int forward = color == SHOGI_SENTE ? fr - tr : tr - fr;
    if (mv->up && forward <= 0) return false;
    if (mv->down && forward >= 0) return false;
    if (mv->side && forward != 0) return false;
    if (mv->straight && (forward <= 0 || shogi_sq_file(from) != shogi_sq_file(to))) return false;
    return true;
}

/* Keep the candidates on the mover's right (右) or left (左) edge. Sente's right is file 1. */
static int filter_side(const struct ki2_move *mv, int color, struct shogi_move *c, int n)
{
    if (!mv->right && !mv->left) return n;
    bool want_low_file = mv->right == (color == SHOGI_SENTE);
    int best = want_low_file ? 10 : 0;
    for (int i = 0; i < n; i++) {
        int f = shogi_sq_file(c[i].from);
        if (want_low_file ? f < best : f > best) best = f;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (shogi_sq_file(c[i].from) == best) c[k++] = c[i];
    return k;
}

/* Candidates that fit the words among moves; returns the count (written to out). */
static int select_moves(const struct ki2_move *mv, int color, const struct shogi_move *all, int n,
                        struct shogi_move *out)
{
    int k = 0;
    bool any_board = false;
    for (int i = 0; i < n; i++) {
        struct shogi_move m = all[i];
        if (m.to != mv->to || shogi_piece_type(m.piece) != mv->type) continue;
        if (m.promote != mv->promote) continue;
        if (!shogi_move_is_drop(m)) any_board = true;
    }
    for (int i = 0; i < n; i++) {
        struct shogi_move m = all[i];
        if (m.to != mv->to || shogi_piece_type(m.piece) != mv->type) continue;
        if (m.promote != mv->promote) continue;
        bool drop = shogi_move_is_drop(m);
        /* 打 is written only when a board piece could also go there: without it, a board move. */
        if (mv->drop != drop && (mv->drop || any_board)) continue;
        if (!drop && !fits_direction(mv, color, m.from, m.to)) continue;
        out[k++] = m;
    }
    if (k > 1) k = filter_side(mv, color, out, k);
    return k;
}

/* Resolve the written move: legal moves first; failing that, the move the words describe among
 * those the pieces can physically make, so the board can say which rule it breaks. */
static struct shogi_move resolve(struct shogi_parser *rd, const struct ki2_move *mv, int lineno,
                                 bool *ambiguous, bool *found)
{
    const struct shogi_position *pos = &rd->game.pos;
    int color = pos->side;
    struct shogi_move *all = malloc(2 * SHOGI_MAX_MOVES * sizeof *all);
    struct shogi_move result = {0};
    *ambiguous = false;
    *found = false;
    if (!all) return result;
    struct shogi_move *sel = all + SHOGI_MAX_MOVES;
    int n = shogi_legal_moves(pos, all);
    int k = select_moves(mv, color, all, n, sel);
    if (k == 0) {
        /* Pseudo moves: every piece of that type, and a drop, judged by the board. Those the piece
         * cannot make at all (5: cannot reach, jump) are not what was meant. */
        n = 0;
        for (int sq = 0; sq < SHOGI_SQUARES && n < SHOGI_MAX_MOVES - 2; sq++) {
            int pc = pos->board[sq];
            if (!pc || shogi_piece_color(pc) != (enum shogi_color)color ||
                shogi_piece_type(pc) != mv->type)
                continue;
            struct shogi_move m = {(uint8_t)sq, (uint8_t)mv->to, (uint8_t)pc, pos->board[mv->to],
                                   mv->promote};
            struct shogi_verdict v = shogi_check_move(pos, m);
            if (v.rule == SHOGI_ILLEGAL_IMPOSSIBLE &&
                (v.fault == SHOGI_FAULT_CANNOT_REACH || v.fault == SHOGI_FAULT_JUMP ||
                 v.fault == SHOGI_FAULT_OWN_CAPTURE || v.fault == SHOGI_FAULT_BAD_SQUARE))
                continue;
            all[n++] = m;
        }
        if (mv->type <= SHOGI_GOLD && pos->hand[color][mv->type] && !pos->board[mv->to])
            all[n++] = (struct shogi_move){SHOGI_HAND, (uint8_t)mv->to,
                                           (uint8_t)shogi_piece((enum shogi_color)color, mv->type),
                                           SHOGI_EMPTY, mv->promote};
        k = select_moves(mv, color, all, n, sel);
    }
    if (k >= 1) {
        result = sel[0];
        *found = true;
        *ambiguous = k > 1;
    } else {
        /* Nothing fits: keep what was written as a drop of that piece; the board judges it. */
        result = (struct shogi_move){SHOGI_HAND, (uint8_t)mv->to,
                                     (uint8_t)shogi_piece((enum shogi_color)color, mv->type),
                                     pos->board[mv->to], mv->promote};
        (void)lineno;
    }
    free(all);
    return result;
}

struct ki2_state {
    struct shogi_parser rd;
    struct shogi_bod bod;
    bool moves_begun, ended, in_branch;
};

static void ki2_begin(struct ki2_state *st)
{
    if (st->moves_begun) return;
    st->moves_begun = true;
    if (st->bod.seen_board || st->bod.seen_hand) {
        if (!st->bod.seen_board) {
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

static bool ki2_token(struct ki2_state *st, int mark, const char *text, int lineno)
{
    struct shogi_parser *rd = &st->rd;
    if (st->ended) {
        shogi_parser_note(rd, lineno, 0, "move after the end skipped");
        return true;
    }
    const char *q = shogi_skip_space(text);
    enum shogi_record_end e = shogi_kif_end_word(&q);
    if (e != SHOGI_REC_END_NONE) {
        rd->rec->end.kind = e;
        st->ended = true;
        return true;
    }
    struct ki2_move mv;
    if (!parse_ki2_move(text, &mv))
        return shogi_parser_fail(rd, lineno, "unreadable move \"%.60s\"", text);
    if (mv.to < 0) {
        if (rd->last_to < 0)
            return shogi_parser_fail(rd, lineno, "同 (same square) on the first move");
        mv.to = rd->last_to;
    }
    int color = mark % 2 == 0 ? SHOGI_SENTE : SHOGI_GOTE;
    int ply = rd->rec->nmoves + 1;
    if (color != rd->game.pos.side)
        shogi_parser_note(rd, lineno, ply, "%s marked for the side not to move",
                          color == SHOGI_SENTE ? "▲" : "△");
    bool ambiguous, found;
    struct shogi_move m = resolve(rd, &mv, lineno, &ambiguous, &found);
    if (ambiguous)
        shogi_parser_note(rd, lineno, ply, "ambiguous move \"%.40s\": first fit taken", text);
    if (!found) shogi_parser_note(rd, lineno, ply, "no piece can make the move \"%.40s\"", text);
    if (!shogi_parser_play(rd, m, lineno)) return shogi_parser_fail(rd, lineno, "out of memory");
    return true;
}

/* A line of moves: split at the side marks (a move may contain an ideographic space: 同　歩). */
static bool ki2_moves_line(struct ki2_state *st, const char *p, int lineno)
{
    ki2_begin(st);
    while (*p) {
        int mark = mark_at(p);
        if (mark < 0) {
            const char *q = shogi_skip_space(p);
            if (!*q) break;
            return shogi_parser_fail(&st->rd, lineno, "text outside a move: \"%.40s\"", q);
        }
        p += strlen(marks[mark]);
        const char *start = p;
        while (*p && mark_at(p) < 0) p++;
        char *tok = shogi_strdup_trim(start, (size_t)(p - start));
        if (!tok) return shogi_parser_fail(&st->rd, lineno, "out of memory");
        bool ok = ki2_token(st, mark, tok, lineno);
        free(tok);
        if (!ok) return false;
    }
    return true;
}

struct shogi_record *shogi_ki2_read(const char *data, size_t len, const char *name,
                                    struct shogi_record_error *err)
{
    struct ki2_state st;
    memset(&st, 0, sizeof st);
    if (!shogi_parser_init(&st.rd, name, err, SHOGI_FORMAT_KI2)) return NULL;
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
        if (mark_at(p) >= 0) {
            ok = ki2_moves_line(&st, p, lineno);
            any = true;
            continue;
        }
        if (*p == '*') {
            struct shogi_record *r = st.rd.rec;
            if (st.ended)
                shogi_comment_add(&r->end.comment, p + 1);
            else if (r->nmoves)
                shogi_comment_add(&r->moves[r->nmoves - 1].comment, p + 1);
            else
                shogi_comment_add(&r->head_comment, p + 1);
            continue;
        }
        if (*p == '&') continue;
        if (shogi_starts_with(p, "まで")) {
            ki2_begin(&st);
            if (!st.ended) {
                enum shogi_record_end e =
                    shogi_kif_summary_end(p, (enum shogi_color)st.rd.game.pos.side);
                st.rd.rec->end.kind = e;
                st.ended = true;
            }
            continue;
        }
        if (shogi_starts_with(p, "手数")) continue;
        if (!st.moves_begun && shogi_bod_line(&st.bod, line)) {
            any = true;
            continue;
        }
        if (shogi_kif_header_line(&st.rd, line, lineno)) {
            any = true;
            continue;
        }
        shogi_parser_note(&st.rd, lineno, 0, "line not understood, skipped");
    }
    if (ok && !any) ok = shogi_parser_fail(&st.rd, 0, "no KI2 header, diagram or move found");
    if (ok) ki2_begin(&st);
    free(lines);
    free(text);
    if (!ok) {
        shogi_parser_abort(&st.rd);
        return NULL;
    }
    return shogi_parser_finish(&st.rd);
}

/* record/shogi_kif_write.c — writing KIF the way Kifu for Windows does (which ShogiHome, ShogiGUI
 * and lishogi's importer read): headers, 手合割 or a BOD diagram, the column header, move lines
 * padded to one width with ( m:ss/hh:mm:ss) times, comments, the terminal move and a summary. */
#include "record/shogi_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Display width: full-width characters count two columns. */
static int width(const char *s)
{
    int w = 0;
    while (*s) {
        unsigned c = shogi_utf8_next(&s);
        w += c < 0x80 ? 1 : 2;
    }
    return w;
}

static void put_number_kanji(struct shogi_buf *b, int n)
{
    if (n >= 10) {
        if (n / 10 > 1) shogi_buf_puts(b, shogi_kanji_numeral(n / 10));
        shogi_buf_puts(b, "十");
        n %= 10;
        if (n) shogi_buf_puts(b, shogi_kanji_numeral(n));
        return;
    }
    if (n > 1) shogi_buf_puts(b, shogi_kanji_numeral(n));
}

static void put_hand(struct shogi_buf *b, const struct shogi_position *pos, int c, const char *who)
{
    static const int order[7] = {SHOGI_ROOK,   SHOGI_BISHOP, SHOGI_GOLD, SHOGI_SILVER,
                                 SHOGI_KNIGHT, SHOGI_LANCE,  SHOGI_PAWN};
    shogi_buf_printf(b, "%sの持駒：", who);
    bool any = false;
    for (int i = 0; i < 7; i++) {
        int k = pos->hand[c][order[i]];
        if (!k) continue;
        shogi_buf_puts(b, shogi_kif_piece_name((enum shogi_type)order[i]));
        put_number_kanji(b, k);
        shogi_buf_puts(b, "　");
        any = true;
    }
    if (!any) shogi_buf_puts(b, "なし");
    shogi_buf_putc(b, '\n');
}

static void put_bod(struct shogi_buf *b, const struct shogi_position *pos, bool handicap_names)
{
    /* One kanji per cell: promoted pieces as 杏 圭 全 in diagrams. */
    static const char *const cell[SHOGI_TYPES] = {"・", "歩", "香", "桂", "銀", "角", "飛", "金",
                                                  "玉", "と", "杏", "圭", "全", "馬", "龍"};
    put_hand(b, pos, SHOGI_GOTE, handicap_names ? "上手" : "後手");
    shogi_buf_puts(b, "  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for (int rank = 1; rank <= 9; rank++) {
        shogi_buf_putc(b, '|');
        for (int file = 9; file >= 1; file--) {
            int pc = pos->board[shogi_sq(file, rank)];
            shogi_buf_putc(b, pc && shogi_piece_color(pc) == SHOGI_GOTE ? 'v' : ' ');
            shogi_buf_puts(b, cell[pc ? shogi_piece_type(pc) : 0]);
        }
        shogi_buf_printf(b, "|%s\n", shogi_kanji_numeral(rank));
    }
    shogi_buf_puts(b, "+---------------------------+\n");
    put_hand(b, pos, SHOGI_SENTE, handicap_names ? "下手" : "先手");
    if (pos->side == SHOGI_GOTE) shogi_buf_puts(b, handicap_names ? "上手番\n" : "後手番\n");
}

static void put_comment(struct shogi_buf *b, const char *text)
{
    if (!text) return;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        shogi_buf_putc(b, '*');
        shogi_buf_putn(b, p, n);
        shogi_buf_putc(b, '\n');
        p += n;
        if (*p) p++;
    }
}

static void put_move_line(struct shogi_buf *b, int ply, const char *text, bool times, int64_t now,
                          int64_t total)
{
    shogi_buf_printf(b, "%4d %s", ply, text);
    if (times) {
        /* Kifu for Windows pads the move to 13 columns: "７六歩(77)   ( 0:03/00:00:03)". */
        int w = width(text);
        do shogi_buf_putc(b, ' ');
        while (++w < 13);
        int64_t s = now < 0 ? 0 : now / 1000, t = total < 0 ? 0 : total / 1000;
        shogi_buf_printf(b, "(%2lld:%02lld/%02lld:%02lld:%02lld)", (long long)(s / 60),
                         (long long)(s % 60), (long long)(t / 3600), (long long)(t / 60 % 60),
                         (long long)(t % 60));
    }
    shogi_buf_putc(b, '\n');
}

static void move_text(char *out, size_t n, struct shogi_move m, int last_to)
{
    int len = 0;
    if (m.to == last_to)
        len = snprintf(out, n, "同　");
    else
        len = snprintf(out, n, "%s%s", shogi_kif_digit(shogi_sq_file(m.to)),
                       shogi_kanji_numeral(shogi_sq_rank(m.to)));
    enum shogi_type t = shogi_piece_type(m.piece);
    len += snprintf(out + len, n - (size_t)len, "%s%s", shogi_kif_piece_name(t),
                    m.promote ? "成" : "");
    if (m.from == SHOGI_HAND)
        snprintf(out + len, n - (size_t)len, "打");
    else
        snprintf(out + len, n - (size_t)len, "(%d%d)", shogi_sq_file(m.from),
                 shogi_sq_rank(m.from));
}

static void put_summary(struct shogi_buf *b, const struct shogi_record *r, int to_move, bool hc)
{
    const char *names[2] = {hc ? "下手" : "先手", hc ? "上手" : "後手"};
    const char *mover = names[to_move], *other = names[to_move ^ 1];
    int n = r->nmoves;
    switch (r->end.kind) {
    case SHOGI_REC_END_NONE: return;
    case SHOGI_REC_END_RESIGN: shogi_buf_printf(b, "まで%d手で%sの勝ち\n", n, other); return;
    case SHOGI_REC_END_TIME_UP:
        shogi_buf_printf(b, "まで%d手で時間切れにより%sの勝ち\n", n, other);
        return;
    case SHOGI_REC_END_ILLEGAL_LOSS:
        shogi_buf_printf(b, "まで%d手で%sの反則負け\n", n, mover);
        return;
    case SHOGI_REC_END_ILLEGAL_WIN:
        shogi_buf_printf(b, "まで%d手で%sの反則勝ち\n", n, mover);
        return;
    case SHOGI_REC_END_MATE: shogi_buf_printf(b, "まで%d手で%sの勝ち\n", n, other); return;
    case SHOGI_REC_END_DECLARE_WIN:
        shogi_buf_printf(b, "まで%d手で%sの入玉勝ち\n", n, mover);
        return;
    default: shogi_buf_printf(b, "まで%d手で%s\n", n, shogi_record_end_kif(r->end.kind)); return;
    }
}

char *shogi_kif_write(const struct shogi_record *r, const char *charset)
{
    bool sjis = charset && strcmp(charset, "UTF-8") != 0;
    struct shogi_buf b = {0};
    shogi_buf_printf(&b, "#KIF version=2.0 encoding=%s\n", sjis ? "Shift_JIS" : "UTF-8");
    shogi_buf_puts(&b, "# ---- kifucam 棋譜ファイル ----\n");
    int hc = shogi_handicap_of(&r->start);
    bool hc_names = hc > 0;
    static const char *const keys[] = {"開始日時", "終了日時", "棋戦", "表題", "戦型",
                                       "持ち時間", "秒読み",   "場所", "備考"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = shogi_record_get(r, keys[i]);
        if (v) shogi_buf_printf(&b, "%s：%s\n", keys[i], v);
    }
    for (int i = 0; i < r->ntags; i++)
        if (r->tags[i].key[0] != '$') /* CSA-only information stays in CSA */
            shogi_buf_printf(&b, "%s：%s\n", r->tags[i].key, r->tags[i].value);
    if (hc >= 0)
        shogi_buf_printf(&b, "手合割：%s\n", shogi_handicap_info((enum shogi_handicap)hc)->ja);
    else
        put_bod(&b, &r->start, false);
    shogi_buf_printf(&b, "%s：%s\n", hc_names ? "下手" : "先手", r->black ? r->black : "");
    shogi_buf_printf(&b, "%s：%s\n", hc_names ? "上手" : "後手", r->white ? r->white : "");
    if (r->black_short) shogi_buf_printf(&b, "先手省略名：%s\n", r->black_short);
    if (r->white_short) shogi_buf_printf(&b, "後手省略名：%s\n", r->white_short);

    bool times = r->end.time_ms >= 0;
    for (int i = 0; i < r->nmoves && !times; i++) times = r->moves[i].time_ms >= 0;
    shogi_buf_puts(&b, times ? "手数----指手---------消費時間--\n" : "手数----指手--\n");
    put_comment(&b, r->head_comment);

    /* Totals are per player; CSA and USI records carry none, so add them up. */
    int64_t sum[2] = {0, 0};
    struct shogi_game g;
    shogi_game_init(&g, &r->start, &shogi_rules_jsa);
    int last_to = -1;
    char text[64];
    for (int i = 0; i < r->nmoves; i++) {
        const struct shogi_record_move *rm = &r->moves[i];
        int color = g.pos.side;
        move_text(text, sizeof text, rm->move, last_to);
        if (rm->time_ms > 0) sum[color] += rm->time_ms;
        int64_t total = rm->total_ms >= 0 ? rm->total_ms : sum[color];
        if (rm->total_ms >= 0) sum[color] = rm->total_ms;
        put_move_line(&b, i + 1, text, times, rm->time_ms, total);
        put_comment(&b, rm->comment);
        last_to = rm->move.to;
        if (rm->played) shogi_game_play(&g, rm->move);
    }
    if (r->end.kind != SHOGI_REC_END_NONE) {
        int color = g.pos.side;
        int64_t total = r->end.total_ms >= 0
                            ? r->end.total_ms
                            : sum[color] + (r->end.time_ms > 0 ? r->end.time_ms : 0);
        put_move_line(&b, r->nmoves + 1, shogi_record_end_kif(r->end.kind), times, r->end.time_ms,
                      total);
        put_comment(&b, r->end.comment);
    }
    put_summary(&b, r, g.pos.side, hc_names);
    shogi_game_free(&g);
    char *text_out = shogi_buf_take(&b);
    if (!sjis || !text_out) return text_out;
    char *bytes = shogi_text_from_utf8(text_out, charset);
    free(text_out);
    return bytes;
}

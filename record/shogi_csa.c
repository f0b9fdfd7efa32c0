/* record/shogi_csa.c — CSA records: reading V2, V2.1, V2.2 and V3.0, several games per file
 * separated by '/'; writing V2.2.
 *
 * A line holds one or more statements separated by ',' ("+7776FU,T3"). Start positions: PI with
 * removed pieces ("PI82HI22KA"), nine rows P1..P9, or P+/P- placements ("P-11OU21FU", "P+00HI",
 * "00AL" = all the rest in hand), then the side to move '+' or '-'. */
#include "record/shogi_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct csa_state {
    struct shogi_parser rd;
    struct shogi_position pos; /* the start being assembled */
    bool have_rows, have_pi, have_place, started, ended, any;
    bool last_was_end;
};

static int csa_square(const char *s)
{
    if (s[0] < '1' || s[0] > '9' || s[1] < '1' || s[1] > '9') return -1;
    return shogi_sq(s[0] - '0', s[1] - '0');
}

/* Hand every piece of a set that is not on the board or in a hand to `color` (00AL). */
static void give_rest(struct shogi_position *pos, int color)
{
    static const int set[SHOGI_HAND_TYPES + 1] = {0, 18, 4, 4, 4, 2, 2, 4, 2};
    int used[SHOGI_HAND_TYPES + 1] = {0};
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (pos->board[sq]) used[shogi_type_base(shogi_piece_type(pos->board[sq]))]++;
    for (int c = 0; c < 2; c++)
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) used[t] += pos->hand[c][t];
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++)
        if (used[t] < set[t])
            pos->hand[color][t] = (uint8_t)(pos->hand[color][t] + set[t] - used[t]);
}

static bool csa_start_line(struct csa_state *st, const char *s, int lineno)
{
    struct shogi_parser *rd = &st->rd;
    if (s[1] == 'I') {
        shogi_position_startpos(&st->pos);
        st->have_pi = true;
        for (const char *p = s + 2; *p && *p != ' '; p += 4) {
            int sq = csa_square(p);
            if (sq < 0 || strlen(p) < 4 || shogi_type_from_csa(p + 2) == SHOGI_NO_TYPE)
                return shogi_parser_fail(rd, lineno, "bad PI entry \"%.4s\"", p);
            st->pos.board[sq] = SHOGI_EMPTY;
        }
        return true;
    }
    if (s[1] >= '1' && s[1] <= '9') {
        if (!st->have_rows && !st->have_place) shogi_position_clear(&st->pos);
        st->have_rows = true;
        int rank = s[1] - '0';
        const char *p = s + 2;
        for (int file = 9; file >= 1; file--, p += 3) {
            if (strlen(p) < 3) {
                /* Trailing empty cells are sometimes cut off: " * " needs no text. */
                break;
            }
            if (p[0] == ' ' && p[1] == '*') continue;
            if (p[0] != '+' && p[0] != '-')
                return shogi_parser_fail(rd, lineno, "bad board cell \"%.3s\"", p);
            enum shogi_type t = shogi_type_from_csa(p + 1);
            if (t == SHOGI_NO_TYPE)
                return shogi_parser_fail(rd, lineno, "unknown piece \"%.2s\"", p + 1);
            st->pos.board[shogi_sq(file, rank)] =
                (uint8_t)shogi_piece(p[0] == '+' ? SHOGI_SENTE : SHOGI_GOTE, t);
        }
        return true;
    }
    if (s[1] == '+' || s[1] == '-') {
        if (!st->have_rows && !st->have_pi && !st->have_place) shogi_position_clear(&st->pos);
        st->have_place = true;
        int color = s[1] == '+' ? SHOGI_SENTE : SHOGI_GOTE;
        for (const char *p = s + 2; *p && *p != ' '; p += 4) {
            if (strlen(p) < 4) return shogi_parser_fail(rd, lineno, "bad placement \"%s\"", p);
            if (p[0] == '0' && p[1] == '0' && p[2] == 'A' && p[3] == 'L') {
                give_rest(&st->pos, color);
                continue;
            }
            enum shogi_type t = shogi_type_from_csa(p + 2);
            if (t == SHOGI_NO_TYPE)
                return shogi_parser_fail(rd, lineno, "unknown piece \"%.2s\"", p + 2);
            if (p[0] == '0' && p[1] == '0') {
                if (t > SHOGI_GOLD)
                    return shogi_parser_fail(rd, lineno, "%.2s cannot be in hand", p + 2);
                if (st->pos.hand[color][t] < 38) st->pos.hand[color][t]++;
                continue;
            }
            int sq = csa_square(p);
            if (sq < 0) return shogi_parser_fail(rd, lineno, "bad square \"%.2s\"", p);
            st->pos.board[sq] = (uint8_t)shogi_piece((enum shogi_color)color, t);
        }
        return true;
    }
    return shogi_parser_fail(rd, lineno, "unknown position line \"%.20s\"", s);
}

/* The side-to-move line ends the position. */
static void csa_begin(struct csa_state *st, int side)
{
    if (st->started) return;
    st->started = true;
    if (!st->have_rows && !st->have_pi && !st->have_place) shogi_position_startpos(&st->pos);
    st->pos.side = (uint8_t)side;
    st->pos.ply = 1;
    shogi_position_refresh(&st->pos);
    shogi_parser_set_start(&st->rd, -1, &st->pos);
}

static bool csa_move(struct csa_state *st, const char *s, int lineno)
{
    struct shogi_parser *rd = &st->rd;
    if (strlen(s) < 7) return shogi_parser_fail(rd, lineno, "short move \"%s\"", s);
    int color = s[0] == '+' ? SHOGI_SENTE : SHOGI_GOTE;
    if (!st->started) csa_begin(st, color);
    if (st->ended) {
        shogi_parser_note(rd, lineno, 0, "move after the end skipped");
        return true;
    }
    enum shogi_type t = shogi_type_from_csa(s + 5);
    int to = csa_square(s + 3);
    bool drop = s[1] == '0' && s[2] == '0';
    int from = drop ? SHOGI_HAND : csa_square(s + 1);
    if (t == SHOGI_NO_TYPE || to < 0 || from < 0)
        return shogi_parser_fail(rd, lineno, "unreadable move \"%s\"", s);
    const struct shogi_position *pos = &rd->game.pos;
    struct shogi_move m = {(uint8_t)from, (uint8_t)to, 0, pos->board[to], false};
    if (drop) {
        /* A promoted code on a drop stays the promoted piece (illegal, but recorded). */
        m.piece = (uint8_t)shogi_piece((enum shogi_color)color, t);
        m.captured = SHOGI_EMPTY;
    } else {
        int on = pos->board[from];
        enum shogi_type ot = shogi_piece_type(on);
        /* The code names the piece after the move: a change of code is a promotion. */
        if (on && (int)shogi_piece_color(on) == color && ot == t)
            m.piece = (uint8_t)on;
        else if (on && (int)shogi_piece_color(on) == color && shogi_type_can_promote(ot) &&
                 (int)ot + SHOGI_PROMOTED == (int)t)
            m.piece = (uint8_t)on, m.promote = true;
        else if (on && (int)shogi_piece_color(on) != color &&
                 (ot == t || (int)ot + SHOGI_PROMOTED == (int)t))
            m.piece = (uint8_t)shogi_piece((enum shogi_color)color, ot), m.promote = ot != t;
        else
            m.piece = (uint8_t)shogi_piece((enum shogi_color)color, t);
    }
    if (!shogi_parser_play(rd, m, lineno)) return shogi_parser_fail(rd, lineno, "out of memory");
    st->last_was_end = false;
    return true;
}

static bool csa_time(struct csa_state *st, const char *s, int lineno)
{
    char *end;
    double sec = strtod(s + 1, &end);
    if (end == s + 1 || !(sec >= 0 && sec <= 1e12))
        return shogi_parser_fail(&st->rd, lineno, "bad time \"%s\"", s);
    int64_t ms = (int64_t)(sec * 1000 + 0.5);
    struct shogi_record *r = st->rd.rec;
    if (st->last_was_end)
        r->end.time_ms = ms;
    else if (r->nmoves)
        r->moves[r->nmoves - 1].time_ms = ms;
    return true;
}

static bool csa_special(struct csa_state *st, const char *s, int lineno)
{
    static const struct {
        const char *w;
        enum shogi_record_end e;
    } words[] = {
        {"%TORYO", SHOGI_REC_END_RESIGN},
        {"%CHUDAN", SHOGI_REC_END_INTERRUPT},
        {"%SENNICHITE", SHOGI_REC_END_SENNICHITE},
        {"%TIME_UP", SHOGI_REC_END_TIME_UP},
        {"%ILLEGAL_MOVE", SHOGI_REC_END_ILLEGAL_LOSS},
        {"%JISHOGI", SHOGI_REC_END_JISHOGI},
        {"%KACHI", SHOGI_REC_END_DECLARE_WIN},
        {"%HIKIWAKE", SHOGI_REC_END_DRAW},
        {"%MAX_MOVES", SHOGI_REC_END_MAX_MOVES},
        {"%TSUMI", SHOGI_REC_END_MATE},
        {"%FUZUMI", SHOGI_REC_END_NO_MATE},
        {"%MATTA", SHOGI_REC_END_TAKEBACK},
        {"%ERROR", SHOGI_REC_END_ERROR},
    };
    if (!st->started) csa_begin(st, SHOGI_SENTE);
    struct shogi_record *r = st->rd.rec;
    enum shogi_record_end e = SHOGI_REC_END_NONE;
    if (strcmp(s, "%+ILLEGAL_ACTION") == 0 || strcmp(s, "%-ILLEGAL_ACTION") == 0) {
        int fouler = s[1] == '+' ? SHOGI_SENTE : SHOGI_GOTE;
        e = fouler == st->rd.game.pos.side ? SHOGI_REC_END_ILLEGAL_LOSS : SHOGI_REC_END_ILLEGAL_WIN;
    } else {
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (strcmp(s, words[i].w) == 0) e = words[i].e;
    }
    if (e == SHOGI_REC_END_NONE)
        return shogi_parser_fail(&st->rd, lineno, "unknown special \"%s\"", s);
    if (st->ended) return true;
    r->end.kind = e;
    st->ended = true;
    st->last_was_end = true;
    return true;
}

static void csa_info(struct csa_state *st, const char *s)
{
    static const struct {
        const char *csa, *kif;
    } keys[] = {{"EVENT", "棋戦"},        {"SITE", "場所"},    {"START_TIME", "開始日時"},
                {"END_TIME", "終了日時"}, {"OPENING", "戦型"}, {"TIME_LIMIT", "持ち時間"},
                {"TIME", "持ち時間"},     {"NOTE", "備考"}};
    const char *colon = strchr(s, ':');
    if (!colon) {
        shogi_parser_note(&st->rd, 0, 0, "information line without ':' skipped");
        return;
    }
    char key[64];
    size_t n = (size_t)(colon - s - 1);
    if (n >= sizeof key) n = sizeof key - 1;
    memcpy(key, s + 1, n);
    key[n] = '\0';
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (strcmp(key, keys[i].csa) == 0) {
            shogi_record_set(st->rd.rec, keys[i].kif, colon + 1);
            return;
        }
    }
    char tag[66];
    snprintf(tag, sizeof tag, "$%s", key); /* kept under its CSA name, written back to CSA */
    shogi_record_set(st->rd.rec, tag, colon + 1);
}

static bool csa_statement(struct csa_state *st, char *s, int lineno)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
    if (!n) return true;
    st->any = true;
    switch (s[0]) {
    case 'V': return true; /* version */
    case 'N':
        if (s[1] == '+' || s[1] == '-')
            shogi_record_set(st->rd.rec, s[1] == '+' ? "先手" : "後手", s + 2);
        return true;
    case '$': csa_info(st, s); return true;
    case 'P':
        if (st->started) {
            shogi_parser_note(&st->rd, lineno, 0, "position line after the moves began skipped");
            return true;
        }
        return csa_start_line(st, s, lineno);
    case '+':
    case '-':
        if (n == 1) {
            if (st->started)
                shogi_parser_note(&st->rd, lineno, 0, "second side-to-move line");
            else
                csa_begin(st, s[0] == '+' ? SHOGI_SENTE : SHOGI_GOTE);
            return true;
        }
        return csa_move(st, s, lineno);
    case 'T': return csa_time(st, s, lineno);
    case '%': return csa_special(st, s, lineno);
    default: return shogi_parser_fail(&st->rd, lineno, "unreadable line \"%.40s\"", s);
    }
}

static struct shogi_record *csa_finish(struct csa_state *st)
{
    if (!st->started) csa_begin(st, SHOGI_SENTE);
    return shogi_parser_finish(&st->rd);
}

int shogi_csa_read(const char *data, size_t len, const char *name, struct shogi_record ***out,
                   struct shogi_record_error *err)
{
    const char *charset;
    char *text = shogi_text_to_utf8(data, len, &charset);
    char **lines = NULL;
    int n = text ? shogi_split_lines(text, &lines) : -1;
    struct shogi_record **games = NULL;
    int ngames = 0;
    struct csa_state st;
    memset(&st, 0, sizeof st);
    bool ok = n >= 0 && shogi_parser_init(&st.rd, name, err, SHOGI_FORMAT_CSA);
    if (n < 0 && err)
        snprintf(err->message, sizeof err->message, "%s: out of memory", name ? name : "<memory>");
    if (ok) st.rd.rec->charset = charset;
    for (int i = 0; ok && i < n; i++) {
        int lineno = i + 1;
        char *line = lines[i];
        if (line[0] == '\'') {
            /* "'*" is a comment on the last move (V3, and Kifu for Windows); others are remarks. */
            if (line[1] == '*') {
                struct shogi_record *r = st.rd.rec;
                if (st.ended)
                    shogi_comment_add(&r->end.comment, line + 2);
                else if (r->nmoves)
                    shogi_comment_add(&r->moves[r->nmoves - 1].comment, line + 2);
                else
                    shogi_comment_add(&r->head_comment, line + 2);
            }
            continue;
        }
        if (line[0] == '/' && shogi_skip_space(line + 1)[0] == '\0') {
            if (!st.any) continue;
            struct shogi_record **g = realloc(games, (size_t)(ngames + 1) * sizeof *g);
            if (!g) {
                ok = false;
                break;
            }
            games = g;
            games[ngames++] = csa_finish(&st);
            memset(&st, 0, sizeof st);
            ok = shogi_parser_init(&st.rd, name, err, SHOGI_FORMAT_CSA);
            if (ok) st.rd.rec->charset = charset;
            continue;
        }
        /* Statements separated by ','; names (N+) and information ($) may contain commas. */
        if (line[0] == 'N' || line[0] == '$') {
            ok = csa_statement(&st, line, lineno);
            continue;
        }
        /* A statement starting with ' is a comment to the end of the line, commas included. */
        for (char *s = line; ok && s;) {
            if (*s == '\'') {
                if (s[1] == '*') {
                    struct shogi_record *r = st.rd.rec;
                    shogi_comment_add(st.ended    ? &r->end.comment
                                      : r->nmoves ? &r->moves[r->nmoves - 1].comment
                                                  : &r->head_comment,
                                      s + 2);
                }
                break;
            }
            char *comma = strchr(s, ',');
            if (comma) *comma = '\0';
            ok = csa_statement(&st, s, lineno);
            s = comma ? comma + 1 : NULL;
        }
    }
    if (ok && (st.any || ngames == 0)) {
        if (!st.any && ngames == 0) {
            ok = shogi_parser_fail(&st.rd, 0, "no CSA statement found");
        } else {
            struct shogi_record **g = realloc(games, (size_t)(ngames + 1) * sizeof *g);
            if (g) {
                games = g;
                games[ngames++] = csa_finish(&st);
            } else {
                ok = false;
            }
        }
    }
    if (st.rd.rec) shogi_parser_abort(&st.rd);
    free(lines);
    free(text);
    if (!ok) {
        shogi_records_free(games, ngames);
        return -1;
    }
    *out = games;
    return ngames;
}

/* ---- writing V2.2 ---------------------------------------------------------------------------- */

static void put_position(struct shogi_buf *b, const struct shogi_position *pos)
{
    if (shogi_handicap_of(pos) == SHOGI_HC_EVEN) {
        shogi_buf_puts(b, "PI\n");
    } else {
        for (int rank = 1; rank <= 9; rank++) {
            shogi_buf_printf(b, "P%d", rank);
            for (int file = 9; file >= 1; file--) {
                int pc = pos->board[shogi_sq(file, rank)];
                if (!pc)
                    shogi_buf_puts(b, " * ");
                else
                    shogi_buf_printf(b, "%c%s", shogi_piece_color(pc) == SHOGI_SENTE ? '+' : '-',
                                     shogi_type_csa(shogi_piece_type(pc)));
            }
            shogi_buf_putc(b, '\n');
        }
        for (int c = 0; c < 2; c++) {
            bool any = false;
            for (int t = SHOGI_ROOK; t >= SHOGI_PAWN; t--) any |= pos->hand[c][t] > 0;
            any |= pos->hand[c][SHOGI_GOLD] > 0;
            if (!any) continue;
            shogi_buf_printf(b, "P%c", c == SHOGI_SENTE ? '+' : '-');
            static const int order[7] = {SHOGI_ROOK,   SHOGI_BISHOP, SHOGI_GOLD, SHOGI_SILVER,
                                         SHOGI_KNIGHT, SHOGI_LANCE,  SHOGI_PAWN};
            for (int i = 0; i < 7; i++)
                for (int k = 0; k < pos->hand[c][order[i]]; k++)
                    shogi_buf_printf(b, "00%s", shogi_type_csa((enum shogi_type)order[i]));
            shogi_buf_putc(b, '\n');
        }
    }
    shogi_buf_puts(b, pos->side == SHOGI_SENTE ? "+\n" : "-\n");
}

static void put_comment(struct shogi_buf *b, const char *prefix, const char *text)
{
    if (!text) return;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        shogi_buf_puts(b, prefix);
        shogi_buf_putn(b, p, n);
        shogi_buf_putc(b, '\n');
        p += n;
        if (*p) p++;
    }
}

static void put_time(struct shogi_buf *b, int64_t ms)
{
    if (ms < 0) return;
    /* V2.2 has whole seconds only. */
    shogi_buf_printf(b, ",T%lld", (long long)(ms / 1000));
}

char *shogi_csa_write(const struct shogi_record *r)
{
    struct shogi_buf b = {0};
    shogi_buf_puts(&b, "V2.2\n");
    if (r->black) shogi_buf_printf(&b, "N+%s\n", r->black);
    if (r->white) shogi_buf_printf(&b, "N-%s\n", r->white);
    const struct {
        const char *csa;
        const char *v;
    } info[] = {{"EVENT", r->event},
                {"SITE", r->site},
                {"START_TIME", r->start_time},
                {"END_TIME", r->end_time},
                {"OPENING", r->opening}};
    for (size_t i = 0; i < sizeof info / sizeof info[0]; i++)
        if (info[i].v) shogi_buf_printf(&b, "$%s:%s\n", info[i].csa, info[i].v);
    if (r->time_control) {
        int h, m, s;
        char extra;
        if (sscanf(r->time_control, "%d:%d+%d%c", &h, &m, &s, &extra) == 3)
            shogi_buf_printf(&b, "$TIME_LIMIT:%s\n", r->time_control);
    }
    for (int i = 0; i < r->ntags; i++)
        if (r->tags[i].key[0] == '$' && strcmp(r->tags[i].key, "$TIME_LIMIT") != 0)
            shogi_buf_printf(&b, "%s:%s\n", r->tags[i].key, r->tags[i].value);
    put_comment(&b, "'*", r->head_comment);
    put_position(&b, &r->start);
    struct shogi_game g;
    shogi_game_init(&g, &r->start, &shogi_rules_jsa);
    for (int i = 0; i < r->nmoves; i++) {
        const struct shogi_record_move *rm = &r->moves[i];
        struct shogi_move m = rm->move;
        int color = shogi_piece_color(m.piece);
        enum shogi_type t = shogi_piece_type(m.piece);
        if (m.promote && shogi_type_can_promote(t)) t = (enum shogi_type)(t + SHOGI_PROMOTED);
        if (m.from == SHOGI_HAND)
            shogi_buf_printf(&b, "%c00", color == SHOGI_SENTE ? '+' : '-');
        else
            shogi_buf_printf(&b, "%c%d%d", color == SHOGI_SENTE ? '+' : '-', shogi_sq_file(m.from),
                             shogi_sq_rank(m.from));
        const char *code = shogi_type_csa(t);
        shogi_buf_printf(&b, "%d%d%s", shogi_sq_file(m.to), shogi_sq_rank(m.to),
                         code ? code : "??");
        put_time(&b, rm->time_ms);
        shogi_buf_putc(&b, '\n');
        put_comment(&b, "'*", rm->comment);
        if (rm->played) shogi_game_play(&g, m);
    }
    if (r->end.kind != SHOGI_REC_END_NONE) {
        const char *w = shogi_record_end_csa(r->end.kind);
        if (r->end.kind == SHOGI_REC_END_ILLEGAL_WIN)
            w = g.pos.side == SHOGI_SENTE ? "%-ILLEGAL_ACTION" : "%+ILLEGAL_ACTION";
        if (w) {
            shogi_buf_puts(&b, w);
            put_time(&b, r->end.time_ms);
            shogi_buf_putc(&b, '\n');
        } else {
            shogi_buf_printf(&b, "'%s\n", shogi_record_end_kif(r->end.kind));
        }
    }
    put_comment(&b, "'*", r->end.comment);
    shogi_game_free(&g);
    return shogi_buf_take(&b);
}

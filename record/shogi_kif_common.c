/* record/shogi_kif_common.c — what KIF and KI2 share: header lines (key：value) and BOD board
 * diagrams (持駒 lines, nine board rows, 手番). */
#include "record/shogi_record.h"

#include <stdlib.h>
#include <string.h>

/* The first ":" or "：" of a line, or NULL. */
static const char *find_colon(const char *line, size_t *seplen)
{
    const char *a = strstr(line, "："), *b = strchr(line, ':');
    if (a && (!b || a < b)) {
        *seplen = strlen("：");
        return a;
    }
    *seplen = 1;
    return b;
}

bool shogi_kif_header_line(struct shogi_parser *rd, const char *line, int lineno)
{
    const char *p = shogi_skip_space(line);
    if ((*p >= '0' && *p <= '9') || *p == '*' || *p == '#' || *p == '&' || *p == '|' || !*p)
        return false;
    size_t seplen;
    const char *colon = find_colon(p, &seplen);
    if (!colon || colon == p) return false;
    char *key = shogi_strdup_trim(p, (size_t)(colon - p));
    char *value = shogi_strdup_trim(colon + seplen, (size_t)-1);
    bool ok = key && value;
    if (ok && strcmp(key, "手合割") == 0 && rd->rec->nmoves > 0) {
        shogi_parser_note(rd, lineno, 0, "手合割 after the first move ignored");
    } else if (ok && strcmp(key, "手合割") == 0) {
        const struct shogi_handicap_info *h = shogi_handicap_find(value);
        if (h)
            shogi_parser_set_start(rd, (int)h->id, NULL);
        else if (strcmp(value, "その他") != 0)
            shogi_parser_note(rd, lineno, 0, "unknown 手合割 \"%s\": 平手 assumed", value);
    } else if (ok) {
        shogi_record_set(rd->rec, key, value);
    }
    free(key);
    free(value);
    return true;
}

static int bod_color_of(const char *p, size_t *skip)
{
    static const struct {
        const char *w;
        int c;
    } words[] = {
        {"先手", SHOGI_SENTE}, {"下手", SHOGI_SENTE}, {"後手", SHOGI_GOTE}, {"上手", SHOGI_GOTE}};
    for (size_t i = 0; i < 4; i++) {
        if (shogi_starts_with(p, words[i].w)) {
            *skip = strlen(words[i].w);
            return words[i].c;
        }
    }
    return -1;
}

/* "飛二　角　金四 …" or "なし". */
static void bod_hand(struct shogi_bod *bod, int color, const char *p)
{
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) bod->pos.hand[color][t] = 0;
    for (;;) {
        p = shogi_skip_space(p);
        if (!*p || shogi_starts_with(p, "なし")) return;
        enum shogi_type t = shogi_kanji_piece(&p);
        if (t == SHOGI_NO_TYPE || t > SHOGI_GOLD) {
            shogi_utf8_next(&p); /* skip what is not a hand piece */
            continue;
        }
        int n = shogi_kanji_number(&p);
        if (n <= 0) n = 1;
        int sum = bod->pos.hand[color][t] + n;
        bod->pos.hand[color][t] = (uint8_t)(sum > 38 ? 38 : sum);
    }
}

bool shogi_bod_line(struct shogi_bod *bod, const char *line)
{
    const char *p = shogi_skip_space(line);
    size_t skip;
    int c = bod_color_of(p, &skip);
    if (c >= 0) {
        const char *q = p + skip;
        if (shogi_starts_with(q, "の持駒") || shogi_starts_with(q, "の持ち駒")) {
            q += shogi_starts_with(q, "の持駒") ? strlen("の持駒") : strlen("の持ち駒");
            q = shogi_skip_space(q);
            if (shogi_starts_with(q, "："))
                q += strlen("：");
            else if (*q == ':')
                q++;
            if (!bod->seen_board && !bod->seen_hand) shogi_position_clear(&bod->pos);
            bod_hand(bod, c, q);
            bod->seen_hand = true;
            return true;
        }
        if (strcmp(q, "番") == 0 || shogi_starts_with(q, "番")) {
            bod->gote_to_move = c == SHOGI_GOTE;
            return true;
        }
        return false;
    }
    if (shogi_starts_with(p, "+---") || shogi_starts_with(p, "+－")) return true;
    if (shogi_starts_with(p, "９ ８ ７") || shogi_starts_with(p, "９　８") ||
        shogi_starts_with(p, "9 8 7"))
        return true;
    if (*p != '|') return false;
    /* A board row: nine cells of a prefix (' ' sente, 'v' gote) and a piece or ・. */
    if (!bod->seen_board && !bod->seen_hand) shogi_position_clear(&bod->pos);
    bod->seen_board = true;
    int rank = ++bod->rows;
    p++;
    for (int file = 9; file >= 1; file--) {
        int color = SHOGI_SENTE;
        if (*p == 'v' || *p == 'V')
            color = SHOGI_GOTE, p++;
        else if (*p == ' ' || *p == '^' || *p == '+')
            p++;
        else if (shogi_starts_with(p, "\xE3\x80\x80"))
            p += 3;
        if (!*p || *p == '|') break;
        if (shogi_starts_with(p, "・")) {
            p += strlen("・");
            continue;
        }
        enum shogi_type t = shogi_kanji_piece(&p);
        if (t == SHOGI_NO_TYPE) {
            shogi_utf8_next(&p);
            continue;
        }
        if (rank <= 9) bod->pos.board[shogi_sq(file, rank)] = (uint8_t)shogi_piece(color, t);
    }
    return true;
}

int shogi_parser_lines(struct shogi_parser *rd, const char *data, size_t len, char **text,
                       char ***lines)
{
    const char *charset;
    *text = shogi_text_to_utf8(data, len, &charset);
    *lines = NULL;
    int n = *text ? shogi_split_lines(*text, lines) : -1;
    if (n < 0) {
        free(*text);
        *text = NULL;
        shogi_parser_fail(rd, 0, "out of memory");
        shogi_parser_abort(rd);
        return -1;
    }
    rd->rec->charset = charset;
    return n;
}

bool shogi_parser_skip_branch(struct shogi_parser *rd, bool *in_branch, const char *p)
{
    bool starts = shogi_starts_with(p, "変化");
    if (starts) rd->rec->branches_skipped++;
    if (starts) *in_branch = true;
    return *in_branch;
}

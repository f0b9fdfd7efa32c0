/* board/shogi_sfen.c — SFEN positions and USI move strings. */
#include <stdio.h>
#include <string.h>

#include "board/shogi_internal.h"

static const char sfen_letters[] = "?PLNSBRGK"; /* index = base type */

static int type_of_letter(char ch)
{
    char up = (ch >= 'a' && ch <= 'z') ? (char)(ch - 32) : ch;
    const char *p = up ? strchr(sfen_letters + 1, up) : NULL;
    return p ? (int)(p - sfen_letters) : 0;
}

char shogi_type_sfen(enum shogi_type t)
{
    t = shogi_type_base(t);
    return t >= SHOGI_PAWN && t <= SHOGI_KING ? sfen_letters[t] : '?';
}

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        if (err) snprintf(err, errlen, __VA_ARGS__);                                               \
        return false;                                                                              \
    } while (0)

static const char *skip_spaces(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

bool shogi_sfen_parse(struct shogi_position *pos, const char *sfen, const char **end, char *err,
                      size_t errlen)
{
    const char *s = skip_spaces(sfen ? sfen : "");
    if (!strncmp(s, "startpos", 8) && (s[8] == 0 || s[8] == ' ' || s[8] == '\t' || s[8] == '\n')) {
        const char *rest = skip_spaces(s + 8);
        if (!end && *rest && *rest != '\n' && *rest != '\r')
            FAIL("SFEN: unexpected '%.20s' after startpos", rest);
        if (end) *end = s + 8;
        return shogi_sfen_parse(pos, SHOGI_SFEN_STARTPOS, NULL, err, errlen);
    }
    if (!strncmp(s, "sfen ", 5)) s = skip_spaces(s + 5);
    struct shogi_position p;
    memset(&p, 0, sizeof p);

    /* board: ranks a..i from the top, files 9..1 from the left */
    int rank = 1, file = 9;
    for (; *s && *s != ' ' && *s != '\t'; s++) {
        if (*s == '/') {
            if (file != 0) FAIL("SFEN rank %d has %d squares, not 9", rank, 9 - file);
            if (++rank > 9) FAIL("SFEN board has more than 9 ranks");
            file = 9;
        } else if (*s >= '1' && *s <= '9') {
            file -= *s - '0';
            if (file < 0) FAIL("SFEN rank %d has more than 9 squares", rank);
        } else {
            bool promoted = false;
            if (*s == '+') {
                promoted = true;
                s++;
            }
            int t = type_of_letter(*s);
            if (!t) FAIL("SFEN board: unexpected character '%c' on rank %d", *s ? *s : '?', rank);
            if (promoted && !shogi_type_can_promote((enum shogi_type)t))
                FAIL("SFEN board: '+%c' on rank %d cannot be promoted", *s, rank);
            if (file < 1) FAIL("SFEN rank %d has more than 9 squares", rank);
            int c = (*s >= 'a' && *s <= 'z') ? SHOGI_GOTE : SHOGI_SENTE;
            p.board[shogi_sq(file, rank)] = (uint8_t)shogi_piece(
                (enum shogi_color)c, (enum shogi_type)(promoted ? t + SHOGI_PROMOTED : t));
            file--;
        }
    }
    if (rank == 1 && file == 9) FAIL("SFEN is empty");
    if (rank != 9) FAIL("SFEN board has %d ranks, not 9", rank);
    if (file != 0) FAIL("SFEN rank 9 has %d squares, not 9", 9 - file);

    s = skip_spaces(s);
    if (*s == 'b')
        p.side = SHOGI_SENTE;
    else if (*s == 'w')
        p.side = SHOGI_GOTE;
    else
        FAIL("SFEN side to move must be 'b' or 'w', not '%.1s'", *s ? s : "(end)");
    s++;
    if (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
        FAIL("SFEN side to move must be 'b' or 'w'");

    s = skip_spaces(s);
    if (*s == '-') {
        s++;
    } else if (*s) {
        while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
            int n = 0;
            bool counted = false;
            while (*s >= '0' && *s <= '9') {
                n = n * 10 + (*s++ - '0');
                counted = true;
                if (n > 18) FAIL("SFEN hand count %d is more than a set has", n);
            }
            if (!counted) n = 1;
            if (n == 0) FAIL("SFEN hand count 0");
            int t = type_of_letter(*s);
            if (!t || t == SHOGI_KING) FAIL("SFEN hand: unexpected character '%.1s'", *s ? s : "");
            int c = (*s >= 'a' && *s <= 'z') ? SHOGI_GOTE : SHOGI_SENTE;
            if (p.hand[c][t] + n > 18) FAIL("SFEN hand: too many '%c'", *s);
            p.hand[c][t] = (uint8_t)(p.hand[c][t] + n);
            s++;
        }
    } else {
        FAIL("SFEN is missing the pieces in hand ('-' for none)");
    }

    /* optional move number */
    const char *q = skip_spaces(s);
    p.ply = 1;
    if (*q >= '0' && *q <= '9') {
        long n = 0;
        while (*q >= '0' && *q <= '9') {
            if (n < 100000000) n = n * 10 + (*q - '0');
            q++;
        }
        p.ply = n > 0 ? (int)n : 1;
        s = q;
    }
    if (!end) { /* nothing may follow unless the caller reads on */
        const char *rest = skip_spaces(s);
        while (*rest == '\n' || *rest == '\r') rest++;
        if (*rest) FAIL("SFEN: unexpected '%.20s' after the move number", rest);
    }
    shogi_position_refresh(&p);
    char why[120];
    if (!shogi_position_valid(&p, why, sizeof why)) FAIL("SFEN position is not legal: %s", why);
    *pos = p;
    if (end) *end = s;
    return true;
}

char *shogi_sfen_format(const struct shogi_position *pos, char *buf, size_t len)
{
    char tmp[SHOGI_SFEN_MAX + 32];
    size_t n = 0;
    for (int rank = 1; rank <= 9; rank++) {
        int empty = 0;
        for (int file = 9; file >= 1; file--) {
            int p = pos->board[shogi_sq(file, rank)];
            if (!p) {
                empty++;
                continue;
            }
            if (empty) tmp[n++] = (char)('0' + empty);
            empty = 0;
            int t = shogi_piece_type(p);
            if (shogi_type_is_promoted((enum shogi_type)t)) tmp[n++] = '+';
            char ch = shogi_type_sfen((enum shogi_type)t);
            tmp[n++] = shogi_piece_color(p) == SHOGI_GOTE ? (char)(ch + 32) : ch;
        }
        if (empty) tmp[n++] = (char)('0' + empty);
        if (rank < 9) tmp[n++] = '/';
    }
    tmp[n++] = ' ';
    tmp[n++] = pos->side == SHOGI_SENTE ? 'b' : 'w';
    tmp[n++] = ' ';
    static const int order[7] = {SHOGI_ROOK,   SHOGI_BISHOP, SHOGI_GOLD, SHOGI_SILVER,
                                 SHOGI_KNIGHT, SHOGI_LANCE,  SHOGI_PAWN};
    size_t hand_start = n;
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 7; i++) {
            int k = pos->hand[c][order[i]];
            if (!k) continue;
            if (k > 1) n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%d", k);
            char ch = sfen_letters[order[i]];
            tmp[n++] = c == SHOGI_GOTE ? (char)(ch + 32) : ch;
        }
    if (n == hand_start) tmp[n++] = '-';
    snprintf(tmp + n, sizeof tmp - n, " %d", pos->ply);
    snprintf(buf, len, "%s", tmp);
    return buf;
}

/* ---- USI moves --------------------------------------------------------------------------------
 */

char *shogi_move_to_usi(struct shogi_move m, char buf[6])
{
    if (m.to >= SHOGI_SQUARES) {
        strcpy(buf, "????");
        return buf;
    }
    int n = 0;
    if (m.from == SHOGI_HAND) {
        buf[n++] = shogi_type_sfen(shogi_piece_type(m.piece));
        buf[n++] = '*';
    } else if (m.from < SHOGI_SQUARES) {
        buf[n++] = (char)('0' + shogi_sq_file(m.from));
        buf[n++] = (char)('a' + shogi_sq_rank(m.from) - 1);
    } else {
        buf[n++] = '?';
        buf[n++] = '?';
    }
    buf[n++] = (char)('0' + shogi_sq_file(m.to));
    buf[n++] = (char)('a' + shogi_sq_rank(m.to) - 1);
    if (m.promote) buf[n++] = '+';
    buf[n] = 0;
    return buf;
}

static int usi_square(const char *s)
{
    if (s[0] < '1' || s[0] > '9' || s[1] < 'a' || s[1] > 'i') return -1;
    return shogi_sq(s[0] - '0', s[1] - 'a' + 1);
}

bool shogi_move_from_usi(const struct shogi_position *pos, const char *usi, struct shogi_move *m)
{
    struct shogi_move r = {0, 0, 0, 0, false};
    if (!usi || strlen(usi) < 4) return false;
    int to = usi_square(usi + 2);
    if (to < 0) return false;
    r.to = (uint8_t)to;
    const char *tail = usi + 4;
    if (usi[1] == '*') {
        int t = type_of_letter(usi[0]);
        if (!t || t == SHOGI_KING || usi[0] < 'A' || usi[0] > 'Z') return false;
        r.from = SHOGI_HAND;
        r.piece = (uint8_t)shogi_piece((enum shogi_color)pos->side, (enum shogi_type)t);
    } else {
        int from = usi_square(usi);
        if (from < 0 || !pos->board[from]) return false;
        r.from = (uint8_t)from;
        r.piece = pos->board[from];
        if (*tail == '+') {
            r.promote = true;
            tail++;
        }
    }
    if (*tail && *tail != ' ' && *tail != '\t' && *tail != '\n' && *tail != '\r') return false;
    r.captured = pos->board[to];
    *m = r;
    return true;
}

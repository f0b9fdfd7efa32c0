/* record/shogi_usi.c — USI position strings and SFEN: "position startpos moves 7g7f 3c3d",
 * "position sfen <SFEN> moves …", the same without "position", or a bare SFEN; one game a line.
 * Some GUIs end the move list with a word for the result (resign, rep_draw …): read as the end. */
#include "record/shogi_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *word;
    enum shogi_record_end end;
} usi_ends[] = {
    {"resign", SHOGI_REC_END_RESIGN},   {"rep_draw", SHOGI_REC_END_SENNICHITE},
    {"draw", SHOGI_REC_END_DRAW},       {"win", SHOGI_REC_END_DECLARE_WIN},
    {"timeout", SHOGI_REC_END_TIME_UP}, {"break", SHOGI_REC_END_INTERRUPT},
    {"mate", SHOGI_REC_END_MATE},       {"illegal", SHOGI_REC_END_ILLEGAL_LOSS},
};

static const char *next_token(const char *p, char *tok, size_t n)
{
    while (*p == ' ' || *p == '\t') p++;
    size_t k = 0;
    while (*p && *p != ' ' && *p != '\t') {
        if (k + 1 < n) tok[k++] = *p;
        p++;
    }
    tok[k] = '\0';
    return p;
}

/* Syntax of a board move whose source square is empty: kept, judged by the board. */
static bool usi_syntax_move(const char *s, struct shogi_move *m)
{
    if (strlen(s) < 4 || s[0] < '1' || s[0] > '9' || s[1] < 'a' || s[1] > 'i' || s[2] < '1' ||
        s[2] > '9' || s[3] < 'a' || s[3] > 'i' || (s[4] && (s[4] != '+' || s[5])))
        return false;
    *m = (struct shogi_move){(uint8_t)shogi_sq(s[0] - '0', s[1] - 'a' + 1),
                             (uint8_t)shogi_sq(s[2] - '0', s[3] - 'a' + 1), 0, 0, s[4] == '+'};
    return true;
}

/* SFEN syntax only, for positions the rules core refuses (tsume compositions with nine pawns on a
 * file, a pawn on the last rank): the record still says what was played from there. */
static bool lenient_sfen(const char *s, struct shogi_position *pos, const char **end)
{
    static const char letters[] = "PLNSBRGK";
    shogi_position_clear(pos);
    while (*s == ' ') s++;
    if (shogi_starts_with(s, "sfen ")) s += 5;
    int rank = 1, file = 9;
    for (; *s && *s != ' '; s++) {
        bool promoted = false;
        if (*s == '/') {
            if (file != 0 || ++rank > 9) return false;
            file = 9;
            continue;
        }
        if (*s >= '1' && *s <= '9') {
            file -= *s - '0';
            if (file < 0) return false;
            continue;
        }
        if (*s == '+') promoted = true, s++;
        const char *l = *s ? strchr(letters, *s >= 'a' ? *s - 32 : *s) : NULL;
        if (!l || file < 1) return false;
        int t = (int)(l - letters) + 1;
        if (promoted && (t > SHOGI_ROOK)) return false;
        pos->board[shogi_sq(file--, rank)] =
            (uint8_t)shogi_piece(*s >= 'a' ? SHOGI_GOTE : SHOGI_SENTE,
                                 (enum shogi_type)(t + (promoted ? SHOGI_PROMOTED : 0)));
    }
    if (rank != 9 || file != 0) return false;
    while (*s == ' ') s++;
    if (*s != 'b' && *s != 'w') return false;
    pos->side = *s++ == 'w' ? SHOGI_GOTE : SHOGI_SENTE;
    while (*s == ' ') s++;
    if (*s == '-') {
        s++;
    } else {
        int count = 0;
        for (; *s && *s != ' '; s++) {
            if (*s >= '0' && *s <= '9') {
                count = count * 10 + (*s - '0');
                if (count > 38) return false;
                continue;
            }
            const char *l = strchr(letters, *s >= 'a' ? *s - 32 : *s);
            int t = l ? (int)(l - letters) + 1 : 0;
            if (t < SHOGI_PAWN || t > SHOGI_GOLD) return false;
            int c = *s >= 'a' ? SHOGI_GOTE : SHOGI_SENTE;
            int k = pos->hand[c][t] + (count ? count : 1);
            pos->hand[c][t] = (uint8_t)(k > 38 ? 38 : k);
            count = 0;
        }
    }
    while (*s == ' ') s++;
    while (*s >= '0' && *s <= '9') s++; /* the move number */
    shogi_position_refresh(pos);
    *end = s;
    return true;
}

static struct shogi_record *usi_line(const char *line, int lineno, const char *name,
                                     struct shogi_record_error *err)
{
    struct shogi_parser rd;
    if (!shogi_parser_init(&rd, name, err, SHOGI_FORMAT_USI)) return NULL;
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (shogi_starts_with(p, "position ")) p += strlen("position ");
    struct shogi_position pos;
    char msg[160];
    const char *end = p;
    if (!shogi_sfen_parse(&pos, p, &end, msg, sizeof msg)) {
        if (!lenient_sfen(p, &pos, &end)) {
            shogi_parser_fail(&rd, lineno, "bad position: %s", msg);
            shogi_parser_abort(&rd);
            return NULL;
        }
        shogi_parser_note(&rd, lineno, 0, "start position kept although %s", msg);
    }
    shogi_parser_set_start(&rd, -1, &pos);
    char tok[64];
    p = next_token(end, tok, sizeof tok);
    if (tok[0] && strcmp(tok, "moves") != 0) {
        shogi_parser_fail(&rd, lineno, "expected \"moves\", found \"%s\"", tok);
        shogi_parser_abort(&rd);
        return NULL;
    }
    for (;;) {
        p = next_token(p, tok, sizeof tok);
        if (!tok[0]) break;
        bool is_end = false;
        for (size_t i = 0; i < sizeof usi_ends / sizeof usi_ends[0]; i++) {
            if (strcmp(tok, usi_ends[i].word) == 0) {
                rd.rec->end.kind = usi_ends[i].end;
                is_end = true;
            }
        }
        if (is_end) break;
        struct shogi_move m;
        if (!shogi_move_from_usi(&rd.game.pos, tok, &m) && !usi_syntax_move(tok, &m)) {
            shogi_parser_fail(&rd, lineno, "bad USI move \"%s\" at ply %d", tok,
                              rd.rec->nmoves + 1);
            shogi_parser_abort(&rd);
            return NULL;
        }
        if (!shogi_parser_play(&rd, m, lineno)) {
            shogi_parser_fail(&rd, lineno, "out of memory");
            shogi_parser_abort(&rd);
            return NULL;
        }
    }
    return shogi_parser_finish(&rd);
}

int shogi_usi_read(const char *data, size_t len, const char *name, struct shogi_record ***out,
                   struct shogi_record_error *err)
{
    char *text = shogi_text_to_utf8(data, len, NULL);
    char **lines = NULL;
    int n = text ? shogi_split_lines(text, &lines) : -1;
    struct shogi_record **games = NULL;
    int ngames = 0;
    bool ok = n >= 0;
    for (int i = 0; ok && i < n; i++) {
        const char *p = lines[i];
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '#' || *p == '\'') continue;
        struct shogi_record *r = usi_line(p, i + 1, name, err);
        struct shogi_record **g = r ? realloc(games, (size_t)(ngames + 1) * sizeof *g) : NULL;
        if (!g) {
            shogi_record_free(r);
            ok = false;
            break;
        }
        games = g;
        games[ngames++] = r;
    }
    if (ok && ngames == 0) {
        ok = false;
        if (err) {
            err->line = 0;
            snprintf(err->message, sizeof err->message, "%s: no USI position found",
                     name ? name : "<memory>");
        }
    }
    free(lines);
    free(text);
    if (!ok) {
        shogi_records_free(games, ngames);
        return -1;
    }
    *out = games;
    return ngames;
}

char *shogi_usi_write(const struct shogi_record *r)
{
    struct shogi_buf b = {0};
    if (shogi_handicap_of(&r->start) == SHOGI_HC_EVEN && r->start.ply == 1) {
        shogi_buf_puts(&b, "position startpos");
    } else {
        char sfen[SHOGI_SFEN_MAX];
        shogi_buf_printf(&b, "position sfen %s", shogi_sfen_format(&r->start, sfen, sizeof sfen));
    }
    if (r->nmoves) shogi_buf_puts(&b, " moves");
    for (int i = 0; i < r->nmoves; i++) {
        char u[8];
        shogi_buf_printf(&b, " %s", shogi_move_to_usi(r->moves[i].move, u));
    }
    return shogi_buf_take(&b);
}

/* record/shogi_record.h — shogi game records: one format-neutral record, readers for KIF/KIFU, KI2,
 * CSA (V2.2 and V3.0), USI/SFEN and JKF, writers for KIF, CSA V2.2, JKF and USI.
 *
 * Every reader replays the moves through board/shogi.h: that fills in captured pieces and
 * promotions, resolves KI2's relative words (右 左 直 上 寄 引 打) against the legal moves, and
 * judges each move. An illegal move stays in the record (the record says what was played) with the
 * board's verdict; only text that is no record at all is an error, and the error names the line
 * ("game.kif:12: ..."). Branches (変化) are read past; the main line is kept. */
#ifndef KIFUCAM_RECORD_SHOGI_RECORD_H
#define KIFUCAM_RECORD_SHOGI_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/shogi.h"

/* How a record ends, in the words the formats use. "Side to move" is the player whose turn it is
 * after the last move, the one the terminal line stands in for. */
enum shogi_record_end {
    SHOGI_REC_END_NONE = 0,     /* the moves just stop */
    SHOGI_REC_END_RESIGN,       /* 投了 %TORYO: the side to move resigns */
    SHOGI_REC_END_INTERRUPT,    /* 中断 %CHUDAN */
    SHOGI_REC_END_SENNICHITE,   /* 千日手 %SENNICHITE */
    SHOGI_REC_END_JISHOGI,      /* 持将棋 %JISHOGI */
    SHOGI_REC_END_MATE,         /* 詰み %TSUMI: the side to move is mated */
    SHOGI_REC_END_NO_MATE,      /* 不詰 %FUZUMI (tsume problems) */
    SHOGI_REC_END_TIME_UP,      /* 切れ負け %TIME_UP: the side to move lost on time */
    SHOGI_REC_END_ILLEGAL_LOSS, /* 反則負け %ILLEGAL_MOVE: the side to move loses by a foul */
    SHOGI_REC_END_ILLEGAL_WIN,  /* 反則勝ち %±ILLEGAL_ACTION: the other side fouled */
    SHOGI_REC_END_DECLARE_WIN,  /* 入玉勝ち %KACHI: the side to move declares and wins */
    SHOGI_REC_END_DRAW,         /* 引き分け %HIKIWAKE */
    SHOGI_REC_END_MAX_MOVES,    /* 最大手数 %MAX_MOVES (CSA V3) */
    SHOGI_REC_END_SEALED,       /* 封じ手: the game is adjourned */
    SHOGI_REC_END_DEFAULT_WIN,  /* 不戦勝 */
    SHOGI_REC_END_DEFAULT_LOSS, /* 不戦敗 */
    SHOGI_REC_END_TAKEBACK,     /* %MATTA */
    SHOGI_REC_END_ERROR,        /* %ERROR */
    SHOGI_REC_END_COUNT
};

/* The KIF word ("投了"), CSA word ("%TORYO", NULL if CSA has none) and JKF special ("TORYO"). */
const char *shogi_record_end_kif(enum shogi_record_end e);
const char *shogi_record_end_csa(enum shogi_record_end e);
const char *shogi_record_end_jkf(enum shogi_record_end e);

enum shogi_format {
    SHOGI_FORMAT_UNKNOWN = 0,
    SHOGI_FORMAT_KIF,
    SHOGI_FORMAT_KI2,
    SHOGI_FORMAT_CSA,
    SHOGI_FORMAT_USI, /* "position startpos moves …", "sfen … moves …", or a bare SFEN */
    SHOGI_FORMAT_JKF
};
const char *shogi_format_name(enum shogi_format f); /* "KIF", "KI2", … */

struct shogi_record_move {
    struct shogi_move move;       /* what the record says was played (piece, captured filled in) */
    struct shogi_verdict verdict; /* SHOGI_LEGAL, or the rule the move breaks (board/shogi.h) */
    bool played;                  /* replayed on the board; false when it was not even playable
                                     (no such piece there, not in hand): later moves then see the
                                     position before it */
    int64_t time_ms;              /* time spent on this move, -1 when the record has none */
    int64_t total_ms;             /* that player's total so far, -1 when absent */
    char *comment;                /* UTF-8, lines joined with '\n'; NULL when none */
    int line;                     /* source line (1-based), 0 when built in memory */
};

struct shogi_record_tag {
    char *key, *value; /* KIF header key (Japanese, e.g. "対局ID") and its text, UTF-8 */
};

/* A problem met while reading: an illegal move (ply > 0) or a line that was skipped. */
struct shogi_record_note {
    int line, ply;
    char text[200];
};

struct shogi_record {
    /* Game information, UTF-8, NULL when absent. Named after the KIF header keys; CSA and JKF
     * headers map onto the same fields ($EVENT -> event, N+ -> black …). */
    char *start_time;    /* 開始日時 $START_TIME, as written ("2014/10/13 18:51:20") */
    char *end_time;      /* 終了日時 $END_TIME */
    char *event;         /* 棋戦 $EVENT */
    char *title;         /* 表題 */
    char *site;          /* 場所 $SITE */
    char *opening;       /* 戦型 $OPENING */
    char *time_control;  /* 持ち時間 ("各5時間"), or CSA's $TIME_LIMIT / $TIME text */
    char *byoyomi;       /* 秒読み */
    char *black, *white; /* 先手/下手 N+, 後手/上手 N- */
    char *black_short, *white_short; /* 先手省略名 後手省略名 */
    char *note;                      /* 備考 */
    struct shogi_record_tag *tags;   /* every other header, in file order */
    int ntags;

    /* The start: a standard handicap (enum shogi_handicap, SHOGI_HC_EVEN for 平手) or -1 for any
     * other position (BOD diagram, CSA P1..P9, SFEN); start always holds the position. */
    int handicap;
    struct shogi_position start;

    char *head_comment;              /* comments before the first move */
    struct shogi_record_move *moves; /* moves[k - 1] is ply k */
    int nmoves, cap;

    struct {
        enum shogi_record_end kind;
        int64_t time_ms, total_ms; /* -1 when absent */
        char *comment;
    } end;

    /* What reading found. */
    int first_illegal; /* ply of the first illegal move, 0 when all are legal */
    struct shogi_record_note *notes;
    int nnotes;
    int branches_skipped;     /* 変化 blocks read past */
    enum shogi_format format; /* the format it was read from */
    const char *charset;      /* "UTF-8", "CP932" (Shift-JIS) */
};

/* Errors name the place: "game.kif:12: unreadable move line". */
struct shogi_record_error {
    int line; /* 0 when the trouble is not on one line */
    char message[256];
};

/* ---- building and freeing ------------------------------------------------------------------ */

/* A new empty record starting from a standard handicap (SHOGI_HC_EVEN for 平手) or, when start is
 * not NULL, from that position (handicap is then recognised from it). NULL on out of memory. */
struct shogi_record *shogi_record_new(int handicap, const struct shogi_position *start);
void shogi_record_free(struct shogi_record *r);
void shogi_records_free(struct shogi_record **v, int n); /* each record, then the array */

/* Set a header by its KIF key: the named fields for their keys, the tag list for others. */
bool shogi_record_set(struct shogi_record *r, const char *key, const char *value);
const char *shogi_record_get(const struct shogi_record *r, const char *key);

/* Append a move with its times (-1 when unknown) and judge it against the position the record
 * has reached. m.piece and m.captured are filled from that position when left 0. Returns the
 * verdict (the move is appended either way). */
struct shogi_verdict shogi_record_append(struct shogi_record *r, struct shogi_move m,
                                         int64_t time_ms, int64_t total_ms);
/* The position after the first `ply` moves (only moves that were playable change it). */
void shogi_record_position(const struct shogi_record *r, int ply, struct shogi_position *pos);
/* Same moves (from, to, piece, promotion) and same start? For format cross-checks. */
bool shogi_record_same_moves(const struct shogi_record *a, const struct shogi_record *b);

/* ---- reading ----------------------------------------------------------------------------------
 * data need not be NUL-terminated; name is used in messages (a path, or "<memory>"). Shift-JIS
 * and UTF-8 (with or without BOM) are told apart by content. */

struct shogi_record *shogi_kif_read(const char *data, size_t len, const char *name,
                                    struct shogi_record_error *err);
struct shogi_record *shogi_ki2_read(const char *data, size_t len, const char *name,
                                    struct shogi_record_error *err);
/* CSA files may hold several games separated by '/': returns how many, or -1. */
int shogi_csa_read(const char *data, size_t len, const char *name, struct shogi_record ***out,
                   struct shogi_record_error *err);
/* One game per non-empty line: "position startpos moves 7g7f …", "startpos moves …",
 * "sfen <SFEN> moves …", "position sfen <SFEN> …" or a bare SFEN. Returns the count, or -1. */
int shogi_usi_read(const char *data, size_t len, const char *name, struct shogi_record ***out,
                   struct shogi_record_error *err);
struct shogi_record *shogi_jkf_read(const char *data, size_t len, const char *name,
                                    struct shogi_record_error *err);

/* The format of a file by its extension (.kif .kifu .ki2 .ki2u .csa .jkf .usi .sfen), else by
 * its content. */
enum shogi_format shogi_format_detect(const char *name, const char *data, size_t len);
/* Read whatever format it is; returns the number of games (≥ 1) or -1 with err filled. */
int shogi_record_read(const char *data, size_t len, const char *name, struct shogi_record ***out,
                      struct shogi_record_error *err);
int shogi_record_read_file(const char *path, struct shogi_record ***out,
                           struct shogi_record_error *err);

/* ---- writing --------------------------------------------------------------------------------
 * Each returns a malloc'd NUL-terminated text (NULL on out of memory). */

/* KIF as Kifu for Windows writes it. charset NULL or "UTF-8" gives .kifu text; "CP932" (or
 * "SHIFT_JIS") gives the bytes of a .kif file. */
char *shogi_kif_write(const struct shogi_record *r, const char *charset);
char *shogi_csa_write(const struct shogi_record *r); /* CSA V2.2, UTF-8 text (ASCII + names) */
char *shogi_jkf_write(const struct shogi_record *r); /* JKF 1.0, UTF-8 */
/* "position startpos moves …" or "position sfen <SFEN> moves …" (no newline). */
char *shogi_usi_write(const struct shogi_record *r);

/* ---- shared by the readers and writers (not for callers) ------------------------------------ */

struct shogi_buf {
    char *data;
    size_t len, cap;
    bool failed;
};
void shogi_buf_putn(struct shogi_buf *b, const char *s, size_t n);
void shogi_buf_puts(struct shogi_buf *b, const char *s);
void shogi_buf_putc(struct shogi_buf *b, char c);
void shogi_buf_printf(struct shogi_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *shogi_buf_take(struct shogi_buf *b); /* the text (never NULL unless out of memory) */

bool shogi_is_utf8(const char *data, size_t len);
char *shogi_text_to_utf8(const char *data, size_t len, const char **charset);
char *shogi_text_from_utf8(const char *utf8, const char *charset);
int shogi_split_lines(char *text, char ***lines); /* in place; returns the count or -1 */
unsigned shogi_utf8_next(const char **s);         /* next code point, 0 at the end */
bool shogi_starts_with(const char *s, const char *prefix);
const char *shogi_skip_space(const char *s);
char *shogi_strdup_trim(const char *s, size_t n); /* n = (size_t)-1 for the whole string */

/* Kanji and full-width numerals. */
int shogi_kanji_digit(const char **s);  /* １..９, 1..9 or 一..九 -> 1..9, else 0 (s unmoved) */
int shogi_kanji_number(const char **s); /* 十七, 二, 18 … -> value, 0 if none */
/* A piece name (歩 と 成香 杏 龍 竜 王 …) -> type, advancing s; SHOGI_NO_TYPE if none. */
enum shogi_type shogi_kanji_piece(const char **s);
const char *shogi_kif_piece_name(enum shogi_type t); /* 歩 … 龍, promoted lance 成香 */
const char *shogi_kif_digit(int d);                  /* "１" … "９" */
const char *shogi_kanji_numeral(int d);              /* "一" … "九" */

/* Parsing state shared by the record readers (not vision's shogi_reader): a record being filled and
 * the game it is replayed on. */
struct shogi_parser {
    struct shogi_record *rec;
    struct shogi_game game;
    const char *name;
    struct shogi_record_error *err;
    int last_to; /* destination of the previous move (for 同), -1 before the first */
};
bool shogi_parser_init(struct shogi_parser *rd, const char *name, struct shogi_record_error *err,
                       enum shogi_format format);
/* Start over from another position (BOD, P1..P9, SFEN) or handicap; keeps the headers. */
void shogi_parser_set_start(struct shogi_parser *rd, int handicap,
                            const struct shogi_position *pos);
/* Judge m against the game, append it to the record and play it if playable. */
struct shogi_record_move *shogi_parser_play(struct shogi_parser *rd, struct shogi_move m, int line);
struct shogi_record *shogi_parser_finish(struct shogi_parser *rd); /* hands the record over */
void shogi_parser_abort(struct shogi_parser *rd);
bool shogi_parser_fail(struct shogi_parser *rd, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4))); /* fills err; returns false */
void shogi_parser_note(struct shogi_parser *rd, int line, int ply, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* KIF and KI2: the text decoded to UTF-8 (charset noted in the record) and split into lines.
 * Returns the line count; -1 (the reader failed and was aborted) when out of memory. Free *lines,
 * *text. */
int shogi_parser_lines(struct shogi_parser *rd, const char *data, size_t len, char **text,
                       char ***lines);
/* KIF and KI2: branches (変化) are read past and counted. True when line p belongs to a branch (or
 * starts one) and is thereby taken care of. */
bool shogi_parser_skip_branch(struct shogi_parser *rd, bool *in_branch, const char *p);
/* Append text to a comment (joined with '\n'). */
void shogi_comment_add(char **comment, const char *text);
/* KIF-style header line handling shared by KIF and KI2: key：value. Returns true if it was one. */
bool shogi_kif_header_line(struct shogi_parser *rd, const char *line, int lineno);
/* BOD diagram (board rows, 持駒 lines, 手番) into a position, shared by KIF and KI2. */
struct shogi_bod {
    struct shogi_position pos;
    bool seen_board, seen_hand;
    int rows;
    bool gote_to_move;
};
/* Consume a BOD line into bod; true if it was one. */
bool shogi_bod_line(struct shogi_bod *bod, const char *line);
/* The KI2/KIF summary line "まで61手で中断" -> terminal kind, given the side to move then. */
enum shogi_record_end shogi_kif_summary_end(const char *line, enum shogi_color to_move);
/* Terminal word at s (投了, 中断 …), SHOGI_REC_END_NONE if none; advances s. */
enum shogi_record_end shogi_kif_end_word(const char **s);

/* The JSON reader for JKF: a tree of values. */
enum shogi_json_type {
    SHOGI_JSON_NULL = 0,
    SHOGI_JSON_BOOL,
    SHOGI_JSON_NUMBER,
    SHOGI_JSON_STRING,
    SHOGI_JSON_ARRAY,
    SHOGI_JSON_OBJECT
};
struct shogi_json {
    enum shogi_json_type type;
    bool boolean;
    double number;
    char *string; /* UTF-8, NUL-terminated */
    size_t length;
    struct shogi_json *items; /* array items or object values */
    char **keys;              /* object keys */
    int n;
};
struct shogi_json *shogi_json_parse(const char *data, size_t len, char *err, size_t errlen);
void shogi_json_free(struct shogi_json *v);
const struct shogi_json *shogi_json_get(const struct shogi_json *obj, const char *key);
void shogi_json_put_string(struct shogi_buf *b, const char *s);

#endif

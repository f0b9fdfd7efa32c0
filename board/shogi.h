/* board/shogi.h — the shogi rules core: positions, SFEN, handicaps, moves, legality with reasons,
 * make/unmake, check and mate, repetition (千日手, 連続王手の千日手), entering king (入玉),
 * results.
 *
 * Pure functions over in-memory positions; no I/O. One rule set (JSA 対局規定) with the tournament
 * variations as parameters (struct shogi_rules).
 *
 * Squares follow the shogi convention seen from sente (先手, black, moves first in an even game):
 * file 1..9 counted from the right, rank 1..9 (一..九) from the top. Square index
 * sq = (file - 1) * 9 + (rank - 1), so 0 = 1一 (USI "1a"), 80 = 9九 (USI "9i").
 * Sente's pieces move towards rank 1; sente's promotion zone is ranks 1..3, gote's 7..9. */
#ifndef KIFUCAM_BOARD_SHOGI_H
#define KIFUCAM_BOARD_SHOGI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHOGI_SQUARES   81
#define SHOGI_HAND      81  /* shogi_move.from of a drop */
#define SHOGI_NO_SQUARE 255 /* e.g. king_sq of a side without a king (tsume problems) */
#define SHOGI_MAX_MOVES 600 /* the most legal moves known in a position is 593 */

static inline int shogi_sq(int file, int rank)
{
    return (file - 1) * 9 + (rank - 1);
}
static inline int shogi_sq_file(int sq)
{
    return sq / 9 + 1;
}
static inline int shogi_sq_rank(int sq)
{
    return sq % 9 + 1;
}

/* ---- pieces ------------------------------------------------------------------------------- */

enum shogi_color { SHOGI_SENTE = 0, SHOGI_GOTE = 1 }; /* 先手/下手 (black), 後手/上手 (white) */

/* Piece types. A promoted type is its base type + 8 (SHOGI_PROMOTED). GOLD and KING never promote.
 */
enum shogi_type {
    SHOGI_NO_TYPE = 0,
    SHOGI_PAWN = 1,        /* 歩 FU */
    SHOGI_LANCE = 2,       /* 香 KY */
    SHOGI_KNIGHT = 3,      /* 桂 KE */
    SHOGI_SILVER = 4,      /* 銀 GI */
    SHOGI_BISHOP = 5,      /* 角 KA */
    SHOGI_ROOK = 6,        /* 飛 HI */
    SHOGI_GOLD = 7,        /* 金 KI */
    SHOGI_KING = 8,        /* 玉/王 OU */
    SHOGI_TOKIN = 9,       /* と TO */
    SHOGI_PRO_LANCE = 10,  /* 成香 NY */
    SHOGI_PRO_KNIGHT = 11, /* 成桂 NK */
    SHOGI_PRO_SILVER = 12, /* 成銀 NG */
    SHOGI_HORSE = 13,      /* 馬 UM */
    SHOGI_DRAGON = 14,     /* 龍 RY */
    SHOGI_TYPES = 15
};
#define SHOGI_PROMOTED   8
#define SHOGI_HAND_TYPES 8 /* hand[] is indexed by SHOGI_PAWN..SHOGI_GOLD; [0] unused */

/* A piece code is type | owner << 4: sente's pieces 1..14, gote's 17..30, 0 = empty square. */
#define SHOGI_EMPTY 0
static inline int shogi_piece(enum shogi_color c, enum shogi_type t)
{
    return (int)t | (int)c << 4;
}
static inline enum shogi_type shogi_piece_type(int piece)
{
    return (enum shogi_type)(piece & 15);
}
static inline enum shogi_color shogi_piece_color(int piece)
{
    return (enum shogi_color)(piece >> 4 & 1);
}
static inline bool shogi_type_can_promote(enum shogi_type t)
{
    return t >= SHOGI_PAWN && t <= SHOGI_ROOK;
}
static inline bool shogi_type_is_promoted(enum shogi_type t)
{
    return t >= SHOGI_TOKIN;
}
/* The base type (what a captured piece becomes in hand); KING stays KING. */
static inline enum shogi_type shogi_type_base(enum shogi_type t)
{
    return t >= SHOGI_TOKIN ? (enum shogi_type)(t - SHOGI_PROMOTED) : t;
}
/* Ranks counted from the owner's side: rank 1 is the last rank for sente, rank 9 for gote. */
static inline bool shogi_in_zone(enum shogi_color c, int sq)
{
    int r = shogi_sq_rank(sq);
    return c == SHOGI_SENTE ? r <= 3 : r >= 7;
}

/* ---- positions ---------------------------------------------------------------------------- */

/* 81-square bitboard, bit sq (squares 0..62 in lo, 63..80 in bits 0..17 of hi). */
struct shogi_bb {
    uint64_t lo, hi;
};

struct shogi_position {
    uint8_t board[SHOGI_SQUARES];      /* piece codes, SHOGI_EMPTY = 0 */
    uint8_t hand[2][SHOGI_HAND_TYPES]; /* [color][SHOGI_PAWN..SHOGI_GOLD] pieces in hand */
    uint8_t side;                      /* enum shogi_color to move */
    int ply;                           /* SFEN move number: 1 before the first move */
    /* Derived state, kept by shogi_do_move/shogi_undo_move. After writing board/hand/side by hand,
     * call shogi_position_refresh(). */
    uint8_t king_sq[2]; /* SHOGI_NO_SQUARE when that side has no king */
    struct shogi_bb by_color[2];
    struct shogi_bb by_type[SHOGI_TYPES]; /* both colours */
    uint64_t key;                         /* Zobrist hash of board, hands and side to move */
};

void shogi_position_clear(struct shogi_position *pos); /* empty board and hands, sente to move */
void shogi_position_refresh(struct shogi_position *pos);
void shogi_position_startpos(struct shogi_position *pos); /* 平手 */
/* Board, both hands and side to move equal (ply ignored) — the 千日手 notion of "same position". */
bool shogi_position_same(const struct shogi_position *a, const struct shogi_position *b);

/* Does the position obey the rules of a game position? (at most one king each, no more pieces of a
 * type than a set has, no dead piece, no two unpromoted pawns of one side on a file, the side not
 * to move not in check). On failure writes a reason into err (if err). */
bool shogi_position_valid(const struct shogi_position *pos, char *err, size_t errlen);

/* ---- SFEN (USI) ------------------------------------------------------------------------------ */

#define SHOGI_SFEN_STARTPOS "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#define SHOGI_SFEN_MAX      160 /* bytes incl. NUL, enough for any position */

/* Parse "BOARD SIDE HAND [PLY]" (also accepts the word "startpos" and a leading "sfen "). Sets
 * *end (if end) just past what was read, so "... moves 7g7f" can follow. Returns false and writes
 * a clear reason into err on a syntax error or an invalid position (shogi_position_valid). */
bool shogi_sfen_parse(struct shogi_position *pos, const char *sfen, const char **end, char *err,
                      size_t errlen);
/* Write the SFEN of pos into buf (SHOGI_SFEN_MAX bytes is always enough); returns buf. */
char *shogi_sfen_format(const struct shogi_position *pos, char *buf, size_t len);

/* ---- handicaps (駒落ち) -------------------------------------------------------------------- */

enum shogi_handicap {
    SHOGI_HC_EVEN,       /* 平手 HIRATE */
    SHOGI_HC_LANCE,      /* 香落ち KY */
    SHOGI_HC_LANCE_R,    /* 右香落ち KY_R */
    SHOGI_HC_BISHOP,     /* 角落ち KA */
    SHOGI_HC_ROOK,       /* 飛車落ち HI */
    SHOGI_HC_ROOK_LANCE, /* 飛香落ち HIKY */
    SHOGI_HC_2,          /* 二枚落ち 2 */
    SHOGI_HC_3,          /* 三枚落ち 3 */
    SHOGI_HC_4,          /* 四枚落ち 4 */
    SHOGI_HC_5,          /* 五枚落ち 5 */
    SHOGI_HC_5_L,        /* 左五枚落ち 5_L */
    SHOGI_HC_6,          /* 六枚落ち 6 */
    SHOGI_HC_7_L,        /* 左七枚落ち 7_L */
    SHOGI_HC_7_R,        /* 右七枚落ち 7_R */
    SHOGI_HC_8,          /* 八枚落ち 8 */
    SHOGI_HC_10,         /* 十枚落ち 10 */
    SHOGI_HC_COUNT
};

struct shogi_handicap_info {
    enum shogi_handicap id;
    const char *ja;   /* KIF 手合割 value, e.g. "香落ち" */
    const char *en;   /* English, e.g. "Lance" */
    const char *jkf;  /* JKF initial.preset, e.g. "KY" */
    const char *sfen; /* start position; 上手 (gote) moves first in every handicap game */
};
const struct shogi_handicap_info *shogi_handicap_info(enum shogi_handicap id);
/* Look a handicap up by any of its names (Japanese, English, JKF code, case-insensitive ASCII;
 * "平手", "even", "HIRATE" …). NULL when unknown. */
const struct shogi_handicap_info *shogi_handicap_find(const char *name);
/* Which handicap start is pos (board, hands, side)? -1 when none. */
int shogi_handicap_of(const struct shogi_position *pos);
bool shogi_handicap_position(enum shogi_handicap id, struct shogi_position *pos);

/* ---- moves ----------------------------------------------------------------------------------- */

struct shogi_move {
    uint8_t from;     /* square, or SHOGI_HAND for a drop */
    uint8_t to;       /* square */
    uint8_t piece;    /* the moving piece before promotion (or the dropped piece), with owner */
    uint8_t captured; /* the piece on `to` before the move (with owner), SHOGI_EMPTY if none */
    bool promote;
};

static inline bool shogi_move_is_drop(struct shogi_move m)
{
    return m.from == SHOGI_HAND;
}
static inline bool shogi_move_equal(struct shogi_move a, struct shogi_move b)
{
    return a.from == b.from && a.to == b.to && a.piece == b.piece && a.promote == b.promote;
}

/* USI notation: "7g7f", "8h2b+", "P*5e". Writing needs 6 bytes. Parsing fills piece and captured
 * from pos and checks only the syntax and that there is a piece to move (legality:
 * shogi_check_move). A drop's piece belongs to the side to move. */
char *shogi_move_to_usi(struct shogi_move m, char buf[6]);
bool shogi_move_from_usi(const struct shogi_position *pos, const char *usi, struct shogi_move *m);

/* ---- legality ------------------------------------------------------------------------------ */

/* Why a move is illegal: numbered after the seed tournament rules ("Als illegale Züge zählen:
 * 1) … 9)") with the JSA 対局規定 反則 where there is one. */
enum shogi_illegal {
    SHOGI_LEGAL = 0,
    SHOGI_ILLEGAL_DEAD_PIECE = 1, /* 1) 行き所のない駒: P/L to the last rank, N to the last two */
    SHOGI_ILLEGAL_NIFU = 2,       /* 2) 二歩 */
    SHOGI_ILLEGAL_UCHIFUZUME = 3,      /* 3) 打ち歩詰め: mate by a dropped pawn */
    SHOGI_ILLEGAL_PERPETUAL_CHECK = 4, /* 4) 連続王手の千日手 */
    SHOGI_ILLEGAL_IMPOSSIBLE = 5,      /* 5) 駒の動きの違反: see enum shogi_fault */
    SHOGI_ILLEGAL_TAKEBACK = 6,        /* 6) 待った: taking back a finished move (rule guard) */
    SHOGI_ILLEGAL_OPPONENT_PIECE = 7,  /* 7) moving an opponent's piece */
    SHOGI_ILLEGAL_KING_IN_CHECK = 8, /* 8) 王手放置 / 自殺手: king left in or moved into check */
    SHOGI_ILLEGAL_OUT_OF_TURN = 9 /* 9) 二手指し: moving in the opponent's time */
};

/* The detail behind a verdict (mostly for 5). */
enum shogi_fault {
    SHOGI_FAULT_NONE = 0,
    SHOGI_FAULT_BAD_SQUARE,    /* square out of range */
    SHOGI_FAULT_NO_PIECE,      /* nothing on the from square */
    SHOGI_FAULT_WRONG_PIECE,   /* move.piece is not what stands on the from square */
    SHOGI_FAULT_CANNOT_REACH,  /* the piece does not move that way */
    SHOGI_FAULT_JUMP,          /* a ranging piece jumped over another piece */
    SHOGI_FAULT_OWN_CAPTURE,   /* capturing one's own piece */
    SHOGI_FAULT_NOT_IN_HAND,   /* dropping a piece one does not have */
    SHOGI_FAULT_DROP_OCCUPIED, /* dropping onto an occupied square */
    SHOGI_FAULT_PROMOTED_DROP, /* dropping a promoted piece (or a king) */
    SHOGI_FAULT_PROMOTE_ZONE,  /* promoting with neither square in the promotion zone */
    SHOGI_FAULT_PROMOTE_TYPE,  /* promoting a gold, king or promoted piece */
    SHOGI_FAULT_UNPROMOTE,     /* a promoted piece turned back */
    SHOGI_FAULT_DEAD_PIECE,    /* see SHOGI_ILLEGAL_DEAD_PIECE */
    SHOGI_FAULT_NIFU,
    SHOGI_FAULT_UCHIFUZUME,
    SHOGI_FAULT_LEFT_IN_CHECK, /* the mover's king was in check and still is */
    SHOGI_FAULT_INTO_CHECK,    /* the move puts the mover's own king in check */
    SHOGI_FAULT_OPPONENT_PIECE,
    SHOGI_FAULT_OUT_OF_TURN,
    SHOGI_FAULT_PERPETUAL_CHECK,
    SHOGI_FAULT_TAKEBACK
};

struct shogi_verdict {
    enum shogi_illegal rule;
    enum shogi_fault fault;
};

/* Is m legal in pos? Who moved: a move whose piece (m.piece) belongs to the side not to move is
 * 9) (that side moved in the opponent's time; shogi_move_from_usi produces this for a record that
 * has one side move twice); a move claimed by the side to move (m.piece of its colour) from a
 * square holding an opponent's piece is 7). m.piece == 0 means "whatever stands on from". For a
 * drop, m.piece's colour is the dropper. Repetition (4) needs the history: shogi_game_check. */
struct shogi_verdict shogi_check_move(const struct shogi_position *pos, struct shogi_move m);
bool shogi_is_legal(const struct shogi_position *pos, struct shogi_move m);

/* "5) impossible move: promoted drop" style text; names in English with the Japanese term. */
const char *shogi_illegal_name(enum shogi_illegal rule);
const char *shogi_fault_text(enum shogi_fault fault);

/* All legal moves (out holds SHOGI_MAX_MOVES); returns how many. Promotion and non-promotion are
 * separate moves where both are allowed. */
int shogi_legal_moves(const struct shogi_position *pos, struct shogi_move *out);

/* ---- make / unmake, check, mate ------------------------------------------------------------ */

/* Plays m (which must be shogi_move_is_playable: m.piece on from and m.captured on to, or the
 * piece in hand) without checking legality, so an illegal move can still be replayed: a captured
 * piece goes to the hand of m.piece's owner (a king does not), a dropped promoted piece stands
 * promoted and its base piece leaves the hand. The side to move flips. Unmake with the same m. */
void shogi_do_move(struct shogi_position *pos, struct shogi_move m);
void shogi_undo_move(struct shogi_position *pos, struct shogi_move m);
bool shogi_move_is_playable(const struct shogi_position *pos, struct shogi_move m);

bool shogi_in_check(const struct shogi_position *pos); /* side to move */
bool shogi_gives_check(const struct shogi_position *pos, struct shogi_move m);
bool shogi_is_mate(const struct shogi_position *pos); /* in check and no legal move (詰み) */
/* Is square sq attacked by a piece of colour by? */
bool shogi_attacked(const struct shogi_position *pos, int sq, enum shogi_color by);

/* perft: the number of leaf nodes of the legal move tree of the given depth. */
uint64_t shogi_perft(struct shogi_position *pos, int depth);
/* Like shogi_perft, calling fn once per root move with its count. */
uint64_t shogi_perft_divide(struct shogi_position *pos, int depth,
                            void (*fn)(struct shogi_move m, uint64_t nodes, void *ctx), void *ctx);

/* ---- from what the camera sees to moves ----------------------------------------------------- */

/* The legal moves that turn before into (after_board, after_hand); after_hand may be NULL when the
 * hands were not seen. Returns the number found (at most max written to out). */
int shogi_find_moves(const struct shogi_position *before, const uint8_t after_board[SHOGI_SQUARES],
                     const uint8_t (*after_hand)[SHOGI_HAND_TYPES], struct shogi_move *out,
                     int max);
/* The one move, legal or not, that explains the change of the board (1 square changed: a drop;
 * 2 squares: a move or a capture; the piece's orientation on the board names its owner). Returns
 * false when the change is not a single move. *v gets the verdict on it: shogi_check_move, or 5)
 * when the piece changed in a way no move can (un-promotion, a silver that became a gold). A drop
 * of a promoted piece comes back with m.piece promoted (playable: the base piece leaves the hand).
 */
bool shogi_infer_move(const struct shogi_position *before, const uint8_t after_board[SHOGI_SQUARES],
                      struct shogi_move *m, struct shogi_verdict *v);

/* ---- rules, repetition, entering king, results ---------------------------------------------- */

enum shogi_entering {
    SHOGI_ENTERING_24, /* JSA 持将棋: when both kings have entered and neither can be mated the
                          game may be declared 持将棋; under 24 points loses, else no result */
    SHOGI_ENTERING_27, /* 27-point declaration (入玉宣言法): see shogi_declare */
    SHOGI_ENTERING_REFEREE /* seed tournament practice: both kings in the enemy camps -> call the
                              referee (a draw unless mate is forced) */
};

struct shogi_rules {
    enum shogi_entering entering;
    int repetition_count;       /* the occurrence that ends the game: 4 (JSA) */
    bool perpetual_check_loses; /* 連続王手の千日手 is a loss for the checking side (JSA) */
};
extern const struct shogi_rules shogi_rules_jsa;        /* 24-point 持将棋 */
extern const struct shogi_rules shogi_rules_tournament; /* the seed tournament: referee */

enum shogi_end {
    SHOGI_END_NONE = 0,
    SHOGI_END_MATE,            /* 詰み */
    SHOGI_END_RESIGN,          /* 投了 */
    SHOGI_END_SENNICHITE,      /* 千日手: no result, replay with colours swapped */
    SHOGI_END_PERPETUAL_CHECK, /* 連続王手の千日手: the checking side loses */
    SHOGI_END_JISHOGI,         /* 持将棋 (24-point count) */
    SHOGI_END_DECLARATION,     /* 入玉宣言 (27-point rule) */
    SHOGI_END_ILLEGAL,         /* 反則負け */
    SHOGI_END_TIME,            /* 切れ負け / time */
    SHOGI_END_REFEREE          /* referee called (tournament entering-king practice) */
};

enum shogi_result {
    SHOGI_RESULT_NONE = 0, /* the game goes on */
    SHOGI_RESULT_SENTE_WINS,
    SHOGI_RESULT_GOTE_WINS,
    SHOGI_RESULT_NO_RESULT, /* 無勝負 (千日手, 持将棋): replayed */
    SHOGI_RESULT_DRAW,      /* counted as a draw (tournament) */
    SHOGI_RESULT_REFEREE    /* the referee decides */
};

struct shogi_outcome {
    enum shogi_end end;
    enum shogi_result result;
};

const char *shogi_end_name(enum shogi_end end);       /* "詰み (mate)" … */
const char *shogi_result_name(enum shogi_result res); /* "sente wins" … */
static inline enum shogi_result shogi_win_for(enum shogi_color c)
{
    return c == SHOGI_SENTE ? SHOGI_RESULT_SENTE_WINS : SHOGI_RESULT_GOTE_WINS;
}

/* Entering king. Points: rook, bishop and their promotions 5, every other piece 1, king 0. */
bool shogi_king_entered(const struct shogi_position *pos, enum shogi_color c);
int shogi_points_total(const struct shogi_position *pos, enum shogi_color c);   /* board + hand */
int shogi_points_in_camp(const struct shogi_position *pos, enum shogi_color c); /* camp + hand */
/* 27-point declaration by c (the side to move): wins if the king is in the enemy camp, not in
 * check, at least 10 other pieces of c are in the enemy camp and the camp+hand points reach 28
 * (sente) / 27 (gote); a wrong declaration loses. (Time left on the clock is the caller's.) */
struct shogi_outcome shogi_declare(const struct shogi_position *pos, enum shogi_color c);
/* 24-point 持将棋 count, when both agree to it: a side under 24 points loses, else no result. */
struct shogi_outcome shogi_jishogi_24(const struct shogi_position *pos);

/* A game: start position, moves, and per ply the position key and whether the move gave check —
 * what repetition needs. */
struct shogi_ply {
    struct shogi_move move;
    uint64_t key;        /* key of the position after the move */
    bool check;          /* the move gave check */
    uint8_t side_before; /* side to move before it (a move out of turn does not pass the turn) */
    uint8_t mover;       /* who made it: the colour of move.piece, or the side to move for 7) */
    struct shogi_verdict verdict;
};

struct shogi_game {
    struct shogi_rules rules;
    struct shogi_position start, pos; /* pos = start + moves */
    struct shogi_ply *plies;
    int n, cap;
    struct shogi_outcome outcome; /* set once the game has ended on the board; the first
                                     ending stands (a foul found later fixes the result at
                                     the foul, JSA 第8条 2) */
    int outcome_ply;              /* the ply that ended it (0: not ended) */
    int referee_ply;              /* SHOGI_ENTERING_REFEREE: first ply with both kings in
                                     the enemy camps (0: not yet) */
};

void shogi_game_init(struct shogi_game *g, const struct shogi_position *start,
                     const struct shogi_rules *rules);
void shogi_game_free(struct shogi_game *g);
/* The verdict for m in the game so far, incl. 4) 連続王手の千日手 when m completes the repetition
 * and all of the mover's moves in the cycle were checks. */
struct shogi_verdict shogi_game_check(const struct shogi_game *g, struct shogi_move m);
/* Play m (playable, legal or not: recorders keep illegal moves) and update the outcome: mate,
 * 千日手, 連続王手の千日手 (the side whose moves were all checks loses, whichever moved last),
 * the referee call of SHOGI_ENTERING_REFEREE, and an illegal move (反則負け of the mover).
 * Returns the verdict on m; false from the move not being playable is reported as
 * SHOGI_ILLEGAL_IMPOSSIBLE and the move is not played. */
struct shogi_verdict shogi_game_play(struct shogi_game *g, struct shogi_move m);
bool shogi_game_undo(struct shogi_game *g); /* take the last move back */
/* End the game from outside the board (投了, time, 持将棋 or 入玉宣言 outcomes, the referee):
 * false, and nothing changes, when it has ended already. */
bool shogi_game_end(struct shogi_game *g, struct shogi_outcome o);

/* How often the current position occurred in the game (1 = first time). */
int shogi_game_repetitions(const struct shogi_game *g);
/* The repetition verdict of the current position: SHOGI_END_NONE, SHOGI_END_SENNICHITE (no
 * result) or SHOGI_END_PERPETUAL_CHECK (result names the winner). */
struct shogi_outcome shogi_game_repetition(const struct shogi_game *g);

/* ---- names ----------------------------------------------------------------------------------- */

const char *shogi_type_csa(enum shogi_type t); /* "FU" … "RY", NULL for SHOGI_NO_TYPE */
enum shogi_type shogi_type_from_csa(const char *two_letters); /* SHOGI_NO_TYPE when unknown */
const char *shogi_type_kanji(enum shogi_type t); /* "歩" … "龍" (UTF-8), KING "玉" */
char shogi_type_sfen(enum shogi_type t);         /* 'P' … 'K' (base letter; '+' separately) */

#endif

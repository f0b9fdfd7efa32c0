/* board/shogi_text.c — names: piece codes (CSA, kanji), rule and fault texts, ends and results. */
#include <string.h>

#include "board/shogi_internal.h"

static const char *const csa[SHOGI_TYPES] = {NULL, "FU", "KY", "KE", "GI", "KA", "HI", "KI",
                                             "OU", "TO", "NY", "NK", "NG", "UM", "RY"};
static const char *const kanji[SHOGI_TYPES] = {NULL, "歩", "香",   "桂",   "銀",   "角", "飛", "金",
                                               "玉", "と", "成香", "成桂", "成銀", "馬", "龍"};

const char *shogi_type_csa(enum shogi_type t)
{
    return (unsigned)t < SHOGI_TYPES ? csa[t] : NULL;
}

enum shogi_type shogi_type_from_csa(const char *s)
{
    if (!s) return SHOGI_NO_TYPE;
    for (int t = 1; t < SHOGI_TYPES; t++)
        if (s[0] == csa[t][0] && s[1] == csa[t][1]) return (enum shogi_type)t;
    return SHOGI_NO_TYPE;
}

const char *shogi_type_kanji(enum shogi_type t)
{
    return (unsigned)t < SHOGI_TYPES ? kanji[t] : NULL;
}

const char *shogi_illegal_name(enum shogi_illegal rule)
{
    switch (rule) {
    case SHOGI_LEGAL: return "legal";
    case SHOGI_ILLEGAL_DEAD_PIECE: return "1) dead piece (行き所のない駒)";
    case SHOGI_ILLEGAL_NIFU: return "2) two pawns on a file (二歩)";
    case SHOGI_ILLEGAL_UCHIFUZUME: return "3) mate by a dropped pawn (打ち歩詰め)";
    case SHOGI_ILLEGAL_PERPETUAL_CHECK: return "4) perpetual check (連続王手の千日手)";
    case SHOGI_ILLEGAL_IMPOSSIBLE: return "5) impossible move (駒の動きの違反)";
    case SHOGI_ILLEGAL_TAKEBACK: return "6) taking back a move (待った)";
    case SHOGI_ILLEGAL_OPPONENT_PIECE: return "7) moving an opponent's piece";
    case SHOGI_ILLEGAL_KING_IN_CHECK: return "8) king left in check (王手放置/自殺手)";
    case SHOGI_ILLEGAL_OUT_OF_TURN: return "9) moving in the opponent's time (二手指し)";
    }
    return "unknown rule";
}

const char *shogi_fault_text(enum shogi_fault fault)
{
    switch (fault) {
    case SHOGI_FAULT_NONE: return "";
    case SHOGI_FAULT_BAD_SQUARE: return "no such square";
    case SHOGI_FAULT_NO_PIECE: return "no piece on the square moved from";
    case SHOGI_FAULT_WRONG_PIECE: return "the piece is not the one on the square moved from";
    case SHOGI_FAULT_CANNOT_REACH: return "the piece does not move that way";
    case SHOGI_FAULT_JUMP: return "the piece jumped over another piece";
    case SHOGI_FAULT_OWN_CAPTURE: return "captured one's own piece";
    case SHOGI_FAULT_NOT_IN_HAND: return "dropped a piece that is not in hand";
    case SHOGI_FAULT_DROP_OCCUPIED: return "dropped onto an occupied square";
    case SHOGI_FAULT_PROMOTED_DROP: return "dropped a piece promoted (持ち駒は生駒で打つ)";
    case SHOGI_FAULT_PROMOTE_ZONE: return "promoted outside the promotion zone";
    case SHOGI_FAULT_PROMOTE_TYPE: return "promoted a piece that cannot promote";
    case SHOGI_FAULT_UNPROMOTE: return "turned a promoted piece back";
    case SHOGI_FAULT_DEAD_PIECE: return "the piece could never move again";
    case SHOGI_FAULT_NIFU: return "a second unpromoted pawn on the file";
    case SHOGI_FAULT_UCHIFUZUME: return "the pawn drop mates";
    case SHOGI_FAULT_LEFT_IN_CHECK: return "the king was in check and still is";
    case SHOGI_FAULT_INTO_CHECK: return "the move puts the own king in check";
    case SHOGI_FAULT_OPPONENT_PIECE: return "moved the opponent's piece";
    case SHOGI_FAULT_OUT_OF_TURN: return "moved when it was the opponent's turn";
    case SHOGI_FAULT_PERPETUAL_CHECK:
        return "the same position a 4th time, all of the mover's moves in it checks";
    case SHOGI_FAULT_TAKEBACK: return "took back a finished move";
    }
    return "";
}

const char *shogi_end_name(enum shogi_end end)
{
    switch (end) {
    case SHOGI_END_NONE: return "none";
    case SHOGI_END_MATE: return "詰み (mate)";
    case SHOGI_END_RESIGN: return "投了 (resignation)";
    case SHOGI_END_SENNICHITE: return "千日手 (repetition)";
    case SHOGI_END_PERPETUAL_CHECK: return "連続王手の千日手 (perpetual check)";
    case SHOGI_END_JISHOGI: return "持将棋 (impasse)";
    case SHOGI_END_DECLARATION: return "入玉宣言 (entering-king declaration)";
    case SHOGI_END_ILLEGAL: return "反則負け (illegal move)";
    case SHOGI_END_TIME: return "切れ負け (time)";
    case SHOGI_END_REFEREE: return "referee called (both kings entered)";
    }
    return "unknown";
}

const char *shogi_result_name(enum shogi_result res)
{
    switch (res) {
    case SHOGI_RESULT_NONE: return "game goes on";
    case SHOGI_RESULT_SENTE_WINS: return "sente wins";
    case SHOGI_RESULT_GOTE_WINS: return "gote wins";
    case SHOGI_RESULT_NO_RESULT: return "no result (無勝負)";
    case SHOGI_RESULT_DRAW: return "draw";
    case SHOGI_RESULT_REFEREE: return "referee decides";
    }
    return "unknown";
}

/* board/shogi_find.c — from two positions (what the camera saw before and after) to the move. */
#include <string.h>

#include "board/shogi_internal.h"

int shogi_find_moves(const struct shogi_position *before, const uint8_t after_board[SHOGI_SQUARES],
                     const uint8_t (*after_hand)[SHOGI_HAND_TYPES], struct shogi_move *out, int max)
{
    struct shogi_move list[SHOGI_MAX_MOVES];
    int n = shogi_gen_legal(before, list), found = 0;
    struct shogi_position p = *before;
    for (int i = 0; i < n; i++) {
        struct shogi_move m = list[i];
        /* only moves that touch a changed square can match: skip the rest cheaply */
        if (after_board[m.to] == before->board[m.to]) continue;
        shogi_do_move(&p, m);
        bool same = !memcmp(p.board, after_board, SHOGI_SQUARES);
        if (same && after_hand)
            for (int c = 0; c < 2 && same; c++)
                for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++)
                    if (p.hand[c][t] != after_hand[c][t]) same = false;
        shogi_undo_move(&p, m);
        if (same) {
            if (found < max) out[found] = m;
            found++;
        }
    }
    return found;
}

bool shogi_infer_move(const struct shogi_position *before, const uint8_t after_board[SHOGI_SQUARES],
                      struct shogi_move *m, struct shogi_verdict *v)
{
    int changed[3], nc = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (before->board[sq] != after_board[sq]) {
            if (nc == 2) return false;
            changed[nc++] = sq;
        }
    struct shogi_move r = {0, 0, 0, 0, false};
    struct shogi_verdict ok = {SHOGI_LEGAL, SHOGI_FAULT_NONE};
    if (nc == 1) { /* a drop: an empty square now holds a piece */
        int sq = changed[0], p = after_board[sq];
        if (before->board[sq] || !p || (p & ~31) || !shogi_piece_type(p)) return false;
        r.from = SHOGI_HAND;
        r.to = (uint8_t)sq;
        r.piece = (uint8_t)p;
        *m = r;
        *v = shogi_check_move(before, r);
        return true;
    }
    if (nc != 2) return false;
    int a = changed[0], b = changed[1];
    if (after_board[a]) { /* make a the emptied square */
        int t = a;
        a = b;
        b = t;
    }
    int p = before->board[a], q = after_board[b];
    if (!p || after_board[a] || !q || shogi_piece_color(p) != shogi_piece_color(q)) return false;
    r.from = (uint8_t)a;
    r.to = (uint8_t)b;
    r.piece = (uint8_t)p;
    r.captured = before->board[b];
    int tp = shogi_piece_type(p), tq = shogi_piece_type(q);
    *v = ok;
    if (tq == tp) {
        r.promote = false;
    } else if (shogi_type_can_promote((enum shogi_type)tp) && tq == tp + SHOGI_PROMOTED) {
        r.promote = true;
    } else {
        v->rule = SHOGI_ILLEGAL_IMPOSSIBLE;
        v->fault = shogi_type_is_promoted((enum shogi_type)tp) && tq == tp - SHOGI_PROMOTED
                       ? SHOGI_FAULT_UNPROMOTE
                       : SHOGI_FAULT_WRONG_PIECE;
    }
    *m = r;
    if (v->rule == SHOGI_LEGAL) *v = shogi_check_move(before, r);
    return true;
}

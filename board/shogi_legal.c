/* board/shogi_legal.c — is a given move legal, and if not, which rule does it break. */
#include "board/shogi_internal.h"

static struct shogi_verdict verdict(enum shogi_illegal rule, enum shogi_fault fault)
{
    struct shogi_verdict v = {rule, fault};
    return v;
}
#define IMPOSSIBLE(f) verdict(SHOGI_ILLEGAL_IMPOSSIBLE, (f))

/* Would the mover's king be attacked after the (playable) move? */
static struct shogi_verdict king_safety(const struct shogi_position *pos, struct shogi_move m,
                                        enum shogi_color mover)
{
    int k0 = pos->king_sq[mover];
    bool was_in_check =
        k0 != SHOGI_NO_SQUARE && shogi_attacked(pos, k0, (enum shogi_color)(mover ^ 1));
    struct shogi_position p = *pos;
    shogi_do_move(&p, m);
    int k = p.king_sq[mover];
    if (k != SHOGI_NO_SQUARE && shogi_attacked(&p, k, (enum shogi_color)(mover ^ 1)))
        return verdict(SHOGI_ILLEGAL_KING_IN_CHECK,
                       was_in_check ? SHOGI_FAULT_LEFT_IN_CHECK : SHOGI_FAULT_INTO_CHECK);
    return verdict(SHOGI_LEGAL, SHOGI_FAULT_NONE);
}

static bool has_pawn_on_file(const struct shogi_position *pos, enum shogi_color c, int file)
{
    return bb_any(bb_and(pieces_of(pos, c, SHOGI_PAWN), shogi_t.file_bb[file]));
}

static struct shogi_verdict check_drop(const struct shogi_position *pos, struct shogi_move m)
{
    if (!m.piece || (m.piece & ~31)) return IMPOSSIBLE(SHOGI_FAULT_NOT_IN_HAND);
    enum shogi_color c = shogi_piece_color(m.piece);
    enum shogi_type t = shogi_piece_type(m.piece);
    if (c != pos->side) return verdict(SHOGI_ILLEGAL_OUT_OF_TURN, SHOGI_FAULT_OUT_OF_TURN);
    if (t == SHOGI_NO_TYPE || t >= SHOGI_KING || m.promote)
        return IMPOSSIBLE(shogi_type_base(t) >= SHOGI_PAWN && shogi_type_base(t) <= SHOGI_GOLD
                              ? SHOGI_FAULT_PROMOTED_DROP
                              : SHOGI_FAULT_NOT_IN_HAND);
    if (!pos->hand[c][t]) return IMPOSSIBLE(SHOGI_FAULT_NOT_IN_HAND);
    if (pos->board[m.to]) return IMPOSSIBLE(SHOGI_FAULT_DROP_OCCUPIED);
    if (!shogi_piece_can_stand(c, t, m.to))
        return verdict(SHOGI_ILLEGAL_DEAD_PIECE, SHOGI_FAULT_DEAD_PIECE);
    if (t == SHOGI_PAWN && has_pawn_on_file(pos, c, shogi_sq_file(m.to)))
        return verdict(SHOGI_ILLEGAL_NIFU, SHOGI_FAULT_NIFU);
    struct shogi_verdict v = king_safety(pos, m, c);
    if (v.rule != SHOGI_LEGAL) return v;
    if (t == SHOGI_PAWN && shogi_pawn_drop_mates(pos, m.to))
        return verdict(SHOGI_ILLEGAL_UCHIFUZUME, SHOGI_FAULT_UCHIFUZUME);
    return v;
}

static struct shogi_verdict check_board_move(const struct shogi_position *pos, struct shogi_move m)
{
    int p = pos->board[m.from];
    if (!p) return IMPOSSIBLE(SHOGI_FAULT_NO_PIECE);
    enum shogi_color owner = shogi_piece_color(p);
    if (m.piece && m.piece != p) {
        /* the side to move claims a piece that is the opponent's: moving the opponent's piece */
        if (shogi_piece_color(m.piece) == pos->side && owner != pos->side &&
            shogi_piece_type(m.piece) == shogi_piece_type(p))
            return verdict(SHOGI_ILLEGAL_OPPONENT_PIECE, SHOGI_FAULT_OPPONENT_PIECE);
        /* a promoted piece moved as its unpromoted self: it was turned back */
        if (shogi_piece_color(m.piece) == owner && shogi_type_is_promoted(shogi_piece_type(p)) &&
            shogi_piece_type(m.piece) == shogi_type_base(shogi_piece_type(p)))
            return IMPOSSIBLE(SHOGI_FAULT_UNPROMOTE);
        return IMPOSSIBLE(SHOGI_FAULT_WRONG_PIECE);
    }
    if (owner != pos->side) return verdict(SHOGI_ILLEGAL_OUT_OF_TURN, SHOGI_FAULT_OUT_OF_TURN);
    int captured = pos->board[m.to];
    if (captured && shogi_piece_color(captured) == owner)
        return IMPOSSIBLE(SHOGI_FAULT_OWN_CAPTURE);
    enum shogi_type t = shogi_piece_type(p);
    if (!bb_test(piece_attack(owner, t, m.from, occupied(pos)), m.to))
        return IMPOSSIBLE(bb_test(piece_attack(owner, t, m.from, bb_make(0, 0)), m.to)
                              ? SHOGI_FAULT_JUMP
                              : SHOGI_FAULT_CANNOT_REACH);
    if (m.promote) {
        if (!shogi_type_can_promote(t)) return IMPOSSIBLE(SHOGI_FAULT_PROMOTE_TYPE);
        if (!shogi_in_zone(owner, m.from) && !shogi_in_zone(owner, m.to))
            return IMPOSSIBLE(SHOGI_FAULT_PROMOTE_ZONE);
    } else if (!shogi_piece_can_stand(owner, t, m.to)) {
        return verdict(SHOGI_ILLEGAL_DEAD_PIECE, SHOGI_FAULT_DEAD_PIECE);
    }
    struct shogi_move full = m;
    full.piece = (uint8_t)p;
    full.captured = (uint8_t)captured;
    return king_safety(pos, full, owner);
}

struct shogi_verdict shogi_check_move(const struct shogi_position *pos, struct shogi_move m)
{
    if (m.to >= SHOGI_SQUARES || (m.from >= SHOGI_SQUARES && m.from != SHOGI_HAND) ||
        m.from == m.to)
        return IMPOSSIBLE(SHOGI_FAULT_BAD_SQUARE);
    return m.from == SHOGI_HAND ? check_drop(pos, m) : check_board_move(pos, m);
}

bool shogi_is_legal(const struct shogi_position *pos, struct shogi_move m)
{
    return shogi_check_move(pos, m).rule == SHOGI_LEGAL;
}

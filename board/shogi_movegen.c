/* board/shogi_movegen.c — legal move generation (lists and counts), 打ち歩詰め, perft.
 *
 * Legal directly, not pseudo-legal then filtered: in double check only the king moves; in single
 * check the other pieces must capture the checker or interpose, drops interpose; a pinned piece
 * stays on the line through its king; the king never steps onto an attacked square (computed with
 * the king lifted off the board, so a ranging checker still covers the square behind it). */
#include "board/shogi_internal.h"

/* What the generator needs about the side to move. */
struct gen_ctx {
    enum shogi_color us, them;
    int ksq;
    bb_t occ, own, pinned;
    bb_t target;      /* where non-king board moves may land */
    bb_t drop_target; /* where drops may land */
    bool double_check;
};

static void gen_setup(const struct shogi_position *pos, struct gen_ctx *g)
{
    g->us = (enum shogi_color)pos->side;
    g->them = (enum shogi_color)(g->us ^ 1);
    g->ksq = pos->king_sq[g->us];
    g->occ = occupied(pos);
    g->own = pos->by_color[g->us];
    g->double_check = false;
    g->target = bb_andnot(shogi_t.all, g->own);
    g->drop_target = bb_andnot(shogi_t.all, g->occ);
    g->pinned = bb_make(0, 0);
    if (g->ksq == SHOGI_NO_SQUARE) return;
    bb_t checkers = shogi_attackers(pos, g->ksq, g->them, g->occ);
    g->pinned = shogi_pinned(pos, g->us);
    if (!bb_any(checkers)) return;
    if (bb_more_than_one(checkers)) {
        g->double_check = true;
        g->target = g->drop_target = bb_make(0, 0);
        return;
    }
    int chk = bb_lsb(checkers);
    g->drop_target = between(g->ksq, chk);
    g->target = bb_or(g->drop_target, checkers);
}

bool shogi_pawn_drop_mates(const struct shogi_position *pos, int to)
{
    enum shogi_color us = (enum shogi_color)pos->side, them = (enum shogi_color)(us ^ 1);
    int k = pos->king_sq[them];
    if (k == SHOGI_NO_SQUARE || !bb_test(shogi_t.step[us][SHOGI_PAWN][to], k)) return false;
    bb_t occ = bb_or(occupied(pos), bb_sq(to));
    /* can another piece of theirs take the pawn? (a pinned one only along its pin line) */
    bb_t takers = bb_andnot(shogi_attackers(pos, to, them, occ), bb_sq(k));
    if (bb_any(takers)) {
        bb_t pinned = shogi_pinned(pos, them);
        while (bb_any(takers)) {
            int s = bb_pop(&takers);
            if (!bb_test(pinned, s) || shogi_t.dir[k][s] == shogi_t.dir[k][to]) return false;
        }
    }
    /* can the king take it, or step away? */
    bb_t occ_nk = bb_xor(occ, bb_sq(k));
    bb_t esc = bb_andnot(shogi_t.step[them][SHOGI_KING][k], pos->by_color[them]);
    while (bb_any(esc)) {
        int s = bb_pop(&esc);
        if (!bb_any(shogi_attackers(pos, s, us, occ_nk))) return false;
    }
    return true;
}

static inline struct shogi_move mk(int from, int to, int piece, int captured, bool promote)
{
    struct shogi_move m = {(uint8_t)from, (uint8_t)to, (uint8_t)piece, (uint8_t)captured, promote};
    return m;
}

int shogi_gen_legal(const struct shogi_position *pos, struct shogi_move *out)
{
    struct gen_ctx g;
    gen_setup(pos, &g);
    int n = 0;
    const uint8_t *board = pos->board;

    if (g.ksq != SHOGI_NO_SQUARE) {
        bb_t to_bb = bb_andnot(shogi_t.step[g.us][SHOGI_KING][g.ksq], g.own);
        bb_t occ_nk = bb_xor(g.occ, bb_sq(g.ksq));
        while (bb_any(to_bb)) {
            int to = bb_pop(&to_bb);
            if (!bb_any(shogi_attackers(pos, to, g.them, occ_nk)))
                out[n++] = mk(g.ksq, to, board[g.ksq], board[to], false);
        }
    }
    if (g.double_check) return n;

    bb_t zone = shogi_t.zone[g.us];
    for (int t = SHOGI_PAWN; t < SHOGI_TYPES; t++) {
        if (t == SHOGI_KING) continue;
        bb_t from_bb = pieces_of(pos, g.us, t);
        bool can_promote = shogi_type_can_promote((enum shogi_type)t);
        bb_t stand = t == SHOGI_KNIGHT                       ? shogi_t.knight_ok[g.us]
                     : (t == SHOGI_PAWN || t == SHOGI_LANCE) ? shogi_t.pawn_ok[g.us]
                                                             : shogi_t.all;
        int piece = shogi_piece(g.us, (enum shogi_type)t);
        while (bb_any(from_bb)) {
            int from = bb_pop(&from_bb);
            bb_t att = bb_and(piece_attack(g.us, t, from, g.occ), g.target);
            if (bb_test(g.pinned, from))
                att = bb_and(att, shogi_t.ray[g.ksq][shogi_t.dir[g.ksq][from]]);
            bool from_zone = bb_test(zone, from);
            while (bb_any(att)) {
                int to = bb_pop(&att);
                if (can_promote && (from_zone || bb_test(zone, to))) {
                    out[n++] = mk(from, to, piece, board[to], true);
                    if (bb_test(stand, to)) out[n++] = mk(from, to, piece, board[to], false);
                } else {
                    out[n++] = mk(from, to, piece, board[to], false);
                }
            }
        }
    }

    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        if (!pos->hand[g.us][t]) continue;
        bb_t to_bb = g.drop_target;
        if (t == SHOGI_PAWN || t == SHOGI_LANCE) to_bb = bb_and(to_bb, shogi_t.pawn_ok[g.us]);
        if (t == SHOGI_KNIGHT) to_bb = bb_and(to_bb, shogi_t.knight_ok[g.us]);
        if (t == SHOGI_PAWN) {
            bb_t pawns = pieces_of(pos, g.us, SHOGI_PAWN);
            while (bb_any(pawns))
                to_bb = bb_andnot(to_bb, shogi_t.file_bb[shogi_sq_file(bb_pop(&pawns))]);
        }
        int piece = shogi_piece(g.us, (enum shogi_type)t);
        while (bb_any(to_bb)) {
            int to = bb_pop(&to_bb);
            if (t == SHOGI_PAWN && shogi_pawn_drop_mates(pos, to)) continue;
            out[n++] = mk(SHOGI_HAND, to, piece, SHOGI_EMPTY, false);
        }
    }
    return n;
}

int shogi_count_legal(const struct shogi_position *pos)
{
    struct gen_ctx g;
    gen_setup(pos, &g);
    int n = 0;

    if (g.ksq != SHOGI_NO_SQUARE) {
        bb_t to_bb = bb_andnot(shogi_t.step[g.us][SHOGI_KING][g.ksq], g.own);
        bb_t occ_nk = bb_xor(g.occ, bb_sq(g.ksq));
        while (bb_any(to_bb))
            if (!bb_any(shogi_attackers(pos, bb_pop(&to_bb), g.them, occ_nk))) n++;
    }
    if (g.double_check) return n;

    bb_t zone = shogi_t.zone[g.us];
    for (int t = SHOGI_PAWN; t < SHOGI_TYPES; t++) {
        if (t == SHOGI_KING) continue;
        bb_t from_bb = pieces_of(pos, g.us, t);
        bool can_promote = shogi_type_can_promote((enum shogi_type)t);
        bb_t stand = t == SHOGI_KNIGHT                       ? shogi_t.knight_ok[g.us]
                     : (t == SHOGI_PAWN || t == SHOGI_LANCE) ? shogi_t.pawn_ok[g.us]
                                                             : shogi_t.all;
        while (bb_any(from_bb)) {
            int from = bb_pop(&from_bb);
            bb_t att = bb_and(piece_attack(g.us, t, from, g.occ), g.target);
            if (bb_test(g.pinned, from))
                att = bb_and(att, shogi_t.ray[g.ksq][shogi_t.dir[g.ksq][from]]);
            if (!can_promote) {
                n += bb_count(att);
                continue;
            }
            /* promotions where allowed, plus non-promotions where the piece can still move */
            bb_t prom = bb_test(zone, from) ? att : bb_and(att, zone);
            n += bb_count(prom) + bb_count(bb_and(att, stand));
        }
    }

    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        if (!pos->hand[g.us][t]) continue;
        bb_t to_bb = g.drop_target;
        if (t == SHOGI_PAWN || t == SHOGI_LANCE) to_bb = bb_and(to_bb, shogi_t.pawn_ok[g.us]);
        if (t == SHOGI_KNIGHT) to_bb = bb_and(to_bb, shogi_t.knight_ok[g.us]);
        if (t == SHOGI_PAWN) {
            bb_t pawns = pieces_of(pos, g.us, SHOGI_PAWN);
            while (bb_any(pawns))
                to_bb = bb_andnot(to_bb, shogi_t.file_bb[shogi_sq_file(bb_pop(&pawns))]);
            /* only the square in front of their king can be a mate by a pawn drop */
            int k = pos->king_sq[g.them];
            if (k != SHOGI_NO_SQUARE) {
                bb_t front = shogi_t.step[g.them][SHOGI_PAWN][k];
                if (bb_any(bb_and(front, to_bb)) && shogi_pawn_drop_mates(pos, bb_lsb(front))) n--;
            }
        }
        n += bb_count(to_bb);
    }
    return n;
}

int shogi_legal_moves(const struct shogi_position *pos, struct shogi_move *out)
{
    return shogi_gen_legal(pos, out);
}

bool shogi_is_mate(const struct shogi_position *pos)
{
    return shogi_in_check(pos) && shogi_count_legal(pos) == 0;
}

static uint64_t perft_rec(struct shogi_position *pos, int depth)
{
    if (depth == 1) return (uint64_t)shogi_count_legal(pos);
    struct shogi_move list[SHOGI_MAX_MOVES];
    int n = shogi_gen_legal(pos, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        shogi_do_move(pos, list[i]);
        total += perft_rec(pos, depth - 1);
        shogi_undo_move(pos, list[i]);
    }
    return total;
}

uint64_t shogi_perft(struct shogi_position *pos, int depth)
{
    if (depth <= 0) return 1;
    return perft_rec(pos, depth);
}

uint64_t shogi_perft_divide(struct shogi_position *pos, int depth,
                            void (*fn)(struct shogi_move m, uint64_t nodes, void *ctx), void *ctx)
{
    if (depth <= 0) return 1;
    struct shogi_move list[SHOGI_MAX_MOVES];
    int n = shogi_gen_legal(pos, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        shogi_do_move(pos, list[i]);
        uint64_t c = depth == 1 ? 1 : perft_rec(pos, depth - 1);
        shogi_undo_move(pos, list[i]);
        if (fn) fn(list[i], c, ctx);
        total += c;
    }
    return total;
}

/* board/shogi_internal.h — bitboards and attack tables shared by the board/shogi_*.c files. Not for
 * other stages: they use board/shogi.h.
 *
 * Bitboard bit i is square i (file-major: the 9 squares of file f are bits (f-1)*9 .. (f-1)*9+8).
 * Squares 0..62 (files 1-7) live in lo, 63..80 (files 8-9) in bits 0..17 of hi, so no file
 * straddles the two words. Ranging attacks use rays: the ray from sq in direction d, cut behind the
 * nearest blocker (the lowest set bit for directions that raise the index, the highest for the
 * others). */
#ifndef KIFUCAM_BOARD_SHOGI_INTERNAL_H
#define KIFUCAM_BOARD_SHOGI_INTERNAL_H

#include "board/shogi.h"

typedef struct shogi_bb bb_t;

/* Directions: N = towards rank 1 (sente's forward), W = towards file 9 (left as sente sees it). */
enum { DIR_N, DIR_S, DIR_W, DIR_E, DIR_NW, DIR_SW, DIR_NE, DIR_SE, DIR_COUNT, DIR_NONE = 255 };
/* square index step per direction: N -1, S +1, W +9, E -9, NW +8, SW +10, NE -10, SE -8 */

struct shogi_tables {
    bb_t sq_bb[SHOGI_SQUARES + 1]; /* [81] is empty (SHOGI_NO_SQUARE clamps to it) */
    bb_t ray[SHOGI_SQUARES][DIR_COUNT];
    bb_t step[2][SHOGI_TYPES][SHOGI_SQUARES]; /* non-ranging moves (or the step part) per type */
    bb_t file_bb[10];                         /* [1..9] */
    bb_t rank_bb[10];                         /* [1..9] */
    bb_t zone[2];                             /* promotion zones */
    bb_t pawn_ok[2];   /* where an unpromoted pawn or lance may stand: not the last rank */
    bb_t knight_ok[2]; /* ... a knight: not the last two ranks */
    bb_t all;
    uint8_t dir[SHOGI_SQUARES][SHOGI_SQUARES]; /* direction from a to b if on a line, else NONE */
    uint64_t z_board[SHOGI_SQUARES][32];
    uint64_t z_hand[2][SHOGI_HAND_TYPES][32]; /* by count & 31 */
    uint64_t z_side;
};
extern struct shogi_tables shogi_t;
void shogi_tables_init(void); /* idempotent; also run before main */

/* ---- bitboard primitives ----------------------------------------------------------------------
 */

static inline bb_t bb_make(uint64_t lo, uint64_t hi)
{
    bb_t b = {lo, hi};
    return b;
}
static inline bb_t bb_and(bb_t a, bb_t b)
{
    return bb_make(a.lo & b.lo, a.hi & b.hi);
}
static inline bb_t bb_or(bb_t a, bb_t b)
{
    return bb_make(a.lo | b.lo, a.hi | b.hi);
}
static inline bb_t bb_xor(bb_t a, bb_t b)
{
    return bb_make(a.lo ^ b.lo, a.hi ^ b.hi);
}
static inline bb_t bb_andnot(bb_t a, bb_t b) /* a & ~b */
{
    return bb_make(a.lo & ~b.lo, a.hi & ~b.hi);
}
static inline bool bb_any(bb_t a)
{
    return (a.lo | a.hi) != 0;
}
static inline bool bb_more_than_one(bb_t a)
{
    return (a.lo & (a.lo - 1)) || (a.hi & (a.hi - 1)) || (a.lo && a.hi);
}
static inline int bb_count(bb_t a)
{
    return __builtin_popcountll(a.lo) + __builtin_popcountll(a.hi);
}
static inline bb_t bb_sq(int sq)
{
    return shogi_t.sq_bb[sq];
}
static inline bool bb_test(bb_t a, int sq)
{
    return sq < 63 ? (a.lo >> sq & 1) : (a.hi >> (sq - 63) & 1);
}
static inline void bb_set(bb_t *a, int sq)
{
    if (sq < 63)
        a->lo |= 1ULL << sq;
    else
        a->hi |= 1ULL << (sq - 63);
}
static inline void bb_clear(bb_t *a, int sq)
{
    if (sq < 63)
        a->lo &= ~(1ULL << sq);
    else
        a->hi &= ~(1ULL << (sq - 63));
}
static inline int bb_lsb(bb_t a) /* a must not be empty */
{
    return a.lo ? __builtin_ctzll(a.lo) : 63 + __builtin_ctzll(a.hi);
}
static inline int bb_msb(bb_t a)
{
    return a.hi ? 63 + 63 - __builtin_clzll(a.hi) : 63 - __builtin_clzll(a.lo);
}
static inline int bb_pop(bb_t *a) /* remove and return the lowest square */
{
    int sq;
    if (a->lo) {
        sq = __builtin_ctzll(a->lo);
        a->lo &= a->lo - 1;
    } else {
        sq = 63 + __builtin_ctzll(a->hi);
        a->hi &= a->hi - 1;
    }
    return sq;
}

/* ---- attacks -------------------------------------------------------------------------------- */

static inline bool dir_positive(int d)
{
    return d == DIR_S || d == DIR_W || d == DIR_NW || d == DIR_SW;
}

static inline bb_t ray_attack(int sq, int d, bb_t occ)
{
    bb_t r = shogi_t.ray[sq][d];
    bb_t b = bb_and(r, occ);
    if (bb_any(b)) {
        int blk = dir_positive(d) ? bb_lsb(b) : bb_msb(b);
        r = bb_xor(r, shogi_t.ray[blk][d]);
    }
    return r;
}
static inline bb_t lance_attack(enum shogi_color c, int sq, bb_t occ)
{
    return ray_attack(sq, c == SHOGI_SENTE ? DIR_N : DIR_S, occ);
}
static inline bb_t rook_attack(int sq, bb_t occ)
{
    return bb_or(bb_or(ray_attack(sq, DIR_N, occ), ray_attack(sq, DIR_S, occ)),
                 bb_or(ray_attack(sq, DIR_W, occ), ray_attack(sq, DIR_E, occ)));
}
static inline bb_t bishop_attack(int sq, bb_t occ)
{
    return bb_or(bb_or(ray_attack(sq, DIR_NW, occ), ray_attack(sq, DIR_SW, occ)),
                 bb_or(ray_attack(sq, DIR_NE, occ), ray_attack(sq, DIR_SE, occ)));
}
/* Squares a piece of type t and colour c on sq attacks, given the occupancy. */
static inline bb_t piece_attack(enum shogi_color c, int t, int sq, bb_t occ)
{
    switch (t) {
    case SHOGI_LANCE: return lance_attack(c, sq, occ);
    case SHOGI_BISHOP: return bishop_attack(sq, occ);
    case SHOGI_ROOK: return rook_attack(sq, occ);
    case SHOGI_HORSE: return bb_or(bishop_attack(sq, occ), shogi_t.step[c][SHOGI_KING][sq]);
    case SHOGI_DRAGON: return bb_or(rook_attack(sq, occ), shogi_t.step[c][SHOGI_KING][sq]);
    default: return shogi_t.step[c][t][sq];
    }
}
/* Squares strictly between a and b on a line (empty if not on one line). */
static inline bb_t between(int a, int b)
{
    int d = shogi_t.dir[a][b];
    if (d == DIR_NONE) return bb_make(0, 0);
    return bb_xor(bb_xor(shogi_t.ray[a][d], shogi_t.ray[b][d]), bb_sq(b));
}

static inline bb_t pieces_of(const struct shogi_position *pos, enum shogi_color c, int t)
{
    return bb_and(pos->by_color[c], pos->by_type[t]);
}
static inline bb_t occupied(const struct shogi_position *pos)
{
    return bb_or(pos->by_color[0], pos->by_color[1]);
}

/* The pieces of colour by that attack sq, given the occupancy occ. */
bb_t shogi_attackers(const struct shogi_position *pos, int sq, enum shogi_color by, bb_t occ);
/* Pieces of colour c that stand alone between c's king and an enemy ranging piece. */
bb_t shogi_pinned(const struct shogi_position *pos, enum shogi_color c);

/* Pawn drop at `to` by the side to move gives mate (打ち歩詰め)? Only meaningful when the pawn
 * gives check. */
bool shogi_pawn_drop_mates(const struct shogi_position *pos, int to);

/* Can a piece of type t (unpromoted, colour c) stand on sq and still move later? */
static inline bool shogi_piece_can_stand(enum shogi_color c, int t, int sq)
{
    int r = c == SHOGI_SENTE ? shogi_sq_rank(sq) : 10 - shogi_sq_rank(sq);
    if (t == SHOGI_PAWN || t == SHOGI_LANCE) return r > 1;
    if (t == SHOGI_KNIGHT) return r > 2;
    return true;
}

/* Legal move generation (no pseudo-legal stage) behind perft and shogi_legal_moves. */
int shogi_gen_legal(const struct shogi_position *pos, struct shogi_move *out);
/* Number of legal moves, counted without listing drops one by one. */
int shogi_count_legal(const struct shogi_position *pos);

#endif

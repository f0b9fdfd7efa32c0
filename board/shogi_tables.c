/* board/shogi_tables.c — bitboard masks, rays, step attacks and Zobrist keys, computed once before
 * main (a constructor), so every reader sees finished tables without locking. */
#include "board/shogi_internal.h"

struct shogi_tables shogi_t;

static const int dir_df[DIR_COUNT] = {0, 0, 1, -1, 1, 1, -1, -1}; /* file step */
static const int dir_dr[DIR_COUNT] = {-1, 1, 0, 0, -1, 1, -1, 1}; /* rank step */

static bool on_board(int f, int r)
{
    return f >= 1 && f <= 9 && r >= 1 && r <= 9;
}

/* Step moves for sente as (file, rank) offsets; gote mirrors the rank. */
struct step {
    int df, dr;
};
static const struct step pawn_steps[] = {{0, -1}};
static const struct step knight_steps[] = {{1, -2}, {-1, -2}};
static const struct step silver_steps[] = {{0, -1}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1}};
static const struct step gold_steps[] = {{0, -1}, {1, -1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}};
static const struct step king_steps[] = {{0, -1}, {1, -1}, {-1, -1}, {1, 0},
                                         {-1, 0}, {0, 1},  {1, 1},   {-1, 1}};

static void set_steps(int type, const struct step *st, int n)
{
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            bb_t b = {0, 0};
            int f = shogi_sq_file(sq), r = shogi_sq_rank(sq);
            for (int i = 0; i < n; i++) {
                int nf = f + st[i].df, nr = r + (c == SHOGI_SENTE ? st[i].dr : -st[i].dr);
                if (on_board(nf, nr)) bb_set(&b, shogi_sq(nf, nr));
            }
            shogi_t.step[c][type][sq] = b;
        }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng_next(void) /* xorshift64*: fixed seed, so keys are the same in every run */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

void shogi_tables_init(void)
{
    static bool done;
    if (done) return;
    done = true;

    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        bb_set(&shogi_t.sq_bb[sq], sq);
        bb_set(&shogi_t.all, sq);
        bb_set(&shogi_t.file_bb[shogi_sq_file(sq)], sq);
        bb_set(&shogi_t.rank_bb[shogi_sq_rank(sq)], sq);
        for (int c = 0; c < 2; c++) {
            if (shogi_in_zone((enum shogi_color)c, sq)) bb_set(&shogi_t.zone[c], sq);
            if (shogi_piece_can_stand((enum shogi_color)c, SHOGI_PAWN, sq))
                bb_set(&shogi_t.pawn_ok[c], sq);
            if (shogi_piece_can_stand((enum shogi_color)c, SHOGI_KNIGHT, sq))
                bb_set(&shogi_t.knight_ok[c], sq);
        }
    }
    for (int a = 0; a < SHOGI_SQUARES; a++) {
        for (int b = 0; b < SHOGI_SQUARES; b++) shogi_t.dir[a][b] = DIR_NONE;
        for (int d = 0; d < DIR_COUNT; d++) {
            bb_t r = {0, 0};
            int f = shogi_sq_file(a) + dir_df[d], k = shogi_sq_rank(a) + dir_dr[d];
            for (; on_board(f, k); f += dir_df[d], k += dir_dr[d]) {
                bb_set(&r, shogi_sq(f, k));
                shogi_t.dir[a][shogi_sq(f, k)] = (uint8_t)d;
            }
            shogi_t.ray[a][d] = r;
        }
    }
    set_steps(SHOGI_PAWN, pawn_steps, 1);
    set_steps(SHOGI_KNIGHT, knight_steps, 2);
    set_steps(SHOGI_SILVER, silver_steps, 5);
    set_steps(SHOGI_GOLD, gold_steps, 6);
    set_steps(SHOGI_KING, king_steps, 8);
    set_steps(SHOGI_TOKIN, gold_steps, 6);
    set_steps(SHOGI_PRO_LANCE, gold_steps, 6);
    set_steps(SHOGI_PRO_KNIGHT, gold_steps, 6);
    set_steps(SHOGI_PRO_SILVER, gold_steps, 6);
    set_steps(SHOGI_HORSE, king_steps, 8);  /* step part only; the ranging part is computed */
    set_steps(SHOGI_DRAGON, king_steps, 8); /* likewise */

    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        for (int p = 0; p < 32; p++) shogi_t.z_board[sq][p] = (p & 15) ? rng_next() : 0;
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < SHOGI_HAND_TYPES; t++)
            for (int n = 0; n < 32; n++) shogi_t.z_hand[c][t][n] = n ? rng_next() : 0;
    shogi_t.z_side = rng_next();
}

__attribute__((constructor)) static void tables_at_start(void)
{
    shogi_tables_init();
}

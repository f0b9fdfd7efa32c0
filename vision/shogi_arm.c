/* vision/shogi_arm.c — where a hand is over the board: an arm comes over the board's rim, so
 * cells changed since the last settled view that join a changed piece of the rim are covered,
 * and a hand is large, so an unsure cell between covered ones is covered too. A hand over an
 * empty cell or over a piece looks like a piece or an empty cell too often to be read. */
#include <math.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

/* A hand is large: an unsure cell beside two covered ones is covered too (a knuckle over half a
 * cell is read as a piece far too easily). */
void shogi_grow_covered(struct observation *o)
{
    bool add[OBS_POINTS] = {false};
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x, n = 0;
            if (o->occluded[p] || o->conf[p] >= 0.9f) continue;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx, yy = y + dy;
                    if ((dx || dy) && xx >= 0 && yy >= 0 && xx < 9 && yy < 9)
                        n += o->occluded[yy * OBS_MAX + xx];
                }
            add[p] = n >= 2;
        }
    o->noccluded = 0;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x;
            if (add[p]) {
                o->occluded[p] = true;
                o->point[p] = 0;
                o->conf[p] = 0;
            }
            o->noccluded += o->occluded[p];
        }
}

/* The rim piece s (side s / 9: top, bottom, left, right; k = s % 9 along it) as grey samples
 * (0 outside the image): the band from 0.3 to 0.6 cells outside the outer line (nearer, the
 * pieces of the edge rank lean over it in an oblique view). */
static void sample_rim(const struct shogi_reader *r, const struct vision_image *gray, int s,
                       uint8_t out[SHOGI_RIM])
{
    int side = s / 9, k = s % 9, n = 0;
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 4; b++) {
            double t = k + 0.0625 + 0.125 * a, d = 0.3 + 0.1 * b, x, y;
            if (side < 2) {
                x = t;
                y = side == 0 ? -d : 9 + d;
            } else {
                y = t;
                x = side == 2 ? -d : 9 + d;
            }
            double v = shogi_gray_at(&r->grid, gray, x, y);
            out[n++] = (uint8_t)(v < 0 ? 0 : v + 0.5);
        }
}

/* Mean absolute difference of two rim pieces about their mean difference (as sig_change). */
static double rim_change(const uint8_t *a, const uint8_t *b)
{
    int sum = 0;
    for (int i = 0; i < SHOGI_RIM; i++) sum += a[i] - b[i];
    double mean = (double)sum / SHOGI_RIM, dev = 0;
    for (int i = 0; i < SHOGI_RIM; i++) dev += fabs(a[i] - b[i] - mean);
    return dev / SHOGI_RIM;
}

/* A rim piece that changed and then stayed so this long is the table's new look (something put
 * down beside the board), not an arm. A weak change (under RIM_WEAK_GAIN times the threshold)
 * is adopted much sooner: a resting hand changes the rim by 15-70 levels, while a piece put on
 * the komadai by the rim's end, or the shadow of a piece that left the edge rank, changes it by
 * a little over the threshold and would otherwise hold the cells beside it covered for the whole
 * time, merging the next move into the same view. */
#define RIM_ADOPT_NS      2000000000LL
#define RIM_ADOPT_WEAK_NS 250000000LL
#define RIM_WEAK_GAIN     2.0
/* A rim piece that changed and then stayed so this long, beside edge cells that have not moved
 * for as long either, is no arm: a hand placing a piece moves, while the shadow of a player
 * leaning in after a move (or a piece's shadow over the rim) lies still. Held as an arm for
 * RIM_ADOPT_NS, it kept the cells of the move beside it covered and the next move came before
 * the view settled (player films: three moves in one view, a silver named a gold). */
#define RIM_STILL_NS 700000000LL
/* A rim piece has changed past this many times the noise plus this many levels (some six of
 * noise's standard deviations over 32 samples; an arm changes it by 15-25 levels). */
#define RIM_NOISE_GAIN 1.8
#define RIM_MIN_CHANGE 3.0
/* More rim pieces than this changed at once is no arm (one is two or three cells wide). */
#define RIM_ARM_MAX 12

/* When the edge cells beside rim piece s (the cell it lies beside and its two neighbours along
 * the edge) last moved. */
static int64_t rim_cells_moved_ns(const struct shogi_reader *r, int s)
{
    int side = s / 9, k = s % 9;
    int64_t last = 0;
    for (int j = k - 1; j <= k + 1; j++) {
        if (j < 0 || j > 8) continue;
        int x = side < 2 ? j : side == 2 ? 0 : 8, y = side < 2 ? (side == 0 ? 0 : 8) : j;
        int64_t t = r->cell_moved_ns[shogi_sq(9 - x, y + 1)];
        if (t > last) last = t;
    }
    return last;
}

/* Cells an arm lies over: those changed since the last settled view that join, through changed
 * cells, a changed piece of the rim (or the picture's edge). A hand comes over the rim; a move
 * alone changes two cells and no rim, so the view still settles. A hand over an empty cell or
 * over a piece looks like a piece or an empty cell too often to be read. */
void shogi_cover_arm(struct shogi_reader *r, const struct vision_image *gray, struct observation *o)
{
    bool rim[4 * 9], changed[SHOGI_SQUARES], reached[SHOGI_SQUARES] = {false};
    /* 32 samples scatter more than a cell's 64: noise must not pass for an arm */
    double rim_thr = RIM_NOISE_GAIN * r->sig_noise + RIM_MIN_CHANGE;
    for (int s = 0; s < 4 * 9; s++) {
        memcpy(r->rim_prev[s], r->rim_now[s], SHOGI_RIM);
        sample_rim(r, gray, s, r->rim_now[s]);
        if (!r->ref_valid || rim_change(r->rim_now[s], r->rim_prev[s]) > rim_thr)
            r->rim_still_ns[s] = gray->t_ns;
        bool weak = rim_change(r->rim_now[s], r->rim_ref[s]) < RIM_WEAK_GAIN * rim_thr;
        int64_t adopt = weak ? RIM_ADOPT_WEAK_NS : RIM_ADOPT_NS;
        if (gray->t_ns - rim_cells_moved_ns(r, s) > RIM_STILL_NS && adopt > RIM_STILL_NS)
            adopt = RIM_STILL_NS;
        if (r->ref_valid && gray->t_ns - r->rim_still_ns[s] > adopt)
            memcpy(r->rim_ref[s], r->rim_now[s], SHOGI_RIM);
    }
    int nrim = 0;
    for (int s = 0; s < 4 * 9; s++)
        nrim += r->ref_valid && rim_change(r->rim_now[s], r->rim_ref[s]) > rim_thr;
    /* an arm crosses the rim in one place; the rim changed all round is the board knocked or
     * the light changed: what is seen now becomes the reference */
    if (r->ref_valid && nrim > RIM_ARM_MAX) r->jolt_ns = gray->t_ns;
    r->rim_nchanged = nrim;
    if (!r->ref_valid || nrim > RIM_ARM_MAX) {
        r->rim_nchanged = -1;
        memcpy(r->rim_ref, r->rim_now, sizeof r->rim_ref);
        memcpy(r->sig_ref, r->sig_now, sizeof r->sig_ref);
        r->ref_valid = true;
        return;
    }
    for (int s = 0; s < 4 * 9; s++) rim[s] = rim_change(r->rim_now[s], r->rim_ref[s]) > rim_thr;
    int stack[SHOGI_SQUARES], top = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int x = 9 - shogi_sq_file(sq), y = shogi_sq_rank(sq) - 1;
        changed[sq] = shogi_sig_change(r->sig_now[sq], r->sig_ref[sq]) > r->sig_thr;
        if (!changed[sq]) continue;
        /* the picture's edge is a rim too: an arm comes in over a cell out of the picture (a
           partial view), while a cell there that changed and then stayed so is a move (a piece
           put down where it is only partly seen), not an arm */
        bool src = !r->seen[sq] && gray->t_ns - r->cell_moved_ns[sq] <= RIM_ADOPT_NS;
        for (int k = x - 1; k <= x + 1 && !src; k++)
            if (k >= 0 && k < 9) src = (y == 0 && rim[k]) || (y == 8 && rim[9 + k]);
        for (int k = y - 1; k <= y + 1 && !src; k++)
            if (k >= 0 && k < 9) src = (x == 0 && rim[18 + k]) || (x == 8 && rim[27 + k]);
        if (src) {
            reached[sq] = true;
            stack[top++] = sq;
        }
    }
    while (top) {
        int sq = stack[--top], f = shogi_sq_file(sq), k = shogi_sq_rank(sq);
        for (int df = -1; df <= 1; df++)
            for (int dk = -1; dk <= 1; dk++) {
                int ff = f + df, kk = k + dk;
                if (ff < 1 || ff > 9 || kk < 1 || kk > 9) continue;
                int q = shogi_sq(ff, kk);
                if (changed[q] && !reached[q]) {
                    reached[q] = true;
                    stack[top++] = q;
                }
            }
    }
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (!reached[sq]) continue;
        int p = shogi_obs_point(sq);
        o->occluded[p] = true;
        o->point[p] = 0;
        o->conf[p] = 0;
    }
}

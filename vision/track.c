/* vision/track.c — cheap frame-to-frame tracking of a found grid.
 *
 * Between two empty neighbouring points the grid line must be darker than the board just beside
 * it. The share of such line samples that are (the grid-line contrast) is near 1 when the grid
 * sits on the board's lines and about 1/3 when it is off them. A small bump shifts the board by a
 * few pixels: the tracker tries small shifts and keeps the best; when even the best is poor, the
 * caller searches the board from scratch. A few hundred bilinear samples per shift. */
#include <math.h>
#include <stddef.h>

#include "vision/vision_internal.h"

static double score_shift(const uint8_t *gray, int w, int h, const struct grid *g,
                          const uint8_t *prev, double sx, double sy)
{
    int n = g->n, good = 0, total = 0;
    int step = n > 13 ? 2 : 1; /* every other row/column is plenty for 19x19 */
    for (int fam = 0; fam < 2; fam++)
        for (int a = 0; a < n; a += 1)
            for (int b = (a % step); b + 1 < n; b += step) {
                /* fam 0: segment from (b, a) to (b + 1, a); fam 1: (a, b) to (a, b + 1) */
                int x0 = fam ? a : b, y0 = fam ? b : a, x1 = fam ? a : b + 1, y1 = fam ? b + 1 : a;
                if (prev &&
                    (prev[y0 * OBS_MAX + x0] != OBS_EMPTY || prev[y1 * OBS_MAX + x1] != OBS_EMPTY))
                    continue;
                double mu = (x0 + x1) / 2.0, mv = (y0 + y1) / 2.0, px, py, ax, ay, bx, by;
                hom_apply(g->H, mu, mv, &px, &py);
                hom_apply(g->H, mu + (fam ? 0.3 : 0), mv + (fam ? 0 : 0.3), &ax, &ay);
                hom_apply(g->H, mu - (fam ? 0.3 : 0), mv - (fam ? 0 : 0.3), &bx, &by);
                double l = grid_grey_at(gray, w, h, px + sx, py + sy);
                double o1 = grid_grey_at(gray, w, h, ax + sx, ay + sy);
                double o2 = grid_grey_at(gray, w, h, bx + sx, by + sy);
                if (l < 0 || o1 < 0 || o2 < 0) continue;
                total++;
                good += l + 3 < o1 && l + 3 < o2;
            }
    return total >= 8 ? (double)good / total : 0;
}

double track_score(const uint8_t *gray, int w, int h, const struct grid *g, const uint8_t *prev)
{
    return score_shift(gray, w, h, g, prev, 0, 0);
}

double track_nudge(const uint8_t *gray, int w, int h, struct grid *g, const uint8_t *prev,
                   int max_shift)
{
    double best = score_shift(gray, w, h, g, prev, 0, 0);
    if (best > 0.85) return best; /* nothing moved */
    int bx = 0, by = 0;
    for (int dy = -max_shift; dy <= max_shift; dy++)
        for (int dx = -max_shift; dx <= max_shift; dx++) {
            if (!dx && !dy) continue;
            double s = score_shift(gray, w, h, g, prev, dx, dy);
            if (s > best + 0.02) best = s, bx = dx, by = dy;
        }
    if (bx || by) {
        double T[9] = {1, 0, bx, 0, 1, by, 0, 0, 1}, out[9];
        hom_mul(T, g->H, out);
        for (int k = 0; k < 9; k++) g->H[k] = out[k];
    }
    return best;
}

/* g's homography moved in the image by (dx, dy) px and turned by rad about the grid's centre. */
static void moved(const struct grid *g, double dx, double dy, double rad, double out[9])
{
    double cx, cy, c = cos(rad), s = sin(rad);
    hom_apply(g->H, (g->n - 1) / 2.0, (g->n - 1) / 2.0, &cx, &cy);
    /* x' = c (x - cx) - s (y - cy) + cx + dx, y' = s (x - cx) + c (y - cy) + cy + dy */
    double M[9] = {c, -s, cx - c * cx + s * cy + dx, s, c, cy - s * cx - c * cy + dy, 0, 0, 1};
    hom_mul(M, g->H, out);
}

static double score_moved(const uint8_t *gray, int w, int h, const struct grid *g,
                          const uint8_t *prev, double dx, double dy, double rad)
{
    struct grid m = *g;
    moved(g, dx, dy, rad, m.H);
    return score_shift(gray, w, h, &m, prev, 0, 0);
}

double track_follow(const uint8_t *gray, int w, int h, struct grid *g, const uint8_t *prev,
                    int reach, double turn_deg)
{
    double best = score_shift(gray, w, h, g, prev, 0, 0), bx = 0, by = 0, br = 0;
    /* coarse shifts, finer ones around the best, the turns there, the finer shifts again */
    for (int dy = -reach; dy <= reach; dy += 2)
        for (int dx = -reach; dx <= reach; dx += 2) {
            double s = score_moved(gray, w, h, g, prev, dx, dy, 0);
            if (s > best) best = s, bx = dx, by = dy;
        }
    for (int pass = 0; pass < 2; pass++) {
        double cx = bx, cy = by;
        for (double dy = -1; dy <= 1; dy += 0.5)
            for (double dx = -1; dx <= 1; dx += 0.5) {
                double s = score_moved(gray, w, h, g, prev, cx + dx, cy + dy, br);
                if (s > best) best = s, bx = cx + dx, by = cy + dy;
            }
        if (pass) break;
        double step = 0.25 * M_PI / 180, max = turn_deg * M_PI / 180 + 1e-9;
        for (double r = -max; r <= max; r += step) {
            double s = score_moved(gray, w, h, g, prev, bx, by, r);
            if (s > best) best = s, br = r;
        }
    }
    if (bx || by || br) {
        double out[9];
        moved(g, bx, by, br, out);
        for (int k = 0; k < 9; k++) g->H[k] = out[k];
    }
    return best;
}

/* vision/shogi_refine.c — the start's grid brought onto the board's own lines. A grid found on a
 * slanted view (or on an enlarged frame) can sit a third of a cell off; the known start position
 * says which cell borders are bare wood (an empty cell on either side), and the corners are moved
 * until the grid's lines lie on the darkest of them. */
#include <math.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

#define REFINE_SAMPLES 6 /* places along one cell border */

/* One cell border known bare: view coordinates of its start, its direction and which sides show
 * wood (an empty cell there). */
struct border {
    double x0, y0, dx, dy;
    bool side_a, side_b; /* +normal side, -normal side */
};

static bool empty_at(const uint8_t *board, int vx, int vy)
{
    if (vx < 0 || vx > 8 || vy < 0 || vy > 8) return false;
    return board[shogi_sq(9 - vx, vy + 1)] == 0;
}

/* The borders of the board's empty cells. */
static int bare_borders(const uint8_t *board, struct border *b)
{
    int n = 0;
    for (int k = 0; k <= 9; k++)
        for (int j = 0; j < 9; j++) {
            /* the vertical line x = k between y = j and j + 1: cells (k - 1, j) and (k, j) */
            bool a = empty_at(board, k, j), c = empty_at(board, k - 1, j);
            if (a || c) b[n++] = (struct border){k, j, 0, 1, a, c};
            /* the horizontal line y = k: cells (j, k) below and (j, k - 1) above */
            a = empty_at(board, j, k), c = empty_at(board, j, k - 1);
            if (a || c) b[n++] = (struct border){j, k, 1, 0, a, c};
        }
    return n;
}

/* How much darker the grid's lines are than the wood beside them, summed over the bare borders;
 * each place's contrast is clipped so a piece leaning over a border cannot outvote the rest. */
static double line_score(const struct shogi_grid *g, const struct vision_image *gray,
                         const struct border *b, int nb, double off)
{
    double sum = 0;
    for (int i = 0; i < nb; i++) {
        double nx = b[i].dy, ny = b[i].dx;
        for (int k = 0; k < REFINE_SAMPLES; k++) {
            double t = (k + 0.5) / REFINE_SAMPLES;
            double x = b[i].x0 + t * b[i].dx, y = b[i].y0 + t * b[i].dy;
            double on = shogi_gray_at(g, gray, x, y);
            if (on < 0) continue;
            double side = 0;
            int ns = 0;
            if (b[i].side_a) {
                double a = shogi_gray_at(g, gray, x + off * nx, y + off * ny);
                if (a >= 0) side += a, ns++;
            }
            if (b[i].side_b) {
                double a = shogi_gray_at(g, gray, x - off * nx, y - off * ny);
                if (a >= 0) side += a, ns++;
            }
            if (!ns) continue;
            double c = side / ns - on;
            sum += c > 40 ? 40 : c < -40 ? -40 : c;
        }
    }
    return sum;
}

void shogi_grid_refine(struct shogi_grid *g, const struct vision_image *gray,
                       const uint8_t board[SHOGI_SQUARES])
{
    struct border b[2 * 10 * 9];
    int nb = bare_borders(board, b);
    const struct shogi_grid g0 = *g;
    if (nb < 20) return;
    /* only a board wholly in view: with lines cut off by the picture's edge the sum favours
     * grids that bring more of them inside (shogi_live's partial view lost half its moves) */
    for (int i = 0; i < 4; i++)
        if (g->corners[i][0] < 0 || g->corners[i][1] < 0 || g->corners[i][0] > gray->width - 1 ||
            g->corners[i][1] > gray->height - 1)
            return;
    double cell =
        sqrt((g->corners[1][0] - g->corners[0][0]) * (g->corners[1][0] - g->corners[0][0]) +
             (g->corners[1][1] - g->corners[0][1]) * (g->corners[1][1] - g->corners[0][1])) /
        9;
    /* coarse to fine: the wood sampled farther from the line first (a wider catch) */
    static const double offs[] = {0.25, 0.15, 0.1}, steps[] = {0.2, 0.1, 0.04};
    for (int s = 0; s < 3; s++) {
        double best = line_score(g, gray, b, nb, offs[s]);
        for (double step = steps[s] * cell; step > 0.015 * cell; step *= 0.5) {
            bool moved = true;
            for (int it = 0; it < 20 && moved; it++) {
                moved = false;
                for (int c = 0; c < 8; c++)
                    for (int sign = -1; sign <= 1; sign += 2) {
                        struct shogi_grid t = *g;
                        double cs[4][2];
                        memcpy(cs, g->corners, sizeof cs);
                        cs[c / 2][c % 2] += sign * step;
                        /* a refinement, not a search: half a cell at most */
                        if (fabs(cs[c / 2][c % 2] - g0.corners[c / 2][c % 2]) > 0.5 * cell)
                            continue;
                        shogi_grid_set(&t, cs);
                        double sc = line_score(&t, gray, b, nb, offs[s]);
                        if (sc > best) {
                            best = sc;
                            *g = t;
                            moved = true;
                        }
                    }
            }
        }
    }
}

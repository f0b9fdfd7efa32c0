/* vision/shogi_cells.c — what one cell patch says on its own: is a piece there (the calligraphy
 * and outline give texture an empty cell lacks), and which way it points (the pentagon's slanted
 * edges sit at its apex, its straight base at the other end). */
#include <math.h>
#include <stdlib.h>

#include "vision/shogi_read.h"

#define P SHOGI_PATCH

static void sobel(const uint8_t *p, int i, int j, double *gx, double *gy)
{
    const uint8_t *r0 = p + (i - 1) * P + j, *r1 = p + i * P + j, *r2 = p + (i + 1) * P + j;
    *gx = (r0[1] + 2.0 * r1[1] + r2[1]) - (r0[-1] + 2.0 * r1[-1] + r2[-1]);
    *gy = (r2[-1] + 2.0 * r2[0] + r2[1]) - (r0[-1] + 2.0 * r0[0] + r0[1]);
}

double shogi_cell_texture(const uint8_t *patch)
{
    /* the inner part only: grid lines lie on the patch's border */
    const int m = P / 5;
    double s = 0;
    int n = 0;
    for (int i = m; i < P - m; i++)
        for (int j = m; j < P - m; j++) {
            double gx, gy;
            sobel(patch, i, j, &gx, &gy);
            s += sqrt(gx * gx + gy * gy);
            n++;
        }
    return s / n;
}

void shogi_cell_edges(const uint8_t *patch, bool turn, float *mag)
{
    /* gx gy is unchanged by a half turn (both change sign): only the position turns */
    for (int i = 1; i < P - 1; i++)
        for (int j = 1; j < P - 1; j++) {
            double gx, gy;
            sobel(patch, i, j, &gx, &gy);
            int k = turn ? (P - 1 - i) * P + (P - 1 - j) : i * P + j;
            mag[k] += (float)(gx * gy);
        }
}

double shogi_outline_apex(const float *mag)
{
    /* The pentagon's two slanted edges make gx gy of opposite signs left and right of the apex
     * (which sign depends on piece lighter or darker than the board); the base corners and the
     * grid lines are straight (gx gy near 0) and the calligraphy averages out over many pieces. */
    double q[2][2] = {{0, 0}, {0, 0}}, all = 1e-9;
    for (int i = 0; i < P; i++)
        for (int j = 0; j < P; j++) {
            q[i >= P / 2][j >= P / 2] += mag[i * P + j];
            all += fabs(mag[i * P + j]);
        }
    return (fabs(q[0][0] - q[0][1]) - fabs(q[1][0] - q[1][1])) / all;
}

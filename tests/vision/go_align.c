/* tests/vision/go_align.c — see go_align.h. */
#include <math.h>

#include "tests/vision/go_align.h"

void go_sym_apply(int s, int n, int x, int y, int *ox, int *oy)
{
    int u = s & 1 ? y : x, v = s & 1 ? x : y;
    if (s & 2) u = n - 1 - u;
    if (s & 4) v = n - 1 - v;
    *ox = u, *oy = v;
}

/* The projective map of the unit square onto the quad q (corners in the order (0,0), (1,0),
 * (1,1), (0,1)), applied to (u, v) (Heckbert's square-to-quad). */
static void square_to_quad(const double q[4][2], double u, double v, double *x, double *y)
{
    double sx = q[0][0] - q[1][0] + q[2][0] - q[3][0], sy = q[0][1] - q[1][1] + q[2][1] - q[3][1];
    double dx1 = q[1][0] - q[2][0], dx2 = q[3][0] - q[2][0];
    double dy1 = q[1][1] - q[2][1], dy2 = q[3][1] - q[2][1];
    double den = dx1 * dy2 - dx2 * dy1, g = 0, h = 0;
    if (fabs(den) > 1e-12) {
        g = (sx * dy2 - dx2 * sy) / den;
        h = (dx1 * sy - sx * dy1) / den;
    }
    double a = q[1][0] - q[0][0] + g * q[1][0], b = q[3][0] - q[0][0] + h * q[3][0];
    double d = q[1][1] - q[0][1] + g * q[1][1], e = q[3][1] - q[0][1] + h * q[3][1];
    double w = g * u + h * v + 1;
    *x = (a * u + b * v + q[0][0]) / w;
    *y = (d * u + e * v + q[0][1]) / w;
}

double go_align(const struct observation *o, const struct render_frame *f, int *sym)
{
    int n = f->cols, shown = 0;
    for (int p = 0; p < n * n; p++) {
        const double *t = f->point_px[go_point(p % n, p / n)];
        shown += t[0] >= 0 && t[1] >= 0 && t[0] < f->width && t[1] < f->height;
    }
    static const int cu[4] = {0, 1, 1, 0}, cv[4] = {0, 0, 1, 1};
    double best = 1e18;
    for (int s = 0; s < 8; s++) {
        double worst = 0;
        if (shown < 4) {
            for (int k = 0; k < 4; k++) {
                int x, y;
                go_sym_apply(s, n, cu[k] * (n - 1), cv[k] * (n - 1), &x, &y);
                const double *t = f->point_px[go_point(x, y)];
                worst = fmax(worst, hypot(o->corners[k][0] - t[0], o->corners[k][1] - t[1]));
            }
        } else {
            for (int u = 0; u < n; u++)
                for (int v = 0; v < n; v++) {
                    int x, y;
                    go_sym_apply(s, n, u, v, &x, &y);
                    const double *t = f->point_px[go_point(x, y)];
                    if (t[0] < 0 || t[1] < 0 || t[0] >= f->width || t[1] >= f->height) continue;
                    double px, py;
                    square_to_quad(o->corners, (double)u / (n - 1), (double)v / (n - 1), &px, &py);
                    worst = fmax(worst, hypot(px - t[0], py - t[1]));
                }
        }
        if (worst < best) best = worst, *sym = s;
    }
    return best;
}

double go_spacing(const struct render_frame *f)
{
    double a = hypot(f->corners[1][0] - f->corners[0][0], f->corners[1][1] - f->corners[0][1]);
    double b = hypot(f->corners[3][0] - f->corners[0][0], f->corners[3][1] - f->corners[0][1]);
    return (a + b) / 2 / (f->cols - 1);
}

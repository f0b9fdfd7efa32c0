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

double go_align(const struct observation *o, const struct render_frame *f, int *sym)
{
    int n = f->cols;
    static const int cu[4] = {0, 1, 1, 0}, cv[4] = {0, 0, 1, 1};
    double best = 1e18;
    for (int s = 0; s < 8; s++) {
        double worst = 0;
        for (int k = 0; k < 4; k++) {
            int x, y;
            go_sym_apply(s, n, cu[k] * (n - 1), cv[k] * (n - 1), &x, &y);
            const double *t = f->point_px[go_point(x, y)];
            worst = fmax(worst, hypot(o->corners[k][0] - t[0], o->corners[k][1] - t[1]));
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

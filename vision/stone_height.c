/* vision/stone_height.c — stones have height: in an oblique view a stone's body appears offset
 * from its intersection, up to half a line spacing. We recover the camera from the board plane's
 * homography (principal point at the image centre, square pixels, focal length from the two
 * rotation constraints, or a default when the view is too frontal to tell), then project each
 * stone's centre at half its height above the board. */
#include <math.h>
#include <string.h>

#include "vision/vision_internal.h"

/* Focal length from H = K [r1 r2 t] up to scale: r1 . r2 = 0 and |r1| = |r2|. */
static double estimate_focal(const double H[9], double cx, double cy, double fallback)
{
    double a[3] = {H[0] - cx * H[6], H[3] - cy * H[6], H[6]};
    double b[3] = {H[1] - cx * H[7], H[4] - cy * H[7], H[7]};
    double est[2];
    int ne = 0;
    double den = a[2] * b[2];
    if (fabs(den) > 1e-18) {
        double f2 = -(a[0] * b[0] + a[1] * b[1]) / den;
        if (f2 > 0) est[ne++] = sqrt(f2);
    }
    den = a[2] * a[2] - b[2] * b[2];
    if (fabs(den) > 1e-18) {
        double f2 = (b[0] * b[0] + b[1] * b[1] - a[0] * a[0] - a[1] * a[1]) / den;
        if (f2 > 0) est[ne++] = sqrt(f2);
    }
    double f = 0;
    if (ne == 2 && est[0] / est[1] < 1.5 && est[1] / est[0] < 1.5)
        f = sqrt(est[0] * est[1]);
    else if (ne == 1)
        f = est[0];
    if (!(f > 0.4 * fallback && f < 4 * fallback)) f = fallback;
    return f;
}

void stone_geometry(const struct grid *g, int width, int height, double stone_height, double focal,
                    struct stone_geom *out)
{
    memset(out, 0, sizeof *out);
    double cx = width / 2.0, cy = height / 2.0;
    double big = width > height ? width : height;
    double f = focal > 0 ? focal : estimate_focal(g->H, cx, cy, big);
    /* M = K^-1 H = lambda [r1 r2 t] */
    double M[9];
    for (int c = 0; c < 3; c++) {
        M[0 * 3 + c] = (g->H[0 * 3 + c] - cx * g->H[6 + c]) / f;
        M[1 * 3 + c] = (g->H[1 * 3 + c] - cy * g->H[6 + c]) / f;
        M[2 * 3 + c] = g->H[6 + c];
    }
    double n1 = sqrt(M[0] * M[0] + M[3] * M[3] + M[6] * M[6]);
    double n2 = sqrt(M[1] * M[1] + M[4] * M[4] + M[7] * M[7]);
    double lam = 2 / (n1 + n2);
    if (M[8] * lam < 0) lam = -lam; /* the board lies in front of the camera */
    double r1[3] = {M[0] * lam, M[3] * lam, M[6] * lam},
           r2[3] = {M[1] * lam, M[4] * lam, M[7] * lam};
    double t[3] = {M[2] * lam, M[5] * lam, M[8] * lam};
    double r3[3] = {r1[1] * r2[2] - r1[2] * r2[1], r1[2] * r2[0] - r1[0] * r2[2],
                    r1[0] * r2[1] - r1[1] * r2[0]};
    double n3 = sqrt(r3[0] * r3[0] + r3[1] * r3[1] + r3[2] * r3[2]);
    if (n3 < 1e-12) return;
    /* up from the board is toward the camera: it must bring points closer (smaller depth) */
    double s = r3[2] > 0 ? -1 / n3 : 1 / n3;
    for (int k = 0; k < 3; k++) r3[k] *= s;
    double z = stone_height / 2;
    for (int v = 0; v < g->n; v++)
        for (int u = 0; u < g->n; u++) {
            double X[3];
            for (int k = 0; k < 3; k++) X[k] = u * r1[k] + v * r2[k] + t[k];
            double x0 = f * X[0] / X[2] + cx, y0 = f * X[1] / X[2] + cy;
            for (int k = 0; k < 3; k++) X[k] += z * r3[k];
            if (X[2] <= 1e-9) continue;
            double x1 = f * X[0] / X[2] + cx, y1 = f * X[1] / X[2] + cy;
            /* measured against the homography's own point, so a poor camera estimate only
             * changes the offset, never the intersection */
            double hx, hy;
            hom_apply(g->H, u, v, &hx, &hy);
            int p = v * OBS_MAX + u;
            out->offset[p][0] = x1 - x0;
            out->offset[p][1] = y1 - y0;
            double ax, ay, bx, by;
            hom_apply(g->H, u + 0.5, v, &ax, &ay);
            hom_apply(g->H, u, v + 0.5, &bx, &by);
            double du = hypot(ax - hx, ay - hy), dv = hypot(bx - hx, by - hy);
            out->radius_px[p] = 0.96 * sqrt(du * dv); /* diameter ~ one spacing */
        }
}

/* vision/homography.c — 3x3 projective maps: normalised DLT fit, apply, invert, multiply; and the
 * small linear solver they need (calib3d is not available, and these are a few dozen lines). */
#include <math.h>
#include <string.h>

#include "vision/vision_internal.h"

bool solve_linear(double *A, double *b, int n)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(A[r * n + c]) > fabs(A[piv * n + c])) piv = r;
        if (fabs(A[piv * n + c]) < 1e-12) return false;
        if (piv != c) {
            for (int k = 0; k < n; k++) {
                double t = A[c * n + k];
                A[c * n + k] = A[piv * n + k];
                A[piv * n + k] = t;
            }
            double t = b[c];
            b[c] = b[piv];
            b[piv] = t;
        }
        for (int r = c + 1; r < n; r++) {
            double f = A[r * n + c] / A[c * n + c];
            if (f == 0) continue;
            for (int k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        double s = b[c];
        for (int k = c + 1; k < n; k++) s -= A[c * n + k] * b[k];
        b[c] = s / A[c * n + c];
    }
    return true;
}

void hom_apply(const double H[9], double x, double y, double *ox, double *oy)
{
    double w = H[6] * x + H[7] * y + H[8];
    if (fabs(w) < 1e-12) w = w < 0 ? -1e-12 : 1e-12;
    *ox = (H[0] * x + H[1] * y + H[2]) / w;
    *oy = (H[3] * x + H[4] * y + H[5]) / w;
}

void hom_mul(const double A[9], const double B[9], double out[9])
{
    double r[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r[i * 3 + j] = A[i * 3] * B[j] + A[i * 3 + 1] * B[3 + j] + A[i * 3 + 2] * B[6 + j];
    memcpy(out, r, sizeof r);
}

bool hom_invert(const double H[9], double out[9])
{
    double a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7], i = H[8];
    double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    double det = a * A + b * B + c * C;
    if (fabs(det) < 1e-300) return false;
    double r[9] = {A, -(b * i - c * h), b * f - c * e, B, a * i - c * g, -(a * f - c * d),
                   C, -(a * h - b * g), a * e - b * d};
    for (int k = 0; k < 9; k++) out[k] = r[k] / det;
    return true;
}

/* Translate and scale points so their centroid is 0 and mean distance sqrt(2) (Hartley). */
static void normaliser(const double *p, int n, double T[9])
{
    double cx = 0, cy = 0, d = 0;
    for (int i = 0; i < n; i++) cx += p[2 * i], cy += p[2 * i + 1];
    cx /= n, cy /= n;
    for (int i = 0; i < n; i++) d += hypot(p[2 * i] - cx, p[2 * i + 1] - cy);
    d /= n;
    double s = d > 1e-12 ? sqrt(2.0) / d : 1;
    double t[9] = {s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1};
    memcpy(T, t, sizeof t);
}

bool hom_fit(const double *src, const double *dst, int n, double H[9])
{
    if (n < 4) return false;
    double Ts[9], Td[9];
    normaliser(src, n, Ts);
    normaliser(dst, n, Td);
    /* h33 = 1 in normalised coordinates (safe: the centroids map near each other), 8 unknowns,
     * normal equations. */
    double A[64] = {0}, b[8] = {0};
    for (int i = 0; i < n; i++) {
        double x, y, u, v;
        hom_apply(Ts, src[2 * i], src[2 * i + 1], &x, &y);
        hom_apply(Td, dst[2 * i], dst[2 * i + 1], &u, &v);
        double r1[8] = {x, y, 1, 0, 0, 0, -u * x, -u * y};
        double r2[8] = {0, 0, 0, x, y, 1, -v * x, -v * y};
        for (int j = 0; j < 8; j++) {
            for (int k = 0; k < 8; k++) A[j * 8 + k] += r1[j] * r1[k] + r2[j] * r2[k];
            b[j] += r1[j] * u + r2[j] * v;
        }
    }
    if (!solve_linear(A, b, 8)) return false;
    double Hn[9] = {b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], 1};
    double Tdi[9], tmp[9];
    if (!hom_invert(Td, Tdi)) return false;
    hom_mul(Tdi, Hn, tmp);
    hom_mul(tmp, Ts, H);
    if (fabs(H[8]) > 1e-12)
        for (int k = 0; k < 9; k++) H[k] /= H[8];
    return true;
}

/* vision/read_sample.c — the point reader's pixels (grey and a warm-cool colour difference,
 * clamped at the frame's edge) and its small statistics (median, Otsu). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/read_internal.h"

static inline void pixel(const struct read_image *im, int x, int y, double *l, double *rg,
                         double *gb)
{
    if (x < 0) x = 0;
    if (y < 0) y = 0;
    if (x >= im->w) x = im->w - 1;
    if (y >= im->h) y = im->h - 1;
    size_t i = (size_t)y * im->w + x;
    *l = im->gray[i];
    if (im->color) {
        const uint8_t *c = im->color + 3 * i;
        double b = c[im->rgb ? 2 : 0], g = c[1], r = c[im->rgb ? 0 : 2];
        *rg = r - g, *gb = g - b;
    } else
        *rg = *gb = 0;
}

struct sample read_disc(const struct read_image *im, double x, double y, double rad, int k)
{
    struct sample s = {0, 0, 0};
    int n = 0;
    for (int j = -k; j <= k; j++)
        for (int i = -k; i <= k; i++) {
            if (i * i + j * j > k * k + 1) continue;
            double l, rg, gb;
            pixel(im, (int)lround(x + rad * i / k), (int)lround(y + rad * j / k), &l, &rg, &gb);
            s.lum += l, s.rg += rg, s.gb += gb;
            n++;
        }
    s.lum /= n, s.rg /= n, s.gb /= n;
    return s;
}

double read_grey_bilinear(const struct read_image *im, double x, double y)
{
    x = fmin(fmax(x, 0), im->w - 1.001), y = fmin(fmax(y, 0), im->h - 1.001);
    int x0 = (int)x, y0 = (int)y;
    double fx = x - x0, fy = y - y0;
    const uint8_t *r0 = im->gray + (size_t)y0 * im->w + x0, *r1 = r0 + im->w;
    return (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
}

/* (a clamped pixel beyond the edge of a partial view is no sample) */
void read_grey_at(const struct read_image *im, const struct grid *g, double u, double v,
                  double *sum, int *cnt)
{
    double x, y, l, rg, gb;
    hom_apply(g->H, u, v, &x, &y);
    if (x < 0 || y < 0 || x > im->w - 1 || y > im->h - 1) return;
    pixel(im, (int)lround(x), (int)lround(y), &l, &rg, &gb);
    *sum += l, (*cnt)++;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double read_median(double *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double read_otsu(const double *v, int n, double *sep)
{
    double *s = malloc((size_t)n * sizeof *s);
    *sep = 0;
    if (!s || n < 4) {
        free(s);
        return 0;
    }
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_d);
    double tot = 0, tot2 = 0;
    for (int i = 0; i < n; i++) tot += s[i], tot2 += s[i] * s[i];
    double best = -1, thr = s[n / 2], c0 = 0, c02 = 0;
    for (int i = 0; i < n - 1; i++) {
        c0 += s[i], c02 += s[i] * s[i];
        int n0 = i + 1, n1 = n - n0;
        double m0 = c0 / n0, m1 = (tot - c0) / n1;
        double between = (double)n0 * n1 * (m1 - m0) * (m1 - m0);
        if (between > best && s[i + 1] > s[i]) {
            best = between;
            thr = (s[i] + s[i + 1]) / 2;
            double var0 = c02 / n0 - m0 * m0, var1 = (tot2 - c02) / n1 - m1 * m1;
            double pooled = sqrt(fmax((n0 * var0 + n1 * var1) / n, 1e-6));
            *sep = (m1 - m0) / pooled;
        }
    }
    free(s);
    return thr;
}

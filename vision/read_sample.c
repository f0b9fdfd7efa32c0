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

/* The nearest pixel to v, for pixel(): all below 0 clamp to 0 there (and a NaN goes to 0), so
 * only positive halves need rounding; without libm's lround call, hot in read_disc. */
static inline int nearest_px(double v)
{
    return v > 0 ? (v < 1e6 ? (int)(v + 0.5) : 1000000) : 0;
}

struct sample read_disc(const struct read_image *im, double x, double y, double rad, int k)
{
    struct sample s = {0, 0, 0};
    int n = 0;
    for (int j = -k; j <= k; j++)
        for (int i = -k; i <= k; i++) {
            if (i * i + j * j > k * k + 1) continue;
            double l, rg, gb;
            pixel(im, nearest_px(x + rad * i / k), nearest_px(y + rad * j / k), &l, &rg, &gb);
            s.lum += l, s.rg += rg, s.gb += gb;
            n++;
        }
    s.lum /= n, s.rg /= n, s.gb /= n;
    return s;
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

double vision_select_kth(double *v, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = v[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j], v[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return v[k];
}

/* The median, v reordered. The reader takes thousands of medians of a few values per frame: a
 * selection, not a sort (qsort was a quarter of the tracked path's instructions). */
double read_median(double *v, int n)
{
    if (n <= 0) return 0;
    double hi = vision_select_kth(v, n, n / 2);
    if (n & 1) return hi;
    /* after the selection everything before n / 2 is no larger: the lower middle is its most */
    double lo = v[0];
    for (int i = 1; i < n / 2; i++) lo = v[i] > lo ? v[i] : lo;
    return (lo + hi) / 2;
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

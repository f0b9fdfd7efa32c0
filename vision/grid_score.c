/* vision/grid_score.c — judge and polish a whole grid hypothesis against the image's line mask.
 *
 * The 1-D lattice fits see each family alone and only through Hough segments, so a lattice with
 * the wrong spacing, the wrong perspective or a window one line off can win on its own family.
 * Here a full grid (homography) is scored by the pixels themselves: its lines should lie on
 * line-mask pixels and the places halfway between its lines should not (a half-spaced, a
 * double-spaced or a skewed grid puts many samples between lines). grid_snap then pulls every
 * line onto the mask pixels next to it, which corrects a perspective the segments got wrong. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

void line_response(const uint8_t *mask, uint8_t *resp, uint8_t *tmp, int w, int h)
{
    /* 3x3 maximum, separable: a line 1 px wide becomes 3 px, so a sample a pixel off still hits */
    for (int y = 0; y < h; y++) {
        const uint8_t *s = mask + (size_t)y * w;
        uint8_t *d = tmp + (size_t)y * w;
        for (int x = 0; x < w; x++) {
            uint8_t m = s[x];
            if (x > 0 && s[x - 1] > m) m = s[x - 1];
            if (x + 1 < w && s[x + 1] > m) m = s[x + 1];
            d[x] = m;
        }
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t m = tmp[(size_t)y * w + x];
            if (y > 0 && tmp[(size_t)(y - 1) * w + x] > m) m = tmp[(size_t)(y - 1) * w + x];
            if (y + 1 < h && tmp[(size_t)(y + 1) * w + x] > m) m = tmp[(size_t)(y + 1) * w + x];
            resp[(size_t)y * w + x] = m;
        }
}

/* 1 on a line pixel, 0 off it, -1 outside the image */
static int at(const uint8_t *r, int w, int h, double x, double y)
{
    int xi = (int)lround(x), yi = (int)lround(y);
    if (xi < 0 || yi < 0 || xi >= w || yi >= h) return -1;
    return r[(size_t)yi * w + xi] != 0;
}

/* For line k of family fam (u = k for fam 0, v = k for fam 1) over the window's span: on-line
 * samples that hit the mask minus halfway samples that hit it; *seen: samples inside the image. */
static double line_term(const uint8_t *r, int w, int h, const double H[9], int n, int fam, int k,
                        int *seen)
{
    double half = k < n - 1 ? 0.5 : -0.5;
    int on = 0, mid = 0;
    for (int j = 0; j < 2 * (n - 1); j++) {
        double s = 0.25 + 0.5 * j; /* between crossings: a crossing line would hit everywhere */
        double x, y, mx, my;
        hom_apply(H, fam ? s : k, fam ? k : s, &x, &y);
        hom_apply(H, fam ? s : k + half, fam ? k + half : s, &mx, &my);
        int a = at(r, w, h, x, y), b = at(r, w, h, mx, my);
        if (a < 0 || b < 0) continue;
        (*seen)++;
        on += a, mid += b;
    }
    return on - mid;
}

double grid_image_score(const uint8_t *resp, int w, int h, const double H[9], int n, int *seen)
{
    double s = 0;
    int cnt = 0;
    for (int fam = 0; fam < 2; fam++)
        for (int k = 0; k < n; k++) s += line_term(resp, w, h, H, n, fam, k, &cnt);
    if (seen) *seen = cnt;
    /* 1: every sample on a line, none between; samples outside the frame count as misses
     * (counting them at any share of the seen rate lost more real photos, whose boards fill the
     * frame, to grids reaching outside than it won partly seen boards) */
    return s / (2.0 * n * 2 * (n - 1));
}

/* How deep a valley line k of family fam draws in the grey image g: per sample between the
 * crossings, how much darker it is than the darker of the board's two sides GRID_SIDE spacings
 * away; the upper quartile over the samples (stones, a hand or a glare on part of it do not
 * make a drawn line faint). -1e9 when under a third of its samples lie in the image. */
#define GRID_SIDE  0.3
#define GRID_REACH 0.3 /* of GRID_SIDE: a tenth of a spacing each way */
static double line_depth(const uint8_t *g, int w, int h, const double H[9], int n, int fam, int k)
{
    double d[2 * 19];
    int m = 0;
    for (int j = 0; j < 2 * (n - 1) && j < 2 * 19; j++) {
        double s = 0.25 + 0.5 * j, u = fam ? s : k, v = fam ? k : s;
        double du = fam ? 0 : GRID_SIDE, dv = fam ? GRID_SIDE : 0, x, y, ax, ay, bx, by;
        hom_apply(H, u, v, &x, &y);
        hom_apply(H, u + du, v + dv, &ax, &ay);
        hom_apply(H, u - du, v - dv, &bx, &by);
        double o1 = grid_grey_at(g, w, h, ax, ay), o2 = grid_grey_at(g, w, h, bx, by), l = 1e9;
        /* the darkest of a few places across the line: a candidate grid, not yet refined, may
         * lie a pixel or two beside a thin line */
        for (int q = -2; q <= 2; q++) {
            double f = q * GRID_REACH / 2, lx = x + f * (ax - x), ly = y + f * (ay - y);
            double grey = grid_grey_at(g, w, h, lx, ly);
            if (grey >= 0) l = fmin(l, grey);
        }
        if (l > 255 || o1 < 0 || o2 < 0) continue;
        d[m++] = fmin(o1, o2) - l;
    }
    if (3 * m < 2 * (n - 1)) return -1e9;
    qsort(d, (size_t)m, sizeof *d, grid_cmp_double);
    return d[m * 3 / 4];
}

/* Under this share of the mean valley of a family's lines of one parity (even or odd k), the
 * other parity's lines are none of the board's: printed lines are several times darker than
 * wood grain or a fold */
#define GRID_HALF_FAINT 0.5

/* The lines of family fam of grid H that lie between the board's: when the mean valley of its
 * lines of one parity in the picture is under GRID_HALF_FAINT of the other's, that parity's
 * lines in the picture; else none. Means over half a family: a stone or a shadow on a line
 * does not make it look so. */
static int family_between_lines(const uint8_t *g, int w, int h, const double H[9], int n, int fam)
{
    double sum[2] = {0, 0};
    int cnt[2] = {0, 0};
    for (int k = 0; k < n; k++) {
        double d = line_depth(g, w, h, H, n, fam, k);
        if (d < -1e8) continue;
        sum[k & 1] += d, cnt[k & 1]++;
    }
    if (cnt[0] < 2 || cnt[1] < 2) return 0;
    double even = sum[0] / cnt[0], odd = sum[1] / cnt[1];
    if (fmax(even, odd) <= 0) return 0; /* no valleys at all: no spacing told */
    if (odd < GRID_HALF_FAINT * even) return cnt[1];
    if (even < GRID_HALF_FAINT * odd) return cnt[0];
    return 0;
}

int grid_between_lines(const uint8_t *g, int w, int h, const double H[9], int n)
{
    return family_between_lines(g, w, h, H, n, 0) + family_between_lines(g, w, h, H, n, 1);
}

/* Whole-line shifts of the window (up to 2 each way per family) by the image score: the lines
 * just outside the board are its margin, so a window reaching into it loses samples on lines. */
bool grid_shift_by_score(const uint8_t *resp, const uint8_t *g, int w, int h, double H[9], int n,
                         bool strict)
{
    double best = grid_image_score(resp, w, h, H, n, NULL);
    int bu = 0, bv = 0;
    for (int su = -2; su <= 2; su++)
        for (int sv = -2; sv <= 2; sv++) {
            if (!su && !sv) continue;
            double T[9] = {1, 0, su, 0, 1, sv, 0, 0, 1}, M[9];
            hom_mul(H, T, M);
            double s = grid_image_score(resp, w, h, M, n, NULL);
            /* a shift must earn more than noise: about one line's worth of samples */
            if (s > best + 0.3 / n && !(strict && grid_window_has_absent_line(g, w, h, M, n)))
                best = s, bu = su, bv = sv;
        }
    if (!bu && !bv) return false;
    double T[9] = {1, 0, bu, 0, 1, bv, 0, 0, 1}, M[9];
    hom_mul(H, T, M);
    memcpy(H, M, sizeof M);
    return true;
}

double grid_snap(const uint8_t *resp, int w, int h, double H[9], int n, int iterations)
{
    int cap = 2 * n * (n - 1) * 2;
    struct segment *seg = malloc((size_t)cap * sizeof *seg);
    if (!seg) return -1;
    double rms = -1;
    for (int it = 0; it < iterations; it++) {
        double reach = it == 0 ? 0.3 : 0.2;
        int ns = 0;
        for (int fam = 0; fam < 2; fam++)
            for (int k = 0; k < n; k++)
                for (int j = 0; j < n - 1; j++) {
                    for (int q = 0; q < 2; q++) {
                        double s = j + 0.25 + 0.5 * q;
                        /* centroid of the mask pixels across the line, if they form one run */
                        double sum = 0, sw = 0;
                        int runs = 0, prev = 0, outside = 0;
                        for (int i = -12; i <= 12; i++) {
                            double d = reach * i / 12, x, y;
                            hom_apply(H, fam ? s : k + d, fam ? k + d : s, &x, &y);
                            int a = at(resp, w, h, x, y);
                            if (a < 0) {
                                outside = 1;
                                break;
                            }
                            if (a && !prev) runs++;
                            prev = a;
                            if (a) sum += d, sw += 1;
                        }
                        if (outside || runs != 1 || sw < 2 || sw > 14) continue;
                        double d = sum / sw, x1, y1, x2, y2;
                        hom_apply(H, fam ? s - 0.2 : k + d, fam ? k + d : s - 0.2, &x1, &y1);
                        hom_apply(H, fam ? s + 0.2 : k + d, fam ? k + d : s + 0.2, &x2, &y2);
                        seg[ns++] = (struct segment){x1, y1, x2, y2, hypot(x2 - x1, y2 - y1), 0};
                    }
                }
        if (ns < 4 * n) break;
        rms = grid_refine(H, n, seg, ns, 1);
        if (rms < 0) break;
    }
    free(seg);
    return rms;
}

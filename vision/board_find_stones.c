/* vision/board_find_stones.c — FIND_STONES: a grid from the stones when the lines are hidden
 * (photos of crowded boards, whose lines show only in bits between the stones). The stones are
 * found as round dark or bright blobs, their typical diameter taken, every centre (touching stones
 * too) found as a disc-mean extremum; board_find.c fits the lattices to the centres along the
 * segments' vanishing points and takes the grid when most stones lie on its points. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/board_find_internal.h"

/* FIND_STONES: a stone is darker than this share of the picture around, or brighter by this
 * share of the way to white */
#define STONE_DARK   0.6
#define STONE_BRIGHT 0.35
/* stones of one line lie within this share of a diameter of each other along the transversal */
#define STONE_MERGE 0.35
/* a stone lies on a grid point within this share of a spacing (its body leans off its point by
 * up to half a spacing in a steep view; photos are steep at most 30 degrees or so) */
#define STONE_ON 0.3

/* The mean of the box of radius r around (x, y), cut at the picture's edge, from an integral
 * image of (sw + 1) x (sh + 1). */
static double box_mean(const double *integ, int sw, int sh, int x, int y, int r)
{
    int x0 = x - r < 0 ? 0 : x - r, x1 = x + r + 1 > sw ? sw : x + r + 1;
    int y0 = y - r < 0 ? 0 : y - r, y1 = y + r + 1 > sh ? sh : y + r + 1;
    double sum = integ[(size_t)y1 * (sw + 1) + x1] - integ[(size_t)y0 * (sw + 1) + x1] -
                 integ[(size_t)y1 * (sw + 1) + x0] + integ[(size_t)y0 * (sw + 1) + x0];
    return sum / ((double)(x1 - x0) * (y1 - y0));
}

/* With the stones' diameter d known (from the round ones): every stone's centre, touching ones
 * too, as the darkest (brightest) mean over a disc-sized box within 0.6 d around that is dark
 * (bright) as a stone (lab: find_stones' marks before the blobs were taken, 1 dark, 2 bright) */
static void stone_centres(struct find_work *w, const double *integ, const uint8_t *cls, int sw,
                          int sh, double d)
{
    int r = (int)lround(d / 3), nb = (int)lround(0.6 * d);
    if (r < 1 || nb < 2) return; /* no stone so small is read */
    size_t np = (size_t)sw * sh;
    float *mean = malloc(np * sizeof *mean);
    if (!mean) return;
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            mean[(size_t)y * sw + x] = (float)box_mean(integ, sw, sh, x, y, r);
        }
    int n = 0;
    for (int y = nb; y < sh - nb && n < MAX_STONES; y++)
        for (int x = nb; x < sw - nb && n < MAX_STONES; x++) {
            size_t p = (size_t)y * sw + x;
            int c = cls[p];
            if (c != 1 && c != 2) continue;
            float v = mean[p];
            bool ext = true;
            /* the 3x3 first: most pixels are no extremum there (the disc costs ~0.6 d^2 reads) */
            for (int k = 0; k < 9 && ext; k++) {
                float q = mean[p + (size_t)((k / 3 - 1) * sw + k % 3 - 1)];
                ext = c == 1 ? q >= v : q <= v;
            }
            for (int yy = y - nb; yy <= y + nb && ext; yy++)
                for (int xx = x - nb; xx <= x + nb; xx++) {
                    if ((xx - x) * (xx - x) + (yy - y) * (yy - y) > nb * nb) continue;
                    float q = mean[(size_t)yy * sw + xx];
                    /* ties broken by position: one centre per stone */
                    bool before = yy < y || (yy == y && xx < x);
                    if (c == 1 ? (q < v || (q == v && before)) : (q > v || (q == v && before))) {
                        ext = false;
                        break;
                    }
                }
            /* the whole disc-sized box of the stone's class, not a line's dark pixel */
            int same = 0, all = 0;
            for (int yy = y - r; yy <= y + r; yy++)
                for (int xx = x - r; xx <= x + r; xx++) {
                    int q = cls[(size_t)yy * sw + xx];
                    same += q == c, all++;
                }
            if (!ext || same < 0.8 * all) continue;
            w->st[n][0] = x, w->st[n][1] = y;
            n++;
        }
    w->nst = n;
    free(mean);
}

/* Stones as round blobs much darker or much brighter than the picture around them (a box of a
 * sixth of the picture: several spacings, so that a crowd of stones does not become its own
 * background): their centres into w->st, their median diameter into w->st_diam. Blobs of
 * touching stones (not round, or far larger than the median) are left out. */
void find_stones(struct find_work *w, const uint8_t *g, int sw, int sh)
{
    w->nst = 0;
    size_t np = (size_t)sw * sh;
    double *integ = malloc((size_t)(sw + 1) * (sh + 1) * sizeof *integ);
    int *stack = malloc(np * sizeof *stack);
    uint8_t *lab = w->tmp; /* 0 none, 1 dark, 2 bright, 3 visited */
    double *diam = malloc(MAX_STONES * sizeof *diam);
    if (!integ || !stack || !diam) {
        free(integ), free(stack), free(diam);
        return;
    }
    for (int x = 0; x <= sw; x++) integ[x] = 0;
    for (int y = 0; y < sh; y++) {
        double row = 0;
        integ[(size_t)(y + 1) * (sw + 1)] = 0;
        for (int x = 0; x < sw; x++) {
            row += g[(size_t)y * sw + x];
            integ[(size_t)(y + 1) * (sw + 1) + x + 1] = integ[(size_t)y * (sw + 1) + x + 1] + row;
        }
    }
    int big = sw > sh ? sw : sh, r = big / 12;
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            double mean = box_mean(integ, sw, sh, x, y, r), v = g[(size_t)y * sw + x];
            lab[(size_t)y * sw + x] = v < STONE_DARK * mean                    ? 1
                                      : v > mean + STONE_BRIGHT * (255 - mean) ? 2
                                                                               : 0;
        }
    int dmin = big / 80, dmax = big / 12;
    uint8_t *cls = malloc(np);
    if (!cls) {
        free(integ), free(stack), free(diam);
        return;
    }
    memcpy(cls, lab, np);
    for (size_t p0 = 0; p0 < np; p0++) {
        int c = lab[p0];
        if (c != 1 && c != 2) continue;
        int sp = 0, area = 0, bx0 = sw, bx1 = -1, by0 = sh, by1 = -1;
        double mx = 0, my = 0;
        stack[sp++] = (int)p0;
        lab[p0] = 3;
        while (sp) {
            int p = stack[--sp], x = p % sw, y = p / sw;
            area++, mx += x, my += y;
            bx0 = x < bx0 ? x : bx0, bx1 = x > bx1 ? x : bx1;
            by0 = y < by0 ? y : by0, by1 = y > by1 ? y : by1;
            static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
            for (int k = 0; k < 4; k++) {
                int xx = x + dx[k], yy = y + dy[k];
                if (xx < 0 || yy < 0 || xx >= sw || yy >= sh) continue;
                int q = yy * sw + xx;
                if (lab[q] != c) continue;
                lab[q] = 3;
                stack[sp++] = q;
            }
        }
        int bw = bx1 - bx0 + 1, bh = by1 - by0 + 1, bm = bw > bh ? bw : bh;
        /* round: a disc fills 0.785 of its box, sides about equal */
        if (bm < dmin || bm > dmax || fabs((double)(bw - bh)) > 0.25 * bm || area < 0.6 * bw * bh ||
            w->nst >= MAX_STONES)
            continue;
        w->st[w->nst][0] = mx / area, w->st[w->nst][1] = my / area;
        diam[w->nst++] = 0.5 * (bw + bh);
    }
    w->st_diam = 0;
    if (w->nst >= 5) {
        double sorted[MAX_STONES];
        memcpy(sorted, diam, (size_t)w->nst * sizeof *sorted);
        double med = vision_select_kth(sorted, w->nst, w->nst / 2);
        /* the typical stone; blobs far off its size are something else */
        int m = 0;
        for (int i = 0; i < w->nst; i++)
            if (diam[i] > 0.7 * med && diam[i] < 1.4 * med) {
                w->st[m][0] = w->st[i][0], w->st[m][1] = w->st[i][1];
                m++;
            }
        w->nst = m;
        w->st_diam = med;
        if (m >= 5) stone_centres(w, integ, cls, sw, sh, med);
    }
    free(integ), free(stack), free(diam), free(cls);
}

void family_from_stones(const struct find_work *w, struct family *f)
{
    double t[MAX_STONES];
    int m = 0;
    for (int i = 0; i < w->nst; i++)
        if (family_t(f, w->st[i][0], w->st[i][1], &t[m])) m++;
    for (int i = 1; i < m; i++) /* insertion sort: a few hundred */
        for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
            double x = t[j];
            t[j] = t[j - 1], t[j - 1] = x;
        }
    /* the stones of one line: within STONE_MERGE of a diameter either way of their mean */
    f->m = 0;
    for (int i = 0; i < m;) {
        int j = i;
        double st = 0;
        while (j < m && t[j] - t[i] < 2 * STONE_MERGE * w->st_diam) st += t[j], j++;
        if (f->m < MAX_LINES) {
            f->t[f->m] = st / (j - i);
            f->w[f->m] = (j - i) * w->st_diam;
            f->ink[f->m] = 1;
            f->m++;
        }
        i = j;
    }
}

/* The share of the stones that lie on a point of the grid H (work image), within STONE_ON of a
 * spacing; *on: how many. */
double stones_on_grid(const struct find_work *w, const double H[9], int n, int *on)
{
    double Hi[9];
    *on = 0;
    if (!w->nst || !hom_invert(H, Hi)) return 0;
    for (int i = 0; i < w->nst; i++) {
        double u, v;
        hom_apply(Hi, w->st[i][0], w->st[i][1], &u, &v);
        double ru = round(u), rv = round(v);
        *on += ru >= 0 && rv >= 0 && ru <= n - 1 && rv <= n - 1 && fabs(u - ru) < STONE_ON &&
               fabs(v - rv) < STONE_ON;
    }
    return (double)*on / w->nst;
}

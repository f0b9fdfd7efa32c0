/* vision/board_find.c — find a goban in a grey image without markers.
 *
 * Work on a copy scaled to det->work_size: mark thin dark lines (adaptive threshold), find straight
 * segments (probabilistic Hough), find the two vanishing points most segments point to (the two
 * families of grid lines; RANSAC over pairs of long segments), turn each family into distinct
 * lines positioned along a transversal, fit a 1-D projective lattice to each family
 * (grid_fit.c), intersect the two lattices into a homography, refine it on every segment along a
 * grid line, and orient it so row 0 is the edge nearest the top of the image.
 * FIND_STONES (photos of crowded boards, whose lines show only in bits between the stones): the
 * lattices from the stones' centres along the same vanishing points, the grid taken when most
 * stones lie on its points (the stones are found in board_find_stones.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/board_find_internal.h"

struct find_work *find_work_new(void)
{
    return calloc(1, sizeof(struct find_work));
}

void find_work_free(struct find_work *w)
{
    if (!w) return;
    free(w->small);
    free(w->mask);
    free(w->resp);
    free(w->tmp);
    free(w);
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    double r[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    memcpy(out, r, sizeof r);
}

static void normalize3(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n > 0)
        for (int i = 0; i < 3; i++) v[i] /= n;
}

/* Sine of the angle between a segment and the direction from its midpoint to v (homogeneous). */
static double vp_sin(const struct segment *s, const double v[3])
{
    double mx = (s->x1 + s->x2) / 2, my = (s->y1 + s->y2) / 2;
    double dx = v[0] - mx * v[2], dy = v[1] - my * v[2];
    double sx = s->x2 - s->x1, sy = s->y2 - s->y1;
    double nd = hypot(dx, dy);
    if (nd < 1e-12) return 1;
    return fabs(sx * dy - sy * dx) / (nd * s->len);
}

static double vp_tol(const struct segment *s)
{
    return fmax(sin(1.0 * M_PI / 180), 1.2 / s->len);
}

/* How much darker than the board beside it segment s is along its length (grey levels; the
 * image g, w x h): the mean over samples of the darker side's excess over the line, 2.5 px
 * across. Printed lines are several times darker than wood grain. */
static double segment_ink(const uint8_t *g, int w, int h, const struct segment *s)
{
    double nx = -(s->y2 - s->y1) / s->len, ny = (s->x2 - s->x1) / s->len, sum = 0;
    int m = 0;
    for (int i = 1; i < 8; i++) {
        double f = i / 8.0, x = s->x1 + f * (s->x2 - s->x1), y = s->y1 + f * (s->y2 - s->y1);
        int c[3][2] = {{(int)lround(x), (int)lround(y)},
                       {(int)lround(x + 2.5 * nx), (int)lround(y + 2.5 * ny)},
                       {(int)lround(x - 2.5 * nx), (int)lround(y - 2.5 * ny)}};
        bool in = true;
        for (int k = 0; k < 3; k++)
            in = in && c[k][0] >= 0 && c[k][1] >= 0 && c[k][0] < w && c[k][1] < h;
        if (!in) continue;
        int l = g[(size_t)c[0][1] * w + c[0][0]], a = g[(size_t)c[1][1] * w + c[1][0]],
            b = g[(size_t)c[2][1] * w + c[2][0]];
        sum += fmax(0, (a < b ? a : b) - l);
        m++;
    }
    return m ? sum / m : 0;
}

static int cmp_len_desc(const void *a, const void *b)
{
    double x = ((const struct segment *)a)->len, y = ((const struct segment *)b)->len;
    return (x < y) - (x > y);
}

/* Best vanishing point among segments not yet in a family (fam == 0); other_dir: direction at
 * the image centre of the first family's point, which the second must differ from by > 25 deg. */
static bool find_vp(struct find_work *w, double cx, double cy, const double *other,
                    const double *avoid, double v[3])
{
    int cand[60], nc = 0;
    for (int i = 0; i < w->nseg && nc < 60; i++)
        if (!w->fam[i]) cand[nc++] = i;
    double best = 0;
    int lim = w->nseg < 800 ? w->nseg : 800;
    /* the free segments' midpoints, directions and squared tolerances, so that the vote below is
     * vp_sin < vp_tol without a square root or a division (the hot loop of board finding) */
    double *mx = w->vote[0], *my = w->vote[1], *sx = w->vote[2], *sy = w->vote[3], *tl = w->vote[4];
    int nv = 0;
    for (int i = 0; i < lim; i++) {
        if (w->fam[i]) continue;
        const struct segment *s = &w->seg[i];
        double t = vp_tol(s) * s->len;
        mx[nv] = (s->x1 + s->x2) / 2, my[nv] = (s->y1 + s->y2) / 2;
        sx[nv] = s->x2 - s->x1, sy[nv] = s->y2 - s->y1, tl[nv] = t * t;
        nv++;
    }
    for (int a = 0; a < nc; a++)
        for (int b = a + 1; b < nc; b++) {
            const struct segment *sa = &w->seg[cand[a]], *sb = &w->seg[cand[b]];
            double pa[3] = {sa->x1, sa->y1, 1}, qa[3] = {sa->x2, sa->y2, 1};
            double pb[3] = {sb->x1, sb->y1, 1}, qb[3] = {sb->x2, sb->y2, 1};
            double la[3], lb[3], x[3];
            cross3(pa, qa, la);
            cross3(pb, qb, lb);
            cross3(la, lb, x);
            normalize3(x);
            if (other) {
                double dx = x[0] - cx * x[2], dy = x[1] - cy * x[2];
                double nd = hypot(dx, dy);
                if (nd < 1e-12) continue;
                double s = fabs(dx * other[1] - dy * other[0]) / nd;
                if (s < sin(25 * M_PI / 180)) continue;
            }
            if (avoid) {
                /* a second choice must point elsewhere (wood grain, a table edge) */
                double dx = x[0] - cx * x[2], dy = x[1] - cy * x[2];
                double nd = hypot(dx, dy);
                if (nd < 1e-12) continue;
                if (fabs(dx * avoid[1] - dy * avoid[0]) / nd < sin(1.5 * M_PI / 180)) continue;
            }
            double score = 0;
            for (int i = 0; i < nv; i++) {
                double dx = x[0] - mx[i] * x[2], dy = x[1] - my[i] * x[2];
                double cr = sx[i] * dy - sy[i] * dx, d2 = dx * dx + dy * dy;
                /* |cr| / (|d| len) < tol; a point at the midpoint itself (d = 0) takes no vote */
                if (d2 > 1e-24 && cr * cr < tl[i] * d2)
                    score += sqrt(sx[i] * sx[i] + sy[i] * sy[i]);
            }
            if (score > best) {
                best = score;
                memcpy(v, x, sizeof x);
            }
        }
    return best > 0;
}

/* Refine a vanishing point: least squares over its segments' lines (smallest eigenvector of the
 * 3x3 scatter, by inverse iteration). */
static void refine_vp(const struct find_work *w, int fam, double v[3])
{
    double S[9] = {0};
    for (int i = 0; i < w->nseg; i++) {
        if (w->fam[i] != fam) continue;
        const struct segment *s = &w->seg[i];
        double p[3] = {s->x1, s->y1, 1}, q[3] = {s->x2, s->y2, 1}, l[3];
        cross3(p, q, l);
        double n = hypot(l[0], l[1]);
        for (int k = 0; k < 3; k++) l[k] /= n;
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) S[a * 3 + b] += s->len * l[a] * l[b];
    }
    double x[3] = {v[0], v[1], v[2]};
    for (int it = 0; it < 8; it++) {
        double A[9], b[3] = {x[0], x[1], x[2]};
        memcpy(A, S, sizeof A);
        for (int k = 0; k < 3; k++) A[k * 4] += 1e-9 * (S[0] + S[4] + S[8]);
        if (!solve_linear(A, b, 3)) return;
        normalize3(b);
        memcpy(x, b, sizeof x);
    }
    memcpy(v, x, sizeof x);
}

/* Where the line through vp and (x, y) crosses the transversal. */
bool family_t(const struct family *f, double x, double y, double *t)
{
    double p[3] = {x, y, 1}, l[3], q[3];
    cross3(f->vp, p, l);
    cross3(l, f->trans, q);
    if (fabs(q[2]) < 1e-12) return false;
    *t = (q[0] / q[2] - f->cx) * f->dx + (q[1] / q[2] - f->cy) * f->dy;
    return true;
}

struct tw {
    double t, w, ink;
};

static int cmp_tw(const void *a, const void *b)
{
    double x = ((const struct tw *)a)->t, y = ((const struct tw *)b)->t;
    return (x > y) - (x < y);
}

/* Distinct lines of family fam: positions along a transversal through the centre toward the
 * other family's vanishing point, merged when closer than 2 px. */
static void build_family(const struct find_work *w, int fam, const double other_vp[3], int iw,
                         int ih, struct family *f)
{
    f->cx = iw / 2.0, f->cy = ih / 2.0;
    double c[3] = {f->cx, f->cy, 1};
    cross3(c, other_vp, f->trans);
    double n = hypot(f->trans[0], f->trans[1]);
    f->dx = f->trans[1] / n, f->dy = -f->trans[0] / n;
    /* the image's extent along the transversal */
    f->tmin = 1e18, f->tmax = -1e18;
    double corners[4][2] = {{0, 0}, {iw, 0}, {iw, ih}, {0, ih}};
    for (int k = 0; k < 4; k++) {
        double t;
        if (!family_t(f, corners[k][0], corners[k][1], &t)) continue;
        f->tmin = fmin(f->tmin, t), f->tmax = fmax(f->tmax, t);
    }
    struct tw *a = malloc((size_t)w->nseg * sizeof *a);
    int na = 0;
    if (!a) {
        f->m = 0;
        return;
    }
    for (int i = 0; i < w->nseg; i++) {
        if (w->fam[i] != fam) continue;
        const struct segment *s = &w->seg[i];
        double t;
        if (!family_t(f, (s->x1 + s->x2) / 2, (s->y1 + s->y2) / 2, &t)) continue;
        a[na++] = (struct tw){t, s->len, s->ink};
    }
    qsort(a, (size_t)na, sizeof *a, cmp_tw);
    f->m = 0;
    for (int i = 0; i < na;) {
        double sw = 0, st = 0, si = 0, last = a[i].t;
        int j = i;
        while (j < na && a[j].t - last < 2.0) {
            sw += a[j].w, st += a[j].w * a[j].t, si += a[j].w * a[j].ink, last = a[j].t;
            j++;
        }
        if (f->m < MAX_LINES) {
            f->t[f->m] = st / sw;
            f->w[f->m] = sw;
            f->ink[f->m] = si / sw;
            f->m++;
        }
        i = j;
    }
    free(a);
}

/* Point on family f's line k (of lattice l): the line through vp and the transversal point. */
static void lattice_line(const struct family *f, const struct lattice *l, double k, double out[3])
{
    double t = lattice_pos(l, k);
    double p[3] = {f->cx + t * f->dx, f->cy + t * f->dy, 1};
    cross3(f->vp, p, out);
}

/* The homography (grid -> work image) through the crossings of two lattices' lines. */
static bool grid_from_lattices(const struct family *F, const struct lattice *l0,
                               const struct lattice *l1, int n, double H[9])
{
    double src[2 * 19 * 19], dst[2 * 19 * 19];
    int q = 0;
    for (int i = 0; i < n && i < 19; i++) {
        double la[3];
        lattice_line(&F[0], l0, i, la);
        for (int j = 0; j < n && j < 19; j++) {
            double lb[3], x[3];
            lattice_line(&F[1], l1, j, lb);
            cross3(la, lb, x);
            if (fabs(x[2]) < 1e-12) continue;
            src[2 * q] = i, src[2 * q + 1] = j;
            dst[2 * q] = x[0] / x[2], dst[2 * q + 1] = x[1] / x[2];
            q++;
        }
    }
    return q >= 4 && hom_fit(src, dst, q, H);
}

/* Reorder H's grid so that row 0 is the edge nearest the top and column 0 the nearest the left. */
static void orient(double H[9], int n)
{
    double m = n - 1, best_y = 1e18, best_x = 1e18, bestM[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    /* the 8 symmetries of the square [0, m]^2 as maps new -> old grid coordinates */
    for (int s = 0; s < 8; s++) {
        int swap = s & 1, fu = (s >> 1) & 1, fv = (s >> 2) & 1;
        double M[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
        /* old (u, v) from new (x, y) */
        int ui = swap ? 1 : 0, vi = swap ? 0 : 1;
        M[0 * 3 + ui] = fu ? -1 : 1, M[2] = fu ? m : 0;
        M[1 * 3 + vi] = fv ? -1 : 1, M[5] = fv ? m : 0;
        double HM[9], x0, y0, x1, y1;
        hom_mul(H, M, HM);
        hom_apply(HM, 0, 0, &x0, &y0);
        hom_apply(HM, m, 0, &x1, &y1);
        double ty = (y0 + y1) / 2;
        if (ty < best_y - 1e-6 || (fabs(ty - best_y) <= 1e-6 && x0 < best_x)) {
            best_y = ty, best_x = x0;
            memcpy(bestM, M, sizeof M);
        }
    }
    double out[9];
    hom_mul(H, bestM, out);
    memcpy(H, out, sizeof out);
}

/* Unit direction from the image centre toward vanishing point v. */
static void vp_dir(const double v[3], double cx, double cy, double d[2])
{
    d[0] = v[0] - cx * v[2], d[1] = v[1] - cy * v[2];
    double nd = hypot(d[0], d[1]);
    if (nd > 0) d[0] /= nd, d[1] /= nd;
}

/* Give the free segments pointing at v to family fam, refine v on them and drop the outliers. */
static void assign_family(struct find_work *w, int fam, double v[3])
{
    for (int i = 0; i < w->nseg; i++)
        if (!w->fam[i] && vp_sin(&w->seg[i], v) < vp_tol(&w->seg[i])) w->fam[i] = (uint8_t)fam;
    refine_vp(w, fam, v);
    for (int i = 0; i < w->nseg; i++) {
        if (w->fam[i] == fam && vp_sin(&w->seg[i], v) >= 1.5 * vp_tol(&w->seg[i]))
            w->fam[i] = 0;
        else if (!w->fam[i] && vp_sin(&w->seg[i], v) < vp_tol(&w->seg[i]))
            w->fam[i] = (uint8_t)fam;
    }
}

/* A lattice pair's grid Hc against the picture (see fit_families). Go (strict_lines): a grid
 * spaced by half the board's in a family, every other line between the board's (on plain
 * wood, on grain stripes or on a fold, which the line mask may mark), scores as if its lines
 * there lay on nothing: the score times the share of its lines that are the board's. Else it
 * beat the board's own grid when that reaches out of the picture (whose samples there count as
 * misses) and the half-spaced one fits inside. Counted only for a grid that could still win. */
static double candidate_score(const struct vision_detector *det, const struct find_work *w,
                              const double Hc[9], int n, int sw, int sh, double best)
{
    int on;
    if (w->nst) return stones_on_grid(w, Hc, n, &on);
    double sc = grid_image_score(w->resp, sw, sh, Hc, n, NULL);
    if (!det->strict_lines || sc <= best || sc <= 0) return sc;
    return sc * (1 - grid_between_lines(w->small, sw, sh, Hc, n) / (2.0 * n));
}

/* From the two families' segments to the best grid: lattice candidates for each family, every
 * pair turned into a homography and scored against the line mask (FIND_STONES: the lattices from
 * the stones' centres, scored by the share of the stones on the grid's points). Returns the score
 * (-1e18 when none), the grid in H and the board size in *n (given, or detected when 0). */
static double fit_families(struct vision_detector *det, struct find_work *w, const double vp0[3],
                           const double vp1[3], int sw, int sh, int *n_io, double H[9])
{
    struct family *F = w->F;
    memcpy(F[0].vp, vp0, sizeof F[0].vp);
    memcpy(F[1].vp, vp1, sizeof F[1].vp);
    build_family(w, 1, vp1, sw, sh, &F[0]);
    build_family(w, 2, vp0, sw, sh, &F[1]);
    if (w->nst) family_from_stones(w, &F[0]), family_from_stones(w, &F[1]);
    enum { KEEP = 6 };
    struct lattice L[2][KEEP];
    int nl[2], n = *n_io;
    for (int f = 0; f < 2; f++) {
        nl[f] =
            lattice_fit_many(F[f].t, F[f].w, F[f].ink, F[f].m, n, F[f].tmin, F[f].tmax, L[f], KEEP);
        if (!nl[f]) return -1e18;
    }
    if (!n) {
        /* one size for both: the larger of the two first choices, refitted */
        n = L[0][0].n > L[1][0].n ? L[0][0].n : L[1][0].n;
        for (int f = 0; f < 2; f++) {
            nl[f] = lattice_fit_many(F[f].t, F[f].w, F[f].ink, F[f].m, n, F[f].tmin, F[f].tmax,
                                     L[f], KEEP);
            if (!nl[f]) return -1e18;
        }
    }
    double best = -1e18;
    for (int i = 0; i < nl[0]; i++)
        for (int j = 0; j < nl[1]; j++) {
            double Hc[9];
            if (L[0][i].hits < n / 3 || L[1][j].hits < n / 3) continue;
            if (!grid_from_lattices(F, &L[0][i], &L[1][j], n, Hc)) continue;
            double sc = candidate_score(det, w, Hc, n, sw, sh, best);
            if (sc > best) {
                best = sc;
                memcpy(H, Hc, 9 * sizeof *H);
                det->stats.lines[0] = F[0].m, det->stats.lines[1] = F[1].m;
                det->stats.family_segments[0] = det->stats.family_segments[1] = 0;
                for (int k = 0; k < w->nseg; k++)
                    if (w->fam[k]) det->stats.family_segments[w->fam[k] - 1]++;
                det->stats.lattice_lines[0] = L[0][i].hits;
                det->stats.lattice_lines[1] = L[1][j].hits;
            }
        }
    *n_io = n;
    return best;
}

bool board_find(struct vision_detector *det, struct find_work *w, const cv_image *gray, int n,
                unsigned filter, struct grid *out)
{
    double t0 = vision_now_ms();
    int big = gray->width > gray->height ? gray->width : gray->height;
    double scale = big > det->work_size ? (double)det->work_size / big : 1.0;
    int sw = (int)lround(gray->width * scale), sh = (int)lround(gray->height * scale);
    if (sw < 32 || sh < 32) return false;
    size_t need = (size_t)sw * sh;
    if (need > w->cap) {
        free(w->small);
        free(w->mask);
        free(w->resp);
        free(w->tmp);
        w->small = malloc(need);
        w->mask = malloc(need);
        w->resp = malloc(need);
        w->tmp = malloc(need);
        w->cap = w->small && w->mask && w->resp && w->tmp ? need : 0;
        if (!w->cap) return false;
    }
    cv_image small = {w->small, sw, sh, sw, 1}, mask = {w->mask, sw, sh, sw, 1};
    if (scale < 1) {
        if (cv_resize(gray, &small) != CV_OK) return false;
    } else
        for (int y = 0; y < sh; y++)
            memcpy(w->small + (size_t)y * sw, gray->data + (size_t)y * gray->stride, (size_t)sw);
    det->stage_ms[VSTAGE_PREPARE] += vision_now_ms() - t0;

    t0 = vision_now_ms();
    int wbig = sw > sh ? sw : sh;
    int block = (wbig / 40) | 1;
    if (block < 7) block = 7;
    /* speckle and sensor noise would otherwise pass the threshold everywhere */
    if (filter & FIND_THIN_LINES ? !line_denoise(w->small, sw, sh, sw)
                                 : cv_median_blur(&small, 3) != CV_OK)
        return false;
    if (cv_gaussian_blur(&small, 0.8) != CV_OK) return false;
    if (cv_adaptive_threshold_dark(&small, &mask, block, det->line_c) != CV_OK) return false;
    /* 5x5: the thinnest blob a 19x19 stone makes at the working size is several times wider;
     * a line marked by the threshold is 1-3 px (3x3 clears them too) */
    if (filter & FIND_NO_BLOBS && cv_keep_thin(&mask, 5, 1) != CV_OK) return false;
    w->nst = 0;
    if (filter & FIND_STONES) {
        find_stones(w, w->small, sw, sh);
        if (w->nst < STONES_MIN) return false;
    }
    debug_write_gray(det, "1_line_mask", w->mask, sw, sh, sw);
    int nraw = 0;
    double min_len = wbig / 30.0;
    if (cv_hough_segments(&mask, det->hough_votes, min_len, det->hough_gap, w->raw,
                          VISION_MAX_SEGMENTS, &nraw) != CV_OK)
        return false;
    w->nseg = 0;
    for (int i = 0; i < nraw; i++) {
        struct segment s = {
            w->raw[4 * i], w->raw[4 * i + 1], w->raw[4 * i + 2], w->raw[4 * i + 3], 0, 0};
        s.len = hypot(s.x2 - s.x1, s.y2 - s.y1);
        if (s.len < 4) continue;
        s.ink = segment_ink(w->small, sw, sh, &s);
        w->seg[w->nseg++] = s;
    }
    qsort(w->seg, (size_t)w->nseg, sizeof w->seg[0], cmp_len_desc);
    memset(w->fam, 0, (size_t)w->nseg);
    det->stats.segments = w->nseg;
    line_response(w->mask, w->resp, w->tmp, sw, sh);
    det->stage_ms[VSTAGE_SEGMENTS] += vision_now_ms() - t0;

    t0 = vision_now_ms();
    double cx = sw / 2.0, cy = sh / 2.0;
    /* Two choices for each vanishing point (wood grain or a table edge can outvote the grid
     * lines); every combination is fitted and the image score picks. */
    double H[9], best = -1e18;
    int best_n = 0;
    double va[2][3], dir_a[2] = {0, 0};
    int na = 0;
    for (; na < 2; na++) {
        if (!find_vp(w, cx, cy, NULL, na ? dir_a : NULL, va[na])) break;
        if (!na) vp_dir(va[0], cx, cy, dir_a);
    }
    for (int a = 0; a < na; a++) {
        memset(w->fam, 0, (size_t)w->nseg);
        assign_family(w, 1, va[a]);
        double vb[2][3], dir_b[2] = {0, 0}, other[2];
        vp_dir(va[a], cx, cy, other);
        int nb = 0;
        for (; nb < 2; nb++) {
            if (!find_vp(w, cx, cy, other, nb ? dir_b : NULL, vb[nb])) break;
            if (!nb) vp_dir(vb[0], cx, cy, dir_b);
        }
        for (int b = 0; b < nb; b++) {
            for (int i = 0; i < w->nseg; i++)
                if (w->fam[i] == 2) w->fam[i] = 0;
            assign_family(w, 2, vb[b]);
            double Hc[9];
            int nc = n;
            double sc = fit_families(det, w, va[a], vb[b], sw, sh, &nc, Hc);
            if (sc > best) best = sc, best_n = nc, memcpy(H, Hc, sizeof H);
        }
    }
    det->stage_ms[VSTAGE_FAMILIES] += vision_now_ms() - t0;
    t0 = vision_now_ms();
    if (best <= -1e17) return false;
    n = best_n;
    double H0[9];
    memcpy(H0, H, sizeof H0);
    grid_place_window(w->small, sw, sh, H, n, det->strict_lines);
    double rms = grid_refine(H, n, w->seg, w->nseg, 3);
    grid_snap(w->resp, sw, sh, H, n, 3);
    rms = grid_refine(H, n, w->seg, w->nseg, 3); /* again, from the snapped grid */
    grid_place_window(w->small, sw, sh, H, n, det->strict_lines);
    grid_shift_by_score(w->resp, w->small, sw, sh, H, n, det->strict_lines);
    if (w->nst) {
        /* the lines' bits between the stones may pull the grid off them: the stones decide */
        int on0, on1;
        stones_on_grid(w, H0, n, &on0);
        stones_on_grid(w, H, n, &on1);
        if (on1 < STONES_KEEP * on0) {
            memcpy(H, H0, sizeof H0);
            rms = -1;
        }
    }
    det->stats.grid_score = grid_image_score(w->resp, sw, sh, H, n, NULL);
    int on = 0;
    bool stones_ok = w->nst && stones_on_grid(w, H, n, &on) >= STONES_ON_SHARE && on >= STONES_MIN;
    if (w->nst ? !stones_ok : det->stats.grid_score < det->min_grid_score) {
        det->stage_ms[VSTAGE_GRID] += vision_now_ms() - t0;
        return false;
    }
    /* to full-size pixels */
    double S[9] = {1 / scale, 0, 0, 0, 1 / scale, 0, 0, 0, 1}, Hf[9];
    hom_mul(S, H, Hf);
    orient(Hf, n);
    out->n = n;
    memcpy(out->H, Hf, sizeof Hf);
    out->rms = rms;
    double x0, y0, x1, y1, x2, y2;
    hom_apply(Hf, (n - 1) / 2.0, (n - 1) / 2.0, &x0, &y0);
    hom_apply(Hf, (n - 1) / 2.0 + 1, (n - 1) / 2.0, &x1, &y1);
    hom_apply(Hf, (n - 1) / 2.0, (n - 1) / 2.0 + 1, &x2, &y2);
    out->spacing_px = (hypot(x1 - x0, y1 - y0) + hypot(x2 - x0, y2 - y0)) / 2;
    det->stats.fit_rms = rms;
    det->stats.spacing_px = out->spacing_px;
    det->stage_ms[VSTAGE_GRID] += vision_now_ms() - t0;
    if (det->debug) {
        struct grid gs = *out;
        double Si[9] = {scale, 0, 0, 0, scale, 0, 0, 0, 1};
        hom_mul(Si, Hf, gs.H);
        debug_write_grid(det, "2_segments_grid", w->small, sw, sh, &gs, NULL, w->seg, w->nseg);
    }
    return true;
}

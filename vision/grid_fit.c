/* vision/grid_fit.c — the grid's geometry from detected lines.
 *
 * Seen through a camera, a family of parallel, evenly spaced grid lines crosses any transversal
 * line at positions t(k) = (a k + b) / (c k + 1): a 1-D projective lattice. lattice_fit_many finds
 * it by RANSAC over triples of neighbouring detected lines (wood grain, table edges and stone rims
 * are outliers), then places the board's window of n lines where the support is and the lines
 * just outside are not. grid_refine then pulls the whole homography onto every segment that lies
 * along a grid line (a linear least-squares problem in the inverse homography), and the star
 * points (dots at known intersections) anchor the window against whole-line shifts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

#define KMIN (-40)
#define KMAX 60
#define NK   (KMAX - KMIN + 1)

double lattice_pos(const struct lattice *l, double k)
{
    return (l->a * k + l->b) / (l->c * k + 1);
}

double lattice_index(const struct lattice *l, double t)
{
    double d = l->a - l->c * t;
    if (fabs(d) < 1e-12) return 1e9;
    return (t - l->b) / d;
}

/* The lattice through (k_i, t_i), least squares when m > 3. */
static bool solve_abc(const double *k, const double *t, const double *w, int m, double abc[3])
{
    double A[9] = {0}, b[3] = {0};
    for (int i = 0; i < m; i++) {
        double r[3] = {k[i], 1, -k[i] * t[i]};
        double wi = w ? w[i] : 1;
        for (int p = 0; p < 3; p++) {
            for (int q = 0; q < 3; q++) A[p * 3 + q] += wi * r[p] * r[q];
            b[p] += wi * r[p] * t[i];
        }
    }
    if (!solve_linear(A, b, 3)) return false;
    memcpy(abc, b, sizeof b);
    return true;
}

struct votes {
    double v[NK]; /* support of each integer index */
    double tol;
};

static void cast_votes(const struct lattice *l, const double *t, const double *w, int m,
                       struct votes *vt)
{
    memset(vt->v, 0, sizeof vt->v);
    for (int i = 0; i < m; i++) {
        double k = lattice_index(l, t[i]);
        if (!(k > KMIN - 0.5 && k < KMAX + 0.5)) continue;
        int K = (int)lround(k);
        if (l->c * K + 1 <= 0.05) continue; /* beyond the horizon */
        double r = fabs(k - K);
        if (r > vt->tol) continue;
        double s = w[i] * (1 - 0.5 * r / vt->tol);
        if (s > vt->v[K - KMIN]) vt->v[K - KMIN] = s;
    }
}

/* Best window of n lines: support inside, minus lines on the lattice just outside, minus lines
 * expected inside the image but missing. */
static double best_window(const struct lattice *l, const struct votes *vt, int n, double tmin,
                          double tmax, double typical, int *k0_out, int *hits_out)
{
    double best = -1e18;
    for (int k0 = KMIN; k0 + n - 1 <= KMAX; k0++) {
        if (l->c * k0 + 1 <= 0.05 || l->c * (k0 + n - 1) + 1 <= 0.05) continue;
        double s = 0;
        int hits = 0;
        for (int k = k0; k < k0 + n; k++) {
            double v = vt->v[k - KMIN];
            if (v > 0) {
                s += v;
                hits++;
            } else {
                double tk = lattice_pos(l, k);
                if (tk > tmin && tk < tmax) s -= 0.5 * typical;
            }
        }
        for (int k = k0 - 2; k < k0; k++)
            if (k >= KMIN) s -= vt->v[k - KMIN];
        for (int k = k0 + n; k < k0 + n + 2; k++)
            if (k <= KMAX) s -= vt->v[k - KMIN];
        if (s > best) {
            best = s;
            *k0_out = k0;
            *hits_out = hits;
        }
    }
    return best;
}

/* Score a lattice hypothesis over the allowed sizes, filling out when better than *best. */
static void consider(struct lattice *l, const double *t, const double *w, int m, int n, double tmin,
                     double tmax, double typical, struct lattice *best)
{
    static const int sizes[] = {19, 13, 9};
    struct votes vt = {.tol = 0.14};
    cast_votes(l, t, w, m, &vt);
    for (int s = 0; s < 3; s++) {
        int nn = n ? n : sizes[s];
        if (n && s > 0) break;
        int k0 = 0, hits = 0;
        double sc = best_window(l, &vt, nn, tmin, tmax, typical, &k0, &hits);
        /* a smaller board must earn its place: a 19 window whose outer lines are missing
         * loses to a 9 or 13 one by the missing-line penalty already */
        if (sc > best->score) {
            *best = *l;
            best->k0 = k0;
            best->n = nn;
            best->score = sc;
            best->hits = hits;
        }
    }
}

/* Two lattices predict the same board lines (to a quarter spacing) */
static bool same_lines(const struct lattice *x, const struct lattice *y)
{
    if (x->n != y->n) return false;
    for (int k = 0; k < x->n; k++) {
        double a = lattice_pos(x, x->k0 + k), b = lattice_pos(y, y->k0 + k);
        double sp = fabs(lattice_pos(x, x->k0 + k + 1) - a);
        if (!(fabs(a - b) < 0.25 * sp)) return false;
    }
    return true;
}

/* Keep the max best distinct lattices in list (sorted by score, descending). */
static void keep(struct lattice *list, int *cnt, int max, const struct lattice *l)
{
    for (int i = 0; i < *cnt; i++)
        if (same_lines(&list[i], l)) {
            if (l->score <= list[i].score) return;
            memmove(&list[i], &list[i + 1], (size_t)(*cnt - i - 1) * sizeof *list);
            (*cnt)--;
            break;
        }
    int pos = *cnt;
    while (pos > 0 && list[pos - 1].score < l->score) pos--;
    if (pos >= max) return;
    int last = *cnt < max ? *cnt : max - 1;
    memmove(&list[pos + 1], &list[pos], (size_t)(last - pos) * sizeof *list);
    list[pos] = *l;
    if (*cnt < max) (*cnt)++;
}

/* Least squares on the lines inside the window, twice; k re-based so the window starts at 0. */
static struct lattice polish(struct lattice best, const double *t, const double *w, int m,
                             double tmin, double tmax, double typical, double *kk)
{
    double *tt = kk + m, *ww = kk + 2 * m;
    for (int it = 0; it < 2; it++) {
        int q = 0;
        for (int i = 0; i < m; i++) {
            double k = lattice_index(&best, t[i]);
            long K = lround(k);
            if (fabs(k - K) > 0.2 || K < best.k0 || K >= best.k0 + best.n) continue;
            kk[q] = (double)K - best.k0, tt[q] = t[i], ww[q] = w[i];
            q++;
        }
        double abc[3];
        if (q < 4 || !solve_abc(kk, tt, ww, q, abc)) break;
        struct lattice l = {.a = abc[0], .b = abc[1], .c = abc[2]};
        struct lattice nb = {.score = -1e18};
        consider(&l, t, w, m, best.n, tmin, tmax, typical, &nb);
        if (nb.score < best.score - 1e-9) break;
        best = nb;
    }
    /* t = (a (k + k0) + b) / (c (k + k0) + 1) = ((a/den) k + (a k0 + b)/den) / ((c/den) k + 1) */
    double k0 = best.k0, den = best.c * k0 + 1;
    struct lattice r = best;
    r.a = best.a / den;
    r.c = best.c / den;
    r.b = (best.a * k0 + best.b) / den;
    r.k0 = 0;
    return r;
}

/* Hypotheses from triples of lines close in order among the lines idx[0..m-1] of t (spurious
 * lines from stone rims and grain may sit between true neighbours), with about equal gaps. */
static void hypotheses(const int *idx, int m, const double *t, const double *w, int mall, int n,
                       double tmin, double tmax, double typical, struct lattice *list, int *cnt,
                       int cap)
{
    for (int i0 = 0; i0 + 2 < m; i0++)
        for (int i1 = i0 + 1; i1 < m && i1 <= i0 + 4; i1++)
            for (int i2 = i1 + 1; i2 < m && i2 <= i1 + 4; i2++) {
                double t0 = t[idx[i0]], t1 = t[idx[i1]], t2 = t[idx[i2]];
                double d1 = t1 - t0, d2 = t2 - t1;
                if (d1 < 3 || d2 < 3 || d2 / d1 > 1.3 || d1 / d2 > 1.3) continue;
                double kk[3] = {0, 1, 2}, tt[3] = {t0, t1, t2}, abc[3];
                if (!solve_abc(kk, tt, NULL, 3, abc)) continue;
                struct lattice l = {.a = abc[0], .b = abc[1], .c = abc[2]};
                struct lattice b = {.score = -1e18};
                consider(&l, t, w, mall, n, tmin, tmax, typical, &b);
                if (b.score > -1e17) keep(list, cnt, cap, &b);
            }
}

/* A line this much less inked than the darkest lines is no candidate drawn line for the second
 * round of hypotheses (grain stripes: a tenth to a third of a printed line's contrast). */
#define INK_STRONG 0.5

int lattice_fit_many(const double *t, const double *w, const double *ink, int m, int n, double tmin,
                     double tmax, struct lattice *out, int max)
{
    if (m < 3 || max < 1) return 0;
    double *ws = malloc((size_t)m * 4 * sizeof *ws);
    if (!ws) return 0;
    memcpy(ws, w, (size_t)m * sizeof *ws);
    qsort(ws, (size_t)m, sizeof *ws, grid_cmp_double);
    double typical = ws[m / 2];

    struct lattice list[16];
    int cnt = 0, cap = max * 2 < 16 ? max * 2 : 16;
    int *idx = malloc((size_t)m * sizeof *idx);
    if (!idx) {
        free(ws);
        return 0;
    }
    for (int i = 0; i < m; i++) idx[i] = i;
    hypotheses(idx, m, t, w, m, n, tmin, tmax, typical, list, &cnt, cap);
    /* again among the well-inked lines only: strong wood grain may lay more stripes between two
     * drawn lines than the triples above reach over */
    if (ink) {
        memcpy(ws, ink, (size_t)m * sizeof *ws);
        qsort(ws, (size_t)m, sizeof *ws, grid_cmp_double);
        double dark = ws[m * 9 / 10];
        int ms = 0;
        for (int i = 0; i < m; i++)
            if (ink[i] >= INK_STRONG * dark) idx[ms++] = i;
        if (ms < m) hypotheses(idx, ms, t, w, m, n, tmin, tmax, typical, list, &cnt, cap);
    }
    free(idx);
    int q = 0;
    for (int i = 0; i < cnt; i++) {
        struct lattice p = polish(list[i], t, w, m, tmin, tmax, typical, ws + m);
        bool dup = false;
        for (int j = 0; j < q; j++) dup = dup || same_lines(&out[j], &p);
        if (!dup && q < max) out[q++] = p;
    }
    free(ws);
    return q;
}

/* ---- homography refinement from segments ---- */

double grid_refine(double H[9], int n, const struct segment *seg, int nseg, int iterations)
{
    double rms = -1;
    for (int it = 0; it < iterations; it++) {
        double G[9];
        if (!hom_invert(H, G)) return -1;
        /* normalise image coordinates about the grid's centre */
        double cx, cy, ex, ey;
        hom_apply(H, (n - 1) / 2.0, (n - 1) / 2.0, &cx, &cy);
        hom_apply(H, n - 1, (n - 1) / 2.0, &ex, &ey);
        double sc = 1 / fmax(hypot(ex - cx, ey - cy), 1);
        double tol = it == 0 ? 0.3 : 0.18;
        double A[64] = {0}, b[8] = {0}, sq = 0, sw = 0;
        int used[2] = {0, 0};
        for (int i = 0; i < nseg; i++) {
            double u1, v1, u2, v2;
            hom_apply(G, seg[i].x1, seg[i].y1, &u1, &v1);
            hom_apply(G, seg[i].x2, seg[i].y2, &u2, &v2);
            int fam;
            double k;
            if (fabs(u1 - u2) < 0.25 * fabs(v1 - v2)) {
                fam = 0, k = round((u1 + u2) / 2);
                if (fabs(u1 - k) > tol || fabs(u2 - k) > tol) continue;
                if (fmax(v1, v2) < -0.3 || fmin(v1, v2) > n - 0.7) continue;
            } else if (fabs(v1 - v2) < 0.25 * fabs(u1 - u2)) {
                fam = 1, k = round((v1 + v2) / 2);
                if (fabs(v1 - k) > tol || fabs(v2 - k) > tol) continue;
                if (fmax(u1, u2) < -0.3 || fmin(u1, u2) > n - 0.7) continue;
            } else
                continue;
            if (k < 0 || k > n - 1) continue;
            used[fam]++;
            double d1 = fam ? v1 - k : u1 - k, d2 = fam ? v2 - k : u2 - k;
            sq += seg[i].len * (d1 * d1 + d2 * d2) / 2;
            sw += seg[i].len;
            for (int e = 0; e < 3; e++) {
                double x = e == 0 ? seg[i].x1 : e == 1 ? seg[i].x2 : (seg[i].x1 + seg[i].x2) / 2;
                double y = e == 0 ? seg[i].y1 : e == 1 ? seg[i].y2 : (seg[i].y1 + seg[i].y2) / 2;
                double q1 = (x - cx) * sc, q2 = (y - cy) * sc, wgt = seg[i].len / 3;
                double r[8] = {0};
                if (fam == 0)
                    r[0] = q1, r[1] = q2, r[2] = 1;
                else
                    r[3] = q1, r[4] = q2, r[5] = 1;
                r[6] = -k * q1, r[7] = -k * q2;
                for (int p = 0; p < 8; p++) {
                    for (int q = 0; q < 8; q++) A[p * 8 + q] += wgt * r[p] * r[q];
                    b[p] += wgt * r[p] * k;
                }
            }
        }
        if (used[0] < 3 || used[1] < 3) return rms;
        rms = sqrt(sq / sw);
        if (!solve_linear(A, b, 8)) return rms;
        /* G' maps normalised image points to the grid; G = G' * N, H = G^-1 */
        double Gn[9] = {b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], 1};
        double N[9] = {sc, 0, -sc * cx, 0, sc, -sc * cy, 0, 0, 1}, Gf[9], Hn[9];
        hom_mul(Gn, N, Gf);
        if (!hom_invert(Gf, Hn)) return rms;
        /* keep the refinement only if it stays close to where it started */
        double ox, oy, nx, ny, worst = 0;
        for (int c = 0; c < 4; c++) {
            double u = (c == 1 || c == 2) ? n - 1 : 0, v = c >= 2 ? n - 1 : 0;
            hom_apply(H, u, v, &ox, &oy);
            hom_apply(Hn, u, v, &nx, &ny);
            worst = fmax(worst, hypot(nx - ox, ny - oy) * sc);
        }
        if (worst > 0.2) return rms;
        if (fabs(Hn[8]) > 1e-12)
            for (int k = 0; k < 9; k++) Hn[k] /= Hn[8];
        memcpy(H, Hn, sizeof Hn);
    }
    return rms;
}

/* ---- placing the window of n lines by the image itself ---- */

/* The line evidence of grid_line_evidence; *wood (may be NULL): the mean grey beside the line
 * where it shows (-1 where it never does). */
static double line_evidence(const uint8_t *g, int w, int h, const double H[9], int n, int fam,
                            double k, bool strict, double *wood)
{
    int good = 0, total = 0, steps = 4 * (n - 1);
    double side = 0;
    for (int i = 0; i <= steps; i++) {
        double s = (double)i / 4;
        double u = fam ? s : k, v = fam ? k : s, du = fam ? 0 : 0.3, dv = fam ? 0.3 : 0;
        double x, y, ax, ay, bx, by;
        hom_apply(H, u, v, &x, &y);
        hom_apply(H, u + du, v + dv, &ax, &ay);
        hom_apply(H, u - du, v - dv, &bx, &by);
        double l = grid_grey_at(g, w, h, x, y), o1 = grid_grey_at(g, w, h, ax, ay),
               o2 = grid_grey_at(g, w, h, bx, by);
        if (l < 0 || o1 < 0 || o2 < 0) continue;
        total++;
        /* strict: and deeper than the two sides differ: the board's edge against the table (a
         * darker rim, the table beyond) is a step, not a line. (Closer beside the line, 0.12
         * spacings, lost real photos, whose lines are wide: 130 -> 122 of 180 boards right.) */
        if (l + 2 < o1 && l + 2 < o2 && (!strict || fabs(o1 - o2) < fmin(o1, o2) - l)) {
            good++;
            side += (o1 + o2) / 2;
        }
    }
    if (wood) *wood = good ? side / good : -1;
    return total * 3 >= steps ? (double)good / total : -1;
}

double grid_line_evidence(const uint8_t *g, int w, int h, const double H[9], int n, int fam,
                          double k, bool strict)
{
    return line_evidence(g, w, h, H, n, fam, k, strict, NULL);
}

/* Star points (hoshi) of an n board, as grid indices; how many (0 for sizes without a known
 * layout). */
static int star_points(int n, int out[9][2])
{
    int a, b, c, m = 0;
    if (n == 19)
        a = 3, b = 9, c = 15;
    else if (n == 13)
        a = 3, b = 6, c = 9;
    else if (n == 9)
        a = 2, b = 4, c = 6;
    else
        return 0;
    int v[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            /* 9 and 13: only the four corner points and the centre */
            if (n != 19 && (i == 1) != (j == 1)) continue;
            out[m][0] = v[i], out[m][1] = v[j];
            m++;
        }
    return m;
}

/* How much a dot sits on intersection (u, v): the board a little way off along the diagonals
 * minus the pixels just off the intersection along them (off both lines, so dark only under a
 * star point's dot — or a black stone, which darkens both and so does not count). -1e9 when
 * outside the image. */
static double dot_contrast(const uint8_t *g, int w, int h, const double H[9], double u, double v)
{
    static const double dir[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    double in = 0, out = 0;
    for (int k = 0; k < 4; k++) {
        double x, y;
        hom_apply(H, u + 0.08 * dir[k][0], v + 0.08 * dir[k][1], &x, &y);
        double a = grid_grey_at(g, w, h, x, y);
        hom_apply(H, u + 0.3 * dir[k][0], v + 0.3 * dir[k][1], &x, &y);
        double b = grid_grey_at(g, w, h, x, y);
        if (a < 0 || b < 0) return -1e9;
        in += a, out += b;
    }
    return (out - in) / 4;
}

/* The star points fix the window against whole-line shifts that the lines alone cannot tell
 * apart (an outer line lost under stones or the margin's edge taken for a line): among shifts
 * of up to 3 lines each way, the one under which clearly more star points show a dot than under
 * any other. true if H was moved. */
static bool star_anchor(const uint8_t *g, int w, int h, double H[9], int n)
{
    int st[9][2];
    int ns = star_points(n, st);
    if (!ns) return false;
    /* a plain intersection's contrast: the median over the board */
    double *c = malloc((size_t)n * n * sizeof *c);
    if (!c) return false;
    int m = 0;
    for (int u = 0; u < n; u++)
        for (int v = 0; v < n; v++) {
            double d = dot_contrast(g, w, h, H, u, v);
            if (d > -1e8) c[m++] = d;
        }
    if (m < n * n / 2) {
        free(c);
        return false;
    }
    qsort(c, (size_t)m, sizeof *c, grid_cmp_double);
    double base = c[m / 2], spread = c[m * 9 / 10] - c[m / 10];
    free(c);
    double thr = base + fmax(10, 0.3 * spread);
    int best = -1, second = -1, bsu = 0, bsv = 0;
    double best_sum = -1e18;
    for (int su = -3; su <= 3; su++)
        for (int sv = -3; sv <= 3; sv++) {
            int cnt = 0;
            double sum = 0;
            for (int i = 0; i < ns; i++) {
                double d = dot_contrast(g, w, h, H, st[i][0] + su, st[i][1] + sv);
                if (d > thr) cnt++;
                if (d > -1e8) sum += d;
            }
            if (cnt > best || (cnt == best && sum > best_sum)) {
                if (cnt > best) second = best;
                best = cnt, best_sum = sum, bsu = su, bsv = sv;
            } else if (cnt > second)
                second = cnt;
        }
    if (best < 3 || best < second + 2 || (!bsu && !bsv)) return false;
    double T[9] = {1, 0, bsu, 0, 1, bsv, 0, 0, 1}, out[9];
    hom_mul(H, T, out);
    memcpy(H, out, sizeof out);
    return true;
}

/* Under this share of its samples darker than the board to both sides a line is none (a
 * drawn line passes nearly everywhere that no stone lies on it), and a window holding such a
 * line inside the image loses this much (a line's full evidence is 1). */
#define LINE_ABSENT 0.1
#define ABSENT_COST 0.3
/* Under this share of the board's grey beside its lines (the median over the lines that show),
 * the ground beside a line is not the board (a table 0.55-0.6 of it in the renders) */
#define OFF_BOARD 0.7

/* With the window's one end out of the picture and the other in it, the lines beyond the
 * outermost one whose ground looks like the board (counting outward over the end in the
 * picture) lie on the table, whose streaks pass for lines: a window reaching over the board's
 * near edge onto them lost nothing at its unseen end and gained them. They show no line.
 * Lines inside the board are never judged by their ground (stones, shadows darken it). */
static void off_board_lines(double ev[64], const double wood[64], int n)
{
    bool lo_in = ev[6] >= 0, hi_in = ev[n - 1 + 6] >= 0;
    if (lo_in == hi_in) return;
    int dir = hi_in ? 1 : -1; /* outward over the end in the picture */
    double ref[64];
    int nref = 0;
    for (int k = -6; k < n + 6; k++)
        if (ev[k + 6] >= 0.5) ref[nref++] = wood[k + 6];
    if (nref < 3) return;
    qsort(ref, (size_t)nref, sizeof *ref, grid_cmp_double);
    double cut = OFF_BOARD * ref[nref / 2];
    int from = dir > 0 ? -6 : n + 5, to = dir > 0 ? n + 6 : -7, edge = to;
    for (int k = from; k != to; k += dir)
        if (ev[k + 6] >= 0.5 && wood[k + 6] >= cut) edge = k;
    /* the board's edge within a shift's reach (3 lines) of the window's end in the picture, or
     * beyond it: else the lines between are the board's own, weak (a worn or shaded board) */
    int end = dir > 0 ? n - 1 : 0;
    if (edge == to || (edge - end) * dir < -3) return;
    for (int k = edge + dir; k != to; k += dir)
        if (ev[k + 6] > 0 && wood[k + 6] < cut) ev[k + 6] = 0;
}

bool grid_window_has_absent_line(const uint8_t *g, int w, int h, const double H[9], int n)
{
    for (int fam = 0; fam < 2; fam++)
        for (int k = 0; k < n; k++) {
            double ev = grid_line_evidence(g, w, h, H, n, fam, k, true);
            if (ev >= 0 && ev < LINE_ABSENT) return true;
        }
    return false;
}

bool grid_place_window(const uint8_t *g, int w, int h, double H[9], int n, bool strict)
{
    bool moved = false;
    for (int it = 0; it < 3; it++) {
        int shift[2] = {0, 0};
        for (int fam = 0; fam < 2; fam++) {
            double ev[64], wood[64];
            for (int k = -6; k < n + 6; k++)
                ev[k + 6] = line_evidence(g, w, h, H, n, fam, k, strict, &wood[k + 6]);
            if (strict) off_board_lines(ev, wood, n);
            double best = -1e9;
            for (int s = -3; s <= 3; s++) {
                /* lines inside the window should look like lines (out of the image: no say;
                 * strict: one in it that shows none costs: the board's edge against the table
                 * is a line to the line mask, and with the far edge out of the frame a window
                 * reaching over it would lose nothing), the two just outside each end should
                 * not */
                double sc = 0;
                for (int k = s; k < s + n; k++)
                    sc += strict && ev[k + 6] >= 0 && ev[k + 6] < LINE_ABSENT ? -ABSENT_COST
                                                                              : fmax(ev[k + 6], 0);
                for (int k = s - 2; k < s; k++) sc -= fmax(ev[k + 6], 0);
                for (int k = s + n; k < s + n + 2; k++) sc -= fmax(ev[k + 6], 0);
                if (sc > best + 1e-9 || (fabs(sc - best) <= 1e-9 && abs(s) < abs(shift[fam])))
                    best = sc, shift[fam] = s;
            }
        }
        if (!shift[0] && !shift[1]) break;
        double T[9] = {1, 0, shift[0], 0, 1, shift[1], 0, 0, 1}, out[9];
        hom_mul(H, T, out);
        memcpy(H, out, sizeof out);
        moved = true;
    }
    if (star_anchor(g, w, h, H, n)) moved = true;
    return moved;
}

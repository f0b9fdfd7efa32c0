/* vision/read_points.c — every intersection: empty, black or white, with a confidence; or
 * occluded.
 *
 * Everything is relative to the frame's own board: the board's brightness and colour are learnt
 * from the gaps between intersections (cell centres, where no stone is ever centred), locally
 * (median of the neighbouring gaps) so uneven light and glare move the reference with them. A
 * stone is sampled at its body's image position (stone_height.c), an empty point is recognised
 * by its grid-line cross, and a white stone on a light board (only a little brighter than the
 * wood) by the cross it hides. Thresholds between board and stones come from the frame's own
 * distribution (Otsu), bounded by fixed floors so a board without white stones does not invent
 * them. A point whose neighbouring gaps do not look like board, or whose own colour is neither
 * board nor stone, is occluded (a hand, an arm, a sleeve): never read as a stone. A point whose
 * own grid lines show clearly is empty whatever the light does around it (glare, shadows), and
 * is never occluded. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

#define NG (OBS_MAX + 1)
/* The outer gaps sample the margin this far out from the edge lines (in spacings), not half a
 * spacing: a narrow margin, a lens's barrel or a thick board's side put half a spacing out on
 * the board's edge or the table. Measured over every render style: 0.5 left 6 % of a kaya
 * board's settled points occluded, 0.35 none. */
#define MARGIN_GAP 0.35
/* How far off the line from the board's chromaticity to grey a gap must lie to be taken for
 * skin or cloth, as a share of the board's chromaticity */
#define FOREIGN_OFF 0.3
/* A hand reaches in from beyond the board's edge: an occluded region that touches the edge is
 * taken for one from this many points (a glare patch in the middle needs grow_hands' size) */
#define EDGE_REGION 4
/* Grey above which a board's colour is clipped (its red channel saturates first) */
#define CLIP_LUM 230

struct sample {
    double lum;    /* mean grey */
    double rg, gb; /* mean R - G and G - B */
};

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

/* Mean over a (2k+1)^2 pattern of points inside radius rad around (x, y). */
static struct sample disc(const struct read_image *im, double x, double y, double rad, int k)
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

/* The grey at grid position (u, v), adding it to *sum and counting it in *cnt when it lies
 * inside the frame (a clamped pixel beyond the edge of a partial view is no sample). */
static void grey_at(const struct read_image *im, const struct grid *g, double u, double v,
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

static double median(double *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Otsu's threshold over values v (n of them); *sep gets the distance between the class means
 * divided by the pooled standard deviation. */
static double otsu(const double *v, int n, double *sep)
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

static double clamp01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* A hand's edge is where a covered point is most easily read as a stone (a knuckle's shadow, a
 * stone half hidden under a finger). A stone read next to an occluded region of a hand's size
 * (min_region points or more, or EDGE_REGION when it reaches the board's edge) is not
 * trusted: it becomes occluded too. Empty points and lone
 * occluded points (a glint) are left as they are. */
static void grow_hands(struct observation *obs, int n, int min_region)
{
    static const int dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    static const int dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    int label[OBS_POINTS], size[OBS_POINTS], stack[OBS_POINTS];
    bool edge[OBS_POINTS]; /* the region reaches the board's edge */
    for (int p = 0; p < OBS_POINTS; p++) label[p] = -1;
    int nl = 0;
    for (int y0 = 0; y0 < n; y0++)
        for (int x0 = 0; x0 < n; x0++) {
            int p0 = y0 * OBS_MAX + x0;
            if (!obs->occluded[p0] || label[p0] >= 0) continue;
            int sp = 0, cnt = 0;
            edge[nl] = false;
            stack[sp++] = p0;
            label[p0] = nl;
            while (sp) {
                int p = stack[--sp], x = p % OBS_MAX, y = p / OBS_MAX;
                cnt++;
                edge[nl] |= x == 0 || y == 0 || x == n - 1 || y == n - 1;
                for (int d = 0; d < 8; d++) {
                    int ax = x + dx[d], ay = y + dy[d];
                    if (ax < 0 || ay < 0 || ax >= n || ay >= n) continue;
                    int q = ay * OBS_MAX + ax;
                    if (!obs->occluded[q] || label[q] >= 0) continue;
                    label[q] = nl;
                    stack[sp++] = q;
                }
            }
            size[nl++] = cnt;
        }
    bool grow[OBS_POINTS] = {0};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (obs->occluded[p] || obs->point[p] == OBS_EMPTY) continue;
            for (int d = 0; d < 8; d++) {
                int ax = x + dx[d], ay = y + dy[d];
                if (ax < 0 || ay < 0 || ax >= n || ay >= n) continue;
                int l = label[ay * OBS_MAX + ax];
                if (l >= 0 && (size[l] >= min_region || (edge[l] && size[l] >= EDGE_REGION)))
                    grow[p] = true;
            }
        }
    for (int p = 0; p < OBS_POINTS; p++)
        if (grow[p]) {
            obs->occluded[p] = true;
            obs->point[p] = OBS_EMPTY;
            obs->conf[p] = 0;
        }
}

/* Each gap's board reference: the median of the 5x5 gaps around it, or of those of them marked
 * in use when use is given and at least three are (else the reference is left as it was). */
static void board_reference(const struct sample *gap, const bool *use, int n, struct sample *ref)
{
    double a[3][25];
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++) {
            int m = 0;
            for (int y = gy - 2; y <= gy + 2; y++)
                for (int x = gx - 2; x <= gx + 2; x++) {
                    if (x < 0 || y < 0 || x > n || y > n) continue;
                    if (use && !use[y * NG + x]) continue;
                    const struct sample *s = &gap[y * NG + x];
                    a[0][m] = s->lum, a[1][m] = s->rg, a[2][m] = s->gb;
                    m++;
                }
            if (use && m < 3) continue;
            struct sample *r = &ref[gy * NG + gx];
            r->lum = median(a[0], m), r->rg = median(a[1], m), r->gb = median(a[2], m);
        }
}

void read_points(const struct vision_detector *det, const struct read_image *im,
                 const struct grid *g, const struct stone_geom *sg, struct observation *obs)
{
    int n = g->n;
    obs->w = obs->h = n;
    static const int dirs[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    /* gaps (cell centres) at (gx - 0.5, gy - 0.5) for gx, gy in 0..n; the outer ones on the
     * margin, MARGIN_GAP out */
    struct sample gap[NG * NG];
    bool seen[NG * NG]; /* the gap lies inside the frame: a partial view shows no more */
    double gap_xy[NG * NG][2];
    double tmp[NG * NG];
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++) {
            double x, y;
            double u = fmin(fmax(gx - 0.5, -MARGIN_GAP), n - 1 + MARGIN_GAP);
            double v = fmin(fmax(gy - 0.5, -MARGIN_GAP), n - 1 + MARGIN_GAP);
            hom_apply(g->H, u, v, &x, &y);
            gap[gy * NG + gx] = disc(im, x, y, 0.1 * g->spacing_px, 1);
            seen[gy * NG + gx] = x >= 0 && y >= 0 && x < im->w && y < im->h;
            gap_xy[gy * NG + gx][0] = x, gap_xy[gy * NG + gx][1] = y;
        }
    /* Two passes. The first takes each gap's board reference from all the gaps around it; a
     * hand or an arm over the board's edge can fill most of such a window and become its own
     * reference (its gaps then look like board, its fingers like white stones: 9 stones read on
     * covered points in 3 x 36 renders). The second corrects those references from the gaps
     * whose corner points still show their grid lines (board for sure, glare and shadows
     * included; hands and stones not), where they disagree in colour (see below). */
    struct sample ref[NG * NG];
    bool board_gap[NG * NG];
    double gd[NG * NG];
    double gap_tol, board_chroma;
    bool tinted;
    bool grey_gap[NG * NG], foreign_gap[NG * NG];
    double rho[OBS_POINTS], neu[OBS_POINTS], cross[OBS_POINTS], bdist[OBS_POINTS];
    double grey[OBS_POINTS]; /* as neu, of colour over brightness: what glare and shade keep */
    /* beyond the frame's edge (a partial view): not seen, so never a stone (clamped pixels
     * were read as 31 black stones on one render). Read empty at confidence 0.5, the least a
     * settled view takes, rather than occluded: a camera that cannot see one edge still records
     * what it sees, as before */
    bool outside[OBS_POINTS], cut[OBS_POINTS], body_seen[OBS_POINTS];
    int badgaps[OBS_POINTS], darkgaps[OBS_POINTS], outer_bad[OBS_POINTS], foreign[OBS_POINTS],
        pale[OBS_POINTS];
    double whiteness[OBS_POINTS];
    double tb, tw, cross_e;
    bool use_cross;
    bool lines[OBS_POINTS];
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 0) board_reference(gap, NULL, n, ref);
        /* how far each gap is from its board reference, and the typical spread */
        int ngap = 0;
        for (int i = 0; i < (n + 1) * NG; i++) {
            int gx = i % NG, gy = i / NG;
            if (gx > n || gy > n) continue;
            const struct sample *s = &gap[i], *r = &ref[i];
            double dl = (s->lum - r->lum) / fmax(r->lum, 20);
            double dc = hypot(s->rg - r->rg, s->gb - r->gb) / fmax(r->lum, 20);
            gd[i] = hypot(dl, 1.5 * dc);
            tmp[ngap++] = gd[i];
        }
        gap_tol = fmax(0.17, 5 * median(tmp, ngap));
        /* a colour frame of a tinted board: a stone's neutrality means something. A grey frame
         * (a monochrome camera, a grey JPEG decoded to colour) has none to tell */
        ngap = 0;
        for (int gy = 0; gy <= n; gy++)
            for (int gx = 0; gx <= n; gx++)
                tmp[ngap++] = hypot(ref[gy * NG + gx].rg, ref[gy * NG + gx].gb);
        board_chroma = median(tmp, ngap);
        tinted = im->color && board_chroma > 4;
        /* in a frame of a tinted board a gap as neutral as paper is not board: a white sleeve, a
         * shirt (glare washes the colour out only a little, and keeps the lines) */
        for (int i = 0; i < NG * NG; i++) {
            grey_gap[i] = false;
            if (i % NG > n || i / NG > n || !tinted || !(board_chroma > 8)) continue;
            grey_gap[i] = hypot(gap[i].rg, gap[i].gb) < 0.4 * board_chroma;
        }
        /* a gap whose colour is no mix of the board's and a stone's grey: skin, a sleeve.
         * Brightness aside (chromaticity: colour over brightness), a stone's body leaning over a
         * gap moves it from the board's colour straight towards grey; anything else moves it
         * off that line. Such a gap next to a "stone" says a hand is on it */
        for (int i = 0; i < NG * NG; i++) {
            foreign_gap[i] = false;
            if (i % NG > n || i / NG > n || !tinted || !(board_chroma > 8) || !seen[i]) continue;
            double lb = fmax(ref[i].lum, 20), lg = fmax(gap[i].lum, 20);
            double bx = ref[i].rg / lb, by = ref[i].gb / lb, len = hypot(bx, by);
            if (len < 1e-3) continue;
            double off = fabs((gap[i].rg / lg) * by - (gap[i].gb / lg) * bx) / len;
            /* glare also moves it off the line, by clipping the red; but it brightens */
            foreign_gap[i] = off > FOREIGN_OFF * len && gap[i].lum < ref[i].lum;
        }

        /* per point: the stone body sample, the board reference and the grid-line cross */
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int p = y * OBS_MAX + x;
                double px, py;
                hom_apply(g->H, x, y, &px, &py);
                outside[p] = px < 0 || py < 0 || px >= im->w || py >= im->h;
                double r = sg->radius_px[p] > 0 ? sg->radius_px[p] : g->spacing_px / 2;
                struct sample s =
                    disc(im, px + sg->offset[p][0], py + sg->offset[p][1], 0.45 * r, 2);
                struct sample b = {0, 0, 0};
                badgaps[p] = darkgaps[p] = outer_bad[p] = foreign[p] = pale[p] = 0;
                for (int k = 0; k < 4; k++) {
                    int gi = (y + dirs[k][1]) * NG + (x + dirs[k][0]);
                    b.lum += ref[gi].lum / 4, b.rg += ref[gi].rg / 4, b.gb += ref[gi].gb / 4;
                    /* a gap beyond the frame's edge (a partial view) tells nothing */
                    bool bad = (gd[gi] > gap_tol || grey_gap[gi]) && seen[gi];
                    badgaps[p] += bad;
                    /* out of reach of the stone's own body (which leans over a gap in an oblique
                     * view) */
                    double bx = px + sg->offset[p][0], by = py + sg->offset[p][1];
                    bool clear =
                        hypot(gap_xy[gi][0] - bx, gap_xy[gi][1] - by) - 0.1 * g->spacing_px >
                        1.1 * r;
                    int gx = x + dirs[k][0], gy = y + dirs[k][1];
                    outer_bad[p] += bad && clear && (gx == 0 || gy == 0 || gx == n || gy == n);
                    /* grey and brighter than the board beyond the stone's reach */
                    pale[p] += grey_gap[gi] && clear && seen[gi] && gap[gi].lum > 1.1 * ref[gi].lum;
                    /* far darker than the board */
                    darkgaps[p] += seen[gi] && gap[gi].lum < 0.6 * ref[gi].lum;
                    foreign[p] += foreign_gap[gi];
                }
                double bl = fmax(b.lum, 20);
                rho[p] = s.lum / bl;
                double bchroma = hypot(b.rg, b.gb), schroma = hypot(s.rg, s.gb);
                /* 1 = as neutral as a stone can be, 0 = as coloured as the board */
                neu[p] = tinted && bchroma > 8 ? clamp01((bchroma - schroma) / bchroma) : 0;
                grey[p] = tinted && bchroma > 8
                              ? clamp01(1 - (schroma / fmax(s.lum, 20)) / (bchroma / bl))
                              : 0;
                bdist[p] = hypot((s.lum - b.lum) / bl, 1.5 * hypot(s.rg - b.rg, s.gb - b.gb) / bl);
                /* the cross: grid lines darker than the board just off them */
                double on = 0, off = 0;
                int non = 0, noff = 0;
                if (x > 0) grey_at(im, g, x - 0.25, y, &on, &non);
                if (x < n - 1) grey_at(im, g, x + 0.25, y, &on, &non);
                if (y > 0) grey_at(im, g, x, y - 0.25, &on, &non);
                if (y < n - 1) grey_at(im, g, x, y + 0.25, &on, &non);
                for (int k = 0; k < 4; k++)
                    grey_at(im, g, x + (k & 1 ? 0.25 : -0.25), y + (k & 2 ? 0.25 : -0.25), &off,
                            &noff);
                cross[p] = non && noff ? (off / noff - on / non) / bl : 0;
                /* at the frame's edge the body sample and the cross are partly clamped pixels */
                double bx = px + sg->offset[p][0], by = py + sg->offset[p][1], br = 0.45 * r;
                body_seen[p] = bx >= 0 && by >= 0 && bx <= im->w - 1 && by <= im->h - 1;
                cut[p] = bx - br < 0 || by - br < 0 || bx + br > im->w - 1 || by + br > im->h - 1 ||
                         non + noff < (x > 0) + (x < n - 1) + (y > 0) + (y < n - 1) + 4;
                whiteness[p] = (rho[p] - 1) / 0.08 + neu[p] / 0.35;
            }

        /* black: darker than the board by a frame-adaptive margin */
        double vals[OBS_POINTS];
        int m = 0;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) vals[m++] = rho[y * OBS_MAX + x];
        double sep;
        tb = otsu(vals, m, &sep);
        if (sep < 3 || tb > 0.72) tb = 0.6;
        if (tb < 0.35) tb = 0.35;
        /* white: brighter and more neutral than the board */
        m = 0;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++)
                if (rho[y * OBS_MAX + x] >= tb) vals[m++] = whiteness[y * OBS_MAX + x];
        tw = otsu(vals, m, &sep);
        if (sep < 3 || tw < 1.2) tw = fmax(tw, 2.0);

        /* the frame's own grid-line cross on empty board: a stone hides it. Brightness alone is a
         * weak cue for a white stone on a light board (a few per cent brighter than the wood), the
         * hidden cross is a strong one when the lines show well on the empty points */
        m = 0;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int p = y * OBS_MAX + x;
                if (rho[p] >= tb && whiteness[p] < tw * 0.5 && badgaps[p] == 0)
                    vals[m++] = cross[p];
            }
        cross_e = m >= 8 ? median(vals, m) : 0;
        use_cross = cross_e > 0.12;

        /* the point's own grid lines show clearly (half the frame's typical cross; a stone or a
         * hand leaves a tenth): nothing lies on it, neither a stone nor a hand. Glare and shadows
         * change the board's brightness, not its lines: on the renders this took the settled points
         * taken for covered from 2.3 % to 0.2 % */
        for (int p = 0; p < OBS_POINTS; p++) lines[p] = use_cross && cross[p] > 0.5 * cross_e;
        if (!use_cross || pass == 1) break;
        int nboard = 0;
        for (int gy = 0; gy <= n; gy++)
            for (int gx = 0; gx <= n; gx++) {
                bool all = true;
                for (int k = 0; k < 4; k++) {
                    int x = gx - 1 + dirs[k][0], y = gy - 1 + dirs[k][1];
                    if (x >= 0 && y >= 0 && x < n && y < n)
                        all &= cross[y * OBS_MAX + x] > 0.25 * cross_e;
                }
                board_gap[gy * NG + gx] = all && seen[gy * NG + gx];
                nboard += board_gap[gy * NG + gx];
            }
        /* too few to tell the board by (a board full of stones), or a grey board: keep the
         * first pass */
        if (nboard < 6 || !tinted || !(board_chroma > 8)) break;
        /* a window taken over by something else differs from the board in its chromaticity
         * (colour over brightness), which shadows and dim light leave alone: only there is the
         * reference taken from the sure board gaps. Elsewhere the first pass stands (a shadow's
         * edge splits a window, and its sure gaps need not be the nearer ones) */
        struct sample sure[NG * NG];
        memcpy(sure, ref, sizeof sure);
        board_reference(gap, board_gap, n, sure);
        int ncr = 0;
        for (int gy = 0; gy <= n; gy++)
            for (int gx = 0; gx <= n; gx++) {
                const struct sample *r = &ref[gy * NG + gx];
                tmp[ncr++] = hypot(r->rg, r->gb) / fmax(r->lum, 20);
            }
        double board_cr = median(tmp, ncr);
        int moved = 0;
        for (int gy = 0; gy <= n; gy++)
            for (int gx = 0; gx <= n; gx++) {
                int i = gy * NG + gx;
                double la = fmax(ref[i].lum, 20), lb = fmax(sure[i].lum, 20);
                double d =
                    hypot(ref[i].rg / la - sure[i].rg / lb, ref[i].gb / la - sure[i].gb / lb);
                /* not towards a brighter reference: a glare spot keeps its lines and is sure
                 * board, but its clipped colour is no reference for the board around it. Nor
                 * from a clipped one: its colour says nothing */
                if (d > 0.25 * board_cr && sure[i].lum <= 1.05 * ref[i].lum &&
                    ref[i].lum < CLIP_LUM)
                    ref[i] = sure[i], moved++;
            }
        if (!moved) break;
    }

    obs->noccluded = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            uint8_t v;
            double conf;
            if (lines[p]) {
                v = OBS_EMPTY;
                conf = 1;
            } else if (rho[p] < tb) {
                v = OBS_BLACK;
                conf = clamp01((tb - rho[p]) / 0.15);
            } else if (use_cross && rho[p] < 0.85 && grey[p] > 0.7 && cross[p] < 0.1 * cross_e) {
                /* a black stone in a lamp's glare: lit grey, but as grey as a stone, darker
                 * than the board and hiding the lines (a shadow keeps the board's colour) */
                v = OBS_BLACK;
                conf = 0.5;
            } else if (whiteness[p] > tw ||
                       (use_cross && whiteness[p] > 0.5 * tw && cross[p] < 0.1 * cross_e &&
                        (!tinted || neu[p] >= 0.45))) {
                v = OBS_WHITE;
                conf = clamp01((whiteness[p] - tw) / 1.5);
                /* brighter than the board with the lines hidden: sure */
                if (use_cross) conf = fmax(conf, clamp01(1 - cross[p] / (0.25 * cross_e)));
            } else {
                v = OBS_EMPTY;
                conf = clamp01((tw - whiteness[p]) / 1.5);
                if (cross[p] > 0.04) conf = fmax(conf, 0.9);
            }
            /* (a stone whose body's centre leans into the frame is seen, though its point is
             * not) */
            if (outside[p] && !body_seen[p]) v = OBS_EMPTY, conf = 0;
            bool occ = false;
            /* a stone is round: the gaps around it still show the board. Covered gaps mean
             * something large lies over the board. */
            if (badgaps[p] >= 3 && !lines[p]) occ = true;
            /* a stone on the edge with the margin beyond it covered: a hand reaching in from
             * outside the board (a stone never lies on the margin) */
            if (v != OBS_EMPTY && outer_bad[p] >= 2) occ = true;
            /* a white "stone" that goes on over a gap beyond a stone's reach: a pale finger */
            if (v == OBS_WHITE && pale[p] >= 1) occ = true;
            /* a black stone never darkens the gaps beside it as much as itself: a sleeve or an
             * arm's shadow does */
            if (v == OBS_BLACK && darkgaps[p] >= 2) occ = true;
            /* neither board nor stone: skin, cloth */
            if (v == OBS_EMPTY && bdist[p] > gap_tol * 1.2 && cross[p] < 0.03 && !cut[p])
                occ = true;
            /* a stone is neutral grey; a "stone" with the colour of skin or a sleeve is not one
             * (unsure is occluded, never a stone: bounds measured over every render scenario) */
            if (v == OBS_BLACK && tinted && neu[p] < 0.45 && rho[p] > 0.3) occ = true;
            if (v == OBS_WHITE && tinted && neu[p] < 0.45) occ = true;
            /* a "stone" with skin or cloth on a gap beside it: a finger on it or just over it */
            if (v != OBS_EMPTY && foreign[p] >= 1) occ = true;
            obs->point[p] = occ ? OBS_EMPTY : v;
            obs->conf[p] = occ ? 0 : (float)(0.5 + 0.5 * conf);
            obs->occluded[p] = occ;
        }
    /* hands are large: a point with a bad gap next to an occluded point is occluded too, and
     * so on along the hand (an arm reaching in covers a chain of such points) */
    for (bool changed = true; changed;) {
        changed = false;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int p = y * OBS_MAX + x;
                if (obs->occluded[p] || badgaps[p] == 0 || lines[p]) continue;
                bool next_to = false;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int xx = x + dx, yy = y + dy;
                        if (xx >= 0 && yy >= 0 && xx < n && yy < n &&
                            obs->occluded[yy * OBS_MAX + xx])
                            next_to = true;
                    }
                if (!next_to) continue;
                obs->occluded[p] = true;
                obs->point[p] = OBS_EMPTY;
                obs->conf[p] = 0;
                changed = true;
            }
    }
    /* fifteen points: measured over 3..15 on the renders, 15 takes the stones read under hands
     * from 18 to 12 of 2509 covered points at no cost; smaller regions (6, 10) take off a few
     * more but mistake glare patches for hands and lose settled points */
    grow_hands(obs, n, 15);
    /* a point beyond the frame's edge whose clamped sample looks like a stone (a stone cut off
     * by the frame, or not) is not known; nor is it a hand to grow */
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (!outside[p] || body_seen[p] || neu[p] < 0.7 || (rho[p] >= tb && whiteness[p] <= tw))
                continue;
            obs->occluded[p] = true;
            obs->point[p] = OBS_EMPTY;
            obs->conf[p] = 0;
        }
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) obs->noccluded += obs->occluded[y * OBS_MAX + x];
    (void)det;
}

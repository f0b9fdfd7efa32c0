/* vision/read_features.c — what each point shows: its stone body's colour (sampled where the
 * body appears, stone_height.c) against the board's reference, its grid-line cross, and how
 * the four gaps around it look (board, not board, skin, a pale sleeve, a dark arm). */
#include <math.h>

#include "vision/read_internal.h"

/* Whether a stone standing at (px, py) hides part of the gap at xy: its silhouette runs from
 * its base on the intersection to its top, twice its body's offset away (an oblique view), r
 * wide. */
static bool reaches(double px, double py, const double off[2], const double xy[2], double r)
{
    double ax = xy[0] - px, ay = xy[1] - py, sx = 2 * off[0], sy = 2 * off[1];
    double l2 = sx * sx + sy * sy;
    double t = l2 > 1e-9 ? (ax * sx + ay * sy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(ax - t * sx, ay - t * sy) < r;
}

/* How well the grid line leaving intersection (x, y) along (du, dv) shows, over the board's
 * brightness bl: a thin dark valley between brighter flanks on both sides, found within a few
 * pixels of where the grid puts it (a grid that misses the line by a pixel or two, a lens's
 * barrel). The lower flank counts, so the edge of a shadow or of a hand (a step) is no line,
 * and neither is a stone's smooth shading. */
/* The arm's search reach, in pixels, at most (a spacing of 600 px), and its profile's length. */
#define ARM_REACH_MAX   60.0
#define ARM_PROFILE_MAX (8 * 60 + 1)

static double arm_line(const struct read_image *im, const struct grid *g, int x, int y, int du,
                       int dv, double bl)
{
    static const double along[3] = {0.18, 0.26, 0.34};
    double a[3][2], nx = 0, ny = 0;
    for (int i = 0; i < 3; i++)
        hom_apply(g->H, x + du * along[i], y + dv * along[i], &a[i][0], &a[i][1]);
    /* the image's normal to the line, and a pixel's share of the local spacing */
    double bx, by;
    hom_apply(g->H, x + du * 0.34, y + dv * 0.34, &bx, &by);
    double lx = bx - a[0][0], ly = by - a[0][1], ll = hypot(lx, ly);
    if (ll < 1e-6) return 0;
    nx = -ly / ll, ny = lx / ll;
    double spacing = ll / 0.16;
    double reach = spacing > 30 ? 0.1 * spacing : 3.0;
    reach = reach < ARM_REACH_MAX ? reach : ARM_REACH_MAX;
    /* the flanks' distance in whole half-pixel steps, so that the valley and both flanks are
     * read off one profile across the line, each sample once */
    int wsteps = (int)lround(2 * reach);
    double w = wsteps / 2.0;
    /* beyond the frame's edge (a partial view): no arm to tell by */
    for (int i = 0; i < 3; i++)
        for (int k = -1; k <= 1; k += 2) {
            double ex = a[i][0] + nx * k * (reach + w), ey = a[i][1] + ny * k * (reach + w);
            if (ex < 0 || ey < 0 || ex > im->w - 1 || ey > im->h - 1) return NAN;
        }
    /* valley centres t = -reach + k/2 for k < nt; profile sample j lies at t - w + j/2 */
    int nt = (int)floor(4 * reach + 2e-9) + 1, np = nt + 2 * wsteps;
    double prof[3][ARM_PROFILE_MAX];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < np; j++) {
            double s = -reach - w + 0.5 * j;
            prof[i][j] = read_grey_bilinear(im, a[i][0] + nx * s, a[i][1] + ny * s);
        }
    double best = -1e9;
    for (int k = 0; k < nt; k++) {
        double v = 1e9;
        for (int i = 0; i < 3; i++) {
            double f0 = prof[i][k], c = prof[i][k + wsteps], f1 = prof[i][k + 2 * wsteps];
            double d = (f0 < f1 ? f0 : f1) - c;
            v = d < v ? d : v;
        }
        best = v > best ? v : best;
    }
    return best / bl;
}

void point_features(const struct read_image *im, const struct grid *g, const struct stone_geom *sg,
                    const struct read_gaps *gs, struct read_points_f *pf)
{
    static const int dirs[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    int n = g->n;
    const struct sample *gap = gs->gap, *ref = gs->ref;
    bool tinted = gs->tinted;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            double px, py;
            hom_apply(g->H, x, y, &px, &py);
            pf->outside[p] = px < 0 || py < 0 || px >= im->w || py >= im->h;
            double r = sg->radius_px[p] > 0 ? sg->radius_px[p] : g->spacing_px / 2;
            struct sample s =
                read_disc(im, px + sg->offset[p][0], py + sg->offset[p][1], 0.45 * r, 2);
            struct sample b = {0, 0, 0};
            pf->badmask[p] = pf->reach[p] = 0;
            pf->badgaps[p] = pf->darkgaps[p] = pf->outer_bad[p] = pf->foreign[p] = pf->pale[p] = 0;
            pf->paper[p] = 0;
            for (int k = 0; k < 4; k++) {
                int gi = (y + dirs[k][1]) * NG + (x + dirs[k][0]);
                /* (where a glare lights the board more than the gaps around, its own gap is the
                 * board's brightness: a black stone at a glare's centre is lit grey, darker
                 * than that but not than the reference, and was read white) */
                bool lit = gs->lit[gi] && gs->gd[gi] > gs->tol;
                b.lum += (lit ? gap[gi].lum : ref[gi].lum) / 4;
                b.rg += ref[gi].rg / 4, b.gb += ref[gi].gb / 4;
                /* a gap beyond the frame's edge (a partial view) tells nothing */
                /* (nor does a glare's light: gs->lit) */
                bool bad = ((gs->gd[gi] > gs->tol && !gs->lit[gi]) || gs->grey[gi]) && gs->seen[gi];
                pf->badgaps[p] += bad;
                pf->badmask[p] |= (unsigned char)(bad << k);
                pf->reach[p] |= (unsigned char)(reaches(px, py, sg->offset[p], gs->xy[gi],
                                                        r + 0.1 * g->spacing_px)
                                                << k);
                /* out of reach of the stone's own body (which leans over a gap in an oblique
                 * view) */
                double bx = px + sg->offset[p][0], by = py + sg->offset[p][1];
                bool clear =
                    hypot(gs->xy[gi][0] - bx, gs->xy[gi][1] - by) - 0.1 * g->spacing_px > 1.1 * r;
                int gx = x + dirs[k][0], gy = y + dirs[k][1];
                pf->outer_bad[p] += bad && clear && (gx == 0 || gy == 0 || gx == n || gy == n);
                /* grey and brighter than the board beyond the stone's reach */
                pf->pale[p] +=
                    gs->grey[gi] && clear && gs->seen[gi] && gap[gi].lum > 1.1 * ref[gi].lum;
                /* far darker than the board */
                pf->darkgaps[p] += gs->seen[gi] && gap[gi].lum < DARK_GAP * ref[gi].lum;
                pf->foreign[p] += gs->foreign[gi];
                pf->paper[p] += gs->grey[gi] && !gs->washed[gi] && gs->seen[gi];
            }
            double bl = fmax(b.lum, 20);
            pf->rho[p] = s.lum / bl;
            double bchroma = hypot(b.rg, b.gb), schroma = hypot(s.rg, s.gb);
            /* 1 = as neutral as a stone can be, 0 = as coloured as the board */
            pf->neu[p] = tinted && bchroma > 8 ? read_clamp01((bchroma - schroma) / bchroma) : 0;
            pf->grey[p] = tinted && bchroma > 8
                              ? read_clamp01(1 - (schroma / fmax(s.lum, 20)) / (bchroma / bl))
                              : 0;
            /* as the gaps' foreign (read_gaps.c): the body's chromaticity off the line from
             * the board's to grey */
            double sl = fmax(s.lum, 20), bcx = b.rg / bl, bcy = b.gb / bl, blen = hypot(bcx, bcy);
            pf->offcolour[p] = tinted && bchroma > 8 && blen > 1e-3 &&
                               fabs((s.rg / sl) * bcy - (s.gb / sl) * bcx) / blen > 0.3 * blen;
            /* the body's chromaticity along the board's (1 the board's colour, 0 grey, below 0
             * the other side of grey) and across it, in shares of the board's. Skin lies on
             * the board's side of grey (a wood board's colour is skin's, less saturated or
             * more); a white stone under daylight or a cool lamp lies on the other side, or
             * at grey. On the 20 labelled photos the reader is tuned on, white stones along
             * -1.2..0.24 but on two boards (a warm lamp: 0.26..0.56; a board near grey, whose
             * colour gives no direction), their median at most 0.11; points of a hand read
             * white 0.28..0.74 (one 0.05). So a white body below COOL_ALONG is no skin, though
             * it may be no more neutral than the board by its chroma alone (pf->neu: a bluish
             * stone as coloured as a pale board has neu 0) */
            double along =
                       blen > 1e-3 ? ((s.rg / sl) * bcx + (s.gb / sl) * bcy) / (blen * blen) : 0,
                   across =
                       blen > 1e-3 ? ((s.rg / sl) * bcy - (s.gb / sl) * bcx) / (blen * blen) : 0;
            pf->cool[p] = tinted && bchroma > 8 && blen > 1e-3 && along < COOL_ALONG &&
                          hypot(along, across) < COOL_CHROMA;
            pf->bdist[p] = hypot((s.lum - b.lum) / bl, 1.5 * hypot(s.rg - b.rg, s.gb - b.gb) / bl);
            /* the cross: grid lines darker than the board just off them */
            double on = 0, off = 0;
            int non = 0, noff = 0;
            if (x > 0) read_grey_at(im, g, x - 0.25, y, &on, &non);
            if (x < n - 1) read_grey_at(im, g, x + 0.25, y, &on, &non);
            if (y > 0) read_grey_at(im, g, x, y - 0.25, &on, &non);
            if (y < n - 1) read_grey_at(im, g, x, y + 0.25, &on, &non);
            for (int k = 0; k < 4; k++)
                read_grey_at(im, g, x + (k & 1 ? 0.25 : -0.25), y + (k & 2 ? 0.25 : -0.25), &off,
                             &noff);
            pf->cross[p] = non && noff ? (off / noff - on / non) / bl : 0;
            /* the lines: the third best of the arms (of two at a corner, three at an edge, the
             * worst of them) */
            double arm[4];
            int na = 0;
            static const int adir[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
            for (int k = 0; k < 4; k++) {
                int ax = x + adir[k][0], ay = y + adir[k][1];
                if (ax < 0 || ay < 0 || ax >= n || ay >= n) continue;
                double v = arm_line(im, g, x, y, adir[k][0], adir[k][1], bl);
                if (!isnan(v)) arm[na++] = v;
            }
            for (int i = 1; i < na; i++)
                for (int j = i; j > 0 && arm[j] > arm[j - 1]; j--) {
                    double t = arm[j];
                    arm[j] = arm[j - 1], arm[j - 1] = t;
                }
            pf->line[p] = na ? arm[(na < 3 ? na : 3) - 1] : NAN;
            /* at the frame's edge the body sample and the cross are partly clamped pixels */
            double bx = px + sg->offset[p][0], by = py + sg->offset[p][1], br = 0.45 * r;
            pf->body_seen[p] = bx >= 0 && by >= 0 && bx <= im->w - 1 && by <= im->h - 1;
            pf->cut[p] = bx - br < 0 || by - br < 0 || bx + br > im->w - 1 || by + br > im->h - 1 ||
                         non + noff < (x > 0) + (x < n - 1) + (y > 0) + (y < n - 1) + 4;
            pf->whiteness[p] = (pf->rho[p] - 1) / 0.08 + pf->neu[p] / 0.35;
            /* A lamp's glare adds white light: the board there is brighter and its colour
             * paler in proportion, and the lines' contrast over the brightness falls by the same
             * share. Only where the board is brighter than the frame's typical board (a grey
             * sleeve over the references is darker, or keeps no colour at all: WASH_MIN). The
             * references are medians of the gaps around: at the spot's centre the point's own
             * body, as bright or brighter, says more (a white stone's too, but it hides the
             * lines whatever their threshold). */
            pf->unwashed[p] = pf->pale_b[p] = 1;
            if (tinted && gs->board_cy > 0.02 && b.lum > gs->board_lum) {
                double cy = bchroma / bl;
                pf->pale_b[p] = read_clamp01(cy / gs->board_cy);
                if (s.lum > gs->board_lum) cy = fmin(cy, schroma / fmax(s.lum, 20));
                pf->unwashed[p] = read_clamp01(cy / gs->board_cy);
            }
            /* washed out: the board's colour gone and its body as bright as a sensor clips */
            pf->washed[p] = pf->unwashed[p] < WASH_MIN && s.lum >= WASHED_LUM;
            pf->neutral[p] =
                tinted && gs->board_cy > 0.02 && schroma / fmax(s.lum, 20) < 0.5 * gs->board_cy;
        }
}

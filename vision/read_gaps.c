/* vision/read_gaps.c — the board between the points. The board's brightness and colour are
 * learnt from the gaps between intersections (cell centres, where no stone is ever centred),
 * locally (median of the neighbouring gaps) so uneven light and glare move the reference with
 * them; a gap far from its reference, as neutral as paper, or off the line from the board's
 * colour to a stone's grey is not board (a hand, a sleeve). */
#include <math.h>
#include <string.h>

#include "vision/read_internal.h"

/* The outer gaps sample the margin this far out from the edge lines (in spacings), not half a
 * spacing: a narrow margin, a lens's barrel or a thick board's side put half a spacing out on
 * the board's edge or the table. Measured over every render style: 0.5 left 6 % of a kaya
 * board's settled points occluded, 0.35 none. */
#define MARGIN_GAP 0.35
/* How far off the line from the board's chromaticity to grey a gap must lie to be taken for
 * skin or cloth, as a share of the board's chromaticity */
#define FOREIGN_OFF 0.3
/* A mix of board and a stone's grey is no more saturated than the board (noise aside) */
#define MIX_CHROMA 1.15
/* Grey above which a board's colour is clipped (its red channel saturates first) */
#define CLIP_LUM 230
/* gap_lit: the least light a glare adds to the darkest channel, a channel's noise, and the
 * level at which a channel is taken for clipped (a sample's mean over pixels of which some clip:
 * 229..254 for the red of a glare film's lit gaps) */
#define LIT_MIN   8
#define LIT_NOISE 8
#define LIT_CLIP  225

void gaps_sample(const struct read_image *im, const struct grid *g, struct read_gaps *gs)
{
    int n = g->n;
    /* gaps at (gx - 0.5, gy - 0.5) for gx, gy in 0..n; the outer ones on the margin,
     * MARGIN_GAP out */
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++) {
            double x, y;
            double u = fmin(fmax(gx - 0.5, -MARGIN_GAP), n - 1 + MARGIN_GAP);
            double v = fmin(fmax(gy - 0.5, -MARGIN_GAP), n - 1 + MARGIN_GAP);
            hom_apply(g->H, u, v, &x, &y);
            gs->gap[gy * NG + gx] = read_disc(im, x, y, 0.1 * g->spacing_px, 1);
            gs->seen[gy * NG + gx] = x >= 0 && y >= 0 && x < im->w && y < im->h;
            gs->xy[gy * NG + gx][0] = x, gs->xy[gy * NG + gx][1] = y;
        }
}

void gaps_reference(const struct sample *gap, const bool *use, int n, struct sample *ref)
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
            r->lum = read_median(a[0], m), r->rg = read_median(a[1], m),
            r->gb = read_median(a[2], m);
        }
}

/* R, G, B of a sample (lum is BT.601 luma: G = lum - 0.299 (R - G) + 0.114 (G - B)) */
static void sample_rgb(const struct sample *s, double c[3])
{
    double g = s->lum - 0.299 * s->rg + 0.114 * s->gb;
    c[0] = g + s->rg, c[1] = g, c[2] = g - s->gb;
}

/* Whether a gap shows the board of its reference under more light: a lamp's glare adds light of
 * its own colour (near white) to every channel alike, so each channel rises by about as much as
 * the darkest one, less only where it clips at the sensor's limit, and none falls. The board is
 * brighter there than the gaps around and its colour paler, so such a gap is far from its
 * reference (gd), yet board. Anything laid over the board changes the channels unevenly: skin
 * over a wood board raises its blue, not its green; a white sleeve raises the blue twice as much
 * as the green and darkens the red unless it is brighter than the board's red. */
static bool gap_lit(const struct sample *gap, const struct sample *ref)
{
    double a[3], b[3], d[3];
    sample_rgb(gap, a);
    sample_rgb(ref, b);
    int lo = 0, hi = 0;
    for (int k = 0; k < 3; k++) {
        d[k] = a[k] - b[k];
        if (b[k] < b[lo]) lo = k;
        if (b[k] > b[hi]) hi = k;
    }
    int mid = 3 - lo - hi;
    /* a glare that lights the board this much takes its brightest channel to the sensor's
     * limit (skin or a sleeve over a board in dim light lifts every channel too, but not there) */
    if (lo == hi || !(gap->lum > ref->lum) || d[lo] < LIT_MIN || a[hi] < LIT_CLIP) return false;
    for (int k = 0; k < 3; k++) {
        /* no channel darker (but by noise or where it clips), none gaining much more than the
         * darkest */
        if (d[k] < -LIT_NOISE && a[k] < LIT_CLIP) return false;
        if (d[k] > 1.25 * d[lo] + LIT_NOISE) return false;
    }
    /* the middle channel rises with the darkest unless it clips (on a glare film's lit gaps
     * 0.95..1.0 but where a stone's flank mixes in; a pale hand's gaps over a board's first line
     * 0.79..0.85: its blue rises most) */
    return d[mid] >= 0.9 * d[lo] || a[mid] >= LIT_CLIP;
}

void gaps_judge(const struct read_image *im, int n, struct read_gaps *gs)
{
    double tmp[NG * NG];
    const struct sample *gap = gs->gap, *ref = gs->ref;
    /* how far each gap is from its board reference, and the typical spread */
    int ngap = 0;
    for (int i = 0; i < (n + 1) * NG; i++) {
        int gx = i % NG, gy = i / NG;
        if (gx > n || gy > n) continue;
        const struct sample *s = &gap[i], *r = &ref[i];
        double dl = (s->lum - r->lum) / fmax(r->lum, 20);
        double dc = hypot(s->rg - r->rg, s->gb - r->gb) / fmax(r->lum, 20);
        gs->gd[i] = hypot(dl, 1.5 * dc);
        tmp[ngap++] = gs->gd[i];
    }
    gs->tol = fmax(0.17, 5 * read_median(tmp, ngap));
    /* a colour frame of a tinted board: a stone's neutrality means something. A grey frame
     * (a monochrome camera, a grey JPEG decoded to colour) has none to tell */
    ngap = 0;
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++)
            tmp[ngap++] = hypot(ref[gy * NG + gx].rg, ref[gy * NG + gx].gb);
    double chroma = gs->chroma = read_median(tmp, ngap);
    ngap = 0;
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++) tmp[ngap++] = ref[gy * NG + gx].lum;
    gs->board_lum = read_median(tmp, ngap);
    ngap = 0;
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++) {
            const struct sample *r = &ref[gy * NG + gx];
            tmp[ngap++] = hypot(r->rg, r->gb) / fmax(r->lum, 20);
        }
    gs->board_cy = read_median(tmp, ngap);
    bool tinted = gs->tinted = im->color && chroma > 4;
    /* a gap washed out by a lamp's glare (read_internal.h: WASH_MIN, WASHED_LUM), its
     * reference too, the median of the gaps around, paler than the board: a glare is broad, a
     * white cuff over a gap or two is not */
    for (int i = 0; i < NG * NG; i++) {
        gs->washed[i] = false;
        if (i % NG > n || i / NG > n || !tinted || !(gs->board_cy > 0.02)) continue;
        double lg = fmax(gap[i].lum, 20), lr = fmax(ref[i].lum, 20);
        gs->washed[i] = gap[i].lum >= WASHED_LUM &&
                        hypot(gap[i].rg, gap[i].gb) / lg < WASH_MIN * gs->board_cy &&
                        hypot(ref[i].rg, ref[i].gb) / lr < WASH_REF * gs->board_cy;
    }
    /* in a frame of a tinted board a gap as neutral as paper is not board: a white sleeve, a
     * shirt (glare washes the colour out only a little, and keeps the lines; where it washes
     * it out to the sensor's limit, gs->washed, and the gap is near its reference, washed as
     * well, the gap lies inside that glare: at the washed spot's rim a point's own body falls
     * just short of washed, and its grey gaps took it for covered one frame in a few, a hand
     * grown from it over the whole spot, and the view of a glare film did not settle for
     * seconds. A washed gap far from its reference stays grey: a lamp's highlight on a real
     * photo beside an empty point then read white. So does one beside a grey gap far from its
     * reference, unwashed: a white sleeve at the sensor's limit, broad enough to wash its own
     * references, ends there at the board in one step, where a glare fades through lit board;
     * a render's pale hand so read a white stone under it) */
    for (int i = 0; i < NG * NG; i++) {
        gs->grey[i] = false;
        if (i % NG > n || i / NG > n || !tinted || !(chroma > 8)) continue;
        gs->grey[i] = hypot(gap[i].rg, gap[i].gb) < 0.4 * chroma;
    }
    bool glare[NG * NG]; /* washed, near its reference, no such edge beside it */
    for (int i = 0; i < NG * NG; i++) {
        int gx = i % NG, gy = i / NG;
        glare[i] = gs->grey[i] && gs->washed[i] && gs->gd[i] <= gs->tol;
        for (int y = gy - 1; y <= gy + 1 && glare[i]; y++)
            for (int x = gx - 1; x <= gx + 1; x++) {
                int j = y * NG + x;
                if (x >= 0 && y >= 0 && x <= n && y <= n && gs->grey[j] && !gs->washed[j] &&
                    gs->gd[j] > gs->tol)
                    glare[i] = false;
            }
    }
    for (int i = 0; i < NG * NG; i++) gs->grey[i] &= !glare[i];
    /* a gap brighter than its reference by a glare's light (gap_lit) */
    for (int i = 0; i < NG * NG; i++)
        gs->lit[i] =
            i % NG <= n && i / NG <= n && tinted && gs->seen[i] && gap_lit(&gap[i], &ref[i]);
    /* a gap whose colour is no mix of the board's and a stone's grey: skin, a sleeve.
     * Brightness aside (chromaticity: colour over brightness), a stone's body leaning over a
     * gap moves it from the board's colour straight towards grey; anything else moves it
     * off that line. Such a gap next to a "stone" says a hand is on it */
    for (int i = 0; i < NG * NG; i++) {
        gs->foreign[i] = gs->mix[i] = false;
        if (i % NG > n || i / NG > n || !tinted || !(chroma > 8) || !gs->seen[i]) continue;
        double lb = fmax(ref[i].lum, 20), lg = fmax(gap[i].lum, 20);
        double bx = ref[i].rg / lb, by = ref[i].gb / lb, len = hypot(bx, by);
        if (len < 1e-3) continue;
        double off = fabs((gap[i].rg / lg) * by - (gap[i].gb / lg) * bx) / len;
        /* glare also moves it off the line, by clipping the red; but it brightens */
        gs->foreign[i] = off > FOREIGN_OFF * len && gap[i].lum < ref[i].lum;
        /* on the line and no more coloured than the board: the board with a stone's neutral
         * body over part or all of it, or a grey sleeve (read_classify.c tells them by the
         * stones around), not skin */
        double along = ((gap[i].rg / lg) * bx + (gap[i].gb / lg) * by) / len;
        gs->mix[i] = off <= FOREIGN_OFF * len && along <= MIX_CHROMA * len;
    }
}

/* The first pass takes each gap's board reference from all the gaps around it; a hand or an arm
 * over the board's edge can fill most of such a window and become its own reference (its gaps
 * then look like board, its fingers like white stones: 9 stones read on covered points in 3 x 36
 * renders). This corrects those references from the gaps whose corner points still show their
 * grid lines (board for sure, glare and shadows included; hands and stones not), where they
 * disagree in colour. */
bool gaps_correct(struct read_gaps *gs, int n, const double *cross, double cross_e)
{
    static const int dirs[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    bool board_gap[NG * NG];
    double tmp[NG * NG];
    struct sample *ref = gs->ref;
    int nboard = 0;
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++) {
            bool all = true;
            for (int k = 0; k < 4; k++) {
                int x = gx - 1 + dirs[k][0], y = gy - 1 + dirs[k][1];
                if (x >= 0 && y >= 0 && x < n && y < n)
                    all &= cross[y * OBS_MAX + x] > 0.25 * cross_e;
            }
            board_gap[gy * NG + gx] = all && gs->seen[gy * NG + gx];
            nboard += board_gap[gy * NG + gx];
        }
    /* too few to tell the board by (a board full of stones), or a grey board: keep the
     * first pass */
    if (nboard < 6 || !gs->tinted || !(gs->chroma > 8)) return false;
    /* a window taken over by something else differs from the board in its chromaticity
     * (colour over brightness), which shadows and dim light leave alone: only there is the
     * reference taken from the sure board gaps. Elsewhere the first pass stands (a shadow's
     * edge splits a window, and its sure gaps need not be the nearer ones) */
    struct sample sure[NG * NG];
    memcpy(sure, ref, sizeof sure);
    gaps_reference(gs->gap, board_gap, n, sure);
    int ncr = 0;
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++) {
            const struct sample *r = &ref[gy * NG + gx];
            tmp[ncr++] = hypot(r->rg, r->gb) / fmax(r->lum, 20);
        }
    double board_cr = read_median(tmp, ncr);
    int moved = 0;
    for (int gy = 0; gy <= n; gy++)
        for (int gx = 0; gx <= n; gx++) {
            int i = gy * NG + gx;
            double la = fmax(ref[i].lum, 20), lb = fmax(sure[i].lum, 20);
            double d = hypot(ref[i].rg / la - sure[i].rg / lb, ref[i].gb / la - sure[i].gb / lb);
            /* not towards a brighter reference: a glare spot keeps its lines and is sure
             * board, but its clipped colour is no reference for the board around it. Nor
             * from a clipped one: its colour says nothing */
            if (d > 0.25 * board_cr && sure[i].lum <= 1.05 * ref[i].lum && ref[i].lum < CLIP_LUM)
                ref[i] = sure[i], moved++;
        }
    return moved > 0;
}

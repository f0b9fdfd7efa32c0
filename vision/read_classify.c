/* vision/read_classify.c — each point: empty, black or white with a confidence, or occluded.
 * A point whose own grid lines show clearly is empty whatever the light does around it (glare,
 * shadows), and is never occluded. A point whose neighbouring gaps do not look like board, or
 * whose own colour is neither board nor stone, is occluded (a hand, an arm, a sleeve): never
 * read as a stone. */
#include <math.h>

#include "vision/read_internal.h"

/* The point's value and confidence (0..1) from its own samples. */
static int point_value(const struct read_points_f *pf, const struct read_thresholds *th,
                       bool tinted, int p, double *conf)
{
    double cross_e = th->cross_e, tb = th->tb, tw = th->tw;
    bool use_cross = th->use_cross;
    if (th->lines[p]) {
        *conf = 1;
        return OBS_EMPTY;
    }
    if (pf->rho[p] < tb) {
        *conf = read_clamp01((tb - pf->rho[p]) / 0.15);
        return OBS_BLACK;
    }
    if (use_cross && pf->rho[p] < 0.85 && pf->grey[p] > 0.7 && pf->cross[p] < 0.1 * cross_e) {
        /* a black stone in a lamp's glare: lit grey, but as grey as a stone, darker than the
         * board and hiding the lines (a shadow keeps the board's colour) */
        *conf = 0.5;
        return OBS_BLACK;
    }
    if (pf->whiteness[p] > tw ||
        (use_cross && pf->whiteness[p] > 0.5 * tw && pf->cross[p] < 0.1 * cross_e &&
         (!tinted || pf->neu[p] >= 0.45))) {
        *conf = read_clamp01((pf->whiteness[p] - tw) / 1.5);
        /* brighter than the board with the lines hidden: sure */
        if (use_cross) *conf = fmax(*conf, read_clamp01(1 - pf->cross[p] / (0.25 * cross_e)));
        return OBS_WHITE;
    }
    *conf = read_clamp01((tw - pf->whiteness[p]) / 1.5);
    if (pf->cross[p] > 0.04) *conf = fmax(*conf, 0.9);
    return OBS_EMPTY;
}

/* Whether something other than a stone lies on the point read v. */
static bool point_covered(const struct read_points_f *pf, const struct read_thresholds *th,
                          const struct read_gaps *gs, int p, int v)
{
    bool tinted = gs->tinted;
    /* a stone is round: the gaps around it still show the board. Covered gaps mean something
     * large lies over the board. */
    if (pf->badgaps[p] >= 3 && !th->lines[p]) return true;
    /* a stone on the edge with the margin beyond it covered: a hand reaching in from outside
     * the board (a stone never lies on the margin) */
    if (v != OBS_EMPTY && pf->outer_bad[p] >= 2) return true;
    /* a white "stone" that goes on over a gap beyond a stone's reach: a pale finger */
    if (v == OBS_WHITE && pf->pale[p] >= 1) return true;
    /* a black stone never darkens the gaps beside it as much as itself: a sleeve or an arm's
     * shadow does */
    if (v == OBS_BLACK && pf->darkgaps[p] >= 2) return true;
    /* neither board nor stone: skin, cloth */
    if (v == OBS_EMPTY && pf->bdist[p] > gs->tol * 1.2 && pf->cross[p] < 0.03 && !pf->cut[p])
        return true;
    /* a stone is neutral grey; a "stone" with the colour of skin or a sleeve is not one (unsure
     * is occluded, never a stone: bounds measured over every render scenario) */
    if (v == OBS_BLACK && tinted && pf->neu[p] < 0.45 && pf->rho[p] > 0.3) return true;
    if (v == OBS_WHITE && tinted && pf->neu[p] < 0.45) return true;
    /* a "stone" with skin or cloth on a gap beside it: a finger on it or just over it */
    if (v != OBS_EMPTY && pf->foreign[p] >= 1) return true;
    return false;
}

void classify_points(const struct read_points_f *pf, const struct read_thresholds *th,
                     const struct read_gaps *gs, int n, struct observation *obs)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            double conf;
            int v = point_value(pf, th, gs->tinted, p, &conf);
            /* beyond the frame's edge (a partial view): not seen, so never a stone (clamped
             * pixels were read as 31 black stones on one render). Read empty at confidence 0.5,
             * the least a settled view takes, rather than occluded: a camera that cannot see
             * one edge still records what it sees. (A stone whose body's centre leans into the
             * frame is seen, though its point is not.) */
            if (pf->outside[p] && !pf->body_seen[p]) v = OBS_EMPTY, conf = 0;
            bool occ = point_covered(pf, th, gs, p, v);
            obs->point[p] = occ ? OBS_EMPTY : (uint8_t)v;
            obs->conf[p] = occ ? 0 : (float)(0.5 + 0.5 * conf);
            obs->occluded[p] = occ;
        }
}

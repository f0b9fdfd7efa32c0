/* vision/read_thresholds.c — the frame's own thresholds between board and stones. They come
 * from the frame's distribution (Otsu), bounded by fixed floors so a board without white
 * stones does not invent them; and the typical grid-line cross of an empty point, by which a
 * white stone on a light board (only a little brighter than the wood) is told: it hides it. */
#include <math.h>

#include "vision/read_internal.h"

void read_thresholds(const struct read_points_f *pf, int n, struct read_thresholds *th)
{
    double vals[OBS_POINTS] = {0};
    /* black: darker than the board by a frame-adaptive margin */
    int m = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) vals[m++] = pf->rho[y * OBS_MAX + x];
    double sep;
    double tb = read_otsu(vals, m, &sep);
    if (sep < 3 || tb > 0.72) tb = 0.6;
    if (tb < 0.35) tb = 0.35;
    /* white: brighter and more neutral than the board */
    m = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            if (pf->rho[y * OBS_MAX + x] >= tb) vals[m++] = pf->whiteness[y * OBS_MAX + x];
    double tw = read_otsu(vals, m, &sep);
    if (sep < 3 || tw < 1.2) tw = fmax(tw, 2.0);

    /* the frame's own grid-line cross on empty board: a stone hides it. Brightness alone is a
     * weak cue for a white stone on a light board (a few per cent brighter than the wood), the
     * hidden cross is a strong one when the lines show well on the empty points */
    m = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (pf->rho[p] >= tb && pf->whiteness[p] < tw * 0.5 && pf->badgaps[p] == 0)
                vals[m++] = pf->cross[p];
        }
    double cross_e = m >= 8 ? read_median(vals, m) : 0;
    bool use_cross = cross_e > 0.12;
    /* and the typical line valley of those points */
    m = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (pf->rho[p] >= tb && pf->whiteness[p] < tw * 0.5 && pf->badgaps[p] == 0 &&
                !isnan(pf->line[p]))
                vals[m++] = pf->line[p];
        }
    double line_e = m >= 8 ? read_median(vals, m) : 0;

    /* the point's own grid lines show clearly: nothing lies on it, neither a stone nor a hand.
     * Glare and shadows change the board's brightness, not its lines: on the renders this took
     * the settled points taken for covered from 2.3 % to 0.2 %. Told by the lines' valleys
     * (read_features.c: three arms of four, found within a few pixels) rather than by the cross
     * (half the frame's typical one), which a grid off the lines by a pixel or two, an arm over
     * the margin beside an edge point, or a white stone's shaded flank in dim light fool: over the
     * 36 renders, uncovered stones whose cross shows 13 and settled empty points whose cross does
     * not 7,355, against 0 and about 1,000 for the valleys (LINE_SHOWS). The cross stays where a
     * point has no arm inside the frame. */
    for (int p = 0; p < OBS_POINTS; p++) {
        double wash = fmax(pf->unwashed[p], WASH_MIN);
        th->lines[p] = use_cross && (isnan(pf->line[p]) || !(line_e > 0)
                                         ? pf->cross[p] > 0.5 * cross_e * wash
                                         : pf->line[p] > LINE_SHOWS * line_e * wash);
    }
    th->tb = tb, th->tw = tw, th->cross_e = cross_e, th->use_cross = use_cross;
    th->line_e = line_e;
}

/* vision/read_points.c — every intersection: empty, black or white, with a confidence; or
 * occluded. The steps, each in its own file:
 *   read_gaps.c        the board between the points: its local colour, and gaps that are not
 *                      board (hands, sleeves)
 *   read_features.c    what each point shows: its stone body's colour (sampled where the body
 *                      appears, stone_height.c), its grid-line cross, its four gaps
 *   read_thresholds.c  the frame's own thresholds (Otsu, bounded) and typical cross
 *   read_classify.c    each point's value, or occluded
 *   read_hands.c       occlusion grown along hands, points beyond the frame
 * Everything is relative to the frame's own board, so light, white balance and shadows move the
 * references with them. */
#include <string.h>

#include "vision/read_internal.h"

void read_points(const struct vision_detector *det, const struct read_image *im,
                 const struct grid *g, const struct stone_geom *sg, struct observation *obs)
{
    int n = g->n;
    obs->w = obs->h = n;
    struct read_gaps gs;
    struct read_points_f pf;
    struct read_thresholds th;
    memset(&pf, 0, sizeof pf);
    gaps_sample(im, g, &gs);
    /* Two passes: the second only when some gap's board reference was taken over by a hand
     * (gaps_correct), read again with the corrected references */
    gaps_reference(gs.gap, NULL, n, gs.ref);
    for (int pass = 0; pass < 2; pass++) {
        gaps_judge(im, n, &gs);
        point_features(im, g, sg, &gs, &pf);
        read_thresholds(&pf, n, &th);
        if (!th.use_cross || pass == 1) break;
        if (!gaps_correct(&gs, n, pf.cross, th.cross_e)) break;
    }
    classify_points(&pf, &th, &gs, n, obs);
    hands_grow(&pf, &th, n, det->still_crowds, obs);
    obs->noccluded = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) obs->noccluded += obs->occluded[y * OBS_MAX + x];
}

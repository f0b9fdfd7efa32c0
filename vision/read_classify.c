/* vision/read_classify.c — each point: empty, black or white with a confidence, or occluded.
 * A point whose own grid lines show clearly is empty whatever the light does around it (glare,
 * shadows), and is never occluded. A point whose neighbouring gaps do not look like board, or
 * whose own colour is neither board nor stone, is occluded (a hand, an arm, a sleeve): never
 * read as a stone. */
#include <math.h>

#include "vision/read_internal.h"

/* As neutral as a black stone's body (0.96..0.99 on the renders; an empty point 0.2..0.3) */
#define BLACK_NEUTRAL 0.8
/* As neutral as a white stone's body (0.97..0.98 in a player's view of shell stones) */
#define WHITE_NEUTRAL 0.8
/* A white stone's body in dim light: as bright as the board but far more neutral (0.76..0.79
 * on a dim film's shell stones, an empty point's 0.1..0.2) */
#define WHITE_BODY_NEU 0.6
#define WHITE_BODY_RHO 0.9
/* ... or darker than the board when it hides the lines: a shadow keeps both the lines and the
 * board's colour (0.89..0.90 on a light board's dim film; 0.74..0.76 on a render's dim light
 * board, a white stone's shaded flank, its neutrality 0.71..0.73) */
#define WHITE_HIDING_RHO 0.7
/* A point's lines are hidden when its line valley is under this share of the frame's typical
 * one (stones' below 0.05 but for 1 in 100, an empty point's 0.7..1.3) */
#define LINE_HIDDEN 0.15
/* A black stone in a glare that washes the board out is at least this much darker than it */
#define GLARE_BLACK_RHO 0.9
/* A glare pales the board's colour around a point to under this share of the frame's board's
 * (a black stone at a glare spot's centre: 0.50..0.56 on a film; a shade keeps the colour) */
#define GLARE_PALE 0.7
/* A black stone lit by a lamp's glare beside it reads up to this much above the black bound
 * (tb's fallback 0.6, when too few stones part the frame's brightness: partial film gg13_05000,
 * a black stone at a glare's rim 0.607..0.617 over 500 frames, held covered for "neither board
 * nor stone") */
#define LIT_BLACK_MARGIN 0.1
/* A washed "white stone" no brighter than this share of the board around, and not as neutral as
 * one, is the board (classify_points) */
#define WASHED_WHITE_RHO 1.04
/* A stone's shadow darkens the board beside it to no less than this share of the board's
 * brightness (0.78..0.83 under a dim film's lamp); an arm's shadow or a sleeve goes deeper */
#define SHADOW_MIN 0.7
/* A "stone" far less neutral than this frame's own stones is skin or cloth. How neutral a stone
 * looks depends on the frame: a stone takes the light's colour, and a pale board is hardly more
 * coloured than that light (the labelled real photos: boards of chroma 7..57, their clear stones'
 * median neutrality 0..0.6 below chroma 50 and 0 on the palest; the renders' stones 0.96..0.99,
 * the colourful photos' 0.8..0.92). So every neutrality bound of a stone (STONE_NEU_MIN for a
 * stone against skin, BLACK_NEUTRAL and WHITE_NEUTRAL for a stone's body leaning over a gap)
 * scales with the median neutrality of the frame's stones that no other cue doubts, over this
 * typical one, and never rises above the renders' bound. A board so pale that its stones show
 * no neutrality has none to tell a hand by: the other cues (gaps, lines, darkness, a hand's
 * size) do. */
#define STONE_NEU_MIN     0.45
#define STONE_NEU_TYPICAL 0.9
/* ... measured over at least this many stones of the colour, else the bounds hold as they are */
#define STONE_NEU_COUNT 6

/* As neutral as a sleeve, not as the board (pf->grey: an empty point's body 0..0.02 median) */
#define NOT_BOARD_GREY 0.3

/* The point's value and confidence (0..1) from its own samples. */
static int point_value(const struct read_points_f *pf, const struct read_thresholds *th,
                       bool tinted, int p, double *conf)
{
    double cross_e = th->cross_e, tb = th->tb, tw = th->tw;
    bool use_cross = th->use_cross;
    /* (unless the body is a black stone's neutral dark: in an oblique view the cross's off-line
     * samples can fall on the white stones leaning in around it, which looks like a cross; a
     * shadow keeps the board's colour) */
    /* (nor when the body is a white stone's beyond doubt, brighter and as neutral as one, and
     * the cross at the intersection hidden: in a steep view the renderer's stone stands up from
     * its point, its image centre a quarter of a spacing above it, and its point lies a pixel
     * inside the silhouette's lower edge, so the arms towards the camera and beside it still show
     * their lines beyond it (player film 302: W 3,14 read empty, its arms 0.40/0.19/0.17/-0.07 of a
     * typical 0.26, whiteness 6 against 2.6, cross -0.3 of the typical, -0.47..0.0 over the
     * film). Glare lowers the cross only in proportion (read_thresholds.c's wash) */
    bool white_body = use_cross && pf->whiteness[p] > tw && pf->neu[p] > WHITE_NEUTRAL &&
                      pf->rho[p] > 1 && pf->cross[p] < 0.1 * cross_e;
    if (th->lines[p] && !white_body && !(tinted && pf->rho[p] < tb && pf->neu[p] > BLACK_NEUTRAL)) {
        *conf = 1;
        return OBS_EMPTY;
    }
    if (pf->rho[p] < tb) {
        *conf = read_clamp01((tb - pf->rho[p]) / 0.15);
        return OBS_BLACK;
    }
    /* just above the bound, as neutral as a stone, and hiding its own lines (their valleys
     * where they are measured, else the cross): a black stone lit by a glare beside it, in doubt
     * (a shadow on the board keeps its lines and its colour) */
    bool valleys = !isnan(pf->line[p]) && th->line_e > 0;
    if (pf->rho[p] < tb + LIT_BLACK_MARGIN && pf->neu[p] > WHITE_BODY_NEU && !pf->offcolour[p] &&
        (valleys ? pf->line[p] < LINE_HIDDEN * th->line_e
                 : use_cross && pf->cross[p] < 0.1 * cross_e)) {
        *conf = 0.5;
        return OBS_BLACK;
    }
    if (use_cross && pf->rho[p] < 0.85 && pf->grey[p] > 0.7 && pf->cross[p] < 0.1 * cross_e) {
        /* a black stone in a lamp's glare: lit grey, but as grey as a stone, darker than the
         * board and hiding the lines (a shadow keeps the board's colour) */
        *conf = 0.5;
        return OBS_BLACK;
    }
    /* the same in a glare that washes the board's colour out (its reference as grey as the
     * stone): only darker than the board there, and hiding the lines (rho 0.79 on a film) */
    if (use_cross && pf->unwashed[p] < WASH_MIN && pf->neutral[p] && pf->rho[p] < GLARE_BLACK_RHO &&
        pf->cross[p] < 0.1 * cross_e) {
        *conf = 0.5;
        return OBS_BLACK;
    }
    /* and in a glare that pales the board around (its gaps' colour under GLARE_PALE of the
     * frame's board's, whatever the body's own): lit grey, as neutral as a stone, darker than
     * the board and hiding the lines (film 327, a black stone at the spot's centre: rho 0.82,
     * neutrality 0.69, the board's colour 0.50..0.56 of the frame's; read white, as a white
     * stone's shaded flank would be, but that lies where a shade keeps the board's colour) */
    bool hidden = !isnan(pf->line[p]) && th->line_e > 0 ? pf->line[p] < LINE_HIDDEN * th->line_e
                                                        : pf->cross[p] < 0.1 * cross_e;
    if (use_cross && tinted && pf->pale_b[p] < GLARE_PALE && pf->rho[p] < WHITE_BODY_RHO &&
        pf->neu[p] > WHITE_BODY_NEU && !pf->offcolour[p] && hidden) {
        *conf = 0.5;
        return OBS_BLACK;
    }
    /* a white stone hides its lines: where the cross shows and so do the lines' dark valleys,
     * however faint, a "white stone" is pale board (a near-white board in a low view, its
     * references darkened by the stones leaning over its gaps: 57 (4,4)). A black stone's
     * body in a low view can stand off its point and show the cross, a white one was not seen
     * to (the labelled photos: no white stone with both, 3 true black ones) */
    /* (also where the lines are too faint in this frame to tell a stone by, use_cross, but
     * show at a point as well as at the frame's typical empty one: the board beside a sleeve
     * whose dark gaps darken its reference, held-out photo 53) */
    bool lines_faint = cross_e > 0 && pf->cross[p] > 0.5 * cross_e && pf->line[p] > 0;
    if (!lines_faint && (pf->whiteness[p] > tw ||
                         (use_cross && pf->whiteness[p] > 0.5 * tw &&
                          pf->cross[p] < 0.1 * cross_e && (!tinted || pf->neu[p] >= 0.45)))) {
        *conf = read_clamp01((pf->whiteness[p] - tw) / 1.5);
        /* brighter than the board with the lines hidden: sure */
        if (use_cross) *conf = fmax(*conf, read_clamp01(1 - pf->cross[p] / (0.25 * cross_e)));
        return OBS_WHITE;
    }
    /* a body far more neutral than the board's colour, not darker than it and not skin: a
     * white stone in dim light, no brighter than the wood (its whiteness at the threshold, it
     * was read as board one frame in three). Doubtful: the rule guard waits for more readings */
    if (tinted && pf->neu[p] > WHITE_BODY_NEU && !pf->offcolour[p] &&
        (pf->rho[p] > WHITE_BODY_RHO || (use_cross && pf->rho[p] > WHITE_HIDING_RHO && hidden))) {
        *conf = read_clamp01((pf->neu[p] - WHITE_BODY_NEU) / 0.3);
        return OBS_WHITE;
    }
    *conf = read_clamp01((tw - pf->whiteness[p]) / 1.5);
    if (pf->cross[p] > 0.04) *conf = fmax(*conf, 0.9);
    return OBS_EMPTY;
}

/* The gaps around p off the line from the board's colour to grey (gs->foreign) that are not
 * board by their colour distance either (gs->tol). On a pale board the line's direction is a
 * little chroma's noise, and a stone's flank over a gap, or the board's own grain, turns it off
 * that line by as little: on the 20 labelled photos 108 true stones were taken for covered for
 * a foreign gap, three in four of them for gaps within the board's tolerance alone; every
 * hand's point with a foreign gap had one beyond it (24 of 24, each also with three or four
 * gaps not board). */
/* (beside a white "stone" colder than grey, pf->cool, only a gap far off that line, or more
 * saturated than the board along it, is skin. A white stone's shadow or flank on a pinkish
 * board under mixed light turns a gap off the line as well, by less: on the labelled photos the
 * reader is tuned on, foreign gaps beside true stones 0.30..1.04 of the board's chromaticity
 * off it, all but one under 0.75, and 1.07 along it at most; beside a hand's points most lie
 * beyond, and a hand has others that do. Not beside a black "stone": the renders' knuckles
 * read black beside gaps 0.45 off the line, 0.83 along it, a stone read under a hand on seed 1) */
#define FOREIGN_FAR_OFF   0.8
#define FOREIGN_FAR_ALONG 1.15

static bool skin_gap(const struct read_gaps *gs, int gi)
{
    const struct sample *g = &gs->gap[gi], *r = &gs->ref[gi];
    double lb = fmax(r->lum, 20), lg = fmax(g->lum, 20);
    double bx = r->rg / lb, by = r->gb / lb, len2 = bx * bx + by * by;
    if (len2 < 1e-6) return true;
    double off = fabs((g->rg / lg) * by - (g->gb / lg) * bx) / len2;
    double along = ((g->rg / lg) * bx + (g->gb / lg) * by) / len2;
    return off > FOREIGN_FAR_OFF || along > FOREIGN_FAR_ALONG;
}

static int foreign_far(const struct read_gaps *gs, bool cool_white, int p)
{
    int x = p % OBS_MAX, y = p / OBS_MAX, far = 0;
    for (int k = 0; k < 4; k++) {
        int gi = (y + k / 2) * NG + x + k % 2;
        far += gs->foreign[gi] && gs->gd[gi] > gs->tol && (!cool_white || skin_gap(gs, gi));
    }
    return far;
}

/* Whether something other than a stone lies on the point read v. */
static bool point_covered(const struct read_points_f *pf, const struct read_thresholds *th,
                          const struct read_gaps *gs, const double neu_min[3], int p, int v)
{
    bool tinted = gs->tinted;
    /* a stone is round: the gaps around it still show the board. Covered gaps mean something
     * large lies over the board. */
    /* (a glare that washes the board out makes its gaps bad too, but not as neutral as paper,
     * unless it washes them out as well: a pale finger at the sensor's limit in a glare is as
     * washed as a white stone there, but the gaps it covers are paper, a white stone's are
     * glare. 3 white "stones" under fingers on a glare render, seed 500) */
    if (pf->badgaps[p] >= 3 && !th->lines[p] && (!pf->washed[p] || pf->paper[p] >= 2)) return true;
    /* a stone on the edge with the margin beyond it covered: a hand reaching in from outside
     * the board (a stone never lies on the margin) */
    if (v != OBS_EMPTY && pf->outer_bad[p] >= 2) return true;
    /* a white "stone" that goes on over a gap beyond a stone's reach: a pale finger (colder
     * than grey or not, pf->cool: between white stones crowded on a pale board, photo 41, the
     * gaps are as pale and grey, but excusing those read 2 more stones under pale fingers on
     * the renders of seed 1) */
    if (v == OBS_WHITE && pf->pale[p] >= 1) return true;
    /* a black stone never darkens the gaps beside it as much as itself: a sleeve or an arm's
     * shadow does */
    if (v == OBS_BLACK && pf->darkgaps[p] >= 2) return true;
    /* neither board nor stone: skin, cloth. In a colour frame of a tinted board, only when its
     * colour says so (as neutral as a sleeve, or off the board's line like skin): a body sample
     * darkened by a grid line it lies along (an oblique view) or by a shadow keeps the board's
     * colour, and its cross can be missed by a pixel's misfit (16255 such points taken for
     * covered on frames with no hand, 2 x 6 go_live games, grey 0.006 median) */
    if (v == OBS_EMPTY && pf->bdist[p] > gs->tol * 1.2 && pf->cross[p] < 0.03 && !th->lines[p] &&
        !pf->cut[p] && (!tinted || pf->grey[p] > NOT_BOARD_GREY || pf->offcolour[p]))
        return true;
    /* a stone is neutral grey; a "stone" with the colour of skin or a sleeve is not one (unsure
     * is occluded, never a stone: bounds measured over every render scenario) */
    /* (in a glare that washes the board out a stone is as grey as the board: pf->neutral) */
    bool washed_stone = pf->unwashed[p] < WASH_MIN && pf->neutral[p];
    if (v == OBS_BLACK && tinted && pf->neu[p] < neu_min[OBS_BLACK] && pf->rho[p] > 0.3 &&
        !washed_stone)
        return true;
    /* (a white "stone" colder than grey, pf->cool, is no skin however coloured: a bluish
     * stone on a pale board, as coloured as the board, photo 41) */
    if (v == OBS_WHITE && tinted && pf->neu[p] < neu_min[OBS_WHITE] && !pf->cool[p]) return true;
    /* a "stone" with skin or cloth on a gap beside it: a finger on it or just over it */
    if (v != OBS_EMPTY && pf->foreign[p] >= 1 &&
        foreign_far(gs, v == OBS_WHITE && pf->cool[p], p) >= 1)
        return true;
    return false;
}

/* The point's gaps far darker than the board (DARK_GAP) less those a black stone read next to
 * them explains: in an oblique view a tall stone's body and side face lean over its gaps, and a
 * cluster's stones shade the board between them. The stone reaches the gap (pf->reach), is as
 * neutral as a black stone, and its body is darker still than the gap (DARK_BODY_MARGIN); a
 * sleeve or an arm's shadow darkens its gaps as much as its own "stones". Never the point itself:
 * a hand's dark edge read black explained its own gaps and was read a stone (render seed 1,
 * kaya/leaning, a false stone in a settled frame). (Suicide film 38, a side view: from 45 s a
 * black stone beside its cluster, body 0.39 of the board's brightness, its two upper gaps 0.55
 * and 0.60, the one its neighbour's, was covered in 795 of 912 frames with no hand, and the
 * chain grew from it over the cluster.) */
#define DARK_BODY_MARGIN 1.25

static int unexplained_dark(const struct read_points_f *pf, const struct read_gaps *gs,
                            const uint8_t *val, const double neu_scale[3], int n, int p)
{
    static const int dirs[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    int x = p % OBS_MAX, y = p / OBS_MAX, dark = 0;
    double black_neu = BLACK_NEUTRAL * neu_scale[OBS_BLACK];
    for (int k = 0; k < 4; k++) {
        int gx = x + dirs[k][0], gy = y + dirs[k][1], gi = gy * NG + gx;
        double gl = gs->gap[gi].lum, rl = gs->ref[gi].lum;
        if (!gs->seen[gi] || gl >= DARK_GAP * rl) continue;
        bool explained = false;
        /* the gap's four corner points: the one at (gx - 1 + j % 2, gy - 1 + j / 2) sees it
         * as its gap 3 - j */
        for (int j = 0; j < 4 && !explained; j++) {
            int qx = gx - 1 + j % 2, qy = gy - 1 + j / 2, q = qy * OBS_MAX + qx;
            if (qx < 0 || qy < 0 || qx >= n || qy >= n) continue;
            explained = q != p && val[q] == OBS_BLACK && (pf->reach[q] >> (3 - j) & 1) &&
                        pf->neu[q] > black_neu && gl >= DARK_BODY_MARGIN * pf->rho[q] * rl;
        }
        dark += !explained;
    }
    return dark;
}

/* The point's bad gaps less those a stone read next to them explains: in an oblique view a
 * stone's body leans over its gaps, and touching stones hide the board between them (their gaps
 * then show the board darkened towards a stone's grey, gs->mix). A hand's gaps show skin or
 * cloth, not that mix. A white stone explains a gap only with its shaded flank, no brighter
 * than the board: explaining any grey gap let a pale finger read as a cluster of white "stones"
 * explain its own gaps (5 stones read under hands on 36 renders), and without white stones a
 * tight white group in a player's view was taken for a sleeve for good (go_live, a 19x19 game
 * lost 9 of its 16 moves). */
static int unexplained_gaps(const struct read_points_f *pf, const struct read_gaps *gs,
                            const uint8_t *val, const double neu_scale[3], int n, int p)
{
    static const int dirs[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    int x = p % OBS_MAX, y = p / OBS_MAX, bad = 0;
    double black_neu = BLACK_NEUTRAL * neu_scale[OBS_BLACK],
           white_neu = WHITE_NEUTRAL * neu_scale[OBS_WHITE];
    for (int k = 0; k < 4; k++) {
        if (!(pf->badmask[p] >> k & 1)) continue;
        int gx = x + dirs[k][0], gy = y + dirs[k][1];
        bool explained = false;
        /* the gap's four corner points: the one at (gx - 1 + j % 2, gy - 1 + j / 2) sees it
         * as its gap 3 - j */
        int gi = gy * NG + gx;
        /* a glare that washes the board out (gs->washed) explains a gap beside a black stone
         * in it; beside a white "stone" it may as well be a white sleeve, and an empty point
         * there is not seen (classify_points) */
        if (gs->washed[gi] && val[p] == OBS_BLACK && pf->unwashed[p] < WASH_MIN) continue;
        double gl = gs->gap[gi].lum, rl = gs->ref[gi].lum;
        for (int j = 0; j < 4 && gs->mix[gi] && !explained; j++) {
            int qx = gx - 1 + j % 2, qy = gy - 1 + j / 2, q = qy * OBS_MAX + qx;
            if (qx < 0 || qy < 0 || qx >= n || qy >= n) continue;
            double body = pf->rho[q] * rl;
            /* a stone's own shadow on the board beside it (a lamp): the board's colour a little
             * darker, beside a stone far darker or brighter than that shadow (a grey sleeve's
             * "stones" are as dark as its gaps) */
            if (gl < rl && gl >= SHADOW_MIN * rl &&
                ((val[q] == OBS_BLACK && pf->neu[q] > black_neu && body < 0.6 * gl) ||
                 (val[q] == OBS_WHITE && pf->neu[q] > white_neu && pf->rho[q] > 1))) {
                /* (not a white stone colder than grey but less neutral than the frame's: a
                 * render's pale finger so explained its own shadow, 2 stones read under hands on
                 * seed 900) */
                explained = true;
                break;
            }
            if (!(pf->reach[q] >> (3 - j) & 1)) continue;
            /* between the board and the stone's own body */
            if (val[q] == OBS_BLACK)
                explained = pf->neu[q] > black_neu && gl < rl && gl >= 0.8 * body;
            /* a white stone's shaded flank: grey, no brighter than the board (a pale sleeve
             * or a white cuff over a gap is brighter), not as dark as an arm's shadow */
            /* (as neutral as a white stone in this frame, or colder than grey: pf->cool) */
            /* Or its lit face in an oblique view: brighter than the board but not than the
             * stone, keeping the board's colour, not grey (a pale sleeve's gaps are grey, a
             * finger's off the board's line: no mix). (Suicide film 38, a side view: a glass
             * white stone 1.27 of the board over its upper gaps at 1.16 and 1.17 was covered
             * for three bad gaps in 157 of 912 frames with no hand.) */
            else if (val[q] == OBS_WHITE)
                explained = (pf->neu[q] > white_neu || pf->cool[q]) && pf->rho[q] > 1 &&
                            ((gl <= rl && gl >= DARK_GAP * rl) ||
                             (gl > rl && gl <= pf->rho[q] * rl && !gs->grey[gi]));
        }
        bad += !explained;
    }
    return bad;
}

/* The neutrality below which a "stone" of colour v is taken for skin or cloth in this frame
 * (STONE_NEU_TYPICAL): from the stones read v that nothing else doubts, their own lines hidden,
 * at most one of their gaps not board, and no point around them covered by a cue other than
 * colour (a hand's points have more bad gaps, or skin or a deep shadow beside them; a pale
 * finger read as a cluster of white "stones" lies beside its own pale gaps: seed 500, 2 such
 * "stones" lowered the bound for a third). hard: those points, from point_covered with no
 * neutrality bound. */
static double stone_neu_scale(const struct read_points_f *pf, const struct read_thresholds *th,
                              const uint8_t *val, const bool *hard, int n, int v)
{
    double neu[OBS_POINTS];
    int m = 0;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x, raw = 0;
            for (int k = 0; k < 4; k++) raw += pf->badmask[p] >> k & 1;
            if (val[p] != v || th->lines[p] || raw > 1 || pf->foreign[p] || pf->darkgaps[p] ||
                pf->outer_bad[p] || pf->outside[p])
                continue;
            bool near = false;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx, yy = y + dy;
                    near |= xx >= 0 && yy >= 0 && xx < n && yy < n && hard[yy * OBS_MAX + xx];
                }
            if (!near) neu[m++] = pf->neu[p];
        }
    if (m < STONE_NEU_COUNT) return 1;
    return fmin(1, read_median(neu, m) / STONE_NEU_TYPICAL);
}

void classify_points(struct read_points_f *pf, const struct read_thresholds *th,
                     const struct read_gaps *gs, int n, struct observation *obs)
{
    uint8_t val[OBS_POINTS] = {0};
    double cf[OBS_POINTS];
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            val[p] = (uint8_t)point_value(pf, th, gs->tinted, p, &cf[p]);
            /* beyond the frame's edge (a partial view): not seen, so never a stone (clamped
             * pixels were read as 31 black stones on one render), and no evidence for the guard
             * (OBS_OUT_OF_VIEW_CONF, below), rather than occluded: a camera that cannot see one
             * edge still records what it sees. (A stone whose body's centre leans into the
             * frame is seen, though its point is not.) */
            if (pf->outside[p] && !pf->body_seen[p]) val[p] = OBS_EMPTY, cf[p] = 0;
        }
    /* the frame's neutrality scale (STONE_NEU_TYPICAL), from a first reading of the gaps with
     * the renders' bounds; the gaps are then explained again with the scaled bounds */
    double scale[3] = {1, 1, 1};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            pf->badgaps[p] = unexplained_gaps(pf, gs, val, scale, n, p);
            pf->darkgaps[p] = unexplained_dark(pf, gs, val, scale, n, p);
        }
    static const double no_neu[3] = {0, 0, 0};
    bool hard[OBS_POINTS] = {0};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            hard[p] = point_covered(pf, th, gs, no_neu, p, val[p]);
        }
    scale[OBS_BLACK] = stone_neu_scale(pf, th, val, hard, n, OBS_BLACK);
    scale[OBS_WHITE] = stone_neu_scale(pf, th, val, hard, n, OBS_WHITE);
    if (scale[OBS_BLACK] < 1 || scale[OBS_WHITE] < 1)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int p = y * OBS_MAX + x;
                pf->badgaps[p] = unexplained_gaps(pf, gs, val, scale, n, p);
                pf->darkgaps[p] = unexplained_dark(pf, gs, val, scale, n, p);
            }
    double neu_min[3] = {0, STONE_NEU_MIN * scale[OBS_BLACK], STONE_NEU_MIN * scale[OBS_WHITE]};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            double conf = cf[p];
            int v = val[p];
            /* in a glare that washes the board out to the sensor's limit a point read empty may
             * hold a white stone that looks like the board: it is not seen (no evidence for the
             * rule guard), and no hand is there either, so the view still settles (a stone
             * that shows, black or brighter than the washed board, is read as it is). Unless its
             * own lines show there (their valleys, which a stone hides): then it is empty */
            /* A "white stone" there that keeps some of the board's colour and is no brighter
             * than the board around is that board itself, clipped almost as a white stone's
             * body clips (a glare spot on the board's edge read a white stone on the first line
             * for good: neutrality 0.57, rho 0.97..0.98; washed shell stones 0.97..1.00 and
             * 1.04..1.09, glass stones, which show the board through them, 0.66..0.75 and
             * 1.11..1.24) */
            bool washed = pf->washed[p] && !th->lines[p] &&
                          (v == OBS_EMPTY || (v == OBS_WHITE && pf->neu[p] < WHITE_NEUTRAL &&
                                              pf->rho[p] < WASHED_WHITE_RHO));
            bool occ = !washed && point_covered(pf, th, gs, neu_min, p, v);
            obs->point[p] = occ || washed ? OBS_EMPTY : (uint8_t)v;
            obs->conf[p] = occ ? 0 : washed ? OBS_WASHED_OUT_CONF : (float)(0.5 + 0.5 * conf);
            obs->occluded[p] = occ;
            /* what a hand shows and touching stones do not (read_hands.c, live_regions) */
            pf->covered_body[p] = occ && v == OBS_EMPTY;
            /* a covered stone's own reading, which read_hands.c may give back when nothing like
             * a hand lies around it; none in a glare (a gap washed out or lit beside it: a lamp's
             * glare on the board reads as a white stone, photo 28) */
            bool glare = pf->washed[p];
            for (int k = 0; k < 4; k++) {
                int gi = (y + k / 2) * NG + x + k % 2;
                glare |= gs->washed[gi] || gs->lit[gi];
            }
            pf->covered_val[p] = glare ? OBS_EMPTY : (uint8_t)v;
            pf->covered_conf[p] = (float)(0.5 + 0.5 * conf);
            if (pf->outside[p] && !pf->body_seen[p] && !occ) obs->conf[p] = OBS_OUT_OF_VIEW_CONF;
        }
}

/* vision/read_internal.h — what the point reader's files (vision/read_*.c) share: one frame's
 * samples of the board's gaps and of every point, and the frame's thresholds. Not for other
 * files of vision/ (they call read_points, vision_internal.h). */
#ifndef KIFUCAM_VISION_READ_INTERNAL_H
#define KIFUCAM_VISION_READ_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vision/vision_internal.h"

/* gaps: (n + 1) x (n + 1) cell centres, row stride NG */
#define NG (OBS_MAX + 1)

struct sample {
    double lum;    /* mean grey */
    double rg, gb; /* mean R - G and G - B */
};

/* ---- read_sample.c: pixels and small statistics ---- */

/* Mean over a (2k+1)^2 pattern of points inside radius rad around (x, y) (clamped at the
 * frame's edge). */
struct sample read_disc(const struct read_image *im, double x, double y, double rad, int k);
/* The grey at grid position (u, v), added to *sum and counted in *cnt when inside the frame. */
void read_grey_at(const struct read_image *im, const struct grid *g, double u, double v,
                  double *sum, int *cnt);
/* The grey at image position (x, y), bilinear (clamped at the frame's edge; a NaN lands on 0).
 * Inline, and clamped without fmin/fmax (calls, for their NaN rules): it is the reader's
 * hottest sample, about 170,000 a frame in the line valleys of read_features.c. */
static inline double read_grey_bilinear(const struct read_image *im, double x, double y)
{
    double xm = im->w - 1.001, ym = im->h - 1.001;
    x = !(x >= 0) ? 0 : x > xm ? xm : x;
    y = !(y >= 0) ? 0 : y > ym ? ym : y;
    int x0 = (int)x, y0 = (int)y;
    double fx = x - x0, fy = y - y0;
    const uint8_t *r0 = im->gray + (size_t)y0 * im->w + x0, *r1 = r0 + im->w;
    return (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
}
/* Median of v[0..n) (reorders v). */
double read_median(double *v, int n);
/* Otsu's threshold over v[0..n); *sep: distance of the class means over their pooled spread. */
double read_otsu(const double *v, int n, double *sep);

static inline double read_clamp01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* ---- read_gaps.c: the board between the points ---- */

struct read_gaps {
    struct sample gap[NG * NG]; /* sampled colour */
    struct sample ref[NG * NG]; /* the board's local reference */
    bool seen[NG * NG];         /* inside the frame: a partial view shows no more */
    double xy[NG * NG][2];      /* image position */
    double gd[NG * NG];         /* distance from the reference */
    double tol;                 /* a gap farther than this from its reference is not board */
    double chroma;              /* the board's colourfulness (median of the references) */
    double board_lum;           /* the references' median brightness */
    double board_cy;            /* and their median chromaticity (colour over brightness) */
    bool tinted;                /* a colour frame of a tinted board */
    bool grey[NG * NG];         /* as neutral as paper on a tinted board: a sleeve, a shirt */
    bool washed[NG * NG];       /* board in a glare that takes its colour, at the sensor's limit */
    bool lit[NG * NG];          /* the board under a glare's added light: every channel brighter
                                 * by about as much (the brightest clipped), read_gaps.c */
    bool foreign[NG * NG];      /* off the line from the board's colour to grey: skin, cloth */
    bool mix[NG * NG];          /* on that line, between a black and a white stone's brightness:
                                 * the board partly behind a stone's body (an oblique view) */
};

/* Sample every gap (the outer ones on the margin). */
void gaps_sample(const struct read_image *im, const struct grid *g, struct read_gaps *gs);
/* Each gap's reference: the median of the 5x5 gaps around it, or of those marked in use (when
 * use is given and at least three are; else left as it was). */
void gaps_reference(const struct sample *gap, const bool *use, int n, struct sample *ref);
/* From the references: gd, tol, chroma, tinted, grey, foreign. */
void gaps_judge(const struct read_image *im, int n, struct read_gaps *gs);
/* The second pass: take references from the gaps whose corner points show their lines where the
 * first pass's differ in colour. true when a reference moved (the frame is read again). */
bool gaps_correct(struct read_gaps *gs, int n, const double *cross, double cross_e);

/* ---- read_features.c: what each point shows ---- */

/* A gap darker than this share of the board's brightness is an arm's shadow or a dark sleeve,
 * deeper than any stone's flank or shadow */
#define DARK_GAP 0.6

struct read_points_f {
    double rho[OBS_POINTS];       /* body grey over the board's */
    double neu[OBS_POINTS];       /* 1 = as neutral as a stone, 0 = as coloured as the board */
    double grey[OBS_POINTS];      /* as neu, of colour over brightness */
    double cross[OBS_POINTS];     /* the grid-line cross's contrast */
    double line[OBS_POINTS];      /* the point's own lines as thin dark valleys (read_features.c) */
    double bdist[OBS_POINTS];     /* colour distance of the body from the board */
    double whiteness[OBS_POINTS]; /* brighter and more neutral than the board */
    double unwashed[OBS_POINTS];  /* the share of the local board's light that is not glare */
    double pale_b[OBS_POINTS];    /* as unwashed, from the board around alone, not the body */
    bool washed[OBS_POINTS];      /* a glare so strong the board and a white stone look alike */
    bool neutral[OBS_POINTS];     /* the body's colour under half the frame's board's: a stone */
    bool offcolour[OBS_POINTS];   /* body off the line from the board's colour to grey: skin */
    bool cool[OBS_POINTS];        /* body no warmer than grey along the board's colour and no
                                   * more coloured than the board: not skin (read_features.c) */
    bool outside[OBS_POINTS];     /* the intersection lies beyond the frame's edge */
    bool body_seen[OBS_POINTS];   /* the stone body's centre lies inside the frame */
    bool cut[OBS_POINTS];         /* body sample or cross partly beyond the frame */
    int badgaps[OBS_POINTS];      /* gaps around that are not board */
    int darkgaps[OBS_POINTS];     /* gaps around far darker than the board (DARK_GAP), less the
                                   * ones a black stone explains (classify_points) */
    int outer_bad[OBS_POINTS];    /* margin gaps beyond a stone's reach that are not board */
    int foreign[OBS_POINTS];      /* gaps around with skin's or cloth's colour */
    int pale[OBS_POINTS];         /* gaps beyond a stone's reach grey and brighter than board */
    int paper[OBS_POINTS];        /* gaps as neutral as paper and not washed out by a glare */
    unsigned char badmask[OBS_POINTS]; /* which of the four gaps (bit k: dirs[k]) are not board */
    uint8_t covered_val[OBS_POINTS];   /* a covered point's own reading (classify_points) */
    float covered_conf[OBS_POINTS];    /* and its confidence, as the observation's */
    bool covered_body[OBS_POINTS];   /* covered where its body reads as no stone (classify_points):
                                      * what a hand shows, and touching stones do not */
    unsigned char reach[OBS_POINTS]; /* which of them a stone standing here would hide in part */
};

/* pf->cool: a body whose chromaticity lies below this share of the board's along the board's
 * colour, and within the board's chromaticity of grey (a blue sleeve is far more coloured) */
#define COOL_ALONG  0.2
#define COOL_CHROMA 1.0

void point_features(const struct read_image *im, const struct grid *g, const struct stone_geom *sg,
                    const struct read_gaps *gs, struct read_points_f *pf);

/* ---- read_thresholds.c: the frame's own thresholds ---- */

struct read_thresholds {
    double tb;              /* rho below: black */
    double tw;              /* whiteness above: white */
    double cross_e;         /* the typical cross of an empty point */
    double line_e;          /* the typical line valley of an empty point */
    bool use_cross;         /* the lines show well enough to tell by */
    bool lines[OBS_POINTS]; /* the point's own lines show: nothing lies on it */
};

/* A point's lines show when its third best arm's valley (the worse at a corner) is at least
 * this share of the frame's typical one (a stone's under 0.3 but for 1 in 10,000, an empty
 * point's 0.7..1.3: the far edge of a steep view shows thinner lines) */
#define LINE_SHOWS 0.3

void read_thresholds(const struct read_points_f *pf, int n, struct read_thresholds *th);

/* Glare lowers the lines' contrast by at most this share before they count as hidden (a washed
 * point's lines 0.11..0.25 of a typical 0.56 in a glare film); below it the board is washed out */
#define WASH_MIN 0.3
/* A body this bright is at the sensor's limit (a white stone in a lamp's glare reads 238..255) */
#define WASHED_LUM 225
/* A washed gap's reference is at least this much paler than the frame's board */
#define WASH_REF 0.6

/* ---- read_classify.c: each point's value and whether it is covered ---- */

/* Also sets pf->badgaps to the gaps that are not board and not explained by a stone read next
 * to them leaning over them (hands_grow grows along those). */
void classify_points(struct read_points_f *pf, const struct read_thresholds *th,
                     const struct read_gaps *gs, int n, struct observation *obs);

/* ---- read_hands.c: occlusion grown along hands, points beyond the frame ---- */

/* crowds: the detector's still_crowds (vision.h) */
void hands_grow(const struct read_points_f *pf, const struct read_thresholds *th, int n,
                bool crowds, struct observation *obs);

#endif

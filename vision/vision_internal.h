/* vision/vision_internal.h — what the vision stage's C files share; not for other stages. */
#ifndef KIFUCAM_VISION_INTERNAL_H
#define KIFUCAM_VISION_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "vision/cv.h"
#include "vision/vision.h"

/* ---- homography.c: 3x3 projective maps, row-major ---- */

/* Least-squares homography with H * src_i ~ dst_i (normalised DLT, n >= 4 point pairs as x,y).
 * false when degenerate. */
bool hom_fit(const double *src, const double *dst, int n, double H[9]);
void hom_apply(const double H[9], double x, double y, double *ox, double *oy);
bool hom_invert(const double H[9], double out[9]);
void hom_mul(const double A[9], const double B[9], double out[9]);
/* Solve the n x n system A x = b in place (Gaussian elimination, partial pivoting). */
bool solve_linear(double *A, double *b, int n);

/* ---- read_sample.c ---- */

/* The k-th smallest of v[0..n) (0-based), v reordered: Hoare's selection (a median without a
 * sort). */
double vision_select_kth(double *v, int n, int k);

/* ---- board_find.c: from a grey image to a grid ---- */

#define VISION_MAX_SEGMENTS 4000

struct segment {
    double x1, y1, x2, y2, len;
    double ink; /* how much darker than the board beside it (grey levels, mean along it) */
};

/* A fitted grid: H maps grid coordinates (column u, row v; 0..n-1) to full-size image pixels. */
struct grid {
    int n;
    double H[9];
    double spacing_px; /* mean spacing in the image */
    double rms;        /* in spacings */
};

struct find_work; /* scratch kept between frames */
struct find_work *find_work_new(void);
void find_work_free(struct find_work *w);

/* How board_find cleans the picture before it marks dark lines. */
enum find_filter {
    /* a 3x3 median: clean on wood grain, but it erases lines one pixel wide */
    FIND_MEDIAN = 0,
    /* line_denoise: keeps lines one pixel wide (and wood grain) */
    FIND_THIN_LINES = 1,
    /* and the marked blobs too thick to be a line are cleared (black stones, whose rows
     * Hough takes for lines on a crowded board) */
    FIND_NO_BLOBS = 2,
    /* the lattices from the stones' centres rather than the lines (a crowded board whose lines
     * show only in bits between the stones), the grid taken when most stones lie on its points
     * (stills only: vision.h still_crowds) */
    FIND_STONES = 4,
};

/* Search the whole grey image for a board of size n (9, 13, 19; 0 = detect); filter: a set of
 * enum find_filter. */
bool board_find(struct vision_detector *det, struct find_work *w, const cv_image *gray, int n,
                unsigned filter, struct grid *out);

/* ---- line_denoise.c ---- */

/* Speckle out, thin dark lines kept: per pixel the darkest of four directional 3-medians. */
bool line_denoise(uint8_t *img, int w, int h, int stride);

/* ---- grid_fit.c: lattices from lines ---- */

/* A 1-D projective lattice: the line with index k sits at t = (a k + b) / (c k + 1). */
struct lattice {
    double a, b, c;
    int k0, n;    /* the board's lines are k0 .. k0 + n - 1 */
    double score; /* support (line weights) inside the window */
    int hits;     /* lines on the lattice inside the window */
};

/* Fit lattices to line positions t[] (sorted ascending) with weights w[] and ink[] (how dark
 * each line is; NULL: all alike); n = board lines, or 0 to choose among 9, 13, 19. tmin..tmax:
 * the span of t inside the image (lines beyond are not expected to be seen). */
/* The best max distinct lattices, best first (each window starting at k = 0); how many. */
int lattice_fit_many(const double *t, const double *w, const double *ink, int m, int n, double tmin,
                     double tmax, struct lattice *out, int max);
double lattice_pos(const struct lattice *l, double k);
double lattice_index(const struct lattice *l, double t);

/* Refine H (grid -> image) with segment endpoints that lie along grid lines: each segment close
 * to and along a line u = k or v = k pulls that line onto itself. Returns the rms distance in
 * spacings of the segments used, or -1 when too few. */
double grid_refine(double H[9], int n, const struct segment *seg, int nseg, int iterations);

/* Move the window of n lines (H: grid -> image g) by whole lines so that it covers the lines the
 * image shows and the lines just outside it look like none (the board's margin). true if moved. */
bool grid_place_window(const uint8_t *g, int w, int h, double H[9], int n, bool strict);
/* How much line u = k (fam 0) or v = k (fam 1) looks like a drawn line over the window's span:
 * the share of samples darker than the board 0.3 spacings to either side (strict: and not a step
 * from the board to something else, see vision_detector.strict_lines); -1 when (nearly) out of
 * the image. */
double grid_line_evidence(const uint8_t *g, int w, int h, const double H[9], int n, int fam,
                          double k, bool strict);
/* Whether a line of the window lies in the image and shows no line there (the board's edge
 * against the table, taken for a grid line). */
bool grid_window_has_absent_line(const uint8_t *g, int w, int h, const double H[9], int n);

/* ---- grid_score.c: a whole grid against the line mask ---- */

/* qsort's order for doubles, ascending (the grid scorers' medians and quantiles). */
static inline int grid_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The grey of g (w x h) at (x, y), bilinear; -1 off the pixel centres' span (a NaN too). Shared by
 * the scorers and the tracker, which sample lines and the wood beside them. */
static inline double grid_grey_at(const uint8_t *g, int w, int h, double x, double y)
{
    if (!(x >= 0 && y >= 0 && x <= w - 2 && y <= h - 2)) return -1;
    int x0 = (int)x, y0 = (int)y;
    double fx = x - x0, fy = y - y0;
    const uint8_t *p = g + (size_t)y0 * w + x0;
    return (1 - fy) * ((1 - fx) * p[0] + fx * p[1]) + fy * ((1 - fx) * p[w] + fx * p[w + 1]);
}

/* resp = the line mask widened by a pixel each way (tmp: scratch of the same size). */
void line_response(const uint8_t *mask, uint8_t *resp, uint8_t *tmp, int w, int h);
/* About 1 when every sample along the grid's lines is on a line pixel and none halfway between;
 * about 0 for a grid at the wrong spacing. *seen (may be NULL): samples inside the image. */
double grid_image_score(const uint8_t *resp, int w, int h, const double H[9], int n, int *seen);
/* Move the window by whole lines when that clearly raises the score and (strict) takes in no
 * line the grey image g shows none of (grid_window_has_absent_line). true if moved. */
bool grid_shift_by_score(const uint8_t *resp, const uint8_t *g, int w, int h, double H[9], int n,
                         bool strict);
/* Pull each grid line onto the mask pixels within a third of a spacing of it and refit H (as
 * grid_refine); returns its rms, -1 when too few lines were seen. */
double grid_snap(const uint8_t *resp, int w, int h, double H[9], int n, int iterations);

/* ---- grid_score.c (session 24): a grid spaced by half the board's ---- */

/* How many lines of grid H (n x n) lie between the board's lines in the grey image g: in a
 * family whose lines of one parity draw a far shallower valley than the other's (a grid spaced
 * by half the board's: every other line on plain wood, on grain or on a fold), that parity's
 * lines in the picture; 0 when neither family looks so. */
int grid_between_lines(const uint8_t *g, int w, int h, const double H[9], int n);

/* ---- stone_height.c: where a stone's body appears ---- */

struct stone_geom {
    double offset[OBS_POINTS][2]; /* image offset from the intersection to the stone's centre */
    double radius_px[OBS_POINTS]; /* a stone's radius in the image, about */
};
/* From the board plane's homography (grid -> image), the image size, the stone height in
 * spacings and a focal length (0 = estimate). */
void stone_geometry(const struct grid *g, int width, int height, double stone_height, double focal,
                    struct stone_geom *out);

/* ---- read_points.c ---- */

/* A frame's pixels in what the reader needs: grey and a warm-cool colour difference. */
struct read_image {
    int w, h;
    const uint8_t *gray;  /* w * h */
    const uint8_t *color; /* w * h * 3 (NULL for grey frames) */
    bool rgb;             /* color is R, G, B (else B, G, R) */
};
void read_points(const struct vision_detector *det, const struct read_image *im,
                 const struct grid *g, const struct stone_geom *sg, struct observation *obs);

/* ---- track.c ---- */

/* Grid-line contrast (0..1; about 0.3 when the grid is off the lines) between points known empty in
 * prev (or all, when prev is NULL). */
double track_score(const uint8_t *gray, int w, int h, const struct grid *g, const uint8_t *prev);
/* Try small shifts of the grid; keeps the best. Returns the score of the kept grid. */
double track_nudge(const uint8_t *gray, int w, int h, struct grid *g, const uint8_t *prev,
                   int max_shift);
/* A wider look for a bumped board: shifts up to reach px (coarse, then finer) and turns up to
 * turn_deg about the grid's centre; moves g to the best and returns its score. */
double track_follow(const uint8_t *gray, int w, int h, struct grid *g, const uint8_t *prev,
                    int reach, double turn_deg);

/* ---- debug_out.c ---- */
void debug_write_gray(const struct vision_detector *det, const char *name, const uint8_t *px, int w,
                      int h, int stride);
void debug_write_grid(const struct vision_detector *det, const char *name, const uint8_t *gray,
                      int w, int h, const struct grid *g, const struct observation *obs,
                      const struct segment *seg, int nseg);

/* Milliseconds on a monotonic clock. */
double vision_now_ms(void);

#endif

/* vision/vision.h — the vision stage's one public header: find a goban in a frame, fit its grid,
 * read every point, and settle observations over time.
 *
 * In the style of AprilTag: a detector object whose tunables are plain documented fields with sane
 * defaults (set them after vision_detector_new), per-frame statistics and a per-stage time profile
 * in the same object, and a debug switch that writes each stage's image into a folder. */
#ifndef KIFUCAM_VISION_VISION_H
#define KIFUCAM_VISION_VISION_H

#include <stdbool.h>
#include <stdint.h>

#include "vision/observation.h"

/* A frame as the vision stage takes it: the caller owns the pixels. */
enum vision_pixfmt { VISION_GRAY8 = 0, VISION_BGR24, VISION_RGB24 };
struct vision_image {
    int width, height, stride; /* stride: bytes from one row to the next */
    enum vision_pixfmt fmt;
    const uint8_t *data;
    int64_t t_ns; /* monotonic capture time (for settling) */
    uint64_t seq; /* frame number */
};

/* Stages timed in vision_detector.stage_ms. */
enum vision_stage {
    VSTAGE_PREPARE,  /* grey + downscaled working copy */
    VSTAGE_SEGMENTS, /* dark-line mask and Hough segments */
    VSTAGE_FAMILIES, /* vanishing points, line families */
    VSTAGE_GRID,     /* 1-D lattice fits, homography, refinement */
    VSTAGE_TRACK,    /* cheap check and nudge of the previous grid */
    VSTAGE_READ,     /* sample and classify the points */
    VSTAGE_COUNT
};
const char *vision_stage_name(enum vision_stage s);

struct vision_stats {
    int segments;           /* Hough segments found */
    int family_segments[2]; /* of them, pointing to each vanishing point */
    int lines[2];           /* distinct lines per family */
    int lattice_lines[2];   /* lines on the fitted lattice per family */
    double grid_score;      /* share of grid-line samples on line pixels minus those halfway
                               between lines (about 1 for a clean board, 0 for a wrong grid) */
    double fit_rms;         /* rms of segment endpoints from their grid line, in line spacings */
    double spacing_px;      /* mean line spacing in the image */
    bool refound;           /* the board was searched from scratch this frame */
    double track_score;     /* grid-line contrast of the tracked grid (0..1) */
    bool followed;          /* a bumped board was followed (wider shifts and turns) this frame */
    int black, white, occluded, unsure;
};

struct vision_state; /* internal */

struct vision_detector {
    /* ---- tunables (defaults in brackets) ---- */
    int board_size;        /* [0] 9, 13 or 19; 0 = detect the size */
    int work_size;         /* [640] longest side of the image board finding works on, px */
    double line_c;         /* [8] how much darker than its surroundings a grid-line pixel is */
    int hough_votes;       /* [30] accumulator votes for a Hough segment (at work size) */
    double hough_gap;      /* [3] px (at work size) a Hough segment may bridge (4..8 won a few
                              photos and lost frames of the bundled clip: measured, not taken) */
    double min_grid_score; /* [0.15] a grid whose lines lie on line pixels less than this (see
                              vision_stats.grid_score) is reported as no board, not guessed */
    double stone_height;   /* [0.40] stone thickness in line spacings (a 9 mm stone, 22 mm grid) */
    double focal;          /* [0] focal length in pixels; 0 = estimate from the grid, else
                              1.0 x the longer image side */
    double unsure_conf;    /* [0.5] points below this confidence print as '?' */
    bool still_crowds;     /* [false] stills (read_hands.c): occlusion grows only from a region
                              that shows a hand's body, and a stone covered for its colour alone
                              outside one is read. Real photos: stone recall 72 -> 82% on the 20
                              the reader is tuned on, 62 -> 81% held out, precision 100%; but the
                              renders' pale fingers are then read as stones under hands (seeds 1,
                              500, 900: 9, 14, 8 -> 40 to 100), so not for video */
    double track_min;      /* [0.55] grid-line contrast below which tracking gives up and the
                              board is searched again */
    int track_shift;       /* [3] px (full size) the tracker searches for a small board shift */
    int refind_every;      /* [0] search from scratch every N frames even when tracking is fine;
                              0 = never */
    bool strict_lines;     /* [true] a grid line must look like a drawn line, not a step from the
                              board to the table, and a window holding a line the picture shows
                              none of is placed elsewhere (the board's edge was taken for a
                              line when the far edge lay out of the picture); the shogi reader
                              turns it off (it cost cold readings: occupancy 99.4 -> 98.8%) */
    bool other_looks;      /* [true] the board is searched for on thin lines (a filter that keeps
                              lines one pixel wide, and wood grain too); when the grid found is
                              doubtful, or none is found, search again on a 3x3 median (which
                              erases the grain, and the thinnest lines), then on thin lines
                              with black stones' blobs cleared (a crowded board), and keep the
                              grid the picture likes clearly better */
    bool debug;            /* [false] write each stage's image to debug_dir */
    const char *debug_dir; /* ["."] */

    /* ---- results of the last frame ---- */
    struct vision_stats stats;
    double stage_ms[VSTAGE_COUNT];

    struct vision_state *st;
};

struct vision_detector *vision_detector_new(void);
void vision_detector_free(struct vision_detector *det);
/* Forget the board (next frame searches from scratch). */
void vision_detector_reset(struct vision_detector *det);

/* Read one frame: find or track the board, read the points. Returns true when a board was found
 * (obs->board_found); false when not, with obs cleared but for time and sequence. */
bool vision_read_go(struct vision_detector *det, const struct vision_image *img,
                    struct observation *obs);

/* ---- settling ------------------------------------------------------------------------------ */

struct settle_params {
    double stable_s; /* [0.5] unoccluded and unchanged this long before a stable observation */
    int min_frames;  /* [3] and for at least this many frames */
    double min_conf; /* [0.4] every unoccluded point at least this sure (OBS_OUT_OF_VIEW_CONF
                        passes: a board partly out of the picture settles on what it shows) */
    /* [0.5] a view that holds is said again this long after it was last said (0: never). The
     * rule guard confirms a change on a second reading; without the repeat it comes only with
     * the next move's view, and the live record runs a move behind. */
    double repeat_s;
    /* [0.9] while a view holds, a point read below this in either frame may flicker (a doubtful
     * point must not keep a still board from being said again) */
    double hold_conf;
    /* [2 s] a point covered this long without a break is under no passing hand (a cup on the
     * board, a resting hand, a glare or a cluster of stones the reader takes for a cover): the
     * view may settle with such points occluded, unknown to the rule guard (0: every view waits
     * for a clear board). A move played under such a cover is an unseen move to the guard, found
     * when its stone is read (30 go_live films: moves right 78.3 -> 82.7%, flags 1 -> 1) */
    double still_occlusion_s;
};
void settle_params_default(struct settle_params *p);

struct settler;
struct settler *settle_new(const struct settle_params *p); /* NULL p = defaults */
void settle_free(struct settler *s);
/* Feed one observation. Returns true (and fills out) when the view has just settled on a position
 * different from the previous stable one (or the first one), or when the view said last has held
 * for repeat_s since (out->repeat); the change mask is relative to the view said before. */
bool settle_push(struct settler *s, const struct observation *obs, struct stable_obs *out);
/* The source has ended: the view its last frames held, when they held stable_s and min_frames
 * under a cover that did not move (however short it had lain: no hand comes after the end) and
 * it was not said yet. Returns true (and fills out) once; the caller then judges what is
 * pending. */
bool settle_finish(struct settler *s, struct stable_obs *out);

/* ---- files --------------------------------------------------------------------------------- */

/* Load a JPEG as BGR24 or GRAY8 (TurboJPEG). Returns malloc'd pixels owned by the caller (free
 * img->data), or false with err filled. */
/* The board as the camera sees it may be turned (a camera at White's side sees it upside down):
 * turn an observation's readings (and a stable observation's change mask, when given) by
 * `degrees` clockwise (0, 90, 180, 270) so that they have the board's own orientation. Square
 * boards only; anything else is left as it is. */
void observation_rotate(struct observation *o, bool changed[OBS_POINTS], int degrees);
/* The same for a stable observation: its readings, change mask and per-point times. */
void stable_obs_rotate(struct stable_obs *s, int degrees);

bool vision_load_jpeg(const char *path, bool gray, struct vision_image *img, char *err, int errlen);

#endif

/* vision/observation.h — what the vision stage hands on: one observation per frame, and a stable
 * observation once the view has settled (see vision/vision.h for the settler). Plain data, no
 * OpenCV, no rules. */
#ifndef KIFUCAM_VISION_OBSERVATION_H
#define KIFUCAM_VISION_OBSERVATION_H

#include <stdbool.h>
#include <stdint.h>

#define OBS_MAX    25
#define OBS_POINTS (OBS_MAX * OBS_MAX)

/* Go point values; the same numbers as board/go.h's GO_EMPTY/GO_BLACK/GO_WHITE. Shogi cells hold
 * board/shogi.h piece codes instead (type | owner << 4, 0 = empty). */
enum obs_point { OBS_EMPTY = 0, OBS_BLACK = 1, OBS_WHITE = 2 };

/* A point or cell outside the picture (a camera that sees part of the board) is read empty at
 * this confidence: below the rule guard's conf_min (0.5), so no evidence either way, and above
 * the settler's default min_conf (0.4), so that a board partly out of the picture settles on
 * what it shows. Not occluded: no hand is there. */
#define OBS_OUT_OF_VIEW_CONF 0.45f

/* A point in a glare that washes the board out (the Go reader): not seen either, below the guard's
 * conf_min and above the settler's min_conf like a point out of the picture, told apart from it
 * so that the recorder can say why. */
#define OBS_WASHED_OUT_CONF 0.44f

/* What the reader could make of a komadai (struct hand_obs.view). Only HAND_VIEW_READ gives a
 * count; the others are no evidence about the pieces in hand either way (a guard must neither
 * flag a piece hidden nor take one as arrived), and tell why:
 * - HAND_VIEW_COVERED: the stand is in the picture under a hand, an arm or a sleeve (a hand kept
 *   there is the resignation sign);
 * - HAND_VIEW_OUT_OF_VIEW: the picture's edge cuts the stand, or the place beside the board where
 *   it stands lies (partly) outside the picture: the camera must be turned to see it (a recorder
 *   that needs the komadai should say so, once, rather than take the stand as empty);
 * - HAND_VIEW_NOT_FOUND: the place beside the board is wholly in the picture but shows no stand
 *   (no komadai there, or one the reader could not tell from the table);
 * - HAND_VIEW_UNKNOWN (0): not looked at (Go, the komadai not read, no reader started). */
enum hand_view {
    HAND_VIEW_UNKNOWN = 0,
    HAND_VIEW_READ,
    HAND_VIEW_COVERED,
    HAND_VIEW_OUT_OF_VIEW,
    HAND_VIEW_NOT_FOUND,
};

/* Shogi komadai (piece stand) of one side: count[type - 1] pieces of each board/shogi.h type in
 * board/shogi.h's order (pawn, lance, knight, silver, bishop, rook, gold), how sure, whether the
 * stand is in view, and why not. Unused for Go. visible and covered say what view says, kept for
 * the readers of earlier observations (obs_text): visible == (view == HAND_VIEW_READ), covered ==
 * (view == HAND_VIEW_COVERED); !visible && !covered is out of view or not found. */
struct hand_obs {
    bool visible;
    bool covered; /* not visible because a hand rests over it (a resignation sign in shogi),
                     rather than out of the picture */
    uint8_t view; /* enum hand_view */
    uint8_t count[7];
    uint8_t promoted[7]; /* of count[], how many lie promoted side up (they must be turned) */
    float conf;
};

/* What one frame shows. Points are indexed y * OBS_MAX + x, x the column from the grid corner
 * corners[0], y the row; corners are in the order (0,0), (w-1,0), (w-1,h-1), (0,h-1), with row 0
 * the board edge nearest the top of the image and column 0 the edge nearest its left. */
struct observation {
    int64_t t_ns;
    uint64_t frame_seq;
    bool board_found;
    bool tracked;              /* the grid came from the previous frame's (cheap path) */
    double corners[4][2];      /* image coordinates of the grid's outer corners */
    int w, h;                  /* 19x19, 13x13, 9x9 */
    uint8_t point[OBS_POINTS]; /* enum obs_point */
    float conf[OBS_POINTS];    /* 0..1: how sure point[] is */
    bool occluded[OBS_POINTS]; /* a hand, an arm or something else hides this point */
    int noccluded;
    struct hand_obs hands[2];
};

/* Point (cell) p of o lies outside the picture (read at OBS_OUT_OF_VIEW_CONF, not covered). */
static inline bool obs_out_of_view(const struct observation *o, int p)
{
    return !o->occluded[p] && o->conf[p] == OBS_OUT_OF_VIEW_CONF;
}

/* Point p of o lies in a glare that washes the board out (read at OBS_WASHED_OUT_CONF). */
static inline bool obs_washed_out(const struct observation *o, int p)
{
    return !o->occluded[p] && o->conf[p] == OBS_WASHED_OUT_CONF;
}

/* An observation that held still: unoccluded (but for a still cover, settle_params) and unchanged
 * for the settler's time. */
struct stable_obs {
    struct observation obs;   /* the last frame of the stable run */
    int64_t since_ns;         /* when the run began (a repeat: when the view first held) */
    int frames;               /* frames in the run */
    bool first;               /* no earlier stable observation to compare with */
    bool repeat;              /* the view said before, held since: a fresh reading of it */
    bool changed[OBS_POINTS]; /* point differs from the previous stable observation */
    int nchanged;
    /* since when each point has read what the view says of it (uncovered frames; a blip of a
       frame or two does not restart it): several stones that came between two views come in
       this order. The view's time where the settler said another reading. */
    int64_t read_since_ns[OBS_POINTS];
};

#endif

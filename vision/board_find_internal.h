/* vision/board_find_internal.h — what board_find.c and board_find_stones.c share: the finder's
 * scratch and a family of grid lines; not for other files. */
#ifndef KIFUCAM_BOARD_FIND_INTERNAL_H
#define KIFUCAM_BOARD_FIND_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "vision/vision_internal.h"

#define MAX_LINES  512
#define MAX_STONES 512

/* FIND_STONES (the board_find filter): the grid is taken when this share of at least STONES_MIN
 * stones lie on its points, whatever its lines' score (a right grid on a crowded photo scores
 * -0.15..0.14, min_grid_score 0.15) */
#define STONES_ON_SHARE 0.8
#define STONES_MIN      40
/* the grid refined on the lines' bits is kept while it keeps this share of the stones on it */
#define STONES_KEEP 0.95

struct family {
    double vp[3];
    double trans[3]; /* the transversal line (through the image centre) */
    double cx, cy;   /* the image centre, t = 0 */
    double dx, dy;   /* unit direction of t along the transversal */
    double tmin, tmax;
    int m;
    double t[MAX_LINES], w[MAX_LINES], ink[MAX_LINES];
};

struct find_work {
    uint8_t *small, *mask, *resp, *tmp;
    size_t cap;
    float raw[4 * VISION_MAX_SEGMENTS];
    struct segment seg[VISION_MAX_SEGMENTS];
    int nseg;
    unsigned char fam[VISION_MAX_SEGMENTS]; /* 0 none, 1 or 2 */
    double vote[5][800];                    /* find_vp's segments: midpoint, direction, tol^2 */
    struct family F[2];
    /* FIND_STONES: the stones' centres at the working size and their typical diameter */
    int nst;
    double st[MAX_STONES][2];
    double st_diam;
};

/* ---- board_find.c ---- */

/* Where the line through f's vanishing point and (x, y) crosses the transversal. */
bool family_t(const struct family *f, double x, double y, double *t);

/* ---- board_find_stones.c: a grid from the stones when the lines are hidden ---- */

/* Stones as round blobs much darker or much brighter than the picture around them: every
 * stone's centre (working size) into w->st, their typical diameter into w->st_diam. */
void find_stones(struct find_work *w, const uint8_t *g, int sw, int sh);
/* Family f's lines from the stones' centres: positions along its transversal. */
void family_from_stones(const struct find_work *w, struct family *f);
/* The share of the stones that lie on a point of the grid H (work image); *on: how many. */
double stones_on_grid(const struct find_work *w, const double H[9], int n, int *on);

#endif

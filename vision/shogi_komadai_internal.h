/* vision/shogi_komadai_internal.h — what the komadai's files share (shogi_komadai.c finds the
 * stands and counts their pieces, shogi_komadai_arm.c tells an arm reaching over a stand). */
#ifndef KIFUCAM_VISION_SHOGI_KOMADAI_INTERNAL_H
#define KIFUCAM_VISION_SHOGI_KOMADAI_INTERNAL_H

#include <stdbool.h>

#include "vision/shogi_reader_internal.h"

/* The search area in the owner's frame (cells): right of the board, from behind the middle of
 * the board to past the owner's edge. Stands are 4-6 cells wide, set 1-3 cells from the grid. */
#define AREA_U0 9.2
#define AREA_U1 19.4
#define AREA_V0 (-2.0)
#define AREA_V1 10.6
#define RES     12  /* pixels per cell of the rectified search image */
#define AW      122 /* (AREA_U1 - AREA_U0) * RES */
#define AH      151 /* (AREA_V1 - AREA_V0) * RES */

struct area {
    float px[AH][AW];
    bool in[AH][AW];
};

/* Owner's frame to view coordinates. */
static inline void owner_to_view(int side, double u, double v, double *x, double *y)
{
    *x = side == SHOGI_SENTE ? u : 9 - u;
    *y = side == SHOGI_SENTE ? v : 9 - v;
}

/* A stand: its rectangle in the area's pixels (x0 < x1, y0 < y1) and how strong its border is. */
struct stand_box {
    int x0, x1, y0, y1;
    double score; /* mean contrast inside against outside along the border, grey levels */
};

/* The area in colour (grey where the reader has no colour frame) and the work space of the arm
 * detector. */
struct colour_area {
    float c[AH][AW][3];
    float tmp[AH][AW][3];
    double v[3][AH * AW], d[AH * AW]; /* the values whose medians are taken */
    int lab[AH][AW];
    int stack[AH * AW];
};

/* An arm over the stand: found, and the largest one's area inside and outside the stand and how
 * far past its border it reaches. */
struct arm_feat {
    bool arm;
    double in_area, out_area, reach; /* cells^2, cells^2, cells */
    double spread_w, spread_t;
};

/* shogi_komadai_arm.c: the area in colour, smoothed; and an arm over the stand b. */
void komadai_colour_rectify(const struct shogi_reader *r, int side, const struct area *a,
                            struct colour_area *ca);
void komadai_arm_over(const struct area *a, const struct stand_box *b, struct colour_area *ca,
                      bool colour, struct arm_feat *af);
/* ... and whether region l of ca->lab (the arm detector's regions) is only the stand's own face
 * past one side of b. */
bool komadai_region_is_face(const struct area *a, const struct stand_box *b,
                            const struct colour_area *ca, int l);

/* A row of pieces found on a stand: its type, the fit of every type's face, its width. */
struct row {
    int ty, width;
    double fits[8];
    int at; /* its type within the game's hands (assign_types; 0: no piece) */
};
#define MAX_ROWS 24

/* shogi_komadai.c: the kinds of the rows of both stands (rows[s][k].at), within the game's hands
 * avail (per kind, both hands together), for the stands visible. */
void komadai_assign_types(const struct shogi_reader *r, const struct hand_obs hands[2],
                          struct row rows[2][MAX_ROWS], const int nrows[2], const int avail[8]);

#endif

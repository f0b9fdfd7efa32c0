/* vision/shogi_reader_internal.h — the shogi reader's state, shared by the files of the reader
 * (tracking, per-frame observations, the komadai). Not for other stages. */
#ifndef KIFUCAM_VISION_SHOGI_READER_INTERNAL_H
#define KIFUCAM_VISION_SHOGI_READER_INTERNAL_H

#include "vision/shogi_read.h"

#define SHOGI_PATCH_AREA (SHOGI_PATCH * SHOGI_PATCH)

struct shogi_reader {
    struct shogi_finder *finder;
    struct shogi_grid grid;
    bool have_grid, oriented;
    bool sided; /* sente's side known (from the first move) */
    struct shogi_book book;
    struct shogi_position pos;
    uint8_t patch[SHOGI_SQUARES][SHOGI_PATCH_AREA];
    double tex[SHOGI_SQUARES];
    bool seen[SHOGI_SQUARES]; /* the whole cell lies inside the image */
    struct shogi_reader_stats stats;
    /* per-frame observations (shogi_observe.c) */
    uint8_t expect[SHOGI_SQUARES];   /* what the last settled view showed (or the start) */
    int first_mover;                 /* whose move the start position awaits */
    double line_ref;                 /* grid-line contrast of an uncovered cell border */
    double line_cell[SHOGI_SQUARES]; /* each cell's at the last settled view (pieces standing in
                                        front hide lines in an oblique view) */
    double last_ev[SHOGI_SQUARES];   /* each cell's in the last frame read */
};

/* shogi_track.c */
void shogi_reader_sample(struct shogi_reader *r, const struct vision_image *gray);
/* Find the grid again; keep ours unless the new one is the same board moved a little. */
bool shogi_reader_regrid(struct shogi_reader *r, const struct vision_image *gray);
/* The view turned half round: the grid turns and the book's owners swap (sente's side decided);
 * the patches are stale until the next shogi_reader_sample. */
void shogi_reader_turn(struct shogi_reader *r);
int shogi_reader_cell_owner(const struct shogi_book *b, const uint8_t *patch);
/* How well piece fits patch; an unseen promoted face by how badly its unpromoted face fits. */
double shogi_reader_piece_fit(const struct shogi_book *b, int piece, const uint8_t *patch);
/* The observation point of a square, in sente's view (the guard's sente_bottom convention). */
static inline int shogi_obs_point(int sq)
{
    return (shogi_sq_rank(sq) - 1) * OBS_MAX + (9 - shogi_sq_file(sq));
}

/* What changed in a frame against the last settled view (shogi_observe.c). */
struct shogi_changes {
    int vacated[SHOGI_SQUARES], nvacated; /* a piece stood here, the cell reads empty */
    int arrived[SHOGI_SQUARES], narrived; /* the cell reads a piece it did not hold */
    int kept[SHOGI_SQUARES], nkept;       /* the cell still shows a piece of the same owner */
    double fits_median;                   /* how well kept pieces fit their book faces */
};
/* shogi_arrivals.c: name the arrived pieces by the cells pieces left (o's points rewritten). */
void shogi_name_arrivals(const struct shogi_reader *r, struct shogi_changes *ch,
                         struct observation *o);

/* shogi_observe.c: the start (or a resumed position) is what the next view is compared with. */
void shogi_reader_expect_position(struct shogi_reader *r, const struct shogi_position *pos);

#endif

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
};

#endif

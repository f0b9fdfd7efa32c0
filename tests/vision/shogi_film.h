/* tests/vision/shogi_film.h — what the shogi vision tests share: the games they film (every
 * lishogi game of ../shared when it is there, else the fixture title game), a frame as the grey
 * image the reader takes, and percentages. */
#ifndef KIFUCAM_TESTS_VISION_SHOGI_FILM_H
#define KIFUCAM_TESTS_VISION_SHOGI_FILM_H

#include <stdint.h>

#include "render/render.h"
#include "vision/vision.h"

/* The games (the caller frees them with shogi_records_free); the source is noted in the TAP. */
struct shogi_record **sf_load_games(int *n);
/* The frame's luma into g (width * height bytes) and img, timed and numbered as the frame. */
void sf_gray(const struct render_shogi_frame *f, uint8_t *g, struct vision_image *img);
double sf_pct(long a, long b);

#endif

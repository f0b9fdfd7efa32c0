/* tests/vision/shogi_film.h — what the shogi vision tests share: the games they film (every
 * lishogi game of ../shared when it is there, else the fixture title game), a frame as the colour
 * or grey image the reader takes, and percentages. */
#ifndef KIFUCAM_TESTS_VISION_SHOGI_FILM_H
#define KIFUCAM_TESTS_VISION_SHOGI_FILM_H

#include <stdint.h>

#include "render/render.h"
#include "vision/vision.h"

/* The games (the caller frees them with shogi_records_free); the source is noted in the TAP. */
struct shogi_record **sf_load_games(int *n);
#define SF_WIDTH  640
#define SF_HEIGHT 480

/* The game filmed at SF_WIDTH x SF_HEIGHT (moves: how many; signals: RENDER_SIGNAL_* bits); fails
 * the test when it cannot be. */
struct render_shogi *sf_open(const struct shogi_record *rec, enum render_scenario sc, uint64_t seed,
                             int moves, unsigned signals);
/* The same with the chance per move that the board is bumped (< 0: the renderer's default). */
struct render_shogi *sf_open_bumped(const struct shogi_record *rec, enum render_scenario sc,
                                    uint64_t seed, int moves, unsigned signals, double bump_rate);
/* The frame's luma into g (width * height bytes) and img, timed and numbered as the frame. */
void sf_gray(const struct render_shogi_frame *f, uint8_t *g, struct vision_image *img);
/* The frame as the reader takes it from a colour camera: its RGB pixels (grey into g instead when
 * SHOGI_FILM_GRAY is set, to measure the grey path). */
/* The settler's parameters as the daemon sets them for shogi (SHOGI_SETTLE_MIN_CONF: cells out of
 * view do not hold it up), with the knobs of settle_knobs.h. */
void sf_settle_params(struct settle_params *sp);

void sf_frame(const struct render_shogi_frame *f, uint8_t *g, struct vision_image *img);
double sf_pct(long a, long b);

#endif

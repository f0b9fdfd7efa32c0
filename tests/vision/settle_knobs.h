/* tests/vision/settle_knobs.h — the settler's knobs the filmed end-to-end tests share, to measure
 * what a setting brings on the same films: KIFUCAM_SETTLE_REPEAT=S sets repeat_s (0: none),
 * KIFUCAM_SETTLE_STILL=S sets still_occlusion_s (0: every view waits for a clear board). */
#ifndef KIFUCAM_TESTS_SETTLE_KNOBS_H
#define KIFUCAM_TESTS_SETTLE_KNOBS_H

#include "vision/vision.h"

/* Applies the knobs that are set to sp (already filled, e.g. by settle_params_default). */
void film_settle_knobs(struct settle_params *sp);

#endif

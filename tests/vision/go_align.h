/* tests/vision/go_align.h — the reader's Go grid against a rendered frame's truth: which of the
 * board's eight symmetries takes the reader's points (row 0 the top edge) onto the board's. */
#ifndef KIFUCAM_TESTS_VISION_GO_ALIGN_H
#define KIFUCAM_TESTS_VISION_GO_ALIGN_H

#include "render/render.h"
#include "vision/vision.h"

/* The symmetry s (0..7) of an n x n board applied to (x, y). */
void go_sym_apply(int s, int n, int x, int y, int *ox, int *oy);
/* The symmetry under which the reader's grid lies nearest the truth's into *sym; the worst
 * distance in pixels over the grid points the frame shows (the reader's grid spanned by its four
 * corners; a corner far outside the frame is an extrapolation the lens bends, so it is not
 * judged), or over the four corners when the frame shows fewer than four points. */
double go_align(const struct observation *o, const struct render_frame *f, int *sym);
/* The truth's grid spacing in pixels (mean of two sides). */
double go_spacing(const struct render_frame *f);

#endif

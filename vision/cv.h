/* vision/cv.h — the project's one door to OpenCV: a few coarse image verbs in plain C.
 *
 * Only vision/cv_shim.cpp includes OpenCV. Images are plain C structs over memory the caller owns
 * (8-bit, 1 or 3 interleaved channels, rows `stride` bytes apart); no OpenCV type crosses this
 * header. Every function is noexcept: a C++ exception becomes a status, and cv_last_error() (per
 * thread) says what went wrong. */
#ifndef KIFUCAM_VISION_CV_H
#define KIFUCAM_VISION_CV_H

#include <stdint.h>

#ifdef __cplusplus
#define CV_NOEXCEPT noexcept /* declaration and definition must agree */
extern "C" {
#else
#define CV_NOEXCEPT
#endif

typedef struct cv_image {
    uint8_t *data;
    int width, height, stride, channels; /* channels: 1 (grey) or 3 (RGB) */
} cv_image;

typedef enum { CV_OK = 0, CV_EINVAL = -1, CV_ENOMEM = -2, CV_ECV = -3 } cv_status;

/* The message of the last failure on this thread ("" when none). */
const char *cv_last_error(void) CV_NOEXCEPT;

/* dst(x, y) = src(mapx[i], mapy[i]) with i = y * dst->width + x, bilinear; points outside src take
 * the border colour (border[0..2], grey uses border[0]). src and dst must not overlap. */
cv_status cv_remap(const cv_image *src, cv_image *dst, const float *mapx, const float *mapy,
                   const uint8_t border[3]) CV_NOEXCEPT;

/* dst = src seen through the 3x3 homography H (row-major, maps src pixels to dst pixels),
 * bilinear, constant border. */
cv_status cv_warp_perspective(const cv_image *src, cv_image *dst, const double H[9],
                              const uint8_t border[3]) CV_NOEXCEPT;

/* Gaussian blur in place with standard deviation sigma (pixels); sigma <= 0 does nothing. */
cv_status cv_gaussian_blur(cv_image *img, double sigma) CV_NOEXCEPT;

/* Resize src into dst (its size set by the caller): area averaging when shrinking, bilinear when
 * enlarging. */
cv_status cv_resize(const cv_image *src, cv_image *dst) CV_NOEXCEPT;

/* ---- board finding ----------------------------------------------------------------------- */

/* dst = grey version of src (3 channels in the given order: rgb != 0 for R,G,B, else B,G,R).
 * dst must be 1-channel and the same size. */
cv_status cv_to_gray(const cv_image *src, cv_image *dst, int rgb) CV_NOEXCEPT;

/* Median filter in place over a k x k window (k odd, 3 or 5). */
cv_status cv_median_blur(cv_image *img, int k) CV_NOEXCEPT;

/* Keep in a binary image only what is thinner than k pixels (k odd, 3..15): the morphological
 * opening with a k x k square (what is at least that thick), grown by grow pixels, is cleared. */
cv_status cv_keep_thin(cv_image *bin, int k, int grow) CV_NOEXCEPT;

/* dst = 255 where a pixel is darker than the mean of its block x block neighbourhood by more than
 * c, else 0 (OpenCV's inverted mean adaptive threshold). block is odd and >= 3. */
cv_status cv_adaptive_threshold_dark(const cv_image *src, cv_image *dst, int block,
                                     double c) CV_NOEXCEPT;

/* Canny edges of a grey image into dst (255 on edges). */
cv_status cv_canny(const cv_image *src, cv_image *dst, double lo, double hi) CV_NOEXCEPT;

/* Line segments of a binary image by the probabilistic Hough transform (1 px, 1 degree).
 * Writes up to max segments as x1, y1, x2, y2 into seg (4 floats each); *n gets the count. */
cv_status cv_hough_segments(const cv_image *bin, int votes, double min_len, double max_gap,
                            float *seg, int max, int *n) CV_NOEXCEPT;

/* Refine corner positions (xy pairs, in place) to sub-pixel accuracy in a grey image within a
 * (2 * half + 1)^2 window. */
cv_status cv_corner_subpix(const cv_image *gray, float *xy, int n, int half) CV_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif

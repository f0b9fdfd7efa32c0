/* capture/convert.h — pixel layout conversions the sources need (YUYV from webcams, planar YUV
 * from Y4M files and cameras, RGB from PNG) and power-of-two shrinking. Strides are in bytes.
 *
 * Colour: YUV is BT.601 limited range (what V4L2 webcams and most Y4M files carry); RGB to gray
 * uses the JFIF weights 0.299/0.587/0.114, as libjpeg does, so a PNG and a JPEG of the same scene
 * give the same gray. To gray from YUV is the Y plane as is. */
#ifndef KIFUCAM_CAPTURE_CONVERT_H
#define KIFUCAM_CAPTURE_CONVERT_H

#include <stdint.h>

/* Packed Y0 U Y1 V (V4L2_PIX_FMT_YUYV); w is the width in pixels. */
void cvt_yuyv_to_gray(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst,
                      int dst_stride);
void cvt_yuyv_to_bgr(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst,
                     int dst_stride);

/* Planar YUV with chroma subsampled by 1 << cx horizontally and 1 << cy vertically (4:2:0 is
 * cx = cy = 1, 4:2:2 is cx = 1, cy = 0, 4:4:4 is 0, 0). Chroma planes share c_stride. */
void cvt_yuv_planar_to_bgr(const uint8_t *y, int y_stride, const uint8_t *u, const uint8_t *v,
                           int c_stride, int cx, int cy, int w, int h, uint8_t *dst,
                           int dst_stride);

/* One BT.601 limited-range YUV pixel to B, G, R (clamped). */
void cvt_yuv_pixel_to_bgr(int y, int u, int v, uint8_t bgr[3]);

void cvt_rgb_to_gray(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst,
                     int dst_stride);
void cvt_rgb_to_bgr(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst, int dst_stride);
void cvt_gray_to_bgr(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst,
                     int dst_stride);

/* Copy h rows of row_bytes each. */
void cvt_copy_rows(const uint8_t *src, int src_stride, int row_bytes, int h, uint8_t *dst,
                   int dst_stride);

/* The shift (0..3: 1, 1/2, 1/4, 1/8) that shrinks w x h the most while keeping at least
 * want_w x want_h (a 0 in want means "any"); 0 when nothing is wanted. */
int cvt_shrink_shift(int w, int h, int want_w, int want_h);

/* Box-average shrink by 1 << shift; the output is (w >> shift) x (h >> shift) with `channels`
 * bytes per pixel (1 or 3). Rounds to nearest. */
void cvt_shrink(const uint8_t *src, int src_stride, int w, int h, int channels, int shift,
                uint8_t *dst, int dst_stride);

#endif

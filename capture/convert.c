/* capture/convert.c — see convert.h. Plain loops: fast enough for 1280x720 at 30 fps on one core
 * (the figures are in the capture tests' output), portable to the Pi's arm64. */
#include "capture/convert.h"

#include <string.h>

static uint8_t clamp8(int v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* BT.601 limited range, 8-bit fixed point: R = 1.164 (Y-16) + 1.596 (V-128), etc. */
void cvt_yuv_pixel_to_bgr(int y, int u, int v, uint8_t bgr[3])
{
    int c = 298 * (y - 16) + 128, d = u - 128, e = v - 128;
    bgr[0] = clamp8((c + 516 * d) >> 8);
    bgr[1] = clamp8((c - 100 * d - 208 * e) >> 8);
    bgr[2] = clamp8((c + 409 * e) >> 8);
}

void cvt_yuyv_to_gray(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst,
                      int dst_stride)
{
    for (int r = 0; r < h; r++) {
        const uint8_t *s = src + (size_t)r * src_stride;
        uint8_t *o = dst + (size_t)r * dst_stride;
        for (int x = 0; x < w; x++) o[x] = s[2 * x];
    }
}

void cvt_yuyv_to_bgr(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst, int dst_stride)
{
    for (int r = 0; r < h; r++) {
        const uint8_t *s = src + (size_t)r * src_stride;
        uint8_t *o = dst + (size_t)r * dst_stride;
        for (int x = 0; x < w; x++) {
            const uint8_t *pair = s + 4 * (x / 2); /* Y0 U Y1 V */
            cvt_yuv_pixel_to_bgr(s[2 * x], pair[1], pair[3], o + 3 * x);
        }
    }
}

void cvt_yuv_planar_to_bgr(const uint8_t *y, int y_stride, const uint8_t *u, const uint8_t *v,
                           int c_stride, int cx, int cy, int w, int h, uint8_t *dst, int dst_stride)
{
    for (int r = 0; r < h; r++) {
        const uint8_t *yr = y + (size_t)r * y_stride;
        const uint8_t *ur = u + (size_t)(r >> cy) * c_stride;
        const uint8_t *vr = v + (size_t)(r >> cy) * c_stride;
        uint8_t *o = dst + (size_t)r * dst_stride;
        for (int x = 0; x < w; x++)
            cvt_yuv_pixel_to_bgr(yr[x], ur[x >> cx], vr[x >> cx], o + 3 * x);
    }
}

/* libjpeg's RGB -> Y weights in 16-bit fixed point (0.29900, 0.58700, 0.11400). */
void cvt_rgb_to_gray(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst, int dst_stride)
{
    for (int r = 0; r < h; r++) {
        const uint8_t *s = src + (size_t)r * src_stride;
        uint8_t *o = dst + (size_t)r * dst_stride;
        for (int x = 0; x < w; x++, s += 3)
            o[x] = (uint8_t)((19595 * s[0] + 38470 * s[1] + 7471 * s[2] + 32768) >> 16);
    }
}

void cvt_rgb_to_bgr(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst, int dst_stride)
{
    for (int r = 0; r < h; r++) {
        const uint8_t *s = src + (size_t)r * src_stride;
        uint8_t *o = dst + (size_t)r * dst_stride;
        for (int x = 0; x < w; x++, s += 3, o += 3) {
            uint8_t red = s[0];
            o[1] = s[1];
            o[0] = s[2];
            o[2] = red; /* src may equal dst */
        }
    }
}

void cvt_gray_to_bgr(const uint8_t *src, int src_stride, int w, int h, uint8_t *dst, int dst_stride)
{
    for (int r = 0; r < h; r++) {
        const uint8_t *s = src + (size_t)r * src_stride;
        uint8_t *o = dst + (size_t)r * dst_stride;
        for (int x = 0; x < w; x++) o[3 * x] = o[3 * x + 1] = o[3 * x + 2] = s[x];
    }
}

void cvt_copy_rows(const uint8_t *src, int src_stride, int row_bytes, int h, uint8_t *dst,
                   int dst_stride)
{
    for (int r = 0; r < h; r++)
        memcpy(dst + (size_t)r * dst_stride, src + (size_t)r * src_stride, (size_t)row_bytes);
}

int cvt_shrink_shift(int w, int h, int want_w, int want_h)
{
    if (want_w <= 0 && want_h <= 0) return 0;
    int shift = 0;
    while (shift < 3) {
        int nw = w >> (shift + 1), nh = h >> (shift + 1);
        if (nw < 1 || nh < 1) break;
        if ((want_w > 0 && nw < want_w) || (want_h > 0 && nh < want_h)) break;
        shift++;
    }
    return shift;
}

void cvt_shrink(const uint8_t *src, int src_stride, int w, int h, int channels, int shift,
                uint8_t *dst, int dst_stride)
{
    int f = 1 << shift, ow = w >> shift, oh = h >> shift, n = f * f;
    for (int r = 0; r < oh; r++) {
        uint8_t *o = dst + (size_t)r * dst_stride;
        for (int x = 0; x < ow; x++) {
            for (int c = 0; c < channels; c++) {
                int sum = 0;
                for (int dy = 0; dy < f; dy++) {
                    const uint8_t *s = src + (size_t)(r * f + dy) * src_stride;
                    for (int dx = 0; dx < f; dx++) sum += s[(x * f + dx) * channels + c];
                }
                o[x * channels + c] = (uint8_t)((sum + n / 2) / n);
            }
        }
    }
}

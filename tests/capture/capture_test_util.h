/* tests/capture/capture_test_util.h — small helpers shared by the capture tests (static inline:
 * each test is one executable). */
#ifndef KIFUCAM_TESTS_CAPTURE_UTIL_H
#define KIFUCAM_TESTS_CAPTURE_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "capture/frame.h"

/* The pixel at (x, y) of a frame, channel c. */
static inline int px(const struct frame *f, int x, int y, int c)
{
    return f->data[(size_t)y * (size_t)f->stride +
                   (size_t)x * (size_t)pixfmt_bytes_per_pixel(f->fmt) + (size_t)c];
}

/* A synthetic board-like picture (smooth shading, a grid of dark lines, round light and dark
 * discs), w x h BGR, and its JPEG at quality q with 4:2:0 chroma; *len set, free with tjFree. */
static inline unsigned char *synthetic_jpeg(int w, int h, int q, unsigned long *len)
{
    uint8_t *bgr = malloc((size_t)w * (size_t)h * 3);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = bgr + 3 * ((size_t)y * (size_t)w + (size_t)x);
            int base = 120 + (x * 60) / w + (y * 40) / h;
            int gx = x % 40, gy = y % 40;
            if (gx < 2 || gy < 2) base = 40;
            int dx = gx - 20, dy = gy - 20;
            if (dx * dx + dy * dy < 150) base = ((x / 40 + y / 40) % 3 == 0) ? 20 : 235;
            p[0] = (uint8_t)(base * 6 / 10);
            p[1] = (uint8_t)(base * 8 / 10);
            p[2] = (uint8_t)base;
        }
    tjhandle tj = tjInitCompress();
    unsigned char *jpg = NULL;
    *len = 0;
    if (tjCompress2(tj, bgr, w, w * 3, h, TJPF_BGR, &jpg, len, TJSAMP_420, q, 0) != 0) jpg = NULL;
    tjDestroy(tj);
    free(bgr);
    return jpg;
}

#endif

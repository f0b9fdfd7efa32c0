/* vision/line_denoise.c — take speckle out of a grey image and keep thin lines.
 *
 * A 3x3 median also erases a printed grid line one pixel wide (it fills only three of the nine
 * places), and then the line mask breaks into dots: Hough finds a few short pieces of the far
 * rows, or none. Here each pixel takes the median of three along each of four directions
 * (0, 45, 90 and 135 degrees) and keeps the darkest of the four: a speck, light or dark, is
 * outvoted in every direction, and a thin dark line survives along its own direction. */
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

static inline int med3(int a, int b, int c)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return c < lo ? lo : c > hi ? hi : c;
}

bool line_denoise(uint8_t *img, int w, int h, int stride)
{
    if (w < 3 || h < 3) return true;
    /* three rows of the input: the row being written over and the one above are needed intact */
    uint8_t *rows = malloc((size_t)3 * w);
    if (!rows) return false;
    uint8_t *up = rows, *mid = rows + w, *down = rows + 2 * w;
    memcpy(up, img, (size_t)w);
    memcpy(mid, img + stride, (size_t)w);
    for (int y = 1; y < h - 1; y++) {
        memcpy(down, img + (size_t)(y + 1) * stride, (size_t)w);
        uint8_t *out = img + (size_t)y * stride;
        for (int x = 1; x < w - 1; x++) {
            int c = mid[x];
            int m = med3(mid[x - 1], c, mid[x + 1]);
            int v = med3(up[x], c, down[x]);
            if (v < m) m = v;
            v = med3(up[x - 1], c, down[x + 1]);
            if (v < m) m = v;
            v = med3(up[x + 1], c, down[x - 1]);
            if (v < m) m = v;
            out[x] = (uint8_t)m;
        }
        uint8_t *t = up;
        up = mid, mid = down, down = t;
    }
    free(rows);
    return true;
}

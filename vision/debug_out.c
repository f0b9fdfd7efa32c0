/* vision/debug_out.c — the debug switch: each stage's image as PGM/PPM into det->debug_dir
 * (plain formats any viewer opens; no image library needed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision_internal.h"

static FILE *open_out(const struct vision_detector *det, const char *name, const char *ext)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.%s", det->debug_dir ? det->debug_dir : ".", name, ext);
    return fopen(path, "wb");
}

void debug_write_gray(const struct vision_detector *det, const char *name, const uint8_t *px, int w,
                      int h, int stride)
{
    if (!det->debug) return;
    FILE *f = open_out(det, name, "pgm");
    if (!f) return;
    fprintf(f, "P5\n%d %d\n255\n", w, h);
    for (int y = 0; y < h; y++) fwrite(px + (size_t)y * stride, 1, (size_t)w, f);
    fclose(f);
}

static void put(uint8_t *rgb, int w, int h, int x, int y, const uint8_t c[3])
{
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    memcpy(rgb + 3 * ((size_t)y * w + x), c, 3);
}

static void line(uint8_t *rgb, int w, int h, double x0, double y0, double x1, double y1,
                 const uint8_t c[3])
{
    int n = (int)ceil(fmax(fabs(x1 - x0), fabs(y1 - y0))) + 1;
    if (n > 20000) return;
    for (int i = 0; i <= n; i++) {
        double t = (double)i / n;
        put(rgb, w, h, (int)lround(x0 + t * (x1 - x0)), (int)lround(y0 + t * (y1 - y0)), c);
    }
}

void debug_write_grid(const struct vision_detector *det, const char *name, const uint8_t *gray,
                      int w, int h, const struct grid *g, const struct observation *obs,
                      const struct segment *seg, int nseg)
{
    if (!det->debug) return;
    uint8_t *rgb = malloc((size_t)w * h * 3);
    if (!rgb) return;
    for (size_t i = 0; i < (size_t)w * h; i++)
        rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = (uint8_t)(gray[i] / 2 + 64);
    static const uint8_t red[3] = {255, 0, 0}, green[3] = {0, 220, 0}, blue[3] = {40, 80, 255},
                         yellow[3] = {255, 255, 0}, black[3] = {0, 0, 0},
                         white[3] = {255, 255, 255};
    for (int i = 0; i < nseg; i++)
        line(rgb, w, h, seg[i].x1, seg[i].y1, seg[i].x2, seg[i].y2, blue);
    if (g) {
        int n = g->n;
        for (int k = 0; k < n; k++) {
            double a, b, c, d;
            hom_apply(g->H, k, 0, &a, &b);
            hom_apply(g->H, k, n - 1, &c, &d);
            line(rgb, w, h, a, b, c, d, k == 0 ? yellow : green);
            hom_apply(g->H, 0, k, &a, &b);
            hom_apply(g->H, n - 1, k, &c, &d);
            line(rgb, w, h, a, b, c, d, k == 0 ? red : green);
        }
        if (obs)
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    int p = y * OBS_MAX + x;
                    double px, py;
                    hom_apply(g->H, x, y, &px, &py);
                    const uint8_t *c = obs->occluded[p]             ? red
                                       : obs->point[p] == OBS_BLACK ? black
                                       : obs->point[p] == OBS_WHITE ? white
                                                                    : NULL;
                    if (!c) continue;
                    for (int dy = -2; dy <= 2; dy++)
                        for (int dx = -2; dx <= 2; dx++)
                            put(rgb, w, h, (int)px + dx, (int)py + dy, c);
                }
    }
    FILE *f = open_out(det, name, "ppm");
    if (f) {
        fprintf(f, "P6\n%d %d\n255\n", w, h);
        fwrite(rgb, 1, (size_t)w * h * 3, f);
        fclose(f);
    }
    free(rgb);
}

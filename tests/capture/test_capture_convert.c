/* tests/capture/test_capture_convert.c — pixel conversions with exact values for known pixels:
 * YUYV (webcams), planar YUV (Y4M, cameras), RGB (PNG), and power-of-two shrinking. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "capture/convert.h"
#include "tests/testutil.h"

static void assert_bgr(const uint8_t *p, int b, int g, int r)
{
    assert_int_equal(p[0], b);
    assert_int_equal(p[1], g);
    assert_int_equal(p[2], r);
}

/* BT.601 limited range anchors: black (16,128,128), white (235,128,128), and the 100% primaries
 * as published, rounded to 8 bits: (Y, U, V) = red (81, 90, 240), green (145, 54, 34), blue
 * (41, 240, 110). The published green gives B = 1 here (0.9 unrounded). */
static void test_yuv_pixel_anchors(void **state)
{
    (void)state;
    uint8_t p[3];
    cvt_yuv_pixel_to_bgr(16, 128, 128, p);
    assert_bgr(p, 0, 0, 0);
    cvt_yuv_pixel_to_bgr(235, 128, 128, p);
    assert_bgr(p, 255, 255, 255);
    cvt_yuv_pixel_to_bgr(126, 128, 128, p); /* mid gray: 1.164 * 110 = 128.0 */
    assert_bgr(p, 128, 128, 128);
    cvt_yuv_pixel_to_bgr(81, 90, 240, p);
    assert_bgr(p, 0, 0, 255);
    cvt_yuv_pixel_to_bgr(145, 54, 34, p);
    assert_bgr(p, 1, 255, 0);
    cvt_yuv_pixel_to_bgr(41, 240, 110, p);
    assert_bgr(p, 255, 0, 0);
    cvt_yuv_pixel_to_bgr(0, 0, 0, p); /* out of range input clamps, never wraps */
    assert_bgr(p, 0, 135, 0);
}

static void test_yuyv(void **state)
{
    (void)state;
    /* 4x2 image, stride 10 (2 bytes of padding per row): pixel pairs share U and V. */
    const uint8_t src[20] = {81,  90, 235, 240, 16, 128, 235, 128, 0xEE, 0xEE,
                             145, 54, 145, 34,  41, 240, 41,  110, 0xEE, 0xEE};
    uint8_t gray[2 * 5];
    memset(gray, 0xAA, sizeof gray);
    cvt_yuyv_to_gray(src, 10, 4, 2, gray, 5);
    const uint8_t want_gray[10] = {81, 235, 16, 235, 0xAA, 145, 145, 41, 41, 0xAA};
    assert_memory_equal(gray, want_gray, sizeof gray); /* padding column untouched */
    uint8_t bgr[2 * 12];
    cvt_yuyv_to_bgr(src, 10, 4, 2, bgr, 12);
    assert_bgr(bgr + 0, 0, 0, 255);     /* red */
    assert_bgr(bgr + 6, 0, 0, 0);       /* black */
    assert_bgr(bgr + 9, 255, 255, 255); /* white */
    assert_bgr(bgr + 12, 1, 255, 0);    /* green */
    assert_bgr(bgr + 18, 255, 0, 0);    /* blue */
}

static void test_planar(void **state)
{
    (void)state;
    /* 4x2 4:2:0: one chroma sample per 2x2 block. Left block red, right block neutral. */
    const uint8_t y[8] = {81, 81, 16, 235, 81, 81, 126, 126};
    const uint8_t u[2] = {90, 128}, v[2] = {240, 128};
    uint8_t bgr[2 * 12];
    cvt_yuv_planar_to_bgr(y, 4, u, v, 2, 1, 1, 4, 2, bgr, 12);
    assert_bgr(bgr + 0, 0, 0, 255);
    assert_bgr(bgr + 12 + 3, 0, 0, 255);
    assert_bgr(bgr + 6, 0, 0, 0);
    assert_bgr(bgr + 9, 255, 255, 255);
    assert_bgr(bgr + 12 + 9, 128, 128, 128);
    /* 4:2:2: chroma per 2x1; second row uses its own chroma row. */
    const uint8_t u2[4] = {90, 128, 128, 240}, v2[4] = {240, 128, 128, 110};
    const uint8_t y2[8] = {81, 81, 126, 126, 126, 126, 41, 41};
    cvt_yuv_planar_to_bgr(y2, 4, u2, v2, 2, 1, 0, 4, 2, bgr, 12);
    assert_bgr(bgr + 0, 0, 0, 255);
    assert_bgr(bgr + 12 + 0, 128, 128, 128);
    assert_bgr(bgr + 12 + 9, 255, 0, 0);
}

static void test_rgb(void **state)
{
    (void)state;
    const uint8_t rgb[12] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255};
    uint8_t gray[4], bgr[12];
    cvt_rgb_to_gray(rgb, 12, 4, 1, gray, 4);
    /* JFIF: 0.299 R + 0.587 G + 0.114 B, rounded: 76.2, 149.7, 29.1, 255 */
    const uint8_t want[4] = {76, 150, 29, 255};
    assert_memory_equal(gray, want, 4);
    cvt_rgb_to_bgr(rgb, 12, 4, 1, bgr, 12);
    assert_bgr(bgr, 0, 0, 255);
    assert_bgr(bgr + 3, 0, 255, 0);
    assert_bgr(bgr + 6, 255, 0, 0);
    uint8_t same[12];
    memcpy(same, rgb, 12);
    cvt_rgb_to_bgr(same, 12, 4, 1, same, 12); /* in place */
    assert_memory_equal(same, bgr, 12);
    const uint8_t g[2] = {7, 200};
    uint8_t gb[6];
    cvt_gray_to_bgr(g, 2, 2, 1, gb, 6);
    assert_bgr(gb, 7, 7, 7);
    assert_bgr(gb + 3, 200, 200, 200);
}

static void test_shrink(void **state)
{
    (void)state;
    assert_int_equal(cvt_shrink_shift(1280, 720, 0, 0), 0);
    assert_int_equal(cvt_shrink_shift(1280, 720, 640, 360), 1);
    assert_int_equal(cvt_shrink_shift(1280, 720, 641, 0), 0);
    assert_int_equal(cvt_shrink_shift(1280, 720, 320, 180), 2);
    assert_int_equal(cvt_shrink_shift(1280, 720, 300, 100), 2);
    assert_int_equal(cvt_shrink_shift(1280, 720, 1, 1), 3);       /* never below 1/8 */
    assert_int_equal(cvt_shrink_shift(1280, 720, 2000, 2000), 0); /* never enlarges */
    assert_int_equal(cvt_shrink_shift(1280, 720, 0, 90), 3);
    /* 4x2 gray -> 2x1 by averaging 2x2 blocks, rounding to nearest. */
    const uint8_t g[8] = {0, 1, 10, 20, 1, 1, 30, 41};
    uint8_t o[2];
    cvt_shrink(g, 4, 4, 2, 1, 1, o, 2);
    assert_int_equal(o[0], 1);  /* 3/4 = 0.75 -> 1 */
    assert_int_equal(o[1], 25); /* 101/4 = 25.25 -> 25 */
    /* BGR channels are averaged separately. */
    const uint8_t c[12] = {0, 100, 255, 2, 100, 255, 4, 100, 255, 6, 100, 251};
    uint8_t oc[3];
    cvt_shrink(c, 6, 2, 2, 3, 1, oc, 3);
    assert_bgr(oc, 3, 100, 254);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_yuv_pixel_anchors),
        cmocka_unit_test(test_yuyv),
        cmocka_unit_test(test_planar),
        cmocka_unit_test(test_rgb),
        cmocka_unit_test(test_shrink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

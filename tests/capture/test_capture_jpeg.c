/* tests/capture/test_capture_jpeg.c — JPEG/MJPEG decoding: gray and BGR values of known
 * colours, DCT-scaled sizes, webcam frames without Huffman tables, corrupt and truncated data,
 * and the decode speed at 1280x720 (printed, not asserted: this is a shared machine). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/jpeg_decode.h"
#include "tests/capture/capture_test_util.h"
#include "tests/testutil.h"

static struct jpeg_decoder *dec;

static int setup(void **state)
{
    (void)state;
    char err[256];
    dec = jpeg_decoder_new(err, sizeof err);
    return dec ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    jpeg_decoder_free(dec);
    return 0;
}

static uint8_t *fixture(const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/capture/%s", tu_fixtures_dir(), rel);
    uint8_t *b = (uint8_t *)tu_read_file(path, len);
    assert_non_null(b);
    return b;
}

static void assert_near(int got, int want, int tol)
{
    if (abs(got - want) > tol) fail_msg("pixel value %d, expected %d +- %d", got, want, tol);
}

/* seq/a.jpg: 64x64 quadrants red, green, blue, white (quality 95, MCU-aligned, so flat). */
static void test_known_colours(void **state)
{
    (void)state;
    size_t len;
    uint8_t *jpg = fixture("seq/a.jpg", &len);
    struct frame f = {0};
    char err[256];
    assert_int_equal(
        jpeg_decode(dec, jpg, len, PIXFMT_GRAY8, 0, 0, true, &f, NULL, err, sizeof err), 0);
    assert_int_equal(f.width, 64);
    assert_int_equal(f.height, 64);
    assert_int_equal(f.stride, 64);
    /* JFIF luma of red, green, blue, white: 76, 150, 29, 255 */
    assert_near(px(&f, 16, 16, 0), 76, 2);
    assert_near(px(&f, 48, 16, 0), 150, 2);
    assert_near(px(&f, 16, 48, 0), 29, 2);
    assert_near(px(&f, 48, 48, 0), 255, 1);
    assert_int_equal(
        jpeg_decode(dec, jpg, len, PIXFMT_BGR24, 0, 0, true, &f, NULL, err, sizeof err), 0);
    assert_int_equal(f.stride, 64 * 3);
    assert_int_equal(f.fmt, PIXFMT_BGR24);
    static const int want[4][3] = {{0, 0, 255}, {0, 255, 0}, {255, 0, 0}, {255, 255, 255}};
    int worst = 0;
    for (int k = 0; k < 4; k++)
        for (int c = 0; c < 3; c++) {
            int got = px(&f, 16 + 32 * (k & 1), 16 + 32 * (k >> 1), c);
            assert_near(got, want[k][c], 4);
            if (abs(got - want[k][c]) > worst) worst = abs(got - want[k][c]);
        }
    tu_note("JPEG q95 flat quadrants: worst BGR error %d", worst);
    free(jpg);
}

static void test_scaled_sizes(void **state)
{
    (void)state;
    size_t len;
    uint8_t *jpg = fixture("seq/a.jpg", &len);
    static const struct {
        int ww, wh, w;
    } cases[] = {{0, 0, 64},   {100, 100, 64}, {64, 64, 64}, {32, 32, 32}, {20, 20, 32},
                 {16, 16, 16}, {9, 0, 16},     {8, 8, 8},    {1, 1, 8},    {0, 30, 32}};
    char err[256];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct frame f = {0};
        assert_int_equal(jpeg_decode(dec, jpg, len, PIXFMT_GRAY8, cases[i].ww, cases[i].wh, true,
                                     &f, NULL, err, sizeof err),
                         0);
        assert_int_equal(f.width, cases[i].w);
        assert_int_equal(f.height, cases[i].w);
    }
    /* Scaled colours stay right: the red quadrant at 1/4 is still red-luma. */
    struct frame f = {0};
    assert_int_equal(
        jpeg_decode(dec, jpg, len, PIXFMT_GRAY8, 16, 16, true, &f, NULL, err, sizeof err), 0);
    assert_near(px(&f, 4, 4, 0), 76, 3);
    free(jpg);
}

/* Copy a JPEG without its DHT segments, as UVC webcams send MJPEG frames. */
static size_t strip_dht(const uint8_t *in, size_t len, uint8_t *out)
{
    size_t i = 2, o = 2;
    memcpy(out, in, 2);
    while (i + 4 <= len && in[i] == 0xFF) {
        uint8_t m = in[i + 1];
        size_t seg = 2 + (((size_t)in[i + 2] << 8) | in[i + 3]);
        if (m == 0xDA) break; /* start of scan: the rest is entropy-coded data */
        if (m != 0xC4) {
            memcpy(out + o, in + i, seg);
            o += seg;
        }
        i += seg;
    }
    memcpy(out + o, in + i, len - i);
    return o + len - i;
}

static void test_mjpeg_without_huffman_tables(void **state)
{
    (void)state;
    unsigned long len;
    unsigned char *jpg = synthetic_jpeg(320, 240, 80, &len);
    assert_non_null(jpg);
    uint8_t *bare = malloc(len);
    size_t blen = strip_dht(jpg, len, bare);
    assert_true(blen < len);              /* something was removed */
    for (size_t i = 0; i + 1 < blen; i++) /* and no DHT marker is left before the scan */
        if (bare[i] == 0xFF && bare[i + 1] == 0xDA)
            break;
        else
            assert_false(bare[i] == 0xFF && bare[i + 1] == 0xC4);
    char err[256];
    struct frame a = {0}, b = {0};
    assert_int_equal(
        jpeg_decode(dec, jpg, len, PIXFMT_GRAY8, 0, 0, true, &a, NULL, err, sizeof err), 0);
    uint8_t *ref = malloc((size_t)a.stride * (size_t)a.height);
    memcpy(ref, a.data, (size_t)a.stride * (size_t)a.height);
    bool warned = true;
    assert_int_equal(
        jpeg_decode(dec, bare, blen, PIXFMT_GRAY8, 0, 0, true, &b, &warned, err, sizeof err), 0);
    assert_false(warned);
    assert_int_equal(b.width, 320);
    assert_memory_equal(b.data, ref, (size_t)b.stride * (size_t)b.height);
    tu_note("MJPEG frame without DHT: %zu of %lu bytes, decodes identically", blen, len);
    free(ref);
    free(bare);
    tjFree(jpg);
}

static void test_corrupt(void **state)
{
    (void)state;
    char err[256];
    struct frame f = {0};
    size_t len;
    uint8_t *bad = fixture("seq/c.jpg", &len);
    assert_int_equal(
        jpeg_decode(dec, bad, len, PIXFMT_GRAY8, 0, 0, false, &f, NULL, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a readable JPEG"));
    free(bad);
    assert_int_equal(jpeg_decode(dec, (const uint8_t *)"", 0, PIXFMT_GRAY8, 0, 0, false, &f, NULL,
                                 err, sizeof err),
                     -1);

    /* Truncated mid-scan: strict says corrupt; lenient keeps the picture and warns. */
    unsigned long jl;
    unsigned char *jpg = synthetic_jpeg(320, 240, 80, &jl);
    size_t cut = jl * 6 / 10;
    bool warned = false;
    assert_int_equal(
        jpeg_decode(dec, jpg, cut, PIXFMT_GRAY8, 0, 0, true, &f, &warned, err, sizeof err), -1);
    assert_non_null(strstr(err, "corrupt JPEG"));
    tu_note("truncated JPEG, strict: %s", err);
    assert_int_equal(
        jpeg_decode(dec, jpg, cut, PIXFMT_GRAY8, 0, 0, false, &f, &warned, err, sizeof err), 0);
    assert_true(warned);
    assert_int_equal(f.width, 320);
    tjFree(jpg);
}

static double ms_per_decode(const unsigned char *jpg, unsigned long len, enum pixfmt fmt,
                            int want_w, int n)
{
    char err[256];
    struct frame f = {0};
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < n; i++)
        assert_int_equal(
            jpeg_decode(dec, jpg, len, fmt, want_w, 0, true, &f, NULL, err, sizeof err), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6) / n;
}

/* Speed is reported, not asserted: timing on a shared CI machine (and under ASan) is noise. */
static void test_decode_speed(void **state)
{
    (void)state;
    unsigned long len;
    unsigned char *jpg = synthetic_jpeg(1280, 720, 85, &len);
    assert_non_null(jpg);
    int n = 40;
    double gray = ms_per_decode(jpg, len, PIXFMT_GRAY8, 0, n);
    double bgr = ms_per_decode(jpg, len, PIXFMT_BGR24, 0, n);
    double quarter = ms_per_decode(jpg, len, PIXFMT_GRAY8, 320, n);
    tu_note("1280x720 JPEG q85 (%lu bytes): GRAY %.2f ms/frame, BGR %.2f ms/frame, GRAY at 1/4 "
            "%.2f ms/frame (%d decodes each)",
            len, gray, bgr, quarter, n);
    tjFree(jpg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_colours),
        cmocka_unit_test(test_scaled_sizes),
        cmocka_unit_test(test_mjpeg_without_huffman_tables),
        cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_decode_speed),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

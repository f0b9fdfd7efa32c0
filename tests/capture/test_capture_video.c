/* tests/capture/test_capture_video.c — `file:` on compressed videos through FFmpeg's libraries:
 * an H.264 MP4 of the sample clip (tests/fixtures/capture/clip-9x9.mp4: 640x480, 15 fps, 263
 * frames) read whole in gray and BGR, timestamps from the stream, shrinking, and the same file cut
 * short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "tests/testutil.h"

static struct frame_source *open_video(const char *rel, const struct source_options *o)
{
    char spec[4200], err[512];
    snprintf(spec, sizeof spec, "file:%s/capture/%s", tu_fixtures_dir(), rel);
    struct frame_source *s = source_open(spec, o, err, sizeof err);
    if (!s) fail_msg("%s", err);
    return s;
}

/* Mean of a frame's first channel. */
static double mean(const struct frame *f)
{
    double sum = 0;
    for (int y = 0; y < f->height; y++)
        for (int x = 0; x < f->width; x++)
            sum += f->data[(size_t)y * (size_t)f->stride +
                           (size_t)x * (f->fmt == PIXFMT_BGR24 ? 3 : 1)];
    return sum / ((double)f->width * f->height);
}

static void test_whole_clip(void **state)
{
    (void)state;
    struct source_options o;
    source_options_default(&o);
    struct frame_source *s = open_video("clip-9x9.mp4", &o);
    struct frame f;
    int n = 0;
    int64_t last_t = -1;
    double m0 = 0;
    enum source_status st;
    while ((st = source_next(s, &f, 0)) == SOURCE_FRAME) {
        assert_int_equal(f.width, 640);
        assert_int_equal(f.height, 480);
        assert_int_equal(f.fmt, PIXFMT_GRAY8);
        assert_int_equal((int)f.seq, n);
        assert_true(f.t_ns > last_t);
        /* 15 fps: frame n at n/15 s, to the stream's time base */
        assert_true(llabs(f.t_ns - (int64_t)n * 1000000000 / 15) < 2000000);
        if (n == 0) m0 = mean(&f);
        last_t = f.t_ns;
        n++;
    }
    assert_int_equal(st, SOURCE_END);
    tu_note("clip-9x9.mp4: %d frames, last at %.3f s, first frame mean gray %.1f", n,
            (double)last_t / 1e9, m0);
    assert_int_equal(n, 263);
    /* a real picture, not a blank or garbage frame: a light board on a darker table */
    assert_true(m0 > 40 && m0 < 220);
    source_close(s);
}

/* --loop (soak runs): the clip again and again, frame numbers and times going on as a camera's
 * would, the second pass showing the same pictures as the first. */
static void test_loop(void **state)
{
    (void)state;
    struct source_options o;
    source_options_default(&o);
    o.loop = true;
    struct frame_source *s = open_video("clip-9x9.mp4", &o);
    struct frame f;
    int64_t last_t = -1;
    double first_pass[3] = {0}, again[3] = {0};
    for (int n = 0; n < 2 * 263 + 3; n++) {
        assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
        assert_int_equal((int)f.seq, n);
        assert_true(f.t_ns > last_t);
        assert_true(llabs(f.t_ns - (int64_t)n * 1000000000 / 15) < 2000000);
        last_t = f.t_ns;
        if (n < 3) first_pass[n] = mean(&f);
        if (n >= 2 * 263) again[n - 2 * 263] = mean(&f);
    }
    tu_note("looped clip-9x9.mp4 twice and 3 frames: last at %.3f s; first frames' mean gray "
            "%.2f %.2f %.2f, after two passes %.2f %.2f %.2f",
            (double)last_t / 1e9, first_pass[0], first_pass[1], first_pass[2], again[0], again[1],
            again[2]);
    for (int k = 0; k < 3; k++) assert_true(fabs(first_pass[k] - again[k]) < 0.01);
    source_close(s);
}

static void test_bgr_and_shrink(void **state)
{
    (void)state;
    struct source_options o;
    source_options_default(&o);
    o.fmt = PIXFMT_BGR24;
    o.width = 320;
    o.height = 240;
    o.fps = 30;
    struct frame_source *s = open_video("clip-9x9.mp4", &o);
    struct frame f;
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(f.width, 320);
    assert_int_equal(f.height, 240);
    assert_int_equal(f.stride, 960);
    assert_int_equal(f.fmt, PIXFMT_BGR24);
    assert_int_equal(f.t_ns, 1000000000 / 30); /* opt.fps: seq / fps */
    /* the clip is gray: B, G and R agree within the codec's error */
    for (int x = 0; x < f.width; x += 37) {
        const uint8_t *p = f.data + (size_t)(f.height / 2) * (size_t)f.stride + (size_t)x * 3;
        assert_true(abs(p[0] - p[1]) < 12 && abs(p[1] - p[2]) < 12);
    }
    source_close(s);
}

/* A video cut short (a phone's recording interrupted, a copy not finished): every frame before
 * the cut, then either the end or an error that names the file, and never a crash. */
static void test_cut_short(void **state)
{
    (void)state;
    struct frame_source *s = open_video("clip-9x9-cut.mp4", NULL);
    struct frame f;
    int frames = 0, errors = 0;
    enum source_status st;
    char first_error[512] = "";
    for (int i = 0; i < 1000; i++) {
        st = source_next(s, &f, 0);
        if (st == SOURCE_END) break;
        if (st == SOURCE_FRAME) frames++;
        if (st == SOURCE_ERROR) {
            if (!errors++) snprintf(first_error, sizeof first_error, "%s", source_error(s));
            assert_non_null(strstr(source_error(s), "clip-9x9-cut.mp4"));
        }
    }
    assert_int_equal(st, SOURCE_END);
    tu_note("cut at 200,000 of 528,907 bytes: %d frames, %d errors (%s)", frames, errors,
            first_error[0] ? first_error : "none");
    assert_true(frames > 50 && frames < 263);
    source_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_clip), cmocka_unit_test(test_loop),
        cmocka_unit_test(test_bgr_and_shrink), cmocka_unit_test(test_cut_short)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

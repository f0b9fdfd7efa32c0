/* tests/capture/test_capture_file.c — the file: source on YUV4MPEG2 clips from
 * tests/fixtures/capture (clip.y4m: 32x16 4:2:0 at 25 fps, 4 frames; frame k has luma 16 + 40 k,
 * a 2x2 white corner at the top left, red chroma on the left half and neutral on the right;
 * truncated.y4m: the same cut 100 bytes short of 3 frames). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "tests/capture/capture_test_util.h"
#include "tests/testutil.h"

static const char *spec_of(const char *rel)
{
    static char spec[4200];
    snprintf(spec, sizeof spec, "file:%s/capture/%s", tu_fixtures_dir(), rel);
    return spec;
}

static struct frame_source *open_clip(const char *rel, const struct source_options *o)
{
    char err[512];
    struct frame_source *s = source_open(spec_of(rel), o, err, sizeof err);
    if (!s) fail_msg("%s", err);
    return s;
}

static void assert_bgr_at(const struct frame *f, int x, int y, int b, int g, int r)
{
    assert_int_equal(px(f, x, y, 0), b);
    assert_int_equal(px(f, x, y, 1), g);
    assert_int_equal(px(f, x, y, 2), r);
}

static void test_gray_frames(void **state)
{
    (void)state;
    struct frame_source *s = open_clip("clip.y4m", NULL);
    struct frame f;
    for (int k = 0; k < 4; k++) {
        assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
        assert_int_equal(f.seq, (uint64_t)k);
        assert_int_equal(f.t_ns, (int64_t)k * 40000000); /* F25:1 */
        assert_int_equal(f.width, 32);
        assert_int_equal(f.height, 16);
        assert_int_equal(f.stride, 32);
        assert_int_equal(px(&f, 10, 10, 0), 16 + 40 * k);
        assert_int_equal(px(&f, 1, 1, 0), 235);
        assert_int_equal(px(&f, 2, 2, 0), 16 + 40 * k);
    }
    assert_int_equal(source_next(s, &f, 0), SOURCE_END);
    assert_int_equal(source_next(s, &f, 0), SOURCE_END);
    source_close(s);
}

static void test_bgr_frames(void **state)
{
    (void)state;
    struct source_options o;
    source_options_default(&o);
    o.fmt = PIXFMT_BGR24;
    struct frame_source *s = open_clip("clip.y4m", &o);
    struct frame f;
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(f.stride, 96);
    assert_bgr_at(&f, 20, 5, 0, 0, 0);      /* Y 16, neutral: black */
    assert_bgr_at(&f, 5, 5, 0, 0, 179);     /* Y 16 with red chroma: dark red */
    assert_bgr_at(&f, 0, 0, 178, 179, 255); /* Y 235 with red chroma: pink-white */
    for (int k = 1; k < 4; k++) assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_bgr_at(&f, 20, 5, 140, 140, 140); /* Y 136, neutral: 1.164 * 120 = 139.7 */
    source_close(s);
}

static void test_scaled_fps_loop(void **state)
{
    (void)state;
    struct source_options o;
    source_options_default(&o);
    o.width = 16;
    o.fps = 10;
    o.loop = true;
    struct frame_source *s = open_clip("clip.y4m", &o);
    struct frame f;
    for (int i = 0; i < 10; i++) {
        assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
        assert_int_equal(f.seq, (uint64_t)i);
        assert_int_equal(f.t_ns, (int64_t)i * 100000000);
        assert_int_equal(f.width, 16);
        assert_int_equal(f.height, 8);
        assert_int_equal(px(&f, 0, 0, 0), 235); /* the 2x2 corner averages to itself */
        assert_int_equal(px(&f, 5, 5, 0), 16 + 40 * (i % 4));
    }
    source_close(s);
}

static void test_truncated(void **state)
{
    (void)state;
    struct frame_source *s = open_clip("truncated.y4m", NULL);
    struct frame f;
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(source_next(s, &f, 0), SOURCE_ERROR);
    assert_non_null(strstr(source_error(s), "truncated.y4m: frame 2 truncated (668 of 768 bytes)"));
    tu_note("%s", source_error(s));
    assert_int_equal(source_next(s, &f, 0), SOURCE_END);
    source_close(s);
}

static void expect_open_error(const char *spec, const char *needle)
{
    char err[512];
    struct frame_source *s = source_open(spec, NULL, err, sizeof err);
    if (s) fail_msg("%s opened; expected an error containing '%s'", spec, needle);
    if (!strstr(err, needle)) fail_msg("error '%s' lacks '%s'", err, needle);
}

static void test_bad_files(void **state)
{
    (void)state;
    expect_open_error(spec_of("seq/notes.txt"), "notes.txt: not a video");
    expect_open_error(spec_of("no-such-clip.y4m"), "no-such-clip.y4m: cannot open");
    static const struct {
        const char *text, *needle;
    } cases[] = {
        {"", "empty file"},
        {"YUV4MPEG2 W0 H16\n", "size 0x16"},
        {"YUV4MPEG2 W32 H16 C420p10\n", "colour space '420p10' not supported"},
        {"YUV4MPEG2 W32x H16\n", "bad Y4M header field 'W32x'"},
        {"YUV4MPEG2 W32 H16", "no header line"},
        {"RIFF....AVI LIST", "not a video"},
    };
    char path[] = "/tmp/kifucam-y4m-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char spec[64];
    snprintf(spec, sizeof spec, "file:%s", path);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(path, "wb");
        fputs(cases[i].text, f);
        fclose(f);
        expect_open_error(spec, cases[i].needle);
    }
    /* A damaged frame marker: the frame before it is fine, then an error naming the frame. */
    FILE *f = fopen(path, "wb");
    fputs("YUV4MPEG2 W2 H2 Cmono F5:1\nFRAME\nabcdFRAMX\nefgh", f);
    fclose(f);
    char err[256];
    struct frame_source *s = source_open(spec, NULL, err, sizeof err);
    assert_non_null(s);
    struct frame fr;
    assert_int_equal(source_next(s, &fr, 0), SOURCE_FRAME);
    assert_int_equal(px(&fr, 1, 1, 0), 'd');
    assert_int_equal(source_next(s, &fr, 0), SOURCE_ERROR);
    assert_non_null(strstr(source_error(s), "frame 1: no FRAME marker at byte 37"));
    assert_int_equal(source_next(s, &fr, 0), SOURCE_END);
    source_close(s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gray_frames),     cmocka_unit_test(test_bgr_frames),
        cmocka_unit_test(test_scaled_fps_loop), cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

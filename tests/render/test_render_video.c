/* tests/render/test_render_video.c — `kifucam render --video`: a short real game rendered into a
 * video (H.264, and MJPEG on request) must read back through the project's own capture source with
 * every frame, at the times truth.jsonl gives, and look like the JPEG render of the same seed.
 * Also: faults that find no place in the game are listed in the truth header, not dropped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <unistd.h>

#include "capture/capture.h"
#include "render/render.h"
#include "tests/render/render_fixture.h"
#include "tests/testutil.h"

#define W 320
#define H 240

static struct render_opts opts(uint64_t seed, int moves)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = W;
    o.height = H;
    o.seed = seed;
    o.max_moves = moves;
    return o;
}

/* Every file in dir, then dir. */
static void remove_dir(const char *dir, int frames, const char *video)
{
    char path[512];
    for (int i = 0; i < frames; i++) {
        snprintf(path, sizeof path, "%s/frame_%06d.jpg", dir, i);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    unlink(path);
    if (video) {
        snprintf(path, sizeof path, "%s/%s", dir, video);
        unlink(path);
    }
    rmdir(dir);
}

/* The "t" of each frame line of truth.jsonl (n of them). */
static double *truth_times(const char *dir, int n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    size_t len;
    char *truth = tu_read_file(path, &len);
    assert_non_null(truth);
    double *t = calloc((size_t)n, sizeof *t);
    int k = 0;
    for (char *p = strstr(truth, "\"kind\":\"frame\""); p && k < n;
         p = strstr(p + 1, "\"kind\":\"frame\"")) {
        char *q = strstr(p, "\"t\":");
        assert_non_null(q);
        t[k++] = strtod(q + 4, NULL);
    }
    assert_int_equal(k, n);
    free(truth);
    return t;
}

/* Read the video back through capture/ and compare it with the JPEG frames of the same render:
 * frame count, timestamps against the truth, mean absolute difference per frame. */
static void compare_with_jpegs(const char *vdir, const char *video, const char *jdir, int n,
                               double *mad_mean, double *mad_max)
{
    char spec[600], err[300] = "";
    snprintf(spec, sizeof spec, "file:%s/%s", vdir, video);
    struct source_options so;
    source_options_default(&so);
    so.fmt = PIXFMT_BGR24;
    struct frame_source *src = source_open(spec, &so, err, sizeof err);
    if (!src) fail_msg("%s", err);
    double *t = truth_times(vdir, n);
    tjhandle tj = tjInitDecompress();
    uint8_t *bgr = malloc((size_t)W * H * 3);
    double sum = 0, worst = 0;
    int got = 0;
    struct frame f;
    enum source_status st;
    while ((st = source_next(src, &f, -1)) == SOURCE_FRAME) {
        assert_true(got < n);
        assert_int_equal(f.width, W);
        assert_int_equal(f.height, H);
        /* the video's clock is the truth's, to the microsecond */
        assert_true(fabs((double)f.t_ns / 1e9 - t[got]) < 1e-4);
        char path[512];
        snprintf(path, sizeof path, "%s/frame_%06d.jpg", jdir, got);
        size_t len;
        char *jpg = tu_read_file(path, &len);
        assert_non_null(jpg);
        assert_int_equal(
            tjDecompress2(tj, (unsigned char *)jpg, len, bgr, W, W * 3, H, TJPF_BGR, 0), 0);
        free(jpg);
        double d = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W * 3; x++)
                d += abs((int)f.data[(size_t)y * f.stride + x] - (int)bgr[(size_t)y * W * 3 + x]);
        d /= (double)W * H * 3;
        sum += d;
        if (d > worst) worst = d;
        got++;
    }
    if (st == SOURCE_ERROR) fail_msg("%s", source_error(src));
    assert_int_equal(got, n);
    *mad_mean = sum / n;
    *mad_max = worst;
    free(bgr);
    free(t);
    tjDestroy(tj);
    source_close(src);
}

static void render_pair(bool mjpeg, const char *video, uint64_t seed, double *mean, double *worst)
{
    struct go_record *rec = rf_load_go("render/capture3.sgf");
    char jdir[] = "/tmp/kifucam-rvj-XXXXXX", vdir[] = "/tmp/kifucam-rvv-XXXXXX", err[300] = "";
    assert_non_null(mkdtemp(jdir));
    assert_non_null(mkdtemp(vdir));
    struct render_opts o = opts(seed, 3);
    int nj = render_go_to_dir(rec, "capture3.sgf", &o, jdir, err, sizeof err);
    if (nj < 0) fail_msg("%s", err);
    o.video = video;
    o.video_mjpeg = mjpeg;
    struct render_summary sum;
    int nv = render_go_save(rec, "capture3.sgf", &o, vdir, &sum, err, sizeof err);
    if (nv < 0) fail_msg("%s", err);
    assert_int_equal(nv, nj);
    assert_int_equal(sum.frames, nv);
    if (mjpeg) assert_string_equal(sum.codec, "mjpeg");
    tu_note("%s video: codec %s, %d frames", video, sum.codec, nv);
    char path[512];
    snprintf(path, sizeof path, "%s/frame_%06d.jpg", vdir, 0);
    assert_int_not_equal(access(path, F_OK), 0); /* a video instead of JPEG frames */
    compare_with_jpegs(vdir, video, jdir, nv, mean, worst);
    tu_note("seed %llu: %s (%s) vs JPEG frames, mean absolute difference per frame: mean %.2f, "
            "max %.2f levels",
            (unsigned long long)seed, video, sum.codec, *mean, *worst);
    remove_dir(jdir, nj, NULL);
    remove_dir(vdir, 0, video);
    go_record_free(rec);
}

/* Three seeds (three scenes): the two lossy encodings of one picture stay a few levels apart,
 * never a different picture. */
static void video_vs_jpeg(bool mjpeg, const char *video)
{
    if (!KIFUCAM_HAVE_LIBAV) {
        tu_note("built without FFmpeg: no video output to test");
        TU_SKIP();
    }
    double lo = 1e9, hi = 0, top = 0;
    for (uint64_t seed = 11; seed <= 13; seed++) {
        double mean, worst;
        render_pair(mjpeg, video, seed, &mean, &worst);
        lo = mean < lo ? mean : lo;
        hi = mean > hi ? mean : hi;
        top = worst > top ? worst : top;
    }
    tu_note("%s: mean absolute difference %.2f .. %.2f levels over three renders, worst frame %.2f",
            video, lo, hi, top);
    assert_true(hi < 6.0);
    assert_true(top < 10.0);
}

static void test_h264_video_reads_back(void **state)
{
    (void)state;
    video_vs_jpeg(false, "game.mp4");
}

static void test_mjpeg_video_reads_back(void **state)
{
    (void)state;
    video_vs_jpeg(true, "game.mkv");
}

static void test_bad_video_requests(void **state)
{
    (void)state;
    if (!KIFUCAM_HAVE_LIBAV) TU_SKIP();
    struct go_record *rec = rf_load_go("render/capture3.sgf");
    char dir[] = "/tmp/kifucam-rvb-XXXXXX", err[300] = "";
    assert_non_null(mkdtemp(dir));
    struct render_opts o = opts(1, 1);
    o.video = "game.mp4";
    o.width = 321; /* 4:2:0 video needs even sizes */
    assert_int_equal(render_go_to_dir(rec, "capture3.sgf", &o, dir, err, sizeof err), -1);
    assert_non_null(strstr(err, "even"));
    o.width = W;
    o.video = "game.nosuchformat";
    assert_int_equal(render_go_to_dir(rec, "capture3.sgf", &o, dir, err, sizeof err), -1);
    assert_non_null(strstr(err, "container"));
    remove_dir(dir, 0, NULL);
    go_record_free(rec);
}

/* Faults asked for but with no place in the game are named in the summary and the truth header;
 * the other game's faults are named apart. */
static void test_unplaced_faults_listed(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("render/capture3.sgf");
    struct render_opts o = opts(4, 2); /* two moves: too short for any fault */
    unsigned bits;
    char err[300] = "";
    assert_true(render_faults_parse("moved-stone,knocked,hidden", &bits, err, sizeof err));
    o.faults = bits;
    o.signals = RENDER_SIGNAL_END;
    char dir[] = "/tmp/kifucam-rvf-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct render_summary sum;
    int n = render_go_save(rec, "capture3.sgf", &o, dir, &sum, err, sizeof err);
    if (n < 0) fail_msg("%s", err);
    assert_int_equal(sum.faults_unplaced, RENDER_FAULT_MOVED_STONE | RENDER_FAULT_KNOCKED);
    assert_int_equal(sum.faults_other_game, RENDER_FAULT_HIDDEN);
    assert_int_equal(sum.signals_unplaced, 0); /* the end signal always finds room */
    char path[512];
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    size_t len;
    char *truth = tu_read_file(path, &len);
    assert_non_null(truth);
    char *eol = strchr(truth, '\n');
    assert_non_null(eol);
    *eol = '\0';
    assert_non_null(strstr(truth, "\"faults_unplaced\":[\"moved-stone\",\"knocked\"]"));
    assert_non_null(strstr(truth, "\"faults_other_game\":[\"hidden\"]"));
    assert_non_null(strstr(truth, "\"frames_as\":\"frame_%06d.jpg\""));
    free(truth);
    remove_dir(dir, n, NULL);

    /* a longer game places them all: nothing listed */
    o = opts(4, 40);
    assert_true(render_faults_parse("moved-stone,knocked", &o.faults, err, sizeof err));
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    render_go_summary(r, &sum);
    assert_int_equal(sum.faults_unplaced, 0);
    assert_int_equal(sum.faults_other_game, 0);
    render_go_close(r);
    go_record_free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h264_video_reads_back),
        cmocka_unit_test(test_mjpeg_video_reads_back),
        cmocka_unit_test(test_bad_video_requests),
        cmocka_unit_test(test_unplaced_faults_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

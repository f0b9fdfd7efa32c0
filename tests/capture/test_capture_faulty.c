/* tests/capture/test_capture_faulty.c — the fault-injecting faulty: source the daemon's retry
 * test will use: errors, timeouts or junk frames for a while, then frames again; once or
 * repeatedly; with the inner stream paused (nothing lost) or running (frames lost). Inner:
 * tests/fixtures/capture/clip.y4m looped (4 clean frames). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "tests/capture/capture_test_util.h"
#include "tests/testutil.h"

static struct frame_source *open_faulty(const char *params)
{
    char spec[4400], err[512];
    snprintf(spec, sizeof spec, "faulty:file:%s/capture/clip.y4m%s", tu_fixtures_dir(), params);
    struct source_options o;
    source_options_default(&o);
    o.loop = true;
    struct frame_source *s = source_open(spec, &o, err, sizeof err);
    if (!s) fail_msg("%s", err);
    return s;
}

/* The statuses of n calls as a string: F frame, E error, T timeout, X end. seqs gets the seq of
 * each frame (or -1). */
static void run(struct frame_source *s, int n, char *out, long *seqs, int timeout_ms)
{
    for (int i = 0; i < n; i++) {
        struct frame f;
        enum source_status st = source_next(s, &f, timeout_ms);
        out[i] = st == SOURCE_FRAME     ? 'F'
                 : st == SOURCE_ERROR   ? 'E'
                 : st == SOURCE_TIMEOUT ? 'T'
                                        : 'X';
        if (seqs) seqs[i] = st == SOURCE_FRAME ? (long)f.seq : -1;
    }
    out[n] = '\0';
}

static void test_once_nothing_lost(void **state)
{
    (void)state;
    struct frame_source *s = open_faulty("?fail_after=3&fail_for=2");
    char got[32];
    long seqs[32];
    struct frame f;
    for (int i = 0; i < 3; i++) assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(source_next(s, &f, 0), SOURCE_ERROR);
    assert_non_null(strstr(source_error(s), "faulty: injected failure 1 of 2 (outage 1)"));
    assert_non_null(strstr(source_error(s), "clip.y4m"));
    assert_int_equal(source_next(s, &f, 0), SOURCE_ERROR);
    assert_non_null(strstr(source_error(s), "failure 2 of 2"));
    run(s, 12, got, seqs, 0);
    assert_string_equal(got, "FFFFFFFFFFFF"); /* once only */
    assert_int_equal(seqs[0], 3);             /* the inner stream waited: no gap */
    assert_int_equal(seqs[11], 14);
    assert_string_equal(source_error(s), "");
    source_close(s);
}

static void test_repeat_and_drop(void **state)
{
    (void)state;
    char got[32];
    long seqs[32];
    struct frame_source *s = open_faulty("?fail_after=2&fail_for=3&repeat=1");
    run(s, 15, got, seqs, 0);
    assert_string_equal(got, "FFEEEFFEEEFFEEE");
    assert_int_equal(seqs[5], 2);
    assert_int_equal(seqs[11], 5);
    source_close(s);

    s = open_faulty("?fail_after=2&fail_for=3&drop=1");
    run(s, 8, got, seqs, 0);
    assert_string_equal(got, "FFEEEFFF");
    assert_int_equal(seqs[1], 1);
    assert_int_equal(seqs[5], 5); /* frames 2, 3, 4 went by during the outage */
    source_close(s);
}

static void test_timeout_and_garbage(void **state)
{
    (void)state;
    char got[32];
    struct frame_source *s = open_faulty("?fail_after=1&fail_for=2&mode=timeout");
    run(s, 5, got, NULL, 5);
    assert_string_equal(got, "FTTFF");
    source_close(s);

    s = open_faulty("?fail_after=1&fail_for=2&mode=garbage");
    struct frame f;
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(px(&f, 10, 10, 0), 16);
    int junk = 0;
    for (int i = 1; i <= 2; i++) { /* frames 1 and 2 arrive as noise, in their place */
        assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
        assert_int_equal(f.seq, (uint64_t)i);
        assert_int_equal(f.width, 32);
        for (int y = 2; y < 16; y++)
            for (int x = 2; x < 32; x++) junk += px(&f, x, y, 0) != 16 + 40 * i;
    }
    assert_true(junk > 2 * 420 * 9 / 10); /* almost every pixel differs from the true frame */
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(f.seq, 3);
    assert_int_equal(px(&f, 10, 10, 0), 16 + 40 * 3);
    source_close(s);
}

static void test_defaults_and_bad_params(void **state)
{
    (void)state;
    char got[32];
    struct frame_source *s = open_faulty(""); /* fail_after=10, fail_for=5 */
    run(s, 17, got, NULL, 0);
    assert_string_equal(got, "FFFFFFFFFFEEEEEFF");
    source_close(s);
    s = open_faulty("?fail_for=0");
    run(s, 20, got, NULL, 0);
    assert_string_equal(got, "FFFFFFFFFFFFFFFFFFFF");
    source_close(s);

    static const struct {
        const char *spec, *needle;
    } bad[] = {
        {"faulty:dir:/tmp?fail_after=abc", "bad parameter 'fail_after=abc'"},
        {"faulty:dir:/tmp?fail_after=-1", "bad parameter 'fail_after=-1'"},
        {"faulty:dir:/tmp?mode=explode", "bad parameter 'mode=explode'"},
        {"faulty:dir:/tmp?speed", "bad parameter 'speed'"},
        {"faulty:dir:/tmp?repeat=2", "bad parameter 'repeat=2'"},
        {"faulty:faulty:dir:/tmp", "cannot wrap another faulty"},
        {"faulty:dir:/nonexistent-kifucam?fail_after=1",
         "faulty: dir: /nonexistent-kifucam: cannot"},
        {"faulty:v4l2:/dev/kifucam-no-video", "no such device"},
    };
    char err[512];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_null(source_open(bad[i].spec, NULL, err, sizeof err));
        if (!strstr(err, bad[i].needle))
            fail_msg("%s: '%s' lacks '%s'", bad[i].spec, err, bad[i].needle);
    }
}

/* Inner errors pass through once each, then the inner stream goes on (corrupt c.jpg). */
static void test_inner_errors_pass_through(void **state)
{
    (void)state;
    if (!KIFUCAM_HAVE_PNG) {
        tu_note("built without libpng: the folder's PNGs are errors; pass-through test not run");
        return;
    }
    char spec[4400], err[512], got[16];
    snprintf(spec, sizeof spec, "faulty:dir:%s/capture/seq?fail_after=100", tu_fixtures_dir());
    struct frame_source *s = source_open(spec, NULL, err, sizeof err);
    assert_non_null(s);
    struct frame f;
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(source_next(s, &f, 0), SOURCE_FRAME);
    assert_int_equal(source_next(s, &f, 0), SOURCE_ERROR);
    assert_non_null(strstr(source_error(s), "c.jpg"));
    run(s, 4, got, NULL, 0);
    assert_string_equal(got, "FFXX");
    source_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_once_nothing_lost),
        cmocka_unit_test(test_repeat_and_drop),
        cmocka_unit_test(test_timeout_and_garbage),
        cmocka_unit_test(test_defaults_and_bad_params),
        cmocka_unit_test(test_inner_errors_pass_through),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

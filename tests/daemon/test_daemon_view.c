/* tests/daemon/test_daemon_view.c — a camera that sees only part of the board. A real 9x9 game
 * (tests/fixtures/daemon/handicap2-9x9.sgf) is rendered from a camera that sees part of it
 * (RENDER_SCENE_PARTIAL: the board larger than the frame and off its centre) and recorded by the
 * daemon: it must say how many points lie out of the picture (a warning, the status line, the
 * run's figures), and say nothing of the kind for the same game filmed whole. A lamp's glare
 * (RENDER_SCENE_GLARE) that washes points out would be said the same way (a white stone there
 * cannot be seen); the rendered glare is read through, and the game recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/daemon.h"
#include "record/sgf.h"
#include "render/render.h"
#include "tests/daemon/daemon_testutil.h"
#include "tests/testutil.h"

#define MOVES 4
/* a render with a lamp's glare over this board (seeds 1-12 washed out 0 to 2 points at most
 * until the reader told a point's lines by their valleys; now none: the lines show through) */
#define GLARE_SEED 1

static struct go_record *game;
static const char *sgf_path;

static int setup(void **state)
{
    (void)state;
    game = dt_load_fixture_game("daemon/handicap2-9x9.sgf", &sgf_path);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    go_record_free(game);
    dt_cleanup();
    return 0;
}

/* Film the game in scenario sc (seed) and record it; the run's figures in *r. */
static void film_and_record(const char *name, enum render_scenario sc, uint64_t seed,
                            struct daemon_result *r)
{
    char frames[512], out[512], msg[300] = "", err[256];
    snprintf(msg, sizeof msg, "%s-frames", name);
    dt_make_tmp(frames, sizeof frames, msg);
    dt_render_game(game, sgf_path, sc, seed, MOVES, frames);
    dt_make_tmp(out, sizeof out, name);
    struct kc_config c;
    kc_config_default(&c);
    snprintf(c.source, sizeof c.source, "dir:%.500s", frames);
    snprintf(c.out_dir, sizeof c.out_dir, "%s", out);
    assert_int_equal(kc_config_set(&c, "game", "game", "go9", err, sizeof err), 0);
    assert_int_equal(kc_config_set(&c, "game", "handicap", "2", err, sizeof err), 0);
    c.fps = 30;
    c.progress = false;
    c.log_level = KC_LOG_ERROR;
    assert_int_equal(daemon_run(&c, NULL, r), 0);
    free(r->move);
}

static void test_partial_view(void **state)
{
    (void)state;
    struct daemon_result r;
    film_and_record("partial", RENDER_SCENE_PARTIAL, 5, &r);
    tu_note("partial view: %llu frames, %d moves recorded, at most %d of 81 points out of the "
            "picture",
            (unsigned long long)r.frames, r.moves, r.out_of_view_max);
    /* the board is found (the stones on the star points are in the record as handicap) and a
       share of it is out of the picture */
    assert_true(r.out_of_view_max >= 5 && r.out_of_view_max <= 60);
}

static void test_whole_view(void **state)
{
    (void)state;
    struct daemon_result r;
    film_and_record("whole", RENDER_SCENE_OVERHEAD, 11, &r);
    tu_note("overhead view: %llu frames, %d moves recorded, %d points out of the picture, %d "
            "washed out by glare",
            (unsigned long long)r.frames, r.moves, r.out_of_view_max, r.washed_out_max);
    assert_true(r.moves >= MOVES - 1);
    assert_int_equal(r.out_of_view_max, 0);
    assert_int_equal(r.washed_out_max, 0);
}

static void test_glare_view(void **state)
{
    (void)state;
    struct daemon_result r;
    uint64_t seed = GLARE_SEED;
    film_and_record("glare", RENDER_SCENE_GLARE, seed, &r);
    tu_note("glare view (seed %llu): %llu frames, %d moves recorded, at most %d of 81 points "
            "washed out, %d out of the picture",
            (unsigned long long)seed, (unsigned long long)r.frames, r.moves, r.washed_out_max,
            r.out_of_view_max);
    /* the glare is read through: every move recorded, and a washed-out warning, if any, names a
     * part of the board, never all of it. (The renders' glare no longer washes out a point
     * whose lines show, so this film does not reach the warning itself.) */
    assert_true(r.moves >= MOVES - 1);
    assert_true(r.washed_out_max <= 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_partial_view),
                                       cmocka_unit_test(test_whole_view),
                                       cmocka_unit_test(test_glare_view)};
    return cmocka_run_group_tests(tests, setup, teardown);
}

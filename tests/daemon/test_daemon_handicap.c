/* tests/daemon/test_daemon_handicap.c — a Go handicap game recorded by the daemon. A real 9x9
 * two-stone game (tests/fixtures/daemon/handicap2-9x9.sgf) is rendered, the stones standing on
 * the star points from the first frame, and recorded with `handicap = 2`:
 *  - fixed placement: the SGF says HA[2], AB[] with the two stones, PL[W], and then the game's
 *    moves, White first, without a flag;
 *  - free placement (the stones are Black's first moves): the same game after two Black stones;
 *  - without the handicap set, the two stones are a board disturbed at the start: a flag, so a
 *    referee sees that the configuration is wrong. */
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

#define MOVES 12

static struct go_record *game;
static char frames[512];

static int setup(void **state)
{
    (void)state;
    const char *path;
    game = dt_load_fixture_game("daemon/handicap2-9x9.sgf", &path);
    /* the rendering the bundled clip uses (its reader reads it exactly): light board, overhead */
    dt_make_tmp(frames, sizeof frames, "frames");
    dt_render_game(game, path, RENDER_SCENE_OVERHEAD, 11, MOVES, frames);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    go_record_free(game);
    dt_cleanup();
    return 0;
}

/* The game's moves after its root (the handicap stones are AB there). */
static int game_moves(struct go_move *out, int max)
{
    int n = 0;
    for (int i = 1; i < game->nnodes && n < max; i++)
        if (game->nodes[i].has_move) out[n++] = game->nodes[i].move;
    return n;
}

/* Record the footage into a fresh folder NAME with handicap n (free placement when free). */
static struct go_record *record(const char *name, int n, bool free_placement,
                                struct daemon_result *r)
{
    char out[400], err[256];
    dt_make_tmp(out, sizeof out, name);
    struct kc_config c;
    kc_config_default(&c);
    snprintf(c.source, sizeof c.source, "dir:%.500s", frames);
    snprintf(c.out_dir, sizeof c.out_dir, "%s", out);
    assert_int_equal(kc_config_set(&c, "game", "game", "go9", err, sizeof err), 0);
    assert_int_equal(kc_config_set(&c, "game", "rules", "Japanese 1989", err, sizeof err), 0);
    assert_int_equal(kc_config_set(&c, "game", "komi", "0.5", err, sizeof err), 0);
    char hc[8];
    snprintf(hc, sizeof hc, "%d", n);
    assert_int_equal(kc_config_set(&c, "game", "handicap", hc, err, sizeof err), 0);
    assert_int_equal(kc_config_set(&c, "game", "handicap_placement",
                                   free_placement ? "free" : "fixed", err, sizeof err),
                     0);
    c.fps = 30;
    c.rotate = 270; /* the rendered camera sees the board turned a quarter round */
    c.progress = false;
    c.log_level = KC_LOG_ERROR;
    assert_int_equal(daemon_run(&c, NULL, r), 0);
    free(r->move);
    struct go_record **recs = NULL;
    struct sgf_error se;
    assert_int_equal(sgf_read_file(r->sgf_path, &recs, &se), 1);
    struct go_record *rec = recs[0];
    free(recs);
    return rec;
}

static void test_fixed(void **state)
{
    (void)state;
    struct daemon_result r;
    struct go_record *rec = record("fixed", 2, false, &r);
    static struct go_move want[512], got[512];
    int nw = game_moves(want, 512), ng = 0;
    for (int i = 1; i < rec->nnodes; i++)
        if (rec->nodes[i].has_move) got[ng++] = rec->nodes[i].move;
    const struct go_record_node *root = &rec->nodes[0];
    tu_note("fixed handicap: HA[%d], %d stones on the root, PL %d; %d moves (%d as the game), "
            "%d flags",
            rec->handicap, root->nsetup, root->player, ng, dt_prefix_match(want, nw, got, ng),
            r.flags);
    assert_int_equal(rec->handicap, 2);
    assert_int_equal(root->nsetup, 2);
    /* the same two points as the game's own AB */
    int same = 0;
    for (int i = 0; i < root->nsetup; i++)
        for (int k = 0; k < game->nodes[0].nsetup; k++)
            same += root->setup[i].color == GO_BLACK &&
                    root->setup[i].point == game->nodes[0].setup[k].point;
    assert_int_equal(same, 2);
    assert_int_equal(root->player, GO_WHITE);
    assert_int_equal(ng, MOVES);
    assert_int_equal(dt_prefix_match(want, nw, got, ng), MOVES);
    assert_int_equal(r.flags, 0);
    go_record_free(rec);
}

static void test_free_placement(void **state)
{
    (void)state;
    struct daemon_result r;
    struct go_record *rec = record("free", 2, true, &r);
    static struct go_move want[512], got[512];
    int nw = game_moves(want, 512), ng = 0;
    for (int i = 1; i < rec->nnodes; i++)
        if (rec->nodes[i].has_move) got[ng++] = rec->nodes[i].move;
    tu_note("free handicap: HA[%d], %d moves, the first two %s %s, then %d as the game; %d flags",
            rec->handicap, ng, ng > 0 && got[0].color == GO_BLACK ? "B" : "?",
            ng > 1 && got[1].color == GO_BLACK ? "B" : "?",
            ng > 2 ? dt_prefix_match(want, nw, got + 2, ng - 2) : 0, r.flags);
    assert_int_equal(rec->handicap, 2);
    assert_int_equal(ng, MOVES + 2);
    assert_int_equal(got[0].color, GO_BLACK);
    assert_int_equal(got[1].color, GO_BLACK);
    assert_int_equal(dt_prefix_match(want, nw, got + 2, ng - 2), MOVES);
    assert_int_equal(r.flags, 0);
    go_record_free(rec);
}

static void test_not_declared(void **state)
{
    (void)state;
    struct daemon_result r;
    struct go_record *rec = record("none", 0, false, &r);
    tu_note("handicap not declared: %d flags, %d moves", r.flags, r.moves);
    assert_true(r.flags >= 1);
    go_record_free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fixed),
                                       cmocka_unit_test(test_free_placement),
                                       cmocka_unit_test(test_not_declared)};
    return cmocka_run_group_tests(tests, setup, teardown);
}

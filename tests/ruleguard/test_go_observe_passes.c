/* tests/ruleguard/test_go_observe_passes.c — passes end to end: a pass is invisible on the board,
 * so it comes as a signal (a stone put beside the board), from the referee, or from the
 * configuration; the same colour twice is a TWO_MOVES flag with both readings until the referee
 * says which. Through the guard's API and through the text format `kifucam check` replays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/check_obs.h"
#include "ruleguard/guard.h"
#include "ruleguard/obs_text.h"

static struct observation view;
static uint64_t frame;
static struct guard_event ev[GUARD_OBS_MAX_EVENTS];

/* A 9x9 view from rows ('.', 'X', 'O'), all sure. */
static const struct observation *see(const char *const rows[9])
{
    memset(&view, 0, sizeof view);
    view.w = view.h = 9;
    view.board_found = true;
    view.frame_seq = ++frame;
    view.t_ns = (int64_t)frame * 1000000000;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x;
            char c = rows[y][x];
            view.point[p] = c == 'X' ? OBS_BLACK : c == 'O' ? OBS_WHITE : OBS_EMPTY;
            view.conf[p] = 0.97f;
        }
    return &view;
}

static int count(int n, enum guard_kind k)
{
    int c = 0;
    for (int i = 0; i < n; i++) c += ev[i].kind == k && ev[i].reason != GUARD_REASON_TAKEBACK;
    return c;
}

static int flags(int n)
{
    int c = 0;
    for (int i = 0; i < n; i++) c += guard_is_flag(ev[i].kind);
    return c;
}

static const char *const b_c7[9] = {".........", ".........", "..X......", ".........", ".........",
                                    ".........", ".........", ".........", "........."};
static const char *const w_g3[9] = {".........", ".........", "..X......", ".........", ".........",
                                    ".........", "......O..", ".........", "........."};
static const char *const b_c3[9] = {".........", ".........", "..X......", ".........", ".........",
                                    ".........", "..X...O..", ".........", "........."};
static const char *const w_e1[9] = {".........", ".........", "..X......", ".........", ".........",
                                    ".........", "......O..", ".........", "....O...."};
static const char *const b_e1_w_c3[9] = {".........", ".........", "..X......",
                                         ".........", ".........", ".........",
                                         "..X...O..", ".........", "....O...."};

static struct go_obs_guard *opening(const struct go_obs_config *cfg)
{
    struct go_obs_guard *g = go_obs_guard_new(9, 9, go_rules_find("Chinese 1988"), cfg);
    int nflags = 0;
    for (int k = 0; k < 2; k++) nflags += flags(go_obs_guard_observe(g, see(b_c7), ev));
    for (int k = 0; k < 2; k++) nflags += flags(go_obs_guard_observe(g, see(w_g3), ev));
    assert_int_equal(nflags, 0);
    assert_int_equal(go_game_ply(go_obs_guard_game(g)), 2);
    return g;
}

/* Black's stone C3's one view before White's pass signal misread it (read empty): it is read
 * only after the signal. The pass waits for it (White cannot pass on Black's turn) instead of
 * flagging two White moves: B C3, then W pass, no flag. */
static void test_pass_signal_waits_for_a_stone_misread(void **state)
{
    (void)state;
    struct go_obs_guard *g = opening(NULL);
    int nflags = flags(go_obs_guard_observe(g, see(w_g3), ev)); /* C3 placed, misread */
    int n = go_obs_guard_signal(g, GO_SIGNAL_PASS_STONE, GO_WHITE, (int64_t)frame * 1000000000,
                                frame, ev);
    nflags += flags(n);
    assert_int_equal(count(n, GUARD_PASS), 0); /* waits */
    int passes = 0, moves = 0;
    for (int k = 0; k < 3; k++) {
        n = go_obs_guard_observe(g, see(b_c3), ev);
        nflags += flags(n);
        passes += count(n, GUARD_PASS);
        moves += count(n, GUARD_MOVE);
    }
    assert_int_equal(nflags, 0);
    assert_int_equal(moves, 1);
    assert_int_equal(passes, 1);
    const struct go_game *game = go_obs_guard_game(g);
    assert_int_equal(go_game_ply(game), 4);
    assert_int_equal(go_game_at(game, go_point(2, 6)), GO_BLACK);
    assert_int_equal(go_game_to_move(game), GO_BLACK);
    go_obs_guard_free(g);
}

/* A pass signalled out of turn with no stone coming is two White moves: flagged after a short
 * wait, and the referee's "Black passed" puts Black's pass before it (two passes: the end). */
static void test_pass_signal_out_of_turn_then_referee(void **state)
{
    (void)state;
    struct go_obs_guard *g = opening(NULL);
    int n = go_obs_guard_signal(g, GO_SIGNAL_PASS_STONE, GO_WHITE, (int64_t)frame * 1000000000,
                                frame, ev);
    int two = count(n, GUARD_TWO_MOVES);
    for (int k = 0; k < 4; k++)
        two += count(go_obs_guard_observe(g, see(w_g3), ev), GUARD_TWO_MOVES);
    assert_int_equal(two, 1);
    assert_int_equal(go_game_ply(go_obs_guard_game(g)), 3);
    n = go_obs_guard_pass(g, GO_BLACK, (int64_t)(frame + 1) * 1000000000, ev);
    assert_int_equal(ev[0].reason, GUARD_REASON_TAKEBACK);
    assert_int_equal(count(n, GUARD_PASS), 2); /* Black's pass, then White's again */
    assert_int_equal(ev[1].kind, GUARD_PASS);
    assert_int_equal(ev[1].move.color, GO_BLACK);
    assert_int_equal(ev[1].ply, 3);
    const struct go_game *game = go_obs_guard_game(g);
    assert_int_equal(go_game_ply(game), 4);
    assert_int_equal(go_game_state(game), GO_ENDED_PASSES);
    go_obs_guard_free(g);
}

/* A White stone twice: TWO_MOVES, whose text gives both readings. The referee's pass for Black
 * (the first reading) goes in before White's second stone, not after it; play goes on clean. */
static void test_referee_pass_answers_two_moves(void **state)
{
    (void)state;
    struct go_obs_guard *g = opening(NULL);
    int two = 0;
    for (int k = 0; k < 4; k++) {
        int n = go_obs_guard_observe(g, see(w_e1), ev);
        for (int i = 0; i < n; i++)
            if (ev[i].kind == GUARD_TWO_MOVES) {
                two++;
                assert_int_equal(ev[i].ply, 3);
                assert_non_null(strstr(ev[i].text, "Black passed unseen"));
                assert_non_null(strstr(ev[i].text, "two moves in a row"));
            }
    }
    assert_int_equal(two, 1);
    int n = go_obs_guard_pass(g, GO_BLACK, (int64_t)(frame + 1) * 1000000000, ev);
    assert_int_equal(count(n, GUARD_PASS), 1);
    assert_int_equal(count(n, GUARD_MOVE), 1);
    const struct go_game *game = go_obs_guard_game(g);
    assert_int_equal(go_game_ply(game), 4);
    assert_int_equal(go_game_to_move(game), GO_BLACK);
    int nflags = 0, moves = 0;
    for (int k = 0; k < 3; k++) {
        n = go_obs_guard_observe(g, see(b_e1_w_c3), ev);
        nflags += flags(n);
        moves += count(n, GUARD_MOVE);
    }
    assert_int_equal(nflags, 0);
    assert_int_equal(moves, 1);
    assert_int_equal(go_game_ply(game), 5);
    go_obs_guard_free(g);
}

/* Configured to assume passes (a club game without signals): the same colour twice is a pass by
 * the other side, recorded as assumed, and no flag. */
static void test_assumed_pass_from_configuration(void **state)
{
    (void)state;
    struct go_obs_config cfg;
    go_obs_config_default(&cfg);
    cfg.assume_pass = true;
    struct go_obs_guard *g = opening(&cfg);
    int nflags = 0, passes = 0;
    for (int k = 0; k < 3; k++) {
        int n = go_obs_guard_observe(g, see(w_e1), ev);
        nflags += flags(n);
        for (int i = 0; i < n; i++)
            if (ev[i].kind == GUARD_PASS) {
                passes++;
                assert_int_equal(ev[i].move.color, GO_BLACK);
                assert_non_null(strstr(ev[i].text, "assumed"));
            }
    }
    assert_int_equal(nflags, 0);
    assert_int_equal(passes, 1);
    assert_int_equal(go_game_ply(go_obs_guard_game(g)), 4);
    go_obs_guard_free(g);
}

struct tally {
    int flags, passes, confirmed, ends, last_ply;
};

static void on_event(const struct guard_event *e, void *arg)
{
    struct tally *t = arg;
    t->passes += e->kind == GUARD_PASS;
    t->confirmed += e->kind == GUARD_PASS && strstr(e->text, "confirmed by the referee") != NULL;
    t->ends += e->kind == GUARD_GAME_END;
    if (e->kind == GUARD_MOVE || e->kind == GUARD_PASS) t->last_ply = e->ply;
}

static void on_flag(const struct guard_event *e, void *arg)
{
    struct tally *t = arg;
    t->flags++;
    assert_int_equal(e->kind, GUARD_TWO_MOVES);
}

/* The same through the text format, as `kifucam check` replays it: two White stones in a row,
 * the referee's pass for Black, then a pass signal by White and one by Black: the end. */
static void test_text_stream_with_referee_pass(void **state)
{
    (void)state;
    char text[8192];
    size_t u = (size_t)snprintf(text, sizeof text, "kifucam-obs 1 go 9x9\nrules Chinese 1988\n");
    const char *const *seq[] = {b_c7, b_c7, w_g3, w_g3, w_e1, w_e1, w_e1, w_e1};
    int t = 1;
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++, t++) {
        u += (size_t)snprintf(text + u, sizeof text - u, "obs t=%d000000000 frame=%d\n", t, t);
        for (int y = 0; y < 9; y++)
            u += (size_t)snprintf(text + u, sizeof text - u, "%s\n", seq[i][y]);
        u += (size_t)snprintf(text + u, sizeof text - u, "end\n");
    }
    u += (size_t)snprintf(text + u, sizeof text - u,
                          "referee pass B t=%d000000000\nsignal pass B t=%d000000000\n"
                          "signal pass W t=%d000000000\n",
                          t, t + 1, t + 2);
    assert_true(u < sizeof text);
    struct tally tl = {0};
    struct check_obs_result res;
    check_obs_stream(text, NULL, on_flag, on_event, &tl, &res);
    assert_true(res.readable);
    assert_int_equal(res.flags, 1);
    assert_int_equal(tl.confirmed, 1);
    assert_int_equal(tl.passes, 3); /* B (referee), B and W (signals) */
    assert_int_equal(tl.last_ply, 6);
    assert_true(tl.ends >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_signal_waits_for_a_stone_misread),
        cmocka_unit_test(test_pass_signal_out_of_turn_then_referee),
        cmocka_unit_test(test_referee_pass_answers_two_moves),
        cmocka_unit_test(test_assumed_pass_from_configuration),
        cmocka_unit_test(test_text_stream_with_referee_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/board/test_go_result.c — how a game's end is written: the SGF RE[] of resignation, time,
 * no result by repetition, and a count after two passes (dead stones as a referee corrects them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "board/go.h"

static void play(struct go_game *g, enum go_color c, int x, int y)
{
    struct go_verdict v = go_game_play(g, (struct go_move){c, go_point(x, y)});
    assert_int_equal(v.kind, GO_LEGAL);
}

static void pass(struct go_game *g, enum go_color c)
{
    go_game_play(g, (struct go_move){c, GO_PASS});
}

static void test_resign_and_time(void **state)
{
    (void)state;
    char buf[16];
    struct go_game *g = go_game_new(9, 9, go_rules_find("japanese"));
    assert_string_equal(go_game_result(g, NULL, buf), "?");
    play(g, GO_BLACK, 4, 4);
    go_game_resign(g, GO_WHITE);
    assert_string_equal(go_game_result(g, NULL, buf), "B+R");
    go_game_free(g);
    g = go_game_new(19, 19, go_rules_find("chinese"));
    go_game_timeout(g, GO_BLACK);
    assert_string_equal(go_game_result(g, NULL, buf), "W+T");
    go_game_free(g);
}

/* A 5×5 board split down the middle: Black owns columns A–B, White D–E, column C is Black's wall
 * on top and White's below... keep it simple: Black wall on column C, so Black has 15 points of
 * area, White 10; with komi the count decides. A white stone dead inside Black's area changes the
 * count only when the referee marks it dead. */
static void test_count_after_passes_with_dead_stone(void **state)
{
    (void)state;
    char buf[16];
    struct go_rules r = *go_rules_find("tromp-taylor");
    r.komi = 0.5;
    struct go_game *g = go_game_new(5, 5, &r);
    for (int y = 0; y < 5; y++) {
        play(g, GO_BLACK, 2, y);
        play(g, GO_WHITE, 3, y);
    }
    play(g, GO_BLACK, 0, 0); /* inside its own area: no change in area */
    play(g, GO_WHITE, 1, 3); /* a white stone dead in Black's area */
    pass(g, GO_BLACK);
    pass(g, GO_WHITE);
    assert_int_equal(go_game_state(g), GO_ENDED_PASSES);
    /* As the board stands, the white stone spoils Black's area: B 5 + 2 stones = 7 ... counted by
     * the rules core: only regions bordered by one colour count. */
    struct go_score as_is = go_game_count(g, NULL);
    uint8_t dead[GO_POINTS];
    memset(dead, 0, sizeof dead);
    dead[go_point(1, 3)] = 1;
    struct go_score corrected = go_game_count(g, dead);
    assert_true(corrected.margin > as_is.margin);
    /* Corrected: Black has columns A–C = 15 points, White D–E = 10, komi 0.5 → B+4.5. */
    assert_string_equal(go_game_result(g, dead, buf), "B+4.5");
    assert_string_equal(corrected.result, "B+4.5");
    /* The estimator finds that stone dead by itself. */
    uint8_t est[GO_POINTS];
    go_estimate_dead(g, est, NULL);
    assert_int_equal(est[go_point(1, 3)], 1);
    go_game_free(g);
}

static void test_no_result_by_repetition(void **state)
{
    (void)state;
    char buf[16];
    /* Eternal life (research note §2.1 #2) under Japanese 1989: no result at ply 8. */
    static const char *const ab[] = {"ac", "bc", "cc", "dc", "ec", "ad", "ed", "fd", "de", "ge"};
    static const char *const aw[] = {"ab", "bb", "cb", "db", "eb", "fb", "fc",
                                     "bd", "cd", "dd", "gd", "hd", "be", "fe"};
    static const char *const moves[] = {"ce", "ee", "de", "fe", "ce", "ee", "de", "fe"};
    struct go_game *g = go_game_new(8, 5, go_rules_find("japanese"));
    for (size_t i = 0; i < sizeof ab / sizeof ab[0]; i++)
        go_game_setup(g, GO_BLACK, go_point(ab[i][0] - 'a', ab[i][1] - 'a'));
    for (size_t i = 0; i < sizeof aw / sizeof aw[0]; i++)
        go_game_setup(g, GO_WHITE, go_point(aw[i][0] - 'a', aw[i][1] - 'a'));
    go_game_set_to_move(g, GO_BLACK);
    for (size_t i = 0; i < 8; i++)
        go_game_play(g, (struct go_move){i % 2 ? GO_WHITE : GO_BLACK,
                                         go_point(moves[i][0] - 'a', moves[i][1] - 'a')});
    assert_int_equal(go_game_state(g), GO_ENDED_NO_RESULT);
    assert_string_equal(go_game_result(g, NULL, buf), "Void");
    go_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resign_and_time),
        cmocka_unit_test(test_count_after_passes_with_dead_stone),
        cmocka_unit_test(test_no_result_by_repetition),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

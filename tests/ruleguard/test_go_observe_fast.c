/* tests/ruleguard/test_go_observe_fast.c — exchanges faster than the views, one test per cause of
 * a false flag or a wrong move the noisy corpus replay found (test_go_observe_corpus): a stone
 * thrown in and captured before any view, a ko retaken while the prisoner is read gone only in
 * doubt, stones first read in the same view, a stone read once and captured while read again,
 * two stones around a pass, a move read once and swept off (a fault's ply). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "ruleguard/guard.h"

static struct observation view;
static uint64_t frame;
static struct guard_event ev[GUARD_OBS_MAX_EVENTS];

/* A 9x9 view from rows: 'X' 'O' '.' sure, 'x' 'o' ',' read in doubt, '#' occluded. */
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
            view.point[p] = c == 'X' || c == 'x'   ? OBS_BLACK
                            : c == 'O' || c == 'o' ? OBS_WHITE
                                                   : OBS_EMPTY;
            view.conf[p] = c == 'x' || c == 'o' || c == ',' ? 0.7f : 0.97f;
            view.occluded[p] = c == '#';
        }
    return &view;
}

struct run {
    struct go_move moves[16];
    int nmoves, nflags;
    enum guard_kind first_flag;
    int first_flag_ply;
};

/* Set the stones up (side to move tm), feed the views in order, flush; moves and flags. */
static struct run replay(const char *const setup[9], enum go_color tm,
                         const char *const *const *views, int nviews)
{
    struct run r = {.first_flag = GUARD_KIND_COUNT};
    struct go_obs_guard *g = go_obs_guard_new(9, 9, go_rules_find("Chinese 1988"), NULL);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++)
            if (setup[y][x] != '.')
                go_obs_guard_setup(g, setup[y][x] == 'X' ? GO_BLACK : GO_WHITE, go_point(x, y));
    go_obs_guard_set_to_move(g, tm);
    for (int i = 0; i <= nviews; i++) {
        int n = i < nviews ? go_obs_guard_observe(g, see(views[i]), ev)
                           : go_obs_guard_flush(g, (int64_t)(frame + 1) * 1000000000, ev);
        for (int k = 0; k < n; k++) {
            if (ev[k].kind == GUARD_MOVE && ev[k].reason != GUARD_REASON_TAKEBACK && r.nmoves < 16)
                r.moves[r.nmoves++] = ev[k].move;
            if (guard_is_flag(ev[k].kind)) {
                if (!r.nflags) r.first_flag = ev[k].kind, r.first_flag_ply = ev[k].ply;
                r.nflags++;
                printf("# flag %s: %s\n", guard_kind_name(ev[k].kind), ev[k].text);
            }
        }
    }
    go_obs_guard_free(g);
    return r;
}

static void assert_move(const struct run *r, int i, enum go_color c, int x, int y)
{
    assert_true(i < r->nmoves);
    assert_int_equal(r->moves[i].color, c);
    assert_int_equal(r->moves[i].point, go_point(x, y));
}

/* White's eye at A9; Black to move throws a stone in, White B9 takes it before any view, Black
 * plays E5: the white stone seen first is explained by the unseen stone, in the order seen. */
static const char *const eye[9] = {".........", "O........", ".........", ".........", ".........",
                                   ".........", "....X....", ".........", "........."};
static const char *const eye_b9[9] = {".O.......", "O........", ".........",
                                      ".........", ".........", ".........",
                                      "....X....", ".........", "........."};
static const char *const eye_b9_e5[9] = {".O.......", "O........", ".........",
                                         ".........", "....X....", ".........",
                                         "....X....", ".........", "........."};

static void test_unseen_throw_in_captured_by_the_reply(void **state)
{
    (void)state;
    const char *const *views[] = {eye, eye, eye_b9, eye_b9_e5, eye_b9_e5, eye_b9_e5};
    struct run r = replay(eye, GO_BLACK, views, 6);
    assert_int_equal(r.nflags, 0);
    assert_int_equal(r.nmoves, 3);
    assert_move(&r, 0, GO_BLACK, 0, 0);
    assert_move(&r, 1, GO_WHITE, 1, 0);
    assert_move(&r, 2, GO_BLACK, 4, 4);
}

/* The same stone with no reply after it: two White moves in a row (or a pass), for the referee,
 * never an unseen stone of Black's. */
static void test_same_shape_without_reply_is_two_moves(void **state)
{
    (void)state;
    const char *const *views[] = {eye, eye, eye_b9, eye_b9, eye_b9, eye_b9, eye_b9, eye_b9};
    struct run r = replay(eye, GO_BLACK, views, 8);
    assert_int_equal(r.first_flag, GUARD_TWO_MOVES);
    for (int i = 0; i < r.nmoves; i++) assert_true(r.moves[i].point != go_point(0, 0));
}

/* A ko: White D6 takes E6, both read in doubt at first (the prisoner read gone only in doubt);
 * Black H2; then White H8 and Black's retake at E6 (D6 gone) are read in one view: a retake, not
 * a prisoner left on the board for two plies. */
static const char *const ko[9] = {".........", ".........", "...XO....", "..X.XO...", "...XO....",
                                  ".........", ".........", ".........", "........."};
static const char *const ko_w[9] = {".........", ".........", "...XO....", "..Xo,O...", "...XO....",
                                    ".........", ".........", ".........", "........."};
static const char *const ko_h2[9] = {".........", ".........", "...XO....",
                                     "..XO,O...", "...XO....", ".........",
                                     ".........", ".......X.", "........."};
static const char *const ko_h2_h8[9] = {".........", ".......O.", "...XO....",
                                        "..XO,O...", "...XO....", ".........",
                                        ".........", ".......X.", "........."};
static const char *const ko_retake[9] = {".........", ".......O.", "...XO....",
                                         "..X.XO...", "...XO....", ".........",
                                         ".........", ".......X.", "........."};

static void test_ko_retaken_while_prisoner_read_gone_in_doubt(void **state)
{
    (void)state;
    const char *const *views[] = {ko,       ko,        ko_w,      ko_w,     ko_h2,
                                  ko_h2_h8, ko_retake, ko_retake, ko_retake};
    struct run r = replay(ko, GO_WHITE, views, 9);
    assert_int_equal(r.nflags, 0);
    assert_int_equal(r.nmoves, 4);
    assert_move(&r, 0, GO_WHITE, 3, 3);
    assert_move(&r, 1, GO_BLACK, 7, 7);
    assert_move(&r, 2, GO_WHITE, 7, 1);
    assert_move(&r, 3, GO_BLACK, 4, 3);
}

/* Black E7 takes the two white stones E9 E8; they come off; White A1 and Black E8 (a prisoner's
 * point) are first read in the same view: White first, not a white stone on E9 (read there as a
 * prisoner) thrown in and taken by E8. */
static const char *const pair[9] = {"...XOX...", "...XOX...", ".........", ".........", ".........",
                                    ".........", ".........", ".........", "........."};
static const char *const pair_e7[9] = {"...XOX...", "...XOX...", "....X....",
                                       ".........", ".........", ".........",
                                       ".........", ".........", "........."};
static const char *const pair_doubt[9] = {"...X,X...", "...X.X...", "....X....",
                                          ".........", ".........", ".........",
                                          ".........", ".........", "........."};
static const char *const pair_off[9] = {"...X.X...", "...X.X...", "....X....",
                                        ".........", ".........", ".........",
                                        ".........", ".........", "........."};
static const char *const pair_next[9] = {"...X.X...", "...XXX...", "....X....",
                                         ".........", ".........", ".........",
                                         ".........", ".........", "O........"};

static void test_stones_first_read_together_keep_turn_order(void **state)
{
    (void)state;
    const char *const *views[] = {pair,     pair,      pair_e7,   pair_e7,  pair_doubt,
                                  pair_off, pair_next, pair_next, pair_next};
    struct run r = replay(pair, GO_BLACK, views, 9);
    assert_int_equal(r.nflags, 0);
    assert_int_equal(r.nmoves, 3);
    assert_move(&r, 0, GO_BLACK, 4, 2);
    assert_move(&r, 1, GO_WHITE, 0, 8);
    assert_move(&r, 2, GO_BLACK, 4, 1);
}

/* Black throws in at A9, read once; White B9 comes with A9 misread empty; then A9 is read black
 * again for two views (the prisoner not yet off) and then gone: a prisoner, never a new black
 * stone (that would be suicide, a false ILLEGAL_MOVE). */
static const char *const eye_a9[9] = {"X........", "O........", ".........",
                                      ".........", ".........", ".........",
                                      "....X....", ".........", "........."};
static const char *const eye_both[9] = {"XO.......", "O........", ".........",
                                        ".........", ".........", ".........",
                                        "....X....", ".........", "........."};

static void test_prisoner_of_a_stone_read_once_stays_a_prisoner(void **state)
{
    (void)state;
    const char *const *views[] = {eye,      eye,    eye_a9, eye_b9, eye_both,
                                  eye_both, eye_b9, eye_b9, eye_b9};
    struct run r = replay(eye, GO_BLACK, views, 9);
    assert_int_equal(r.nflags, 0);
    assert_int_equal(r.nmoves, 2);
    assert_move(&r, 0, GO_BLACK, 0, 0);
    assert_move(&r, 1, GO_WHITE, 1, 0);
}

/* An illegal move taken back by the same hand before its wait ended (the recorder's ko-retaken
 * and suicide films): the stone confirmed (read surely in two views) that only an illegal move
 * explains is flagged ILLEGAL_MOVE at its ply, though it is gone when it would be judged; the
 * record keeps no move for it and goes on. */
static const char *const eye2[9] = {".X.......", "X........", ".........", ".........", ".........",
                                    ".........", ".........", ".........", "........."};
static const char *const eye2_w[9] = {"OX.......", "X........", ".........",
                                      ".........", ".........", ".........",
                                      ".........", ".........", "........."};
static const char *const eye2_e5[9] = {".X.......", "X........", ".........",
                                       ".........", "....O....", ".........",
                                       ".........", ".........", "........."};

static void test_suicide_taken_back_inside_the_wait_flagged(void **state)
{
    (void)state;
    const char *const *views[] = {eye2, eye2_w, eye2_w, eye2, eye2, eye2_e5, eye2_e5};
    struct run r = replay(eye2, GO_WHITE, views, 7);
    assert_int_equal(r.first_flag, GUARD_ILLEGAL_MOVE);
    assert_int_equal(r.first_flag_ply, 1);
    assert_int_equal(r.nflags, 1);
    assert_int_equal(r.nmoves, 1);
    assert_move(&r, 0, GO_WHITE, 4, 4);
}

/* White D6 takes the ko (E6 off); Black retakes at once (D6 off), read surely twice, then puts
 * it back and plays H2: ILLEGAL_MOVE at ply 2, the record W D6, B H2. */
static const char *const ko_taken[9] = {".........", ".........", "...XO....",
                                        "..XO.O...", "...XO....", ".........",
                                        ".........", ".........", "........."};
static const char *const ko_taken_h2[9] = {".........", ".........", "...XO....",
                                           "..XO.O...", "...XO....", ".........",
                                           ".........", ".......X.", "........."};

static void test_ko_retaken_and_taken_back_flagged(void **state)
{
    (void)state;
    const char *const *views[] = {ko, ko_taken, ko_taken, ko_taken,    ko,
                                  ko, ko_taken, ko_taken, ko_taken_h2, ko_taken_h2};
    struct run r = replay(ko, GO_WHITE, views, 10);
    assert_int_equal(r.first_flag, GUARD_ILLEGAL_MOVE);
    assert_int_equal(r.first_flag_ply, 2);
    assert_int_equal(r.nflags, 1);
    assert_int_equal(r.nmoves, 2);
    assert_move(&r, 0, GO_WHITE, 3, 3);
    assert_move(&r, 1, GO_BLACK, 7, 7);
}

/* White's two stones around a pass by Black (a stone beside the board), both first read in its
 * own colour in the same view: the one read in the view before (in doubt, as Black) came first. */
static const char *const lone[9] = {".........", ".........", ".........", ".........", ".........",
                                    ".........", "....X....", ".........", "........."};
static const char *const lone_odd[9] = {".........", ".........", ".........",
                                        ".........", ".........", ".......x.",
                                        "....X....", ".........", "........."};
static const char *const lone_two[9] = {".........", ".........", "..O......",
                                        ".........", ".........", ".......O.",
                                        "....X....", ".........", "........."};

static void test_stone_read_earlier_comes_before_the_pass(void **state)
{
    (void)state;
    struct go_obs_guard *g = go_obs_guard_new(9, 9, go_rules_find("Chinese 1988"), NULL);
    go_obs_guard_setup(g, GO_BLACK, go_point(4, 6));
    go_obs_guard_set_to_move(g, GO_WHITE);
    struct go_move moves[8];
    int nmoves = 0, nflags = 0;
    for (int i = 0; i < 9; i++) {
        /* views 0-6; after views 2 and 3 (the odd ones) a pass signal by Black */
        bool signal = i == 3 || i == 5;
        int v = i - (i > 3) - (i > 5);
        int n = signal ? go_obs_guard_signal(g, GO_SIGNAL_PASS_STONE, GO_BLACK, 0, 0, ev)
                       : go_obs_guard_observe(g,
                                              see(v < 2    ? lone
                                                  : v == 2 ? lone_odd
                                                           : lone_two),
                                              ev);
        for (int k = 0; k < n; k++) {
            nflags += guard_is_flag(ev[k].kind);
            if ((ev[k].kind == GUARD_MOVE || ev[k].kind == GUARD_PASS) && nmoves < 8)
                moves[nmoves++] = ev[k].move;
        }
    }
    go_obs_guard_free(g);
    assert_int_equal(nflags, 0);
    assert_int_equal(nmoves, 4);
    assert_int_equal(moves[0].point, go_point(7, 5));
    assert_int_equal(moves[1].point, GO_PASS);
    assert_int_equal(moves[2].point, go_point(2, 2));
    assert_int_equal(moves[3].point, GO_PASS);
}

/* Black's move E7 read once, then a sleeve sweeps it off with four stones around it: the flag
 * comes after that move (the restoration brings it back), not before it. */
static const char *const group[9] = {".........", ".........", "..XO.....",
                                     "..XO.....", ".........", ".........",
                                     "......X..", ".........", "........."};
static const char *const group_e7[9] = {".........", ".........", "..XOX....",
                                        "..XO.....", ".........", ".........",
                                        "......X..", ".........", "........."};
static const char *const swept[9] = {".........", ".........", ".........",
                                     ".........", ".........", ".........",
                                     "......X..", ".........", "........."};

static void test_move_read_once_then_swept_off(void **state)
{
    (void)state;
    const char *const *views[] = {group, group, group_e7, swept, swept, swept, swept, swept};
    struct run r = replay(group, GO_BLACK, views, 8);
    assert_int_equal(r.first_flag, GUARD_BOARD_DISTURBED);
    assert_int_equal(r.first_flag_ply, 1);
    assert_move(&r, 0, GO_BLACK, 4, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unseen_throw_in_captured_by_the_reply),
        cmocka_unit_test(test_same_shape_without_reply_is_two_moves),
        cmocka_unit_test(test_ko_retaken_while_prisoner_read_gone_in_doubt),
        cmocka_unit_test(test_stones_first_read_together_keep_turn_order),
        cmocka_unit_test(test_prisoner_of_a_stone_read_once_stays_a_prisoner),
        cmocka_unit_test(test_stone_read_earlier_comes_before_the_pass),
        cmocka_unit_test(test_move_read_once_then_swept_off),
        cmocka_unit_test(test_suicide_taken_back_inside_the_wait_flagged),
        cmocka_unit_test(test_ko_retaken_and_taken_back_flagged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/board/test_go_score.c — scoring anchors: KataGo's seki group-tax position under six
 * scoring/tax combinations, the same board counted by area and by territory, the dame and
 * own-territory identities, komi, handicap bonus and result strings, Benson's life, and the
 * dead-stone estimator on small hand-made positions (a dead group, a seki). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "board/go.h"
#include "board/go_score_internal.h"
#include "tests/board/test_go_score_sgf.h"
#include "tests/testutil.h"

#include <string.h>

/* A preset with some fields changed. */
static struct go_rules rules_like(const char *preset, enum go_scoring scoring, enum go_tax tax,
                                  double komi)
{
    const struct go_rules *r = go_rules_find(preset);
    assert_non_null(r);
    struct go_rules out = *r;
    out.scoring = scoring;
    out.tax = tax;
    out.komi = komi;
    return out;
}

static struct go_game *from_sgf(const char *sgf, const struct go_rules *rules)
{
    struct ts_game *t = malloc(sizeof *t);
    char err[128];
    assert_non_null(t);
    if (!ts_parse(sgf, t, err, sizeof err)) fail_msg("%s", err);
    struct go_game *g = ts_replay(t, rules);
    assert_non_null(g);
    free(t);
    return g;
}

/* Rows from the top: '.' empty, 'X' black, 'O' white. */
static struct go_game *from_rows(int w, int h, const char *const *rows, const struct go_rules *r)
{
    struct go_game *g = go_game_new(w, h, r);
    assert_non_null(g);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            char ch = rows[y][x];
            if (ch == 'X') go_game_setup(g, GO_BLACK, go_point(x, y));
            if (ch == 'O') go_game_setup(g, GO_WHITE, go_point(x, y));
        }
    return g;
}

/* go-rules.md §2.1 #5, from KataGo's testrules.cpp "GroupTaxSekiScoring", komi 0.5. */
static const char *seki_tax_sgf =
    "(;GM[1]FF[4]SZ[9]KM[0.5]AB[ba][da][ia][db][hb][bc][cc][dc][ec][fc][gc][ad][gd][ae][ge][af]"
    "[gf][hf][if][ag][bg][cg][bh][ch][dh][bi][di]AW[ea][ga][eb][fb][gb][hc][ic][bd][cd][dd][ed]"
    "[fd][hd][be][de][fe][he][ie][bf][cf][df][ef][ff][dg][hg][ig][eh][fh][gh][hh][ei][gi][ii])";

static void test_seki_group_tax_six_ways(void **state)
{
    (void)state;
    static const struct {
        enum go_scoring scoring;
        enum go_tax tax;
        const char *result;
    } cases[] = {
        {GO_SCORE_AREA, GO_TAX_NONE, "W+4.5"},      {GO_SCORE_AREA, GO_TAX_SEKI, "W+6.5"},
        {GO_SCORE_AREA, GO_TAX_ALL, "W+6.5"},       {GO_SCORE_TERRITORY, GO_TAX_NONE, "B+1.5"},
        {GO_SCORE_TERRITORY, GO_TAX_SEKI, "W+0.5"}, {GO_SCORE_TERRITORY, GO_TAX_ALL, "W+0.5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct go_rules r = rules_like("tromp-taylor", cases[i].scoring, cases[i].tax, 0.5);
        struct go_game *g = from_sgf(seki_tax_sgf, &r);
        struct go_score s = go_game_score(g, NULL);
        if (strcmp(s.result, cases[i].result) != 0)
            fail_msg("case %zu: got %s, want %s", i, s.result, cases[i].result);
        if (cases[i].tax == GO_TAX_NONE) {
            assert_int_equal(s.stones[GO_BLACK], 27);
            assert_int_equal(s.stones[GO_WHITE], 33);
            assert_int_equal(s.territory[GO_BLACK], 9);
            assert_int_equal(s.territory[GO_WHITE], 7);
            assert_int_equal(s.dame, 5);
        } else {
            assert_int_equal(s.seki_points, 16); /* every group touches dame or a seki */
        }
        go_game_free(g);
    }
}

/* go-rules.md §2.1 #6: 4x4, Black on column B, White on column C and an extra White stone at D2
 * inside its own area. Area 8-8 (komi 0.5: W+0.5); territory 4-3 (B+0.5). */
static void test_same_board_area_vs_territory(void **state)
{
    (void)state;
    static const char *const rows[] = {".XO.", ".XO.", ".XOO", ".XO."};
    struct go_rules area = rules_like("chinese", GO_SCORE_AREA, GO_TAX_NONE, 0.5);
    struct go_rules terr = rules_like("japanese", GO_SCORE_TERRITORY, GO_TAX_SEKI, 0.5);
    struct go_game *g = from_rows(4, 4, rows, &area);
    struct go_score s = go_game_score(g, NULL);
    assert_string_equal(s.result, "W+0.5");
    assert_true(s.black == 8 && s.white == 8.5);
    go_game_free(g);
    g = from_rows(4, 4, rows, &terr);
    s = go_game_score(g, NULL);
    assert_string_equal(s.result, "B+0.5");
    assert_int_equal(s.territory[GO_BLACK], 4);
    assert_int_equal(s.territory[GO_WHITE], 3);
    go_game_free(g);
}

/* A 7x7 board split by walls with a dame point on each side of a gap. */
static const char *const split_rows[] = {
    "..X.O..", "..X.O..", "..X.O..", "..XXO..", "..X.O..", "..X.O..", "..X.O..",
};

/* go-rules.md §2.3: filling dame (one stone each) changes neither count; a stone played inside
 * one's own territory costs one point under territory scoring and nothing under area scoring. */
static void test_dame_and_own_territory_identities(void **state)
{
    (void)state;
    const enum go_scoring kinds[] = {GO_SCORE_AREA, GO_SCORE_TERRITORY};
    for (int k = 0; k < 2; k++) {
        struct go_rules r = rules_like("japanese", kinds[k], GO_TAX_NONE, 0);
        struct go_game *g = from_rows(7, 7, split_rows, &r);
        struct go_score before = go_game_score(g, NULL);
        assert_int_equal(before.dame, 6);
        go_game_play(g, (struct go_move){GO_BLACK, go_point(3, 0)}); /* dame */
        go_game_play(g, (struct go_move){GO_WHITE, go_point(3, 6)}); /* dame */
        struct go_score filled = go_game_score(g, NULL);
        assert_true(filled.margin == before.margin);
        assert_int_equal(filled.dame, 4);
        go_game_play(g, (struct go_move){GO_BLACK, go_point(0, 3)}); /* inside Black's area */
        go_game_play(g, (struct go_move){GO_WHITE, GO_PASS});
        struct go_score own = go_game_score(g, NULL);
        if (kinds[k] == GO_SCORE_AREA)
            assert_true(own.margin == before.margin);
        else
            assert_true(own.margin == before.margin - 1);
        go_game_free(g);
    }
}

/* Score a board built from rows under r (the game keeps its own copy of the rules). */
static struct go_score score_rows(int size, const char *const *rows, struct go_rules r,
                                  int handicap)
{
    struct go_game *g = from_rows(size, size, rows, &r);
    if (handicap) go_game_set_handicap(g, handicap);
    struct go_score s = go_game_score(g, NULL);
    go_game_free(g);
    return s;
}

/* Komi, handicap bonus (N, N-1, none; nothing for one stone), jigo, Black-wins-ties, stone
 * scoring and the printing of margins. */
static void test_komi_handicap_and_result_text(void **state)
{
    (void)state;
    /* Black: 3 empty columns + its wall = 28 area; White: its wall + 2 columns = 21. */
    static const char *const rows[] = {
        "...XO..", "...XO..", "...XO..", "...XO..", "...XO..", "...XO..", "...XO..",
    };
    struct go_rules r = rules_like("chinese", GO_SCORE_AREA, GO_TAX_NONE, 7);
    struct go_score s = score_rows(7, rows, r, 0);
    assert_true(s.black == 28 && s.white == 28);
    assert_string_equal(s.result, "0");
    r.komi = 6.5;
    assert_string_equal(score_rows(7, rows, r, 0).result, "B+0.5");
    r.komi = 0;
    assert_string_equal(score_rows(7, rows, r, 0).result, "B+7");
    r.komi = 19.5;
    assert_string_equal(score_rows(7, rows, r, 0).result, "W+12.5");
    r.komi = 7.25;
    assert_string_equal(score_rows(7, rows, r, 0).result, "W+0.25");
    r.komi = 7;
    r.black_wins_ties = true;
    s = score_rows(7, rows, r, 0);
    assert_true(s.margin == 0);
    assert_string_equal(s.result, "B+0");
    r.black_wins_ties = false;

    r.komi = 0;
    r.handicap_bonus = GO_BONUS_N;
    assert_string_equal(score_rows(7, rows, r, 3).result, "B+4");
    assert_string_equal(score_rows(7, rows, r, 1).result, "B+7");
    r.handicap_bonus = GO_BONUS_N_MINUS_1;
    assert_string_equal(score_rows(7, rows, r, 3).result, "B+5");
    r.handicap_bonus = GO_BONUS_NONE;
    assert_string_equal(score_rows(7, rows, r, 3).result, "B+7");

    r.scoring = GO_SCORE_STONES;
    s = score_rows(7, rows, r, 0);
    assert_true(s.black == 7 && s.white == 7);
}

/* Dead stones become the opponent's prisoners under territory scoring and vanish under area
 * scoring; pass stones go to the opponent when the rules say so. */
static void test_dead_stones_prisoners_and_pass_stones(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ".O.X...", "...X...", "...X...", "...X.O.", "...X...", "...X...", "...X...",
    };
    uint8_t dead[GO_POINTS] = {0};
    dead[go_point(1, 0)] = 1;
    dead[go_point(5, 3)] = 1;
    struct go_rules terr = rules_like("japanese", GO_SCORE_TERRITORY, GO_TAX_SEKI, 0);
    struct go_game *g = from_rows(7, 7, rows, &terr);
    struct go_score s = go_game_score(g, dead);
    /* Black: the 42 points on both sides of its wall + 2 dead White stones. */
    assert_int_equal(s.territory[GO_BLACK], 42);
    assert_int_equal(s.territory[GO_WHITE], 0);
    assert_int_equal(s.prisoners[GO_BLACK], 2);
    assert_int_equal(s.prisoners[GO_WHITE], 0);
    assert_string_equal(s.result, "B+44");
    go_game_free(g);

    struct go_rules area = rules_like("chinese", GO_SCORE_AREA, GO_TAX_NONE, 0);
    g = from_rows(7, 7, rows, &area);
    s = go_game_score(g, dead);
    assert_string_equal(s.result, "B+49");
    go_game_free(g);

    struct go_rules aga = rules_like("aga", GO_SCORE_TERRITORY, GO_TAX_NONE, 0);
    aga.pass_stones = true;
    g = from_rows(7, 7, rows, &aga);
    go_game_play(g, (struct go_move){GO_BLACK, GO_PASS});
    go_game_play(g, (struct go_move){GO_WHITE, GO_PASS});
    go_game_play(g, (struct go_move){GO_BLACK, GO_PASS});
    s = go_game_score(g, dead);
    assert_int_equal(s.prisoners[GO_WHITE], 2); /* Black's two passes */
    assert_int_equal(s.prisoners[GO_BLACK], 3); /* two dead stones, one pass */
    go_game_free(g);
}

/* Benson: two separate eyes make a chain pass-alive; one eye does not. */
static void test_benson_unconditional_life(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ".X.X.O.", "XXXXOO.", "OOOOO..", ".......", ".......", "XXX....", "..X....",
    };
    struct go_rules r = rules_like("japanese", GO_SCORE_TERRITORY, GO_TAX_SEKI, 0);
    struct go_game *g = from_rows(7, 7, rows, &r);
    struct go_pos p;
    uint8_t alive[GO_POINTS], terr[GO_POINTS];
    go_pos_load(&p, g);
    go_benson(&p, GO_BLACK, false, alive, terr);
    assert_true(alive[go_point(0, 1)]); /* two eyes at a1-row */
    assert_true(terr[go_point(0, 0)]);
    assert_true(terr[go_point(2, 0)]);
    assert_false(alive[go_point(0, 5)]); /* the corner group has one big eye: not pass-alive */
    go_benson(&p, GO_WHITE, false, alive, terr);
    assert_false(alive[go_point(4, 1)]);
    go_game_free(g);
}

/* The estimator: a dead stone and a dead group inside territory, a seki left alone. */
static void test_estimate_dead_small_positions(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "..X.O.O..", ".OX.OO.O.", "XXXXXOOOO", "...X.XXXX", "...X.X.O.",
        "XX.X.X...", ".XXX.XXXX", "X..X.X...", "..OX.X.O.",
    };
    struct go_rules r = rules_like("japanese", GO_SCORE_TERRITORY, GO_TAX_SEKI, 0);
    struct go_game *g = from_rows(9, 9, rows, &r);
    uint8_t dead[GO_POINTS];
    float conf[GO_POINTS];
    go_estimate_dead(g, dead, conf);
    assert_true(dead[go_point(1, 1)]); /* lone White stone in Black's corner */
    assert_true(dead[go_point(2, 8)]);
    assert_true(dead[go_point(7, 4)]);
    assert_true(dead[go_point(7, 8)]);
    assert_false(dead[go_point(2, 0)]);
    assert_false(dead[go_point(4, 0)]);
    for (int pt = 0; pt < GO_POINTS; pt++) {
        assert_true(conf[pt] >= 0.0f && conf[pt] <= 1.0f);
        if (!dead[pt]) continue;
        assert_true(go_game_at(g, pt) != GO_EMPTY);
    }
    go_game_free(g);

    /* Seki: KataGo's seki-tax board — the two Black stones at the top right share their two
     * liberties with White chains of one eye each: nothing there is dead. */
    struct go_rules tt = rules_like("tromp-taylor", GO_SCORE_AREA, GO_TAX_NONE, 0.5);
    g = from_sgf(seki_tax_sgf, &tt);
    go_estimate_dead(g, dead, conf);
    for (int pt = 0; pt < GO_POINTS; pt++)
        if (dead[pt]) fail_msg("point %d marked dead in a seki position", pt);
    go_game_free(g);
}

/* Dame filling keeps seki liberties empty and fills real dame. */
static void test_dame_fill(void **state)
{
    (void)state;
    struct go_rules r = rules_like("japanese", GO_SCORE_TERRITORY, GO_TAX_SEKI, 0.5);
    struct go_game *g = from_sgf(seki_tax_sgf, &r);
    int pts[GO_POINTS];
    enum go_color cols[GO_POINTS];
    int n = go_dame_fill(g, NULL, pts, cols);
    /* e3, f3, g3 (SGF eg fg gg) are dame; h9 and j8 (ha, ib) are seki liberties. */
    assert_int_equal(n, 3);
    for (int i = 0; i < n; i++) {
        assert_int_equal(go_y(pts[i]), 6);
        go_game_setup(g, cols[i], pts[i]);
    }
    /* With the dame filled, only the seki's eyes (f9, j6) go uncounted: B 9 - W 5. */
    struct go_score s = go_game_score(g, NULL);
    assert_int_equal(s.seki_points, 2 + 0);
    go_game_free(g);
}

/* Random stone patterns on every board size: the estimator only marks stones, the counts add up
 * to the board, and nothing takes long (a camera may hand over any position). */
static void test_random_positions_invariants(void **state)
{
    (void)state;
    unsigned seed = 12345;
    struct go_rules r = rules_like("japanese", GO_SCORE_TERRITORY, GO_TAX_SEKI, 6.5);
    for (int size = GO_MIN; size <= GO_MAX; size++) {
        for (int round = 0; round < 6; round++) {
            struct go_game *g = go_game_new(size, size, &r);
            assert_non_null(g);
            int fill = 20 + 15 * round; /* percent of points holding a stone */
            for (int y = 0; y < size; y++)
                for (int x = 0; x < size; x++) {
                    seed = seed * 1103515245u + 12345u;
                    unsigned v = (seed >> 16) % 100;
                    if ((int)v < fill)
                        go_game_setup(g, v % 2 ? GO_BLACK : GO_WHITE, go_point(x, y));
                }
            uint8_t dead[GO_POINTS];
            float conf[GO_POINTS];
            go_estimate_dead(g, dead, conf);
            for (int pt = 0; pt < GO_POINTS; pt++) {
                if (dead[pt]) assert_true(go_game_at(g, pt) != GO_EMPTY);
                assert_true(conf[pt] >= 0.0f && conf[pt] <= 1.0f);
            }
            struct go_score s = go_game_score(g, dead);
            int total = s.stones[GO_BLACK] + s.stones[GO_WHITE] + s.territory[GO_BLACK] +
                        s.territory[GO_WHITE] + s.seki_points + s.dame;
            assert_int_equal(total, size * size);
            int pts[GO_POINTS];
            enum go_color cols[GO_POINTS];
            int n = go_dame_fill(g, dead, pts, cols);
            for (int i = 0; i < n; i++)
                assert_true(go_game_at(g, pts[i]) == GO_EMPTY || dead[pts[i]]);
            go_game_free(g);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seki_group_tax_six_ways),
        cmocka_unit_test(test_same_board_area_vs_territory),
        cmocka_unit_test(test_dame_and_own_territory_identities),
        cmocka_unit_test(test_komi_handicap_and_result_text),
        cmocka_unit_test(test_dead_stones_prisoners_and_pass_stones),
        cmocka_unit_test(test_benson_unconditional_life),
        cmocka_unit_test(test_estimate_dead_small_positions),
        cmocka_unit_test(test_dame_fill),
        cmocka_unit_test(test_random_positions_invariants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/board/test_go_rules.c — the preset table, the names it answers to, fixed handicap points.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "board/go.h"
#include "tests/testutil.h"

#include <string.h>

static void expect_alias(const char *alias, const char *preset)
{
    const struct go_rules *r = go_rules_find(alias);
    if (!r) fail_msg("alias \"%s\" not found", alias);
    if (strcmp(r->name, preset) != 0)
        fail_msg("alias \"%s\" gives \"%s\", not \"%s\"", alias, r->name, preset);
}

static void test_aliases(void **state)
{
    (void)state;
    static const char *const table[][2] = {
        {"chinese", "Chinese 1988"},
        {"CN", "Chinese 1988"},
        {"Chinese 1988", "Chinese 1988"},
        {"  Chinese\t", "Chinese 1988"},
        {"chinese-as-played", "Chinese 1988 (as played)"},
        {"chinese-played", "Chinese 1988 (as played)"},
        {"Chinese 1988 (as played)", "Chinese 1988 (as played)"},
        {"japanese", "Japanese 1989"},
        {"Japanese", "Japanese 1989"},
        {"jp", "Japanese 1989"},
        {"japanese 1989", "Japanese 1989"},
        {"korean", "Korean"},
        {"KR", "Korean"},
        {"aga", "AGA"},
        {"AGA", "AGA"},
        {"new zealand", "New Zealand"},
        {"NZ", "New Zealand"},
        {"new-zealand", "New Zealand"},
        {"ing", "Ing SST 1991"},
        {"GOE", "Ing SST 1991"},
        {"ing sst", "Ing SST 1991"},
        {"SST", "Ing SST 1991"},
        {"simplified ing", "Simplified Ing"},
        {"siming", "Simplified Ing"},
        {"EGF", "Simplified Ing"},
        {"tromp-taylor", "Tromp-Taylor"},
        {"Tromp/Taylor", "Tromp-Taylor"},
        {"tt", "Tromp-Taylor"},
        {"Tromp Taylor", "Tromp-Taylor"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        expect_alias(table[i][0], table[i][1]);
    assert_null(go_rules_find("chess"));
    assert_null(go_rules_find(""));
    assert_null(go_rules_find("   "));
    assert_null(go_rules_find(NULL));
    assert_null(go_rules_find("japanese-chinese-aga-something-far-too-long-for-any-rules-name-x"));

    /* every preset is found by its own name, and every one has all citations */
    size_t n;
    const struct go_rules *p = go_rules_presets(&n);
    assert_int_equal(n, 9);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(go_rules_find(p[i].name), &p[i]);
        const struct go_rule_refs *r = &p[i].ref;
        const char *refs[] = {r->occupied,  r->suicide,    r->ko,        r->superko,
                              r->two_moves, r->repetition, r->after_end, r->scoring};
        for (size_t k = 0; k < sizeof refs / sizeof refs[0]; k++) assert_non_null(refs[k]);
    }
}

static void test_preset_rows(void **state)
{
    (void)state;
    const struct go_rules *r = go_rules_find("chinese");
    assert_int_equal(r->ko, GO_KO_POSITIONAL);
    assert_int_equal(r->suicide, GO_SUICIDE_NONE);
    assert_int_equal(r->scoring, GO_SCORE_AREA);
    assert_int_equal(r->handicap_bonus, GO_BONUS_N);
    assert_int_equal(r->handicap_placement, GO_HANDICAP_FREE);
    assert_true(r->komi == 7.5);
    r = go_rules_find("chinese-as-played");
    assert_int_equal(r->ko, GO_KO_SIMPLE);
    assert_int_equal(r->repetition, GO_REPEAT_REFEREE);
    for (int k = 0; k < 2; k++) {
        r = go_rules_find(k ? "korean" : "japanese");
        assert_int_equal(r->ko, GO_KO_SIMPLE);
        assert_int_equal(r->repetition, GO_REPEAT_NO_RESULT);
        assert_int_equal(r->scoring, GO_SCORE_TERRITORY);
        assert_int_equal(r->tax, GO_TAX_SEKI);
        assert_int_equal(r->handicap_placement, GO_HANDICAP_FIXED);
        assert_int_equal(r->handicap_bonus, GO_BONUS_NONE);
        assert_true(r->komi == 6.5);
    }
    r = go_rules_find("aga");
    assert_int_equal(r->ko, GO_KO_SITUATIONAL);
    assert_true(r->pass_stones && r->white_passes_last);
    assert_int_equal(r->handicap_bonus, GO_BONUS_N_MINUS_1);
    assert_int_equal(r->handicap_placement, GO_HANDICAP_FIXED);
    assert_true(r->komi == 7.5);
    r = go_rules_find("nz");
    assert_int_equal(r->ko, GO_KO_SITUATIONAL);
    assert_int_equal(r->suicide, GO_SUICIDE_MULTI);
    assert_true(r->komi == 7.0);
    assert_int_equal(r->handicap_bonus, GO_BONUS_NONE);
    r = go_rules_find("ing");
    assert_int_equal(r->ko, GO_KO_SIMPLE);
    assert_int_equal(r->repetition, GO_REPEAT_REFEREE);
    assert_int_equal(r->suicide, GO_SUICIDE_MULTI);
    assert_true(r->komi == 8.0 && r->black_wins_ties);
    r = go_rules_find("siming");
    assert_int_equal(r->ko, GO_KO_POSITIONAL);
    assert_int_equal(r->suicide, GO_SUICIDE_ALL);
    assert_true(r->pass_stones && !r->white_passes_last);
    r = go_rules_find("tt");
    assert_int_equal(r->ko, GO_KO_POSITIONAL);
    assert_int_equal(r->suicide, GO_SUICIDE_ALL);
    assert_int_equal(r->tax, GO_TAX_NONE);
    assert_int_equal(r->handicap_bonus, GO_BONUS_NONE);
    assert_false(r->pass_stones);
}

/* The handicap points as "D4 Q16 ..." for comparison. */
static void expect_handicap(int w, int h, int n, const char *names)
{
    int pts[9];
    char got[128] = "", buf[8];
    int k = go_handicap_points(w, h, n, pts);
    for (int i = 0; i < k; i++) {
        if (i) strcat(got, " ");
        strcat(got, go_point_name(pts[i], h, buf));
    }
    if (strcmp(got, names) != 0)
        fail_msg("%dx%d H%d: got \"%s\", want \"%s\"", w, h, n, got, names);
}

static void test_handicap_points(void **state)
{
    (void)state;
    expect_handicap(19, 19, 2, "D4 Q16");
    expect_handicap(19, 19, 3, "D4 Q16 Q4");
    expect_handicap(19, 19, 4, "D4 Q16 Q4 D16");
    expect_handicap(19, 19, 5, "D4 Q16 Q4 D16 K10");
    expect_handicap(19, 19, 6, "D4 Q16 Q4 D16 D10 Q10");
    expect_handicap(19, 19, 7, "D4 Q16 Q4 D16 D10 Q10 K10");
    expect_handicap(19, 19, 8, "D4 Q16 Q4 D16 D10 Q10 K16 K4");
    expect_handicap(19, 19, 9, "D4 Q16 Q4 D16 D10 Q10 K16 K4 K10");
    expect_handicap(13, 13, 2, "D4 K10");
    expect_handicap(13, 13, 5, "D4 K10 K4 D10 G7");
    expect_handicap(13, 13, 9, "D4 K10 K4 D10 D7 K7 G10 G4 G7");
    expect_handicap(9, 9, 2, "C3 G7");
    expect_handicap(9, 9, 4, "C3 G7 G3 C7");
    expect_handicap(9, 9, 6, "C3 G7 G3 C7 C5 G5");
    expect_handicap(9, 9, 7, "C3 G7 G3 C7 C5 G5 E5");
    expect_handicap(9, 9, 9, "C3 G7 G3 C7 C5 G5 E7 E3 E5");
    /* 7×7: corners only (middle stars would touch them) */
    expect_handicap(7, 7, 4, "C3 E5 E3 C5");
    expect_handicap(7, 7, 5, "");
    /* even sizes: no tengen, no side stars */
    expect_handicap(10, 10, 4, "C3 H8 H3 C8");
    expect_handicap(10, 10, 5, "");
    expect_handicap(18, 18, 4, "D4 P15 P4 D15");
    expect_handicap(18, 18, 5, "");
    /* odd width, even height: stars in the middle of the top and bottom only */
    expect_handicap(15, 10, 6, "D3 M8 M3 D8 H8 H3");
    expect_handicap(15, 10, 7, "");
    /* too small, or n outside 2..9 */
    expect_handicap(6, 6, 2, "");
    expect_handicap(19, 19, 1, "");
    expect_handicap(19, 19, 10, "");
    expect_handicap(25, 25, 9, "D4 W22 W4 D22 D13 W13 N22 N4 N13");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aliases),
        cmocka_unit_test(test_preset_rows),
        cmocka_unit_test(test_handicap_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

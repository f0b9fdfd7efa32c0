/* tests/board/test_go_anchors.c — the rules anchors of shared/research/go-rules.md §2.1
 * (KataGo's testrules.cpp positions, transcribed to SGF there) replayed under each ko rule, and
 * the game-flow rules: repetition for the referee, White passes last, after the end, wrong turn. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "board/go.h"
#include "tests/board/test_go_util.h"
#include "tests/testutil.h"

static const char triple_ko[] =
    "(;GM[1]FF[4]SZ[7:6]AB[bb][ac][cc][ec][gc][ad][bd][cd][dd][ed][fd][gd]AW[aa][ba][ca][da][ea]"
    "[fa][ga][ab][cb][eb][gb][dc][fc][ae][be][ce][de][ee][fe][ge]PL[B];B[db];W[bc];B[fb];W[dc];"
    "B[bb];W[fc];B[db];W[bc];B[fb];W[dc];B[bb];W[fc])";
static const char eternal_life[] =
    "(;GM[1]FF[4]SZ[8:5]AB[ac][bc][cc][dc][ec][ad][ed][fd][de][ge]AW[ab][bb][cb][db][eb][fb][fc]"
    "[bd][cd][dd][gd][hd][be][fe]PL[B];B[ce];W[ee];B[de];W[fe];B[ce];W[ee];B[de];W[fe])";
static const char send_two[] =
    "(;GM[1]FF[4]SZ[6:5]AB[da][ea][bb][cb][db][cc][ad][bd]AW[ba][fa][ab][eb][ac][ec][fc][dd][ed]"
    "[ae][be][ce][de][fe]PL[B];B[fb];W[];B[cd];W[fa];B[dc];W[ca];B[aa];W[ba];B[];W[ca];B[aa];"
    "W[ba];B[])";
static const char suicide_superko[] =
    "(;GM[1]FF[4]SZ[6:5]AB[ca][fa][bb][cb][ac][bc]AW[ba][da][ab][db][eb][fb]PL[B];B[ea];W[];"
    "B[ea];W[aa];B[fa];W[ba];B[];W[aa];B[ea];W[ab])";

static struct mini_sgf sgf;
static struct go_verdict verdicts[64];

static const struct go_rules *rules(const char *name)
{
    const struct go_rules *r = go_rules_find(name);
    assert_non_null(r);
    return r;
}

/* Replay all moves and return the game; verdicts[] gets each ply's verdict. */
static struct go_game *replay(const char *text, const char *rules_name)
{
    assert_true(mini_sgf_parse(text, &sgf));
    struct go_game *g = mini_replay(&sgf, rules(rules_name), -1, verdicts);
    assert_non_null(g);
    assert_int_equal(go_game_ply(g), sgf.moves);
    return g;
}

/* The plies (1-based) whose verdict is not GO_LEGAL must be exactly `bad` (0-terminated), each
 * with the verdict kind `kind`. */
static void expect_flags(const int *bad, enum go_verdict_kind kind)
{
    for (int ply = 1; ply <= sgf.moves; ply++) {
        bool flagged = false;
        for (const int *b = bad; *b; b++) flagged |= *b == ply;
        if (flagged != (verdicts[ply - 1].kind != GO_LEGAL))
            fail_msg("ply %d: verdict %s (%s)", ply, go_verdict_name(verdicts[ply - 1].kind),
                     verdicts[ply - 1].text);
        if (flagged) assert_int_equal(verdicts[ply - 1].kind, kind);
    }
}

/* ---- 1. triple ko ---------------------------------------------------------------------- */

static void test_triple_ko(void **state)
{
    (void)state;
    /* Simple ko + no-result: all 12 legal, the 12th ends the game without result. */
    struct go_game *g = replay(triple_ko, "japanese");
    static const int jp[] = {12, 0};
    expect_flags(jp, GO_REPETITION_NO_RESULT);
    for (int i = 0; i < 12; i++) assert_int_equal(verdicts[i].captured, 1);
    assert_int_equal(verdicts[11].repeats_ply, 6);
    assert_int_equal(go_game_state(g), GO_ENDED_NO_RESULT);
    assert_string_equal(verdicts[11].rule_ref, "Japanese 1989 Art. 12 (no result)");
    assert_string_equal(verdicts[11].text,
                        "White at F4 brings back the position of ply 6 with Black to move, the "
                        "3rd time since the last pass: no result");
    /* a move after that is after the end */
    struct go_move m = {GO_BLACK, mini_pt("db")};
    assert_int_equal(go_game_check(g, m).kind, GO_AFTER_END);
    go_game_free(g);

    /* Positional superko: from ply 6 on every move recreates the position 6 plies back. */
    g = replay(triple_ko, "tromp-taylor");
    static const int psk[] = {6, 7, 8, 9, 10, 11, 12, 0};
    expect_flags(psk, GO_ILLEGAL_SUPERKO);
    for (int ply = 6; ply <= 12; ply++) assert_int_equal(verdicts[ply - 1].repeats_ply, ply - 6);
    assert_int_equal(go_game_state(g), GO_PLAYING);
    go_game_free(g);

    /* KataGo: after B bb (ply 5) White's illegal points are exactly bc and fc. */
    assert_true(mini_sgf_parse(triple_ko, &sgf));
    g = mini_replay(&sgf, rules("chinese"), 5, NULL);
    int superko = 0;
    for (int y = 0; y < 6; y++) {
        for (int x = 0; x < 7; x++) {
            struct go_move w = {GO_WHITE, go_point(x, y)};
            struct go_verdict v = go_game_check(g, w);
            if (v.kind == GO_ILLEGAL_SUPERKO) {
                superko++;
                assert_true(w.point == mini_pt("bc") || w.point == mini_pt("fc"));
            }
        }
    }
    assert_int_equal(superko, 2);
    go_game_free(g);

    /* Situational superko gives the same answer here (the cycle has even length). */
    g = replay(triple_ko, "aga");
    expect_flags(psk, GO_ILLEGAL_SUPERKO);
    go_game_free(g);

    /* Ing / Chinese as played: simple ko, each repetition goes to the referee, play goes on. */
    g = replay(triple_ko, "ing");
    expect_flags(psk, GO_REPETITION_REFEREE);
    assert_int_equal(verdicts[5].repeats_ply, 0);
    assert_string_equal(verdicts[5].rule_ref,
                        "Ing SST 1991 Art. 3 (ko: fighting or disturbing ko, the referee decides)");
    assert_int_equal(go_game_state(g), GO_PLAYING);
    go_game_free(g);
    g = replay(triple_ko, "chinese-as-played");
    expect_flags(psk, GO_REPETITION_REFEREE);
    assert_string_equal(verdicts[6].text, "Black at D5 recreates the whole-board position after "
                                          "ply 1: the referee rules");
    go_game_free(g);
}

/* ---- 2. eternal life ------------------------------------------------------------------- */

static void test_eternal_life(void **state)
{
    (void)state;
    struct go_game *g = replay(eternal_life, "japanese");
    static const int jp[] = {8, 0};
    expect_flags(jp, GO_REPETITION_NO_RESULT);
    static const int caps[] = {0, 2, 2, 0, 0, 2, 2, 0};
    for (int i = 0; i < 8; i++) assert_int_equal(verdicts[i].captured, caps[i]);
    assert_int_equal(go_game_state(g), GO_ENDED_NO_RESULT);
    /* the referee may let them play on; the count starts afresh */
    go_game_resume(g);
    assert_int_equal(go_game_state(g), GO_PLAYING);
    struct go_move m = {GO_BLACK, mini_pt("ce")};
    assert_int_equal(go_game_play(g, m).kind, GO_LEGAL);
    go_game_free(g);

    static const int sk[] = {4, 5, 6, 7, 8, 0};
    g = replay(eternal_life, "tromp-taylor");
    expect_flags(sk, GO_ILLEGAL_SUPERKO);
    assert_int_equal(verdicts[3].repeats_ply, 0);
    assert_string_equal(verdicts[3].text, "White at F1 recreates the whole-board position after "
                                          "ply 0 (positional superko)");
    go_game_free(g);
    g = replay(eternal_life, "nz");
    expect_flags(sk, GO_ILLEGAL_SUPERKO);
    assert_string_equal(verdicts[3].text, "White at F1 recreates the position after ply 0 with "
                                          "Black to move again (situational superko)");
    assert_string_equal(verdicts[3].rule_ref, "New Zealand rules (situational superko)");
    go_game_free(g);
}

/* ---- 3. sending two, returning one --------------------------------------------------- */

static void test_send_two_return_one(void **state)
{
    (void)state;
    /* simple ko: every ply legal, and the passes keep the no-result count from reaching 3 */
    struct go_game *g = replay(send_two, "japanese");
    static const int none[] = {0};
    expect_flags(none, GO_LEGAL);
    assert_int_equal(verdicts[6].captured, 2); /* B aa takes two */
    assert_int_equal(verdicts[7].captured, 1); /* W ba returns one */
    assert_int_equal(go_game_state(g), GO_PLAYING);
    go_game_free(g);

    /* positional: ply 8 already repeats (ply 5), then 10-12 repeat 6-8 */
    g = replay(send_two, "chinese");
    static const int psk[] = {8, 10, 11, 12, 0};
    expect_flags(psk, GO_ILLEGAL_SUPERKO);
    assert_int_equal(verdicts[7].repeats_ply, 5);
    assert_string_equal(verdicts[7].rule_ref, "Chinese 1988 §6 (whole-board repetition)");
    go_game_free(g);

    /* situational: ply 8 has the other side to move; the first repeat is ply 10 */
    g = replay(send_two, "aga");
    static const int ssk[] = {10, 11, 12, 0};
    expect_flags(ssk, GO_ILLEGAL_SUPERKO);
    assert_int_equal(verdicts[9].repeats_ply, 6);
    /* AGA pass stones: W passed once (ply 2), B twice (9, 13) */
    assert_int_equal(go_game_passes(g, GO_BLACK), 2);
    assert_int_equal(go_game_passes(g, GO_WHITE), 1);
    go_game_free(g);
}

/* ---- 4. multi-stone suicide and superko ------------------------------------------------ */

static void test_suicide_superko(void **state)
{
    (void)state;
    /* Tromp-Taylor (positional, suicide allowed): only the last W ab repeats. */
    struct go_game *g = replay(suicide_superko, "tromp-taylor");
    static const int last[] = {10, 0};
    expect_flags(last, GO_ILLEGAL_SUPERKO);
    assert_int_equal(verdicts[0].captured, -2); /* B ea: two-stone suicide */
    assert_int_equal(verdicts[3].captured, -3); /* W aa: three-stone suicide */
    go_game_free(g);
    /* New Zealand (situational, multi-stone suicide): the same */
    g = replay(suicide_superko, "nz");
    expect_flags(last, GO_ILLEGAL_SUPERKO);
    go_game_free(g);
    /* Ing (simple ko, multi-stone suicide, repetitions to the referee) */
    g = replay(suicide_superko, "ing");
    for (int i = 0; i < sgf.moves; i++) assert_int_not_equal(verdicts[i].kind, GO_ILLEGAL_SUICIDE);
    assert_int_equal(verdicts[9].kind, GO_REPETITION_REFEREE);
    go_game_free(g);
    /* Japanese: both suicides are illegal */
    g = replay(suicide_superko, "japanese");
    assert_int_equal(verdicts[0].kind, GO_ILLEGAL_SUICIDE);
    assert_int_equal(verdicts[3].kind, GO_ILLEGAL_SUICIDE);
    assert_string_equal(verdicts[3].text, "White's stone at A5 would leave its chain of 3 stones "
                                          "without liberties (multi-stone suicide)");
    go_game_free(g);

    /* KataGo's illegal sets under positional superko: after ply 2 Black may not play fa,
     * after ply 7 White may not play ab. */
    assert_true(mini_sgf_parse(suicide_superko, &sgf));
    g = mini_replay(&sgf, rules("tromp-taylor"), 2, NULL);
    struct go_move m = {GO_BLACK, mini_pt("fa")};
    assert_int_equal(go_game_check(g, m).kind, GO_ILLEGAL_SUPERKO);
    go_game_free(g);
    g = mini_replay(&sgf, rules("tromp-taylor"), 7, NULL);
    m = (struct go_move){GO_WHITE, mini_pt("ab")};
    assert_int_equal(go_game_check(g, m).kind, GO_ILLEGAL_SUPERKO);
    go_game_free(g);
}

/* ---- game flow ------------------------------------------------------------------------- */

static struct go_verdict play(struct go_game *g, enum go_color c, const char *p)
{
    struct go_move m = {c, p[0] ? mini_pt(p) : GO_PASS};
    return go_game_play(g, m);
}

static void test_white_passes_last(void **state)
{
    (void)state;
    struct go_game *g = go_game_new(9, 9, rules("aga"));
    play(g, GO_BLACK, "ee");
    play(g, GO_WHITE, "");
    play(g, GO_BLACK, "");
    assert_int_equal(go_game_state(g), GO_PLAYING); /* Black passed last */
    assert_int_equal(go_game_prisoners(g, GO_BLACK), 1);
    assert_int_equal(go_game_prisoners(g, GO_WHITE), 1);
    play(g, GO_WHITE, "");
    assert_int_equal(go_game_state(g), GO_ENDED_PASSES);
    assert_int_equal(go_game_prisoners(g, GO_BLACK), 2);
    /* Black plays on: flagged, executed, play resumes */
    struct go_verdict v = play(g, GO_BLACK, "cc");
    assert_int_equal(v.kind, GO_AFTER_END);
    assert_string_equal(v.rule_ref, "AGA 1991 Rule 9 (ending the game: White passes last)");
    assert_string_equal(v.text, "Black plays C7 after the game ended by passes; play resumes");
    assert_int_equal(go_game_at(g, mini_pt("cc")), GO_BLACK);
    assert_int_equal(go_game_state(g), GO_PLAYING);
    go_game_free(g);

    /* Japanese: two passes end it whoever passes last; no pass stones */
    g = go_game_new(9, 9, rules("japanese"));
    play(g, GO_BLACK, "ee");
    play(g, GO_WHITE, "");
    play(g, GO_BLACK, "");
    assert_int_equal(go_game_state(g), GO_ENDED_PASSES);
    assert_int_equal(go_game_prisoners(g, GO_BLACK), 0);
    assert_int_equal(go_game_passes(g, GO_WHITE), 1);
    v = play(g, GO_WHITE, "");
    assert_int_equal(v.kind, GO_AFTER_END);
    assert_int_equal(go_game_state(g), GO_ENDED_PASSES);
    go_game_free(g);
}

static void test_resign_timeout(void **state)
{
    (void)state;
    struct go_game *g = go_game_new(19, 19, rules("korean"));
    play(g, GO_BLACK, "pd");
    go_game_resign(g, GO_WHITE);
    assert_int_equal(go_game_state(g), GO_ENDED_RESIGN);
    assert_int_equal(go_game_winner_by_default(g), GO_BLACK);
    struct go_verdict v = play(g, GO_WHITE, "dd");
    assert_int_equal(v.kind, GO_AFTER_END);
    assert_string_equal(v.text, "White plays D16 after the game ended by resignation");
    assert_int_equal(go_game_state(g), GO_ENDED_RESIGN); /* the result stands */
    go_game_resume(g);
    assert_int_equal(go_game_state(g), GO_ENDED_RESIGN);
    go_game_free(g);
    g = go_game_new(19, 19, rules("korean"));
    go_game_timeout(g, GO_BLACK);
    assert_int_equal(go_game_state(g), GO_ENDED_TIME);
    assert_int_equal(go_game_winner_by_default(g), GO_WHITE);
    go_game_free(g);
}

static void test_wrong_turn(void **state)
{
    (void)state;
    struct go_game *g = go_game_new(19, 19, rules("chinese"));
    play(g, GO_BLACK, "pd");
    struct go_verdict v = play(g, GO_BLACK, "dp");
    assert_int_equal(v.kind, GO_WRONG_TURN);
    assert_string_equal(v.text,
                        "Black plays D4, but it is White's turn (two Black moves in a row)");
    assert_string_equal(v.rule_ref, "Chinese 1988 §17.1 (two moves in a row)");
    assert_int_equal(go_game_at(g, mini_pt("dp")), GO_BLACK);
    assert_int_equal(go_game_to_move(g), GO_WHITE);
    v = play(g, GO_WHITE, "");
    assert_int_equal(v.kind, GO_LEGAL);
    v = play(g, GO_WHITE, "dd");
    assert_int_equal(v.kind, GO_WRONG_TURN);
    assert_int_equal(go_game_to_move(g), GO_BLACK);
    go_game_free(g);
    /* the second move is judged as that colour's: a wrong-turn suicide says so */
    g = go_game_new(5, 5, rules("japanese"));
    go_game_setup(g, GO_WHITE, mini_pt("ba"));
    go_game_setup(g, GO_WHITE, mini_pt("ab"));
    play(g, GO_BLACK, "ee");
    v = play(g, GO_BLACK, "aa");
    assert_int_equal(v.kind, GO_WRONG_TURN);
    assert_string_equal(v.text, "Black plays A5, but it is White's turn (two Black moves in a "
                                "row); also suicide");
    assert_int_equal(v.captured, -1);
    go_game_free(g);
}

static void test_setup_and_handicap_flow(void **state)
{
    (void)state;
    struct go_game *g = go_game_new(19, 19, rules("japanese"));
    assert_true(go_game_place_handicap(g, 4));
    assert_int_equal(go_game_handicap(g), 4);
    assert_int_equal(go_game_to_move(g), GO_WHITE);
    assert_int_equal(go_game_ply(g), 0);
    assert_int_equal(go_game_at(g, mini_pt("dp")), GO_BLACK);
    assert_int_equal(go_game_at(g, mini_pt("pd")), GO_BLACK);
    assert_int_equal(go_game_at(g, mini_pt("pp")), GO_BLACK);
    assert_int_equal(go_game_at(g, mini_pt("dd")), GO_BLACK);
    assert_int_equal(play(g, GO_WHITE, "qc").kind, GO_LEGAL);
    go_game_free(g);
    /* fixed placement refused where the size has none */
    g = go_game_new(5, 5, rules("japanese"));
    assert_false(go_game_place_handicap(g, 2));
    assert_int_equal(go_game_to_move(g), GO_BLACK);
    go_game_free(g);
    /* copies are independent */
    g = go_game_new(9, 9, rules("tromp-taylor"));
    play(g, GO_BLACK, "ee");
    struct go_game *c = go_game_copy(g);
    play(c, GO_WHITE, "ef");
    assert_int_equal(go_game_at(g, mini_pt("ef")), GO_EMPTY);
    assert_int_equal(go_game_at(c, mini_pt("ef")), GO_WHITE);
    assert_int_equal(go_game_ply(g), 1);
    assert_int_equal(go_game_ply(c), 2);
    go_game_free(c);
    go_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triple_ko),           cmocka_unit_test(test_eternal_life),
        cmocka_unit_test(test_send_two_return_one), cmocka_unit_test(test_suicide_superko),
        cmocka_unit_test(test_white_passes_last),   cmocka_unit_test(test_resign_timeout),
        cmocka_unit_test(test_wrong_turn),          cmocka_unit_test(test_setup_and_handicap_flow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

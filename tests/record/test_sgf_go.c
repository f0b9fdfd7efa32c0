/* tests/record/test_sgf_go.c — tree to Go record: sizes, points and passes, compressed lists,
 * komi normalisation, handicap without stones, game information, per-move data, charsets. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/sgf.h"
#include "tests/record/test_sgf_util.h"
#include "tests/testutil.h"

static bool has_warning(const struct go_record *r, const char *needle)
{
    for (int i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], needle)) return true;
    return false;
}

static void test_sizes(void **state)
{
    (void)state;
    struct sgf_error err;
    struct go_record *r = sgf_test_read("(;GM[1];B[aa])", &err);
    assert_non_null(r);
    assert_int_equal(r->width, 19);
    assert_int_equal(r->height, 19);
    go_record_free(r);
    r = sgf_test_read("(;SZ[13:7];B[ma];W[ag])", &err);
    assert_non_null(r);
    assert_int_equal(r->width, 13);
    assert_int_equal(r->height, 7);
    assert_int_equal(r->nodes[1].move.point, go_point(12, 0));
    assert_int_equal(r->nodes[2].move.point, go_point(0, 6));
    go_record_free(r);
    static const char *const bad[] = {"(;SZ[26])", "(;SZ[1])", "(;SZ[abc])", "(;SZ[9:0])",
                                      "(;SZ[19:])"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_null(sgf_test_read(bad[i], &err));
        assert_non_null(strstr(err.message, "SZ["));
    }
    assert_null(sgf_test_read("(;GM[2]SZ[8];B[aa])", &err));
    assert_non_null(strstr(err.message, "not a Go game"));
}

static void test_points_and_passes(void **state)
{
    (void)state;
    struct sgf_error err;
    struct go_record *r = sgf_test_read("(;SZ[19];B[pd];W[tt];B[];W[sa];B[zz];W[p];B[ss])", &err);
    assert_non_null(r);
    assert_int_equal(r->nnodes, 6); /* root + 5 moves; zz and "p" dropped with a warning */
    assert_int_equal(r->nodes[1].move.color, GO_BLACK);
    assert_int_equal(r->nodes[1].move.point, go_point(15, 3));
    assert_int_equal(r->nodes[2].move.point, GO_PASS);
    assert_int_equal(r->nodes[2].move.color, GO_WHITE);
    assert_int_equal(r->nodes[3].move.point, GO_PASS);
    assert_int_equal(r->nodes[4].move.point, go_point(18, 0));
    assert_int_equal(r->nodes[5].move.point, go_point(18, 18));
    assert_true(has_warning(r, "zz"));
    go_record_free(r);

    r = sgf_test_read("(;SZ[9];B[tt])", &err);
    assert_int_equal(r->nodes[1].move.point, GO_PASS);
    go_record_free(r);
    /* on boards larger than 19x19, tt is a point */
    r = sgf_test_read("(;SZ[21];B[tt])", &err);
    assert_int_equal(r->nodes[1].move.point, go_point(19, 19));
    go_record_free(r);
}

static void test_setup_and_compressed_lists(void **state)
{
    (void)state;
    struct sgf_error err;
    struct go_record *r =
        sgf_test_read("(;SZ[19]AB[aa:cc][pd]AW[ec:dd]AE[zz];AB[qq]B[pp]PL[W];W[dp]B[cc])", &err);
    assert_non_null(r);
    const struct go_record_node *root = &r->nodes[0];
    assert_int_equal(root->nsetup, 9 + 1 + 4);
    int black = 0, white = 0;
    for (int i = 0; i < root->nsetup; i++) {
        black += root->setup[i].color == GO_BLACK;
        white += root->setup[i].color == GO_WHITE;
    }
    assert_int_equal(black, 10);
    assert_int_equal(white, 4); /* "ec:dd" is the rectangle dc..ed, corners in any order */
    assert_true(has_warning(r, "zz"));
    /* setup and a move in one node become a setup node and a move node; PL beside the move names
     * who plays after it (CGoban, GNU Go), so it follows the move in a node of its own */
    assert_int_equal(r->nodes[1].nsetup, 1);
    assert_false(r->nodes[1].has_move);
    assert_int_equal(r->nodes[1].player, GO_EMPTY);
    assert_true(r->nodes[2].has_move);
    assert_int_equal(r->nodes[2].move.point, go_point(15, 15));
    assert_false(r->nodes[3].has_move);
    assert_int_equal(r->nodes[3].player, GO_WHITE);
    /* two moves in one node: both kept, in the order written */
    assert_int_equal(r->nodes[4].move.color, GO_WHITE);
    assert_int_equal(r->nodes[5].move.color, GO_BLACK);
    assert_int_equal(r->nnodes, 6);
    go_record_free(r);
}

static void test_komi_normalisation(void **state)
{
    (void)state;
    static const struct {
        const char *props;
        double komi, raw;
    } cases[] = {
        {"KM[650]", 6.5, 650},
        {"KM[750]RU[Japanese]", 7.5, 750},
        {"KM[550]", 5.5, 550},
        {"KM[450]", 4.5, 450},
        {"KM[700]", 7, 700},
        {"KM[275]", 5.5, 275},
        {"KM[325]RU[Chinese]", 6.5, 325},
        {"KM[350]", 7, 350},
        {"KM[375]RU[Chinese]", 7.5, 375},
        {"KM[375]", 7.5, 375},
        {"KM[3.75]RU[Chinese]", 7.5, 3.75},
        {"KM[2.75]RU[chinese]", 5.5, 2.75},
        {"KM[3.75]RU[Japanese]", 3.75, 3.75},
        {"KM[7.5]RU[Chinese]", 7.5, 7.5},
        {"KM[7.500000]", 7.5, 7.5},
        {"KM[6.5]", 6.5, 6.5},
        {"KM[-3.5]", -3.5, -3.5},
        {"KM[0]AP[foxwq]", 0, 0},
        {"KM[50]AP[GNU Go:3.8]AP[foxwq]", 0.5, 50},
        {"KM[50]", 50, 50},
        {"KM[ 6,5 ]", 6.5, 6.5},
        {"KM[-650]", -6.5, -650},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "(;GM[1]%s;B[pd])", cases[i].props);
        struct go_record *r = sgf_test_read(text, NULL);
        assert_non_null(r);
        if (r->komi != cases[i].komi || r->komi_raw != cases[i].raw)
            fail_msg("%s: komi %g raw %g, expected %g raw %g", cases[i].props, r->komi, r->komi_raw,
                     cases[i].komi, cases[i].raw);
        assert_int_equal(r->nwarnings, 0);
        go_record_free(r);
    }
    static const char *const bad[] = {"KM[six]", "KM[1e9]", "KM[nan]", "KM[inf]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[200];
        snprintf(text, sizeof text, "(;GM[1]%s;B[pd])", bad[i]);
        struct go_record *r = sgf_test_read(text, NULL);
        assert_non_null(r);
        assert_true(r->komi == 0);
        assert_true(has_warning(r, "komi"));
        go_record_free(r);
    }
}

static void test_handicap_without_stones(void **state)
{
    (void)state;
    struct go_record *r = sgf_test_read("(;SZ[19]HA[4]KM[0.5];W[pd];B[dd])", NULL);
    assert_int_equal(r->handicap, 4);
    assert_true(has_warning(r, "HA[4]"));
    assert_int_equal(r->nodes[0].nsetup, 0); /* no stones invented */
    go_record_free(r);
    r = sgf_test_read("(;SZ[19]HA[2]AB[dp][pd];W[dd])", NULL);
    assert_int_equal(r->nwarnings, 0);
    go_record_free(r);
    /* free placement: the stones come in the next node */
    r = sgf_test_read("(;SZ[19]HA[2];AB[dp][pd];W[dd])", NULL);
    assert_int_equal(r->nwarnings, 0);
    go_record_free(r);

    /* the real Fox record with HA[7] and no AB */
    char path[4096];
    snprintf(path, sizeof path, "%s/sgf/foxwq-pro/anomalies/6p/1383757598019999285.sgf",
             tu_fixtures_dir());
    struct go_record **recs;
    struct sgf_error err;
    assert_int_equal(sgf_read_file(path, &recs, &err), 1);
    assert_int_equal(recs[0]->handicap, 7);
    assert_true(has_warning(recs[0], "HA[7]"));
    go_record_free(recs[0]);
    free(recs);
}

static void test_game_info_and_move_data(void **state)
{
    (void)state;
    struct sgf_error err;
    struct go_record *r =
        sgf_test_read("(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[Black Name]PW[White]BR[9p]WR[1d]EV[Cup]RO[3]"
                      "DT[2024-05-01]PC[Tokyo]RE[W+0.0]RU[Japanese]TM[600]OT[5x30 byo-yomi]GC[info]"
                      "AP[Tool:1]GN[Final]SO[book]C[root comment]"
                      ";B[pd]BL[599.5]OB[5]C[first]MN[10];W[dp]WL[3.25]OW[2];PL[B]C[setup])",
                      &err);
    assert_non_null(r);
    assert_string_equal(r->black, "Black Name");
    assert_string_equal(r->white, "White");
    assert_string_equal(r->black_rank, "9p");
    assert_string_equal(r->white_rank, "1d");
    assert_string_equal(r->event, "Cup");
    assert_string_equal(r->round, "3");
    assert_string_equal(r->date, "2024-05-01");
    assert_string_equal(r->place, "Tokyo");
    assert_string_equal(r->result, "W+0.0"); /* as written */
    assert_string_equal(r->rules, "Japanese");
    assert_string_equal(r->time_control, "600");
    assert_true(r->main_time == 600);
    assert_string_equal(r->overtime, "5x30 byo-yomi");
    assert_string_equal(r->game_comment, "info");
    assert_string_equal(r->application, "Tool:1");
    assert_string_equal(r->game_name, "Final");
    assert_string_equal(r->source, "book");
    assert_string_equal(r->charset, "UTF-8");
    assert_string_equal(r->nodes[0].comment, "root comment");
    assert_int_equal(r->nnodes, 4);
    assert_true(r->nodes[1].time_left == 599.5);
    assert_int_equal(r->nodes[1].periods_left, 5);
    assert_int_equal(r->nodes[1].move_number, 10);
    assert_string_equal(r->nodes[1].comment, "first");
    assert_true(r->nodes[2].time_left == 3.25);
    assert_int_equal(r->nodes[2].periods_left, 2);
    assert_int_equal(r->nodes[2].move_number, 0);
    assert_null(r->nodes[2].comment);
    assert_false(r->nodes[3].has_move);
    assert_int_equal(r->nodes[3].player, GO_BLACK);
    assert_string_equal(r->nodes[3].comment, "setup");
    assert_null(r->nodes[0].setup);
    go_record_free(r);

    r = sgf_test_read("(;TM[1h]B[aa]BL[1e12]OB[-1])", &err); /* not times: ignored */
    assert_true(r->main_time < 0);
    assert_string_equal(r->time_control, "1h");
    assert_null(r->black);
    assert_true(r->nodes[1].time_left < 0);
    assert_int_equal(r->nodes[1].periods_left, -1);
    go_record_free(r);
}

/* Charsets, with the bytes real files use. */
static void test_charsets(void **state)
{
    (void)state;
    static const struct {
        const char *text, *charset, *black, *white;
        bool warns;
    } cases[] = {
        /* GBK without CA (Fox, Tygem): 柯洁, 古力 */
        {"(;PB[\xBF\xC2\xBD\xE0]PW[\xB9\xC5\xC1\xA6])", "GB18030", "柯洁", "古力", false},
        /* Shift-JIS without CA: 井山裕太, ひかる */
        {"(;PB[\x88\xE4\x8E\x52\x97\x54\x91\xBE]PW[\x82\xD0\x82\xA9\x82\xE9])", "CP932", "井山裕太",
         "ひかる", false},
        /* declared */
        {"(;CA[gb2312]PB[\xCE\xA7\xC6\xE5])", "GB2312", "围棋", NULL, false},
        {"(;CA[Shift_JIS]PB[\x96\xBC\x90\x6C\x90\xED])", "SHIFT_JIS", "名人戦", NULL, false},
        {"(;CA[ISO-8859-1]PB[M\xFCller])", "ISO-8859-1", "Müller", NULL, false},
        {"(;CA[UTF-8]PB[柯洁])", "UTF-8", "柯洁", NULL, false},
        /* valid UTF-8 without CA */
        {"(;PB[柯洁]PW[井山裕太])", "UTF-8", "柯洁", "井山裕太", false},
        /* Fox: UTF-8 with bytes replaced by '?': damaged characters become one U+FFFD each */
        {"(;PB[\xE6\xA3\x8B\xE4\xB9?\xE8\x9E?36])", "UTF-8 (invalid bytes replaced)",
         "棋\xEF\xBF\xBD\xEF\xBF\xBD"
         "36",
         NULL, false},
        /* Latin-1 without CA: one accented pair is not taken for a GBK character */
        {"(;PB[cr\xE9\xE9]PW[h\xF6rru])", "ISO-8859-1", "créé", "hörru", false},
        /* CA[UTF-8] that lies: guessed, with a warning */
        {"(;CA[UTF-8]PB[\xBF\xC2\xBD\xE0\xB9\xC5\xC1\xA6])", "GB18030", "柯洁古力", NULL, true},
        /* unknown CA: guessed, with a warning */
        {"(;CA[no-such-charset]PB[M\xFCller])", "ISO-8859-1", "Müller", NULL, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sgf_error err;
        struct go_record *r = sgf_test_read(cases[i].text, &err);
        assert_non_null(r);
        if (strcmp(r->charset, cases[i].charset) != 0)
            fail_msg("case %zu: charset %s, expected %s", i, r->charset, cases[i].charset);
        assert_string_equal(r->black, cases[i].black);
        if (cases[i].white) assert_string_equal(r->white, cases[i].white);
        assert_int_equal(r->nwarnings > 0, cases[i].warns);
        go_record_free(r);
    }
}

/* The real Latin-1 and lossy-UTF-8 files of the fixtures decode as expected. */
static void test_charsets_real_files(void **state)
{
    (void)state;
    static const struct {
        const char *file, *charset, *needle;
    } cases[] = {
        {"gnugo-regression-games/tg-gg.sgf", "ISO-8859-1", "créé"},
        {"gnugo-regression-games/nicklas/nicklas12.sgf", "ISO-8859-1", "hörru"},
        {"foxwq-pro/anomalies/9p/1511855947010001660.sgf", "UTF-8 (invalid bytes replaced)", "棋"},
        {"computer-go-dataset-ai/Jin Mao Ce Shi/2018.08.27 金毛测试 VS Dayline (010001672).SGF",
         "UTF-8", "金毛测试"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/sgf/%s", tu_fixtures_dir(), cases[i].file);
        struct go_record **recs;
        struct sgf_error err;
        assert_int_equal(sgf_read_file(path, &recs, &err), 1);
        const struct go_record *r = recs[0];
        assert_string_equal(r->charset, cases[i].charset);
        bool found = false;
        const char *fields[] = {r->black, r->white, r->game_name, r->nodes[0].comment};
        for (int k = 0; k < 4; k++) found |= fields[k] && strstr(fields[k], cases[i].needle);
        for (int k = 0; k < r->nnodes && !found; k++)
            found = r->nodes[k].comment && strstr(r->nodes[k].comment, cases[i].needle);
        if (!found) fail_msg("%s: \"%s\" not found", cases[i].file, cases[i].needle);
        go_record_free(recs[0]);
        free(recs);
    }
}

/* Komi of the real fixture files, normalised. */
static void test_komi_real_files(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        double komi;
    } cases[] = {
        {"foxwq-pro/clean/8p/1550379174010001364.sgf", 6.5},
        {"foxwq-pro/clean/9p/1570699693010001904.sgf", 7.5},
        {"foxwq-pro/clean/9p/1544963401010001816.sgf", 6.5},
        {"foxwq-pro/clean/9p/1517053704010001553.sgf", 4.5},
        {"computer-go-dataset-ai/2018 Tencent World AI WEIQI Competition/S 1-1 ELFOpenGo vs "
         "Golaxy.SGF",
         7.5},
        {"gnugo-regression-games/nngs/gnugo-3.1.18-Rufus-200201052349.sgf", -3.5},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/sgf/%s", tu_fixtures_dir(), cases[i].file);
        struct go_record **recs;
        struct sgf_error err;
        assert_int_equal(sgf_read_file(path, &recs, &err), 1);
        if (recs[0]->komi != cases[i].komi)
            fail_msg("%s: komi %g, expected %g", cases[i].file, recs[0]->komi, cases[i].komi);
        go_record_free(recs[0]);
        free(recs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_points_and_passes),
        cmocka_unit_test(test_setup_and_compressed_lists),
        cmocka_unit_test(test_komi_normalisation),
        cmocka_unit_test(test_handicap_without_stones),
        cmocka_unit_test(test_game_info_and_move_data),
        cmocka_unit_test(test_charsets),
        cmocka_unit_test(test_charsets_real_files),
        cmocka_unit_test(test_komi_real_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

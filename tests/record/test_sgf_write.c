/* tests/record/test_sgf_write.c — Go record to FF[4] text, write -> read round trips, and
 * reading files (several games, errors naming path:line:column). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/sgf.h"
#include "tests/record/test_sgf_util.h"

static const char rich[] =
    "(;GM[1]FF[4]CA[UTF-8]SZ[19]PB[Black \\] Name\\\\]PW[柯洁]BR[9p]WR[1d]EV[Cup]RO[3]"
    "DT[2024-05-01]PC[Tokyo]RE[W+0.5]RU[Chinese]KM[3.75]HA[2]TM[600]OT[5x30 byo-yomi]"
    "GC[line one\nline two]GN[Final]SO[book]AB[dp][pd]C[root comment]"
    ";W[dd]WL[599.5]OW[5]C[a \\] in a comment]MN[10];B[tt]BL[1.25]"
    ";AE[dp]AW[qq]PL[B]C[setup node];B[]"
    ";W[aa]C[back\\\\slash])";

static void test_layout_and_escapes(void **state)
{
    (void)state;
    struct sgf_error err;
    struct go_record *r = sgf_test_read(rich, &err);
    assert_non_null(r);
    char *text = sgf_write_go_record(r);
    assert_non_null(text);
    assert_memory_equal(text, "(;GM[1]FF[4]CA[UTF-8]AP[kifucam:0.1]SZ[19]\n", 42);
    assert_non_null(strstr(text, "\nKM[7.5]\n"));
    assert_non_null(strstr(text, "\nHA[2]\n"));
    assert_non_null(strstr(text, "\nPB[Black \\] Name\\\\]\n"));
    assert_non_null(strstr(text, "\nPW[柯洁]\n"));
    assert_non_null(strstr(text, "\nGC[line one\nline two]\n"));
    assert_non_null(strstr(text, "AB[dp][pd]C[root comment]\n"));
    assert_non_null(strstr(text, "\n;W[dd]WL[599.5]OW[5]MN[10]C["));
    assert_non_null(strstr(text, "\n;B[]BL[1.25]\n")); /* tt written as an FF[4] pass */
    assert_non_null(strstr(text, "\n;AE[dp]AW[qq]PL[B]C[setup node]\n;B[]\n"));
    assert_non_null(strstr(text, "C[back\\\\slash]\n)\n"));
    assert_null(strstr(text, "tt"));

    /* SGF's Real has no exponent: handtalk7.sgf's BL[3160] once came out as BL[3.16e+03] */
    struct go_record *t = sgf_test_read("(;TM[3600];B[pd]BL[3160];W[dd]WL[0.0005])", &err);
    char *ttext = sgf_write_go_record(t);
    assert_non_null(strstr(ttext, "TM[3600]"));
    assert_non_null(strstr(ttext, ";B[pd]BL[3160]\n"));
    assert_non_null(strstr(ttext, ";W[dd]WL[0.001]\n")); /* kept to the millisecond */
    assert_null(strchr(ttext, 'e'));
    free(ttext);
    go_record_free(t);
    /* the text reads back cleanly and completely */
    char why[200];
    assert_true(sgf_test_roundtrip(r, why, sizeof why));
    struct sgf_collection *c = sgf_parse(text, strlen(text), &err);
    assert_non_null(c);
    assert_int_equal(err.line, 0);
    assert_string_equal(err.message, "");
    sgf_collection_free(c);
    free(text);
    go_record_free(r);
}

static void test_roundtrip_all_fields(void **state)
{
    (void)state;
    struct go_record *r = sgf_test_read(rich, NULL);
    assert_non_null(r);
    char *text = sgf_write_go_record(r);
    struct go_record *back = sgf_test_read(text, NULL);
    assert_non_null(back);
    char why[200] = "";
    if (!sgf_test_records_equal(r, back, why, sizeof why)) fail_msg("%s", why);
    assert_string_equal(back->application, "kifucam:0.1");
    assert_true(back->komi_raw == 7.5);
    assert_int_equal(back->nwarnings, 0);
    /* and a second write is byte-identical: the format is a fixed point */
    char *again = sgf_write_go_record(back);
    assert_string_equal(text, again);
    free(again);
    free(text);
    go_record_free(back);
    go_record_free(r);

    /* rectangular board, no info at all */
    r = sgf_test_read("(;SZ[13:7];B[ma];W[ag];B[];W[])", NULL);
    assert_true(sgf_test_roundtrip(r, why, sizeof why));
    go_record_free(r);
}

/* A record made by the program (not read): setup and a move in one node are written as two
 * nodes, as FF[4] requires. */
static void test_write_built_record(void **state)
{
    (void)state;
    struct go_record_node nodes[3];
    memset(nodes, 0, sizeof nodes);
    struct go_move stones[3] = {{GO_BLACK, go_point(2, 2)},
                                {GO_BLACK, go_point(6, 6)},
                                {GO_WHITE, go_point(15, 15)}}; /* the last is off the board */
    for (int i = 0; i < 3; i++) {
        nodes[i].time_left = -1;
        nodes[i].periods_left = -1;
    }
    nodes[0].setup = stones;
    nodes[0].nsetup = 2;
    nodes[1].has_move = true;
    nodes[1].move = (struct go_move){GO_WHITE, go_point(6, 2)};
    nodes[1].time_left = 1799.874;
    nodes[1].comment = "ruleguard: note";
    nodes[2].has_move = true;
    nodes[2].move = (struct go_move){GO_BLACK, GO_PASS};
    nodes[2].setup = stones + 1;
    nodes[2].nsetup = 2;
    struct go_record r = {.width = 9,
                          .height = 9,
                          .komi = 0.5,
                          .main_time = -1,
                          .handicap = 2,
                          .black = "B",
                          .nodes = nodes,
                          .nnodes = 3};
    char *text = sgf_write_go_record(&r);
    assert_non_null(text);
    assert_non_null(strstr(text, "SZ[9]\n"));
    assert_non_null(strstr(text, "\nAB[cc][gg]\n;W[gc]WL[1799.874]C[ruleguard: note]\n"));
    assert_non_null(strstr(text, "\n;AB[gg]\n;B[]\n)")); /* no empty AW for the off-board stone */
    struct go_record *back = sgf_test_read(text, NULL);
    assert_non_null(back);
    assert_int_equal(back->nnodes, 4);
    assert_true(back->nodes[1].time_left == 1799.874);
    assert_int_equal(sgf_test_count_moves(back), 2);
    go_record_free(back);
    free(text);
}

static char *write_temp(const char *content)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/kifucam-sgf-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, content, strlen(content)), (ssize_t)strlen(content));
    close(fd);
    return path;
}

static void test_read_file(void **state)
{
    (void)state;
    struct go_record **recs;
    struct sgf_error err;
    char *path = write_temp("(;GM[1]PB[a];B[aa])\n(;GM[2]PB[chess])\n(;GM[1]SZ[9];W[ee])");
    int n = sgf_read_file(path, &recs, &err);
    assert_int_equal(n, 2); /* the GM[2] game is skipped and said so */
    assert_string_equal(recs[0]->black, "a");
    assert_int_equal(recs[1]->width, 9);
    assert_int_equal(strncmp(err.message, path, strlen(path)), 0);
    assert_non_null(strstr(err.message, ":2:2: game 2 skipped: not a Go game"));
    for (int i = 0; i < n; i++) go_record_free(recs[i]);
    free(recs);
    unlink(path);

    /* damage: the error names path:line:column, and the game is still read */
    path = write_temp("(;GM[1]\n;B[aa]\n;W[bb\n");
    n = sgf_read_file(path, &recs, &err);
    assert_int_equal(n, 1);
    char expect[128];
    snprintf(expect, sizeof expect, "%s:3:3: unterminated", path);
    assert_int_equal(strncmp(err.message, expect, strlen(expect)), 0);
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 3);
    go_record_free(recs[0]);
    free(recs);
    unlink(path);

    path = write_temp("not an sgf file");
    assert_int_equal(sgf_read_file(path, &recs, &err), -1);
    assert_int_equal(strncmp(err.message, path, strlen(path)), 0);
    assert_non_null(strstr(err.message, "no game"));
    unlink(path);

    assert_int_equal(sgf_read_file("/nonexistent/dir/x.sgf", &recs, &err), -1);
    assert_non_null(strstr(err.message, "/nonexistent/dir/x.sgf: "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_and_escapes),
        cmocka_unit_test(test_roundtrip_all_fields),
        cmocka_unit_test(test_write_built_record),
        cmocka_unit_test(test_read_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

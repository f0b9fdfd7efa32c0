/* tests/record/test_go_event_record.c — the Go record the daemon rewrites from guard events: a
 * move accepted under doubt carries the guard's reason as its comment (the player checks those
 * moves first), a plain move none, a move not seen is a pass with its note, a flag a comment on
 * its ply. The SGF is read back with the project's own reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/event_record.h"
#include "tests/testutil.h"

static struct guard_event move_event(int ply, enum go_color c, int x, int y, const char *text)
{
    struct guard_event e;
    guard_event_init(&e, GUARD_MOVE, ply, (int64_t)ply * 1000000000, (uint64_t)ply * 30);
    e.move = (struct go_move){c, go_point(x, y)};
    snprintf(e.text, sizeof e.text, "%s", text);
    return e;
}

static void test_doubt_is_the_moves_comment(void **state)
{
    (void)state;
    struct go_event_record r;
    assert_true(go_event_record_init(&r, 19, go_rules_find("Japanese 1989")));
    struct guard_event ev[4] = {
        move_event(1, GO_BLACK, 15, 3, "Black Q16"),
        move_event(2, GO_WHITE, 3, 15, "White D4"),
        move_event(3, GO_BLACK, 16, 15, "Black R4"),
        move_event(4, GO_WHITE, 2, 2, "White C17"),
    };
    guard_event_add_doubt(&ev[1], "accepted under doubt: low-confidence reading");
    ev[3].reason = GUARD_REASON_UNSEEN;
    snprintf(ev[3].text, sizeof ev[3].text, "White's move not seen: C17 or D17");
    struct guard_event flag;
    guard_event_init(&flag, GUARD_TWO_MOVES, 3, 3000000000, 90);
    snprintf(flag.text, sizeof flag.text, "Black twice");
    for (int i = 0; i < 4; i++) assert_false(go_event_record_apply(&r, &ev[i]));
    assert_true(go_event_record_apply(&r, &flag));
    struct go_record info = {0};
    char *sgf = go_event_record_sgf(&r, &info);
    assert_non_null(sgf);
    struct go_record **games = NULL;
    struct sgf_error err;
    /* read back through the file reader, as a user's program would */
    char path[] = "/tmp/kifucam-go-event-record-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(sgf, f);
    fclose(f);
    assert_int_equal(sgf_read_file(path, &games, &err), 1);
    remove(path);
    const struct go_record *g = games[0];
    assert_int_equal(g->nnodes, 5);
    assert_null(g->nodes[1].comment);
    assert_non_null(g->nodes[2].comment);
    tu_note("ply 2's comment: %s", g->nodes[2].comment);
    assert_string_equal(g->nodes[2].comment,
                        "kifucam: accepted under doubt: low-confidence reading");
    assert_non_null(g->nodes[3].comment);
    assert_non_null(strstr(g->nodes[3].comment, "TWO_MOVES"));
    assert_null(strstr(g->nodes[3].comment, "doubt"));
    assert_int_equal(g->nodes[4].move.point, GO_PASS);
    assert_non_null(g->nodes[4].comment);
    assert_non_null(strstr(g->nodes[4].comment, "not seen"));
    go_record_free(games[0]);
    free(games);
    free(sgf);
    go_event_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doubt_is_the_moves_comment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

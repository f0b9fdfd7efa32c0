/* tests/board/test_shogi_replay.c — real games replay with every move legal: the 21 bundled
 * games (tests/fixtures/shogi-rules) always, the 400 lishogi games of shared/data/shogi-games
 * when present. Each move must also be what shogi_find_moves and shogi_infer_move recover from the
 * boards before and after it (what the rule guard will ask). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/shogi.h"
#include "tests/testutil.h"

struct tally {
    int games, plies, drops, promotions, captures, checks, mates;
};

/* Replays one "startpos moves …" / "sfen … moves …" line; fails the test on any illegal move. */
static void replay_line(const char *file, int lineno, char *line, struct tally *t)
{
    struct shogi_position start;
    const char *rest = NULL;
    char err[200];
    if (!shogi_sfen_parse(&start, line, &rest, err, sizeof err))
        fail_msg("%s:%d: %s", file, lineno, err);
    while (*rest == ' ') rest++;
    if (!strncmp(rest, "moves", 5)) rest += 5;
    struct shogi_game g;
    shogi_game_init(&g, &start, &shogi_rules_jsa);
    char *save = NULL, *copy = strdup(rest);
    for (char *tok = strtok_r(copy, " \t\r\n", &save); tok;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        struct shogi_move m;
        if (!shogi_move_from_usi(&g.pos, tok, &m))
            fail_msg("%s:%d ply %d: cannot read move '%s'", file, lineno, g.n + 1, tok);
        struct shogi_position before = g.pos;
        if (g.outcome.end != SHOGI_END_NONE)
            fail_msg("%s:%d ply %d: move after the game ended (%s)", file, lineno, g.n + 1,
                     shogi_end_name(g.outcome.end));
        struct shogi_verdict v = shogi_game_play(&g, m);
        if (v.rule != SHOGI_LEGAL)
            fail_msg("%s:%d ply %d: %s flagged: %s (%s)", file, lineno, g.n, tok,
                     shogi_illegal_name(v.rule), shogi_fault_text(v.fault));
        /* the rule guard's view: two boards, one move between them */
        struct shogi_move found[4];
        int n = shogi_find_moves(&before, g.pos.board,
                                 (const uint8_t(*)[SHOGI_HAND_TYPES])g.pos.hand, found, 4);
        if (n != 1 || !shogi_move_equal(found[0], m))
            fail_msg("%s:%d ply %d: find_moves gave %d moves for %s", file, lineno, g.n, n, tok);
        struct shogi_move inferred;
        if (!shogi_infer_move(&before, g.pos.board, &inferred, &v) ||
            !shogi_move_equal(inferred, m) || v.rule != SHOGI_LEGAL)
            fail_msg("%s:%d ply %d: infer_move disagrees on %s", file, lineno, g.n, tok);
        t->plies++;
        t->drops += shogi_move_is_drop(m);
        t->promotions += m.promote;
        t->captures += m.captured != 0;
        t->checks += g.plies[g.n - 1].check;
    }
    free(copy);
    if (g.outcome.end == SHOGI_END_MATE)
        t->mates++;
    else if (g.outcome.end != SHOGI_END_NONE)
        fail_msg("%s:%d: game ended by %s", file, lineno, shogi_end_name(g.outcome.end));
    t->games++;
    shogi_game_free(&g);
}

static void replay_file(const char *path, struct tally *t)
{
    size_t len;
    char *text = tu_read_file(path, &len);
    if (!text) fail_msg("cannot read %s", path);
    int lineno = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        lineno++;
        if (line[0] && line[0] != '#' && line[0] != '\r') replay_line(path, lineno, line, t);
        line = nl ? nl + 1 : NULL;
    }
    free(text);
}

static void note(const char *what, const struct tally *t)
{
    tu_note("%s: %d games, %d plies, all legal (%d drops, %d promotions, %d captures, %d checks,"
            " %d ended in mate)",
            what, t->games, t->plies, t->drops, t->promotions, t->captures, t->checks, t->mates);
}

static void test_fixture_games(void **state)
{
    (void)state;
    struct tally t = {0};
    replay_file(tu_path(tu_fixtures_dir(), "shogi-rules/lishogi-20.usi"), &t);
    note("tests/fixtures/shogi-rules/lishogi-20.usi", &t);
    assert_int_equal(t.games, 21);
    assert_true(t.plies > 1000);
}

static void test_shared_games(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("shared/data absent: the 400 lishogi games were not replayed");
        return;
    }
    struct tally t = {0};
    replay_file(tu_path(shared, "shogi-games/lishogi-400.usi"), &t);
    note("shared/data/shogi-games/lishogi-400.usi", &t);
    assert_int_equal(t.games, 400);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_games),
        cmocka_unit_test(test_shared_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

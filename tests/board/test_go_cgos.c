/* tests/board/test_go_cgos.c — real illegal moves from CGOS 9×9 games (Tromp-Taylor rules).
 *
 * Each record stops before the move that lost the game; cgos_illegal_final_moves.csv names the
 * move and how an independent replay classified it. Replayed here: every recorded move is legal
 * under Tromp-Taylor; the attempted move is not, and repeats exactly the position the CSV says;
 * under Japanese rules (simple ko) the same move is a ko, a suicide, or legal (longer cycles). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "board/go.h"
#include "tests/board/test_go_util.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct mini_sgf sgf;
static struct go_verdict verdicts[512];

struct row {
    char file[64], offender[4], sgf_point[4], classification[128];
    int moves;
};

/* One CSV line: file,RE,moves_in_record,offender,gtp,sgf,comment,classification */
static bool parse_row(char *line, struct row *r)
{
    char *f[8];
    int n = 0;
    for (char *s = line; n < 8;) {
        f[n++] = s;
        char *comma = strchr(s, ',');
        if (!comma) break;
        *comma = '\0';
        s = comma + 1;
    }
    if (n != 8) return false;
    snprintf(r->file, sizeof r->file, "%s", f[0]);
    r->moves = atoi(f[2]);
    snprintf(r->offender, sizeof r->offender, "%s", f[3]);
    snprintf(r->sgf_point, sizeof r->sgf_point, "%s", f[5]);
    snprintf(r->classification, sizeof r->classification, "%s", f[7]);
    char *nl = strpbrk(r->classification, "\r\n");
    if (nl) *nl = '\0';
    return true;
}

/* How many plies before the attempted move (itself ply moves + 1) the position it recreates was
 * made: "recreates position N plies back" (2 for a simple ko); 1 for a single-stone suicide,
 * which brings back the position it was played in. */
static int plies_back(const char *classification)
{
    if (strstr(classification, "suicide")) return 1;
    const char *p = strstr(classification, "recreates position ");
    assert_non_null(p);
    return atoi(p + strlen("recreates position "));
}

static void check_row(const char *dir, const struct row *r)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir,
             strncmp(r->file, "cgos/", 5) == 0 ? r->file + 5 : r->file);
    size_t len;
    char *text = tu_read_file(path, &len);
    if (!text) fail_msg("cannot read %s", path);
    if (!mini_sgf_parse(text, &sgf)) fail_msg("%s: cannot parse", path);
    free(text);
    assert_int_equal(sgf.moves, r->moves);
    enum go_color offender = r->offender[0] == 'B' ? GO_BLACK : GO_WHITE;
    struct go_move attempt = {offender, mini_pt(r->sgf_point)};
    int back = plies_back(r->classification);
    bool is_suicide = strstr(r->classification, "suicide") != NULL;
    bool is_ko = strstr(r->classification, "simple ko") != NULL;

    /* Tromp-Taylor: the record is clean, the attempt repeats the position `back` plies ago. */
    struct go_game *g = mini_replay(&sgf, go_rules_find("tromp-taylor"), -1, verdicts);
    for (int i = 0; i < sgf.moves; i++)
        if (verdicts[i].kind != GO_LEGAL)
            fail_msg("%s ply %d: %s", r->file, i + 1, verdicts[i].text);
    assert_int_equal(go_game_to_move(g), offender);
    struct go_verdict v = go_game_check(g, attempt);
    if (v.kind != GO_ILLEGAL_SUPERKO || v.repeats_ply != sgf.moves + 1 - back)
        fail_msg("%s: %s under Tromp-Taylor: %s (repeats %d, want %d)", r->file, r->sgf_point,
                 go_verdict_name(v.kind), v.repeats_ply, sgf.moves + 1 - back);
    if (is_suicide) assert_int_equal(v.captured, -1);
    if (is_ko) assert_int_equal(v.captured, 1);
    assert_string_equal(v.rule_ref, "Tromp-Taylor rule 6 (positional superko)");
    go_game_free(g);

    /* Japanese 1989: simple ko and suicide are caught by their own rules, longer cycles are
     * legal there. */
    g = mini_replay(&sgf, go_rules_find("japanese"), -1, verdicts);
    for (int i = 0; i < sgf.moves; i++)
        if (verdicts[i].kind != GO_LEGAL)
            fail_msg("%s ply %d (Japanese): %s", r->file, i + 1, verdicts[i].text);
    v = go_game_check(g, attempt);
    enum go_verdict_kind want = is_suicide ? GO_ILLEGAL_SUICIDE : is_ko ? GO_ILLEGAL_KO : GO_LEGAL;
    if (v.kind != want)
        fail_msg("%s: %s under Japanese: %s, want %s", r->file, r->sgf_point,
                 go_verdict_name(v.kind), go_verdict_name(want));
    go_game_free(g);
}

/* Check every row of the CSV against the games in games_dir; returns the number of games. */
static int run_csv(const char *csv_path, const char *games_dir)
{
    size_t len;
    char *csv = tu_read_file(csv_path, &len);
    if (!csv) fail_msg("cannot read %s", csv_path);
    int games = 0, psk = 0, ko = 0, suicide = 0;
    char *save = NULL;
    for (char *line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "file,", 5) == 0 || !line[0]) continue;
        struct row r;
        assert_true(parse_row(line, &r));
        check_row(games_dir, &r);
        games++;
        if (strstr(r.classification, "suicide"))
            suicide++;
        else if (strstr(r.classification, "simple ko"))
            ko++;
        else
            psk++;
    }
    free(csv);
    /* 9 longer cycles (2 of them called "simple KO" by CGOS), 1 simple ko, 1 suicide */
    assert_int_equal(games, 11);
    assert_int_equal(psk, 9);
    assert_int_equal(ko, 1);
    assert_int_equal(suicide, 1);
    return games;
}

static void test_cgos_fixtures(void **state)
{
    (void)state;
    char dir[512], csv[600];
    snprintf(dir, sizeof dir, "%s/go-cgos", tu_fixtures_dir());
    snprintf(csv, sizeof csv, "%s/cgos_illegal_final_moves.csv", dir);
    int n = run_csv(csv, dir);
    tu_note("CGOS illegal final moves (tests/fixtures/go-cgos): %d games", n);
}

static void test_cgos_shared(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("shared data absent: CGOS games from ../shared/data not run");
        return;
    }
    char dir[512], csv[600];
    snprintf(dir, sizeof dir, "%s/go-games/gnugo-regression-games/cgos", shared);
    snprintf(csv, sizeof csv,
             "%s/go-games/gnugo-regression-games/_expected/cgos_illegal_final_moves.csv", shared);
    int n = run_csv(csv, dir);
    tu_note("CGOS illegal final moves (%s): %d games", dir, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cgos_fixtures),
        cmocka_unit_test(test_cgos_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

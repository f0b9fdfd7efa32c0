/* tests/board/test_go_score_corpus.c — scoring and dead-stone estimation on real final positions.
 *
 * 1. GNU Go self-play games played out to the end (every dead stone captured), RE = the exact
 *    Tromp-Taylor area result: the count must give RE for every game, area and territory counts
 *    must differ by exactly the difference in stones played, and the estimator must find
 *    nothing dead. Runs on the fixtures copy (always) and on the whole shared set (if present).
 * 2. GNU Go's regression scoring games (score.tst, score2.tst): estimate the dead stones, fill
 *    the dame, count under Japanese rules and compare with GNU Go's expected final_score.
 * 3. Counted games of the GNU Go regression set that end with two passes: does the estimated
 *    count name the winner of RE[]? */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "board/go.h"
#include "board/go_score_internal.h"
#include "tests/board/test_go_score_sgf.h"
#include "tests/testutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Measured figures (printed by the tests), asserted as floors: raise them when the estimator
 * improves. The estimator and the replay are deterministic. */
#define SCORING_EXACT_FLOOR 45  /* of 56 GNU Go scoring-regression games */
#define WINNER_AGREE_FLOOR  308 /* of 339 counted games ending in two passes */
#define TT_WRONG_DEAD_MAX   0   /* stones marked dead in played-out games (there are none) */

static bool verbose(void)
{
    return getenv("KIFUCAM_VERBOSE") != NULL;
}

static struct ts_game *load(const char *path)
{
    size_t len;
    char *text = tu_read_file(path, &len);
    char err[160];
    struct ts_game *t = malloc(sizeof *t);
    assert_non_null(t);
    if (!text) fail_msg("%s: cannot read", path);
    if (!ts_parse(text, t, err, sizeof err)) fail_msg("%s: %s", path, err);
    free(text);
    return t;
}

static int stones_played(const struct ts_game *t, enum go_color c)
{
    int n = 0;
    for (int i = 0; i < t->n; i++)
        n += !t->ev[i].setup && t->ev[i].color == c && t->ev[i].point != GO_PASS;
    return n;
}

/* ---- 1. Tromp-Taylor games --------------------------------------------------------------- */

struct tt_stats {
    int games, exact, identity, wrong_dead_games, wrong_dead_stones;
};

static void tt_one(const char *path, void *ctx)
{
    struct tt_stats *st = ctx;
    struct ts_game *t = load(path);
    struct go_rules area = *go_rules_find("tromp-taylor");
    area.komi = t->komi;
    struct go_rules terr = area;
    terr.scoring = GO_SCORE_TERRITORY;
    terr.tax = GO_TAX_NONE;
    struct go_game *g = ts_replay(t, &area), *gt = ts_replay(t, &terr);
    assert_non_null(g);
    assert_non_null(gt);
    assert_int_equal(go_game_state(g), GO_ENDED_PASSES);

    struct go_score s = go_game_score(g, NULL), st_ = go_game_score(gt, NULL);
    st->games++;
    if (strcmp(s.result, t->result) == 0)
        st->exact++;
    else
        tu_note("%s: counted %s, RE %s", path, s.result, t->result);
    /* area - territory = stones Black played - stones White played (each capture moves one
     * point from the loser's stones to the taker's prisoners on both sides of the identity). */
    double expect = stones_played(t, GO_BLACK) - stones_played(t, GO_WHITE);
    if (s.margin - st_.margin == expect)
        st->identity++;
    else
        tu_note("%s: area %g - territory %g != %g", path, s.margin, st_.margin, expect);

    uint8_t dead[GO_POINTS];
    go_estimate_dead(g, dead, NULL);
    int wrong = 0;
    for (int pt = 0; pt < GO_POINTS; pt++) wrong += dead[pt] != 0;
    if (wrong) {
        st->wrong_dead_games++;
        st->wrong_dead_stones += wrong;
        if (verbose()) tu_note("%s: %d stones wrongly marked dead", path, wrong);
    }
    go_game_free(g);
    go_game_free(gt);
    free(t);
}

static void run_tt(const char *dir, const char *label)
{
    static const char *const sgf[] = {".sgf", NULL};
    struct tt_stats st = {0};
    int n = tu_walk(dir, sgf, tt_one, &st);
    assert_true(n > 0);
    tu_note("%s (%s): %d games, count == RE in %d, area/territory identity in %d, estimator "
            "marked stones dead in %d games (%d stones)",
            label, dir, st.games, st.exact, st.identity, st.wrong_dead_games, st.wrong_dead_stones);
    assert_int_equal(st.exact, st.games);
    assert_int_equal(st.identity, st.games);
    assert_true(st.wrong_dead_stones <= TT_WRONG_DEAD_MAX);
}

static void test_tt_fixtures(void **state)
{
    (void)state;
    run_tt(tu_path(tu_fixtures_dir(), "go-scoring"), "fixtures");
}

static void test_tt_shared_corpus(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("shared data absent: gnugo-selfplay-tt corpus skipped");
        TU_SKIP();
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/go-games/gnugo-selfplay-tt", shared);
    run_tt(dir, "gnugo-selfplay-tt");
}

/* ---- estimate, fill dame, count ---------------------------------------------------------- */

static struct go_score estimate_and_count(const struct go_game *g, int *ndead)
{
    uint8_t dead[GO_POINTS];
    go_estimate_dead(g, dead, NULL);
    *ndead = 0;
    for (int pt = 0; pt < GO_POINTS; pt++) *ndead += dead[pt] != 0;
    return go_game_count(g, dead);
}

/* ---- 2. GNU Go's scoring regression ------------------------------------------------------- */

struct tst_stats {
    int tests, exact, winner;
};

static void run_tst(const char *games_root, const char *tst_path, struct tst_stats *st)
{
    size_t len;
    char *text = tu_read_file(tst_path, &len);
    char sgf_rel[256] = "";
    assert_non_null(text);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "loadsgf games/", 14) == 0) {
            snprintf(sgf_rel, sizeof sgf_rel, "%s", line + 14);
            char *end = sgf_rel + strlen(sgf_rel);
            while (end > sgf_rel && isspace((unsigned char)end[-1])) *--end = '\0';
        } else if (strncmp(line, "#? [", 4) == 0 && sgf_rel[0]) {
            char want[32];
            size_t k = 0;
            for (const char *p = line + 4; *p && *p != ']' && k + 1 < sizeof want; p++)
                if (*p != '\\') want[k++] = *p;
            want[k] = '\0';
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", games_root, sgf_rel);
            if (access(path, R_OK) != 0) { /* score.tst also names games not copied */
                tu_note("%s: not in the shared set, skipped", sgf_rel);
                sgf_rel[0] = '\0';
                continue;
            }
            struct ts_game *t = load(path);
            struct go_rules r = *go_rules_find("japanese");
            r.komi = t->komi;
            struct go_game *g = ts_replay(t, &r);
            int ndead;
            struct go_score s = estimate_and_count(g, &ndead);
            st->tests++;
            st->exact += strcmp(s.result, want) == 0;
            st->winner += s.result[0] == want[0];
            if (verbose() || strcmp(s.result, want) != 0)
                tu_note("%s: estimated %s (%d dead), GNU Go %s", sgf_rel, s.result, ndead, want);
            go_game_free(g);
            free(t);
            sgf_rel[0] = '\0';
        }
    }
    free(text);
}

static void test_gnugo_scoring_regression(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("shared data absent: GNU Go scoring regression skipped");
        TU_SKIP();
    }
    char root[4096], tst[4200];
    struct tst_stats st = {0};
    snprintf(root, sizeof root, "%s/go-games/gnugo-regression-games", shared);
    snprintf(tst, sizeof tst, "%s/_expected/score.tst", root);
    run_tst(root, tst, &st);
    snprintf(tst, sizeof tst, "%s/_expected/score2.tst", root);
    run_tst(root, tst, &st);
    tu_note("GNU Go scoring regression (score.tst + score2.tst, Japanese, estimated dead stones, "
            "dame filled): %d of %d exact, winner agrees in %d",
            st.exact, st.tests, st.winner);
    assert_int_equal(st.tests, 56);
    assert_true(st.exact >= SCORING_EXACT_FLOOR);
}

/* ---- 3. Winner of counted games ------------------------------------------------------------ */

struct winner_stats {
    int counted, agree;
};

static const struct go_rules *rules_for(const char *ru)
{
    const struct go_rules *r = ru[0] ? go_rules_find(ru) : NULL;
    if (!r && strstr(ru, "Tromp")) r = go_rules_find("tromp-taylor");
    if (!r && (strstr(ru, "Zealand") || strstr(ru, "NZ"))) r = go_rules_find("nz");
    return r ? r : go_rules_find("japanese");
}

static void winner_one(const char *path, void *ctx)
{
    struct winner_stats *st = ctx;
    if (strstr(path, "/scoring/")) return; /* no RE[]; measured above */
    struct ts_game *t = load(path);
    bool counted = (t->result[0] == 'B' || t->result[0] == 'W') && t->result[1] == '+' &&
                   isdigit((unsigned char)t->result[2]);
    if (counted && t->two_passes_at_end) {
        struct go_rules r = *rules_for(t->rules);
        r.komi = t->komi;
        struct go_game *g = ts_replay(t, &r);
        int ndead;
        struct go_score s = estimate_and_count(g, &ndead);
        st->counted++;
        if (s.result[0] == t->result[0])
            st->agree++;
        else if (verbose())
            tu_note("%s: estimated %s (%d dead), RE %s", path, s.result, ndead, t->result);
        go_game_free(g);
    }
    free(t);
}

static void test_regression_games_winner(void **state)
{
    (void)state;
    static const char *const sgf[] = {".sgf", NULL};
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("shared data absent: GNU Go regression games skipped");
        TU_SKIP();
    }
    char root[4096];
    struct winner_stats st = {0};
    snprintf(root, sizeof root, "%s/go-games/gnugo-regression-games", shared);
    int n = tu_walk(root, sgf, winner_one, &st);
    tu_note("GNU Go regression games: %d files, %d counted games ending in two passes, estimated "
            "winner agrees with RE in %d",
            n, st.counted, st.agree);
    assert_int_equal(st.counted, 339);
    assert_true(st.agree >= WINNER_AGREE_FLOOR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt_fixtures),
        cmocka_unit_test(test_tt_shared_corpus),
        cmocka_unit_test(test_gnugo_scoring_regression),
        cmocka_unit_test(test_regression_games_winner),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/app/test_check_corpus.c — real records through `kifucam check`'s replay:
 * every clean game gives zero flags; every known anomaly of the manifests is flagged with its kind
 * and count; counted games ended by passes are scored and compared with RE[]. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/check_go.h"
#include "tests/app/manifest.h"
#include "tests/testutil.h"

struct tally {
    int by_verdict[16];
    int two_moves, after_end, repetition, other;
    char first[300];
};

static void collect(const struct guard_event *e, void *arg)
{
    struct tally *t = arg;
    if (e->kind == GUARD_ILLEGAL_MOVE && e->reason >= 0 && e->reason < 16)
        t->by_verdict[e->reason]++;
    else if (e->kind == GUARD_TWO_MOVES)
        t->two_moves++;
    else if (e->kind == GUARD_AFTER_END)
        t->after_end++;
    else if (e->kind == GUARD_REPETITION)
        t->repetition++;
    else
        t->other++;
    if (!t->first[0])
        snprintf(t->first, sizeof t->first, "ply %d %s: %s", e->ply, guard_kind_name(e->kind),
                 e->text);
}

struct corpus_stats {
    int games, clean_games, clean_ok, anomaly_games, anomaly_ok, unreadable;
    int scored, winner_agree, margin_agree;
    long moves;
};

/* What the manifest's independent replay says we must flag, under the rules the game is replayed
 * with. Repetitions count only where the rules make them illegal or a referee matter. */
static bool matches_manifest(const struct manifest_row *row, const struct go_rules *rules,
                             const struct tally *t, char *why, size_t len)
{
    int occupied = manifest_event(row, "occupied");
    int suicide = manifest_event(row, "suicide_single");
    int multi = manifest_event(row, "suicide_multi");
    int ko = manifest_event(row, "simple_ko_violation");
    int prep = manifest_event(row, "positional_repeat");
    int srep = manifest_event(row, "situational_repeat");
    int two = manifest_event(row, "same_colour_twice");
    int want_suicide = suicide + (rules->suicide == GO_SUICIDE_NONE ? multi : 0);
    if (rules->suicide == GO_SUICIDE_ALL) want_suicide = 0;
    int got_rep = t->by_verdict[GO_ILLEGAL_KO] + t->by_verdict[GO_ILLEGAL_SUPERKO] + t->repetition;
    bool ok = t->by_verdict[GO_ILLEGAL_OCCUPIED] == occupied &&
              t->by_verdict[GO_ILLEGAL_SUICIDE] == want_suicide && t->two_moves == two &&
              t->after_end == 0 && t->other == 0;
    int want_rep = -1; /* -1: not predictable from the manifest */
    if (rules->ko == GO_KO_SIMPLE && rules->repetition == GO_REPEAT_ALLOWED) want_rep = ko;
    /* An immediate ko retake is also a whole-board repeat: the manifest counts it in both. */
    if (rules->ko == GO_KO_SIMPLE && rules->repetition == GO_REPEAT_REFEREE) want_rep = prep;
    if (rules->ko == GO_KO_POSITIONAL) want_rep = prep;
    if (rules->ko == GO_KO_SITUATIONAL) want_rep = srep;
    /* A move on an occupied point or a suicide leaves the board as it was: the manifest's replay
     * counts that as a repeat (and, two plies on, as a ko retake) where we name the first rule. */
    int noops = occupied + suicide + multi;
    if (want_rep >= 0 && (got_rep > want_rep || got_rep < want_rep - noops)) ok = false;
    int got_ko = t->by_verdict[GO_ILLEGAL_KO];
    if (want_rep < 0 && (got_ko > ko || got_ko < ko - noops)) ok = false;
    if (!ok)
        snprintf(why, len,
                 "under %s: occupied %d/%d suicide %d/%d two-moves %d/%d repetition %d/%d "
                 "after-end %d other %d; first: %s",
                 rules->name, t->by_verdict[GO_ILLEGAL_OCCUPIED], occupied,
                 t->by_verdict[GO_ILLEGAL_SUICIDE], want_suicide, t->two_moves, two, got_rep,
                 want_rep, t->after_end, t->other, t->first);
    return ok;
}

static int run_corpus(const char *dir, const char *manifest, const char *label,
                      struct corpus_stats *st)
{
    struct manifest_row *rows;
    char mpath[4200];
    snprintf(mpath, sizeof mpath, "%s/%s", dir, manifest);
    int n = manifest_read(mpath, &rows);
    if (n < 0) return -1;
    int failures = 0;
    for (int i = 0; i < n; i++) {
        char path[4700];
        snprintf(path, sizeof path, "%s/%s", dir, rows[i].file);
        struct go_record **games = NULL;
        struct sgf_error err = {0};
        int ng = sgf_read_file(path, &games, &err);
        if (ng < 1) {
            st->unreadable++;
            printf("# unreadable %s: %s\n", path, err.message);
            failures++;
            if (ng == 0) free(games);
            continue;
        }
        struct tally t = {0};
        struct check_go_result res;
        check_go_record(games[0], NULL, collect, &t, &res);
        const struct go_rules *rules = go_rules_find(res.rules_name);
        st->games++;
        st->moves += res.moves;
        if (res.scored) {
            st->scored++;
            st->winner_agree += res.winner_agrees;
            st->margin_agree += res.margin_agrees;
        }
        char why[600];
        bool clean = rows[i].events[0] == '\0';
        if (clean) {
            st->clean_games++;
            if (res.flags == 0)
                st->clean_ok++;
            else {
                failures++;
                printf("# %s %s: clean game flagged %d times under %s; first: %s\n", label,
                       rows[i].file, res.flags, res.rules_name, t.first);
            }
        } else {
            st->anomaly_games++;
            if (matches_manifest(&rows[i], rules, &t, why, sizeof why))
                st->anomaly_ok++;
            else {
                failures++;
                printf("# %s %s: events %s not matched %s\n", label, rows[i].file, rows[i].events,
                       why);
            }
        }
        for (int g = 0; g < ng; g++) go_record_free(games[g]);
        free(games);
    }
    free(rows);
    tu_note(
        "%s: %d games, %ld moves: clean %d/%d with zero flags, anomalies %d/%d as in the "
        "manifest, %d unreadable; counted games ended by passes: %d, winner agrees %d, margin %d",
        label, st->games, st->moves, st->clean_ok, st->clean_games, st->anomaly_ok,
        st->anomaly_games, st->unreadable, st->scored, st->winner_agree, st->margin_agree);
    return failures;
}

static void test_fixture_corpus(void **state)
{
    (void)state;
    struct corpus_stats st = {0};
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", tu_path(tu_fixtures_dir(), "go-check"));
    int failures = run_corpus(dir, "manifest.csv", "fixtures/go-check", &st);
    assert_true(st.games > 50);
    assert_int_equal(failures, 0);
}

static void test_shared_corpora(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("../shared/data absent: full Go corpora not run (fixtures only)");
        TU_SKIP();
    }
    static const char *const corpora[] = {"go-games/foxwq-pro", "go-games/gnugo-regression-games",
                                          "go-games/computer-go-dataset-ai",
                                          "go-games/gnugo-selfplay-tt"};
    int failures = 0, games = 0;
    for (size_t i = 0; i < sizeof corpora / sizeof corpora[0]; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", shared, corpora[i]);
        struct corpus_stats st = {0};
        int f = run_corpus(dir, "manifest.csv", corpora[i], &st);
        assert_true(f >= 0);
        failures += f;
        games += st.games;
    }
    assert_true(games > 4000);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_corpus),
        cmocka_unit_test(test_shared_corpora),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

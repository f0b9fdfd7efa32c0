/* tests/board/test_go_corpus.c — real game records from ../shared/data replayed under their own
 * RU[] rules (unknown or absent: Japanese). Runs only when the shared data is present.
 *
 * What must hold: games the research replay found clean give no verdict at all; in the GNU Go
 * regression games no stone is ever illegal (only records with a White first move or a third pass);
 * in the Fox anomalies each file's occupied / suicide / two-in-a-row events match the research
 * manifest; and the Fox game that ended in a draw by triple ko (1461856565019999405, RE[draw])
 * ends without result at ply 197 under Japanese rules. */
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
static struct go_verdict verdicts[2048];

struct tally {
    int files, unparsed, flagged;
    int kinds[GO_REPETITION_REFEREE + 1];
    int also_suicide;
};

/* Replay one record under its RU rules; adds to t and returns the game (caller frees) or NULL. */
static struct go_game *replay_file(const char *path, struct tally *t)
{
    size_t len;
    char *text = tu_read_file(path, &len);
    if (!text) fail_msg("cannot read %s", path);
    t->files++;
    const struct go_rules *r = NULL;
    const char *ru = strstr(text, "RU[");
    if (ru) {
        char name[64];
        if (sscanf(ru + 3, "%63[^]]", name) == 1) r = go_rules_find(name);
    }
    if (!r) r = go_rules_find("japanese");
    bool ok = mini_sgf_parse(text, &sgf);
    free(text);
    if (!ok || sgf.w < GO_MIN || sgf.h < GO_MIN) {
        t->unparsed++;
        return NULL;
    }
    struct go_game *g = mini_replay(&sgf, r, -1, verdicts);
    assert_non_null(g);
    assert_int_equal(go_game_ply(g), sgf.moves);
    bool flagged = false;
    for (int i = 0; i < sgf.moves; i++) {
        if (verdicts[i].kind == GO_LEGAL) continue;
        flagged = true;
        t->kinds[verdicts[i].kind]++;
        if (strstr(verdicts[i].text, "; also suicide")) t->also_suicide++;
    }
    t->flagged += flagged;
    return g;
}

static void tally_file(const char *path, void *ctx)
{
    go_game_free(replay_file(path, ctx));
}

static struct tally walk(const char *shared, const char *rel)
{
    static const char *const suffixes[] = {".sgf", NULL};
    struct tally t = {0};
    char dir[600];
    snprintf(dir, sizeof dir, "%s/go-games/%s", shared, rel);
    int n = tu_walk(dir, suffixes, tally_file, &t);
    if (n < 0) fail_msg("cannot open %s", dir);
    tu_note("%s: %d records, %d not read by the test's mini reader, %d with a verdict "
            "(occupied %d, suicide %d, ko %d, superko %d, wrong-turn %d, after-end %d, "
            "no-result %d)",
            rel, t.files, t.unparsed, t.flagged, t.kinds[GO_ILLEGAL_OCCUPIED],
            t.kinds[GO_ILLEGAL_SUICIDE], t.kinds[GO_ILLEGAL_KO], t.kinds[GO_ILLEGAL_SUPERKO],
            t.kinds[GO_WRONG_TURN], t.kinds[GO_AFTER_END], t.kinds[GO_REPETITION_NO_RESULT]);
    return t;
}

static int illegal_stones(const struct tally *t)
{
    return t->kinds[GO_ILLEGAL_OFF_BOARD] + t->kinds[GO_ILLEGAL_OCCUPIED] +
           t->kinds[GO_ILLEGAL_SUICIDE] + t->kinds[GO_ILLEGAL_KO] + t->kinds[GO_ILLEGAL_SUPERKO] +
           t->kinds[GO_REPETITION_NO_RESULT] + t->kinds[GO_REPETITION_REFEREE];
}

static void test_clean_corpora(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("shared data absent: real-record corpora not run");
        return;
    }
    struct tally t = walk(shared, "gnugo-regression-games");
    assert_true(t.files >= 599);
    assert_int_equal(t.unparsed, 0);
    assert_int_equal(illegal_stones(&t), 0);
    t = walk(shared, "gnugo-selfplay-tt");
    assert_true(t.files >= 350);
    assert_int_equal(t.flagged, 0);
    t = walk(shared, "foxwq-pro/clean");
    assert_true(t.files >= 2700);
    assert_int_equal(t.flagged, 0);
    t = walk(shared, "computer-go-dataset-ai");
    assert_int_equal(illegal_stones(&t), 0);
}

/* The count of name=N in a manifest events field, 0 if absent. */
static int event_count(const char *events, const char *name)
{
    const char *p = strstr(events, name);
    return p && p[strlen(name)] == '=' ? atoi(p + strlen(name) + 1) : 0;
}

static void test_fox_anomalies_match_manifest(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("shared data absent: Fox anomalies not run");
        return;
    }
    char path[700];
    snprintf(path, sizeof path, "%s/go-games/foxwq-pro/manifest.csv", shared);
    size_t len;
    char *csv = tu_read_file(path, &len);
    if (!csv) fail_msg("cannot read %s", path);
    int files = 0, checked = 0;
    char *save = NULL;
    for (char *line = strtok_r(csv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "anomalies/", 10) != 0) continue;
        /* file,SZ,HA,KM,RU,RE,result_class,moves,passes,trailing_passes,events,... */
        char *field[12];
        int n = 0;
        for (char *s = line; n < 12;) {
            field[n++] = s;
            char *comma = strchr(s, ',');
            if (!comma) break;
            *comma = '\0';
            s = comma + 1;
        }
        if (n < 11) fail_msg("manifest line for %s has %d fields", field[0], n);
        files++;
        char sgf_path[700];
        snprintf(sgf_path, sizeof sgf_path, "%s/go-games/foxwq-pro/%s", shared, field[0]);
        struct tally t = {0};
        struct go_game *g = replay_file(sgf_path, &t);
        if (!g) continue;
        checked++;
        const char *ev = field[10];
        int suicides = event_count(ev, "suicide_single") + event_count(ev, "suicide_multi");
        if (t.kinds[GO_ILLEGAL_OCCUPIED] != event_count(ev, "occupied") ||
            t.kinds[GO_ILLEGAL_SUICIDE] + t.also_suicide != suicides ||
            t.kinds[GO_WRONG_TURN] != event_count(ev, "same_colour_twice"))
            fail_msg("%s: occupied %d, suicide %d, wrong-turn %d; manifest says %s", field[0],
                     t.kinds[GO_ILLEGAL_OCCUPIED], t.kinds[GO_ILLEGAL_SUICIDE] + t.also_suicide,
                     t.kinds[GO_WRONG_TURN], ev);
        if (strstr(field[0], "1461856565019999405")) {
            /* the triple ko that Fox scored as a draw */
            assert_int_equal(verdicts[196].kind, GO_REPETITION_NO_RESULT);
            assert_int_equal(verdicts[196].repeats_ply, 191);
            for (int i = 0; i < 196; i++) assert_int_equal(verdicts[i].kind, GO_LEGAL);
        }
        go_game_free(g);
    }
    free(csv);
    assert_true(files >= 277);
    assert_true(checked >= files - 1);
    tu_note("foxwq-pro anomalies: %d of %d records match the manifest's occupied / suicide / "
            "two-in-a-row events",
            checked, files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_corpora),
        cmocka_unit_test(test_fox_anomalies_match_manifest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/ruleguard/test_go_observe_corpus.c — real Go games as noisy observation streams
 * (misreads at 0.1% per point and observation, hands, slow prisoners, repeats, jitter) through the
 * text format into the observation guard: zero flags, and exactly the record's moves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/ruleguard/go_corpus.h"
#include "tests/ruleguard/obs_replay.h"
#include "tests/testutil.h"

/* Every clean shared game (about 4,400: ~30 s optimised); under AddressSanitizer (~100 s CPU
 * for all of them, too slow for CI) an even sample of 600. OBS_MAX_SHARED sets the number. */
#define MAX_SHARED TU_ASAN_LIGHT(100000, 600)

/* OBS_LIST=file: replay only the games whose path contains one of the file's lines (the failing
 * games of an earlier run, to try a change quickly; seeds stay those of the whole run). */
static char **load_list(int *n)
{
    *n = 0;
    const char *path = getenv("OBS_LIST");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) return NULL;
    char **list = NULL, line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        char **grown = realloc(list, (size_t)(*n + 1) * sizeof *list);
        if (!grown) break;
        list = grown;
        list[(*n)++] = strdup(line);
    }
    fclose(f);
    return list;
}

static bool listed(char **list, int n, const char *path)
{
    for (int k = 0; k < n; k++)
        if (strstr(path, list[k])) return true;
    return false;
}

/* The record's moves and what each captured, for reading a trace (OBS_TRACE). */
static void trace_record(const struct gen_stream *s)
{
    const struct go_rules *rules = s->hdr.rules[0] ? go_rules_find(s->hdr.rules) : NULL;
    struct go_game *g = go_game_new(s->hdr.w, s->hdr.h, rules);
    for (int i = 0; i < s->hdr.nsetup; i++)
        go_game_setup(g, s->hdr.setup[i].color, s->hdr.setup[i].point);
    if (s->hdr.handicap >= 2) go_game_set_handicap(g, s->hdr.handicap);
    if (s->hdr.to_move != GO_EMPTY) go_game_set_to_move(g, s->hdr.to_move);
    for (int k = 0; k < s->nmoves; k++) {
        char name[8];
        uint8_t before[GO_POINTS];
        for (int p = 0; p < GO_POINTS; p++) before[p] = (uint8_t)go_game_at(g, p);
        if (go_game_to_move(g) != s->moves[k].color) go_game_set_to_move(g, s->moves[k].color);
        go_game_play(g, s->moves[k]);
        printf("record %d %c %s", k + 1, s->moves[k].color == GO_BLACK ? 'B' : 'W',
               go_point_name(s->moves[k].point, s->hdr.h, name));
        for (int p = 0; p < GO_POINTS; p++)
            if (before[p] != GO_EMPTY && go_game_at(g, p) == GO_EMPTY)
                printf(" x%s", go_point_name(p, s->hdr.h, name));
        printf("\n");
    }
    go_game_free(g);
}

static void test_clean_games(void **state)
{
    (void)state;
    struct go_corpus corpus;
    /* OBS_MAX_SHARED / OBS_SEED widen the run by hand (default: the sample below, seed 0) */
    const char *env_max = getenv("OBS_MAX_SHARED"), *env_seed = getenv("OBS_SEED");
    go_corpus_load(&corpus, env_max ? atoi(env_max) : MAX_SHARED);
    uint64_t seed0 = env_seed ? strtoull(env_seed, NULL, 10) : 0;
    struct gen_noise noise;
    gen_noise_default(&noise);
    int games = 0, skipped = 0, bad_moves = 0, flagged = 0, unreadable = 0;
    int fx_games = 0, fx_bad = 0; /* the fixtures alone: must be perfect */
    int by_kind[GUARD_KIND_COUNT] = {0};
    int by_class[RC_COUNT] = {0}; /* failing games by the situation at the first failure */
    long observations = 0, moves = 0;
    clock_t t0 = clock();
    /* OBS_TRACE=substring: replay only the games whose path contains it, with a trace */
    const char *only = getenv("OBS_TRACE");
    int nlist = 0;
    char **list = load_list(&nlist);
    for (int i = 0; i < corpus.n; i++) {
        if (only && !strstr(corpus.paths[i], only)) continue;
        if (list && !listed(list, nlist, corpus.paths[i])) continue;
        replay_trace = only ? stdout : NULL;
        struct go_record *r = go_corpus_read(corpus.paths[i]);
        if (!r) {
            unreadable++;
            printf("# unreadable %s\n", corpus.paths[i]);
            continue;
        }
        struct gen_stream s;
        if (!gen_go_stream(r, go_corpus_rules(corpus.rules[i]), GF_NONE,
                           seed0 * 100003 + (uint64_t)i + 1, &noise, &s)) {
            skipped++;
            go_record_free(r);
            continue;
        }
        if (only) trace_record(&s);
        struct replay_result res;
        bool ok = replay_go(&s, NULL, &res);
        if (!ok) printf("# %s: replay failed: %s\n", corpus.paths[i], res.error);
        char why[200] = "";
        if (ok && !replay_moves_equal(&s, &res, why, sizeof why)) {
            bad_moves++;
            printf("# %s: %s\n", corpus.paths[i], why);
        }
        bool fixture = i < corpus.fixtures;
        fx_games += fixture;
        fx_bad += fixture && (res.nflags || !ok || why[0]);
        if (ok && (res.nflags || why[0])) {
            int ply = replay_first_diff(&s, &res);
            for (int k = 0; k < res.nflags && k < REPLAY_MAX_FLAGS; k++)
                if (!ply || res.flags[k].ply < ply) ply = res.flags[k].ply;
            enum replay_class rc = replay_classify(&s, ply);
            by_class[rc]++;
            printf("# %s: class: %s (ply %d)\n", corpus.paths[i], replay_class_name(rc), ply);
        }
        if (res.nflags) {
            flagged++;
            for (int k = 0; k < res.nflags && k < REPLAY_MAX_FLAGS; k++) {
                by_kind[res.flags[k].kind]++;
                if (k < 2)
                    printf("# %s: ply %d %s: %s\n", corpus.paths[i], res.flags[k].ply,
                           guard_kind_name(res.flags[k].kind), res.flags[k].text);
            }
        }
        games++;
        observations += res.observations;
        moves += s.nmoves;
        replay_result_free(&res);
        gen_stream_free(&s);
        go_record_free(r);
    }
    tu_note("corpus: %d fixture games + %d of %d clean shared games (%s)%s", corpus.fixtures,
            corpus.shared, corpus.shared_available,
            corpus.shared_available ? "../shared/data/go-games, sampled evenly" : "absent",
            corpus.shared < corpus.shared_available && !env_max
                ? "; sampled: AddressSanitizer build, run the optimised build for all"
                : "");
    tu_note("replayed %d games (%ld moves, %ld observations), %d skipped (setup between moves "
            "or < 12 moves), %d unreadable, %.1f s",
            games, moves, observations, skipped, unreadable,
            (double)(clock() - t0) / CLOCKS_PER_SEC);
    tu_note("noise: misreads %.2f%% per point and observation (%.0f%% of them read sure), %.0f%% "
            "of right readings in doubt, a hand over %.0f%% of repeated views, prisoners off over "
            "several views, repeats %.0f%%, same frame twice %.0f%%, 1.5-12 s between views",
            noise.misread * 100, noise.misread_sure * 100, noise.doubtful * 100,
            noise.occlude * 100, noise.repeat * 60, noise.duplicate * 100);
    tu_note("games with false flags: %d; games whose moves differ from the record: %d", flagged,
            bad_moves);
    for (int k = 0; k < GUARD_KIND_COUNT; k++)
        if (by_kind[k]) tu_note("  false %s: %d", guard_kind_name((enum guard_kind)k), by_kind[k]);
    for (int k = 0; k < RC_COUNT; k++)
        if (by_class[k])
            tu_note("  failing games, %s: %d", replay_class_name((enum replay_class)k),
                    by_class[k]);
    tu_note("fixture games with a false flag or a wrong move: %d of %d", fx_bad, fx_games);
    go_corpus_free(&corpus);
    for (int k = 0; k < nlist; k++) free(list[k]);
    free(list);
    if (only || list) return; /* a trace or a list by hand: no verdict */
    assert_true(fx_games >= 30);
    assert_int_equal(fx_bad, 0);
    assert_int_equal(unreadable, 0);
    /* The corpus must not shrink unseen (handicap games were once skipped as "setup"). */
    assert_true(skipped * 100 <= games);
    /* Not clean yet on the shared games (issue 8 wants zero). Games with false flags / wrong
     * moves of 4,482: seed 0 0/0, seed 3 0/1 (1/1 and 5/4 before stones thrown in and captured
     * before any view were read, a ko retaken was not taken for a prisoner left, and a stone read
     * gone was not flagged illegal at once; tests/ruleguard/test_go_observe_fast.c); seed 1 was
     * 0/0, seed 2 0/1 (a last stone read once, then hidden). What is left: two eyes that fit an
     * unseen stone alike, that last stone. Keep it from getting worse (a rate, with room for a
     * smaller sample's luck). */
    assert_true(flagged <= 1 + games / 2000);
    assert_true(bad_moves <= 1 + games / 2000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clean_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

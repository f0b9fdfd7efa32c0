/* tests/ruleguard/test_shogi_observe_faults.c — one fault injected per stream into real shogi
 * games (at least 200 streams per fault kind), each restored the way a referee restores a board:
 * every fault must be flagged at its ply with its kind (the Turnierregeln number for illegal
 * moves), nothing else flagged, and the moves recorded equal to the game's. Prints the confusion
 * table: the fault injected against the flag raised at its ply. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ruleguard/shogi_corpus.h"
#include "tests/ruleguard/shogi_obs_replay.h"
#include "tests/testutil.h"

#define PER_FAULT TU_ASAN_LIGHT(200, 60) /* ASan: memory faults; the figures are native */

static const char *const classes[] = {
    "1 dead",  "2 nifu", "3 uchifu", "4 perpet", "5 impossible", "6 takeback", "7 opp piece",
    "8 check", "9 two",  "hidden",   "hand+",    "disturbed",    "other",      "none"};
#define NCLASS ((int)(sizeof classes / sizeof classes[0]))

static int class_index(const char *name)
{
    for (int i = 0; i < NCLASS; i++)
        if (!strcmp(classes[i], name)) return i;
    return NCLASS - 2;
}

/* The class of the flag raised at the fault's ply, preferring the expected one. */
static int detected(const struct sgen_stream *s, const struct sreplay_result *r)
{
    int want = class_index(sgen_fault_class(s->fault)), got = NCLASS - 1;
    for (int k = 0; k < r->nflags && k < SREPLAY_MAX_FLAGS; k++) {
        if (r->flags[k].ply != s->fault_ply) continue;
        int c = class_index(sgen_flag_class(r->flags[k].kind, r->flags[k].reason));
        if (c == want) return c;
        got = c;
    }
    return got;
}

static void test_faults(void **state)
{
    (void)state;
    struct shogi_corpus corpus;
    shogi_corpus_load(&corpus, true);
    /* SHOGI_OBS_TRACE=name (and SHOGI_OBS_FAULT=number) replays that game with a trace */
    const char *only = getenv("SHOGI_OBS_TRACE"), *only_fault = getenv("SHOGI_OBS_FAULT");
    struct sgen_noise noise;
    sgen_noise_default(&noise);
    int table[SF_COUNT][NCLASS];
    memset(table, 0, sizeof table);
    int made[SF_COUNT] = {0}, tried[SF_COUNT] = {0}, bad_moves[SF_COUNT] = {0};
    int false_flags[SF_COUNT] = {0}, missed[SF_COUNT] = {0}, bad[SF_COUNT] = {0};
    /* the real games (not the tsume problems and fragments) in turn, several seeds each, until
     * every fault kind has PER_FAULT streams or the attempts run out */
    int usable = 0;
    for (int i = 0; i < corpus.n; i++) usable += corpus.games[i].nmoves >= 20;
    for (int f = SF_NONE + 1; f < SF_COUNT; f++) {
        if (only_fault && atoi(only_fault) != f) continue;
        for (int a = 0; made[f] < PER_FAULT && usable && a < PER_FAULT * 20; a++) {
            const struct shogi_corpus_game *gm = &corpus.games[a % corpus.n];
            if (gm->nmoves < 20) continue;
            if (only && strcmp(gm->name, only)) continue;
            tried[f]++;
            struct sgen_stream st;
            uint64_t seed = (uint64_t)a * 104729 + (uint64_t)f * 31 + 7;
            if (!sgen_stream_make(&gm->start, gm->moves, gm->nmoves, (enum sgen_fault)f, seed,
                                  &noise, a % 2 == 0, &st))
                continue;
            sreplay_trace = only ? stdout : NULL;
            struct sreplay_result r;
            if (!sreplay_run(&st, NULL, &r)) {
                printf("# %s: replay failed: %s\n", gm->name, r.error);
                missed[f]++;
                sgen_stream_free(&st);
                continue;
            }
            made[f]++;
            int seen = detected(&st, &r);
            table[f][seen]++;
            if (seen != class_index(sgen_fault_class((enum sgen_fault)f)))
                printf("# %s (%s, seed %llu): seen as %s\n", gm->name, st.fault_text,
                       (unsigned long long)seed, classes[seen]);
            char why[200] = "";
            if (!sreplay_moves_equal(&st, &r, why, sizeof why)) {
                bad_moves[f]++;
                printf("# %s (%s): %s\n", gm->name, st.fault_text, why);
            }
            int ff, ms;
            sreplay_compare_flags(&st, &r, &ff, &ms);
            false_flags[f] += ff;
            missed[f] += ms;
            bad[f] +=
                ff || ms || why[0] || seen != class_index(sgen_fault_class((enum sgen_fault)f));
            if (ff || ms)
                for (int k = 0; k < r.nflags && k < SREPLAY_MAX_FLAGS; k++)
                    printf("# %s (%s): ply %d %s (%d): %s\n", gm->name, st.fault_text,
                           r.flags[k].ply, guard_kind_name(r.flags[k].kind), r.flags[k].reason,
                           r.flags[k].text);
            sreplay_result_free(&r);
            sgen_stream_free(&st);
        }
    }
    tu_note("corpus: %d fixture games, %d shared games (%s)", corpus.fixtures, corpus.shared,
            corpus.shared_available ? "../shared/data" : "absent");
    char line[400];
    int len = snprintf(line, sizeof line, "%-15s %5s", "injected \\ seen", "n");
    for (int c = 0; c < NCLASS; c++)
        len += snprintf(line + len, sizeof line - (size_t)len, " %5.5s", classes[c]);
    tu_note("%s", line);
    for (int f = SF_NONE + 1; f < SF_COUNT; f++) {
        len =
            snprintf(line, sizeof line, "%-15s %5d", sgen_fault_name((enum sgen_fault)f), made[f]);
        for (int c = 0; c < NCLASS; c++)
            len += snprintf(line + len, sizeof line - (size_t)len, " %5d", table[f][c]);
        tu_note("%s", line);
    }
    for (int f = SF_NONE + 1; f < SF_COUNT; f++)
        tu_note("%-15s streams %d of %d tried; flagged right at its ply %d; other flags %d, "
                "missed flags %d, moves differ %d; streams with any of these %d",
                sgen_fault_name((enum sgen_fault)f), made[f], tried[f],
                table[f][class_index(sgen_fault_class((enum sgen_fault)f))], false_flags[f],
                missed[f], bad_moves[f], bad[f]);
    int corpus_shared = corpus.shared;
    shogi_corpus_free(&corpus);
    if (only) return;
    for (int f = SF_NONE + 1; f < SF_COUNT; f++) {
        /* 3) needs a pawn drop that mates: found in fewer games (test_shogi_observe_unit.c has
         * it too); every other fault finds its place in most games. */
        if (f != SF_UCHIFUZUME)
            assert_true(made[f] >= PER_FAULT);
        else if (corpus_shared) /* the fixtures' games have no mating pawn drop */
            assert_true(made[f] >= 20);
        /* Not every fault is caught yet (see the table: a foul seen under occlusion and
         * misreads, or one whose board looks like another foul): at least 97% must be flagged
         * right at their ply with nothing else wrong. */
        assert_true(bad[f] * 100 <= made[f] * 3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_faults)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/ruleguard/test_shogi_observe_corpus.c — every shogi game (the fixtures; with ../shared,
 * lishogi-400 and the shogi records too) as a noisy observation stream (misreads at 0.1% per
 * square and observation, occluded blobs over squares and komadai, komadai out of view, captured
 * pieces put on the komadai late, repeated and duplicated observations, timing jitter), through
 * the text format into the shogi observation guard: exactly the game's moves, and no flag the
 * recorded-move guard does not raise on the game itself. */
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

static void test_clean_games(void **state)
{
    (void)state;
    struct shogi_corpus corpus;
    shogi_corpus_load(&corpus, true);
    /* SHOGI_OBS_SEEDS widens the run by hand (default 2 seeds per game, one per camera side);
     * SHOGI_OBS_TRACE=name replays that game with a trace */
    const char *env_seeds = getenv("SHOGI_OBS_SEEDS"), *only = getenv("SHOGI_OBS_TRACE");
    int seeds = env_seeds ? atoi(env_seeds) : 2;
    struct sgen_noise noise;
    sgen_noise_default(&noise);
    int streams = 0, bad_moves = 0, false_flags = 0, missed = 0, failed = 0, fx_bad = 0;
    int bad_streams = 0; /* streams with any false or missed flag or a wrong move */
    int record_flags = 0, min_obs = 1 << 30, max_obs = 0;
    long observations = 0, plies = 0, events = 0;
    for (int i = 0; i < corpus.n; i++) {
        const struct shogi_corpus_game *gm = &corpus.games[i];
        if (only && strcmp(gm->name, only)) continue;
        sreplay_trace = only ? stdout : NULL;
        for (int s = 0; s < seeds; s++) {
            struct sgen_stream st;
            uint64_t seed = (uint64_t)i * 7919 + (uint64_t)s + 1;
            if (!sgen_stream_make(&gm->start, gm->moves, gm->nmoves, SF_NONE, seed, &noise,
                                  s % 2 == 0, &st)) {
                failed++;
                printf("# %s: no stream\n", gm->name);
                continue;
            }
            struct sreplay_result r;
            bool ok = sreplay_run(&st, NULL, &r);
            char why[200] = "";
            int ff = 0, ms = 0;
            if (!ok) {
                failed++;
                printf("# %s seed %d: replay failed: %s\n", gm->name, s, r.error);
            } else {
                if (!sreplay_moves_equal(&st, &r, why, sizeof why)) {
                    bad_moves++;
                    printf("# %s seed %d: %s\n", gm->name, s, why);
                }
                sreplay_compare_flags(&st, &r, &ff, &ms);
                for (int k = 0; k < r.nflags && k < SREPLAY_MAX_FLAGS && (ff || ms); k++)
                    printf("# %s seed %d: ply %d %s (%d): %s\n", gm->name, s, r.flags[k].ply,
                           guard_kind_name(r.flags[k].kind), r.flags[k].reason, r.flags[k].text);
            }
            false_flags += ff;
            missed += ms;
            record_flags += st.nexpect;
            fx_bad += gm->fixture && (!ok || ff || ms || why[0]);
            bad_streams += !ok || ff || ms || why[0];
            streams++;
            observations += r.observations;
            events += r.events;
            plies += st.nmoves;
            if (r.observations < min_obs) min_obs = r.observations;
            if (r.observations > max_obs) max_obs = r.observations;
            sreplay_result_free(&r);
            sgen_stream_free(&st);
        }
    }
    tu_note("corpus: %d fixture games, %d shared games (%s), %d unreadable files, %d games from "
            "an invalid start left out",
            corpus.fixtures, corpus.shared, corpus.shared_available ? "../shared/data" : "absent",
            corpus.unreadable, corpus.invalid_start);
    tu_note("%d streams (%d seeds per game, sente and gote at the bottom): %ld plies, %ld "
            "observations (%d..%d per game), %ld events",
            streams, seeds, plies, observations, min_obs, max_obs, events);
    tu_note("false flags: %d; recorded-move guard flags expected: %d, missed: %d; games whose "
            "moves differ: %d; streams not made or not read: %d",
            false_flags, record_flags, missed, bad_moves, failed);
    tu_note("streams with any of these: %d of %d (%.2f%%); of the fixture streams: %d", bad_streams,
            streams, streams ? 100.0 * bad_streams / streams : 0.0, fx_bad);
    shogi_corpus_free(&corpus);
    if (only) return;
    assert_true(streams >= 40);
    assert_int_equal(failed, 0);
    /* Every stream replays perfectly: no false flag, no missed flag, the game's moves (10 seeds
     * per game, 4,920 streams, replay clean too: SHOGI_OBS_SEEDS=10) */
    assert_int_equal(fx_bad, 0);
    assert_int_equal(bad_streams, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_clean_games)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/ruleguard/test_go_observe_faults.c — real Go games as noisy observation streams with one
 * injected fault each (an illegal move, two moves in a row, a stone taken off, a stone slid, a
 * capture left on the board, a disturbed board), restored the way a referee restores a board:
 * the fault must be flagged at its ply with its kind, nothing else flagged, and the moves recorded
 * must still equal the record's. Prints a confusion table. */
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

/* Games per fault kind when ../shared/data is present (the fixtures alone give fewer); under
 * AddressSanitizer half (the figures are the optimised build's). */
#define WANT_PER_KIND TU_ASAN_LIGHT(200, 60)
#define MAX_SHARED    400

enum outcome { OUT_EXACT, OUT_WRONG_PLY, OUT_WRONG_KIND, OUT_MISSED, OUT_EXTRA, OUT_MOVES, OUT_N };
static const char *const outcome_names[OUT_N] = {"exact",  "wrong ply",    "wrong kind",
                                                 "missed", "+extra flags", "moves differ"};

static void test_faults(void **state)
{
    (void)state;
    struct go_corpus corpus;
    go_corpus_load(&corpus, MAX_SHARED);
    struct gen_noise noise;
    gen_noise_default(&noise);
    int table[GF_COUNT][OUT_N] = {{0}};
    int seen_kind[GF_COUNT][GUARD_KIND_COUNT] = {{0}};
    int injected[GF_COUNT] = {0}, no_place[GF_COUNT] = {0};
    int want = corpus.shared ? WANT_PER_KIND : corpus.n;
    /* OBS_SEED=n: other noise and fault places, for the spread by hand (default 0) */
    const char *env_seed = getenv("OBS_SEED");
    uint64_t seed0 = env_seed ? strtoull(env_seed, NULL, 10) : 0;
    clock_t t0 = clock();
    /* OBS_TRACE=substring (and OBS_FAULT=kind name): replay and trace only those games (the
       same streams as in the whole run), no verdict */
    const char *only = getenv("OBS_TRACE"), *fault = getenv("OBS_FAULT");
    for (int f = GF_ILLEGAL; f < GF_COUNT; f++) {
        for (int i = 0; i < corpus.n && injected[f] < want; i++) {
            bool traced = only && strstr(corpus.paths[i], only) &&
                          (!fault || !strcmp(fault, gen_go_fault_name((enum gen_go_fault)f)));
            struct go_record *r = go_corpus_read(corpus.paths[i]);
            if (!r) continue;
            struct gen_stream s;
            if (!gen_go_stream(r, go_corpus_rules(corpus.rules[i]), (enum gen_go_fault)f,
                               seed0 * 1000003 + (uint64_t)(i * 31 + f), &noise, &s)) {
                no_place[f]++;
                go_record_free(r);
                continue;
            }
            injected[f]++;
            if (only && !traced) {
                gen_stream_free(&s);
                go_record_free(r);
                continue;
            }
            replay_trace = traced ? stdout : NULL;
            struct replay_result res;
            replay_go(&s, NULL, &res);
            enum outcome o;
            bool hit = false, kind_seen = false;
            for (int k = 0; k < res.nflags && k < REPLAY_MAX_FLAGS; k++) {
                if (res.flags[k].kind == s.fault_kind) kind_seen = true;
                if (res.flags[k].kind == s.fault_kind && res.flags[k].ply == s.fault_ply)
                    hit = true;
            }
            if (res.nflags) seen_kind[f][res.flags[0].kind]++;
            char why[200] = "";
            bool moves_ok = replay_moves_equal(&s, &res, why, sizeof why);
            if (hit && res.nflags == 1 && moves_ok)
                o = OUT_EXACT;
            else if (hit && res.nflags > 1)
                o = OUT_EXTRA;
            else if (hit)
                o = OUT_MOVES;
            else if (kind_seen)
                o = OUT_WRONG_PLY;
            else if (res.nflags)
                o = OUT_WRONG_KIND;
            else
                o = OUT_MISSED;
            table[f][o]++;
            /* OBS_ALL: every game that is not exact, not only the first two of each outcome */
            if (o != OUT_EXACT && (table[f][o] <= 2 || getenv("OBS_ALL")))
                printf("# %s %s (%s, ply %d): %s; first flag %s ply %d: %s; %s\n",
                       gen_go_fault_name((enum gen_go_fault)f), corpus.paths[i], s.fault_text,
                       s.fault_ply, outcome_names[o],
                       res.nflags ? guard_kind_name(res.flags[0].kind) : "-",
                       res.nflags ? res.flags[0].ply : 0, res.nflags ? res.flags[0].text : "",
                       moves_ok ? "moves ok" : why);
            replay_result_free(&res);
            gen_stream_free(&s);
            go_record_free(r);
        }
    }
    tu_note("corpus: %d fixture games + %d of %d clean shared games (%s); %.1f s", corpus.fixtures,
            corpus.shared, corpus.shared_available,
            corpus.shared_available ? "../shared/data/go-games" : "absent",
            (double)(clock() - t0) / CLOCKS_PER_SEC);
    tu_note("confusion (rows: fault injected; columns: outcome):");
    tu_note("%-14s %5s %6s %6s %6s %6s %6s %6s %7s", "fault", "games", "exact", "w.ply", "w.kind",
            "missed", "extra", "moves", "noplace");
    int exact = 0, total = 0;
    for (int f = GF_ILLEGAL; f < GF_COUNT; f++) {
        tu_note("%-14s %5d %6d %6d %6d %6d %6d %6d %7d", gen_go_fault_name((enum gen_go_fault)f),
                injected[f], table[f][OUT_EXACT], table[f][OUT_WRONG_PLY], table[f][OUT_WRONG_KIND],
                table[f][OUT_MISSED], table[f][OUT_EXTRA], table[f][OUT_MOVES], no_place[f]);
        exact += table[f][OUT_EXACT];
        total += injected[f];
        char line[400] = "";
        for (int k = 0; k < GUARD_KIND_COUNT; k++)
            if (seen_kind[f][k]) {
                size_t u = strlen(line);
                snprintf(line + u, sizeof line - u, " %s=%d", guard_kind_name((enum guard_kind)k),
                         seen_kind[f][k]);
            }
        tu_note("  first flag kinds:%s", line[0] ? line : " none");
    }
    tu_note("flagged exactly (kind, ply, nothing else, moves equal): %d of %d", exact, total);
    go_corpus_free(&corpus);
    if (only) return; /* a trace by hand: no verdict */
    for (int f = GF_ILLEGAL; f < GF_COUNT; f++) assert_true(injected[f] >= 10);
    /* Every kind is flagged with its kind at its ply in the large majority of games; the gap to
     * "every fault" is measured above (extra flags after the restoration, moves lost on the way).
     * Floors just under what the runs reach. Shared games, OBS_SEED 0/1/2: 1,187/1,184/1,183 of
     * 1,200, no kind under 97% (1,176/1,180/1,177 before a capture read whole in one view counted
     * with its capturing stone in doubt, a moved stone of the side to move was told from its move,
     * and a disturbed stone confirmed late joined its disturbance). The 44 fixture games alone:
     * 259/257/257 of 261/260/260 (256 of 261 at seed 0 before), no kind under 42 of 44 (one game
     * there is 2.3%). */
    bool shared = tu_shared_data_dir() != NULL;
    for (int f = GF_ILLEGAL; f < GF_COUNT; f++)
        assert_true(table[f][OUT_EXACT] * 100 >= injected[f] * (shared ? 96 : 93));
    assert_true(exact * 100 >= total * (shared ? 98 : 96));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/vision/test_go_live_faults.c — the referee's faults end to end: rendered Go footage with
 * one fault injected (the same colour twice, a stone slid to the next point, a stone taken off
 * that was not captured, prisoners left on the board, the board knocked), read in colour by the
 * Go reader, settled, judged by the Go guard. Each fault must be flagged with its kind at its
 * move (a knock breaks no rule: it must pass without a flag, the game read on); every other flag
 * is false. Prints a table per fault and camera scenario: by default each fault in one scenario
 * (in turn), KIFUCAM_GO_FAULT_ALL=1 in all four. KIFUCAM_GO_FAULT_GAMES=n: games per fault and
 * scenario (1); GO_FAULT_KIND=name, GO_FAULT_SCENE=name: only those; GO_FAULT_THINK=S: the
 * players' pace (render --think; blitz by default); GO_FAULT_DEBUG=1: the guard's events per
 * settled view. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/sgf.h"
#include "tests/testutil.h"
#include "tests/vision/go_film.h"

#define MOVES TU_ASAN_LIGHT(16, 10)

/* The fixture games that start from an empty board, in name order. */
static int load_games(struct go_record **out, int max)
{
    static const char *dirs[] = {"sgf/gnugo-regression-games", "sgf/foxwq-pro",
                                 "sgf/computer-go-dataset-ai", "sgf/gnugo-selfplay-tt"};
    int n = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        char base[512];
        snprintf(base, sizeof base, "%s", tu_path(tu_fixtures_dir(), dirs[d]));
        struct dirent **names = NULL;
        int k = scandir(base, &names, NULL, alphasort);
        for (int i = 0; i < k; i++) {
            size_t len = strlen(names[i]->d_name);
            char path[1024];
            if (len > 4 && !strcmp(names[i]->d_name + len - 4, ".sgf") && n < max &&
                snprintf(path, sizeof path, "%s/%s", base, names[i]->d_name) < (int)sizeof path) {
                struct go_record **games = NULL;
                struct sgf_error err = {0};
                int g = sgf_read_file(path, &games, &err);
                for (int j = 1; j < g; j++) go_record_free(games[j]);
                if (g >= 1 && games[0]->width == games[0]->height && !games[0]->handicap &&
                    games[0]->nnodes > MOVES)
                    out[n++] = games[0];
                else if (g >= 1)
                    go_record_free(games[0]);
                free(games);
            }
            free(names[i]);
        }
        free(names);
    }
    return n;
}

struct fault_kind {
    unsigned bit;
    const char *name;
    enum guard_kind want; /* GUARD_MOVE: no flag wanted */
    int moves;            /* moves filmed: a capture needs more than the opening */
};

static const struct fault_kind kinds[] = {
    {RENDER_FAULT_SAME_COLOR, "same-color", GUARD_TWO_MOVES, MOVES},
    {RENDER_FAULT_MOVED_STONE, "moved-stone", GUARD_MOVED_STONE, MOVES},
    {RENDER_FAULT_REMOVED_STONE, "removed-stone", GUARD_STONE_REMOVED, MOVES},
    {RENDER_FAULT_CAPTURES_LEFT, "captures-left", GUARD_CAPTURE_NOT_REMOVED, 3 * MOVES},
    {RENDER_FAULT_KNOCKED, "knocked", GUARD_MOVE, MOVES},
};

struct tally {
    int films, flagged, at_ply, missed, other_flags, moves, moves_right;
};

static void test_faults_live(void **state)
{
    (void)state;
    static struct go_record *games[64];
    int ngames = load_games(games, 64);
    assert_true(ngames > 0);
    const char *env = getenv("KIFUCAM_GO_FAULT_GAMES");
    int per = env ? atoi(env) : 1;
    bool debug = getenv("GO_FAULT_DEBUG") != NULL;
    /* GO_FAULT_THINK=S: the players think S seconds a move (render --think); default blitz */
    double think = getenv("GO_FAULT_THINK") ? atof(getenv("GO_FAULT_THINK")) : 0;
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_DIM,
                                                  RENDER_SCENE_GLARE, RENDER_SCENE_PLAYER};
    const size_t nscenes = sizeof scenes / sizeof scenes[0];
    tu_note("%d game(s) per fault and scenario, %d moves, 640 x 480, colour, think %.1f s", per,
            MOVES, think);
    struct tally all[sizeof kinds / sizeof kinds[0]] = {0};
    int gi = 0;
    struct go_film *film = malloc(sizeof *film);
    assert_non_null(film);
    const char *only_kind = getenv("GO_FAULT_KIND"), *only_scene = getenv("GO_FAULT_SCENE");
    bool every_scene = getenv("KIFUCAM_GO_FAULT_ALL") != NULL; /* else one scenario per fault */
    for (size_t f = 0; f < sizeof kinds / sizeof kinds[0]; f++) {
        for (size_t s = 0; s < nscenes; s++) {
            struct tally t = {0};
            if ((only_kind && strcmp(only_kind, kinds[f].name)) ||
                (only_scene && strcmp(only_scene, render_scenario_name(scenes[s]))) ||
                (!every_scene && !only_scene && s != f % nscenes))
                continue;
            for (int k = 0, tries = 0; k < per && tries < 2 * ngames; tries++) {
                const struct go_record *rec = games[gi++ % ngames];
                struct render_opts o;
                render_opts_default(&o);
                o.width = 640, o.height = 480, o.scenario = scenes[s], o.max_moves = kinds[f].moves;
                o.seed = 900 + (uint64_t)gi, o.faults = kinds[f].bit;
                o.think_s = think;
                go_film_run(rec, &o, true, debug, film);
                if (film->unplaced || film->nfaults == 0) continue; /* no place in this game */
                k++;
                t.films++;
                const struct go_film_fault *ft = &film->fault[0];
                /* the flag of the fault's kind nearest its move is the fault's; any other is
                   false */
                int best = -1, flag_ply = -1;
                for (int j = 0; j < film->nflags; j++) {
                    if (film->flag[j].kind != kinds[f].want) continue;
                    int dj = abs(film->flag[j].ply - ft->ply),
                        db = best < 0 ? 1 << 20 : abs(film->flag[best].ply - ft->ply);
                    if (dj < db) best = j;
                }
                bool hit = best >= 0, exact = false;
                if (hit) {
                    flag_ply = film->flag[best].ply;
                    exact = flag_ply >= ft->ply - 1 && flag_ply <= ft->ply + 1;
                }
                int other = 0;
                for (int j = 0; j < film->nflags; j++) {
                    if (j == best) continue;
                    other++;
                    const struct go_film_flag *fl = &film->flag[j];
                    tu_note("  %s %s seed %llu: other flag, frame %d ply %d %s: %s", kinds[f].name,
                            render_scenario_name(scenes[s]), (unsigned long long)o.seed, fl->frame,
                            fl->ply, guard_kind_name(fl->kind), fl->text);
                }
                if (kinds[f].want == GUARD_MOVE) hit = exact = other == 0; /* none wanted */
                t.flagged += hit;
                t.at_ply += exact;
                t.missed += !hit;
                t.other_flags += other;
                t.moves += film->nwant;
                t.moves_right += film->right;
                if (!hit || !exact)
                    tu_note("  %s %s seed %llu: %s %d (fault at frame %d, ply %d)", kinds[f].name,
                            render_scenario_name(scenes[s]), (unsigned long long)o.seed,
                            hit ? "flagged at ply" : "not flagged", flag_ply, ft->frame, ft->ply);
            }
            tu_note("%-14s %-8s films %d: flagged %d (at its move %d), missed %d, other flags %d; "
                    "moves right %d/%d",
                    kinds[f].name, render_scenario_name(scenes[s]), t.films, t.flagged, t.at_ply,
                    t.missed, t.other_flags, t.moves_right, t.moves);
            all[f].films += t.films, all[f].flagged += t.flagged, all[f].at_ply += t.at_ply;
            all[f].missed += t.missed, all[f].other_flags += t.other_flags;
            all[f].moves += t.moves, all[f].moves_right += t.moves_right;
        }
    }
    int films = 0, at_ply = 0, flagged = 0;
    for (size_t f = 0; f < sizeof kinds / sizeof kinds[0]; f++) {
        tu_note("all %-14s films %d: flagged at its move %d, missed %d, other flags %d, moves "
                "right %d/%d",
                kinds[f].name, all[f].films, all[f].at_ply, all[f].missed, all[f].other_flags,
                all[f].moves_right, all[f].moves);
        films += all[f].films;
        at_ply += all[f].at_ply;
        flagged += all[f].flagged;
    }
    free(film);
    for (int i = 0; i < ngames; i++) go_record_free(games[i]);
    tu_note("all: films %d, fault flagged with its kind %d, at its move %d", films, flagged,
            at_ply);
    assert_true(films >= 4);
    /* a floor under today's figure (one scenario per fault: 3 of 5 flagged with their kind, 1 at
       its move: the settled views come seconds apart, several moves each, and the guard fits
       the fault's stone into them; KIFUCAM_GO_FAULT_ALL=1: see the note of issue 8) */
    assert_true(flagged * 4 >= films);
    /* the optimised build's figure today: 4 of 5 flagged with their kind, 4 at their move (the
     * stone slid in dim light is missed: the reader loses that film's moves) */
    if (!TU_UNDER_ASAN) assert_true(at_ply * 5 >= films * 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_faults_live)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/vision/test_shogi_bump.c — the shogi reader follows the board when it is bumped. Games
 * are filmed with bumps far more often than the renderer's default (each shifts the board a few
 * millimetres and turns it a little); on every frame without a hand, the reader's grid corners
 * must stay where the truth puts them, within what they were off on the frame the reader started
 * on plus 2 pixels. Without following, a bump leaves the grid behind and every piece looks
 * replaced. Figures: bumps filmed, frames checked, frames where the grid was lost, worst error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "tests/testutil.h"
#include "tests/vision/shogi_film.h"
#include "vision/shogi_read.h"

#define MOVES      12
#define BUMP_RATE  0.35 /* a bump every third move or so */
#define SLACK_PX   2.0
#define REFS_MOVES 8

/* The largest corner distance between the reader's grid and the truth's, the reader's corners
 * taken in whichever of the four turns fits (which side is sente is decided later). */
static double corner_error(const struct shogi_grid *g, const double truth[4][2])
{
    double best = 1e300;
    for (int k = 0; k < 4; k++) {
        double worst = 0;
        for (int i = 0; i < 4; i++) {
            double dx = g->corners[(i + k) & 3][0] - truth[i][0];
            double dy = g->corners[(i + k) & 3][1] - truth[i][1];
            double d = sqrt(dx * dx + dy * dy);
            if (d > worst) worst = d;
        }
        if (worst < best) best = worst;
    }
    return best;
}

struct tally {
    int games, started, bumps, frames, lost;
    double worst;
};

static void film(const struct shogi_record *rec, enum render_scenario sc, uint64_t seed,
                 struct tally *t)
{
    struct render_shogi *r = sf_open_bumped(rec, sc, seed, MOVES, 0, BUMP_RATE);
    char err[300] = "";
    struct render_shogi_frame *f = malloc(sizeof *f);
    uint8_t *g = malloc((size_t)SF_WIDTH * SF_HEIGHT);
    struct shogi_reader *rd = shogi_reader_new();
    struct observation *obs = malloc(sizeof *obs);
    assert_true(f && g && rd && obs);
    bool started = false;
    double base = 0;
    t->games++;
    for (int i = 0; i < render_shogi_frame_count(r); i++) {
        if (!render_shogi_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        for (int e = 0; e < f->nevents; e++) t->bumps += !strcmp(f->events[e].kind, "bump");
        struct vision_image img;
        sf_gray(f, g, &img);
        if (!started && i % 10 == 0 && shogi_reader_start(rd, &img)) {
            started = true;
            base = corner_error(shogi_reader_grid(rd), f->corners);
        }
        if (!started || !shogi_reader_observe(rd, &img, obs) || !f->settled) continue;
        double e = corner_error(shogi_reader_grid(rd), f->corners);
        t->frames++;
        t->lost += e > base + SLACK_PX;
        if (e > base + SLACK_PX && getenv("KIFUCAM_BUMP_VERBOSE"))
            fprintf(stderr, "%s seed %llu frame %d ply %d: corners %.1f px off (start %.1f)\n",
                    render_scenario_name(sc), (unsigned long long)seed, i, f->ply, e, base);
        if (e - base > t->worst) t->worst = e - base;
    }
    t->started += started;
    free(obs);
    shogi_reader_free(rd);
    free(g);
    free(f);
    render_shogi_close(r);
}

static void test_follow_bumps(void **state)
{
    (void)state;
    int ngames;
    struct shogi_record **games = sf_load_games(&ngames);
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_SIDE,
                                                  RENDER_SCENE_DIM};
    struct tally all = {0};
    int gi = 0;
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        struct tally t = {0};
        for (int k = 0; k < TU_ASAN_LIGHT(2, 1); k++) {
            const struct shogi_record *rec = games[gi++ % ngames];
            film(rec, scenes[s], 300 + (uint64_t)gi, &t);
        }
        tu_note("%-8s started %d/%d, bumps %d, frames without a hand %d, grid lost on %d "
                "(%.1f%%), worst drift %.1f px",
                render_scenario_name(scenes[s]), t.started, t.games, t.bumps, t.frames, t.lost,
                sf_pct(t.lost, t.frames), t.worst);
        all.games += t.games;
        all.started += t.started;
        all.bumps += t.bumps;
        all.frames += t.frames;
        all.lost += t.lost;
        if (t.worst > all.worst) all.worst = t.worst;
    }
    tu_note("all: bumps %d, frames %d, grid lost on %.1f%%, worst drift %.1f px", all.bumps,
            all.frames, sf_pct(all.lost, all.frames), all.worst);
    shogi_records_free(games, ngames);
    /* the bumps happened, on started games, and the grid went with the board */
    assert_true(all.bumps >= 3);
    assert_true(all.started * 3 >= all.games * 2);
    /* ../shared's games: lost on 3.5%, 6.7% since the start also searches the frame enlarged
     * (the second side game starts now: 46 of its 201 frames 2-5 px off after its bumps; the
     * other five games lose the same frames as before); without them the fixture games
     * (lishogi-20.usi) lose it on 10.5% (dim light 22%: a bump there moves the grid onto the
     * next line) */
    assert_true(sf_pct(all.lost, all.frames) <= (tu_shared_data_dir() ? 7.5 : 12.0));
}

/* A partial view (off-centre, the board at a slant and partly out of the picture): a bump moves
 * the grid by a third of a cell and more, and a search a few pixels wide lost it for good (a
 * 1280-pixel film, yaw 121 degrees: every later cell read covered, 0 of 30 moves recorded). */
static void test_follow_bumps_partial(void **state)
{
    (void)state;
    int ngames;
    struct shogi_record **games = sf_load_games(&ngames);
    struct tally t = {0};
    for (int k = 0; k < TU_ASAN_LIGHT(4, 2); k++)
        film(games[(k + 3) % ngames], RENDER_SCENE_PARTIAL, 500 + (uint64_t)k, &t);
    tu_note("partial: started %d/%d, bumps %d, frames without a hand %d, grid lost on %d "
            "(%.1f%%), worst drift %.1f px",
            t.started, t.games, t.bumps, t.frames, t.lost, sf_pct(t.lost, t.frames), t.worst);
    shogi_records_free(games, ngames);
    assert_true(t.bumps >= 3);
    assert_true(t.started * 2 >= t.games);
    assert_true(sf_pct(t.lost, t.frames) <= 6.0); /* 10.1% with a search 8 pixels wide */
}

/* The reader's references (each cell's coarse look for the arm detector, the rim's, each cell's
 * picture and texture) come from frames read whole and clear, whichever frame the settler says a
 * view on. Each game is filmed twice: as the settler says its views, and with the view said last
 * said again on every hand's first frame that shows it, its covered cells read as the frame
 * before read them (a settler that takes a fingertip over one cell for a blip does so). Taken from
 * that frame, the hand's look became the cells' own and the rim's: once the hand left, the rim it
 * had crossed and the cells it had been over looked changed and were read covered while the truth
 * shows no hand (shogi footage game 25: every cell the hand had been over covered for the rest of
 * the view, and the next move merged into it). Figures: cells read covered on frames without a
 * hand, each way. */
struct refs_tally {
    long frames, cells, covered, forced;
};

static void film_refs(const struct shogi_record *rec, enum render_scenario sc, uint64_t seed,
                      bool force, struct refs_tally *t)
{
    struct render_shogi *r = sf_open(rec, sc, seed, REFS_MOVES, 0);
    char err[300] = "";
    struct render_shogi_frame *f = malloc(sizeof *f);
    uint8_t *g = malloc((size_t)SF_WIDTH * SF_HEIGHT);
    struct shogi_reader *rd = shogi_reader_new();
    struct settle_params sp;
    sf_settle_params(&sp);
    struct settler *st = settle_new(&sp);
    struct observation *obs = malloc(sizeof *obs), *prev = malloc(sizeof *prev);
    struct observation *again = malloc(sizeof *again), *said = malloc(sizeof *said);
    struct stable_obs *stable = malloc(sizeof *stable);
    assert_true(f && g && rd && st && obs && prev && again && said && stable);
    bool started = false, have_prev = false, have_said = false;
    for (int i = 0; i < render_shogi_frame_count(r); i++) {
        if (!render_shogi_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        struct vision_image img;
        sf_frame(f, g, &img);
        if (!started && i % 10 == 0) started = shogi_reader_start(rd, &img);
        if (!started || !shogi_reader_observe(rd, &img, obs)) {
            have_prev = false;
            continue;
        }
        if (f->settled && have_said) {
            t->frames++;
            for (int p = 0; p < OBS_POINTS; p++) {
                if (p % OBS_MAX >= 9 || p / OBS_MAX >= 9) continue;
                t->cells++;
                t->covered += obs->occluded[p];
            }
        }
        if (force && have_said && have_prev && obs->noccluded > 0 && prev->noccluded == 0) {
            *again = *obs;
            for (int p = 0; p < OBS_POINTS; p++) {
                if (!again->occluded[p]) continue;
                again->occluded[p] = false;
                again->point[p] = prev->point[p];
                again->conf[p] = prev->conf[p];
            }
            again->noccluded = 0;
            /* only the view said last, said again (a repeat, as the settler's) */
            bool same = true;
            for (int p = 0; p < OBS_POINTS; p++) same = same && again->point[p] == said->point[p];
            if (same) {
                shogi_reader_settled(rd, again);
                t->forced++;
            }
        }
        *prev = *obs;
        have_prev = true;
        if (!settle_push(st, obs, stable)) continue;
        shogi_reader_settled(rd, &stable->obs);
        *said = stable->obs;
        have_said = true;
    }
    free(said);
    free(stable);
    free(again);
    free(prev);
    free(obs);
    settle_free(st);
    shogi_reader_free(rd);
    free(g);
    free(f);
    render_shogi_close(r);
}

static void test_refs_from_clear_frames(void **state)
{
    (void)state;
    int ngames;
    struct shogi_record **games = sf_load_games(&ngames);
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_PLAYER,
                                                  RENDER_SCENE_DIM};
    struct refs_tally all[2] = {{0}, {0}};
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        struct refs_tally t[2] = {{0}, {0}};
        for (int k = 0; k < TU_ASAN_LIGHT(2, 1); k++)
            for (int force = 0; force < 2; force++)
                film_refs(games[(s * 2 + (size_t)k) % (size_t)ngames], scenes[s],
                          700 + s * 10 + (uint64_t)k, force, &t[force]);
        tu_note("%-8s frames without a hand %ld: cells read covered %ld (%.2f%%) as said, %ld "
                "(%.2f%%) said again on %ld hands' first frames",
                render_scenario_name(scenes[s]), t[0].frames, t[0].covered,
                sf_pct(t[0].covered, t[0].cells), t[1].covered, sf_pct(t[1].covered, t[1].cells),
                t[1].forced);
        for (int w = 0; w < 2; w++) {
            all[w].frames += t[w].frames;
            all[w].cells += t[w].cells;
            all[w].covered += t[w].covered;
            all[w].forced += t[w].forced;
        }
    }
    tu_note("all: cells read covered without a hand %.2f%% as said, %.2f%% said on hands too",
            sf_pct(all[0].covered, all[0].cells), sf_pct(all[1].covered, all[1].cells));
    shogi_records_free(games, ngames);
    assert_true(all[1].forced >= 6);
    assert_true(all[0].frames > 100);
    /* the same references either way: the hands' frames add no cover where no hand is */
    assert_true(sf_pct(all[1].covered, all[1].cells) <= sf_pct(all[0].covered, all[0].cells) + 0.1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_follow_bumps),
                                       cmocka_unit_test(test_follow_bumps_partial),
                                       cmocka_unit_test(test_refs_from_clear_frames)};
    /* SHOGI_BUMP_ONLY=refs: the references' test alone */
    const char *only = getenv("SHOGI_BUMP_ONLY");
    const struct CMUnitTest refs[] = {cmocka_unit_test(test_refs_from_clear_frames)};
    if (only && !strcmp(only, "refs")) return cmocka_run_group_tests(refs, NULL, NULL);
    return cmocka_run_group_tests(tests, NULL, NULL);
}

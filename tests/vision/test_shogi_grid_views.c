/* tests/vision/test_shogi_grid_views.c — the shogi grid finder alone on the first frame of
 * rendered games, per camera scenario and over several seeds (held-out ones included): how often
 * the finder's default tuning, and any of the reader's tunings, puts all four corners within half
 * a cell of the truth. Separates the finder from the reader's start (orientation, piece book). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "tests/testutil.h"
#include "tests/vision/shogi_film.h"
#include "vision/shogi_read.h"

/* the same tunings the reader's start tries (vision/shogi_track.c), default first */
static const struct {
    double line_c;
    int votes;
} tunings[] = {{8, 30}, {4, 30}, {8, 50}, {8, 15}, {4, 50}, {12, 30}};
#define NT ((int)(sizeof tunings / sizeof tunings[0]))

/* The farthest corner from the truth's, in cells, under the rotation of the corners that fits
 * best (*turn: which one; the start looks the same turned half round, so 0 or 2 are right). */
static double corner_error(const struct shogi_grid *g, const struct render_shogi_frame *f,
                           int *turn)
{
    double cell =
        hypot(f->corners[1][0] - f->corners[0][0], f->corners[1][1] - f->corners[0][1]) / 9;
    double best = 1e18;
    for (int r = 0; r < 4; r++) {
        double worst = 0;
        for (int i = 0; i < 4; i++) {
            const double *c = g->corners[(i + r) & 3];
            worst = fmax(worst, hypot(c[0] - f->corners[i][0], c[1] - f->corners[i][1]));
        }
        if (worst < best) {
            best = worst;
            *turn = r;
        }
    }
    return best / cell;
}

static void test_grid_views(void **state)
{
    (void)state;
    int ngames = 0;
    struct shogi_record **games = sf_load_games(&ngames);
    const char *e = getenv("KIFUCAM_SHOGI_GRID_GAMES");
    /* frame 0 shows the start position whatever the game: the camera comes from the seed */
    int use = e ? atoi(e) : 1;
    if (use > ngames) use = ngames;
    /* KIFUCAM_SHOGI_GRID_SEEDS="103,107" runs only those seeds */
    uint64_t seeds[16] = {101, 102, 103, 104, 105, 106, 107, 108, 211, 307, 401, 509};
    size_t nseeds = 12;
    const char *se = getenv("KIFUCAM_SHOGI_GRID_SEEDS");
    if (se) {
        nseeds = 0;
        for (char *end; *se && nseeds < 16; se = *end ? end + 1 : end)
            seeds[nseeds++] = strtoull(se, &end, 10);
    }
    const char *only = getenv("KIFUCAM_SHOGI_GRID_SCENE");
    /* KIFUCAM_SHOGI_GRID_TUNINGS=1: only the default tuning (for its debug images) */
    const char *te = getenv("KIFUCAM_SHOGI_GRID_TUNINGS");
    int nt = te && atoi(te) > 0 && atoi(te) < NT ? atoi(te) : NT;
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_PLAYER,
                                                  RENDER_SCENE_SIDE,     RENDER_SCENE_PARTIAL,
                                                  RENDER_SCENE_DIM,      RENDER_SCENE_GLARE};
    struct shogi_finder *fd = shogi_finder_new();
    struct render_shogi_frame *f = malloc(sizeof *f);
    uint8_t *g = malloc((size_t)SF_WIDTH * SF_HEIGHT);
    assert_non_null(fd);
    assert_non_null(f);
    assert_non_null(g);
    long all = 0, all_any = 0;
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        if (only && strcmp(only, render_scenario_name(scenes[s]))) continue;
        char line[600];
        int len = snprintf(line, sizeof line, "%-8s", render_scenario_name(scenes[s]));
        long tot = 0, def = 0, any = 0;
        for (size_t k = 0; k < nseeds; k++) {
            int sd = 0, sa = 0;
            for (int gi = 0; gi < use; gi++) {
                struct render_shogi *r = sf_open(games[gi], scenes[s], seeds[k], 1, 0);
                char err[300] = "";
                if (!render_shogi_frame(r, 0, f, err, sizeof err)) fail_msg("%s", err);
                struct vision_image img;
                sf_gray(f, g, &img);
                bool hit = false;
                for (int t = 0; t < nt && !hit; t++) {
                    struct shogi_grid grid;
                    if (!shogi_grid_find_tuned(fd, &img, tunings[t].line_c, tunings[t].votes,
                                               &grid))
                        continue;
                    int turn;
                    hit = corner_error(&grid, f, &turn) < 0.5;
                    if (hit && t == 0) sd++;
                }
                sa += hit;
                render_shogi_close(r);
            }
            tot += use, def += sd, any += sa;
            len += snprintf(line + len, sizeof line - (size_t)len, " seed %d: %d/%d/%d",
                            (int)seeds[k], sd, sa, use);
        }
        tu_note("%s (default/any tuning right/games)", line);
        tu_note("%-8s all seeds: default %.0f%%, any tuning %.0f%%",
                render_scenario_name(scenes[s]), sf_pct(def, tot), sf_pct(any, tot));
        all += tot, all_any += any;
    }
    /* floor under the measured figure (46% of views right with any tuning; searching the frame
       enlarged to 1280 px reached 82%, but its grids sat less precisely on the lines, which the
       komadai reading and the bump following paid for: not on main yet) */
    assert_true(all_any * 100 >= all * 40);
    free(g);
    free(f);
    shogi_finder_free(fd);
    for (int i = 0; i < ngames; i++) shogi_record_free(games[i]);
    free(games);
}

/* The reader's start (grid, ranks from files, piece book) on the first frame as the reader takes
 * it (colour), per scenario over the seeds: started, ranks and files right (the corners in the
 * reader's order, or turned half round, within 0.75 cell of the truth's: not a cell off), and the
 * corner error of those.
 * KIFUCAM_SHOGI_START_SEEDS=n: seeds 101.. (12); KIFUCAM_SHOGI_GRID_SCENE as above;
 * KIFUCAM_SHOGI_START_VERBOSE=1: the seeds not started or started wrong. */
static void test_start_views(void **state)
{
    (void)state;
    int ngames = 0;
    struct shogi_record **games = sf_load_games(&ngames);
    const char *se = getenv("KIFUCAM_SHOGI_START_SEEDS");
    int nseeds = se && atoi(se) > 0 ? atoi(se) : TU_ASAN_LIGHT(12, 6);
    const char *only = getenv("KIFUCAM_SHOGI_GRID_SCENE");
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_PLAYER,
                                                  RENDER_SCENE_SIDE,     RENDER_SCENE_PARTIAL,
                                                  RENDER_SCENE_DIM,      RENDER_SCENE_GLARE};
    struct render_shogi_frame *f = malloc(sizeof *f);
    uint8_t *g = malloc((size_t)SF_WIDTH * SF_HEIGHT);
    struct shogi_reader *rd = shogi_reader_new();
    assert_true(f && g && rd);
    int gi = 0; /* a game from the initial position */
    while (gi < ngames - 1 && games[gi]->handicap != SHOGI_HC_EVEN) gi++;
    long all = 0, all_started = 0, all_right = 0, all_near = 0;
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        if (only && strcmp(only, render_scenario_name(scenes[s]))) continue;
        long started = 0, right = 0, near = 0;
        double err_sum = 0, err_max = 0, ms = 0;
        for (int k = 0; k < nseeds; k++) {
            struct render_shogi *r = sf_open(games[gi], scenes[s], 101 + (uint64_t)k, 1, 0);
            char err[300] = "";
            if (!render_shogi_frame(r, 0, f, err, sizeof err)) fail_msg("%s", err);
            struct vision_image img;
            sf_frame(f, g, &img);
            bool ok = shogi_reader_start(rd, &img);
            ms += shogi_reader_stats(rd)->ms;
            if (ok) {
                int turn = 0;
                double e = corner_error(shogi_reader_grid(rd), f, &turn);
                started++;
                /* ranks from files, and on the board's own cells (not a cell off) */
                if (turn % 2 == 0 && e < 0.75) {
                    right++;
                    err_sum += e;
                    err_max = fmax(err_max, e);
                    near += e < 0.15;
                } else if (getenv("KIFUCAM_SHOGI_START_VERBOSE")) {
                    tu_note("  %s seed %d: started wrong (turn %d, error %.2f cells)",
                            render_scenario_name(scenes[s]), 101 + k, turn, e);
                }
            } else if (getenv("KIFUCAM_SHOGI_START_VERBOSE")) {
                tu_note("  %s seed %d: not started", render_scenario_name(scenes[s]), 101 + k);
            }
            render_shogi_close(r);
        }
        tu_note("%-8s start: started %ld/%d, ranks and files right %ld, corner error mean %.3f "
                "max %.3f cells (%ld under 0.15), %.0f ms/start",
                render_scenario_name(scenes[s]), started, nseeds, right,
                right ? err_sum / right : 0, err_max, near, ms / nseeds);
        all += nseeds, all_started += started, all_right += right, all_near += near;
    }
    tu_note("all      start: started %ld/%ld, right %ld, under 0.15 cell %ld", all_started, all,
            all_right, all_near);
    shogi_reader_free(rd);
    free(g);
    free(f);
    shogi_records_free(games, ngames);
    if (only || se) return; /* a part of the figures: no floors */
    /* floors under the measured figures: 24 seeds a scenario, 132 of 144 right and 5 wrong of
       137 started (the finder at 640 px only: 101 right, 5 wrong of 106); the first 12 seeds
       (the default): 66 of 72 right, none wrong (before: 48) */
    assert_true(all_right * 100 >= all * 85);
    assert_true((all_started - all_right) * 100 <= all * 5);
    /* and on the lines, not a third of a cell off: 66 of 72 within 0.15 cell when the first
       start the occupancy accepted was taken, 71 since the one whose lines show is */
    assert_true(all_near * 100 >= all * 95);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_start_views),
                                       cmocka_unit_test(test_grid_views)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/vision/test_read_shogi.c — the shogi reader on rendered footage with exact truth: real
 * games filmed by the simulated camera in every scenario; the reader starts on the initial
 * position (grid, sente's side, piece book) and follows the game on the settled frame after each
 * move. Figures per scenario: grid found by the finder, initial position recognised with the right
 * orientation, per-cell accuracy tracked and cold (occupancy, owner, type with promotion), hands
 * (from the tracked moves), time per frame. */
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

#define MOVES 14 /* moves filmed per game */

struct tally {
    long games, started, oriented_right;
    long frames, found;                  /* settled frames; with the finder's grid */
    long cells, cells_right, exact;      /* tracked: whole piece code per cell; whole boards */
    long cold_cells, cold_occ, cold_own; /* cold: occupancy; owner of occupied cells */
    long cold_occupied, cold_type;       /* cold: occupied cells; with the right piece code */
    long hands, hands_right;
    double corner_err_sum, corner_err_max; /* over settled frames tracked, in cells */
    double ms_sum, ms_max, ms_start;
    long ms_n;
};

/* Sente's side right: the reader's 9a corner is nearer the truth's 9a than any other corner. */
static bool orientation_right(const struct shogi_grid *g, const struct render_shogi_frame *f)
{
    double d[4];
    for (int i = 0; i < 4; i++)
        d[i] = hypot(g->corners[0][0] - f->corners[i][0], g->corners[0][1] - f->corners[i][1]);
    return d[0] < d[1] && d[0] < d[2] && d[0] < d[3];
}

/* The farthest of the reader's corners from the truth's, in cells. */
static double corner_error(const struct shogi_grid *g, const struct render_shogi_frame *f)
{
    double cell =
        hypot(f->corners[1][0] - f->corners[0][0], f->corners[1][1] - f->corners[0][1]) / 9;
    double worst = 0;
    for (int i = 0; i < 4; i++) {
        double d = hypot(g->corners[i][0] - f->corners[i][0], g->corners[i][1] - f->corners[i][1]);
        if (d > worst) worst = d;
    }
    return worst / cell;
}

static void time_frame(struct tally *t, const struct shogi_reader *rd)
{
    double ms = shogi_reader_stats(rd)->ms;
    t->ms_sum += ms;
    t->ms_n++;
    if (ms > t->ms_max) t->ms_max = ms;
}

static void run_game(const struct shogi_record *rec, enum render_scenario sc, uint64_t seed,
                     struct tally *t)
{
    struct render_shogi *r = sf_open(rec, sc, seed, MOVES, 0);
    char err[300] = "";
    struct render_shogi_frame *f = malloc(sizeof *f);
    uint8_t *g = malloc((size_t)SF_WIDTH * SF_HEIGHT);
    struct shogi_reader *rd = shogi_reader_new();
    assert_non_null(f);
    assert_non_null(g);
    assert_non_null(rd);
    struct vision_image img;
    t->games++;
    if (!render_shogi_frame(r, 0, f, err, sizeof err)) fail_msg("%s", err);
    sf_frame(f, g, &img);
    bool started = shogi_reader_start(rd, &img);
    t->ms_start += shogi_reader_stats(rd)->ms;
    t->started += started;
    int n = rec->nmoves < MOVES ? rec->nmoves : MOVES;
    for (int ply = 1; started && ply <= n; ply++) {
        int i = render_shogi_find_frame(r, ply, false);
        if (i < 0) continue;
        if (!render_shogi_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        if (!f->settled) continue;
        sf_frame(f, g, &img);
        t->frames++;
        uint8_t cold[SHOGI_SQUARES];
        if (shogi_reader_cold(rd, &img, cold)) {
            for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
                t->cold_cells++;
                t->cold_occ += (cold[sq] != 0) == (f->board[sq] != 0);
                if (!f->board[sq]) continue;
                t->cold_occupied++;
                t->cold_own +=
                    cold[sq] && shogi_piece_color(cold[sq]) == shogi_piece_color(f->board[sq]);
                t->cold_type += cold[sq] == f->board[sq];
            }
        }
        struct shogi_position pos;
        bool ok = shogi_reader_track(rd, &img, &pos);
        time_frame(t, rd);
        t->found += shogi_reader_stats(rd)->refound;
        if (!ok) continue;
        int right = 0;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) right += pos.board[sq] == f->board[sq];
        double ce = corner_error(shogi_reader_grid(rd), f);
        t->corner_err_sum += ce;
        if (ce > t->corner_err_max) t->corner_err_max = ce;
        t->cells += SHOGI_SQUARES;
        t->cells_right += right;
        t->exact += right == SHOGI_SQUARES;
        t->hands++;
        t->hands_right += !memcmp(pos.hand, f->hand, sizeof pos.hand);
    }
    /* sente's side is known from the first move on: the last frame's grid must have it right */
    t->oriented_right += started && orientation_right(shogi_reader_grid(rd), f);
    shogi_reader_free(rd);
    free(g);
    free(f);
    render_shogi_close(r);
}

static void test_read_shogi(void **state)
{
    (void)state;
    int ngames;
    struct shogi_record **games = sf_load_games(&ngames);
    struct shogi_position start, p0;
    shogi_position_startpos(&start);
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_PLAYER,
                                                  RENDER_SCENE_SIDE,     RENDER_SCENE_PARTIAL,
                                                  RENDER_SCENE_DIM,      RENDER_SCENE_GLARE};
    const int per_scene = 5;
    struct tally all = {0};
    int gi = 0;
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        struct tally t = {0};
        for (int k = 0; k < per_scene; k++) {
            /* games that start from the initial position (handicaps are not learnt here) */
            const struct shogi_record *rec = NULL;
            for (int tries = 0; tries < ngames && !rec; tries++, gi++) {
                shogi_record_position(games[gi % ngames], 0, &p0);
                if (!memcmp(p0.board, start.board, sizeof p0.board)) rec = games[gi % ngames];
            }
            gi++;
            if (!rec) fail_msg("no game from the initial position");
            run_game(rec, scenes[s], 1000 + 17 * s + (uint64_t)k, &t);
        }
        tu_note("%-8s games %ld: started %ld, orientation right %ld; settled frames %ld, grid "
                "refound %.1f%%, corner error %.2f cells (max %.2f); tracked cells %.2f%%, exact "
                "boards %.1f%%, hands %.1f%%; cold "
                "occupancy %.2f%%, owner %.2f%%, piece %.2f%%; tracking %.1f ms/frame (max %.1f), "
                "start %.0f ms/game",
                render_scenario_name(scenes[s]), t.games, t.started, t.oriented_right, t.frames,
                sf_pct(t.found, t.frames), t.hands ? t.corner_err_sum / t.hands : 0,
                t.corner_err_max, sf_pct(t.cells_right, t.cells), sf_pct(t.exact, t.frames),
                sf_pct(t.hands_right, t.hands), sf_pct(t.cold_occ, t.cold_cells),
                sf_pct(t.cold_own, t.cold_occupied), sf_pct(t.cold_type, t.cold_occupied),
                t.ms_n ? t.ms_sum / t.ms_n : 0, t.ms_max, t.games ? t.ms_start / t.games : 0);
        long *a = (long *)&all, *b = (long *)&t;
        for (size_t i = 0; i < offsetof(struct tally, corner_err_sum) / sizeof(long); i++)
            a[i] += b[i];
        all.ms_sum += t.ms_sum;
        all.ms_start += t.ms_start;
        all.ms_n += t.ms_n;
        if (t.ms_max > all.ms_max) all.ms_max = t.ms_max;
    }
    tu_note("all      games %ld: started %ld, orientation right %ld; tracked cells %.2f%%, exact "
            "boards %.1f%%, hands %.1f%%; cold occupancy %.2f%%, owner %.2f%%, piece %.2f%%; "
            "tracking %.1f "
            "ms/frame (max %.1f), start %.0f ms/game",
            all.games, all.started, all.oriented_right, sf_pct(all.cells_right, all.cells),
            sf_pct(all.exact, all.frames), sf_pct(all.hands_right, all.hands),
            sf_pct(all.cold_occ, all.cold_cells), sf_pct(all.cold_own, all.cold_occupied),
            sf_pct(all.cold_type, all.cold_occupied), all.ms_n ? all.ms_sum / all.ms_n : 0,
            all.ms_max, all.games ? all.ms_start / all.games : 0);
    /* floors just under what 30 rendered games reach (lishogi games and the fixture record); with
     * the lishogi games, where the start's grid is refined on the bare cells' lines: started 25,
     * cold occupancy 99.31%, owner 95.56% (partial views unrefined: a little less) */
    bool lishogi = tu_shared_data_dir() != NULL;
    assert_true(all.started >= (lishogi ? 25 : 22));
    assert_int_equal(all.oriented_right, all.started);
    assert_true(sf_pct(all.cells_right, all.cells) >= 98.0);
    assert_true(sf_pct(all.exact, all.frames) >= 70.0);
    assert_true(sf_pct(all.hands_right, all.hands) >= 80.0);
    assert_true(sf_pct(all.cold_occ, all.cold_cells) >= (lishogi ? 99.1 : 98.3));
    assert_true(sf_pct(all.cold_own, all.cold_occupied) >= (lishogi ? 94.5 : 91.0));
    assert_true(sf_pct(all.cold_type, all.cold_occupied) >= 70.0);
    for (int i = 0; i < ngames; i++) shogi_record_free(games[i]);
    free(games);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_read_shogi)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/vision/test_shogi_face_lift.c — the ink window of a promoted face is lifted along the
 * board's normal as the picture shows it (vision/shogi_colour.c), not "up the picture": a side
 * view's frames turned a quarter round (a camera held on its side) and half round must measure
 * every promoted face's redness as the upright frame does. Rendered side views of games that
 * promote early, the grid from the truth's corners (the reader's grid finding is not what this
 * tests). */
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

#define MAX_PLY 60 /* a promotion within this many moves */
#define WANT    4  /* games filmed */

/* The frame turned by quarter turns clockwise (q = 1, 2, 3) into out, and a point of the frame
 * where it lands. */
static void turn_point(int w, int h, int q, double x, double y, double *ox, double *oy)
{
    for (int k = 0; k < q; k++) {
        double nx = h - 1 - y, ny = x;
        int t = w;
        w = h;
        h = t;
        x = nx;
        y = ny;
    }
    *ox = x;
    *oy = y;
}

static void turn_image(const uint8_t *rgb, int w, int h, int q, uint8_t *out, int *ow, int *oh)
{
    *ow = q & 1 ? h : w;
    *oh = q & 1 ? w : h;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double tx, ty;
            turn_point(w, h, q, x, y, &tx, &ty);
            memcpy(out + 3 * ((size_t)ty * *ow + (size_t)tx), rgb + 3 * ((size_t)y * w + x), 3);
        }
}

static void grid_turned(const struct render_shogi_frame *f, int q, struct shogi_grid *g)
{
    double c[4][2];
    for (int i = 0; i < 4; i++)
        turn_point(f->width, f->height, q, f->corners[i][0], f->corners[i][1], &c[i][0], &c[i][1]);
    shogi_grid_set(g, c);
}

static void test_face_lift_turned(void **state)
{
    (void)state;
    int ngames = 0;
    struct shogi_record **games = sf_load_games(&ngames);
    uint8_t *turned = malloc((size_t)SF_WIDTH * SF_HEIGHT * 3);
    assert_non_null(turned);
    int filmed = 0;
    long promoted = 0, kept[4] = {0}, plain = 0;
    double worst_drop[4] = {0}, plain_max = -1, prom_min = 1e9;
    for (int gi = 0; gi < ngames && filmed < WANT; gi++) {
        const struct shogi_record *rec = games[gi];
        int ply = -1;
        for (int k = 0; k < rec->nmoves && k < MAX_PLY; k++)
            if (rec->moves[k].move.promote) {
                ply = k + 1;
                break;
            }
        if (ply < 0) continue;
        struct render_shogi *r =
            sf_open(rec, RENDER_SCENE_SIDE, 900 + (uint64_t)filmed, ply + 1, 0);
        int fi = render_shogi_find_frame(r, ply, false);
        struct render_shogi_frame f;
        char err[200] = "";
        if (fi < 0 || !render_shogi_frame(r, fi, &f, err, sizeof err)) {
            render_shogi_close(r);
            continue;
        }
        filmed++;
        struct shogi_grid g[4];
        struct vision_image img[4];
        for (int q = 0; q < 4; q++) grid_turned(&f, q, &g[q]);
        img[0] = (struct vision_image){f.width, f.height, 3 * f.width, VISION_RGB24, f.rgb, 0, 1};
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            if (!f.board[sq] || f.covered[sq]) continue;
            double up = shogi_cell_ink_red(&g[0], &img[0], sq);
            if (!shogi_type_is_promoted(shogi_piece_type(f.board[sq]))) {
                plain++;
                plain_max = fmax(plain_max, up);
            }
        }
        for (int q = 1; q < 4; q++) {
            int w, h;
            turn_image(f.rgb, f.width, f.height, q, turned, &w, &h);
            img[q] = (struct vision_image){w, h, 3 * w, VISION_RGB24, turned, 0, 1};
            for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
                if (!f.board[sq] || f.covered[sq] ||
                    !shogi_type_is_promoted(shogi_piece_type(f.board[sq])))
                    continue;
                double up = shogi_cell_ink_red(&g[0], &img[0], sq);
                double x = shogi_cell_ink_red(&g[q], &img[q], sq);
                if (q == 1) {
                    promoted++;
                    prom_min = fmin(prom_min, up);
                }
                double drop = up - x;
                worst_drop[q] = fmax(worst_drop[q], drop);
                kept[q] += fabs(drop) <= 0.15 * up;
                tu_note("game %d seed %d %d%d upright %.3f turned %d: %.3f", gi, 900 + filmed - 1,
                        shogi_sq_file(sq), shogi_sq_rank(sq), up, 90 * q, x);
            }
        }
        render_shogi_close(r);
    }
    tu_note("%d side views, %ld promoted faces (upright redness from %.3f), %ld plain (up to "
            "%.3f); within 15%% of upright turned 90/180/270: %ld/%ld/%ld, worst drop "
            "%.3f/%.3f/%.3f",
            filmed, promoted, prom_min, plain, plain_max, kept[1], kept[2], kept[3], worst_drop[1],
            worst_drop[2], worst_drop[3]);
    assert_true(filmed >= 2);
    assert_true(promoted >= 2);
    /* the upright side view tells promoted from plain faces (what the lift is for) */
    assert_true(prom_min > plain_max);
    for (int q = 1; q < 4; q++) assert_int_equal(kept[q], promoted);
    free(turned);
    shogi_records_free(games, ngames);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_face_lift_turned)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

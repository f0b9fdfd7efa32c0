/* tests/vision/test_line_denoise.c — the speckle filter before the line mask: a printed line one
 * pixel wide survives it at every angle, and isolated light and dark specks do not. A 3x3 median
 * (what board finding used before) is measured beside it, to show why it was replaced. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/testutil.h"
#include "vision/cv.h"
#include "vision/vision_internal.h"

#define W     160
#define BOARD 190
#define INK   70

/* A board with one thin line through the centre at angle deg, and specks on a sparse lattice
 * away from the line (every 11th pixel each way, light and dark in turn). */
static void draw(uint8_t *img, double deg, uint8_t *on_line, uint8_t *speck)
{
    memset(img, BOARD, W * W);
    memset(on_line, 0, W * W);
    memset(speck, 0, W * W);
    double dx = cos(deg * M_PI / 180), dy = sin(deg * M_PI / 180);
    for (int s = -70 * 4; s <= 70 * 4; s++) {
        int x = (int)lround(W / 2 + dx * s / 4.0), y = (int)lround(W / 2 + dy * s / 4.0);
        img[y * W + x] = INK, on_line[y * W + x] = 1;
    }
    int k = 0;
    for (int y = 5; y < W - 5; y += 11)
        for (int x = 5; x < W - 5; x += 11) {
            /* far from the line: its distance over 3 px */
            double d = fabs((x - W / 2) * dy - (y - W / 2) * dx);
            if (d < 3) continue;
            img[y * W + x] = k++ % 2 ? 255 : 0;
            speck[y * W + x] = 1;
        }
}

struct outcome {
    int line, line_kept, specks, specks_gone;
};

static void count(const uint8_t *img, const uint8_t *on_line, const uint8_t *speck,
                  struct outcome *o)
{
    for (int y = 2; y < W - 2; y++)
        for (int x = 2; x < W - 2; x++) {
            int v = img[y * W + x];
            if (on_line[y * W + x]) o->line++, o->line_kept += v < (BOARD + INK) / 2;
            if (speck[y * W + x]) o->specks++, o->specks_gone += abs(v - BOARD) < 10;
        }
}

static void test_thin_lines_kept_specks_gone(void **state)
{
    (void)state;
    uint8_t *img = malloc(W * W), *on_line = malloc(W * W), *speck = malloc(W * W);
    assert_true(img && on_line && speck);
    struct outcome all = {0}, med = {0};
    int worst_angle = -1;
    double worst = 2;
    for (int a = 0; a < 180; a += 5) {
        draw(img, a, on_line, speck);
        assert_true(line_denoise(img, W, W, W));
        struct outcome o = {0};
        count(img, on_line, speck, &o);
        double kept = (double)o.line_kept / o.line;
        if (kept < worst) worst = kept, worst_angle = a;
        all.line += o.line, all.line_kept += o.line_kept;
        all.specks += o.specks, all.specks_gone += o.specks_gone;

        draw(img, a, on_line, speck);
        cv_image im = {img, W, W, W, 1};
        assert_int_equal(cv_median_blur(&im, 3), CV_OK);
        count(img, on_line, speck, &med);
    }
    tu_note("36 angles: line pixels kept %.1f%% (worst %.1f%% at %d deg), specks removed %.1f%%",
            100.0 * all.line_kept / all.line, 100 * worst, worst_angle,
            100.0 * all.specks_gone / all.specks);
    tu_note("a 3x3 median on the same: line pixels kept %.1f%%, specks removed %.1f%%",
            100.0 * med.line_kept / med.line, 100.0 * med.specks_gone / med.specks);
    assert_true(all.line_kept >= 0.97 * all.line);
    assert_true(worst >= 0.85);
    assert_int_equal(all.specks_gone, all.specks);
    free(img);
    free(on_line);
    free(speck);
}

static void test_tiny_images_untouched(void **state)
{
    (void)state;
    uint8_t px[4] = {0, 255, 0, 255};
    assert_true(line_denoise(px, 2, 2, 2));
    assert_int_equal(px[1], 255);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thin_lines_kept_specks_gone),
        cmocka_unit_test(test_tiny_images_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/vision/test_read_sample.c — the point reader's small statistics: the median by selection
 * equals the median of the sorted values for every length and many shapes of data (ties, sorted,
 * reversed, random), and the bilinear sample clamps at the frame's edge and interpolates inside. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vision/read_internal.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double sorted_median(const double *v, int n)
{
    double s[256];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n & 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static uint64_t rng = 88172645463325252ull;
static double unit(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void test_median_equals_sorted(void **state)
{
    (void)state;
    int checked = 0;
    for (int n = 1; n <= 200; n++)
        for (int shape = 0; shape < 5; shape++) {
            double v[256], w[256];
            for (int i = 0; i < n; i++) {
                switch (shape) {
                case 0: v[i] = unit(); break;                     /* random */
                case 1: v[i] = floor(unit() * 4); break;          /* many ties */
                case 2: v[i] = i; break;                          /* sorted */
                case 3: v[i] = n - i; break;                      /* reversed */
                default: v[i] = i % 2 ? 255 : unit() * 10; break; /* two clusters */
                }
            }
            memcpy(w, v, sizeof v);
            double want = sorted_median(v, n), got = read_median(w, n);
            if (got != want)
                fail_msg("n %d shape %d: median %g, sorted says %g", n, shape, got, want);
            checked++;
        }
    assert_int_equal(checked, 1000);
    assert_true(read_median(NULL, 0) == 0);
}

static void test_bilinear(void **state)
{
    (void)state;
    uint8_t g[4 * 3] = {0, 100, 200, 50, 10, 20, 30, 40, 60, 70, 80, 90};
    struct read_image im = {.gray = g, .w = 4, .h = 3};
    assert_true(fabs(read_grey_bilinear(&im, 1, 0) - 100) < 1e-9);
    assert_true(fabs(read_grey_bilinear(&im, 0.5, 0) - 50) < 1e-9);
    assert_true(fabs(read_grey_bilinear(&im, 0, 0.5) - 5) < 1e-9);
    /* outside the frame: the nearest edge pixel (and a NaN the first one, never a wild read) */
    assert_true(fabs(read_grey_bilinear(&im, -5, -5) - 0) < 1e-9);
    assert_true(fabs(read_grey_bilinear(&im, 10, 10) - 90) < 0.2);
    assert_true(fabs(read_grey_bilinear(&im, NAN, NAN) - 0) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_median_equals_sorted),
                                       cmocka_unit_test(test_bilinear)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

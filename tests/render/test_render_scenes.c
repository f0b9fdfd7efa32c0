/* tests/render/test_render_scenes.c — the shadows, leaning and clock scenarios: what the players
 * do around the board. A drifting shadow darkens the board and covers nothing; a player leaning in
 * hides points, and those (only those under the drawn body) are covered in the truth; a hand on the
 * clock is in view but covers no point and leaves the board settled. Same seed, same frames; the
 * game's own time line is not moved by any of them. The scene sheet shows them all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <unistd.h>

#include "render/render.h"
#include "tests/render/render_fixture.h"
#include "tests/testutil.h"

#define W 192
#define H 144

static const char *const GAME19 = "sgf/foxwq-pro/clean/8p/1550379174010001364.sgf";

static struct render_opts opts(uint64_t seed, enum render_scenario sc, int moves)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = W;
    o.height = H;
    o.seed = seed;
    o.scenario = sc;
    o.max_moves = moves;
    o.bump_rate = 0;
    return o;
}

/* Mean level of each of 4 x 4 blocks of the frame. */
static void block_levels(const struct render_frame *f, double out[16])
{
    memset(out, 0, 16 * sizeof *out);
    for (int y = 0; y < f->height; y++)
        for (int x = 0; x < f->width * 3; x++)
            out[(y * 4 / f->height) * 4 + x * 4 / (f->width * 3)] +=
                f->rgb[(size_t)y * f->width * 3 + x];
}

/* How unevenly frame b is darker than frame a: the least block ratio over the largest. Exposure
 * drift scales every block alike (1.0); a shadow darkens some blocks only. */
static double uneven_darkening(const double a[16], const double b[16])
{
    double lo = 1e9, hi = 0;
    for (int k = 0; k < 16; k++) {
        double r = b[k] / (a[k] + 1);
        if (r < lo) lo = r;
        if (r > hi) hi = r;
    }
    return lo / hi;
}

static int count_covered(const struct render_frame *f)
{
    int n = 0;
    for (int y = 0; y < f->rows; y++)
        for (int x = 0; x < f->cols; x++) n += f->covered[go_point(x, y)];
    return n;
}

static void test_names_and_listing(void **state)
{
    (void)state;
    assert_int_equal(render_scenario_find("shadows"), RENDER_SCENE_SHADOWS);
    assert_int_equal(render_scenario_find("leaning"), RENDER_SCENE_LEANING);
    assert_int_equal(render_scenario_find("clock"), RENDER_SCENE_CLOCK);
    assert_string_equal(render_scenario_name(RENDER_SCENE_CLOCK), "clock");
}

/* The scene events lie over the game without moving it: the same frames, positions and plies as
 * a render of another scenario with the same seed. */
static void test_time_line_unchanged(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("render/capture3.sgf");
    char err[300] = "";
    struct render_opts a = opts(21, RENDER_SCENE_PLAYER, 12), b = opts(21, RENDER_SCENE_CLOCK, 12);
    struct render_go *ra = render_go_open(rec, &a, err, sizeof err);
    struct render_go *rb = render_go_open(rec, &b, err, sizeof err);
    assert_non_null(ra);
    assert_non_null(rb);
    assert_int_equal(render_go_frame_count(ra), render_go_frame_count(rb));
    assert_true(render_go_find_scene_frame(rb, 0) >= 0);
    assert_int_equal(render_go_find_scene_frame(ra, 0), -1);
    render_go_close(ra);
    render_go_close(rb);
    go_record_free(rec);
}

static void test_shadows_darken_and_cover_nothing(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go(GAME19);
    struct render_frame *f = malloc(sizeof *f);
    char err[300] = "";
    int darker = 0, tried = 0, shadow_frames = 0;
    double least = 1e9, most = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct render_opts o = opts(seed, RENDER_SCENE_SHADOWS, 20);
        o.hands = false; /* nothing but the shadow changes the look of the board */
        struct render_go *r = render_go_open(rec, &o, err, sizeof err);
        if (!r) fail_msg("%s", err);
        for (int k = 0; k < 3; k++) {
            int m = render_go_find_scene_frame(r, k);
            if (m < 0) break;
            assert_true(render_go_frame(r, m, f, err, sizeof err));
            assert_non_null(f->scene_event);
            assert_string_equal(f->scene_event, "shadow");
            assert_int_equal(count_covered(f), 0);
            assert_false(f->hand_in_view);
            double shaded[16], lit[16];
            block_levels(f, shaded);
            /* the last frame before the shadow came (a stone or two apart at most) */
            int before = m;
            do assert_true(render_go_frame(r, --before, f, err, sizeof err));
            while (f->scene_event && before > 0);
            if (f->scene_event) continue;
            block_levels(f, lit);
            double drop = uneven_darkening(lit, shaded);
            tried++;
            darker += drop < 0.92;
            if (drop < least) least = drop;
            if (drop > most) most = drop;
        }
        int n = render_go_frame_count(r);
        for (int i = 0; i < n; i += 7) { /* never a covered point from a shadow */
            assert_true(render_go_frame(r, i, f, err, sizeof err));
            assert_true(f->people_scene);
            if (!f->scene_event) continue;
            shadow_frames++;
            assert_int_equal(count_covered(f), 0);
        }
        render_go_close(r);
    }
    tu_note("shadows: darkest over lightest block ratio against the frame before the shadow "
            "%.2f .. %.2f over %d comparisons; %d sampled shadow frames",
            least, most, tried, shadow_frames);
    assert_true(tried >= 4);
    assert_true(darker >= tried * 3 / 4);
    assert_true(shadow_frames > 0);
    free(f);
    go_record_free(rec);
}

static void test_leaning_covers_what_it_hides(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go(GAME19);
    struct render_frame *f = malloc(sizeof *f);
    char err[300] = "";
    int lean_frames = 0, with_cover = 0, most = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        struct render_opts o = opts(seed, RENDER_SCENE_LEANING, 30);
        o.hands = false;
        struct render_go *r = render_go_open(rec, &o, err, sizeof err);
        if (!r) fail_msg("%s", err);
        for (int k = 0; k < 2; k++) {
            int m = render_go_find_scene_frame(r, k);
            if (m < 0) break;
            assert_true(render_go_frame(r, m, f, err, sizeof err));
            if (!f->scene_event) continue; /* (leaning out of sight: nothing drawn) */
            assert_string_equal(f->scene_event, "lean");
            assert_false(f->hand_in_view);
            lean_frames++;
            int n = count_covered(f);
            with_cover += n > 0;
            if (n > most) most = n;
            /* covered exactly where the body is drawn over the point */
            for (int y = 0; y < f->rows; y++)
                for (int x = 0; x < f->cols; x++) {
                    int p = go_point(x, y);
                    int u = (int)f->point_px[p][0], v = (int)f->point_px[p][1];
                    bool in = u >= 0 && v >= 0 && u < W && v < H;
                    assert_int_equal(f->covered[p], in && f->hand_mask[(size_t)v * W + u] != 0);
                }
        }
        render_go_close(r);
    }
    tu_note("leaning: %d mid-lean frames, %d hide points (up to %d of 361)", lean_frames,
            with_cover, most);
    assert_true(lean_frames >= 6);
    assert_true(with_cover >= lean_frames / 2);
    free(f);
    go_record_free(rec);
}

static void test_clock_hand_covers_nothing(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go(GAME19);
    struct render_frame *f = malloc(sizeof *f);
    char err[300] = "";
    int frames = 0, seen = 0, covering = 0, settled = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        struct render_opts o = opts(seed, RENDER_SCENE_CLOCK, 30);
        o.hands = false; /* only the clock's hand */
        struct render_go *r = render_go_open(rec, &o, err, sizeof err);
        if (!r) fail_msg("%s", err);
        for (int k = 0; k < 3; k++) {
            int m = render_go_find_scene_frame(r, k);
            if (m < 0) break;
            assert_true(render_go_frame(r, m, f, err, sizeof err));
            assert_non_null(f->scene_event);
            assert_string_equal(f->scene_event, "clock-hand");
            frames++;
            settled += f->settled; /* a hand on the clock leaves the board settled */
            seen += f->hand_in_view;
            covering += count_covered(f) > 0;
        }
        render_go_close(r);
    }
    tu_note("clock: %d mid-rest frames, hand in view in %d, settled in %d, covering a point in %d",
            frames, seen, settled, covering);
    assert_true(settled > 0);
    assert_true(frames >= 8);
    assert_true(seen >= frames * 3 / 4);
    assert_int_equal(covering, 0);
    free(f);
    go_record_free(rec);
}

static void test_same_seed_same_frames(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("render/capture3.sgf");
    char err[300] = "";
    for (int sc = RENDER_SCENE_SHADOWS; sc <= RENDER_SCENE_CLOCK; sc++) {
        struct render_opts o = opts(33, (enum render_scenario)sc, 10);
        struct render_go *a = render_go_open(rec, &o, err, sizeof err);
        struct render_go *b = render_go_open(rec, &o, err, sizeof err);
        assert_non_null(a);
        assert_non_null(b);
        int m = render_go_find_scene_frame(a, 0);
        assert_int_equal(m, render_go_find_scene_frame(b, 0));
        assert_true(m >= 0);
        struct render_frame *fa = malloc(sizeof *fa), *fb = malloc(sizeof *fb);
        assert_true(render_go_frame(a, m, fa, err, sizeof err));
        assert_true(render_go_frame(b, m, fb, err, sizeof err));
        assert_memory_equal(fa->rgb, fb->rgb, (size_t)W * H * 3);
        free(fa);
        free(fb);
        render_go_close(a);
        render_go_close(b);
    }
    go_record_free(rec);
}

/* Shogi too: each scene shows up in the truth of a short game. */
static void test_shogi_scenes(void **state)
{
    (void)state;
    struct shogi_record **games = NULL;
    struct shogi_record_error serr = {0};
    const char *path = tu_path(tu_fixtures_dir(), "shogi-records/ryuou201409020101.kif");
    int ng = shogi_record_read_file(path, &games, &serr);
    if (ng < 1) fail_msg("%s: %s", path, serr.message);
    struct render_shogi_frame *f = malloc(sizeof *f);
    char err[300] = "";
    static const char *const want[] = {"shadow", "lean", "clock-hand"};
    for (int sc = RENDER_SCENE_SHADOWS; sc <= RENDER_SCENE_CLOCK; sc++) {
        int shown = 0;
        for (uint64_t seed = 1; seed <= 3 && !shown; seed++) {
            struct render_opts o = opts(seed, (enum render_scenario)sc, 20);
            struct render_shogi *r = render_shogi_open(games[0], &o, err, sizeof err);
            if (!r) fail_msg("%s", err);
            int m = render_shogi_find_scene_frame(r, 0);
            assert_true(m >= 0);
            assert_true(render_shogi_frame(r, m, f, err, sizeof err));
            assert_true(f->people_scene);
            if (f->scene_event && !strcmp(f->scene_event, want[sc - RENDER_SCENE_SHADOWS])) shown++;
            if (sc == RENDER_SCENE_CLOCK) /* the clock's hand is clear of both komadai */
                assert_false(f->komadai_covered[0] || f->komadai_covered[1]);
            render_shogi_close(r);
        }
        assert_int_equal(shown, 1);
    }
    free(f);
    shogi_records_free(games, ng);
}

/* A contact sheet asked for as .png is a PNG of 4 x 3 tiles (the docs hold two). */
static void test_contact_sheet_png(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("go-scoring/gg09_01003.sgf");
    char dir[] = "/tmp/kifucam-contact-XXXXXX", path[64], err[300] = "";
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/sheet.png", dir);
    const int tw = 80, th = 60;
    if (!render_go_contact_sheet(rec, 2, tw, th, path, err, sizeof err)) fail_msg("%s", err);
    size_t len;
    unsigned char *png = (unsigned char *)tu_read_file(path, &len);
    assert_non_null(png);
    assert_true(len > 33);
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    assert_memory_equal(png, sig, 8);
    assert_memory_equal(png + 12, "IHDR", 4);
    unsigned w = (unsigned)png[16] << 24 | png[17] << 16 | png[18] << 8 | png[19];
    unsigned h = (unsigned)png[20] << 24 | png[21] << 16 | png[22] << 8 | png[23];
    assert_int_equal(w, 4 * tw);
    assert_int_equal(h, 3 * th);
    assert_int_equal(png[24], 8); /* 8 bits a channel */
    assert_int_equal(png[25], 2); /* RGB */
    free(png);
    unlink(path);
    rmdir(dir);
    go_record_free(rec);
}

/* The scene sheet: 4 x 3 tiles, none blank; the counting column's last tile (the arranged board)
 * is not its first (the board as the game left it). */
static void test_scene_sheet(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("go-scoring/gg09_01003.sgf");
    char path[] = "/tmp/kifucam-scene-sheet-XXXXXX", err[300] = "";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    const int tw = 80, th = 60;
    if (!render_go_scene_sheet(rec, 3, tw, th, path, err, sizeof err)) fail_msg("%s", err);
    size_t len;
    char *jpg = tu_read_file(path, &len);
    assert_non_null(jpg);
    tjhandle tj = tjInitDecompress();
    int w = 0, h = 0, sub, cs;
    assert_int_equal(
        tjDecompressHeader3(tj, (unsigned char *)jpg, (unsigned long)len, &w, &h, &sub, &cs), 0);
    assert_int_equal(w, 4 * tw);
    assert_int_equal(h, 3 * th);
    uint8_t *rgb = malloc((size_t)w * h * 3);
    assert_int_equal(
        tjDecompress2(tj, (unsigned char *)jpg, (unsigned long)len, rgb, w, 0, h, TJPF_RGB, 0), 0);
    for (int k = 0; k < 12; k++) { /* something drawn in every tile */
        double s = 0, s2 = 0;
        int n = 0;
        for (int y = (k / 4) * th; y < (k / 4 + 1) * th; y++)
            for (int x = (k % 4) * tw; x < (k % 4 + 1) * tw; x++) {
                double l = rgb[((size_t)y * w + x) * 3 + 1];
                s += l;
                s2 += l * l;
                n++;
            }
        assert_true(sqrt(s2 / n - (s / n) * (s / n)) > 8);
    }
    /* the counting column is one render at three moments: the stones the counting put down or
     * moved change pixels far beyond the sensor noise (sigma 2-4 levels) */
    int changed = 0;
    for (int y = 0; y < th; y++)
        for (int x = 3 * tw; x < 4 * tw; x++) {
            int a = rgb[((size_t)y * w + x) * 3 + 1],
                b = rgb[((size_t)(y + 2 * th) * w + x) * 3 + 1];
            changed += abs(a - b) > 40;
        }
    tu_note("scene sheet: %.1f%% of the counting tile changed by more than 40 levels",
            100.0 * changed / (tw * th));
    assert_true(changed > tw * th / 50);
    free(rgb);
    tjDestroy(tj);
    free(jpg);
    unlink(path);
    go_record_free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_listing),
        cmocka_unit_test(test_time_line_unchanged),
        cmocka_unit_test(test_shadows_darken_and_cover_nothing),
        cmocka_unit_test(test_leaning_covers_what_it_hides),
        cmocka_unit_test(test_clock_hand_covers_nothing),
        cmocka_unit_test(test_same_seed_same_frames),
        cmocka_unit_test(test_shogi_scenes),
        cmocka_unit_test(test_contact_sheet_png),
        cmocka_unit_test(test_scene_sheet),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

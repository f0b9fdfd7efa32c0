/* bench/bench_shogi_vision.c — time per frame of the tracked shogi path (shogi_reader_observe and,
 * on settled views, shogi_reader_settled: what the daemon runs on every frame) against the Go
 * reader (vision_read_go, tracking) on rendered frames of the same size (colour for shogi, as
 * the daemon feeds it: the reader's grey copy is timed too; grey for Go), per scenario and seed:
 * median and 90th percentile. Rendering and the shogi start are not timed. Prints figures; never
 * fails on speed. bench_shogi_vision SHOGI_RECORD GO_RECORD.sgf [seeds]   (the tests' fixtures; 3
 * seeds) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record/sgf.h"
#include "record/shogi_record.h"
#include "render/render.h"
#include "vision/shogi_read.h"
#include "vision/vision.h"

#define W     640
#define H     480
#define MOVES 12 /* moves filmed per game */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Times of one run, sorted; the percentile q (0..1). */
static double pct(double *v, int n, double q)
{
    if (n < 1) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int i = (int)(q * (n - 1) + 0.5);
    return v[i];
}

static void gray_of(const uint8_t *rgb, int n, uint8_t *g)
{
    for (int i = 0; i < n; i++) {
        const uint8_t *p = rgb + 3 * i;
        g[i] = (uint8_t)((77 * p[0] + 150 * p[1] + 29 * p[2]) >> 8);
    }
}

static struct render_opts opts(enum render_scenario sc, uint64_t seed)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = W, o.height = H, o.seed = seed, o.scenario = sc, o.max_moves = MOVES;
    return o;
}

/* The shogi reader over every frame of one filmed game; times into ms (frames read). */
static int bench_shogi(const struct shogi_record *rec, enum render_scenario sc, uint64_t seed,
                       double *ms, int cap)
{
    struct render_opts o = opts(sc, seed);
    char err[300] = "";
    struct render_shogi *r = render_shogi_open(rec, &o, err, sizeof err);
    if (!r) {
        fprintf(stderr, "bench_shogi_vision: %s\n", err);
        exit(1);
    }
    struct render_shogi_frame *f = malloc(sizeof *f);
    uint8_t *g = malloc((size_t)W * H);
    struct shogi_reader *rd = shogi_reader_new();
    struct settle_params sp;
    settle_params_default(&sp);
    sp.min_conf = SHOGI_SETTLE_MIN_CONF;
    struct settler *st = settle_new(&sp);
    struct observation *obs = malloc(sizeof *obs);
    struct stable_obs *so = malloc(sizeof *so);
    if (!f || !g || !rd || !st || !obs || !so) exit(1);
    int n = 0, frames = render_shogi_frame_count(r);
    bool started = false;
    for (int i = 0; i < frames && n < cap; i++) {
        if (!render_shogi_frame(r, i, f, err, sizeof err)) {
            fprintf(stderr, "bench_shogi_vision: %s\n", err);
            exit(1);
        }
        struct vision_image img = {
            W, H, 3 * W, VISION_RGB24, f->rgb, (int64_t)(f->t * 1e9), (uint64_t)i + 1};
        if (!started) { /* as the daemon: the start is tried now and then, not timed here */
            if (i % 10 == 0) started = shogi_reader_start(rd, &img);
            continue;
        }
        double t0 = now_ms();
        bool found = shogi_reader_observe(rd, &img, obs);
        if (found && settle_push(st, obs, so)) shogi_reader_settled(rd, &so->obs);
        ms[n++] = now_ms() - t0;
    }
    free(so);
    free(obs);
    settle_free(st);
    shogi_reader_free(rd);
    free(g);
    free(f);
    render_shogi_close(r);
    return n;
}

/* The Go reader (tracking once it has the board) over every frame of one filmed game. */
static int bench_go(const struct go_record *rec, enum render_scenario sc, uint64_t seed, double *ms,
                    int cap)
{
    struct render_opts o = opts(sc, seed);
    char err[300] = "";
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) {
        fprintf(stderr, "bench_shogi_vision: %s\n", err);
        exit(1);
    }
    struct render_frame *f = malloc(sizeof *f);
    uint8_t *g = malloc((size_t)W * H);
    struct vision_detector *det = vision_detector_new();
    struct observation *obs = malloc(sizeof *obs);
    if (!f || !g || !det || !obs) exit(1);
    det->board_size = rec->width;
    int n = 0, frames = render_go_frame_count(r);
    for (int i = 0; i < frames && n < cap; i++) {
        if (!render_go_frame(r, i, f, err, sizeof err)) {
            fprintf(stderr, "bench_shogi_vision: %s\n", err);
            exit(1);
        }
        gray_of(f->rgb, W * H, g);
        struct vision_image img = {
            W, H, W, VISION_GRAY8, g, (int64_t)(f->t * 1e9), (uint64_t)i + 1};
        double t0 = now_ms();
        vision_read_go(det, &img, obs);
        double t = now_ms() - t0;
        if (!det->stats.refound) ms[n++] = t; /* the tracked path only */
    }
    free(obs);
    vision_detector_free(det);
    free(g);
    free(f);
    render_go_close(r);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_shogi_vision SHOGI_RECORD GO_RECORD.sgf [seeds]\n");
        return 2;
    }
    int seeds = argc > 3 ? atoi(argv[3]) : 3;
    struct shogi_record **sg = NULL;
    struct shogi_record_error se = {0};
    int nsg = shogi_record_read_file(argv[1], &sg, &se);
    struct go_record **gg = NULL;
    struct sgf_error ge = {0};
    int ngg = sgf_read_file(argv[2], &gg, &ge);
    if (nsg < 1 || ngg < 1 || seeds < 1) {
        fprintf(stderr, "bench_shogi_vision: %s %s\n", se.message, ge.message);
        return 1;
    }
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_PLAYER,
                                                  RENDER_SCENE_SIDE,     RENDER_SCENE_PARTIAL,
                                                  RENDER_SCENE_DIM,      RENDER_SCENE_GLARE};
    enum { CAP = 4000 };
    double *ms = malloc(CAP * sizeof *ms), *all_s = malloc(CAP * 64 * sizeof *ms),
           *all_g = malloc(CAP * 64 * sizeof *ms);
    if (!ms || !all_s || !all_g) return 1;
    int ns = 0, ng = 0;
    printf("%dx%d frames (shogi colour, go grey), %d moves filmed; ms per frame, median / 90th "
           "percentile per seed\n",
           W, H, MOVES);
    printf("%-9s %-34s %-34s\n", "scenario", "shogi tracked (observe+settled)",
           "go reader 19x19 (tracked)");
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        char line_s[160] = "", line_g[160] = "";
        for (int k = 0; k < seeds; k++) {
            uint64_t seed = 100 + 7 * (uint64_t)k;
            int n = bench_shogi(sg[0], scenes[s], seed, ms, CAP);
            if (ns + n <= CAP * 64) memcpy(all_s + ns, ms, (size_t)n * sizeof *ms), ns += n;
            size_t l = strlen(line_s);
            snprintf(line_s + l, sizeof line_s - l, " %.2f/%.2f", pct(ms, n, 0.5), pct(ms, n, 0.9));
            n = bench_go(gg[0], scenes[s], seed, ms, CAP);
            if (ng + n <= CAP * 64) memcpy(all_g + ng, ms, (size_t)n * sizeof *ms), ng += n;
            l = strlen(line_g);
            snprintf(line_g + l, sizeof line_g - l, " %.2f/%.2f", pct(ms, n, 0.5), pct(ms, n, 0.9));
        }
        printf("%-9s %-34s %-34s\n", render_scenario_name(scenes[s]), line_s, line_g);
    }
    double sm = pct(all_s, ns, 0.5), s9 = pct(all_s, ns, 0.9);
    double gm = pct(all_g, ng, 0.5), g9 = pct(all_g, ng, 0.9);
    printf("all: shogi %.2f ms median, %.2f p90 (%d frames); go %.2f ms median, %.2f p90 (%d "
           "frames); shogi/go %.2fx median, %.2fx p90\n",
           sm, s9, ns, gm, g9, ng, gm > 0 ? sm / gm : 0, g9 > 0 ? s9 / g9 : 0);
    free(all_g);
    free(all_s);
    free(ms);
    for (int i = 0; i < ngg; i++) go_record_free(gg[i]);
    free(gg);
    shogi_records_free(sg, nsg);
    return 0;
}

/* bench/bench_render.c — how fast `kifucam render` films: frames per second of render_go_frame /
 * render_shogi_frame (drawing, light and lens, no output) and with the JPEG encoding added, for a
 * 19x19 Go game and a shogi game at 640x480 and 1280x720, over 3 seeds (each seed its own scene:
 * style, view, light). Prints per seed and the spread; never fails on speed.
 * Usage: bench_render GO.sgf SHOGI.kif [FRAMES] (FRAMES per run, default 300, spread evenly over
 * the game). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "render/render.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

struct run {
    double fps, fps_jpeg, open_ms;
    int frames;
};

/* One render: `want` frames spread evenly over the whole game (early frames have few stones or
 * pieces to draw), drawn, then drawn and encoded (a second pass). */
static bool run_go(const struct go_record *rec, int w, int h, uint64_t seed, int want,
                   struct run *out)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = w;
    o.height = h;
    o.seed = seed;
    char err[300];
    double t0 = now();
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) {
        fprintf(stderr, "bench_render: %s\n", err);
        return false;
    }
    out->open_ms = (now() - t0) * 1e3;
    int n = render_go_frame_count(r) < want ? render_go_frame_count(r) : want;
    struct render_frame *f = malloc(sizeof *f);
    bool ok = f != NULL;
    for (int pass = 0; pass < 2 && ok; pass++) {
        double t1 = now();
        for (int i = 0; i < n && ok; i++) {
            ok = render_go_frame(r, (int)((long)i * render_go_frame_count(r) / n), f, err,
                                 sizeof err);
            size_t size;
            uint8_t *jpg = pass ? render_jpeg_encode(f->rgb, w, h, render_go_jpeg_quality(r), &size,
                                                     err, sizeof err)
                                : NULL;
            ok = ok && (!pass || jpg);
            free(jpg);
        }
        double fps = n / (now() - t1);
        *(pass ? &out->fps_jpeg : &out->fps) = fps;
    }
    out->frames = n;
    printf("    seed %llu: %s\n", (unsigned long long)seed, render_go_describe(r));
    free(f);
    render_go_close(r);
    return ok;
}

static bool run_shogi(const struct shogi_record *rec, int w, int h, uint64_t seed, int want,
                      struct run *out)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = w;
    o.height = h;
    o.seed = seed;
    char err[300];
    double t0 = now();
    struct render_shogi *r = render_shogi_open(rec, &o, err, sizeof err);
    if (!r) {
        fprintf(stderr, "bench_render: %s\n", err);
        return false;
    }
    out->open_ms = (now() - t0) * 1e3;
    int n = render_shogi_frame_count(r) < want ? render_shogi_frame_count(r) : want;
    struct render_shogi_frame *f = malloc(sizeof *f);
    bool ok = f != NULL;
    for (int pass = 0; pass < 2 && ok; pass++) {
        double t1 = now();
        for (int i = 0; i < n && ok; i++) {
            ok = render_shogi_frame(r, (int)((long)i * render_shogi_frame_count(r) / n), f, err,
                                    sizeof err);
            size_t size;
            uint8_t *jpg = pass ? render_jpeg_encode(f->rgb, w, h, render_shogi_jpeg_quality(r),
                                                     &size, err, sizeof err)
                                : NULL;
            ok = ok && (!pass || jpg);
            free(jpg);
        }
        double fps = n / (now() - t1);
        *(pass ? &out->fps_jpeg : &out->fps) = fps;
    }
    out->frames = n;
    printf("    seed %llu: %s\n", (unsigned long long)seed, render_shogi_describe(r));
    free(f);
    render_shogi_close(r);
    return ok;
}

static void report(const char *what, const struct run *runs, int n)
{
    double lo = 1e30, hi = 0, sum = 0, jlo = 1e30, jhi = 0, jsum = 0, osum = 0;
    for (int i = 0; i < n; i++) {
        lo = runs[i].fps < lo ? runs[i].fps : lo;
        hi = runs[i].fps > hi ? runs[i].fps : hi;
        jlo = runs[i].fps_jpeg < jlo ? runs[i].fps_jpeg : jlo;
        jhi = runs[i].fps_jpeg > jhi ? runs[i].fps_jpeg : jhi;
        sum += runs[i].fps;
        jsum += runs[i].fps_jpeg;
        osum += runs[i].open_ms;
        printf("    seed %d: %d frames, %.1f frames/s drawn, %.1f with JPEG, open %.0f ms\n", i + 1,
               runs[i].frames, runs[i].fps, runs[i].fps_jpeg, runs[i].open_ms);
    }
    printf("  %s: %.1f frames/s drawn (%.1f .. %.1f over %d seeds), %.1f with JPEG (%.1f .. "
           "%.1f), open %.0f ms\n",
           what, sum / n, lo, hi, n, jsum / n, jlo, jhi, osum / n);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_render GO.sgf SHOGI.kif [FRAMES]\n");
        return 2;
    }
    int want = argc > 3 ? atoi(argv[3]) : 300;
    struct go_record **games = NULL;
    struct sgf_error gerr = {0};
    int ng = sgf_read_file(argv[1], &games, &gerr);
    struct shogi_record **sgames = NULL;
    struct shogi_record_error serr = {0};
    int ns = shogi_record_read_file(argv[2], &sgames, &serr);
    if (ng < 1 || ns < 1) {
        fprintf(stderr, "bench_render: %s\n", ng < 1 ? gerr.message : serr.message);
        return 2;
    }
    static const int sizes[2][2] = {{640, 480}, {1280, 720}};
    bool ok = true;
    for (int s = 0; s < 2 && ok; s++) {
        int w = sizes[s][0], h = sizes[s][1];
        struct run runs[3];
        char what[96];
        printf("Go %dx%d, %dx%d:\n", games[0]->width, games[0]->height, w, h);
        for (int k = 0; k < 3 && ok; k++)
            ok = run_go(games[0], w, h, (uint64_t)k + 1, want, &runs[k]);
        snprintf(what, sizeof what, "go %dx%d at %dx%d", games[0]->width, games[0]->height, w, h);
        if (ok) report(what, runs, 3);
        printf("shogi, %dx%d:\n", w, h);
        for (int k = 0; k < 3 && ok; k++)
            ok = run_shogi(sgames[0], w, h, (uint64_t)k + 1, want, &runs[k]);
        snprintf(what, sizeof what, "shogi at %dx%d", w, h);
        if (ok) report(what, runs, 3);
    }
    for (int i = 0; i < ng; i++) go_record_free(games[i]);
    for (int i = 0; i < ns; i++) shogi_record_free(sgames[i]);
    free(games);
    free(sgames);
    return ok ? 0 : 1;
}

/* bench/bench_vision.c — speed of the vision stage on rendered 19x19 frames: finding the board
 * from scratch and the tracked path (grid kept from the previous frame), per stage, at 1280x720
 * and 1920x1080. Prints figures; never fails on speed.
 *   bench_vision RECORD.sgf [repeats] [WxH]   (repeats 20; both sizes unless one is given)
 * The two paths run in their own functions (find_from_scratch, follow_tracked) so that
 * scripts/bench-callgrind.sh can count each one's instructions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "vision/vision.h"

/* reps frames each read from scratch; how many found the board; ms per stage and frame */
__attribute__((noinline)) static int find_from_scratch(struct vision_detector *det,
                                                       const struct vision_image *img,
                                                       struct observation *obs, int reps,
                                                       double *ms)
{
    int found = 0;
    for (int i = 0; i < reps; i++) {
        vision_detector_reset(det);
        found += vision_read_go(det, img, obs);
        for (int s = 0; s < VSTAGE_COUNT; s++) ms[s] += det->stage_ms[s] / reps;
    }
    return found;
}

/* reps frames each read with the grid of the frame before; how many were tracked */
__attribute__((noinline)) static int follow_tracked(struct vision_detector *det,
                                                    const struct vision_image *img,
                                                    struct observation *obs, int reps, double *ms)
{
    int tracked = 0;
    for (int i = 0; i < reps; i++) {
        vision_read_go(det, img, obs);
        tracked += obs->tracked;
        for (int s = 0; s < VSTAGE_COUNT; s++) ms[s] += det->stage_ms[s] / reps;
    }
    return tracked;
}

static void bench(const struct go_record *rec, int w, int h, int reps)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = w, o.height = h, o.seed = 7, o.style = RENDER_STYLE_KAYA;
    o.scenario = RENDER_SCENE_PLAYER, o.max_moves = 60;
    char err[300];
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) {
        fprintf(stderr, "bench_vision: %s\n", err);
        exit(1);
    }
    struct render_frame *f = malloc(sizeof *f);
    int idx = render_go_find_frame(r, 50, false);
    if (idx < 0) idx = render_go_frame_count(r) - 1;
    if (!f || !render_go_frame(r, idx, f, err, sizeof err)) {
        fprintf(stderr, "bench_vision: %s\n", err);
        exit(1);
    }
    struct vision_image img = {.width = f->width,
                               .height = f->height,
                               .stride = f->width * 3,
                               .fmt = VISION_RGB24,
                               .data = f->rgb};
    struct vision_detector *det = vision_detector_new();
    det->board_size = rec->width;
    /* VISION_DEBUG_DIR: write each stage's image there */
    det->debug_dir = getenv("VISION_DEBUG_DIR");
    det->debug = det->debug_dir != NULL;
    if (getenv("VISION_WORK_SIZE")) det->work_size = atoi(getenv("VISION_WORK_SIZE"));
    struct observation *obs = malloc(sizeof *obs);
    double find_ms[VSTAGE_COUNT] = {0}, track_ms[VSTAGE_COUNT] = {0};
    int found = find_from_scratch(det, &img, obs, reps, find_ms);
    struct vision_stats fs = det->stats; /* of the last find from scratch */
    int tracked = follow_tracked(det, &img, obs, reps, track_ms);
    /* the found grid against the render's truth: worst corner, in line spacings */
    double worst = -1;
    if (found) {
        double side =
            hypot(f->corners[1][0] - f->corners[0][0], f->corners[1][1] - f->corners[0][1]);
        for (int c = 0; c < 4; c++) {
            double best = 1e18;
            for (int k = 0; k < 4; k++)
                best = fmin(best, hypot(obs->corners[c][0] - f->corners[k][0],
                                        obs->corners[c][1] - f->corners[k][1]));
            worst = fmax(worst, best / (side / (rec->width - 1)));
        }
    }
    double tf = 0, tt = 0;
    printf("%dx%d 19x19 (%s): board found %d/%d, tracked %d/%d\n", w, h, render_go_describe(r),
           found, reps, tracked, reps);
    printf("  worst corner off its true place: %.2f line spacings (-1: not found)\n", worst);
    printf("  last find: %d segments, lines %d/%d, on the lattice %d/%d\n", fs.segments,
           fs.lines[0], fs.lines[1], fs.lattice_lines[0], fs.lattice_lines[1]);
    for (int s = 0; s < VSTAGE_COUNT; s++) {
        printf("  %-9s find %7.2f ms   tracked %7.2f ms\n", vision_stage_name(s), find_ms[s],
               track_ms[s]);
        tf += find_ms[s], tt += track_ms[s];
    }
    printf("  %-9s find %7.2f ms   tracked %7.2f ms\n", "total", tf, tt);
    free(obs);
    vision_detector_free(det);
    free(f);
    render_go_close(r);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : NULL;
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    if (!path || reps < 1) {
        fprintf(stderr, "usage: bench_vision RECORD.sgf [repeats] [WxH]\n");
        return 2;
    }
    struct go_record **games = NULL;
    struct sgf_error e = {0};
    int n = sgf_read_file(path, &games, &e);
    if (n < 1) {
        fprintf(stderr, "bench_vision: %s: %s\n", path, e.message);
        return 1;
    }
    int w = 0, h = 0;
    if (argc > 3 && (sscanf(argv[3], "%dx%d", &w, &h) != 2 || w < 64 || h < 64)) {
        fprintf(stderr, "bench_vision: %s: not a frame size (WxH)\n", argv[3]);
        return 2;
    }
    if (w) {
        bench(games[0], w, h, reps);
    } else {
        bench(games[0], 1280, 720, reps);
        bench(games[0], 1920, 1080, reps);
    }
    for (int i = 0; i < n; i++) go_record_free(games[i]);
    free(games);
    return 0;
}

/* tests/vision/test_read_render.c — the whole vision stage on rendered footage with exact truth
 * (render/render.h): real games filmed by a simulated camera, every style and scenario, frames
 * read in order as a camera delivers them (tracking between frames), observations settled.
 * Figures per style and per scenario: board found on frames without a hand, per-intersection
 * accuracy, exact boards, uncovered points taken for covered and stones read on empty points
 * on settled frames, stones read on hand-covered points, and stable observations against the
 * truth. VISION_VERBOSE=1 prints every render; VISION_DUMP=1 names each stone read on a covered
 * point and each point misread on a settled frame. */
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
#include "tests/vision/go_align.h"
#include "vision/vision.h"

struct tally {
    long nohand_frames, nohand_found;
    long settled_frames, settled_exact, points, points_right;
    long stones_true, stones_read, stones_hit; /* stone precision / recall on settled frames */
    long covered_points, covered_stone_reads, covered_flagged;
    long settled_occluded;     /* uncovered points flagged occluded on settled frames */
    long settled_false_stones; /* stones read on empty points of settled frames */
    long stables, stables_exact;
    long oriented, orient_wrong; /* placed frames; of them, row 0 / column 0 not top / left */
    /* settled frames counting only the points inside the frame (a partial view cannot see the
     * rest): points, right, frames exact */
    long vis_points, vis_right, vis_exact;
    long unseen; /* points on settled frames the reader says it cannot see (out of the picture) */
    /* settled frames exact when a point the truth covers (a player leaning in hides it on a
     * settled frame) counts right read covered: what a reader can get right */
    long exact_cov;
    long settled_placed; /* settled frames whose board is found and placed */
    double ms_find, ms_track;
    long n_find, n_track;
};

/* Truth point tp's intersection lies at least margin pixels inside the picture. */
static bool in_frame(const struct render_frame *f, int tp, double margin)
{
    const double *px = f->point_px[tp];
    return px[0] >= margin && px[1] >= margin && px[0] < f->width - margin &&
           px[1] < f->height - margin;
}

/* Point p of the reading against truth point tp: a point read out of the picture (no evidence,
 * OBS_OUT_OF_VIEW_CONF) is right unless its intersection lies well inside it (by more than
 * half a spacing: a stone cut by the picture's edge may be said out of view), whatever lies
 * there; any other the value. */
static bool read_right(const struct observation *o, int p, const struct render_frame *f, int tp)
{
    if (!o->occluded[p] && o->conf[p] < 0.5f) return !in_frame(f, tp, 0.5 * go_spacing(f));
    return !o->occluded[p] && o->point[p] == f->stone[tp];
}

static struct go_record *load(const char *rel)
{
    struct go_record **games = NULL;
    struct sgf_error err = {0};
    const char *path = tu_path(tu_fixtures_dir(), rel);
    int n = sgf_read_file(path, &games, &err);
    if (n < 1) fail_msg("%s: %s", path, err.message);
    for (int i = 1; i < n; i++) go_record_free(games[i]);
    struct go_record *r = games[0];
    free(games);
    return r;
}

/* Whether row 0 is the edge of the true grid nearest the image's top and runs from its left end
 * (column 0) to its right: `kifucam read` prints rows in this order. */
static bool top_left_first(const struct observation *o, const double c[4][2], double tol)
{
    int e = 0;
    for (int k = 1; k < 4; k++)
        if (c[k][1] + c[(k + 1) % 4][1] < c[e][1] + c[(e + 1) % 4][1]) e = k;
    const double *a = c[e], *b = c[(e + 1) % 4];
    if (b[0] < a[0]) {
        const double *x = a;
        a = b, b = x;
    }
    return hypot(o->corners[0][0] - a[0], o->corners[0][1] - a[1]) < tol &&
           hypot(o->corners[1][0] - b[0], o->corners[1][1] - b[1]) < tol;
}

static void run_game(const char *name, const char *rel, enum render_style style,
                     enum render_scenario sc, uint64_t seed, int moves, int stride, int width,
                     int height, struct tally *t)
{
    struct go_record *rec = load(rel);
    struct render_opts o;
    render_opts_default(&o);
    o.width = width, o.height = height, o.seed = seed, o.style = style, o.scenario = sc;
    o.max_moves = moves;
    char err[300] = "";
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    struct vision_detector *det = vision_detector_new();
    det->board_size = rec->width;
    struct settler *st = settle_new(NULL);
    struct render_frame *f = malloc(sizeof *f);
    struct observation *obs = malloc(sizeof *obs);
    struct stable_obs *so = malloc(sizeof *so);
    bool dump = getenv("VISION_DUMP") != NULL;
    /* VISION_DEBUG_AT=style/scenario:frame writes that frame's stage images (vision/debug_out.c)
     * into VISION_DEBUG_DIR, for a look at one case VISION_DUMP names */
    const char *at = getenv("VISION_DEBUG_AT");
    int debug_frame = -1;
    size_t nl = strlen(name);
    if (at && strncmp(at, name, nl) == 0 && at[nl] == ':') debug_frame = atoi(at + nl + 1);
    det->debug_dir = getenv("VISION_DEBUG_DIR");
    /* VISION_GREY=1 reads grey frames (the luma a camera's Y plane or a grey JPEG decode
     * gives), to measure what the reader's colour cues are worth */
    bool grey = getenv("VISION_GREY") != NULL;
    uint8_t *luma = grey ? malloc((size_t)width * height) : NULL;
    int nf = render_go_frame_count(r);
    for (int i = 0; i < nf; i += stride) {
        if (!render_go_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        struct vision_image img = {.width = f->width,
                                   .height = f->height,
                                   .stride = f->width * 3,
                                   .fmt = VISION_RGB24,
                                   .data = f->rgb,
                                   .t_ns = (int64_t)llround(f->t * 1e9),
                                   .seq = (uint64_t)i};
        if (luma) {
            /* BT.601, as capture/convert.c (a JPEG's Y) */
            for (size_t q = 0; q < (size_t)f->width * f->height; q++) {
                const uint8_t *c = f->rgb + 3 * q;
                luma[q] = (uint8_t)((19595 * c[0] + 38470 * c[1] + 7471 * c[2] + 32768) >> 16);
            }
            img.fmt = VISION_GRAY8, img.stride = f->width, img.data = luma;
        }
        det->debug = i == debug_frame;
        bool found = vision_read_go(det, &img, obs);
        double ms = 0;
        for (int s = 0; s < VSTAGE_COUNT; s++) ms += det->stage_ms[s];
        if (det->stats.refound)
            t->ms_find += ms, t->n_find++;
        else
            t->ms_track += ms, t->n_track++;
        int sym = 0;
        double off = found ? go_align(obs, f, &sym) / go_spacing(f) : -1;
        bool placed = found && off < 0.5;
        /* VISION_TRACE=1: each frame's grid against the truth (worst point off, in spacings),
         * whether it was searched from scratch and its line contrast */
        if (getenv("VISION_TRACE") && i == 0)
            tu_note("  %s: the truth's corners (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f)",
                    name, f->corners[0][0], f->corners[0][1], f->corners[1][0], f->corners[1][1],
                    f->corners[2][0], f->corners[2][1], f->corners[3][0], f->corners[3][1]);
        if (getenv("VISION_TRACE"))
            tu_note("  %s frame %d: %s off %.2f sp, %s, track %.2f, grid score %.2f, n %d%s", name,
                    i, found ? "found" : "none", off, det->stats.refound ? "refound" : "tracked",
                    det->stats.track_score, det->stats.grid_score, found ? f->cols : 0,
                    f->hand_in_view ? ", hand" : "");
        if (!f->hand_in_view) {
            t->nohand_frames++;
            t->nohand_found += placed;
        }
        int n = f->cols;
        if (placed) {
            t->oriented++;
            t->orient_wrong += !top_left_first(obs, f->corners, 0.5 * go_spacing(f));
            bool exact = true, vis_exact = true, exact_cov = true;
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    int tx, ty, p = y * OBS_MAX + x;
                    go_sym_apply(sym, n, x, y, &tx, &ty);
                    int tp = go_point(tx, ty);
                    int mine = obs->occluded[p] ? -1 : obs->point[p];
                    if (f->covered[tp]) {
                        t->covered_points++;
                        t->covered_stone_reads += mine == OBS_BLACK || mine == OBS_WHITE;
                        t->covered_flagged += obs->occluded[p];
                        if (dump && (mine == OBS_BLACK || mine == OBS_WHITE))
                            tu_note(
                                "  frame %d: covered (%d,%d) read %s, truth %s (reader's %d,%d)", i,
                                tx, ty, mine == OBS_BLACK ? "black" : "white",
                                f->stone[tp] == GO_BLACK   ? "black"
                                : f->stone[tp] == GO_WHITE ? "white"
                                                           : "empty",
                                x, y);
                    }
                    if (!f->settled) continue;
                    t->points++;
                    t->settled_occluded += obs->occluded[p] && !f->covered[tp];
                    bool right = read_right(obs, p, f, tp);
                    if (dump && !right)
                        tu_note("  frame %d: settled (%d,%d) read %s, truth %s (reader's %d,%d)", i,
                                tx, ty,
                                mine < 0            ? "occluded"
                                : mine == OBS_BLACK ? "black"
                                : mine == OBS_WHITE ? "white"
                                                    : "empty",
                                f->stone[tp] == GO_BLACK   ? "black"
                                : f->stone[tp] == GO_WHITE ? "white"
                                                           : "empty",
                                x, y);
                    t->settled_false_stones +=
                        (mine == OBS_BLACK || mine == OBS_WHITE) && f->stone[tp] == GO_EMPTY;
                    t->points_right += right;
                    exact &= right;
                    exact_cov &= right || (f->covered[tp] && obs->occluded[p]);
                    t->unseen += !obs->occluded[p] && obs->conf[p] < 0.5f;
                    if (in_frame(f, tp, 0)) {
                        t->vis_points++;
                        t->vis_right += right;
                        vis_exact &= right;
                    }
                    /* recall over the stones in the picture (and any read leaning into it) */
                    t->stones_true +=
                        f->stone[tp] != GO_EMPTY &&
                        (in_frame(f, tp, 0) || mine == OBS_BLACK || mine == OBS_WHITE);
                    t->stones_read += mine == OBS_BLACK || mine == OBS_WHITE;
                    t->stones_hit += f->stone[tp] != GO_EMPTY && mine == f->stone[tp];
                }
            if (f->settled)
                t->settled_exact += exact, t->vis_exact += vis_exact, t->exact_cov += exact_cov,
                    t->settled_placed++;
        }
        if (f->settled) t->settled_frames++;
        if (settle_push(st, obs, so) && placed) {
            t->stables++;
            bool exact = true;
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++) {
                    int tx, ty;
                    go_sym_apply(sym, n, x, y, &tx, &ty);
                    exact &= read_right(&so->obs, y * OBS_MAX + x, f, go_point(tx, ty));
                }
            t->stables_exact += exact;
        }
    }
    free(luma);
    free(f);
    free(obs);
    free(so);
    settle_free(st);
    vision_detector_free(det);
    render_go_close(r);
    go_record_free(rec);
}

static double pct(long a, long b)
{
    return b ? 100.0 * a / b : 100.0;
}

static void note(const char *name, const struct tally *t)
{
    if (!t->nohand_frames && !t->settled_frames && !t->covered_points) return;
    tu_note(
        "%-9s found %5.1f%% (%ld no-hand frames) | settled: points %.3f%% exact %.1f%% "
        "(%ld frames) falsely occluded %.2f%% false stones %ld, stone P/R %.1f/%.1f%% | "
        "covered: %ld "
        "stones read on %ld "
        "points, %.0f%% flagged | stable %ld/%ld exact | in frame: points %.3f%% exact %.1f%%; "
        "out of view %.2f%%; exact %.1f%% with covered points read covered; exact %.1f%% of the "
        "%ld with the board found",
        name, pct(t->nohand_found, t->nohand_frames), t->nohand_frames,
        pct(t->points_right, t->points), pct(t->settled_exact, t->settled_frames),
        t->settled_frames, pct(t->settled_occluded, t->points), t->settled_false_stones,
        pct(t->stones_hit, t->stones_read), pct(t->stones_hit, t->stones_true),
        t->covered_stone_reads, t->covered_points, pct(t->covered_flagged, t->covered_points),
        t->stables_exact, t->stables, pct(t->vis_right, t->vis_points),
        pct(t->vis_exact, t->settled_frames), pct(t->unseen, t->points),
        pct(t->exact_cov, t->settled_frames), pct(t->settled_exact, t->settled_placed),
        t->settled_placed);
}

static void add(struct tally *a, const struct tally *b)
{
    long *pa = (long *)a;
    const long *pb = (const long *)b;
    /* all long counters first, then the four timing fields */
    for (size_t i = 0; i < offsetof(struct tally, ms_find) / sizeof(long); i++) pa[i] += pb[i];
    a->ms_find += b->ms_find, a->ms_track += b->ms_track;
    a->n_find += b->n_find, a->n_track += b->n_track;
}

static const char *const games[] = {"go-check/gnugo-selfplay-tt/gg09_02050.sgf",
                                    "go-check/gnugo-selfplay-tt/gg13_06036.sgf",
                                    "go-check/gnugo-selfplay-tt/gg09_02247.sgf"};

/* The 36 renders of one seed (4 styles x 9 scenarios, render k seeded seed0 + k), tallied per
 * style, per scenario and in all. only: see VISION_RENDER_ONLY. */
/* The frame size: 512x384 (the floors' figures); VISION_RENDER_SIZE=WxH films larger frames,
 * where board finding works on a shrunk copy (vision_detector.work_size), by hand */
static int frame_w = 512, frame_h = 384;

static void run_seed(uint64_t seed0, int moves, const char *only, struct tally *by_style,
                     struct tally *by_scene, struct tally *all)
{
    int k = 0;
    for (int st = RENDER_STYLE_KAYA; st < RENDER_STYLE_COUNT; st++)
        for (int sc = RENDER_SCENE_OVERHEAD; sc < RENDER_SCENE_COUNT; sc++, k++) {
            struct tally t = {0};
            char name[64];
            snprintf(name, sizeof name, "%s/%s", render_style_name((enum render_style)st),
                     render_scenario_name((enum render_scenario)sc));
            if (only && strncmp(name, only, strlen(only)) != 0) continue;
            if (getenv("VISION_DUMP")) tu_note("%s:", name);
            run_game(name, games[k % 3], (enum render_style)st, (enum render_scenario)sc,
                     seed0 + (uint64_t)k, moves, 3, frame_w, frame_h, &t);
            if (getenv("VISION_VERBOSE")) note(name, &t);
            add(&by_style[st], &t);
            add(&by_scene[sc], &t);
            add(all, &t);
        }
}

/* One scenario's figures over several seeds: the lowest and highest, so that a change is judged
 * by its spread and not by one seed's luck. */
static void note_spread(const char *name, const struct tally *per_seed, int nseeds)
{
    double lo[5], hi[5];
    for (int i = 0; i < 5; i++) lo[i] = 1e9, hi[i] = -1e9;
    int used = 0;
    for (int s = 0; s < nseeds; s++) {
        const struct tally *t = &per_seed[s];
        if (!t->nohand_frames && !t->settled_frames && !t->covered_points) continue;
        used++;
        double v[5] = {pct(t->nohand_found, t->nohand_frames), pct(t->points_right, t->points),
                       pct(t->settled_exact, t->settled_frames), (double)t->covered_stone_reads,
                       pct(t->stones_hit, t->stones_true)};
        for (int i = 0; i < 5; i++) lo[i] = fmin(lo[i], v[i]), hi[i] = fmax(hi[i], v[i]);
    }
    if (!used) return;
    tu_note("%-9s over %d seeds: found %.1f..%.1f%% points %.3f..%.3f%% exact %.1f..%.1f%% "
            "stones on covered %.0f..%.0f recall %.1f..%.1f%%",
            name, used, lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], lo[3], hi[3], lo[4], hi[4]);
}

#define MAX_SEEDS 16

static void test_render_styles_scenarios(void **state)
{
    (void)state;
    const char *env = getenv("VISION_RENDER_MOVES");
    int moves = env ? atoi(env) : 6;
    struct tally by_style[RENDER_STYLE_COUNT] = {0}, by_scene[RENDER_SCENE_COUNT] = {0}, all = {0};
    /* VISION_RENDER_ONLY=style/scenario (a prefix, e.g. "vinyl/" or "kaya/glare") runs only
     * those renders, for work on one case; the floors are then not asserted */
    const char *only = getenv("VISION_RENDER_ONLY");
    /* VISION_RENDER_SEED=N renders other scenes of the same games (the camera, light and hands
     * the seed picks), to check that a change holds beyond these 36 renders; a list (e.g.
     * "100,500,900") runs each, prints each seed's scenarios and the spread over the seeds */
    const char *size_env = getenv("VISION_RENDER_SIZE");
    if (size_env && sscanf(size_env, "%dx%d", &frame_w, &frame_h) != 2)
        frame_w = 512, frame_h = 384;
    const char *seed_env = getenv("VISION_RENDER_SEED");
    uint64_t seeds[MAX_SEEDS] = {100};
    int nseeds = 1;
    if (seed_env) {
        nseeds = 0;
        for (const char *c = seed_env; *c && nseeds < MAX_SEEDS;) {
            char *end;
            seeds[nseeds++] = strtoull(c, &end, 10);
            c = *end == ',' ? end + 1 : end + strlen(end);
        }
    }
    struct tally(*scene_seed)[MAX_SEEDS] = calloc(RENDER_SCENE_COUNT, sizeof *scene_seed);
    struct tally all_seed[MAX_SEEDS] = {0};
    assert_non_null(scene_seed);
    for (int s = 0; s < nseeds; s++) {
        struct tally st[RENDER_STYLE_COUNT] = {0}, sc[RENDER_SCENE_COUNT] = {0};
        run_seed(seeds[s], moves, only, st, sc, &all_seed[s]);
        for (int i = 0; i < RENDER_STYLE_COUNT; i++) add(&by_style[i], &st[i]);
        for (int i = 0; i < RENDER_SCENE_COUNT; i++) {
            add(&by_scene[i], &sc[i]);
            scene_seed[i][s] = sc[i];
        }
        add(&all, &all_seed[s]);
        if (nseeds < 2) continue;
        tu_note("seed %llu:", (unsigned long long)seeds[s]);
        for (int i = RENDER_SCENE_OVERHEAD; i < RENDER_SCENE_COUNT; i++)
            note(render_scenario_name((enum render_scenario)i), &sc[i]);
        note("all", &all_seed[s]);
    }
    if (nseeds > 1) {
        for (int i = RENDER_SCENE_OVERHEAD; i < RENDER_SCENE_COUNT; i++)
            note_spread(render_scenario_name((enum render_scenario)i), scene_seed[i], nseeds);
        note_spread("all", all_seed, nseeds);
    }
    free(scene_seed);
    tu_note("rendered %dx%d, %d moves of 3 games (9x9, 13x13, 9x9), every 3rd frame (10 fps), "
            "4 styles x 9 scenarios, %d seed(s):",
            frame_w, frame_h, moves, nseeds);
    for (int st = RENDER_STYLE_KAYA; st < RENDER_STYLE_COUNT; st++)
        note(render_style_name((enum render_style)st), &by_style[st]);
    for (int sc = RENDER_SCENE_OVERHEAD; sc < RENDER_SCENE_COUNT; sc++)
        note(render_scenario_name((enum render_scenario)sc), &by_scene[sc]);
    note("all", &all);
    tu_note("orientation: row 0 the top edge and column 0 the left in %ld of %ld placed frames",
            all.oriented - all.orient_wrong, all.oriented);
    tu_note("time per frame: find from scratch %.1f ms (%ld), tracked %.1f ms (%ld)",
            all.n_find ? all.ms_find / all.n_find : 0, all.n_find,
            all.n_track ? all.ms_track / all.n_track : 0, all.n_track);
    /* floors: first measured 74.1 % found, 96.6 % points, 66/66 stable exact, 65 stones read on
     * 2116 covered points; with the star-point anchor and the colour test for occlusion 81.3 %
     * found, 96.54 % points, 69/69 stable exact, 15 stones read on 2238 covered points; with
     * grids scored against the line mask and stones next to a hand not trusted 87.8 % found,
     * 96.43 % points, 72/72 stable exact, 12 stones read on 2509 covered points. With the people
     * scenarios (shadows, leaning, clock) 88.4 % found, 97.64 % points, 53.5 % exact, 2.34 % of
     * uncovered settled points occluded, 129/129 stable exact, 29 stones read on 4009 covered
     * points; with the margin sampled inside the board, a point's visible lines trusted over
     * its gaps, grey and dark gaps, hands grown along their length: 88.4 % found, 99.83 %
     * points, 78.2 % exact, 0.14 % occluded, 197/197 stable exact, 3 stones on 4009 covered
     * points. With hands no longer their own board reference, skin beside a stone, hand regions
     * reaching the edge, black stones in glare and the frame's edge in partial views: 88.4 %
     * found, 99.876 % points, 81.9 % exact, 0.10 % occluded, 205/205 stable exact, 1 stone on
     * 4009 covered points; over seeds 100, 500, 900, 1300, 1700, 2100, 2500 points 99.488 ..
     * 99.907 %, exact 73.8 .. 85.3 %, stones on covered points 0 .. 4. Raise them as the reader
     * improves (the goal for covered points is zero). Raised with the white flank and the
     * stones' shadows in dim light: 99.896 % points, 82.4 % exact, 329/329 stable exact. With
     * the board's edge no grid line, grained wood's well-inked lines and the points out of the
     * picture said so (and counted right where they are): 94.3 % found, 99.901 % points, 88.0 %
     * exact, 354/355 stable exact. With a lamp's glare no cover (the lines' test scaled by the
     * glare's share, washed-out points not seen, black stones in it): 99.922 % points, 90.3 %
     * exact, 363/364 stable exact, 3 stones on 4161 covered points (2 before). With white
     * stones in dim light read white when they hide the lines though a little darker than the
     * board: 99.949 % points, 91.3 % exact, 367/368 stable exact. With a point's lines told by
     * their valleys (three arms of four, within a few pixels of the grid) and white stones
     * hiding them though darker than the board: 99.975 % points, 92.8 % exact (99.0 % of the
     * frames whose board is found), 377/377 stable exact, 1 stone on 4161 covered points. With
     * the board searched for on thin lines first (a 3x3 median erased them) and on the median
     * when that grid is doubtful: 100.0 % found (94.3 % before), 99.982 % points, 99.2 %
     * exact, 404/404 stable exact, 1 stone on 4368 covered points. */
    if (only || seed_env || size_env) return; /* the floors hold for the 36 renders above */
    assert_true(pct(all.nohand_found, all.nohand_frames) >= 99);
    assert_true(pct(all.points_right, all.points) >= 99.97);
    assert_true(all.settled_exact * 100 >= 98 * all.settled_frames);
    assert_true(all.settled_occluded * 1000 <= 2 * all.points);
    assert_true(all.stables > 150 && all.stables_exact * 100 >= 99 * all.stables);
    assert_true(all.covered_stone_reads * 1000 <= 1 * all.covered_points);
    assert_true(all.oriented > 1000 && all.orient_wrong == 0);
}

/* The first frame of a render (512x384, as above) read from scratch: the grid found lies on the
 * truth's within half a spacing at every point the frame shows. */
static void assert_first_frame_placed(const char *rel, enum render_style style,
                                      enum render_scenario sc, uint64_t seed)
{
    struct go_record *rec = load(rel);
    struct render_opts o;
    render_opts_default(&o);
    o.width = 512, o.height = 384, o.seed = seed, o.style = style, o.scenario = sc;
    o.max_moves = 6;
    char err[300] = "";
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    struct render_frame *f = malloc(sizeof *f);
    struct observation *obs = malloc(sizeof *obs);
    assert_non_null(f);
    assert_non_null(obs);
    if (!render_go_frame(r, 0, f, err, sizeof err)) fail_msg("%s", err);
    struct vision_detector *det = vision_detector_new();
    det->board_size = rec->width;
    struct vision_image img = {.width = f->width,
                               .height = f->height,
                               .stride = f->width * 3,
                               .fmt = VISION_RGB24,
                               .data = f->rgb};
    assert_true(vision_read_go(det, &img, obs));
    int sym;
    double off = go_align(obs, f, &sym) / go_spacing(f);
    tu_note("%s/%s seed %llu, frame 0: the grid %.2f spacings off the truth at worst",
            render_style_name(style), render_scenario_name(sc), (unsigned long long)seed, off);
    assert_true(off < 0.5);
    vision_detector_free(det);
    free(obs);
    free(f);
    render_go_close(r);
    go_record_free(rec);
}

/* A board partly out of the picture, its lines' families each seen whole (session 24): the grid
 * spaced by half the board's in one family fits inside the picture, every other line on the
 * grain stripes a light board's squares show (seed 1's light/partial render, 13) or on plain
 * wood beside a folding board's crease (seed 900's folding/partial, 930), and scored above the
 * board's own grid, which reaches out of the picture: it was taken 4 spacings off, and tracked
 * so for the whole film. */
static void test_partial_half_spacing(void **state)
{
    (void)state;
    assert_first_frame_placed(games[0], RENDER_STYLE_LIGHT_WOOD, RENDER_SCENE_PARTIAL, 13);
    assert_first_frame_placed(games[0], RENDER_STYLE_FOLDING, RENDER_SCENE_PARTIAL, 930);
}

/* A black stone whose point lies beyond the picture's edge (its body cut by it) on a settled
 * frame with no hand (seed 500's vinyl/partial render, 521, frame 45): read out of the
 * picture (no evidence, not occluded), as the other points beyond the edge are; occluded, it
 * cost that film 33 settled points and kept its views from settling. */
static void test_stone_beyond_edge_out_of_view(void **state)
{
    (void)state;
    struct go_record *rec = load(games[0]);
    struct render_opts o;
    render_opts_default(&o);
    o.width = 512, o.height = 384, o.seed = 521, o.style = RENDER_STYLE_VINYL;
    o.scenario = RENDER_SCENE_PARTIAL, o.max_moves = 6;
    char err[300] = "";
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    struct render_frame *f = malloc(sizeof *f);
    struct observation *obs = malloc(sizeof *obs);
    assert_non_null(f);
    assert_non_null(obs);
    if (!render_go_frame(r, 45, f, err, sizeof err)) fail_msg("%s", err);
    assert_true(f->settled && !f->hand_in_view);
    struct vision_detector *det = vision_detector_new();
    det->board_size = rec->width;
    struct vision_image img = {.width = f->width,
                               .height = f->height,
                               .stride = f->width * 3,
                               .fmt = VISION_RGB24,
                               .data = f->rgb};
    assert_true(vision_read_go(det, &img, obs));
    int sym;
    assert_true(go_align(obs, f, &sym) < 0.5 * go_spacing(f));
    int beyond = 0, wrong = 0;
    for (int y = 0; y < f->cols; y++)
        for (int x = 0; x < f->cols; x++) {
            int tx, ty, p = y * OBS_MAX + x;
            go_sym_apply(sym, f->cols, x, y, &tx, &ty);
            int tp = go_point(tx, ty);
            if (in_frame(f, tp, 0)) continue;
            beyond += f->stone[tp] != GO_EMPTY;
            wrong += !read_right(obs, p, f, tp);
        }
    tu_note("vinyl/partial seed 521, frame 45: %d stones beyond the edge, %d points beyond it "
            "read wrong",
            beyond, wrong);
    assert_true(beyond >= 1);
    assert_int_equal(wrong, 0);
    vision_detector_free(det);
    free(obs);
    free(f);
    render_go_close(r);
    go_record_free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partial_half_spacing),
        cmocka_unit_test(test_stone_beyond_edge_out_of_view),
        cmocka_unit_test(test_render_styles_scenarios),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

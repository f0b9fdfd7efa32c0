/* tests/vision/test_shogi_komadai.c — both komadai read from rendered footage with exact truth:
 * real games with captures filmed in several scenarios; the reader starts on the initial position,
 * follows the game on the settled frame after each move and reads both stands there. Figures per
 * scenario: the share of settled frames whose two hands are exactly right, stands said out of
 * view, and on a resignation (a hand resting over a komadai, `--signals resign`) the share of
 * covered frames said covered. A stand wholly in the picture must be read (or said covered under
 * a hand); one the picture's edge cuts or that lies out of it must be said not visible, with no
 * count (stand_in_view: the truth's stand centre and the range of stand sizes through the grid's
 * homography; only a stand whose edge lies within about a cell of the picture's may be either).
 * Before that criterion a stand whose centre lay within 3.2 cells of the picture's edge (a band
 * of 6.4 cells) counted as right either way, and a hand over a stand the edge cuts had to be
 * said covered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "render/render.h"
#include "render/render_internal.h"
#include "tests/testutil.h"
#include "tests/vision/shogi_film.h"
#include "vision/shogi_komadai_internal.h"
#include "vision/shogi_read.h"
#include "vision/vision_internal.h"

#define COVER_FLOOR_FIX 0
#define COUNT_CEIL_FIX  100
#define MOVES           40 /* moves filmed per game: enough for captures to reach both stands */

struct tally {
    long games, started;
    long frames, both_right;    /* settled frames; both hands exactly right */
    long stands, stands_right;  /* stands on settled frames: visible and right, or out of view */
    long out_of_view;           /* stands said out of the picture */
    long seen, seen_right;      /* stands said visible; with every count right */
    long false_cover;           /* settled stands said covered */
    long covered, covered_said; /* frames with a hand resting over a stand in view; said covered */
    long pieces;                /* pieces in hand on the settled frames */
    long covered_count;         /* frames with a hand over a stand said visible (read as a count) */
    long covered_out;           /* ... said out of view */
    long hand_cut,
        hand_cut_count; /* a hand over a stand the picture's edge cuts; read as a count */
    /* hand_obs.view on settled frames: stands said out of view / not found that are in the
       picture (in 1), at its edge (0), cut or out of it (-1) */
    long view_out[3], view_none[3];
    /* causes of a wrong stand on a settled frame */
    long c_lost;     /* in view, said out of view (the stand not found) */
    long c_ghost;    /* out of view, said visible */
    long c_cover;    /* said covered with no hand over it */
    long c_kinds;    /* the right number of pieces, of the wrong kinds */
    long c_one;      /* one piece too many or too few */
    long c_more;     /* more pieces too many or too few */
    long kind[8][5]; /* stands seen, per kind: right, one over, one under, more off, truth > 0 */
    long conf[8][8]; /* pieces of a kind (row: truth, 0 = none) read as a kind (column, 0 = none) */
    double ms_sum;
    long ms_n;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool hand_equal(const struct hand_obs *h, const uint8_t *truth)
{
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++)
        if (h->count[t - 1] != truth[t]) return false;
    return true;
}

/* Is the stand in the picture? Its top is a rectangle 140-180 mm wide, 0.95-1.1 times as long,
 * around its centre (the truth's komadai_px), its sides along the grid's (cells of 32.5-34 x
 * 35.9-37.5 mm): 4.1-5.6 cells wide, 3.5-5.6 cells long. In (1): the corners of the largest
 * such top, a quarter of a cell out, all inside the picture; the stand must then be read.
 * Cut (-1): a corner of the smallest, a quarter of a cell in, outside the picture (the edge
 * cuts the stand or it is out of the picture); the stand must then be said not visible (no
 * count: a part of a stand's pieces is no hand). Between (0: the stand's edge within about a
 * cell of the picture's, as the sizes and the parallax of its lower top leave it): either. */
#define STAND_HALF_MAX_W 2.8
#define STAND_HALF_MAX_L 2.8
#define STAND_HALF_MIN_W 2.05
#define STAND_HALF_MIN_L 1.75
#define STAND_SLACK      0.25
static bool corners_inside(const struct render_shogi_frame *f, const double H[9], double cx,
                           double cy, double hw, double hl)
{
    for (int k = 0; k < 4; k++) {
        double x, y;
        hom_apply(H, cx + (k & 1 ? hw : -hw), cy + (k & 2 ? hl : -hl), &x, &y);
        if (x < 0 || y < 0 || x >= f->width || y >= f->height) return false;
    }
    return true;
}

static int stand_in_view(const struct render_shogi_frame *f, int side)
{
    static const double grid[8] = {0, 0, 9, 0, 9, 9, 0, 9}; /* 9一, 1一, 1九, 9九 in cells */
    double img[8], H[9], Hi[9], cx, cy;
    for (int k = 0; k < 4; k++) img[2 * k] = f->corners[k][0], img[2 * k + 1] = f->corners[k][1];
    assert_true(hom_fit(grid, img, 4, H) && hom_invert(H, Hi));
    hom_apply(Hi, f->komadai_px[side][0], f->komadai_px[side][1], &cx, &cy);
    if (corners_inside(f, H, cx, cy, STAND_HALF_MAX_W + STAND_SLACK,
                       STAND_HALF_MAX_L + STAND_SLACK))
        return 1;
    if (!corners_inside(f, H, cx, cy, STAND_HALF_MIN_W - STAND_SLACK,
                        STAND_HALF_MIN_L - STAND_SLACK))
        return -1;
    return 0;
}

/* hand_obs.view says what visible and covered say; a stand looked at has a view. */
static void check_view(const struct hand_obs *h, bool ok)
{
    if (!ok) {
        assert_int_equal(h->view, HAND_VIEW_UNKNOWN);
        return;
    }
    assert_true(h->view == HAND_VIEW_READ || h->view == HAND_VIEW_COVERED ||
                h->view == HAND_VIEW_OUT_OF_VIEW || h->view == HAND_VIEW_NOT_FOUND);
    assert_int_equal(h->visible, h->view == HAND_VIEW_READ);
    assert_int_equal(h->covered, h->view == HAND_VIEW_COVERED);
    if (h->view != HAND_VIEW_READ)
        for (int k = 0; k < 7; k++) assert_int_equal(h->count[k], 0);
}

static void print_hand(const char *what, const struct hand_obs *h, const uint8_t *truth)
{
    char a[64] = "", b[64] = "";
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        snprintf(a + strlen(a), sizeof a - strlen(a), "%d", h->count[t - 1]);
        snprintf(b + strlen(b), sizeof b - strlen(b), "%d", truth[t]);
    }
    if (getenv("KIFUCAM_KOMADAI_VERBOSE"))
        fprintf(stderr, "  %s: read %s (vis %d cov %d) truth %s\n", what, a, h->visible, h->covered,
                b);
}

/* Per kind on a stand said visible: the count right, off by one, off more; and the confusion of
 * pieces: each kind's pieces matched to the read ones of the same kind first, the rest of the
 * truth against the rest of the reading in order of kind (a rough pairing of what was confused). */
static void tally_kinds(struct tally *t, const struct hand_obs *h, const uint8_t *truth)
{
    int over[8] = {0}, under[8] = {0};
    for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) {
        int d = h->count[ty - 1] - truth[ty];
        t->kind[ty][d == 0 ? 0 : d == 1 ? 1 : d == -1 ? 2 : 3]++;
        t->kind[ty][4] += truth[ty] > 0;
        t->conf[ty][ty] += d >= 0 ? truth[ty] : h->count[ty - 1];
        if (d > 0) over[ty] = d;
        if (d < 0) under[ty] = -d;
    }
    for (int a = SHOGI_PAWN; a <= SHOGI_GOLD; a++)
        for (int b = SHOGI_PAWN; b <= SHOGI_GOLD && under[a]; b++) {
            int m = under[a] < over[b] ? under[a] : over[b];
            t->conf[a][b] += m;
            under[a] -= m;
            over[b] -= m;
        }
    for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) {
        t->conf[ty][0] += under[ty];
        t->conf[0][ty] += over[ty];
    }
}

static void print_causes(const char *name, const struct tally *t)
{
    static const char kinds[] = " PLNSBRG";
    tu_note("%-8s wrong stands: not found %ld, seen though cut or out of view %ld, covered by "
            "nothing %ld, "
            "right number of the wrong kinds %ld, one piece off %ld, more off %ld; hand over a "
            "stand in view: covered %ld, read as a count %ld, out of view %ld; over a stand the "
            "edge cuts: read as a count %ld of %ld",
            name, t->c_lost, t->c_ghost, t->c_cover, t->c_kinds, t->c_one, t->c_more,
            t->covered_said, t->covered_count, t->covered_out, t->hand_cut_count, t->hand_cut);
    tu_note("%-8s not visible: said out of view %ld / %ld / %ld, not found %ld / %ld / %ld (stands "
            "in the picture / at its edge / cut or out of it)",
            name, t->view_out[2], t->view_out[1], t->view_out[0], t->view_none[2], t->view_none[1],
            t->view_none[0]);
    if (!getenv("KIFUCAM_KOMADAI_VERBOSE")) return;
    for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++)
        tu_note("  %c: on %ld stands: right %ld, one over %ld, one under %ld, more off %ld",
                kinds[ty], t->kind[ty][4], t->kind[ty][0], t->kind[ty][1], t->kind[ty][2],
                t->kind[ty][3]);
    tu_note("  truth \\ read     -     P     L     N     S     B     R     G");
    for (int a = 0; a < 8; a++) {
        char line[128];
        int n = snprintf(line, sizeof line, "  %c          ", a ? kinds[a] : '-');
        for (int b = 0; b < 8; b++)
            n += snprintf(line + n, sizeof line - (size_t)n, "%6ld", t->conf[a][b]);
        tu_note("%s", line);
    }
}

/* KIFUCAM_KOMADAI_DUMP=DIR: around each wrong stand, the frame enlarged twice as a PNG file. */
static void dump_frame(const struct render_shogi_frame *f, uint64_t seed, enum render_scenario sc,
                       int i, int side)
{
    const char *dir = getenv("KIFUCAM_KOMADAI_DUMP");
    if (!dir || !f->rgb) return;
    enum { S = 200 };
    uint8_t *out = malloc(4 * S * S * 3);
    if (!out) return;
    int cx = (int)f->komadai_px[side][0], cy = (int)f->komadai_px[side][1];
    for (int y = 0; y < 2 * S; y++)
        for (int x = 0; x < 2 * S; x++) {
            int sx = cx - S + x, sy = cy - S + y;
            for (int c = 0; c < 3; c++)
                out[(y * 2 * S + x) * 3 + c] = sx < 0 || sy < 0 || sx >= f->width || sy >= f->height
                                                   ? 0
                                                   : f->rgb[((size_t)sy * f->width + sx) * 3 + c];
        }
    char path[512], err[200];
    snprintf(path, sizeof path, "%s/%s-%llu-%04d-%d.png", dir, render_scenario_name(sc),
             (unsigned long long)seed, i, side);
    render_png_write(out, 2 * S, 2 * S, path, err, sizeof err);
    free(out);
}

static void run_game(const struct shogi_record *rec, enum render_scenario sc, uint64_t seed,
                     struct tally *t)
{
    struct render_shogi *r = sf_open(rec, sc, seed, MOVES, RENDER_SIGNAL_RESIGN);
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
    t->started += started;
    int n = rec->nmoves < MOVES ? rec->nmoves : MOVES, last = 0;
    struct hand_obs hands[2];
    for (int ply = 1; started && ply <= n; ply++) {
        int i = render_shogi_find_frame(r, ply, false);
        if (i < 0) continue;
        last = i;
        if (!render_shogi_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        if (!f->settled) continue;
        sf_frame(f, g, &img);
        shogi_reader_track(rd, &img, NULL);
        double t0 = now_ms();
        /* KIFUCAM_KOMADAI_WITHIN: the game's position given, as the guard knows it */
        struct shogi_position game;
        shogi_record_position(rec, ply, &game);
        bool ok = getenv("KIFUCAM_KOMADAI_WITHIN")
                      ? shogi_reader_hands_within(rd, &img, &game, hands)
                      : shogi_reader_hands(rd, &img, hands);
        t->ms_sum += now_ms() - t0;
        t->ms_n++;
        t->frames++;
        int right = 0;
        for (int side = 0; side < 2; side++) {
            int in = stand_in_view(f, side);
            const struct hand_obs *h = &hands[side];
            check_view(h, ok);
            t->view_out[in + 1] += ok && h->view == HAND_VIEW_OUT_OF_VIEW;
            t->view_none[in + 1] += ok && h->view == HAND_VIEW_NOT_FOUND;
            for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) t->pieces += f->hand[side][ty];
            bool good = ok && (h->visible ? in >= 0 && hand_equal(h, f->hand[side])
                                          : !h->covered && in <= 0);
            t->out_of_view += ok && !h->visible && !h->covered;
            t->seen += ok && h->visible;
            t->seen_right += ok && h->visible && hand_equal(h, f->hand[side]);
            t->false_cover += ok && h->covered;
            t->stands++;
            t->stands_right += good;
            if (ok && h->visible && in >= 0) tally_kinds(t, h, f->hand[side]);
            if (ok && !good) {
                int tr = 0, nr = 0;
                for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++)
                    tr += f->hand[side][ty], nr += h->count[ty - 1];
                if (h->covered)
                    t->c_cover++;
                else if (!h->visible)
                    t->c_lost++;
                else if (in < 0)
                    t->c_ghost++;
                else if (tr == nr)
                    t->c_kinds++;
                else if (abs(tr - nr) == 1)
                    t->c_one++;
                else
                    t->c_more++;
            }
            right += good;
            if (!good) {
                if (getenv("KIFUCAM_KOMADAI_VERBOSE"))
                    fprintf(stderr, "seed %llu %s frame %d side %d in %d: stand at (%.0f,%.0f)\n",
                            (unsigned long long)seed, render_scenario_name(sc), i, side, in,
                            f->komadai_px[side][0], f->komadai_px[side][1]);
                print_hand("", h, f->hand[side]);
                dump_frame(f, seed, sc, i, side);
            }
        }
        t->both_right += right == 2;
    }
    /* the resignation: a hand rests over the komadai of the player to move after the last move */
    for (int i = last; started && i < render_shogi_frame_count(r); i += 3) {
        if (!render_shogi_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        for (int side = 0; side < 2; side++) {
            if (!f->komadai_covered[side]) continue;
            sf_frame(f, g, &img);
            if (!shogi_reader_hands(rd, &img, hands)) continue;
            check_view(&hands[side], true);
            /* a stand in view must be said covered; one the edge cuts not visible, either way
             * (a count is wrong in both) */
            int in = stand_in_view(f, side);
            if (in < 1) {
                t->hand_cut++;
                t->hand_cut_count += hands[side].visible;
                continue;
            }
            t->covered++;
            t->covered_said += hands[side].covered;
            t->covered_count += hands[side].visible;
            t->covered_out += !hands[side].visible && !hands[side].covered;
            if (getenv("KIFUCAM_KOMADAI_VERBOSE") && !hands[side].covered)
                fprintf(stderr, "seed %llu frame %d side %d in %d: hand over it, said %s\n",
                        (unsigned long long)seed, i, side, stand_in_view(f, side),
                        hands[side].visible ? "visible" : "out of view");
            if (!hands[side].covered) dump_frame(f, seed + 100000, sc, i, side);
        }
    }
    shogi_reader_free(rd);
    free(g);
    free(f);
    render_shogi_close(r);
}

static void test_komadai(void **state)
{
    (void)state;
    int ngames;
    struct shogi_record **games = sf_load_games(&ngames);
    struct shogi_position start, p0;
    shogi_position_startpos(&start);
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_PLAYER,
                                                  RENDER_SCENE_SIDE,     RENDER_SCENE_PARTIAL,
                                                  RENDER_SCENE_DIM,      RENDER_SCENE_GLARE};
    const char *env = getenv("KIFUCAM_KOMADAI_GAMES");
    const int per_scene = env ? atoi(env) : TU_ASAN_LIGHT(3, 1);
    /* KIFUCAM_KOMADAI_SEED: another set of films (seeds and games) than the default 0 */
    const char *senv = getenv("KIFUCAM_KOMADAI_SEED");
    const int base = senv ? atoi(senv) : 0;
    int gi = base * 7;
    struct tally all = {0};
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        struct tally t = {0};
        /* KIFUCAM_KOMADAI_SCENES: only the scenarios named (e.g. "dim,glare") */
        const char *only = getenv("KIFUCAM_KOMADAI_SCENES");
        if (only && !strstr(only, render_scenario_name(scenes[s]))) {
            gi += per_scene * 2;
            continue;
        }
        for (int k = 0; k < per_scene; k++) {
            const struct shogi_record *rec = NULL;
            for (int tries = 0; tries < ngames && !rec; tries++, gi++) {
                shogi_record_position(games[gi % ngames], 0, &p0);
                if (!memcmp(p0.board, start.board, sizeof p0.board)) rec = games[gi % ngames];
            }
            gi++;
            if (!rec) fail_msg("no game from the initial position");
            run_game(rec, scenes[s], 500 + 1000 * (uint64_t)base + 31 * s + (uint64_t)k, &t);
        }
        tu_note("%-8s games %ld (started %ld): settled frames %ld, both hands right %.1f%%, "
                "stands right %.1f%% (%ld pieces in hand), said visible %ld (counts right %.1f%%), "
                "said out of view %ld, said covered %ld; hand over a stand in view said covered "
                "%ld/%ld; "
                "%.1f ms/frame",
                render_scenario_name(scenes[s]), t.games, t.started, t.frames,
                sf_pct(t.both_right, t.frames), sf_pct(t.stands_right, t.stands), t.pieces, t.seen,
                sf_pct(t.seen_right, t.seen), t.out_of_view, t.false_cover, t.covered_said,
                t.covered, t.ms_n ? t.ms_sum / t.ms_n : 0);
        print_causes(render_scenario_name(scenes[s]), &t);
        long *a = (long *)&all, *b = (long *)&t;
        for (size_t i = 0; i < offsetof(struct tally, ms_sum) / sizeof(long); i++) a[i] += b[i];
        all.ms_sum += t.ms_sum;
        all.ms_n += t.ms_n;
    }
    tu_note("all      games %ld (started %ld): settled frames %ld, both hands right %.1f%%, "
            "stands right %.1f%%, said visible %ld (counts right %.1f%%); hand over a stand in "
            "view said "
            "covered %ld/%ld, settled stands said covered %ld",
            all.games, all.started, all.frames, sf_pct(all.both_right, all.frames),
            sf_pct(all.stands_right, all.stands), all.seen, sf_pct(all.seen_right, all.seen),
            all.covered_said, all.covered, all.false_cover);
    print_causes("all", &all);
    for (int i = 0; i < ngames; i++) shogi_record_free(games[i]);
    free(games);
    /* floors just under what 18 rendered games reach (issue 7's target is 99%: not there yet).
     * ../shared's lishogi games: both hands 74.7% and stands 83.2% (this set), 75.0% and 85.1%
     * with KIFUCAM_KOMADAI_SEED=1, 65.0% and 79.1% with KIFUCAM_KOMADAI_SEED=2 (before the mask
     * was opened, boxes kept square, rows cut apart, types told by the faces' inner part and
     * small boxes at the picture's edge taken for stands out of view: 70.6 / 77.5% and 62.9 /
     * 74.8%). Without them the 21 fixture games of lishogi-20.usi: both hands 68.8%, stands
     * 79.0% (70.4 / 79.8% before the arm was looked for). Starting is the reader's part; here it
     * only has to happen. KIFUCAM_KOMADAI_WITHIN=1 (the game's position given, as the guard
     * knows it: shogi_reader_hands_within): both hands 76.5% (seed 0), 79.7% (=1), 75.4% (=2);
     * without it 74.7%, 76.4%, 65.0% (main's: 74.7, 75.0, 65.0; the one change outside it, a
     * big blob by the picture's edge out of view rather than covered, gained seed 1's overhead
     * films). Session 18 (stands of the table's grey found by their warmth, rows' types chosen
     * jointly within the game's hands; the in-view criterion of stand_in_view, stricter):
     * WITHIN=1 both hands 83.7% / stands 89.4% (seed 0), 79.2 / 86.9% (=1), 86.4 / 90.2% (=2),
     * 74.8 / 81.1% (=3) (before, with the old criterion: 76.5, 78.3, 74.4, 67.0%); without it
     * (this test's default) 77.5 / 85.7% (seed 0); the fixture games 69.6 / 80.2% (their
     * player films 33.3%, 25.8% before). Session 19 (blobs down to 8 x 9 pixels are rows: a
     * piece's ink in dim light, a piece cut by the rim): WITHIN=1 84.8 / 90.0% (seed 0), 82.9 /
     * 89.0% (=1), held out 86.9 / 90.8% (=2), 81.2 / 86.2% (=3); default 77.6 / 85.8% (seed 0).
     * (With 10 x 11: 84.2, 82.9, 87.0, 80.5%; 8 x 9 gained glare on seeds 0 and 3, +3.3 and
     * +4.1, and lost it on seed 2, 80.0 -> 78.3%.)
     * Session 20 (each stand's bleed learned from its own owner's hand in the game, not only
     * where a kind lay on one stand alone): WITHIN=1 88.2 / 92.2% (seed 0), 85.5 / 91.5% (=1),
     * held out 89.8 / 93.1% (=2), 83.5 / 89.5% (=3); no scene of seeds 0-3 worse (seed 0's
     * partial 83 -> 100%, seed 1's side 65 -> 78%, seed 2's 70 -> 88%); default unchanged.
     * Session 21 (a weak one-sign border inside a far stronger box of either sign is a part
     * of the stand: the whole box; within the game the pieces are looked for inside a second
     * unbroken line along a side, the top's edge past a side or front face): WITHIN=1 88.6 /
     * 92.6% (seed 0), 87.6 / 92.7% (=1), held out 90.2 / 93.6% (=2), 87.7 / 91.5% (=3; its
     * player films 50.0 -> 76.7%); hands covered and stands said covered with no hand as
     * before on every seed; one frame worse: seeds 1 and 2 player, seed 3 side (1-2 frames).
     * Session 22 (rows cut no shorter than a pawn: the texture mask's waist between a big
     * piece's two characters cut it, the rest joined the row behind; a box whose front and back
     * run on as strongly to the picture's edge is a part of a stand the edge cuts, out of view):
     * WITHIN=1 both hands 91.7 / 94.5% (seed 0), 92.4 / 95.2% (=1), held out 91.8 / 95.6% (=2),
     * 88.7 / 92.5% (=3) (before: 88.6, 86.4, 90.2, 87.7%); stands said covered with no hand 3,
     * 13, 0, 0 (before 14, 32, 0, 2); hands over a stand said covered 175, 190, 177, 173 (one
     * fewer on seeds 0 and 1); default (seed 0) 77.6 / 86.1% (77.6 / 85.9% before). Left: seed
     * 3's player and dim films (79, 70%: kinds confused, short counts), seed 0's dim (82%).
     * Session 23 (within the game the top's texture is taken from it smoothed 3 x 3: in dim
     * light the camera's noise set the threshold and pieces were missed, a whole film's stands
     * read empty): WITHIN=1 both hands 91.3 / 94.1% (seed 0), 95.2 / 97.5% (=1), held out
     * 91.4 / 95.4% (=2), 93.7 / 96.1% (=3) (before: 91.7, 92.4, 91.8, 88.7%); dim 78.9, 95.0,
     * 98.3, 98.1% (82.2, 79.2, 99.2, 70.1%); worse: seed 0's dim (a knight and a silver, both
     * found now, typed alike on each stand), seed 2's player (84.3 -> 82.4%). A fifth seed (=4,
     * held out) 87.7 -> 87.4% (overhead 98.1 -> 100, player 93.4 -> 95.6, dim 98.9 -> 94.6, glare
     * 89.1 -> 87.4%: one piece off; its side views 53.3%, side faces taken for arms). Default (read
     * alone) unchanged: the smoothed mask joined rows to the stand's faces without the top's inner
     * line (seed 0's player films 88.7 -> 38.1%). Tried and dropped in session 23: texture joined
     * to a piece's by hysteresis (seed 3's dim 70 -> 97% but rows of two kinds side by side joined:
     * seed 1's player 97.5 -> 83.3%); an arm's area inside the stand without the border's 3-pixel
     * band unless it reaches 2 cells past (seed 4's side views, a side face taken for an arm on 53
     * stands, 53.3 -> 95.8%, but hands over a stand read as a count 49 -> 56 on seed 0 and 42 -> 53
     * on seed 1: overhead and partial hands are seen mostly in that band). Tried and dropped in
     * session 21: an arm's region at least a cell thick past the border (the side face's blurred
     * outline is thinner, but so are many real arms: seed 0's glare hands said covered 35 -> 20 of
     * 54), the inner line on every side without looking further in (the wood's grain along a side
     * cut a bishop by the border: a false HIDDEN_PIECE on fault film 149), the inner box also for
     * the arm (seed 0's dim: hands said covered 28 -> 36 of 54, but stands said covered with none 2
     * -> 7). Tried and dropped in session 20: pixels far from the wood's level added to the mask
     * (seed 1's dim 78 -> 95% but seed 0's player 92 -> 43%), rows at the left rim lengthened by
     * the rim (seed 1 83 -> 78%), a count within 0.75 of its owner's hand in the game taken as it
     * (+0.5% on seeds 0-3, not checked against the hidden-piece faults).
     * Tried and dropped: a row at the stand's left or right border lengthened by what lies past
     * the rim on the wood's side of the level (seed 0's partial films 83 -> 93%, seed 1's player
     * 82 -> 63%), rows rounded up by 0.15 (seed 0's glare 69 -> 59%). Short counts are still
     * most of the misses (on seeds 0 and 1: 145 stands read short, 55 long, 33 stands holding
     * pieces read empty, no empty stand read holding one). */
    /* Session 24 (the stand's own side or front face past one side of the top is no arm; a
     * stand's rows take distinct kinds where the next best fits within 0.08): WITHIN=1 both hands
     * 91.3 -> 91.8% (seed 0), 95.2 -> 95.2% (=1), held out 91.7 -> 92.0% (=2), 93.7 -> 94.9% (=3),
     * 87.4 -> 94.9% (=4), never looked at before 89.2 -> 90.0% (=5), 81.6 -> 85.6% (=6); renders
     * and reader are deterministic (a rerun gives the same frames: noise 0). Seed 4's side 53.3
     * -> 95.8% (stands said covered with no hand 53 -> 0), seed 6's side 75.8 -> 82.4%, partial
     * 80.8 -> 95.8%, seed 0's dim 78.9 -> 81.1% (knight and silver no longer swapped across the
     * stands); hands over a stand said covered unchanged on every seed. Worse: seed 2's glare
     * 85.8 -> 84.2% and seed 4's 87.4 -> 85.7% (2 frames each: a row of pawns split in two, its
     * second part typed as another kind; a margin of 0.05 changed nothing there). Left: seed 6's
     * dim (55.4%), seed 5's glare (67.0%), seed 1's side (80.3%, 12 stands covered by nothing). */
    bool lishogi = tu_shared_data_dir() != NULL;
    assert_true(all.started >= all.games / 2);
    assert_true(sf_pct(all.both_right, all.frames) >= (lishogi ? 73.0 : 68.0));
    assert_true(sf_pct(all.stands_right, all.stands) >= (lishogi ? 81.0 : 77.0));
    /* a hand resting over a stand (the resignation): said covered on 176 of 318 frames with
     * ../shared's games, read as a count on 49 (202 and 61 of 301 with KIFUCAM_KOMADAI_SEED=1,
     * 214 and 26 of 296 with =2; before the arm was looked for: 9 and 234, 16 and 262, 2 and
     * 244); on the fixture games 196 and 15 of 320 (before: 2 and 219). A count read through a
     * hand is a false HIDDEN_PIECE for the guard. The one game a scenario of a sanitizer build:
     * 45 and 9 of 109. Since session 18 the share said covered counts stands in view only (a
     * hand over a stand the edge cuts may be said out of view): 176 of 227 (seed 0), 191 of 247
     * (=1), 177 of 207 (=2), 173 of 198 (=3); over stands the edge cuts read as a count 3 of 91,
     * 13 of 54, 5 of 89, 9 of 90. */
    assert_true(all.covered_said * 100 >= all.covered * 50);
    assert_true((all.covered_count + all.hand_cut_count) * 100 <=
                (all.covered + all.hand_cut) * 20);
    /* stands said covered with no hand over them: 12 of 1224 with ../shared's games (24 of 1430
     * with KIFUCAM_KOMADAI_SEED=1 (39 before a big blob by the picture's edge was out of view),
     * none of 1250 with =2; before: 11, 24, 0), 25 of 1184 on the 21 fixture games (before: none)
     */
    assert_true(all.false_cover * (lishogi ? 20 : 16) <= all.stands);
    /* hand_obs.view (session 19): a stand wholly in the picture is never said out of view (none
     * of the stands of seeds 0-3 with ../shared's games, WITHIN or not); nor is any said not
     * found there (the stands are found or said cut) */
    assert_true(all.view_out[2] * 100 <= all.stands);
}

/* ---- the arm detector on drawn areas (no render) ----
 * A stand's box in the search area: wood inside, a teal table around, and the one-pixel ring
 * each side of the border where the camera mixes the two (unlike both: the arm detector's
 * region starts there). */
enum { SX0 = 30, SX1 = 90, SY0 = 50, SY1 = 110 };
static const float WOOD[3] = {200, 160, 100}, TABLE[3] = {50, 90, 85};

static void paint(struct area *a, struct colour_area *ca, int x, int y, const float rgb[3])
{
    for (int k = 0; k < 3; k++) ca->c[y][x][k] = rgb[k];
    a->px[y][x] = (rgb[0] + rgb[1] + rgb[2]) / 3;
}

static void paint_rect(struct area *a, struct colour_area *ca, int x0, int x1, int y0, int y1,
                       const float rgb[3])
{
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) paint(a, ca, x, y, rgb);
}

static void draw_stand(struct area *a, struct colour_area *ca, struct stand_box *b)
{
    static const float mix[3] = {125, 125, 92}; /* wood and table half and half */
    *b = (struct stand_box){SX0, SX1, SY0, SY1, 30};
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) a->in[y][x] = true;
    paint_rect(a, ca, 0, AW - 1, 0, AH - 1, TABLE);
    paint_rect(a, ca, SX0 - 1, SX1 + 1, SY0 - 1, SY1 + 1, mix);
    paint_rect(a, ca, SX0 + 1, SX1 - 1, SY0 + 1, SY1 - 1, WOOD);
}

/* Seen from low beside it, a stand shows its side face past one side of its top: a band of the
 * wood in shade (mixed with the table's light) along the whole side, a cell deep. That is no arm
 * (seed 4's side films: said covered on 53 of 120 settled frames); before the face was told,
 * the band and the blurred ring inside the border made one region that reached a cell past. */
static void test_side_face_is_no_arm(void **state)
{
    (void)state;
    struct area *a = malloc(sizeof *a);
    struct colour_area *ca = malloc(sizeof *ca);
    assert_non_null(a);
    assert_non_null(ca);
    struct stand_box b;
    struct arm_feat af;
    draw_stand(a, ca, &b);
    static const float face[3] = {60, 50, 35};
    paint_rect(a, ca, SX0 - RES - 1, SX0 - 2, SY0 - 2, SY1 + 2, face);
    komadai_arm_over(a, &b, ca, true, &af);
    assert_false(af.arm);
    /* ... joined to the board's side face at the search area's edge by the board (the stand
     * 1.5 cells from it) */
    draw_stand(a, ca, &b);
    const int shift = SX0 - RES - RES / 2;
    paint_rect(a, ca, 0, AW - 1, 0, AH - 1, TABLE);
    b.x0 -= shift, b.x1 -= shift;
    paint_rect(a, ca, b.x0 - 1, b.x1 + 1, SY0 - 1, SY1 + 1, (const float[3]){125, 125, 92});
    paint_rect(a, ca, b.x0 + 1, b.x1 - 1, SY0 + 1, SY1 - 1, WOOD);
    paint_rect(a, ca, 0, b.x0 - 2, SY0 - 2, SY1 + 2, face);
    komadai_arm_over(a, &b, ca, true, &af);
    assert_false(af.arm);
    /* the same face past the front (toward the owner), seen from the player's side */
    draw_stand(a, ca, &b);
    paint_rect(a, ca, SX0 - 2, SX1 + 2, SY1 + 2, SY1 + RES + 1, face);
    komadai_arm_over(a, &b, ca, true, &af);
    assert_false(af.arm);
    free(ca);
    free(a);
}

/* An arm reaching over the stand is still one: a sleeve two cells wide across the front,
 * reaching far past it; or as wide as the stand but reaching more than two cells past it; or a
 * band along the left side with the sleeve's blue reaching down past the stand's front. */
static void test_arm_over_front_is_arm(void **state)
{
    (void)state;
    struct area *a = malloc(sizeof *a);
    struct colour_area *ca = malloc(sizeof *ca);
    assert_non_null(a);
    assert_non_null(ca);
    struct stand_box b;
    struct arm_feat af;
    static const float sleeve[3] = {60, 60, 160};
    draw_stand(a, ca, &b);
    paint_rect(a, ca, SX0 + 10, SX0 + 10 + 2 * RES, SY1 - 2 * RES, AH - 1, sleeve);
    komadai_arm_over(a, &b, ca, true, &af);
    assert_true(af.arm);
    draw_stand(a, ca, &b);
    paint_rect(a, ca, SX0 - 2, SX1 + 2, SY1 - 2 * RES, SY1 + 3 * RES, sleeve);
    komadai_arm_over(a, &b, ca, true, &af);
    assert_true(af.arm);
    draw_stand(a, ca, &b);
    paint_rect(a, ca, SX0 - RES - 1, SX0 + RES, SY0 - 2, AH - 1, sleeve);
    komadai_arm_over(a, &b, ca, true, &af);
    assert_true(af.arm);
    /* a hand over the whole front whose arm the picture's edge cuts 1.5 cells past it (a band
     * no deeper than a face, but going on out of sight: seed 0's player films) */
    draw_stand(a, ca, &b);
    const int cut = SY1 + RES + RES / 2;
    paint_rect(a, ca, SX0 - 2, SX1 + 2, SY1 - 2 * RES, cut, sleeve);
    for (int y = cut + 1; y < AH; y++)
        for (int x = 0; x < AW; x++) a->in[y][x] = false;
    komadai_arm_over(a, &b, ca, true, &af);
    assert_true(af.arm);
    free(ca);
    free(a);
}

/* ---- the rows' kinds (komadai_assign_types) ---- */
static struct row row_of(int ty, int width, double fit_n, double fit_s, double fit_p)
{
    struct row w = {.ty = ty, .width = width};
    for (int k = 0; k < 8; k++) w.fits[k] = 0.2;
    w.fits[SHOGI_KNIGHT] = fit_n, w.fits[SHOGI_SILVER] = fit_s, w.fits[SHOGI_PAWN] = fit_p;
    return w;
}

/* A stand's two rows that both fit the knight's face best, the second nearly as well the
 * silver's, are a knight and a silver (pieces of one kind lie in one row): seed 0's dim films
 * read one stand's knight and silver as two knights, the other's as two silvers. Before the rule
 * both rows were knights. */
static void test_two_rows_two_kinds(void **state)
{
    (void)state;
    struct shogi_reader *r = shogi_reader_new();
    assert_non_null(r);
    struct hand_obs hands[2] = {{.visible = true}, {.visible = true}};
    static struct row rows[2][MAX_ROWS];
    int nrows[2] = {2, 2}, avail[8] = {0};
    avail[SHOGI_KNIGHT] = 2, avail[SHOGI_SILVER] = 2, avail[SHOGI_PAWN] = 4;
    rows[0][0] = row_of(SHOGI_KNIGHT, 22, 0.66, 0.60, 0.3);
    rows[0][1] = row_of(SHOGI_KNIGHT, 22, 0.64, 0.60, 0.3);
    rows[1][0] = row_of(SHOGI_SILVER, 22, 0.58, 0.65, 0.3);
    rows[1][1] = row_of(SHOGI_SILVER, 22, 0.59, 0.62, 0.3);
    komadai_assign_types(r, hands, rows, nrows, avail);
    assert_int_equal(rows[0][0].at, SHOGI_KNIGHT);
    assert_int_equal(rows[0][1].at, SHOGI_SILVER);
    assert_int_equal(rows[1][0].at, SHOGI_SILVER);
    assert_int_equal(rows[1][1].at, SHOGI_KNIGHT);
    /* two rows of pawns, each fitting the pawn far better than any other kind: both pawns */
    rows[0][0] = row_of(SHOGI_PAWN, 30, 0.45, 0.40, 0.88);
    rows[0][1] = row_of(SHOGI_PAWN, 30, 0.50, 0.42, 0.85);
    nrows[1] = 0;
    komadai_assign_types(r, hands, rows, nrows, avail);
    assert_int_equal(rows[0][0].at, SHOGI_PAWN);
    assert_int_equal(rows[0][1].at, SHOGI_PAWN);
    shogi_reader_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_side_face_is_no_arm), cmocka_unit_test(test_arm_over_front_is_arm),
        cmocka_unit_test(test_two_rows_two_kinds), cmocka_unit_test(test_komadai)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

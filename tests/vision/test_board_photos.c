/* tests/vision/test_board_photos.c — board finding on real photographs: the four grid corners
 * found without markers against hand-labelled corners (Roboflow "GO board", CC BY 4.0; see
 * tests/fixtures/go-photos/README.md). A corner is right when it lies within half a line spacing
 * of its label. Runs the bundled dozen photos always, and all 180 (60 source photos x 3 augmented
 * copies) when ../shared/data is present; figures per image and per source photo.
 * Stones: a photo with a hand-written stones file (go-photos/stones/, go-photos/stones-shared/;
 * 19 rows of '.', 'X', 'O', '?' in the order `kifucam read` prints) is also scored point by point:
 * per-intersection accuracy over the labelled points, exact boards, stone precision and recall
 * per colour, and the points the reader calls unsure ('?': hidden, or below its unsure_conf). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/testutil.h"
#include "vision/vision.h"

#define MAX_SRC 256
#define NSTONE  19

/* Stone reading against hand labels. A reader's call is '?' (occluded or below unsure_conf), or
 * its point; a board not found right calls every point '?'. Colour index 0 black, 1 white. */
struct stone_tally {
    int photos, right, exact;
    int points;       /* labelled points ('?' in the label excluded) */
    int correct;      /* call == label */
    int guess_right;  /* the reader's point == label whatever its confidence (right boards) */
    int right_points; /* labelled points on the boards found right */
    int right_correct;
    int unsure; /* labelled points called '?' on boards found right */
    int unsure_lab_stone;
    int label[2], called[2], hit[2]; /* stones labelled, called (not '?'), called and so labelled */
    int guess_called, guess_hit;     /* stones by the reader's point whatever its confidence */
    int swapped;                     /* a stone called the other colour */
    int false_on_empty;              /* a stone called where the label says empty */
    int stone_called_empty;          /* a labelled stone called empty (not unsure) */
    int stone_on_unsure;             /* a stone called where the label says '?' (a hand, a
                                      * sleeve, a glare: looked at by hand, never asserted, as
                                      * some of those points do hold a stone) */
};

/* Why a board was not right: not found, off by about a line (a window one line off, an outer
 * line lost), off by two to four lines, or a wrong grid (spacing, perspective, vanishing point). */
enum fail_class { FC_RIGHT, FC_NOT_FOUND, FC_ONE_LINE, FC_FEW_LINES, FC_WRONG_GRID, FC_COUNT };
static const char *const fc_name[FC_COUNT] = {"right", "not found", "about one line off",
                                              "2-4 lines off", "wrong grid"};

struct tally {
    int images, found, good;
    int fclass[FC_COUNT];
    int orient_wrong; /* right boards whose row 0 is not the top edge, left to right */
    double err_sum, err_max;
    int nerr;
    double errs[1024];
    int src_images[MAX_SRC], src_good[MAX_SRC];
    struct vision_detector *det;
    const char *label_dir;
    const char *stone_dirs[2]; /* where stones files are looked for (NULL: none) */
    double ms_sum;
    double out_sum; /* right boards: found corners' offset from their label away from the
                     * labels' centre (px; negative: inwards), summed over corners */
    int nout;
    struct stone_tally st;      /* every labelled photo (the floors) */
    struct stone_tally part[2]; /* the photos the reader was tuned on, and the held-out ones */
    bool per_photo_notes;
};

/* Stones file: 19 lines of 19 of '.', 'X', 'O', '?'. Returns false when there is none; a file
 * that is there but malformed fails the test. */
static bool read_stones(const char *path, char lab[NSTONE][NSTONE])
{
    size_t len;
    char *txt = tu_read_file(path, &len);
    if (!txt) return false;
    const char *p = txt;
    for (int y = 0; y < NSTONE; y++) {
        for (int x = 0; x < NSTONE; x++, p++) {
            if (*p != '.' && *p != 'X' && *p != 'O' && *p != '?')
                fail_msg("%s: row %d column %d: '%c' (want . X O ?)", path, y, x, *p ? *p : ' ');
            lab[y][x] = *p;
        }
        if (*p == '\r') p++;
        if (*p != '\n' && !(y == NSTONE - 1 && *p == 0))
            fail_msg("%s: row %d not 19 long", path, y);
        if (*p) p++;
    }
    free(txt);
    return true;
}

static char call_of(const struct observation *o, int y, int x, double unsure)
{
    int p = y * OBS_MAX + x;
    if (o->occluded[p] || o->conf[p] < unsure) return '?';
    return o->point[p] == OBS_BLACK ? 'X' : o->point[p] == OBS_WHITE ? 'O' : '.';
}

/* Held-out photos (tests/fixtures/go-photos/README.md): labelled, never looked at while the
 * reader is changed; their figures are reported apart, and their per-photo lines only with
 * VISION_HELDOUT set (for when a session is done tuning). */
static bool held_out(int src)
{
    static const int ids[] = {32, 53, 82, 98};
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++)
        if (src == ids[k]) return true;
    return false;
}

static void add_tally(struct stone_tally *s, const struct stone_tally *one)
{
    s->photos += one->photos, s->right += one->right, s->exact += one->exact;
    s->points += one->points, s->correct += one->correct, s->guess_right += one->guess_right;
    s->right_points += one->right_points, s->right_correct += one->right_correct;
    s->unsure += one->unsure, s->unsure_lab_stone += one->unsure_lab_stone;
    for (int c = 0; c < 2; c++)
        s->label[c] += one->label[c], s->called[c] += one->called[c], s->hit[c] += one->hit[c];
    s->swapped += one->swapped, s->false_on_empty += one->false_on_empty;
    s->stone_called_empty += one->stone_called_empty;
    s->stone_on_unsure += one->stone_on_unsure;
    s->guess_called += one->guess_called, s->guess_hit += one->guess_hit;
}

/* Score one photo's stones; right: the board was found with every corner within half a spacing
 * and row 0 the top edge (otherwise every point is called '?'). */
static void score_stones(struct tally *t, const char *base, const char lab[NSTONE][NSTONE],
                         const struct observation *o, bool right)
{
    struct stone_tally one = {0};
    bool held = held_out(atoi(base));
    one.photos = 1;
    one.right = right;
    double unsure = t->det->unsure_conf;
    bool right_size = right && o->w == NSTONE && o->h == NSTONE;
    for (int y = 0; y < NSTONE; y++)
        for (int x = 0; x < NSTONE; x++) {
            char l = lab[y][x];
            char c = right_size ? call_of(o, y, x, unsure) : '?';
            if (l == '?') {
                one.stone_on_unsure += c == 'X' || c == 'O';
                continue;
            }
            one.points++;
            one.correct += c == l;
            int lc = l == 'X' ? 0 : l == 'O' ? 1 : -1, cc = c == 'X' ? 0 : c == 'O' ? 1 : -1;
            if (lc >= 0) one.label[lc]++;
            if (cc >= 0) one.called[cc]++;
            if (lc >= 0 && lc == cc) one.hit[lc]++;
            one.swapped += lc >= 0 && cc >= 0 && lc != cc;
            one.false_on_empty += l == '.' && cc >= 0;
            one.stone_called_empty += lc >= 0 && c == '.';
            if (right_size) {
                int p = y * OBS_MAX + x;
                char g = o->point[p] == OBS_BLACK ? 'X' : o->point[p] == OBS_WHITE ? 'O' : '.';
                one.right_points++;
                one.right_correct += c == l;
                one.guess_right += g == l;
                one.unsure += c == '?';
                one.unsure_lab_stone += c == '?' && lc >= 0;
                one.guess_called += g != '.';
                one.guess_hit += g != '.' && g == l;
            }
        }
    one.exact = right_size && one.correct == one.points;
    if (t->per_photo_notes && (!held || getenv("VISION_HELDOUT")))
        tu_note("stones %s: board %s; %d/%d points right (%.1f%%), %d unsure; black %d/%d called "
                "right of %d labelled, white %d/%d of %d; %d swapped, %d stones on empty, %d "
                "stones called empty, %d stones on points labelled '?'%s",
                base, right_size ? "right" : "NOT right", one.correct, one.points,
                one.points ? 100.0 * one.correct / one.points : 0.0, one.unsure, one.hit[0],
                one.called[0], one.label[0], one.hit[1], one.called[1], one.label[1], one.swapped,
                one.false_on_empty, one.stone_called_empty, one.stone_on_unsure,
                one.exact ? "; exact" : "");
    add_tally(&t->st, &one);
    add_tally(&t->part[held], &one);
}

static double pct(int a, int b)
{
    return b ? 100.0 * a / b : 0.0;
}

static void report_stones(const char *name, const struct stone_tally *s)
{
    if (!s->photos) {
        tu_note("%s: no photo has a stones file", name);
        return;
    }
    int lab = s->label[0] + s->label[1], called = s->called[0] + s->called[1];
    int hit = s->hit[0] + s->hit[1];
    tu_note("%s: stones on %d labelled photos: board right on %d, exact boards %d/%d", name,
            s->photos, s->right, s->exact, s->photos);
    tu_note("%s: points right %d/%d (%.2f%%; a board not found right counts all its points "
            "wrong); on the boards found right %d/%d (%.2f%%), best guess whatever the confidence "
            "%d/%d (%.2f%%); unsure %d (%.2f%%), %d of them labelled stones",
            name, s->correct, s->points, pct(s->correct, s->points), s->right_correct,
            s->right_points, pct(s->right_correct, s->right_points), s->guess_right,
            s->right_points, pct(s->guess_right, s->right_points), s->unsure,
            pct(s->unsure, s->right_points), s->unsure_lab_stone);
    tu_note("%s: stones precision %d/%d (%.2f%%) recall %d/%d (%.2f%%); black precision %.2f%% "
            "recall %.2f%% (%d labelled); white precision %.2f%% recall %.2f%% (%d labelled); "
            "%d called the other colour, %d stones called on empty points, %d labelled stones "
            "called empty, %d stones called on points labelled '?'",
            name, hit, called, pct(hit, called), hit, lab, pct(hit, lab),
            pct(s->hit[0], s->called[0]), pct(s->hit[0], s->label[0]), s->label[0],
            pct(s->hit[1], s->called[1]), pct(s->hit[1], s->label[1]), s->label[1], s->swapped,
            s->false_on_empty, s->stone_called_empty, s->stone_on_unsure);
    tu_note("%s: stones by the reader's best guess whatever its confidence: precision %d/%d "
            "(%.2f%%) recall %d/%d (%.2f%%)",
            name, s->guess_hit, s->guess_called, pct(s->guess_hit, s->guess_called), s->guess_hit,
            lab, pct(s->guess_hit, lab));
}

/* Label file: four lines "0 cx cy w h", normalised; the box centres are the grid corners. */
static bool read_labels(const char *path, int w, int h, double pts[4][2])
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    int n = 0, cls;
    double cx, cy, bw, bh;
    while (n < 4 && fscanf(f, "%d %lf %lf %lf %lf", &cls, &cx, &cy, &bw, &bh) == 5) {
        pts[n][0] = cx * w;
        pts[n][1] = cy * h;
        n++;
    }
    fclose(f);
    return n == 4;
}

/* Smallest worst-corner error over the assignments of found corners to labels. */
static double match(const double a[4][2], const double b[4][2], double err[4])
{
    static const int perm[24][4] = {
        {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
        {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
        {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
        {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}};
    double best = 1e18;
    for (int p = 0; p < 24; p++) {
        double worst = 0, e[4];
        for (int k = 0; k < 4; k++) {
            e[k] = hypot(a[k][0] - b[perm[p][k]][0], a[k][1] - b[perm[p][k]][1]);
            worst = fmax(worst, e[k]);
        }
        if (worst < best) {
            best = worst;
            memcpy(err, e, sizeof e);
        }
    }
    return best;
}

/* Whether row 0 (corners 0 and 1) is the labelled edge nearest the image's top, column 0 at its
 * left end: the order `kifucam read` prints. Labels are unordered: take them round their centre. */
static bool top_left_first(const struct observation *o, const double lab[4][2], double tol)
{
    double cx = 0, cy = 0, c[4][2], ang[4];
    for (int k = 0; k < 4; k++) cx += lab[k][0] / 4, cy += lab[k][1] / 4;
    int idx[4] = {0, 1, 2, 3};
    for (int k = 0; k < 4; k++) ang[k] = atan2(lab[k][1] - cy, lab[k][0] - cx);
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (ang[idx[j]] < ang[idx[i]]) {
                int x = idx[i];
                idx[i] = idx[j], idx[j] = x;
            }
    for (int k = 0; k < 4; k++) c[k][0] = lab[idx[k]][0], c[k][1] = lab[idx[k]][1];
    int e = 0;
    for (int k = 1; k < 4; k++)
        if (c[k][1] + c[(k + 1) % 4][1] < c[e][1] + c[(e + 1) % 4][1]) e = k;
    const double *a = c[e], *b = c[(e + 1) % 4];
    if (b[0] < a[0]) {
        const double *x = a;
        a = b, b = x;
    }
    return hypot(o->corners[0][0] - a[0], o->corners[0][1] - a[1]) <= tol &&
           hypot(o->corners[1][0] - b[0], o->corners[1][1] - b[1]) <= tol;
}

static void one_photo(const char *path, void *ctx)
{
    struct tally *t = ctx;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int src = atoi(base);
    char lab[1024];
    snprintf(lab, sizeof lab, "%s/%.*s.txt", t->label_dir, (int)(strlen(base) - 4), base);
    struct vision_image img;
    char err[300];
    if (!vision_load_jpeg(path, false, &img, err, sizeof err)) fail_msg("%s", err);
    double truth[4][2];
    if (!read_labels(lab, img.width, img.height, truth)) fail_msg("%s: no labels", lab);
    const char *dbg = getenv("VISION_DEBUG_DIR");
    char dir[1200];
    if (dbg) {
        snprintf(dir, sizeof dir, "%s/%.*s", dbg, (int)(strlen(base) - 4), base);
        mkdir(dir, 0777);
        t->det->debug = true;
        t->det->debug_dir = dir;
    }
    struct observation obs;
    vision_detector_reset(t->det);
    bool found = vision_read_go(t->det, &img, &obs);
    double ms = 0;
    for (int s = 0; s < VSTAGE_COUNT; s++) ms += t->det->stage_ms[s];
    t->ms_sum += ms;
    /* half a line spacing, from the labels (19x19: 18 spacings per side) */
    double side = 0;
    for (int k = 0; k < 4; k++) {
        double best = 1e18;
        for (int j = 0; j < 4; j++)
            if (j != k)
                best = fmin(best, hypot(truth[k][0] - truth[j][0], truth[k][1] - truth[j][1]));
        side += best / 4;
    }
    double half = side / 18 / 2;
    t->images++;
    if (src >= 0 && src < MAX_SRC) t->src_images[src]++;
    double worst = -1, e[4] = {0};
    if (found) {
        t->found++;
        worst = match(obs.corners, truth, e);
        for (int k = 0; k < 4; k++) {
            t->err_sum += e[k];
            if (t->nerr < 1024) t->errs[t->nerr++] = e[k];
        }
        if (worst <= half) {
            t->good++;
            /* each found corner's nearest label, and the offset along the label's direction
             * from the labels' centre (the labels are box centres: they may sit inside the
             * grid's true corner) */
            double cx = 0, cy = 0;
            for (int k = 0; k < 4; k++) cx += truth[k][0] / 4, cy += truth[k][1] / 4;
            for (int k = 0; k < 4; k++) {
                int j = 0;
                for (int i = 1; i < 4; i++)
                    if (hypot(obs.corners[k][0] - truth[i][0], obs.corners[k][1] - truth[i][1]) <
                        hypot(obs.corners[k][0] - truth[j][0], obs.corners[k][1] - truth[j][1]))
                        j = i;
                double rx = truth[j][0] - cx, ry = truth[j][1] - cy, rn = hypot(rx, ry);
                if (rn <= 0) continue;
                t->out_sum += ((obs.corners[k][0] - truth[j][0]) * rx +
                               (obs.corners[k][1] - truth[j][1]) * ry) /
                              rn;
                t->nout++;
            }
            t->orient_wrong += !top_left_first(&obs, truth, half);
            if (src >= 0 && src < MAX_SRC) t->src_good[src]++;
        }
        t->err_max = fmax(t->err_max, worst);
    }
    char stones[NSTONE][NSTONE], spath[1200];
    for (int d = 0; d < 2 && t->stone_dirs[d]; d++) {
        snprintf(spath, sizeof spath, "%s/%.*s.txt", t->stone_dirs[d], (int)(strlen(base) - 4),
                 base);
        if (!read_stones(spath, stones)) continue;
        bool right = found && worst <= half && top_left_first(&obs, truth, half);
        score_stones(t, base, stones, &obs, right);
        break;
    }
    /* half is half a spacing: one line off puts the worst corner about 2 halves away */
    enum fail_class fc = !found              ? FC_NOT_FOUND
                         : worst <= half     ? FC_RIGHT
                         : worst <= 3 * half ? FC_ONE_LINE
                         : worst <= 9 * half ? FC_FEW_LINES
                                             : FC_WRONG_GRID;
    t->fclass[fc]++;
    if (getenv("VISION_VERBOSE"))
        tu_note("%s: %s worst corner %.1f px (half spacing %.1f) segs %d lines %d/%d lattice %d/%d "
                "n %d rms %.3f score %.2f %.0f ms",
                base, found ? "found" : "NOT FOUND", worst, half, t->det->stats.segments,
                t->det->stats.lines[0], t->det->stats.lines[1], t->det->stats.lattice_lines[0],
                t->det->stats.lattice_lines[1], found ? obs.w : 0, t->det->stats.fit_rms,
                t->det->stats.grid_score, ms);
    free((void *)img.data);
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, struct tally *t)
{
    int srcs = 0, src_all = 0, src_major = 0;
    for (int s = 0; s < MAX_SRC; s++) {
        if (!t->src_images[s]) continue;
        srcs++;
        src_all += t->src_good[s] == t->src_images[s];
        src_major += 2 * t->src_good[s] > t->src_images[s];
    }
    char line[2048];
    int len = 0;
    for (int c = 0; c < FC_COUNT; c++)
        len += snprintf(line + len, sizeof line - (size_t)len, "%s%s %d", c ? ", " : "", fc_name[c],
                        t->fclass[c]);
    tu_note("%s: by outcome: %s", name, line);
    tu_note("%s: orientation: row 0 the top edge and column 0 the left on %d of %d right boards",
            name, t->good - t->orient_wrong, t->good);
    len = 0;
    for (int s = 0; s < MAX_SRC && len < (int)sizeof line - 16; s++)
        if (t->src_images[s])
            len += snprintf(line + len, sizeof line - (size_t)len, " %d:%d/%d", s, t->src_good[s],
                            t->src_images[s]);
    tu_note("%s: right per source photo (id:right/copies):%s", name, line);
    qsort(t->errs, (size_t)t->nerr, sizeof t->errs[0], cmp_d);
    tu_note("%s: %d images from %d source photos; board found in %d (%.1f%%); all 4 corners "
            "within half a spacing in %d (%.1f%%)",
            name, t->images, srcs, t->found, 100.0 * t->found / t->images, t->good,
            100.0 * t->good / t->images);
    tu_note("%s: source photos with all copies right %d/%d (%.1f%%), with most copies right "
            "%d/%d (%.1f%%)",
            name, src_all, srcs, 100.0 * src_all / srcs, src_major, srcs, 100.0 * src_major / srcs);
    if (t->nerr)
        tu_note("%s: corner error over found boards: median %.1f px, 90th pct %.1f px, mean "
                "%.1f px (608 px images); %.0f ms per image",
                name, t->errs[t->nerr / 2], t->errs[t->nerr * 9 / 10], t->err_sum / t->nerr,
                t->ms_sum / t->images);
    if (t->nout)
        tu_note("%s: right boards' corners lie %.1f px outwards of their labels on average "
                "(along the line from the labels' centre; negative: inwards)",
                name, t->out_sum / t->nout);
}

static void run(const char *root_in, const char *name, struct tally *t)
{
    char root[900]; /* root_in may be tu_path's buffer, which tu_path calls below overwrite */
    snprintf(root, sizeof root, "%s", root_in);
    /* stones files: the bundled photos' own, and for the shared set those written for it (the
     * bundled photos are shared photos re-encoded: their labels hold for the shared copy too) */
    static char stone_dir[2][1024];
    const char *fx = tu_fixtures_dir();
    bool shared = strcmp(root, tu_path(fx, "go-photos")) != 0;
    snprintf(stone_dir[0], sizeof stone_dir[0], "%s/go-photos/%s", fx,
             shared ? "stones-shared" : "stones");
    snprintf(stone_dir[1], sizeof stone_dir[1], "%s/go-photos/stones", fx);
    t->stone_dirs[0] = stone_dir[0];
    t->stone_dirs[1] = shared ? stone_dir[1] : NULL;
    t->per_photo_notes = true;
    static const char *const jpg[] = {".jpg", NULL};
    char img_dir[1024], lab_dir[1024];
    snprintf(img_dir, sizeof img_dir, "%s/images", root);
    snprintf(lab_dir, sizeof lab_dir, "%s/labels", root);
    t->label_dir = lab_dir;
    t->det = vision_detector_new();
    assert_non_null(t->det);
    t->det->board_size = 19;
    t->det->still_crowds = true; /* stills: read_hands.c */
    int n = tu_walk(img_dir, jpg, one_photo, t);
    vision_detector_free(t->det);
    if (n <= 0) fail_msg("%s: no photos", img_dir);
    report(name, t);
    report_stones(name, &t->st);
    if (t->part[1].photos) {
        char sub[300];
        snprintf(sub, sizeof sub, "%s, tuned on", name);
        report_stones(sub, &t->part[0]);
        snprintf(sub, sizeof sub, "%s, held out", name);
        report_stones(sub, &t->part[1]);
    }
}

/* Floors for stone reading, a little below what the reader gets today, so that a regression
 * fails. Measured when the labels were written (12 bundled photos, 11 boards found right, 3890
 * labelled points on them): points right 84.99 % (77.77 % counting the unfound board's points
 * wrong), stones precision 100 % (585 called, none wrong), recall 42.67 % (black 45.53 %, white
 * 39.83 %), exact boards 2 (the empty board and a sparse one). The reader left most stones it
 * was not sure of '?' rather than guessing; recall was what was low. The shared run (20 labelled
 * source photos, 19 boards right): points right 89.83 % on right boards, precision 100 % (742),
 * recall 46.17 % (black 48.38 %, white 43.96 %), exact 4.
 * Session 16, the neutrality bounds scaled by the frame's own stones' and the foreign-gap and
 * white-stone cues (read_classify.c): bundled points right 93.32 % on right boards (85.39 %
 * all), precision 100 % (896 called), recall 65.35 % (black 65.98 %, white 64.73 %), exact 2;
 * shared (24 photos with the 4 held-out ones, 23 boards right) 92.09 % (88.14 %), precision
 * 100 % (1269), recall 63.39 % (black 64.83 %, white 61.95 %), exact 5.
 * Session 17, hands' chains no longer run through crowds of stones (read_hands.c): bundled
 * 93.93 % on right boards (85.96 % all), precision 100 % (920), recall 67.10 % (black 68.18 %,
 * white 66.04 %); shared 93.35 % (89.34 %), precision 100 % (1368), recall 68.33 % (black
 * 70.24 %, white 66.43 %), of which the 4 held out 61.77 % (58.48 % before).
 * Session 18, a white body colder than grey is no skin (read_features.c pf->cool: the
 * neutrality bound, the gaps its body leans over, the foreign gaps beside it): bundled 95.04 %
 * on right boards (86.97 % all), precision 100 % (963), recall 70.24 % (black 70.82 %, white
 * 69.67 %); shared 93.77 % (89.75 %), precision 100 % (1402), recall 70.03 % (black 71.64 %,
 * white 68.43 %), exact 6; the 4 held out 62.03 %.
 * Session 19, for stills (the detector's still_crowds, read_hands.c: occlusion grown only from
 * regions that show a hand's body, stones covered for their colour alone given back outside
 * them): bundled 98.79 % on right boards (90.40 % all), precision 100 % (1095), recall 79.87 %
 * (black 80.21 %, white 79.54 %), exact 4; shared 97.11 % (92.94 %), precision 100 % (1636),
 * recall 81.72 % (black 82.67 %, white 80.78 %), exact 8; tuned on 81.95 %, the 4 held out
 * 80.76 %.
 * Session 20, for stills: a stone covered for three or four gaps that are not board (none dark,
 * foreign or on the outer margin) is given back when every such gap lies among stones read
 * sure (read_hands.c give_back): bundled 98.87 % on right boards, precision 100 % (1098),
 * recall 80.09 %; shared 97.18 %, precision 100 % (1642), recall 82.02 % (black 82.97 %, white
 * 81.08 %); tuned on 82.27 %, the 4 held out 81.01 % (photo 41: 5 stones more, held-out 98: 1;
 * no other photo changed). Then, for stills, a grid from the stones when every look at the lines
 * failed (board_find.c FIND_STONES: photo 94, a crowded board whose lines show only in bits):
 * bundled 12 of 12 boards right, points right 98.92 %, precision 100 % (1338), recall 97.59 %;
 * shared boards right 168 -> 171 of 180 (source 20 3/3, 94 1/3; no board found wrong),
 * points right 97.30 %, precision 100 % (1884), recall 94.11 % (black 95.59 %, white 92.63 %),
 * exact 9; tuned on 97.32 %, the 4 held out 81.01 % (none of them needs it).
 * Session 21, for stills (read_hands.c): a washed stone beside a region that is not live is
 * doubted only when the lines' cross shows through it (photos 3, 13, 41, 74: six white stones
 * in glare; photo 28's lamp glare stays covered), and a sure stone with board in its four gaps
 * is not covered beside a hand (photo 21: two): bundled recall 97.59 -> 98.18 % (exact 4 -> 5
 * of 12), shared 94.11 -> 94.56 % (black 95.59 %, white 92.63 -> 93.53 %), tuned on 97.32 ->
 * 97.82 %, the 4 held out 81.01 -> 81.27 %; precision 100 % (1346, 1893). Floors raised to
 * just under the shared set's figures (recall, black and white 93 %; white was 92.63 %). */
static void assert_stone_floors(const struct stone_tally *s)
{
    if (!s->photos) return;
    int called = s->called[0] + s->called[1], hit = s->hit[0] + s->hit[1];
    int lab = s->label[0] + s->label[1];
    assert_true(s->right_correct * 1000 >= 960 * s->right_points);
    assert_true(s->correct * 1000 >= 900 * s->points);
    assert_true(hit * 1000 >= 995 * called);
    assert_true(hit * 1000 >= 930 * lab);
    assert_true(s->hit[0] * 1000 >= 930 * s->label[0]);
    assert_true(s->hit[1] * 1000 >= 930 * s->label[1]);
    assert_true(s->exact * 100 >= 30 * s->photos);
}

static void test_bundled_photos(void **state)
{
    (void)state;
    struct tally *t = calloc(1, sizeof *t);
    run(tu_path(tu_fixtures_dir(), "go-photos"), "bundled photos", t);
    /* measured: 7 of 12 at first; 8 with grids scored against the line mask; 11 with the
     * thin-line, median and stone-free looks; 12 with the grid from the stones (photo 94). A
     * floor just below; raise it as finding improves */
    assert_true(t->good * 100 >= 91 * t->images);
    assert_int_equal(t->orient_wrong, 0);
    assert_int_equal(t->st.photos, t->images); /* every bundled photo has its stones labelled */
    assert_stone_floors(&t->st);
    free(t);
}

static void test_all_photos(void **state)
{
    (void)state;
    if (!tu_shared_data_dir()) {
        tu_note("../shared/data absent: the 180-photo set did not run");
        TU_SKIP();
    }
    struct tally *t = calloc(1, sizeof *t);
    run(tu_path(tu_shared_data_dir(), "go-photos/board-corners"), "shared go-photos", t);
    /* measured when written: 86 of 180 (47.8 %); with the star-point anchor 88 (48.9 %); with
     * lattice candidates and vanishing points chosen by the line mask, 128 (71.1 %); searched
     * on thin lines first (a 3x3 median erased them), the median on doubt, 143 (79.4 %); and
     * then with black stones' blobs cleared from the line mask, 168 (93.3 %) */
    assert_true(t->good * 100 >= 90 * t->images);
    assert_int_equal(t->orient_wrong, 0);
    assert_stone_floors(&t->st);
    free(t);
}

/* A side view's stone clusters are no hand (tests/fixtures/go-photos/frames/side-cluster.jpg, a
 * rendered frame of Go fault film suicide 38: a vinyl board seen 44 degrees from overhead, glass
 * white stones, 25 black and 25 white, no hand). Read as the recorder reads, no point is covered
 * and every black stone is read (one white stone is read empty, not covered). Before the gaps
 * were explained by the stones beside them (read_classify.c: a tall black stone's body and a
 * white one's lit face lean over the gaps beside them), 13 points of the clusters were called
 * covered: a black stone for its two dark gaps, then the chain grown from it. */
static void test_side_view_clusters_not_covered(void **state)
{
    (void)state;
    const char *path = tu_path(tu_fixtures_dir(), "go-photos/frames/side-cluster.jpg");
    struct vision_image img;
    char err[256];
    if (!vision_load_jpeg(path, false, &img, err, sizeof err)) fail_msg("%s", err);
    struct vision_detector *det = vision_detector_new();
    struct observation *obs = malloc(sizeof *obs);
    assert_non_null(det);
    assert_non_null(obs);
    det->board_size = 19;
    assert_true(vision_read_go(det, &img, obs));
    int covered = 0, stones[3] = {0, 0, 0};
    for (int y = 0; y < obs->h; y++)
        for (int x = 0; x < obs->w; x++) {
            int p = y * OBS_MAX + x;
            covered += obs->occluded[p];
            if (!obs->occluded[p]) stones[obs->point[p]]++;
        }
    tu_note("side-cluster: %d covered, %d black, %d white", covered, stones[OBS_BLACK],
            stones[OBS_WHITE]);
    assert_int_equal(covered, 0);
    assert_int_equal(stones[OBS_BLACK], 25);
    assert_true(stones[OBS_WHITE] >= 24);
    free(obs);
    vision_detector_free(det);
    free((void *)img.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bundled_photos),
        cmocka_unit_test(test_all_photos),
        cmocka_unit_test(test_side_view_clusters_not_covered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

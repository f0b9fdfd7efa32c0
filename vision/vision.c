/* vision/vision.c — the detector object and one frame's pipeline: prepare the frame, track the
 * grid or find it from scratch, read the points. Timing and statistics go into the detector. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vision/vision_internal.h"

#define DOUBTFUL_FIND      0.8
#define SECOND_LOOK_MARGIN 0.1
/* A bumped board (issue 8): a knock shifts it by more than the tracker's nudge and turns it a
 * little; the grid left a few pixels off still crosses some lines (0.62 on an overhead film,
 * over track_min) and reads stones beside their points. When the tracked grid's line contrast
 * stays under FOLLOW_DROP of the one it had when found, steady (within FOLLOW_STEADY from frame
 * to frame for FOLLOW_STEADY_FRAMES frames: a bumped board lies still, a hand moves), wider
 * shifts and small turns are tried (track_follow), and the best taken only when it brings the
 * contrast back to FOLLOW_DROP of that and gains FOLLOW_GAIN over the grid where it is. Dim
 * light lowers the contrast of the right grid too, but no move of it gains there; a search
 * from scratch (tried before) did lose the grid's fit there. A look that finds nothing waits
 * FOLLOW_RETRY_FRAMES before the next. */
#define FOLLOW_DROP          0.85
#define FOLLOW_GAIN          0.15
#define FOLLOW_STEADY        0.05
#define FOLLOW_STEADY_FRAMES 4
#define FOLLOW_RETRY_FRAMES  15
#define FOLLOW_REACH_PX      8
#define FOLLOW_REACH_SPACING 0.4
#define FOLLOW_TURN_DEG      1.5

struct vision_state {
    bool have_grid;
    struct grid grid;
    uint8_t last_point[OBS_POINTS];
    int frames_since_find;
    double track_ref, track_prev; /* the grid's contrast when found (or since, at best); the
                                     last frame's */
    int low_steady, follow_wait;  /* frames the contrast has stayed low and steady; frames
                                     before the next wider look */
    uint8_t *gray, *color;
    size_t gray_cap, color_cap;
    struct find_work *fw;
    struct stone_geom geom;
};

double vision_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

const char *vision_stage_name(enum vision_stage s)
{
    static const char *names[VSTAGE_COUNT] = {"prepare", "segments", "families",
                                              "grid",    "track",    "read"};
    return s >= 0 && s < VSTAGE_COUNT ? names[s] : "?";
}

/* A grid found that the picture doubts, or none: search again with another filter (enum
 * find_filter) and keep the grid the picture likes clearly better. The thin-line filter comes
 * first, because a 3x3 median erases lines one pixel wide (a small or far board, the far rows of
 * a tilted one, a 19x19 at 608 px) and the grid found on what is left lies wrong or nowhere. But
 * it keeps wood grain, which can pass for more lines: the median erases that. On a crowded board
 * Hough takes rows of black stones for lines: clearing the thick blobs leaves the lines between
 * them. */
static bool another_look(struct vision_detector *det, struct vision_state *st, const cv_image *g,
                         const struct read_image *ri, bool found, unsigned filter)
{
    double now = found ? track_score(ri->gray, ri->w, ri->h, &st->grid, NULL) : 0;
    if (now >= DOUBTFUL_FIND) return found;
    struct vision_stats first = det->stats;
    struct grid alt;
    double again = board_find(det, st->fw, g, det->board_size, filter, &alt)
                       ? track_score(ri->gray, ri->w, ri->h, &alt, NULL)
                       : -1;
    if (again >= 0 && (!found || again >= now + SECOND_LOOK_MARGIN)) {
        st->grid = alt;
        return true;
    }
    det->stats = first;
    return found;
}

/* A board found at the working size whose grid the full-size picture doubts (its lines cross
 * the picture's lines in fewer than DOUBTFUL_FIND of the places; a right one scores 0.9-1 on an
 * empty board): thin lines of a large frame (a 19x19 board in 1920x1080 is a third of a pixel
 * wide at 640) break up when shrunk, and the lines found may be only part of the board. Look
 * again at twice the size (the caller restores det->work_size). */
static void second_look(struct vision_detector *det, struct vision_state *st, const cv_image *g,
                        const struct read_image *ri, int big)
{
    det->work_size = 2 * det->work_size < big ? 2 * det->work_size : big;
    another_look(det, st, g, ri, true, FIND_THIN_LINES);
}

struct vision_detector *vision_detector_new(void)
{
    struct vision_detector *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->st = calloc(1, sizeof *d->st);
    if (!d->st || !(d->st->fw = find_work_new())) {
        vision_detector_free(d);
        return NULL;
    }
    d->board_size = 0;
    d->work_size = 640;
    d->line_c = 8;
    d->hough_votes = 30;
    d->min_grid_score = 0.15;
    d->hough_gap = 3;
    d->stone_height = 0.40;
    d->focal = 0;
    d->unsure_conf = 0.5;
    d->still_crowds = false;
    d->track_min = 0.55;
    d->track_shift = 3;
    d->refind_every = 0;
    d->strict_lines = true;
    d->other_looks = true;
    d->debug = false;
    d->debug_dir = ".";
    return d;
}

void vision_detector_free(struct vision_detector *det)
{
    if (!det) return;
    if (det->st) {
        find_work_free(det->st->fw);
        free(det->st->gray);
        free(det->st->color);
        free(det->st);
    }
    free(det);
}

void vision_detector_reset(struct vision_detector *det)
{
    det->st->have_grid = false;
}

static bool grow(uint8_t **buf, size_t *cap, size_t need)
{
    if (need <= *cap) return true;
    uint8_t *p = realloc(*buf, need);
    if (!p) return false;
    *buf = p;
    *cap = need;
    return true;
}

/* How far a bumped board is searched for: FOLLOW_REACH_SPACING of the grid's spacing in the
 * picture (a bump of a few millimetres moves a board filmed at 1280x960 twice as many pixels as
 * at 640x480), at least FOLLOW_REACH_PX; under half a spacing, where the grid one line over
 * would fit as well. */
static int follow_reach(const struct grid *g)
{
    double x0, y0, x1, y1, x2, y2;
    int n = g->n - 1;
    hom_apply(g->H, 0, 0, &x0, &y0);
    hom_apply(g->H, n, 0, &x1, &y1);
    hom_apply(g->H, 0, n, &x2, &y2);
    double spacing = (hypot(x1 - x0, y1 - y0) + hypot(x2 - x0, y2 - y0)) / (2.0 * n);
    int reach = (int)(FOLLOW_REACH_SPACING * spacing);
    return reach > FOLLOW_REACH_PX ? reach : FOLLOW_REACH_PX;
}

/* Grey (and packed colour) copies of the frame. */
static bool prepare(struct vision_state *st, const struct vision_image *img, struct read_image *ri)
{
    int w = img->width, h = img->height;
    int ch = img->fmt == VISION_GRAY8 ? 1 : 3;
    if (!grow(&st->gray, &st->gray_cap, (size_t)w * h)) return false;
    cv_image src = {(uint8_t *)img->data, w, h, img->stride, ch};
    cv_image dst = {st->gray, w, h, w, 1};
    if (cv_to_gray(&src, &dst, img->fmt == VISION_RGB24) != CV_OK) return false;
    ri->w = w, ri->h = h, ri->gray = st->gray, ri->color = NULL, ri->rgb = false;
    if (ch == 3) {
        if (img->stride == w * 3)
            ri->color = img->data;
        else {
            if (!grow(&st->color, &st->color_cap, (size_t)w * h * 3)) return false;
            for (int y = 0; y < h; y++)
                memcpy(st->color + (size_t)y * w * 3, img->data + (size_t)y * img->stride,
                       (size_t)w * 3);
            ri->color = st->color;
        }
        ri->rgb = img->fmt == VISION_RGB24;
    }
    return true;
}

bool vision_read_go(struct vision_detector *det, const struct vision_image *img,
                    struct observation *obs)
{
    struct vision_state *st = det->st;
    memset(obs, 0, sizeof *obs);
    obs->t_ns = img->t_ns;
    obs->frame_seq = img->seq;
    memset(&det->stats, 0, sizeof det->stats);
    memset(det->stage_ms, 0, sizeof det->stage_ms);
    if (!img->data || img->width < 32 || img->height < 32 ||
        img->stride < img->width * (img->fmt == VISION_GRAY8 ? 1 : 3))
        return false;

    double t0 = vision_now_ms();
    struct read_image ri;
    if (!prepare(st, img, &ri)) return false;
    det->stage_ms[VSTAGE_PREPARE] += vision_now_ms() - t0;
    debug_write_gray(det, "0_gray", ri.gray, ri.w, ri.h, ri.w);

    bool tracked = false;
    if (st->have_grid && (det->board_size == 0 || det->board_size == st->grid.n) &&
        !(det->refind_every > 0 && st->frames_since_find >= det->refind_every)) {
        t0 = vision_now_ms();
        double s = track_nudge(ri.gray, ri.w, ri.h, &st->grid, st->last_point, det->track_shift);
        bool steady = fabs(s - st->track_prev) < FOLLOW_STEADY;
        st->track_prev = s;
        st->low_steady = s < FOLLOW_DROP * st->track_ref && steady ? st->low_steady + 1 : 0;
        if (st->follow_wait > 0) st->follow_wait--;
        if (st->low_steady >= FOLLOW_STEADY_FRAMES && !st->follow_wait) {
            struct grid g = st->grid;
            double f = track_follow(ri.gray, ri.w, ri.h, &g, st->last_point, follow_reach(&g),
                                    FOLLOW_TURN_DEG);
            if (f >= s + FOLLOW_GAIN && f >= FOLLOW_DROP * st->track_ref) {
                st->grid = g;
                s = st->track_prev = f;
                st->low_steady = 0;
                det->stats.followed = true;
            } else
                st->follow_wait = FOLLOW_RETRY_FRAMES;
        }
        if (s > st->track_ref) st->track_ref = s;
        det->stats.track_score = s;
        tracked = s >= det->track_min;
        det->stage_ms[VSTAGE_TRACK] += vision_now_ms() - t0;
    }
    if (!tracked) {
        cv_image g = {st->gray, ri.w, ri.h, ri.w, 1};
        det->stats.refound = true;
        st->frames_since_find = 0;
        bool ok = board_find(det, st->fw, &g, det->board_size, FIND_THIN_LINES, &st->grid);
        int big = ri.w > ri.h ? ri.w : ri.h;
        /* a small or steeply tilted board in a large frame: its lines merge or bend apart at the
         * working size; look again at twice the resolution, then at full size */
        int keep = det->work_size;
        while (!ok && big > det->work_size) {
            det->work_size = 2 * det->work_size < big ? 2 * det->work_size : big;
            ok = board_find(det, st->fw, &g, det->board_size, FIND_THIN_LINES, &st->grid);
        }
        if (ok && big > det->work_size) second_look(det, st, &g, &ri, big);
        det->work_size = keep;
        if (det->other_looks) {
            ok = another_look(det, st, &g, &ri, ok, FIND_MEDIAN);
            ok = another_look(det, st, &g, &ri, ok, FIND_THIN_LINES | FIND_NO_BLOBS);
        }
        /* a photo of a crowded board whose lines show only in bits between the stones: the
         * grid from the stones (stills only: a video has later frames, and a hand's blobs) */
        if (!ok && det->still_crowds)
            ok = board_find(det, st->fw, &g, det->board_size, FIND_THIN_LINES | FIND_STONES,
                            &st->grid);
        if (!ok) {
            st->have_grid = false;
            return false;
        }
        st->have_grid = true;
        memset(st->last_point, OBS_EMPTY, sizeof st->last_point);
        det->stats.track_score = track_score(ri.gray, ri.w, ri.h, &st->grid, NULL);
        st->track_ref = st->track_prev = det->stats.track_score;
        st->low_steady = st->follow_wait = 0;
    } else
        st->frames_since_find++;

    t0 = vision_now_ms();
    const struct grid *gr = &st->grid;
    stone_geometry(gr, ri.w, ri.h, det->stone_height, det->focal, &st->geom);
    obs->board_found = true;
    obs->tracked = tracked;
    int n = gr->n;
    double uv[4][2] = {{0, 0}, {n - 1, 0}, {n - 1, n - 1}, {0, n - 1}};
    for (int c = 0; c < 4; c++)
        hom_apply(gr->H, uv[c][0], uv[c][1], &obs->corners[c][0], &obs->corners[c][1]);
    read_points(det, &ri, gr, &st->geom, obs);
    memcpy(st->last_point, obs->point, sizeof st->last_point);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (obs->occluded[p]) st->last_point[p] = OBS_BLACK; /* not known empty */
            det->stats.black += !obs->occluded[p] && obs->point[p] == OBS_BLACK;
            det->stats.white += !obs->occluded[p] && obs->point[p] == OBS_WHITE;
            det->stats.occluded += obs->occluded[p];
            det->stats.unsure += !obs->occluded[p] && obs->conf[p] < det->unsure_conf;
        }
    det->stage_ms[VSTAGE_READ] += vision_now_ms() - t0;
    det->stats.spacing_px = gr->spacing_px;
    det->stats.fit_rms = gr->rms;
    if (det->debug) debug_write_grid(det, "3_read", ri.gray, ri.w, ri.h, gr, obs, NULL, 0);
    return true;
}

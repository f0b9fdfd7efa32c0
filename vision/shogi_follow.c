/* vision/shogi_follow.c — follow the board when it is bumped. A knock shifts the board a few
 * pixels (and turns it a little); a grid left behind reads every cell's picture off its piece, so
 * pieces standing still look replaced and their lines hidden. The grid lines between two empty
 * cells are darker than the wood beside them: their share that still are says whether the grid
 * sits on the board. When it drops, small moves of the grid are tried and the best taken if it
 * brings the share back (a hand over the board lowers it too, but no move brings it back). */
#include <math.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

/* The share under this part of the one at the start or the last settled view: look around. */
#define FOLLOW_DROP 0.85
/* A move is taken when it brings the share back to FOLLOW_DROP of the reference and gains
 * this much over the grid where it is. */
#define FOLLOW_GAIN 0.15
/* How far the grid is looked for: this share of a cell (the renderer's bumps move the board up
 * to 10 mm each way and turn it up to 1.5 degrees, a third of a cell and more on a shogiban; a
 * 1280-pixel partial view's 7.6 mm bump moved the corners 15-22 pixels, and a search 8 pixels
 * wide lost the grid for good), at least FOLLOW_REACH_MIN pixels; and the turns tried, in
 * degrees. */
#define FOLLOW_REACH_CELL 0.5
#define FOLLOW_REACH_MIN  8
#define FOLLOW_TURN_MAX   1.5
/* The share must stay within this of the last frame's for this many frames before the grid is
 * looked for (a bump is over in a frame or two; a hand keeps moving). */
#define FOLLOW_STEADY        0.05
#define FOLLOW_STEADY_FRAMES 4
#define FOLLOW_AFTER_JOLT_NS 3000000000LL
/* A line sample counts when it is this many grey levels darker than the wood on both sides. */
#define FOLLOW_LINE_DARKER 3.0

/* Share of the grid-line samples between two empty cells (as the last settled view showed them)
 * that are darker than the wood on both sides; -1 when too few such borders are in view. */
static double share_of(const uint8_t board[SHOGI_SQUARES], const struct vision_image *gray,
                       const struct shogi_grid *g, bool coarse)
{
    int good = 0, total = 0;
    for (int fam = 0; fam < 2; fam++)     /* 0: vertical lines x = a; 1: horizontal y = a */
        for (int a = 0; a <= 9; a++)      /* the line */
            for (int b = 0; b < 9; b++) { /* the segment along it, one cell long */
                /* the cells on both sides (view x = 9 - file, y = rank - 1); off the grid is
                   the board's margin, wood as well */
                int x0 = fam ? b : a - 1, y0 = fam ? a - 1 : b, x1 = fam ? b : a, y1 = fam ? a : b;
                bool empty = true;
                if (x0 >= 0 && y0 >= 0) empty &= !board[shogi_sq(9 - x0, y0 + 1)];
                if (x1 <= 8 && y1 <= 8) empty &= !board[shogi_sq(9 - x1, y1 + 1)];
                if (!empty) continue;
                for (int k = coarse ? 2 : 1; k <= (coarse ? 2 : 3); k++) {
                    double t = b + 0.25 * k, lx = fam ? t : a, ly = fam ? a : t;
                    double nx = fam ? 0 : 0.25, ny = fam ? 0.25 : 0;
                    double on = shogi_gray_at(g, gray, lx, ly);
                    double s1 = shogi_gray_at(g, gray, lx + nx, ly + ny);
                    double s2 = shogi_gray_at(g, gray, lx - nx, ly - ny);
                    if (on < 0 || s1 < 0 || s2 < 0) continue;
                    total++;
                    good += on + FOLLOW_LINE_DARKER < s1 && on + FOLLOW_LINE_DARKER < s2;
                }
            }
    return total >= (coarse ? 8 : 24) ? (double)good / total : -1;
}

static double line_share_at(const struct shogi_reader *r, const struct vision_image *gray,
                            const struct shogi_grid *g, bool coarse)
{
    return share_of(r->expect, gray, g, coarse);
}

static double line_share(const struct shogi_reader *r, const struct vision_image *gray,
                         const struct shogi_grid *g)
{
    return share_of(r->expect, gray, g, false);
}

double shogi_grid_line_share(const struct vision_image *gray, const struct shogi_grid *g,
                             const uint8_t board[SHOGI_SQUARES])
{
    return share_of(board, gray, g, false);
}

/* The longest side of a cell in the image, in pixels (the grid's sides over nine). */
static double cell_px(const struct shogi_grid *g)
{
    double m = 0;
    for (int i = 0; i < 4; i++) {
        const double *a = g->corners[i], *b = g->corners[(i + 1) & 3];
        double d = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1])) / 9;
        if (d > m) m = d;
    }
    return m;
}

/* g moved by (dx, dy) pixels and turned by deg about its centre. */
static void moved(const struct shogi_grid *g, double dx, double dy, double deg,
                  struct shogi_grid *out)
{
    double cx = 0, cy = 0, c[4][2];
    for (int i = 0; i < 4; i++) {
        cx += 0.25 * g->corners[i][0];
        cy += 0.25 * g->corners[i][1];
    }
    double a = deg * M_PI / 180, ca = cos(a), sa = sin(a);
    for (int i = 0; i < 4; i++) {
        double x = g->corners[i][0] - cx, y = g->corners[i][1] - cy;
        c[i][0] = cx + ca * x - sa * y + dx;
        c[i][1] = cy + sa * x + ca * y + dy;
    }
    shogi_grid_set(out, c);
}

bool shogi_follow_board(struct shogi_reader *r, const struct vision_image *gray)
{
    double now = line_share(r, gray, &r->grid), before = r->follow_now;
    r->follow_now = now;
    if (r->follow_ref <= 0) {
        if (now > 0) r->follow_ref = now;
        return false;
    }
    /* a bumped board lies still where it went; a hand moves and hides lines as it goes: look
       only once the share has stayed low and steady for a few frames */
    bool steady =
        now >= 0 && now < FOLLOW_DROP * r->follow_ref && fabs(now - before) < FOLLOW_STEADY;
    r->follow_steady = steady ? r->follow_steady + 1 : 0;
    if (r->follow_steady < FOLLOW_STEADY_FRAMES) return false;
    /* and only after the rim changed all round or most cells at once: a bump moves the whole
       board against the camera, a hand crosses the rim in one place */
    if (!r->jolt_ns || gray->t_ns - r->jolt_ns > FOLLOW_AFTER_JOLT_NS) return false;
    /* coarse: shifts a line's width apart (a grid between two of them misses the lines) over
       the reach, at a few turns, on one sample a border; then finer around the best, on all */
    double cell = cell_px(&r->grid), reach = FOLLOW_REACH_CELL * cell;
    if (reach < FOLLOW_REACH_MIN) reach = FOLLOW_REACH_MIN;
    double step = cell / 32 > 2 ? cell / 32 : 2;
    int nsteps = (int)ceil(reach / step);
    struct shogi_grid best = r->grid, g;
    double best_c = -1, bx = 0, by = 0, bdeg = 0;
    for (double deg = -FOLLOW_TURN_MAX; deg <= FOLLOW_TURN_MAX + 1e-9; deg += 0.5)
        for (int iy = -nsteps; iy <= nsteps; iy++)
            for (int ix = -nsteps; ix <= nsteps; ix++) {
                moved(&r->grid, ix * step, iy * step, deg, &g);
                double s = line_share_at(r, gray, &g, true);
                if (s > best_c) best_c = s, bx = ix * step, by = iy * step, bdeg = deg;
            }
    double best_s = now;
    for (int round = 0; round < 2; round++) {
        double cx = bx, cy = by, cdeg = bdeg, span = round ? 0.5 : step;
        for (double dy = -span; dy <= span + 1e-9; dy += 0.5)
            for (double dx = -span; dx <= span + 1e-9; dx += 0.5) {
                moved(&r->grid, cx + dx, cy + dy, cdeg, &g);
                double s = line_share(r, gray, &g);
                if (s > best_s) best_s = s, bx = cx + dx, by = cy + dy, best = g;
            }
        for (double deg = cdeg - 0.3; deg <= cdeg + 0.3 + 1e-9; deg += 0.1) {
            moved(&r->grid, bx, by, deg, &g);
            double s = line_share(r, gray, &g);
            if (s > best_s) best_s = s, bdeg = deg, best = g;
        }
    }
    if (best_s < FOLLOW_DROP * r->follow_ref || best_s < now + FOLLOW_GAIN) return false;
    /* the search's steps leave the grid a little off: onto the bare cells' own lines */
    shogi_grid_refine(&best, gray, r->expect);
    r->grid = best;
    r->follow_now = line_share(r, gray, &best);
    /* the pictures kept of the last settled view were taken through the old grid: take them
       again (a grid that only sat a little off the lines would otherwise see every piece
       replaced) */
    r->ref_valid = false;
    r->have_ref = false;
    r->stats.refound = true;
    return true;
}

/* vision/shogi_grid.c — the 9 x 9 cells of a shogiban: the Go board finder asked for 10 lines (the
 * cells lie between them), corners put clockwise, and cells resampled into small square patches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/shogi_read.h"
#include "vision/vision_internal.h"

struct shogi_finder {
    struct vision_detector *det;
    struct find_work *work;
    uint8_t *big; /* the frame enlarged for the search (find_lines) */
    size_t big_cap;
    bool enlarge; /* the start's search (tuned): enlarge the frame; tracking's keeps its size */
};

struct shogi_finder *shogi_finder_new(void)
{
    struct shogi_finder *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->det = vision_detector_new();
    f->work = find_work_new();
    if (!f->det || !f->work) {
        shogi_finder_free(f);
        return NULL;
    }
    return f;
}

void shogi_finder_free(struct shogi_finder *f)
{
    if (!f) return;
    vision_detector_free(f->det);
    find_work_free(f->work);
    free(f->big);
    free(f);
}

void shogi_grid_set(struct shogi_grid *g, const double corners[4][2])
{
    static const double view[8] = {0, 0, 9, 0, 9, 9, 0, 9};
    double img[8];
    for (int i = 0; i < 4; i++) {
        g->corners[i][0] = corners[i][0];
        g->corners[i][1] = corners[i][1];
        img[2 * i] = corners[i][0];
        img[2 * i + 1] = corners[i][1];
    }
    if (!hom_fit(view, img, 4, g->H)) memset(g->H, 0, sizeof g->H);
}

void shogi_grid_rotate(struct shogi_grid *g, int k)
{
    double c[4][2];
    for (int i = 0; i < 4; i++) {
        c[i][0] = g->corners[(i + k) & 3][0];
        c[i][1] = g->corners[(i + k) & 3][1];
    }
    shogi_grid_set(g, c);
}

void shogi_grid_shift(struct shogi_grid *g, int dx, int dy)
{
    static const double gc[4][2] = {{0, 0}, {9, 0}, {9, 9}, {0, 9}};
    double c[4][2];
    for (int i = 0; i < 4; i++) hom_apply(g->H, gc[i][0] + dx, gc[i][1] + dy, &c[i][0], &c[i][1]);
    shogi_grid_set(g, c);
}

bool shogi_grid_find_tuned(struct shogi_finder *f, const struct vision_image *gray, double line_c,
                           int votes, struct shogi_grid *g)
{
    double lc = f->det->line_c;
    int hv = f->det->hough_votes;
    f->det->line_c = line_c;
    f->det->hough_votes = votes;
    f->enlarge = true;
    bool ok = shogi_grid_find(f, gray, g);
    f->enlarge = false;
    f->det->line_c = lc;
    f->det->hough_votes = hv;
    return ok;
}

/* The start's search (f->enlarge) works on the frame at FIND_SIZE px (its larger side), enlarged
 * when smaller: seen from the side, cells of 25 x 15 px in a 640 x 480 frame leave grid lines a
 * pixel or two wide, which the line mask's blur and threshold lose among the pieces and the
 * table's grain at the frame's own size (tests/vision/test_shogi_grid_views.c). Tracking's
 * searches keep the finder's size: four times the pixels is too slow for every frame. */
#define FIND_SIZE 1280

static bool find_lines(struct shogi_finder *f, const cv_image *im, struct grid *found)
{
    int big = im->width > im->height ? im->width : im->height;
    int ws = f->det->work_size;
    if (f->enlarge) f->det->work_size = FIND_SIZE;
    if (!f->enlarge || big >= FIND_SIZE) {
        bool ok = board_find(f->det, f->work, im, 10, found);
        f->det->work_size = ws;
        return ok;
    }
    double s = (double)FIND_SIZE / big;
    int uw = (int)lround(im->width * s), uh = (int)lround(im->height * s);
    size_t need = (size_t)uw * uh;
    if (need > f->big_cap) {
        free(f->big);
        f->big = malloc(need);
        f->big_cap = f->big ? need : 0;
    }
    cv_image up = {f->big, uw, uh, uw, 1};
    bool ok = f->big && cv_resize(im, &up) == CV_OK && board_find(f->det, f->work, &up, 10, found);
    f->det->work_size = ws;
    if (!ok) return false;
    /* back to the frame's pixels (pixel centres: x = (x' + 0.5) / s - 0.5) */
    double S[9] = {1 / s, 0, 0.5 / s - 0.5, 0, 1 / s, 0.5 / s - 0.5, 0, 0, 1}, H[9];
    hom_mul(S, found->H, H);
    memcpy(found->H, H, sizeof H);
    found->spacing_px /= s;
    return true;
}

bool shogi_grid_find(struct shogi_finder *f, const struct vision_image *gray, struct shogi_grid *g)
{
    cv_image im = {(uint8_t *)gray->data, gray->width, gray->height, gray->stride, 1};
    struct grid found;
    if (!find_lines(f, &im, &found)) return false;
    double c[4][2];
    static const double gc[4][2] = {{0, 0}, {9, 0}, {9, 9}, {0, 9}};
    for (int i = 0; i < 4; i++) hom_apply(found.H, gc[i][0], gc[i][1], &c[i][0], &c[i][1]);
    /* clockwise on screen (y down): a camera above the board never sees it mirrored */
    double cross =
        (c[1][0] - c[0][0]) * (c[2][1] - c[1][1]) - (c[1][1] - c[0][1]) * (c[2][0] - c[1][0]);
    if (cross < 0) {
        double t0 = c[1][0], t1 = c[1][1];
        c[1][0] = c[3][0];
        c[1][1] = c[3][1];
        c[3][0] = t0;
        c[3][1] = t1;
    }
    shogi_grid_set(g, c);
    return true;
}

static int view_x(int sq)
{
    return 9 - shogi_sq_file(sq);
}

static int view_y(int sq)
{
    return shogi_sq_rank(sq) - 1;
}

/* n x n bilinear samples over the view square [x0, x0 + span) x [y0, y0 + span) (cells), at the
 * sample centres. The homography is evaluated incrementally along each row (numerators and
 * denominator are linear in x): one division a sample, no libm calls. */
bool shogi_grid_sample(const struct shogi_grid *g, const struct vision_image *gray, double x0,
                       double y0, double span, int n, uint8_t *out)
{
    const double *H = g->H, step = span / n;
    const int w = gray->width, h = gray->height, stride = gray->stride;
    bool inside = true;
    for (int i = 0; i < n; i++) {
        double x = x0 + 0.5 * step, y = y0 + (i + 0.5) * step;
        double nu = H[0] * x + H[1] * y + H[2], nv = H[3] * x + H[4] * y + H[5];
        double dw = H[6] * x + H[7] * y + H[8];
        for (int j = 0; j < n; j++, nu += H[0] * step, nv += H[3] * step, dw += H[6] * step) {
            double k = fabs(dw) < 1e-12 ? 1e12 : 1 / dw;
            double u = nu * k - 0.5, v = nv * k - 0.5;
            if (!(u >= 0 && v >= 0 && u < w - 1 && v < h - 1)) { /* also NaN */
                out[i * n + j] = 0;
                inside = false;
                continue;
            }
            int iu = (int)u, iv = (int)v;
            double fu = u - iu, fv = v - iv;
            const uint8_t *p = gray->data + (size_t)iv * stride + iu;
            double a = p[0] + fu * (p[1] - p[0]);
            double b = p[stride] + fu * (p[stride + 1] - p[stride]);
            out[i * n + j] = (uint8_t)(a + fv * (b - a) + 0.5);
        }
    }
    return inside;
}

bool shogi_grid_patch(const struct shogi_grid *g, const struct vision_image *gray, int sq,
                      uint8_t *patch)
{
    return shogi_grid_sample(g, gray, view_x(sq), view_y(sq), 1.0, SHOGI_PATCH, patch);
}

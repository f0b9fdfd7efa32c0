/* vision/shogi_grid.c — the 9 x 9 cells of a shogiban: the Go board finder asked for 10 lines (the
 * cells lie between them), corners put clockwise, and cells resampled into small square patches. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

struct shogi_finder {
    struct vision_detector *det;
    struct find_work *work;
    uint8_t *big; /* the frame enlarged (shogi_grid_find_at) */
    size_t big_cap;
    unsigned filter; /* enum find_filter: how the picture is cleaned before lines are marked */
};

void shogi_finder_filter(struct shogi_finder *f, unsigned filter)
{
    f->filter = filter;
}

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
    /* measured: the strict window rules cost the cold readings of the start (occupancy 99.4 ->
     * 98.8%, owner 96.0 -> 94.6% on 30 rendered games) */
    f->det->strict_lines = false;
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
    bool ok = shogi_grid_find(f, gray, g);
    f->det->line_c = lc;
    f->det->hough_votes = hv;
    return ok;
}

bool shogi_grid_find_at(struct shogi_finder *f, const struct vision_image *gray, int times,
                        double line_c, int votes, struct shogi_grid *g)
{
    int big = gray->width > gray->height ? gray->width : gray->height;
    int ws = f->det->work_size, work = times * ws;
    bool ok;
    if (big >= work) { /* the finder shrinks the frame to work pixels itself */
        f->det->work_size = work;
        ok = shogi_grid_find_tuned(f, gray, line_c, votes, g);
        f->det->work_size = ws;
        return ok;
    }
    double k = (double)work / big;
    int w = (int)lround(k * gray->width), h = (int)lround(k * gray->height);
    size_t need = (size_t)w * h;
    if (need > f->big_cap) {
        free(f->big);
        f->big = malloc(need);
        f->big_cap = f->big ? need : 0;
        if (!f->big) return false;
    }
    cv_image src = {(uint8_t *)gray->data, gray->width, gray->height, gray->stride, 1};
    cv_image dst = {f->big, w, h, w, 1};
    if (cv_resize(&src, &dst) != CV_OK) return false;
    struct vision_image enlarged = *gray;
    enlarged.width = w, enlarged.height = h, enlarged.stride = w, enlarged.data = f->big;
    f->det->work_size = w > h ? w : h;
    ok = shogi_grid_find_tuned(f, &enlarged, line_c, votes, g);
    f->det->work_size = ws;
    if (!ok) return false;
    /* back to the frame's pixels (bilinear enlarging maps pixel centres onto pixel centres) */
    double c[4][2];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) c[i][j] = (g->corners[i][j] + 0.5) * gray->width / w - 0.5;
    shogi_grid_set(g, c);
    return true;
}

bool shogi_grid_find(struct shogi_finder *f, const struct vision_image *gray, struct shogi_grid *g)
{
    cv_image im = {(uint8_t *)gray->data, gray->width, gray->height, gray->stride, 1};
    struct grid found;
    if (!board_find(f->det, f->work, &im, 10, f->filter, &found)) return false;
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

/* vision/shogi_resample.c — the shogi reader's change cache: each frame, only the cells whose
 * coarse look changed since they were last sampled are sampled again (patch, texture, grid-line
 * evidence), and the book's scores of a patch are kept until the patch or the book changes. Most
 * frames of a game change a few cells or none, and sampling every cell is what costs. */
#include <math.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

/* The grey level at view coordinates (cells), -1 outside the image. */
double shogi_gray_at(const struct shogi_grid *g, const struct vision_image *gray, double vx,
                     double vy)
{
    double u, v;
    hom_apply(g->H, vx, vy, &u, &v);
    int iu = (int)floor(u), iv = (int)floor(v);
    if (iu < 0 || iv < 0 || iu + 1 >= gray->width || iv + 1 >= gray->height) return -1;
    double fu = u - iu, fv = v - iv;
    const uint8_t *p = gray->data + (size_t)iv * gray->stride + iu;
    double a = p[0] + fu * (p[1] - p[0]);
    double b = p[gray->stride] + fu * (p[gray->stride + 1] - p[gray->stride]);
    return a + fv * (b - a);
}

/* How much darker the grid line is than the wood on both sides along one cell border, relative
 * to the wood: from (x0, y0) one cell along (dx, dy), the line's normal (nx, ny). The median of
 * a few places, so a piece's corner over one of them does not hide the line. */
static double border_contrast(const struct shogi_grid *g, const struct vision_image *gray,
                              double x0, double y0, double dx, double dy)
{
    const double off = 0.1, nx = dy, ny = dx;
    double c[5];
    int n = 0;
    for (int k = 0; k < 5; k++) {
        double t = 0.2 + 0.15 * k, x = x0 + t * dx, y = y0 + t * dy;
        double on = shogi_gray_at(g, gray, x, y);
        double a = shogi_gray_at(g, gray, x + off * nx, y + off * ny);
        double b = shogi_gray_at(g, gray, x - off * nx, y - off * ny);
        if (on < 0 || a < 0 || b < 0) continue;
        double side = 0.5 * (a + b);
        c[n++] = side > 1 ? (side - on) / side : 0;
    }
    if (!n) return -1;
    for (int i = 1; i < n; i++) /* insertion sort: five values */
        for (int j = i; j > 0 && c[j] < c[j - 1]; j--) {
            double t = c[j];
            c[j] = c[j - 1];
            c[j - 1] = t;
        }
    return c[n / 2];
}

/* A cell's line evidence: the second best of its four borders (a hand hides all four; a piece
 * off-centre or a glint at most one or two). -1 when the cell is not in the image. */
static double cell_line_evidence(const struct shogi_reader *r, const struct vision_image *gray,
                                 int sq)
{
    double x = 9 - shogi_sq_file(sq), y = shogi_sq_rank(sq) - 1;
    double b[4] = {border_contrast(&r->grid, gray, x, y, 1, 0),
                   border_contrast(&r->grid, gray, x, y + 1, 1, 0),
                   border_contrast(&r->grid, gray, x, y, 0, 1),
                   border_contrast(&r->grid, gray, x + 1, y, 0, 1)};
    double first = -1, second = -1;
    for (int i = 0; i < 4; i++) {
        if (b[i] > first) {
            second = first;
            first = b[i];
        } else if (b[i] > second) {
            second = b[i];
        }
    }
    return second;
}

double shogi_median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n ? v[n / 2] : 0;
}

/* How far a cell's coarse samples moved from its reference, light change taken out: the mean
 * absolute difference about the mean difference (exposure drift shifts a whole cell). */
double shogi_sig_change(const uint8_t *a, const uint8_t *b)
{
    const int n = SHOGI_SIG * SHOGI_SIG;
    int sum = 0;
    for (int i = 0; i < n; i++) sum += a[i] - b[i];
    double mean = (double)sum / n, dev = 0;
    for (int i = 0; i < n; i++) dev += fabs(a[i] - b[i] - mean);
    return dev / n;
}

void shogi_cells_sig(const struct shogi_reader *r, const struct vision_image *gray,
                     uint8_t sig[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG])
{
    static const double ext = 0.1; /* the border lines' sides, read by line evidence */
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        double x = 9 - shogi_sq_file(sq), y = shogi_sq_rank(sq) - 1;
        shogi_grid_sample(&r->grid, gray, x - ext, y - ext, 1 + 2 * ext, SHOGI_SIG, sig[sq]);
    }
}

/* A cell counts as changed when its samples moved this much more than camera noise moves an
 * unchanged cell's (noise alone stays within a few tenths of it: a mean of 64 samples), or
 * this many grey levels more. */
#define SIG_NOISE_GAIN 1.5
#define SIG_MIN_CHANGE 2.0
/* The learned noise rises at most this share a frame: a hand over most of the board must not
 * pass for noise. */
#define SIG_NOISE_RISE 0.01
/* A cell is sampled every frame for this long after its look last changed. */
#define RESAMPLE_AFTER_NS 300000000LL

/* Sample again the cells whose coarse look changed since they were last sampled (all of them
 * when the grid moved); the others keep patch, texture and line evidence. Most frames of a game
 * change a few cells or none, and sampling every cell's patch is what costs. */
void shogi_sample_changed(struct shogi_reader *r, const struct vision_image *gray)
{
    if (memcmp(r->cache_H, r->grid.H, sizeof r->cache_H)) {
        memset(r->cached, 0, sizeof r->cached);
        r->ref_valid = false;
        memcpy(r->cache_H, r->grid.H, sizeof r->cache_H);
    }
    uint8_t sig[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG];
    double d[SHOGI_SQUARES], v[SHOGI_SQUARES];
    int nv = 0;
    shogi_cells_sig(r, gray, sig);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        d[sq] = r->cached[sq] ? shogi_sig_change(sig[sq], r->sig[sq]) : 1e300;
        if (r->cached[sq]) v[nv++] = d[sq];
    }
    /* most cells are unchanged in most frames: their median is the noise */
    if (nv >= SHOGI_SQUARES / 2) {
        double m = shogi_median(v, nv), cap = r->sig_noise * (1 + SIG_NOISE_RISE);
        r->sig_noise = r->sig_noise <= 0 || m < cap ? m : cap;
    }
    double thr = SIG_NOISE_GAIN * r->sig_noise + SIG_MIN_CHANGE;
    r->sig_thr = thr;
    memcpy(r->sig_now, sig, sizeof sig);
    r->resampled = 0;
    /* most of the board changed at once: the board or the camera moved (or the light changed) */
    int nchanged = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) nchanged += r->cached[sq] && d[sq] > thr;
    if (nv >= SHOGI_SQUARES / 2 && nchanged * 3 > nv * 2) r->jolt_ns = gray->t_ns;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        /* a cell sampled while a hand passed keeps that picture while its look stays within
           the threshold of it: sampled again every frame for a while after it last changed, so
           that what stands is a picture of the cell at rest (dim film 17: the edge of a passing
           arm left an empty cell's texture at 62 against 23 at rest, the threshold 57; it read
           as a piece for good, a pawn dropped there in colour) */
        bool settling = r->cached[sq] && gray->t_ns - r->cell_moved_ns[sq] < RESAMPLE_AFTER_NS;
        if (d[sq] <= thr && !settling) continue;
        if (d[sq] > thr) r->cell_moved_ns[sq] = gray->t_ns;
        r->seen[sq] = shogi_grid_patch(&r->grid, gray, sq, r->patch[sq]);
        r->tex[sq] = shogi_cell_texture(r->patch[sq]);
        r->ev[sq] = cell_line_evidence(r, gray, sq);
        shogi_cell_measure_red(r, sq);
        memcpy(r->sig[sq], sig[sq], sizeof sig[sq]);
        r->cached[sq] = true;
        r->scored[sq] = false;
        r->resampled++;
    }
}

/* The book's scores of a cell's patch, computed once per patch and book. */
static const float (*cell_scores(struct shogi_reader *r, int sq))[2]
{
    if (!r->scored[sq] || r->score_gen[sq] != r->book.generation) {
        shogi_book_scores(&r->book, r->patch[sq], r->score[sq]);
        r->scored[sq] = true;
        r->score_gen[sq] = r->book.generation;
    }
    return (const float(*)[2])r->score[sq];
}

/* The best piece by a cell's scores (shogi_book_classify's choice); *s its score. */
int shogi_cell_best(struct shogi_reader *r, int sq, double *s)
{
    const float(*sc)[2] = cell_scores(r, sq);
    int best = 0;
    *s = -2;
    for (int t = 1; t < SHOGI_TYPES; t++)
        for (int c = 0; c < 2; c++)
            if (sc[t][c] > -2 && sc[t][c] > *s) {
                *s = sc[t][c];
                best = shogi_piece((enum shogi_color)c, (enum shogi_type)t);
            }
    return best;
}

/* shogi_reader_piece_fit by a cell's scores. */
double shogi_cell_fit(struct shogi_reader *r, int sq, int piece)
{
    const float(*sc)[2] = cell_scores(r, sq);
    int t = shogi_piece_type(piece), c = shogi_piece_color(piece);
    if (sc[t][c] > -2) return sc[t][c];
    if (!shogi_type_is_promoted(t)) return -1;
    double sb = sc[shogi_type_base(t)][c];
    return sb > -2 ? 0.5 - sb : -1;
}

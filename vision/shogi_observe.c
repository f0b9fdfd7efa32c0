/* vision/shogi_observe.c — the shogi reader's per-frame observation for the rule guard: every cell
 * read against what the last settled view showed, with the cells a hand covers marked, so that
 * the settler and the guard (not the reader) decide what was played. The reader does not apply
 * the rules here: an illegal move must reach the guard as the board shows it. */
#include <math.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

/* A cell border whose line shows less than this share of the uncovered contrast is hidden. */
#define LINE_HIDDEN 0.35
/* A piece that stood still keeps its name unless the book likes another face of its owner this
 * much better: it cannot change in place, and gold, silver and king faces look alike to a
 * 24-pixel patch. */
#define KEEP_MARGIN 0.3
/* A book correlation at which a patch is surely a piece's face (not a hand's back). */
#define PIECE_LIKE 0.5
/* Suspect cells (lines hidden, nothing known seen) this many together are a hand. */
#define COVER_GROUP 2
/* Share of the occupancy threshold a cell's texture must clear to change state. */
#define OCC_HYSTERESIS 0.15

static double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* The grey level at view coordinates (cells), -1 outside the image. */
static double gray_at(const struct shogi_grid *g, const struct vision_image *gray, double vx,
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
        double on = gray_at(g, gray, x, y);
        double a = gray_at(g, gray, x + off * nx, y + off * ny);
        double b = gray_at(g, gray, x - off * nx, y - off * ny);
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

static double median_of(double *v, int n)
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
static double sig_change(const uint8_t *a, const uint8_t *b)
{
    const int n = SHOGI_SIG * SHOGI_SIG;
    int sum = 0;
    for (int i = 0; i < n; i++) sum += a[i] - b[i];
    double mean = (double)sum / n, dev = 0;
    for (int i = 0; i < n; i++) dev += fabs(a[i] - b[i] - mean);
    return dev / n;
}

/* A cell counts as changed when its samples moved this much more than camera noise moves an
 * unchanged cell's (noise alone stays within a few tenths of it: a mean of 64 samples), or
 * this many grey levels more. */
#define SIG_NOISE_GAIN 1.5
#define SIG_MIN_CHANGE 2.0
/* The learned noise rises at most this share a frame: a hand over most of the board must not
 * pass for noise. */
#define SIG_NOISE_RISE 0.01

/* Sample again the cells whose coarse look changed since they were last sampled (all of them
 * when the grid moved); the others keep patch, texture and line evidence. Most frames of a game
 * change a few cells or none, and sampling every cell's patch is what costs. */
static void sample_changed(struct shogi_reader *r, const struct vision_image *gray)
{
    if (memcmp(r->cache_H, r->grid.H, sizeof r->cache_H)) {
        memset(r->cached, 0, sizeof r->cached);
        r->ref_valid = false;
        memcpy(r->cache_H, r->grid.H, sizeof r->cache_H);
    }
    static const double ext = 0.1; /* the border lines' sides, read by line evidence */
    uint8_t sig[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG];
    double d[SHOGI_SQUARES], v[SHOGI_SQUARES];
    int nv = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        double x = 9 - shogi_sq_file(sq), y = shogi_sq_rank(sq) - 1;
        shogi_grid_sample(&r->grid, gray, x - ext, y - ext, 1 + 2 * ext, SHOGI_SIG, sig[sq]);
        d[sq] = r->cached[sq] ? sig_change(sig[sq], r->sig[sq]) : 1e300;
        if (r->cached[sq]) v[nv++] = d[sq];
    }
    /* most cells are unchanged in most frames: their median is the noise */
    if (nv >= SHOGI_SQUARES / 2) {
        double m = median_of(v, nv), cap = r->sig_noise * (1 + SIG_NOISE_RISE);
        r->sig_noise = r->sig_noise <= 0 || m < cap ? m : cap;
    }
    double thr = SIG_NOISE_GAIN * r->sig_noise + SIG_MIN_CHANGE;
    r->sig_thr = thr;
    memcpy(r->sig_now, sig, sizeof sig);
    r->resampled = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (d[sq] <= thr) continue;
        r->seen[sq] = shogi_grid_patch(&r->grid, gray, sq, r->patch[sq]);
        r->tex[sq] = shogi_cell_texture(r->patch[sq]);
        r->ev[sq] = cell_line_evidence(r, gray, sq);
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
static int cell_best(struct shogi_reader *r, int sq, double *s)
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
static double cell_fit(struct shogi_reader *r, int sq, int piece)
{
    const float(*sc)[2] = cell_scores(r, sq);
    int t = shogi_piece_type(piece), c = shogi_piece_color(piece);
    if (sc[t][c] > -2) return sc[t][c];
    if (!shogi_type_is_promoted(t)) return -1;
    double sb = sc[shogi_type_base(t)][c];
    return sb > -2 ? 0.5 - sb : -1;
}

void shogi_reader_expect_position(struct shogi_reader *r, const struct shogi_position *pos)
{
    memcpy(r->ref_patch, r->patch, sizeof r->ref_patch);
    memcpy(r->ref_tex, r->tex, sizeof r->ref_tex);
    r->have_ref = true;
    memcpy(r->expect, pos->board, sizeof r->expect);
    r->first_mover = pos->side;
    r->line_ref = 0; /* learned on the next frame */
}

/* The uncovered line contrast, from the frame the reader started on (no hand then: the start
 * position was recognised in it). */
static void learn_line_ref(struct shogi_reader *r, const double ev[SHOGI_SQUARES])
{
    double v[SHOGI_SQUARES];
    int n = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (ev[sq] > 0) v[n++] = ev[sq];
    double m = median_of(v, n);
    r->line_ref = m > 0.02 ? m : 0.02;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) r->line_cell[sq] = ev[sq];
}

/* A cell's picture against the one at the last settled view: the same piece standing still
 * correlates above 0.8 (a change of light included), another piece in its place about 0.4
 * (measured on rendered games, a horse taking a bishop). */
#define REPLACED_NCC 0.6

/* Normalised cross-correlation of two patches (1: the same picture up to light and contrast). */
double shogi_patch_ncc(const uint8_t *a, const uint8_t *b)
{
    double ma = 0, mb = 0;
    for (int i = 0; i < SHOGI_PATCH_AREA; i++) {
        ma += a[i];
        mb += b[i];
    }
    ma /= SHOGI_PATCH_AREA;
    mb /= SHOGI_PATCH_AREA;
    double sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < SHOGI_PATCH_AREA; i++) {
        double x = a[i] - ma, y = b[i] - mb;
        sab += x * y;
        saa += x * x;
        sbb += y * y;
    }
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

/* A book correlation as a confidence: 0.3 is a poor fit, 0.8 a clear one. */
static float fit_conf(double s)
{
    return (float)(0.5 + 0.5 * clamp01((s - 0.3) / 0.5));
}

/* Read every cell; occluded ones keep no reading. */
/* Occupied, with some hysteresis around the texture threshold: an empty cell must gain clearly
 * to hold a piece, an occupied one lose clearly to be empty (the top of a tall piece leans into
 * the cell behind it in an oblique view, and noise would make it flicker). */
static bool occupied(const struct shogi_reader *r, int sq)
{
    double thr = r->book.occ_threshold, tex = r->tex[sq];
    /* below the threshold and under half of what the piece showed when the view settled: it
       left (an empty cell at the board's edge keeps some texture: the border, a neighbour) */
    if (r->expect[sq] && r->have_ref && tex < thr && tex < 0.5 * r->ref_tex[sq]) return false;
    return tex > (r->expect[sq] ? 1 - OCC_HYSTERESIS : 1 + OCC_HYSTERESIS) * thr;
}

/* Cells of set that lie in a group of at least min_size (touching, diagonals too). */
static void keep_groups(const bool set[SHOGI_SQUARES], int min_size, bool out[SHOGI_SQUARES])
{
    int label[SHOGI_SQUARES], stack[SHOGI_SQUARES], members[SHOGI_SQUARES];
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        label[sq] = -1;
        out[sq] = false;
    }
    for (int s0 = 0; s0 < SHOGI_SQUARES; s0++) {
        if (!set[s0] || label[s0] >= 0) continue;
        int top = 0, n = 0;
        stack[top++] = s0;
        label[s0] = s0;
        while (top) {
            int sq = stack[--top], f = shogi_sq_file(sq), k = shogi_sq_rank(sq);
            members[n++] = sq;
            for (int df = -1; df <= 1; df++)
                for (int dk = -1; dk <= 1; dk++) {
                    int ff = f + df, kk = k + dk;
                    if (ff < 1 || ff > 9 || kk < 1 || kk > 9) continue;
                    int q = shogi_sq(ff, kk);
                    if (set[q] && label[q] < 0) {
                        label[q] = s0;
                        stack[top++] = q;
                    }
                }
        }
        if (n >= min_size)
            for (int i = 0; i < n; i++) out[members[i]] = true;
    }
}

/* Read every cell; covered ones keep no reading. */
static void read_cells(struct shogi_reader *r, const double *ev, struct observation *o)
{
    struct shogi_changes ch = {.nvacated = 0};
    int nfit = 0;
    double fits[SHOGI_SQUARES]; /* how well the pieces that stayed fit their faces */
    double thr = r->book.occ_threshold, best_s[SHOGI_SQUARES];
    int best[SHOGI_SQUARES];
    /* Lines hidden all round: a hand, or a big piece (a rook fills its cell, a tall one hides
     * the lines behind it in an oblique view). A cell that still shows what it showed (an
     * empty cell without texture, a piece of the same owner) or a face the book knows well is
     * read all the same; the others are suspect, and covered when they make a group (a hand
     * hides a region, a piece's shadow one cell). */
    bool suspect[SHOGI_SQUARES], covered[SHOGI_SQUARES];
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int want = r->expect[sq];
        best[sq] = 0;
        best_s[sq] = -2;
        if (r->seen[sq] && occupied(r, sq)) best[sq] = cell_best(r, sq, &best_s[sq]);
        /* a cell whose lines barely showed when the view last settled (pieces in front of
         * them) says nothing by its lines */
        double ref = r->line_cell[sq] < r->line_ref ? r->line_cell[sq] : r->line_ref;
        bool hidden = r->seen[sq] && ref >= LINE_HIDDEN * r->line_ref && ev[sq] < LINE_HIDDEN * ref;
        bool still_empty = !want && r->tex[sq] < 0.5 * thr;
        bool same_owner =
            want && best[sq] && shogi_piece_color(best[sq]) == shogi_piece_color(want);
        suspect[sq] = hidden && !still_empty && !same_owner && !(best_s[sq] >= PIECE_LIKE);
    }
    keep_groups(suspect, COVER_GROUP, covered);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = shogi_obs_point(sq), want = r->expect[sq];
        if (!r->seen[sq]) {
            /* out of the picture: no evidence (below the guard's conf_min), and nothing that
             * keeps the view from settling */
            o->point[p] = (uint8_t)want;
            o->conf[p] = SHOGI_OUT_OF_VIEW_CONF;
            continue;
        }
        if (covered[sq]) {
            o->occluded[p] = true;
            o->point[p] = 0;
            o->conf[p] = 0;
            continue;
        }
        double tex = r->tex[sq];
        if (!occupied(r, sq)) {
            o->point[p] = 0;
            o->conf[p] = (float)(0.5 + 0.5 * clamp01((thr - tex) / (0.3 * thr + 1e-9)));
            if (want) ch.vacated[ch.nvacated++] = sq;
            continue;
        }
        int b = best[sq];
        if (want && b && shogi_piece_color(b) == shogi_piece_color(want)) {
            /* the piece that stood here, its owner still seen: it cannot have changed in place
             * (and gold, silver and king faces look alike to a small patch) */
            double want_s = cell_fit(r, sq, want);
            o->point[p] = (uint8_t)want;
            o->conf[p] = best_s[sq] >= PIECE_LIKE || want_s >= best_s[sq] - KEEP_MARGIN
                             ? 0.95f
                             : fit_conf(want_s + 0.25);
            fits[nfit++] = want_s;
            ch.kept[ch.nkept++] = sq;
            continue;
        }
        o->point[p] = (uint8_t)b;
        o->conf[p] = b ? fit_conf(best_s[sq]) : 0;
        if (b != want) ch.arrived[ch.narrived++] = sq;
    }
    /* a piece left: another piece of a kept cell's colour may stand there now (a capture whose
       new owner the patch did not show) when its picture is not the one of the last settled
       view (only then: the correlation is the dearest part of a quiet frame) */
    for (int i = 0; ch.nvacated && i < ch.nkept; i++) {
        int sq = ch.kept[i];
        ch.replaced[sq] =
            r->have_ref && shogi_patch_ncc(r->patch[sq], r->ref_patch[sq]) < REPLACED_NCC;
    }
    ch.fits_median = median_of(fits, nfit);
    shogi_name_arrivals(r, &ch, o);
}

/* A hand is large: an unsure cell beside two covered ones is covered too (a knuckle over half a
 * cell is read as a piece far too easily). */
static void grow_covered(struct observation *o)
{
    bool add[OBS_POINTS] = {false};
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x, n = 0;
            if (o->occluded[p] || o->conf[p] >= 0.9f) continue;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx, yy = y + dy;
                    if ((dx || dy) && xx >= 0 && yy >= 0 && xx < 9 && yy < 9)
                        n += o->occluded[yy * OBS_MAX + xx];
                }
            add[p] = n >= 2;
        }
    o->noccluded = 0;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x;
            if (add[p]) {
                o->occluded[p] = true;
                o->point[p] = 0;
                o->conf[p] = 0;
            }
            o->noccluded += o->occluded[p];
        }
}

/* The rim piece s (side s / 9: top, bottom, left, right; k = s % 9 along it) as grey samples
 * (0 outside the image): the band from 0.3 to 0.6 cells outside the outer line (nearer, the
 * pieces of the edge rank lean over it in an oblique view). */
static void sample_rim(const struct shogi_reader *r, const struct vision_image *gray, int s,
                       uint8_t out[SHOGI_RIM])
{
    int side = s / 9, k = s % 9, n = 0;
    for (int a = 0; a < 8; a++)
        for (int b = 0; b < 4; b++) {
            double t = k + 0.0625 + 0.125 * a, d = 0.3 + 0.1 * b, x, y;
            if (side < 2) {
                x = t;
                y = side == 0 ? -d : 9 + d;
            } else {
                y = t;
                x = side == 2 ? -d : 9 + d;
            }
            double v = gray_at(&r->grid, gray, x, y);
            out[n++] = (uint8_t)(v < 0 ? 0 : v + 0.5);
        }
}

/* Mean absolute difference of two rim pieces about their mean difference (as sig_change). */
static double rim_change(const uint8_t *a, const uint8_t *b)
{
    int sum = 0;
    for (int i = 0; i < SHOGI_RIM; i++) sum += a[i] - b[i];
    double mean = (double)sum / SHOGI_RIM, dev = 0;
    for (int i = 0; i < SHOGI_RIM; i++) dev += fabs(a[i] - b[i] - mean);
    return dev / SHOGI_RIM;
}

/* A rim piece that changed and then stayed so this long is the table's new look (something put
 * down beside the board), not an arm. */
#define RIM_ADOPT_NS 2000000000LL
/* A rim piece has changed past this many times the noise plus this many levels (some six of
 * noise's standard deviations over 32 samples; an arm changes it by 15-25 levels). */
#define RIM_NOISE_GAIN 1.8
#define RIM_MIN_CHANGE 3.0
/* More rim pieces than this changed at once is no arm (one is two or three cells wide). */
#define RIM_ARM_MAX 12

/* Cells an arm lies over: those changed since the last settled view that join, through changed
 * cells, a changed piece of the rim (or the picture's edge). A hand comes over the rim; a move
 * alone changes two cells and no rim, so the view still settles. A hand over an empty cell or
 * over a piece looks like a piece or an empty cell too often to be read. */
static void cover_arm(struct shogi_reader *r, const struct vision_image *gray,
                      struct observation *o)
{
    bool rim[4 * 9], changed[SHOGI_SQUARES], reached[SHOGI_SQUARES] = {false};
    /* 32 samples scatter more than a cell's 64: noise must not pass for an arm */
    double rim_thr = RIM_NOISE_GAIN * r->sig_noise + RIM_MIN_CHANGE;
    for (int s = 0; s < 4 * 9; s++) {
        memcpy(r->rim_prev[s], r->rim_now[s], SHOGI_RIM);
        sample_rim(r, gray, s, r->rim_now[s]);
        if (!r->ref_valid || rim_change(r->rim_now[s], r->rim_prev[s]) > rim_thr)
            r->rim_still_ns[s] = gray->t_ns;
        if (r->ref_valid && gray->t_ns - r->rim_still_ns[s] > RIM_ADOPT_NS)
            memcpy(r->rim_ref[s], r->rim_now[s], SHOGI_RIM);
    }
    int nrim = 0;
    for (int s = 0; s < 4 * 9; s++)
        nrim += r->ref_valid && rim_change(r->rim_now[s], r->rim_ref[s]) > rim_thr;
    /* an arm crosses the rim in one place; the rim changed all round is the board knocked or
     * the light changed: what is seen now becomes the reference */
    if (!r->ref_valid || nrim > RIM_ARM_MAX) {
        memcpy(r->rim_ref, r->rim_now, sizeof r->rim_ref);
        memcpy(r->sig_ref, r->sig_now, sizeof r->sig_ref);
        r->ref_valid = true;
        return;
    }
    for (int s = 0; s < 4 * 9; s++) rim[s] = rim_change(r->rim_now[s], r->rim_ref[s]) > rim_thr;
    int stack[SHOGI_SQUARES], top = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int x = 9 - shogi_sq_file(sq), y = shogi_sq_rank(sq) - 1;
        changed[sq] = sig_change(r->sig_now[sq], r->sig_ref[sq]) > r->sig_thr;
        if (!changed[sq]) continue;
        bool src = !r->seen[sq];
        for (int k = x - 1; k <= x + 1 && !src; k++)
            if (k >= 0 && k < 9) src = (y == 0 && rim[k]) || (y == 8 && rim[9 + k]);
        for (int k = y - 1; k <= y + 1 && !src; k++)
            if (k >= 0 && k < 9) src = (x == 0 && rim[18 + k]) || (x == 8 && rim[27 + k]);
        if (src) {
            reached[sq] = true;
            stack[top++] = sq;
        }
    }
    while (top) {
        int sq = stack[--top], f = shogi_sq_file(sq), k = shogi_sq_rank(sq);
        for (int df = -1; df <= 1; df++)
            for (int dk = -1; dk <= 1; dk++) {
                int ff = f + df, kk = k + dk;
                if (ff < 1 || ff > 9 || kk < 1 || kk > 9) continue;
                int q = shogi_sq(ff, kk);
                if (changed[q] && !reached[q]) {
                    reached[q] = true;
                    stack[top++] = q;
                }
            }
    }
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (!reached[sq]) continue;
        int p = shogi_obs_point(sq);
        o->occluded[p] = true;
        o->point[p] = 0;
        o->conf[p] = 0;
    }
}

bool shogi_reader_observe(struct shogi_reader *r, const struct vision_image *gray,
                          struct observation *o)
{
    double t0 = vision_now_ms();
    memset(o, 0, sizeof *o);
    o->t_ns = gray->t_ns;
    o->frame_seq = gray->seq;
    o->w = o->h = 9;
    if (!r->oriented) return false;
    sample_changed(r, gray);
    if (r->line_ref <= 0) learn_line_ref(r, r->ev);
    memcpy(r->last_ev, r->ev, sizeof r->ev);
    read_cells(r, r->ev, o);
    cover_arm(r, gray, o);
    grow_covered(o);
    o->board_found = true;
    o->tracked = true;
    memcpy(o->corners, r->grid.corners, sizeof o->corners);
    r->stats.found = true;
    r->stats.ms = vision_now_ms() - t0;
    return true;
}

/* The observation turned half round: the far side's view. */
static void turn_observation(struct observation *o)
{
    struct observation t = *o;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x, q = (8 - y) * OBS_MAX + (8 - x);
            uint8_t v = t.point[q];
            o->point[p] = v ? (uint8_t)(v ^ (1 << 4)) : 0;
            o->conf[p] = t.conf[q];
            o->occluded[p] = t.occluded[q];
        }
    o->hands[0] = t.hands[1];
    o->hands[1] = t.hands[0];
}

void shogi_reader_settled(struct shogi_reader *r, struct observation *o)
{
    if (!r->oriented || !o->board_found) return;
    bool turned = false;
    if (!r->sided) {
        /* The first changes: whose pieces left their cells? They must be mostly the first
         * mover's (an emptied cell reads far more surely than a far piece's owner). Two moves
         * seen at once (one each) look the same from both sides: wait. */
        int moved[2] = {0, 0};
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            int p = shogi_obs_point(sq), w = r->expect[sq];
            if (o->occluded[p] || o->conf[p] < 0.5f || o->point[p] || !w) continue;
            moved[shogi_piece_color(w)]++;
        }
        int mine = moved[r->first_mover], theirs = moved[!r->first_mover];
        if (theirs > mine) {
            shogi_reader_turn(r);
            uint8_t e[SHOGI_SQUARES];
            for (int i = 0; i < SHOGI_SQUARES; i++) {
                int w = r->expect[SHOGI_SQUARES - 1 - i];
                e[i] = w ? (uint8_t)(w ^ (1 << 4)) : 0;
            }
            memcpy(r->expect, e, sizeof e);
            double lc[SHOGI_SQUARES];
            for (int i = 0; i < SHOGI_SQUARES; i++) lc[i] = r->line_cell[SHOGI_SQUARES - 1 - i];
            memcpy(r->line_cell, lc, sizeof lc);
            turn_observation(o);
            turned = true;
        }
        r->sided = mine != theirs;
    }
    /* what the cells and the rim look like now is what the next frames are compared with, and
     * the cells' pictures what a capture is told by (after a turn the samples are of the old
     * view: taken again on the next frame, the pictures at the next settled view) */
    if (turned) {
        r->ref_valid = false;
        r->have_ref = false;
    } else {
        memcpy(r->sig_ref, r->sig_now, sizeof r->sig_ref);
        memcpy(r->rim_ref, r->rim_now, sizeof r->rim_ref);
        if (!r->have_ref) {
            memcpy(r->ref_patch, r->patch, sizeof r->ref_patch);
            memcpy(r->ref_tex, r->tex, sizeof r->ref_tex);
            r->have_ref = true;
        }
    }
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = shogi_obs_point(sq);
        if (o->occluded[p] || o->conf[p] < 0.5f) continue;
        /* a face seen surely where it arrived teaches the book (promoted faces above all); the
         * patches are of the old view after a turn */
        if (!turned && o->point[p] && o->point[p] != r->expect[sq] && o->conf[p] >= 0.9f)
            shogi_book_add(&r->book, o->point[p], r->patch[sq]);
        r->expect[sq] = o->point[p];
        if (!turned) r->line_cell[sq] = r->last_ev[sq];
        if (!turned) {
            memcpy(r->ref_patch[sq], r->patch[sq], SHOGI_PATCH_AREA);
            r->ref_tex[sq] = r->tex[sq];
        }
    }
}

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

/* Each cell's line evidence: the second best of its four borders (a hand hides all four; a piece
 * off-centre or a glint at most one or two). -1 when the cell is not in the image. */
static void line_evidence(const struct shogi_reader *r, const struct vision_image *gray,
                          double ev[SHOGI_SQUARES])
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
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
        ev[sq] = second;
    }
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

void shogi_reader_expect_position(struct shogi_reader *r, const struct shogi_position *pos)
{
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
    double thr = r->book.occ_threshold;
    return r->tex[sq] > (r->expect[sq] ? 1 - OCC_HYSTERESIS : 1 + OCC_HYSTERESIS) * thr;
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
static void read_cells(struct shogi_reader *r, const double ev[SHOGI_SQUARES],
                       struct observation *o)
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
        if (r->seen[sq] && occupied(r, sq))
            best[sq] = shogi_book_classify(&r->book, r->patch[sq], &best_s[sq]);
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
            double want_s = shogi_reader_piece_fit(&r->book, want, r->patch[sq]);
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

bool shogi_reader_observe(struct shogi_reader *r, const struct vision_image *gray,
                          struct observation *o)
{
    double t0 = vision_now_ms();
    memset(o, 0, sizeof *o);
    o->t_ns = gray->t_ns;
    o->frame_seq = gray->seq;
    o->w = o->h = 9;
    if (!r->oriented) return false;
    shogi_reader_sample(r, gray);
    double ev[SHOGI_SQUARES];
    line_evidence(r, gray, ev);
    if (r->line_ref <= 0) learn_line_ref(r, ev);
    memcpy(r->last_ev, ev, sizeof ev);
    read_cells(r, ev, o);
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
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = shogi_obs_point(sq);
        if (o->occluded[p] || o->conf[p] < 0.5f) continue;
        /* a face seen surely where it arrived teaches the book (promoted faces above all); the
         * patches are of the old view after a turn */
        if (!turned && o->point[p] && o->point[p] != r->expect[sq] && o->conf[p] >= 0.9f)
            shogi_book_add(&r->book, o->point[p], r->patch[sq]);
        r->expect[sq] = o->point[p];
        if (!turned) r->line_cell[sq] = r->last_ev[sq];
    }
}

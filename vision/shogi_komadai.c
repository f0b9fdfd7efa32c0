/* vision/shogi_komadai.c — the two komadai (piece stands): found beside the board in the grid's own
 * perspective (each at its owner's right hand), checked for a hand lying over them, and their
 * pieces counted per type.
 *
 * Each stand is searched in its owner's frame: u across the board to the owner's right, v toward
 * the owner, both in cells of the board (sente's frame is the view; gote's is the view turned half
 * round), so pieces in hand point up like sente's pieces on the board and the book's patches are
 * templates at the right scale. The stand is the rectangle whose border has the strongest
 * contrast (inside against outside, on all four sides) in the search area (where that border
 * is weak and of one sign, a box around it with each side of its own sign, far stronger: a side
 * view sees the top lighter than the side face and darker than the table); a stand cut by the
 * picture's edge is out of view; the stand is about square. Its pieces are looked for on its
 * top, inside a second line unbroken along a side (the top's edge, the side or front face past
 * it). Pieces of one type lie together in a row, overlapping; a row is one blob of textured pixels
 * (thin lines opened away; rows lying one behind the other cut apart), its type the book face whose
 * inner part fits best in it and its count from its width (one piece, then one overlap step per
 * further piece). A big blob that fits no face, or as big as a hand and mostly no row, is a hand
 * over the stand; so is an arm reaching over the stand's border: a region of another hue (or much
 * lighter or darker) than both the stand's wood and the table, covering a cell of the stand and
 * reaching a cell past it, with a sharp outline (light and shade on the table fade:
 * shogi_komadai_arm.c). Covered stands get no count: a wrong count is a false HIDDEN_PIECE for the
 * guard. Every frame is read on its own; given the game's position (shogi_reader_hands_within), no
 * stand holds more of a kind than the game's hands, and each stand's row width for a count is
 * learned where the game tells it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vision/shogi_komadai_internal.h"
#include "vision/vision_internal.h"

/* Stand sizes in cells (a stand is 14-18 cm a side, cells are 3.3 x 3.6 cm), with slack. */
#define STAND_MIN_W 3.4
#define STAND_MAX_W 7.6
#define STAND_MIN_L 3.0
#define STAND_MAX_L 7.0

static float sample(const struct shogi_grid *g, const struct vision_image *gray, int side, double u,
                    double v, bool *in)
{
    double x, y, px, py;
    owner_to_view(side, u, v, &x, &y);
    hom_apply(g->H, x, y, &px, &py);
    px -= 0.5;
    py -= 0.5;
    int ix = (int)floor(px), iy = (int)floor(py);
    if (ix < 0 || iy < 0 || ix + 1 >= gray->width || iy + 1 >= gray->height) {
        *in = false;
        return 0;
    }
    *in = true;
    double fx = px - ix, fy = py - iy;
    const uint8_t *p = gray->data + (size_t)iy * gray->stride + ix;
    double a = p[0] + fx * (p[1] - p[0]);
    double b = p[gray->stride] + fx * (p[gray->stride + 1] - p[gray->stride]);
    return (float)(a + fy * (b - a));
}

static void rectify(const struct shogi_grid *g, const struct vision_image *gray, int side,
                    struct area *a)
{
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++)
            a->px[y][x] = sample(g, gray, side, AREA_U0 + (x + 0.5) / RES,
                                 AREA_V0 + (y + 0.5) / RES, &a->in[y][x]);
}

/* Gradients across the area and their running sums along columns (gx) and rows (gy), so that a
 * side of any rectangle sums in constant time. */
struct edges {
    float cx[AW][AH + 1]; /* cx[x][y]: sum of gx over rows < y in column x */
    float ry[AH][AW + 1]; /* ry[y][x]: sum of gy over columns < x in row y */
};

static void edges_of(const struct area *a, struct edges *e)
{
    for (int x = 0; x < AW; x++) {
        e->cx[x][0] = 0;
        for (int y = 0; y < AH; y++) {
            float g = 0;
            if (x > 0 && x + 1 < AW && a->in[y][x - 1] && a->in[y][x + 1])
                g = a->px[y][x + 1] - a->px[y][x - 1];
            e->cx[x][y + 1] = e->cx[x][y] + g;
        }
    }
    for (int y = 0; y < AH; y++) {
        e->ry[y][0] = 0;
        for (int x = 0; x < AW; x++) {
            float g = 0;
            if (y > 0 && y + 1 < AH && a->in[y - 1][x] && a->in[y + 1][x])
                g = a->px[y + 1][x] - a->px[y - 1][x];
            e->ry[y][x + 1] = e->ry[y][x] + g;
        }
    }
}

static double min4(double a, double b, double c, double d)
{
    return fmin(fmin(a, b), fmin(c, d));
}

/* The mean contrast along the border, inside against outside (either sign, the same all round),
 * capped by the weakest side's: every side of a stand shows it, three strong sides of something
 * else are no stand. */
#define WEAKEST_SIDE 0.35
#define MIN_CONTRAST                                                                               \
    5.0 /* grey levels: a weaker border is no stand (junk of a stand out of view) */
#define WEAK_CONTRAST 15.0 /* grey levels: a border of one sign weaker than this ... */
#define ANY_SIGN_GAIN 2.0  /* ... gives way to one of either sign this many times stronger */
/* Does box b lie within box c, give or take slack pixels? */
#define WITHIN_SLACK 3
static bool box_within(const struct stand_box *b, const struct stand_box *c, int slack)
{
    return b->x0 >= c->x0 - slack && b->x1 <= c->x1 + slack && b->y0 >= c->y0 - slack &&
           b->y1 <= c->y1 + slack;
}

static double box_score(const struct edges *e, bool any_sign, int x0, int x1, int y0, int y1)
{
    double nv = y1 - y0 + 1, nh = x1 - x0 + 1;
    /* a gradient spans two pixels: halve it to get the step in grey levels */
    double l = 0.5 * (e->cx[x0][y1 + 1] - e->cx[x0][y0]) / nv;
    double r = 0.5 * (e->cx[x1][y1 + 1] - e->cx[x1][y0]) / nv;
    double t = 0.5 * (e->ry[y0][x1 + 1] - e->ry[y0][x0]) / nh;
    double b = 0.5 * (e->ry[y1][x1 + 1] - e->ry[y1][x0]) / nh;
    if (any_sign) { /* each side its own sign */
        l = fabs(l), r = -fabs(r), t = fabs(t), b = -fabs(b);
    }
    double m = (l - r + t - b) / 4;
    double weakest = m < 0 ? min4(-l, r, -t, b) : min4(l, -r, t, -b);
    return fmin(fabs(m), weakest / WEAKEST_SIDE);
}

/* A komadai's top is square (a cell is 33 x 36 mm: 0.92 cells long per cell wide), give or take
 * the stand's make and the grid's slant: a box much longer or wider than that is a stand cut by
 * something inside it (a row of pieces, the edge of a glare) or no stand. */
#define ASPECT_MIN 0.78
#define ASPECT_MAX 1.12
static bool box_shape_ok(int x0, int x1, int y0, int y1)
{
    double w = x1 - x0, l = y1 - y0;
    return l >= ASPECT_MIN * w && l <= ASPECT_MAX * w;
}

/* The rectangle of stand size whose border contrasts most (either sign) with its surroundings:
 * a coarse search on every third pixel, then refined pixel by pixel. */
static struct stand_box find_stand(const struct edges *e, bool any_sign)
{
    const int wmin = (int)(STAND_MIN_W * RES), wmax = (int)(STAND_MAX_W * RES);
    const int lmin = (int)(STAND_MIN_L * RES), lmax = (int)(STAND_MAX_L * RES);
    struct stand_box best = {0, 0, 0, 0, 0};
    for (int x0 = 1; x0 + wmin < AW - 1; x0 += 3)
        for (int x1 = x0 + wmin; x1 <= x0 + wmax && x1 < AW - 1; x1 += 3)
            for (int y0 = 1; y0 + lmin < AH - 1; y0 += 3)
                for (int y1 = y0 + lmin; y1 <= y0 + lmax && y1 < AH - 1; y1 += 3) {
                    if (!box_shape_ok(x0, x1, y0, y1)) continue;
                    double s = box_score(e, any_sign, x0, x1, y0, y1);
                    if (s > best.score) best = (struct stand_box){x0, x1, y0, y1, s};
                }
    for (bool moved = true; moved;) {
        moved = false;
        struct stand_box b = best;
        for (int k = 0; k < 4; k++)
            for (int d = -1; d <= 1; d += 2) {
                struct stand_box c = b;
                int *v = k == 0 ? &c.x0 : k == 1 ? &c.x1 : k == 2 ? &c.y0 : &c.y1;
                *v += d;
                if (c.x0 < 1 || c.y0 < 1 || c.x1 >= AW - 1 || c.y1 >= AH - 1 ||
                    c.x1 - c.x0 < wmin || c.x1 - c.x0 > wmax || c.y1 - c.y0 < lmin ||
                    c.y1 - c.y0 > lmax || !box_shape_ok(c.x0, c.x1, c.y0, c.y1))
                    continue;
                c.score = box_score(e, any_sign, c.x0, c.x1, c.y0, c.y1);
                if (c.score > best.score + 1e-9) {
                    best = c;
                    moved = true;
                }
            }
    }
    return best;
}

/* The area's warmth (red less blue, doubled) from its colour: wood against a grey, white or
 * green table. */
static void warmth_of(const struct area *a, const struct colour_area *ca, struct area *out)
{
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) {
            out->in[y][x] = a->in[y][x];
            out->px[y][x] = 2 * (ca->c[y][x][0] - ca->c[y][x][2]);
        }
}

/* A stand's side or front face, seen from the side or from the player, lies just inside the box
 * whose border contrasts most with the table (the face's far edge): the top's own edge is a
 * second line along that side, inside it, strong and unbroken all along the side (a row of
 * pieces by the border spans only a part of it) and alone (the wood's grain along the side
 * makes many such lines, one of them across the top of a piece lying by the border). Each side
 * moves in to the strongest such line within INNER_MAX, so that pieces by the border are not
 * joined to the face. */
#define INNER_MIN   2    /* pixels in from the border, at least */
#define INNER_MAX   12   /* ... at most (a cell) */
#define INNER_STEP  4.0  /* grey levels across the line at a pixel, at least ... */
#define INNER_SHARE 0.85 /* ... on this share of the side's pixels, all of one sign */
#define INNER_ALONE 2.0  /* times stronger than any line up to INNER_MAX further in */
static double line_step(const struct area *a, int vertical, int at, int from, int to, int *n_ok)
{
    double sum = 0;
    int n = 0, pos = 0, neg = 0;
    for (int i = from; i <= to; i++) {
        int x = vertical ? at : i, y = vertical ? i : at;
        double g = vertical ? a->px[y][x + 1] - a->px[y][x - 1] : a->px[y + 1][x] - a->px[y - 1][x];
        g *= 0.5;
        sum += g;
        n++;
        pos += g >= INNER_STEP;
        neg += g <= -INNER_STEP;
    }
    *n_ok = sum >= 0 ? pos : neg;
    return n ? sum / n : 0;
}

static void inner_edges(const struct area *a, struct stand_box *b)
{
    for (int k = 0; k < 4; k++) {
        int vertical = k < 2, dir = k == 0 || k == 2 ? 1 : -1;
        int edge = k == 0 ? b->x0 : k == 1 ? b->x1 : k == 2 ? b->y0 : b->y1;
        int from = vertical ? b->y0 : b->x0, to = vertical ? b->y1 : b->x1;
        int len = to - from + 1, best = 0;
        double best_s = 0;
        for (int d = INNER_MIN; d <= INNER_MAX; d++) {
            int at = edge + dir * d, ok;
            double st = fabs(line_step(a, vertical, at, from, to, &ok));
            if (ok >= INNER_SHARE * len && st > best_s) best_s = st, best = d;
        }
        if (!best) continue;
        double ref = 0;
        for (int d = INNER_MAX + 1; d <= 2 * INNER_MAX; d++) {
            int ok;
            ref = fmax(ref, fabs(line_step(a, vertical, edge + dir * d, from, to, &ok)));
        }
        if (best_s < INNER_ALONE * ref) continue;
        struct stand_box c = *b;
        int *v = k == 0 ? &c.x0 : k == 1 ? &c.x1 : k == 2 ? &c.y0 : &c.y1;
        *v += dir * best;
        if (c.x1 - c.x0 < STAND_MIN_W * RES || c.y1 - c.y0 < STAND_MIN_L * RES) continue;
        *b = c;
    }
}

/* Does the stand go on out of the picture past a side of box b? The two sides across it (its
 * front and back, or left and right) are the stand's borders: where both go on as strongly,
 * with the box's own sign, from that side up to the picture's edge, the box found is only a part
 * of a stand the edge cuts (its true side lies out of the picture, where no border shows, so a
 * part with a line or junk for a side contrasts more). */
#define RUN_ON_SHARE 0.5 /* of the border's contrast inside the box, along the run past it */
#define RUN_ON_MIN   3   /* pixels of run, at least */
static double border_mean(const struct area *a, bool horizontal, int at, int from, int to, int *n)
{
    double sum = 0;
    *n = 0;
    for (int i = from; i <= to; i++) {
        int x = horizontal ? i : at, y = horizontal ? at : i;
        if (x < 1 || y < 1 || x >= AW - 1 || y >= AH - 1) break;
        if (horizontal ? !a->in[y - 1][x] || !a->in[y + 1][x]
                       : !a->in[y][x - 1] || !a->in[y][x + 1])
            break;
        sum += 0.5 *
               (horizontal ? a->px[y + 1][x] - a->px[y - 1][x] : a->px[y][x + 1] - a->px[y][x - 1]);
        (*n)++;
    }
    return *n ? sum / *n : 0;
}

static bool runs_out(const struct area *a, const struct stand_box *b)
{
    for (int k = 0; k < 4; k++) {
        bool horizontal = k < 2; /* past the left or right side, along the front and back */
        int dir = k % 2 ? 1 : -1;
        int s0 = horizontal ? b->y0 : b->x0, s1 = horizontal ? b->y1 : b->x1;
        int lo = horizontal ? b->x0 : b->y0, hi = horizontal ? b->x1 : b->y1;
        bool all = true;
        for (int j = 0; j < 2 && all; j++) {
            int at = j ? s1 : s0, n_in, n_out;
            double in = border_mean(a, horizontal, at, lo, hi, &n_in);
            /* the run past the side: from just past it to the picture's edge */
            int from = dir > 0 ? hi + 2 : lo - 2, len = 0, end = from;
            for (int i = from; i >= 0 && i < (horizontal ? AW : AH); i += dir) {
                int x = horizontal ? i : at, y = horizontal ? at : i;
                if (!a->in[y][x]) break;
                len++, end = i;
            }
            int stop = end + dir;
            bool edge = stop >= 0 && stop < (horizontal ? AW : AH) &&
                        !a->in[horizontal ? at : stop][horizontal ? stop : at];
            if (len < RUN_ON_MIN || !edge) {
                all = false;
                break;
            }
            double out =
                border_mean(a, horizontal, at, dir > 0 ? from : end, dir > 0 ? end : from, &n_out);
            all = n_out >= RUN_ON_MIN && fabs(in) > 0 && out * in > 0 &&
                  fabs(out) >= RUN_ON_SHARE * fabs(in);
        }
        if (all) return true;
    }
    return false;
}

/* Is the whole rectangle (and a pixel around it) inside the image? */
static bool box_inside(const struct area *a, const struct stand_box *b)
{
    for (int y = b->y0 - 1; y <= b->y1 + 1; y++)
        for (int x = b->x0 - 1; x <= b->x1 + 1; x++)
            if (!a->in[y][x]) return false;
    return true;
}

/* A box smaller than most stands with the picture's edge close by: a part of a stand the edge
 * cuts (the border the box found is the stand's inner edge or a row of pieces), out of view. */
#define SMALL_W     3.8 /* cells */
#define EDGE_MARGIN 1.0 /* cells */
static bool cut_small(const struct area *a, const struct stand_box *b)
{
    if (b->x1 - b->x0 >= SMALL_W * RES) return false;
    int m = (int)(EDGE_MARGIN * RES);
    for (int y = b->y0 - m; y <= b->y1 + m; y++)
        for (int x = b->x0 - m; x <= b->x1 + m; x++)
            if (x >= 0 && y >= 0 && x < AW && y < AH && !a->in[y][x]) return true;
    return false;
}

/* Does any of the search area lie outside the picture? Then a stand not found may be there. */
static bool area_cut(const struct area *a)
{
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++)
            if (!a->in[y][x]) return true;
    return false;
}

/* What the stand shows (enum hand_view), visible and covered with it. */
static void set_view(struct hand_obs *ho, enum hand_view v)
{
    ho->view = (uint8_t)v;
    ho->visible = v == HAND_VIEW_READ;
    ho->covered = v == HAND_VIEW_COVERED;
    if (v != HAND_VIEW_READ) {
        memset(ho->count, 0, sizeof ho->count);
        memset(ho->promoted, 0, sizeof ho->promoted);
        ho->conf = 0;
    }
}

/* Is the picture's edge within margin cells of the box? */
#define ARM_EDGE_MARGIN 1.0
static bool near_edge(const struct area *a, const struct stand_box *b, double margin)
{
    int m = (int)(margin * RES);
    for (int y = b->y0 - m; y <= b->y1 + m; y++)
        for (int x = b->x0 - m; x <= b->x1 + m; x++)
            if (x >= 0 && y >= 0 && x < AW && y < AH && !a->in[y][x]) return true;
    return false;
}

static int komadai_debug_n;
static int debug_seq(void)
{
    return komadai_debug_n;
}

static void debug_area(const struct area *a, const struct stand_box *b, const struct stand_box *c,
                       int side)
{
    char path[512];
    snprintf(path, sizeof path, "%s/area-%05d-%d.ppm", getenv("KIFUCAM_KOMADAI_DEBUG"),
             komadai_debug_n, side);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fprintf(f, "P6 %d %d 255\n", AW, AH);
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) {
            int v = a->in[y][x] ? (int)a->px[y][x] : 0;
            uint8_t px[3] = {(uint8_t)v, (uint8_t)v, (uint8_t)v};
            bool onb = ((x == b->x0 || x == b->x1) && y >= b->y0 && y <= b->y1) ||
                       ((y == b->y0 || y == b->y1) && x >= b->x0 && x <= b->x1);
            bool onc = ((x == c->x0 || x == c->x1) && y >= c->y0 && y <= c->y1) ||
                       ((y == c->y0 || y == c->y1) && x >= c->x0 && x <= c->x1);
            if (onb) px[0] = 255, px[1] = px[2] = 0;
            if (onc) px[1] = 255, px[0] = px[2] = 0;
            fwrite(px, 1, 3, f);
        }
    fclose(f);
}

#define PRES 24  /* pixels per cell of a stand's top, the book's scale */
#define PMAX 190 /* STAND_MAX_W * PRES and a little */

/* A stand's top resampled at the book's scale, inset a little from its border. */
struct top {
    int w, h;
    double u0, v0; /* owner's frame of pixel (0, 0)'s corner */
    uint8_t px[PMAX][PMAX];
    float tex[PMAX][PMAX], sm[PMAX][PMAX]; /* work space of piece_mask */
    int stack[PMAX * PMAX];                /* work space of blobs_of */
    uint8_t lab[PMAX][PMAX];               /* blobs_of's blob of each pixel (its index + 1) */
};

static bool top_of(const struct shogi_grid *g, const struct vision_image *gray, int side,
                   const struct stand_box *b, struct top *t)
{
    const double inset = 0.0;
    t->u0 = AREA_U0 + (b->x0 + 0.5) / RES + inset;
    t->v0 = AREA_V0 + (b->y0 + 0.5) / RES + inset;
    t->w = (int)(((double)(b->x1 - b->x0) / RES - 2 * inset) * PRES);
    t->h = (int)(((double)(b->y1 - b->y0) / RES - 2 * inset) * PRES);
    if (t->w > PMAX) t->w = PMAX;
    if (t->h > PMAX) t->h = PMAX;
    bool all = true;
    for (int y = 0; y < t->h; y++)
        for (int x = 0; x < t->w; x++) {
            bool in;
            float v =
                sample(g, gray, side, t->u0 + (x + 0.5) / PRES, t->v0 + (y + 0.5) / PRES, &in);
            t->px[y][x] = (uint8_t)lrintf(v);
            all &= in;
        }
    return all;
}

#define RIM 3 /* pixels of the top's border left out of the piece mask */

/* The mask opened by a square of OPEN_R pixels each way: lines thinner than a piece (the stand's
 * side face or rim just inside the box, grain streaks in glare) go, and with them the bridges
 * that joined a row of pieces to them (a hollow blob, or one as big as a hand). */
#define OPEN_R 2
static void open_mask(struct top *t, uint8_t mask[PMAX][PMAX])
{
    int w = t->w, h = t->h;
    float(*tmp)[PMAX] = t->tex; /* work space: piece_mask is done with it */
    for (int pass = 0; pass < 2; pass++) {
        bool erode = pass == 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int v = erode ? 1 : 0;
                for (int d = -OPEN_R; d <= OPEN_R; d++) {
                    int xx = x + d < 0 ? 0 : x + d >= w ? w - 1 : x + d;
                    v = erode ? v && mask[y][xx] : v || mask[y][xx];
                }
                tmp[y][x] = (float)v;
            }
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int v = erode ? 1 : 0;
                for (int d = -OPEN_R; d <= OPEN_R; d++) {
                    int yy = y + d < 0 ? 0 : y + d >= h ? h - 1 : y + d;
                    v = erode ? v && tmp[yy][x] > 0 : v || tmp[yy][x] > 0;
                }
                mask[y][x] = (uint8_t)v;
            }
    }
}

/* Pixels of the top that belong to pieces: textured (outlines, ink) or clearly brighter or darker
 * than the stand's wood. smooth: the texture of the top smoothed 3 x 3 first (within the game,
 * where each stand's bleed is learned: the mask is a pixel wider each way, and read alone, without
 * the inner line of the top, rows join the stand's faces: seed 0's player films 88.7 -> 38.1%). */
static void piece_mask(struct top *t, uint8_t mask[PMAX][PMAX], bool smooth)
{
    float(*tex)[PMAX] = t->tex, (*sm)[PMAX] = t->sm;
    int w = t->w, h = t->h;
    /* the texture of the top smoothed first (3 x 3): in dim light the camera's noise, pixel to
     * pixel, is as strong as a piece's outline and sets the threshold (the median); the outline
     * runs on over pixels, the noise does not */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0;
            int n = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int yy = y + dy, xx = x + dx;
                    if (yy < 0 || xx < 0 || yy >= h || xx >= w) continue;
                    sum += t->px[yy][xx];
                    n++;
                }
            sm[y][x] = smooth ? sum / n : t->px[y][x];
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int xl = x > 0 ? x - 1 : x, xr = x + 1 < w ? x + 1 : x;
            int yu = y > 0 ? y - 1 : y, yd = y + 1 < h ? y + 1 : y;
            tex[y][x] = fabsf(sm[y][xr] - sm[y][xl]) + fabsf(sm[yd][x] - sm[yu][x]);
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = 0;
            int n = 0;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++) {
                    int yy = y + dy, xx = x + dx;
                    if (yy < 0 || xx < 0 || yy >= h || xx >= w) continue;
                    sum += tex[yy][xx];
                    n++;
                }
            sm[y][x] = sum / n;
        }
    int hist_t[512] = {0};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = (int)sm[y][x];
            hist_t[v > 511 ? 511 : v]++;
        }
    int half = w * h / 2, med_t = 0;
    for (int c = 0; med_t < 511 && (c += hist_t[med_t]) < half;) med_t++;
    float thr_t = fmaxf(2.5f * med_t, med_t + 8.0f);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) mask[y][x] = sm[y][x] > thr_t;
    /* the stand's bevelled rim is darker than its top: not a piece */
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (x < RIM || y < RIM || x >= w - RIM || y >= h - RIM) mask[y][x] = 0;
    open_mask(t, mask);
}

struct blob {
    int x0, x1, y0, y1, area;
};
#define MAX_BLOBS 64

/* 4-connected blobs of the mask (the mask is cleared as they are taken). */
static int blobs_of(struct top *t, uint8_t mask[PMAX][PMAX], struct blob *out, int max)
{
    int *stack = t->stack, w = t->w, h = t->h;
    int n = 0;
    memset(t->lab, 0, sizeof t->lab);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (!mask[y][x]) continue;
            struct blob b = {x, x, y, y, 0};
            int sp = 0;
            stack[sp++] = y * PMAX + x;
            mask[y][x] = 0;
            uint8_t l = (uint8_t)(n < max ? n + 1 : 0);
            while (sp) {
                int p = stack[--sp], py = p / PMAX, px = p % PMAX;
                b.area++;
                t->lab[py][px] = l;
                if (px < b.x0) b.x0 = px;
                if (px > b.x1) b.x1 = px;
                if (py < b.y0) b.y0 = py;
                if (py > b.y1) b.y1 = py;
                static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                for (int k = 0; k < 4; k++) {
                    int qx = px + d[k][0], qy = py + d[k][1];
                    if (qx < 0 || qy < 0 || qx >= w || qy >= h || !mask[qy][qx]) continue;
                    mask[qy][qx] = 0;
                    stack[sp++] = qy * PMAX + qx;
                }
            }
            if (n < max) out[n++] = b;
        }
    return n;
}

/* The part of blob q (label l) in rows ya..yb: its bounding box and area (area 0: none). */
static struct blob blob_part(const struct top *t, const struct blob *q, int l, int ya, int yb)
{
    struct blob b = {q->x1, q->x0, yb, ya, 0};
    for (int y = ya; y <= yb; y++)
        for (int x = q->x0; x <= q->x1; x++) {
            if (t->lab[y][x] != l) continue;
            b.area++;
            if (x < b.x0) b.x0 = x;
            if (x > b.x1) b.x1 = x;
            if (y < b.y0) b.y0 = y;
            if (y > b.y1) b.y1 = y;
        }
    return b;
}

/* Rows of pieces lie close one behind the other (a row's pitch is about a piece's length), so
 * the rows of one column often make one blob: it is cut at its narrowest row, again and again,
 * until every part is no taller than one row, and no part shorter than the shortest piece (cut
 * within a cell's half of its ends, the texture mask's waist between a bishop's or a silver's two
 * characters cut the piece in two and the rest joined the row behind it). Parts into out (at most
 * max); how many. */
#define SPLIT_H   1.15 /* cells: a blob taller than this holds more than one row */
#define ROW_MIN_H 0.75 /* cells: no part cut off is shorter (a pawn is 27 mm, 0.75 cells) */
static int rows_of(const struct top *t, const struct blob *q, int l, struct blob *out, int max)
{
    int bh = q->y1 - q->y0 + 1;
    if (bh <= SPLIT_H * PRES || max < 2) {
        out[0] = *q;
        return 1;
    }
    int margin = (int)(ROW_MIN_H * PRES), cut = -1, fewest = 1 << 30;
    for (int y = q->y0 + margin; y <= q->y1 - margin; y++) {
        int c = 0;
        for (int x = q->x0; x <= q->x1; x++) c += t->lab[y][x] == l;
        if (c < fewest) fewest = c, cut = y;
    }
    if (cut < 0) {
        out[0] = *q;
        return 1;
    }
    struct blob a = blob_part(t, q, l, q->y0, cut - 1), b = blob_part(t, q, l, cut + 1, q->y1);
    int n = 0;
    if (a.area) n += rows_of(t, &a, l, out + n, max - 1);
    if (b.area && n < max) n += rows_of(t, &b, l, out + n, max - n);
    return n;
}

/* KIFUCAM_KOMADAI_DEBUG=DIR (a diagnostic): each stand's top read, as a PPM file (left the top,
 * right its blobs: rows kept green, parts dropped red), and its rows on stderr. */
static void debug_top(const struct top *t, int side, const struct blob *parts, int np,
                      const bool *kept)
{
    const char *dir = getenv("KIFUCAM_KOMADAI_DEBUG");
    if (!dir) return;
    int seq = komadai_debug_n;
    char path[512];
    snprintf(path, sizeof path, "%s/top-%05d-%d.ppm", dir, seq, side);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fprintf(f, "P6 %d %d 255\n", 2 * t->w, t->h);
    for (int y = 0; y < t->h; y++) {
        for (int x = 0; x < t->w; x++)
            fputc(t->px[y][x], f), fputc(t->px[y][x], f), fputc(t->px[y][x], f);
        for (int x = 0; x < t->w; x++) {
            uint8_t c[3] = {0, 0, 0};
            if (t->lab[y][x]) c[0] = c[1] = c[2] = 80;
            for (int k = 0; k < np; k++)
                if (x >= parts[k].x0 && x <= parts[k].x1 && y >= parts[k].y0 && y <= parts[k].y1 &&
                    t->lab[y][x]) {
                    c[0] = kept[k] ? 0 : 220;
                    c[1] = kept[k] ? 200 : 0;
                }
            fputc(c[0], f), fputc(c[1], f), fputc(c[2], f);
        }
    }
    fclose(f);
    fprintf(stderr, "  top %05d side %d %dx%d:", seq, side, t->w, t->h);
    for (int k = 0; k < np; k++)
        fprintf(stderr, " [%d-%d x %d-%d a%d%s]", parts[k].x0, parts[k].x1, parts[k].y0,
                parts[k].y1, parts[k].area, kept[k] ? "" : " drop");
    fprintf(stderr, "\n");
}

/* The face part of the book's cell patch, as a template for the owner's pieces pointing up in the
 * owner's frame: its inner part, where the characters are (with the whole face, the pentagon's
 * outline, the same for every type, weighed as much as the ink and made pawns of bishops,
 * knights and lances). */
#define FACE_X0 6
#define FACE_Y0 5
#define FACE_W  12
#define FACE_H  15
struct face_tpl {
    bool have;
    float v[FACE_H * FACE_W];
};

static void faces_of(const struct shogi_book *b, int side, struct face_tpl tpl[8])
{
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        tpl[t].have = b->count[t][side] > 0;
        if (!tpl[t].have) continue;
        double mean = 0, ss = 0;
        for (int y = 0; y < FACE_H; y++)
            for (int x = 0; x < FACE_W; x++) {
                int i = (FACE_Y0 + y) * SHOGI_PATCH + FACE_X0 + x;
                if (side == SHOGI_GOTE) i = SHOGI_PATCH_AREA - 1 - i; /* turned to point up */
                tpl[t].v[y * FACE_W + x] = b->tpl[t][side][i];
                mean += b->tpl[t][side][i];
            }
        mean /= FACE_H * FACE_W;
        for (int i = 0; i < FACE_H * FACE_W; i++) {
            tpl[t].v[i] -= (float)mean;
            ss += tpl[t].v[i] * tpl[t].v[i];
        }
        for (int i = 0; i < FACE_H * FACE_W; i++) tpl[t].v[i] /= (float)sqrt(ss > 0 ? ss : 1);
    }
}

/* Correlation of a face template with the top at (x, y) (its top-left corner). */
static double face_ncc(const struct top *t, const struct face_tpl *f, int x, int y)
{
    double s = 0, ss = 0, dot = 0;
    for (int j = 0; j < FACE_H; j++)
        for (int i = 0; i < FACE_W; i++) {
            double v = t->px[y + j][x + i];
            s += v;
            ss += v * v;
            dot += v * f->v[j * FACE_W + i];
        }
    int n = FACE_H * FACE_W;
    double var = ss - s * s / n;
    return var > 1e-6 ? dot / sqrt(var) : 0; /* the template is zero-mean */
}

/* The type whose face fits best somewhere in the blob; *score the fit, fits[ty] each type's best
 * (-1 without a face in the book). */
static int blob_type(const struct top *t, const struct face_tpl tpl[8], const struct blob *b,
                     double *score, double fits[8])
{
    int best = 0;
    *score = -1;
    for (int ty = 0; ty < 8; ty++) fits[ty] = -1;
    for (int y = b->y0 - 3; y <= b->y1 - FACE_H + 3; y++)
        for (int x = b->x0 - 3; x <= b->x1 - FACE_W + 3; x++) {
            if (x < 0 || y < 0 || x + FACE_W > t->w || y + FACE_H > t->h) continue;
            for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) {
                if (!tpl[ty].have) continue;
                double c = face_ncc(t, &tpl[ty], x, y);
                if (c > fits[ty]) fits[ty] = c;
                if (c > *score) {
                    *score = c;
                    best = ty;
                }
            }
        }
    return best;
}

/* Piece widths of a standard set in cells (a cell is 33 mm wide) and how far apart players lay
 * the overlapping pieces of one type in hand, in piece widths. */
static const double piece_w[8] = {0, 0.712, 0.727, 0.758, 0.788, 0.818, 0.818, 0.788};
#define STEP_PAWN  0.52
#define STEP_OTHER 0.62
#define MASK_BLEED 2.0
#define MIN_FIT    0.38 /* correlation with the book's face below which a blob is no piece */
#define ROW_MAX_H  1.5  /* cells: the tallest blob that is one row of pieces */
#define MIN_FILL   0.35 /* share of its bounding box a row of pieces fills */
#define COVER_AREA                                                                                 \
    1.5 /* cells: a blob this big that is no piece is a hand over the stand */ /* pixels the       \
                                                                                  texture mask     \
                                                                                  reaches past a   \
                                                                                  piece on each    \
                                                                                  side */

/* pixels: the smallest blob that may be a piece (its mask in dim light is only its ink, a
 * piece at the stand's border is cut by its rim); the face's fit tells grain and specks out */
#define MIN_BW         8
#define MIN_BH         9
#define ROW_BW         13 /* pixels: a part this big shows its blob to be pieces */
#define ROW_BH         15
#define HAND_AREA      3.0 /* cells: a blob this big is a hand unless it is mostly rows of pieces */
#define HAND_FIT_SHARE 0.6

/* How many pieces of type ty an overlapping row of this width holds (not rounded), its mask
 * bleed pixels wider than the pieces. */
static double row_pieces(int ty, int width_px, double bleed)
{
    double w = piece_w[ty] * PRES, step = (ty == SHOGI_PAWN ? STEP_PAWN : STEP_OTHER) * w;
    return 1 + (width_px - bleed - w) / step;
}

/* The bleed of a row of n pieces of type ty this wide. */
static double row_bleed(int ty, int width_px, int n)
{
    double w = piece_w[ty] * PRES, step = (ty == SHOGI_PAWN ? STEP_PAWN : STEP_OTHER) * w;
    return width_px - w - (n - 1) * step;
}

static int row_round(double n)
{
    return n < 1 ? 1 : (int)lround(n);
}

/* ---- what the game says about the hands ----
 * Every piece of the game not on its board is in a hand: per kind, the pieces in both hands
 * together are the game's pieces of that kind off its board (its hands). The game is the
 * caller's (the guard's position): the reader's own tracked position falls behind the game too
 * often to bound anything (on the rendered films its hands were short on most settled frames). */
static void hand_bound(const struct shogi_position *game, int avail[8])
{
    avail[0] = 0;
    for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++)
        avail[ty] = game->hand[0][ty] + game->hand[1][ty];
}

/* A row's type where the board leaves no piece of the kind it fits best: the best fitting kind
 * that the board leaves (0: none fits well enough, no piece). */
static int row_type(const struct row *w, const int avail[8])
{
    if (avail[w->ty] > 0) return w->ty;
    int best = 0;
    for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++)
        if (avail[ty] > 0 && w->fits[ty] >= MIN_FIT && (!best || w->fits[ty] > w->fits[best]))
            best = ty;
    return best;
}

/* Each stand's row mask is wider than its pieces by a bleed that depends on the view (the
 * pieces' side faces seen from the side, their shadow, a row cut by the stand's rim, only the ink
 * showing in dim light): 2 * MASK_BLEED until learned. Where the game tells a row's count (a
 * stand read, one row of a kind on it, the game's hand of its owner holding 1 or more of the
 * kind), the row's bleed at that count is learned, after the frame is read (a frame's count never
 * comes from itself): the mean of the first BLEED_N, then a running mean. A row whose width is
 * more than BLEED_FAR pieces from the count is no evidence (another row joined to it, a hand, a
 * piece hidden). Until session 20 only a kind on one stand and none on the other taught (the
 * two hands' sum); most stands never learned (seed 0's partial films read two pawns as one). */
#define BLEED_N   8
#define BLEED_FAR 1.0
#define BLEED_MIN (-8.0)
#define BLEED_MAX 14.0

static double stand_bleed(const struct shogi_reader *r, int side)
{
    return r->stand_learned[side] ? r->stand_bleed[side] : 2 * MASK_BLEED;
}

static void learn_bleed(struct shogi_reader *r, const struct hand_obs hands[2],
                        const struct row rows[2][MAX_ROWS], const int nrows[2],
                        const struct shogi_position *game)
{
    for (int s = 0; s < 2; s++) {
        if (!hands[s].visible) continue;
        for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) {
            int want = game->hand[s][ty], nr = 0, last = -1;
            if (want < 1) continue;
            for (int k = 0; k < nrows[s]; k++)
                if (rows[s][k].at == ty) nr++, last = k;
            if (nr != 1) continue;
            const struct row *w = &rows[s][last];
            if (fabs(row_pieces(ty, w->width, stand_bleed(r, s)) - want) > BLEED_FAR) continue;
            double b = row_bleed(ty, w->width, want);
            b = b < BLEED_MIN ? BLEED_MIN : b > BLEED_MAX ? BLEED_MAX : b;
            int n = r->stand_learned[s] < BLEED_N ? r->stand_learned[s] : BLEED_N;
            r->stand_bleed[s] = (r->stand_bleed[s] * n + b) / (n + 1);
            r->stand_learned[s]++;
        }
    }
}

/* Pieces of one kind lie together in one row on a stand: a row typed as the kind a surer row of
 * its stand took is rather the kind that fits it next best, if that fits nearly as well (in dim
 * light a knight's and a silver's faces fit each other's pieces about as well as their own: seed
 * 0's dim films read a stand's knight and silver as two knights, the other stand's as two
 * silvers). Rows of one kind split apart (a gap in the mask, many pawns in two rows) fit their
 * kind far better than any other and keep it. The kind to take instead of ty (ty itself if no
 * other fits well enough). */
#define SAME_KIND_MARGIN 0.08 /* of the correlation with the book's face */
static int other_kind(const struct row *w, int ty, const bool taken[8], const int left[8])
{
    int best = 0;
    for (int c = SHOGI_PAWN; c <= SHOGI_GOLD; c++)
        if (c != ty && !taken[c] && left[c] > 0 && w->fits[c] >= MIN_FIT &&
            w->fits[c] >= w->fits[ty] - SAME_KIND_MARGIN && (!best || w->fits[c] > w->fits[best]))
            best = c;
    return best ? best : ty;
}

/* The types of the rows of both stands together within the game's hands: the surest rows (best
 * fit first) take their best fitting kind while the game's hands have pieces of it left; a row
 * whose kind the rows before it have used up takes the best fitting kind left (a lance or knight
 * in dim light fits the pawn's face about as well as its own, and the pawns are already
 * counted). Without the game every row keeps its best fit. */
void komadai_assign_types(const struct shogi_reader *r, const struct hand_obs hands[2],
                          struct row rows[2][MAX_ROWS], const int nrows[2], const int avail[8])
{
    int left[8], order[2 * MAX_ROWS], n = 0;
    memcpy(left, avail, sizeof left);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < nrows[s]; k++) {
            rows[s][k].at = 0;
            if (hands[s].visible) order[n++] = s * MAX_ROWS + k;
        }
    for (int i = 1; i < n; i++) /* by best fit, the surest first */
        for (int j = i; j > 0; j--) {
            const struct row *p = &rows[order[j - 1] / MAX_ROWS][order[j - 1] % MAX_ROWS];
            const struct row *q = &rows[order[j] / MAX_ROWS][order[j] % MAX_ROWS];
            if (q->fits[q->ty] <= p->fits[p->ty]) break;
            int tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    bool taken[2][8] = {{false}}; /* kinds a surer row of the stand took */
    for (int i = 0; i < n; i++) {
        int s = order[i] / MAX_ROWS;
        struct row *w = &rows[s][order[i] % MAX_ROWS];
        int ty = left[w->ty] > 0 ? w->ty : 0;
        if (!ty)
            for (int c = SHOGI_PAWN; c <= SHOGI_GOLD; c++)
                if (left[c] > 0 && w->fits[c] >= MIN_FIT && (!ty || w->fits[c] > w->fits[ty]))
                    ty = c;
        if (!ty) ty = row_type(w, avail);
        if (ty && taken[s][ty]) ty = other_kind(w, ty, taken[s], left);
        if (ty) taken[s][ty] = true;
        w->at = ty;
        if (ty) left[ty] -= row_round(row_pieces(ty, w->width, stand_bleed(r, s)));
    }
}

/* The counts of both stands from their rows, within what the game leaves: a stand never holds
 * more of a kind than the game's hands. Nothing more: taking a piece from the stand least sure
 * of its count when both together hold more made as many stands wrong as right (the wrong
 * stand is often the sure one), and a stand short of the game's hands is what the guard is to
 * see (a piece hidden), so counts are never raised toward the game's (that gained 0.3% of the
 * films' frames). */
static void counts_within(const struct shogi_reader *r, struct hand_obs hands[2],
                          const struct row rows[2][MAX_ROWS], const int nrows[2],
                          const int avail[8])
{
    for (int s = 0; s < 2; s++) {
        if (!hands[s].visible) continue;
        int cnt[8] = {0};
        for (int k = 0; k < nrows[s]; k++) {
            const struct row *w = &rows[s][k];
            int ty = w->at;
            if (ty) cnt[ty] += row_round(row_pieces(ty, w->width, stand_bleed(r, s)));
        }
        for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) {
            int n = cnt[ty] < avail[ty] ? cnt[ty] : avail[ty];
            hands[s].count[ty - 1] = (uint8_t)(n > 18 ? 18 : n);
        }
    }
}

bool shogi_reader_hands(struct shogi_reader *r, const struct vision_image *img,
                        struct hand_obs hands[2])
{
    return shogi_reader_hands_within(r, img, NULL, hands);
}

bool shogi_reader_hands_within(struct shogi_reader *r, const struct vision_image *img,
                               const struct shogi_position *game, struct hand_obs hands[2])
{
    memset(hands, 0, 2 * sizeof *hands);
    if (getenv("KIFUCAM_KOMADAI_DEBUG")) komadai_debug_n++; /* the diagnostic's file names */
    if (!r->oriented) return false;
    const struct vision_image *gray = shogi_reader_frame(r, img);
    if (!gray) return false;
    struct area *a = malloc(sizeof *a), *a2 = malloc(sizeof *a2);
    struct edges *e = malloc(sizeof *e);
    struct top *t = malloc(sizeof *t);
    uint8_t(*mask)[PMAX] = malloc(sizeof(uint8_t[PMAX][PMAX]));
    struct blob *bl = malloc(sizeof *bl * MAX_BLOBS);
    struct colour_area *ca = malloc(sizeof *ca);
    if (!a || !a2 || !e || !t || !mask || !bl || !ca) {
        free(a2);
        free(ca);
        free(a);
        free(e);
        free(t);
        free(mask);
        free(bl);
        return false;
    }
    struct face_tpl tpl[8];
    struct row rows[2][MAX_ROWS];
    int nrows[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        struct hand_obs *ho = &hands[side];
        rectify(&r->grid, gray, side, a);
        edges_of(a, e);
        struct stand_box b = find_stand(e, false);
        /* uneven light (a lamp's glare) can make the stand brighter than the table on one side
         * and darker on another: then each side may have its own sign */
        if (b.score < MIN_CONTRAST) {
            b = find_stand(e, true);
        } else if (b.score < WEAK_CONTRAST) {
            /* a weak border of one sign may be a part of the stand (its top lighter than its
             * side face, darker than the table: a side view); a box around it whose sides each
             * have their own sign, far stronger, is the whole stand */
            struct stand_box c = find_stand(e, true);
            if (c.score > ANY_SIGN_GAIN * b.score && box_within(&b, &c, WITHIN_SLACK)) b = c;
        }
        /* a stand of the table's grey (light wood on a grey or white table, a dim room): its
         * border in colour, the wood warmer than the table */
        bool have_colour = false;
        if (b.score < MIN_CONTRAST && r->colour) {
            komadai_colour_rectify(r, side, a, ca);
            have_colour = true;
            warmth_of(a, ca, a2);
            edges_of(a2, e);
            struct stand_box c = find_stand(e, false); /* warmer all round: one sign */
            if (c.score >= MIN_CONTRAST) b = c;
        }
        /* a stand cut by the picture's edge cannot be counted: out of view; no stand where the
         * place beside the board is wholly in the picture: none found */
        if (b.score < MIN_CONTRAST) {
            set_view(ho, area_cut(a) ? HAND_VIEW_OUT_OF_VIEW : HAND_VIEW_NOT_FOUND);
            continue;
        }
        if (!box_inside(a, &b) || cut_small(a, &b) || runs_out(a, &b)) {
            set_view(ho, HAND_VIEW_OUT_OF_VIEW);
            continue;
        }
        set_view(ho, HAND_VIEW_READ);
        /* an arm reaching over the stand: no count */
        struct arm_feat af;
        if (!have_colour) komadai_colour_rectify(r, side, a, ca);
        komadai_arm_over(a, &b, ca, r->colour != NULL, &af);
        if (getenv("KIFUCAM_KOMADAI_DEBUG") && af.arm) debug_area(a, &b, &b, side);
        if (getenv("KIFUCAM_KOMADAI_DEBUG") && af.arm)
            fprintf(
                stderr,
                "  arm %05d side %d: box %d-%d x %d-%d score %.1f, in %.1f out %.1f reach %.1f\n",
                komadai_debug_n, side, b.x0, b.x1, b.y0, b.y1, b.score, af.in_area, af.out_area,
                af.reach);
        if (af.arm) {
            /* next to the picture's edge the "arm" may be the rest of a stand the edge cuts
             * (the box found only a part of it): out of view, no count either way */
            set_view(ho,
                     near_edge(a, &b, ARM_EDGE_MARGIN) ? HAND_VIEW_OUT_OF_VIEW : HAND_VIEW_COVERED);
            continue;
        }
        /* the pieces lie on the top, inside the stand's faces (the arm is looked for past
         * the outer border: the faces are wood); within the game only, where each stand's
         * bleed is learned (the fixed bleed of a frame read alone was measured on rows joined
         * to the faces: seed 0's player films 88.7 -> 82.5% read so) */
        struct stand_box top = b;
        if (game) inner_edges(a, &top);
        if (getenv("KIFUCAM_KOMADAI_DEBUG"))
            fprintf(stderr, "  box %05d side %d: %d-%d x %d-%d score %.1f, top %d-%d x %d-%d\n",
                    debug_seq(), side, b.x0, b.x1, b.y0, b.y1, b.score, top.x0, top.x1, top.y0,
                    top.y1);
        if (getenv("KIFUCAM_KOMADAI_DEBUG")) debug_area(a, &b, &top, side);
        top_of(&r->grid, gray, side, &top, t);
        piece_mask(t, mask, game != NULL);
        int nb = blobs_of(t, mask, bl, MAX_BLOBS);
        faces_of(&r->book, side, tpl);
        double worst = 1;
        const bool edge = near_edge(a, &b, ARM_EDGE_MARGIN);
        struct blob dparts[64];
        bool dkept[64];
        int ndp = 0;
        for (int i = 0; i < nb; i++) {
            const struct blob *q = &bl[i];
            int bw = q->x1 - q->x0 + 1, bh = q->y1 - q->y0 + 1;
            /* smaller than a pawn: grain, a speck, a sliver of the rim */
            if (bw < MIN_BW || bh < MIN_BH) continue;
            struct blob parts[8];
            int np = rows_of(t, q, i + 1, parts, 8);
            bool pieces = false;
            int fitting = 0; /* pixels of the parts that are rows of pieces */
            for (int k = 0; k < np; k++) {
                const struct blob *p = &parts[k];
                int pw = p->x1 - p->x0 + 1, ph = p->y1 - p->y0 + 1;
                /* hollow: the stand's side face or rim along the border */
                if (pw < MIN_BW || ph < MIN_BH || p->area < MIN_FILL * pw * ph) continue;
                double fit = -1, fits[8];
                int ty = ph <= ROW_MAX_H * PRES ? blob_type(t, tpl, p, &fit, fits) : 0;
                if (ndp < 64) dparts[ndp] = *p, dkept[ndp++] = fit >= MIN_FIT;
                if (fit < MIN_FIT) continue;
                if (nrows[side] < MAX_ROWS) {
                    struct row *w = &rows[side][nrows[side]++];
                    w->ty = ty;
                    w->width = pw;
                    memcpy(w->fits, fits, sizeof w->fits);
                }
                if (fit < worst) worst = fit;
                /* a small part is a row (a piece's ink in dim light) but no proof that the big
                 * blob it came from is pieces rather than a hand or the rest of a cut stand */
                pieces |= pw >= ROW_BW && ph >= ROW_BH;
                fitting += p->area;
            }
            /* something big that is no row of pieces lies on the stand: a hand */
            if (!pieces && q->area > COVER_AREA * PRES * PRES) ho->covered = true;
            /* ... or a blob as big as a hand that is mostly no row (fingers lying over a row, or
             * a sleeve, cut into parts that happen to fit a face) */
            if (q->area > HAND_AREA * PRES * PRES && fitting < HAND_FIT_SHARE * q->area)
                ho->covered = true;
            /* ... or, by the picture's edge, half as big: a stand's edge or the table inside a
             * box that is only a part of a stand the picture cuts, with a piece joined to it
             * (said out of view below) */
            if (edge && q->area > COVER_AREA * PRES * PRES && fitting < HAND_FIT_SHARE * q->area)
                ho->covered = true;
        }
        debug_top(t, side, dparts, ndp, dkept);
        if (ho->covered) {
            /* as for an arm: beside the picture's edge the big blob may be a part of the stand
             * or of what lies past it that the box cut (out of view, no count either way) */
            set_view(ho,
                     near_edge(a, &b, ARM_EDGE_MARGIN) ? HAND_VIEW_OUT_OF_VIEW : HAND_VIEW_COVERED);
            continue;
        }
        /* how sure: the stand's border contrast and the worst fit of a row's face */
        ho->conf = (float)(fmin(1.0, b.score / (4 * MIN_CONTRAST)) * worst);
    }
    int avail[8];
    if (game)
        hand_bound(game, avail);
    else
        for (int ty = 0; ty < 8; ty++) avail[ty] = 18 * 2; /* no bound */
    komadai_assign_types(r, hands, rows, nrows, avail);
    counts_within(r, hands, rows, nrows, avail);
    if (getenv("KIFUCAM_KOMADAI_DEBUG"))
        for (int s = 0; s < 2; s++) {
            fprintf(stderr, "  side %d bleed %.1f (%d):", s, stand_bleed(r, s),
                    r->stand_learned[s]);
            for (int k = 0; k < nrows[s]; k++) {
                const struct row *w = &rows[s][k];
                int nx = 0; /* the next best fitting kind */
                for (int c = SHOGI_PAWN; c <= SHOGI_GOLD; c++)
                    if (c != w->ty && (!nx || w->fits[c] > w->fits[nx])) nx = c;
                fprintf(stderr, " [%c w%d fit %c %.2f %c %.2f n%.2f]", " PLNSBRG"[w->at],
                        w -> width, " PLNSBRG"[w->ty], w -> fits[w->ty], " PLNSBRG"[nx],
                        w -> fits[nx],
                        w -> at ? row_pieces(w->at, w->width, stand_bleed(r, s)) : 0);
            }
            fprintf(stderr, "\n");
        }
    if (game) learn_bleed(r, hands, rows, nrows, game);
    free(ca);
    free(t);
    free(a2);
    free(a);
    free(e);
    free(mask);
    free(bl);
    return true;
}

/* vision/shogi_komadai_arm.c — an arm reaching over a komadai: what covers the stand is unlike
 * the stand's wood, and it goes on over the table beside it, unlike the table. Pieces in hand lie
 * on the stand and never cross its border. The wood's colour is the median of a band just inside
 * the stand's border, the table's that of everything around it (an arm covers a part of each). */
#include <math.h>
#include <string.h>

#include "vision/shogi_komadai_internal.h"
#include "vision/vision_internal.h"

/* The colour at (u, v) of the owner's frame (R, G, B), false outside the image. */
static bool sample_rgb(const struct shogi_grid *g, const struct vision_image *col, int side,
                       double u, double v, float rgb[3])
{
    double x, y, px, py;
    owner_to_view(side, u, v, &x, &y);
    hom_apply(g->H, x, y, &px, &py);
    int ix = (int)floor(px), iy = (int)floor(py);
    if (ix < 0 || iy < 0 || ix >= col->width || iy >= col->height) return false;
    const uint8_t *p = col->data + (size_t)iy * col->stride + 3 * (size_t)ix;
    int ri = col->fmt == VISION_RGB24 ? 0 : 2;
    rgb[0] = p[ri], rgb[1] = p[1], rgb[2] = p[2 - ri];
    return true;
}

/* The upper median (of an even count, the larger middle), v reordered. */
static float median_of(double *v, int n)
{
    return n > 0 ? (float)vision_select_kth(v, n, n / 2) : 0;
}

/* The area in colour (grey where the reader has no colour frame), smoothed. */
void komadai_colour_rectify(const struct shogi_reader *r, int side, const struct area *a,
                            struct colour_area *ca)
{
    float(*tmp)[AW][3] = ca->tmp;
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) {
            float *c = tmp[y][x];
            c[0] = c[1] = c[2] = a->px[y][x];
            if (r->colour && a->in[y][x])
                sample_rgb(&r->grid, r->colour, side, AREA_U0 + (x + 0.5) / RES,
                           AREA_V0 + (y + 0.5) / RES, c);
        }
    /* a 3 x 3 mean: the camera's noise and the wood's grain out */
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++)
            for (int k = 0; k < 3; k++) {
                float sum = 0;
                int n = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int yy = y + dy, xx = x + dx;
                        if (yy < 0 || xx < 0 || yy >= AH || xx >= AW || !a->in[yy][xx]) continue;
                        sum += tmp[yy][xx][k];
                        n++;
                    }
                ca->c[y][x][k] = n ? sum / n : 0;
            }
}

static float cdist(const float *c, const float *m)
{
    float d0 = c[0] - m[0], d1 = c[1] - m[1], d2 = c[2] - m[2];
    return sqrtf(d0 * d0 + d1 * d1 + d2 * d2);
}

/* Distance in pixels of (x, y) outside box b (0 inside). */
static int box_dist(const struct stand_box *b, int x, int y)
{
    int dx = x < b->x0 ? b->x0 - x : x > b->x1 ? x - b->x1 : 0;
    int dy = y < b->y0 ? b->y0 - y : y > b->y1 ? y - b->y1 : 0;
    return dx > dy ? dx : dy;
}

#define ARM_IN    1.0 /* cells^2 of the stand an arm covers at least */
#define ARM_REACH 1.0 /* cells it reaches past the stand's border at least */
#define BAND0     2   /* pixels inside the border: the band whose median is the wood */
#define BAND1     8

/* Unlike the stand's wood (or the table): in colour, another hue (a sleeve, skin); the same wood
 * in light or shade (the stand's side face, a lamp's light on the table) is not. In grey, far
 * from its grey level. */
#define HUE_APART 0.035 /* of the chromaticity (r, g, b over their sum) */
#define LIGHTER   1.6   /* or this much lighter or darker */
#define DARKER    0.55
static bool unlike(const float *c, const float *m, float tw, bool colour)
{
    if (!colour) return cdist(c, m) > tw;
    float s = c[0] + c[1] + c[2] + 1, sw = m[0] + m[1] + m[2] + 1;
    float d0 = c[0] / s - m[0] / sw, d1 = c[1] / s - m[1] / sw, d2 = c[2] / s - m[2] / sw;
    return sqrtf(d0 * d0 + d1 * d1 + d2 * d2) > HUE_APART || s > LIGHTER * sw || s < DARKER * sw;
}

#define ARM_SHARP 6.0 /* grey levels a pixel across its outline, at least */

/* The stand's own side or front face, seen from low (the side view), lies past one side of the
 * top found: a band of the wood in shade (mixed with the table's light at its outline: unlike
 * both) along the whole side, no deeper than the top is thick, ending where the picture still
 * shows the table past it. An arm over the stand is narrower than the stand's side, or reaches
 * further, or goes on out of sight (the picture's edge, the search area's); one lying over the
 * face as well joins it and is more than that band. Seed 4's side films: the face was an arm on
 * 53 of 120 settled frames. */
#define FACE_SHARE  0.9  /* of the region's pixels past the stand, past that one side, at least */
#define FACE_SPAN   0.75 /* of the side's length the band runs along, at least */
#define FACE_DEPTH  2.0  /* cells past the side, at most */
#define BORDER_BLUR 2    /* pixels past the border where the wood and the table mix (unlike both) */
/* pixels past the side's ends still along it (the face is lower than the top: parallax) */
#define FACE_SLACK RES

/* The side past which pixel (x, y) outside box b lies, within the side's span (0 left, 1 right,
 * 2 back, 3 front; -1 past a corner), and how far past. */
static int side_past(const struct stand_box *b, int x, int y, int *depth)
{
    bool in_x = x >= b->x0 - FACE_SLACK && x <= b->x1 + FACE_SLACK;
    bool in_y = y >= b->y0 - FACE_SLACK && y <= b->y1 + FACE_SLACK;
    *depth = box_dist(b, x, y);
    if (x < b->x0 && in_y) return 0;
    if (x > b->x1 && in_y) return 1;
    if (y < b->y0 && in_x) return 2;
    if (y > b->y1 && in_x) return 3;
    return -1;
}

/* Is (x, y) at the search area's edge or next to a place outside the picture? Not the area's
 * edge by the board (u = AREA_U0): the board's own side face lies there, and the stand's face
 * joins it in a low side view (seed 4's side films); an arm comes from the player or the right. */
static bool at_sight_edge(const struct area *a, int x, int y)
{
    if (y == 0 || x == AW - 1 || y == AH - 1) return true;
    return (x > 0 && !a->in[y][x - 1]) || !a->in[y][x + 1] || !a->in[y - 1][x] || !a->in[y + 1][x];
}

/* Is region l (its pixels past the stand's blurred border) the stand's face: a band along one
 * whole side of box b, in sight all round? (Told in colour only, where the region is the wood
 * in shade unlike the wood lit; in grey no film showed the face taken for an arm.) */
bool komadai_region_is_face(const struct area *a, const struct stand_box *b,
                            const struct colour_area *ca, int l)
{
    int n[4] = {0}, out = 0, deepest[4] = {0};
    bool along[4][AH > AW ? AH : AW];
    memset(along, 0, sizeof along);
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) {
            if (ca->lab[y][x] != l || !a->in[y][x] || box_dist(b, x, y) <= BORDER_BLUR) continue;
            if (at_sight_edge(a, x, y)) return false; /* it goes on out of sight: an arm */
            int depth, k = side_past(b, x, y, &depth);
            out++;
            if (k < 0) continue;
            n[k]++;
            if (depth > deepest[k]) deepest[k] = depth;
            int at = k < 2 ? y : x;
            along[k][at] = true;
        }
    int k = 0;
    for (int j = 1; j < 4; j++)
        if (n[j] > n[k]) k = j;
    if (out == 0 || n[k] < FACE_SHARE * out || deepest[k] > FACE_DEPTH * RES) return false;
    int lo = k < 2 ? b->y0 : b->x0, hi = k < 2 ? b->y1 : b->x1, run = 0;
    for (int i = lo; i <= hi; i++) run += along[k][i];
    return run >= FACE_SPAN * (hi - lo + 1);
}

void komadai_arm_over(const struct area *a, const struct stand_box *b, struct colour_area *ca,
                      bool colour, struct arm_feat *af)
{
    memset(af, 0, sizeof *af);
    double(*v)[AH * AW] = ca->v, *d = ca->d;
    float wood[3], table[3];
    int nw = 0, nt = 0;
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) {
            if (!a->in[y][x]) continue;
            int inside = x >= b->x0 && x <= b->x1 && y >= b->y0 && y <= b->y1;
            int depth = inside ? fmin(fmin(x - b->x0, b->x1 - x), fmin(y - b->y0, b->y1 - y)) : -1;
            if (inside && depth >= BAND0 && depth <= BAND1) {
                for (int k = 0; k < 3; k++) v[k][nw] = ca->c[y][x][k];
                nw++;
            }
        }
    for (int k = 0; k < 3; k++) wood[k] = median_of(v[k], nw);
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++)
            if (a->in[y][x] && box_dist(b, x, y) > 2) {
                for (int k = 0; k < 3; k++) v[k][nt] = ca->c[y][x][k];
                nt++;
            }
    for (int k = 0; k < 3; k++) table[k] = median_of(v[k], nt);
    int n = 0;
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++)
            if (a->in[y][x] && box_dist(b, x, y) > 2) d[n++] = cdist(ca->c[y][x], table);
    af->spread_t = median_of(d, n);
    n = 0;
    for (int y = b->y0 + BAND0; y <= b->y1 - BAND0; y++)
        for (int x = b->x0 + BAND0; x <= b->x1 - BAND0; x++) d[n++] = cdist(ca->c[y][x], wood);
    af->spread_w = median_of(d, n);
    float tw = fmaxf(3.0f * (float)af->spread_w, 24.0f),
          tt = fmaxf(3.0f * (float)af->spread_t, 24.0f);
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++)
            ca->lab[y][x] = a->in[y][x] && unlike(ca->c[y][x], wood, tw, colour) &&
                                    unlike(ca->c[y][x], table, tt, colour)
                                ? -1
                                : 0;
    int nl = 0;
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) {
            if (ca->lab[y][x] != -1) continue;
            nl++;
            int sp = 0, in = 0, out = 0, reach = 0;
            ca->stack[sp++] = y * AW + x;
            ca->lab[y][x] = nl;
            while (sp) {
                int p = ca->stack[--sp], py = p / AW, px = p % AW;
                int dd = box_dist(b, px, py);
                if (dd == 0)
                    in++;
                else
                    out++;
                if (dd > reach) reach = dd;
                static const int dl[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                for (int k = 0; k < 4; k++) {
                    int qx = px + dl[k][0], qy = py + dl[k][1];
                    if (qx < 0 || qy < 0 || qx >= AW || qy >= AH || ca->lab[qy][qx] != -1) continue;
                    ca->lab[qy][qx] = nl;
                    ca->stack[sp++] = qy * AW + qx;
                }
            }
            if (out == 0 || in < ARM_IN * RES * RES || reach < ARM_REACH * RES) continue;
            /* an arm's outline is sharp all round; light and shade on the table fade in and out
             * (where they meet the board's or the stand's edge, a part of their outline is
             * sharp: the median, not the mean) */
            double sharp = 0;
            int nb = 0;
            for (int yy = 1; yy < AH - 1; yy++)
                for (int xx = 1; xx < AW - 1; xx++) {
                    if (ca->lab[yy][xx] != nl || box_dist(b, xx, yy) <= 1) continue;
                    if (ca->lab[yy][xx - 1] == nl && ca->lab[yy][xx + 1] == nl &&
                        ca->lab[yy - 1][xx] == nl && ca->lab[yy + 1][xx] == nl)
                        continue;
                    if (!a->in[yy][xx - 1] || !a->in[yy][xx + 1] || !a->in[yy - 1][xx] ||
                        !a->in[yy + 1][xx])
                        continue;
                    float gx = a->px[yy][xx + 1] - a->px[yy][xx - 1];
                    float gy = a->px[yy + 1][xx] - a->px[yy - 1][xx];
                    d[nb++] = sqrtf(gx * gx + gy * gy) / 2;
                }
            sharp = median_of(d, nb);
            if (sharp < ARM_SHARP) continue;
            if (colour && komadai_region_is_face(a, b, ca, nl)) continue;
            if (in > af->in_area * RES * RES) {
                af->in_area = (double)in / (RES * RES);
                af->out_area = (double)out / (RES * RES);
                af->reach = (double)reach / RES;
                af->arm = true;
            }
        }
}

/* vision/shogi_colour.c — colour as a cue for promoted faces. Most sets write the promoted face in
 * red (or another colour) and the plain face in black; a 24-pixel grey patch may not tell a rook's
 * face from a dragon's, the ink's colour does. The reader takes colour frames (BGR or RGB) as well
 * as grey ones: it works on a grey copy and, when colour is there, measures per cell how far the
 * ink's colour leans to red against the piece's own face (so neither the wood nor the light need
 * be known), and learns what plain faces (from the start) and promoted ones (as promotions are
 * accepted) measure on this set, under this light. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

/* A colour frame of a grey picture (a grey JPEG decoded to BGR) says nothing by its colour: a few
 * thousand pixels spread over the frame all without a channel apart by more than a grey level. */
static bool has_chroma(const struct vision_image *img)
{
    size_t n = (size_t)img->width * img->height;
    for (size_t i = 0; i < n; i += 97) {
        const uint8_t *p = img->data + (i / img->width) * img->stride + 3 * (i % img->width);
        if (abs(p[0] - p[1]) > 1 || abs(p[1] - p[2]) > 1) return true;
    }
    return false;
}

const struct vision_image *shogi_reader_frame(struct shogi_reader *r,
                                              const struct vision_image *img)
{
    r->colour = NULL;
    if (img->fmt == VISION_GRAY8) return img;
    size_t need = (size_t)img->width * img->height;
    if (need > r->gray_cap) {
        uint8_t *p = realloc(r->gray_buf, need);
        if (!p) return NULL;
        r->gray_buf = p;
        r->gray_cap = need;
    }
    /* BT.601 luma in 8-bit fixed point (as the tests' grey frames: the same frame read in grey
     * or in colour gives the reader the same grey) */
    const int ri = img->fmt == VISION_RGB24 ? 0 : 2;
    for (int y = 0; y < img->height; y++) {
        const uint8_t *p = img->data + (size_t)y * img->stride;
        uint8_t *q = r->gray_buf + (size_t)y * img->width;
        for (int x = 0; x < img->width; x++, p += 3)
            q[x] = (uint8_t)((77 * p[ri] + 150 * p[1] + 29 * p[2 - ri]) >> 8);
    }
    r->gray_img = (struct vision_image){img->width,  img->height, img->width, VISION_GRAY8,
                                        r->gray_buf, img->t_ns,   img->seq};
    r->colour = has_chroma(img) ? img : NULL;
    return &r->gray_img;
}

/* The inner part of a cell, where the characters are (the outline and the grid lines are not). */
#define INK_N      12
#define INK_MARGIN 0.22
/* A pixel this much darker than the face (share of the face's level) begins to count as ink. */
#define INK_DARKER 0.15

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* A piece's face stands above the board: a tilted camera sees its characters higher up the picture
 * than the cell's centre on the board's plane (in side views most of a promoted face's red fell
 * outside the window: a horse read as a bishop). The lift in pixels is FACE_LIFT of the cell's
 * larger image scale times the sine of the board's tilt, both from the grid's local map (an
 * overhead view gets almost none); up the picture, for a camera held upright. Measured on the truth
 * grid of the 30 footage games and 7 side fault films (every 10th settled frame): promoted faces
 * read plain (z < 3) 52 of 351 -> 0, the reddest plain face z 4.2 -> 5.9 (RED_Z is 6). */
#define FACE_LIFT 0.2

static double face_lift(const struct shogi_grid *g, int sq)
{
    double cx = 9 - shogi_sq_file(sq) + 0.5, cy = shogi_sq_rank(sq) - 0.5, p[4][2];
    hom_apply(g->H, cx - 0.5, cy, &p[0][0], &p[0][1]);
    hom_apply(g->H, cx + 0.5, cy, &p[1][0], &p[1][1]);
    hom_apply(g->H, cx, cy - 0.5, &p[2][0], &p[2][1]);
    hom_apply(g->H, cx, cy + 0.5, &p[3][0], &p[3][1]);
    /* the local map's columns (pixels per cell along the board's two axes) and its singular values
     */
    double a = p[1][0] - p[0][0], c = p[1][1] - p[0][1], b = p[3][0] - p[2][0],
           d = p[3][1] - p[2][1];
    double t = a * a + b * b + c * c + d * d, det = fabs(a * d - b * c);
    double disc = sqrt(fmax(0, t * t / 4 - det * det));
    double s1 = sqrt(t / 2 + disc), s2 = sqrt(fmax(0, t / 2 - disc));
    if (s1 <= 0) return 0;
    double r = s2 / s1;
    return FACE_LIFT * s1 * sqrt(fmax(0, 1 - r * r));
}

/* The cell's ink redness into *out; false when it cannot be measured (no colour, the cell out of
 * the picture, no ink to speak of: an empty cell, a blurred one, a face washed out by glare). */
static bool ink_red(const struct shogi_grid *g, const struct vision_image *col, int sq, double *out)
{
    *out = 0;
    if (!col || col->fmt == VISION_GRAY8) return false;
    const int ri = col->fmt == VISION_RGB24 ? 0 : 2, bi = 2 - ri;
    double x0 = 9 - shogi_sq_file(sq) + INK_MARGIN, y0 = shogi_sq_rank(sq) - 1 + INK_MARGIN;
    double step = (1 - 2 * INK_MARGIN) / INK_N, lift = face_lift(g, sq);
    float lum[INK_N * INK_N], rg[INK_N * INK_N], sorted[INK_N * INK_N];
    int n = 0;
    for (int i = 0; i < INK_N; i++)
        for (int j = 0; j < INK_N; j++) {
            double u, v;
            hom_apply(g->H, x0 + (j + 0.5) * step, y0 + (i + 0.5) * step, &u, &v);
            v -= lift;
            int iu = (int)floor(u), iv = (int)floor(v);
            if (iu < 0 || iv < 0 || iu + 1 >= col->width || iv + 1 >= col->height) continue;
            double fu = u - iu, fv = v - iv, c[3];
            const uint8_t *p = col->data + (size_t)iv * col->stride + 3 * (size_t)iu;
            for (int k = 0; k < 3; k++) {
                double a = p[k] + fu * (p[3 + k] - p[k]);
                double b = p[col->stride + k] + fu * (p[col->stride + 3 + k] - p[col->stride + k]);
                c[k] = a + fv * (b - a);
            }
            double R = c[ri], G = c[1], B = c[bi];
            lum[n] = (float)(0.299 * R + 0.587 * G + 0.114 * B);
            rg[n] = (float)(R - G);
            sorted[n] = lum[n];
            n++;
        }
    if (n < INK_N * INK_N / 2) return false;
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_float);
    /* the face: the brighter part of the cell (the characters cover far less than half) */
    double face = sorted[(int)(0.8 * n)];
    if (face < 8) return false;
    double face_rg = 0, wf = 0, ink_rg = 0, wi = 0;
    for (int k = 0; k < n; k++) {
        if (lum[k] >= sorted[(int)(0.6 * n)]) {
            face_rg += rg[k];
            wf += 1;
        }
        double w = (face - lum[k]) / face - INK_DARKER;
        if (w <= 0) continue;
        ink_rg += w * rg[k];
        wi += w;
    }
    if (wf < 1 || wi < 2) return false; /* no ink to speak of */
    /* how much redder the ink is than the face, per grey level of the face: black ink on wood
       is less red than the wood, red ink far more (light and exposure scale both alike) */
    *out = (ink_rg / wi - face_rg / wf) / face;
    return true;
}

double shogi_cell_ink_red(const struct shogi_grid *g, const struct vision_image *col, int sq)
{
    double x;
    return ink_red(g, col, sq, &x) ? x : 0;
}

void shogi_cell_measure_red(struct shogi_reader *r, int sq)
{
    /* a cell whose ink could not be measured says nothing by its colour: read as plain (0 is
       below plain faces on most lights) a horse in a glare spot was taken for a bishop */
    double x;
    r->has_red[sq] = ink_red(&r->grid, r->colour, sq, &x);
    r->red[sq] = (float)x;
}

void shogi_red_learn(struct shogi_reader *r, int piece, int sq)
{
    if (!piece || !r->has_red[sq]) return;
    int k = shogi_type_is_promoted(shogi_piece_type(piece)) ? 1 : 0;
    double x = r->red[sq];
    r->red_cls[k].n += 1;
    r->red_cls[k].sum += x;
    r->red_cls[k].ss += x * x;
}

/* Plain faces measured before colour is trusted (the start shows forty). */
#define RED_MIN_PLAIN 12
/* The spread of plain faces is taken as at least this (a few glints could make it look tiny). */
#define RED_SD_FLOOR 0.01
/* A face this many plain spreads redder than the plain faces is promoted, while no promoted face
 * has been seen; under half of it, plain. Measured on rendered games (4 scenes, every settled
 * frame): plain faces' spread 0.011 (dim) to 0.020, promoted faces 11-15 spreads above them, the
 * reddest plain face 4 above. */
#define RED_Z 6.0

static void cls_stats(const struct shogi_reader *r, int k, double *m, double *sd)
{
    double n = r->red_cls[k].n;
    *m = r->red_cls[k].sum / n;
    double v = r->red_cls[k].ss / n - *m * *m;
    *sd = sqrt(v > 0 ? v : 0);
    if (*sd < RED_SD_FLOOR) *sd = RED_SD_FLOOR;
}

int shogi_red_vote(const struct shogi_reader *r, int sq)
{
    if (!r->has_red[sq] || r->red_cls[0].n < RED_MIN_PLAIN) return 0;
    double m0, s0, x = r->red[sq];
    cls_stats(r, 0, &m0, &s0);
    double z0 = (x - m0) / s0;
    if (r->red_cls[1].n < 1) return z0 > RED_Z ? 1 : z0 < 0.5 * RED_Z ? -1 : 0;
    double m1, s1;
    cls_stats(r, 1, &m1, &s1);
    if (r->red_cls[1].n < 3 || s1 < s0) s1 = s0;
    /* promoted faces no redder than plain ones: colour tells nothing on this set */
    if ((m1 - m0) / s0 < 0.5 * RED_Z) return 0;
    double z1 = (x - m1) / s1;
    return fabs(z1) < fabs(z0) ? 1 : -1;
}

/* render/scene_shogi.c — the shogiban and its two komadai: a 9 x 9 grid of cells about 33 x 36 mm
 * (lines on the cell borders, four star points), the board's wood in the chosen style, and two
 * piece stands beside the board, each at its owner's right hand. Same atlas layout as the goban
 * (board top, side, table) with the stands' tops appended below. */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

double shogiban_sq_x(const struct goban *g, int sq)
{
    return (5 - shogi_sq_file(sq)) * g->pitch_x; /* file 1 on sente's right (+x) */
}

double shogiban_sq_y(const struct goban *g, int sq)
{
    return (shogi_sq_rank(sq) - 5) * g->pitch_y; /* rank 1 far from sente (-y) */
}

static uint8_t *atlas_at(const struct goban *g, int x, int y)
{
    return g->atlas.data + (size_t)y * g->atlas.stride + (size_t)x * 3;
}

static void paint_shogi_top(struct goban *g, uint64_t seed, const struct wood *w, struct rng *r)
{
    double sc = g->top_scale, half_px = 0.5 / sc;
    double gx = 4.5 * g->pitch_x, gy = 4.5 * g->pitch_y;
    double ink[3] = {24, 20, 16};
    double ink_alpha = g->style == RENDER_STYLE_VINYL ? 0.95 : rng_range(r, 0.72, 0.9);
    double edge_w = g->line_w * rng_range(r, 1.2, 2.0);
    for (int ty = 0; ty < g->top_h; ty++) {
        double by = (ty + 0.5) / sc - g->length / 2;
        for (int tx = 0; tx < g->top_w; tx++) {
            double bx = (tx + 0.5) / sc - g->width / 2, col[3];
            scene_wood_color(w, seed, bx, by, col);
            double cover = 0;
            if (fabs(by) <= gy + edge_w / 2) {
                int ix = (int)lround(bx / g->pitch_x + 4.5);
                if (ix >= 0 && ix <= 9) {
                    double lw = (ix == 0 || ix == 9) ? edge_w : g->line_w;
                    double d = fabs(bx - (ix - 4.5) * g->pitch_x);
                    cover = fmax(cover, clampd((lw / 2 - d) / (2 * half_px) + 0.5, 0, 1));
                }
            }
            if (fabs(bx) <= gx + edge_w / 2) {
                int iy = (int)lround(by / g->pitch_y + 4.5);
                if (iy >= 0 && iy <= 9) {
                    double lw = (iy == 0 || iy == 9) ? edge_w : g->line_w;
                    double d = fabs(by - (iy - 4.5) * g->pitch_y);
                    cover = fmax(cover, clampd((lw / 2 - d) / (2 * half_px) + 0.5, 0, 1));
                }
            }
            for (int s = 0; s < 4; s++) { /* star points at the corners of the central 3x3 */
                double ddx = bx - (s & 1 ? 1.5 : -1.5) * g->pitch_x,
                       ddy = by - (s & 2 ? 1.5 : -1.5) * g->pitch_y;
                double d = sqrt(ddx * ddx + ddy * ddy);
                cover = fmax(cover, clampd((g->star_d / 2 - d) / (2 * half_px) + 0.5, 0, 1));
            }
            if (!isnan(g->seam_y)) {
                double d = fabs(by - g->seam_y);
                double seam = clampd((0.35 - d) / (2 * half_px) + 0.5, 0, 1) * 0.8;
                for (int k = 0; k < 3; k++) col[k] = col[k] * (1 - seam) + 60 * seam;
            }
            double a =
                cover * ink_alpha * (0.9 + 0.1 * scene_noise2(seed + 99, bx * 0.3, by * 0.3));
            uint8_t *p = atlas_at(g, tx, ty);
            for (int k = 0; k < 3; k++) p[k] = to_u8(col[k] * (1 - a) + ink[k] * a);
        }
    }
}

static void paint_stand_top(struct goban *g, const struct stand *st, uint64_t seed,
                            const struct wood *w)
{
    int tw = (int)ceil(st->w * g->top_scale), th = (int)ceil(st->l * g->top_scale);
    for (int ty = 0; ty < th; ty++)
        for (int tx = 0; tx < tw; tx++) {
            double x = (tx + 0.5) / g->top_scale, y = (ty + 0.5) / g->top_scale, col[3];
            scene_wood_color(w, seed, y * 0.7 + 300, x, col); /* grain across the stand */
            /* the bevelled rim catches less light */
            double edge = fmin(fmin(x, st->w - x), fmin(y, st->l - y));
            double shade = 0.86 + 0.14 * smoothstep(1.0, 5.0, edge);
            uint8_t *p = atlas_at(g, st->top_x0 + tx, st->top_y0 + ty);
            for (int k = 0; k < 3; k++) p[k] = to_u8(col[k] * shade);
        }
}

bool shogiban_init(struct goban *g, enum render_style style, uint64_t seed, double px_per_mm)
{
    memset(g, 0, sizeof *g);
    struct rng r = rng_stream(seed, RS_TEXTURE, 1);
    g->cols = g->rows = 9;
    g->style = style;
    /* 尺寸: cells 1 sun 1 bu x 1 sun 2 bu (about 33 x 36.4 mm), a little variation between sets */
    g->pitch_x = rng_range(&r, 32.5, 34.0);
    g->pitch_y = g->pitch_x * 36.4 / 33.0;
    double margin = rng_range(&r, 14.0, 20.0);
    g->width = 9 * g->pitch_x + 2 * margin;
    g->length = 9 * g->pitch_y + 2 * margin * 1.05;
    g->line_w = rng_range(&r, 0.6, 0.95);
    g->star_d = rng_range(&r, 2.2, 3.2);
    switch (style) {
    case RENDER_STYLE_KAYA: g->thickness = rng_range(&r, 45, 70); break;
    case RENDER_STYLE_LIGHT_WOOD: g->thickness = rng_range(&r, 18, 35); break;
    case RENDER_STYLE_VINYL: g->thickness = 1.5; break;
    default: g->thickness = rng_range(&r, 12, 20); break;
    }
    g->seam_y = style == RENDER_STYLE_FOLDING ? g->pitch_y * 0.5 : NAN;
    /* komadai at each player's right: sente sits at +y and has +x on the right */
    g->nstands = 2;
    double sw = rng_range(&r, 140, 180), sl = sw * rng_range(&r, 0.95, 1.1);
    double gap = rng_range(&r, 25, 70), back = rng_range(&r, 0, 60);
    double sh = style == RENDER_STYLE_VINYL ? 1.5 : g->thickness * rng_range(&r, 0.7, 1.0);
    for (int k = 0; k < 2; k++) {
        double sgn = k == SHOGI_SENTE ? 1 : -1;
        g->stands[k] = (struct stand){sgn * (g->width / 2 + gap + sw / 2),
                                      sgn * (g->length / 2 - sl / 2 - back),
                                      sw,
                                      sl,
                                      sh,
                                      0,
                                      0};
    }

    if (px_per_mm <= 0) return true; /* geometry only (truth-only renders): no textures */
    g->top_scale = px_per_mm;
    g->top_w = (int)ceil(g->width * px_per_mm);
    g->top_h = (int)ceil(g->length * px_per_mm);
    g->side_scale = px_per_mm;
    g->side_y0 = g->top_h + 4;
    g->side_h = (int)ceil(g->thickness * px_per_mm) + 1;
    g->table_scale = fmin(0.5, px_per_mm);
    g->table_extent = 1500;
    g->table_w = (int)ceil(2 * g->table_extent * g->table_scale);
    g->table_h = g->table_w;
    g->table_y0 = g->side_y0 + g->side_h + 4;
    int stw = (int)ceil(sw * px_per_mm) + 2, sth = (int)ceil(sl * px_per_mm) + 2;
    int sy0 = g->table_y0 + g->table_h + 4;
    for (int k = 0; k < 2; k++) {
        g->stands[k].top_x0 = k * (stw + 4);
        g->stands[k].top_y0 = sy0;
    }
    int side_w = (int)ceil(fmax(g->width, g->length) * px_per_mm) + 2;
    int aw = g->top_w > side_w ? g->top_w : side_w;
    if (g->table_w > aw) aw = g->table_w;
    if (2 * stw + 4 > aw) aw = 2 * stw + 4;
    int ah = sy0 + sth;
    g->atlas = (cv_image){calloc((size_t)aw * ah, 3), aw, ah, aw * 3, 3};
    if (!g->atlas.data) return false;
    struct wood w;
    scene_style_wood(style, &r, &w);
    paint_shogi_top(g, seed, &w, &r);
    scene_paint_side(g, seed, &w);
    scene_paint_table(g, seed, &r);
    struct wood sw_wood;
    scene_style_wood(rng_unit(&r) < 0.5 ? RENDER_STYLE_KAYA : RENDER_STYLE_LIGHT_WOOD, &r,
                     &sw_wood);
    for (int k = 0; k < 2; k++) paint_stand_top(g, &g->stands[k], seed + 17, &sw_wood);
    return true;
}

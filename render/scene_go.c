/* render/scene_go.c — the goban in its own plane: real proportions, lines, star points, and
 * procedural textures (kaya grain, light wood, vinyl print, folding seam) from a seeded PRNG.
 * Everything is baked into one atlas (board top, board side, table) that the camera samples. */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

/* ---- value noise ---------------------------------------------------------------------------- */

static double lattice(uint64_t seed, int64_t x, int64_t y)
{
    uint64_t h = rng_mix(seed ^ rng_mix((uint64_t)x * 0x9E3779B1ull + (uint64_t)y * 0x85EBCA77ull));
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

double scene_noise2(uint64_t seed, double x, double y)
{
    double fx = floor(x), fy = floor(y);
    int64_t ix = (int64_t)fx, iy = (int64_t)fy;
    double tx = x - fx, ty = y - fy;
    tx = tx * tx * (3 - 2 * tx);
    ty = ty * ty * (3 - 2 * ty);
    double a = lattice(seed, ix, iy), b = lattice(seed, ix + 1, iy);
    double c = lattice(seed, ix, iy + 1), d = lattice(seed, ix + 1, iy + 1);
    return (a + (b - a) * tx) + ((c + (d - c) * tx) - (a + (b - a) * tx)) * ty;
}

double scene_fbm(uint64_t seed, double x, double y, int octaves)
{
    double sum = 0, amp = 0.5, norm = 0;
    for (int i = 0; i < octaves; i++) {
        sum += amp * scene_noise2(seed + (uint64_t)i * 131, x, y);
        norm += amp;
        x *= 2.03;
        y *= 2.03;
        amp *= 0.5;
    }
    return sum / norm;
}

/* ---- geometry ------------------------------------------------------------------------------- */

double goban_px(const struct goban *g, int x)
{
    return (x - (g->cols - 1) / 2.0) * g->pitch_x;
}

double goban_py(const struct goban *g, int y)
{
    return (y - (g->rows - 1) / 2.0) * g->pitch_y;
}

const struct board_pose table_pose = {0, 0, 0};

vec3 board_to_world(const struct board_pose *p, double bx, double by, double z)
{
    double c = cos(p->rot), s = sin(p->rot);
    return v3(p->x + c * bx - s * by, p->y + s * bx + c * by, z);
}

void world_to_board(const struct board_pose *p, vec3 w, double *bx, double *by)
{
    double c = cos(p->rot), s = sin(p->rot), dx = w.x - p->x, dy = w.y - p->y;
    *bx = c * dx + s * dy;
    *by = -s * dx + c * dy;
}

/* Star points of the usual sizes; other sizes get none. */
static int star_points(int cols, int rows, int xs[9], int ys[9])
{
    if (cols != rows) return 0;
    int e = cols >= 13 ? 3 : cols >= 9 ? 2 : -1, m = cols / 2, n = 0;
    if (e < 0) return 0;
    int pos[3] = {e, m, cols - 1 - e};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            bool side = (i == 1) != (j == 1);
            if (side && cols < 19) continue; /* 9x9, 13x13: corners and centre only */
            xs[n] = pos[i];
            ys[n] = pos[j];
            n++;
        }
    return n;
}

/* ---- textures ------------------------------------------------------------------------------- */

void scene_wood_color(const struct wood *w, uint64_t seed, double x, double y, double out[3])
{
    /* Grain runs along y (the board's length): stripes in x bent by low-frequency noise. */
    double bend = w->warp * (scene_fbm(seed, x * 0.004, y * 0.0015, 3) - 0.5) * 40.0;
    double u = x + bend + w->ring_bend * 0.0009 * (y - 40) * (y - 40) * 0.05;
    double phase = u / w->period;
    double fine = 0.5 + 0.5 * sin(phase * 6.283185307179586 +
                                  2.0 * scene_fbm(seed + 7, u * 0.05, y * 0.01, 2));
    fine = pow(fine, 3.0);
    double broad = scene_fbm(seed + 3, u * 0.02, y * 0.003, 3);
    double speck = scene_fbm(seed + 11, x * 0.8, y * 0.25, 2);
    double t = clampd(w->contrast * (0.55 * fine + 0.35 * broad + 0.10 * speck), 0, 1);
    for (int k = 0; k < 3; k++) out[k] = w->base[k] + (w->dark[k] - w->base[k]) * t;
}

void scene_style_wood(enum render_style st, struct rng *r, struct wood *w)
{
    double jit = rng_range(r, -1, 1);
    switch (st) {
    case RENDER_STYLE_KAYA:
        *w = (struct wood){{226 + 6 * jit, 180 + 8 * jit, 104 + 6 * jit},
                           {196, 140, 70},
                           rng_range(r, 1.2, 2.2),
                           0.4,
                           0.9,
                           0};
        break;
    case RENDER_STYLE_LIGHT_WOOD:
        *w = (struct wood){{236 + 4 * jit, 204 + 6 * jit, 150 + 8 * jit},
                           {200, 158, 100},
                           rng_range(r, 3.0, 6.0),
                           1.2,
                           1.0,
                           rng_range(r, 0.5, 1.5)};
        break;
    case RENDER_STYLE_FOLDING:
        *w = (struct wood){{230 + 6 * jit, 188 + 8 * jit, 118 + 8 * jit},
                           {205, 152, 84},
                           rng_range(r, 2.0, 4.0),
                           0.8,
                           0.7,
                           rng_range(r, 0, 1)};
        break;
    default: /* vinyl: nearly flat print, faint mottling */
        *w = (struct wood){
            {232 + 6 * jit, 204 + 6 * jit, 140 + 10 * jit}, {222, 190, 124}, 8.0, 0.2, 0.5, 0};
        break;
    }
}

static uint8_t *atlas_px(const struct goban *g, int x, int y)
{
    return g->atlas.data + (size_t)y * g->atlas.stride + (size_t)x * 3;
}

static void paint_top(struct goban *g, uint64_t seed, const struct wood *w, struct rng *r)
{
    int xs[9], ys[9], nstar = star_points(g->cols, g->rows, xs, ys);
    double sc = g->top_scale, gx = goban_px(g, g->cols - 1), gy = goban_py(g, g->rows - 1);
    double ink[3] = {28, 22, 16};
    if (g->style == RENDER_STYLE_VINYL) ink[0] = ink[1] = ink[2] = 18;
    double ink_alpha = g->style == RENDER_STYLE_VINYL ? 0.95 : rng_range(r, 0.75, 0.9);
    double edge_w = g->line_w * (rng_unit(r) < 0.5 ? 1.0 : 1.5);
    double half_px = 0.5 / sc;
    for (int ty = 0; ty < g->top_h; ty++) {
        double by = (ty + 0.5) / sc - g->length / 2;
        for (int tx = 0; tx < g->top_w; tx++) {
            double bx = (tx + 0.5) / sc - g->width / 2, col[3];
            scene_wood_color(w, seed, bx, by, col);
            /* Grid lines: coverage of a 1-texel footprint by each line (anti-aliased). */
            double cover = 0;
            if (by >= -gy - edge_w && by <= gy + edge_w) {
                int ix = (int)lround(bx / g->pitch_x + (g->cols - 1) / 2.0);
                if (ix >= 0 && ix < g->cols) {
                    double lw = (ix == 0 || ix == g->cols - 1) ? edge_w : g->line_w;
                    double d = fabs(bx - goban_px(g, ix));
                    double lim = fabs(by) > gy ? 0 : 1;
                    cover = fmax(cover, lim * clampd((lw / 2 - d) / (2 * half_px) + 0.5, 0, 1));
                }
            }
            if (bx >= -gx - edge_w && bx <= gx + edge_w) {
                int iy = (int)lround(by / g->pitch_y + (g->rows - 1) / 2.0);
                if (iy >= 0 && iy < g->rows) {
                    double lw = (iy == 0 || iy == g->rows - 1) ? edge_w : g->line_w;
                    double d = fabs(by - goban_py(g, iy));
                    double lim = fabs(bx) > gx + lw / 2 ? 0 : 1;
                    cover = fmax(cover, lim * clampd((lw / 2 - d) / (2 * half_px) + 0.5, 0, 1));
                }
            }
            for (int s = 0; s < nstar; s++) {
                double ddx = bx - goban_px(g, xs[s]), ddy = by - goban_py(g, ys[s]);
                double d = sqrt(ddx * ddx + ddy * ddy);
                cover = fmax(cover, clampd((g->star_d / 2 - d) / (2 * half_px) + 0.5, 0, 1));
            }
            if (!isnan(g->seam_y)) {
                double d = fabs(by - g->seam_y);
                double seam = clampd((0.35 - d) / (2 * half_px) + 0.5, 0, 1) * 0.8;
                double shade = by > g->seam_y ? 0.97 : 1.0;
                for (int k = 0; k < 3; k++) col[k] = col[k] * shade * (1 - seam) + 60 * seam;
            }
            /* Ink is a bit uneven, like real lacquer or print. */
            double a =
                cover * ink_alpha * (0.9 + 0.1 * scene_noise2(seed + 99, bx * 0.3, by * 0.3));
            uint8_t *p = atlas_px(g, tx, ty);
            for (int k = 0; k < 3; k++) p[k] = to_u8(col[k] * (1 - a) + ink[k] * a);
        }
    }
}

void scene_paint_side(struct goban *g, uint64_t seed, const struct wood *w)
{
    int sw = g->atlas.width;
    for (int ty = 0; ty < g->side_h; ty++) {
        double z = (ty + 0.5) / g->side_scale;
        for (int tx = 0; tx < sw; tx++) {
            double s = (tx + 0.5) / g->side_scale, col[3];
            scene_wood_color(w, seed + 5, z * 6.0, s, col); /* end grain: rings across the height */
            double shade = g->style == RENDER_STYLE_VINYL ? 0.85 : 0.72;
            uint8_t *p = atlas_px(g, tx, g->side_y0 + ty);
            for (int k = 0; k < 3; k++) p[k] = to_u8(col[k] * shade);
        }
    }
}

void scene_paint_table(struct goban *g, uint64_t seed, struct rng *r)
{
    static const double tables[][3] = {
        {92, 62, 42},    /* dark wood table */
        {140, 104, 72},  /* mid wood */
        {60, 84, 70},    /* green cloth */
        {150, 150, 146}, /* grey laminate */
        {200, 196, 186}, /* white table */
    };
    int pick = rng_int(r, 5);
    const double *base = tables[pick];
    bool woody = pick < 2;
    for (int ty = 0; ty < g->table_h; ty++) {
        double y = (ty + 0.5) / g->table_scale - g->table_extent;
        for (int tx = 0; tx < g->table_w; tx++) {
            double x = (tx + 0.5) / g->table_scale - g->table_extent;
            double n = woody ? 0.75 + 0.35 * scene_fbm(seed + 21, x * 0.01, y * 0.12, 3)
                             : 0.9 + 0.15 * scene_fbm(seed + 23, x * 0.05, y * 0.05, 3);
            uint8_t *p = atlas_px(g, tx, g->table_y0 + ty);
            for (int k = 0; k < 3; k++) p[k] = to_u8(base[k] * n);
        }
    }
}

bool goban_init(struct goban *g, int cols, int rows, enum render_style style, uint64_t seed,
                double px_per_mm)
{
    memset(g, 0, sizeof *g);
    struct rng r = rng_stream(seed, RS_TEXTURE, 0);
    g->cols = cols;
    g->rows = rows;
    g->style = style;
    /* Japanese standard: 22 mm across, 23.7 mm along (the board looks square to a seated player).
     */
    g->pitch_x = rng_range(&r, 21.8, 22.2);
    g->pitch_y = g->pitch_x * 23.7 / 22.0;
    double margin = rng_range(&r, 13.5, 16.0);
    g->width = (cols - 1) * g->pitch_x + 2 * margin;
    g->length = (rows - 1) * g->pitch_y + 2 * margin * 1.05;
    g->line_w = style == RENDER_STYLE_VINYL ? rng_range(&r, 0.7, 0.9) : rng_range(&r, 0.9, 1.2);
    g->star_d = rng_range(&r, 3.6, 4.4);
    switch (style) {
    case RENDER_STYLE_KAYA: g->thickness = rng_range(&r, 30, 60); break;
    case RENDER_STYLE_LIGHT_WOOD: g->thickness = rng_range(&r, 15, 30); break;
    case RENDER_STYLE_VINYL: g->thickness = 1.5; break;
    default: g->thickness = rng_range(&r, 12, 20); break;
    }
    g->seam_y = style == RENDER_STYLE_FOLDING ? (rows % 2 ? g->pitch_y / 2 : 0) : NAN;
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
    int side_w = (int)ceil(fmax(g->width, g->length) * px_per_mm) + 2;
    int aw = g->top_w > side_w ? g->top_w : side_w;
    if (g->table_w > aw) aw = g->table_w;
    int ah = g->table_y0 + g->table_h;
    g->atlas = (cv_image){calloc((size_t)aw * ah, 3), aw, ah, aw * 3, 3};
    if (!g->atlas.data) return false;
    struct wood w;
    scene_style_wood(style, &r, &w);
    paint_top(g, seed, &w, &r);
    scene_paint_side(g, seed, &w);
    scene_paint_table(g, seed, &r);
    return true;
}

void goban_free(struct goban *g)
{
    free(g->atlas.data);
    g->atlas.data = NULL;
}

/* render/scene_sheet.c — a contact sheet of what happens around the board rather than the view
 * of it: the players' shadows, a player leaning in, a hand on the clock (each at one of its scene
 * events, so the sheet shows them), and for Go the counting after the game. */
#include <stdio.h>
#include <stdlib.h>

#include "render/render_internal.h"

static const enum render_scenario people_scenes[3] = {RENDER_SCENE_SHADOWS, RENDER_SCENE_LEANING,
                                                      RENDER_SCENE_CLOCK};

/* Options of tile k: rendered larger and shrunk, style varied, no bumps. */
static void scene_opts(struct render_opts *o, int k, uint64_t seed, int tile_w, int tile_h)
{
    render_opts_default(o);
    o->width = tile_w * 2;
    o->height = tile_h * 2;
    o->seed = seed + (uint64_t)k;
    o->style = (enum render_style)(1 + k % (RENDER_STYLE_COUNT - 1));
    o->bump_rate = 0;
}

bool render_go_scene_sheet(const struct go_record *rec, uint64_t seed, int tile_w, int tile_h,
                           const char *path, char *err, size_t errlen)
{
    int sw = tile_w * SHEET_COLS, sh = tile_h * SHEET_ROWS;
    uint8_t *sheet = calloc((size_t)sw * sh, 3);
    struct render_frame *f = malloc(sizeof *f);
    bool ok = sheet && f;
    if (!ok) snprintf(err, errlen, "out of memory");
    for (int k = 0; ok && k < SHEET_COLS * SHEET_ROWS; k++) {
        struct render_opts o;
        scene_opts(&o, k, seed, tile_w, tile_h);
        /* a column each: shadows, leaning, clock, the counting (from a player's side) */
        int col = k % SHEET_COLS, row = k / SHEET_COLS;
        bool counting = col == 3;
        o.scenario = counting ? RENDER_SCENE_PLAYER : people_scenes[col];
        if (counting) { /* one render, three moments of it */
            o.signals = RENDER_SIGNAL_COUNTING;
            o.seed = seed + 3;
            o.style = (enum render_style)(1 + 3 % (RENDER_STYLE_COUNT - 1));
        }
        struct render_go *r = render_go_open(rec, &o, err, errlen);
        if (!r) {
            ok = false;
            break;
        }
        int fi = counting ? render_go_find_counting_frame(r, row / 2.0)
                          : render_go_find_scene_frame(r, 1 + 2 * row);
        if (fi < 0) fi = render_go_frame_count(r) - 1;
        if (!render_go_frame(r, fi, f, err, errlen)) ok = false;
        if (ok)
            ok = sheet_paste_tile(sheet, sw, k, tile_w, tile_h, f->rgb, f->width, f->height, err,
                                  errlen);
        render_go_close(r);
    }
    if (ok) ok = sheet_write(sheet, sw, sh, path, err, errlen);
    free(f);
    free(sheet);
    return ok;
}

bool render_shogi_scene_sheet(const struct shogi_record *rec, uint64_t seed, int tile_w, int tile_h,
                              const char *path, char *err, size_t errlen)
{
    int sw = tile_w * SHEET_COLS, sh = tile_h * SHEET_ROWS;
    uint8_t *sheet = calloc((size_t)sw * sh, 3);
    struct render_shogi_frame *f = malloc(sizeof *f);
    bool ok = sheet && f;
    if (!ok) snprintf(err, errlen, "out of memory");
    for (int k = 0; ok && k < SHEET_COLS * SHEET_ROWS; k++) {
        struct render_opts o;
        scene_opts(&o, k, seed, tile_w, tile_h);
        o.scenario = people_scenes[k / SHEET_COLS]; /* a row each */
        o.max_moves = 60;
        struct render_shogi *r = render_shogi_open(rec, &o, err, errlen);
        if (!r) {
            ok = false;
            break;
        }
        int fi = render_shogi_find_scene_frame(r, 1 + 2 * (k % SHEET_COLS));
        if (fi < 0) fi = render_shogi_frame_count(r) - 1;
        if (!render_shogi_frame(r, fi, f, err, errlen)) ok = false;
        if (ok)
            ok = sheet_paste_tile(sheet, sw, k, tile_w, tile_h, f->rgb, f->width, f->height, err,
                                  errlen);
        render_shogi_close(r);
    }
    if (ok) ok = sheet_write(sheet, sw, sh, path, err, errlen);
    free(f);
    free(sheet);
    return ok;
}

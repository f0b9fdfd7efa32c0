/* render/contact_sheet.c — twelve frames of one game side by side (styles, views, light, hands
 * or not), so a person can judge at a glance whether the footage looks like a real board. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "render/render_internal.h"

/* Tile K's render options: rendered larger and shrunk, as a thumbnail of a real photo; scenario
 * and style vary with K. */
static void tile_opts(struct render_opts *o, int k, uint64_t seed, int tile_w, int tile_h)
{
    render_opts_default(o);
    o->width = tile_w * 2;
    o->height = tile_h * 2;
    o->seed = seed + (uint64_t)k;
    o->scenario = (enum render_scenario)(1 + k % RENDER_SCENE_CAMERA_COUNT);
    o->style = (enum render_style)(1 + (k + k / 6) % (RENDER_STYLE_COUNT - 1));
    o->bump_rate = 0;
}

bool sheet_paste_tile(uint8_t *sheet, int sw, int k, int tile_w, int tile_h, const uint8_t *rgb,
                      int w, int h, char *err, size_t errlen)
{
    cv_image src = {(uint8_t *)rgb, w, h, w * 3, 3};
    cv_image dst = {
        sheet + ((size_t)(k / SHEET_COLS) * tile_h * sw + (size_t)(k % SHEET_COLS) * tile_w) * 3,
        tile_w, tile_h, sw * 3, 3};
    if (cv_resize(&src, &dst) == CV_OK) return true;
    snprintf(err, errlen, "%s", cv_last_error());
    return false;
}

bool sheet_write(const uint8_t *sheet, int sw, int sh, const char *path, char *err, size_t errlen)
{
    size_t n = strlen(path);
    if (n > 4 && !strcasecmp(path + n - 4, ".png")) /* lossless, when asked for */
        return render_png_write(sheet, sw, sh, path, err, errlen);
    size_t size;
    uint8_t *jpg = render_jpeg_encode(sheet, sw, sh, 90, &size, err, errlen);
    FILE *out = jpg ? fopen(path, "wb") : NULL;
    bool ok = out && fwrite(jpg, 1, size, out) == size;
    if (out && fclose(out) != 0) ok = false;
    if (jpg && !ok) snprintf(err, errlen, "%s: cannot write", path);
    free(jpg);
    return ok;
}

bool render_go_contact_sheet(const struct go_record *rec, uint64_t seed, int tile_w, int tile_h,
                             const char *path, char *err, size_t errlen)
{
    int sw = tile_w * SHEET_COLS, sh = tile_h * SHEET_ROWS;
    uint8_t *sheet = calloc((size_t)sw * sh, 3);
    struct render_frame *f = malloc(sizeof *f);
    bool ok = sheet && f;
    if (!ok) snprintf(err, errlen, "out of memory");
    int moves = 0;
    for (int n = 0; n < rec->nnodes; n++) moves += rec->nodes[n].has_move;
    for (int k = 0; ok && k < SHEET_COLS * SHEET_ROWS; k++) {
        struct render_opts o;
        tile_opts(&o, k, seed, tile_w, tile_h);
        struct render_go *r = render_go_open(rec, &o, err, errlen);
        if (!r) {
            ok = false;
            break;
        }
        /* later frames have more stones; half show a hand */
        int ply = moves > 0 ? 1 + (moves - 1) * (3 + k % 7) / 10 : 0;
        int fi = -1;
        for (int p = ply; p >= 1 && fi < 0; p--) fi = render_go_find_frame(r, p, k % 2 == 0);
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

/* The same for shogi: twelve frames, styles, views and light varied, half with a hand. */
bool render_shogi_contact_sheet(const struct shogi_record *rec, uint64_t seed, int tile_w,
                                int tile_h, const char *path, char *err, size_t errlen)
{
    int sw = tile_w * SHEET_COLS, sh = tile_h * SHEET_ROWS;
    uint8_t *sheet = calloc((size_t)sw * sh, 3);
    struct render_shogi_frame *f = malloc(sizeof *f);
    bool ok = sheet && f;
    if (!ok) snprintf(err, errlen, "out of memory");
    int moves = rec->nmoves;
    for (int k = 0; ok && k < SHEET_COLS * SHEET_ROWS; k++) {
        struct render_opts o;
        tile_opts(&o, k, seed, tile_w, tile_h);
        int ply = moves > 0 ? 1 + (moves - 1) * (2 + k % 8) / 10 : 0;
        o.max_moves = ply + 1;
        struct render_shogi *r = render_shogi_open(rec, &o, err, errlen);
        if (!r) {
            ok = false;
            break;
        }
        int fi = -1;
        for (int p = ply; p >= 1 && fi < 0; p--) fi = render_shogi_find_frame(r, p, k % 2 == 0);
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

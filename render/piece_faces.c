/* render/piece_faces.c — the writing on shogi pieces: kanji from a CJK font (Noto CJK from Debian's
 * fonts-noto-cjk, or IPA fonts) rendered with FreeType into one ink-coverage texture per face.
 * Unpromoted faces carry the two-character names (歩兵, 飛車 …), promoted ones the one-character
 * cursive forms (と 杏 圭 全) or 龍王/龍馬, which the drawing colours red. */
#include <ft2build.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include FT_FREETYPE_H

#include "render/render_internal.h"

/* Face texts by type (index 0: the 王将 of the gote king; SHOGI_KING is 玉将). */
static const char *const face_text[SHOGI_TYPES] = {"王将", "歩兵", "香車", "桂馬", "銀将",
                                                   "角行", "飛車", "金将", "玉将", "と",
                                                   "杏",   "圭",   "全",   "龍馬", "龍王"};

/* Fonts tried in order (face index 0 is the Japanese one in the Noto .ttc collections). */
static const char *const font_paths[] = {
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf",
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-mincho.ttf",
};

static int utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    int c = p[0], n = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    c &= n == 0 ? 0x7F : n == 1 ? 0x1F : n == 2 ? 0x0F : 0x07;
    for (int i = 1; i <= n; i++) c = c << 6 | (p[i] & 0x3F);
    *s += n + 1;
    return c;
}

/* Render one character and fit its ink box into (x0, y0, bw, bh) of the face texture. */
static bool draw_char(FT_Face face, int code, uint8_t *tex, int tw, int th, double x0, double y0,
                      double bw, double bh)
{
    if (FT_Load_Char(face, (FT_ULong)code, FT_LOAD_RENDER) != 0) return false;
    const FT_Bitmap *bm = &face->glyph->bitmap;
    if (bm->rows == 0 || bm->width == 0) return false;
    int gw = (int)bm->width, gh = (int)bm->rows;
    /* keep the glyph's shape but allow the tall-narrow squeeze of piece calligraphy */
    double sx = bw / gw, sy = bh / gh;
    if (sx > sy * 1.25) sx = sy * 1.25;
    if (sy > sx * 1.6) sy = sx * 1.6;
    double ox = x0 + (bw - gw * sx) / 2, oy = y0 + (bh - gh * sy) / 2;
    for (int y = (int)floor(oy); y < (int)ceil(oy + gh * sy); y++)
        for (int x = (int)floor(ox); x < (int)ceil(ox + gw * sx); x++) {
            if (x < 0 || y < 0 || x >= tw || y >= th) continue;
            /* bilinear sample of the glyph at the texel centre */
            double gx = (x + 0.5 - ox) / sx - 0.5, gy = (y + 0.5 - oy) / sy - 0.5;
            int ix = (int)floor(gx), iy = (int)floor(gy);
            double fx = gx - ix, fy = gy - iy, v = 0;
            for (int k = 0; k < 4; k++) {
                int xx = ix + (k & 1), yy = iy + (k >> 1);
                if (xx < 0 || yy < 0 || xx >= gw || yy >= gh) continue;
                double wgt = (k & 1 ? fx : 1 - fx) * (k >> 1 ? fy : 1 - fy);
                v += wgt * bm->buffer[(size_t)yy * (size_t)abs(bm->pitch) + (size_t)xx];
            }
            uint8_t *t = &tex[(size_t)y * tw + x];
            if (v > *t) *t = (uint8_t)fmin(255, v);
        }
    return true;
}

bool piece_faces_init(struct piece_faces *pf, int font_choice, char *err, size_t errlen)
{
    memset(pf, 0, sizeof *pf);
    FT_Library lib;
    if (FT_Init_FreeType(&lib) != 0) {
        snprintf(err, errlen, "FreeType cannot start");
        return false;
    }
    FT_Face face = NULL;
    const char *env = getenv("KIFUCAM_CJK_FONT");
    if (env && *env && FT_New_Face(lib, env, 0, &face) != 0) face = NULL;
    int n = (int)(sizeof font_paths / sizeof font_paths[0]);
    /* font_choice picks the first or the second available font (serif or sans) */
    for (int pass = 0; pass < 2 && !face; pass++)
        for (int i = 0, seen = 0; i < n && !face; i++) {
            FT_Face f;
            if (FT_New_Face(lib, font_paths[i], 0, &f) != 0) continue;
            if (pass == 0 && seen++ != (font_choice & 1)) {
                FT_Done_Face(f);
                continue;
            }
            face = f;
            snprintf(pf->font, sizeof pf->font, "%s", font_paths[i]);
        }
    if (!face) {
        snprintf(err, errlen,
                 "no CJK font for the piece kanji (install fonts-noto-cjk, or set "
                 "KIFUCAM_CJK_FONT)");
        FT_Done_FreeType(lib);
        return false;
    }
    if (env && *env && !pf->font[0]) snprintf(pf->font, sizeof pf->font, "%s", env);
    pf->tw = PIECE_TEX_W;
    pf->th = PIECE_TEX_H;
    FT_Set_Pixel_Sizes(face, 0, 96);
    bool ok = true;
    for (int t = 0; t < SHOGI_TYPES && ok; t++) {
        uint8_t *tex = calloc((size_t)pf->tw * pf->th, 1);
        if (!tex) {
            ok = false;
            break;
        }
        pf->ink[t] = tex;
        const char *s = face_text[t];
        int codes[2], nc = 0;
        while (*s && nc < 2) codes[nc++] = utf8_next(&s);
        /* texture rows run from the apex (row 0) to the base; the writing sits below the
         * shoulders, centred, two characters stacked */
        double w = pf->tw, h = pf->th;
        if (nc == 1) {
            ok = draw_char(face, codes[0], tex, pf->tw, pf->th, w * 0.2, h * 0.3, w * 0.6, h * 0.5);
        } else {
            ok = draw_char(face, codes[0], tex, pf->tw, pf->th, w * 0.24, h * 0.2, w * 0.52,
                           h * 0.36) &&
                 draw_char(face, codes[1], tex, pf->tw, pf->th, w * 0.24, h * 0.57, w * 0.52,
                           h * 0.34);
        }
        if (!ok) snprintf(err, errlen, "%s has no glyph for %s", pf->font, face_text[t]);
    }
    FT_Done_Face(face);
    FT_Done_FreeType(lib);
    if (!ok) piece_faces_free(pf);
    return ok;
}

void piece_faces_free(struct piece_faces *pf)
{
    for (int t = 0; t < SHOGI_TYPES; t++) {
        free(pf->ink[t]);
        pf->ink[t] = NULL;
    }
}

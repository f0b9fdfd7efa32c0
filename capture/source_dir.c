/* capture/source_dir.c — `dir:PATH`: JPEG and PNG images in byte-wise name order, one frame each.
 * Timestamps at opt.fps (30 fps when 0) from the image's place in the folder, or from the files'
 * modification times (opt.use_mtime). seq is the image's place (looping continues counting), so
 * an unreadable image leaves a gap in seq and its error is returned once before moving on. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "capture/convert.h"
#include "capture/jpeg_decode.h"
#include "capture/source_impl.h"

#if KIFUCAM_HAVE_PNG
#include <png.h>
#endif

struct dir_src {
    char *path;
    char **names;
    size_t n, idx;  /* idx: the next image */
    uint64_t loops; /* completed passes over the folder */
    double fps;
    struct jpeg_decoder *jd;
    struct pixbuf file, tmp, pix;
    struct pacer pacer;
    bool pending; /* pend decoded, waiting for its time (real-time pacing) */
    struct frame pend;
    int64_t mtime0, loop_offset, last_t;
};

static bool is_image_name(const char *name)
{
    static const char *const ext[] = {".jpg", ".jpeg", ".png"};
    size_t ln = strlen(name);
    if (name[0] == '.') return false;
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t le = strlen(ext[i]);
        if (ln > le && strcasecmp(name + ln - le, ext[i]) == 0) return true;
    }
    return false;
}

static bool is_png_name(const char *name)
{
    size_t ln = strlen(name);
    return ln > 4 && strcasecmp(name + ln - 4, ".png") == 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void dir_close(void *impl)
{
    struct dir_src *d = impl;
    if (!d) return;
    for (size_t i = 0; i < d->n; i++) free(d->names[i]);
    free(d->names);
    free(d->path);
    jpeg_decoder_free(d->jd);
    pixbuf_free(&d->file);
    pixbuf_free(&d->tmp);
    pixbuf_free(&d->pix);
    free(d);
}

static int path_of(const struct dir_src *d, const char *name, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s/%s", d->path, name);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int64_t mtime_ns(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

static int read_whole(const char *path, struct pixbuf *b, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return -1;
    }
    size_t n = 0;
    for (;;) {
        if (!pixbuf_reserve(b, n + 65536)) {
            fclose(f);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        size_t r = fread(b->data + n, 1, b->cap - n, f);
        n += r;
        if (r == 0) break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "read error");
        return -1;
    }
    *len = n;
    return 0;
}

/* PNG through libpng's simplified API. Colour to gray is done here with the JFIF weights
 * (libpng's own conversion is gamma-linear and would not match a JPEG of the same scene). */
#if KIFUCAM_HAVE_PNG
static int decode_png(struct dir_src *d, const uint8_t *buf, size_t len, enum pixfmt fmt,
                      int want_w, int want_h, struct frame *out, char *err, size_t errlen)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&img, buf, len)) {
        snprintf(err, errlen, "not a readable PNG (%s)", img.message);
        return -1;
    }
    int w = (int)img.width, h = (int)img.height;
    if (w <= 0 || h <= 0 || w > 16384 || h > 16384) {
        png_image_free(&img);
        snprintf(err, errlen, "PNG size %dx%d out of range", w, h);
        return -1;
    }
    bool colour = img.format & PNG_FORMAT_FLAG_COLOR;
    int read_bpp = fmt == PIXFMT_BGR24 || colour ? 3 : 1;
    img.format = fmt == PIXFMT_BGR24 ? PNG_FORMAT_BGR : colour ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
    int bpp = pixfmt_bytes_per_pixel(fmt);
    int shift = cvt_shrink_shift(w, h, want_w, want_h);
    int ow = w >> shift, oh = h >> shift;
    if (!pixbuf_reserve(&d->tmp, (size_t)w * (size_t)h * (size_t)read_bpp) ||
        !pixbuf_reserve(&d->pix, (size_t)ow * (size_t)oh * (size_t)bpp)) {
        png_image_free(&img);
        snprintf(err, errlen, "out of memory for a %dx%d image", w, h);
        return -1;
    }
    if (!png_image_finish_read(&img, NULL, d->tmp.data, w * read_bpp, NULL)) {
        snprintf(err, errlen, "corrupt PNG (%s)", img.message);
        png_image_free(&img);
        return -1;
    }
    png_image_free(&img);
    const uint8_t *src = d->tmp.data;
    int src_stride = w * read_bpp;
    if (fmt == PIXFMT_GRAY8 && read_bpp == 3) {
        cvt_rgb_to_gray(d->tmp.data, src_stride, w, h, d->tmp.data, w); /* in place: row-safe */
        src_stride = w;
    }
    if (shift)
        cvt_shrink(src, src_stride, w, h, bpp, shift, d->pix.data, ow * bpp);
    else
        cvt_copy_rows(src, src_stride, w * bpp, h, d->pix.data, w * bpp);
    out->data = d->pix.data;
    out->width = ow;
    out->height = oh;
    out->stride = ow * bpp;
    out->fmt = fmt;
    return 0;
}
#else
static int decode_png(struct dir_src *d, const uint8_t *buf, size_t len, enum pixfmt fmt,
                      int want_w, int want_h, struct frame *out, char *err, size_t errlen)
{
    (void)d, (void)buf, (void)len, (void)fmt, (void)want_w, (void)want_h, (void)out;
    snprintf(err, errlen, "PNG support not built in (install libpng-dev and reconfigure)");
    return -1;
}
#endif

static int64_t frame_time(struct dir_src *d, const char *path, uint64_t seq, bool use_mtime)
{
    int64_t period = (int64_t)llround(1e9 / d->fps);
    if (!use_mtime) return (int64_t)llround((double)seq * 1e9 / d->fps);
    int64_t m = mtime_ns(path);
    int64_t t = d->loop_offset + (m >= 0 ? m - d->mtime0 : d->last_t + period - d->loop_offset);
    if (seq > 0 && t <= d->last_t) t = d->last_t + 1; /* keep time moving forward */
    return t;
}

static enum source_status dir_next(struct frame_source *src, struct frame *out, int timeout_ms)
{
    struct dir_src *d = src->impl;
    if (!d->pending) {
        if (d->idx == d->n) {
            if (!src->opt.loop) return SOURCE_END;
            d->idx = 0;
            d->loops++;
            d->loop_offset = d->last_t + (int64_t)llround(1e9 / d->fps);
        }
        const char *name = d->names[d->idx];
        uint64_t seq = d->loops * d->n + d->idx;
        d->idx++;
        char path[4096], msg[256];
        if (path_of(d, name, path, sizeof path) != 0)
            return source_fail(src, "dir: %s/%s: path too long", d->path, name);
        size_t len = 0;
        if (read_whole(path, &d->file, &len, msg, sizeof msg) != 0)
            return source_fail(src, "dir: %s: %s", path, msg);
        struct frame f = {0};
        int rc = is_png_name(name)
                     ? decode_png(d, d->file.data, len, src->opt.fmt, src->opt.width,
                                  src->opt.height, &f, msg, sizeof msg)
                     : jpeg_decode(d->jd, d->file.data, len, src->opt.fmt, src->opt.width,
                                   src->opt.height, true, &f, NULL, msg, sizeof msg);
        if (rc != 0) return source_fail(src, "dir: %s: %s", path, msg);
        f.seq = seq;
        f.t_ns = frame_time(d, path, seq, src->opt.use_mtime);
        d->last_t = f.t_ns;
        d->pend = f;
        d->pending = true;
    }
    if (src->opt.realtime && pacer_wait(&d->pacer, d->pend.t_ns, timeout_ms) == SOURCE_TIMEOUT)
        return SOURCE_TIMEOUT;
    d->pending = false;
    *out = d->pend;
    return SOURCE_FRAME;
}

static const struct source_ops dir_ops = {dir_next, dir_close};

int source_dir_open(struct frame_source *src, const char *path, char *err, size_t errlen)
{
    DIR *dh = opendir(path);
    if (!dh) {
        snprintf(err, errlen, "dir: %s: cannot open folder: %s", path, strerror(errno));
        return -1;
    }
    struct dir_src *d = calloc(1, sizeof *d);
    size_t cap = 0;
    if (!d || !(d->path = strdup(path))) goto oom;
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (!is_image_name(e->d_name)) continue;
        char p[4096];
        struct stat st;
        if (path_of(d, e->d_name, p, sizeof p) != 0 || stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (d->n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(d->names, cap * sizeof *nn);
            if (!nn) goto oom;
            d->names = nn;
        }
        if (!(d->names[d->n] = strdup(e->d_name))) goto oom;
        d->n++;
    }
    closedir(dh);
    dh = NULL;
    if (d->n == 0) {
        snprintf(err, errlen, "dir: %s: no images (.jpg, .jpeg, .png) in this folder", path);
        dir_close(d);
        return -1;
    }
    qsort(d->names, d->n, sizeof *d->names, cmp_names);
    if (!(d->jd = jpeg_decoder_new(err, errlen))) {
        dir_close(d);
        return -1;
    }
    d->fps = src->opt.fps > 0 ? src->opt.fps : 30.0;
    d->pacer.speed = src->opt.speed;
    char p0[4096];
    d->mtime0 = path_of(d, d->names[0], p0, sizeof p0) == 0 ? mtime_ns(p0) : 0;
    if (d->mtime0 < 0) d->mtime0 = 0;
    src->ops = &dir_ops;
    src->impl = d;
    return 0;
oom:
    if (dh) closedir(dh);
    dir_close(d);
    snprintf(err, errlen, "dir: %s: out of memory", path);
    return -1;
}

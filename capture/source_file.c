/* capture/source_file.c — `file:PATH`: video files. YUV4MPEG2 (.y4m: a text header, then
 * "FRAME\n" + raw planes per frame; written by ffmpeg, x264, GStreamer) is read natively; every
 * other file (MP4, MKV, ...) goes to source_video.c (FFmpeg's libraries).
 * Gray frames are the Y plane; BGR uses BT.601 limited range. Timestamps follow the header's frame
 * rate (F), or opt.fps when given. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/convert.h"
#include "capture/source_impl.h"

struct y4m_src {
    char *path;
    FILE *f;
    long data_off; /* first FRAME marker */
    int w, h, cx, cy;
    bool mono;
    size_t y_size, c_size, frame_size;
    double fps;
    uint64_t next_seq;
    bool ended;
    struct pixbuf raw, tmp, pix;
    struct pacer pacer;
    bool pending;
    struct frame pend;
};

static void y4m_close(void *impl)
{
    struct y4m_src *y = impl;
    if (!y) return;
    if (y->f) fclose(y->f);
    free(y->path);
    pixbuf_free(&y->raw);
    pixbuf_free(&y->tmp);
    pixbuf_free(&y->pix);
    free(y);
}

/* Read one '\n'-terminated line (without it) of at most cap-1 bytes. -1 at EOF before any
 * byte, -2 when too long or cut off by EOF. */
static int read_line(FILE *f, char *buf, size_t cap)
{
    size_t n = 0;
    int c;
    while ((c = fgetc(f)) != EOF && c != '\n') {
        if (n + 1 >= cap) return -2;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    if (c == EOF) return n == 0 ? -1 : -2;
    return (int)n;
}

static int parse_colorspace(struct y4m_src *y, const char *cs)
{
    if (strcmp(cs, "420") == 0 || strcmp(cs, "420jpeg") == 0 || strcmp(cs, "420paldv") == 0 ||
        strcmp(cs, "420mpeg2") == 0) {
        y->cx = y->cy = 1; /* chroma siting differs, plane sizes do not */
    } else if (strcmp(cs, "422") == 0) {
        y->cx = 1;
        y->cy = 0;
    } else if (strcmp(cs, "444") == 0) {
        y->cx = y->cy = 0;
    } else if (strcmp(cs, "mono") == 0) {
        y->mono = true;
    } else {
        return -1;
    }
    return 0;
}

static int parse_header(struct y4m_src *y, char *line, char *err, size_t errlen)
{
    if (strncmp(line, "YUV4MPEG2", 9) != 0 || (line[9] != ' ' && line[9] != '\0')) {
        snprintf(err, errlen,
                 "file: %s: not a YUV4MPEG2 (.y4m) video; this build reads Y4M natively "
                 "(convert with: ffmpeg -i IN -pix_fmt yuv420p OUT.y4m)",
                 y->path);
        return -1;
    }
    y->cx = y->cy = 1; /* the format's default is 4:2:0 */
    int fn = 0, fd = 0;
    for (char *save = NULL, *tok = strtok_r(line + 9, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        char *end = NULL;
        switch (tok[0]) {
        case 'W': y->w = (int)strtol(tok + 1, &end, 10); break;
        case 'H': y->h = (int)strtol(tok + 1, &end, 10); break;
        case 'F':
            if (sscanf(tok + 1, "%d:%d", &fn, &fd) != 2) fn = fd = 0;
            break;
        case 'C':
            if (parse_colorspace(y, tok + 1) != 0) {
                snprintf(err, errlen,
                         "file: %s: Y4M colour space '%s' not supported (8-bit 420, 422, 444 "
                         "and mono are)",
                         y->path, tok + 1);
                return -1;
            }
            break;
        default: break; /* I (interlacing), A (aspect), X (comments) do not matter here */
        }
        if (end && *end) {
            snprintf(err, errlen, "file: %s: bad Y4M header field '%s'", y->path, tok);
            return -1;
        }
    }
    if (y->w <= 0 || y->h <= 0 || y->w > 16384 || y->h > 16384) {
        snprintf(err, errlen, "file: %s: Y4M size %dx%d missing or out of range", y->path, y->w,
                 y->h);
        return -1;
    }
    y->fps = fn > 0 && fd > 0 ? (double)fn / fd : 30.0;
    return 0;
}

/* Read the next frame's raw planes into y->raw. */
static enum source_status read_frame(struct frame_source *src, struct y4m_src *y)
{
    char line[256];
    long off = ftell(y->f);
    int n = read_line(y->f, line, sizeof line);
    if (n == -1 && src->opt.loop && y->next_seq > 0) {
        if (fseek(y->f, y->data_off, SEEK_SET) != 0) {
            y->ended = true;
            return source_fail(src, "file: %s: cannot rewind: %s", y->path, strerror(errno));
        }
        off = y->data_off;
        n = read_line(y->f, line, sizeof line);
    }
    if (n == -1) {
        y->ended = true;
        return SOURCE_END;
    }
    if (n < 0 || strncmp(line, "FRAME", 5) != 0 || (line[5] != ' ' && line[5] != '\0')) {
        y->ended = true; /* no way to find the next frame reliably */
        return source_fail(src, "file: %s: frame %llu: no FRAME marker at byte %ld", y->path,
                           (unsigned long long)y->next_seq, off);
    }
    size_t got = fread(y->raw.data, 1, y->frame_size, y->f);
    if (got != y->frame_size) {
        y->ended = true;
        return source_fail(src, "file: %s: frame %llu truncated (%zu of %zu bytes)", y->path,
                           (unsigned long long)y->next_seq, got, y->frame_size);
    }
    return SOURCE_FRAME;
}

static void convert_frame(struct frame_source *src, struct y4m_src *y, struct frame *f)
{
    enum pixfmt fmt = src->opt.fmt;
    int bpp = pixfmt_bytes_per_pixel(fmt);
    int shift = cvt_shrink_shift(y->w, y->h, src->opt.width, src->opt.height);
    int ow = y->w >> shift, oh = y->h >> shift;
    const uint8_t *plane_y = y->raw.data;
    const uint8_t *full = plane_y; /* full-size picture in the wanted format */
    int full_stride = y->w;
    if (fmt == PIXFMT_BGR24) {
        if (y->mono) {
            cvt_gray_to_bgr(plane_y, y->w, y->w, y->h, y->tmp.data, 3 * y->w);
        } else {
            int cw = (y->w + (1 << y->cx) - 1) >> y->cx;
            const uint8_t *u = plane_y + y->y_size, *v = u + y->c_size;
            cvt_yuv_planar_to_bgr(plane_y, y->w, u, v, cw, y->cx, y->cy, y->w, y->h, y->tmp.data,
                                  3 * y->w);
        }
        full = y->tmp.data;
        full_stride = 3 * y->w;
    }
    if (shift)
        cvt_shrink(full, full_stride, y->w, y->h, bpp, shift, y->pix.data, ow * bpp);
    else
        cvt_copy_rows(full, full_stride, ow * bpp, oh, y->pix.data, ow * bpp);
    f->data = y->pix.data;
    f->width = ow;
    f->height = oh;
    f->stride = ow * bpp;
    f->fmt = fmt;
}

static enum source_status y4m_next(struct frame_source *src, struct frame *out, int timeout_ms)
{
    struct y4m_src *y = src->impl;
    if (!y->pending) {
        if (y->ended) return SOURCE_END;
        enum source_status st = read_frame(src, y);
        if (st != SOURCE_FRAME) return st;
        struct frame f = {0};
        convert_frame(src, y, &f);
        f.seq = y->next_seq++;
        f.t_ns = (int64_t)llround((double)f.seq * 1e9 / y->fps);
        y->pend = f;
        y->pending = true;
    }
    if (src->opt.realtime && pacer_wait(&y->pacer, y->pend.t_ns, timeout_ms) == SOURCE_TIMEOUT)
        return SOURCE_TIMEOUT;
    y->pending = false;
    *out = y->pend;
    return SOURCE_FRAME;
}

static const struct source_ops y4m_ops = {y4m_next, y4m_close};

int source_file_open(struct frame_source *src, const char *path, char *err, size_t errlen)
{
    struct y4m_src *y = calloc(1, sizeof *y);
    if (!y || !(y->path = strdup(path))) {
        free(y);
        snprintf(err, errlen, "file: %s: out of memory", path);
        return -1;
    }
    if (!(y->f = fopen(path, "rb"))) {
        snprintf(err, errlen, "file: %s: cannot open: %s", path, strerror(errno));
        y4m_close(y);
        return -1;
    }
    char magic[10] = "";
    size_t got = fread(magic, 1, 9, y->f);
    if (got == 9 && memcmp(magic, "YUV4MPEG2", 9) != 0) {
        y4m_close(y);
        return source_video_open(src, path, err, errlen);
    }
    rewind(y->f);
    char line[1024];
    int n = read_line(y->f, line, sizeof line);
    if (n < 0) {
        snprintf(err, errlen, "file: %s: %s", path,
                 n == -1 ? "empty file" : "not a YUV4MPEG2 (.y4m) video (no header line)");
        y4m_close(y);
        return -1;
    }
    if (parse_header(y, line, err, errlen) != 0) {
        y4m_close(y);
        return -1;
    }
    y->data_off = ftell(y->f);
    y->y_size = (size_t)y->w * (size_t)y->h;
    if (!y->mono) {
        size_t cw = (size_t)((y->w + (1 << y->cx) - 1) >> y->cx);
        size_t ch = (size_t)((y->h + (1 << y->cy) - 1) >> y->cy);
        y->c_size = cw * ch;
    }
    y->frame_size = y->y_size + 2 * y->c_size;
    if (src->opt.fps > 0) y->fps = src->opt.fps;
    y->pacer.speed = src->opt.speed;
    if (!pixbuf_reserve(&y->raw, y->frame_size) || !pixbuf_reserve(&y->tmp, 3 * y->y_size) ||
        !pixbuf_reserve(&y->pix, 3 * y->y_size)) {
        snprintf(err, errlen, "file: %s: out of memory for %dx%d frames", path, y->w, y->h);
        y4m_close(y);
        return -1;
    }
    src->ops = &y4m_ops;
    src->impl = y;
    return 0;
}

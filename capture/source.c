/* capture/source.c — source_open() dispatches on the spec's prefix; the rest of the interface
 * forwards to the backend. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/source_impl.h"

int pixfmt_bytes_per_pixel(enum pixfmt fmt)
{
    return fmt == PIXFMT_BGR24 ? 3 : 1;
}

const char *pixfmt_name(enum pixfmt fmt)
{
    return fmt == PIXFMT_BGR24 ? "bgr" : "gray";
}

const char *source_status_name(enum source_status st)
{
    switch (st) {
    case SOURCE_FRAME: return "frame";
    case SOURCE_TIMEOUT: return "timeout";
    case SOURCE_END: return "end";
    case SOURCE_ERROR: return "error";
    }
    return "?";
}

void source_options_default(struct source_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->fmt = PIXFMT_GRAY8;
}

enum source_status source_fail(struct frame_source *src, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(src->err, sizeof src->err, fmt, ap);
    va_end(ap);
    return SOURCE_ERROR;
}

static const struct {
    const char *prefix;
    int (*open)(struct frame_source *src, const char *arg, char *err, size_t errlen);
} backends[] = {
    {"dir:", source_dir_open},       {"file:", source_file_open},
    {"v4l2:", source_v4l2_open},     {"libcamera:", source_libcamera_open},
    {"faulty:", source_faulty_open},
};

struct frame_source *source_open(const char *spec, const struct source_options *opt, char *err,
                                 size_t errlen)
{
    if (errlen) err[0] = '\0';
    if (!spec || !*spec) {
        snprintf(err, errlen,
                 "empty source spec (use libcamera[:N], v4l2:/dev/videoN, "
                 "file:PATH or dir:PATH)");
        return NULL;
    }
    if (strlen(spec) >= sizeof((struct frame_source *)0)->spec) {
        snprintf(err, errlen, "source spec too long (%zu bytes)", strlen(spec));
        return NULL;
    }
    struct source_options o;
    if (opt) {
        o = *opt;
    } else {
        source_options_default(&o);
    }
    if (o.width < 0 || o.height < 0 || !(o.fps >= 0 && o.fps <= 1000) ||
        (o.fmt != PIXFMT_GRAY8 && o.fmt != PIXFMT_BGR24)) {
        snprintf(err, errlen, "%s: bad options (size %dx%d, fps %g, format %d)", spec, o.width,
                 o.height, o.fps, (int)o.fmt);
        return NULL;
    }
    /* "libcamera" alone means camera 0. */
    const char *s = strcmp(spec, "libcamera") == 0 ? "libcamera:" : spec;
    for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++) {
        size_t n = strlen(backends[i].prefix);
        if (strncmp(s, backends[i].prefix, n) != 0) continue;
        struct frame_source *src = calloc(1, sizeof *src);
        if (!src) {
            snprintf(err, errlen, "%s: out of memory", spec);
            return NULL;
        }
        src->opt = o;
        snprintf(src->spec, sizeof src->spec, "%s", spec);
        if (backends[i].open(src, s + n, err, errlen) != 0) {
            free(src);
            return NULL;
        }
        return src;
    }
    snprintf(err, errlen,
             "%s: unknown source (use libcamera[:N], v4l2:/dev/videoN, file:PATH or dir:PATH)",
             spec);
    return NULL;
}

enum source_status source_next(struct frame_source *src, struct frame *out, int timeout_ms)
{
    if (!src) return SOURCE_ERROR;
    memset(out, 0, sizeof *out);
    enum source_status st = src->ops->next(src, out, timeout_ms);
    if (st != SOURCE_ERROR) src->err[0] = '\0';
    return st;
}

const char *source_error(const struct frame_source *src)
{
    return src ? src->err : "no source";
}

const char *source_spec(const struct frame_source *src)
{
    return src ? src->spec : "";
}

void source_close(struct frame_source *src)
{
    if (!src) return;
    if (src->ops && src->ops->close) src->ops->close(src->impl);
    free(src);
}

bool pixbuf_reserve(struct pixbuf *b, size_t n)
{
    if (n <= b->cap) return true;
    uint8_t *p = realloc(b->data, n);
    if (!p) return false;
    b->data = p;
    b->cap = n;
    return true;
}

void pixbuf_free(struct pixbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->cap = 0;
}

int64_t capture_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ns(int64_t ns)
{
    struct timespec ts = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

enum source_status pacer_wait(struct pacer *p, int64_t t_ns, int timeout_ms)
{
    int64_t now = capture_now_ns();
    if (!p->started) {
        p->started = true;
        p->mono0 = now;
        p->t0 = t_ns;
        return SOURCE_FRAME;
    }
    double speed = p->speed > 0 ? p->speed : 1.0;
    int64_t wait = p->mono0 + (int64_t)((double)(t_ns - p->t0) / speed) - now;
    if (wait <= 0) return SOURCE_FRAME;
    if (timeout_ms >= 0 && wait > (int64_t)timeout_ms * 1000000) {
        sleep_ns((int64_t)timeout_ms * 1000000);
        return SOURCE_TIMEOUT;
    }
    sleep_ns(wait);
    return SOURCE_FRAME;
}

/* capture/source_libcamera.c — `libcamera[:N]`: the frame_source over the C++ shim
 * (libcamera_shim.h). Waits on the shim's eventfd, hands on the Y plane as GRAY8 without copying
 * (the buffer goes back to the camera at the next call) or converts YUV420 to BGR24. "?rotate=180"
 * after the number turns a camera mounted upside down. Without libcamera at build time, opening
 * says so. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/source_impl.h"

/* "", "N", "N?rotate=180" or "N?rotate=0" (N defaults to 0). */
static int parse_spec(const char *arg, long *index, int *rotate180, char *err, size_t errlen)
{
    const char *p = arg;
    *index = 0;
    *rotate180 = 0;
    if (*p >= '0' && *p <= '9') {
        char *end = NULL;
        *index = strtol(p, &end, 10);
        p = end;
    }
    if (strcmp(p, "?rotate=180") == 0) {
        *rotate180 = 1;
    } else if ((*p && strcmp(p, "?rotate=0") != 0) || *index > 64) {
        snprintf(err, errlen,
                 "libcamera:%s: bad camera (use libcamera, libcamera:N or libcamera:N?rotate=180)",
                 arg);
        return -1;
    }
    return 0;
}

#if KIFUCAM_HAVE_LIBCAMERA

#include "capture/convert.h"
#include "capture/libcamera_shim.h"

struct lcam_src {
    struct lcam *cam;
    bool held; /* a frame handed out last time still holds a camera buffer */
    unsigned cookie;
    struct pixbuf pix;
};

static void lcam_src_close(void *impl)
{
    struct lcam_src *s = impl;
    if (!s) return;
    lcam_close(s->cam);
    pixbuf_free(&s->pix);
    free(s);
}

static enum source_status deliver(struct frame_source *src, struct lcam_src *s,
                                  const struct lcam_frame *f, struct frame *out)
{
    out->seq = f->seq;
    out->t_ns = f->t_ns;
    out->width = f->width;
    out->height = f->height;
    if (src->opt.fmt == PIXFMT_GRAY8) {
        out->fmt = PIXFMT_GRAY8;
        out->stride = f->stride;
        out->data = (uint8_t *)f->y; /* read-only use by contract; ours until the next call */
        s->held = true;
        s->cookie = f->cookie;
        return SOURCE_FRAME;
    }
    char msg[256];
    if (!pixbuf_reserve(&s->pix, (size_t)f->width * (size_t)f->height * 3)) {
        lcam_release(s->cam, f->cookie, msg, sizeof msg);
        return source_fail(src, "libcamera: out of memory");
    }
    cvt_yuv_planar_to_bgr(f->y, f->stride, f->u, f->v, f->uv_stride, 1, 1, f->width, f->height,
                          s->pix.data, 3 * f->width);
    out->fmt = PIXFMT_BGR24;
    out->stride = 3 * f->width;
    out->data = s->pix.data;
    if (lcam_release(s->cam, f->cookie, msg, sizeof msg) != 0) return source_fail(src, "%s", msg);
    return SOURCE_FRAME;
}

static enum source_status lcam_src_next(struct frame_source *src, struct frame *out, int timeout_ms)
{
    struct lcam_src *s = src->impl;
    char msg[256];
    if (s->held) {
        s->held = false;
        if (lcam_release(s->cam, s->cookie, msg, sizeof msg) != 0)
            return source_fail(src, "%s", msg);
    }
    int64_t deadline = timeout_ms < 0 ? -1 : capture_now_ns() + (int64_t)timeout_ms * 1000000;
    for (;;) {
        struct lcam_frame f;
        int rc = lcam_take(s->cam, &f, msg, sizeof msg);
        if (rc < 0) return source_fail(src, "%s", msg);
        if (rc == 1) return deliver(src, s, &f, out);
        int wait = -1;
        if (deadline >= 0) {
            int64_t left = deadline - capture_now_ns();
            if (left <= 0) return SOURCE_TIMEOUT;
            wait = (int)((left + 999999) / 1000000);
        }
        struct pollfd pfd = {.fd = lcam_event_fd(s->cam), .events = POLLIN};
        int pr = poll(&pfd, 1, wait);
        if (pr < 0 && errno != EINTR)
            return source_fail(src, "libcamera: poll: %s", strerror(errno));
        if (pr > 0) {
            uint64_t count;
            if (read(pfd.fd, &count, sizeof count) < 0 && errno != EAGAIN)
                return source_fail(src, "libcamera: eventfd: %s", strerror(errno));
        }
    }
}

static const struct source_ops lcam_src_ops = {lcam_src_next, lcam_src_close};

int source_libcamera_open(struct frame_source *src, const char *arg, char *err, size_t errlen)
{
    long index = 0;
    int rotate180 = 0;
    if (parse_spec(arg, &index, &rotate180, err, errlen) != 0) return -1;
    struct lcam_src *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "libcamera: out of memory");
        return -1;
    }
    s->cam = lcam_open((int)index, src->opt.width, src->opt.height, src->opt.fps, rotate180, err,
                       errlen);
    if (!s->cam) {
        free(s);
        return -1;
    }
    src->ops = &lcam_src_ops;
    src->impl = s;
    return 0;
}

#else

int source_libcamera_open(struct frame_source *src, const char *arg, char *err, size_t errlen)
{
    (void)src;
    long index;
    int rotate180;
    if (parse_spec(arg, &index, &rotate180, err, errlen) != 0) return -1;
    snprintf(err, errlen,
             "libcamera: not built into this kifucam (install libcamera-dev and "
             "reconfigure the build)");
    return -1;
}

#endif

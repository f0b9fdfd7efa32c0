/* capture/source_v4l2.c — `v4l2:/dev/videoN`: USB webcams through the kernel's V4L2 API (kernel
 * headers only). MJPEG is preferred (decoded with TurboJPEG: full frame rates at 720p over USB 2),
 * YUYV is the fallback. Memory-mapped buffers, poll + DQBUF/QBUF. A device that disappears
 * mid-stream (unplugged, EIO) returns an error and is reopened on the next call. */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capture/convert.h"
#include "capture/jpeg_decode.h"
#include "capture/source_impl.h"

#define V4L2_NBUF 4

struct v4l2_src {
    char *path;
    int fd;
    uint32_t fourcc;
    int w, h, bytesperline;
    struct {
        void *start;
        size_t length;
    } bufs[V4L2_NBUF];
    unsigned nbufs;
    bool streaming;
    struct jpeg_decoder *jd;
    struct pixbuf pix;
    unsigned long warnings; /* MJPEG frames decoded with libjpeg warnings */
};

static int xioctl(int fd, unsigned long req, void *arg)
{
    int r;
    do r = ioctl(fd, req, arg);
    while (r == -1 && errno == EINTR);
    return r;
}

static const char *errno_text(int e)
{
    switch (e) {
    case ENOENT:
    case ENODEV:
    case ENXIO: return "no such device";
    case EBUSY: return "device busy (another program is using the camera?)";
    case EACCES:
    case EPERM: return "permission denied (is the user in the 'video' group?)";
    default: return strerror(e);
    }
}

static void fourcc_text(uint32_t f, char out[5])
{
    for (int i = 0; i < 4; i++) {
        char c = (char)((f >> (8 * i)) & 0xff);
        out[i] = c >= 32 && c < 127 ? c : '?';
    }
    out[4] = '\0';
}

static void device_stop(struct v4l2_src *v)
{
    if (v->fd < 0) return;
    if (v->streaming) {
        enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        xioctl(v->fd, VIDIOC_STREAMOFF, &type);
        v->streaming = false;
    }
    for (unsigned i = 0; i < v->nbufs; i++)
        if (v->bufs[i].start) munmap(v->bufs[i].start, v->bufs[i].length);
    memset(v->bufs, 0, sizeof v->bufs);
    v->nbufs = 0;
    close(v->fd);
    v->fd = -1;
}

/* MJPEG (or JPEG) if the device offers it, else YUYV; 0 when neither. */
static uint32_t choose_format(int fd, char *have, size_t havelen)
{
    bool mjpeg = false, jpeg = false, yuyv = false;
    size_t used = 0;
    have[0] = '\0';
    for (unsigned i = 0; i < 64; i++) {
        struct v4l2_fmtdesc d = {.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
        if (xioctl(fd, VIDIOC_ENUM_FMT, &d) != 0) break;
        mjpeg |= d.pixelformat == V4L2_PIX_FMT_MJPEG;
        jpeg |= d.pixelformat == V4L2_PIX_FMT_JPEG;
        yuyv |= d.pixelformat == V4L2_PIX_FMT_YUYV;
        char cc[5];
        fourcc_text(d.pixelformat, cc);
        int n = snprintf(have + used, havelen - used, "%s%s", used ? " " : "", cc);
        if (n > 0 && (size_t)n < havelen - used) used += (size_t)n;
    }
    return mjpeg ? V4L2_PIX_FMT_MJPEG : jpeg ? V4L2_PIX_FMT_JPEG : yuyv ? V4L2_PIX_FMT_YUYV : 0;
}

static int fail(char *err, size_t errlen, const char *path, const char *what, int e)
{
    snprintf(err, errlen, "v4l2: %s: %s%s%s", path, what, *what ? ": " : "", errno_text(e));
    return -1;
}

static int set_format(struct v4l2_src *v, const struct source_options *opt, char *err,
                      size_t errlen)
{
    char have[256];
    v->fourcc = choose_format(v->fd, have, sizeof have);
    if (!v->fourcc) {
        snprintf(err, errlen, "v4l2: %s: offers neither MJPEG nor YUYV (formats: %s)", v->path,
                 *have ? have : "none");
        return -1;
    }
    struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
    fmt.fmt.pix.width = (unsigned)(opt->width > 0 ? opt->width : 1280);
    fmt.fmt.pix.height = (unsigned)(opt->height > 0 ? opt->height : 720);
    fmt.fmt.pix.pixelformat = v->fourcc;
    fmt.fmt.pix.field = V4L2_FIELD_NONE;
    if (xioctl(v->fd, VIDIOC_S_FMT, &fmt) != 0)
        return fail(err, errlen, v->path, "cannot set the format", errno);
    if (fmt.fmt.pix.pixelformat != v->fourcc) {
        char cc[5];
        fourcc_text(fmt.fmt.pix.pixelformat, cc);
        snprintf(err, errlen, "v4l2: %s: the driver switched to format %s", v->path, cc);
        return -1;
    }
    v->w = (int)fmt.fmt.pix.width;
    v->h = (int)fmt.fmt.pix.height;
    v->bytesperline = (int)fmt.fmt.pix.bytesperline;
    if (v->fourcc == V4L2_PIX_FMT_YUYV && v->bytesperline < 2 * v->w) v->bytesperline = 2 * v->w;
    if (opt->fps > 0) { /* a request: many webcams only offer a few rates */
        struct v4l2_streamparm parm = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
        if (xioctl(v->fd, VIDIOC_G_PARM, &parm) == 0 &&
            (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)) {
            parm.parm.capture.timeperframe.numerator = 1000;
            parm.parm.capture.timeperframe.denominator = (unsigned)(opt->fps * 1000 + 0.5);
            xioctl(v->fd, VIDIOC_S_PARM, &parm);
        }
    }
    return 0;
}

static int map_buffers(struct v4l2_src *v, char *err, size_t errlen)
{
    struct v4l2_requestbuffers req = {
        .count = V4L2_NBUF, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    if (xioctl(v->fd, VIDIOC_REQBUFS, &req) != 0)
        return fail(err, errlen, v->path, "cannot get buffers", errno);
    if (req.count < 2) {
        snprintf(err, errlen, "v4l2: %s: only %u buffer(s) granted", v->path, req.count);
        return -1;
    }
    v->nbufs = req.count < V4L2_NBUF ? req.count : V4L2_NBUF;
    for (unsigned i = 0; i < v->nbufs; i++) {
        struct v4l2_buffer b = {
            .index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
        if (xioctl(v->fd, VIDIOC_QUERYBUF, &b) != 0)
            return fail(err, errlen, v->path, "cannot query a buffer", errno);
        void *p = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, b.m.offset);
        if (p == MAP_FAILED) return fail(err, errlen, v->path, "cannot map a buffer", errno);
        v->bufs[i].start = p;
        v->bufs[i].length = b.length;
        if (xioctl(v->fd, VIDIOC_QBUF, &b) != 0)
            return fail(err, errlen, v->path, "cannot queue a buffer", errno);
    }
    enum v4l2_buf_type type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(v->fd, VIDIOC_STREAMON, &type) != 0)
        return fail(err, errlen, v->path, "cannot start streaming", errno);
    v->streaming = true;
    return 0;
}

static int device_start(struct v4l2_src *v, const struct source_options *opt, char *err,
                        size_t errlen)
{
    v->fd = open(v->path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (v->fd < 0) return fail(err, errlen, v->path, "", errno);
    struct v4l2_capability cap;
    memset(&cap, 0, sizeof cap);
    if (xioctl(v->fd, VIDIOC_QUERYCAP, &cap) != 0) {
        int e = errno;
        device_stop(v);
        if (e == ENOTTY || e == EINVAL || e == ENOSYS) { /* ENOSYS: qemu-user, ioctl unknown */
            snprintf(err, errlen, "v4l2: %s: not a V4L2 device", v->path);
            return -1;
        }
        return fail(err, errlen, v->path, "cannot query the device", e);
    }
    uint32_t caps = cap.capabilities & V4L2_CAP_DEVICE_CAPS ? cap.device_caps : cap.capabilities;
    if (!(caps & V4L2_CAP_VIDEO_CAPTURE)) {
        device_stop(v);
        snprintf(err, errlen,
                 "v4l2: %s: not a video capture device (%s; a webcam's metadata node? try the "
                 "other /dev/videoN)",
                 v->path, (const char *)cap.card);
        return -1;
    }
    if (!(caps & V4L2_CAP_STREAMING)) {
        device_stop(v);
        snprintf(err, errlen, "v4l2: %s: no streaming I/O (%s)", v->path, (const char *)cap.card);
        return -1;
    }
    if (set_format(v, opt, err, errlen) != 0 || map_buffers(v, err, errlen) != 0) {
        device_stop(v);
        return -1;
    }
    return 0;
}

static void v4l2_close(void *impl)
{
    struct v4l2_src *v = impl;
    if (!v) return;
    device_stop(v);
    jpeg_decoder_free(v->jd);
    pixbuf_free(&v->pix);
    free(v->path);
    free(v);
}

static enum source_status lost(struct frame_source *src, struct v4l2_src *v, const char *what,
                               int e)
{
    device_stop(v);
    return source_fail(src, "v4l2: %s: device lost (%s: %s); reopening on the next call", v->path,
                       what, strerror(e));
}

/* One dequeued buffer to pixels in v->pix (YUYV) or the decoder's buffer (MJPEG). */
static enum source_status convert(struct frame_source *src, struct v4l2_src *v, const uint8_t *p,
                                  size_t used, uint32_t seq, struct frame *out)
{
    enum pixfmt fmt = src->opt.fmt;
    if (v->fourcc != V4L2_PIX_FMT_YUYV) {
        char msg[256];
        bool warned = false;
        if (used == 0) return source_fail(src, "v4l2: %s: frame %u is empty", v->path, seq);
        if (jpeg_decode(v->jd, p, used, fmt, src->opt.width, src->opt.height, false, out, &warned,
                        msg, sizeof msg) != 0)
            return source_fail(src, "v4l2: %s: frame %u: %s", v->path, seq, msg);
        v->warnings += warned;
        return SOURCE_FRAME;
    }
    if (used < (size_t)v->bytesperline * (size_t)v->h)
        return source_fail(src, "v4l2: %s: frame %u short (%zu bytes)", v->path, seq, used);
    int bpp = pixfmt_bytes_per_pixel(fmt);
    if (!pixbuf_reserve(&v->pix, (size_t)v->w * (size_t)v->h * (size_t)bpp))
        return source_fail(src, "v4l2: %s: out of memory", v->path);
    if (fmt == PIXFMT_BGR24)
        cvt_yuyv_to_bgr(p, v->bytesperline, v->w, v->h, v->pix.data, 3 * v->w);
    else
        cvt_yuyv_to_gray(p, v->bytesperline, v->w, v->h, v->pix.data, v->w);
    *out = (struct frame){
        .width = v->w, .height = v->h, .stride = v->w * bpp, .fmt = fmt, .data = v->pix.data};
    return SOURCE_FRAME;
}

static enum source_status v4l2_next(struct frame_source *src, struct frame *out, int timeout_ms)
{
    struct v4l2_src *v = src->impl;
    if (v->fd < 0) {
        char msg[400];
        if (device_start(v, &src->opt, msg, sizeof msg) != 0)
            return source_fail(src, "%s (reopening)", msg);
    }
    struct pollfd pfd = {.fd = v->fd, .events = POLLIN};
    int r = poll(&pfd, 1, timeout_ms < 0 ? -1 : timeout_ms);
    if (r == 0 || (r < 0 && errno == EINTR)) return SOURCE_TIMEOUT;
    if (r < 0) return lost(src, v, "poll", errno);
    if ((pfd.revents & (POLLERR | POLLHUP | POLLNVAL)) && !(pfd.revents & POLLIN))
        return lost(src, v, "poll", ENODEV);
    struct v4l2_buffer b = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP};
    if (xioctl(v->fd, VIDIOC_DQBUF, &b) != 0) {
        if (errno == EAGAIN) return SOURCE_TIMEOUT;
        return lost(src, v, "dequeue", errno);
    }
    enum source_status st;
    if (b.index >= v->nbufs) {
        st = source_fail(src, "v4l2: %s: driver returned buffer %u of %u", v->path, b.index,
                         v->nbufs);
    } else if (b.flags & V4L2_BUF_FLAG_ERROR) {
        st = source_fail(src, "v4l2: %s: frame %u damaged in transfer", v->path, b.sequence);
    } else {
        size_t used = b.bytesused < v->bufs[b.index].length ? b.bytesused : v->bufs[b.index].length;
        st = convert(src, v, v->bufs[b.index].start, used, b.sequence, out);
        out->seq = b.sequence;
        out->t_ns = (int64_t)b.timestamp.tv_sec * 1000000000 + (int64_t)b.timestamp.tv_usec * 1000;
    }
    /* Pixels were converted into our own buffer: the driver can have its buffer back now. */
    if (xioctl(v->fd, VIDIOC_QBUF, &b) != 0) return lost(src, v, "requeue", errno);
    return st;
}

static const struct source_ops v4l2_ops = {v4l2_next, v4l2_close};

int source_v4l2_open(struct frame_source *src, const char *path, char *err, size_t errlen)
{
    if (!*path) {
        snprintf(err, errlen, "v4l2: no device given (use v4l2:/dev/videoN)");
        return -1;
    }
    struct v4l2_src *v = calloc(1, sizeof *v);
    if (!v || !(v->path = strdup(path))) {
        free(v);
        snprintf(err, errlen, "v4l2: %s: out of memory", path);
        return -1;
    }
    v->fd = -1;
    if (!(v->jd = jpeg_decoder_new(err, errlen)) || device_start(v, &src->opt, err, errlen) != 0) {
        v4l2_close(v);
        return -1;
    }
    src->ops = &v4l2_ops;
    src->impl = v;
    return 0;
}

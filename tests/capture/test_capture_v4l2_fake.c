/* tests/capture/test_capture_v4l2_fake.c — the V4L2 source's whole streaming path against a
 * simulated webcam. No /dev/video exists on CI and vivid cannot be loaded, so open, ioctl, mmap,
 * munmap, poll and close are wrapped at link time (-Wl,--wrap=...) for the paths under
 * /dev/fake-*: QUERYCAP, ENUM_FMT, S_FMT, G/S_PARM, REQBUFS, QUERYBUF, mmap, QBUF, STREAMON,
 * poll, DQBUF. Checked: YUYV and DHT-less MJPEG frames, sequence numbers and timestamps, the
 * frame rate asked for, a damaged buffer, a timeout, unplugging (error, failed reopen, reopen
 * when plugged back), and the clear open errors (busy, not a capture device, no usable format).
 * What it cannot show is a real driver's timing or quirks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>

#include "capture/capture.h"
#include "tests/capture/capture_test_util.h"
#include "tests/testutil.h"

#define FAKE_FD 9000
#define NBUF    4
#define BUFSZ   65536

static struct {
    bool mjpeg_only, grey_only, not_capture, busy, unplugged, idle, damage_next;
    unsigned w, h, fps_den, seq;
    bool queued[NBUF];
    uint8_t buf[NBUF][BUFSZ];
    uint8_t *jpeg;
    size_t jpeg_len;
    int opens;
} dev;

/* With _FILE_OFFSET_BITS=64 glibc routes open and mmap to open64 and mmap64: wrap both names. */
int __real_open(const char *path, int flags, ...);
int __real_open64(const char *path, int flags, ...);
void *__real_mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __wrap_open64(const char *path, int flags, ...);
void *__wrap_mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __real_ioctl(int fd, unsigned long req, ...);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __real_munmap(void *addr, size_t len);
int __real_poll(struct pollfd *fds, nfds_t n, int timeout);
int __real_close(int fd);
int __wrap_open(const char *path, int flags, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int __wrap_munmap(void *addr, size_t len);
int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout);
int __wrap_close(int fd);

static int fake_open(void)
{
    if (dev.unplugged) return errno = ENOENT, -1;
    if (dev.busy) return errno = EBUSY, -1;
    dev.opens++;
    memset(dev.queued, 0, sizeof dev.queued);
    return FAKE_FD;
}

int __wrap_open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = va_arg(ap, int);
    va_end(ap);
    return strncmp(path, "/dev/fake-", 10) ? __real_open(path, flags, mode) : fake_open();
}

int __wrap_open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = va_arg(ap, int);
    va_end(ap);
    return strncmp(path, "/dev/fake-", 10) ? __real_open64(path, flags, mode) : fake_open();
}

int __wrap_close(int fd)
{
    return fd == FAKE_FD ? 0 : __real_close(fd);
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (fd != FAKE_FD) return __real_mmap(addr, len, prot, flags, fd, off);
    if (len != BUFSZ || off % BUFSZ || off / BUFSZ >= NBUF) return errno = EINVAL, MAP_FAILED;
    return dev.buf[off / BUFSZ];
}

void *__wrap_mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (fd != FAKE_FD) return __real_mmap64(addr, len, prot, flags, fd, off);
    return __wrap_mmap(addr, len, prot, flags, fd, off);
}

int __wrap_munmap(void *addr, size_t len)
{
    if ((uint8_t *)addr >= dev.buf[0] && (uint8_t *)addr < dev.buf[NBUF - 1] + BUFSZ) return 0;
    return __real_munmap(addr, len);
}

int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout)
{
    if (n != 1 || fds[0].fd != FAKE_FD) return __real_poll(fds, n, timeout);
    if (dev.unplugged) return fds[0].revents = POLLERR, 1;
    if (dev.idle) return 0;
    fds[0].revents = POLLIN;
    return 1;
}

/* A frame in buffer i: YUYV with luma 10 + seq everywhere, chroma neutral, or the MJPEG. */
static size_t fill(unsigned i)
{
    if (dev.mjpeg_only) {
        memcpy(dev.buf[i], dev.jpeg, dev.jpeg_len);
        return dev.jpeg_len;
    }
    uint8_t *p = dev.buf[i];
    for (unsigned k = 0; k < dev.w * dev.h; k++) {
        p[2 * k] = (uint8_t)(10 + dev.seq);
        p[2 * k + 1] = 128;
    }
    return (size_t)dev.w * dev.h * 2;
}

static int fake_ioctl(unsigned long req, void *arg)
{
    switch (req) {
    case VIDIOC_QUERYCAP: {
        struct v4l2_capability *c = arg;
        memset(c, 0, sizeof *c);
        snprintf((char *)c->card, sizeof c->card, "Fake Webcam");
        c->device_caps =
            (dev.not_capture ? V4L2_CAP_META_CAPTURE : V4L2_CAP_VIDEO_CAPTURE) | V4L2_CAP_STREAMING;
        c->capabilities = c->device_caps | V4L2_CAP_DEVICE_CAPS;
        return 0;
    }
    case VIDIOC_ENUM_FMT: {
        struct v4l2_fmtdesc *d = arg;
        if (d->index > 0) return errno = EINVAL, -1;
        d->pixelformat = dev.grey_only    ? V4L2_PIX_FMT_GREY
                         : dev.mjpeg_only ? V4L2_PIX_FMT_MJPEG
                                          : V4L2_PIX_FMT_YUYV;
        return 0;
    }
    case VIDIOC_S_FMT: {
        struct v4l2_format *f = arg;
        if (dev.mjpeg_only) { /* the camera has one mode: the JPEG's size */
            f->fmt.pix.width = 64;
            f->fmt.pix.height = 64;
        }
        dev.w = f->fmt.pix.width;
        dev.h = f->fmt.pix.height;
        f->fmt.pix.bytesperline = dev.mjpeg_only ? 0 : 2 * dev.w;
        return 0;
    }
    case VIDIOC_G_PARM: {
        struct v4l2_streamparm *p = arg;
        p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
        return 0;
    }
    case VIDIOC_S_PARM: {
        struct v4l2_streamparm *p = arg;
        dev.fps_den = p->parm.capture.timeperframe.denominator;
        return 0;
    }
    case VIDIOC_REQBUFS: {
        struct v4l2_requestbuffers *r = arg;
        if (r->count > NBUF) r->count = NBUF;
        return 0;
    }
    case VIDIOC_QUERYBUF: {
        struct v4l2_buffer *b = arg;
        if (b->index >= NBUF) return errno = EINVAL, -1;
        b->length = BUFSZ;
        b->m.offset = b->index * BUFSZ;
        return 0;
    }
    case VIDIOC_QBUF: {
        struct v4l2_buffer *b = arg;
        if (b->index >= NBUF || dev.queued[b->index]) return errno = EINVAL, -1;
        dev.queued[b->index] = true;
        return 0;
    }
    case VIDIOC_DQBUF: {
        struct v4l2_buffer *b = arg;
        if (dev.unplugged) return errno = ENODEV, -1;
        for (unsigned i = 0; i < NBUF; i++) {
            if (!dev.queued[i]) continue;
            dev.queued[i] = false;
            b->index = i;
            b->bytesused = (unsigned)fill(i);
            b->sequence = dev.seq;
            b->timestamp.tv_sec = 100 + dev.seq / 10;
            b->timestamp.tv_usec = (dev.seq % 10) * 100000;
            b->flags = dev.damage_next ? V4L2_BUF_FLAG_ERROR : 0;
            dev.damage_next = false;
            dev.seq++;
            return 0;
        }
        return errno = EAGAIN, -1;
    }
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF: return 0;
    default: return errno = ENOTTY, -1;
    }
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    if (fd != FAKE_FD) return __real_ioctl(fd, req, arg);
    return fake_ioctl(req, arg);
}

static int reset(void **state)
{
    (void)state;
    uint8_t *jpeg = dev.jpeg;
    size_t len = dev.jpeg_len;
    memset(&dev, 0, sizeof dev);
    dev.jpeg = jpeg;
    dev.jpeg_len = len;
    return 0;
}

static struct frame_source *open_fake(enum pixfmt fmt)
{
    struct source_options o;
    source_options_default(&o);
    o.width = 32;
    o.height = 16;
    o.fps = 15;
    o.fmt = fmt;
    char err[512];
    struct frame_source *s = source_open("v4l2:/dev/fake-video0", &o, err, sizeof err);
    if (!s) fail_msg("%s", err);
    return s;
}

static void test_yuyv_stream(void **state)
{
    (void)state;
    struct frame_source *s = open_fake(PIXFMT_GRAY8);
    assert_int_equal(dev.fps_den, 15000); /* 1000/15000 s per frame */
    struct frame f;
    for (unsigned i = 0; i < 10; i++) { /* more frames than buffers: each one is requeued */
        assert_int_equal(source_next(s, &f, 100), SOURCE_FRAME);
        assert_int_equal(f.seq, i);
        assert_int_equal(f.t_ns, 100000000000LL + (int64_t)i * 100000000);
        assert_int_equal(f.width, 32);
        assert_int_equal(f.height, 16);
        assert_int_equal(px(&f, 31, 15, 0), 10 + i);
    }
    source_close(s);
    dev.seq = 0; /* a fresh camera */
    s = open_fake(PIXFMT_BGR24);
    assert_int_equal(source_next(s, &f, 100), SOURCE_FRAME); /* luma 10 clamps to black */
    assert_int_equal(px(&f, 3, 3, 0) + px(&f, 3, 3, 1) + px(&f, 3, 3, 2), 0);
    for (int i = 0; i < 116; i++) source_next(s, &f, 100); /* luma 10 + 117 = 127 */
    assert_int_equal(source_next(s, &f, 100), SOURCE_FRAME);
    assert_int_equal(f.seq, 117);
    assert_int_equal(px(&f, 3, 3, 1), 129); /* 1.164 * (127 - 16) = 129.2 */
    source_close(s);
}

static void test_mjpeg_stream(void **state)
{
    (void)state;
    dev.mjpeg_only = true;
    struct frame_source *s = open_fake(PIXFMT_GRAY8);
    struct frame f;
    assert_int_equal(source_next(s, &f, 100), SOURCE_FRAME);
    /* The camera's one mode is 64x64, not the 32x16 asked for: the decode shrinks it as far as
     * it can while keeping 32x16, to 32x32. */
    assert_int_equal(f.width, 32);
    assert_int_equal(f.height, 32);
    assert_true(abs(px(&f, 8, 8, 0) - 76) <= 2); /* red quadrant's luma */
    dev.damage_next = true;
    assert_int_equal(source_next(s, &f, 100), SOURCE_ERROR);
    assert_non_null(strstr(source_error(s), "/dev/fake-video0: frame 1 damaged in transfer"));
    assert_int_equal(source_next(s, &f, 100), SOURCE_FRAME);
    assert_int_equal(f.seq, 2);
    dev.idle = true;
    assert_int_equal(source_next(s, &f, 10), SOURCE_TIMEOUT);
    source_close(s);
}

static void test_unplug_and_replug(void **state)
{
    (void)state;
    struct frame_source *s = open_fake(PIXFMT_GRAY8);
    struct frame f;
    assert_int_equal(source_next(s, &f, 100), SOURCE_FRAME);
    dev.unplugged = true;
    assert_int_equal(source_next(s, &f, 100), SOURCE_ERROR);
    assert_non_null(strstr(source_error(s), "device lost"));
    tu_note("%s", source_error(s));
    assert_int_equal(source_next(s, &f, 100), SOURCE_ERROR);
    assert_non_null(strstr(source_error(s), "no such device (reopening)"));
    tu_note("%s", source_error(s));
    dev.unplugged = false;
    assert_int_equal(source_next(s, &f, 100), SOURCE_FRAME); /* reopened by itself */
    assert_int_equal(dev.opens, 2);
    assert_int_equal(f.width, 32);
    source_close(s);
}

static void expect_open_error(const char *needle)
{
    char err[512];
    struct frame_source *s = source_open("v4l2:/dev/fake-video0", NULL, err, sizeof err);
    if (s) {
        source_close(s);
        fail_msg("opened; expected '%s'", needle);
    }
    if (!strstr(err, needle)) fail_msg("'%s' lacks '%s'", err, needle);
    tu_note("%s", err);
}

static void test_open_errors(void **state)
{
    (void)state;
    dev.busy = true;
    expect_open_error("/dev/fake-video0: device busy");
    reset(NULL);
    dev.not_capture = true;
    expect_open_error("not a video capture device (Fake Webcam");
    reset(NULL);
    dev.grey_only = true;
    expect_open_error("offers neither MJPEG nor YUYV (formats: GREY)");
}

/* The MJPEG frame the fake camera sends: tests/fixtures/capture/seq/a.jpg without its Huffman
 * tables, as UVC webcams send them. */
static int load_jpeg(void **state)
{
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/capture/seq/a.jpg", tu_fixtures_dir());
    size_t len;
    uint8_t *in = (uint8_t *)tu_read_file(path, &len);
    if (!in) return -1;
    dev.jpeg = malloc(len);
    size_t i = 2, o = 2;
    memcpy(dev.jpeg, in, 2);
    while (i + 4 <= len && in[i] == 0xFF && in[i + 1] != 0xDA) {
        size_t seg = 2 + (((size_t)in[i + 2] << 8) | in[i + 3]);
        if (in[i + 1] != 0xC4) memcpy(dev.jpeg + o, in + i, seg), o += seg;
        i += seg;
    }
    memcpy(dev.jpeg + o, in + i, len - i);
    dev.jpeg_len = o + len - i;
    free(in);
    return dev.jpeg_len < len ? 0 : -1;
}

static int free_jpeg(void **state)
{
    (void)state;
    free(dev.jpeg);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_yuyv_stream, reset),
        cmocka_unit_test_setup(test_mjpeg_stream, reset),
        cmocka_unit_test_setup(test_unplug_and_replug, reset),
        cmocka_unit_test_setup(test_open_errors, reset),
    };
    return cmocka_run_group_tests(tests, load_jpeg, free_jpeg);
}

/* capture/source_impl.h — inside the capture stage only: the frame_source object every backend
 * fills in, the backends' open functions, and the helpers they share. */
#ifndef KIFUCAM_CAPTURE_SOURCE_IMPL_H
#define KIFUCAM_CAPTURE_SOURCE_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/source.h"

struct source_ops {
    enum source_status (*next)(struct frame_source *src, struct frame *out, int timeout_ms);
    void (*close)(void *impl); /* frees impl */
};

struct frame_source {
    const struct source_ops *ops;
    void *impl;
    struct source_options opt;
    char spec[512];
    char err[512];
};

/* Set the message returned by source_error(); returns SOURCE_ERROR for `return source_fail(...)`.
 */
enum source_status source_fail(struct frame_source *src, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Backends. Each takes the part of the spec after its "kind:" prefix. On success the backend has
 * set src->ops and src->impl and returns 0; on failure it writes err and returns -1. */
int source_dir_open(struct frame_source *src, const char *path, char *err, size_t errlen);
int source_file_open(struct frame_source *src, const char *path, char *err, size_t errlen);
/* Compressed videos through FFmpeg's libraries (source_video.c); source_file_open hands over
 * every file that is not YUV4MPEG2. */
int source_video_open(struct frame_source *src, const char *path, char *err, size_t errlen);
int source_v4l2_open(struct frame_source *src, const char *path, char *err, size_t errlen);
int source_libcamera_open(struct frame_source *src, const char *arg, char *err, size_t errlen);
int source_faulty_open(struct frame_source *src, const char *arg, char *err, size_t errlen);

/* A growable pixel buffer. */
struct pixbuf {
    uint8_t *data;
    size_t cap;
};
bool pixbuf_reserve(struct pixbuf *b, size_t n);
void pixbuf_free(struct pixbuf *b);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t capture_now_ns(void);

/* Real-time pacing for files and folders: frame time t_ns is due at (monotonic time of the first
 * frame) + (t_ns - first t_ns) / speed. Waits for it, at most timeout_ms (< 0: no limit). Returns
 * SOURCE_FRAME when due, SOURCE_TIMEOUT when the timeout came first. */
struct pacer {
    bool started;
    int64_t mono0, t0;
    double speed; /* frame time runs this many times faster than the clock (0 = 1) */
};
enum source_status pacer_wait(struct pacer *p, int64_t t_ns, int timeout_ms);

#endif

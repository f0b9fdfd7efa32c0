/* capture/frame.h — one camera frame as the capture stage hands it on: pixels, size, format,
 * a monotonic timestamp and a sequence number. Nothing here knows about boards. */
#ifndef KIFUCAM_CAPTURE_FRAME_H
#define KIFUCAM_CAPTURE_FRAME_H

#include <stddef.h>
#include <stdint.h>

/* Pixel layouts a source can deliver. A camera's YUV420 stream is delivered as its Y plane, which
 * is GRAY8 (luma is what the vision stage reads). */
enum pixfmt {
    PIXFMT_GRAY8, /* 1 byte per pixel */
    PIXFMT_BGR24, /* 3 bytes per pixel, in memory order B, G, R (OpenCV's CV_8UC3) */
};

/* The pixels belong to the source and stay valid until the next source_next() or source_close()
 * on that source. seq counts the source's frames from 0; a gap means frames were dropped or
 * unreadable. t_ns is monotonic (sensor time for cameras, stream time for files) in nanoseconds. */
struct frame {
    uint64_t seq;
    int64_t t_ns;
    int width, height, stride; /* stride: bytes from one row to the next */
    enum pixfmt fmt;
    uint8_t *data;
};

/* Bytes per pixel of a format (1 or 3). */
int pixfmt_bytes_per_pixel(enum pixfmt fmt);

/* "gray" or "bgr". */
const char *pixfmt_name(enum pixfmt fmt);

#endif

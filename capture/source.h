/* capture/source.h — the one interface in front of every frame source: Raspberry Pi cameras
 * (libcamera), USB webcams (V4L2), video files and image folders, plus a fault-injecting wrapper
 * for tests of the daemon's retry logic.
 *
 * Spec strings:
 *   libcamera[:N]        camera N (default 0) as libcamera lists it
 *   v4l2:/dev/videoN     a V4L2 capture device (MJPEG preferred, YUYV fallback)
 *   file:PATH            a video file: YUV4MPEG2 (.y4m) natively
 *   dir:PATH             JPEG and PNG images in byte-wise name order
 *   faulty:SPEC?k=v&...  SPEC with injected failures (see source_faulty.c; keys fail_after,
 *                        fail_for, mode=error|timeout|garbage, repeat, drop)
 */
#ifndef KIFUCAM_CAPTURE_SOURCE_H
#define KIFUCAM_CAPTURE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "capture/frame.h"

enum source_status {
    SOURCE_FRAME = 0,   /* *out holds a frame */
    SOURCE_TIMEOUT = 1, /* nothing arrived within timeout_ms; call again */
    SOURCE_END = 2,     /* a finite source (file, folder) is exhausted; every later call says so */
    SOURCE_ERROR = -1,  /* this frame or call failed; source_error() says why, naming the file or
                           frame. The source stays usable: call again (after a back-off) and it moves
                           on or tries to recover (V4L2 reopens a lost device); close and reopen if
                           errors persist. */
};

struct source_options {
    int width, height; /* wanted size; 0 = the source's own. Cameras are asked for this size;
                          files and folders are shrunk by the largest of 1/2, 1/4, 1/8 that keeps
                          at least this size (JPEG: DCT-scaled decode), never enlarged. */
    double fps;        /* cameras: frame rate asked for; files and folders: timestamps at this
                          rate (0 = the file's own rate, or 30 fps for folders) */
    enum pixfmt fmt;   /* pixel format wanted (default GRAY8) */
    bool realtime;     /* files and folders: deliver frames at their timestamps, not as fast as
                          possible (cameras are always real time) */
    double speed;      /* with realtime: the pace, 2 = twice as fast as recorded (0 counts as 1);
                          frame timestamps stay as recorded */
    bool loop;         /* files and folders: start again at the end instead of SOURCE_END */
    bool use_mtime;    /* folders: timestamps from the files' modification times */
};

struct frame_source;

/* Defaults: native size, GRAY8, 0 fps (source's own), as fast as possible, no loop. */
void source_options_default(struct source_options *opt);

/* Open a source. opt may be NULL (defaults). On failure returns NULL and writes a message
 * ("v4l2: /dev/video3: no such device") into err. */
struct frame_source *source_open(const char *spec, const struct source_options *opt, char *err,
                                 size_t errlen);

/* Next frame. timeout_ms < 0 waits as long as it takes; 0 polls. */
enum source_status source_next(struct frame_source *src, struct frame *out, int timeout_ms);

/* The message of the last SOURCE_ERROR ("" if none). */
const char *source_error(const struct frame_source *src);

/* The spec the source was opened with. */
const char *source_spec(const struct frame_source *src);

void source_close(struct frame_source *src);

/* Status as text: "frame", "timeout", "end", "error". */
const char *source_status_name(enum source_status st);

#endif

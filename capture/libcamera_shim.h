/* capture/libcamera_shim.h — the C face of the capture stage's one C++ file
 * (source_libcamera.cpp), which drives libcamera (Raspberry Pi camera modules). Opaque handle, no
 * exception ever crosses this line; errors come back as messages. Frames are handed from
 * libcamera's thread to the caller through an eventfd. */
#ifndef KIFUCAM_CAPTURE_LIBCAMERA_SHIM_H
#define KIFUCAM_CAPTURE_LIBCAMERA_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define LCAM_NOEXCEPT noexcept
extern "C" {
#else
#define LCAM_NOEXCEPT
#endif

struct lcam;

/* A completed YUV420 frame, still in the camera's buffer: valid until lcam_release(cookie). */
struct lcam_frame {
    const uint8_t *y, *u, *v; /* planes; u/v are half size each way */
    int width, height, stride, uv_stride;
    uint64_t seq; /* the sensor's frame sequence number */
    int64_t t_ns; /* sensor timestamp (CLOCK_MONOTONIC-based), ns */
    unsigned cookie;
};

/* Open camera `index`, configure one VideoRecording stream of YUV420 at width x height (0: the
 * camera's default) and fps (0: default), optionally rotated by 180 degrees, and start it. On
 * failure NULL and a message ("libcamera: no camera found ..."). */
struct lcam *lcam_open(int index, int width, int height, double fps, int rotate180, char *err,
                       size_t errlen) LCAM_NOEXCEPT;

/* Readable (poll POLLIN) when a frame has completed; read 8 bytes to clear it. */
int lcam_event_fd(const struct lcam *c) LCAM_NOEXCEPT;

/* The newest completed frame (older waiting ones are given back to the camera: the daemon wants
 * the freshest view, and gaps in seq show the drops). 1: *f set; 0: nothing waiting; -1: the
 * camera failed or was disconnected (message in err). */
int lcam_take(struct lcam *c, struct lcam_frame *f, char *err, size_t errlen) LCAM_NOEXCEPT;

/* Give a taken frame's buffer back to the camera. 0, or -1 with a message. */
int lcam_release(struct lcam *c, unsigned cookie, char *err, size_t errlen) LCAM_NOEXCEPT;

/* "0.0.3" etc.: the libcamera headers this was built against. */
const char *lcam_version(void) LCAM_NOEXCEPT;

void lcam_close(struct lcam *c) LCAM_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif

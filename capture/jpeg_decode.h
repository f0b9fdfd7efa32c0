/* capture/jpeg_decode.h — JPEG (and webcam MJPEG) frames to GRAY8 or BGR24 through libjpeg-turbo's
 * TurboJPEG 2.1 API. MJPEG frames without Huffman tables (DHT), as many UVC webcams send, decode
 * with the standard tables. */
#ifndef KIFUCAM_CAPTURE_JPEG_DECODE_H
#define KIFUCAM_CAPTURE_JPEG_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/frame.h"

struct jpeg_decoder;

struct jpeg_decoder *jpeg_decoder_new(char *err, size_t errlen);
void jpeg_decoder_free(struct jpeg_decoder *d);

/* Decode jpg[0..len) into the decoder's own buffer (valid until the next decode or free).
 * want_w / want_h: 0, or a size to shrink towards with a DCT-scaled decode (the largest of 1/2,
 * 1/4, 1/8 that keeps at least that size). strict: libjpeg warnings (corrupt or truncated data)
 * are errors; otherwise the picture is kept and *warned is set. Returns 0, or -1 with a message
 * in err. On success out->data/width/height/stride/fmt are set (seq and t_ns are left alone). */
int jpeg_decode(struct jpeg_decoder *d, const uint8_t *jpg, size_t len, enum pixfmt fmt, int want_w,
                int want_h, bool strict, struct frame *out, bool *warned, char *err, size_t errlen);

#endif

/* capture/jpeg_decode.c — see jpeg_decode.h. */
#include "capture/jpeg_decode.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <turbojpeg.h>

#include "capture/convert.h"
#include "capture/source_impl.h"

struct jpeg_decoder {
    tjhandle tj;
    struct pixbuf buf;
};

struct jpeg_decoder *jpeg_decoder_new(char *err, size_t errlen)
{
    struct jpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    d->tj = tjInitDecompress();
    if (!d->tj) {
        snprintf(err, errlen, "TurboJPEG: %s", tjGetErrorStr2(NULL));
        free(d);
        return NULL;
    }
    return d;
}

void jpeg_decoder_free(struct jpeg_decoder *d)
{
    if (!d) return;
    tjDestroy(d->tj);
    pixbuf_free(&d->buf);
    free(d);
}

int jpeg_decode(struct jpeg_decoder *d, const uint8_t *jpg, size_t len, enum pixfmt fmt, int want_w,
                int want_h, bool strict, struct frame *out, bool *warned, char *err, size_t errlen)
{
    if (warned) *warned = false;
    if (len == 0 || len > ULONG_MAX) {
        snprintf(err, errlen, "empty JPEG");
        return -1;
    }
    int w = 0, h = 0, subsamp = 0, colorspace = 0;
    if (tjDecompressHeader3(d->tj, jpg, (unsigned long)len, &w, &h, &subsamp, &colorspace) != 0) {
        snprintf(err, errlen, "not a readable JPEG (%s)", tjGetErrorStr2(d->tj));
        return -1;
    }
    if (w <= 0 || h <= 0) { /* a tables-only stream, or garbage after a JPEG-like start */
        snprintf(err, errlen, "not a readable JPEG (no frame header)");
        return -1;
    }
    if (w > 16384 || h > 16384) {
        snprintf(err, errlen, "JPEG size %dx%d out of range", w, h);
        return -1;
    }
    /* TurboJPEG picks the scale from the size asked; ask exactly for 1/2^shift. */
    int shift = cvt_shrink_shift(w, h, want_w, want_h);
    int sw = (w + (1 << shift) - 1) >> shift, sh = (h + (1 << shift) - 1) >> shift;
    int bpp = pixfmt_bytes_per_pixel(fmt);
    int stride = sw * bpp;
    if (!pixbuf_reserve(&d->buf, (size_t)stride * (size_t)sh)) {
        snprintf(err, errlen, "out of memory for a %dx%d frame", sw, sh);
        return -1;
    }
    int pf = fmt == PIXFMT_BGR24 ? TJPF_BGR : TJPF_GRAY;
    if (tjDecompress2(d->tj, jpg, (unsigned long)len, d->buf.data, sw, stride, sh, pf,
                      TJFLAG_FASTDCT) != 0) {
        bool warning = tjGetErrorCode(d->tj) == TJERR_WARNING;
        if (!warning || strict) {
            snprintf(err, errlen, "corrupt JPEG (%s)", tjGetErrorStr2(d->tj));
            return -1;
        }
        if (warned) *warned = true;
    }
    out->data = d->buf.data;
    out->width = sw;
    out->height = sh;
    out->stride = stride;
    out->fmt = fmt;
    return 0;
}

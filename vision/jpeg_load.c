/* vision/jpeg_load.c — JPEG files into a vision_image (TurboJPEG 2.1 API). */
#include <stdio.h>
#include <stdlib.h>
#include <turbojpeg.h>

#include "vision/vision.h"

bool vision_load_jpeg(const char *path, bool gray, struct vision_image *img, char *err, int errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, (size_t)errlen, "%s: cannot open", path);
        return false;
    }
    unsigned char *buf = NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
    if (len > 0 && len < (1L << 30) && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)len);
        if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    if (!buf) {
        snprintf(err, (size_t)errlen, "%s: cannot read", path);
        return false;
    }
    tjhandle h = tjInitDecompress();
    int w = 0, hh = 0, sub = 0, cs = 0;
    bool ok = false;
    if (h && tjDecompressHeader3(h, buf, (unsigned long)len, &w, &hh, &sub, &cs) == 0 && w > 0 &&
        hh > 0 && (long long)w * hh <= (1LL << 28)) {
        int ch = gray ? 1 : 3;
        uint8_t *px = malloc((size_t)w * hh * ch);
        if (px && tjDecompress2(h, buf, (unsigned long)len, px, w, w * ch, hh,
                                gray ? TJPF_GRAY : TJPF_BGR, 0) == 0) {
            *img = (struct vision_image){.width = w,
                                         .height = hh,
                                         .stride = w * ch,
                                         .fmt = gray ? VISION_GRAY8 : VISION_BGR24,
                                         .data = px};
            ok = true;
        } else {
            snprintf(err, (size_t)errlen, "%s: %s", path, h ? tjGetErrorStr2(h) : "no memory");
            free(px);
        }
    } else
        snprintf(err, (size_t)errlen, "%s: not a JPEG (%s)", path,
                 h ? tjGetErrorStr2(h) : "TurboJPEG init failed");
    if (h) tjDestroy(h);
    free(buf);
    return ok;
}

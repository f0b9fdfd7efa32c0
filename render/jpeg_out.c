/* render/jpeg_out.c — JPEG frames through libjpeg-turbo's TurboJPEG 2.1 API. The quality chosen
 * by the seed gives the block artefacts of a real camera's stream. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "render/render_internal.h"

uint8_t *render_jpeg_encode(const uint8_t *rgb, int width, int height, int quality, size_t *size,
                            char *err, size_t errlen)
{
    tjhandle tj = tjInitCompress();
    if (!tj) {
        snprintf(err, errlen, "TurboJPEG: %s", tjGetErrorStr2(NULL));
        return NULL;
    }
    unsigned char *buf = NULL;
    unsigned long len = 0;
    int rc = tjCompress2(tj, rgb, width, width * 3, height, TJPF_RGB, &buf, &len, TJSAMP_420,
                         quality < 1     ? 1
                         : quality > 100 ? 100
                                         : quality,
                         0);
    uint8_t *out = NULL;
    if (rc != 0) {
        snprintf(err, errlen, "TurboJPEG: %s", tjGetErrorStr2(tj));
    } else if ((out = malloc(len ? len : 1))) {
        memcpy(out, buf, len);
        *size = len;
    } else {
        snprintf(err, errlen, "out of memory");
    }
    tjFree(buf);
    tjDestroy(tj);
    return out;
}

bool render_save_frame(const char *dir, int index, const uint8_t *rgb, int width, int height,
                       int quality, char *err, size_t errlen)
{
    size_t size;
    uint8_t *jpg = render_jpeg_encode(rgb, width, height, quality, &size, err, errlen);
    if (!jpg) return false;
    char path[4096];
    snprintf(path, sizeof path, "%s/frame_%06d.jpg", dir, index);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(jpg, 1, size, f) == size;
    if (f && fclose(f) != 0) ok = false;
    free(jpg);
    if (!ok) snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return ok;
}

FILE *render_truth_open(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    FILE *f = fopen(path, "w");
    if (!f) snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return f;
}

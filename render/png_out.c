/* render/png_out.c — an RGB picture as a PNG file through libpng's simplified API: the contact
 * and scene sheets, when the path asks for a lossless picture (".png"). */
#include <stdio.h>
#include <string.h>

#include "render/render_internal.h"

#if KIFUCAM_HAVE_PNG
#include <png.h>

bool render_png_write(const uint8_t *rgb, int w, int h, const char *path, char *err, size_t errlen)
{
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    im.width = (png_uint_32)w;
    im.height = (png_uint_32)h;
    im.format = PNG_FORMAT_RGB;
    if (png_image_write_to_file(&im, path, 0, rgb, w * 3, NULL)) return true;
    snprintf(err, errlen, "%s: cannot write PNG (%s)", path, im.message);
    png_image_free(&im);
    return false;
}
#else
bool render_png_write(const uint8_t *rgb, int w, int h, const char *path, char *err, size_t errlen)
{
    (void)rgb, (void)w, (void)h;
    snprintf(err, errlen, "%s: this build has no PNG support (libpng-dev); write .jpg", path);
    return false;
}
#endif

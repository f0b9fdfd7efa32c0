/* tests/capture/make_capture_fixtures.c — writes the capture tests' fixtures into a folder
 * (tests/fixtures/capture): tiny images with flat quadrants of known colours, one corrupt JPEG,
 * and small YUV4MPEG2 clips. Run by hand when the fixtures change:
 *   make_capture_fixtures tests/fixtures/capture
 * Deterministic: the same bytes on every run (TurboJPEG at fixed quality, libpng, raw Y4M). */
#include <png.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <turbojpeg.h>

/* 64x64, four 32x32 quadrants (MCU-aligned, so JPEG keeps them flat):
 * top-left red, top-right green, bottom-left blue, bottom-right `last`. */
static void quadrants(uint8_t *rgb, const uint8_t last[3])
{
    static const uint8_t q[3][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}};
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            int k = (y >= 32) * 2 + (x >= 32);
            memcpy(rgb + 3 * (y * 64 + x), k == 3 ? last : q[k], 3);
        }
}

static int write_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        return -1;
    }
    return 0;
}

static int write_jpeg(const char *dir, const char *name, const uint8_t *rgb)
{
    tjhandle tj = tjInitCompress();
    unsigned char *buf = NULL;
    unsigned long len = 0;
    int rc = tjCompress2(tj, rgb, 64, 64 * 3, 64, TJPF_RGB, &buf, &len, TJSAMP_420, 95, 0);
    if (rc == 0) rc = write_file(dir, name, buf, len);
    tjFree(buf);
    tjDestroy(tj);
    return rc;
}

static int write_png(const char *dir, const char *name, const uint8_t *pix, bool gray)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = 64;
    img.height = 64;
    img.format = gray ? PNG_FORMAT_GRAY : PNG_FORMAT_RGB;
    if (!png_image_write_to_file(&img, path, 0, pix, 0, NULL)) {
        fprintf(stderr, "%s: %s\n", path, img.message);
        return -1;
    }
    return 0;
}

/* W x H 4:2:0 clip: frame k has Y = 16 + 40 k everywhere except a 2x2 block of Y = 235 at the
 * top left; U, V = 90, 240 (BT.601 red) in the left half and 128, 128 (neutral) in the right. */
static int write_y4m(const char *dir, const char *name, int frames, size_t cut)
{
    enum { W = 32, H = 16 };
    char hdr[128];
    int hl = snprintf(hdr, sizeof hdr, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG\n",
                      W, H);
    size_t fsz = 6 + W * H + 2 * (W / 2) * (H / 2);
    size_t total = (size_t)hl + (size_t)frames * fsz;
    uint8_t *buf = malloc(total), *p = buf;
    memcpy(p, hdr, (size_t)hl);
    p += hl;
    for (int k = 0; k < frames; k++) {
        memcpy(p, "FRAME\n", 6);
        p += 6;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) *p++ = (uint8_t)(x < 2 && y < 2 ? 235 : 16 + 40 * k);
        for (int plane = 0; plane < 2; plane++)
            for (int y = 0; y < H / 2; y++)
                for (int x = 0; x < W / 2; x++)
                    *p++ = (uint8_t)(x < W / 4 ? (plane == 0 ? 90 : 240) : 128);
    }
    int rc = write_file(dir, name, buf, total - cut);
    free(buf);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    char seq[4096];
    snprintf(seq, sizeof seq, "%s/seq", argv[1]);
    mkdir(argv[1], 0755);
    mkdir(seq, 0755);
    static uint8_t rgb[64 * 64 * 3], gray[64 * 64];
    static const uint8_t white[3] = {255, 255, 255}, black[3] = {0, 0, 0},
                         grey[3] = {128, 128, 128};
    for (int i = 0; i < 64 * 64; i++) gray[i] = (uint8_t)((i % 64) * 4); /* horizontal ramp */
    /* In name order: a.jpg, b.png, c.jpg (corrupt), d.png (gray), e.JPEG; notes.txt is ignored. */
    static const char corrupt[] = "\xff\xd8\xff\xe0 this is not a JPEG, it only starts like one";
    int rc = 0;
    quadrants(rgb, white);
    rc |= write_jpeg(seq, "a.jpg", rgb);
    rc |= write_png(seq, "b.png", rgb, false);
    rc |= write_file(seq, "c.jpg", corrupt, sizeof corrupt - 1);
    rc |= write_png(seq, "d.png", gray, true);
    quadrants(rgb, grey);
    rc |= write_jpeg(seq, "e.JPEG", rgb);
    quadrants(rgb, black);
    static const char notes[] = "not an image: the dir: source skips it\n";
    rc |= write_file(seq, "notes.txt", notes, sizeof notes - 1);
    rc |= write_y4m(argv[1], "clip.y4m", 4, 0);
    rc |= write_y4m(argv[1], "truncated.y4m", 3, 100);
    return rc ? 1 : 0;
}

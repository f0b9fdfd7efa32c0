/* app/cmd_read.c — `kifucam read IMAGE... --game go19|go13|go9 [--json]`: one photo -> the
 * position with a confidence per point. Rows from the board edge nearest the top of the image,
 * `.` empty, `X` black, `O` white, `?` unsure or hidden. Exit 0 when every image was read, 1 when a
 * board was not found in some image, 2 on usage errors or unreadable files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/commands.h"
#include "app/json_out.h"
#include "vision/vision.h"

static void read_usage(FILE *out)
{
    fprintf(out,
            "usage: kifucam read IMAGE.jpg... --game go19|go13|go9 [--json] [--debug DIR]\n"
            "       kifucam read START.jpg [NEXT.jpg...] --game shogi [--start POS] [--json]\n"
            "\n"
            "Finds the goban in each photo and prints the position: one row per board line from\n"
            "the edge nearest the top of the image, '.' empty, 'X' black, 'O' white, '?' unsure\n"
            "or hidden (a hand over the board). --json adds the grid corners and a confidence\n"
            "per point; --debug writes each stage's image into DIR.\n"
            "Shogi: photos of one game in order, the first the start position (the reader\n"
            "learns the set's pieces from it): the initial one, or with --start a handicap\n"
            "(lance, bishop, rook, two-piece...) or an SFEN; one SFEN line per photo. --json\n"
            "adds each cell's reading and confidence and what both komadai show.\n");
}

static char point_char(const struct observation *o, int p, double unsure)
{
    if (o->occluded[p] || o->conf[p] < unsure) return '?';
    return o->point[p] == OBS_BLACK ? 'X' : o->point[p] == OBS_WHITE ? 'O' : '.';
}

static void print_text(const char *path, const struct observation *o, double unsure, bool many)
{
    if (many) printf("%s:\n", path);
    for (int y = 0; y < o->h; y++) {
        for (int x = 0; x < o->w; x++) putchar(point_char(o, y * OBS_MAX + x, unsure));
        putchar('\n');
    }
}

static void print_json(const char *path, const struct observation *o, bool found, double unsure)
{
    printf("{\"image\":");
    json_string(stdout, path);
    printf(",\"found\":%s", found ? "true" : "false");
    if (found) {
        printf(",\"size\":%d,\"corners\":[", o->w);
        for (int c = 0; c < 4; c++)
            printf("%s[%.1f,%.1f]", c ? "," : "", o->corners[c][0], o->corners[c][1]);
        printf("],\"rows\":[");
        for (int y = 0; y < o->h; y++) {
            printf("%s\"", y ? "," : "");
            for (int x = 0; x < o->w; x++) putchar(point_char(o, y * OBS_MAX + x, unsure));
            putchar('"');
        }
        printf("],\"confidence\":[");
        for (int y = 0; y < o->h; y++) {
            printf("%s[", y ? "," : "");
            for (int x = 0; x < o->w; x++)
                printf("%s%.2f", x ? "," : "",
                       o->occluded[y * OBS_MAX + x] ? 0.0 : o->conf[y * OBS_MAX + x]);
            putchar(']');
        }
        printf("]");
    }
    printf("}\n");
}

int cmd_read(int argc, char **argv)
{
    int size = 0;
    bool json = false;
    const char *debug = NULL, *start = NULL;
    int nimg = 0;
    const char **imgs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *imgs);
    if (!imgs) return 2;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--game") && i + 1 < argc) {
            const char *g = argv[++i];
            if (!strcmp(g, "shogi")) {
                size = -9; /* shogi: the reader of vision/shogi_read.h */
                continue;
            }
            size = !strcmp(g, "go19") ? 19 : !strcmp(g, "go13") ? 13 : !strcmp(g, "go9") ? 9 : -1;
            if (size < 0) {
                fprintf(stderr, "kifucam read: --game %s: use go19, go13 or go9\n", g);
                free(imgs);
                return 2;
            }
        } else if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--debug") && i + 1 < argc)
            debug = argv[++i];
        else if (!strcmp(argv[i], "--start") && i + 1 < argc)
            start = argv[++i];
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            read_usage(stdout);
            free(imgs);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "kifucam read: unknown option %s\n", argv[i]);
            read_usage(stderr);
            free(imgs);
            return 2;
        } else
            imgs[nimg++] = argv[i];
    }
    if (!nimg || !size) {
        read_usage(stderr);
        free(imgs);
        return 2;
    }
    if (size == -9) {
        int rc = cmd_read_shogi(nimg, imgs, json, start);
        free(imgs);
        return rc;
    }
    struct vision_detector *det = vision_detector_new();
    struct observation *obs = malloc(sizeof *obs);
    if (!det || !obs) {
        vision_detector_free(det);
        free(obs);
        free(imgs);
        return 2;
    }
    det->board_size = size;
    det->still_crowds = true; /* photos: each read on its own, no settling behind it */
    if (debug) det->debug = true, det->debug_dir = debug;
    int status = 0;
    for (int i = 0; i < nimg; i++) {
        struct vision_image img;
        char err[512];
        if (!vision_load_jpeg(imgs[i], false, &img, err, sizeof err)) {
            fprintf(stderr, "kifucam read: %s\n", err);
            status = 2;
            continue;
        }
        vision_detector_reset(det); /* each photo on its own */
        bool found = vision_read_go(det, &img, obs);
        free((void *)img.data);
        if (json)
            print_json(imgs[i], obs, found, det->unsure_conf);
        else if (found)
            print_text(imgs[i], obs, det->unsure_conf, nimg > 1);
        if (!found) {
            if (!json) fprintf(stderr, "kifucam read: %s: no board found\n", imgs[i]);
            if (status == 0) status = 1;
        }
    }
    vision_detector_free(det);
    free(obs);
    free(imgs);
    return status;
}

/* app/cmd_read_shogi.c — `kifucam read START.jpg [NEXT.jpg...] --game shogi`: photos of one game
 * in order, the first showing the initial position. The reader learns the set's pieces from it
 * (vision/shogi_read.h), then follows the game photo by photo, taking the legal move that explains
 * what changed; one SFEN line per photo, with the pieces in hand from the moves. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/commands.h"
#include "vision/shogi_read.h"

static void print_line(const char *img, const struct shogi_position *pos,
                       const struct shogi_reader_stats *st, bool json)
{
    char sfen[SHOGI_SFEN_MAX];
    shogi_sfen_format(pos, sfen, sizeof sfen);
    if (json)
        printf("{\"image\":\"%s\",\"sfen\":\"%s\",\"cells_changed\":%d,\"move_fit\":%.2f,"
               "\"ms\":%.1f}\n",
               img, sfen, st->changed, st->move_fit, st->ms);
    else
        printf("%s: %s\n", img, sfen);
}

int cmd_read_shogi(int nimg, const char *const *imgs, bool json)
{
    struct shogi_reader *r = shogi_reader_new();
    if (!r) return 2;
    struct shogi_position pos;
    shogi_position_startpos(&pos);
    int status = 0;
    bool started = false;
    for (int i = 0; i < nimg; i++) {
        struct vision_image img;
        char err[512];
        if (!vision_load_jpeg(imgs[i], true, &img, err, sizeof err)) {
            fprintf(stderr, "kifucam read: %s\n", err);
            status = 2;
            continue;
        }
        bool ok = started ? shogi_reader_track(r, &img, &pos) : shogi_reader_start(r, &img);
        free((void *)img.data);
        if (!ok) {
            fprintf(stderr, "kifucam read: %s: %s\n", imgs[i],
                    started ? "no board, or no legal move explains it (position kept)"
                            : "no shogiban in the initial position found");
            if (status == 0) status = 1;
            if (!started) continue;
        }
        started = true;
        print_line(imgs[i], &pos, shogi_reader_stats(r), json);
    }
    shogi_reader_free(r);
    return status;
}

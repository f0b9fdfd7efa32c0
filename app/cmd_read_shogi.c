/* app/cmd_read_shogi.c — `kifucam read START.jpg [NEXT.jpg...] --game shogi [--start POS]`: photos
 * of one game in order, the first showing the start position (the initial one, or a handicap or
 * SFEN given with --start). The reader learns the set's pieces from it (vision/shogi_read.h),
 * then follows the game photo by photo, taking the legal move that explains what changed; one
 * SFEN line per photo, with the pieces in hand from the moves. --json adds what each cell reads
 * (piece, confidence, hidden by a hand) and what both komadai show. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/commands.h"
#include "app/config.h"
#include "app/json_out.h"
#include "vision/shogi_read.h"

/* A piece as in SFEN ("+b", "P"), "" for empty. */
static void piece_text(int piece, char buf[4])
{
    int n = 0;
    if (piece) {
        enum shogi_type t = (enum shogi_type)shogi_piece_type(piece);
        if (shogi_type_is_promoted(t)) buf[n++] = '+';
        char c = shogi_type_sfen(shogi_type_base(t));
        buf[n++] = shogi_piece_color(piece) == SHOGI_SENTE ? c : (char)(c + ('a' - 'A'));
    }
    buf[n] = '\0';
}

static void print_hand(const struct hand_obs *h)
{
    printf("{\"visible\":%s,\"covered\":%s,\"conf\":%.2f,\"pieces\":{",
           h->visible ? "true" : "false", h->covered ? "true" : "false", h->conf);
    int n = 0;
    for (int t = 0; t < 7; t++)
        if (h->count[t])
            printf("%s\"%c\":%d", n++ ? "," : "", shogi_type_sfen((enum shogi_type)(t + 1)),
                   h->count[t]);
    printf("}}");
}

static void print_json(const char *img, const char *sfen, const struct shogi_reader_stats *st,
                       const struct observation *o, const struct hand_obs hands[2])
{
    printf("{\"image\":");
    json_string(stdout, img);
    printf(",\"sfen\":\"%s\",\"cells_changed\":%d,\"move_fit\":%.2f,\"ms\":%.1f,\"cells\":[", sfen,
           st->changed, st->move_fit, st->ms);
    /* rank a (gote's side) first, file 9 first: the order of an SFEN board */
    for (int rank = 1; rank <= 9; rank++)
        for (int file = 9; file >= 1; file--) {
            int p = (rank - 1) * OBS_MAX + (9 - file);
            char pc[4];
            piece_text(o->occluded[p] ? 0 : o->point[p], pc);
            printf("%s{\"square\":\"%d%c\",\"piece\":\"%s\",\"conf\":%.2f,\"hidden\":%s}",
                   rank == 1 && file == 9 ? "" : ",", file, 'a' + rank - 1, pc,
                   o->occluded[p] ? 0.0 : o->conf[p], o->occluded[p] ? "true" : "false");
        }
    printf("],\"komadai\":{\"sente\":");
    print_hand(&hands[SHOGI_SENTE]);
    printf(",\"gote\":");
    print_hand(&hands[SHOGI_GOTE]);
    printf("}}\n");
}

int cmd_read_shogi(int nimg, const char *const *imgs, bool json, const char *start_name)
{
    struct shogi_position pos;
    char err[512];
    if (!kc_shogi_start(start_name ? start_name : "", &pos, err, sizeof err)) {
        fprintf(stderr, "kifucam read: --start: %s\n", err);
        return 2;
    }
    struct shogi_reader *r = shogi_reader_new();
    struct observation *o = calloc(1, sizeof *o);
    if (!r || !o) {
        shogi_reader_free(r);
        free(o);
        return 2;
    }
    int status = 0;
    bool started = false;
    for (int i = 0; i < nimg; i++) {
        struct vision_image img;
        /* in colour: promoted faces are told by their ink (a grey photo reads as grey) */
        if (!vision_load_jpeg(imgs[i], false, &img, err, sizeof err)) {
            fprintf(stderr, "kifucam read: %s\n", err);
            status = 2;
            continue;
        }
        bool ok =
            started ? shogi_reader_track(r, &img, &pos) : shogi_reader_start_from(r, &img, &pos);
        if (!ok) {
            fprintf(stderr, "kifucam read: %s: %s\n", imgs[i],
                    started ? "no board, or no legal move explains it (position kept)"
                            : "no shogiban showing the start position found");
            if (status == 0) status = 1;
            if (!started) {
                free((void *)img.data);
                continue;
            }
        }
        started = true;
        char sfen[SHOGI_SFEN_MAX];
        shogi_sfen_format(&pos, sfen, sizeof sfen);
        if (json) {
            /* the photo read as a settled view, cell by cell, and both stands */
            struct hand_obs hands[2];
            memset(hands, 0, sizeof hands);
            struct shogi_reader_stats st = *shogi_reader_stats(r);
            shogi_reader_observe(r, &img, o);
            shogi_reader_settled(r, o);
            shogi_reader_hands(r, &img, hands);
            print_json(imgs[i], sfen, &st, o, hands);
        } else {
            printf("%s: %s\n", imgs[i], sfen);
        }
        free((void *)img.data);
    }
    shogi_reader_free(r);
    free(o);
    return status;
}

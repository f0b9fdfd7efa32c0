/* app/cmd_demo.c — `kifucam demo`: the bundled sample clip through the whole daemon, live page up,
 * records written; exit 0 when the recorded moves equal the sample game's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/commands.h"
#include "app/config.h"
#include "app/daemon.h"
#include "record/sgf.h"

static bool is_dir(const char *p)
{
    struct stat st;
    return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* The clip: --clip, $KIFUCAM_DATA/sample/clip, ./data/sample/clip, then the source tree. */
static bool find_clip(const char *given, char *out, size_t n)
{
    if (given) {
        snprintf(out, n, "%s", given);
        return is_dir(out);
    }
    const char *env = getenv("KIFUCAM_DATA");
    if (env) {
        snprintf(out, n, "%s/sample/clip", env);
        if (is_dir(out)) return true;
    }
    snprintf(out, n, "data/sample/clip");
    if (is_dir(out)) return true;
#ifdef KIFUCAM_SOURCE_DIR
    snprintf(out, n, "%s/data/sample/clip", KIFUCAM_SOURCE_DIR);
    if (is_dir(out)) return true;
#endif
    return false;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: kifucam demo [--out DIR] [--realtime] [--serve ADDR] [--clip DIR]\n\n"
            "Replays the bundled sample clip (a rendered 9x9 game) through capture, vision, the\n"
            "rule guard and the records, with the live page up, and compares the recorded moves\n"
            "with the sample game's. Default: as fast as possible, records in ./kifucam-demo,\n"
            "live page on 127.0.0.1 at a free port (--serve 127.0.0.1:8080 to choose).\n");
}

int cmd_demo(int argc, char **argv)
{
    struct kc_config c;
    kc_config_default(&c);
    snprintf(c.out_dir, sizeof c.out_dir, "kifucam-demo");
    snprintf(c.serve, sizeof c.serve, "127.0.0.1:0");
    const char *clip_opt = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--clip") && i + 1 < argc) clip_opt = argv[++i];
    }
    char clip[1024], sgf[1100];
    if (!find_clip(clip_opt, clip, sizeof clip)) {
        fprintf(stderr, "kifucam demo: sample clip not found (data/sample/clip; set KIFUCAM_DATA "
                        "or --clip DIR)\n");
        return 2;
    }
    /* The clip's own settings (frame rate, orientation), then the command line over them. */
    char conf[1100], err[1300];
    snprintf(conf, sizeof conf, "%s/kifucam.conf", clip);
    if (!access(conf, R_OK) && kc_config_load(&c, conf, err, sizeof err)) {
        fprintf(stderr, "kifucam demo: %s\n", err);
        return 2;
    }
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--clip")) {
            i++;
            continue;
        }
        int r = record_common_option(&c, argc, argv, &i);
        if (r < 0) return 2;
        if (r == 0) {
            fprintf(stderr, "kifucam demo: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    snprintf(sgf, sizeof sgf, "%s/game.sgf", clip);
    struct go_record **games = NULL;
    struct sgf_error se;
    int ng = sgf_read_file(sgf, &games, &se);
    if (ng < 1) {
        fprintf(stderr, "kifucam demo: %s\n", ng < 0 ? se.message : "no game in the sample");
        return 2;
    }
    struct go_record *g = games[0];
    c.board_size = g->width;
    c.komi = g->komi;
    if (g->black) snprintf(c.black, sizeof c.black, "%s", g->black);
    if (g->white) snprintf(c.white, sizeof c.white, "%s", g->white);
    snprintf(c.event, sizeof c.event, "kifucam demo");
    snprintf(c.source, sizeof c.source, "dir:%.500s", clip);
    /* A demo starts afresh: an old demo journal would be resumed instead. */
    char old[1100];
    snprintf(old, sizeof old, "%s/game.journal", c.out_dir);
    remove(old);

    printf("kifucam demo: replaying %s (%dx%d, %s)\n", clip, g->width, g->height,
           c.realtime ? "in real time" : "as fast as possible");
    fflush(stdout);
    struct daemon_result res;
    int rc = daemon_run(&c, NULL, &res);
    if (rc) {
        for (int i = 0; i < ng; i++) go_record_free(games[i]);
        free(games);
        return 1;
    }
    int want = 0, match = 0;
    for (int i = 1; i < g->nnodes; i++) {
        if (!g->nodes[i].has_move) continue;
        if (want < res.moves && res.move[want].color == g->nodes[i].move.color &&
            res.move[want].point == g->nodes[i].move.point && match == want)
            match++;
        want++;
    }
    bool same = want == res.moves && match == want;
    printf("records written to %s/ (game.sgf, game.journal)\n", c.out_dir);
    record_print_figures(&res);
    printf("recorded %d moves; the sample game has %d; %d match in order from the start: %s\n",
           res.moves, want, match, same ? "the record equals the sample game" : "MISMATCH");
    free(res.move);
    for (int i = 0; i < ng; i++) go_record_free(games[i]);
    free(games);
    return same ? 0 : 1;
}

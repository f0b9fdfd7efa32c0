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
#include "record/shogi_record.h"

static bool is_dir(const char *p)
{
    struct stat st;
    return !stat(p, &st) && S_ISDIR(st.st_mode);
}

/* The clip NAME: --clip, $KIFUCAM_DATA/sample/NAME, ./data/sample/NAME, then the source tree. */
static bool find_clip(const char *given, const char *name, char *out, size_t n)
{
    if (given) {
        snprintf(out, n, "%s", given);
        return is_dir(out);
    }
    const char *env = getenv("KIFUCAM_DATA");
    if (env) {
        snprintf(out, n, "%s/sample/%s", env, name);
        if (is_dir(out)) return true;
    }
    snprintf(out, n, "data/sample/%s", name);
    if (is_dir(out)) return true;
#ifdef KIFUCAM_SOURCE_DIR
    snprintf(out, n, "%s/data/sample/%s", KIFUCAM_SOURCE_DIR, name);
    if (is_dir(out)) return true;
#endif
    return false;
}

/* Shogi: the clip's video through the daemon; game.kif on disk against the clip's game.usi. */
static int demo_shogi(struct kc_config *c, const char *clip)
{
    char want_path[1100], got_path[1100];
    snprintf(want_path, sizeof want_path, "%s/game.usi", clip);
    snprintf(c->source, sizeof c->source, "file:%.480s/clip.mp4", clip);
    struct shogi_record **want = NULL;
    struct shogi_record_error err = {0};
    int nw = shogi_record_read_file(want_path, &want, &err);
    if (nw < 1) {
        fprintf(stderr, "kifucam demo: %s: %s\n", want_path, err.message);
        return 2;
    }
    printf("kifucam demo: replaying %s/clip.mp4 (shogi, %s)\n", clip,
           c->realtime ? "in real time" : "as fast as possible");
    fflush(stdout);
    struct daemon_result res;
    int rc = daemon_run(c, NULL, &res);
    free(res.move);
    int match = 0, got_n = -1;
    if (!rc) {
        snprintf(got_path, sizeof got_path, "%s/game.kif", c->out_dir);
        struct shogi_record **got = NULL;
        int ng = shogi_record_read_file(got_path, &got, &err);
        if (ng >= 1) {
            got_n = got[0]->nmoves;
            while (match < got_n && match < want[0]->nmoves &&
                   shogi_move_equal(got[0]->moves[match].move, want[0]->moves[match].move))
                match++;
            shogi_records_free(got, ng);
        } else {
            fprintf(stderr, "kifucam demo: %s: %s\n", got_path, err.message);
        }
    }
    int nwant = want[0]->nmoves;
    shogi_records_free(want, nw);
    if (rc) return 1;
    bool same = got_n == nwant && match == nwant;
    printf("records written to %s/ (game.kif, game.csa, game.journal)\n", c->out_dir);
    record_print_figures(&res);
    printf("recorded %d moves; the sample game has %d; %d match in order from the start: %s\n",
           got_n, nwant, match, same ? "the record equals the sample game" : "MISMATCH");
    return same ? 0 : 1;
}

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: kifucam demo [--game shogi] [--out DIR] [--realtime] [--serve ADDR] [--clip "
        "DIR]\n\n"
        "Replays the bundled sample clip (a rendered 9x9 Go game; with --game shogi a rendered\n"
        "video of a shogi title game's opening) through capture, vision, the rule guard and\n"
        "the records, with the live page up, and compares the recorded moves with the sample\n"
        "game's. Default: as fast as possible, records in ./kifucam-demo, live page on\n"
        "127.0.0.1 at a free port (--serve 127.0.0.1:8080 to choose).\n");
}

int cmd_demo(int argc, char **argv)
{
    struct kc_config c;
    kc_config_default(&c);
    snprintf(c.out_dir, sizeof c.out_dir, "kifucam-demo");
    snprintf(c.serve, sizeof c.serve, "127.0.0.1:0");
    const char *clip_opt = NULL;
    bool shogi = false;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--clip") && i + 1 < argc) clip_opt = argv[++i];
        if (!strcmp(argv[i], "--game") && i + 1 < argc) shogi = !strcmp(argv[i + 1], "shogi");
    }
    const char *name = shogi ? "shogi-clip" : "clip";
    char clip[1024], sgf[1100];
    if (!find_clip(clip_opt, name, clip, sizeof clip)) {
        fprintf(stderr,
                "kifucam demo: sample clip not found (data/sample/%s; set KIFUCAM_DATA or "
                "--clip DIR)\n",
                name);
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
    /* A demo starts afresh: an old demo journal would be resumed instead. */
    char old[1100];
    snprintf(old, sizeof old, "%s/game.journal", c.out_dir);
    remove(old);
    if (c.shogi) return demo_shogi(&c, clip);
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

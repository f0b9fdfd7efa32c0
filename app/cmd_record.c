/* app/cmd_record.c — `kifucam record`: options over the configuration file, then the daemon. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/commands.h"
#include "app/config.h"
#include "app/daemon.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: kifucam record --source SRC --game go19|go13|go9|shogi [options]\n\n"
            "Records a game from a camera, a video or an image folder: the SGF rewritten after\n"
            "every move, a crash-safe journal, the live page and MQTT. A restart with the same\n"
            "--out continues the game from its journal. SIGINT/SIGTERM finish the record,\n"
            "SIGHUP reloads the configuration file (players, event, log level).\n\n"
            "  --source SRC     libcamera[:N], v4l2:/dev/videoN, file:VIDEO, dir:PATH,\n"
            "                   faulty:SRC?fail_after=N&fail_for=M (tests)\n"
            "  --game G         go19, go13, go9 or shogi (KIF and CSA records)\n"
            "  --rules NAME     rule set (default \"Japanese 1989\")\n"
            "  --handicap N     Go: N stones (2..9), on the star points unless\n"
            "  --handicap-placement free   (Black's first N moves)\n"
            "  --start POS      shogi: a handicap (lance, bishop, rook, two-piece...; 上手\n"
            "                   moves first) or an SFEN to start from (default: even)\n"
            "  --komi K         komi (default 6.5)\n"
            "  --out DIR        output folder (default kifucam-records)\n"
            "  --serve ADDR     live page on HOST:PORT (e.g. 127.0.0.1:8080, :0 = any port)\n"
            "  --referee-token T  enable the referee view with this token\n"
            "  --mqtt URL       mqtt://HOST[:PORT]\n"
            "  --config FILE    INI configuration (see docs/kifucam.conf.example)\n"
            "  --realtime       replay files and folders at their frame times\n"
            "  --speed X        with --realtime: X times as fast (frame times are kept)\n"
            "  --loop           start files and folders again at their end (soak runs)\n"
            "  --observations   log every stable observation to OUT/observations.obs\n"
            "  --fps F          frame rate of folders (default 30)\n"
            "  --size WxH       frame size wanted\n"
            "  --rotate DEG     the board is turned 0, 90, 180 or 270 degrees in the image\n"
            "  --settle S       seconds the view must hold still (default 0.5)\n"
            "  --log LEVEL      error, warn, info (default) or debug\n"
            "  --quiet          no progress line\n");
}

/* Options shared with `kifucam demo`. Returns 1 when argv[*i] was taken, -1 on a bad value, 0
 * when it is not a shared option. */
int record_common_option(struct kc_config *c, int argc, char **argv, int *i)
{
    const char *o = argv[*i];
    static const struct {
        const char *opt, *section, *key;
    } map[] = {
        {"--source", "camera", "source"},
        {"--game", "game", "game"},
        {"--rules", "game", "rules"},
        {"--komi", "game", "komi"},
        {"--out", "output", "dir"},
        {"--serve", "network", "serve"},
        {"--mqtt", "network", "mqtt"},
        {"--fps", "camera", "fps"},
        {"--log", "log", "level"},
        {"--referee-token", "network", "referee_token"},
        {"--black", "game", "black"},
        {"--white", "game", "white"},
        {"--event", "game", "event"},
        {"--rotate", "camera", "rotate"},
        {"--settle", "camera", "settle_s"},
        {"--speed", "camera", "speed"},
        {"--start", "game", "start"},
        {"--handicap", "game", "handicap"},
        {"--handicap-placement", "game", "handicap_placement"},
    };
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++) {
        if (strcmp(o, map[k].opt)) continue;
        if (*i + 1 >= argc) {
            fprintf(stderr, "kifucam: %s needs a value\n", o);
            return -1;
        }
        char err[256];
        if (kc_config_set(c, map[k].section, map[k].key, argv[++*i], err, sizeof err)) {
            fprintf(stderr, "kifucam: %s: %s\n", o, err);
            return -1;
        }
        return 1;
    }
    if (!strcmp(o, "--observations")) {
        c->observations = true;
        return 1;
    }
    if (!strcmp(o, "--loop")) {
        c->loop = true;
        return 1;
    }
    if (!strcmp(o, "--realtime")) {
        c->realtime = true;
        return 1;
    }
    if (!strcmp(o, "--quiet")) {
        c->progress = false;
        return 1;
    }
    if (!strcmp(o, "--size")) {
        if (*i + 1 >= argc || sscanf(argv[++*i], "%dx%d", &c->width, &c->height) != 2) {
            fprintf(stderr, "kifucam: --size wants WxH\n");
            return -1;
        }
        return 1;
    }
    return 0;
}

/* --config is read first, wherever it stands, so options override it. */
const char *record_config_path(int argc, char **argv)
{
    for (int i = 0; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--config")) return argv[i + 1];
    return NULL;
}

void record_print_figures(const struct daemon_result *r)
{
    double f = r->frames ? (double)r->frames : 1;
    printf("frames %llu (%llu dropped, %llu source errors, %d reconnects), %.1f fps over %.1f s\n",
           (unsigned long long)r->frames, (unsigned long long)r->frames_dropped,
           (unsigned long long)r->source_errors, r->reconnects, r->fps, r->seconds);
    printf("per frame: capture %.2f ms, vision %.2f ms, settle+guard %.3f ms, record %.3f ms\n",
           r->stage_ms[0] / f, r->stage_ms[1] / f, r->stage_ms[2] / f, r->stage_ms[3] / f);
}

int cmd_record(int argc, char **argv)
{
    struct kc_config c;
    kc_config_default(&c);
    const char *cfg_path = record_config_path(argc, argv);
    char err[512];
    if (cfg_path && kc_config_load(&c, cfg_path, err, sizeof err)) {
        fprintf(stderr, "kifucam: %s\n", err);
        return 2;
    }
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--config")) {
            i++;
            continue;
        }
        int r = record_common_option(&c, argc, argv, &i);
        if (r < 0) return 2;
        if (r == 0) {
            fprintf(stderr, "kifucam record: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (!c.source[0]) {
        fprintf(stderr, "kifucam record: --source is required\n");
        usage(stderr);
        return 2;
    }
    struct daemon_result res;
    int rc = daemon_run(&c, cfg_path, &res);
    if (rc == 0) {
        printf("recorded %d moves, %d flags: %s (journal %s)\n", res.moves, res.flags, res.sgf_path,
               res.journal_path);
        record_print_figures(&res);
    }
    free(res.move);
    return rc;
}

/* app/cmd_render.c — `kifucam render RECORD --out DIR [...]`: synthetic camera frames of a
 * recorded Go game (SGF) or shogi game (KIF, KI2, CSA, USI, JKF) plus truth.jsonl (the renderer
 * lives in render/). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "app/commands.h"
#include "render/render.h"

static void render_usage(FILE *out)
{
    fprintf(
        out,
        "usage: kifucam render RECORD --out DIR [options]\n"
        "       kifucam render RECORD --out DIR/NAME.mp4|.mkv [options]   (a video)\n"
        "       kifucam render RECORD --contact-sheet FILE.png|FILE.jpg [--seed N]\n"
        "       kifucam render RECORD --scene-sheet FILE.jpg [--seed N]\n"
        "\n"
        "Films a recorded game with a simulated camera: JPEG frames (30 fps time line, hands\n"
        "placing stones or moving pieces, prisoners taken off, captured pieces put on the\n"
        "komadai, bumps) and DIR/truth.jsonl with the exact position, hand-covered points, grid\n"
        "corners and events of every frame. Same seed, same bytes. RECORD is Go (.sgf) or shogi\n"
        "(.kif .kifu .ki2 .csa .usi .sfen .jkf).\n"
        "\n"
        "options:\n"
        "  --out DIR          output folder (created if missing); DIR/NAME.mp4 or .mkv\n"
        "                     writes that video with DIR/truth.jsonl beside it\n"
        "  --video            a video DIR/video.mp4 instead of JPEG frames (30 fps, H.264;\n"
        "                     MJPEG when no H.264 encoder is there); even frame sizes only\n"
        "  --mjpeg            the video in MJPEG even when H.264 is there\n"
        "  --seed N           random seed (default 1)\n"
        "  --style S          kaya, light, vinyl, folding or random (default random)\n"
        "  --scenario S       overhead, player, side, partial, dim, glare or mixed (default);\n"
        "                     shadows, leaning, clock: what the players do (see --list)\n"
        "  --size WxH         frame size (default 1280x960)\n"
        "  --moves N          render only the first N moves\n"
        "  --quality Q        JPEG quality 1..100 (default: chosen by the seed, 70..95)\n"
        "  --bump-rate P      chance per move of a bump shifting the board (default 0.04)\n"
        "  --think S          mean seconds players think after a move (default 0: blitz)\n"
        "  --no-hands         stones appear without hands\n"
        "  --truth-only       write DIR/truth.jsonl only, no frames (the same time line,\n"
        "                     much faster; what a hand covers is not known then)\n"
        "  --faults LIST      inject faults (comma-separated, or all): go: same-color,\n"
        "                     moved-stone, removed-stone, captures-left, knocked,\n"
        "                     ko-retaken, suicide; shogi:\n"
        "                     not-in-hand, hidden, wrong-way, opponent-piece, knocked\n"
        "  --signals LIST     show signals at the end: go: pass, end, resign, counting;\n"
        "                     shogi: resign (a hand resting over the komadai)\n"
        "  --game N           which game of a multi-game file (default 1)\n"
        "  --list             list every style, scenario, fault and signal\n"
        "  --contact-sheet F  12 varied frames of the game tiled into one picture\n"
        "                     (F.png: a PNG, any other name: a JPEG)\n"
        "  --scene-sheet F    12 frames of the shadows, leaning and clock scenarios (and,\n"
        "                     for Go, of the counting after the game) in one JPEG\n");
}

/* Every knob the renderer has, for people choosing footage (`--list`). */
static void list_knobs(void)
{
    printf("styles (--style):\n");
    for (int i = 0; i < RENDER_STYLE_COUNT; i++) printf("  %s\n", render_style_name(i));
    printf("scenarios (--scenario): camera and light; the last three add what players do\n");
    static const char *const what[RENDER_SCENE_COUNT] = {
        "any of overhead .. glare, chosen by the seed",
        "camera nearly straight above, board centred",
        "from behind one player, tilt 20-40 degrees",
        "from the side of the table, tilt 25-45 degrees",
        "off-centre, part of the board outside the frame",
        "poor light: warm, dark, noisy, soft focus",
        "a lamp's glare spot and strongly uneven light",
        "players' soft shadows drift across the board (not covered in the truth)",
        "a player leans in over one edge (hidden points are covered in the truth)",
        "a hand rests on the clock beside the board (covers nothing)"};
    for (int i = 0; i < RENDER_SCENE_COUNT; i++)
        printf("  %-9s %s\n", render_scenario_name(i), what[i]);
    printf("faults (--faults, comma-separated or all):\n");
    for (unsigned b = 1; render_fault_name(b); b <<= 1) printf("  %s\n", render_fault_name(b));
    printf("signals (--signals, comma-separated or all):\n");
    for (unsigned b = 1; render_signal_name(b); b <<= 1) printf("  %s\n", render_signal_name(b));
    printf("seeded per render: lens (fov, barrel), tilt/yaw/roll, white balance and exposure "
           "drift, vignette, glare, blur, noise, JPEG quality 70-95, skin and sleeve colours, "
           "stone look (shell/glass), piece wood and font, bumps (--bump-rate)\n");
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static bool is_shogi_record(const char *path)
{
    static const char *const ext[] = {".kif", ".kifu", ".ki2",  ".ki2u",
                                      ".csa", ".usi",  ".sfen", ".jkf"};
    const char *dot = strrchr(path, '.');
    for (size_t i = 0; dot && i < sizeof ext / sizeof *ext; i++)
        if (!strcasecmp(dot, ext[i])) return true;
    return false;
}

/* Faults and signals asked for that the render could not show: said on stderr (the truth header
 * lists them too), so nobody takes a clean clip for one with faults. */
static void warn_unplaced(const char *record, const struct render_summary *sum)
{
    for (unsigned b = 1; render_fault_name(b); b <<= 1) {
        if (sum->faults_unplaced & b)
            fprintf(stderr, "kifucam render: %s: fault %s found no place in this game\n", record,
                    render_fault_name(b));
        if (sum->faults_other_game & b)
            fprintf(stderr, "kifucam render: %s: fault %s is not one of this game's\n", record,
                    render_fault_name(b));
    }
    for (unsigned b = 1; render_signal_name(b); b <<= 1)
        if (sum->signals_unplaced & b)
            fprintf(stderr,
                    "kifucam render: %s: signal %s not shown (no room, or not this game's)\n",
                    record, render_signal_name(b));
}

/* The frames/s line of a finished render. */
static void report(const char *record, const struct render_summary *sum, double s, const char *out,
                   const struct render_opts *o)
{
    printf("%s: %d frames in %.1f s (%.1f frames/s) -> %s%s%s%s%s\n", record, sum->frames, s,
           s > 0 ? sum->frames / s : 0.0, out, o->video ? "/" : "", o->video ? o->video : "",
           sum->codec[0] ? ", " : "", sum->codec);
    warn_unplaced(record, sum);
}

static int render_shogi_cmd(const char *record, const struct render_opts *o, const char *out,
                            const char *sheet, bool scene_sheet, long game)
{
    struct shogi_record **games = NULL;
    struct shogi_record_error serr = {0};
    int ngames = shogi_record_read_file(record, &games, &serr);
    if (ngames < 0) {
        fprintf(stderr, "kifucam render: %s\n", serr.message);
        return 2;
    }
    int rc = 0;
    char err[300] = "";
    if (game > ngames) {
        fprintf(stderr, "kifucam render: %s: has %d game(s), no game %ld\n", record, ngames, game);
        rc = 2;
    } else if (sheet) {
        bool made = scene_sheet ? render_shogi_scene_sheet(games[game - 1], o->seed, 320, 240,
                                                           sheet, err, sizeof err)
                                : render_shogi_contact_sheet(games[game - 1], o->seed, 320, 240,
                                                             sheet, err, sizeof err);
        if (!made) {
            fprintf(stderr, "kifucam render: %s: %s\n", record, err);
            rc = 1;
        } else {
            printf("%s: contact sheet -> %s\n", record, sheet);
        }
    } else {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        struct render_summary sum;
        int frames = render_shogi_save(games[game - 1], record, o, out, &sum, err, sizeof err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (frames < 0) {
            fprintf(stderr, "kifucam render: %s: %s\n", record, err);
            rc = 1;
        } else {
            report(record, &sum, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
                   out, o);
        }
    }
    shogi_records_free(games, ngames);
    return rc;
}

/* --out DIR/NAME.mp4 (or .mkv): the video NAME in DIR; --video: DIR/video.mp4. */
static bool split_video_out(const char *out, bool want_video, char *dir, size_t dirlen,
                            struct render_opts *o)
{
    static char name[256];
    const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    bool named =
        dot && (!slash || dot > slash) && (!strcasecmp(dot, ".mp4") || !strcasecmp(dot, ".mkv"));
    snprintf(dir, dirlen, "%s", out);
    if (!named) {
        if (want_video) o->video = "video.mp4";
        return true;
    }
    const char *base = slash ? slash + 1 : out;
    if (strlen(base) >= sizeof name) {
        fprintf(stderr, "kifucam render: video name too long: %s\n", base);
        return false;
    }
    snprintf(name, sizeof name, "%s", base);
    o->video = name;
    if (!slash)
        snprintf(dir, dirlen, ".");
    else if (slash == out)
        snprintf(dir, dirlen, "/");
    else
        dir[slash - out] = '\0';
    return true;
}

int cmd_render(int argc, char **argv)
{
    struct render_opts o;
    render_opts_default(&o);
    const char *record = NULL, *out = NULL, *sheet = NULL;
    bool scene_sheet = false;
    long game = 1;
    bool want_video = false;
    char out_dir[4096];
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            render_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--list")) {
            list_knobs();
            return 0;
        } else if (!strcmp(a, "--no-hands")) {
            o.hands = false;
            continue;
        } else if (!strcmp(a, "--truth-only")) {
            o.truth_only = true;
            continue;
        } else if (!strcmp(a, "--video")) {
            want_video = true;
            continue;
        } else if (!strcmp(a, "--mjpeg")) {
            want_video = true;
            o.video_mjpeg = true;
            continue;
        } else if (a[0] != '-' || !a[1]) {
            if (record) {
                fprintf(stderr, "kifucam render: one record at a time ('%s' and '%s')\n", record,
                        a);
                return 2;
            }
            record = a;
            continue;
        }
        if (!val) {
            fprintf(stderr, "kifucam render: %s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--out")) {
            out = val;
        } else if (!strcmp(a, "--contact-sheet") || !strcmp(a, "--scene-sheet")) {
            sheet = val;
            scene_sheet = !strcmp(a, "--scene-sheet");
        } else if (!strcmp(a, "--seed")) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(val, &end, 10);
            if (errno || end == val || *end) goto bad;
            o.seed = s;
        } else if (!strcmp(a, "--style")) {
            int s = render_style_find(val);
            if (s < 0) goto bad;
            o.style = (enum render_style)s;
        } else if (!strcmp(a, "--scenario")) {
            int s = render_scenario_find(val);
            if (s < 0) goto bad;
            o.scenario = (enum render_scenario)s;
        } else if (!strcmp(a, "--size")) {
            int w, h;
            char x;
            if (sscanf(val, "%d%c%d", &w, &x, &h) != 3 || (x != 'x' && x != 'X')) goto bad;
            o.width = w;
            o.height = h;
        } else if (!strcmp(a, "--moves")) {
            if (!parse_long(val, 1, 100000, &n)) goto bad;
            o.max_moves = (int)n;
        } else if (!strcmp(a, "--quality")) {
            if (!parse_long(val, 1, 100, &n)) goto bad;
            o.jpeg_quality = (int)n;
        } else if (!strcmp(a, "--bump-rate")) {
            char *end;
            double p = strtod(val, &end);
            if (end == val || *end || p < 0 || p > 1) goto bad;
            o.bump_rate = p;
        } else if (!strcmp(a, "--think")) {
            char *end;
            double s = strtod(val, &end);
            if (end == val || *end || !(s >= 0 && s <= 600)) goto bad;
            o.think_s = s;
        } else if (!strcmp(a, "--faults") || !strcmp(a, "--signals")) {
            char why[120];
            bool okp = a[2] == 'f' ? render_faults_parse(val, &o.faults, why, sizeof why)
                                   : render_signals_parse(val, &o.signals, why, sizeof why);
            if (!okp) {
                fprintf(stderr, "kifucam render: %s: %s\n", a, why);
                return 2;
            }
        } else if (!strcmp(a, "--game")) {
            if (!parse_long(val, 1, 1000000, &game)) goto bad;
        } else {
            fprintf(stderr, "kifucam render: unknown option '%s'\n", a);
            render_usage(stderr);
            return 2;
        }
        continue;
    bad:
        fprintf(stderr, "kifucam render: bad value '%s' for %s (see --help)\n", val, a);
        return 2;
    }
    if (!record || (!out && !sheet)) {
        fprintf(stderr, "kifucam render: %s\n", !record ? "no record given" : "--out DIR missing");
        render_usage(stderr);
        return 2;
    }
    if (out && !split_video_out(out, want_video, out_dir, sizeof out_dir, &o)) return 2;
    if (out) out = out_dir;
    if (is_shogi_record(record)) return render_shogi_cmd(record, &o, out, sheet, scene_sheet, game);
    struct go_record **games = NULL;
    struct sgf_error serr = {0};
    int ngames = sgf_read_file(record, &games, &serr);
    if (ngames < 0) {
        fprintf(stderr, "kifucam render: %s\n", serr.message);
        return 2;
    }
    int rc = 0;
    if (game > ngames) {
        fprintf(stderr, "kifucam render: %s: has %d game(s), no game %ld\n", record, ngames, game);
        rc = 2;
    } else if (sheet) {
        char err[300] = "";
        bool made = scene_sheet ? render_go_scene_sheet(games[game - 1], o.seed, 320, 240, sheet,
                                                        err, sizeof err)
                                : render_go_contact_sheet(games[game - 1], o.seed, 320, 240, sheet,
                                                          err, sizeof err);
        if (!made) {
            fprintf(stderr, "kifucam render: %s: %s\n", record, err);
            rc = 1;
        } else {
            printf("%s: contact sheet -> %s\n", record, sheet);
        }
    } else {
        char err[300] = "";
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        struct render_summary sum;
        int frames = render_go_save(games[game - 1], record, &o, out, &sum, err, sizeof err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (frames < 0) {
            fprintf(stderr, "kifucam render: %s: %s\n", record, err);
            rc = 1;
        } else {
            report(record, &sum, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
                   out, &o);
        }
    }
    for (int i = 0; i < ngames; i++) go_record_free(games[i]);
    free(games);
    return rc;
}

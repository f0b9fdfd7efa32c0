/* tests/vision/shogi_foot_probe.c — a diagnostic, not a test: a kept footage folder (frames and
 * truth.jsonl, as test_daemon_footage renders them) read the daemon's way (grey JPEG frames, a
 * start tried every half second, every frame observed, settled with the daemon's settle knobs,
 * judged by the shogi observation guard), printing for each stable view the cells read wrong
 * against the truth (SURE: at conf >= 0.9) and the guard's events. Summary line: sure-wrong
 * cells, unsure-wrong cells, cells right, first flag. PROBE_SQ=FR (file, rank) adds one square's
 * reading to every line. PROBE_COLOUR=1 reads the frames in colour (the daemon reads shogi in
 * grey). Usage: shogi_foot_probe DIR [quiet] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard.h"
#include "vision/shogi_read.h"
#include "vision/vision.h"

#define MAXF 4000

static char *truth_sfen[MAXF];
static bool truth_settled[MAXF];

static void load_truth(const char *dir)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "shogi_foot_probe: %s: %s (a folder kept by test_daemon_footage)\n", path,
                strerror(errno));
        exit(2);
    }
    static char line[1 << 16];
    while (fgets(line, sizeof line, f)) {
        const char *k = strstr(line, "\"frame\":");
        const char *s = strstr(line, "\"sfen\":\"");
        if (!k || !s || !strstr(line, "\"kind\":\"frame\"")) continue;
        int i = atoi(k + 8);
        if (i < 0 || i >= MAXF) continue;
        s += 8;
        size_t n = strcspn(s, "\"");
        truth_sfen[i] = strndup(s, n);
        truth_settled[i] = strstr(line, "\"settled\":true") && strstr(line, "\"hand\":false");
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: shogi_foot_probe DIR [quiet]\n");
        return 2;
    }
    const char *dir = argv[1];
    bool quiet = argc > 2;
    bool colour = getenv("PROBE_COLOUR") && atoi(getenv("PROBE_COLOUR"));
    load_truth(dir);
    struct shogi_reader *rd = shogi_reader_new();
    struct settle_params sp;
    settle_params_default(&sp);
    sp.stable_s = 0.5;
    sp.repeat_s = 0.5;
    sp.still_occlusion_s = 2;
    sp.min_conf = SHOGI_SETTLE_MIN_CONF;
    struct settler *st = settle_new(&sp);
    struct shogi_obs_guard *guard = shogi_obs_guard_new(NULL, NULL, true, NULL);
    static struct observation obs;
    static struct stable_obs stable;
    struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    bool started = false;
    int64_t last_try = -1;
    long sure_wrong = 0, unsure_wrong = 0, right = 0, flags = 0;
    int first_flag_frame = -1;
    for (int i = 0; i < MAXF; i++) {
        char path[1300];
        snprintf(path, sizeof path, "%s/frame_%06d.jpg", dir, i);
        struct vision_image img;
        char err[200];
        if (!vision_load_jpeg(path, !colour, &img, err, sizeof err)) {
            if (i == 0) {
                fprintf(stderr, "shogi_foot_probe: %s\n", err);
                return 2;
            }
            break; /* the footage's end */
        }
        img.t_ns = (int64_t)i * 1000000000LL / 30;
        img.seq = (uint64_t)i;
        bool found = false;
        if (!started) {
            if (last_try < 0 || img.t_ns - last_try >= 500000000LL) {
                last_try = img.t_ns;
                started = shogi_reader_start(rd, &img);
            }
        }
        memset(&obs, 0, sizeof obs);
        if (started) found = shogi_reader_observe(rd, &img, &obs);
        (void)found;
        if (started && settle_push(st, &obs, &stable)) {
            shogi_reader_settled(rd, &stable.obs);
            struct shogi_position tp;
            bool have = truth_sfen[i] && shogi_sfen_parse(&tp, truth_sfen[i], NULL, NULL, 0);
            int n = shogi_obs_guard_observe_stable(guard, &stable, ev);
            char line[4096];
            int len = snprintf(line, sizeof line, "f%d%s%s:", i, truth_settled[i] ? "" : " (hand)",
                               stable.repeat ? " rep" : "");
            bool any = false;
            for (int sq = 0; have && sq < SHOGI_SQUARES; sq++) {
                int p = (shogi_sq_rank(sq) - 1) * OBS_MAX + 9 - shogi_sq_file(sq);
                if (stable.obs.occluded[p]) {
                    if (!quiet && tp.board[sq])
                        len +=
                            snprintf(line + len, sizeof line - (size_t)len, " %d%c occ(%d)",
                                     shogi_sq_file(sq), 'a' + shogi_sq_rank(sq) - 1, tp.board[sq]);
                    continue;
                }
                int a = stable.obs.point[p], b = tp.board[sq];
                if (stable.obs.conf[p] < 0.5f) {
                    if (a != b && !quiet && stable.obs.conf[p] > 0.25f &&
                        stable.obs.conf[p] != SHOGI_OUT_OF_VIEW_CONF)
                        len += snprintf(line + len, sizeof line - (size_t)len,
                                        " %d%c low %d truth %d %.2f", shogi_sq_file(sq),
                                        'a' + shogi_sq_rank(sq) - 1, a, b, stable.obs.conf[p]);
                    continue;
                }
                if (a == b) {
                    right += truth_settled[i];
                    continue;
                }
                bool sure = stable.obs.conf[p] >= 0.9f;
                if (truth_settled[i]) {
                    sure_wrong += sure;
                    unsure_wrong += !sure;
                }
                any = true;
                len +=
                    snprintf(line + len, sizeof line - (size_t)len, " %d%c read %d truth %d %.2f%s",
                             shogi_sq_file(sq), 'a' + shogi_sq_rank(sq) - 1, a, b,
                             stable.obs.conf[p], sure ? " SURE" : "");
                if (len > 3800) break;
            }
            for (int k = 0; k < n; k++) {
                char u[8];
                any = true;
                len += snprintf(line + len, sizeof line - (size_t)len, " -> %s %s%s",
                                guard_kind_name(ev[k].kind), shogi_move_to_usi(ev[k].shogi, u),
                                ev[k].doubt[0] ? " (doubt)" : "");
                if (guard_is_flag(ev[k].kind)) {
                    flags++;
                    if (first_flag_frame < 0) first_flag_frame = i;
                }
                if (len > 3900) break;
            }
            if (getenv("PROBE_SQ")) {
                int sq = atoi(getenv("PROBE_SQ")); /* file*10+rank */
                sq = shogi_sq(sq / 10, sq % 10);
                int p = (shogi_sq_rank(sq) - 1) * OBS_MAX + 9 - shogi_sq_file(sq);
                len += snprintf(line + len, sizeof line - (size_t)len, " [sq %d conf %.2f occ %d]",
                                stable.obs.point[p], stable.obs.conf[p], stable.obs.occluded[p]);
                any = true;
            }
            if (any && !quiet) printf("%s\n", line);
        }
        free((void *)img.data);
    }
    printf("SUMMARY %s sure_wrong %ld unsure_wrong %ld right %ld flags %ld first_flag_frame %d\n",
           dir, sure_wrong, unsure_wrong, right, flags, first_flag_frame);
    shogi_obs_guard_free(guard);
    settle_free(st);
    shogi_reader_free(rd);
    return 0;
}

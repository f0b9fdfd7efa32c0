/* tests/daemon/daemon_testutil.c — helpers the daemon tests share (daemon_testutil.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/journal.h"
#include "record/sgf.h"
#include "render/render.h"
#include "tests/daemon/daemon_testutil.h"
#include "tests/testutil.h"

static char tmp_root[256];

void dt_make_tmp(char *out, size_t n, const char *name)
{
    if (!tmp_root[0]) {
        snprintf(tmp_root, sizeof tmp_root, "/tmp/kifucam-daemon-XXXXXX");
        assert_non_null(mkdtemp(tmp_root));
    }
    snprintf(out, n, "%s/%s", tmp_root, name);
}

double dt_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

long dt_env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : dflt;
}

static uint64_t rng_state = 1;

void dt_rng_seed(uint64_t seed)
{
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
}

double dt_rng_unit(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) / (double)(1ULL << 53);
}

pid_t dt_start_daemon(const struct kc_config *c)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct daemon_result r;
        int rc = daemon_run(c, NULL, &r);
        _exit(rc);
    }
    return pid;
}

void dt_base_config(struct kc_config *c, const char *source, const char *out)
{
    kc_config_default(c);
    char err[512];
    /* The clip's frame rate and orientation, as `kifucam demo` uses them. */
    if (kc_config_load(c, KIFUCAM_CLIP_DIR "/kifucam.conf", err, sizeof err)) fail_msg("%s", err);
    snprintf(c->source, sizeof c->source, "%.500s", source);
    snprintf(c->out_dir, sizeof c->out_dir, "%.500s", out);
    c->progress = false;
    c->log_level = KC_LOG_WARN;
}

/* The sample game's moves (clip/game.sgf). */
struct go_move *dt_source_moves(int *n)
{
    struct go_record **games = NULL;
    struct sgf_error err;
    int ng = sgf_read_file(KIFUCAM_CLIP_DIR "/game.sgf", &games, &err);
    assert_int_equal(ng, 1);
    struct go_move *m = calloc((size_t)games[0]->nnodes, sizeof *m);
    assert_non_null(m);
    *n = 0;
    for (int i = 1; i < games[0]->nnodes; i++)
        if (games[0]->nodes[i].has_move) m[(*n)++] = games[0]->nodes[i].move;
    go_record_free(games[0]);
    free(games);
    return m;
}

/* Moves of an SGF file written by the daemon (it must parse). */
int dt_sgf_moves(const char *path, struct go_move *out, int max)
{
    struct go_record **games = NULL;
    struct sgf_error err;
    int ng = sgf_read_file(path, &games, &err);
    if (ng != 1) fail_msg("%s: %s", path, ng < 0 ? err.message : "not one game");
    int n = 0;
    for (int i = 1; i < games[0]->nnodes; i++)
        if (games[0]->nodes[i].has_move && n < max) out[n++] = games[0]->nodes[i].move;
    go_record_free(games[0]);
    free(games);
    return n;
}

/* Moves (and passes) in the journal, takebacks applied: the journal alone rebuilds the record. */
int dt_journal_moves(const char *path, struct go_move *out, int max, bool torn_ok, bool *torn)
{
    struct journal_log log = {0};
    struct journal_error err;
    assert_int_equal(journal_read(path, &log, &err), 0);
    if (torn) *torn = log.damaged;
    if (log.damaged && !(torn_ok && strstr(log.damage.message, "torn line")))
        fail_msg("%s", log.damage.message);
    int n = 0;
    for (size_t i = 0; i < log.count; i++) {
        struct guard_event ev;
        char rule[256];
        if (!journal_decode_event(&log.entries[i], &ev, rule, sizeof rule)) continue;
        if (ev.kind == GUARD_MOVE && ev.reason == GUARD_REASON_TAKEBACK) {
            if (ev.ply < n) n = ev.ply;
        } else if ((ev.kind == GUARD_MOVE && ev.reason != GUARD_REASON_SETUP) ||
                   ev.kind == GUARD_PASS) {
            if (n < max) out[n++] = ev.move;
        }
    }
    journal_log_free(&log);
    return n;
}

int dt_prefix_match(const struct go_move *a, int na, const struct go_move *b, int nb)
{
    int k = 0;
    while (k < na && k < nb && a[k].color == b[k].color && a[k].point == b[k].point) k++;
    return k;
}

/* A folder of symbolic links to the clip's frames numbered [from, to) (to < 0: to the end). */
void dt_link_frames(const char *dir, long from, long to)
{
    dt_link_frames_from(KIFUCAM_CLIP_DIR, dir, from, to);
}

void dt_link_frames_from(const char *src, const char *dir, long from, long to)
{
    assert_int_equal(mkdir(dir, 0755), 0);
    struct dirent **names = NULL;
    int n = scandir(src, &names, NULL, alphasort);
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        long num;
        if (sscanf(names[i]->d_name, "frame_%ld.jpg", &num) == 1 && num >= from &&
            (to < 0 || num < to)) {
            char a[1024], b[1024];
            snprintf(a, sizeof a, "%.500s/%.500s", src, names[i]->d_name);
            snprintf(b, sizeof b, "%.500s/%.500s", dir, names[i]->d_name);
            assert_int_equal(symlink(a, b), 0);
        }
        free(names[i]);
    }
    free(names);
}

/* The first still, hand-free run of frames at PLY (truth.jsonl): its first frame and the frame
 * after its last. */
static void quiet_run(const char *dir, int ply, long *first, long *after)
{
    size_t len;
    char path[1100];
    snprintf(path, sizeof path, "%.1000s/truth.jsonl", dir);
    char *text = tu_read_file(path, &len);
    assert_non_null(text);
    char want[64];
    snprintf(want, sizeof want, "\"ply\":%d,\"settled\":true,\"hand\":false", ply);
    long start = -1, last = -1;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        long frame;
        const char *f = strstr(line, "\"frame\":");
        if (f && sscanf(f, "\"frame\":%ld", &frame) == 1) {
            if (strstr(line, want)) {
                if (start < 0) start = frame;
                last = frame;
            } else if (last >= 0) {
                break;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    assert_true(last >= 0);
    *first = start;
    *after = last + 1;
}

long dt_quiet_frame_after(int ply)
{
    long first, after;
    quiet_run(KIFUCAM_CLIP_DIR, ply, &first, &after);
    return after;
}

long dt_quiet_frame_start(int ply)
{
    return dt_quiet_frame_start_in(KIFUCAM_CLIP_DIR, ply);
}

long dt_quiet_frame_start_in(const char *dir, int ply)
{
    long first, after;
    quiet_run(dir, ply, &first, &after);
    return first;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void dt_cleanup(void)
{
    if (tmp_root[0] && getenv("KIFUCAM_KEEP_TMP")) {
        fprintf(stderr, "kept %s\n", tmp_root);
        return;
    }
    if (tmp_root[0]) nftw(tmp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

struct go_record *dt_load_fixture_game(const char *rel, const char **path)
{
    struct go_record **games = NULL;
    struct sgf_error err;
    *path = tu_path(tu_fixtures_dir(), rel);
    int n = sgf_read_file(*path, &games, &err);
    if (n < 1) fail_msg("%s: %s", *path, n < 0 ? err.message : "no game");
    struct go_record *game = games[0];
    for (int i = 1; i < n; i++) go_record_free(games[i]);
    free(games);
    return game;
}

void dt_render_game(const struct go_record *game, const char *path, int sc, uint64_t seed,
                    int moves, const char *dir)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = 640;
    o.height = 480;
    o.seed = seed;
    o.style = RENDER_STYLE_LIGHT_WOOD;
    o.scenario = (enum render_scenario)sc;
    o.max_moves = moves;
    o.bump_rate = 0;
    char msg[300] = "";
    if (render_go_to_dir(game, path, &o, dir, msg, sizeof msg) < 0) fail_msg("render: %s", msg);
}

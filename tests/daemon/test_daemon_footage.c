/* tests/daemon/test_daemon_footage.c — the recorder end to end on camera footage, as a user meets
 * it: real games (Go from the foxwq professional games, shogi from the lishogi games; the fixtures'
 * games when ../shared is absent) filmed by the renderer as JPEG frames at 1280x960, the camera
 * scenario, board style, lens and JPEG quality chosen by the seed, bumps at the default rate; then
 * daemon_run on a dir: source as `kifucam record` runs it, and the record file it wrote (game.sgf,
 * game.csa) compared with the source game: moves right (the longest common subsequence, for Go
 * under the best of the board's eight symmetries, since the record is oriented by the camera),
 * exact records, and flags (the games are clean: every flag is a false one).
 *
 * The films in tests/vision feed raw frames and film openings; this is what `kifucam record` gives.
 * Knobs: KIFUCAM_FOOTAGE_GAMES (games per game type, default 2; ASan 1), KIFUCAM_FOOTAGE_FIRST
 * (the first game's index), KIFUCAM_FOOTAGE_MOVES (moves filmed, default 40 Go, 30 shogi; ASan 12),
 * KIFUCAM_FOOTAGE_DIR (keep the renders there and reuse them on the next run: a render takes a
 * minute, a recording ten seconds; the records go to the scratch folder, kept with
 * KIFUCAM_KEEP_TMP), KIFUCAM_FOOTAGE_ONLY=go|shogi (one game type), KIFUCAM_FOOTAGE_VERBOSE=1 (the
 * recorder's warnings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/daemon.h"
#include "record/sgf.h"
#include "record/shogi_record.h"
#include "render/render.h"
#include "tests/daemon/daemon_testutil.h"
#include "tests/daemon/footage_games.h"
#include "tests/daemon/replay_check.h"
#include "tests/testutil.h"

#define MAX_MOVES 400

/* KIFUCAM_FOOTAGE_ONLY names the other game type: this one is not filmed (said in the output). */
static bool skipped(const char *type)
{
    const char *only = getenv("KIFUCAM_FOOTAGE_ONLY");
    if (!only || !*only || !strcmp(only, type)) return false;
    tu_note("%s footage: not filmed (KIFUCAM_FOOTAGE_ONLY=%s)", type, only);
    return true;
}

/* One game type's totals over the games filmed. */
struct tally {
    int games, right, total, exact, flags;
};

/* ---------------------------------------------------------------- where the footage goes ---- */

/* The scenario the renderer chose, from truth.jsonl's header ("scene": "..."), into out. */
static void scene_of(const char *dir, char *out, size_t n)
{
    char truth[1200];
    snprintf(truth, sizeof truth, "%.1000s/truth.jsonl", dir);
    snprintf(out, n, "?");
    FILE *f = fopen(truth, "r");
    if (!f) return;
    char line[4096];
    if (fgets(line, sizeof line, f)) {
        const char *s = strstr(line, "\"scene\"");
        if (s && (s = strchr(s + 7, '"'))) {
            s++;
            size_t len = strcspn(s, "\"");
            snprintf(out, n, "%.*s", (int)(len < n - 1 ? len : n - 1), s);
        }
    }
    fclose(f);
}

static void record_config(struct kc_config *c, const char *game, const char *frames,
                          const char *out)
{
    kc_config_default(c);
    char err[256];
    assert_int_equal(kc_config_set(c, "game", "game", game, err, sizeof err), 0);
    snprintf(c->source, sizeof c->source, "dir:%.500s", frames);
    snprintf(c->out_dir, sizeof c->out_dir, "%.500s", out);
    c->fps = 30;
    c->progress = false;
    c->log_level = getenv("KIFUCAM_FOOTAGE_VERBOSE") ? KC_LOG_WARN : KC_LOG_ERROR;
    c->observations = true;
}

/* The games whose observation log, replayed as `kifucam check` does, gave the journal's events. */
static int replays_same, replays;

static void check_replay(const char *out, const char *game, int k)
{
    char why[300];
    int events = 0;
    bool same = rc_replay_same(out, &events, why, sizeof why);
    replays++;
    replays_same += same;
    if (!same) tu_note("%s %3d: the observation log replayed differs: %s", game, k, why);
}

/* Every game's log replays to its journal's events: what a referee checks later is what the
 * recorder decided live. */
static void replays_said(void)
{
    tu_note("observation logs replayed as `kifucam check` does: %d of %d give the journal's events",
            replays_same, replays);
    assert_int_equal(replays_same, replays);
    replays_same = replays = 0;
}

static void footage_opts(struct render_opts *o, uint64_t seed, int moves)
{
    render_opts_default(o); /* 1280x960, mixed scenarios, random style, bumps */
    o->seed = seed;
    o->max_moves = moves;
}

/* The games filmed: as many as wanted from ../shared; from the fixtures (a fresh clone) what they
 * hold that qualifies (one even shogi game of 30 moves and more), at least one. */
static void enough(const struct tally *t, int want, const char *which)
{
    if (!strncmp(which, "../shared", 9)) {
        assert_int_equal(t->games, want);
    } else {
        if (t->games < want) tu_note("the fixtures hold %d such game(s)", t->games);
        assert_true(t->games >= 1);
    }
}

/* The knobs both game types read: games wanted, the first game's index, moves filmed (full_moves
 * by default; ASan: one game of 12 moves). */
static void footage_knobs(int full_moves, int *want, int *first, int *moves)
{
    *want = (int)dt_env_long("KIFUCAM_FOOTAGE_GAMES", TU_ASAN_LIGHT(2, 1));
    *first = (int)dt_env_long("KIFUCAM_FOOTAGE_FIRST", 0);
    *moves = (int)dt_env_long("KIFUCAM_FOOTAGE_MOVES", TU_ASAN_LIGHT(full_moves, 12));
    if (*moves > MAX_MOVES) *moves = MAX_MOVES;
}

/* ------------------------------------------------------------------ comparing records ---- */

static bool same_list(const uint32_t *a, int na, const uint32_t *b, int nb)
{
    return na == nb && (na == 0 || !memcmp(a, b, (size_t)na * sizeof *a));
}

/* -------------------------------------------------------------------------------- Go ---- */

struct go_game {
    char path[1024];
};

static void collect_sgf(const char *path, void *ctx)
{
    struct go_game **list = ctx;
    size_t n = 0;
    while ((*list)[n].path[0]) n++;
    struct go_game *grown = realloc(*list, (n + 2) * sizeof **list);
    assert_non_null(grown);
    snprintf(grown[n].path, sizeof grown[n].path, "%s", path);
    grown[n + 1].path[0] = 0;
    *list = grown;
}

/* The Go games to film: the foxwq games of ../shared, else the fixtures' (sorted paths). */
static int go_games(struct go_game **list, const char **which)
{
    static const char *const sgf[] = {".sgf", NULL};
    *list = calloc(1, sizeof **list);
    assert_non_null(*list);
    const char *shared = tu_shared_data_dir();
    int n = -1;
    if (shared) {
        n = tu_walk(tu_path(shared, "go-games/foxwq-pro/clean"), sgf, collect_sgf, list);
        *which = "../shared/data go-games/foxwq-pro/clean";
    }
    if (n <= 0) {
        n = tu_walk(tu_path(tu_fixtures_dir(), "sgf/foxwq-pro/clean"), sgf, collect_sgf, list);
        *which = "tests/fixtures sgf/foxwq-pro/clean";
    }
    return n;
}

/* Film game k (seed 300 + k) and record it; adds to t. false when the game does not qualify (a
 * handicap, another size, too short). */
static bool film_go(const char *path, int k, int moves, struct tally *t)
{
    struct go_record **recs = NULL;
    struct sgf_error err;
    int nr = sgf_read_file(path, &recs, &err);
    if (nr < 1) fail_msg("%s", err.message);
    struct go_record *rec = recs[0];
    struct go_move src[MAX_MOVES];
    int ns = 0;
    bool setup = rec->nnodes > 0 && rec->nodes[0].nsetup > 0;
    for (int i = 1; i < rec->nnodes && ns < moves; i++)
        if (rec->nodes[i].has_move) src[ns++] = rec->nodes[i].move;
    bool ok = rec->width == 19 && rec->height == 19 && rec->handicap == 0 && !setup && ns == moves;
    if (ok) {
        char name[64], frames[1100], out[1100];
        snprintf(name, sizeof name, "go-%03d", k);
        fg_kept_path(frames, sizeof frames, "KIFUCAM_FOOTAGE_DIR", name);
        snprintf(name, sizeof name, "go-%03d-out", k);
        dt_make_tmp(out, sizeof out, name); /* fresh: a journal there would be resumed */
        if (!fg_render_kept("KIFUCAM_FOOTAGE_DIR", frames)) {
            struct render_opts o;
            footage_opts(&o, 300 + (uint64_t)k, moves);
            char msg[300] = "", part[1100];
            fg_part_path(part, sizeof part, frames);
            if (render_go_to_dir(rec, path, &o, part, msg, sizeof msg) < 0)
                fail_msg("render %s: %s", path, msg);
            fg_render_done(part, frames);
        }
        struct kc_config c;
        record_config(&c, "go19", frames, out);
        struct daemon_result r;
        assert_int_equal(daemon_run(&c, NULL, &r), 0);
        free(r.move);
        check_replay(out, "go", k);
        char sgf_path[1200];
        snprintf(sgf_path, sizeof sgf_path, "%.1100s/game.sgf", out);
        struct go_move got[MAX_MOVES];
        int ng = dt_sgf_moves(sgf_path, got, MAX_MOVES);
        uint32_t a[MAX_MOVES] = {0}, b[MAX_MOVES] = {0};
        for (int i = 0; i < ns; i++) a[i] = fg_go_key(src[i], 0, 19);
        int best = -1;
        bool exact = false;
        for (int s = 0; s < 8; s++) {
            for (int i = 0; i < ng; i++) b[i] = fg_go_key(got[i], s, 19);
            int right = fg_lcs(a, ns, b, ng);
            if (right > best) best = right;
            exact = exact || same_list(a, ns, b, ng);
        }
        char scene[160];
        scene_of(frames, scene, sizeof scene);
        const char *base = strrchr(path, '/');
        tu_note("go %3d %-28.28s %2d/%d right, %d recorded%s, %d flags  [%s]", k,
                base ? base + 1 : path, best, ns, ng, exact ? ", exact" : "", r.flags, scene);
        t->games++;
        t->right += best;
        t->total += ns;
        t->exact += exact;
        t->flags += r.flags;
    }
    for (int i = 0; i < nr; i++) go_record_free(recs[i]);
    free(recs);
    return ok;
}

static void test_go_footage(void **state)
{
    (void)state;
    if (skipped("go")) TU_SKIP();
    int want, first, moves;
    footage_knobs(40, &want, &first, &moves);
    struct go_game *list;
    const char *which = "";
    int n = go_games(&list, &which);
    assert_true(n > 0);
    tu_note("Go footage: %d games wanted from %s (%d games), %d moves each", want, which, n, moves);
    /* games spread over the corpus (its folders are ranks), the same ones on every run */
    int stride = n / 97 > 0 ? n / 97 : 1;
    struct tally t = {0};
    for (int k = first, tried = 0; t.games < want && tried < n; k++, tried++)
        film_go(list[((size_t)k * (size_t)stride) % (size_t)n].path, k, moves, &t);
    free(list);
    enough(&t, want, which);
    tu_note("Go footage: %d games, %d/%d moves right (%.1f%%), %d exact, %d flags", t.games,
            t.right, t.total, 100.0 * t.right / t.total, t.exact, t.flags);
    /* floors below what 30 games measured (see README): a regression fails, a bad seed does not */
    assert_true(t.right * 100 >= t.total * 90);
    assert_true(t.flags <= t.games);
    replays_said();
}

/* ----------------------------------------------------------------------------- shogi ---- */

static bool film_shogi(const struct shogi_record *rec, int k, int moves, struct tally *t)
{
    if (rec->nmoves < moves || rec->handicap != SHOGI_HC_EVEN) return false;
    char name[64], frames[1100], out[1100];
    snprintf(name, sizeof name, "shogi-%03d", k);
    fg_kept_path(frames, sizeof frames, "KIFUCAM_FOOTAGE_DIR", name);
    snprintf(name, sizeof name, "shogi-%03d-out", k);
    dt_make_tmp(out, sizeof out, name); /* fresh: a journal there would be resumed */
    if (!fg_render_kept("KIFUCAM_FOOTAGE_DIR", frames)) {
        struct render_opts o;
        footage_opts(&o, 300 + (uint64_t)k, moves);
        char msg[300] = "", part[1100];
        fg_part_path(part, sizeof part, frames);
        if (render_shogi_to_dir(rec, "footage.usi", &o, part, msg, sizeof msg) < 0)
            fail_msg("render shogi game %d: %s", k, msg);
        fg_render_done(part, frames);
    }
    struct kc_config c;
    record_config(&c, "shogi", frames, out);
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    free(r.move);
    check_replay(out, "shogi", k);
    char csa[1200];
    snprintf(csa, sizeof csa, "%.1100s/game.csa", out);
    struct shogi_record **got = NULL;
    struct shogi_record_error err = {0};
    int ng = shogi_record_read_file(csa, &got, &err);
    if (ng != 1) fail_msg("%s: %s", csa, ng < 0 ? err.message : "not one game");
    uint32_t a[MAX_MOVES] = {0}, b[MAX_MOVES] = {0};
    int nb = got[0]->nmoves < MAX_MOVES ? got[0]->nmoves : MAX_MOVES;
    for (int i = 0; i < moves; i++) a[i] = fg_shogi_key(rec->moves[i].move);
    for (int i = 0; i < nb; i++) b[i] = fg_shogi_key(got[0]->moves[i].move);
    int right = fg_lcs(a, moves, b, nb);
    bool exact = same_list(a, moves, b, nb);
    shogi_records_free(got, ng);
    char scene[160];
    scene_of(frames, scene, sizeof scene);
    tu_note("shogi %3d %2d/%d right, %d recorded%s, %d flags  [%s]", k, right, moves, nb,
            exact ? ", exact" : "", r.flags, scene);
    t->games++;
    t->right += right;
    t->total += moves;
    t->exact += exact;
    t->flags += r.flags;
    return true;
}

static void test_shogi_footage(void **state)
{
    (void)state;
    if (skipped("shogi")) TU_SKIP();
    int want, first, moves;
    footage_knobs(30, &want, &first, &moves);
    int n;
    const char *which = "";
    struct shogi_record **games = fg_shogi_games(&n, &which);
    assert_true(n > 0);
    tu_note("shogi footage: %d games wanted from %s (%d games), %d moves each", want, which, n,
            moves);
    /* games 300.. of the corpus: the helpers' measurements of past sessions used 200-225 */
    int base = n > 300 ? 300 : 0;
    struct tally t = {0};
    for (int k = first, tried = 0; t.games < want && tried < n; k++, tried++)
        film_shogi(games[(base + k) % n], k, moves, &t);
    shogi_records_free(games, n);
    enough(&t, want, which);
    tu_note("shogi footage: %d games, %d/%d moves right (%.1f%%), %d exact, %d flags", t.games,
            t.right, t.total, 100.0 * t.right / t.total, t.exact, t.flags);
    assert_true(t.right * 100 >= t.total * 65);
    replays_said();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_footage),
        cmocka_unit_test(test_shogi_footage),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

/* tests/daemon/test_daemon_shogi.c — the daemon records shogi: a real game (the fixture 竜王戦
 * KIF) rendered as camera frames with hands bringing every piece, replayed through
 * `kifucam record --game shogi`; game.kif and game.csa on disk must hold the game's moves and
 * read back with the project's own readers; a restart on the same folder, the camera showing the
 * board as it is, resumes the game from the journal's position without doubling it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/daemon.h"
#include "render/render.h"
#include "tests/daemon/daemon_testutil.h"
#include "tests/testutil.h"

#define MOVES 10

static struct shogi_record *load_game(void)
{
    struct shogi_record **games = NULL;
    struct shogi_record_error err = {0};
    const char *path = tu_path(tu_fixtures_dir(), "shogi-records/ryuou201409020101.kif");
    int n = shogi_record_read_file(path, &games, &err);
    if (n < 1) fail_msg("%s: %s", path, err.message);
    struct shogi_record *rec = games[0];
    for (int i = 1; i < n; i++) shogi_record_free(games[i]);
    free(games);
    return rec;
}

static void render_game(const struct shogi_record *rec, const char *dir)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = 640;
    o.height = 480;
    o.seed = 7;
    o.scenario = RENDER_SCENE_OVERHEAD;
    o.max_moves = MOVES;
    o.bump_rate = 0;
    char err[300] = "";
    if (render_shogi_to_dir(rec, "ryuou.kif", &o, dir, err, sizeof err) < 0)
        fail_msg("render: %s", err);
}

/* How many of the record's first moves the file at path holds, in order; its move count. */
static int moves_matching(const char *path, const struct shogi_record *want, int *count)
{
    struct shogi_record **got = NULL;
    struct shogi_record_error err = {0};
    int n = shogi_record_read_file(path, &got, &err);
    if (n != 1) fail_msg("%s: %s", path, err.message);
    int same = 0;
    while (same < got[0]->nmoves && same < want->nmoves) {
        struct shogi_move a = got[0]->moves[same].move, b = want->moves[same].move;
        if (a.from != b.from || a.to != b.to || a.promote != b.promote) break;
        same++;
    }
    *count = got[0]->nmoves;
    shogi_records_free(got, n);
    return same;
}

/* How many frame_NNNNNN.jpg the render wrote. */
static int frames_dir_count(const char *dir)
{
    int n = 0;
    char path[1200];
    for (;;) {
        snprintf(path, sizeof path, "%s/frame_%06d.jpg", dir, n);
        if (access(path, F_OK)) return n;
        n++;
    }
}

static void set_shogi(struct kc_config *c, const char *frames, const char *out)
{
    kc_config_default(c);
    char err[256];
    assert_int_equal(kc_config_set(c, "game", "game", "shogi", err, sizeof err), 0);
    snprintf(c->source, sizeof c->source, "dir:%.500s", frames);
    snprintf(c->out_dir, sizeof c->out_dir, "%.500s", out);
    c->fps = 30;
    c->progress = false;
    c->log_level = KC_LOG_WARN;
}

static void test_records_shogi(void **state)
{
    (void)state;
    struct shogi_record *rec = load_game();
    char frames[1024], out[1024], kif[1100], csa[1100];
    dt_make_tmp(frames, sizeof frames, "shogi-frames");
    dt_make_tmp(out, sizeof out, "shogi-out");
    render_game(rec, frames);
    struct kc_config c;
    set_shogi(&c, frames, out);
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    free(r.move);
    tu_note("shogi daemon: %d moves, %d flags, %llu frames at %.1f fps", r.moves, r.flags,
            (unsigned long long)r.frames, r.fps);
    snprintf(kif, sizeof kif, "%s/game.kif", out);
    snprintf(csa, sizeof csa, "%s/game.csa", out);
    int nk, nc;
    int same_kif = moves_matching(kif, rec, &nk), same_csa = moves_matching(csa, rec, &nc);
    tu_note("game.kif: %d moves, %d as the record; game.csa: %d, %d", nk, same_kif, nc, same_csa);
    assert_int_equal(r.moves, MOVES);
    assert_int_equal(r.flags, 0);
    assert_int_equal(same_kif, MOVES);
    assert_int_equal(nk, MOVES);
    assert_int_equal(same_csa, MOVES);
    assert_int_equal(nc, MOVES);

    /* restarted on the same folder while the camera shows the board as it is now (the last
     * second of the footage): the journal's game goes on from its position, nothing doubles */
    char tail[1024];
    dt_make_tmp(tail, sizeof tail, "shogi-tail");
    mkdir(tail, 0755);
    int nframes = frames_dir_count(frames);
    for (int i = nframes - 30; i < nframes; i++) {
        char from[1200], to[1200];
        snprintf(from, sizeof from, "%s/frame_%06d.jpg", frames, i);
        snprintf(to, sizeof to, "%s/frame_%06d.jpg", tail, i);
        if (symlink(from, to)) fail_msg("%s: %s", to, strerror(errno));
    }
    snprintf(c.source, sizeof c.source, "dir:%.500s", tail);
    struct daemon_result r2;
    assert_int_equal(daemon_run(&c, NULL, &r2), 0);
    free(r2.move);
    tu_note("restart: resumed %d moves, %d at the end, %d flags", r2.resumed_moves, r2.moves,
            r2.flags);
    assert_int_equal(r2.resumed_moves, MOVES);
    assert_int_equal(moves_matching(kif, rec, &nk), MOVES);
    assert_int_equal(nk, MOVES);
    shogi_record_free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_records_shogi)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

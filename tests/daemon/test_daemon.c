/* tests/daemon/test_daemon.c — the daemon end to end on the bundled sample clip: the record
 * against the source game, a camera failing mid-game, SIGTERM mid-game, resuming from the journal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/daemon.h"
#include "record/journal.h"
#include "record/sgf.h"
#include "tests/daemon/daemon_testutil.h"
#include "tests/daemon/replay_check.h"
#include "tests/testutil.h"

static void test_record_clip(void **state)
{
    (void)state;
    char out[512];
    dt_make_tmp(out, sizeof out, "clean");
    struct kc_config c;
    dt_base_config(&c, "dir:" KIFUCAM_CLIP_DIR, out);
    c.observations = true;
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    int ns;
    struct go_move *src = dt_source_moves(&ns);
    int match = dt_prefix_match(src, ns, r.move, r.moves);
    tu_note("clip: %d of %d source moves recorded in order from the start (%d recorded, %d flags); "
            "%llu frames at %.0f fps; per frame capture %.2f ms, vision %.2f ms",
            match, ns, r.moves, r.flags, (unsigned long long)r.frames, r.fps,
            r.stage_ms[0] / (double)r.frames, r.stage_ms[1] / (double)r.frames);
    /* The bundled clip is chosen so the whole game reads right. */
    assert_int_equal(r.moves, ns);
    assert_int_equal(match, ns);
    /* SGF and journal on disk say the same. */
    static struct go_move f[512], j[512];
    int nf = dt_sgf_moves(r.sgf_path, f, 512),
        nj = dt_journal_moves(r.journal_path, j, 512, false, NULL);
    assert_int_equal(nf, r.moves);
    assert_int_equal(dt_prefix_match(f, nf, r.move, r.moves), r.moves);
    assert_int_equal(nj, r.moves);
    assert_int_equal(dt_prefix_match(j, nj, r.move, r.moves), r.moves);
    /* A JPEG of the frame behind each move seen while the view was still (the moves the end of the
     * stream confirms have no frame of their own). */
    char snaps[600];
    snprintf(snaps, sizeof snaps, "%s/snapshots", out);
    struct dirent **names = NULL;
    int nn = scandir(snaps, &names, NULL, alphasort), jpegs = 0;
    for (int i = 0; i < nn; i++) {
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", snaps, names[i]->d_name);
        size_t len = 0;
        unsigned char *b =
            names[i]->d_name[0] != '.' ? (unsigned char *)tu_read_file(p, &len) : NULL;
        if (b && len > 1000 && b[0] == 0xFF && b[1] == 0xD8) jpegs++;
        free(b);
        free(names[i]);
    }
    free(names);
    tu_note("%d snapshots for %d moves", jpegs, r.moves);
    /* The observation log: a stream header, then one stable observation per block. */
    char obs_path[700];
    snprintf(obs_path, sizeof obs_path, "%s/observations.obs", out);
    size_t olen = 0;
    char *otext = tu_read_file(obs_path, &olen);
    assert_non_null(otext);
    int nobs = 0;
    for (const char *p = otext; (p = strstr(p, "\nobs t=")); p++) nobs++;
    tu_note("observations.obs: %d stable observations, %zu bytes", nobs, olen);
    assert_true(!strncmp(otext, "kifucam-obs 1 go 9x9\n", 21));
    assert_true(nobs >= r.moves / 2);
    free(otext);
    /* replayed as `kifucam check` does, the log gives the journal's events */
    char why[300];
    int events = 0;
    if (!rc_replay_same(out, &events, why, sizeof why)) fail_msg("replay: %s", why);
    tu_note("observations.obs replayed: the journal's %d events", events);
    assert_true(jpegs >= r.moves - 2 && jpegs <= r.moves);
    free(r.move);
    free(src);
}

/* The same game from an H.264 MP4 of the clip (what a phone or an action camera records): the
 * compressed frames read through FFmpeg give the same record. */
static void test_record_video(void **state)
{
    (void)state;
    char out[512], spec[4200];
    dt_make_tmp(out, sizeof out, "video");
    snprintf(spec, sizeof spec, "file:%s/capture/clip-9x9.mp4", tu_fixtures_dir());
    struct kc_config c;
    dt_base_config(&c, spec, out);
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    int ns;
    struct go_move *src = dt_source_moves(&ns);
    int match = dt_prefix_match(src, ns, r.move, r.moves);
    tu_note("clip-9x9.mp4: %d of %d source moves (%d recorded, %d flags), %llu frames at %.0f fps",
            match, ns, r.moves, r.flags, (unsigned long long)r.frames, r.fps);
    assert_int_equal(r.frames, 263);
    assert_int_equal(r.moves, ns);
    assert_int_equal(match, ns);
    free(r.move);
    free(src);
}

/* The camera fails mid-game (errors, then junk frames): nothing recorded is lost, the game goes on
 * to the same record. */
static void run_faulty(const char *mode, const char *name)
{
    char out[512], spec[1024];
    dt_make_tmp(out, sizeof out, name);
    snprintf(spec, sizeof spec, "faulty:dir:%s?fail_after=80&fail_for=6&mode=%s&repeat=1",
             KIFUCAM_CLIP_DIR, mode);
    struct kc_config c;
    dt_base_config(&c, spec, out);
    c.retry_min_ms = 1;
    c.retry_max_ms = 4;
    c.log_level = KC_LOG_ERROR;
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    int ns;
    struct go_move *src = dt_source_moves(&ns);
    tu_note("faulty (%s): %llu source errors, %llu frames, %d moves recorded (%d match the source)",
            mode, (unsigned long long)r.source_errors, (unsigned long long)r.frames, r.moves,
            dt_prefix_match(src, ns, r.move, r.moves));
    if (!strcmp(mode, "error")) assert_true(r.source_errors >= 6);
    assert_int_equal(r.moves, ns);
    assert_int_equal(dt_prefix_match(src, ns, r.move, r.moves), ns);
    static struct go_move j[512];
    assert_int_equal(dt_journal_moves(r.journal_path, j, 512, false, NULL), r.moves);
    free(r.move);
    free(src);
}

static void test_faulty_errors(void **state)
{
    (void)state;
    run_faulty("error", "faulty-error");
}

static void test_faulty_garbage(void **state)
{
    (void)state;
    run_faulty("garbage", "faulty-garbage");
}

static int count_ev(const char *journal)
{
    static struct go_move j[512];
    return dt_journal_moves(journal, j, 512, false, NULL);
}

/* SIGTERM mid-game: the record left is valid and equals the journal. The clip plays in real time
 * so the signal lands mid-game. */
static void test_sigterm(void **state)
{
    (void)state;
    char out[512], journal[600], sgf[600];
    dt_make_tmp(out, sizeof out, "sigterm");
    snprintf(journal, sizeof journal, "%s/game.journal", out);
    snprintf(sgf, sizeof sgf, "%s/game.sgf", out);
    struct kc_config c;
    dt_base_config(&c, "dir:" KIFUCAM_CLIP_DIR, out);
    c.realtime = true;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct daemon_result r;
        int rc = daemon_run(&c, NULL, &r);
        free(r.move);
        _exit(rc == 0 && r.interrupted ? 0 : 3);
    }
    /* Wait for a few moves on disk, then stop it. */
    int moves = 0;
    for (int i = 0; i < 600 && moves < 3; i++) {
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
        struct stat st;
        if (!stat(journal, &st)) moves = count_ev(journal);
    }
    assert_true(moves >= 3);
    assert_int_equal(kill(pid, SIGTERM), 0);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    static struct go_move f[512], j[512];
    int nf = dt_sgf_moves(sgf, f, 512), nj = dt_journal_moves(journal, j, 512, false, NULL);
    tu_note("SIGTERM after %d moves: SGF %d moves, journal %d moves", moves, nf, nj);
    assert_true(nf >= 3);
    assert_int_equal(nf, nj);
    assert_int_equal(dt_prefix_match(f, nf, j, nj), nf);
    int ns;
    struct go_move *src = dt_source_moves(&ns);
    assert_true(nf < ns); /* it was stopped mid-game */
    assert_int_equal(dt_prefix_match(src, ns, f, nf), nf);

    free(src);
}

/* The daemon stops between two moves and starts again on the same output folder (a power cut, a
 * restart): the journal's moves come back first, in order, and the game goes on to the whole
 * record. */
static void test_resume(void **state)
{
    (void)state;
    char out[512], first[512], second[512], spec[600];
    dt_make_tmp(out, sizeof out, "resume");
    dt_make_tmp(first, sizeof first, "frames-1");
    dt_make_tmp(second, sizeof second, "frames-2");
    long split = dt_quiet_frame_after(5);
    dt_link_frames(first, 0, split);
    dt_link_frames(second, split, -1);
    struct kc_config c;
    snprintf(spec, sizeof spec, "dir:%.500s", first);
    dt_base_config(&c, spec, out);
    struct daemon_result r1, r2;
    assert_int_equal(daemon_run(&c, NULL, &r1), 0);
    snprintf(c.source, sizeof c.source, "dir:%.500s", second);
    assert_int_equal(daemon_run(&c, NULL, &r2), 0);
    int ns;
    struct go_move *src = dt_source_moves(&ns);
    tu_note("resume at frame %ld: %d moves in the first part, %d resumed, %d at the end "
            "(%d flags), %d match the source",
            split, r1.moves, r2.resumed_moves, r2.moves, r2.flags,
            dt_prefix_match(src, ns, r2.move, r2.moves));
    assert_int_equal(r1.moves, 5);
    assert_int_equal(dt_prefix_match(src, ns, r1.move, r1.moves), 5);
    assert_int_equal(r2.resumed_moves, r1.moves);
    assert_int_equal(r2.moves, ns);
    assert_int_equal(dt_prefix_match(src, ns, r2.move, r2.moves), ns);
    static struct go_move f[512];
    int nf = dt_sgf_moves(r2.sgf_path, f, 512);
    assert_int_equal(nf, ns);
    assert_int_equal(dt_prefix_match(src, ns, f, nf), ns);
    free(r1.move);
    free(r2.move);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_clip),   cmocka_unit_test(test_record_video),
        cmocka_unit_test(test_faulty_errors), cmocka_unit_test(test_faulty_garbage),
        cmocka_unit_test(test_sigterm),       cmocka_unit_test(test_resume),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

/* tests/daemon/test_daemon_kill.c — a power cut at any moment loses nothing acknowledged.
 *
 * The daemon records the bundled rendered game in a child process that is killed with SIGKILL at a
 * random moment (no handler runs, nothing is flushed: like a power cut as far as this process can
 * tell; the page cache survives, which fsync already makes irrelevant). Each time:
 *  - the journal on disk (a torn last line allowed) holds a prefix of the source game;
 *  - the SGF on disk parses and equals the journal, or lags it by the one move whose atomic
 *    rewrite the kill interrupted (journal first, then records: the order daemon.c promises);
 *  - a new daemon on the same folder, fed the camera's view from the still board at that ply on,
 *    resumes from the journal and finishes the whole game, the SGF equal to the source.
 * KIFUCAM_KILL_RUNS (default 50) and KIFUCAM_KILL_SEED (default 1) change the runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/daemon/daemon_testutil.h"
#include "tests/testutil.h"

#define MAX_MOVES 512

/* Start the daemon on the whole clip in a child, at twenty times the recorded pace so the kills
 * spread over the game rather than over the start-up; returns its pid. */
static pid_t start_daemon(const char *out)
{
    struct kc_config c;
    dt_base_config(&c, "dir:" KIFUCAM_CLIP_DIR, out);
    c.log_level = KC_LOG_ERROR;
    c.realtime = true;
    c.speed = 20;
    return dt_start_daemon(&c);
}

struct kill_stats {
    int runs, before_first_move, mid_game, after_last_move;
    int torn_journals, sgf_lagging, resumed_with_flags, by_ply[MAX_MOVES + 1];
};

/* One kill at DELAY seconds after the start, then the check and the resumed game. */
static void kill_and_resume(int run, double delay, const struct go_move *src, int ns,
                            struct kill_stats *st)
{
    char out[512], frames[512], name[64], spec[600], journal[700], sgf[700];
    snprintf(name, sizeof name, "kill-%02d", run);
    dt_make_tmp(out, sizeof out, name);
    snprintf(name, sizeof name, "kill-%02d-frames", run);
    dt_make_tmp(frames, sizeof frames, name);
    snprintf(journal, sizeof journal, "%s/game.journal", out);
    snprintf(sgf, sizeof sgf, "%s/game.sgf", out);

    pid_t pid = start_daemon(out);
    struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
    nanosleep(&ts, NULL);
    kill(pid, SIGKILL); /* it may have finished already: that is one of the moments too */
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);

    /* What the kill left on disk. */
    static struct go_move j[MAX_MOVES], f[MAX_MOVES];
    bool torn = false;
    struct stat sb;
    int nj = stat(journal, &sb) == 0 ? dt_journal_moves(journal, j, MAX_MOVES, true, &torn) : 0;
    int nf = stat(sgf, &sb) == 0 ? dt_sgf_moves(sgf, f, MAX_MOVES) : 0;
    if (dt_prefix_match(src, ns, j, nj) != nj || (nf != nj && nf != nj - 1) ||
        dt_prefix_match(src, ns, f, nf) != nf)
        fail_msg("run %d (kill after %.3f s): journal %d moves (%d match the source), SGF %d "
                 "moves (%d match)",
                 run, delay, nj, dt_prefix_match(src, ns, j, nj), nf,
                 dt_prefix_match(src, ns, f, nf));
    st->runs++;
    st->torn_journals += torn;
    st->sgf_lagging += nf < nj;
    st->by_ply[nj]++;
    if (nj == 0)
        st->before_first_move++;
    else if (nj < ns)
        st->mid_game++;
    else
        st->after_last_move++;

    /* The game goes on: the camera shows the board as it stands at the journal's last move. */
    dt_link_frames(frames, dt_quiet_frame_start(nj), -1);
    struct kc_config c;
    snprintf(spec, sizeof spec, "dir:%.500s", frames);
    dt_base_config(&c, spec, out);
    c.log_level = KC_LOG_ERROR;
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    int nr = dt_sgf_moves(r.sgf_path, f, MAX_MOVES);
    st->resumed_with_flags += r.flags > 0;
    if (r.resumed_moves != nj || r.moves != ns || dt_prefix_match(src, ns, r.move, r.moves) != ns ||
        nr != ns || dt_prefix_match(src, ns, f, nr) != ns)
        fail_msg("run %d (kill after %.3f s at %d moves): resumed %d, finished with %d moves "
                 "(%d match), %d flags, SGF %d moves",
                 run, delay, nj, r.resumed_moves, r.moves,
                 dt_prefix_match(src, ns, r.move, r.moves), r.flags, nr);
    free(r.move);
}

static void test_kill_anywhere(void **state)
{
    (void)state;
    long runs = dt_env_long("KIFUCAM_KILL_RUNS", 50);
    dt_rng_seed((uint64_t)dt_env_long("KIFUCAM_KILL_SEED", 1));
    int ns;
    struct go_move *src = dt_source_moves(&ns);
    assert_true(ns > 2 && ns <= MAX_MOVES);

    /* How long one whole game takes here. */
    char out[512];
    dt_make_tmp(out, sizeof out, "kill-timing");
    double t0 = dt_now_s();
    pid_t pid = start_daemon(out);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the daemon on the whole clip ended with status %#x", status);
    double whole = dt_now_s() - t0;

    static struct kill_stats st;
    double t1 = dt_now_s();
    for (int run = 0; run < runs; run++)
        kill_and_resume(run, dt_rng_unit() * whole * 1.05, src, ns, &st);

    char plies[1024] = "";
    size_t used = 0;
    for (int p = 0; p <= ns && used < sizeof plies - 16; p++)
        used += (size_t)snprintf(plies + used, sizeof plies - used, " %d:%d", p, st.by_ply[p]);
    tu_note("%d kills (seed %ld) over a %d-move game of %.2f s: %d before the first move, %d "
            "mid-game, %d after the last; %d torn journal tails, %d SGFs one move behind the "
            "journal; every record a prefix of the source and every resumed game whole "
            "(%.1f s in all)",
            st.runs, dt_env_long("KIFUCAM_KILL_SEED", 1), ns, whole, st.before_first_move,
            st.mid_game, st.after_last_move, st.torn_journals, st.sgf_lagging, dt_now_s() - t1);
    tu_note("moves on disk at the kill (ply:runs):%s", plies);
    /* The kills must land inside the game, not all before or after it. */
    assert_true(st.mid_game * 2 >= st.runs);
    free(src);
}

/* The same without the luck of the timing: a journal cut after each ply of a whole run (what a
 * kill between two moves leaves), and the game resumed from the still board at that ply. */
static void test_resume_at_every_ply(void **state)
{
    (void)state;
    char whole[512], path[700];
    dt_make_tmp(whole, sizeof whole, "every-ply-whole");
    pid_t pid = start_daemon(whole);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    snprintf(path, sizeof path, "%s/game.journal", whole);
    size_t len;
    char *text = tu_read_file(path, &len);
    assert_non_null(text);
    int ns;
    struct go_move *src = dt_source_moves(&ns);
    int with_flags = 0;
    for (int ply = 0; ply <= ns; ply++) {
        /* the header and every line up to the ply-th move */
        char out[512], frames[512], name[64], jpath[700], spec[600];
        snprintf(name, sizeof name, "every-ply-%02d", ply);
        dt_make_tmp(out, sizeof out, name);
        snprintf(name, sizeof name, "every-ply-%02d-frames", ply);
        dt_make_tmp(frames, sizeof frames, name);
        assert_int_equal(mkdir(out, 0755), 0);
        snprintf(jpath, sizeof jpath, "%s/game.journal", out);
        size_t cut = 0;
        int moves = 0;
        for (const char *line = text; *line;) {
            const char *nl = strchr(line, '\n');
            size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
            bool is_move = strstr(line, "\tEV\tMOVE\t") && strstr(line, "\tEV\tMOVE\t") < line + n;
            if (is_move && moves == ply) break;
            moves += is_move;
            cut += n;
            line += n;
        }
        FILE *f = fopen(jpath, "w");
        assert_non_null(f);
        assert_int_equal(fwrite(text, 1, cut, f), cut);
        fclose(f);
        dt_link_frames(frames, dt_quiet_frame_start(ply), -1);
        struct kc_config c;
        snprintf(spec, sizeof spec, "dir:%.500s", frames);
        dt_base_config(&c, spec, out);
        c.log_level = KC_LOG_ERROR;
        struct daemon_result r;
        assert_int_equal(daemon_run(&c, NULL, &r), 0);
        with_flags += r.flags > 0;
        if (r.resumed_moves != ply || r.moves != ns ||
            dt_prefix_match(src, ns, r.move, r.moves) != ns)
            fail_msg("resumed at ply %d: %d moves read back, %d at the end (%d match the source), "
                     "%d flags",
                     ply, r.resumed_moves, r.moves, dt_prefix_match(src, ns, r.move, r.moves),
                     r.flags);
        free(r.move);
    }
    tu_note("resumed at every ply 0..%d: every game whole, %d of them with a flag", ns, with_flags);
    /* the still board at the cut holds the record's stones: resuming from it flags nothing */
    assert_int_equal(with_flags, 0);
    free(text);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_resume_at_every_ply),
                                       cmocka_unit_test(test_kill_anywhere)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

/* tests/daemon/test_daemon_shogi_kill.c — a power cut during a shogi game loses nothing
 * acknowledged (the Go game's test is test_daemon_kill.c; this is the same promise for the KIF and
 * CSA records, whose rewrite and resume paths are shogi's own).
 *
 * The daemon records a rendered game (the fixture 竜王戦 KIF, its first moves, frames on disk) in a
 * child process killed with SIGKILL at a random moment: after a random number of journaled
 * moves, a random part of one move's time later. Each time:
 *  - the journal on disk (a torn last line allowed) holds a prefix of the game;
 *  - game.kif and game.csa parse and equal the journal, or lag it by the one move whose atomic
 *    rewrite the kill interrupted (journal first, then records);
 *  - a new daemon on the same folder, the camera showing the board from the still view at that
 *    ply on, resumes from the journal and finishes the game: both records equal the game.
 * KIFUCAM_KILL_RUNS (default 16: each run costs a whole game of shogi reading; the note of
 * issue 10 gives a 50-run figure) and KIFUCAM_KILL_SEED (default 1) change the runs;
 * KIFUCAM_KILL_AFTER=N kills only after N journaled moves (to follow one resume that fails). */
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
#include "tests/daemon/shogi_testutil.h"
#include "tests/testutil.h"

#define MOVES 10

static struct shogi_record *game;
static char frames[512];

/* The daemon on the whole render in a child, as fast as it reads; returns its pid. */
static pid_t start_daemon(const char *out)
{
    struct kc_config c;
    st_config(&c, frames, out);
    c.log_level = KC_LOG_ERROR;
    return dt_start_daemon(&c);
}

struct kill_stats {
    int runs, before_first_move, mid_game, after_last_move;
    int torn_journals, kif_lagging, csa_lagging, resumed_with_flags, by_ply[MOVES + 1];
    int finished, nunfinished, unfinished_at[256]; /* resumed games read to the end, or not */
};

/* Moves of the record at PATH (0 when the kill came before it was first written); fails unless
 * every one of them is the game's. */
static int record_moves(const char *path, int run, int after, double delay)
{
    struct stat sb;
    if (stat(path, &sb) != 0) return 0;
    int n, same = st_record_matching(path, game, &n);
    if (same != n)
        fail_msg(
            "run %d (kill %.3f s after move %d): %s holds %d moves, only %d of them the game's",
            run, delay, after, path, n, same);
    return n;
}

/* Moves in the journal at PATH so far (its EV MOVE lines; 0 when there is none yet). */
static int journal_move_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) n += strstr(line, "\tEV\tMOVE\t") != NULL;
    fclose(f);
    return n;
}

/* Wait until the daemon PID has journaled AFTER moves (or ended), then DELAY seconds more: the
 * kills spread over every ply however fast this machine reads, each at a random moment of the
 * time between two moves (the records' rewrite included). */
static void wait_for_ply(pid_t pid, const char *journal, int after, double delay)
{
    struct timespec poll = {0, 2000000};
    while (journal_move_lines(journal) < after && waitpid(pid, NULL, WNOHANG) == 0)
        nanosleep(&poll, NULL);
    struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
    nanosleep(&ts, NULL);
}

static void kill_and_resume(int run, int after, double delay, struct kill_stats *st)
{
    char out[512], tail[512], name[64], journal[700], kif[700], csa[700];
    snprintf(name, sizeof name, "kill-%02d", run);
    dt_make_tmp(out, sizeof out, name);
    snprintf(name, sizeof name, "kill-%02d-frames", run);
    dt_make_tmp(tail, sizeof tail, name);
    snprintf(journal, sizeof journal, "%s/game.journal", out);
    snprintf(kif, sizeof kif, "%s/game.kif", out);
    snprintf(csa, sizeof csa, "%s/game.csa", out);

    pid_t pid = start_daemon(out);
    wait_for_ply(pid, journal, after, delay);
    kill(pid, SIGKILL); /* it may have finished already: that is one of the moments too */
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);

    /* What the kill left on disk. */
    bool torn = false;
    struct stat sb;
    int same = 0,
        nj = stat(journal, &sb) == 0 ? st_journal_moves(journal, game, true, &torn, &same) : 0;
    if (same != nj)
        fail_msg(
            "run %d (kill %.3f s after move %d): the journal holds %d moves, only %d the game's",
            run, delay, after, nj, same);
    int nk = record_moves(kif, run, after, delay), nc = record_moves(csa, run, after, delay);
    if ((nk != nj && nk != nj - 1) || (nc != nj && nc != nj - 1))
        fail_msg("run %d (kill %.3f s after move %d): journal %d moves, game.kif %d, game.csa %d",
                 run, delay, after, nj, nk, nc);
    st->runs++;
    st->torn_journals += torn;
    st->kif_lagging += nk < nj;
    st->csa_lagging += nc < nj;
    st->by_ply[nj]++;
    if (nj == 0)
        st->before_first_move++;
    else if (nj < MOVES)
        st->mid_game++;
    else
        st->after_last_move++;

    /* The game goes on: the camera shows the board as it stands at the journal's last move. */
    dt_link_frames_from(frames, tail, dt_quiet_frame_start_in(frames, nj), -1);
    struct kc_config c;
    st_config(&c, tail, out);
    c.log_level = KC_LOG_ERROR;
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    free(r.move);
    st->resumed_with_flags += r.flags > 0;
    /* What the power cut promises: the resumed game starts from the journal and what it writes
     * is the game's (never a wrong move). Whether it then reads every later move is the
     * reader's part (issue 7), counted and held to a floor below. */
    int kn, ks = st_record_matching(kif, game, &kn), cn, cs = st_record_matching(csa, game, &cn);
    if (r.resumed_moves != nj || ks != kn || cs != cn || kn != cn || kn < nj)
        fail_msg("run %d (kill %.3f s after move %d, %d moves on disk): resumed %d, finished with "
                 "%d moves, %d "
                 "flags; game.kif %d moves (%d the game's), game.csa %d (%d)",
                 run, delay, after, nj, r.resumed_moves, r.moves, r.flags, kn, ks, cn, cs);
    if (r.moves == MOVES && kn == MOVES)
        st->finished++;
    else
        st->unfinished_at[st->nunfinished++] = nj;
}

static void test_kill_anywhere(void **state)
{
    (void)state;
    long runs = dt_env_long("KIFUCAM_KILL_RUNS", 16);
    dt_rng_seed((uint64_t)dt_env_long("KIFUCAM_KILL_SEED", 1));
    long only_after = dt_env_long("KIFUCAM_KILL_AFTER", -1);
    game = st_load_game("ryuou201409020101.kif");
    assert_true(game->nmoves >= MOVES);
    dt_make_tmp(frames, sizeof frames, "frames");
    st_render_game(game, MOVES, frames);

    /* How long one whole game takes here, and that it is recorded whole. */
    char out[512], kif[700];
    dt_make_tmp(out, sizeof out, "kill-timing");
    double t0 = dt_now_s();
    pid_t pid = start_daemon(out);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the daemon on the whole render ended with status %#x", status);
    double whole = dt_now_s() - t0;
    snprintf(kif, sizeof kif, "%s/game.kif", out);
    int n;
    assert_int_equal(st_record_matching(kif, game, &n), MOVES);

    static struct kill_stats st;
    double t1 = dt_now_s();
    /* a ply to wait for, 0..MOVES, and a moment within the time one move takes */
    for (int run = 0; run < runs; run++) {
        int after = (int)(dt_rng_unit() * (MOVES + 1));
        if (after > MOVES) after = MOVES;
        if (only_after >= 0) after = (int)only_after;
        kill_and_resume(run, after, dt_rng_unit() * whole / MOVES, &st);
    }

    char plies[256] = "", missed[256] = "";
    size_t used = 0;
    for (int p = 0; p <= MOVES; p++)
        used += (size_t)snprintf(plies + used, sizeof plies - used, " %d:%d", p, st.by_ply[p]);
    used = 0;
    for (int i = 0; i < st.nunfinished && used < sizeof missed - 8; i++)
        used += (size_t)snprintf(missed + used, sizeof missed - used, " %d", st.unfinished_at[i]);
    tu_note("%d kills (seed %ld) over a %d-move shogi game of %.2f s: %d before the first move, "
            "%d mid-game, %d after the last; %d torn journal tails, game.kif one move behind %d "
            "times, game.csa %d; every record a prefix of the game, every resume from the "
            "journal; %d resumed games read to the end, %d with a flag (%.1f s in all)",
            st.runs, dt_env_long("KIFUCAM_KILL_SEED", 1), MOVES, whole, st.before_first_move,
            st.mid_game, st.after_last_move, st.torn_journals, st.kif_lagging, st.csa_lagging,
            st.finished, st.resumed_with_flags, dt_now_s() - t1);
    tu_note("moves on disk at the kill (ply:runs):%s; resumed games left short, by the ply they "
            "resumed at:%s",
            plies, st.nunfinished ? missed : " none");
    /* The reader resumes on a board it has not watched: the games must still end whole (80 of
     * 80 over seeds 1 and 2 since a weak still change of the rim is adopted in 0.25 s; 46 of 50
     * before, the resumes at ply 4). Timing differs between machines: a floor, not all. */
    assert_true(st.finished * 10 >= st.runs * 9);
    /* The kills must land inside the game, not all before or after it. */
    assert_true(st.mid_game * 2 >= st.runs);
    shogi_record_free(game);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_kill_anywhere)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

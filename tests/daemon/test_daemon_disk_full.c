/* tests/daemon/test_daemon_disk_full.c — a disk that fills up mid-game, for real (ENOSPC), in a Go
 * and a shogi game.
 *
 * The records go to a small ext2 file system (1 KiB blocks, loop-mounted in a mount namespace of
 * this test's own), into a journal the test started with notes that leave room for a move or two
 * in its last block. The daemon records the sample clip at a few times its pace; after a move
 * the test fills every free block, so the next journal line that needs a block is refused with
 * ENOSPC (noreservation: ext2 would otherwise keep spare blocks for a growing file). The daemon
 * must say so (log and status line), hold the events in memory and show none
 * of them, then write them all, in order, once the test frees the space; the journal and the SGF
 * at the end hold the whole game. Needs root (or a user namespace), mkfs.ext2 and a loop device:
 * without them the test says so and skips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/journal.h"
#include "tests/daemon/daemon_testutil.h"
#include "tests/daemon/shogi_testutil.h"
#include "tests/testutil.h"

#define MAX_MOVES 512

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A private mount namespace with a 1 MiB ext2 file system mounted at MNT; false (and why in
 * WHY) when this machine cannot. */
static bool mount_small_fs(const char *img, const char *mnt, char *why, size_t len)
{
    if (unshare(CLONE_NEWNS) != 0) {
        snprintf(why, len, "no mount namespace: %s", strerror(errno));
        return false;
    }
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) {
        snprintf(why, len, "cannot make mounts private: %s", strerror(errno));
        return false;
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "truncate -s 1M '%s' && mkfs.ext2 -q -F -b 1024 -m 0 '%s' >/dev/null 2>&1 && "
             "mkdir -p '%s' && mount -o loop,noreservation '%s' '%s' 2>/dev/null",
             img, img, mnt, img, mnt);
    if (system(cmd) != 0) {
        snprintf(why, len, "cannot make and loop-mount an ext2 image (mkfs.ext2, /dev/loop*)");
        return false;
    }
    return true;
}

/* Zeros into FD until the file system says ENOSPC; returns the bytes written. */
static long write_until_full(int fd)
{
    static char block[1024];
    long total = 0;
    ssize_t w;
    while ((w = write(fd, block, sizeof block)) > 0) total += w;
    while ((w = write(fd, block, 1)) > 0) total += w; /* the last partial block too */
    return total;
}

/* Small files PATH.N (from *n on) for every block still free: those the big file could not take
 * (its next block would also have needed an indirect block), and those the daemon frees when it
 * removes a temporary file it could not finish (a snapshot cut short by ENOSPC). */
static long top_up(const char *path, int *n)
{
    long total = 0;
    while (*n < 4096) {
        char name[700];
        snprintf(name, sizeof name, "%.600s.%d", path, *n);
        int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) break; /* no inode or no block for the directory left */
        (*n)++;
        long got = write_until_full(fd);
        fsync(fd);
        close(fd);
        total += got;
        if (!got) break;
    }
    return total;
}

/* Fill every free block: one big file PATH, then the small ones. Returns the bytes. */
static long fill_disk(const char *path, int *small_files)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    long total = write_until_full(fd);
    assert_int_equal(errno, ENOSPC);
    fsync(fd);
    close(fd);
    *small_files = 0;
    return total + top_up(path, small_files);
}

static void free_disk(const char *path, int small_files)
{
    assert_int_equal(unlink(path), 0);
    for (int n = 0; n < small_files; n++) {
        char name[700];
        snprintf(name, sizeof name, "%.600s.%d", path, n);
        unlink(name);
    }
    sync();
}

/* The journal a referee started: the game's header and notes, sized so that its last 1 KiB block
 * has room for only a move or two: the first move comes before the disk is filled, a later one
 * needs a new block. */
static void prepare_journal(const char *dir, const char *path, const char *const game[4])
{
    assert_int_equal(mkdir(dir, 0755), 0);
    struct journal_log log = {0};
    struct journal_error je;
    struct journal *jr = journal_open(path, &log, &je);
    assert_non_null(jr);
    journal_log_free(&log);
    assert_true(journal_append(jr, "GAME", 4, game, &je) > 0);
    struct stat sb;
    for (int i = 0; i < 10; i++) {
        assert_int_equal(stat(path, &sb), 0);
        long off = (long)sb.st_size % 1024;
        if (off >= 760 && off <= 860) break;
        long want = 800 - off - 40; /* a note line carries about 40 bytes besides its text */
        if (want < 1) want += 1024;
        if (want > 480) want = 480;
        struct referee_action a = {REFEREE_ADD_NOTE, 0, 0, ""};
        for (long k = 0; k < want; k++) a.text[k] = "board set up for the disk test "[k % 31];
        assert_true(journal_append_action(jr, &a, &je) > 0);
    }
    journal_close(jr);
    assert_int_equal(stat(path, &sb), 0);
    tu_note("journal prepared: %lld bytes (%lld in its last block)", (long long)sb.st_size,
            (long long)sb.st_size % 1024);
}

static bool file_has(const char *path, const char *needle)
{
    size_t len;
    char *t = tu_read_file(path, &len);
    bool yes = t && strstr(t, needle);
    free(t);
    return yes;
}

/* What differs between the games: the journal's header, the footage, how moves are counted in
 * the journal and the record. */
struct disk_game {
    const char *name, *record; /* "go", "game.sgf" */
    const char *header[4];     /* the journal's GAME line */
    void (*config)(struct kc_config *c, const char *out);
    int (*journal_moves)(const char *path, bool torn_ok); /* moves, checked against the game */
    int (*record_moves)(const char *path);                /* moves that are the game's */
    int moves;                                            /* the game's */
};

static void go_config(struct kc_config *c, const char *out)
{
    dt_base_config(c, "dir:" KIFUCAM_CLIP_DIR, out);
}

static struct go_move go_src[MAX_MOVES];
static int go_nsrc;

static int go_journal_moves(const char *path, bool torn_ok)
{
    static struct go_move j[MAX_MOVES];
    int n = dt_journal_moves(path, j, MAX_MOVES, torn_ok, NULL);
    assert_int_equal(dt_prefix_match(go_src, go_nsrc, j, n), n);
    return n;
}

static int go_record_moves(const char *path)
{
    static struct go_move f[MAX_MOVES];
    int n = dt_sgf_moves(path, f, MAX_MOVES);
    return dt_prefix_match(go_src, go_nsrc, f, n) == n ? n : -1;
}

#define SHOGI_MOVES 10
static struct shogi_record *shogi_game;
static char shogi_frames[512];

static void shogi_config(struct kc_config *c, const char *out)
{
    st_config(c, shogi_frames, out);
}

static int shogi_journal_moves(const char *path, bool torn_ok)
{
    int same, n = st_journal_moves(path, shogi_game, torn_ok, NULL, &same);
    assert_int_equal(same, n);
    return n;
}

/* game.kif, and game.csa beside it, must agree */
static int shogi_record_moves(const char *path)
{
    char csa[800];
    snprintf(csa, sizeof csa, "%.*s.csa", (int)(strlen(path) - 4), path);
    int n, same = st_record_matching(path, shogi_game, &n);
    int nc, same_csa = st_record_matching(csa, shogi_game, &nc);
    return same == n && same_csa == nc && nc == n ? n : -1;
}

static void disk_fills_mid_game(const struct disk_game *g)
{
    char img[512], mnt[512], out[600], log[600], filler[600], journal[700], rec[700], why[256];
    char name[64];
    snprintf(name, sizeof name, "%s-disk.img", g->name);
    dt_make_tmp(img, sizeof img, name);
    snprintf(name, sizeof name, "%s-disk", g->name);
    dt_make_tmp(mnt, sizeof mnt, name);
    snprintf(name, sizeof name, "%s-daemon.log", g->name);
    dt_make_tmp(log, sizeof log, name);
    if (!mount_small_fs(img, mnt, why, sizeof why)) {
        tu_note("disk-full test not run here: %s", why);
        TU_SKIP();
    }
    snprintf(out, sizeof out, "%s/records", mnt);
    snprintf(filler, sizeof filler, "%s/filler", mnt);
    snprintf(journal, sizeof journal, "%s/game.journal", out);
    snprintf(rec, sizeof rec, "%s/%s", out, g->record);

    prepare_journal(out, journal, g->header);
    struct kc_config c;
    g->config(&c, out);
    c.realtime = true;
    c.speed = 2; /* slow enough that the space comes back before the game ends, even on a loaded
                    machine */
    c.log_level = KC_LOG_INFO;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 2) < 0) _exit(4);
        struct daemon_result r;
        int rc = daemon_run(&c, NULL, &r);
        fprintf(stderr, "RESULT rc=%d moves=%d disk_errors=%llu unwritten=%d\n", rc, r.moves,
                (unsigned long long)r.disk_errors, r.unwritten);
        _exit(rc);
    }

    /* A move on disk, then no free block left. */
    int nj = 0;
    struct stat sb;
    for (int i = 0; i < 600 && nj < 1; i++) {
        sleep_ms(20);
        if (!stat(journal, &sb)) nj = g->journal_moves(journal, true);
    }
    assert_true(nj >= 1);
    int small_files = 0;
    long filled = fill_disk(filler, &small_files);
    int at_full = g->journal_moves(journal, true);

    /* The journal's last block fills up and its next line is refused; the daemon says so and
     * holds the events; then the space comes back. */
    bool held = false;
    for (int i = 0; i < 1500 && !held; i++) {
        sleep_ms(20);
        filled += top_up(filler, &small_files);
        held = file_has(log, "events held in memory");
    }
    sleep_ms(200); /* more events may arrive while it is full */
    bool said = file_has(log, "No space left on device");
    int while_full = g->journal_moves(journal, true);
    free_disk(filler, small_files);

    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    bool caught_up = file_has(log, "every held event is written");
    nj = g->journal_moves(journal, false);
    int nf = g->record_moves(rec);
    size_t len;
    char *text = tu_read_file(log, &len);
    const char *res_line = text ? strstr(text, "RESULT") : NULL;
    tu_note("%s: disk filled (%ld bytes of filler) with %d moves in the journal; the daemon said "
            "ENOSPC: %s, held events: %s, journal while full: %d moves; space freed: caught up: "
            "%s; at the end journal %d, %s %d of %d moves (%.80s)",
            g->name, filled, at_full, said ? "yes" : "no", held ? "yes" : "no", while_full,
            caught_up ? "yes" : "no", nj, g->record, nf, g->moves,
            res_line ? res_line : "no result line");
    free(text);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(said);
    assert_true(held);
    assert_true(caught_up);
    assert_int_equal(nj, g->moves);
    assert_int_equal(nf, g->moves);
    umount2(mnt, MNT_DETACH);
}

static void test_disk_fills_mid_game(void **state)
{
    (void)state;
    struct go_move *m = dt_source_moves(&go_nsrc); /* copied, so a failed assertion leaks nothing */
    assert_true(go_nsrc <= MAX_MOVES);
    memcpy(go_src, m, (size_t)go_nsrc * sizeof *go_src);
    free(m);
    const struct disk_game go = {"go",      "game.sgf",       {"go", "9", "Chinese 1988", "7.5"},
                                 go_config, go_journal_moves, go_record_moves,
                                 go_nsrc};
    disk_fills_mid_game(&go);
}

/* The same for shogi: the events held while the disk is full are the KIF's and CSA's too. */
static void test_disk_fills_mid_game_shogi(void **state)
{
    (void)state;
    shogi_game = st_load_game("ryuou201409020101.kif");
    dt_make_tmp(shogi_frames, sizeof shogi_frames, "shogi-frames");
    st_render_game(shogi_game, SHOGI_MOVES, shogi_frames);
    const struct disk_game shogi = {
        "shogi",      "game.kif",          {"shogi", "9", "tournament", "startpos"},
        shogi_config, shogi_journal_moves, shogi_record_moves,
        SHOGI_MOVES};
    disk_fills_mid_game(&shogi);
    shogi_record_free(shogi_game);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_disk_fills_mid_game),
                                       cmocka_unit_test(test_disk_fills_mid_game_shogi)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

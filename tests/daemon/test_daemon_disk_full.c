/* tests/daemon/test_daemon_disk_full.c — a disk that fills up mid-game, for real (ENOSPC).
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
static void prepare_journal(const char *dir, const char *path)
{
    assert_int_equal(mkdir(dir, 0755), 0);
    struct journal_log log = {0};
    struct journal_error je;
    struct journal *jr = journal_open(path, &log, &je);
    assert_non_null(jr);
    journal_log_free(&log);
    const char *game[] = {"go", "9", "Chinese 1988", "7.5"};
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

static void test_disk_fills_mid_game(void **state)
{
    (void)state;
    char img[512], mnt[512], out[600], log[600], filler[600], journal[700], sgf[700], why[256];
    dt_make_tmp(img, sizeof img, "disk.img");
    dt_make_tmp(mnt, sizeof mnt, "disk");
    dt_make_tmp(log, sizeof log, "daemon.log");
    if (!mount_small_fs(img, mnt, why, sizeof why)) {
        tu_note("disk-full test not run here: %s", why);
        TU_SKIP();
    }
    snprintf(out, sizeof out, "%s/records", mnt);
    snprintf(filler, sizeof filler, "%s/filler", mnt);
    snprintf(journal, sizeof journal, "%s/game.journal", out);
    snprintf(sgf, sizeof sgf, "%s/game.sgf", out);

    prepare_journal(out, journal);
    struct kc_config c;
    dt_base_config(&c, "dir:" KIFUCAM_CLIP_DIR, out);
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
    static struct go_move j[MAX_MOVES], f[MAX_MOVES];
    int nj = 0;
    struct stat sb;
    for (int i = 0; i < 600 && nj < 1; i++) {
        sleep_ms(20);
        if (!stat(journal, &sb)) nj = dt_journal_moves(journal, j, MAX_MOVES, true, NULL);
    }
    assert_true(nj >= 1);
    int small_files = 0;
    long filled = fill_disk(filler, &small_files);
    int at_full = dt_journal_moves(journal, j, MAX_MOVES, true, NULL);

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
    int while_full = dt_journal_moves(journal, j, MAX_MOVES, true, NULL);
    free_disk(filler, small_files);

    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    bool caught_up = file_has(log, "every held event is written");
    int ns;
    static struct go_move src[MAX_MOVES];
    struct go_move *m = dt_source_moves(&ns); /* copied, so a failed assertion leaks nothing */
    assert_true(ns <= MAX_MOVES);
    memcpy(src, m, (size_t)ns * sizeof *src);
    free(m);
    nj = dt_journal_moves(journal, j, MAX_MOVES, false, NULL);
    int nf = dt_sgf_moves(sgf, f, MAX_MOVES);
    size_t len;
    char *text = tu_read_file(log, &len);
    const char *res_line = text ? strstr(text, "RESULT") : NULL;
    tu_note("disk filled (%ld bytes of filler) with %d moves in the journal; the daemon said "
            "ENOSPC: %s, held events: %s, journal while full: %d moves; space freed: caught up: "
            "%s; at the end journal %d, SGF %d of %d moves (%.80s)",
            filled, at_full, said ? "yes" : "no", held ? "yes" : "no", while_full,
            caught_up ? "yes" : "no", nj, nf, ns, res_line ? res_line : "no result line");
    free(text);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(said);
    assert_true(held);
    assert_true(caught_up);
    assert_int_equal(nj, ns);
    assert_int_equal(dt_prefix_match(src, ns, j, nj), ns);
    assert_int_equal(nf, ns);
    assert_int_equal(dt_prefix_match(src, ns, f, nf), ns);
    umount2(mnt, MNT_DETACH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_disk_fills_mid_game)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

/* tests/live/test_journal.c — the crash-safe journal: round trip, torn tail, CRC damage named by
 * line, a writer SIGKILLed at random moments (the journal always holds every acknowledged line),
 * and a full disk (a file-size limit: EFBIG) that loses nothing written before. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/atomic_file.h"
#include "record/journal.h"
#include "tests/live/live_testutil.h"
#include "tests/testutil.h"

/* The event the writer appends as line seq: every field derived from seq, so a reader can check
 * each line it gets back. */
static void make_event(uint64_t seq, struct guard_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = seq % 7 == 0 ? GUARD_ILLEGAL_MOVE : GUARD_MOVE;
    ev->t_ns = (int64_t)seq * 1000003 - 5;
    ev->ply = (int)seq;
    ev->frame_seq = seq * 30;
    ev->move.color = seq % 2 ? GO_BLACK : GO_WHITE;
    ev->move.point = (int)(seq * 7 % 361);
    ev->shogi.from = (uint8_t)(seq % 82);
    ev->shogi.to = (uint8_t)(seq % 81);
    ev->shogi.piece = 5;
    ev->shogi.promote = seq % 3 == 0;
    ev->reason = (int)(seq % 5);
    ev->rule_ref = seq % 7 == 0 ? "Japanese 1989 Art. 4 (ko)" : NULL;
    snprintf(ev->text, sizeof ev->text, "move %llu\twith a tab,\na newline and a \\ backslash",
             (unsigned long long)seq);
    if (seq % 4 == 1) snprintf(ev->doubt, sizeof ev->doubt, "accepted under doubt: seen once");
}

static void check_event(const struct journal_entry *e, uint64_t seq)
{
    struct guard_event got, want;
    char rule[128];
    assert_true(journal_decode_event(e, &got, rule, sizeof rule));
    make_event(seq, &want);
    assert_int_equal(e->seq, seq);
    assert_int_equal(got.kind, want.kind);
    assert_true(got.t_ns == want.t_ns);
    assert_int_equal(got.ply, want.ply);
    assert_true(got.frame_seq == want.frame_seq);
    assert_int_equal(got.move.color, want.move.color);
    assert_int_equal(got.move.point, want.move.point);
    assert_int_equal(got.shogi.from, want.shogi.from);
    assert_int_equal(got.shogi.to, want.shogi.to);
    assert_int_equal(got.shogi.promote, want.shogi.promote);
    assert_int_equal(got.reason, want.reason);
    if (want.rule_ref)
        assert_string_equal(got.rule_ref, want.rule_ref);
    else
        assert_null(got.rule_ref);
    assert_string_equal(got.text, want.text);
    assert_string_equal(got.doubt, want.doubt);
}

static struct journal *open_fresh(const char *path, struct journal_log *log)
{
    struct journal_error err;
    struct journal *j = journal_open(path, log, &err);
    if (!j) fail_msg("%s", err.message);
    return j;
}

static void append_events(struct journal *j, uint64_t from, uint64_t to)
{
    struct journal_error err;
    for (uint64_t s = from; s <= to; s++) {
        struct guard_event ev;
        make_event(s, &ev);
        uint64_t got = journal_append_event(j, &ev, &err);
        if (got == 0) fail_msg("%s", err.message);
        assert_int_equal(got, s);
    }
}

/* A journal written before events carried their doubt (14 fields) still resumes: its events
 * decode, with no doubt. */
static void test_event_without_doubt_field(void **state)
{
    (void)state;
    char *dir = lt_mkdtemp("journal-old");
    char *path = lt_join(dir, "game.journal");
    struct journal_log log;
    struct journal *j = open_fresh(path, &log);
    journal_log_free(&log);
    const char *f[14] = {
        "MOVE", "1000", "3", "90", "1", "72", "0",
        "0",    "0",    "0", "0",  "0", "",   "Black D4 (accepted under doubt: x)"};
    struct journal_error err;
    assert_int_equal(journal_append(j, "EV", 14, f, &err), 1);
    const char *g[13] = {"MOVE", "1000", "3", "90", "1", "72", "0", "0", "0", "0", "0", "0", ""};
    assert_int_equal(journal_append(j, "EV", 13, g, &err), 2); /* too short: not an event */
    journal_close(j);
    assert_int_equal(journal_read(path, &log, &err), 0);
    assert_int_equal(log.count, 2);
    struct guard_event ev;
    assert_true(journal_decode_event(&log.entries[0], &ev, NULL, 0));
    assert_int_equal(ev.kind, GUARD_MOVE);
    assert_int_equal(ev.ply, 3);
    assert_int_equal(ev.move.point, 72);
    assert_string_equal(ev.text, "Black D4 (accepted under doubt: x)");
    assert_string_equal(ev.doubt, "");
    assert_false(journal_decode_event(&log.entries[1], &ev, NULL, 0));
    journal_log_free(&log);
    lt_rmtree(dir);
    free(path);
    free(dir);
}

static void test_crc32_known_value(void **state)
{
    (void)state;
    /* The check value of CRC-32/ISO-HDLC (zlib's crc32("123456789")). */
    assert_int_equal(journal_crc32(0, "123456789", 9), 0xcbf43926u);
    assert_int_equal(journal_crc32(journal_crc32(0, "1234", 4), "56789", 5), 0xcbf43926u);
}

static void test_round_trip(void **state)
{
    (void)state;
    char *dir = lt_mkdtemp("journal");
    char *path = lt_join(dir, "game.journal");
    struct journal_log log;
    struct journal *j = open_fresh(path, &log);
    assert_int_equal(log.count, 0);
    assert_false(log.damaged);
    journal_log_free(&log);

    const char *game[] = {"go", "19", "Black \\ player", "White\tplayer", "Chinese 1988"};
    struct journal_error err;
    assert_int_equal(journal_append(j, "GAME", 5, game, &err), 1);
    append_events(j, 2, 40);
    struct referee_action a = {REFEREE_ADD_NOTE, 123456789, 40, "stone moved by the sleeve\n ok"};
    assert_int_equal(journal_append_action(j, &a, &err), 41);
    assert_int_equal(journal_next_seq(j), 42);
    journal_close(j);

    assert_int_equal(journal_read(path, &log, &err), 0);
    assert_false(log.damaged);
    assert_int_equal(log.count, 41);
    assert_string_equal(log.entries[0].type, "GAME");
    assert_int_equal(log.entries[0].nfields, 5);
    for (int i = 0; i < 5; i++) assert_string_equal(log.entries[0].fields[i], game[i]);
    for (uint64_t s = 2; s <= 40; s++) check_event(&log.entries[s - 1], s);
    struct referee_action b;
    assert_true(journal_decode_action(&log.entries[40], &b));
    assert_int_equal(b.kind, REFEREE_ADD_NOTE);
    assert_int_equal(b.ply, 40);
    assert_string_equal(b.text, a.text);
    assert_false(journal_decode_event(&log.entries[40], &(struct guard_event){0}, NULL, 0));
    journal_log_free(&log);

    /* Reopening resumes: the same entries, and appends continue the sequence. */
    j = open_fresh(path, &log);
    assert_int_equal(log.count, 41);
    journal_log_free(&log);
    append_events(j, 42, 42);
    journal_close(j);
    assert_int_equal(journal_read(path, &log, &err), 0);
    assert_int_equal(log.count, 42);
    check_event(&log.entries[41], 42);
    journal_log_free(&log);

    /* A missing journal reads as empty. */
    char *none = lt_join(dir, "none.journal");
    assert_int_equal(journal_read(none, &log, &err), 0);
    assert_int_equal(log.count, 0);
    journal_log_free(&log);
    free(none);
    lt_rmtree(dir);
    free(path);
    free(dir);
}

static void test_torn_tail(void **state)
{
    (void)state;
    char *dir = lt_mkdtemp("journal");
    char *path = lt_join(dir, "game.journal");
    struct journal_log log;
    struct journal *j = open_fresh(path, &log);
    journal_log_free(&log);
    append_events(j, 1, 10);
    journal_close(j);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    size_t len;
    char *data = tu_read_file(path, &len);
    /* Cut the last line short, as a power cut in the middle of the write would. */
    assert_int_equal(truncate(path, st.st_size - 9), 0);

    struct journal_error err;
    assert_int_equal(journal_read(path, &log, &err), 0);
    assert_true(log.damaged);
    assert_int_equal(log.count, 9);
    assert_int_equal(log.damage.line, 10);
    assert_non_null(strstr(log.damage.message, "game.journal:10: torn line"));
    journal_log_free(&log);

    /* Opening cuts the torn line off and carries on with seq 10. */
    j = open_fresh(path, &log);
    assert_true(log.damaged);
    assert_int_equal(log.count, 9);
    journal_log_free(&log);
    append_events(j, 10, 12);
    journal_close(j);
    assert_int_equal(journal_read(path, &log, &err), 0);
    assert_false(log.damaged);
    assert_int_equal(log.count, 12);
    for (uint64_t s = 1; s <= 12; s++) check_event(&log.entries[s - 1], s);
    journal_log_free(&log);
    /* No damaged copy for a plain torn tail. */
    char *copy = lt_join(dir, "game.journal.damaged-1");
    assert_int_not_equal(access(copy, F_OK), 0);
    free(copy);
    free(data);
    lt_rmtree(dir);
    free(path);
    free(dir);
}

static void test_crc_damage_named_by_line(void **state)
{
    (void)state;
    char *dir = lt_mkdtemp("journal");
    char *path = lt_join(dir, "game.journal");
    struct journal_log log;
    struct journal *j = open_fresh(path, &log);
    journal_log_free(&log);
    append_events(j, 1, 6);
    journal_close(j);
    size_t len;
    char *data = tu_read_file(path, &len);
    /* Flip one byte in the text of line 4 (a bad sector, a bit flip). */
    char *l = data;
    for (int i = 1; i < 4; i++) l = strchr(l, '\n') + 1;
    char *m = strstr(l, "move 4");
    assert_non_null(m);
    m[5] = '9';
    lt_write_file(path, data, len);

    struct journal_error err;
    assert_int_equal(journal_read(path, &log, &err), 0);
    assert_true(log.damaged);
    assert_int_equal(log.count, 3);
    assert_int_equal(log.damage.line, 4);
    assert_non_null(strstr(log.damage.message, "game.journal:4: CRC mismatch"));
    tu_note("damage report: %s", log.damage.message);
    journal_log_free(&log);

    /* Opening keeps the damaged file whole beside it and continues from the good prefix. */
    j = open_fresh(path, &log);
    assert_int_equal(log.count, 3);
    assert_true(log.damaged);
    journal_log_free(&log);
    append_events(j, 4, 5);
    journal_close(j);
    char *copy = lt_join(dir, "game.journal.damaged-1");
    size_t clen;
    char *cdata = tu_read_file(copy, &clen);
    assert_non_null(cdata);
    assert_int_equal(clen, len);
    assert_memory_equal(cdata, data, len);
    assert_int_equal(journal_read(path, &log, &err), 0);
    assert_false(log.damaged);
    assert_int_equal(log.count, 5);
    for (uint64_t s = 1; s <= 5; s++) check_event(&log.entries[s - 1], s);
    journal_log_free(&log);

    /* Other damage: a sequence gap and garbage are named too. */
    const char gap[] = "1\tX\t0f0f0f0f\n";
    assert_int_equal(journal_parse("mem", gap, sizeof gap - 1, &log), 0);
    assert_true(log.damaged);
    assert_non_null(strstr(log.damage.message, "mem:1: CRC mismatch"));
    journal_log_free(&log);
    const char junk[] = "\xff\xfe garbage\n";
    assert_int_equal(journal_parse("mem", junk, sizeof junk - 1, &log), 0);
    assert_int_equal(log.count, 0);
    assert_non_null(strstr(log.damage.message, "mem:1: no CRC"));
    journal_log_free(&log);

    free(cdata);
    free(copy);
    free(data);
    lt_rmtree(dir);
    free(path);
    free(dir);
}

/* The writer of the kill test: appends events after the journal's end and reports each
 * acknowledged seq through the pipe. */
static void kill_test_child(const char *path, int ack_fd)
{
    struct journal_log log;
    struct journal_error err;
    struct journal *j = journal_open(path, &log, &err);
    if (!j) _exit(3);
    uint64_t seq = log.count + 1;
    journal_log_free(&log);
    for (;; seq++) {
        struct guard_event ev;
        make_event(seq, &ev);
        if (journal_append_event(j, &ev, &err) != seq) _exit(4);
        if (write(ack_fd, &seq, sizeof seq) != sizeof seq) _exit(5);
    }
}

static void test_sigkill_keeps_acknowledged_prefix(void **state)
{
    (void)state;
    char *dir = lt_mkdtemp("journal-kill");
    char *path = lt_join(dir, "game.journal");
    unsigned seed = 20240501;
    int rounds = 60, torn = 0, inflight = 0;
    uint64_t acked = 0;
    long long t0 = lt_now_ms();
    for (int r = 0; r < rounds; r++) {
        int fds[2];
        assert_int_equal(pipe(fds), 0);
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            close(fds[0]);
            kill_test_child(path, fds[1]);
        }
        close(fds[1]);
        /* Every other round waits for the first acknowledgement, so that a slow machine (qemu)
         * still kills mid-appends; then kill after 0..25 ms: some rounds die while opening,
         * most in the middle of appends. */
        uint64_t s;
        if (r % 2 && read(fds[0], &s, sizeof s) == sizeof s) {
            assert_int_equal(s, acked + 1);
            acked = s;
        }
        struct timespec d = {0, (long)(rand_r(&seed) % 25000) * 1000L};
        nanosleep(&d, NULL);
        kill(pid, SIGKILL);
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFSIGNALED(status));
        while (read(fds[0], &s, sizeof s) == sizeof s) {
            assert_int_equal(s, acked + 1); /* acks come in order, none skipped */
            acked = s;
        }
        close(fds[0]);

        struct journal_log log;
        struct journal_error err;
        assert_int_equal(journal_read(path, &log, &err), 0);
        /* Every acknowledged line is there; at most the one in flight beyond it. */
        if (log.count < acked)
            fail_msg("round %d: %zu lines read back, %llu acknowledged", r, log.count,
                     (unsigned long long)acked);
        assert_true(log.count <= acked + 1);
        if (log.count == acked + 1) inflight++;
        if (log.damaged) {
            assert_non_null(strstr(log.damage.message, "torn line"));
            torn++;
        }
        for (size_t i = 0; i < log.count; i++) check_event(&log.entries[i], i + 1);
        /* The next writer starts after what is on disk, acknowledged or not. */
        acked = log.count;
        journal_log_free(&log);
    }
    tu_note("kill test: %d SIGKILLs, %llu events on disk, %d rounds with an unacknowledged line "
            "on disk, %d torn tails, %lld ms",
            rounds, (unsigned long long)acked, inflight, torn, lt_now_ms() - t0);
    assert_true(acked > 20);
    lt_rmtree(dir);
    free(path);
    free(dir);
}

static void test_disk_full_loses_nothing(void **state)
{
    (void)state;
    char *dir = lt_mkdtemp("journal-full");
    char *path = lt_join(dir, "game.journal");
    char *rec = lt_join(dir, "game.sgf");
    assert_int_equal(atomic_write_file(rec, "(;GM[1]SZ[19])", 14, NULL, 0), 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* The limit makes write(2) fail with EFBIG like ENOSPC on a full card, in this process
         * only (no mount needed); SIGXFSZ would kill it instead, so ignore it. */
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {6000, 6000};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(10);
        struct journal_log log;
        struct journal_error err;
        struct journal *j = journal_open(path, &log, &err);
        if (!j) _exit(11);
        journal_log_free(&log);
        uint64_t n = 0;
        for (uint64_t s = 1; s < 1000; s++) {
            struct guard_event ev;
            make_event(s, &ev);
            if (journal_append_event(j, &ev, &err) == 0) break;
            n = s;
        }
        char big[8000];
        memset(big, 'x', sizeof big);
        char msg2[512];
        int arc = atomic_write_file(rec, big, sizeof big, msg2, sizeof msg2);
        dprintf(fds[1], "%llu\n%d\n%s\n%d\n%s\n", (unsigned long long)n, err.err, err.message, arc,
                msg2);
        _exit(0);
    }
    close(fds[1]);
    char out[2048] = "";
    size_t got = 0;
    ssize_t r;
    while ((r = read(fds[0], out + got, sizeof out - 1 - got)) > 0) got += (size_t)r;
    out[got] = '\0';
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    unsigned long long n;
    int e, arc;
    char msg[600], amsg[600];
    assert_int_equal(sscanf(out, "%llu\n%d\n%599[^\n]\n%d\n%599[^\n]", &n, &e, msg, &arc, amsg), 5);
    tu_note("full disk (RLIMIT_FSIZE 6000 B): %llu events written, then: %s", n, msg);
    tu_note("atomic rewrite under the same limit: %s", amsg);
    assert_int_equal(e, EFBIG);
    assert_non_null(strstr(msg, "journal write failed: File too large"));
    assert_true(n > 5);
    assert_int_equal(arc, -1);
    assert_non_null(strstr(amsg, "game.sgf: write failed"));

    struct journal_log log;
    struct journal_error err;
    assert_int_equal(journal_read(path, &log, &err), 0);
    assert_false(log.damaged); /* the partial line was cut off */
    assert_int_equal(log.count, n);
    for (size_t i = 0; i < log.count; i++) check_event(&log.entries[i], i + 1);
    journal_log_free(&log);
    /* The record being replaced is untouched and no temporary file is left behind. */
    size_t len;
    char *sgf = tu_read_file(rec, &len);
    assert_int_equal(len, 14);
    free(sgf);
    int files = 0;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "ls %s | grep -c tmp-", dir);
    FILE *p = popen(cmd, "r");
    assert_int_equal(fscanf(p, "%d", &files), 1);
    pclose(p);
    assert_int_equal(files, 0);
    lt_rmtree(dir);
    free(rec);
    free(path);
    free(dir);
}

static void test_atomic_write(void **state)
{
    (void)state;
    char *dir = lt_mkdtemp("atomic");
    char *path = lt_join(dir, "state.json");
    assert_int_equal(atomic_write_file(path, "{\"ply\":1}", 9, NULL, 0), 0);
    assert_int_equal(atomic_write_file(path, "{\"ply\":22}", 10, NULL, 0), 0);
    size_t len;
    char *s = tu_read_file(path, &len);
    assert_string_equal(s, "{\"ply\":22}");
    free(s);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    char msg[512];
    char *bad = lt_join(dir, "no/such/dir/x");
    assert_int_equal(atomic_write_file(bad, "x", 1, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "cannot create temporary file"));
    free(bad);
    lt_rmtree(dir);
    free(path);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32_known_value),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_event_without_doubt_field),
        cmocka_unit_test(test_torn_tail),
        cmocka_unit_test(test_crc_damage_named_by_line),
        cmocka_unit_test(test_sigkill_keeps_acknowledged_prefix),
        cmocka_unit_test(test_disk_full_loses_nothing),
        cmocka_unit_test(test_atomic_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

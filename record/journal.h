/* record/journal.h — the crash-safe journal: every guard event and referee action of a game, one
 * line each, appended and fdatasync'd before the call returns, so "acknowledged" means "on disk".
 *
 * Line format (UTF-8 text, one record per line):
 *
 *     SEQ <TAB> TYPE <TAB> FIELD <TAB> ... <TAB> CRC\n
 *
 * SEQ counts lines from 1; TYPE is a short tag ("GAME", "EV", "REF", or the caller's own); fields
 * are escaped (\\ \t \n \r) so they never hold a TAB or newline; CRC is the CRC-32 (IEEE, as zlib)
 * of every byte before the last TAB, as 8 lowercase hex digits. A power cut can leave a torn last
 * line; reading stops at the first line that is torn or fails its CRC and names it (file:line),
 * keeping every line before it. The records (SGF, KIF, CSA) are derived from the journal and
 * rewritten whole with atomic_write_file (record/atomic_file.h). */
#ifndef KIFUCAM_RECORD_JOURNAL_H
#define KIFUCAM_RECORD_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ruleguard/guard.h"

#define JOURNAL_MAX_FIELDS 24
#define JOURNAL_MAX_LINE   8192 /* bytes, including the CRC and newline */

struct journal_error {
    int err;           /* errno of a system call, or 0 for a format problem */
    int line;          /* 1-based line of a damaged file, 0 if none */
    char message[512]; /* "PATH:LINE: what" or "PATH: what: strerror" */
};

/* One line read back. fields[] point into storage owned by the journal_log. */
struct journal_entry {
    uint64_t seq;
    int line;
    const char *type;
    int nfields;
    const char *fields[JOURNAL_MAX_FIELDS];
};

/* Everything read back from a journal, in file order. */
struct journal_log {
    struct journal_entry *entries;
    size_t count;
    bool damaged;                /* reading stopped early; damage says where */
    struct journal_error damage; /* the first bad line (file:line and why) */
    char *storage_;              /* owned text the fields point into */
};
void journal_log_free(struct journal_log *log);

/* Read a journal. Returns 0 and fills *log (possibly with log->damaged set: the good prefix is
 * still in it); -1 with err filled when the file cannot be read at all. A missing file is an empty
 * log, not an error. */
int journal_read(const char *path, struct journal_log *log, struct journal_error *err);
/* The same over bytes in memory (the name is used in messages). */
int journal_parse(const char *name, const char *data, size_t len, struct journal_log *log);

struct journal;

/* Open (creating it and fsyncing its directory) a journal for appending, and read back what it
 * holds (the resume API: log gets every good entry in order). A torn last line (no newline: the
 * write a crash cut short) is cut off. Any other damage keeps the whole file as PATH.damaged-N and
 * rewrites the good prefix atomically in its place, so nothing is lost and appends stay clean; the
 * damage is reported in log->damage. Returns NULL with err filled on failure. */
struct journal *journal_open(const char *path, struct journal_log *log, struct journal_error *err);
void journal_close(struct journal *j);
/* The seq the next append will get. */
uint64_t journal_next_seq(const struct journal *j);

/* Append one line and fdatasync it. Returns its seq (>= 1), or 0 with err filled (ENOSPC, EFBIG,
 * EIO...: "PATH: journal write failed: No space left on device"); on failure the file is cut back
 * to what it held before the call, so earlier lines are never lost or followed by a partial one.
 * Fields may hold any bytes but NUL. */
uint64_t journal_append(struct journal *j, const char *type, int nfields, const char *const *fields,
                        struct journal_error *err);

/* ---- typed records ------------------------------------------------------------------------- */

/* A guard event ("EV"): kind by name, times, ply, frame, both the Go and the shogi move (the
 * game header the caller writes says which one counts), reason, rule, text and doubt. */
uint64_t journal_append_event(struct journal *j, const struct guard_event *ev,
                              struct journal_error *err);
/* Decode an "EV" entry. rule_ref, when the event has one, is copied into rule_buf and ev->rule_ref
 * points to it. Returns false when the entry is not a well-formed event. */
bool journal_decode_event(const struct journal_entry *e, struct guard_event *ev, char *rule_buf,
                          size_t rule_len);

/* What a referee did, from the live page (record/live.h hands these over). */
enum referee_action_kind {
    REFEREE_ACCEPT_POSITION, /* the position on the board is right as it stands */
    REFEREE_CONFIRM_PASS,
    REFEREE_TAKE_BACK, /* take the last move back */
    REFEREE_ADD_NOTE,
    REFEREE_SET_RESULT, /* text is the result, e.g. "B+R", "W+3.5", "Void" */
    REFEREE_ACTION_COUNT
};
struct referee_action {
    enum referee_action_kind kind;
    int64_t t_ns;
    int ply;        /* the ply it concerns (the page sends the one it showed) */
    char text[512]; /* note or result; empty otherwise */
};
const char *referee_action_name(enum referee_action_kind k); /* "accept", "pass", "takeback"... */
bool referee_action_parse_name(const char *name, enum referee_action_kind *out);

uint64_t journal_append_action(struct journal *j, const struct referee_action *a,
                               struct journal_error *err);
bool journal_decode_action(const struct journal_entry *e, struct referee_action *a);

/* ---- helpers shared with the live feed ----------------------------------------------------- */

/* CRC-32 (IEEE 802.3, the polynomial of zlib and PNG). Start with crc = 0. */
uint32_t journal_crc32(uint32_t crc, const void *data, size_t len);

#endif

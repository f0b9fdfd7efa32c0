/* record/journal.c — append-only journal with a CRC per line (format in record/journal.h). */
#include "record/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/atomic_file.h"

struct journal {
    int fd;
    char *path;
    uint64_t next_seq;
    off_t size; /* bytes of good lines: a failed append cuts the file back to this */
    pthread_mutex_t lock;
};

/* ---- CRC-32, a nibble at a time: small constant table, no initialisation ----------------------
 */

static const uint32_t crc_nibble[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
    0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t journal_crc32(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = data;
    crc = ~crc;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ crc_nibble[crc & 15];
        crc = (crc >> 4) ^ crc_nibble[crc & 15];
    }
    return ~crc;
}

/* ---- reading -------------------------------------------------------------------------------- */

void journal_log_free(struct journal_log *log)
{
    if (!log) return;
    free(log->entries);
    free(log->storage_);
    memset(log, 0, sizeof *log);
}

static void set_damage(struct journal_log *log, const char *name, int line, const char *what)
{
    log->damaged = true;
    log->damage.err = 0;
    log->damage.line = line;
    snprintf(log->damage.message, sizeof log->damage.message, "%s:%d: %s", name, line, what);
}

/* Undo the escaping of one field in place; false on a bad escape. */
static bool unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r != '\\') {
            *w++ = *r;
            continue;
        }
        r++;
        switch (*r) {
        case '\\': *w++ = '\\'; break;
        case 't': *w++ = '\t'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        default: return false;
        }
    }
    *w = '\0';
    return true;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* Check and split one line (without its newline, NUL-terminated, writable). NULL if good, else
 * what is wrong with it. */
static const char *parse_line(char *s, size_t len, uint64_t want_seq, struct journal_entry *e)
{
    char *tab = memrchr(s, '\t', len);
    if (!tab || (size_t)(s + len - tab) != 9) return "no CRC at the end of the line";
    uint32_t crc = 0;
    for (int i = 1; i <= 8; i++) {
        int v = hexval(tab[i]);
        if (v < 0) return "no CRC at the end of the line";
        crc = crc << 4 | (uint32_t)v;
    }
    if (journal_crc32(0, s, (size_t)(tab - s)) != crc) return "CRC mismatch (the line is damaged)";
    *tab = '\0';
    if (memchr(s, '\0', (size_t)(tab - s))) return "NUL byte in the line";

    char *fields[JOURNAL_MAX_FIELDS + 2];
    int n = 0;
    for (char *p = s;;) {
        if (n == JOURNAL_MAX_FIELDS + 2) return "too many fields";
        fields[n++] = p;
        char *t = strchr(p, '\t');
        if (!t) break;
        *t = '\0';
        p = t + 1;
    }
    if (n < 2 || !fields[1][0]) return "no sequence number and type";
    char *end;
    errno = 0;
    unsigned long long seq = strtoull(fields[0], &end, 10);
    if (errno || *end || end == fields[0]) return "bad sequence number";
    if (seq != want_seq) return "sequence number out of order";
    for (int i = 1; i < n; i++)
        if (!unescape(fields[i])) return "bad escape in a field";
    e->seq = seq;
    e->type = fields[1];
    e->nfields = n - 2;
    for (int i = 2; i < n; i++) e->fields[i - 2] = fields[i];
    return NULL;
}

/* Parse, and say how many bytes the good prefix holds and whether the only damage is a torn tail.
 */
static int parse_ex(const char *name, const char *data, size_t len, struct journal_log *log,
                    size_t *good_bytes, bool *torn_tail)
{
    memset(log, 0, sizeof *log);
    *good_bytes = 0;
    *torn_tail = false;
    log->storage_ = malloc(len + 1);
    size_t cap = 64;
    log->entries = malloc(cap * sizeof *log->entries);
    if (!log->storage_ || !log->entries) {
        journal_log_free(log);
        return -1;
    }
    memcpy(log->storage_, data, len);
    log->storage_[len] = '\0';

    size_t off = 0;
    int line = 0;
    while (off < len) {
        line++;
        char *s = log->storage_ + off;
        char *nl = memchr(s, '\n', len - off);
        if (!nl) {
            set_damage(log, name, line, "torn line (no newline: the write was cut short)");
            *torn_tail = true;
            break;
        }
        size_t ll = (size_t)(nl - s);
        if (ll + 1 > JOURNAL_MAX_LINE) {
            set_damage(log, name, line, "line too long");
            break;
        }
        *nl = '\0';
        if (log->count == cap) {
            cap *= 2;
            struct journal_entry *ne = realloc(log->entries, cap * sizeof *ne);
            if (!ne) {
                journal_log_free(log);
                return -1;
            }
            log->entries = ne;
        }
        struct journal_entry *e = &log->entries[log->count];
        memset(e, 0, sizeof *e);
        const char *bad = parse_line(s, ll, log->count + 1, e);
        if (bad) {
            set_damage(log, name, line, bad);
            break;
        }
        e->line = line;
        log->count++;
        off += ll + 1;
        *good_bytes = off;
    }
    return 0;
}

int journal_parse(const char *name, const char *data, size_t len, struct journal_log *log)
{
    size_t good;
    bool torn;
    return parse_ex(name, data, len, log, &good, &torn);
}

static char *read_fd(int fd, size_t *len)
{
    struct stat st;
    if (fstat(fd, &st) != 0) return NULL;
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    for (;;) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = pread(fd, buf + n, cap - n, (off_t)n);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            free(buf);
            errno = e;
            return NULL;
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    *len = n;
    return buf;
}

static void sys_error(struct journal_error *err, const char *path, const char *what)
{
    if (!err) return;
    err->err = errno;
    err->line = 0;
    snprintf(err->message, sizeof err->message, "%s: %s: %s", path, what, strerror(errno));
}

int journal_read(const char *path, struct journal_log *log, struct journal_error *err)
{
    memset(log, 0, sizeof *log);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return 0;
        sys_error(err, path, "cannot open journal");
        return -1;
    }
    size_t len;
    char *data = read_fd(fd, &len);
    if (!data) {
        sys_error(err, path, "cannot read journal");
        close(fd);
        return -1;
    }
    close(fd);
    size_t good;
    bool torn;
    int rc = parse_ex(path, data, len, log, &good, &torn);
    free(data);
    if (rc != 0) {
        errno = ENOMEM;
        sys_error(err, path, "cannot read journal");
    }
    return rc;
}

/* ---- opening and appending ------------------------------------------------------------------ */

/* Keep a damaged journal whole beside it (PATH.damaged-N, the first N free). */
static int keep_damaged_copy(const char *path, const char *data, size_t len, char *msg,
                             size_t msglen)
{
    char copy[4096];
    for (int n = 1; n < 1000; n++) {
        snprintf(copy, sizeof copy, "%s.damaged-%d", path, n);
        if (access(copy, F_OK) != 0) return atomic_write_file(copy, data, len, msg, msglen);
    }
    errno = EEXIST;
    snprintf(msg, msglen, "%s: too many damaged copies", path);
    return -1;
}

struct journal *journal_open(const char *path, struct journal_log *log, struct journal_error *err)
{
    memset(log, 0, sizeof *log);
    struct journal *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path))) {
        free(j);
        errno = ENOMEM;
        sys_error(err, path, "cannot open journal");
        return NULL;
    }
    j->fd = -1;
    pthread_mutex_init(&j->lock, NULL);

    bool created = false;
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0)
        created = true;
    else if (errno == EEXIST)
        fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        sys_error(err, path, "cannot open journal");
        goto fail;
    }
    j->fd = fd;
    /* A new file only survives a power cut once its directory entry is on disk. */
    if (created && fsync_parent_dir(path) != 0) {
        sys_error(err, path, "directory fsync failed");
        goto fail;
    }

    size_t len;
    char *data = read_fd(fd, &len);
    if (!data) {
        sys_error(err, path, "cannot read journal");
        goto fail;
    }
    size_t good;
    bool torn;
    if (parse_ex(path, data, len, log, &good, &torn) != 0) {
        free(data);
        errno = ENOMEM;
        sys_error(err, path, "cannot read journal");
        goto fail;
    }
    if (log->damaged) {
        char msg[512] = "";
        int rc;
        if (torn) {
            /* The usual crash: the last write was cut short before it was acknowledged. */
            rc = ftruncate(fd, (off_t)good) == 0 && fdatasync(fd) == 0 ? 0 : -1;
            if (rc != 0)
                snprintf(msg, sizeof msg, "%s: cannot cut the torn line: %s", path,
                         strerror(errno));
        } else {
            rc = keep_damaged_copy(path, data, len, msg, sizeof msg);
            if (rc == 0) rc = atomic_write_file(path, data, good, msg, sizeof msg);
            if (rc == 0) {
                close(fd);
                j->fd = fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
                rc = fd < 0 ? -1 : 0;
                if (rc != 0)
                    snprintf(msg, sizeof msg, "%s: cannot reopen journal: %s", path,
                             strerror(errno));
            }
        }
        if (rc != 0) {
            free(data);
            if (err) {
                err->err = errno;
                err->line = log->damage.line;
                snprintf(err->message, sizeof err->message, "%.200s (while repairing: %.280s)",
                         log->damage.message, msg);
            }
            journal_log_free(log);
            goto fail;
        }
    }
    free(data);
    j->size = (off_t)good;
    j->next_seq = log->count + 1;
    return j;
fail:
    journal_close(j);
    return NULL;
}

void journal_close(struct journal *j)
{
    if (!j) return;
    if (j->fd >= 0) close(j->fd);
    pthread_mutex_destroy(&j->lock);
    free(j->path);
    free(j);
}

uint64_t journal_next_seq(const struct journal *j)
{
    return j->next_seq;
}

/* Append s escaped to buf at *n (bounded by cap); false when it does not fit. */
static bool put_escaped(char *buf, size_t cap, size_t *n, const char *s)
{
    for (; *s; s++) {
        char esc = 0;
        switch (*s) {
        case '\\': esc = '\\'; break;
        case '\t': esc = 't'; break;
        case '\n': esc = 'n'; break;
        case '\r': esc = 'r'; break;
        default: break;
        }
        if (*n + 2 >= cap) return false;
        if (esc) {
            buf[(*n)++] = '\\';
            buf[(*n)++] = esc;
        } else {
            buf[(*n)++] = *s;
        }
    }
    return true;
}

uint64_t journal_append(struct journal *j, const char *type, int nfields, const char *const *fields,
                        struct journal_error *err)
{
    char buf[JOURNAL_MAX_LINE];
    if (!type || !type[0] || nfields < 0 || nfields > JOURNAL_MAX_FIELDS) {
        if (err) {
            err->err = EINVAL;
            err->line = 0;
            snprintf(err->message, sizeof err->message, "%s: bad journal record", j->path);
        }
        return 0;
    }
    pthread_mutex_lock(&j->lock);
    uint64_t seq = j->next_seq;
    size_t n = (size_t)snprintf(buf, sizeof buf, "%" PRIu64 "\t", seq);
    bool fits = put_escaped(buf, sizeof buf, &n, type);
    for (int i = 0; fits && i < nfields; i++) {
        buf[n++] = '\t';
        fits = put_escaped(buf, sizeof buf, &n, fields[i] ? fields[i] : "");
    }
    if (!fits || n + 10 > sizeof buf) {
        pthread_mutex_unlock(&j->lock);
        if (err) {
            err->err = E2BIG;
            err->line = 0;
            snprintf(err->message, sizeof err->message,
                     "%s: journal record too long (over %d bytes)", j->path, JOURNAL_MAX_LINE);
        }
        return 0;
    }
    uint32_t crc = journal_crc32(0, buf, n);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "\t%08" PRIx32 "\n", crc);

    const char *p = buf;
    size_t left = n;
    const char *what = NULL;
    while (left > 0) {
        ssize_t w = write(j->fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            what = "journal write failed";
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    if (!what && fdatasync(j->fd) != 0) what = "journal fdatasync failed";
    if (what) {
        int e = errno;
        /* Cut a partial line off so the lines before it stay a clean, readable journal. */
        if (ftruncate(j->fd, j->size) == 0) (void)fdatasync(j->fd);
        pthread_mutex_unlock(&j->lock);
        errno = e;
        sys_error(err, j->path, what);
        return 0;
    }
    j->size += (off_t)n;
    j->next_seq++;
    pthread_mutex_unlock(&j->lock);
    return seq;
}

/* ---- typed records -------------------------------------------------------------------------- */

/* An event's fields; journals written before the doubt field have one fewer (EV_FIELDS_OLD). */
#define EV_FIELDS     15
#define EV_FIELDS_OLD 14

uint64_t journal_append_event(struct journal *j, const struct guard_event *ev,
                              struct journal_error *err)
{
    char num[12][24];
    snprintf(num[0], sizeof num[0], "%" PRId64, ev->t_ns);
    snprintf(num[1], sizeof num[1], "%d", ev->ply);
    snprintf(num[2], sizeof num[2], "%" PRIu64, ev->frame_seq);
    snprintf(num[3], sizeof num[3], "%d", (int)ev->move.color);
    snprintf(num[4], sizeof num[4], "%d", ev->move.point);
    snprintf(num[5], sizeof num[5], "%u", ev->shogi.from);
    snprintf(num[6], sizeof num[6], "%u", ev->shogi.to);
    snprintf(num[7], sizeof num[7], "%u", ev->shogi.piece);
    snprintf(num[8], sizeof num[8], "%u", ev->shogi.captured);
    snprintf(num[9], sizeof num[9], "%d", ev->shogi.promote ? 1 : 0);
    snprintf(num[10], sizeof num[10], "%d", ev->reason);
    char text[sizeof ev->text + 1];
    memcpy(text, ev->text, sizeof ev->text);
    text[sizeof ev->text] = '\0';
    char doubt[sizeof ev->doubt + 1];
    memcpy(doubt, ev->doubt, sizeof ev->doubt);
    doubt[sizeof ev->doubt] = '\0';
    const char *f[EV_FIELDS] = {guard_kind_name(ev->kind),
                                num[0],
                                num[1],
                                num[2],
                                num[3],
                                num[4],
                                num[5],
                                num[6],
                                num[7],
                                num[8],
                                num[9],
                                num[10],
                                ev->rule_ref ? ev->rule_ref : "",
                                text,
                                doubt};
    return journal_append(j, "EV", EV_FIELDS, f, err);
}

static bool to_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

bool journal_decode_event(const struct journal_entry *e, struct guard_event *ev, char *rule_buf,
                          size_t rule_len)
{
    if (strcmp(e->type, "EV") != 0 || (e->nfields != EV_FIELDS && e->nfields != EV_FIELDS_OLD))
        return false;
    memset(ev, 0, sizeof *ev);
    int k;
    for (k = 0; k < GUARD_KIND_COUNT; k++)
        if (strcmp(guard_kind_name((enum guard_kind)k), e->fields[0]) == 0) break;
    if (k == GUARD_KIND_COUNT) return false;
    ev->kind = (enum guard_kind)k;
    int64_t v[11];
    static const int64_t lo[11] = {INT64_MIN, -1, 0, 0, GO_NOPOINT, 0, 0, 0, 0, 0, -1000000};
    static const int64_t hi[11] = {INT64_MAX, 1000000, INT64_MAX, 2, GO_POINTS - 1, 255,
                                   255,       255,     255,       1, 1000000};
    for (int i = 0; i < 11; i++)
        if (!to_i64(e->fields[1 + i], lo[i], hi[i], &v[i])) return false;
    /* frame_seq is unsigned: read it whole. */
    ev->frame_seq = strtoull(e->fields[3], NULL, 10);
    ev->t_ns = v[0];
    ev->ply = (int)v[1];
    ev->move.color = (enum go_color)v[3];
    ev->move.point = (int)v[4];
    ev->shogi.from = (uint8_t)v[5];
    ev->shogi.to = (uint8_t)v[6];
    ev->shogi.piece = (uint8_t)v[7];
    ev->shogi.captured = (uint8_t)v[8];
    ev->shogi.promote = v[9] != 0;
    ev->reason = (int)v[10];
    if (e->fields[12][0] && rule_buf && rule_len) {
        snprintf(rule_buf, rule_len, "%s", e->fields[12]);
        ev->rule_ref = rule_buf;
    }
    snprintf(ev->text, sizeof ev->text, "%s", e->fields[13]);
    if (e->nfields > 14) snprintf(ev->doubt, sizeof ev->doubt, "%s", e->fields[14]);
    return true;
}

static const char *const action_names[REFEREE_ACTION_COUNT] = {
    [REFEREE_ACCEPT_POSITION] = "accept", [REFEREE_CONFIRM_PASS] = "pass",
    [REFEREE_TAKE_BACK] = "takeback",     [REFEREE_ADD_NOTE] = "note",
    [REFEREE_SET_RESULT] = "result",
};

const char *referee_action_name(enum referee_action_kind k)
{
    return (unsigned)k < REFEREE_ACTION_COUNT ? action_names[k] : "?";
}

bool referee_action_parse_name(const char *name, enum referee_action_kind *out)
{
    for (int k = 0; k < REFEREE_ACTION_COUNT; k++)
        if (strcmp(action_names[k], name) == 0) {
            *out = (enum referee_action_kind)k;
            return true;
        }
    return false;
}

uint64_t journal_append_action(struct journal *j, const struct referee_action *a,
                               struct journal_error *err)
{
    char t[24], ply[16], text[sizeof a->text + 1];
    snprintf(t, sizeof t, "%" PRId64, a->t_ns);
    snprintf(ply, sizeof ply, "%d", a->ply);
    memcpy(text, a->text, sizeof a->text);
    text[sizeof a->text] = '\0';
    const char *f[4] = {referee_action_name(a->kind), t, ply, text};
    return journal_append(j, "REF", 4, f, err);
}

bool journal_decode_action(const struct journal_entry *e, struct referee_action *a)
{
    if (strcmp(e->type, "REF") != 0 || e->nfields != 4) return false;
    memset(a, 0, sizeof *a);
    int64_t t, ply;
    if (!referee_action_parse_name(e->fields[0], &a->kind) ||
        !to_i64(e->fields[1], INT64_MIN, INT64_MAX, &t) || !to_i64(e->fields[2], -1, 1000000, &ply))
        return false;
    a->t_ns = t;
    a->ply = (int)ply;
    snprintf(a->text, sizeof a->text, "%s", e->fields[3]);
    return true;
}

/* fuzz/fuzz_journal.c — libFuzzer target for the crash-safe journal's reader (record/journal.h):
 * the file a restarted daemon resumes from, torn or damaged by a crash, a full disk or a hand.
 *
 * Any bytes: the reader must keep a good prefix and name the first bad line; every entry it keeps
 * must lie inside the text, and decoding entries as events or referee actions must stay within
 * their buffers. Broken promises abort(). The bytes are read twice: as they are (mostly CRC
 * mismatches), and with every line's CRC made right, so that mutations reach the fields. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const char *data, size_t size)
{
    struct journal_log log = {0};
    if (journal_parse("fuzz.journal", data, size, &log) != 0) abort();
    /* a damaged log names the file and the line; a clean one has no damage */
    if (log.damaged && (strncmp(log.damage.message, "fuzz.journal", 12) || log.damage.line < 1))
        abort();
    int last_line = 0;
    for (size_t i = 0; i < log.count; i++) {
        const struct journal_entry *e = &log.entries[i];
        if (!e->type || e->nfields < 0 || e->nfields > JOURNAL_MAX_FIELDS) abort();
        if (e->line <= last_line || (log.damaged && e->line >= log.damage.line)) abort();
        last_line = e->line;
        for (int f = 0; f < e->nfields; f++)
            if (!e->fields[f] || strlen(e->fields[f]) >= JOURNAL_MAX_LINE) abort();
        struct guard_event ev;
        char rule[64];
        if (journal_decode_event(e, &ev, rule, sizeof rule)) {
            if (ev.rule_ref && ev.rule_ref != rule) abort();
            if (strnlen(ev.text, sizeof ev.text) == sizeof ev.text) abort();
            if (ev.rule_ref && strnlen(rule, sizeof rule) == sizeof rule) abort();
        }
        struct referee_action a;
        if (journal_decode_action(e, &a)) {
            if ((unsigned)a.kind >= REFEREE_ACTION_COUNT) abort();
            if (strnlen(a.text, sizeof a.text) == sizeof a.text) abort();
        }
    }
    journal_log_free(&log);
}

static bool is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* Each line with its CRC (a trailing tab and 8 hex digits, when there) replaced by the right one.
 */
static size_t with_good_crcs(const char *in, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(in + i, '\n', n - i);
        size_t len = nl ? (size_t)(nl - (in + i)) : n - i;
        const char *line = in + i;
        size_t body = len;
        if (body >= 9 && line[body - 9] == '\t') {
            bool hex = true;
            for (size_t k = body - 8; k < body; k++) hex &= is_hex(line[k]);
            if (hex) body -= 9;
        }
        memcpy(out + o, line, body);
        o += body;
        o += (size_t)snprintf(out + o, 11, "\t%08x", (unsigned)journal_crc32(0, line, body));
        if (nl) out[o++] = '\n';
        i += len + (nl ? 1 : 0);
    }
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check((const char *)data, size);
    /* at most 10 bytes more per line (a CRC added to a line that had none) */
    char *fixed = malloc(size * 11 + 16);
    if (!fixed) abort();
    check(fixed, with_good_crcs((const char *)data, size, fixed));
    free(fixed);
    return 0;
}

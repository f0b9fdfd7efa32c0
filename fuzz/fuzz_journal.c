/* fuzz/fuzz_journal.c — libFuzzer target for the crash-safe journal's reader (record/journal.h):
 * the file a restarted daemon resumes from, torn or damaged by a crash, a full disk or a hand.
 *
 * Any bytes: the reader must keep a good prefix and name the first bad line; every entry it keeps
 * must lie inside the text, and decoding entries as events or referee actions must stay within
 * their buffers. Broken promises abort(). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct journal_log log = {0};
    if (journal_parse("fuzz.journal", (const char *)data, size, &log) != 0) abort();
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
    return 0;
}

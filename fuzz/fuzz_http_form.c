/* fuzz/fuzz_http_form.c — libFuzzer target for what the live server parses from a request body or
 * query string: urlencoded forms (live_form_value), referee actions (live_parse_action), and the
 * journal reader that the actions end up in (journal_parse).
 *
 * Any bytes: the decoded value never exceeds its buffer and is NUL-terminated; a parsed action
 * round-trips through its journal line and back (abort() otherwise). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/journal.h"
#include "record/live.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *form = (const char *)data;
    static const char *const keys[] = {"token", "action", "ply", "text", "", "a"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        char out[32];
        memset(out, 'x', sizeof out);
        int n = live_form_value(form, size, keys[i], out, 16);
        if (n >= 16 || n < -2 || (n >= 0 && (out[n] != '\0' || strlen(out) != (size_t)n))) abort();
        if (out[16] != 'x') abort(); /* wrote past the size it was given */
    }
    struct referee_action a;
    char msg[128];
    if (live_parse_action(form, size, 42, &a, msg, sizeof msg)) {
        char *j = live_action_json(&a, 1);
        if (!j || strchr(j, '\n')) abort();
        free(j);
    }
    /* The same bytes as a journal: reading never fails outright, and stops at damage. */
    struct journal_log log;
    if (journal_parse("fuzz", form, size, &log) != 0) abort();
    for (size_t i = 0; i < log.count; i++) {
        struct guard_event ev;
        char rule[64];
        journal_decode_event(&log.entries[i], &ev, rule, sizeof rule);
        journal_decode_action(&log.entries[i], &a);
    }
    journal_log_free(&log);
    return 0;
}

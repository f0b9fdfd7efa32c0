/* record/event_backlog.h — guard events the journal could not take yet (a full or failing disk),
 * oldest first. Nothing is shown anywhere before it is on disk, so events wait here and are
 * written, in order, as soon as the journal takes them again; what never could be written is
 * still here at the end, for the log to name. */
#ifndef KIFUCAM_RECORD_EVENT_BACKLOG_H
#define KIFUCAM_RECORD_EVENT_BACKLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "record/journal.h"
#include "ruleguard/guard.h"

struct event_backlog {
    struct guard_event *ev;
    int n, cap;
};

/* Hold n more events after the others. false when out of memory (nothing held). */
bool event_backlog_push(struct event_backlog *b, const struct guard_event *ev, int n);
/* Append the held events to the journal, oldest first; each one written goes to
 * deliver(ctx, ev, seq, i) with i its place among those held before the call. Stops at the
 * first the journal refuses (err filled). Returns how many were written; they leave the
 * backlog. */
int event_backlog_write(struct event_backlog *b, struct journal *j,
                        void (*deliver)(void *ctx, const struct guard_event *ev, uint64_t seq,
                                        int i),
                        void *ctx, struct journal_error *err);
void event_backlog_free(struct event_backlog *b);

#endif

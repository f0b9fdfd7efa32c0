/* record/event_backlog.c — events held until the journal takes them (see event_backlog.h). */
#include "record/event_backlog.h"

#include <stdlib.h>
#include <string.h>

bool event_backlog_push(struct event_backlog *b, const struct guard_event *ev, int n)
{
    if (n <= 0) return true;
    if (b->n + n > b->cap) {
        int cap = b->cap ? b->cap * 2 : 64;
        while (cap < b->n + n) cap *= 2;
        struct guard_event *h = realloc(b->ev, (size_t)cap * sizeof *h);
        if (!h) return false;
        b->ev = h;
        b->cap = cap;
    }
    memcpy(b->ev + b->n, ev, (size_t)n * sizeof *ev);
    b->n += n;
    return true;
}

int event_backlog_write(struct event_backlog *b, struct journal *j,
                        void (*deliver)(void *ctx, const struct guard_event *ev, uint64_t seq,
                                        int i),
                        void *ctx, struct journal_error *err)
{
    int done = 0;
    while (done < b->n) {
        uint64_t seq = journal_append_event(j, &b->ev[done], err);
        if (!seq) break;
        deliver(ctx, &b->ev[done], seq, done);
        done++;
    }
    if (done) {
        memmove(b->ev, b->ev + done, (size_t)(b->n - done) * sizeof *b->ev);
        b->n -= done;
    }
    return done;
}

void event_backlog_free(struct event_backlog *b)
{
    free(b->ev);
    memset(b, 0, sizeof *b);
}

/* ruleguard/guard_observe_go_events.c — filling the event buffer and the texts of events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

bool gog_ev_room(const struct evbuf *b, int need)
{
    return b->n + need <= GUARD_OBS_MAX_EVENTS;
}

struct guard_event *gog_ev_add(struct evbuf *b, enum guard_kind kind, int ply, int64_t t,
                               uint64_t frame)
{
    if (b->n >= GUARD_OBS_MAX_EVENTS) return NULL;
    struct guard_event *e = &b->ev[b->n++];
    guard_event_init(e, kind, ply, t, frame);
    return e;
}

void gog_flag_taken_back(struct evbuf *b, struct go_move m, struct go_verdict v, int ply, int64_t t,
                         uint64_t frame)
{
    struct guard_event *e = gog_ev_add(b, GUARD_ILLEGAL_MOVE, ply, t, frame);
    if (!e) return;
    e->move = m;
    e->rule_ref = v.rule_ref;
    e->reason = (int)v.kind;
    snprintf(e->text, sizeof e->text, "%.140s; taken back before it was judged (not recorded)",
             v.text);
}

const char *gog_color_name(int c)
{
    return c == GO_BLACK ? "Black" : c == GO_WHITE ? "White" : "empty";
}

/* Append " D4 Q16 ..." for a list of points, as far as the text has room. */
void gog_append_points(char *text, size_t len, const int *pts, int n, int height)
{
    size_t used = strlen(text);
    for (int i = 0; i < n && used + 8 < len; i++) {
        char name[8];
        used += (size_t)snprintf(text + used, len - used, "%s%s", i ? " " : "",
                                 go_point_name(pts[i], height, name));
    }
}

void gog_doubt_note(struct guard_event *e, const struct point_state *s, bool flushing)
{
    if (flushing)
        guard_event_add_doubt(e, "accepted under doubt: seen in one observation");
    else if (s->seen_doubt)
        guard_event_add_doubt(e, "accepted under doubt: low-confidence reading");
}

void gog_doubt_events(struct evbuf *b, int from, const char *why)
{
    for (int e = from; e < b->n; e++)
        if (b->ev[e].kind == GUARD_MOVE) guard_event_add_doubt(&b->ev[e], why);
}

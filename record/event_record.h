/* record/event_record.h — a Go game record kept from guard events, the way the daemon rewrites it
 * after every event: moves and passes append, a take-back cuts, flags, set-ups, referee notes and
 * the game's end become comments on their node. */
#ifndef KIFUCAM_RECORD_EVENT_RECORD_H
#define KIFUCAM_RECORD_EVENT_RECORD_H

#include <stdbool.h>

#include "board/go.h"
#include "record/sgf.h"
#include "ruleguard/guard.h"

struct go_event_record {
    int size;
    const struct go_rules *rules;
    struct go_game *position; /* the record's position (the moves replayed) */
    struct go_move *moves;
    char **notes; /* notes[ply]: comments on that node; notes[0] = the root */
    int nmoves, cap;
    int handicap;         /* HA: stones given (0 = none) */
    int setup[9], nsetup; /* Black stones standing before the first move (a fixed
                             handicap): AB on the root, White to move */
};

bool go_event_record_init(struct go_event_record *r, int size, const struct go_rules *rules);
void go_event_record_free(struct go_event_record *r);
/* A handicap of n stones: with points (n of them, a fixed placement) they stand on the board
 * before the first move and White moves first; without (free placement, NULL) the first n Black
 * moves are the stones. Before any event. */
void go_event_record_handicap(struct go_event_record *r, int n, const int *points);
/* Apply one (journaled) event. Returns true when it was a flag (noted on its ply's node). */
bool go_event_record_apply(struct go_event_record *r, const struct guard_event *ev);
/* A comment on the node of ply (clamped to the record), joined to what is there. */
void go_event_record_note(struct go_event_record *r, int ply, const char *text);
/* The record as SGF; info gives the game information (its nodes are ignored). malloc'd. */
char *go_event_record_sgf(const struct go_event_record *r, const struct go_record *info);

#endif

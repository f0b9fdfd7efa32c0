/* record/shogi_event_record.h — a shogi game record kept from guard events, the way the daemon
 * rewrites game.kif and game.csa after every event: moves append with the time since the move
 * before, a take-back cuts, flags, set-ups and referee notes become comments on their ply, the
 * game's end becomes the record's terminal move. The shogi counterpart of record/event_record.h.
 *
 * What the formats cannot say is kept as comments: a set-up accepted in mid-game (KIF and CSA have
 * no position change after the start: the comment holds its SFEN), an end that a later move
 * overrode, the moves a take-back removed. */
#ifndef KIFUCAM_RECORD_SHOGI_EVENT_RECORD_H
#define KIFUCAM_RECORD_SHOGI_EVENT_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "record/shogi_record.h"
#include "ruleguard/guard.h"

/* A position the referee accepted in mid-game: the game goes on from it after `ply` moves. */
struct shogi_event_setup {
    int ply;
    struct shogi_position pos;
};

struct shogi_event_record {
    struct shogi_record *rec; /* the game: moves with times, comments, the end */
    int64_t *at_ns;           /* at_ns[ply]: when that ply was played; at_ns[0] the clock start */
    int at_cap;
    bool clock_started;
    int end_ply; /* the ply after which rec->end was set */
    struct shogi_event_setup *setups;
    int nsetups, setup_cap;
};

bool shogi_event_record_init(struct shogi_event_record *r, const struct shogi_position *start);
void shogi_event_record_free(struct shogi_event_record *r);
/* The time the first move's thinking time counts from (the start of recording, the clock's
 * start). Without it, the first event's time is the start (a first move that is the first event
 * took 0 s). */
void shogi_event_record_start_clock(struct shogi_event_record *r, int64_t t_ns);
/* Apply one (journaled) guard event. Returns true when it was a flag (noted on its ply). */
bool shogi_event_record_apply(struct shogi_event_record *r, const struct guard_event *ev);
/* A comment on ply (clamped to the record; 0 = before the first move), joined to what is there. */
void shogi_event_record_note(struct shogi_event_record *r, int ply, const char *text);
/* The position after the record's moves (for the live page), from the last accepted set-up. */
void shogi_event_record_position(const struct shogi_event_record *r, struct shogi_position *pos);
int shogi_event_record_moves(const struct shogi_event_record *r);

/* Game information, UTF-8, each NULL when unknown; written into both files. The result goes into
 * KIF as the header 結果 and into CSA as a comment line before the position ('*結果：...). */
struct shogi_event_info {
    const char *black, *white, *event, *start_time, *time_control, *result;
};
#define SHOGI_EVENT_RESULT_KEY "結果"

/* The record as UTF-8 KIF (.kifu text) and as CSA V2.2; malloc'd, NULL on out of memory. */
char *shogi_event_record_kif(const struct shogi_event_record *r,
                             const struct shogi_event_info *info);
char *shogi_event_record_csa(const struct shogi_event_record *r,
                             const struct shogi_event_info *info);

#endif

/* ruleguard/guard.h — from moves (recorded, or read off a board) to guard events: the move, and
 * the flags a referee must see, each with the rule it breaks, its time, ply and frame.
 *
 * A flag never stops the game: the move is kept as played (tolerant replay, board/go.h) and the
 * flag goes alongside it. */
#ifndef KIFUCAM_RULEGUARD_GUARD_H
#define KIFUCAM_RULEGUARD_GUARD_H

#include <stdbool.h>
#include <stdint.h>

#include "board/go.h"
#include "board/shogi.h"

enum guard_kind {
    GUARD_MOVE,                /* a move, accepted */
    GUARD_PASS,                /* a pass, accepted */
    GUARD_ILLEGAL_MOVE,        /* occupied point, suicide, ko, superko */
    GUARD_TWO_MOVES,           /* the same colour twice: two moves in a row or an unseen pass */
    GUARD_MOVED_STONE,         /* a stone left its point for another */
    GUARD_STONE_REMOVED,       /* a stone taken that was not captured */
    GUARD_CAPTURE_NOT_REMOVED, /* captured stones left on the board */
    GUARD_HIDDEN_PIECE,        /* shogi: a captured piece not on the komadai */
    GUARD_BOARD_DISTURBED,     /* many stones changed at once */
    GUARD_UNREADABLE,          /* the record or the view cannot be read here */
    GUARD_REPETITION,          /* a repetition the rules leave to the referee, or no result */
    GUARD_AFTER_END,           /* a move after the game ended */
    GUARD_REFEREE_CALL,        /* the rules leave the position to the referee (shogi: both kings
                                  in the enemy camps) */
    GUARD_GAME_END,            /* the game ended: passes, resignation, time, no result */
    GUARD_KIND_COUNT
};

/* The most events one move can bring: the move, its flag, a perpetual-check foul, a referee
 * call, the game's end, and one to spare. */
#define GUARD_MAX_EVENTS 6

struct guard_event {
    enum guard_kind kind;
    int64_t t_ns;            /* when it happened (frame time, or record time) */
    int ply;                 /* 1-based ply of the move concerned; 0 before the first move */
    uint64_t frame_seq;      /* the frame that shows it; 0 for records */
    struct go_move move;     /* Go */
    struct shogi_move shogi; /* shogi */
    int reason; /* the rules core's verdict: enum go_verdict_kind for Go, the Turnierregeln
                   number (enum shogi_illegal) for shogi */
    const char *rule_ref; /* e.g. "Chinese 1988 §5 (forbidden point)"; NULL for plain moves */
    char text[200];
};

/* A flag is everything a referee must look at: not a plain move, pass or game end. */
bool guard_is_flag(enum guard_kind k);
/* "ILLEGAL_MOVE", "TWO_MOVES", ... as printed by `kifucam check`. */
const char *guard_kind_name(enum guard_kind k);

/* ---- Go ------------------------------------------------------------------------------------ */

struct go_guard;

struct go_guard *go_guard_new(int width, int height, const struct go_rules *rules);
void go_guard_free(struct go_guard *g);
/* Setup stones before or between moves (handicap, a set-up position, a correction). */
void go_guard_setup(struct go_guard *g, enum go_color c, int point);
/* Declare the handicap (stones already set up, or n Black moves to come at the start). */
void go_guard_set_handicap(struct go_guard *g, int n);
void go_guard_set_to_move(struct go_guard *g, enum go_color c);

/* One move as recorded (or as the board showed it). Writes up to GUARD_MAX_EVENTS events to ev (the
 * move itself and its flags) and returns their number. */
int go_guard_move(struct go_guard *g, struct go_move m, int64_t t_ns, uint64_t frame_seq,
                  struct guard_event ev[GUARD_MAX_EVENTS]);
/* The game ended by resignation or time. */
int go_guard_resign(struct go_guard *g, enum go_color loser, int64_t t_ns,
                    struct guard_event ev[1]);

const struct go_game *go_guard_game(const struct go_guard *g);

/* ---- shogi --------------------------------------------------------------------------------- */

struct shogi_guard;

struct shogi_guard *shogi_guard_new(const struct shogi_position *start,
                                    const struct shogi_rules *rules);
void shogi_guard_free(struct shogi_guard *g);
/* One move as recorded (or as the board showed it), legal or not; m must be playable
 * (shogi_move_is_playable) — a move that is not is reported and not played. Writes up to
 * GUARD_MAX_EVENTS events (the move, its flag, a referee call, the game's end) and returns their
 * number. */
int shogi_guard_move(struct shogi_guard *g, struct shogi_move m, int64_t t_ns, uint64_t frame_seq,
                     struct guard_event ev[GUARD_MAX_EVENTS]);
/* The game ended off the board (resignation, time, declaration...). */
int shogi_guard_end(struct shogi_guard *g, struct shogi_outcome o, int64_t t_ns,
                    struct guard_event ev[1]);
const struct shogi_game *shogi_guard_game(const struct shogi_guard *g);

#endif

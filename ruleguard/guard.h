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
    /* Why a move was accepted under doubt ("accepted under doubt: seen once, captured by the
       reply", "read in doubt"); empty when it was read surely. The record writes it as the
       move's comment: the player checks those moves first. */
    char doubt[120];
};
/* A fresh event of KIND at PLY, time and frame, with no move (Go point GO_NOPOINT, no colour). */
void guard_event_init(struct guard_event *e, enum guard_kind kind, int ply, int64_t t_ns,
                      uint64_t frame_seq);
/* The move in e was accepted under doubt for the reason WHY: kept in e->doubt (reasons joined by
   "; ") and said in its text as " (WHY)". */
void guard_event_add_doubt(struct guard_event *e, const char *why);

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

/* ---- from stable observations (ruleguard/guard_observe_go.c, guard_observe_shogi.c) -------- */

/* What the camera saw, as vision hands it on (plain data; vision -> ruleguard). */
#include "vision/observation.h"

/* The most events one observation (or one referee command) can bring: a few moves confirmed at
 * once (the guard waits for confirmation, see go_obs_config), their flags, a capture left on the
 * board, the game's end. */
#define GUARD_OBS_MAX_EVENTS 32

/* guard_event.reason of a GUARD_MOVE event that carries no move but takes moves back: the board
 * was restored to the position after guard_event.ply (the referee's correction after a flag, or a
 * take-back command). The record drops the moves after that ply. */
#define GUARD_REASON_TAKEBACK 1000
/* guard_event.reason of a GUARD_MOVE event that carries no move but sets up the position: the
 * referee accepted the position on the board as it is (stones added/removed as setup). */
#define GUARD_REASON_SETUP 1001
/* guard_event.reason of a GUARD_PASS or GUARD_GAME_END that came from a signal (go_obs_signal) or
 * from the configuration; the text says what was seen. */
#define GUARD_REASON_SIGNAL 1002
/* guard_event.reason of a GUARD_MOVE that says a move was made but not seen: the other side's
 * move between two moves of one side, when points the camera has not read since the last move
 * (out of the picture, or occluded, in every view since) may hold it; with every point read the
 * same colour twice stays GUARD_TWO_MOVES. Go: move.point is GO_NOPOINT (played as a pass in the
 * game; the record keeps a pass node with the text as its comment); the text names the unread
 * points it may lie on (or a pass). Once the stone is read on one of them, the guard takes the
 * moves back to the ply before it (GUARD_REASON_TAKEBACK) and plays them again with the point
 * found. Shogi: a record holds no unknown move, so guard_event.shogi is the likeliest legal move
 * wholly on unread squares (no capture, no drop; a pawn's step first) and the text names the
 * others; when the board later shows another of them (its squares in view, or the piece moving
 * on), the move is amended the same way (take-back, the moves again). */
#define GUARD_REASON_UNSEEN 1004

/* Tunables, with defaults from go_obs_config_default(). A point's reading changes the guard's
 * belief only after confirm_sure consecutive readings with conf >= conf_sure, or confirm_any
 * consecutive readings with conf >= conf_min; a reading below conf_min, or occluded, is no
 * evidence either way (the guard waits). One misread in one observation never becomes a move. */
struct go_obs_config {
    float conf_min;    /* below: unreadable, wait (0.5) */
    float conf_sure;   /* at or above: a sure reading (0.9) */
    int confirm_sure;  /* sure readings in a row that confirm a change (2) */
    int confirm_any;   /* readings >= conf_min in a row that confirm a change (3) */
    int max_wait_obs;  /* a flag waits at most this many observations for an explanation (3) */
    int disturbed_min; /* unexplained changes at once that make BOARD_DISTURBED (4) */
    /* Captured stones still on the board: CAPTURE_NOT_REMOVED once any limit is passed (0 = no
     * limit): plies played since the capture (1: the opponent's next move), time, observations. */
    int capture_max_plies;      /* 1 */
    int64_t capture_max_ns;     /* 120 s */
    int capture_max_obs;        /* 0 */
    bool assume_pass;           /* the same colour twice is a pass by the other side (no flag) */
    bool counting_after_passes; /* after two passes, changes are counting, not moves (true) */
    unsigned signals;           /* which go_obs_signal are honoured (bit 1 << signal): all */
};
void go_obs_config_default(struct go_obs_config *c);

/* Signals the players give with the material, seen by vision off the grid (not in struct
 * observation yet: vision or the referee view reports them through go_obs_signal). */
enum go_obs_signal {
    GO_SIGNAL_PASS_STONE,        /* a stone put beside the board: `who` passes (Ing SST Art. 9) */
    GO_SIGNAL_END_CONFIRMED,     /* a stone of the opponent's colour outside the lower right
                                    corner: `who` confirms the end (Chinese 1988 §13.2) */
    GO_SIGNAL_RESIGN_TWO_STONES, /* `who` puts two stones on the board: resigns (Ing SST Art. 9) */
    GO_SIGNAL_COUNT
};

struct go_obs_guard;

/* rules: NULL for the first preset; cfg: NULL for the defaults. */
struct go_obs_guard *go_obs_guard_new(int width, int height, const struct go_rules *rules,
                                      const struct go_obs_config *cfg);
void go_obs_guard_free(struct go_obs_guard *g);
/* Before the first observation: a set-up position (stones expected on the board, not moves), the
 * side to move, the handicap (fixed: the stones stand on the star points from the start; free: the
 * first n Black stones seen are the handicap). false when the size has no fixed placement for n. */
void go_obs_guard_setup(struct go_obs_guard *g, enum go_color c, int point);
void go_obs_guard_set_to_move(struct go_obs_guard *g, enum go_color c);
bool go_obs_guard_set_handicap(struct go_obs_guard *g, int n, enum go_handicap_placement how);

/* One stable observation (or any observation: occluded and unsure points are no evidence).
 * Writes up to GUARD_OBS_MAX_EVENTS events and returns their number. An observation with the same
 * nonzero frame_seq as the previous one is no new evidence and is skipped. */
int go_obs_guard_observe(struct go_obs_guard *g, const struct observation *o,
                         struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
int go_obs_guard_observe_stable(struct go_obs_guard *g, const struct stable_obs *s,
                                struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* No more observations are coming (end of a stream, the clock stopped): changes seen but not yet
 * confirmed are judged now, and a move so accepted says so in its text. */
int go_obs_guard_flush(struct go_obs_guard *g, int64_t t_ns,
                       struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* A signal seen off the grid; ignored (0 events) when switched off in the configuration. */
int go_obs_guard_signal(struct go_obs_guard *g, enum go_obs_signal s, enum go_color who,
                        int64_t t_ns, uint64_t frame_seq,
                        struct guard_event ev[GUARD_OBS_MAX_EVENTS]);

/* Referee commands (from the referee view). */
/* A pass by c, told by the referee or a clock. */
int go_obs_guard_pass(struct go_obs_guard *g, enum go_color c, int64_t t_ns,
                      struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* The TWO_MOVES flag at ply was a pass by the other side: the pass goes in before that move. */
int go_obs_guard_confirm_pass(struct go_obs_guard *g, int ply, int64_t t_ns,
                              struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* The position on the board, as the guard now believes it, is the truth (setup). */
int go_obs_guard_accept_position(struct go_obs_guard *g, int64_t t_ns,
                                 struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* Take the last move back (the board must then be restored to go on cleanly). */
int go_obs_guard_take_back(struct go_obs_guard *g, int64_t t_ns,
                           struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* The result: state GO_ENDED_RESIGN or GO_ENDED_TIME with the loser, or GO_ENDED_PASSES to count
 * now (dead stones: those taken off during counting, else go_estimate_dead). */
int go_obs_guard_set_result(struct go_obs_guard *g, enum go_game_state st, enum go_color loser,
                            int64_t t_ns, struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* After two passes a dispute is settled by playing on (Japanese 1989 Art. 9): back to moves. */
void go_obs_guard_resume(struct go_obs_guard *g);

const struct go_game *go_obs_guard_game(const struct go_obs_guard *g);
/* The last good position (what to restore after BOARD_DISTURBED and the other board flags): the
 * game's stones plus captured stones still allowed on the board. board[point] = enum go_color. */
void go_obs_guard_last_good(const struct go_obs_guard *g, uint8_t board[GO_POINTS]);
/* Counting phase (after two passes, or GO_SIGNAL_END_CONFIRMED): changes are not moves. */
bool go_obs_guard_counting(const struct go_obs_guard *g);

/* ---- shogi from observations ---- */

/* Which shogi square the observation's point (x, y) shows. x counts columns from the left of the
 * image, y rows from its top (vision/observation.h). With sente's side at the bottom of the image
 * (sente_bottom), the top-left point is 9一 (file 9, rank 1): file = 9 - x, rank = y + 1; with
 * gote's side at the bottom the board is turned: file = x + 1, rank = 9 - y. Returns the
 * board/shogi.h square index, or -1 outside the 9x9 board. */
int shogi_obs_square(int x, int y, bool sente_bottom);

/* The shogi observation guard (ruleguard/guard_observe_shogi*.c): moves from at most two changed
 * squares plus a komadai, drops, promotion from the rules and the face read on the board,
 * captured pieces that reach the komadai late, HIDDEN_PIECE, the Turnierregeln flags through the
 * rules core (guard_event.reason = enum shogi_illegal; 9) moving in the opponent's time comes as
 * GUARD_TWO_MOVES), and resignation by a hand kept over one's own komadai.
 *
 * Readings: observation.point[y * OBS_MAX + x] holds a board/shogi.h piece code (owner from the
 * piece's orientation, promoted from its face), mapped to squares by shogi_obs_square;
 * hands[SHOGI_SENTE / SHOGI_GOTE].count[t - 1] the pieces of type t (SHOGI_PAWN..SHOGI_GOLD) seen
 * on that side's komadai, promoted[t - 1] of them lying promoted side up. A komadai not visible
 * (or read below conf_min) is no evidence.
 *
 * A piece in hand believed promoted side up (confirmed like the counts) brings one
 * GUARD_REFEREE_CALL with reason GUARD_REASON_PROMOTED_IN_HAND per piece put there (pieces in hand
 * are unpromoted, 持ち駒は生駒: it must be turned); its ply is the game's ply then. */
#define GUARD_REASON_PROMOTED_IN_HAND 1003

/* Tunables, with defaults from shogi_obs_config_default(). Squares and komadai are believed as in
 * go_obs_config: a change needs confirm_sure sure readings in a row, or confirm_any readable ones
 * (one reading of a third value inside the run is taken for a misread and skipped). Shogi moves
 * come faster than Go's and the rules filter any change harder (a legal move of at most two
 * squares and a komadai), so two readable readings are enough by default. */
struct shogi_obs_config {
    float conf_min;   /* below: unreadable, wait (0.5) */
    float conf_sure;  /* at or above: a sure reading (0.9) */
    int confirm_sure; /* sure readings in a row that confirm a change (2) */
    int confirm_any;  /* readings >= conf_min in a row that confirm a change (2) */
    int max_wait_obs; /* an unexplained change waits this many observations for an
                         explanation before its flag; a drop whose origin might be hidden
                         waits as long for a clean view (2) */
    /* A captured piece must be on the capturer's komadai while the opponent thinks: HIDDEN_PIECE
     * once the opponent has moved and the komadai was then read hidden_wait_obs times without it,
     * or hidden_max_ns after the capture (0 = no time limit). A piece that leaves a komadai
     * without being dropped is HIDDEN_PIECE after hidden_wait_obs readings. */
    int hidden_wait_obs;   /* 3 */
    int64_t hidden_max_ns; /* 180 s */
    /* Resignation (Turnierregeln: "Die Hand längere Zeit über das Komadai zu legen"): a side's
     * komadai covered by a hand (hand_obs.covered; a stand merely out of the picture is not) in
     * consecutive observations for this long while the board is unchanged ends the game, that
     * side resigning. 0 = off. */
    int64_t resign_hand_ns; /* 30 s */
    bool flag_takeback;     /* a finished move taken back on the board is 6) (true); false: a
                               silent take-back */
};
void shogi_obs_config_default(struct shogi_obs_config *c);

struct shogi_obs_guard;

/* start: NULL for the even start; rules: NULL for shogi_rules_tournament; cfg: NULL for the
 * defaults; sente_bottom: whose side is at the bottom of the image (shogi_obs_square). */
struct shogi_obs_guard *shogi_obs_guard_new(const struct shogi_position *start,
                                            const struct shogi_rules *rules, bool sente_bottom,
                                            const struct shogi_obs_config *cfg);
void shogi_obs_guard_free(struct shogi_obs_guard *g);

/* One observation (occluded and unsure squares are no evidence). Writes up to
 * GUARD_OBS_MAX_EVENTS events and returns their number. An observation with the same nonzero
 * frame_seq as the previous one is skipped. */
int shogi_obs_guard_observe(struct shogi_obs_guard *g, const struct observation *o,
                            struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
int shogi_obs_guard_observe_stable(struct shogi_obs_guard *g, const struct stable_obs *s,
                                   struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* No more observations: changes seen but not confirmed are judged now (the move says so). */
int shogi_obs_guard_flush(struct shogi_obs_guard *g, int64_t t_ns,
                          struct guard_event ev[GUARD_OBS_MAX_EVENTS]);

/* Referee commands. The position the guard now believes (board and komadai) is the truth: a
 * GUARD_MOVE event with reason GUARD_REASON_SETUP; later moves count on from the same ply. */
int shogi_obs_guard_accept_position(struct shogi_obs_guard *g, int64_t t_ns,
                                    struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* Take the last move back (GUARD_REASON_TAKEBACK); the board then has to be restored. */
int shogi_obs_guard_take_back(struct shogi_obs_guard *g, int64_t t_ns,
                              struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
/* The result (resignation, time, the referee's decision). */
int shogi_obs_guard_set_result(struct shogi_obs_guard *g, struct shogi_outcome o, int64_t t_ns,
                               struct guard_event ev[GUARD_OBS_MAX_EVENTS]);

/* The game from the last accepted position (ply numbers of events add shogi_obs_guard_ply_base). */
const struct shogi_game *shogi_obs_guard_game(const struct shogi_obs_guard *g);
int shogi_obs_guard_ply_base(const struct shogi_obs_guard *g);
/* What the board and komadai should show now: the game's position (to restore after a flag). */
void shogi_obs_guard_last_good(const struct shogi_obs_guard *g, struct shogi_position *pos);

#endif

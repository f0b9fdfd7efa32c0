/* tests/ruleguard/shogi_obs_gen.h — a shogi game (start + moves) as the observation stream a
 * camera and settler would hand on: square misreads, doubtful readings, hand-shaped occluded
 * blobs (over squares and komadai: a komadai under an arm is covered), komadai out of view,
 * captured pieces put on the komadai late, repeated and duplicated observations, timing jitter —
 * and, optionally, one injected fault, restored the way a referee restores a board, so the moves
 * recorded must still equal the game's, plus exactly the fault's flag at its ply. */
#ifndef KIFUCAM_TESTS_SHOGI_OBS_GEN_H
#define KIFUCAM_TESTS_SHOGI_OBS_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ruleguard/guard.h"
#include "ruleguard/obs_text.h"

struct sgen_noise {
    double misread;      /* per square (and per komadai) per observation (0.001) */
    double misread_sure; /* share of misreads read with a sure confidence (0.08) */
    double doubtful;     /* share of correct readings in doubt (0.03) */
    double occlude;      /* chance an observation has a hand-shaped occluded blob (0.15) */
    double hidden_hand;  /* chance a komadai is out of view in an observation (0.05) */
    double repeat;       /* chance of one more observation of the same state (0.5) */
    double duplicate;    /* chance an observation is sent twice with the same frame (0.03) */
    double late_capture; /* chance a captured piece reaches the komadai an observation late (0.3) */
};
void sgen_noise_default(struct sgen_noise *n);

enum sgen_fault {
    SF_NONE,
    SF_DEAD_PIECE,     /* 1) a pawn, lance or knight dropped where it cannot move */
    SF_NIFU,           /* 2) a second unpromoted pawn on a file */
    SF_UCHIFUZUME,     /* 3) mate by a dropped pawn */
    SF_WRONG_WAY,      /* 5) a piece moved where it cannot go */
    SF_PROMOTED_DROP,  /* 5) a piece dropped promoted side up */
    SF_OWN_CAPTURE,    /* 5) capturing one's own piece */
    SF_TAKEBACK,       /* 6) a finished move taken back (then played again) */
    SF_OPPONENT_PIECE, /* 7) the opponent's piece moved the way one's own would go */
    SF_KING_IN_CHECK,  /* 8) the king left in check or moved into it */
    SF_TWO_MOVES,      /* 9) the side that just moved moves again */
    SF_HIDDEN_LATE,    /* a captured piece kept off the komadai until the opponent has moved */
    SF_HIDDEN_GONE,    /* a piece taken off a komadai for a while */
    SF_PROMOTED_HAND,  /* a captured piece put on the komadai promoted side up (then turned) */
    SF_COUNT
};
const char *sgen_fault_name(enum sgen_fault f);

struct sgen_flag {
    int ply;
    enum guard_kind kind;
    int reason;
};

#define SGEN_MAX_FLAGS 32

struct sgen_stream {
    struct obs_stream_header hdr;
    struct shogi_position start;
    struct obs_item *items;
    int n, cap;
    struct shogi_move *moves; /* the game's moves, as the guard must record them */
    int nmoves;
    struct sgen_flag expect[SGEN_MAX_FLAGS]; /* the recorded-move guard's flags + the fault's */
    int nexpect;
    enum sgen_fault fault;
    int fault_ply; /* 0 when no fault */
    char fault_text[120];
};
void sgen_stream_free(struct sgen_stream *s);

/* Deterministic PRNG (xorshift64*). */
struct sgen_rng {
    uint64_t s;
};
void sgen_rng_seed(struct sgen_rng *r, uint64_t seed);
double sgen_rng_unit(struct sgen_rng *r);
int sgen_rng_int(struct sgen_rng *r, int n);

/* false when the fault has no place in this game (e.g. no capture for SF_HIDDEN_LATE) or the
 * moves are not all playable. sente_bottom: the camera's side. */
bool sgen_stream_make(const struct shogi_position *start, const struct shogi_move *moves,
                      int nmoves, enum sgen_fault f, uint64_t seed, const struct sgen_noise *noise,
                      bool sente_bottom, struct sgen_stream *out);

/* The flag class printed in the confusion table: "1 dead", …, "9 two", "hidden", "hand+" (a
 * promoted piece in hand), "disturbed", "other". */
const char *sgen_flag_class(enum guard_kind k, int reason);
/* The class a fault must be flagged as. */
const char *sgen_fault_class(enum sgen_fault f);

#endif

/* tests/ruleguard/obs_gen.h — turn a real game record into an observation stream, the way a
 * camera and the settler would see it, with realistic noise and (optionally) one injected fault.
 *
 * Noise (struct gen_noise): point misreads (a wrong value, mostly with a lower confidence),
 * sure and doubtful correct readings, hand-shaped occluded blobs, prisoners taken off over
 * several observations, repeated stable observations (new frames), exact duplicates (same frame),
 * timing jitter. Faults are restored the way a referee restores a board, so the moves the guard
 * records must still equal the record's, plus exactly one flag at the fault's ply. */
#ifndef KIFUCAM_TESTS_OBS_GEN_H
#define KIFUCAM_TESTS_OBS_GEN_H

#include <stdbool.h>

#include "record/sgf.h"
#include "record/shogi_record.h"
#include "ruleguard/guard.h"
#include "ruleguard/obs_text.h"

struct gen_noise {
    double misread;      /* per point per observation (0.001) */
    double misread_sure; /* share of misreads read with a sure confidence (0.08) */
    double doubtful;     /* share of correct readings in doubt (0.03) */
    double occlude;      /* chance an observation has a hand-shaped occluded blob (0.15) */
    double repeat;       /* chance of an extra stable observation of the same state (0.5) */
    double duplicate;    /* chance an observation is sent twice with the same frame (0.03) */
    double hidden_hand;  /* shogi: chance a komadai is out of view in an observation (0.05) */
};
void gen_noise_default(struct gen_noise *n);

/* Deterministic PRNG (xorshift64*). */
struct gen_rng {
    uint64_t s;
};
void gen_rng_seed(struct gen_rng *r, uint64_t seed);
uint64_t gen_rng_next(struct gen_rng *r);
double gen_rng_unit(struct gen_rng *r);    /* [0, 1) */
int gen_rng_int(struct gen_rng *r, int n); /* [0, n) */

struct gen_stream {
    struct obs_stream_header hdr;
    struct obs_item *items;
    int n, cap;
    /* expected outcome */
    int fault_ply; /* 0 when no fault */
    enum guard_kind fault_kind;
    struct go_move *moves; /* Go: the record's moves (passes included) */
    int nmoves;
    char fault_text[120]; /* what was injected, for messages */
};
void gen_stream_free(struct gen_stream *s);

enum gen_go_fault {
    GF_NONE,
    GF_ILLEGAL,       /* a suicide or a ko retake, then restored */
    GF_TWO_MOVES,     /* the side that just moved places another stone, then restored */
    GF_STONE_REMOVED, /* a stone taken off, then put back */
    GF_MOVED_STONE,   /* a stone slid to a neighbouring point, then put back */
    GF_CAPTURE_LEFT,  /* prisoners left on the board for two more moves */
    GF_DISTURBED,     /* several stones knocked about, then restored */
    GF_COUNT
};
const char *gen_go_fault_name(enum gen_go_fault f);

/* false when the record does not fit (setup after the root, no place for the fault...). */
bool gen_go_stream(const struct go_record *r, const struct go_rules *rules, enum gen_go_fault f,
                   uint64_t seed, const struct gen_noise *noise, struct gen_stream *out);

#endif

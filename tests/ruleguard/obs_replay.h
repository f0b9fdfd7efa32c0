/* tests/ruleguard/obs_replay.h — feed a generated stream through the text format (format, parse
 * back) into the observation guard, and collect what it recorded: the moves (with take-backs
 * applied) and the flags. */
#ifndef KIFUCAM_TESTS_OBS_REPLAY_H
#define KIFUCAM_TESTS_OBS_REPLAY_H

#include <stdio.h>

#include "tests/ruleguard/obs_gen.h"

#define REPLAY_MAX_FLAGS 16

struct replay_result {
    struct go_move *moves; /* Go */
    int *plies;
    int nmoves, cap;
    struct guard_event flags[REPLAY_MAX_FLAGS];
    int nflags; /* all flags (only the first REPLAY_MAX_FLAGS kept) */
    int observations, events;
    bool text_ok;
    char error[200];
};
void replay_result_free(struct replay_result *r);

/* When set, replay_go prints each observation's readings that differ from the game, and every
 * event, to this file (debugging one game by hand; OBS_TRACE in the corpus test). */
extern FILE *replay_trace;

/* cfg NULL: defaults. */
bool replay_go(const struct gen_stream *s, const struct go_obs_config *cfg,
               struct replay_result *out);

/* Did the guard record exactly the stream's moves? On a mismatch, a message in why. */
bool replay_moves_equal(const struct gen_stream *s, const struct replay_result *r, char *why,
                        size_t len);

/* The first move (1-based ply) where the guard's moves leave the record's, or 0 when equal. */
int replay_first_diff(const struct gen_stream *s, const struct replay_result *r);

/* Why a clean game failed, from the record around ply (the first wrong move or flag): the
 * situations that make observations ambiguous. */
enum replay_class {
    RC_CAPTURED_AT_ONCE, /* a stone captured by the very next move (ko, snapback, throw-in) */
    RC_POINT_REPLAYED,   /* a prisoner's point played on again within two plies */
    RC_BIG_CAPTURE,      /* four or more prisoners at once nearby */
    RC_PASS_NEAR,        /* a pass within two plies */
    RC_OTHER,            /* none of the above: misreads, hands */
    RC_COUNT
};
enum replay_class replay_classify(const struct gen_stream *s, int ply);
const char *replay_class_name(enum replay_class c);

#endif

/* tests/ruleguard/shogi_obs_replay.h — a generated shogi stream through the text format (written,
 * read back) into the shogi observation guard; what it recorded: the moves (take-backs applied)
 * and the flags. */
#ifndef KIFUCAM_TESTS_SHOGI_OBS_REPLAY_H
#define KIFUCAM_TESTS_SHOGI_OBS_REPLAY_H

#include <stdio.h>

#include "tests/ruleguard/shogi_obs_gen.h"

#define SREPLAY_MAX_FLAGS 32

struct sreplay_result {
    struct shogi_move *moves;
    int nmoves, cap;
    struct guard_event flags[SREPLAY_MAX_FLAGS];
    int nflags; /* all flags (the first SREPLAY_MAX_FLAGS kept) */
    int observations, events;
    char error[200];
};
void sreplay_result_free(struct sreplay_result *r);

/* Every event to this file when set (debugging one game: SHOGI_OBS_TRACE in the tests). */
extern FILE *sreplay_trace;

/* cfg NULL: defaults. false when the text did not read back (error says why). */
bool sreplay_run(const struct sgen_stream *s, const struct shogi_obs_config *cfg,
                 struct sreplay_result *out);
/* Did the guard record exactly the stream's moves? */
bool sreplay_moves_equal(const struct sgen_stream *s, const struct sreplay_result *r, char *why,
                         size_t len);
/* Flags the guard raised that the stream does not expect (false flags), and expected ones it
 * did not raise (missed); matched on ply, kind and reason. */
void sreplay_compare_flags(const struct sgen_stream *s, const struct sreplay_result *r,
                           int *false_flags, int *missed);

#endif

/* tests/daemon/replay_check.h — does a recording's observation log (observations.obs) replayed
 * through `kifucam check`'s path give the events the recorder wrote to its journal? A referee who
 * replays a game's log must see what the recorder decided live. */
#ifndef KIFUCAM_TESTS_DAEMON_REPLAY_CHECK_H
#define KIFUCAM_TESTS_DAEMON_REPLAY_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* out_dir holds game.journal and observations.obs. true when the replay's events equal the
 * journal's (kind, ply and move, in order); else false with the first difference in why.
 * *events: how many events the journal holds. */
bool rc_replay_same(const char *out_dir, int *events, char *why, size_t n);

#endif

/* tests/daemon/daemon_testutil.h — what the daemon tests share: a scratch folder, the sample
 * clip's configuration and game, the moves of the records a daemon leaves on disk, and folders of
 * the clip's frames cut at a still moment. */
#ifndef KIFUCAM_TESTS_DAEMON_TESTUTIL_H
#define KIFUCAM_TESTS_DAEMON_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "app/daemon.h"

/* A path NAME inside this run's scratch folder (made on first use, removed by dt_cleanup unless
 * KIFUCAM_KEEP_TMP is set, for a look after a failure). */
void dt_make_tmp(char *out, size_t n, const char *name);
void dt_cleanup(void);

/* Seconds on the monotonic clock. */
double dt_now_s(void);
/* A number from the environment, dflt when unset or empty. */
long dt_env_long(const char *name, long dflt);
/* Reproducible random numbers in [0, 1) for a seed (xorshift64*): kill moments and the like. */
void dt_rng_seed(uint64_t seed);
double dt_rng_unit(void);
/* Start daemon_run(c) in a child process (nothing flushed twice); its pid. */
pid_t dt_start_daemon(const struct kc_config *c);

/* The clip's configuration (frame rate, orientation) with SOURCE and OUT, quiet. */
void dt_base_config(struct kc_config *c, const char *source, const char *out);

/* The sample game's moves (clip/game.sgf); the caller frees. */
struct go_move *dt_source_moves(int *n);
/* Moves of an SGF file written by the daemon (it must parse as one game). */
int dt_sgf_moves(const char *path, struct go_move *out, int max);
/* Moves and passes in a journal, takebacks applied: the journal alone rebuilds the record. A torn
 * last line (a write cut short by a crash) is allowed when TORN_OK, and reported in *torn. */
int dt_journal_moves(const char *path, struct go_move *out, int max, bool torn_ok, bool *torn);
/* How many moves A and B share from the start. */
int dt_prefix_match(const struct go_move *a, int na, const struct go_move *b, int nb);

/* A folder of symbolic links to the clip's frames numbered [from, to) (to < 0: to the end). */
void dt_link_frames(const char *dir, long from, long to);
/* The same from the frames of another render in SRC. */
void dt_link_frames_from(const char *src, const char *dir, long from, long to);
/* The frame after the last one of the first still, hand-free view at PLY (truth.jsonl): where a
 * daemon stopped between two moves would have stopped. */
long dt_quiet_frame_after(int ply);
/* The first frame of that view: a camera that kept looking while the daemon was down shows the
 * board from here on. */
long dt_quiet_frame_start(int ply);
/* The same in the truth.jsonl of another render in DIR. */
long dt_quiet_frame_start_in(const char *dir, int ply);

/* The first game of the fixture record REL (the test fails without it); its path in *path. */
struct go_record *dt_load_fixture_game(const char *rel, const char **path);
/* Render game (read from path) into folder dir, 640x480, light wood, no bumps: scenario sc, seed,
 * the first moves moves (the test fails when it cannot). */
void dt_render_game(const struct go_record *game, const char *path, int sc, uint64_t seed,
                    int moves, const char *dir);

#endif

/* tests/daemon/footage_games.h — shared by test_daemon_footage and test_daemon_faults: the games
 * filmed and how a record is compared with its source. */
#ifndef KIFUCAM_TESTS_FOOTAGE_GAMES_H
#define KIFUCAM_TESTS_FOOTAGE_GAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/go.h"
#include "board/shogi.h"
#include "record/shogi_record.h"

/* Longest common subsequence of two token lists (tokens compared as 32-bit keys). */
int fg_lcs(const uint32_t *a, int na, const uint32_t *b, int nb);
/* A Go move as a key under symmetry s (bit 2 transpose, bit 0 mirror x, bit 1 mirror y) of an
 * n x n board: the record is oriented by the camera. Passes stay passes. */
uint32_t fg_go_key(struct go_move m, int s, int n);
/* A shogi move as a key. */
uint32_t fg_shogi_key(struct shogi_move m);
/* The shogi games: the lishogi games of ../shared (one a line), else the fixtures' records; *which
 * says which. The caller frees each record and the list. */
struct shogi_record **fg_shogi_games(int *n, const char **which);

/* Where a film's frames go: DIR/NAME under the folder the environment variable ENV names (kept
 * and reused by the next run), else in the run's scratch folder. */
void fg_kept_path(char *out, size_t n, const char *env, const char *name);
/* A kept render is reused when it is whole: renders are made in DIR.part (fg_part_path) and renamed
 * DIR when done (fg_render_done), so a run stopped mid-render leaves no half footage. */
bool fg_render_kept(const char *env, const char *dir);
void fg_part_path(char *out, size_t n, const char *dir);
void fg_render_done(const char *part, const char *dir);

#endif

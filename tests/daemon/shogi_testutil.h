/* tests/daemon/shogi_testutil.h — what the shogi daemon tests share: the fixture game (the 竜王戦
 * KIF), its first moves rendered as camera frames, the daemon's configuration for them, and the
 * moves a KIF, CSA or journal on disk holds. */
#ifndef KIFUCAM_TESTS_DAEMON_SHOGI_TESTUTIL_H
#define KIFUCAM_TESTS_DAEMON_SHOGI_TESTUTIL_H

#include <stdbool.h>

#include "app/daemon.h"
#include "board/shogi.h"
#include "record/shogi_record.h"

/* A fixture game (NAME in tests/fixtures/shogi-records: the 竜王戦 KIF
 * ryuou201409020101.kif, the eight-piece handicap game 8mai.kif); free with shogi_record_free. */
struct shogi_record *st_load_game(const char *name);
/* Its first MOVES moves rendered overhead at 640x480 (seed 7, no bump) into DIR, with truth.jsonl.
 */
void st_render_game(const struct shogi_record *rec, int moves, const char *dir);
/* The daemon recording shogi from the frames in FRAMES into OUT at 30 fps, quiet. */
void st_config(struct kc_config *c, const char *frames, const char *out);
/* How many of WANT's first moves the record file at PATH (KIF or CSA, one game) holds in order;
 * its move count in *count. */
int st_record_matching(const char *path, const struct shogi_record *want, int *count);
/* The shogi moves of a journal, take-backs applied (a torn last line allowed when TORN_OK,
 * reported in *torn); how many of WANT's first moves they are, in order, in *matching. */
int st_journal_moves(const char *path, const struct shogi_record *want, bool torn_ok, bool *torn,
                     int *matching);
/* How many frame_NNNNNN.jpg a render wrote into DIR. */
int st_frame_count(const char *dir);

#endif

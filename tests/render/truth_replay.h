/* tests/render/truth_replay.h — replays a render's truth through the rules core (board/): every
 * change between two settled truth positions must be a legal move of the side to move (its
 * prisoners may come off over several frames), a change of the counting after the game, or a
 * signal; anything else must be a fault of the kind, at the frame and the ply, the time line's
 * "fault" event names — and every such event must show. The checker reads only the truth (the
 * positions, the events, the stones off the grid); it does not look at the record's moves. */
#ifndef KIFUCAM_TESTS_RENDER_TRUTH_REPLAY_H
#define KIFUCAM_TESTS_RENDER_TRUTH_REPLAY_H

#include <stdbool.h>

#include "render/render.h"

#define TR_MAX_NOTES 4

struct tr_result {
    int frames, moves;          /* frames read, moves the rules core accepted */
    int marks, marks_found;     /* fault and signal events of the time line, and those seen there */
    int faults, faults_found;   /* of which faults */
    int signals, signals_found; /* of which signals */
    int flags;                  /* changes nothing explains, marks not seen, truth ply/side off */
    int out_of_view;            /* signals the camera does not frame (a komadai off the frame) */
    int nnotes;
    char notes[TR_MAX_NOTES][200]; /* the first flags, for people */
};

/* Render rec with o (o->truth_only is forced on) and replay its truth; false when the render
 * cannot be opened (err filled). */
bool tr_replay_go(const struct go_record *rec, const struct render_opts *o, struct tr_result *res,
                  char *err, size_t errlen);
/* The same for shogi. The resignation signal (a hand resting over a komadai) is seen on one
 * drawn frame of the same render at a small size. */
bool tr_replay_shogi(const struct shogi_record *rec, const struct render_opts *o,
                     struct tr_result *res, char *err, size_t errlen);

/* The record replays through board/ without a single verdict other than legal (the renders of a
 * record that breaks the rules itself cannot replay clean). */
bool tr_go_record_clean(const struct go_record *rec);
bool tr_shogi_record_clean(const struct shogi_record *rec);

#endif

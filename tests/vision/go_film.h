/* tests/vision/go_film.h — a Go game filmed end to end as the daemon runs it: every rendered
 * frame read by the Go reader (colour, as the daemon decodes Go), settled, and judged by the Go
 * observation guard; what the guard said, set beside what the footage did. */
#ifndef KIFUCAM_TESTS_VISION_GO_FILM_H
#define KIFUCAM_TESTS_VISION_GO_FILM_H

#include <stdbool.h>

#include "board/go.h"
#include "render/render.h"
#include "ruleguard/guard.h"

#define GO_FILM_MAX 64

struct go_film_flag {
    enum guard_kind kind;
    int ply, frame;
    char text[200]; /* as struct guard_event's */
};

struct go_film_fault {
    char name[16];
    int ply, frame, point; /* point on the board (truth), or GO_NOPOINT */
};

struct go_film {
    /* stones the footage put down; the final record's moves (after the guard's take-backs; a
       move not seen is GO_NOPOINT); those right, in order */
    int nwant, ngot, right;
    struct go_move want[GO_FILM_MAX]; /* on the board */
    struct go_move got[GO_FILM_MAX];  /* turned back onto the board (sym) */
    int takebacks;                    /* the guard's take-back events */
    /* scored as before the final record was: every move event in order, a take-back's too */
    int nevents, right_events;
    /* the live record's pace: when stone k was put down (the first frame showing it) and when
       move k went into the record; the next stone's time (or -1) */
    double want_t[GO_FILM_MAX], next_t[GO_FILM_MAX], got_t[GO_FILM_MAX];
    int nflags;
    struct go_film_flag flag[GO_FILM_MAX];
    int nfaults;
    struct go_film_fault fault[8];
    long nohand, nohand_found; /* frames without a hand, and those whose grid was found right */
    /* stones whose point lay inside the picture (by half a spacing) when put down: a partial
       view cannot see the others; and those of them recorded right */
    int inview, right_inview;
    bool found_any;
    bool unplaced; /* a fault asked for found no place in the game: nothing filmed */
    int sym; /* the camera's symmetry between the reader's grid and the board; -1 never found */
};

/* Film rec with the render options o (seed, scenario, size, max_moves, faults). colour: the
 * frames as RGB, else grey (BT.601 luma). debug: on stderr a line per settled view, the occluded
 * points every 15 frames, the moves wanted and got; GO_FILM_DUMP=N also writes frame N as
 * /tmp/go_film_frame.ppm. */
void go_film_run(const struct go_record *rec, const struct render_opts *o, bool colour, bool debug,
                 struct go_film *out);

#endif

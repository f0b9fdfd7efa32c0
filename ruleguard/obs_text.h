/* ruleguard/obs_text.h — observation streams as text, so the rule guard can be tested and
 * `kifucam check` can replay what a camera saw without vision. Parse from memory, format to
 * memory; no file I/O here.
 *
 * Format (UTF-8/ASCII, one item per line or block; blank lines skip; between items and in the
 * header a line starting with '#' is a comment — inside an observation '#' is an occluded cell):
 *
 *   kifucam-obs 1 go 19x19          first line: version, game (go | shogi), size
 *   rules Japanese 1989             optional, Go: a board/go.h preset name
 *   handicap 4 fixed                optional, Go: n stones, fixed (star points) or free
 *   setup B dd pd                   optional, Go: set-up stones (SGF coordinates), B, W or E
 *   to_move W                       optional, Go: B or W
 *   start SFEN                      optional, shogi: the start position (default: startpos)
 *   view sente|gote                 optional, shogi: whose side is at the bottom of the image
 *
 *   obs t=1500000000 frame=42       an observation: time (ns), frame number, 'stable frames=N'
 *                                     when a settler saw the view hold N frames (replayed as a
 *                                     settled view: ruleguard's *_observe_stable), then
 *   .........XO........             Go: h rows from the top of the image, w cells each:
 *   ...                               '.' 'X' 'O' sure readings (conf 0.95),
 *                                     ',' 'x' 'o' readings in doubt (conf 0.7),
 *                                     '?' unreadable (conf 0.2), '~' out of the picture
                                       (OBS_OUT_OF_VIEW_CONF), '#' occluded
 *   l n s g k g s n l               shogi: 9 rows of 9 space-separated cells: '.' empty, a SFEN
 *   ...                               letter (upper case sente, lower case gote) with '+' for a
 *                                     promoted face; a trailing '?' marks doubt (conf 0.7),
 *                                     '?' alone unreadable, '~' out of the picture,
                                       '#' occluded
 *   conf 3 0.97 0.99 0.44 ...       optional, after the rows: the exact confidences of row 3
 *                                     (1 = the top row), written where a reading's class above
 *                                     would read back another value (a daemon's log is exact)
 *   since 3 0 0 1500000000 ...      optional, a settled view only: per point of row 3, how
 *                                     long (ns) before t it has read what it says
 *   hand b P2 +P1 L1                shogi: sente's komadai (letter + count), '-' empty,
 *   hand w -                          'hidden' not in view (out of the picture), 'covered'
 *   hand w covered                    not in view because a hand rests over it; an optional
 *                                     trailing conf=0.8
 *   end                             closes the observation
 *
 *                                   (counts per SFEN letter, as hand_obs.count[type - 1] with
 *                                   board/shogi.h's type order P L N S B R G; a '+' before the
 *                                   letter counts the pieces of that type lying promoted side
 *                                   up: "P2 +P1" is count 3, promoted 1 — hand_obs.promoted[];
 *                                   not for G)
 *   signal pass B t=...             a Go signal seen off the grid: pass (a stone beside the
 *   signal end W t=...                board), end (end of game confirmed), resign (two stones)
 *   referee pass B t=...            a referee command: pass C, accept, takeback,
 *   referee accept t=...              resign C, count (in a shogi stream B is sente, W gote)
 *
 * A stream's items are read one at a time (obs_text_next) so a long stream needs no more memory
 * than one observation. Errors name the line. */
#ifndef KIFUCAM_RULEGUARD_OBS_TEXT_H
#define KIFUCAM_RULEGUARD_OBS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/go.h"
#include "board/shogi.h"
#include "vision/observation.h"

/* The confidence each reading class stands for. */
#define OBS_TEXT_CONF_SURE  0.95f
#define OBS_TEXT_CONF_DOUBT 0.7f
#define OBS_TEXT_CONF_NONE  0.2f

enum obs_game { OBS_GAME_GO, OBS_GAME_SHOGI };

struct obs_stream_header {
    enum obs_game game;
    int w, h;
    char rules[64]; /* Go preset name, "" when absent */
    int handicap;   /* 0 when absent */
    bool handicap_free;
    struct go_move setup[GO_POINTS]; /* Go set-up stones; color GO_EMPTY clears */
    int nsetup;
    enum go_color to_move;           /* GO_EMPTY when absent */
    char start_sfen[SHOGI_SFEN_MAX]; /* shogi, "" for startpos */
    bool sente_bottom;               /* shogi (default true) */
};

enum obs_item_kind { OBS_ITEM_OBS, OBS_ITEM_SIGNAL, OBS_ITEM_REFEREE };

enum obs_referee { OBS_REF_PASS, OBS_REF_ACCEPT, OBS_REF_TAKEBACK, OBS_REF_RESIGN, OBS_REF_COUNT };

struct obs_item {
    enum obs_item_kind kind;
    struct observation obs; /* OBS_ITEM_OBS */
    int signal;             /* OBS_ITEM_SIGNAL: enum go_obs_signal (ruleguard/guard.h) */
    enum obs_referee referee;
    enum go_color color; /* who signals / passes / resigns */
    int64_t t_ns;        /* signals and referee commands */
    /* OBS_ITEM_OBS as a settler handed it on ('stable'): the frames the view held and since when
       each point has read what it says (y * OBS_MAX + x; t_ns where the text gives none). */
    bool stable;
    int frames;
    int64_t read_since_ns[OBS_POINTS];
};

struct obs_text_error {
    int line;
    char message[160];
};

/* Parse the header lines. *cursor moves past them; *line counts lines read (start it at 0).
 * false with err filled on a bad header. */
bool obs_text_header(const char **cursor, int *line, struct obs_stream_header *out,
                     struct obs_text_error *err);
/* The next item: 1 and *out filled, 0 at the end of the text, -1 with err filled on an error. */
int obs_text_next(const char **cursor, int *line, const struct obs_stream_header *hdr,
                  struct obs_item *out, struct obs_text_error *err);

/* Write the header / one item into buf (NUL-terminated); returns the length written, or the
 * length needed (like snprintf) when len is too small. */
size_t obs_text_format_header(const struct obs_stream_header *hdr, char *buf, size_t len);
size_t obs_text_format_item(const struct obs_stream_header *hdr, const struct obs_item *it,
                            char *buf, size_t len);

/* The settled view a 'stable' item stands for (what a daemon handed its guard). */
void obs_item_stable(const struct obs_item *it, struct stable_obs *out);

/* The SGF-style name of a Go point ("dd"), used by `setup`. */
void obs_text_sgf_point(int point, char out[3]);

#endif

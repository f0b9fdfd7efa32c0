/* app/daemon_game.h — what the recording daemon needs from the game it records: the reader that
 * turns a frame into an observation, the rule guard, the record kept from the guard's events and
 * how it is shown. app/daemon_go.c and app/daemon_shogi.c fill it in; app/daemon.c only wires
 * (journal first, then records, live page and MQTT). Plies are the record's: the daemon adds the
 * moves recorded before this run (a resumed game) to the guard's own numbering. */
#ifndef KIFUCAM_APP_DAEMON_GAME_H
#define KIFUCAM_APP_DAEMON_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/config.h"
#include "app/daemon.h"
#include "record/journal.h"
#include "record/live.h"
#include "ruleguard/guard.h"
#include "ruleguard/obs_text.h"
#include "vision/vision.h"

struct daemon_game;

/* Game information from the configuration, for the record files. */
struct daemon_game_info {
    const char *black, *white, *event, *time_control, *result; /* NULL when unknown */
};

/* A record file rewritten after every event: its format and its name in the output folder. */
struct daemon_record_file {
    enum live_record_format format;
    const char *name; /* "game.sgf" */
};

struct daemon_game_ops {
    const char *name; /* "go", "shogi": the journal's GAME line, the live page, MQTT */
    const struct daemon_record_file *files;
    int nfiles;
    double settle_min_conf; /* every point this sure before a view settles (0: the default) */
    bool colour;            /* the reader uses colour: frames are decoded to BGR, not grey */
    /* at the source's end, its last still frames are settled into the guard (settle_finish)
       with no frame image: the game's settled() must not need img then (NULL) */
    bool end_settle;
    struct daemon_game *(*open)(const struct kc_config *cfg, char *err, size_t errlen);
    void (*close)(struct daemon_game *g);
    /* The journal's GAME line after the name: size, rules, komi or start. */
    void (*header)(const struct daemon_game *g, char size[16], char rules[64], char extra[128]);
    bool extra_must_match; /* a journal whose GAME line has another extra is another game (shogi:
                              the start position; Go's komi may be corrected between runs) */
    /* One frame: the observation; false when no board is seen. */
    bool (*read)(struct daemon_game *g, const struct vision_image *img, struct observation *o);
    /* A settled view of frame img (the reader may still turn it: shogi's sides) into the guard. */
    int (*settled)(struct daemon_game *g, const struct vision_image *img, struct stable_obs *s,
                   struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
    /* The last view of a source that ended (it had no time to settle), then the flush. */
    int (*last_view)(struct daemon_game *g, struct observation *o,
                     struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
    int (*flush)(struct daemon_game *g, int64_t t_ns, struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
    /* A referee action; base: moves recorded before the guard started. */
    int (*action)(struct daemon_game *g, const struct referee_action *a, int base,
                  struct guard_event ev[GUARD_OBS_MAX_EVENTS]);
    /* The record: apply one journaled event (true when it is a flag), a note on a ply. */
    bool (*apply)(struct daemon_game *g, const struct guard_event *ev);
    void (*note)(struct daemon_game *g, int ply, const char *text);
    int (*moves)(const struct daemon_game *g);
    /* The journal was replayed: the guard goes on from the record's position. */
    void (*resume)(struct daemon_game *g);
    /* The record in fmt (malloc'd), NULL when this game has no such format. */
    char *(*record)(const struct daemon_game *g, enum live_record_format fmt,
                    const struct daemon_game_info *info);
    /* The game's part of the live page's state: board, size, moves, last move, prisoners, side
     * to move. The strings stay g's until the next call. */
    void (*state)(struct daemon_game *g, struct live_state *st);
    /* The board height the live page counts rows with (live_event_json). */
    int (*height)(const struct daemon_game *g);
    /* A move's name for the log: "B D4", "▲7六歩". */
    void (*move_name)(const struct daemon_game *g, const struct guard_event *ev, char *buf,
                      size_t len);
    /* The observation log's stream header. */
    void (*obs_header)(const struct daemon_game *g, struct obs_stream_header *h);
    /* Go moves for the caller of daemon_run (tests); NULL for other games. */
    void (*result)(const struct daemon_game *g, struct daemon_result *res);
};

extern const struct daemon_game_ops daemon_go_ops;
extern const struct daemon_game_ops daemon_shogi_ops;

#endif

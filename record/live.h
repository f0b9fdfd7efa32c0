/* record/live.h — the live feed: an HTTP server (libmicrohttpd) with the board page for the public
 * display, Server-Sent Events, the current record for download, and a referee view behind a token.
 *
 * Routes (everything else is 404; there is no file system behind the server, so no path can
 * escape anything — the page is compiled into the binary):
 *
 *   GET  /                    the board page (HTML; /live.js, /live.css beside it)
 *   GET  /events              SSE: "move", "state", "end" events (flags are left out)
 *   GET  /state.json          the newest state (live_state_json)
 *   GET  /record.sgf|.kif|.csa  the current record, from the record callback
 *   GET  /referee?token=T     the referee view (same page, with flags and actions)
 *   GET  /referee/events?token=T   SSE with the flags too
 *   GET  /referee/snapshot?token=T&seq=N   the JPEG of the frame behind flag N (snapshot callback)
 *   GET  /hall                the hall page: every board of a hall over MQTT/WebSocket
 *                             (docs/hall.md; /hall.js, /hall.css beside it)
 *   POST /referee/action      form: token, action (accept|pass|takeback|note|result), ply, text
 *
 * SSE ids count every event the server published (1, 2, 3 ...). A browser that reconnects sends
 * Last-Event-ID and gets every move and flag it missed, then the newest state; a fresh connection
 * gets the whole game so far the same way. Each state event is a full snapshot, so a page is right
 * after any one of them. A daemon that restarts republishes its journal in the same order, which
 * rebuilds the same ids.
 *
 * Limits: request bodies 4 KiB (413 beyond), headers 16 KiB per connection, 32 connections (8 per
 * address). One thread per connection: the SSE stream blocks on a condition variable instead of
 * polling, which libmicrohttpd only allows in this mode; a hall display has a handful of clients.
 */
#ifndef KIFUCAM_RECORD_LIVE_H
#define KIFUCAM_RECORD_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/journal.h"
#include "ruleguard/guard.h"

enum live_record_format { LIVE_RECORD_SGF, LIVE_RECORD_KIF, LIVE_RECORD_CSA };

struct live_callbacks {
    void *ctx;
    /* The current record as bytes (malloc'd; the server frees it), or NULL for 404 (no such
     * format for this game). Called on a server thread. */
    char *(*record)(void *ctx, enum live_record_format fmt, size_t *len);
    /* The JPEG behind the flag published with journal seq `seq`, malloc'd, or NULL for 404. */
    void *(*snapshot)(void *ctx, uint64_t seq, size_t *len);
    /* A referee action from the page (the token already checked). Return 0 when it is taken (the
     * caller journals it and publishes what changes), or -1 with msg (shown to the referee). */
    int (*action)(void *ctx, const struct referee_action *a, char *msg, size_t msglen);
};

struct live_config {
    const char *bind_addr;     /* "127.0.0.1", "0.0.0.0", "::"; NULL = 127.0.0.1 */
    uint16_t port;             /* 0 = any free port (live_server_port says which) */
    const char *referee_token; /* NULL or "" = no referee view (403) */
    unsigned max_connections;  /* 0 = 32 */
    unsigned keepalive_ms;     /* SSE comment line when idle; 0 = 15000 */
};

struct live_server;

struct live_server *live_server_start(const struct live_config *cfg,
                                      const struct live_callbacks *cb, char *err, size_t errlen);
uint16_t live_server_port(const struct live_server *s);
void live_server_stop(struct live_server *s);

/* Publish an SSE event (event: name, data: json on one line). referee_only events go to
 * /referee/events only. Returns its id, 0 on error (out of memory, json with a newline). */
uint64_t live_publish(struct live_server *s, const char *event, const char *json,
                      bool referee_only);
/* Set the newest state (served at /state.json) and publish it as a "state" event. */
uint64_t live_set_state(struct live_server *s, const char *json);
/* How many events are kept for replay (the oldest are dropped beyond it; default 100000). */
void live_set_history_limit(struct live_server *s, size_t n);

/* ---- JSON the page reads ------------------------------------------------------------------- */

struct live_player {
    const char *name; /* NULL = unknown */
    int64_t clock_ms; /* time left; -1 = unknown */
    int prisoners;    /* Go: stones this player captured */
};

/* Everything the page shows. Go boards are width*height chars, row by row from the top ('.',
 * 'X' black, 'O' white); shogi positions are an SFEN (board, side, hands). */
struct live_state {
    const char *game;       /* "go" or "shogi" */
    const char *event;      /* tournament, round... NULL = none */
    const char *board_name; /* "Board 3" */
    int width, height;
    const char *board; /* Go rows or shogi SFEN */
    int ply;
    int last_x, last_y; /* last move's square, 0-based from the top left; -1 = none/pass */
    struct live_player black, white; /* shogi: black = sente, white = gote */
    const char *const *moves;        /* the move list as shown ("D4", "▲7六歩"...) */
    int n_moves;
    const char *to_move; /* "black" / "white" / NULL */
    const char *result;  /* NULL while the game runs */
    const char *status;  /* "board stable", "camera lost"... NULL = none */
};

/* malloc'd JSON object. */
char *live_state_json(const struct live_state *st);
/* One guard event as JSON: {"seq":S,"kind":"ILLEGAL_MOVE","flag":true,"ply":P,"t_ms":...,
 * "move":"D4","x":3,"y":15,"rule":"...","text":"..."}; game "go" (board height for coordinates)
 * or "shogi" (USI move). malloc'd. */
char *live_event_json(const struct guard_event *ev, uint64_t seq, const char *game,
                      int board_height);
/* A referee action as JSON, for the feed and the page. malloc'd. */
char *live_action_json(const struct referee_action *a, uint64_t seq);

/* ---- request parsing (exposed for the fuzzer and tests) ------------------------------------ */

/* Find key in an application/x-www-form-urlencoded body or query string and decode its value
 * into out (NUL-terminated). Returns the decoded length, -1 when the key is absent, -2 when the
 * value is malformed (bad %xx, NUL) or does not fit. */
int live_form_value(const char *form, size_t len, const char *key, char *out, size_t outlen);
/* Build a referee action from a form body; false with msg when a field is missing or bad. */
bool live_parse_action(const char *form, size_t len, int64_t t_ns, struct referee_action *a,
                       char *msg, size_t msglen);
/* Compare a token without leaking how much of it matched. */
bool live_token_equal(const char *want, const char *got);

#endif

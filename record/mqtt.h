/* record/mqtt.h — publishing one board's game to an MQTT broker (libmosquitto), for halls with many
 * boards: a hall page or the referee desk subscribes to all of them.
 *
 * Topics (HALL and BOARD are single topic levels: no '/', '+', '#', at most 64 bytes):
 *
 *   kifucam/HALL/BOARD/state    retained, QoS 1: the newest state (the JSON of /state.json:
 *                               position, moves, players, clocks, result) — a subscriber that
 *                               joins late gets it at once
 *   kifucam/HALL/BOARD/move     QoS 1: each move, pass or game end (live_event_json: carries its
 *                               journal "seq", so a consumer can drop a redelivered duplicate)
 *   kifucam/HALL/BOARD/flag     QoS 1: each flag for the referee (same JSON, "flag": true)
 *   kifucam/HALL/BOARD/action   QoS 1: each referee action (live_action_json)
 *   kifucam/HALL/BOARD/online   retained, QoS 1: "1" while connected; the broker sets "0" (the
 *                               will) when the daemon vanishes without saying goodbye
 *
 * Delivery: a fixed client id and clean_session = false, so the broker keeps the session across
 * reconnects; libmosquitto queues QoS 1 messages in memory while the broker is away and sends
 * them, in order, when it is back (it reconnects by itself, 1 s to 16 s apart). QoS 1 is "at least
 * once": a message whose acknowledgement was lost is sent again, hence the seq. A daemon that
 * restarts republishes the retained state from its journal; moves queued in memory when it died
 * are in the journal, not on the bus. */
#ifndef KIFUCAM_RECORD_MQTT_H
#define KIFUCAM_RECORD_MQTT_H

#include <stdbool.h>
#include <stddef.h>

struct mqtt_feed_config {
    const char *host;      /* NULL = "127.0.0.1" */
    int port;              /* 0 = 1883 */
    const char *hall;      /* topic level, e.g. "osaka-2025" */
    const char *board;     /* topic level, e.g. "board-07" */
    const char *client_id; /* NULL = "kifucam-HALL-BOARD" (must be fixed for the session) */
    const char *username, *password; /* NULL = anonymous */
    int keepalive_s;                 /* 0 = 30 */
};

struct mqtt_feed;

/* Start the client thread and connect in the background (a broker that is not up yet is fine:
 * messages queue until it is). NULL with err filled on bad configuration. */
struct mqtt_feed *mqtt_feed_open(const struct mqtt_feed_config *cfg, char *err, size_t errlen);
/* Wait up to drain_ms for queued messages to be acknowledged, say goodbye ("online" = "0") and
 * stop. Returns the number of messages still unacknowledged (lost if the process exits). */
int mqtt_feed_close(struct mqtt_feed *f, int drain_ms);

/* Publish the retained state. 0 on success (queued), -1 on a bad argument or out of memory. */
int mqtt_feed_state(struct mqtt_feed *f, const char *json);
/* Publish on kifucam/HALL/BOARD/<what> at QoS 1; what is "move", "flag" or "action". */
int mqtt_feed_event(struct mqtt_feed *f, const char *what, const char *json);

bool mqtt_feed_connected(const struct mqtt_feed *f);
/* QoS 1 messages handed to the library and not yet acknowledged by the broker. */
int mqtt_feed_pending(const struct mqtt_feed *f);

/* Checks a topic level (hall or board name): true when it is usable. */
bool mqtt_topic_level_ok(const char *s);

#endif

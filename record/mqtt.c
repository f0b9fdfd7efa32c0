/* record/mqtt.c — one board's feed to an MQTT broker (topics in record/mqtt.h). */
#include "record/mqtt.h"

#include <mosquitto.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PAYLOAD (256 * 1024)

struct mqtt_feed {
    struct mosquitto *m;
    char prefix[160]; /* kifucam/HALL/BOARD/ */
    atomic_int pending;
    atomic_bool connected;
};

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;
static void lib_init(void)
{
    mosquitto_lib_init();
}

bool mqtt_topic_level_ok(const char *s)
{
    if (!s || !s[0] || strlen(s) > 64) return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p == '/' || *p == '+' || *p == '#' || *p < 0x20 || *p == 0x7f) return false;
    return true;
}

static void on_connect(struct mosquitto *m, void *obj, int rc)
{
    struct mqtt_feed *f = obj;
    if (rc != 0) return;
    atomic_store(&f->connected, true);
    char topic[200];
    snprintf(topic, sizeof topic, "%sonline", f->prefix);
    if (mosquitto_publish(m, NULL, topic, 1, "1", 1, true) == MOSQ_ERR_SUCCESS)
        atomic_fetch_add(&f->pending, 1);
}

static void on_disconnect(struct mosquitto *m, void *obj, int rc)
{
    (void)m;
    (void)rc;
    struct mqtt_feed *f = obj;
    atomic_store(&f->connected, false);
}

static void on_publish(struct mosquitto *m, void *obj, int mid)
{
    (void)m;
    (void)mid;
    struct mqtt_feed *f = obj;
    atomic_fetch_sub(&f->pending, 1);
}

struct mqtt_feed *mqtt_feed_open(const struct mqtt_feed_config *cfg, char *err, size_t errlen)
{
    if (!mqtt_topic_level_ok(cfg->hall) || !mqtt_topic_level_ok(cfg->board)) {
        snprintf(err, errlen,
                 "mqtt: hall and board must be one topic level each "
                 "(no '/', '+', '#', at most 64 bytes)");
        return NULL;
    }
    pthread_once(&lib_once, lib_init);
    struct mqtt_feed *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "mqtt: out of memory");
        return NULL;
    }
    snprintf(f->prefix, sizeof f->prefix, "kifucam/%s/%s/", cfg->hall, cfg->board);
    char id[160];
    if (cfg->client_id)
        snprintf(id, sizeof id, "%s", cfg->client_id);
    else
        snprintf(id, sizeof id, "kifucam-%s-%s", cfg->hall, cfg->board);
    /* clean_session = false: the broker keeps our session (and its QoS 1 state) across
     * reconnects, which is what makes "nothing lost" hold when the broker restarts. */
    f->m = mosquitto_new(id, false, f);
    if (!f->m) {
        snprintf(err, errlen, "mqtt: cannot create client '%s'", id);
        free(f);
        return NULL;
    }
    mosquitto_connect_callback_set(f->m, on_connect);
    mosquitto_disconnect_callback_set(f->m, on_disconnect);
    mosquitto_publish_callback_set(f->m, on_publish);
    mosquitto_reconnect_delay_set(f->m, 1, 16, true);
    if (cfg->username) mosquitto_username_pw_set(f->m, cfg->username, cfg->password);
    char will[200];
    snprintf(will, sizeof will, "%sonline", f->prefix);
    mosquitto_will_set(f->m, will, 1, "0", 1, true);

    const char *host = cfg->host ? cfg->host : "127.0.0.1";
    int port = cfg->port ? cfg->port : 1883;
    int keep = cfg->keepalive_s ? cfg->keepalive_s : 30;
    /* A broker that is down now is not an error: the loop thread keeps trying. It must run before
     * the first connect: when that fails first, libmosquitto 2.0's thread never retries
     * (eclipse-mosquitto/mosquitto#1903). */
    int rc = mosquitto_loop_start(f->m);
    if (rc != MOSQ_ERR_SUCCESS) {
        snprintf(err, errlen, "mqtt: cannot start the client thread: %s", mosquitto_strerror(rc));
        mosquitto_destroy(f->m);
        free(f);
        return NULL;
    }
    rc = mosquitto_connect_async(f->m, host, port, keep);
    if (rc != MOSQ_ERR_SUCCESS && rc != MOSQ_ERR_ERRNO) {
        snprintf(err, errlen, "mqtt: cannot connect to %s:%d: %s", host, port,
                 mosquitto_strerror(rc));
        mosquitto_loop_stop(f->m, true);
        mosquitto_destroy(f->m);
        free(f);
        return NULL;
    }
    return f;
}

static int publish(struct mqtt_feed *f, const char *what, const char *json, bool retain)
{
    if (!f || !json || !what || strlen(json) > MAX_PAYLOAD) return -1;
    char topic[200];
    snprintf(topic, sizeof topic, "%s%s", f->prefix, what);
    atomic_fetch_add(&f->pending, 1);
    int rc = mosquitto_publish(f->m, NULL, topic, (int)strlen(json), json, 1, retain);
    /* NO_CONN: libmosquitto has queued the QoS 1 message and sends it after reconnecting. */
    if (rc == MOSQ_ERR_SUCCESS || rc == MOSQ_ERR_NO_CONN) return 0;
    atomic_fetch_sub(&f->pending, 1);
    return -1;
}

int mqtt_feed_state(struct mqtt_feed *f, const char *json)
{
    return publish(f, "state", json, true);
}

int mqtt_feed_event(struct mqtt_feed *f, const char *what, const char *json)
{
    if (!what ||
        (strcmp(what, "move") != 0 && strcmp(what, "flag") != 0 && strcmp(what, "action") != 0))
        return -1;
    return publish(f, what, json, false);
}

bool mqtt_feed_connected(const struct mqtt_feed *f)
{
    return atomic_load(&f->connected);
}

int mqtt_feed_pending(const struct mqtt_feed *f)
{
    return atomic_load(&f->pending);
}

int mqtt_feed_close(struct mqtt_feed *f, int drain_ms)
{
    if (!f) return 0;
    struct timespec tick = {0, 10 * 1000000L};
    for (int waited = 0; waited < drain_ms && atomic_load(&f->pending) > 0; waited += 10)
        nanosleep(&tick, NULL);
    char topic[200];
    snprintf(topic, sizeof topic, "%sonline", f->prefix);
    if (atomic_load(&f->connected) &&
        mosquitto_publish(f->m, NULL, topic, 1, "0", 1, true) == MOSQ_ERR_SUCCESS) {
        atomic_fetch_add(&f->pending, 1);
        for (int waited = 0; waited < 1000 && atomic_load(&f->pending) > 0; waited += 10)
            nanosleep(&tick, NULL);
    }
    int left = atomic_load(&f->pending);
    mosquitto_disconnect(f->m);
    mosquitto_loop_stop(f->m, false);
    mosquitto_destroy(f->m);
    free(f);
    return left > 0 ? left : 0;
}

/* app/daemon.c — the recording daemon's main loop. Wiring only: frames from capture/, readings
 * from vision/, moves and flags from ruleguard/, files and feeds from record/.
 *
 * Per guard event, in this order (so "published" always means "on disk"): journal, record files
 * (atomic rewrite), live page, MQTT. On start the journal is read back and replayed the same way,
 * so a restart continues the same record and rebuilds the same live ids. */
#include "app/daemon.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <turbojpeg.h>
#include <unistd.h>

#include "app/daemon_game.h"
#include "capture/capture.h"
#include "record/atomic_file.h"
#include "record/event_backlog.h"
#include "record/journal.h"
#include "record/live.h"
#include "record/mqtt.h"
#include "ruleguard/guard.h"
#include "ruleguard/obs_text.h"
#include "vision/vision.h"

#define MAX_RECORD_FILES 3

struct daemon {
    struct kc_config cfg;
    const char *config_path;
    const struct daemon_game_ops *ops; /* Go or shogi: reader, guard, record */
    struct daemon_game *game;
    struct journal *journal;
    int ply_base; /* moves in the record before this run's guard started (resume) */
    char result[64];
    int flags;
    char last_flag[160];
    char status[200];
    struct live_server *live;
    struct mqtt_feed *mqtt;
    pthread_mutex_t lock; /* the live server's threads read the record and send actions */
    char record_path[MAX_RECORD_FILES][2048], journal_path[2048];
    char snap_dir[2048];
    struct obs_stream_header obs_hdr;
    FILE *obs_log;                 /* observations.obs, when configured */
    const struct frame *cur_frame; /* the frame behind the events being handled, or NULL */
    /* Game time: frame times shifted so that they go on from the journal's last event after a
     * restart (a folder starts at 0 again, a camera's clock restarts with the Pi). */
    int64_t last_event_t, t_shift, game_t;
    bool t_shift_set;
    struct event_backlog held; /* events the journal could not take yet (a full disk) */
    int64_t held_retry_ns;
    uint64_t disk_errors;
    bool journal_refused; /* the last write was refused: the status line says so */
    bool records_refused; /* the last SGF rewrite was refused */
    int unseen[2];        /* points the last stable view could not see, by unseen_kind */
    int stand_unseen[2];  /* settled views in a row a komadai (sente, gote) was out of view */
    bool view_status;     /* the status line says so */
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- the record ---------------------------------------------------------------------------- */

/* Apply one event (already journaled) to the in-memory record. */
static void apply_event(struct daemon *d, const struct guard_event *ev)
{
    if (ev->t_ns > d->last_event_t) d->last_event_t = ev->t_ns;
    if (!d->ops->apply(d->game, ev)) return;
    d->flags++;
    snprintf(d->last_flag, sizeof d->last_flag, "ply %d %s", ev->ply, guard_kind_name(ev->kind));
}

static char *record_text(struct daemon *d, enum live_record_format fmt)
{
    struct daemon_game_info info = {
        d->cfg.black[0] ? d->cfg.black : NULL, d->cfg.white[0] ? d->cfg.white : NULL,
        d->cfg.event[0] ? d->cfg.event : NULL, d->cfg.time_control[0] ? d->cfg.time_control : NULL,
        d->result[0] ? d->result : NULL,
    };
    return d->ops->record(d->game, fmt, &info);
}

static void set_status(struct daemon *d, const char *status);

/* The SGF, rewritten whole. A refusal (a full disk) is said once, on the status line too; the
 * journal still has every event, and the next rewrite after the space is back is complete. */
static void write_records(struct daemon *d)
{
    char msg[512] = "";
    bool ok = true;
    for (int i = 0; i < d->ops->nfiles && ok; i++) {
        char *s = record_text(d, d->ops->files[i].format);
        if (!s) snprintf(msg, sizeof msg, "out of memory writing %s", d->record_path[i]);
        ok = s && !atomic_write_file(d->record_path[i], s, strlen(s), msg, sizeof msg);
        free(s);
    }
    if (!ok) {
        if (!d->records_refused) {
            kc_log(KC_LOG_ERROR, "%s", msg);
            char st[200];
            snprintf(st, sizeof st, "cannot write the record file: %.150s", msg);
            if (!d->journal_refused) set_status(d, st);
        }
        d->records_refused = true;
    } else if (d->records_refused) {
        d->records_refused = false;
        kc_log(KC_LOG_INFO, "%s written again", d->record_path[0]);
        if (!d->journal_refused) set_status(d, "");
    }
}

/* ---- the feeds ----------------------------------------------------------------------------- */

static void publish_state(struct daemon *d)
{
    if (!d->live && !d->mqtt) return;
    struct live_state st = {0};
    st.black.clock_ms = st.white.clock_ms = -1;
    d->ops->state(d->game, &st);
    st.event = d->cfg.event[0] ? d->cfg.event : NULL;
    st.board_name = d->cfg.board_name;
    st.black.name = d->cfg.black[0] ? d->cfg.black : NULL;
    st.white.name = d->cfg.white[0] ? d->cfg.white : NULL;
    st.result = d->result[0] ? d->result : NULL;
    st.status = d->status[0] ? d->status : NULL;
    char *json = live_state_json(&st);
    if (json) {
        if (d->live) live_set_state(d->live, json);
        if (d->mqtt) mqtt_feed_state(d->mqtt, json);
    }
    free(json);
}

static void publish_event(struct daemon *d, const struct guard_event *ev, uint64_t seq)
{
    char *json = live_event_json(ev, seq, d->ops->name, d->ops->height(d->game));
    if (!json) return;
    bool flag = guard_is_flag(ev->kind);
    if (d->live)
        live_publish(d->live,
                     flag                         ? "flag"
                     : ev->kind == GUARD_GAME_END ? "end"
                                                  : "move",
                     json, flag);
    if (d->mqtt) mqtt_feed_event(d->mqtt, flag ? "flag" : "move", json);
    free(json);
}

/* Journal, record, feeds: one event from the guard (ply in the guard's numbering). */
/* The frame behind a move or flag, as SNAP_DIR/SEQ.jpg next to the record. */
static void write_snapshot(struct daemon *d, uint64_t seq)
{
    const struct frame *f = d->cur_frame;
    if (!d->cfg.snapshots || !f || !seq) return;
    tjhandle tj = tjInitCompress();
    if (!tj) return;
    unsigned char *jpeg = NULL;
    unsigned long len = 0;
    bool gray = f->fmt == PIXFMT_GRAY8;
    if (!tjCompress2(tj, f->data, f->width, f->stride, f->height, gray ? TJPF_GRAY : TJPF_BGR,
                     &jpeg, &len, gray ? TJSAMP_GRAY : TJSAMP_420, 85, 0)) {
        char path[2100], msg[512];
        snprintf(path, sizeof path, "%s/%llu.jpg", d->snap_dir, (unsigned long long)seq);
        if (atomic_write_file(path, jpeg, len, msg, sizeof msg))
            kc_log(KC_LOG_WARN, "snapshot: %s", msg);
    } else {
        kc_log(KC_LOG_WARN, "snapshot: %s", tjGetErrorStr2(tj));
    }
    tjFree(jpeg);
    tjDestroy(tj);
}

static void *on_snapshot(void *ctx, uint64_t seq, size_t *len)
{
    struct daemon *d = ctx;
    char path[2100];
    snprintf(path, sizeof path, "%s/%llu.jpg", d->snap_dir, (unsigned long long)seq);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    if (!fseek(f, 0, SEEK_END)) {
        long n = ftell(f);
        if (n > 0 && n < (64L << 20) && !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)n))) {
            if (fread(buf, 1, (size_t)n, f) == (size_t)n) {
                *len = (size_t)n;
            } else {
                free(buf);
                buf = NULL;
            }
        }
    }
    fclose(f);
    return buf;
}

/* One event now on disk as SEQ: into the record, the log, the record files and the feeds. */
static void deliver_event(struct daemon *d, const struct guard_event *ev, uint64_t seq,
                          bool with_snapshot)
{
    apply_event(d, ev);
    if (guard_is_flag(ev->kind))
        kc_log(KC_LOG_WARN, "flag at ply %d: %s: %s", ev->ply, guard_kind_name(ev->kind), ev->text);
    else if (ev->kind == GUARD_MOVE || ev->kind == GUARD_PASS) {
        char name[64];
        d->ops->move_name(d->game, ev, name, sizeof name);
        kc_log(KC_LOG_INFO, "ply %d: %s", d->ops->moves(d->game), name);
    }
    write_records(d);
    if (with_snapshot &&
        (ev->kind == GUARD_MOVE || ev->kind == GUARD_PASS || guard_is_flag(ev->kind)))
        write_snapshot(d, seq);
    publish_event(d, ev, seq);
    publish_state(d);
}

struct deliver_ctx {
    struct daemon *d;
    int fresh_from; /* held events from this index on came with the current frame */
};

static void deliver_held(void *ctx, const struct guard_event *ev, uint64_t seq, int i)
{
    struct deliver_ctx *c = ctx;
    deliver_event(c->d, ev, seq, i >= c->fresh_from);
}

/* Write the held events to the journal, oldest first, and deliver each one written. Stops at
 * the first the journal refuses; the status line (live page, systemd) says why and how many
 * wait. FRESH: how many of the last held events came with the current frame (they get its
 * snapshot; older ones were seen on an earlier frame). */
static void write_held(struct daemon *d, int fresh)
{
    struct deliver_ctx c = {d, d->held.n - fresh};
    struct journal_error je;
    event_backlog_write(&d->held, d->journal, deliver_held, &c, &je);
    if (d->held.n) {
        d->disk_errors++;
        char st[200];
        snprintf(st, sizeof st, "cannot write the record: %.120s; %d events held in memory",
                 je.message, d->held.n);
        if (!d->journal_refused) kc_log(KC_LOG_ERROR, "%s", st);
        d->journal_refused = true;
        set_status(d, st);
    } else if (d->journal_refused) {
        d->journal_refused = false;
        kc_log(KC_LOG_INFO, "the journal takes events again; every held event is written");
        set_status(d, "");
    }
}

/* Events from the guard (ply in the guard's numbering): held, then written in order. */
static void handle_events(struct daemon *d, struct guard_event *ev, int n)
{
    for (int i = 0; i < n; i++) ev[i].ply += d->ply_base;
    if (!event_backlog_push(&d->held, ev, n)) {
        kc_log(KC_LOG_ERROR, "out of memory holding %d events", n);
        return;
    }
    write_held(d, n);
}

static void set_status(struct daemon *d, const char *status)
{
    d->view_status = false; /* note_view sets it again when the line is its own */
    if (!strcmp(d->status, status)) return;
    snprintf(d->status, sizeof d->status, "%s", status);
    publish_state(d);
    char line[256];
    snprintf(line, sizeof line, "STATUS=%s", status[0] ? status : "recording");
    kc_sd_notify(line);
}

/* ---- referee actions from the live page (server thread) ------------------------------------ */

static void log_action(struct daemon *d, const struct referee_action *a);

static int on_action(void *ctx, const struct referee_action *a, char *msg, size_t msglen)
{
    struct daemon *d = ctx;
    pthread_mutex_lock(&d->lock);
    struct journal_error je;
    uint64_t seq = journal_append_action(d->journal, a, &je);
    if (!seq) {
        snprintf(msg, msglen, "%s", je.message);
        pthread_mutex_unlock(&d->lock);
        return -1;
    }
    char *json = live_action_json(a, seq);
    if (json) {
        if (d->live) live_publish(d->live, "action", json, true);
        if (d->mqtt) mqtt_feed_event(d->mqtt, "action", json);
    }
    free(json);
    static struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    log_action(d, a);
    int n = d->ops->action(d->game, a, d->ply_base, ev);
    if (a->kind == REFEREE_ADD_NOTE) d->ops->note(d->game, a->ply, a->text);
    if (a->kind == REFEREE_SET_RESULT) snprintf(d->result, sizeof d->result, "%.63s", a->text);
    kc_log(KC_LOG_INFO, "referee: %s at ply %d %s", referee_action_name(a->kind), a->ply, a->text);
    handle_events(d, ev, n);
    if (!n) {
        write_records(d);
        publish_state(d);
    }
    pthread_mutex_unlock(&d->lock);
    return 0;
}

static char *on_record(void *ctx, enum live_record_format fmt, size_t *len)
{
    struct daemon *d = ctx;
    pthread_mutex_lock(&d->lock);
    char *s = record_text(d, fmt);
    pthread_mutex_unlock(&d->lock);
    if (s) *len = strlen(s);
    return s;
}

/* ---- start-up ------------------------------------------------------------------------------ */

static int mkdir_p(const char *dir)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0755) && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(tmp, 0755) && errno != EEXIST ? -1 : 0;
}

/* "GAME" line: game, size, rules, komi (Go) or start (shogi). A journal of another game is
 * refused. */
static int check_header(struct daemon *d, const struct journal_log *log)
{
    char size[16], rules[64], extra[128];
    d->ops->header(d->game, size, rules, extra);
    for (size_t i = 0; i < log->count; i++) {
        const struct journal_entry *e = &log->entries[i];
        if (strcmp(e->type, "GAME")) continue;
        if (e->nfields < 2 || strcmp(e->fields[0], d->ops->name) || strcmp(e->fields[1], size)) {
            kc_log(KC_LOG_ERROR, "%s holds another game (%s %s); use another --out",
                   d->journal_path, e->nfields > 0 ? e->fields[0] : "?",
                   e->nfields > 1 ? e->fields[1] : "?");
            return -1;
        }
        if (d->ops->extra_must_match && (e->nfields < 4 || strcmp(e->fields[3], extra))) {
            kc_log(KC_LOG_ERROR,
                   "%s holds a game from another start (%s, this one: %s); use "
                   "another --out",
                   d->journal_path, e->nfields > 3 ? e->fields[3] : "?", extra);
            return -1;
        }
        return 0;
    }
    const char *f[] = {d->ops->name, size, rules, extra};
    struct journal_error je;
    if (!journal_append(d->journal, "GAME", 4, f, &je)) {
        kc_log(KC_LOG_ERROR, "%s", je.message);
        return -1;
    }
    return 0;
}

/* Replay the journal into the record and the feeds, in order. */
static int resume(struct daemon *d, const struct journal_log *log)
{
    int events = 0;
    for (size_t i = 0; i < log->count; i++) {
        const struct journal_entry *e = &log->entries[i];
        struct guard_event ev;
        char rule[256];
        struct referee_action a;
        if (journal_decode_event(e, &ev, rule, sizeof rule)) {
            apply_event(d, &ev);
            publish_event(d, &ev, e->seq);
            events++;
        } else if (journal_decode_action(e, &a)) {
            char *json = live_action_json(&a, e->seq);
            if (json && d->live) live_publish(d->live, "action", json, true);
            free(json);
            if (a.kind == REFEREE_ADD_NOTE) d->ops->note(d->game, a.ply, a.text);
            if (a.kind == REFEREE_SET_RESULT)
                snprintf(d->result, sizeof d->result, "%.63s", a.text);
        }
    }
    if (log->damaged) kc_log(KC_LOG_WARN, "journal damaged: %s", log->damage.message);
    /* The guard starts from the record's position. */
    d->ply_base = d->ops->moves(d->game);
    if (d->ply_base) {
        d->ops->resume(d->game);
        kc_log(KC_LOG_INFO, "resumed %d moves from %s (%d events)", d->ply_base, d->journal_path,
               events);
    }
    write_records(d);
    publish_state(d);
    return 0;
}

static int start_network(struct daemon *d, struct daemon_result *res)
{
    char err[256];
    if (d->cfg.serve[0]) {
        char host[128] = "127.0.0.1";
        const char *colon = strrchr(d->cfg.serve, ':');
        const char *port = d->cfg.serve;
        if (colon) {
            if (colon > d->cfg.serve)
                snprintf(host, sizeof host, "%.*s", (int)(colon - d->cfg.serve), d->cfg.serve);
            port = colon + 1;
        }
        char *end;
        long p = strtol(port, &end, 10);
        if (*end || p < 0 || p > 65535) {
            kc_log(KC_LOG_ERROR, "bad --serve address '%s' (HOST:PORT)", d->cfg.serve);
            return -1;
        }
        struct live_config lc = {0};
        lc.bind_addr = host;
        lc.port = (uint16_t)p;
        lc.referee_token = d->cfg.referee_token;
        struct live_callbacks cb = {d, on_record, on_snapshot, on_action};
        d->live = live_server_start(&lc, &cb, err, sizeof err);
        if (!d->live) {
            kc_log(KC_LOG_ERROR, "live page: %s", err);
            return -1;
        }
        res->live_port = live_server_port(d->live);
        kc_log(KC_LOG_INFO, "live page on http://%s:%u/", host, live_server_port(d->live));
    }
    if (d->cfg.mqtt[0]) {
        char host[200] = "127.0.0.1";
        int port = 1883;
        const char *h = d->cfg.mqtt;
        if (!strncmp(h, "mqtt://", 7)) h += 7;
        snprintf(host, sizeof host, "%.199s", h);
        char *c = strrchr(host, ':');
        if (c) {
            *c = '\0';
            port = atoi(c + 1);
        }
        struct mqtt_feed_config mc = {0};
        mc.host = host;
        mc.port = port;
        mc.hall = d->cfg.hall;
        mc.board = d->cfg.board_name;
        d->mqtt = mqtt_feed_open(&mc, err, sizeof err);
        if (!d->mqtt) {
            kc_log(KC_LOG_ERROR, "mqtt: %s", err);
            return -1;
        }
        kc_log(KC_LOG_INFO, "mqtt to %s:%d as kifucam/%s/%s", host, port, d->cfg.hall,
               d->cfg.board_name);
    }
    return 0;
}

static void reload(struct daemon *d)
{
    if (!d->config_path) {
        kc_log(KC_LOG_INFO, "SIGHUP: no configuration file to reload");
        return;
    }
    struct kc_config c = d->cfg;
    char err[512];
    if (kc_config_load(&c, d->config_path, err, sizeof err)) {
        kc_log(KC_LOG_ERROR, "SIGHUP: %s (kept the old settings)", err);
        return;
    }
    /* What can change mid-game: names, event, log level, progress. */
    pthread_mutex_lock(&d->lock);
    memcpy(d->cfg.black, c.black, sizeof c.black);
    memcpy(d->cfg.white, c.white, sizeof c.white);
    memcpy(d->cfg.event, c.event, sizeof c.event);
    d->cfg.log_level = c.log_level;
    d->cfg.progress = c.progress;
    kc_log_set_level(c.log_level);
    write_records(d);
    publish_state(d);
    pthread_mutex_unlock(&d->lock);
    kc_log(KC_LOG_INFO, "SIGHUP: reloaded %s (players, event, log level)", d->config_path);
}

static bool is_finite_source(const char *spec)
{
    const char *s = spec;
    if (!strncmp(s, "faulty:", 7)) s += 7;
    return !strncmp(s, "dir:", 4) || !strncmp(s, "file:", 5);
}

static void free_daemon(struct daemon *d)
{
    if (d->live) live_server_stop(d->live);
    if (d->mqtt) {
        int lost = mqtt_feed_close(d->mqtt, 2000);
        if (lost) kc_log(KC_LOG_WARN, "mqtt: %d messages not acknowledged", lost);
    }
    if (d->journal) journal_close(d->journal);
    if (d->game) d->ops->close(d->game);
    event_backlog_free(&d->held);
    if (d->obs_log) fclose(d->obs_log);
    pthread_mutex_destroy(&d->lock);
}

/* ---- the observation log ------------------------------------------------------------------- */

/* DIR/observations.obs: the stream header when the file is new; after a restart the stream goes
 * on, so the whole file replays the whole game. A log that cannot be written is said once. */
static void open_obs_log(struct daemon *d)
{
    char path[2100];
    snprintf(path, sizeof path, "%s/observations.obs", d->cfg.out_dir);
    d->obs_log = fopen(path, "a");
    if (!d->obs_log) {
        kc_log(KC_LOG_WARN, "%s: cannot write: %s", path, strerror(errno));
        return;
    }
    d->ops->obs_header(d->game, &d->obs_hdr);
    if (ftell(d->obs_log) == 0) {
        char buf[1024];
        obs_text_format_header(&d->obs_hdr, buf, sizeof buf);
        fputs(buf, d->obs_log);
        fflush(d->obs_log);
    }
}

/* One observation as the guard was given it: a settled view (s) with the frames it held and
 * since when each point read so, or a plain one (o); `kifucam check` replays it the same way. */
static void log_observation(struct daemon *d, const struct stable_obs *s,
                            const struct observation *o)
{
    if (!d->obs_log) return;
    static struct obs_item it;
    static char buf[65536];
    it.kind = OBS_ITEM_OBS;
    it.stable = s != NULL;
    it.obs = s ? s->obs : *o;
    if (s) {
        it.frames = s->frames;
        memcpy(it.read_since_ns, s->read_since_ns, sizeof it.read_since_ns);
    }
    size_t n = obs_text_format_item(&d->obs_hdr, &it, buf, sizeof buf);
    if (n < sizeof buf && fputs(buf, d->obs_log) >= 0 && fflush(d->obs_log) == 0) return;
    kc_log(KC_LOG_WARN, "observations.obs: cannot write: %s; no more observations logged",
           strerror(errno));
    fclose(d->obs_log);
    d->obs_log = NULL;
}

/* A referee's accept or take-back changes what the guard makes of later views: the log says it
 * where it came, so that a replay goes the same way. (A confirmed pass, a note and a result are
 * the journal's: the stream format has no ply to name.) */
static void log_action(struct daemon *d, const struct referee_action *a)
{
    if (!d->obs_log || (a->kind != REFEREE_ACCEPT_POSITION && a->kind != REFEREE_TAKE_BACK)) return;
    struct obs_item it = {.kind = OBS_ITEM_REFEREE, .t_ns = a->t_ns};
    it.referee = a->kind == REFEREE_TAKE_BACK ? OBS_REF_TAKEBACK : OBS_REF_ACCEPT;
    char buf[128];
    obs_text_format_item(&d->obs_hdr, &it, buf, sizeof buf);
    fputs(buf, d->obs_log);
    fflush(d->obs_log);
}

/* ---- what the camera sees ------------------------------------------------------------------ */

/* Why part of the board is not seen, as vision says it. */
enum unseen_kind { UNSEEN_OUT_OF_VIEW, UNSEEN_GLARE };

static int unseen_points(const struct observation *o, enum unseen_kind k)
{
    int n = 0;
    for (int y = 0; y < o->h; y++)
        for (int x = 0; x < o->w; x++) {
            int p = y * OBS_MAX + x;
            n += k == UNSEEN_OUT_OF_VIEW ? obs_out_of_view(o, p) : obs_washed_out(o, p);
        }
    return n;
}

/* Settled views in a row a komadai must be out of view before the operator is told. */
#define STAND_UNSEEN_VIEWS 3

/* The status line's view warning goes when the camera sees everything again. */
static void clear_view_status(struct daemon *d)
{
    if (d->view_status && !d->unseen[UNSEEN_OUT_OF_VIEW] && !d->unseen[UNSEEN_GLARE] &&
        d->stand_unseen[0] < STAND_UNSEEN_VIEWS && d->stand_unseen[1] < STAND_UNSEEN_VIEWS)
        set_status(d, "");
}

/* Say when the camera stops seeing the whole board (part of it out of the picture, or washed
 * out by a lamp's glare), how much, and when it sees it all again: a move played there cannot be
 * recorded, so the operator must move the camera or the lamp. Said again only when the share
 * changes by a tenth of the board. */
static int note_unseen(struct daemon *d, const struct observation *o, enum unseen_kind k)
{
    int n = unseen_points(o, k), all = o->w * o->h;
    bool was = d->unseen[k] > 0, now = n > 0;
    if (was == now && abs(n - d->unseen[k]) * 10 < all) return n;
    d->unseen[k] = n;
    if (now) {
        char s[200];
        if (k == UNSEEN_OUT_OF_VIEW)
            snprintf(s, sizeof s,
                     "the camera sees %d%% of the board: %d points out of the picture are not "
                     "recorded",
                     (all - n) * 100 / all, n);
        else
            snprintf(s, sizeof s,
                     "glare washes out %d points of the board: a white stone there cannot be "
                     "seen",
                     n);
        kc_log(KC_LOG_WARN, "%s (move the %s)", s, k == UNSEEN_OUT_OF_VIEW ? "camera" : "lamp");
        if (!d->status[0] || d->view_status) {
            set_status(d, s);
            d->view_status = true;
        }
    } else {
        kc_log(KC_LOG_INFO, "%s",
               k == UNSEEN_OUT_OF_VIEW ? "the camera sees the whole board again"
                                       : "no glare washes the board out now");
        clear_view_status(d);
    }
    return n;
}

/* A komadai out of the picture (or not found beside the board) hides the pieces in hand: a
 * captured piece kept off it (HIDDEN_PIECE) cannot be seen, so the operator is told once, after
 * a few settled views in a row (a stand at the picture's edge may be read on the next), and told
 * again when it is read. A stand under a hand is no such trouble: the hand goes. */
static void note_stands(struct daemon *d, const struct observation *o, struct daemon_result *res)
{
    if (!d->cfg.komadai) return; /* Go's readings leave hands[].view HAND_VIEW_UNKNOWN */
    static const char *const side[2] = {"sente", "gote"};
    for (int c = 0; c < 2; c++) {
        uint8_t v = o->hands[c].view;
        if (v == HAND_VIEW_UNKNOWN || v == HAND_VIEW_COVERED) continue; /* no news */
        if (v == HAND_VIEW_READ) {
            bool was = d->stand_unseen[c] >= STAND_UNSEEN_VIEWS;
            d->stand_unseen[c] = 0;
            if (was) {
                kc_log(KC_LOG_INFO, "%s's komadai is read again", side[c]);
                clear_view_status(d);
            }
            continue;
        }
        res->stand_unseen_views[c]++;
        if (++d->stand_unseen[c] != STAND_UNSEEN_VIEWS) continue;
        res->stand_unseen_warned[c] = true;
        char s[200];
        snprintf(s, sizeof s, "%s's komadai is %s: its pieces in hand are not checked", side[c],
                 v == HAND_VIEW_OUT_OF_VIEW ? "out of the picture" : "not found beside the board");
        kc_log(KC_LOG_WARN, "%s (move the camera)", s);
        if (!d->status[0] || d->view_status) {
            set_status(d, s);
            d->view_status = true;
        }
    }
}

static void note_view(struct daemon *d, const struct observation *o, struct daemon_result *res)
{
    int out = note_unseen(d, o, UNSEEN_OUT_OF_VIEW), glare = note_unseen(d, o, UNSEEN_GLARE);
    if (out > res->out_of_view_max) res->out_of_view_max = out;
    if (glare > res->washed_out_max) res->washed_out_max = glare;
    note_stands(d, o, res);
}

/* ---- the loop ------------------------------------------------------------------------------ */

static void progress(struct daemon *d, const struct daemon_result *r, double fps, bool final)
{
    if (!d->cfg.progress || !isatty(STDERR_FILENO)) return;
    fprintf(stderr, "\rply %d  %.1f fps  frames %llu  flags %d  last flag: %s  %s\033[K%s",
            d->ops->moves(d->game), fps, (unsigned long long)r->frames, d->flags,
            d->last_flag[0] ? d->last_flag : "none", d->status, final ? "\n" : "");
}

int daemon_run(const struct kc_config *cfg, const char *config_path, struct daemon_result *res)
{
    memset(res, 0, sizeof *res);
    static struct daemon dd;
    struct daemon *d = &dd;
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    d->config_path = config_path;
    d->ops = cfg->shogi ? &daemon_shogi_ops : &daemon_go_ops;
    pthread_mutex_init(&d->lock, NULL);
    kc_log_set_level(cfg->log_level);
    char gerr[256];
    d->game = d->ops->open(cfg, gerr, sizeof gerr);
    if (!d->game) {
        kc_log(KC_LOG_ERROR, "%s", gerr);
        free_daemon(d);
        return 1;
    }
    if (mkdir_p(cfg->out_dir)) {
        kc_log(KC_LOG_ERROR, "%s: cannot create: %s", cfg->out_dir, strerror(errno));
        free_daemon(d);
        return 1;
    }
    for (int i = 0; i < d->ops->nfiles && i < MAX_RECORD_FILES; i++)
        snprintf(d->record_path[i], sizeof d->record_path[i], "%.1000s/%s", cfg->out_dir,
                 d->ops->files[i].name);
    snprintf(d->journal_path, sizeof d->journal_path, "%s/game.journal", cfg->out_dir);
    snprintf(d->snap_dir, sizeof d->snap_dir, "%s/snapshots", cfg->out_dir);
    if (cfg->snapshots && mkdir_p(d->snap_dir)) {
        kc_log(KC_LOG_ERROR, "%s: cannot create: %s", d->snap_dir, strerror(errno));
        free_daemon(d);
        return 1;
    }
    if (cfg->observations) open_obs_log(d);
    snprintf(res->sgf_path, sizeof res->sgf_path, "%.1000s", d->record_path[0]);
    snprintf(res->journal_path, sizeof res->journal_path, "%.1000s", d->journal_path);

    /* Signals arrive on a descriptor in the loop, never as handlers. */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    sigset_t old_sigs;
    pthread_sigmask(SIG_BLOCK, &sigs, &old_sigs);
    int sfd = signalfd(-1, &sigs, SFD_CLOEXEC | SFD_NONBLOCK);

    struct journal_log log = {0};
    struct journal_error je;
    d->journal = journal_open(d->journal_path, &log, &je);
    int rc = 1;
    struct frame_source *src = NULL;
    struct settler *settler = NULL;
    if (sfd < 0) {
        kc_log(KC_LOG_ERROR, "cannot start: %s", strerror(errno));
        goto out;
    }
    if (!d->journal) {
        kc_log(KC_LOG_ERROR, "%s", je.message);
        goto out;
    }
    if (check_header(d, &log) || start_network(d, res)) goto out;
    resume(d, &log);
    res->resumed_moves = d->ops->moves(d->game);

    struct source_options so;
    source_options_default(&so);
    so.width = cfg->width;
    so.height = cfg->height;
    so.fps = cfg->fps;
    so.realtime = cfg->realtime;
    so.speed = cfg->speed;
    so.loop = cfg->loop;
    so.fmt = d->ops->colour ? PIXFMT_BGR24 : PIXFMT_GRAY8;
    char err[512];
    src = source_open(cfg->source, &so, err, sizeof err);
    if (!src) {
        kc_log(KC_LOG_ERROR, "%s", err);
        goto out;
    }
    struct settle_params sp;
    settle_params_default(&sp);
    sp.stable_s = cfg->settle_s;
    sp.repeat_s = cfg->repeat_s;
    sp.still_occlusion_s = cfg->still_cover_s;
    if (d->ops->settle_min_conf > 0) sp.min_conf = d->ops->settle_min_conf;
    settler = settle_new(&sp);
    if (!settler) goto out;

    kc_log(KC_LOG_INFO, "recording %s from %s into %s", d->ops->name, cfg->source, cfg->out_dir);
    kc_sd_notify("READY=1\nSTATUS=recording");
    uint64_t wd_usec = kc_sd_watchdog_usec();
    int64_t t0 = now_ns(), last_wd = t0, last_progress = 0, last_frame = t0;
    int64_t prog_t = t0;
    uint64_t prog_frames = 0, last_seq = 0;
    bool have_seq = false, lost = false;
    int backoff = cfg->retry_min_ms, errors_in_row = 0;
    double fps = 0;
    static struct observation obs;
    static struct stable_obs stable;
    static struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    bool running = true;
    while (running) {
        struct pollfd pfd = {sfd, POLLIN, 0};
        int wait_ms = lost && errors_in_row ? backoff : 0;
        if (poll(&pfd, 1, wait_ms) > 0) {
            struct signalfd_siginfo si;
            while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
                if (si.ssi_signo == SIGHUP) {
                    reload(d);
                } else {
                    kc_log(KC_LOG_INFO, "%s: finishing the record", strsignal((int)si.ssi_signo));
                    res->interrupted = true;
                    running = false;
                }
            }
            if (!running) break;
        }
        int64_t t = now_ns();
        if (wd_usec && (t - last_wd) / 1000 > (int64_t)wd_usec / 2) {
            kc_sd_notify("WATCHDOG=1");
            last_wd = t;
        }
        if (t - last_progress > 500000000) {
            double dt = (double)(t - prog_t) / 1e9;
            if (dt > 0) fps = (double)(res->frames - prog_frames) / dt;
            prog_t = t;
            prog_frames = res->frames;
            progress(d, res, fps, false);
            last_progress = t;
        }
        struct frame fr;
        int64_t ta = now_ns();
        enum source_status st = source_next(src, &fr, 200);
        int64_t tb = now_ns();
        res->stage_ms[0] += (double)(tb - ta) / 1e6;
        if (st == SOURCE_END) break;
        if (st == SOURCE_TIMEOUT) {
            if (!lost && tb - last_frame > 3000000000LL) {
                lost = true;
                kc_log(KC_LOG_WARN, "camera: no frames for 3 s; waiting");
                pthread_mutex_lock(&d->lock);
                set_status(d, "camera lost: no frames");
                pthread_mutex_unlock(&d->lock);
            }
            continue;
        }
        if (st == SOURCE_ERROR) {
            res->source_errors++;
            errors_in_row++;
            if (!lost) {
                lost = true;
                backoff = cfg->retry_min_ms;
                kc_log(KC_LOG_WARN, "camera failed: %s; retrying", source_error(src));
                char s[200];
                snprintf(s, sizeof s, "camera lost: %.180s", source_error(src));
                pthread_mutex_lock(&d->lock);
                set_status(d, s);
                pthread_mutex_unlock(&d->lock);
            } else {
                kc_log(KC_LOG_DEBUG, "camera still failing (%d): %s", errors_in_row,
                       source_error(src));
                backoff = backoff * 2 > cfg->retry_max_ms ? cfg->retry_max_ms : backoff * 2;
            }
            /* A live camera that keeps failing is reopened; files and folders move on. */
            if (errors_in_row % 5 == 0 && !is_finite_source(cfg->source)) {
                source_close(src);
                src = source_open(cfg->source, &so, err, sizeof err);
                res->reconnects++;
                if (!src) {
                    kc_log(KC_LOG_WARN, "%s", err);
                    /* keep trying: poll a closed source as an error below */
                    while (running && !src) {
                        struct pollfd p2 = {sfd, POLLIN, 0};
                        if (poll(&p2, 1, backoff) > 0) break; /* a signal: the loop reads it */
                        src = source_open(cfg->source, &so, err, sizeof err);
                    }
                    if (!src) src = source_open(cfg->source, &so, err, sizeof err);
                    if (!src) {
                        res->interrupted = true;
                        break;
                    }
                }
            }
            continue;
        }
        /* A frame. */
        last_frame = tb;
        errors_in_row = 0;
        if (lost) {
            lost = false;
            kc_log(KC_LOG_INFO, "camera back (frame %llu); the game goes on",
                   (unsigned long long)fr.seq);
            pthread_mutex_lock(&d->lock);
            set_status(d, "");
            pthread_mutex_unlock(&d->lock);
        }
        if (have_seq && fr.seq > last_seq + 1) res->frames_dropped += fr.seq - last_seq - 1;
        last_seq = fr.seq;
        have_seq = true;
        res->frames++;
        if (d->held.n && tb - d->held_retry_ns > 1000000000LL) { /* a disk that had no room */
            d->held_retry_ns = tb;
            pthread_mutex_lock(&d->lock);
            write_held(d, 0);
            pthread_mutex_unlock(&d->lock);
        }
        if (!d->t_shift_set) {
            /* a frame interval after the last event, when the source's clock starts again */
            int64_t gap = cfg->fps > 0 ? (int64_t)(1e9 / cfg->fps) : 33333333;
            d->t_shift = fr.t_ns <= d->last_event_t ? d->last_event_t + gap - fr.t_ns : 0;
            d->t_shift_set = true;
        }
        d->game_t = fr.t_ns + d->t_shift;
        struct vision_image img = {
            fr.width, fr.height, fr.stride, fr.fmt == PIXFMT_BGR24 ? VISION_BGR24 : VISION_GRAY8,
            fr.data,  d->game_t, fr.seq};
        d->ops->read(d->game, &img, &obs);
        int64_t tc = now_ns();
        res->stage_ms[1] += (double)(tc - tb) / 1e6;
        if (settle_push(settler, &obs, &stable)) {
            pthread_mutex_lock(&d->lock);
            int n = d->ops->settled(d->game, &img, &stable, ev);
            log_observation(d, &stable, NULL);
            note_view(d, &stable.obs, res);
            int64_t td = now_ns();
            res->stage_ms[2] += (double)(td - tc) / 1e6;
            d->cur_frame = &fr;
            handle_events(d, ev, n);
            d->cur_frame = NULL;
            res->stage_ms[3] += (double)(now_ns() - td) / 1e6;
            pthread_mutex_unlock(&d->lock);
        } else {
            res->stage_ms[2] += (double)(now_ns() - tc) / 1e6;
        }
    }
    /* Finish: the view the last frames held is settled, whatever the cover's stillness (no hand
     * comes after the end); the last view counts as evidence even if it had no time to settle,
     * and changes seen but not confirmed are judged now. */
    pthread_mutex_lock(&d->lock);
    if (res->frames && !res->interrupted && d->ops->end_settle && settle_finish(settler, &stable)) {
        int n = d->ops->settled(d->game, NULL, &stable, ev);
        log_observation(d, &stable, NULL);
        note_view(d, &stable.obs, res);
        handle_events(d, ev, n);
    }
    if (res->frames && obs.board_found && !res->interrupted) {
        int n = d->ops->last_view(d->game, &obs, ev);
        log_observation(d, NULL, &obs);
        handle_events(d, ev, n);
    }
    /* Stopped by a signal, the game is not over: what is not confirmed yet is seen again after
     * the restart rather than guessed now. */
    if (!res->interrupted) handle_events(d, ev, d->ops->flush(d->game, d->game_t, ev));
    if (d->held.n) write_held(d, 0);
    if (d->held.n) {
        /* The last place left: the log names every event the disk never took. */
        kc_log(KC_LOG_ERROR, "%d events could not be written to %s:", d->held.n, d->journal_path);
        for (int i = 0; i < d->held.n; i++)
            kc_log(KC_LOG_ERROR, "  not on disk: ply %d %s: %s", d->held.ev[i].ply,
                   guard_kind_name(d->held.ev[i].kind), d->held.ev[i].text);
    }
    res->unwritten = d->held.n;
    res->disk_errors = d->disk_errors;
    if (!d->held.n) set_status(d, res->interrupted ? "stopped" : "source ended");
    write_records(d);
    pthread_mutex_unlock(&d->lock);
    kc_sd_notify("STOPPING=1");
    res->seconds = (double)(now_ns() - t0) / 1e9;
    res->fps = res->seconds > 0 ? (double)res->frames / res->seconds : 0;
    progress(d, res, res->fps, true);
    kc_log(KC_LOG_INFO, "record: %d moves, %d flags in %s (%llu frames, %.1f fps, %llu dropped)",
           d->ops->moves(d->game), d->flags, d->record_path[0], (unsigned long long)res->frames,
           res->fps, (unsigned long long)res->frames_dropped);
    rc = 0;
out:
    journal_log_free(&log);
    if (src) source_close(src);
    settle_free(settler);
    res->moves = d->game ? d->ops->moves(d->game) : 0;
    res->flags = d->flags;
    res->move = NULL;
    if (d->game) d->ops->result(d->game, res);
    free_daemon(d);
    if (sfd >= 0) close(sfd);
    pthread_sigmask(SIG_SETMASK, &old_sigs, NULL);
    return rc;
}

/* record/live_server.c — the HTTP side of the live feed (routes and limits in record/live.h). */
#include "record/live.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The page, compiled in by record/live_embed.py (record/meson.build). */
extern const unsigned char live_page_html[], live_page_js[], live_page_css[];
extern const size_t live_page_html_len, live_page_js_len, live_page_css_len;
/* The hall page (every board of a hall, over MQTT/WebSocket: docs/hall.md), served here too. */
extern const unsigned char hall_page_html[], hall_page_js[], hall_page_css[];
extern const size_t hall_page_html_len, hall_page_js_len, hall_page_css_len;

#define MAX_BODY        4096
#define DISCARD_LIMIT   (64 * 1024)
#define MEMORY_LIMIT    (16 * 1024)
#define CONN_TIMEOUT_S  60
#define DEFAULT_HISTORY 100000

struct logged_event {
    uint64_t id;
    char *event;
    char *json;
    bool referee_only;
};

struct live_server {
    struct MHD_Daemon *mhd;
    struct live_callbacks cb;
    char *token;
    unsigned keepalive_ms;
    uint16_t port;

    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool stopping;
    uint64_t next_id;
    struct logged_event *log;
    size_t count, cap, limit;
    char *state_json;
    uint64_t state_id;
};

/* ---- publishing ----------------------------------------------------------------------------- */

static void drop_oldest(struct live_server *s, size_t n)
{
    if (n == 0) return;
    for (size_t i = 0; i < n; i++) {
        free(s->log[i].event);
        free(s->log[i].json);
    }
    memmove(s->log, s->log + n, (s->count - n) * sizeof *s->log);
    s->count -= n;
}

uint64_t live_publish(struct live_server *s, const char *event, const char *json, bool referee_only)
{
    if (!event || !json || strpbrk(event, "\r\n") || strpbrk(json, "\r\n")) return 0;
    char *e = strdup(event), *j = strdup(json);
    if (!e || !j) {
        free(e);
        free(j);
        return 0;
    }
    pthread_mutex_lock(&s->lock);
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        struct logged_event *nl = realloc(s->log, cap * sizeof *nl);
        if (!nl) {
            pthread_mutex_unlock(&s->lock);
            free(e);
            free(j);
            return 0;
        }
        s->log = nl;
        s->cap = cap;
    }
    uint64_t id = ++s->next_id;
    s->log[s->count++] = (struct logged_event){id, e, j, referee_only};
    if (s->count > s->limit) drop_oldest(s, s->count - s->limit);
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    return id;
}

uint64_t live_set_state(struct live_server *s, const char *json)
{
    if (!json || strpbrk(json, "\r\n")) return 0;
    char *j = strdup(json);
    if (!j) return 0;
    pthread_mutex_lock(&s->lock);
    free(s->state_json);
    s->state_json = j;
    uint64_t id = s->state_id = ++s->next_id;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    return id;
}

void live_set_history_limit(struct live_server *s, size_t n)
{
    pthread_mutex_lock(&s->lock);
    s->limit = n ? n : 1;
    if (s->count > s->limit) drop_oldest(s, s->count - s->limit);
    pthread_mutex_unlock(&s->lock);
}

/* ---- the SSE stream ------------------------------------------------------------------------- */

struct sse_conn {
    struct live_server *s;
    bool referee;
    uint64_t last;       /* the newest event id this client has seen or skipped */
    uint64_t state_sent; /* the id of the state it was sent last */
    char *out;
    size_t len, off, cap;
};

static bool out_append(struct sse_conn *c, const char *p, size_t n)
{
    if (c->len + n > c->cap) {
        size_t cap = c->cap ? c->cap : 4096;
        while (cap < c->len + n) cap *= 2;
        char *no = realloc(c->out, cap);
        if (!no) return false;
        c->out = no;
        c->cap = cap;
    }
    memcpy(c->out + c->len, p, n);
    c->len += n;
    return true;
}

static bool out_event(struct sse_conn *c, uint64_t id, const char *event, const char *json)
{
    char head[96];
    int n = snprintf(head, sizeof head, "id: %" PRIu64 "\nevent: %s\ndata: ", id, event);
    if (n < 0 || (size_t)n >= sizeof head) return false;
    return out_append(c, head, (size_t)n) && out_append(c, json, strlen(json)) &&
           out_append(c, "\n\n", 2);
}

/* Queue what this client has not seen yet (under the lock); false when there is nothing. */
static bool fill_from_log(struct sse_conn *c)
{
    struct live_server *s = c->s;
    size_t before = c->len;
    /* The log is sorted by id: find the first event after c->last. */
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->log[mid].id <= c->last)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < s->count; i++) {
        const struct logged_event *e = &s->log[i];
        if (!e->referee_only || c->referee) out_event(c, e->id, e->event, e->json);
        c->last = e->id;
    }
    if (s->state_json && s->state_id != c->state_sent) {
        /* The newest snapshot last, under the newest id, so a reconnect resumes after it. */
        uint64_t id = s->state_id > c->last ? s->state_id : c->last;
        out_event(c, id, "state", s->state_json);
        c->state_sent = s->state_id;
        c->last = id;
    }
    return c->len > before;
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    struct sse_conn *c = cls;
    struct live_server *s = c->s;
    if (c->off == c->len) {
        c->off = c->len = 0;
        pthread_mutex_lock(&s->lock);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += c->s->keepalive_ms / 1000;
        until.tv_nsec += (long)(c->s->keepalive_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        bool got = false;
        while (!s->stopping && !(got = fill_from_log(c)))
            if (pthread_cond_timedwait(&s->changed, &s->lock, &until) == ETIMEDOUT) break;
        bool stopping = s->stopping;
        pthread_mutex_unlock(&s->lock);
        if (stopping) return MHD_CONTENT_READER_END_OF_STREAM;
        if (!got) out_append(c, ": keepalive\n\n", 13); /* keeps proxies and the timeout at bay */
        if (c->len == 0) return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    size_t n = c->len - c->off < max ? c->len - c->off : max;
    memcpy(buf, c->out + c->off, n);
    c->off += n;
    return (ssize_t)n;
}

static void sse_free(void *cls)
{
    struct sse_conn *c = cls;
    free(c->out);
    free(c);
}

/* ---- requests ------------------------------------------------------------------------------- */

struct request {
    char body[MAX_BODY + 1];
    size_t len;
    size_t discarded;
    bool too_big;
};

static void secure_headers(struct MHD_Response *r)
{
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; frame-ancestors *");
}

static enum MHD_Result send_bytes(struct MHD_Connection *conn, unsigned status, const char *ctype,
                                  const void *data, size_t len, enum MHD_ResponseMemoryMode mode,
                                  bool no_store)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)data, mode);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, "Content-Type", ctype);
    if (no_store) MHD_add_response_header(r, "Cache-Control", "no-store");
    secure_headers(r);
    enum MHD_Result ret = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return ret;
}

/* The hall page talks to the broker's WebSocket listener (another port, maybe another host), which
 * the page's own policy must allow: connect-src is the only difference from secure_headers. */
static enum MHD_Result send_hall(struct MHD_Connection *conn, const char *ctype,
                                 const unsigned char *data, size_t len)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_PERSISTENT);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, "Content-Type", ctype);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; connect-src 'self' ws: wss:; "
                            "img-src 'self' data:; frame-ancestors *");
    enum MHD_Result ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_text(struct MHD_Connection *conn, unsigned status, const char *text)
{
    return send_bytes(conn, status, "text/plain; charset=utf-8", text, strlen(text),
                      MHD_RESPMEM_MUST_COPY, true);
}

static enum MHD_Result send_json_msg(struct MHD_Connection *conn, unsigned status, bool ok,
                                     const char *msg)
{
    char buf[700];
    char clean[400];
    size_t n = 0;
    for (const char *p = msg; *p && n + 2 < sizeof clean; p++)
        if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20) clean[n++] = *p;
    clean[n] = '\0';
    snprintf(buf, sizeof buf, "{\"ok\":%s,\"message\":\"%s\"}", ok ? "true" : "false", clean);
    return send_bytes(conn, status, "application/json", buf, strlen(buf), MHD_RESPMEM_MUST_COPY,
                      true);
}

static bool referee_ok(struct live_server *s, struct MHD_Connection *conn, const char *form,
                       size_t form_len)
{
    const char *t = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "token");
    if (!t) t = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Kifucam-Token");
    char body_token[256];
    if (!t && form && live_form_value(form, form_len, "token", body_token, sizeof body_token) >= 0)
        t = body_token;
    return live_token_equal(s->token, t);
}

static enum MHD_Result serve_events(struct live_server *s, struct MHD_Connection *conn,
                                    bool referee)
{
    struct sse_conn *c = calloc(1, sizeof *c);
    if (!c) return MHD_NO;
    c->s = s;
    c->referee = referee;
    const char *last = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Last-Event-ID");
    if (last) {
        char *end;
        unsigned long long v = strtoull(last, &end, 10);
        if (end != last && *end == '\0') c->last = v;
    }
    /* Browsers reconnect after 3 s by default; ask for 1 s. */
    out_append(c, "retry: 1000\n\n", 13);
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read, c, sse_free);
    if (!r) {
        sse_free(c);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream; charset=utf-8");
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    secure_headers(r);
    enum MHD_Result ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result serve_record(struct live_server *s, struct MHD_Connection *conn,
                                    enum live_record_format fmt)
{
    static const char *const names[] = {"game.sgf", "game.kif", "game.csa"};
    size_t len = 0;
    char *data = s->cb.record ? s->cb.record(s->cb.ctx, fmt, &len) : NULL;
    if (!data) return send_text(conn, MHD_HTTP_NOT_FOUND, "no record in this format\n");
    struct MHD_Response *r = MHD_create_response_from_buffer(len, data, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(data);
        return MHD_NO;
    }
    /* KIF as the caller made it (.kif is Shift-JIS by convention; UTF-8 callers say so). */
    MHD_add_response_header(r, "Content-Type",
                            fmt == LIVE_RECORD_SGF ? "application/x-go-sgf; charset=utf-8"
                                                   : "text/plain");
    char disp[64];
    snprintf(disp, sizeof disp, "inline; filename=\"%s\"", names[fmt]);
    MHD_add_response_header(r, "Content-Disposition", disp);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    secure_headers(r);
    enum MHD_Result ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result serve_snapshot(struct live_server *s, struct MHD_Connection *conn)
{
    const char *q = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "seq");
    char *end;
    unsigned long long seq = q ? strtoull(q, &end, 10) : 0;
    if (!q || end == q || *end) return send_text(conn, MHD_HTTP_BAD_REQUEST, "seq=N expected\n");
    size_t len = 0;
    void *jpeg = s->cb.snapshot ? s->cb.snapshot(s->cb.ctx, seq, &len) : NULL;
    if (!jpeg) return send_text(conn, MHD_HTTP_NOT_FOUND, "no snapshot\n");
    struct MHD_Response *r = MHD_create_response_from_buffer(len, jpeg, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(jpeg);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", "image/jpeg");
    MHD_add_response_header(r, "Cache-Control", "private, max-age=3600");
    secure_headers(r);
    enum MHD_Result ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result serve_action(struct live_server *s, struct MHD_Connection *conn,
                                    struct request *rq)
{
    if (!referee_ok(s, conn, rq->body, rq->len))
        return send_json_msg(conn, MHD_HTTP_FORBIDDEN, false, "wrong or missing referee token");
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct referee_action a;
    char msg[256];
    if (!live_parse_action(rq->body, rq->len, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec, &a,
                           msg, sizeof msg))
        return send_json_msg(conn, MHD_HTTP_BAD_REQUEST, false, msg);
    msg[0] = '\0';
    if (!s->cb.action)
        return send_json_msg(conn, MHD_HTTP_SERVICE_UNAVAILABLE, false, "no referee actions");
    if (s->cb.action(s->cb.ctx, &a, msg, sizeof msg) != 0)
        return send_json_msg(conn, MHD_HTTP_CONFLICT, false, msg[0] ? msg : "refused");
    return send_json_msg(conn, MHD_HTTP_OK, true, referee_action_name(a.kind));
}

static enum MHD_Result serve_get(struct live_server *s, struct MHD_Connection *conn,
                                 const char *url)
{
    if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0)
        return send_bytes(conn, MHD_HTTP_OK, "text/html; charset=utf-8", live_page_html,
                          live_page_html_len, MHD_RESPMEM_PERSISTENT, false);
    if (strcmp(url, "/live.js") == 0)
        return send_bytes(conn, MHD_HTTP_OK, "text/javascript; charset=utf-8", live_page_js,
                          live_page_js_len, MHD_RESPMEM_PERSISTENT, false);
    if (strcmp(url, "/live.css") == 0)
        return send_bytes(conn, MHD_HTTP_OK, "text/css; charset=utf-8", live_page_css,
                          live_page_css_len, MHD_RESPMEM_PERSISTENT, false);
    if (strcmp(url, "/hall") == 0)
        return send_hall(conn, "text/html; charset=utf-8", hall_page_html, hall_page_html_len);
    if (strcmp(url, "/hall.js") == 0)
        return send_hall(conn, "text/javascript; charset=utf-8", hall_page_js, hall_page_js_len);
    if (strcmp(url, "/hall.css") == 0)
        return send_hall(conn, "text/css; charset=utf-8", hall_page_css, hall_page_css_len);
    if (strcmp(url, "/events") == 0) return serve_events(s, conn, false);
    if (strcmp(url, "/state.json") == 0) {
        pthread_mutex_lock(&s->lock);
        char *j = strdup(s->state_json ? s->state_json : "{}");
        pthread_mutex_unlock(&s->lock);
        if (!j) return MHD_NO;
        return send_bytes(conn, MHD_HTTP_OK, "application/json", j, strlen(j),
                          MHD_RESPMEM_MUST_FREE, true);
    }
    if (strcmp(url, "/record.sgf") == 0) return serve_record(s, conn, LIVE_RECORD_SGF);
    if (strcmp(url, "/record.kif") == 0) return serve_record(s, conn, LIVE_RECORD_KIF);
    if (strcmp(url, "/record.csa") == 0) return serve_record(s, conn, LIVE_RECORD_CSA);
    if (strcmp(url, "/referee") == 0 || strcmp(url, "/referee/events") == 0 ||
        strcmp(url, "/referee/snapshot") == 0) {
        if (!referee_ok(s, conn, NULL, 0))
            return send_text(conn, MHD_HTTP_FORBIDDEN, "wrong or missing referee token\n");
        if (strcmp(url, "/referee") == 0)
            return send_bytes(conn, MHD_HTTP_OK, "text/html; charset=utf-8", live_page_html,
                              live_page_html_len, MHD_RESPMEM_PERSISTENT, true);
        if (strcmp(url, "/referee/events") == 0) return serve_events(s, conn, true);
        return serve_snapshot(s, conn);
    }
    return send_text(conn, MHD_HTTP_NOT_FOUND, "not found\n");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **req_cls)
{
    (void)version;
    struct live_server *s = cls;
    bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
    if (!*req_cls) {
        /* First call: only the headers are in. Refuse what we will not read before the body. */
        struct request *rq = calloc(1, sizeof *rq);
        if (!rq) return MHD_NO;
        *req_cls = rq;
        if (post) {
            const char *cl =
                MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
            if (cl && strtoull(cl, NULL, 10) > MAX_BODY) {
                rq->too_big = true;
                rq->len = SIZE_MAX; /* answered already */
                return send_text(conn, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large\n");
            }
        }
        return MHD_YES;
    }
    struct request *rq = *req_cls;
    if (rq->too_big && rq->len == SIZE_MAX)
        return MHD_YES; /* the 413 is queued; libmicrohttpd closes after sending it */
    if (*upload_size) {
        /* libmicrohttpd cannot answer in the middle of a body: drop the rest of one that is too
         * big and answer 413 at its end; past DISCARD_LIMIT, just close. */
        if (rq->too_big || rq->len + *upload_size > MAX_BODY) {
            rq->discarded += *upload_size;
            rq->too_big = true;
            *upload_size = 0;
            return rq->discarded > DISCARD_LIMIT ? MHD_NO : MHD_YES;
        }
        memcpy(rq->body + rq->len, upload, *upload_size);
        rq->len += *upload_size;
        *upload_size = 0;
        return MHD_YES;
    }
    if (rq->too_big) return send_text(conn, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large\n");
    rq->body[rq->len] = '\0';

    if (strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0) {
        if (rq->len) return send_text(conn, MHD_HTTP_BAD_REQUEST, "GET with a body\n");
        return serve_get(s, conn, url);
    }
    if (post && strcmp(url, "/referee/action") == 0) return serve_action(s, conn, rq);
    return send_text(conn, post ? MHD_HTTP_NOT_FOUND : MHD_HTTP_METHOD_NOT_ALLOWED,
                     post ? "not found\n" : "method not allowed\n");
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
                         enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)conn;
    (void)toe;
    free(*req_cls);
    *req_cls = NULL;
}

/* Percent-decoding of paths and query values, in place, as libmicrohttpd's own except that %00
 * stays as it is: a NUL would cut "/live.js%00.html" short to a route that was not asked for. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    static const char hex[] = "0123456789abcdef0123456789ABCDEF";
    char *w = s;
    for (const char *r = s; *r; r++) {
        const char *hi, *lo;
        if (r[0] == '%' && r[1] && r[2] && (hi = strchr(hex, r[1])) && (lo = strchr(hex, r[2]))) {
            int v = (int)((hi - hex) % 16) << 4 | (int)((lo - hex) % 16);
            if (v != 0) {
                *w++ = (char)v;
                r += 2;
                continue;
            }
        }
        *w++ = *r;
    }
    *w = '\0';
    return (size_t)(w - s);
}

/* ---- start and stop ------------------------------------------------------------------------- */

struct live_server *live_server_start(const struct live_config *cfg,
                                      const struct live_callbacks *cb, char *err, size_t errlen)
{
    struct live_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (cb) s->cb = *cb;
    s->token = strdup(cfg->referee_token ? cfg->referee_token : "");
    s->keepalive_ms = cfg->keepalive_ms ? cfg->keepalive_ms : 15000;
    s->limit = DEFAULT_HISTORY;
    pthread_mutex_init(&s->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_cond_init(&s->changed, &ca); /* CLOCK_REALTIME, as sse_read computes its deadline */
    pthread_condattr_destroy(&ca);

    const char *addr = cfg->bind_addr ? cfg->bind_addr : "127.0.0.1";
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    unsigned flags =
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
    if (inet_pton(AF_INET, addr, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(cfg->port);
    } else if (inet_pton(AF_INET6, addr, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(cfg->port);
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(err, errlen, "live page: bad listen address '%s' (want an IP address)", addr);
        live_server_stop(s);
        return NULL;
    }
    unsigned max_conn = cfg->max_connections ? cfg->max_connections : 32;
    s->mhd = MHD_start_daemon(
        flags, cfg->port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
        MHD_OPTION_CONNECTION_LIMIT, max_conn, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        max_conn < 8 ? max_conn : 8u, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MEMORY_LIMIT,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)CONN_TIMEOUT_S, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, s, MHD_OPTION_UNESCAPE_CALLBACK, unescape, s, MHD_OPTION_END);
    if (!s->mhd) {
        snprintf(err, errlen, "live page: cannot listen on %s port %u (in use, or no permission)",
                 addr, cfg->port);
        live_server_stop(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : cfg->port;
    return s;
}

uint16_t live_server_port(const struct live_server *s)
{
    return s->port;
}

void live_server_stop(struct live_server *s)
{
    if (!s) return;
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&s->lock);
    if (s->mhd) MHD_stop_daemon(s->mhd);
    drop_oldest(s, s->count);
    free(s->log);
    free(s->state_json);
    free(s->token);
    pthread_cond_destroy(&s->changed);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

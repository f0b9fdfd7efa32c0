/* tests/live/test_live_http.c — the live page's HTTP server on loopback, driven by a raw-socket
 * client: pages and records, SSE order and Last-Event-ID replay, the referee token, referee actions
 * into a real journal, size limits, paths that try to escape, methods. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record/journal.h"
#include "record/live.h"
#include "tests/live/http_client.h"
#include "tests/live/live_testutil.h"
#include "tests/testutil.h"

#define TOKEN "s3cret-token"

struct fixture {
    struct live_server *srv;
    int port;
    char *dir;
    struct journal *journal;
    int actions;
    struct referee_action last_action;
    uint64_t published; /* journal seq of the last move published */
};

static char *record_cb(void *ctx, enum live_record_format fmt, size_t *len)
{
    (void)ctx;
    if (fmt != LIVE_RECORD_SGF) return NULL;
    char *s = strdup("(;GM[1]FF[4]SZ[19];B[pd];W[dp])\n");
    *len = strlen(s);
    return s;
}

static void *snapshot_cb(void *ctx, uint64_t seq, size_t *len)
{
    (void)ctx;
    if (seq != 7) return NULL;
    unsigned char *j = malloc(4);
    memcpy(j, "\xff\xd8\xff\xd9", 4);
    *len = 4;
    return j;
}

/* What the daemon will do: journal the action, then tell the feed. */
static int action_cb(void *ctx, const struct referee_action *a, char *msg, size_t msglen)
{
    struct fixture *f = ctx;
    if (a->kind == REFEREE_TAKE_BACK && a->ply == 0) {
        snprintf(msg, msglen, "nothing to take back");
        return -1;
    }
    struct journal_error err;
    uint64_t seq = journal_append_action(f->journal, a, &err);
    if (!seq) {
        snprintf(msg, msglen, "%s", err.message);
        return -1;
    }
    f->actions++;
    f->last_action = *a;
    char *j = live_action_json(a, seq);
    live_publish(f->srv, "action", j, true);
    free(j);
    return 0;
}

/* Move n as the daemon publishes it: the event, then the state it leads to. */
static void publish_move(struct fixture *f, int n)
{
    struct guard_event ev = {0};
    ev.kind = n % 4 == 3 ? GUARD_ILLEGAL_MOVE : GUARD_MOVE;
    ev.ply = n;
    ev.t_ns = (int64_t)n * 1000000000;
    ev.move.color = n % 2 ? GO_BLACK : GO_WHITE;
    ev.move.point = go_point(n % 19, (n * 3) % 19);
    ev.frame_seq = (uint64_t)n * 10;
    if (ev.kind == GUARD_ILLEGAL_MOVE) {
        ev.rule_ref = "Chinese 1988 §5 (ko)";
        snprintf(ev.text, sizeof ev.text, "retakes the ko <at once>");
    }
    char *j = live_event_json(&ev, (uint64_t)n, "go", 19);
    assert_non_null(j);
    bool flag = guard_is_flag(ev.kind);
    assert_true(live_publish(f->srv, flag ? "flag" : "move", j, flag) > 0);
    free(j);
    char board[19 * 19 + 1];
    memset(board, '.', 19 * 19);
    board[19 * 19] = '\0';
    board[3 * 19 + 3] = 'X';
    const char *moves[] = {"Q16", "D4"};
    struct live_state st = {.game = "go",
                            .event = "Test Cup",
                            .board_name = "Board 1",
                            .width = 19,
                            .height = 19,
                            .board = board,
                            .ply = n,
                            .last_x = 3,
                            .last_y = 3,
                            .black = {"Kuroda", 600000, 2},
                            .white = {"Shirai", -1, 1},
                            .moves = moves,
                            .n_moves = 2,
                            .to_move = "white"};
    char *s = live_state_json(&st);
    assert_non_null(s);
    assert_true(live_set_state(f->srv, s) > 0);
    free(s);
    f->published = (uint64_t)n;
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    f->dir = lt_mkdtemp("live");
    char *path = lt_join(f->dir, "game.journal");
    struct journal_log log;
    struct journal_error jerr;
    f->journal = journal_open(path, &log, &jerr);
    free(path);
    assert_non_null(f->journal);
    journal_log_free(&log);
    struct live_config cfg = {
        .bind_addr = "127.0.0.1", .referee_token = TOKEN, .keepalive_ms = 300};
    struct live_callbacks cb = {f, record_cb, snapshot_cb, action_cb};
    char err[256];
    f->srv = live_server_start(&cfg, &cb, err, sizeof err);
    if (!f->srv) fail_msg("%s", err);
    f->port = live_server_port(f->srv);
    assert_true(f->port > 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    live_server_stop(f->srv);
    journal_close(f->journal);
    lt_rmtree(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

/* The SSE events in a stream body, as "id/event/seq" triples for checking order. */
struct sse_ev {
    unsigned long long id;
    char event[16];
    long seq; /* the "seq" in data, -1 if none */
    long ply; /* the "ply" in data, -1 if none */
};
static int parse_sse(const char *body, struct sse_ev *out, int max)
{
    int n = 0;
    const char *p = body;
    while (n < max && (p = strstr(p, "id: "))) {
        struct sse_ev e = {0, "", -1, -1};
        e.id = strtoull(p + 4, NULL, 10);
        const char *ev = strstr(p, "\nevent: ");
        const char *data = strstr(p, "\ndata: ");
        if (!ev || !data) break;
        sscanf(ev + 8, "%15[^\n]", e.event);
        const char *eol = strchr(data + 1, '\n');
        const char *s = strstr(data, "\"seq\":");
        if (s && (!eol || s < eol)) e.seq = strtol(s + 6, NULL, 10);
        const char *pl = strstr(data, "\"ply\":");
        if (pl && (!eol || pl < eol)) e.ply = strtol(pl + 6, NULL, 10);
        out[n++] = e;
        p = data;
    }
    return n;
}

static void test_page_state_and_record(void **state)
{
    struct fixture *f = *state;
    publish_move(f, 1);
    struct http_reply r;
    char h[512];
    assert_int_equal(http_get(f->port, "/", NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "<svg id=\"board\""));
    assert_non_null(http_header(&r, "Content-Security-Policy", h, sizeof h));
    assert_non_null(strstr(h, "default-src 'self'"));
    http_reply_free(&r);
    assert_int_equal(http_get(f->port, "/live.js", NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "new EventSource"));
    http_reply_free(&r);
    assert_int_equal(http_get(f->port, "/live.css", NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(http_header(&r, "Content-Type", h, sizeof h), "text/css; charset=utf-8");
    http_reply_free(&r);

    assert_int_equal(http_get(f->port, "/state.json", NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\"game\":\"go\""));
    assert_non_null(strstr(r.body, "\"black\":{\"name\":\"Kuroda\",\"clock_ms\":600000,"
                                   "\"prisoners\":2}"));
    assert_non_null(strstr(r.body, "\"white\":{\"name\":\"Shirai\",\"clock_ms\":null"));
    assert_non_null(strstr(r.body, "\"last\":[3,3]"));
    assert_non_null(strstr(r.body, "\"moves\":[\"Q16\",\"D4\"]"));
    http_reply_free(&r);

    assert_int_equal(http_get(f->port, "/record.sgf", NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.body, "(;GM[1]FF[4]SZ[19];B[pd];W[dp])\n");
    assert_non_null(strstr(http_header(&r, "Content-Disposition", h, sizeof h), "game.sgf"));
    http_reply_free(&r);
    assert_int_equal(http_get(f->port, "/record.kif", NULL, &r), 0);
    assert_int_equal(r.status, 404);
    http_reply_free(&r);
}

struct late_publisher {
    struct fixture *f;
    int from, to;
};
static void *publish_later(void *arg)
{
    struct late_publisher *lp = arg;
    struct timespec d = {0, 150 * 1000000L};
    nanosleep(&d, NULL);
    for (int n = lp->from; n <= lp->to; n++) publish_move(lp->f, n);
    return NULL;
}

static void test_sse_order_and_replay(void **state)
{
    struct fixture *f = *state;
    for (int n = 1; n <= 5; n++) publish_move(f, n);
    /* A fresh client gets the game so far, then what arrives while it listens, in order. */
    struct late_publisher lp = {f, 6, 12};
    pthread_t t;
    pthread_create(&t, NULL, publish_later, &lp);
    const char req[] = "GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n";
    struct http_reply r;
    long long t0 = lt_now_ms();
    assert_int_equal(http_raw(f->port, req, sizeof req - 1, 5000, "\"seq\":12,", &r), 0);
    long long dt = lt_now_ms() - t0;
    pthread_join(t, NULL);
    assert_int_equal(r.status, 200);
    char h[256];
    assert_string_equal(http_header(&r, "Content-Type", h, sizeof h),
                        "text/event-stream; charset=utf-8");
    struct sse_ev ev[64];
    int n = parse_sse(r.body, ev, 64);
    int moves = 0;
    long last_seq = 0;
    unsigned long long last_id = 0;
    for (int i = 0; i < n; i++) {
        assert_true(ev[i].id > last_id || (ev[i].id == last_id && !strcmp(ev[i].event, "state")));
        last_id = ev[i].id;
        if (!strcmp(ev[i].event, "move")) {
            assert_true(ev[i].seq > last_seq); /* in order, none twice */
            last_seq = ev[i].seq;
            moves++;
        }
        assert_string_not_equal(ev[i].event, "flag"); /* the public stream has no flags */
    }
    /* 12 moves, of which 3 are flags (ply 3, 7, 11) and stay with the referee. */
    assert_int_equal(moves, 9);
    assert_int_equal(last_seq, 12);
    tu_note("SSE: %d events on a fresh connection, the last of 7 late moves %lld ms after "
            "connecting (150 ms of it the publisher's delay)",
            n, dt);
    http_reply_free(&r);

    /* Reconnecting with Last-Event-ID gets exactly what came after it, then the newest state. */
    unsigned long long resume = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(ev[i].event, "move") && ev[i].seq == 5) resume = ev[i].id;
    assert_true(resume > 0);
    char req2[256];
    int len = snprintf(req2, sizeof req2,
                       "GET /events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: %llu\r\n\r\n", resume);
    assert_int_equal(http_raw(f->port, req2, (size_t)len, 3000, "event: state", &r), 0);
    n = parse_sse(r.body, ev, 64);
    int k = 0;
    static const long want[] = {6, 8, 9, 10, 12};
    for (int i = 0; i < n; i++)
        if (!strcmp(ev[i].event, "move")) {
            assert_true(k < 5);
            assert_int_equal(ev[i].seq, want[k++]);
        }
    assert_int_equal(k, 5);
    assert_string_equal(ev[n - 1].event, "state");
    assert_int_equal(ev[n - 1].ply, 12);
    http_reply_free(&r);

    /* The referee stream holds the flags, with rule and text (the '<' escaped). */
    len = snprintf(req2, sizeof req2, "GET /referee/events?token=%s HTTP/1.1\r\nHost: x\r\n\r\n",
                   TOKEN);
    assert_int_equal(http_raw(f->port, req2, (size_t)len, 3000, "event: state", &r), 0);
    assert_int_equal(r.status, 200);
    n = parse_sse(r.body, ev, 64);
    int flags = 0;
    for (int i = 0; i < n; i++) flags += !strcmp(ev[i].event, "flag");
    assert_int_equal(flags, 3);
    assert_non_null(strstr(r.body, "\"kind\":\"ILLEGAL_MOVE\",\"flag\":true,\"ply\":3"));
    assert_non_null(strstr(r.body, "\"rule\":\"Chinese 1988 §5 (ko)\""));
    assert_non_null(strstr(r.body, "retakes the ko \\u003cat once>"));
    http_reply_free(&r);

    /* An idle stream gets keepalive comments. */
    len = snprintf(req2, sizeof req2,
                   "GET /events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 999\r\n\r\n");
    assert_int_equal(http_raw(f->port, req2, (size_t)len, 3000, ": keepalive", &r), 0);
    assert_non_null(strstr(r.body, ": keepalive\n\n"));
    http_reply_free(&r);
}

static void test_referee_token_and_actions(void **state)
{
    struct fixture *f = *state;
    publish_move(f, 1);
    publish_move(f, 2);
    struct http_reply r;
    static const char *const forbidden[] = {
        "/referee",
        "/referee?token=wrong",
        "/referee?token=" TOKEN "x",
        "/referee?token=s3cret",
        "/referee/events",
        "/referee/events?token=",
        "/referee/snapshot?seq=7",
    };
    for (size_t i = 0; i < sizeof forbidden / sizeof *forbidden; i++) {
        assert_int_equal(http_get(f->port, forbidden[i], NULL, &r), 0);
        if (r.status != 403) fail_msg("%s: %d", forbidden[i], r.status);
        http_reply_free(&r);
    }
    assert_int_equal(http_get(f->port, "/referee?token=" TOKEN, NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "id=\"referee\""));
    http_reply_free(&r);
    assert_int_equal(http_get(f->port, "/referee", "X-Kifucam-Token: " TOKEN "\r\n", &r), 0);
    assert_int_equal(r.status, 200);
    http_reply_free(&r);
    assert_int_equal(http_get(f->port, "/referee/snapshot?token=" TOKEN "&seq=7", NULL, &r), 0);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body_len, 4);
    http_reply_free(&r);
    assert_int_equal(http_get(f->port, "/referee/snapshot?token=" TOKEN "&seq=8", NULL, &r), 0);
    assert_int_equal(r.status, 404);
    http_reply_free(&r);
    assert_int_equal(http_get(f->port, "/referee/snapshot?token=" TOKEN "&seq=../7", NULL, &r), 0);
    assert_int_equal(r.status, 400);
    http_reply_free(&r);

    struct {
        const char *body;
        int status;
        const char *says;
    } posts[] = {
        {"token=wrong&action=note&ply=2&text=x", 403, "wrong or missing referee token"},
        {"action=note&ply=2&text=x", 403, "wrong or missing referee token"},
        {"token=" TOKEN "&action=explode&ply=2", 400, "unknown or missing action"},
        {"token=" TOKEN "&action=note&ply=2", 400, "note needs a text"},
        {"token=" TOKEN "&action=note&ply=2&text=%zz", 400, "text too long or malformed"},
        {"token=" TOKEN "&action=takeback&ply=0", 409, "nothing to take back"},
        {"token=" TOKEN "&action=note&ply=2&text=hand+over+the+board+%E2%80%94+ok", 200, "note"},
        {"token=" TOKEN "&action=result&ply=2&text=B%2BR", 200, "result"},
    };
    for (size_t i = 0; i < sizeof posts / sizeof *posts; i++) {
        char req[1024];
        int len = snprintf(req, sizeof req,
                           "POST /referee/action HTTP/1.1\r\nHost: x\r\nContent-Type: "
                           "application/x-www-form-urlencoded\r\nContent-Length: %zu\r\n"
                           "Connection: close\r\n\r\n%s",
                           strlen(posts[i].body), posts[i].body);
        assert_int_equal(http_raw(f->port, req, (size_t)len, 3000, NULL, &r), 0);
        if (r.status != posts[i].status || !strstr(r.body, posts[i].says))
            fail_msg("post %zu: %d %s", i, r.status, r.body);
        http_reply_free(&r);
    }
    assert_int_equal(f->actions, 2);
    assert_int_equal(f->last_action.kind, REFEREE_SET_RESULT);
    assert_string_equal(f->last_action.text, "B+R");
    /* Both actions are in the journal. */
    journal_close(f->journal);
    char *path = lt_join(f->dir, "game.journal");
    struct journal_log log;
    struct journal_error err;
    f->journal = journal_open(path, &log, &err);
    free(path);
    assert_int_equal(log.count, 2);
    struct referee_action a;
    assert_true(journal_decode_action(&log.entries[0], &a));
    assert_int_equal(a.kind, REFEREE_ADD_NOTE);
    assert_string_equal(a.text, "hand over the board — ok");
    assert_int_equal(a.ply, 2);
    journal_log_free(&log);
}

static void test_limits_paths_methods(void **state)
{
    struct fixture *f = *state;
    struct http_reply r;
    /* A body over 4 KiB, announced (and sent: the server answers once the headers are in, and
     * drops the rest)... */
    size_t cap = 1100000;
    char *req = malloc(cap);
    size_t n = (size_t)snprintf(req, cap,
                                "POST /referee/action HTTP/1.1\r\nHost: x\r\nContent-Length: "
                                "1000000\r\nConnection: close\r\n\r\n");
    memset(req + n, 'z', 1000000);
    n += 1000000;
    assert_int_equal(http_raw(f->port, req, n, 3000, NULL, &r), 0);
    assert_int_equal(r.status, 413);
    http_reply_free(&r);
    /* ...or sent in chunks without a length. */
    n = (size_t)snprintf(req, cap,
                         "POST /referee/action HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
                         "chunked\r\nConnection: close\r\n\r\n");
    for (int i = 0; i < 6; i++) {
        n += (size_t)snprintf(req + n, cap - n, "400\r\n");
        memset(req + n, 'a', 0x400);
        n += 0x400;
        n += (size_t)snprintf(req + n, cap - n, "\r\n");
    }
    n += (size_t)snprintf(req + n, cap - n, "0\r\n\r\n");
    assert_int_equal(http_raw(f->port, req, n, 3000, NULL, &r), 0);
    assert_int_equal(r.status, 413);
    http_reply_free(&r);
    /* Headers beyond the per-connection memory limit. */
    n = (size_t)snprintf(req, cap, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: ");
    memset(req + n, 'b', 18000);
    n += 18000;
    n += (size_t)snprintf(req + n, cap - n, "\r\nConnection: close\r\n\r\n");
    assert_int_equal(http_raw(f->port, req, n, 3000, NULL, &r), 0);
    tu_note("18 KB header: status %d (%s)", r.status, r.head);
    assert_true(r.status == 431 || r.status == 413 || r.status == 400);
    http_reply_free(&r);
    /* A URL far too long. */
    n = (size_t)snprintf(req, cap, "GET /");
    memset(req + n, 'u', 17000);
    n += 17000;
    n += (size_t)snprintf(req + n, cap - n, " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_int_equal(http_raw(f->port, req, n, 3000, NULL, &r), 0);
    tu_note("17 KB URL: status %d", r.status);
    assert_true(r.status == 414 || r.status == 431 || r.status == 400);
    http_reply_free(&r);
    free(req);

    /* Paths that try to leave: nothing but the fixed routes exists. */
    static const char *const escapes[] = {
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2fetc%2fpasswd",
        "/record.sgf/../../../etc/passwd",
        "//etc/passwd",
        "/live.js%00.html",
        "/state.json?../../etc/passwd=1",
        "/referee/../../etc/passwd?token=" TOKEN,
        "/.%2e/.%2e/etc/shadow",
        "/%c0%ae%c0%ae/etc/passwd",
    };
    for (size_t i = 0; i < sizeof escapes / sizeof *escapes; i++) {
        assert_int_equal(http_get(f->port, escapes[i], NULL, &r), 0);
        bool ok = (r.status == 404 || r.status == 400 ||
                   (r.status == 200 && !strcmp(escapes[i], "/state.json?../../etc/passwd=1"))) &&
                  !strstr(r.body, "root:");
        if (!ok) fail_msg("%s: %d", escapes[i], r.status);
        http_reply_free(&r);
    }
    const char put[] =
        "PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi";
    assert_int_equal(http_raw(f->port, put, sizeof put - 1, 3000, NULL, &r), 0);
    assert_int_equal(r.status, 405);
    http_reply_free(&r);
    const char garbage[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n";
    assert_int_equal(http_raw(f->port, garbage, sizeof garbage - 1, 3000, NULL, &r), 0);
    assert_true(r.status == 400 || r.status == 0);
    http_reply_free(&r);
    /* Still serving. */
    assert_int_equal(http_get(f->port, "/state.json", NULL, &r), 0);
    assert_int_equal(r.status, 200);
    http_reply_free(&r);
}

static void test_form_parser(void **state)
{
    (void)state;
    char v[16];
    const char f1[] = "a=1&token=ab%20c+d&empty=&flag&x=%4";
    assert_int_equal(live_form_value(f1, strlen(f1), "token", v, sizeof v), 6);
    assert_string_equal(v, "ab c d");
    assert_int_equal(live_form_value(f1, strlen(f1), "empty", v, sizeof v), 0);
    assert_int_equal(live_form_value(f1, strlen(f1), "flag", v, sizeof v), 0);
    assert_int_equal(live_form_value(f1, strlen(f1), "x", v, sizeof v), -2);
    assert_int_equal(live_form_value(f1, strlen(f1), "none", v, sizeof v), -1);
    const char f2[] = "t=%00&long=0123456789abcdefXYZ";
    assert_int_equal(live_form_value(f2, strlen(f2), "t", v, sizeof v), -2);
    assert_int_equal(live_form_value(f2, strlen(f2), "long", v, sizeof v), -2);
    /* Not NUL-terminated: the parser stays inside len. */
    assert_int_equal(live_form_value("k=abcdef", 4, "k", v, sizeof v), 2);
    assert_string_equal(v, "ab");
    assert_true(live_token_equal("abc", "abc"));
    assert_false(live_token_equal("abc", "abd"));
    assert_false(live_token_equal("abc", "ab"));
    assert_false(live_token_equal("abc", "abcabc"));
    assert_false(live_token_equal("", ""));
    assert_false(live_token_equal(NULL, "x"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_form_parser),
        cmocka_unit_test_setup_teardown(test_page_state_and_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sse_order_and_replay, setup, teardown),
        cmocka_unit_test_setup_teardown(test_referee_token_and_actions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_limits_paths_methods, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

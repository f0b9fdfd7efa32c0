/* tests/live/http_client.h — a raw-socket HTTP/1.1 client for the live-server tests: it sends
 * exactly the bytes a test gives (oversized, malformed, escaping paths) and reads the answer. */
#ifndef KIFUCAM_TESTS_LIVE_HTTP_CLIENT_H
#define KIFUCAM_TESTS_LIVE_HTTP_CLIENT_H

#include <stddef.h>

struct http_reply {
    int status; /* 0 when no status line came back (connection closed) */
    char *head; /* the status line and headers */
    char *body; /* what followed the blank line (SSE: the stream so far) */
    size_t body_len;
};
void http_reply_free(struct http_reply *r);

/* Send req (len bytes) to 127.0.0.1:port and read until the server closes, timeout_ms passes, or
 * (when until is not NULL) the body contains until. Returns 0, or -1 if it could not connect. */
int http_raw(int port, const char *req, size_t len, int timeout_ms, const char *until,
             struct http_reply *out);
/* GET path with optional extra header lines ("Name: value\r\n..."), Connection: close. */
int http_get(int port, const char *path, const char *extra_headers, struct http_reply *out);
/* A header's value from a reply (case-insensitive name), copied into buf; NULL if absent. */
const char *http_header(const struct http_reply *r, const char *name, char *buf, size_t len);

#endif

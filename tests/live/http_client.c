/* tests/live/http_client.c — see http_client.h. */
#include "tests/live/http_client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

void http_reply_free(struct http_reply *r)
{
    free(r->head);
    free(r->body);
    memset(r, 0, sizeof *r);
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int http_raw(int port, const char *req, size_t len, int timeout_ms, const char *until,
             struct http_reply *out)
{
    memset(out, 0, sizeof *out);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    /* The server may answer (413) and close before it has read everything: read while sending,
     * or a reset would throw the answer away, and ignore EPIPE. */
    size_t sent = 0, cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    buf[0] = '\0';
    long long end = now_ms() + timeout_ms;
    for (;;) {
        long long left = end - now_ms();
        if (left <= 0) break;
        struct pollfd p = {fd, (short)(POLLIN | (sent < len ? POLLOUT : 0)), 0};
        if (poll(&p, 1, (int)left) <= 0) break;
        if ((p.revents & POLLOUT) && sent < len) {
            ssize_t w = send(fd, req + sent, len - sent < 65536 ? len - sent : 65536,
                             MSG_NOSIGNAL | MSG_DONTWAIT);
            if (w > 0)
                sent += (size_t)w;
            else if (errno != EAGAIN)
                sent = len; /* the server stopped reading: just collect its answer */
        }
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
        }
        ssize_t r = recv(fd, buf + n, cap - n, MSG_DONTWAIT);
        if (r < 0 && errno == EAGAIN) continue;
        if (r <= 0) break;
        n += (size_t)r;
        buf[n] = '\0';
        char *sep = strstr(buf, "\r\n\r\n");
        if (until && sep && strstr(sep + 4, until)) break;
    }
    close(fd);
    buf[n] = '\0';
    char *sep = strstr(buf, "\r\n\r\n");
    size_t hl = sep ? (size_t)(sep - buf) : n;
    out->head = strndup(buf, hl);
    size_t bstart = sep ? hl + 4 : n;
    out->body_len = n - bstart;
    out->body = malloc(out->body_len + 1);
    memcpy(out->body, buf + bstart, out->body_len);
    out->body[out->body_len] = '\0';
    sscanf(out->head, "HTTP/1.%*d %d", &out->status);
    free(buf);
    return 0;
}

int http_get(int port, const char *path, const char *extra_headers, struct http_reply *out)
{
    char req[8192];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%sConnection: close\r\n\r\n", path,
                     extra_headers ? extra_headers : "");
    return http_raw(port, req, (size_t)n, 5000, NULL, out);
}

const char *http_header(const struct http_reply *r, const char *name, char *buf, size_t len)
{
    size_t nl = strlen(name);
    for (const char *l = r->head; l && *l;) {
        const char *eol = strstr(l, "\r\n");
        size_t ll = eol ? (size_t)(eol - l) : strlen(l);
        if (ll > nl + 1 && strncasecmp(l, name, nl) == 0 && l[nl] == ':') {
            const char *v = l + nl + 1;
            while (*v == ' ') v++;
            size_t vl = ll - (size_t)(v - l);
            if (vl >= len) vl = len - 1;
            memcpy(buf, v, vl);
            buf[vl] = '\0';
            return buf;
        }
        if (!eol) break;
        l = eol + 2;
    }
    return NULL;
}

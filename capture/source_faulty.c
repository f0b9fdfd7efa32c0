/* capture/source_faulty.c — `faulty:SPEC?key=value&...`: SPEC with failures injected on purpose,
 * so the daemon's retry and back-off can be tested without unplugging a camera.
 *
 *   fail_after=N  frames delivered before the outage (default 10)
 *   fail_for=M    calls that fail during the outage (default 5)
 *   mode=error    each failing call returns SOURCE_ERROR ("camera unplugged"; the default)
 *   mode=timeout  each failing call waits timeout_ms (none when < 0) and returns SOURCE_TIMEOUT
 *   mode=garbage  each failing call returns the inner frame with noise for pixels (a camera
 *                 sending junk; seq and time as the inner frame's)
 *   repeat=1      after recovering, fail again every fail_after frames (default 0: once)
 *   drop=1        the inner source keeps running during the outage and its frames are lost, as
 *                 with a live camera (default 0: the inner stream pauses, nothing is lost)
 *
 * The last '?' in the spec starts the parameters, so SPEC may itself contain '?'. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capture/source_impl.h"

enum fault_mode { FAULT_ERROR, FAULT_TIMEOUT, FAULT_GARBAGE };

struct faulty_src {
    struct frame_source *inner;
    long fail_after, fail_for;
    enum fault_mode mode;
    bool repeat, drop;
    long delivered; /* good frames since the last outage */
    long failed;    /* failing calls in the current outage */
    bool done;      /* outage over and repeat off */
    long outages;
    uint32_t noise;
    struct pixbuf garbage;
};

static void faulty_close(void *impl)
{
    struct faulty_src *fs = impl;
    if (!fs) return;
    source_close(fs->inner);
    pixbuf_free(&fs->garbage);
    free(fs);
}

/* Junk in place of the inner frame: same seq, time and size, noise for pixels. */
static enum source_status garbage_frame(struct frame_source *src, struct faulty_src *fs,
                                        struct frame *out, int timeout_ms)
{
    enum source_status st = source_next(fs->inner, out, timeout_ms);
    if (st == SOURCE_ERROR) return source_fail(src, "%s", source_error(fs->inner));
    if (st != SOURCE_FRAME) return st;
    size_t n = (size_t)out->stride * (size_t)out->height;
    if (!pixbuf_reserve(&fs->garbage, n)) return source_fail(src, "faulty: out of memory");
    for (size_t i = 0; i < n; i++) {
        fs->noise = fs->noise * 1664525u + 1013904223u; /* LCG: reproducible junk */
        fs->garbage.data[i] = (uint8_t)(fs->noise >> 24);
    }
    out->data = fs->garbage.data;
    return SOURCE_FRAME;
}

static enum source_status faulty_next(struct frame_source *src, struct frame *out, int timeout_ms)
{
    struct faulty_src *fs = src->impl;
    if (!fs->done && fs->fail_for > 0 && fs->delivered >= fs->fail_after) {
        long nth = ++fs->failed, outage = fs->outages + 1;
        if (fs->failed == fs->fail_for) { /* this is the outage's last failing call */
            fs->failed = 0;
            fs->delivered = 0;
            fs->outages++;
            fs->done = !fs->repeat;
        }
        if (fs->mode == FAULT_GARBAGE) return garbage_frame(src, fs, out, timeout_ms);
        if (fs->drop) {
            struct frame lost;
            if (source_next(fs->inner, &lost, timeout_ms) == SOURCE_END) return SOURCE_END;
        }
        switch (fs->mode) {
        case FAULT_TIMEOUT:
            if (timeout_ms > 0) {
                struct timespec ts = {timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000};
                while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
                }
            }
            return SOURCE_TIMEOUT;
        case FAULT_GARBAGE:
        case FAULT_ERROR: break;
        }
        return source_fail(src, "faulty: injected failure %ld of %ld (outage %ld) on %s", nth,
                           fs->fail_for, outage, source_spec(fs->inner));
    }
    enum source_status st = source_next(fs->inner, out, timeout_ms);
    if (st == SOURCE_ERROR) return source_fail(src, "%s", source_error(fs->inner));
    if (st == SOURCE_FRAME) fs->delivered++;
    return st;
}

static const struct source_ops faulty_ops = {faulty_next, faulty_close};

static int parse_long(const char *v, long lo, long *out)
{
    char *end = NULL;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo) return -1;
    *out = x;
    return 0;
}

static int parse_param(struct faulty_src *fs, const char *k, const char *v)
{
    long b = 0;
    if (strcmp(k, "fail_after") == 0) return parse_long(v, 0, &fs->fail_after);
    if (strcmp(k, "fail_for") == 0) return parse_long(v, 0, &fs->fail_for);
    if (strcmp(k, "repeat") == 0 || strcmp(k, "drop") == 0) {
        if (parse_long(v, 0, &b) || b > 1) return -1;
        *(k[0] == 'r' ? &fs->repeat : &fs->drop) = b;
        return 0;
    }
    if (strcmp(k, "mode") == 0) {
        if (strcmp(v, "error") == 0)
            fs->mode = FAULT_ERROR;
        else if (strcmp(v, "timeout") == 0)
            fs->mode = FAULT_TIMEOUT;
        else if (strcmp(v, "garbage") == 0)
            fs->mode = FAULT_GARBAGE;
        else
            return -1;
        return 0;
    }
    return -1;
}

int source_faulty_open(struct frame_source *src, const char *arg, char *err, size_t errlen)
{
    struct faulty_src *fs = calloc(1, sizeof *fs);
    char *spec = strdup(arg);
    if (!fs || !spec) {
        free(fs);
        free(spec);
        snprintf(err, errlen, "faulty: out of memory");
        return -1;
    }
    fs->fail_after = 10;
    fs->fail_for = 5;
    fs->noise = 12345;
    char *q = strrchr(spec, '?');
    if (q) {
        *q = '\0';
        for (char *save = NULL, *kv = strtok_r(q + 1, "&", &save); kv;
             kv = strtok_r(NULL, "&", &save)) {
            char *eq = strchr(kv, '=');
            if (eq) *eq = '\0';
            if (!eq || parse_param(fs, kv, eq + 1) != 0) {
                snprintf(err, errlen,
                         "faulty: bad parameter '%s%s%s' (fail_after=N, fail_for=N, "
                         "mode=error|timeout|garbage, repeat=0|1, drop=0|1)",
                         kv, eq ? "=" : "", eq ? eq + 1 : "");
                free(spec);
                free(fs);
                return -1;
            }
        }
    }
    if (strncmp(spec, "faulty:", 7) == 0) {
        snprintf(err, errlen, "faulty: cannot wrap another faulty: source");
        free(spec);
        free(fs);
        return -1;
    }
    char inner_err[512];
    fs->inner = source_open(spec, &src->opt, inner_err, sizeof inner_err);
    free(spec);
    if (!fs->inner) {
        snprintf(err, errlen, "faulty: %s", inner_err);
        free(fs);
        return -1;
    }
    src->ops = &faulty_ops;
    src->impl = fs;
    return 0;
}

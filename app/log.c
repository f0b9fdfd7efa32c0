/* app/log.c — log lines with a level and a monotonic time to stderr (the journal under systemd
 * takes stderr, and the "<N>" prefix gives it the priority). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "app/daemon.h"

static int max_level = KC_LOG_INFO;

void kc_log_set_level(int level)
{
    max_level = level;
}

void kc_log(enum kc_log_level lvl, const char *fmt, ...)
{
    static const char *const names[] = {"error", "warn", "info", "debug"};
    static const int syslog_prio[] = {3, 4, 6, 7};
    if ((int)lvl > max_level) return;
    bool journal = getenv("JOURNAL_STREAM") != NULL;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (journal) {
        fprintf(stderr, "<%d>%s\n", syslog_prio[lvl], msg);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        struct tm tm;
        localtime_r(&ts.tv_sec, &tm);
        fprintf(stderr, "%02d:%02d:%02d.%03ld kifucam %s: %s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
                ts.tv_nsec / 1000000, names[lvl], msg);
    }
}

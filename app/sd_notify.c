/* app/sd_notify.c — the documented sd_notify protocol without libsystemd: one datagram of
 * "KEY=VALUE\n..." to the AF_UNIX socket named by $NOTIFY_SOCKET ('@' = abstract namespace). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "app/daemon.h"

int kc_sd_notify(const char *state)
{
    const char *path = getenv("NOTIFY_SOCKET");
    if (!path || !*path) return 0;
    size_t len = strlen(path);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    if ((path[0] != '/' && path[0] != '@') || len >= sizeof sa.sun_path) return -1;
    memcpy(sa.sun_path, path, len);
    if (path[0] == '@') sa.sun_path[0] = '\0';
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    socklen_t salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
    ssize_t n = sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, salen);
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(state) ? 1 : -1;
}

uint64_t kc_sd_watchdog_usec(void)
{
    const char *v = getenv("WATCHDOG_USEC");
    if (!v) return 0;
    const char *pid = getenv("WATCHDOG_PID");
    if (pid && strtol(pid, NULL, 10) != (long)getpid()) return 0;
    return strtoull(v, NULL, 10);
}

/* record/atomic_file.c — temp file + fsync + rename + directory fsync. */
#include "record/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(char *msg, size_t msglen, const char *path, const char *what, int e)
{
    if (msg && msglen) snprintf(msg, msglen, "%s: %s: %s", path, what, strerror(e));
}

int fsync_parent_dir(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash) {
        strcpy(dir, ".");
    } else if (slash == path) {
        strcpy(dir, "/");
    } else {
        size_t n = (size_t)(slash - path);
        if (n >= sizeof dir) {
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

static int write_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int atomic_write_file(const char *path, const void *data, size_t len, char *msg, size_t msglen)
{
    char tmp[PATH_MAX];
    /* Same directory as the target: rename(2) is only atomic within one file system. */
    if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        say(msg, msglen, path, "path too long", errno);
        return -1;
    }
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        say(msg, msglen, path, "cannot create temporary file", errno);
        return -1;
    }
    const char *what = NULL;
    if (fchmod(fd, 0644) != 0)
        what = "chmod failed";
    else if (write_all(fd, data, len) != 0)
        what = "write failed";
    else if (fsync(fd) != 0)
        what = "fsync failed";
    int e = errno;
    if (close(fd) != 0 && !what) {
        what = "close failed";
        e = errno;
    }
    if (!what && rename(tmp, path) != 0) {
        what = "rename failed";
        e = errno;
    }
    if (what) {
        unlink(tmp);
        say(msg, msglen, path, what, e);
        errno = e;
        return -1;
    }
    if (fsync_parent_dir(path) != 0) {
        say(msg, msglen, path, "directory fsync failed", errno);
        return -1;
    }
    return 0;
}

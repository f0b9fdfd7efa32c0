#include "tests/testutil.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

const char *tu_fixtures_dir(void)
{
    const char *d = getenv("KIFUCAM_FIXTURES");
    return d ? d : "tests/fixtures";
}

const char *tu_shared_data_dir(void)
{
    static char buf[4096];
    const char *d = getenv("KIFUCAM_SHARED_DATA");
    if (!d) d = "../shared/data";
    struct stat st;
    if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) return NULL;
    if (!realpath(d, buf)) return NULL;
    return buf;
}

const char *tu_path(const char *dir, const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", dir, rel);
    return buf;
}

char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 4096 + 1 > cap) buf = realloc(buf, cap *= 2);
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

static bool has_suffix(const char *name, const char *const *suffixes)
{
    size_t ln = strlen(name);
    for (int i = 0; suffixes[i]; i++) {
        size_t ls = strlen(suffixes[i]);
        if (ln >= ls && strcasecmp(name + ln - ls, suffixes[i]) == 0) return true;
    }
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int tu_walk(const char *dir, const char *const *suffixes, void (*fn)(const char *path, void *ctx),
            void *ctx)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *p = malloc(len);
        snprintf(p, len, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(p, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                int c = tu_walk(p, suffixes, fn, ctx);
                if (c > 0) count += c;
            } else if (S_ISREG(st.st_mode) && has_suffix(names[i], suffixes)) {
                fn(p, ctx);
                count++;
            }
        }
        free(p);
        free(names[i]);
    }
    free(names);
    return count;
}

void tu_note(const char *fmt, ...)
{
    /* every line a TAP comment, also when the note quotes several lines (HTTP headers) */
    char buf[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (const char *line = buf;;) {
        const char *nl = strchr(line, '\n');
        int n = nl ? (int)(nl - line) : (int)strlen(line);
        printf("# %.*s\n", n, line);
        if (!nl || !nl[1]) break;
        line = nl + 1;
    }
    fflush(stdout);
}

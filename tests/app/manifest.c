#include "tests/app/manifest.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split one CSV line (with "quoted, fields") into at most max fields, in place. */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        if (*p == '"') {
            char *out = ++p;
            fields[n++] = out;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"') p++;
                *out++ = *p++;
            }
            if (*p == '"') p++;
            *out = '\0';
            if (*p == ',')
                p++;
            else
                break;
        } else {
            fields[n++] = p;
            char *comma = strchr(p, ',');
            if (!comma) break;
            *comma = '\0';
            p = comma + 1;
        }
    }
    return n;
}

static void copy_field(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src);
}

int manifest_read(const char *path, struct manifest_row **rows)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[4096];
    int n = 0, cap = 0;
    *rows = NULL;
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *fl[13] = {0};
        if (split_csv(line, fl, 13) < 11) continue;
        if (n == cap) *rows = realloc(*rows, (size_t)(cap = cap ? cap * 2 : 256) * sizeof **rows);
        struct manifest_row *r = &(*rows)[n++];
        memset(r, 0, sizeof *r);
        copy_field(r->file, sizeof r->file, fl[0]);
        copy_field(r->ru, sizeof r->ru, fl[4]);
        copy_field(r->re, sizeof r->re, fl[5]);
        copy_field(r->result_class, sizeof r->result_class, fl[6]);
        r->moves = atoi(fl[7]);
        r->passes = atoi(fl[8]);
        copy_field(r->events, sizeof r->events, fl[10]);
    }
    fclose(f);
    return n;
}

int manifest_event(const struct manifest_row *r, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = r->events; *p;) {
        if (!strncmp(p, name, len) && p[len] == '=') return atoi(p + len + 1);
        const char *semi = strchr(p, ';');
        if (!semi) break;
        p = semi + 1;
    }
    return 0;
}

/* record/sgf_file.c — reading every game of an SGF file into Go records. */
#include "record/sgf_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append s to the string in dst (size bytes), cutting it short if needed. */
static void append(char *dst, size_t size, const char *s)
{
    size_t have = strnlen(dst, size - 1), add = strlen(s);
    if (add > size - 1 - have) add = size - 1 - have;
    memcpy(dst + have, s, add);
    dst[have + add] = '\0';
}

/* err->message = "path:line:column: msg" (or "path: msg" without a position). */
static void place_error(struct sgf_error *err, const char *path, int line, int column,
                        const char *msg)
{
    char tmp[sizeof err->message], pos[32];
    tmp[0] = '\0';
    append(tmp, sizeof tmp, msg); /* msg may be err->message itself */
    err->line = line;
    err->column = column;
    err->message[0] = '\0';
    append(err->message, sizeof err->message, path);
    if (line > 0) {
        snprintf(pos, sizeof pos, ":%d:%d", line, column);
        append(err->message, sizeof err->message, pos);
    }
    append(err->message, sizeof err->message, ": ");
    append(err->message, sizeof err->message, tmp);
}

static char *read_all(const char *path, size_t *len, struct sgf_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        place_error(err, path, 0, 0, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap > SGF_MAX_INPUT) break;
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf) {
        place_error(err, path, 0, 0, "out of memory");
        return NULL;
    }
    if (bad) {
        free(buf);
        place_error(err, path, 0, 0, "read error");
        return NULL;
    }
    if (n > SGF_MAX_INPUT) {
        free(buf);
        place_error(err, path, 0, 0, "file too large for an SGF record");
        return NULL;
    }
    *len = n;
    return buf;
}

int sgf_read_file(const char *path, struct go_record ***out, struct sgf_error *err)
{
    struct sgf_error dummy;
    if (!err) err = &dummy;
    memset(err, 0, sizeof *err);
    *out = NULL;
    size_t len;
    char *data = read_all(path, &len, err);
    if (!data) return -1;
    struct sgf_error perr;
    struct sgf_collection *c = sgf_parse(data, len, &perr);
    free(data);
    if (!c) {
        place_error(err, path, perr.line, perr.column, perr.message);
        return -1;
    }
    /* a repaired problem is still reported, with its place */
    if (perr.message[0]) place_error(err, path, perr.line, perr.column, perr.message);

    struct go_record **recs = calloc((size_t)c->ngames, sizeof *recs);
    if (!recs) {
        sgf_collection_free(c);
        place_error(err, path, 0, 0, "out of memory");
        return -1;
    }
    int n = 0;
    char first_skip[sizeof err->message] = "";
    int skip_line = 0, skip_col = 0;
    for (int i = 0; i < c->ngames; i++) {
        struct sgf_error gerr;
        struct go_record *r = sgf_to_go_record(c->games[i], &gerr);
        if (r) {
            recs[n++] = r;
        } else if (!first_skip[0]) {
            snprintf(first_skip, sizeof first_skip, "game %d skipped: ", i + 1);
            append(first_skip, sizeof first_skip, gerr.message);
            sgf_game_position(c, i, &skip_line, &skip_col);
        }
    }
    sgf_collection_free(c);
    if (first_skip[0] && !err->message[0]) place_error(err, path, skip_line, skip_col, first_skip);
    if (n == 0) {
        free(recs);
        place_error(err, path, skip_line, skip_col, first_skip[0] ? first_skip : "no Go game");
        return -1;
    }
    *out = recs;
    return n;
}

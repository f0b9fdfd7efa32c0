/* record/shogi_json.c — a small JSON reader and string writer for JKF (RFC 8259).
 *
 * The reader builds a tree of values; it is strict about syntax (the error names the line) and
 * bounded in nesting depth so hostile input cannot exhaust the stack. */
#include "record/shogi_record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

struct jparser {
    const char *s, *end;
    int line;
    char *err;
    size_t errlen;
    bool failed;
};

static void jfail(struct jparser *p, const char *msg)
{
    if (!p->failed) snprintf(p->err, p->errlen, "line %d: %s", p->line, msg);
    p->failed = true;
}

static void jskip_ws(struct jparser *p)
{
    while (p->s < p->end) {
        char c = *p->s;
        if (c == '\n')
            p->line++;
        else if (c != ' ' && c != '\t' && c != '\r')
            return;
        p->s++;
    }
}

static bool jliteral(struct jparser *p, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n) != 0) return false;
    p->s += n;
    return true;
}

static int jhex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string: p->s is at the opening quote. The decoded text is never longer than the source. */
static char *jstring(struct jparser *p, size_t *outlen)
{
    p->s++;
    const char *start = p->s;
    while (p->s < p->end && *p->s != '"') {
        if (*p->s == '\\' && p->s + 1 < p->end) p->s++;
        if (*p->s == '\n') {
            jfail(p, "newline inside a string");
            return NULL;
        }
        p->s++;
    }
    if (p->s >= p->end) {
        jfail(p, "unterminated string");
        return NULL;
    }
    const char *stop = p->s++;
    char *out = malloc((size_t)(stop - start) + 1);
    if (!out) {
        jfail(p, "out of memory");
        return NULL;
    }
    size_t n = 0;
    for (const char *q = start; q < stop; q++) {
        if ((unsigned char)*q < 0x20) {
            free(out);
            jfail(p, "control character inside a string");
            return NULL;
        }
        if (*q != '\\') {
            out[n++] = *q;
            continue;
        }
        q++;
        switch (*q) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            int cp = stop - q > 4 ? jhex4(q + 1) : -1;
            if (cp < 0) {
                free(out);
                jfail(p, "bad \\u escape");
                return NULL;
            }
            q += 4;
            unsigned u = (unsigned)cp;
            if (u >= 0xD800 && u < 0xDC00 && stop - q > 6 && q[1] == '\\' && q[2] == 'u') {
                int lo = jhex4(q + 3);
                if (lo >= 0xDC00 && lo < 0xE000) {
                    u = 0x10000 + ((u - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
                    q += 6;
                }
            }
            if (u >= 0xD800 && u < 0xE000) u = 0xFFFD; /* a lone surrogate */
            /* "\uXXXX" is 6 bytes and encodes to at most 3; a pair is 12 and encodes to 4. */
            n += put_utf8(out + n, u);
            break;
        }
        default:
            free(out);
            jfail(p, "bad escape in a string");
            return NULL;
        }
    }
    out[n] = '\0';
    if (outlen) *outlen = n;
    return out;
}

static bool jvalue(struct jparser *p, struct shogi_json *v, int depth);

static bool jpush(struct jparser *p, struct shogi_json *v, int *cap)
{
    if (v->n == *cap) {
        int nc = *cap ? *cap * 2 : 4;
        struct shogi_json *items = realloc(v->items, (size_t)nc * sizeof *items);
        if (!items) {
            jfail(p, "out of memory");
            return false;
        }
        v->items = items;
        if (v->type == SHOGI_JSON_OBJECT) {
            char **keys = realloc(v->keys, (size_t)nc * sizeof *keys);
            if (!keys) {
                jfail(p, "out of memory");
                return false;
            }
            v->keys = keys;
        }
        *cap = nc;
    }
    memset(&v->items[v->n], 0, sizeof v->items[v->n]);
    if (v->type == SHOGI_JSON_OBJECT) v->keys[v->n] = NULL;
    v->n++;
    return true;
}

static bool jcontainer(struct jparser *p, struct shogi_json *v, int depth, bool object)
{
    char close = object ? '}' : ']';
    int cap = 0;
    v->type = object ? SHOGI_JSON_OBJECT : SHOGI_JSON_ARRAY;
    p->s++;
    jskip_ws(p);
    if (p->s < p->end && *p->s == close) {
        p->s++;
        return true;
    }
    for (;;) {
        jskip_ws(p);
        if (!jpush(p, v, &cap)) return false;
        if (object) {
            if (p->s >= p->end || *p->s != '"') {
                jfail(p, "expected a key string");
                return false;
            }
            v->keys[v->n - 1] = jstring(p, NULL);
            if (!v->keys[v->n - 1]) return false;
            jskip_ws(p);
            if (p->s >= p->end || *p->s != ':') {
                jfail(p, "expected ':' after a key");
                return false;
            }
            p->s++;
        }
        if (!jvalue(p, &v->items[v->n - 1], depth + 1)) return false;
        jskip_ws(p);
        if (p->s < p->end && *p->s == ',') {
            p->s++;
            continue;
        }
        if (p->s < p->end && *p->s == close) {
            p->s++;
            return true;
        }
        jfail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        return false;
    }
}

static bool jnumber(struct jparser *p, struct shogi_json *v)
{
    const char *q = p->s;
    if (q < p->end && *q == '-') q++;
    if (q >= p->end || *q < '0' || *q > '9') {
        jfail(p, "unexpected character");
        return false;
    }
    while (q < p->end && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' ||
                          *q == '+' || *q == '-'))
        q++;
    char buf[64];
    size_t n = (size_t)(q - p->s);
    if (n >= sizeof buf) {
        jfail(p, "number too long");
        return false;
    }
    memcpy(buf, p->s, n);
    buf[n] = '\0';
    char *endp;
    errno = 0;
    v->type = SHOGI_JSON_NUMBER;
    v->number = strtod(buf, &endp);
    if (*endp != '\0') {
        jfail(p, "malformed number");
        return false;
    }
    p->s = q;
    return true;
}

static bool jvalue(struct jparser *p, struct shogi_json *v, int depth)
{
    if (depth > JSON_MAX_DEPTH) {
        jfail(p, "nested too deeply");
        return false;
    }
    jskip_ws(p);
    if (p->s >= p->end) {
        jfail(p, "unexpected end of input");
        return false;
    }
    switch (*p->s) {
    case '{': return jcontainer(p, v, depth, true);
    case '[': return jcontainer(p, v, depth, false);
    case '"':
        v->type = SHOGI_JSON_STRING;
        v->string = jstring(p, &v->length);
        return v->string != NULL;
    case 't':
    case 'f':
    case 'n':
        if (jliteral(p, "true")) {
            v->type = SHOGI_JSON_BOOL;
            v->boolean = true;
            return true;
        }
        if (jliteral(p, "false")) {
            v->type = SHOGI_JSON_BOOL;
            return true;
        }
        if (jliteral(p, "null")) {
            v->type = SHOGI_JSON_NULL;
            return true;
        }
        jfail(p, "unknown literal");
        return false;
    default: return jnumber(p, v);
    }
}

static void json_clear(struct shogi_json *v)
{
    if (!v) return;
    if (v->type == SHOGI_JSON_ARRAY || v->type == SHOGI_JSON_OBJECT) {
        for (int i = 0; i < v->n; i++) {
            json_clear(&v->items[i]);
            if (v->keys) free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
    if (v->type == SHOGI_JSON_STRING) free(v->string);
    memset(v, 0, sizeof *v);
}

struct shogi_json *shogi_json_parse(const char *data, size_t len, char *err, size_t errlen)
{
    struct jparser p = {data, data + len, 1, err, errlen, false};
    struct shogi_json *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (jvalue(&p, v, 0)) {
        jskip_ws(&p);
        if (p.s < p.end) jfail(&p, "text after the JSON value");
    }
    if (p.failed) {
        shogi_json_free(v);
        return NULL;
    }
    return v;
}

void shogi_json_free(struct shogi_json *v)
{
    if (!v) return;
    json_clear(v);
    free(v);
}

const struct shogi_json *shogi_json_get(const struct shogi_json *obj, const char *key)
{
    if (!obj || obj->type != SHOGI_JSON_OBJECT) return NULL;
    for (int i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
    return NULL;
}

/* JSON string escaping for the JKF writer: quotes, backslashes and control characters. */
void shogi_json_put_string(struct shogi_buf *b, const char *s)
{
    shogi_buf_putc(b, '"');
    for (const unsigned char *q = (const unsigned char *)(s ? s : ""); *q; q++) {
        switch (*q) {
        case '"': shogi_buf_puts(b, "\\\""); break;
        case '\\': shogi_buf_puts(b, "\\\\"); break;
        case '\n': shogi_buf_puts(b, "\\n"); break;
        case '\r': shogi_buf_puts(b, "\\r"); break;
        case '\t': shogi_buf_puts(b, "\\t"); break;
        default:
            if (*q < 0x20)
                shogi_buf_printf(b, "\\u%04x", *q);
            else
                shogi_buf_putc(b, (char)*q);
        }
    }
    shogi_buf_putc(b, '"');
}

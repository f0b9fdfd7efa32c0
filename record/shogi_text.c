/* record/shogi_text.c — text plumbing shared by the shogi readers and writers: charset detection
 * and conversion (UTF-8 / Shift-JIS through iconv), splitting into lines, UTF-8 stepping and a
 * growable output buffer. */
#include "record/shogi_record.h"

#include <errno.h>
#include <iconv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- output buffer -------------------------------------------------------------------------- */

static bool buf_reserve(struct shogi_buf *b, size_t extra)
{
    if (b->failed) return false;
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
        b->failed = true;
        return false;
    }
    b->data = d;
    b->cap = cap;
    return true;
}

void shogi_buf_putn(struct shogi_buf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void shogi_buf_puts(struct shogi_buf *b, const char *s)
{
    shogi_buf_putn(b, s, strlen(s));
}

void shogi_buf_putc(struct shogi_buf *b, char c)
{
    shogi_buf_putn(b, &c, 1);
}

void shogi_buf_printf(struct shogi_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !buf_reserve(b, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *shogi_buf_take(struct shogi_buf *b)
{
    if (b->failed) {
        free(b->data);
        memset(b, 0, sizeof *b);
        return NULL;
    }
    if (!b->data) shogi_buf_putn(b, "", 0);
    char *d = b->data;
    memset(b, 0, sizeof *b);
    return d;
}

/* ---- charsets ------------------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes are not UTF-8. */
static int utf8_seq_len(const unsigned char *s, size_t avail)
{
    unsigned c = s[0];
    int n;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, min = 0x10000;
    else
        return 0;
    if (avail < (size_t)n) return 0;
    unsigned cp = c & (0x3F >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) return 0;
    return n;
}

bool shogi_is_utf8(const char *data, size_t len)
{
    const unsigned char *s = (const unsigned char *)data;
    for (size_t i = 0; i < len;) {
        int n = utf8_seq_len(s + i, len - i);
        if (n == 0) return false;
        i += (size_t)n;
    }
    return true;
}

/* Convert with iconv; bytes the source charset cannot decode become U+FFFD (or '?' when the
 * target is not UTF-8), so a damaged file still reads up to and past the damage. */
static char *convert(const char *data, size_t len, const char *to, const char *from)
{
    iconv_t cd = iconv_open(to, from);
    if (cd == (iconv_t)-1) return NULL;
    bool to_utf8 = strcmp(to, "UTF-8") == 0;
    struct shogi_buf b = {0};
    char chunk[4096];
    char *in = (char *)data;
    size_t inleft = len;
    while (inleft > 0) {
        char *out = chunk;
        size_t outleft = sizeof chunk;
        size_t r = iconv(cd, &in, &inleft, &out, &outleft);
        shogi_buf_putn(&b, chunk, sizeof chunk - outleft);
        if (r == (size_t)-1) {
            if (errno == E2BIG) continue;
            /* EILSEQ or EINVAL (a truncated sequence at the end): skip one unit. */
            size_t skip = 1;
            if (!to_utf8 && (unsigned char)*in >= 0x80) {
                int n = utf8_seq_len((const unsigned char *)in, inleft);
                if (n > 0) skip = (size_t)n;
            }
            shogi_buf_puts(&b, to_utf8 ? "\xEF\xBF\xBD" : "?");
            in += skip;
            inleft -= skip;
            iconv(cd, NULL, NULL, NULL, NULL);
        }
    }
    char *out = chunk;
    size_t outleft = sizeof chunk;
    iconv(cd, NULL, NULL, &out, &outleft);
    shogi_buf_putn(&b, chunk, sizeof chunk - outleft);
    iconv_close(cd);
    return shogi_buf_take(&b);
}

char *shogi_text_to_utf8(const char *data, size_t len, const char **charset)
{
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) data += 3, len -= 3;
    char *out;
    const char *cs = "UTF-8";
    if (shogi_is_utf8(data, len)) {
        out = malloc(len + 1);
        if (out) {
            memcpy(out, data, len);
            out[len] = '\0';
        }
    } else {
        /* CP932 is Shift-JIS as Windows writes it (NEC/IBM extensions); all Kifu for Windows
         * files are CP932 even when their first line claims otherwise. */
        cs = "CP932";
        out = convert(data, len, "UTF-8", "CP932");
        if (!out) {
            cs = "SHIFT_JIS";
            out = convert(data, len, "UTF-8", "SHIFT_JIS");
        }
    }
    if (!out) return NULL;
    /* An embedded NUL would cut the text short for the line parsers: make it a space. */
    size_t n = strlen(out), full = 0;
    if (strcmp(cs, "UTF-8") == 0) full = len;
    for (size_t i = n; i < full; i++)
        if (out[i] == '\0') out[i] = ' ';
    if (charset) *charset = cs;
    return out;
}

char *shogi_text_from_utf8(const char *utf8, const char *charset)
{
    if (!charset || strcmp(charset, "UTF-8") == 0) return strdup(utf8);
    return convert(utf8, strlen(utf8), charset, "UTF-8");
}

/* ---- lines ---------------------------------------------------------------------------------- */

int shogi_split_lines(char *text, char ***lines)
{
    int n = 0, cap = 64;
    char **v = malloc((size_t)cap * sizeof *v);
    if (!v) return -1;
    char *p = text;
    while (*p) {
        if (n == cap) {
            cap *= 2;
            char **nv = realloc(v, (size_t)cap * sizeof *nv);
            if (!nv) {
                free(v);
                return -1;
            }
            v = nv;
        }
        v[n++] = p;
        while (*p && *p != '\n' && *p != '\r') p++;
        if (*p == '\r' && p[1] == '\n') *p++ = '\0';
        if (*p) *p++ = '\0';
    }
    *lines = v;
    return n;
}

/* ---- UTF-8 stepping ------------------------------------------------------------------------- */

unsigned shogi_utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    if (!*p) return 0;
    int n = utf8_seq_len(p, strnlen((const char *)p, 4));
    if (n <= 1) {
        *s += 1;
        return n == 1 ? p[0] : 0xFFFD;
    }
    unsigned cp = p[0] & (0x3F >> (n - 1));
    for (int i = 1; i < n; i++) cp = (cp << 6) | (p[i] & 0x3F);
    *s += n;
    return cp;
}

bool shogi_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Skip ASCII blanks, the ideographic space U+3000 and a BOM that survived conversion. */
const char *shogi_skip_space(const char *s)
{
    for (;;) {
        if (*s == ' ' || *s == '\t')
            s++;
        else if (shogi_starts_with(s, "\xE3\x80\x80"))
            s += 3;
        else if (shogi_starts_with(s, "\xEF\xBB\xBF"))
            s += 3;
        else
            return s;
    }
}

/* Copy s without trailing blanks (ASCII and ideographic). */
char *shogi_strdup_trim(const char *s, size_t n)
{
    const char *end = s + (n == (size_t)-1 ? strlen(s) : strnlen(s, n));
    s = shogi_skip_space(s);
    if (s > end) s = end;
    n = (size_t)(end - s);
    for (;;) {
        if (n >= 1 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            n--;
        else if (n >= 3 && memcmp(s + n - 3, "\xE3\x80\x80", 3) == 0)
            n -= 3;
        else
            break;
    }
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

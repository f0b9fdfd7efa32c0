/* record/sgf_charset.c — decoding SGF texts to UTF-8 (glibc iconv).
 *
 * Real files: most declare nothing; Fox files are GBK or "UTF-8 with some bytes replaced by '?'";
 * Japanese files are Shift-JIS. The choice is made once per game, over all its texts together,
 * so one odd comment does not split a game between charsets. Never fails: the last resort keeps
 * every byte (as Latin-1), because the texts are names and comments, never the moves. */
#include "record/sgf_internal.h"

#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MODE_UTF8, MODE_ICONV, MODE_UTF8_REPAIR, MODE_LATIN1 };

/* Names we report (the record keeps a pointer, so they must be static). */
static const char *const known_names[] = {
    "UTF-8",     "ASCII",  "ISO-8859-1",   "ISO-8859-2",  "ISO-8859-15", "WINDOWS-1252",
    "GB18030",   "GBK",    "GB2312",       "EUC-CN",      "BIG5",        "BIG5-HKSCS",
    "SHIFT_JIS", "CP932",  "EUC-JP",       "ISO-2022-JP", "EUC-KR",      "CP949",
    "UHC",       "KOI8-R", "WINDOWS-1251", "UTF-16",      "UTF-16LE",    "UTF-16BE",
};

/* Canonical upper-case form: "utf8" -> "UTF-8", "Shift-JIS" -> "SHIFT_JIS", "sjis" -> ... */
static void canonical(const char *in, char *out, size_t size)
{
    size_t n = 0;
    while (*in && isspace((unsigned char)*in)) in++;
    for (; *in && n + 1 < size; in++) out[n++] = (char)toupper((unsigned char)*in);
    while (n > 0 && isspace((unsigned char)out[n - 1])) n--;
    out[n] = '\0';
    static const char *const alias[][2] = {
        {"UTF8", "UTF-8"},        {"SHIFT-JIS", "SHIFT_JIS"}, {"SJIS", "SHIFT_JIS"},
        {"LATIN1", "ISO-8859-1"}, {"LATIN-1", "ISO-8859-1"},  {"US-ASCII", "ASCII"},
        {"CP936", "GBK"},         {"WINDOWS-936", "GBK"},     {"MS932", "CP932"},
        {"WINDOWS-31J", "CP932"}, {"CP1252", "WINDOWS-1252"}, {"ISO8859-1", "ISO-8859-1"},
    };
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (strcmp(out, alias[i][0]) == 0) snprintf(out, size, "%s", alias[i][1]);
}

static const char *static_name(const char *canon)
{
    for (size_t i = 0; i < sizeof known_names / sizeof known_names[0]; i++)
        if (strcmp(canon, known_names[i]) == 0) return known_names[i];
    return "declared in CA[]";
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static int utf8_seq(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int n;
    unsigned min;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, min = 0x10000;
    else
        return 0;
    unsigned cp = c & (0x7F >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0; /* also stops at NUL */
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

bool sgf_utf8_valid(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        int n = utf8_seq(u);
        if (!n) return false;
        u += n;
    }
    return true;
}

static bool all_ascii(const char *const *texts, int n)
{
    for (int i = 0; i < n; i++)
        for (const unsigned char *u = (const unsigned char *)texts[i]; *u; u++)
            if (*u >= 0x80) return false;
    return true;
}

static bool all_utf8(const char *const *texts, int n)
{
    for (int i = 0; i < n; i++)
        if (!sgf_utf8_valid(texts[i])) return false;
    return true;
}

/* Convert s with cd; NULL when s is not valid in the source charset. */
static char *iconv_convert(iconv_t cd, const char *s)
{
    size_t inlen = strlen(s);
    size_t cap = inlen * 4 + 16;
    char *out = malloc(cap);
    if (!out) return NULL;
    iconv(cd, NULL, NULL, NULL, NULL);
    char *in = (char *)s, *o = out;
    size_t inleft = inlen, outleft = cap - 1;
    while (inleft > 0) {
        size_t r = iconv(cd, &in, &inleft, &o, &outleft);
        if (r != (size_t)-1) break;
        if (errno == E2BIG) {
            size_t used = (size_t)(o - out);
            char *nb = realloc(out, cap * 2);
            if (!nb) {
                free(out);
                return NULL;
            }
            out = nb;
            cap *= 2;
            o = out + used;
            outleft = cap - used - 1;
            continue;
        }
        free(out); /* EILSEQ or EINVAL (incomplete sequence at the end) */
        return NULL;
    }
    /* flush a stateful encoding (ISO-2022-JP) */
    if (iconv(cd, NULL, NULL, &o, &outleft) == (size_t)-1) {
        free(out);
        return NULL;
    }
    *o = '\0';
    return out;
}

static bool converts_all(iconv_t cd, const char *const *texts, int n)
{
    for (int i = 0; i < n; i++) {
        char *r = iconv_convert(cd, texts[i]);
        if (!r) return false;
        free(r);
    }
    return true;
}

/* How much the double-byte pairs look like common GB2312 hanzi (positive) rather than rare GBK
 * extensions (negative). */
static long score_gbk(const char *const *texts, int n)
{
    long score = 0;
    for (int i = 0; i < n; i++) {
        const unsigned char *u = (const unsigned char *)texts[i];
        while (*u) {
            if (*u < 0x80) {
                u++;
                continue;
            }
            unsigned lead = u[0], trail = u[1];
            if (!trail) break;
            if (trail >= 0x30 && trail <= 0x39) { /* GB18030 four-byte form: rare */
                score -= 2;
                u += u[2] && u[3] ? 4 : 2;
                continue;
            }
            score += (lead >= 0xA1 && lead <= 0xF7 && trail >= 0xA1) ? 2 : -1;
            u += 2;
        }
    }
    return score;
}

/* How much the bytes look like Shift-JIS kana and level-1 kanji rather than half-width kana. */
static long score_sjis(const char *const *texts, int n)
{
    long score = 0;
    for (int i = 0; i < n; i++) {
        const unsigned char *u = (const unsigned char *)texts[i];
        while (*u) {
            unsigned lead = u[0];
            if (lead < 0x80) {
                u++;
            } else if (lead >= 0xA1 && lead <= 0xDF) { /* half-width katakana: rare in records */
                score -= 1;
                u++;
            } else {
                if (!u[1]) break;
                if (lead == 0x82 || lead == 0x83)
                    score += 2; /* hiragana, katakana */
                else if (lead == 0x81 || (lead >= 0x88 && lead <= 0x9F))
                    score += 1; /* punctuation, kanji */
                else if (!(lead >= 0xE0 && lead <= 0xEA))
                    score -= 1;
                u += 2;
            }
        }
    }
    return score;
}

/* Length of a damaged UTF-8 sequence at u (a lead byte, then fewer continuation bytes than it
 * needs, some replaced by '?'), or 0. */
static int damaged_len(const unsigned char *u)
{
    if (*u < 0xC2 || *u > 0xF4) return 0;
    int cont = 0, need = *u >= 0xF0 ? 3 : *u >= 0xE0 ? 2 : 1;
    while (cont < need && ((u[1 + cont] & 0xC0) == 0x80 || u[1 + cont] == '?')) cont++;
    return cont ? 1 + cont : 0;
}

/* UTF-8 evidence against the rest: Fox's names are UTF-8 with single bytes replaced by '?', so
 * valid sequences and damaged ones (a lead byte followed by continuation bytes and '?', cut
 * short) both count for UTF-8; any other byte >= 0x80 counts against. */
static bool mostly_utf8(const char *const *texts, int n)
{
    long good = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        const unsigned char *u = (const unsigned char *)texts[i];
        while (*u) {
            int k = utf8_seq(u);
            if (k == 1) {
                u++;
                continue;
            }
            if (k > 1) {
                good++;
                u += k;
                continue;
            }
            int dmg = damaged_len(u);
            if (dmg)
                good++;
            else
                bad++;
            u += dmg ? dmg : 1;
        }
    }
    return good > 0 && good >= bad;
}

static void set_iconv(struct sgf_decoder *d, iconv_t cd, const char *name)
{
    d->mode = MODE_ICONV;
    d->cd = cd;
    d->name = name;
}

static bool try_iconv(struct sgf_decoder *d, const char *name, const char *const *texts, int n,
                      long *score, long (*scorer)(const char *const *, int))
{
    iconv_t cd = iconv_open("UTF-8", name);
    if (cd == (iconv_t)-1) return false;
    if (!converts_all(cd, texts, n)) {
        iconv_close(cd);
        return false;
    }
    *score = scorer(texts, n);
    iconv_close(cd);
    return true;
}

/* A double-byte reading must show at least two common characters to beat Latin-1: one accented
 * pair such as "\xE9\xE9" in French "cr\xE9\xE9" is also a valid GBK character. */
#define MIN_SCORE 4

static void guess(struct sgf_decoder *d, const char *const *texts, int n)
{
    if (all_utf8(texts, n)) {
        d->mode = MODE_UTF8;
        d->name = "UTF-8";
        return;
    }
    if (mostly_utf8(texts, n)) {
        d->mode = MODE_UTF8_REPAIR;
        d->name = "UTF-8 (invalid bytes replaced)";
        return;
    }
    long sg = 0, sj = 0;
    bool gb = try_iconv(d, "GB18030", texts, n, &sg, score_gbk) && sg >= MIN_SCORE;
    bool js = try_iconv(d, "CP932", texts, n, &sj, score_sjis) && sj >= MIN_SCORE;
    const char *pick = gb && js ? (sj > sg ? "CP932" : "GB18030")
                       : gb     ? "GB18030"
                       : js     ? "CP932"
                                : NULL;
    if (pick) {
        iconv_t cd = iconv_open("UTF-8", pick);
        if (cd != (iconv_t)-1) {
            set_iconv(d, cd, pick);
            return;
        }
    }
    d->mode = MODE_LATIN1;
    d->name = "ISO-8859-1";
}

void sgf_decoder_open(struct sgf_decoder *d, const char *declared, const char *const *texts,
                      int ntexts, char *warning, size_t warning_size)
{
    memset(d, 0, sizeof *d);
    if (warning_size) warning[0] = '\0';
    if (declared && strlen(declared) <= SGF_MAX_CHARSET && declared[0]) {
        char canon[SGF_MAX_CHARSET + 8];
        canonical(declared, canon, sizeof canon);
        if (!canon[0]) { /* iconv would take "" for the locale's charset */
            snprintf(warning, warning_size, "empty CA[]; guessed the charset");
        } else if (strcmp(canon, "UTF-8") == 0 || strcmp(canon, "ASCII") == 0) {
            bool ok = canon[0] == 'U' ? all_utf8(texts, ntexts) : all_ascii(texts, ntexts);
            if (ok) {
                d->mode = MODE_UTF8;
                d->name = static_name(canon);
                return;
            }
            snprintf(warning, warning_size, "CA[%s] but the text is not %s; guessed the charset",
                     canon, canon);
        } else if (all_ascii(texts, ntexts)) {
            /* nothing to decode; avoid iconv for pure ASCII under any declared name */
            d->mode = MODE_UTF8;
            d->name = static_name(canon);
            return;
        } else {
            iconv_t cd = iconv_open("UTF-8", canon);
            if (cd == (iconv_t)-1) {
                snprintf(warning, warning_size, "unknown charset CA[%s]; guessed the charset",
                         canon);
            } else if (!converts_all(cd, texts, ntexts)) {
                iconv_close(cd);
                snprintf(warning, warning_size,
                         "text is not valid %s as CA[] declares; guessed the charset", canon);
            } else {
                set_iconv(d, cd, static_name(canon));
                return;
            }
        }
    } else if (declared && declared[0]) {
        snprintf(warning, warning_size, "CA[] value too long; guessed the charset");
    }
    guess(d, texts, ntexts);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *r = malloc(n);
    if (r) memcpy(r, s, n);
    return r;
}

/* Latin-1 (each byte one code point) to UTF-8. */
static char *latin1_to_utf8(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n * 2 + 1), *o = out;
    if (!out) return NULL;
    for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
        if (*u < 0x80) {
            *o++ = (char)*u;
        } else {
            *o++ = (char)(0xC0 | (*u >> 6));
            *o++ = (char)(0x80 | (*u & 0x3F));
        }
    }
    *o = '\0';
    return out;
}

/* UTF-8 with what is not valid replaced by U+FFFD. */
static char *utf8_repair(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(n * 3 + 1), *o = out;
    if (!out) return NULL;
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        int k = utf8_seq(u);
        if (k) {
            memcpy(o, u, (size_t)k);
            o += k;
            u += k;
        } else { /* one U+FFFD per damaged character, or per stray byte */
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3;
            k = damaged_len(u);
            u += k ? k : 1;
        }
    }
    *o = '\0';
    return out;
}

char *sgf_decoder_run(struct sgf_decoder *d, const char *s)
{
    switch (d->mode) {
    case MODE_ICONV: {
        char *r = iconv_convert((iconv_t)d->cd, s);
        if (r) return r;
        break; /* a text that was not among those tested: keep its bytes */
    }
    case MODE_UTF8:
        if (sgf_utf8_valid(s)) return dup_str(s);
        break;
    case MODE_UTF8_REPAIR: return utf8_repair(s);
    default: break;
    }
    return sgf_utf8_valid(s) ? dup_str(s) : latin1_to_utf8(s);
}

void sgf_decoder_close(struct sgf_decoder *d)
{
    if (d->mode == MODE_ICONV && d->cd) iconv_close((iconv_t)d->cd);
    d->cd = NULL;
}

/* record/sgf_internal.h — helpers shared by the SGF files of record/ (not part of the API). */
#ifndef KIFUCAM_RECORD_SGF_INTERNAL_H
#define KIFUCAM_RECORD_SGF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "record/sgf.h"

/* Hard limits: hostile input must not exhaust memory or time. Real files are far below them
 * (the largest real collections have some 10^5 nodes). */
#define SGF_MAX_INPUT   (32u << 20) /* bytes of one file */
#define SGF_MAX_NODES   2000000     /* nodes in one file */
#define SGF_MAX_DEPTH   10000       /* nesting of '(' */
#define SGF_MAX_GAMES   100000      /* game trees in one file */
#define SGF_MAX_PROPS   256         /* different properties in one node (lookup is linear) */
#define SGF_MAX_SETUP   100000      /* setup stones (AB/AW/AE) in one record */
#define SGF_MAX_CHARSET 40          /* length of a CA[] name we pass to iconv */
#define SGF_MAX_SECONDS 1e9         /* TM, BL, WL beyond this are not times: ignored */

/* Where game i of a collection starts in the text (1-based line and column); 0 when unknown. */
void sgf_game_position(const struct sgf_collection *c, int i, int *line, int *column);

/* Line and column (1-based) of a byte offset, counting "\n", "\r\n" and a lone "\r" as one line
 * break each. */
void sgf_offset_position(const char *data, size_t offset, int *line, int *column);

/* ---- charsets (sgf_charset.c) ------------------------------------------------------------ */

/* A decoder chosen once per game from the declared CA[] and the bytes of all its texts. */
struct sgf_decoder {
    int mode;         /* private: how to decode */
    void *cd;         /* private: iconv_t when mode is iconv */
    const char *name; /* the charset used, e.g. "UTF-8", "GB18030", "CP932", "ISO-8859-1" */
};

/* Choose the charset: CA[] if iconv knows it and every text converts; else UTF-8 if valid; else
 * GB18030 or CP932 by which converts and looks like real text; else UTF-8 with bad bytes replaced
 * (mostly-UTF-8 text, e.g. Fox's lossy names) or Latin-1. A problem with CA[] is written to
 * warning (empty when none). */
void sgf_decoder_open(struct sgf_decoder *d, const char *declared, const char *const *texts,
                      int ntexts, char *warning, size_t warning_size);
/* Decode one value to malloc'd UTF-8 (never NULL unless out of memory). */
char *sgf_decoder_run(struct sgf_decoder *d, const char *s);
void sgf_decoder_close(struct sgf_decoder *d);

/* True when s (NUL-terminated) is valid UTF-8 (no overlongs, no surrogates). */
bool sgf_utf8_valid(const char *s);

/* ---- numbers (sgf_go.c, used by the writer) ------------------------------------------------ */

/* v as an SGF Real: plain decimal, at most three decimals ("7.5", "3160", "1799.874"); exact
 * for the multiples of 0.001 the reader keeps. buf holds at least 32 bytes; |v| <= 1e9. */
void sgf_format_double(char *buf, size_t size, double v);

#endif

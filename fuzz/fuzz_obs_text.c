/* fuzz/fuzz_obs_text.c — libFuzzer target for the observation-stream text reader
 * (ruleguard/obs_text.h), Go and shogi streams.
 *
 * Any bytes: read the header and every item; whatever reads is written back, and the text
 * written must read again and write the very same text (abort() otherwise): a stream that
 * `kifucam check` reads is one it can also write. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/obs_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OUT_MAX 16384

/* Write it, read it back, write it again: the two texts must be equal. */
static void roundtrip(const struct obs_stream_header *hdr, const struct obs_item *it, char *a,
                      char *b, struct obs_item *again)
{
    size_t na = obs_text_format_item(hdr, it, a, OUT_MAX);
    if (na >= OUT_MAX) abort(); /* one item is a few hundred bytes */
    const char *cur = a;
    int line = 0;
    struct obs_text_error err;
    if (obs_text_next(&cur, &line, hdr, again, &err) != 1) abort();
    size_t nb = obs_text_format_item(hdr, again, b, OUT_MAX);
    if (nb != na || memcmp(a, b, na)) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    char *a = malloc(OUT_MAX), *b = malloc(OUT_MAX);
    struct obs_stream_header *hdr = malloc(sizeof *hdr), *hdr2 = malloc(sizeof *hdr2);
    struct obs_item *it = malloc(sizeof *it), *again = malloc(sizeof *again);
    if (!text || !a || !b || !hdr || !hdr2 || !it || !again) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    const char *cur = text;
    int line = 0;
    struct obs_text_error err;
    if (obs_text_header(&cur, &line, hdr, &err)) {
        /* the header too reads back as written */
        size_t n = obs_text_format_header(hdr, a, OUT_MAX);
        if (n >= OUT_MAX) abort();
        const char *c2 = a;
        int l2 = 0;
        if (!obs_text_header(&c2, &l2, hdr2, &err)) abort();
        size_t n2 = obs_text_format_header(hdr2, b, OUT_MAX);
        if (n2 != n || memcmp(a, b, n)) abort();
        for (int k = 0; k < 10000 && obs_text_next(&cur, &line, hdr, it, &err) == 1; k++)
            roundtrip(hdr, it, a, b, again);
    }
    free(text);
    free(a);
    free(b);
    free(hdr);
    free(hdr2);
    free(it);
    free(again);
    return 0;
}

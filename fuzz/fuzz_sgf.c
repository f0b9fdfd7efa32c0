/* fuzz/fuzz_sgf.c — libFuzzer target for the SGF reader and writer.
 *
 * Any bytes: parse, convert every game, write each record, read the written text back. The
 * written text must parse without a single complaint, give the same moves, and write out again
 * to exactly the same text (so every field survives the round trip); otherwise abort(). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/sgf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Numbers the writer produces are SGF Numbers or Reals: digits, one optional '.', no exponent. */
static void check_numbers(const struct sgf_collection *c)
{
    static const char *const ids[] = {"KM", "HA", "BL", "WL", "OB", "OW", "MN"};
    for (const struct sgf_node *n = c->games[0]; n; n = n->child)
        for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
            const char *v = sgf_node_get(n, ids[i]);
            if (!v) continue;
            if (*v == '-') v++;
            int dots = 0, digits = 0;
            for (; *v; v++) {
                if (*v == '.')
                    dots++;
                else if (*v >= '0' && *v <= '9')
                    digits++;
                else
                    abort();
            }
            if (dots > 1 || digits == 0) abort();
        }
}

static void check_roundtrip(const struct go_record *r)
{
    char *text = sgf_write_go_record(r);
    if (!text) abort();
    struct sgf_error err;
    struct sgf_collection *c = sgf_parse(text, strlen(text), &err);
    if (!c || c->ngames != 1 || err.message[0]) abort();
    check_numbers(c);
    struct go_record *back = sgf_to_go_record(c->games[0], &err);
    if (!back) abort();
    if (back->width != r->width || back->height != r->height || back->nnodes != r->nnodes) abort();
    for (int i = 0; i < r->nnodes; i++) {
        const struct go_record_node *a = &r->nodes[i], *b = &back->nodes[i];
        if (a->has_move != b->has_move) abort();
        if (a->has_move && (a->move.color != b->move.color || a->move.point != b->move.point))
            abort();
    }
    char *again = sgf_write_go_record(back);
    if (!again || strcmp(text, again) != 0) abort();
    free(again);
    go_record_free(back);
    sgf_collection_free(c);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sgf_error err;
    struct sgf_collection *c = sgf_parse((const char *)data, size, &err);
    if (!c) return 0;
    for (int i = 0; i < c->ngames; i++) {
        sgf_node_get(c->games[i], "GM");
        struct go_record *r = sgf_to_go_record(c->games[i], &err);
        if (!r) continue;
        check_roundtrip(r);
        go_record_free(r);
    }
    sgf_collection_free(c);
    return 0;
}

/* fuzz/fuzz_kif.c — libFuzzer target for the shogi KIF reader (Shift-JIS or UTF-8).
 *
 * Any bytes: read; every record read is written as KIF, JKF, USI and CSA, and the CSA text must
 * read back as one game with the same moves (abort() otherwise). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/shogi_record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(const struct shogi_record *r)
{
    free(shogi_kif_write(r, NULL));
    free(shogi_jkf_write(r));
    free(shogi_usi_write(r));
    char *csa = shogi_csa_write(r);
    if (!csa) abort();
    bool all_played = true;
    for (int i = 0; i < r->nmoves; i++) all_played &= r->moves[i].played;
    struct shogi_record **back = NULL;
    struct shogi_record_error err;
    int n = shogi_csa_read(csa, strlen(csa), "back.csa", &back, &err);
    if (all_played && (n != 1 || !shogi_record_same_moves(r, back[0]))) abort();
    if (n >= 0) shogi_records_free(back, n);
    free(csa);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct shogi_record_error err;
    struct shogi_record *r = shogi_kif_read((const char *)data, size, "fuzz.kif", &err);
    if (r) exercise(r);
    shogi_record_free(r);
    return 0;
}

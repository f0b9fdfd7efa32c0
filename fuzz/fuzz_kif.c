/* fuzz/fuzz_kif.c — libFuzzer target for the shogi KIF reader (Shift-JIS or UTF-8).
 *
 * Any bytes: read; every record read is written as KIF, JKF, USI and CSA, and the CSA text must
 * read back as one game with the same moves (abort() otherwise). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/shogi_roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct shogi_record_error err;
    struct shogi_record *r = shogi_kif_read((const char *)data, size, "fuzz.kif", &err);
    if (r) fuzz_shogi_roundtrip(r);
    shogi_record_free(r);
    return 0;
}

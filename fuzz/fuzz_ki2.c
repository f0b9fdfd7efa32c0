/* fuzz/fuzz_ki2.c — libFuzzer target for the shogi KI2 reader (relative move words resolved against
 * the board).
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
    struct shogi_record *r = shogi_ki2_read((const char *)data, size, "fuzz.ki2", &err);
    if (r) fuzz_shogi_roundtrip(r);
    shogi_record_free(r);
    return 0;
}

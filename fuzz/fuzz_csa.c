/* fuzz/fuzz_csa.c — libFuzzer target for the shogi CSA reader (V2.2 / V3.0, several games).
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
    struct shogi_record **v = NULL;
    int n = shogi_csa_read((const char *)data, size, "fuzz.csa", &v, &err);
    for (int i = 0; i < n; i++) fuzz_shogi_roundtrip(v[i]);
    if (n >= 0) shogi_records_free(v, n);
    return 0;
}

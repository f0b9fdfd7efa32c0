/* fuzz/shogi_roundtrip.h — what every shogi fuzz target does with a record it could read: write it
 * as KIF, JKF, USI and CSA, and require the CSA text to read back as one game with the same moves
 * (abort() otherwise, so libFuzzer reports it). */
#ifndef KIFUCAM_FUZZ_SHOGI_ROUNDTRIP_H
#define KIFUCAM_FUZZ_SHOGI_ROUNDTRIP_H

#include "record/shogi_record.h"

void fuzz_shogi_roundtrip(const struct shogi_record *r);

#endif

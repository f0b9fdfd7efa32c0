#include "fuzz/shogi_roundtrip.h"

#include <stdlib.h>
#include <string.h>

void fuzz_shogi_roundtrip(const struct shogi_record *r)
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

/* tests/vision/test_shogi_book.c — the piece book alone: a promoted face learned of one owner
 * stands for the other owner's, turned half round, until a face of the other owner is seen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "vision/shogi_read.h"

#define AREA (SHOGI_PATCH * SHOGI_PATCH)

static void random_patch(uint8_t *p, unsigned seed)
{
    srand(seed);
    for (int i = 0; i < AREA; i++) p[i] = (uint8_t)(rand() & 0xff);
}

static void turned(const uint8_t *p, uint8_t *out)
{
    for (int i = 0; i < AREA; i++) out[i] = p[AREA - 1 - i];
}

static void test_promoted_face_both_owners(void **state)
{
    (void)state;
    static struct shogi_book b;
    shogi_book_clear(&b);
    uint8_t dragon[AREA], dragon_t[AREA], other[AREA], pawn[AREA], pawn_t[AREA];
    random_patch(dragon, 1);
    turned(dragon, dragon_t);
    random_patch(other, 2);
    random_patch(pawn, 3);
    turned(pawn, pawn_t);
    int sd = shogi_piece(SHOGI_SENTE, SHOGI_DRAGON), gd = shogi_piece(SHOGI_GOTE, SHOGI_DRAGON);
    assert_true(shogi_book_match(&b, gd, dragon_t) <= -2);
    /* sente's dragon seen: gote's is the same face turned half round */
    shogi_book_add(&b, sd, dragon);
    assert_true(shogi_book_match(&b, sd, dragon) > 0.99);
    assert_true(shogi_book_match(&b, gd, dragon_t) > 0.99);
    assert_true(shogi_book_match(&b, gd, dragon) < 0.5);
    /* gote's own dragon seen: it replaces the turned face (not averaged with it) */
    shogi_book_add(&b, gd, other);
    assert_int_equal(b.count[SHOGI_DRAGON][SHOGI_GOTE], 1);
    assert_true(shogi_book_match(&b, gd, other) > 0.99);
    /* and sente's entry is not touched by gote's */
    assert_true(shogi_book_match(&b, sd, dragon) > 0.99);
    /* a plain face stands for itself only (the start shows both owners') */
    shogi_book_add(&b, shogi_piece(SHOGI_SENTE, SHOGI_PAWN), pawn);
    assert_true(shogi_book_match(&b, shogi_piece(SHOGI_GOTE, SHOGI_PAWN), pawn_t) <= -2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_promoted_face_both_owners)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/board/test_shogi_rules.c — one position per rule, each with the verdict a move must get:
 * the illegal moves 1)–9) of the seed tournament rules (with the JSA 反則 behind them), promotion
 * (optional and forced), drops, check evasions, pins, 打ち歩詰め vs a pushed pawn's mate. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "board/shogi.h"
#include "tests/testutil.h"

static void load(struct shogi_position *pos, const char *sfen)
{
    char err[200] = "";
    if (!shogi_sfen_parse(pos, sfen, NULL, err, sizeof err)) fail_msg("%s: %s", sfen, err);
}

struct rule_case {
    const char *sfen;
    const char *usi; /* the move as a record gives it */
    enum shogi_illegal rule;
    enum shogi_fault fault;
};

#define LEGAL SHOGI_LEGAL, SHOGI_FAULT_NONE
#define DEAD  SHOGI_ILLEGAL_DEAD_PIECE, SHOGI_FAULT_DEAD_PIECE
#define IMP   SHOGI_ILLEGAL_IMPOSSIBLE
#define CHECK SHOGI_ILLEGAL_KING_IN_CHECK

static const struct rule_case cases[] = {
    /* 1) 行き所のない駒, by moving: a pawn or lance to the last rank, a knight to the last two,
     * unpromoted. Promoting there is fine, and so is not promoting where the piece can move on. */
    {"k8/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a", DEAD},
    {"k8/4P4/9/9/9/9/9/9/4K4 b - 1", "5b5a+", LEGAL},
    {"k8/9/8L/9/9/9/9/9/4K4 b - 1", "1c1a", DEAD},
    {"k8/9/8L/9/9/9/9/9/4K4 b - 1", "1c1b", LEGAL},
    {"k8/9/8L/9/9/9/9/9/4K4 b - 1", "1c1a+", LEGAL},
    {"k8/9/9/6N2/9/9/9/9/4K4 b - 1", "3d4b", DEAD},
    {"k8/9/9/6N2/9/9/9/9/4K4 b - 1", "3d2b+", LEGAL},
    {"k8/9/9/9/6N2/9/9/9/4K4 b - 1", "3e2c", LEGAL},
    {"k8/9/9/9/6N2/9/9/9/4K4 b - 1", "3e2c+", LEGAL},
    {"4k4/9/9/9/9/9/9/4p4/K8 w - 1", "5h5i", DEAD},
    {"4k4/9/9/9/9/9/9/4p4/K8 w - 1", "5h5i+", LEGAL},
    {"4k4/9/9/9/9/9/2n6/9/K8 w - 1", "7g6i", DEAD},
    {"4k4/9/9/9/9/9/2n6/9/K8 w - 1", "7g8i+", LEGAL},
    /* silvers, bishops and rooks may always stay unpromoted */
    {"k8/9/9/4S4/9/9/9/9/4K4 b - 1", "5d5c", LEGAL},
    {"k8/9/9/4S4/9/9/9/9/4K4 b - 1", "5d5c+", LEGAL},
    /* 1) by dropping */
    {"k8/9/9/9/9/9/9/9/4K4 b PLN 1", "P*5a", DEAD},
    {"k8/9/9/9/9/9/9/9/4K4 b PLN 1", "L*5a", DEAD},
    {"k8/9/9/9/9/9/9/9/4K4 b PLN 1", "N*5a", DEAD},
    {"k8/9/9/9/9/9/9/9/4K4 b PLN 1", "N*5b", DEAD},
    {"k8/9/9/9/9/9/9/9/4K4 b PLN 1", "N*5c", LEGAL},
    {"k8/9/9/9/9/9/9/9/4K4 b PLN 1", "P*5b", LEGAL},
    {"k8/9/9/9/9/9/9/9/4K4 b PLN 1", "L*5b", LEGAL},
    {"4k4/9/9/9/9/9/9/9/K8 w pln 1", "P*5i", DEAD},
    {"4k4/9/9/9/9/9/9/9/K8 w pln 1", "N*5h", DEAD},
    {"4k4/9/9/9/9/9/9/9/K8 w pln 1", "N*5g", LEGAL},
    /* 2) 二歩: a second unpromoted pawn on a file; a と does not count */
    {"k8/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e", SHOGI_ILLEGAL_NIFU, SHOGI_FAULT_NIFU},
    {"k8/9/9/9/9/9/4P4/9/4K4 b P 1", "P*4e", LEGAL},
    {"k8/9/9/9/9/9/4+P4/9/4K4 b P 1", "P*5e", LEGAL},
    {"4k4/4p4/9/9/9/9/9/9/K8 w p 1", "P*5e", SHOGI_ILLEGAL_NIFU, SHOGI_FAULT_NIFU},
    /* 3) 打ち歩詰め (§4.2): the dropped pawn mates; a lance there does not break the rule */
    {"7lk/9/8S/9/9/9/9/7L1/8K b P 1", "P*1b", SHOGI_ILLEGAL_UCHIFUZUME, SHOGI_FAULT_UCHIFUZUME},
    {"3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1", "P*5b", SHOGI_ILLEGAL_UCHIFUZUME,
     SHOGI_FAULT_UCHIFUZUME},
    {"3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1", "L*5b", LEGAL},
    /* the knight on 2d guards 1b: mate by a dropped pawn, illegal ... */
    {"7lk/9/6S2/7N1/9/9/9/9/4K4 b P 1", "P*1b", SHOGI_ILLEGAL_UCHIFUZUME, SHOGI_FAULT_UCHIFUZUME},
    /* ... but the same mate by a pawn pushed from 1c is legal (突き歩詰め) */
    {"7lk/9/6S1P/7N1/9/9/9/9/4K4 b - 1", "1c1b", LEGAL},
    /* a pawn-drop check the king can answer (take the pawn) is legal */
    {"7lk/9/6S2/9/9/9/9/9/4K4 b P 1", "P*1b", LEGAL},
    /* a defender other than the king takes the pawn: no mate, legal (the silver on 2c) */
    {"7lk/9/6Ss1/7N1/9/9/9/9/4K4 b P 1", "P*1b", LEGAL},
    /* the gold on 2b takes the pawn ... */
    {"7lk/7g1/9/7N1/9/9/9/9/4K4 b P 1", "P*1b", LEGAL},
    /* ... unless the bishop on 4d pins it to its king: then it is mate, and illegal */
    {"7lk/7g1/9/5B1N1/9/9/9/9/4K4 b P 1", "P*1b", SHOGI_ILLEGAL_UCHIFUZUME, SHOGI_FAULT_UCHIFUZUME},
    /* 5) impossible moves */
    {SHOGI_SFEN_STARTPOS, "7g7h", IMP, SHOGI_FAULT_CANNOT_REACH},  /* a pawn backwards */
    {SHOGI_SFEN_STARTPOS, "7g6f", IMP, SHOGI_FAULT_CANNOT_REACH},  /* a pawn sideways */
    {SHOGI_SFEN_STARTPOS, "8i7g", IMP, SHOGI_FAULT_OWN_CAPTURE},   /* knight takes own pawn */
    {SHOGI_SFEN_STARTPOS, "8h7g", IMP, SHOGI_FAULT_OWN_CAPTURE},   /* bishop takes own pawn */
    {SHOGI_SFEN_STARTPOS, "8h6f", IMP, SHOGI_FAULT_JUMP},          /* bishop jumps 7g */
    {SHOGI_SFEN_STARTPOS, "2h2c", IMP, SHOGI_FAULT_JUMP},          /* rook jumps 2g */
    {SHOGI_SFEN_STARTPOS, "7g7f+", IMP, SHOGI_FAULT_PROMOTE_ZONE}, /* promoting outside the zone */
    {"k8/9/4G4/9/9/9/9/9/4K4 b - 1", "5c5b+", IMP, SHOGI_FAULT_PROMOTE_TYPE},
    {"k8/9/4+S4/9/9/9/9/9/4K4 b - 1", "5c5b+", IMP, SHOGI_FAULT_PROMOTE_TYPE},
    {SHOGI_SFEN_STARTPOS, "P*5e", IMP, SHOGI_FAULT_NOT_IN_HAND},
    {"k8/9/9/9/9/9/9/9/4K4 b G 1", "G*9a", IMP, SHOGI_FAULT_DROP_OCCUPIED},
    {"k8/9/9/9/9/9/9/9/4K4 b G 1", "G*5i", IMP, SHOGI_FAULT_DROP_OCCUPIED},
    /* a promoted piece moves like a gold; a horse also one step orthogonally */
    {"k8/9/9/9/4+P4/9/9/9/4K4 b - 1", "5e5f", LEGAL},
    {"k8/9/9/9/4+P4/9/9/9/4K4 b - 1", "5e4d", LEGAL},
    {"k8/9/9/9/4+P4/9/9/9/4K4 b - 1", "5e4f", IMP, SHOGI_FAULT_CANNOT_REACH},
    {"1k7/9/9/9/4+B4/9/9/9/4K4 b - 1", "5e5d", LEGAL},
    {"1k7/9/9/9/4+B4/9/9/9/4K4 b - 1", "5e1a", LEGAL},
    {"1k7/9/9/9/4+B4/9/9/9/4K4 b - 1", "5e5c", IMP, SHOGI_FAULT_CANNOT_REACH},
    {"k8/9/9/9/4+R4/9/9/9/4K4 b - 1", "5e4d", LEGAL},
    {"k8/9/9/9/4+R4/9/9/9/4K4 b - 1", "5e3c", IMP, SHOGI_FAULT_CANNOT_REACH},
    /* 8) king left in or moved into check */
    {"4k4/9/9/9/4r4/9/9/9/3K5 b - 1", "6i5i", CHECK, SHOGI_FAULT_INTO_CHECK},
    {"4k4/9/9/9/4r4/9/9/9/3K5 b - 1", "6i6h", LEGAL},
    {"4k4/9/9/9/4r4/9/9/9/4K3P b - 1", "1i1h", CHECK, SHOGI_FAULT_LEFT_IN_CHECK},
    {"4k4/9/9/9/4r4/9/9/9/4K3P b - 1", "5i5h", CHECK, SHOGI_FAULT_LEFT_IN_CHECK}, /* on the line */
    {"4k4/9/9/9/4r4/9/9/9/4K3P b - 1", "5i4h", LEGAL},
    {"4k4/9/9/9/4r4/9/4G4/9/4K4 b - 1", "5g4f", CHECK, SHOGI_FAULT_INTO_CHECK}, /* pinned gold */
    {"4k4/9/9/9/4r4/9/4G4/9/4K4 b - 1", "5g5f", LEGAL},                         /* along the pin */
    {"4k4/9/9/9/4r4/9/9/9/4K4 b G 1", "G*1a", CHECK, SHOGI_FAULT_LEFT_IN_CHECK},
    {"4k4/9/9/9/4r4/9/9/9/4K4 b G 1", "G*5h", LEGAL},   /* interposing drop */
    {"4k4/9/9/9/4r4/9/9/4R4/4K4 b - 1", "5h5e", LEGAL}, /* the rook shields, then takes */
    {"4k4/9/9/9/4r4/9/9/4R4/4K4 b - 1", "5h4h", CHECK, SHOGI_FAULT_INTO_CHECK},
    {"4k4/9/9/9/4r4/9/9/9/4K2R1 b - 1", "2i2e", CHECK, SHOGI_FAULT_LEFT_IN_CHECK},
    {"4k4/9/9/9/4r4/9/9/9/4K2R1 b - 1", "2i6i", IMP, SHOGI_FAULT_JUMP},
    {"4k4/9/9/9/4r4/9/9/9/4K2R1 b - 1", "2i5i", IMP, SHOGI_FAULT_OWN_CAPTURE},
    {"4k4/9/9/9/4r4/9/9/7R1/4K4 b - 1", "2h5h", LEGAL}, /* interposing by a move */
    /* a lance pins along the file it runs down, never up it */
    {"4k4/9/9/9/9/4l4/4S4/9/4K4 b - 1", "5g4f", CHECK, SHOGI_FAULT_INTO_CHECK},
    {"4k4/9/9/9/9/4K4/4S4/4l4/9 b - 1", "5g4f", LEGAL},
    {"4k4/9/9/9/9/4l4/9/4S4/4K4 b - 1", "5h4g", CHECK, SHOGI_FAULT_INTO_CHECK},
    {"4k4/9/9/9/9/4l4/9/4S4/4K4 b - 1", "5h5g", LEGAL},
    /* double check: only the king may move */
    {"4k4/9/9/9/4r4/9/5n3/9/4K2R1 b - 1", "2i2e", CHECK, SHOGI_FAULT_LEFT_IN_CHECK},
    {"4k4/9/9/9/4r4/9/5n3/9/4K2R1 b - 1", "5i4h", LEGAL},
    /* 9) moving in the opponent's time: a record in which one side moves twice */
    {SHOGI_SFEN_STARTPOS, "3c3d", SHOGI_ILLEGAL_OUT_OF_TURN, SHOGI_FAULT_OUT_OF_TURN},
    {"lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2", "2g2f",
     SHOGI_ILLEGAL_OUT_OF_TURN, SHOGI_FAULT_OUT_OF_TURN},
    /* no piece on the from square */
    {SHOGI_SFEN_STARTPOS, "5e5d", IMP, SHOGI_FAULT_NO_PIECE},
};

static void test_rule_cases(void **state)
{
    (void)state;
    int checked = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct shogi_position pos;
        load(&pos, cases[i].sfen);
        struct shogi_move m;
        if (!shogi_move_from_usi(&pos, cases[i].usi, &m)) {
            /* only "no piece there" may fail to parse: build the move by hand */
            if (cases[i].fault != SHOGI_FAULT_NO_PIECE)
                fail_msg("%s: cannot parse %s", cases[i].sfen, cases[i].usi);
            memset(&m, 0, sizeof m);
            m.from = (uint8_t)shogi_sq(cases[i].usi[0] - '0', cases[i].usi[1] - 'a' + 1);
            m.to = (uint8_t)shogi_sq(cases[i].usi[2] - '0', cases[i].usi[3] - 'a' + 1);
        }
        struct shogi_verdict v = shogi_check_move(&pos, m);
        if (v.rule != cases[i].rule || v.fault != cases[i].fault)
            fail_msg("%s %s: got %s / %s, expected %s / %s", cases[i].sfen, cases[i].usi,
                     shogi_illegal_name(v.rule), shogi_fault_text(v.fault),
                     shogi_illegal_name(cases[i].rule), shogi_fault_text(cases[i].fault));
        /* the generator lists exactly the legal ones */
        struct shogi_move list[SHOGI_MAX_MOVES];
        int n = shogi_legal_moves(&pos, list);
        bool listed = false;
        for (int k = 0; k < n; k++) listed |= shogi_move_equal(list[k], m);
        if (listed != (cases[i].rule == SHOGI_LEGAL))
            fail_msg("%s %s: generator listed=%d", cases[i].sfen, cases[i].usi, listed);
        checked++;
    }
    tu_note("%d rule cases", checked);
}

/* 5) a promoted piece dropped; 7) the side to move moves the opponent's piece */
static void test_struct_only_faults(void **state)
{
    (void)state;
    struct shogi_position pos;
    load(&pos, "k8/9/9/9/9/9/9/9/4K4 b P 1");
    struct shogi_move m = {SHOGI_HAND, (uint8_t)shogi_sq(5, 5),
                           (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_TOKIN), 0, false};
    struct shogi_verdict v = shogi_check_move(&pos, m);
    assert_int_equal(v.rule, SHOGI_ILLEGAL_IMPOSSIBLE);
    assert_int_equal(v.fault, SHOGI_FAULT_PROMOTED_DROP);
    m.piece = (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
    m.promote = true; /* "P*5e+" */
    assert_int_equal(shogi_check_move(&pos, m).fault, SHOGI_FAULT_PROMOTED_DROP);
    m.promote = false;
    assert_int_equal(shogi_check_move(&pos, m).rule, SHOGI_LEGAL);
    /* gote drops while sente is to move: out of turn */
    load(&pos, "k8/9/9/9/9/9/9/9/4K4 b p 1");
    m.piece = (uint8_t)shogi_piece(SHOGI_GOTE, SHOGI_PAWN);
    assert_int_equal(shogi_check_move(&pos, m).rule, SHOGI_ILLEGAL_OUT_OF_TURN);

    load(&pos, SHOGI_SFEN_STARTPOS);
    struct shogi_move o = {(uint8_t)shogi_sq(3, 3), (uint8_t)shogi_sq(3, 4),
                           (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN), 0, false};
    v = shogi_check_move(&pos, o);
    assert_int_equal(v.rule, SHOGI_ILLEGAL_OPPONENT_PIECE);
    assert_int_equal(v.fault, SHOGI_FAULT_OPPONENT_PIECE);
    o.piece = 0; /* unknown mover: the owner moved out of turn */
    assert_int_equal(shogi_check_move(&pos, o).rule, SHOGI_ILLEGAL_OUT_OF_TURN);
    o.from = SHOGI_SQUARES + 3;
    assert_int_equal(shogi_check_move(&pos, o).fault, SHOGI_FAULT_BAD_SQUARE);
}

static void test_check_and_mate(void **state)
{
    (void)state;
    struct shogi_position pos;
    load(&pos, "7lk/9/6S1P/7N1/9/9/9/9/4K4 b - 1");
    struct shogi_move m;
    assert_true(shogi_move_from_usi(&pos, "1c1b", &m));
    assert_true(shogi_gives_check(&pos, m));
    shogi_do_move(&pos, m);
    assert_true(shogi_in_check(&pos));
    assert_true(shogi_is_mate(&pos));            /* 突き歩詰め: mate, and legal */
    load(&pos, "8k/6S2/8G/9/9/9/9/9/4K4 w - 1"); /* no legal move, not in check: not mate */
    struct shogi_move list[SHOGI_MAX_MOVES];
    assert_int_equal(shogi_legal_moves(&pos, list), 0);
    assert_false(shogi_in_check(&pos));
    assert_false(shogi_is_mate(&pos));
    load(&pos, SHOGI_SFEN_STARTPOS);
    assert_false(shogi_in_check(&pos));
    assert_true(shogi_attacked(&pos, shogi_sq(7, 6), SHOGI_SENTE));  /* 7f: the 7g pawn */
    assert_false(shogi_attacked(&pos, shogi_sq(7, 5), SHOGI_SENTE)); /* 7e */
    assert_true(shogi_attacked(&pos, shogi_sq(1, 2), SHOGI_GOTE));   /* 1b: the lance */
}

/* A tsume problem has no sente king: moves are generated all the same, nothing is "in check". */
static void test_no_king(void **state)
{
    (void)state;
    struct shogi_position pos;
    load(&pos, "7nk/9/7PP/9/9/9/9/9/9 b G2r2b3g4s3n4l16p 1");
    assert_int_equal(pos.king_sq[SHOGI_SENTE], SHOGI_NO_SQUARE);
    assert_false(shogi_in_check(&pos));
    struct shogi_move m;
    assert_true(shogi_move_from_usi(&pos, "G*2b", &m)); /* the mate */
    assert_true(shogi_is_legal(&pos, m));
    shogi_do_move(&pos, m);
    assert_true(shogi_is_mate(&pos));
    assert_true(shogi_perft(&pos, 1) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_cases),
        cmocka_unit_test(test_struct_only_faults),
        cmocka_unit_test(test_check_and_mate),
        cmocka_unit_test(test_no_king),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

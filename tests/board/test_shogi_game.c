/* tests/board/test_shogi_game.c — SFEN in and out, handicap starts, USI moves, games: 千日手 and
 * 連続王手の千日手 (JSA 対局規定 第8条 wording, shared/research/shogi.md §4.3), game ends, entering
 * king (24-point 持将棋, 27-point declaration, the tournament's referee call), and finding the move
 * between two positions the way the rule guard needs it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "board/shogi.h"
#include "tests/testutil.h"

static void load(struct shogi_position *pos, const char *sfen)
{
    char err[200] = "";
    if (!shogi_sfen_parse(pos, sfen, NULL, err, sizeof err)) fail_msg("%s: %s", sfen, err);
}

static struct shogi_verdict play(struct shogi_game *g, const char *usi)
{
    struct shogi_move m;
    if (!shogi_move_from_usi(&g->pos, usi, &m)) fail_msg("cannot parse %s", usi);
    return shogi_game_play(g, m);
}

/* ---- SFEN ---------------------------------------------------------------------------------- */

static void test_sfen_round_trip(void **state)
{
    (void)state;
    static const char *const sfens[] = {
        SHOGI_SFEN_STARTPOS,
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "4s4/9/2+P1p4/9/9/7pk/1S7/2K6/3+p1+l3 b 2R2B3G2S3N2Lgnl14p 167",
        "8k/9/9/9/9/9/9/9/K8 b 2R2B4G4S4N4L18P 1",
    };
    for (size_t i = 0; i < sizeof sfens / sizeof sfens[0]; i++) {
        struct shogi_position pos;
        char out[SHOGI_SFEN_MAX];
        load(&pos, sfens[i]);
        assert_string_equal(shogi_sfen_format(&pos, out, sizeof out), sfens[i]);
    }
    struct shogi_position a, b;
    const char *end = NULL;
    assert_true(shogi_sfen_parse(&a, "startpos moves 7g7f", &end, NULL, 0));
    assert_string_equal(end, " moves 7g7f");
    assert_true(shogi_sfen_parse(&b, "sfen " SHOGI_SFEN_STARTPOS " moves 7g7f", &end, NULL, 0));
    assert_string_equal(end, " moves 7g7f");
    assert_true(shogi_position_same(&a, &b));
    assert_true(a.key == b.key);
    assert_true(shogi_sfen_parse(
        &a, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -", NULL, NULL, 0));
    assert_int_equal(a.ply, 1); /* the move number may be left out */
}

static void test_sfen_errors(void **state)
{
    (void)state;
    static const struct {
        const char *sfen, *why;
    } bad[] = {
        {"", "empty"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1", "rank 9 has 8"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1", "more than 9"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1", "8 ranks"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1", "more than 9"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPXPPPP/1B5R1/LNSGKGSNL b - 1", "'X'"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNS+GKGSNL b - 1", "cannot be promoted"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1", "'b' or 'w'"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b", "in hand"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1", "hand"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1", "3 rooks"},
        {"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 19P 1", "more than a set"},
        {"k8/1G7/R8/9/9/9/9/9/8K b P 1", "in check"},       /* gote, not to move, in check */
        {"k8/9/9/9/9/9/4P4/4P4/4K4 b - 1", "二歩"},         /* nifu on the board */
        {"k3P4/9/9/9/9/9/9/9/4K4 b - 1", "行き所のない駒"}, /* dead pawn on the board */
        {"k8/9/9/9/9/9/9/9/2n1K4 b - 1", "行き所のない駒"}, /* dead gote knight */
        {"k8/9/9/9/9/9/9/9/3KK4 b - 1", "2 kings"},
        {"k8/9/9/9/9/9/9/9/4K4 b - 1 moves", "unexpected 'moves'"},
        {"k8/9/9/9/9/9/9/9/4K4 b P p 1", "unexpected 'p 1'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct shogi_position pos;
        char err[200] = "";
        if (shogi_sfen_parse(&pos, bad[i].sfen, NULL, err, sizeof err))
            fail_msg("accepted bad SFEN '%s'", bad[i].sfen);
        if (!strstr(err, bad[i].why))
            fail_msg("'%s': error '%s' does not say '%s'", bad[i].sfen, err, bad[i].why);
    }
}

static void test_handicaps(void **state)
{
    (void)state;
    for (int i = 0; i < SHOGI_HC_COUNT; i++) {
        const struct shogi_handicap_info *h = shogi_handicap_info((enum shogi_handicap)i);
        struct shogi_position pos;
        assert_true(shogi_handicap_position((enum shogi_handicap)i, &pos));
        assert_int_equal(pos.side, i == SHOGI_HC_EVEN ? SHOGI_SENTE : SHOGI_GOTE);
        assert_ptr_equal(shogi_handicap_find(h->ja), h);
        assert_ptr_equal(shogi_handicap_find(h->en), h);
        assert_ptr_equal(shogi_handicap_find(h->jkf), h);
        assert_int_equal(shogi_handicap_of(&pos), i);
        /* sente's army is always whole; gote lacks exactly the named pieces */
        int gote = 0, sente = 0;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++)
            if (pos.board[sq] && shogi_piece_color(pos.board[sq]) == SHOGI_GOTE)
                gote++;
            else if (pos.board[sq])
                sente++;
        static const int missing[SHOGI_HC_COUNT] = {0, 1, 1, 1, 1, 2, 2, 3,
                                                    4, 5, 5, 6, 7, 7, 8, 10};
        assert_int_equal(sente, 20);
        assert_int_equal(gote, 20 - missing[i]);
        assert_true(shogi_perft(&pos, 2) > 0);
    }
    assert_ptr_equal(shogi_handicap_find("two piece"), shogi_handicap_info(SHOGI_HC_2));
    assert_ptr_equal(shogi_handicap_find("hirate"), shogi_handicap_info(SHOGI_HC_EVEN));
    assert_ptr_equal(shogi_handicap_find("KY_R"), shogi_handicap_info(SHOGI_HC_LANCE_R));
    assert_null(shogi_handicap_find("九枚落ち"));
    /* 香落ち: the lance on 1a is gone */
    struct shogi_position pos;
    assert_true(shogi_handicap_position(SHOGI_HC_LANCE, &pos));
    assert_int_equal(pos.board[shogi_sq(1, 1)], SHOGI_EMPTY);
    assert_int_equal(pos.board[shogi_sq(9, 1)], shogi_piece(SHOGI_GOTE, SHOGI_LANCE));
}

static void test_usi_moves(void **state)
{
    (void)state;
    struct shogi_position pos;
    load(&pos, SHOGI_SFEN_STARTPOS);
    struct shogi_move m;
    char buf[6];
    assert_true(shogi_move_from_usi(&pos, "7g7f", &m));
    assert_int_equal(m.from, shogi_sq(7, 7));
    assert_int_equal(m.to, shogi_sq(7, 6));
    assert_int_equal(m.piece, shogi_piece(SHOGI_SENTE, SHOGI_PAWN));
    assert_string_equal(shogi_move_to_usi(m, buf), "7g7f");
    static const char *const bad[] = {"",     "7g",   "7g7",    "0a1a",  "7j7f", "5e5d",
                                      "K*5e", "p*5e", "7g7f++", "7g7fx", "X*5e"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (shogi_move_from_usi(&pos, bad[i], &m)) fail_msg("accepted '%s'", bad[i]);
    load(&pos, "k8/9/9/9/9/9/9/9/4K4 w p 1");
    assert_true(shogi_move_from_usi(&pos, "P*5e", &m));
    assert_int_equal(m.piece, shogi_piece(SHOGI_GOTE, SHOGI_PAWN));
    assert_string_equal(shogi_move_to_usi(m, buf), "P*5e");
    load(&pos, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
    assert_true(shogi_move_from_usi(&pos, "8h2b+", &m));
    assert_true(m.promote);
    assert_int_equal(m.captured, shogi_piece(SHOGI_GOTE, SHOGI_BISHOP));
    assert_string_equal(shogi_move_to_usi(m, buf), "8h2b+");
    shogi_do_move(&pos, m);
    assert_int_equal(pos.hand[SHOGI_SENTE][SHOGI_BISHOP], 1);
    assert_int_equal(pos.board[shogi_sq(2, 2)], shogi_piece(SHOGI_SENTE, SHOGI_HORSE));
    char sfen[SHOGI_SFEN_MAX];
    assert_string_equal(shogi_sfen_format(&pos, sfen, sizeof sfen),
                        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
}

/* ---- repetition ----------------------------------------------------------------------------- */

/* 千日手: rooks shuffling from the start. The start position comes back after every 4 plies; its
 * 4th occurrence (ply 12) ends the game without result. */
static void test_sennichite(void **state)
{
    (void)state;
    struct shogi_game g;
    shogi_game_init(&g, NULL, &shogi_rules_jsa);
    static const char *const cycle[4] = {"2h3h", "8b7b", "3h2h", "7b8b"};
    for (int ply = 1; ply <= 12; ply++) {
        struct shogi_verdict v = play(&g, cycle[(ply - 1) % 4]);
        assert_int_equal(v.rule, SHOGI_LEGAL);
        if (ply < 12) assert_int_equal(g.outcome.end, SHOGI_END_NONE);
    }
    assert_int_equal(shogi_game_repetitions(&g), 4);
    assert_int_equal(g.outcome.end, SHOGI_END_SENNICHITE);
    assert_int_equal(g.outcome.result, SHOGI_RESULT_NO_RESULT);
    assert_int_equal(g.outcome_ply, 12);
    /* taking the last move back reopens the game */
    assert_true(shogi_game_undo(&g));
    assert_int_equal(g.outcome.end, SHOGI_END_NONE);
    assert_int_equal(shogi_game_repetitions(&g), 3);
    shogi_game_free(&g);
}

/* 連続王手の千日手: sente's rook checks on every move (3a, 3b), gote's king steps 1a <-> 1b. */
static void test_perpetual_check_on_checking_move(void **state)
{
    (void)state;
    struct shogi_position start;
    load(&start, "8k/9/6R2/9/9/9/9/9/4K4 b - 1");
    struct shogi_game g;
    shogi_game_init(&g, &start, &shogi_rules_jsa);
    static const char *const moves[] = {"3c3a", "1a1b", "3a3b", "1b1a", "3b3a", "1a1b",
                                        "3a3b", "1b1a", "3b3a", "1a1b", "3a3b", "1b1a"};
    for (int i = 0; i < 12; i++) assert_int_equal(play(&g, moves[i]).rule, SHOGI_LEGAL);
    assert_int_equal(g.outcome.end, SHOGI_END_NONE);
    /* the 13th ply brings "rook on 3a, king on 1a, gote to move" a 4th time, by a check */
    struct shogi_move m;
    assert_true(shogi_move_from_usi(&g.pos, "3b3a", &m));
    struct shogi_verdict v = shogi_game_check(&g, m);
    assert_int_equal(v.rule, SHOGI_ILLEGAL_PERPETUAL_CHECK);
    v = shogi_game_play(&g, m);
    assert_int_equal(v.rule, SHOGI_ILLEGAL_PERPETUAL_CHECK);
    assert_int_equal(g.outcome.end, SHOGI_END_PERPETUAL_CHECK);
    assert_int_equal(g.outcome.result, SHOGI_RESULT_GOTE_WINS);
    assert_int_equal(g.outcome_ply, 13);
    shogi_game_free(&g);
}

/* The JSA note: the 4th occurrence may also come with the check already answered — then it arises
 * on the defender's move, which is legal, and the checking side loses at that moment. */
static void test_perpetual_check_on_defending_move(void **state)
{
    (void)state;
    struct shogi_position start;
    load(&start, "8k/6R2/9/9/9/9/9/9/4K4 b - 1");
    struct shogi_game g;
    shogi_game_init(&g, &start, &shogi_rules_jsa);
    static const char *const cycle[4] = {"3b3a", "1a1b", "3a3b", "1b1a"};
    for (int ply = 1; ply <= 12; ply++) {
        struct shogi_verdict v = play(&g, cycle[(ply - 1) % 4]);
        assert_int_equal(v.rule, SHOGI_LEGAL);
        if (ply < 12) assert_int_equal(g.outcome.end, SHOGI_END_NONE);
    }
    assert_int_equal(g.outcome.end, SHOGI_END_PERPETUAL_CHECK);
    assert_int_equal(g.outcome.result, SHOGI_RESULT_GOTE_WINS);
    shogi_game_free(&g);
    /* with the perpetual-check rule switched off it is a plain 千日手 */
    struct shogi_rules r = shogi_rules_jsa;
    r.perpetual_check_loses = false;
    shogi_game_init(&g, &start, &r);
    for (int ply = 1; ply <= 12; ply++) play(&g, cycle[(ply - 1) % 4]);
    assert_int_equal(g.outcome.end, SHOGI_END_SENNICHITE);
    shogi_game_free(&g);
}

/* A repetition cycle in which one side checked only sometimes is a plain 千日手. */
static void test_mixed_checks_is_sennichite(void **state)
{
    (void)state;
    struct shogi_position start;
    load(&start, "8k/9/6R2/9/9/9/9/9/4K4 b - 1");
    struct shogi_game g;
    shogi_game_init(&g, &start, &shogi_rules_jsa);
    /* 3c3a+ 1a1b 3a3c (no check) 1b1a: back to the start every 4 plies */
    static const char *const cycle[4] = {"3c3a", "1a1b", "3a3c", "1b1a"};
    for (int ply = 1; ply <= 12; ply++) play(&g, cycle[(ply - 1) % 4]);
    assert_int_equal(g.outcome.end, SHOGI_END_SENNICHITE);
    assert_int_equal(g.outcome.result, SHOGI_RESULT_NO_RESULT);
    shogi_game_free(&g);
}

/* ---- game ends, illegal moves in a game ---------------------------------------------------- */

static void test_game_ends(void **state)
{
    (void)state;
    struct shogi_game g;
    shogi_game_init(&g, NULL, NULL);
    /* the fastest mate is not short; play an illegal move instead: it ends the game, and the
     * first ending stands */
    assert_int_equal(play(&g, "7g7f").rule, SHOGI_LEGAL);
    assert_int_equal(play(&g, "7f7e").rule, SHOGI_ILLEGAL_OUT_OF_TURN); /* sente twice */
    assert_int_equal(g.outcome.end, SHOGI_END_ILLEGAL);
    assert_int_equal(g.outcome.result, SHOGI_RESULT_GOTE_WINS);
    assert_int_equal(g.pos.side, SHOGI_GOTE); /* still gote's turn */
    assert_int_equal(play(&g, "3c3d").rule, SHOGI_LEGAL);
    assert_int_equal(g.outcome_ply, 2);
    assert_true(shogi_game_undo(&g));
    assert_true(shogi_game_undo(&g));
    assert_int_equal(g.outcome.end, SHOGI_END_NONE);
    assert_int_equal(g.pos.side, SHOGI_GOTE);
    struct shogi_position after1;
    load(&after1, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    assert_true(shogi_position_same(&g.pos, &after1));
    assert_true(g.pos.key == after1.key);
    shogi_game_free(&g);

    /* resignation ends the game from outside; the first ending stands */
    shogi_game_init(&g, NULL, NULL);
    play(&g, "7g7f");
    struct shogi_outcome resign = {SHOGI_END_RESIGN, SHOGI_RESULT_SENTE_WINS};
    assert_true(shogi_game_end(&g, resign));
    struct shogi_outcome late = {SHOGI_END_TIME, SHOGI_RESULT_GOTE_WINS};
    assert_false(shogi_game_end(&g, late));
    assert_int_equal(g.outcome.end, SHOGI_END_RESIGN);
    assert_int_equal(g.outcome_ply, 1);
    shogi_game_free(&g);

    /* 7) sente, to move, pushes gote's pawn: sente loses, and the turn passes to gote */
    shogi_game_init(&g, NULL, NULL);
    struct shogi_move opp = {(uint8_t)shogi_sq(3, 3), (uint8_t)shogi_sq(3, 4),
                             (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN), 0, false};
    assert_int_equal(shogi_game_play(&g, opp).rule, SHOGI_ILLEGAL_OPPONENT_PIECE);
    assert_int_equal(g.outcome.end, SHOGI_END_ILLEGAL);
    assert_int_equal(g.outcome.result, SHOGI_RESULT_GOTE_WINS);
    assert_int_equal(g.pos.side, SHOGI_GOTE);
    assert_int_equal(g.pos.board[shogi_sq(3, 4)], shogi_piece(SHOGI_GOTE, SHOGI_PAWN));
    assert_true(shogi_game_undo(&g));
    assert_int_equal(g.pos.side, SHOGI_SENTE);
    shogi_game_free(&g);

    /* mate: 突き歩詰め */
    struct shogi_position start;
    load(&start, "7lk/9/6S1P/7N1/9/9/9/9/4K4 b - 1");
    shogi_game_init(&g, &start, NULL);
    assert_int_equal(play(&g, "1c1b").rule, SHOGI_LEGAL);
    assert_int_equal(g.outcome.end, SHOGI_END_MATE);
    assert_int_equal(g.outcome.result, SHOGI_RESULT_SENTE_WINS);
    shogi_game_free(&g);

    /* an unplayable move is not played */
    shogi_game_init(&g, NULL, NULL);
    struct shogi_move m = {SHOGI_HAND, (uint8_t)shogi_sq(5, 5),
                           (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_GOLD), 0, false};
    assert_int_equal(shogi_game_play(&g, m).fault, SHOGI_FAULT_NOT_IN_HAND);
    assert_int_equal(g.n, 0);
    assert_int_equal(g.outcome.end, SHOGI_END_NONE);
    shogi_game_free(&g);

    for (int e = SHOGI_END_NONE; e <= SHOGI_END_REFEREE; e++)
        assert_true(strlen(shogi_end_name((enum shogi_end)e)) > 0);
    for (int r = SHOGI_RESULT_NONE; r <= SHOGI_RESULT_REFEREE; r++)
        assert_true(strlen(shogi_result_name((enum shogi_result)r)) > 0);
    for (int r = SHOGI_LEGAL; r <= SHOGI_ILLEGAL_OUT_OF_TURN; r++)
        if (r) assert_true(shogi_illegal_name((enum shogi_illegal)r)[0] == '0' + r);
}

/* ---- entering king -------------------------------------------------------------------------- */

static void test_entering_king(void **state)
{
    (void)state;
    struct shogi_position pos;
    load(&pos, SHOGI_SFEN_STARTPOS);
    assert_int_equal(shogi_points_total(&pos, SHOGI_SENTE), 27);
    assert_int_equal(shogi_points_total(&pos, SHOGI_GOTE), 27);
    assert_int_equal(shogi_points_in_camp(&pos, SHOGI_SENTE), 0);
    assert_false(shogi_king_entered(&pos, SHOGI_SENTE));

    /* sente: king on 5b, 10 pieces in the camp (2 dragons, 2 horses, 6 tokins) = 26 points, and
     * 2 golds in hand: 28 — the declaration wins; with one gold fewer (27) it loses */
    load(&pos, "+R+R+B+B1+P+P+P+P/4K+P+P2/9/9/9/9/9/9/4k4 b 2G 1");
    assert_true(shogi_king_entered(&pos, SHOGI_SENTE));
    assert_int_equal(shogi_points_in_camp(&pos, SHOGI_SENTE), 28);
    struct shogi_outcome o = shogi_declare(&pos, SHOGI_SENTE);
    assert_int_equal(o.end, SHOGI_END_DECLARATION);
    assert_int_equal(o.result, SHOGI_RESULT_SENTE_WINS);
    load(&pos, "+R+R+B+B1+P+P+P+P/4K+P+P2/9/9/9/9/9/9/4k4 b G 1");
    assert_int_equal(shogi_declare(&pos, SHOGI_SENTE).result, SHOGI_RESULT_GOTE_WINS);
    /* gote needs 27 */
    load(&pos, "4K4/9/9/9/9/9/9/2+p+p+pk+p+p1/+r+r+b+b1+p3 w g 1");
    assert_int_equal(shogi_points_in_camp(&pos, SHOGI_GOTE), 27);
    assert_int_equal(shogi_declare(&pos, SHOGI_GOTE).result, SHOGI_RESULT_GOTE_WINS);
    /* not on one's own turn, or fewer than 10 pieces in the camp: loses */
    load(&pos, "4K4/9/9/9/9/9/9/2+p+p+pk+p+p1/+r+r+b+b1+p3 b g 1");
    assert_int_equal(shogi_declare(&pos, SHOGI_GOTE).result, SHOGI_RESULT_SENTE_WINS);
    load(&pos, "4K4/9/9/9/9/9/9/2+p+p+pk+p2/+r+r+b+b1+p3 w gp 1");
    assert_int_equal(shogi_declare(&pos, SHOGI_GOTE).result, SHOGI_RESULT_SENTE_WINS);

    /* 24-point 持将棋: sente has R, B and 13 small pieces = 23 points: loses */
    load(&pos, "4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L5Prb2g2s2n2l13p 1");
    assert_int_equal(shogi_points_total(&pos, SHOGI_SENTE), 23);
    o = shogi_jishogi_24(&pos);
    assert_int_equal(o.end, SHOGI_END_JISHOGI);
    assert_int_equal(o.result, SHOGI_RESULT_GOTE_WINS);
    load(&pos, "4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L6Prb2g2s2n2l12p 1");
    assert_int_equal(shogi_jishogi_24(&pos).result, SHOGI_RESULT_NO_RESULT);

    /* the tournament: both kings in the enemy camps -> the referee is called */
    struct shogi_position start;
    load(&start, "9/9/9/4K4/9/4k4/9/9/9 b 2R2B4G4S4N4L18P 1");
    struct shogi_game g;
    shogi_game_init(&g, &start, &shogi_rules_tournament);
    play(&g, "5d5c");
    assert_int_equal(g.referee_ply, 0);
    play(&g, "5f5g");
    assert_int_equal(g.referee_ply, 2);
    shogi_game_free(&g);
    shogi_game_init(&g, &start, &shogi_rules_jsa); /* JSA: no referee call */
    play(&g, "5d5c");
    play(&g, "5f5g");
    assert_int_equal(g.referee_ply, 0);
    shogi_game_free(&g);
}

/* ---- from two positions to the move -------------------------------------------------------- */

static void test_find_moves(void **state)
{
    (void)state;
    struct shogi_position before, after;
    load(&before, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
    load(&after, "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
    struct shogi_move out[8];
    int n = shogi_find_moves(&before, after.board, (const uint8_t(*)[SHOGI_HAND_TYPES])after.hand,
                             out, 8);
    assert_int_equal(n, 1);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(out[0], usi), "8h2b+");
    /* hands unseen: the same */
    assert_int_equal(shogi_find_moves(&before, after.board, NULL, out, 8), 1);
    /* hands that disagree (the bishop not put in hand): no legal move explains it */
    after.hand[SHOGI_SENTE][SHOGI_BISHOP] = 0;
    assert_int_equal(shogi_find_moves(&before, after.board,
                                      (const uint8_t(*)[SHOGI_HAND_TYPES])after.hand, out, 8),
                     0);
    /* nothing changed: no move */
    assert_int_equal(shogi_find_moves(&before, before.board, NULL, out, 8), 0);

    /* infer: the same capture, legal */
    struct shogi_move m;
    struct shogi_verdict v;
    assert_true(shogi_infer_move(&before, after.board, &m, &v));
    assert_int_equal(v.rule, SHOGI_LEGAL);
    assert_true(m.promote);
    /* a pawn moved two squares: found, and impossible */
    uint8_t board[SHOGI_SQUARES];
    memcpy(board, before.board, sizeof board);
    board[shogi_sq(2, 7)] = 0;
    board[shogi_sq(2, 5)] = (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
    assert_true(shogi_infer_move(&before, board, &m, &v));
    assert_int_equal(v.rule, SHOGI_ILLEGAL_IMPOSSIBLE);
    assert_int_equal(v.fault, SHOGI_FAULT_CANNOT_REACH);
    /* un-promotion */
    struct shogi_position p2;
    load(&p2, "k8/9/9/9/4+P4/9/9/9/4K4 b - 1");
    memcpy(board, p2.board, sizeof board);
    board[shogi_sq(5, 5)] = 0;
    board[shogi_sq(5, 4)] = (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
    assert_true(shogi_infer_move(&p2, board, &m, &v));
    assert_int_equal(v.fault, SHOGI_FAULT_UNPROMOTE);
    /* a promoted piece dropped: playable (the pawn leaves the hand), and impossible */
    load(&p2, "k8/9/9/9/9/9/9/9/4K4 b P 1");
    memcpy(board, p2.board, sizeof board);
    board[shogi_sq(5, 5)] = (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_TOKIN);
    assert_true(shogi_infer_move(&p2, board, &m, &v));
    assert_int_equal(v.fault, SHOGI_FAULT_PROMOTED_DROP);
    assert_true(shogi_move_is_playable(&p2, m));
    shogi_do_move(&p2, m);
    assert_int_equal(p2.hand[SHOGI_SENTE][SHOGI_PAWN], 0);
    /* three squares changed: not one move */
    memcpy(board, before.board, sizeof board);
    board[shogi_sq(1, 7)] = board[shogi_sq(2, 7)] = board[shogi_sq(3, 7)] = 0;
    assert_false(shogi_infer_move(&before, board, &m, &v));
    /* a piece vanished: not a move */
    memcpy(board, before.board, sizeof board);
    board[shogi_sq(1, 7)] = 0;
    assert_false(shogi_infer_move(&before, board, &m, &v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sfen_round_trip),
        cmocka_unit_test(test_sfen_errors),
        cmocka_unit_test(test_handicaps),
        cmocka_unit_test(test_usi_moves),
        cmocka_unit_test(test_sennichite),
        cmocka_unit_test(test_perpetual_check_on_checking_move),
        cmocka_unit_test(test_perpetual_check_on_defending_move),
        cmocka_unit_test(test_mixed_checks_is_sennichite),
        cmocka_unit_test(test_game_ends),
        cmocka_unit_test(test_entering_king),
        cmocka_unit_test(test_find_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

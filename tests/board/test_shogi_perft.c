/* tests/board/test_shogi_perft.c — the move generator against published perft figures
 * (shared/research/shogi.md §4.2) and against positions of our own whose figures were produced by
 * fairy-stockfish 11.1 (`go perft`, Debian package fairy-stockfish) as an independent oracle. And
 * the generator against itself: the bulk count equals the list, make/unmake restores everything,
 * and shogi_check_move accepts exactly the listed moves among all conceivable ones. */
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

#define NA UINT64_MAX

struct perft_case {
    const char *name;
    const char *sfen;
    uint64_t nodes[4]; /* depth 1..4, NA = not checked here */
};

/* §4.2: the initial position (ak11 2015, YaneuraOu's unit test), "matsuri" and the 593-move
 * position (YaneuraOu, python-shogi), the pawn-drop-mate position (85 strictly; fairy-stockfish
 * says 86 because it lists the illegal P*1b). */
static const struct perft_case published[] = {
    {"startpos", SHOGI_SFEN_STARTPOS, {30, 900, 25470, 719731}},
    {"matsuri",
     "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
     {207, 28684, 4809015, NA}},
    {"max-moves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", {593, 105677, NA, NA}},
    {"pawn-drop-mate", "7lk/9/8S/9/9/9/9/7L1/8K b P 1", {85, 639, NA, NA}},
};

/* Ours, checked with fairy-stockfish `go perft 1..3` (2025, package 11.1). Mid- and late-game
 * positions from the lishogi games (many drops and promotions), handicap starts, a side with no
 * legal move, promotion-heavy positions for both colours, a pinned lance. */
static const struct perft_case oracle[] = {
    {"game165-ply94",
     "kn4+L2/1s2+P4/3+N5/9/l8/9/+p1P2RK+p1/2g6/9 b 2GN2L9PSRBgn5p2sb 95",
     {4, 1352, 599189, NA}},
    {"game77-ply63",
     "l+R4s1l/2g2g3/p1kppp3/6Nrp/1Np3Pp1/2S5P/P2PPP3/2G1K2S1/LN3G2L w PSn4p2b 64",
     {3, 332, 38791, NA}},
    {"game202-ply65",
     "1n1sG2+R1/3kg+P2+R/lp7/p1p4s1/3pppp2/P1P6/1P1P5/1B2G3S/LNSGK4 w NLBnl6p 66",
     {125, 23358, 2011229, NA}},
    {"game333-ply75",
     "+Pn2kg2l/4g4/3psp3/p1r1p4/5nppP/P6NL/2GPP1PP1/SL3P3/4B1K2 w L3PBgnp2sr 76",
     {249, 33932, 7067052, NA}},
    {"game24-ply34",
     "l1sg+P3l/3k5/p3ppp2/3p5/3n5/2r3Pp1/P3PP1P1/7R1/L1+pGKGSNL b GN3PSBn2psb 35",
     {266, 53926, 11450124, NA}},
    {"game37-ply24",
     "lnsgk1snl/2r6/pppp1gb1p/4pp1p1/6p2/2P1PP2P/PP1P2P1N/1B2R4/LNSGKGS1L b p 25",
     {34, 1195, 41474, NA}},
    {"game274-ply29",
     "lnsgsk1nl/1r4gb1/3p3p1/p1p1ppp1p/7P1/1P1P1PP1P/PpP6/1BSG1G1R1/LN2K1SNL w p 30",
     {45, 1572, 71753, NA}},
    {"game48-ply166",
     "4s4/9/2+P1p4/9/9/7pk/1S7/2K6/3+p1+l3 b 3G3N2L2S2R2Bgnl14p 167",
     {422, 102808, 40761600, NA}},
    {"game187-ply106",
     "4p4/1+N2g4/3p5/1p1kP4/4s1P1+R/9/LP1+s+n3P/2Pg1S3/2SKLG2L b GL7P2n3pr2b 107",
     {1, 232, 38094, NA}},
    {"game298-ply81",
     "3g3+P1/4k+bg2/+R1Gp5/3spps2/6pP1/P1PS5/1KNPPPP2/9/8+r w 2N3L5Pgnlpsb 82",
     {342, 44793, 12642100, NA}},
    {"game29-ply30",
     "ln1g1gs1l/1rk6/1pppspbp1/p8/1P6p/P8/2PPPP1PP/2KG5/LNSG3+rL b N2Pnpsb 31",
     {63, 11807, 465312, NA}},
    {"game259-ply117",
     "1nsk1b3/3g2p2/3+Pp+P+P2/2p1N4/4P4/2P6/1p3KN1+r/9/+l1+r2g3 w L3P2gn2l6p3sb 118",
     {353, 40329, 12831762, NA}},
    {"game109-ply20",
     "lnsgkg1nl/1r5s1/p1pppp1p1/6p2/1PP+b4p/4PP3/P5PPP/1S1K1G1R1/LN1G2SNL b PBp 21",
     {81, 4155, 248982, NA}},
    {"game19-ply43",
     "ln1g2R+Pb/1ks2gb1l/1ppp1s1pp/p3p4/5pS2/P3P4/1PPP1P2P/2GKG2R1/LNS4NL w NPp 44",
     {39, 3398, 127225, NA}},
    {"ten-piece", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", {14, 420, 5880, NA}},
    {"two-piece",
     "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
     {26, 780, 19740, NA}},
    {"no-legal-move", "8k/6S2/8G/9/9/9/9/9/4K4 w - 1", {0, 0, 0, NA}},
    {"promotions-sente", "4k4/9/PPPPPPPPP/9/9/9/9/9/LN2K2NL b RBS 1", {235, 442, 81096, NA}},
    {"promotions-gote", "ln2k2nl/9/9/9/9/9/ppppppppp/9/4K4 w rbs 1", {235, 442, 81096, NA}},
    {"pinned-lance", "4k4/4l4/9/4R4/9/9/4B4/4K4/9 w G 1", {6, 637, 10389, NA}},
    /* fairy-stockfish: 161 / 12632 — it lists the pawn-drop mate P*5b at depth 1 (§4.2) */
    {"pawn-drop-mate-2", "3rkr3/9/8p/4N4/1B7/9/1SG6/1KS6/9 b LPp 1", {160, 12632, NA, NA}},
};

static void run_cases(const struct perft_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct shogi_position pos;
        load(&pos, cases[i].sfen);
        for (int d = 1; d <= 4; d++) {
            if (cases[i].nodes[d - 1] == NA) continue;
            uint64_t got = shogi_perft(&pos, d);
            if (got != cases[i].nodes[d - 1])
                fail_msg("%s perft(%d) = %llu, expected %llu", cases[i].name, d,
                         (unsigned long long)got, (unsigned long long)cases[i].nodes[d - 1]);
        }
        tu_note("perft %s ok", cases[i].name);
    }
}

static void test_published(void **state)
{
    (void)state;
    run_cases(published, sizeof published / sizeof published[0]);
}

static void test_oracle(void **state)
{
    (void)state;
    run_cases(oracle, sizeof oracle / sizeof oracle[0]);
}

/* Every conceivable move: all from/to pairs with and without promotion, all drops. The checker
 * must call legal exactly what the generator lists. */
static void cross_check(struct shogi_position *pos)
{
    struct shogi_move list[SHOGI_MAX_MOVES];
    int n = shogi_legal_moves(pos, list);
    char sfen[SHOGI_SFEN_MAX];
    shogi_sfen_format(pos, sfen, sizeof sfen);
    int legal = 0;
    for (int from = 0; from <= SHOGI_HAND; from++)
        for (int to = 0; to < SHOGI_SQUARES; to++)
            for (int pr = 0; pr < 2; pr++) {
                struct shogi_move m = {(uint8_t)from, (uint8_t)to, 0, pos->board[to], pr == 1};
                int types = 1;
                if (from == SHOGI_HAND) {
                    if (pr) continue;
                    types = SHOGI_GOLD;
                } else {
                    m.piece = pos->board[from];
                    if (!m.piece) continue;
                }
                for (int t = 1; t <= types; t++) {
                    if (from == SHOGI_HAND)
                        m.piece =
                            (uint8_t)shogi_piece((enum shogi_color)pos->side, (enum shogi_type)t);
                    bool ok = shogi_is_legal(pos, m);
                    bool listed = false;
                    for (int i = 0; i < n; i++) listed |= shogi_move_equal(list[i], m);
                    if (ok != listed) {
                        char usi[6];
                        fail_msg("%s: %s checker says %d, generator %d", sfen,
                                 shogi_move_to_usi(m, usi), ok, listed);
                    }
                    legal += ok;
                }
            }
    assert_int_equal(legal, n);
}

static uint64_t rng = 88172645463325252ULL;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static void test_self_consistency(void **state)
{
    (void)state;
    int positions = 0;
    const char *starts[] = {SHOGI_SFEN_STARTPOS, published[1].sfen, oracle[0].sfen, oracle[7].sfen,
                            oracle[20].sfen};
    for (int g = 0; g < 60; g++) {
        struct shogi_position pos;
        load(&pos, starts[g % 5]);
        for (int ply = 0; ply < 120; ply++) {
            struct shogi_move list[SHOGI_MAX_MOVES];
            int n = shogi_legal_moves(&pos, list);
            struct shogi_position copy = pos;
            /* the bulk count (perft depth 1) agrees with the list */
            assert_int_equal((int)shogi_perft(&pos, 1), n);
            if (ply % 8 == 0) cross_check(&pos);
            positions++;
            for (int i = 0; i < n; i++) { /* make/unmake of every move restores all state */
                shogi_do_move(&pos, list[i]);
                struct shogi_position fresh = pos;
                shogi_position_refresh(&fresh);
                assert_true(fresh.key == pos.key);
                assert_memory_equal(&fresh.by_color, &pos.by_color, sizeof pos.by_color);
                shogi_undo_move(&pos, list[i]);
                assert_memory_equal(&copy, &pos, sizeof pos);
            }
            if (n == 0) {
                assert_int_equal(shogi_is_mate(&pos), shogi_in_check(&pos));
                break;
            }
            shogi_do_move(&pos, list[rnd((unsigned)n)]);
        }
    }
    tu_note("self-consistency: %d positions from random play", positions);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published),
        cmocka_unit_test(test_oracle),
        cmocka_unit_test(test_self_consistency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/board/test_go_board.c — Go positions: captures, chains, liberties, suicide, simple ko,
 * board sizes, and random games checked against a naive reference board. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "board/go.h"
#include "board/go_internal.h"
#include "tests/board/test_go_util.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <time.h>

static const struct go_rules *rules(const char *name)
{
    const struct go_rules *r = go_rules_find(name);
    assert_non_null(r);
    return r;
}

/* Play a move given as SGF letters ("dd", "" = pass). */
static struct go_verdict mv(struct go_game *g, enum go_color c, const char *p)
{
    struct go_move m = {c, p[0] ? mini_pt(p) : GO_PASS};
    return go_game_play(g, m);
}

static struct go_verdict chk(const struct go_game *g, enum go_color c, const char *p)
{
    struct go_move m = {c, p[0] ? mini_pt(p) : GO_PASS};
    return go_game_check(g, m);
}

static void setup(struct go_game *g, enum go_color c, const char *points)
{
    for (const char *p = points; p[0] && p[1]; p += 2) go_game_setup(g, c, mini_pt(p));
}

static void test_single_capture_and_liberties(void **state)
{
    (void)state;
    struct go_game *g = go_game_new(9, 9, rules("japanese"));
    assert_int_equal(mv(g, GO_BLACK, "ee").kind, GO_LEGAL);
    assert_int_equal(go_game_liberties(g, mini_pt("ee")), 4);
    mv(g, GO_WHITE, "de");
    assert_int_equal(go_game_liberties(g, mini_pt("ee")), 3);
    assert_int_equal(go_game_liberties(g, mini_pt("de")), 3);
    mv(g, GO_BLACK, "aa");
    mv(g, GO_WHITE, "fe");
    mv(g, GO_BLACK, "ba");
    mv(g, GO_WHITE, "ed");
    assert_int_equal(go_game_liberties(g, mini_pt("ee")), 1);
    mv(g, GO_BLACK, "ca");
    struct go_verdict v = mv(g, GO_WHITE, "ef");
    assert_int_equal(v.kind, GO_LEGAL);
    assert_int_equal(v.captured, 1);
    assert_string_equal(v.text, "White plays E4, capturing 1 stone");
    assert_int_equal(go_game_at(g, mini_pt("ee")), GO_EMPTY);
    assert_int_equal(go_game_prisoners(g, GO_WHITE), 1);
    assert_int_equal(go_game_prisoners(g, GO_BLACK), 0);
    assert_int_equal(go_game_liberties(g, mini_pt("ef")), 4);
    assert_int_equal(go_game_liberties(g, mini_pt("ee")), 0);
    assert_int_equal(go_game_ply(g), 8);
    /* the corner chain aa-ba-ca: merged, 3 stones, liberties ab, bb, cb, da */
    int chain[GO_POINTS];
    assert_int_equal(go_game_chain(g, mini_pt("ba"), chain), 3);
    assert_int_equal(go_game_liberties(g, mini_pt("aa")), 4);
    go_game_free(g);
}

static void test_multi_stone_capture_and_merge(void **state)
{
    (void)state;
    struct go_game *g = go_game_new(9, 9, rules("chinese"));
    /* White chain of 4 along the top edge, surrounded then captured by one stone. */
    setup(g, GO_WHITE, "aabacada");
    setup(g, GO_BLACK, "abbbcbdb");
    assert_int_equal(go_game_liberties(g, mini_pt("aa")), 1);
    int chain[GO_POINTS];
    assert_int_equal(go_game_chain(g, mini_pt("da"), chain), 4);
    assert_int_equal(go_game_chain(g, mini_pt("bb"), chain), 4);
    struct go_verdict v = mv(g, GO_BLACK, "ea");
    assert_int_equal(v.kind, GO_LEGAL);
    assert_int_equal(v.captured, 4);
    for (int x = 0; x < 4; x++) assert_int_equal(go_game_at(g, go_point(x, 0)), GO_EMPTY);
    assert_int_equal(go_game_prisoners(g, GO_BLACK), 4);
    /* Black's ab..db chain: liberties are the 4 emptied points + ac..dc + eb (ea's chain is
     * separate: ea touches da (empty) and eb (empty) and fa). */
    assert_int_equal(go_game_liberties(g, mini_pt("ab")), 4 + 4 + 1);
    /* Black eb joins the single stone ea and the long chain into one. */
    v = mv(g, GO_WHITE, "ee");
    assert_int_equal(v.kind, GO_LEGAL);
    v = mv(g, GO_BLACK, "eb");
    assert_int_equal(v.kind, GO_LEGAL);
    assert_int_equal(go_game_chain(g, mini_pt("ea"), chain), 6);
    assert_int_equal(go_game_chain(g, mini_pt("ab"), chain), 6);
    /* liberties: aa,ba,ca,da (4) + ac,bc,cc,dc,ec (5) + fa, fb (2) = 11 */
    assert_int_equal(go_game_liberties(g, mini_pt("eb")), 11);
    /* a capture that takes two separate chains at once */
    go_game_free(g);
    g = go_game_new(5, 5, rules("chinese"));
    setup(g, GO_WHITE, "aaca");
    setup(g, GO_BLACK, "abcbda");
    v = mv(g, GO_BLACK, "ba");
    assert_int_equal(v.kind, GO_LEGAL);
    assert_int_equal(v.captured, 2);
    assert_int_equal(go_game_at(g, mini_pt("aa")), GO_EMPTY);
    assert_int_equal(go_game_at(g, mini_pt("ca")), GO_EMPTY);
    assert_int_equal(go_game_liberties(g, mini_pt("ba")), 3); /* aa, ca, bb */
    go_game_free(g);
}

static void test_edges_corners_and_sizes(void **state)
{
    (void)state;
    /* 2×2: every point is a corner with 2 liberties. */
    struct go_game *g = go_game_new(2, 2, rules("tromp-taylor"));
    assert_non_null(g);
    mv(g, GO_BLACK, "aa");
    assert_int_equal(go_game_liberties(g, mini_pt("aa")), 2);
    mv(g, GO_WHITE, "bb");
    assert_int_equal(go_game_liberties(g, mini_pt("bb")), 2);
    mv(g, GO_BLACK, "ba");
    assert_int_equal(go_game_liberties(g, mini_pt("aa")), 1);
    /* White ab captures the two-stone black chain aa-ba. */
    struct go_verdict v = mv(g, GO_WHITE, "ab");
    assert_int_equal(v.captured, 2);
    assert_int_equal(go_game_liberties(g, mini_pt("bb")), 2);
    /* Black aa: both aa and White's ab-bb keep the liberty ba. */
    v = mv(g, GO_BLACK, "aa");
    assert_int_equal(v.kind, GO_LEGAL);
    /* Black ba fills the last point and captures White's ab-bb (no suicide). */
    v = mv(g, GO_WHITE, "");
    v = mv(g, GO_BLACK, "ba");
    assert_int_equal(v.captured, 2);
    go_game_free(g);

    /* Off-board points on a 7×6 board (rectangular). */
    g = go_game_new(7, 6, rules("japanese"));
    assert_int_equal(go_game_width(g), 7);
    assert_int_equal(go_game_height(g), 6);
    struct go_move m = {GO_BLACK, go_point(7, 0)};
    v = go_game_play(g, m);
    assert_int_equal(v.kind, GO_ILLEGAL_OFF_BOARD);
    assert_int_equal(go_game_ply(g), 1);
    assert_int_equal(go_game_to_move(g), GO_WHITE);
    m = (struct go_move){GO_WHITE, go_point(0, 6)};
    assert_int_equal(go_game_check(g, m).kind, GO_ILLEGAL_OFF_BOARD);
    m = (struct go_move){GO_WHITE, go_point(6, 5)};
    assert_int_equal(go_game_play(g, m).kind, GO_LEGAL);
    assert_int_equal(go_game_liberties(g, go_point(6, 5)), 2);
    char buf[8];
    assert_string_equal(go_point_name(go_point(6, 5), 6, buf), "G1");
    assert_string_equal(go_point_name(go_point(0, 0), 6, buf), "A6");
    go_game_free(g);

    /* Sizes out of range are refused. */
    assert_null(go_game_new(1, 9, NULL));
    assert_null(go_game_new(9, 26, NULL));

    /* 25×25: the far corner and names past the alphabet's I. */
    g = go_game_new(25, 25, NULL);
    assert_string_equal(go_game_rules(g)->name, "Chinese 1988");
    m = (struct go_move){GO_BLACK, go_point(24, 24)};
    assert_int_equal(go_game_play(g, m).kind, GO_LEGAL);
    assert_int_equal(go_game_liberties(g, go_point(24, 24)), 2);
    assert_string_equal(go_point_name(go_point(24, 24), 25, buf), "Z1");
    assert_string_equal(go_point_name(go_point(24, 0), 25, buf), "Z25");
    m = (struct go_move){GO_WHITE, go_point(23, 24)};
    go_game_play(g, m);
    m = (struct go_move){GO_BLACK, go_point(0, 0)};
    go_game_play(g, m);
    m = (struct go_move){GO_WHITE, go_point(24, 23)};
    struct go_verdict vv = go_game_play(g, m);
    assert_int_equal(vv.captured, 1);
    assert_string_equal(vv.text, "White plays Z2, capturing 1 stone");
    go_game_free(g);

    assert_string_equal(go_point_name(go_point(8, 0), 19, buf), "J19");
    assert_string_equal(go_point_name(go_point(3, 15), 19, buf), "D4");
    assert_string_equal(go_point_name(GO_PASS, 19, buf), "pass");
    assert_string_equal(go_point_name(GO_NOPOINT, 19, buf), "?");
}

/* Black plays into a corner eye of one point (single) or of a chain (multi). */
static void suicide_case(const char *rules_name, bool multi, enum go_verdict_kind expect)
{
    struct go_game *g = go_game_new(5, 5, rules(rules_name));
    if (multi) {
        /* Black ba already in the corner eye; Black aa joins it: 2 stones without liberty. */
        setup(g, GO_BLACK, "ba");
        setup(g, GO_WHITE, "cabbab");
    } else {
        setup(g, GO_WHITE, "baab");
        setup(g, GO_WHITE, "bbcaac");
    }
    uint64_t before = go_game_hash(g);
    struct go_verdict v = mv(g, GO_BLACK, "aa");
    assert_int_equal(v.kind, expect);
    assert_int_equal(v.captured, multi ? -2 : -1);
    /* Executed: the chain is gone and White got the prisoners. */
    assert_int_equal(go_game_at(g, mini_pt("aa")), GO_EMPTY);
    assert_int_equal(go_game_at(g, mini_pt("ba")), multi ? GO_EMPTY : GO_WHITE);
    assert_int_equal(go_game_prisoners(g, GO_WHITE), multi ? 2 : 1);
    if (!multi) assert_true(go_game_hash(g) == before);
    if (expect == GO_ILLEGAL_SUICIDE) {
        assert_non_null(v.rule_ref);
        assert_non_null(strstr(v.text, multi ? "multi-stone suicide" : "single-stone suicide"));
    }
    go_game_free(g);
}

static void test_suicide_rules(void **state)
{
    (void)state;
    /* GO_SUICIDE_NONE */
    suicide_case("japanese", false, GO_ILLEGAL_SUICIDE);
    suicide_case("japanese", true, GO_ILLEGAL_SUICIDE);
    /* GO_SUICIDE_MULTI (Ing, New Zealand): single forbidden, multi allowed */
    suicide_case("ing", false, GO_ILLEGAL_SUICIDE);
    suicide_case("ing", true, GO_LEGAL);
    suicide_case("nz", false, GO_ILLEGAL_SUICIDE);
    suicide_case("nz", true, GO_LEGAL);
    /* GO_SUICIDE_ALL (Tromp-Taylor): a single stone's suicide recreates the position */
    suicide_case("tromp-taylor", false, GO_ILLEGAL_SUPERKO);
    suicide_case("tromp-taylor", true, GO_LEGAL);

    struct go_game *g = go_game_new(5, 5, rules("japanese"));
    setup(g, GO_WHITE, "baab");
    struct go_verdict v = chk(g, GO_BLACK, "aa");
    assert_string_equal(v.text,
                        "Black's stone at A5 would have no liberties (single-stone suicide)");
    assert_string_equal(v.rule_ref, "Japanese 1989 Art. 3-4 (no stone without a liberty)");
    /* filling the eye while capturing is no suicide */
    setup(g, GO_BLACK, "cabbac");
    v = chk(g, GO_BLACK, "aa");
    assert_int_equal(v.kind, GO_LEGAL);
    assert_int_equal(v.captured, 2);
    go_game_free(g);
}

static void test_simple_ko(void **state)
{
    (void)state;
    /* Black takes the ko at ed; White may not retake at dd at once, may after a threat. */
    struct go_game *g = go_game_new(9, 9, rules("japanese"));
    setup(g, GO_BLACK, "dccdde");
    setup(g, GO_WHITE, "ecfdeedd");
    struct go_verdict v = mv(g, GO_BLACK, "ed");
    assert_int_equal(v.kind, GO_LEGAL);
    assert_int_equal(v.captured, 1);
    v = chk(g, GO_WHITE, "dd");
    assert_int_equal(v.kind, GO_ILLEGAL_KO);
    assert_string_equal(v.rule_ref, "Japanese 1989 Art. 6 (ko)");
    assert_string_equal(v.text, "White retakes the ko at D6 at once");
    assert_int_equal(go_game_ply(g), 1); /* check changed nothing */
    /* threat and answer, then the recapture is legal */
    assert_int_equal(mv(g, GO_WHITE, "hh").kind, GO_LEGAL);
    assert_int_equal(mv(g, GO_BLACK, "hg").kind, GO_LEGAL);
    v = mv(g, GO_WHITE, "dd");
    assert_int_equal(v.kind, GO_LEGAL);
    assert_int_equal(v.captured, 1);
    /* now Black may not retake at once */
    assert_int_equal(chk(g, GO_BLACK, "ed").kind, GO_ILLEGAL_KO);
    /* a pass also lifts the ban */
    mv(g, GO_BLACK, "");
    mv(g, GO_WHITE, "");
    assert_int_equal(go_game_state(g), GO_ENDED_PASSES);
    go_game_resume(g);
    assert_int_equal(go_game_state(g), GO_PLAYING);
    assert_int_equal(chk(g, GO_BLACK, "ed").kind, GO_LEGAL);
    /* tolerant replay executes the illegal retake and says so */
    go_game_free(g);
    g = go_game_new(9, 9, rules("japanese"));
    setup(g, GO_BLACK, "dccdde");
    setup(g, GO_WHITE, "ecfdeedd");
    mv(g, GO_BLACK, "ed");
    v = mv(g, GO_WHITE, "dd");
    assert_int_equal(v.kind, GO_ILLEGAL_KO);
    assert_int_equal(go_game_at(g, mini_pt("dd")), GO_WHITE);
    assert_int_equal(go_game_at(g, mini_pt("ed")), GO_EMPTY);
    assert_int_equal(go_game_prisoners(g, GO_WHITE), 1);
    /* the ban is on White only: Black may fill the ko point himself after White's threat */
    go_game_free(g);
    g = go_game_new(9, 9, rules("japanese"));
    setup(g, GO_BLACK, "dccdde");
    setup(g, GO_WHITE, "ecfdeedd");
    mv(g, GO_BLACK, "ed");
    mv(g, GO_WHITE, "aa");
    assert_int_equal(mv(g, GO_BLACK, "dd").kind, GO_LEGAL);
    go_game_free(g);
}

static void test_occupied_and_texts(void **state)
{
    (void)state;
    struct go_game *g = go_game_new(19, 19, rules("japanese"));
    mv(g, GO_BLACK, "dp");
    struct go_verdict v = mv(g, GO_WHITE, "dp");
    assert_int_equal(v.kind, GO_ILLEGAL_OCCUPIED);
    assert_string_equal(v.text, "White plays at D4, which is occupied");
    assert_string_equal(v.rule_ref, "Japanese 1989 Art. 3 (point of play)");
    assert_int_equal(go_game_at(g, mini_pt("dp")), GO_BLACK);
    assert_int_equal(go_game_ply(g), 2);
    assert_int_equal(go_game_to_move(g), GO_BLACK);
    v = mv(g, GO_BLACK, "pd");
    assert_int_equal(v.kind, GO_LEGAL);
    assert_null(v.rule_ref);
    assert_int_equal(v.repeats_ply, -1);
    assert_string_equal(go_verdict_name(GO_ILLEGAL_SUPERKO), "superko");
    assert_string_equal(go_verdict_name(GO_WRONG_TURN), "wrong-turn");
    go_game_free(g);
}

/* ---- random games against a naive board ---------------------------------------------- */

struct naive {
    int w, h;
    uint8_t c[GO_POINTS];
};

static int naive_flood(const struct naive *n, int p, uint8_t *mark, int *libs)
{
    int stack[GO_POINTS], top = 0, size = 0;
    uint8_t libmark[GO_POINTS] = {0};
    *libs = 0;
    stack[top++] = p;
    mark[p] = 1;
    while (top) {
        int q = stack[--top], x = go_x(q), y = go_y(q);
        size++;
        int nb[4], k = 0;
        if (x > 0) nb[k++] = q - 1;
        if (x + 1 < n->w) nb[k++] = q + 1;
        if (y > 0) nb[k++] = q - GO_MAX;
        if (y + 1 < n->h) nb[k++] = q + GO_MAX;
        for (int i = 0; i < k; i++) {
            if (n->c[nb[i]] == GO_EMPTY && !libmark[nb[i]]) {
                libmark[nb[i]] = 1;
                (*libs)++;
            } else if (n->c[nb[i]] == n->c[p] && !mark[nb[i]]) {
                mark[nb[i]] = 1;
                stack[top++] = nb[i];
            }
        }
    }
    return size;
}

/* Remove every chain of colour c without liberties; returns the stones removed. */
static int naive_clear(struct naive *n, enum go_color c)
{
    uint8_t mark[GO_POINTS] = {0};
    int removed = 0;
    for (int p = 0; p < GO_POINTS; p++) {
        if (n->c[p] != c || mark[p]) continue;
        uint8_t m2[GO_POINTS] = {0};
        int libs, size = naive_flood(n, p, m2, &libs);
        for (int q = 0; q < GO_POINTS; q++) mark[q] |= m2[q];
        if (libs == 0) {
            for (int q = 0; q < GO_POINTS; q++)
                if (m2[q]) n->c[q] = GO_EMPTY;
            removed += size;
        }
    }
    return removed;
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void random_games(int w, int h, int games, int moves_per_game)
{
    struct naive n = {.w = w, .h = h};
    long plies = 0;
    for (int gi = 0; gi < games; gi++) {
        struct go_game *g = go_game_new(w, h, rules("tromp-taylor"));
        memset(n.c, 0, sizeof n.c);
        enum go_color c = GO_BLACK;
        for (int ply = 0, tries = 0; ply < moves_per_game && tries < 50 * moves_per_game; tries++) {
            int p = go_point((int)(rnd() % (uint32_t)w), (int)(rnd() % (uint32_t)h));
            if (n.c[p] != GO_EMPTY) continue;
            ply++;
            struct go_move m = {c, p};
            struct go_verdict chkv = go_game_check(g, m);
            struct go_verdict v = go_game_play(g, m);
            assert_int_equal(chkv.kind, v.kind);
            assert_int_equal(chkv.captured, v.captured);
            n.c[p] = (uint8_t)c;
            int cap = naive_clear(&n, go_other(c));
            int self = cap ? 0 : naive_clear(&n, c);
            assert_int_equal(v.captured, cap ? cap : -self);
            plies++;
            /* every point and every chain's liberties agree with the naive board */
            uint8_t seen[GO_POINTS] = {0};
            uint64_t z = 0;
            bool full = ply % 50 == 0; /* now and then, also rebuild the position by setup */
            struct go_game *fresh = full ? go_game_new(w, h, rules("tromp-taylor")) : NULL;
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int q = go_point(x, y);
                    assert_int_equal(go_game_at(g, q), n.c[q]);
                    if (n.c[q] != GO_EMPTY) z ^= go_zobrist(n.c[q], q);
                    if (n.c[q] != GO_EMPTY && fresh) go_game_setup(fresh, n.c[q], q);
                    if (n.c[q] == GO_EMPTY || seen[q]) continue;
                    uint8_t m2[GO_POINTS] = {0};
                    int libs, size = naive_flood(&n, q, m2, &libs);
                    for (int k = 0; k < GO_POINTS; k++) seen[k] |= m2[k];
                    assert_int_equal(go_game_liberties(g, q), libs);
                    int chain[GO_POINTS];
                    assert_int_equal(go_game_chain(g, q, chain), size);
                }
            }
            /* the incremental hash is the hash of the stones, and set-up stones hash the same */
            assert_true(go_game_hash(g) == z);
            if (fresh) {
                assert_true(go_game_hash(fresh) == z);
                for (int q = 0; q < GO_POINTS; q++)
                    if (n.c[q])
                        assert_int_equal(go_game_liberties(fresh, q), go_game_liberties(g, q));
                go_game_free(fresh);
            }
            c = go_other(c);
        }
        go_game_free(g);
    }
    tu_note("random games %dx%d: %d games, %ld moves checked against a naive board", w, h, games,
            plies);
}

static void test_random_games_vs_naive(void **state)
{
    (void)state;
    random_games(9, 9, 12, 400);
    random_games(7, 5, 10, 300);
    random_games(19, 19, 3, 1000);
    random_games(25, 13, 2, 600);
    random_games(2, 3, 20, 40);
}

/* Throughput: random legal games on 19×19 under positional superko (Tromp-Taylor, Chinese). */
static void test_speed_psk_19(void **state)
{
    (void)state;
    enum { GAMES = 40, MAX_PLY = 1000 };
    static struct go_move rec[GAMES][MAX_PLY + 2];
    static int rec_n[GAMES];
    long plays = 0, checks = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int gi = 0; gi < GAMES; gi++) {
        struct go_game *g = go_game_new(19, 19, rules("chinese"));
        int passes = 0;
        while (go_game_ply(g) < MAX_PLY && passes < 2) {
            enum go_color c = go_game_to_move(g);
            bool played = false;
            for (int tries = 0; tries < 50 && !played; tries++) {
                struct go_move m = {c, go_point((int)(rnd() % 19), (int)(rnd() % 19))};
                checks++;
                if (go_game_check(g, m).kind != GO_LEGAL) continue;
                go_game_play(g, m);
                rec[gi][rec_n[gi]++] = m;
                plays++;
                played = true;
            }
            if (!played) {
                struct go_move m = {c, GO_PASS};
                go_game_play(g, m);
                rec[gi][rec_n[gi]++] = m;
                passes++;
            } else {
                passes = 0;
            }
        }
        go_game_free(g);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    assert_true(plays > 10000);
    tu_note("19x19 positional superko, random legal games: %ld moves + %ld checks in %.3f s = "
            "%.0f moves/s (checks included)",
            plays, checks, s, (double)plays / s);

    /* Replaying the same games with go_game_play alone (each play judges the move: trial,
     * superko scan over the whole history, verdict text). Every move must come out legal. */
    long replayed = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int rep = 0; rep < 5; rep++) {
        for (int gi = 0; gi < GAMES; gi++) {
            struct go_game *g = go_game_new(19, 19, rules("chinese"));
            for (int i = 0; i < rec_n[gi]; i++) {
                if (go_game_play(g, rec[gi][i]).kind != GO_LEGAL)
                    fail_msg("game %d ply %d", gi, i + 1);
                replayed++;
            }
            go_game_free(g);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    tu_note("19x19 positional superko, replay with go_game_play: %ld plies in %.3f s = %.0f "
            "plies/s (avg game %ld plies)",
            replayed, s, (double)replayed / s, replayed / (5 * GAMES));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_capture_and_liberties),
        cmocka_unit_test(test_multi_stone_capture_and_merge),
        cmocka_unit_test(test_edges_corners_and_sizes),
        cmocka_unit_test(test_suicide_rules),
        cmocka_unit_test(test_simple_ko),
        cmocka_unit_test(test_occupied_and_texts),
        cmocka_unit_test(test_random_games_vs_naive),
        cmocka_unit_test(test_speed_psk_19),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

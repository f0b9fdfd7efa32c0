/* tests/ruleguard/test_shogi_observe_unit.c — the shogi observation guard one rule at a time:
 * the square mapping, moves, drops, promotion from the face, captures reaching the komadai late
 * or never, misreads and occluded squares, the Turnierregeln fouls (incl. 3 and 4, which real
 * games seldom give the fault test), restoration, the resignation signal, the referee commands,
 * and the shogi text format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard.h"
#include "ruleguard/obs_text.h"
#include "tests/testutil.h"

#define SEC ((int64_t)1000000000)

static struct observation view;
static uint64_t frame;
static struct guard_event ev[GUARD_OBS_MAX_EVENTS];

/* What a camera with sente at the bottom sees of pos, every reading sure; t advances 5 s. */
static const struct observation *see(const struct shogi_position *pos)
{
    memset(&view, 0, sizeof view);
    view.w = view.h = 9;
    view.board_found = true;
    view.frame_seq = ++frame;
    view.t_ns = (int64_t)frame * 5 * SEC;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x;
            view.point[p] = pos->board[shogi_obs_square(x, y, true)];
            view.conf[p] = 0.95f;
        }
    for (int c = 0; c < 2; c++) {
        view.hands[c].visible = true;
        view.hands[c].conf = 0.95f;
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) view.hands[c].count[t - 1] = pos->hand[c][t];
    }
    return &view;
}

/* The image point showing square sq (sente at the bottom). */
static int point_of(int sq)
{
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++)
            if (shogi_obs_square(x, y, true) == sq) return y * OBS_MAX + x;
    return -1;
}

static int sq_of(const char *usi)
{
    return shogi_sq(usi[0] - '0', usi[1] - 'a' + 1);
}

static int count(int n, enum guard_kind k)
{
    int c = 0;
    for (int i = 0; i < n; i++) c += ev[i].kind == k && ev[i].reason < GUARD_REASON_TAKEBACK;
    return c;
}

static const struct guard_event *find(int n, enum guard_kind k)
{
    for (int i = 0; i < n; i++)
        if (ev[i].kind == k) return &ev[i];
    return NULL;
}

static int flags(int n)
{
    int c = 0;
    for (int i = 0; i < n; i++) c += guard_is_flag(ev[i].kind);
    return c;
}

/* Observe pos k times; all events of the last call that produced any into ev, their number. */
static int observe(struct shogi_obs_guard *g, const struct shogi_position *pos, int k)
{
    int total = 0;
    struct guard_event keep[GUARD_OBS_MAX_EVENTS];
    for (int i = 0; i < k; i++) {
        int n = shogi_obs_guard_observe(g, see(pos), ev);
        for (int j = 0; j < n && total < GUARD_OBS_MAX_EVENTS; j++) keep[total++] = ev[j];
    }
    memcpy(ev, keep, (size_t)total * sizeof ev[0]);
    return total;
}

static void position(struct shogi_position *pos, const char *sfen)
{
    char err[120];
    assert_true(shogi_sfen_parse(pos, sfen, NULL, err, sizeof err));
}

static void play(struct shogi_position *pos, const char *usi)
{
    struct shogi_move m;
    assert_true(shogi_move_from_usi(pos, usi, &m));
    shogi_do_move(pos, m);
}

static void test_square_mapping(void **state)
{
    (void)state;
    assert_int_equal(shogi_obs_square(0, 0, true), shogi_sq(9, 1));
    assert_int_equal(shogi_obs_square(8, 8, true), shogi_sq(1, 9));
    assert_int_equal(shogi_obs_square(0, 0, false), shogi_sq(1, 9));
    assert_int_equal(shogi_obs_square(8, 0, false), shogi_sq(9, 9));
    assert_int_equal(shogi_obs_square(9, 0, true), -1);
}

static void test_move_needs_confirmation(void **state)
{
    (void)state;
    struct shogi_position p;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    assert_int_equal(observe(g, &p, 2), 0);
    /* one misread (a pawn seen one square ahead) is no move */
    see(&p);
    view.point[point_of(sq_of("7g"))] = SHOGI_EMPTY;
    view.point[point_of(sq_of("7f"))] = shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
    assert_int_equal(shogi_obs_guard_observe(g, &view, ev), 0);
    assert_int_equal(observe(g, &p, 2), 0);
    assert_int_equal(shogi_obs_guard_game(g)->n, 0);
    play(&p, "7g7f");
    int n = observe(g, &p, 2);
    assert_int_equal(count(n, GUARD_MOVE), 1);
    assert_int_equal(flags(n), 0);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(find(n, GUARD_MOVE)->shogi, usi), "7g7f");
    assert_int_equal(find(n, GUARD_MOVE)->ply, 1);
    shogi_obs_guard_free(g);
}

static void test_occluded_square_is_no_evidence(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "lnsgkg1nl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b S 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    /* the silver moves 7i-6h while a hand hides 7i: 6h alone must not become S*6h */
    struct shogi_position q = p;
    play(&q, "7i6h");
    for (int i = 0; i < 4; i++) {
        see(&q);
        view.occluded[point_of(sq_of("7i"))] = true;
        view.conf[point_of(sq_of("7i"))] = 0;
        view.hands[SHOGI_SENTE].count[SHOGI_SILVER - 1] = 1; /* the komadai still holds it */
        assert_int_equal(shogi_obs_guard_observe(g, &view, ev), 0);
    }
    int n = observe(g, &q, 2);
    assert_int_equal(count(n, GUARD_MOVE), 1);
    assert_false(shogi_move_is_drop(find(n, GUARD_MOVE)->shogi));
    assert_int_equal(flags(n), 0);
    shogi_obs_guard_free(g);
}

/* A pawn steps onto a square the reader then hides for good (a false cover that holds still):
 * its origin is read empty, its end never again. The opponent's move that follows is no second
 * move in a row: the pawn's step is the move not seen, recorded, and no flag. A piece that leaves
 * for no unread square is still flagged when the opponent moves. */
static void test_move_onto_a_square_hidden_since_is_unseen(void **state)
{
    (void)state;
    struct shogi_position p, q;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "2g2f");
    observe(g, &p, 2);
    play(&p, "3c3d");
    observe(g, &p, 2);
    q = p;
    play(&q, "3g3f");
    play(&q, "7a6b");
    int total = 0, moves = 0, unseen = 0;
    char usi[6];
    for (int i = 0; i < 6; i++) {
        see(&q);
        view.occluded[point_of(sq_of("3f"))] = true;
        view.conf[point_of(sq_of("3f"))] = 0;
        int n = shogi_obs_guard_observe(g, &view, ev);
        total += flags(n);
        for (int k = 0; k < n; k++) {
            if (ev[k].kind != GUARD_MOVE) continue;
            moves++;
            if (ev[k].reason == GUARD_REASON_UNSEEN) {
                unseen++;
                assert_string_equal(shogi_move_to_usi(ev[k].shogi, usi), "3g3f");
            }
        }
    }
    assert_int_equal(total, 0);
    assert_int_equal(moves, 2);
    assert_int_equal(unseen, 1);
    assert_int_equal(shogi_obs_guard_game(g)->n, 4);
    /* uncovered, it shows what was recorded: nothing more */
    assert_int_equal(flags(observe(g, &q, 3)), 0);
    assert_int_equal(shogi_obs_guard_game(g)->n, 4);
    shogi_obs_guard_free(g);
    /* the same with every square read: a pawn gone, then the opponent's move, is flagged */
    shogi_position_startpos(&p);
    g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    q = p;
    q.board[sq_of("3g")] = SHOGI_EMPTY;
    play(&q, "7a6b");
    total = 0;
    for (int i = 0; i < 8; i++) total += flags(shogi_obs_guard_observe(g, see(&q), ev));
    assert_true(total > 0);
    shogi_obs_guard_free(g);
}

/* What the camera sees of pos with the squares 3a, 2a and 1a out of the picture (a partial view),
 * and the piece on sq (when given) read as a gote gold in doubt. */
static const struct observation *see_partial(const struct shogi_position *pos, const char *sq)
{
    see(pos);
    const char *out[] = {"3a", "2a", "1a"};
    for (int i = 0; i < 3; i++) {
        int p = point_of(sq_of(out[i]));
        view.point[p] = SHOGI_EMPTY;
        view.conf[p] = OBS_OUT_OF_VIEW_CONF;
    }
    if (sq) {
        view.point[point_of(sq_of(sq))] = (uint8_t)shogi_piece(SHOGI_GOTE, SHOGI_GOLD);
        view.conf[point_of(sq_of(sq))] = 0.87f;
    }
    return &view;
}

/* Gote's silver steps from 3a, out of the picture, onto 3b and is read there as a gold in doubt
 * (the reader never saw it leave); sente moves before the view settles. No gold could have come
 * there: the silver's move from out of the picture, then sente's, no flag (the face misread is
 * tolerated). With 3a in the picture (the silver still read there) nothing is so explained. */
static void test_arrival_from_out_of_the_picture_misread(void **state)
{
    (void)state;
    struct shogi_position p;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    const char *opening[] = {"2g2f", "3c3d", "7g7f"};
    for (int i = 0; i < 3; i++) {
        play(&p, opening[i]);
        for (int k = 0; k < 2; k++) shogi_obs_guard_observe(g, see_partial(&p, NULL), ev);
    }
    assert_int_equal(shogi_obs_guard_game(g)->n, 3);
    play(&p, "3a3b");
    play(&p, "6i7h");
    int total = 0;
    for (int i = 0; i < 6; i++)
        total += flags(shogi_obs_guard_observe(g, see_partial(&p, "3b"), ev));
    assert_int_equal(total, 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 5);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[3].move, usi), "3a3b");
    assert_string_equal(shogi_move_to_usi(game->plies[4].move, usi), "6i7h");
    /* the silver seen right later: nothing more */
    for (int i = 0; i < 3; i++)
        total += flags(shogi_obs_guard_observe(g, see_partial(&p, NULL), ev));
    assert_int_equal(total, 0);
    assert_int_equal(shogi_obs_guard_game(g)->n, 5);
    shogi_obs_guard_free(g);
    /* 3a in the picture, the silver still read there: no move from it */
    shogi_position_startpos(&p);
    g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    for (int i = 0; i < 3; i++) {
        play(&p, opening[i]);
        observe(g, &p, 2);
    }
    struct shogi_position q = p;
    play(&q, "6i7h");
    q.board[sq_of("3b")] = (uint8_t)shogi_piece(SHOGI_GOTE, SHOGI_GOLD);
    for (int i = 0; i < 6; i++) shogi_obs_guard_observe(g, see(&q), ev);
    game = shogi_obs_guard_game(g);
    for (int k = 3; k < game->n; k++)
        assert_string_not_equal(shogi_move_to_usi(game->plies[k].move, usi), "3a3b");
    shogi_obs_guard_free(g);
}

/* The settler's view of pos (held over 16 frames) with the squares of out[] (NULL-ended) out of
 * the picture and the square occluded (when given) covered; the guard's events into ev, their
 * number. */
static int see_held(struct shogi_obs_guard *g, const struct shogi_position *pos,
                    const char *const *out, const char *occluded)
{
    struct stable_obs s;
    memset(&s, 0, sizeof s);
    s.obs = *see(pos);
    for (int i = 0; out && out[i]; i++) {
        int p = point_of(sq_of(out[i]));
        s.obs.point[p] = SHOGI_EMPTY;
        s.obs.conf[p] = OBS_OUT_OF_VIEW_CONF;
    }
    s.frames = 16;
    if (occluded) {
        s.obs.occluded[point_of(sq_of(occluded))] = true;
        s.obs.conf[point_of(sq_of(occluded))] = 0;
    }
    return shogi_obs_guard_observe_stable(g, &s, ev);
}

/* The settler's view of pos (held over 16 frames), neither komadai read (glare over them), the
 * piece on sq (when given) read at conf; the guard's events into ev, their number. */
static int see_held_blind(struct shogi_obs_guard *g, const struct shogi_position *pos,
                          const char *sq, float conf)
{
    struct stable_obs s;
    memset(&s, 0, sizeof s);
    s.obs = *see(pos);
    for (int c = 0; c < 2; c++) s.obs.hands[c].visible = false;
    if (sq) s.obs.conf[point_of(sq_of(sq))] = conf;
    s.frames = 16;
    return shogi_obs_guard_observe_stable(g, &s, ev);
}

/* Nifu film 18 (glare): a pawn dropped as a second on its file, read surely in two settled views
 * with neither komadai read, then taken back before the game's move (within 1.5 s): the drop was
 * made (2), flagged once the board is put back, not recorded; the game's move then follows.
 * Read in one view only, or in doubt (a misread of an empty square looks so), or with its komadai
 * read still holding every pawn: no flag. Put back together with the game's move (no view
 * between): flagged all the same. */
static void test_illegal_drop_taken_back_after_two_views(void **state)
{
    (void)state;
    for (int variant = 0; variant < 5; variant++) {
        struct shogi_position p;
        position(&p, "4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
        struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
        int total = 0, nifu = 0;
        total += flags(see_held_blind(g, &p, NULL, 0.f));
        struct shogi_position q = p;
        q.board[sq_of("5e")] = (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
        for (int v = 0; v < (variant == 1 ? 1 : 2); v++) {
            int n;
            if (variant == 3) { /* the komadai read, every pawn still there */
                struct stable_obs s;
                memset(&s, 0, sizeof s);
                s.obs = *see(&q);
                s.frames = 16;
                n = shogi_obs_guard_observe_stable(g, &s, ev);
            } else {
                n = see_held_blind(g, &q, "5e", variant == 2 ? 0.7f : 0.95f);
            }
            total += flags(n);
        }
        int n = variant == 4 ? 0 : see_held_blind(g, &p, NULL, 0.f);
        for (int i = 0; i < n; i++) nifu += ev[i].kind == GUARD_ILLEGAL_MOVE;
        total += flags(n);
        if (n && nifu) assert_int_equal(find(n, GUARD_ILLEGAL_MOVE)->reason, SHOGI_ILLEGAL_NIFU);
        play(&p, "5g5f");
        for (int v = 0; v < 2; v++) {
            n = see_held_blind(g, &p, NULL, 0.f);
            for (int i = 0; i < n; i++) nifu += ev[i].kind == GUARD_ILLEGAL_MOVE;
            total += flags(n);
        }
        bool flagged = variant == 0 || variant == 4;
        assert_int_equal(nifu, flagged ? 1 : 0);
        assert_int_equal(total, flagged ? 1 : 0);
        const struct shogi_game *game = shogi_obs_guard_game(g);
        char usi[6];
        assert_int_equal(game->n, 1);
        assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "5g5f");
        shogi_obs_guard_free(g);
    }
}

/* Nifu films 2 and 13: a pawn dropped as a second on its file, its fresh face read as a kind not
 * in hand (a lance, read surely), or as a bishop the mover holds but read with the kind in doubt
 * (0.87), while the mover's komadai show the pawn gone (and the bishop still there): the pawn's
 * drop, a foul of 2) (not an impossible drop of 5, nor a bishop's legal drop). A bishop read
 * surely stays a bishop's drop. */
static void test_drop_read_as_another_kind_is_the_pawn_the_komadai_miss(void **state)
{
    (void)state;
    for (int variant = 0; variant < 3; variant++) {
        struct shogi_position p;
        position(&p, "4k4/9/9/9/9/9/4P4/9/4K4 b BP 1");
        struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
        see_held(g, &p, NULL, NULL);
        play(&p, "P*5e"); /* the komadai: the bishop, no pawn */
        struct shogi_position seen = p;
        int read = shogi_piece(SHOGI_SENTE, variant == 0 ? SHOGI_LANCE : SHOGI_BISHOP);
        seen.board[sq_of("5e")] = (uint8_t)read;
        int total = 0, nifu = 0;
        for (int v = 0; v < 2; v++) {
            struct stable_obs s;
            memset(&s, 0, sizeof s);
            s.obs = *see(&seen);
            s.obs.conf[point_of(sq_of("5e"))] = variant == 1 ? 0.87f : 0.95f;
            s.frames = 16;
            int n = shogi_obs_guard_observe_stable(g, &s, ev);
            total += flags(n);
            for (int i = 0; i < n; i++)
                nifu += ev[i].kind == GUARD_ILLEGAL_MOVE && ev[i].reason == SHOGI_ILLEGAL_NIFU;
        }
        assert_int_equal(nifu, variant < 2 ? 1 : 0);
        if (variant < 2) {
            assert_int_equal(total, 1);
        } else { /* the bishop's drop (the komadai's pawn then missing is theirs to flag) */
            char usi[6];
            const struct shogi_game *game = shogi_obs_guard_game(g);
            assert_int_equal(game->n, 1);
            assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "B*5e");
        }
        shogi_obs_guard_free(g);
    }
}

/* Wrong-way film 2 (dim): sente's bishop moves (6e7f), gote's lance takes a pawn and promotes
 * (5d5g+, the +L read in doubt, 0.6, as the pawn it took), both in one settled view. Read as it
 * is, only the bishop taking the lance on 5d and moving on out of turn explains the board
 * (TWO_MOVES); once the doubtful 5g is a misread, the two legal moves do. The foul waits for the
 * settled story: the two moves, no flag. */
static void test_capture_read_as_the_piece_taken_then_answered(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "1n1gk2nl/1rs2g3/2ppppspp/1p1sl1p2/l1PB3P1/5R2P/1P1+bPPP2/3g1GK2/6SNL b NP2p 45");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    int total = flags(see_held(g, &p, NULL, NULL));
    play(&p, "6e7f");
    play(&p, "5d5g+");
    for (int v = 0; v < 3; v++) {
        struct stable_obs s;
        memset(&s, 0, sizeof s);
        s.obs = *see(&p);
        s.obs.point[point_of(sq_of("5g"))] = (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
        s.obs.conf[point_of(sq_of("5g"))] = 0.6f;
        s.frames = 16;
        total += flags(shogi_obs_guard_observe_stable(g, &s, ev));
    }
    assert_int_equal(total, 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    char usi[6];
    assert_int_equal(game->n, 2);
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "6e7f");
    assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "5d5g+");
    shogi_obs_guard_free(g);
}

/* Footage game 34 (a partial view, 1g-1i out of the picture after the first view): the first
 * moves come faster than views settle. Sente's pawn steps out of 1g unseen, gote answers, the
 * pawn arrives on 1e (1f empty again); or, that view not clean (1g covered), is captured there
 * before the next. The pawn's first step is the move not seen, then the moves read: no
 * TWO_MOVES before any move was recorded (the start's view stands for the last move). With 1g
 * in the picture, the pawn still on it: no such story. */
static void test_first_moves_through_a_square_out_of_the_picture(void **state)
{
    (void)state;
    const char *const dark[] = {"1g", "1h", "1i", NULL};
    const char *const line[] = {"1g1f", "1c1d", "1f1e", "1d1e"};
    char usi[6];
    for (int plies = 3; plies <= 4; plies++) {
        struct shogi_position p;
        shogi_position_startpos(&p);
        struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
        assert_int_equal(flags(see_held(g, &p, NULL, NULL)), 0);
        for (int i = 0; i < 3; i++) play(&p, line[i]);
        int total = flags(see_held(g, &p, dark, plies == 4 ? "1g" : NULL));
        if (plies == 4) play(&p, line[3]);
        total += flags(see_held(g, &p, dark, NULL));
        assert_int_equal(total, 0);
        const struct shogi_game *game = shogi_obs_guard_game(g);
        assert_int_equal(game->n, plies);
        for (int i = 0; i < plies; i++)
            assert_string_equal(shogi_move_to_usi(game->plies[i].move, usi), line[i]);
        shogi_obs_guard_free(g);
    }
    /* 1g read with its pawn still there: gote's pawn on 1e came from nowhere the rules know */
    struct shogi_position p, q;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    see_held(g, &p, NULL, NULL);
    q = p;
    for (int i = 0; i < 4; i++) play(&q, line[i]);
    q.board[sq_of("1g")] = (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
    q.hand[SHOGI_GOTE][SHOGI_PAWN] = 0;
    see_held(g, &q, (const char *const[]){"1h", "1i", NULL}, NULL);
    see_held(g, &q, (const char *const[]){"1h", "1i", NULL}, NULL);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    for (int k = 0; k < game->n; k++)
        assert_string_not_equal(shogi_move_to_usi(game->plies[k].move, usi), "1g1f");
    shogi_obs_guard_free(g);
}

static void test_drop_and_promotion_from_the_face(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/2P6/9/9/4K4 b P 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "P*5e");
    int n = observe(g, &p, 2);
    assert_int_equal(count(n, GUARD_MOVE), 1);
    assert_true(shogi_move_is_drop(find(n, GUARD_MOVE)->shogi));
    play(&p, "5a4a");
    observe(g, &p, 2);
    /* 7f-7e, then into the zone: the face tells whether it promoted */
    play(&p, "7f7e");
    observe(g, &p, 2);
    play(&p, "4a5a");
    observe(g, &p, 2);
    play(&p, "7e7d");
    observe(g, &p, 2);
    play(&p, "5a4a");
    observe(g, &p, 2);
    struct shogi_position q = p;
    play(&q, "7d7c+");
    n = observe(g, &q, 2);
    assert_int_equal(count(n, GUARD_MOVE), 1);
    assert_true(find(n, GUARD_MOVE)->shogi.promote);
    assert_int_equal(flags(n), 0);
    shogi_obs_guard_free(g);
}

/* A promotion read unpromoted twice in doubt is recorded so; the sure readings of the promoted
 * face that follow, with the opponent's reply, amend it: no flag, the game as played. */
static void test_promotion_seen_late_is_amended(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/2P6/9/9/9/9/4K4 b - 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    struct shogi_position plain = p, promoted = p;
    play(&plain, "7d7c");
    play(&promoted, "7d7c+");
    for (int i = 0; i < 2; i++) {
        see(&plain);
        view.conf[point_of(sq_of("7c"))] = 0.6f; /* the face read in doubt */
        shogi_obs_guard_observe(g, &view, ev);
    }
    assert_int_equal(shogi_obs_guard_game(g)->n, 1);
    assert_false(shogi_obs_guard_game(g)->plies[0].move.promote);
    play(&promoted, "5a4a");
    int n = observe(g, &promoted, 3);
    assert_int_equal(flags(n), 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 2);
    assert_true(game->plies[0].move.promote);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "5a4a");
    shogi_obs_guard_free(g);
}

/* What the camera sees of pos, the piece on each of the squares named read with the face it
 * had before it promoted (grey frames show a promoted face poorly), surely. */
static const struct observation *see_unpromoted(const struct shogi_position *pos, const char *sq1,
                                                const char *sq2)
{
    see(pos);
    const char *sqs[2] = {sq1, sq2};
    for (int i = 0; i < 2; i++) {
        if (!sqs[i]) continue;
        int piece = pos->board[sq_of(sqs[i])];
        if (piece && shogi_type_is_promoted(shogi_piece_type(piece)))
            view.point[point_of(sq_of(sqs[i]))] = (uint8_t)(piece - SHOGI_PROMOTED);
    }
    return &view;
}

/* A promotion never read (the unpromoted face read surely): recorded unpromoted. Two moves on,
 * the piece steps as only a tokin can (2c-3b, a pawn never goes there), still read as a pawn:
 * the promotion is amended (said in the move's comment), the tokin's step recorded, no flag. */
static void test_promotion_shown_by_a_later_move(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "lnsgkgsnl/1r5b1/ppppppp1p/7P1/9/9/PPPPPPP1P/1B5R1/LNSGKGSNL b P 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "2d2c+");
    for (int i = 0; i < 2; i++) shogi_obs_guard_observe(g, see_unpromoted(&p, "2c", NULL), ev);
    assert_int_equal(shogi_obs_guard_game(g)->n, 1);
    assert_false(shogi_obs_guard_game(g)->plies[0].move.promote);
    play(&p, "9c9d");
    for (int i = 0; i < 2; i++) shogi_obs_guard_observe(g, see_unpromoted(&p, "2c", NULL), ev);
    assert_int_equal(shogi_obs_guard_game(g)->n, 2);
    play(&p, "2c3b");
    int total = 0, amended = 0;
    for (int i = 0; i < 4; i++) {
        int n = shogi_obs_guard_observe(g, see_unpromoted(&p, "3b", NULL), ev);
        total += flags(n);
        for (int k = 0; k < n; k++)
            amended += ev[k].kind == GUARD_MOVE && ev[k].ply == 1 && strstr(ev[k].text, "promoted");
    }
    assert_int_equal(total, 0);
    assert_int_equal(amended, 1);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 3);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "2d2c+");
    assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "9c9d");
    assert_string_equal(shogi_move_to_usi(game->plies[2].move, usi), "2c3b");
    assert_true(shogi_position_same(&game->pos, &p));
    /* and the game goes on: gote's reply, then the tokin again, no flag */
    play(&p, "9d9e");
    total = 0;
    for (int i = 0; i < 2; i++)
        total += flags(shogi_obs_guard_observe(g, see_unpromoted(&p, "3b", NULL), ev));
    play(&p, "3b4b");
    for (int i = 0; i < 3; i++)
        total += flags(shogi_obs_guard_observe(g, see_unpromoted(&p, "4b", NULL), ev));
    assert_int_equal(total, 0);
    game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 5);
    assert_true(shogi_position_same(&game->pos, &p));
    shogi_obs_guard_free(g);
}

/* A bishop dropped and read as a knight (its kind in doubt, the komadai out of view): recorded
 * as the knight. When the piece then goes where only a bishop goes, the drop is amended. */
static void test_drop_kind_shown_by_a_later_move(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/9/9/9/4K4 b BN 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "B*3e");
    for (int i = 0; i < 2; i++) {
        see(&p);
        view.point[point_of(sq_of("3e"))] = shogi_piece(SHOGI_SENTE, SHOGI_KNIGHT);
        for (int c = 0; c < 2; c++) view.hands[c].visible = false;
        shogi_obs_guard_observe(g, &view, ev);
    }
    assert_int_equal(shogi_obs_guard_game(g)->n, 1);
    assert_int_equal(shogi_piece_type(shogi_obs_guard_game(g)->plies[0].move.piece), SHOGI_KNIGHT);
    play(&p, "5a4a");
    for (int i = 0; i < 2; i++) {
        see(&p);
        view.point[point_of(sq_of("3e"))] = shogi_piece(SHOGI_SENTE, SHOGI_KNIGHT);
        for (int c = 0; c < 2; c++) view.hands[c].visible = false;
        shogi_obs_guard_observe(g, &view, ev);
    }
    assert_int_equal(shogi_obs_guard_game(g)->n, 2);
    play(&p, "3e7i");
    int total = 0;
    for (int i = 0; i < 4; i++) {
        see(&p);
        view.point[point_of(sq_of("7i"))] = shogi_piece(SHOGI_SENTE, SHOGI_KNIGHT);
        for (int c = 0; c < 2; c++) view.hands[c].visible = false;
        total += flags(shogi_obs_guard_observe(g, &view, ev));
    }
    assert_int_equal(total, 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 3);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "B*3e");
    assert_string_equal(shogi_move_to_usi(game->plies[2].move, usi), "3e7i");
    shogi_obs_guard_free(g);
}

/* What the camera sees of pos, the piece on sq turned round (read as the opponent's). */
static const struct observation *see_turned(const struct shogi_position *pos, const char *sq)
{
    see(pos);
    int piece = pos->board[sq_of(sq)];
    view.point[point_of(sq_of(sq))] = (uint8_t)shogi_piece(
        (enum shogi_color)(shogi_piece_color(piece) ^ 1), shogi_piece_type(piece));
    return &view;
}

/* A piece put down turned (pointing at its owner: read as the opponent's piece) after a legal
 * move: the move is recorded and flagged ILLEGAL_MOVE 5) once, no BOARD_DISTURBED; the game goes
 * on, the turned piece moving on turned is no new flag. */
static void test_piece_put_down_turned(void **state)
{
    (void)state;
    struct shogi_position p;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "7g7f");
    int moves = 0, illegal = 0, other = 0;
    char usi[6];
    for (int i = 0; i < 4; i++) {
        int n = shogi_obs_guard_observe(g, see_turned(&p, "7f"), ev);
        for (int k = 0; k < n; k++) {
            if (ev[k].kind == GUARD_MOVE) {
                moves++;
                assert_string_equal(shogi_move_to_usi(ev[k].shogi, usi), "7g7f");
            } else if (ev[k].kind == GUARD_ILLEGAL_MOVE &&
                       ev[k].reason == SHOGI_ILLEGAL_IMPOSSIBLE) {
                illegal++;
                assert_int_equal(ev[k].ply, 1);
            } else if (guard_is_flag(ev[k].kind)) {
                other++;
            }
        }
    }
    assert_int_equal(moves, 1);
    assert_int_equal(illegal, 1);
    assert_int_equal(other, 0);
    play(&p, "3c3d");
    int total = 0;
    for (int i = 0; i < 2; i++)
        total += flags(shogi_obs_guard_observe(g, see_turned(&p, "7f"), ev));
    play(&p, "7f7e");
    for (int i = 0; i < 4; i++)
        total += flags(shogi_obs_guard_observe(g, see_turned(&p, "7e"), ev));
    play(&p, "8c8d");
    for (int i = 0; i < 3; i++)
        total += flags(shogi_obs_guard_observe(g, see_turned(&p, "7e"), ev));
    assert_int_equal(total, 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 4);
    assert_true(shogi_position_same(&game->pos, &p));
    shogi_obs_guard_free(g);
}

/* A pawn put down turned, seen so in one view only (two readings, not yet settled), then the
 * opponent's move and the mover's next before the view settled (a wrong-way fault film): the
 * move and its foul at its ply (5), the two moves after it, no BOARD_DISTURBED. */
static void test_piece_put_down_turned_then_answered(void **state)
{
    (void)state;
    struct shogi_position p;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "7g7f");
    int moves = 0, illegal = 0, other = 0;
    struct guard_event all[GUARD_OBS_MAX_EVENTS];
    int nall = 0;
    for (int i = 0; i < 2; i++) {
        int n = shogi_obs_guard_observe(g, see_turned(&p, "7f"), ev);
        for (int k = 0; k < n && nall < GUARD_OBS_MAX_EVENTS; k++) all[nall++] = ev[k];
    }
    play(&p, "3c3d");
    play(&p, "2g2f");
    for (int i = 0; i < 6; i++) {
        int n = shogi_obs_guard_observe(g, see_turned(&p, "7f"), ev);
        for (int k = 0; k < n && nall < GUARD_OBS_MAX_EVENTS; k++) all[nall++] = ev[k];
    }
    for (int k = 0; k < nall; k++) {
        if (all[k].kind == GUARD_MOVE && all[k].reason < GUARD_REASON_TAKEBACK) {
            moves++;
        } else if (all[k].kind == GUARD_ILLEGAL_MOVE && all[k].reason == SHOGI_ILLEGAL_IMPOSSIBLE) {
            illegal++;
            assert_int_equal(all[k].ply, 1);
        } else if (guard_is_flag(all[k].kind)) {
            other++;
        }
    }
    assert_int_equal(illegal, 1);
    assert_int_equal(other, 0);
    assert_int_equal(moves, 3);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 3);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "7g7f");
    assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "3c3d");
    assert_string_equal(shogi_move_to_usi(game->plies[2].move, usi), "2g2f");
    shogi_obs_guard_free(g);
}

/* A guard that saw the start, 7g7f and 3c3d (each position twice): the bishops face each other
 * along the opened diagonal. *p: the position reached. */
static struct shogi_obs_guard *bishops_facing(struct shogi_position *p)
{
    shogi_position_startpos(p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, p, 2);
    play(p, "7g7f");
    observe(g, p, 2);
    play(p, "3c3d");
    observe(g, p, 2);
    return g;
}

/* A bishop takes a bishop and is read with the owner of the piece it took (the square reads as
 * before): that is no piece put down turned (no ILLEGAL_MOVE 5); a turned piece reads otherwise
 * than the square did. */
static void test_capture_read_as_the_piece_taken_is_not_turned(void **state)
{
    (void)state;
    struct shogi_position p;
    struct shogi_obs_guard *g = bishops_facing(&p);
    struct shogi_position q = p;
    play(&q, "8h2b");
    int turned_flags = 0;
    for (int i = 0; i < 6; i++) {
        see(&q);
        view.point[point_of(sq_of("2b"))] = shogi_piece(SHOGI_GOTE, SHOGI_BISHOP);
        int n = shogi_obs_guard_observe(g, &view, ev);
        for (int k = 0; k < n; k++)
            turned_flags += ev[k].kind == GUARD_ILLEGAL_MOVE && strstr(ev[k].text, "turned");
    }
    assert_int_equal(turned_flags, 0);
    shogi_obs_guard_free(g);
}

/* Sente's bishop takes on 2b from 8h, a square out of the picture since (a partial view); the
 * horse on 2b is read as the bishop it took (the old owner, in doubt), then gote's silver takes
 * it: no TWO_MOVES nor own capture, but the capture not seen, then gote's move. */
static void test_capture_from_out_of_the_picture_read_with_the_old_owner(void **state)
{
    (void)state;
    struct shogi_position p;
    struct shogi_obs_guard *g = bishops_facing(&p);
    struct shogi_position q = p;
    play(&q, "8h2b+");
    int total = 0;
    for (int i = 0; i < 3; i++) {
        see(&q);
        view.occluded[point_of(sq_of("8h"))] = true;
        view.conf[point_of(sq_of("8h"))] = 0;
        view.point[point_of(sq_of("2b"))] = shogi_piece(SHOGI_GOTE, SHOGI_BISHOP);
        view.conf[point_of(sq_of("2b"))] = 0.6f;
        total += flags(shogi_obs_guard_observe(g, &view, ev));
    }
    play(&q, "3a2b");
    int unseen = 0;
    char usi[6];
    for (int i = 0; i < 5; i++) {
        see(&q);
        view.occluded[point_of(sq_of("8h"))] = true;
        view.conf[point_of(sq_of("8h"))] = 0;
        int n = shogi_obs_guard_observe(g, &view, ev);
        total += flags(n);
        for (int k = 0; k < n; k++)
            if (ev[k].kind == GUARD_MOVE && ev[k].reason == GUARD_REASON_UNSEEN) {
                unseen++;
                assert_string_equal(shogi_move_to_usi(ev[k].shogi, usi), "8h2b+");
            }
    }
    assert_int_equal(total, 0);
    assert_int_equal(unseen, 1);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 4);
    assert_string_equal(shogi_move_to_usi(game->plies[3].move, usi), "3a2b");
    assert_true(shogi_position_same(&game->pos, &q));
    shogi_obs_guard_free(g);
}

/* A misread of an empty square, read surely once and then in doubt, looks like a drop; the
 * dropper's komadai, seen just then still holding the piece, says it was none. */
static void test_doubtful_drop_against_a_full_komadai_waits(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/9/9/9/4K4 w p 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    struct shogi_position misread = p;
    misread.board[sq_of("1d")] = shogi_piece(SHOGI_GOTE, SHOGI_PAWN); /* the hand still has it */
    int n = shogi_obs_guard_observe(g, see(&misread), ev);
    see(&misread);
    view.conf[point_of(sq_of("1d"))] = 0.6f;
    n += shogi_obs_guard_observe(g, &view, ev);
    assert_int_equal(count(n, GUARD_MOVE), 0);
    n = observe(g, &p, 3);
    assert_int_equal(flags(n), 0);
    assert_int_equal(shogi_obs_guard_game(g)->n, 0);
    play(&p, "P*1d"); /* the real drop, its komadai empty */
    n = observe(g, &p, 2);
    assert_int_equal(count(n, GUARD_MOVE), 1);
    assert_int_equal(shogi_obs_guard_game(g)->n, 1);
    shogi_obs_guard_free(g);
}

/* A bishop dropped beside a pawn of its side, its face read as a pawn (a second pawn on the
 * file: nifu) while the komadai show the bishop gone and every pawn still there: the bishop's
 * drop, no flag; the square's pawn reading tolerated until the piece moves on, then followed. */
static void test_drop_read_as_another_kind_follows_the_komadai(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/4P4/9/9/4K4 b BP 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "B*5c");
    struct shogi_position seen = p;
    seen.board[sq_of("5c")] = shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
    int n = observe(g, &seen, 3);
    assert_int_equal(flags(n), 0);
    assert_int_equal(count(n, GUARD_MOVE), 1);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 1);
    assert_int_equal(shogi_piece_type(game->plies[0].move.piece), SHOGI_BISHOP);
    /* the reply, the pawn reading still there: no flag */
    play(&p, "5a4a");
    play(&seen, "5a4a");
    n = observe(g, &seen, 3);
    assert_int_equal(flags(n), 0);
    assert_int_equal(shogi_obs_guard_game(g)->n, 2);
    /* the bishop moves on, read as a bishop now */
    play(&p, "5c4b+");
    n = observe(g, &p, 3);
    assert_int_equal(flags(n), 0);
    assert_int_equal(shogi_obs_guard_game(g)->n, 3);
    shogi_obs_guard_free(g);
}

/* A pawn dropped and read as a pawn while the komadai still count every pawn: the square's
 * reading stands (the komadai are no cause to name another kind). */
static void test_drop_against_a_full_komadai_keeps_its_kind(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/9/9/9/4K4 b GP 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "P*5e");
    int n = observe(g, &p, 3);
    assert_int_equal(flags(n), 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 1);
    assert_int_equal(shogi_piece_type(game->plies[0].move.piece), SHOGI_PAWN);
    shogi_obs_guard_free(g);
}

/* With no komadai read: a drop read as a kind the mover does not hold (a lance), where the one
 * kind it holds that may be dropped there is a bishop (its pawn would be a second on the file):
 * the bishop's drop, no flag. A kind it holds, dropped against a rule, is still a foul. */
static void test_drop_of_a_kind_not_in_hand_is_the_one_it_holds(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/9/4P4/9/4K4 b BP 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    struct shogi_position seen = p;
    play(&p, "B*5f");
    seen.board[sq_of("5f")] = shogi_piece(SHOGI_SENTE, SHOGI_LANCE);
    for (int c = 0; c < 2; c++) view.hands[c].visible = false;
    int n = 0;
    for (int i = 0; i < 3; i++) {
        see(&seen);
        for (int c = 0; c < 2; c++) view.hands[c].visible = false;
        n += shogi_obs_guard_observe(g, &view, ev + n);
    }
    assert_int_equal(flags(n), 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 1);
    assert_int_equal(shogi_piece_type(game->plies[0].move.piece), SHOGI_BISHOP);
    shogi_obs_guard_free(g);
    /* a pawn it holds, dropped as a second on the file: flagged */
    position(&p, "4k4/9/9/9/9/9/4P4/9/4K4 b BP 1");
    g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    struct shogi_move m = {SHOGI_HAND, (uint8_t)sq_of("5e"),
                           (uint8_t)shogi_piece(SHOGI_SENTE, SHOGI_PAWN), 0, false};
    shogi_do_move(&p, m);
    n = observe(g, &p, 8);
    assert_int_equal(count(n, GUARD_ILLEGAL_MOVE), 1);
    shogi_obs_guard_free(g);
}

/* Observe pos k times with neither komadai in view and the piece on sq (when given) read as
 * `read` at conf (below conf_sure); all events into ev, their number. */
static int observe_blind_as(struct shogi_obs_guard *g, const struct shogi_position *pos, int k,
                            const char *sq, int read, float conf)
{
    int total = 0;
    struct guard_event keep[GUARD_OBS_MAX_EVENTS];
    for (int i = 0; i < k; i++) {
        see(pos);
        for (int c = 0; c < 2; c++) view.hands[c].visible = false;
        if (sq) {
            view.point[point_of(sq_of(sq))] = (uint8_t)read;
            view.conf[point_of(sq_of(sq))] = conf;
        }
        int n = shogi_obs_guard_observe(g, &view, ev);
        for (int j = 0; j < n && total < GUARD_OBS_MAX_EVENTS; j++) keep[total++] = ev[j];
    }
    memcpy(ev, keep, (size_t)total * sizeof ev[0]);
    return total;
}

/* Neither komadai ever read (footage game 12): a bishop dropped on 3b read in doubt as a pawn
 * (0.7: no kind named surely), a second pawn on the 3rd file as read; the opponent answers, read
 * surely. The rules decide the kind: the one other kind in hand that may go there, the bishop,
 * in doubt and said so; then the answer; no flag. Without a bishop in hand the pawn stays a pawn
 * (no other kind is made up). */
static void test_drop_read_in_doubt_as_a_foul_with_no_komadai_read(void **state)
{
    (void)state;
    int pawn = shogi_piece(SHOGI_SENTE, SHOGI_PAWN);
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/9/6P2/9/4K4 b BP 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe_blind_as(g, &p, 2, NULL, 0, 0.f);
    play(&p, "B*3b");
    int n = observe_blind_as(g, &p, 3, "3b", pawn, 0.7f);
    int total = flags(n);
    play(&p, "5a5b");
    n = observe_blind_as(g, &p, 4, "3b", pawn, 0.7f);
    total += flags(n);
    assert_int_equal(total, 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 2);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "B*3b");
    assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "5a5b");
    const struct guard_event *e = find(n, GUARD_MOVE);
    assert_non_null(e);
    assert_non_null(strstr(e->text, "in doubt"));
    assert_non_null(strstr(e->text, "FU"));
    shogi_obs_guard_free(g);
    /* no bishop in hand: no bishop dropped */
    position(&p, "4k4/9/9/9/9/9/6P2/9/4K4 b P 1");
    g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe_blind_as(g, &p, 2, NULL, 0, 0.f);
    struct shogi_position q = p;
    q.board[sq_of("3b")] = (uint8_t)pawn;
    observe_blind_as(g, &q, 3, "3b", pawn, 0.7f);
    observe_blind_as(g, &q, 4, "3b", pawn, 0.7f);
    game = shogi_obs_guard_game(g);
    for (int k = 0; k < game->n; k++)
        assert_int_not_equal(shogi_piece_type(game->plies[k].move.piece), SHOGI_BISHOP);
    shogi_obs_guard_free(g);
}

/* A bishop takes a knight on the far rank, the capturer read in doubt with the knight's face
 * (0.7) and its square left read empty: only readings in doubt overruled explain it, by the
 * bishop's capture promoted or not (it may do either there). The same move but for the
 * promotion: promoted, the likelier, in doubt; no flag. */
static void test_capture_into_the_zone_read_in_doubt_is_promoted(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k2n1/6B2/9/9/9/9/9/9/4K4 b - 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "3b2a+");
    int total = 0;
    for (int i = 0; i < 6; i++) {
        see(&p);
        view.point[point_of(sq_of("2a"))] = (uint8_t)shogi_piece(SHOGI_GOTE, SHOGI_KNIGHT);
        view.conf[point_of(sq_of("2a"))] = 0.7f;
        total += flags(shogi_obs_guard_observe(g, &view, ev));
    }
    assert_int_equal(total, 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 1);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "3b2a+");
    shogi_obs_guard_free(g);
}

/* A silver moved twice, the opponent's move between, all under a hand (no view settled between
 * them): the silver's one move as seen is none a silver makes, its two halves through a square
 * empty before and after are. Three moves, no flag. The same silver move shown alone is a foul. */
static void test_piece_moved_twice_before_the_view_settled(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/9/9/6S2/4K4 b - 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "3h2g");
    play(&p, "5a4a");
    play(&p, "2g3f");
    int n = observe(g, &p, 3);
    assert_int_equal(flags(n), 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 3);
    assert_memory_equal(game->pos.board, p.board, SHOGI_SQUARES);
    shogi_obs_guard_free(g);
    /* shown alone: the silver leaps two ranks, a foul */
    position(&p, "4k4/9/9/9/9/9/9/6S2/4K4 b - 1");
    g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    p.board[sq_of("3f")] = p.board[sq_of("3h")];
    p.board[sq_of("3h")] = SHOGI_EMPTY;
    n = observe(g, &p, 8);
    assert_int_equal(count(n, GUARD_ILLEGAL_MOVE), 1);
    shogi_obs_guard_free(g);
}

/* A king steps aside, a lance is dropped on the square it left, and the king takes it at once:
 * the king seems to step back, the lance went from one komadai to the other (the capturer's
 * still on its way). Two moves, no finished move taken back. */
static void test_drop_captured_at_once_is_no_takeback(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "9/9/9/9/9/9/9/6K2/6PPk w L 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "1i1h");
    assert_int_equal(count(observe(g, &p, 3), GUARD_MOVE), 1);
    play(&p, "L*1i");
    observe(g, &p, 1); /* the lance seen once */
    play(&p, "1h1i");
    struct shogi_position lag = p;
    lag.hand[SHOGI_GOTE][SHOGI_LANCE] = 0; /* not on gote's komadai yet */
    int n = observe(g, &lag, 2);
    n += observe(g, &p, 3);
    assert_int_equal(flags(n), 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 3);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "L*1i");
    assert_string_equal(shogi_move_to_usi(game->plies[2].move, usi), "1h1i");
    shogi_obs_guard_free(g);
}

/* Not-in-hand film 10 (dim): gote's komadai one piece short of the game (a capture never put
 * there) and the piece just captured not there yet: the legal story (a horse's long capture, then
 * sente's move) agrees with the komadai no better than an illegal one would, and was taken for
 * one; the horse's move then read as two through an empty square (6g4e, 3f3e, 4e8i), every later
 * move a ply off. The legal story found again is still legal: its two moves, no flag. */
static void test_legal_story_short_of_the_komadai_stays_legal(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPP1/1B5R1/LNSGKGSNL w p 4");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    struct shogi_position read = p;
    read.hand[SHOGI_GOTE][SHOGI_PAWN] = 0; /* the pawn gote took never reached its komadai */
    int n = flags(observe(g, &read, 3));
    play(&p, "2b8h+");
    play(&p, "2g2f");
    read = p;
    read.hand[SHOGI_GOTE][SHOGI_PAWN] = 0;
    read.hand[SHOGI_GOTE][SHOGI_BISHOP] = 0; /* on its way */
    for (int i = 0; i < 4; i++) {
        int k = observe(g, &read, 1);
        n += count(k, GUARD_TWO_MOVES) + count(k, GUARD_ILLEGAL_MOVE) +
             count(k, GUARD_BOARD_DISTURBED);
    }
    assert_int_equal(n, 0);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 2);
    char usi[6];
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "2b8h+");
    assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "2g2f");
    shogi_obs_guard_free(g);
}

/* Observe pos k times with neither komadai in view; all events into ev, their number. */
static int observe_blind(struct shogi_obs_guard *g, const struct shogi_position *pos, int k)
{
    return observe_blind_as(g, pos, k, NULL, 0, 0.f);
}

/* Neither komadai ever read (the footage's recorder reads none): a bishop dropped with check, seen
 * once on its square read turned (as gote's), and taken at once by a silver before the view
 * settled. The komadai are no evidence against the drop and its capture (their belief is still
 * the start's): the two legal moves, no TWO_MOVES. A drop never seen there is no such story. */
static void test_drop_taken_at_once_with_no_komadai_read(void **state)
{
    (void)state;
    for (int shown = 1; shown >= 0; shown--) {
        struct shogi_position p;
        position(&p, "4k4/6s2/9/9/9/9/9/9/4K4 b B 1");
        struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
        observe_blind(g, &p, 2);
        play(&p, "B*3c");
        struct shogi_position turned = p;
        turned.board[sq_of("3c")] = (uint8_t)shogi_piece(SHOGI_GOTE, SHOGI_BISHOP);
        int n = shown ? observe_blind(g, &turned, 1) : 0;
        play(&p, "3b3c");
        n += observe_blind(g, &p, 8);
        const struct shogi_game *game = shogi_obs_guard_game(g);
        char usi[6];
        if (shown) {
            assert_int_equal(flags(n), 0);
            assert_int_equal(game->n, 2);
            assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "B*3c");
            assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "3b3c");
        } else {
            for (int k = 0; k < game->n; k++)
                assert_string_not_equal(shogi_move_to_usi(game->plies[k].move, usi), "B*3c");
        }
        shogi_obs_guard_free(g);
    }
}

static void test_capture_reaches_the_komadai_late_or_never(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/4p4/4P4/9/9/9/4K4 b - 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "5e5d"); /* captures the pawn */
    /* the pawn reaches sente's komadai two observations late: no flag */
    struct shogi_position off = p;
    off.hand[SHOGI_SENTE][SHOGI_PAWN] = 0;
    int n = observe(g, &off, 2);
    assert_int_equal(count(n, GUARD_MOVE), 1);
    n = observe(g, &p, 3);
    assert_int_equal(flags(n), 0);
    /* gote moves; sente captures again and keeps the piece in a pocket */
    position(&p, "4k4/9/9/4p4/4P4/9/9/9/4K4 b - 1");
    shogi_obs_guard_free(g);
    g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "5e5d");
    off = p;
    off.hand[SHOGI_SENTE][SHOGI_PAWN] = 0;
    observe(g, &off, 2);
    play(&off, "5a4a"); /* the opponent thinks, then moves: still not on the komadai */
    n = observe(g, &off, 5);
    const struct guard_event *e = find(n, GUARD_HIDDEN_PIECE);
    assert_non_null(e);
    assert_int_equal(e->ply, 1);
    shogi_obs_guard_free(g);
}

static void test_piece_disappears_from_the_komadai(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/9/9/9/9/9/4K4 b 2P 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    struct shogi_position gone = p;
    gone.hand[SHOGI_SENTE][SHOGI_PAWN] = 1;
    int n = observe(g, &gone, 5);
    assert_int_equal(count(n, GUARD_HIDDEN_PIECE), 1);
    n = observe(g, &p, 3); /* back: no new flag */
    assert_int_equal(flags(n), 0);
    shogi_obs_guard_free(g);
}

/* One foul from a position: the flag's kind and reason, and the board put back takes it back. */
static void foul(const char *sfen, const char *usi, enum guard_kind kind, int reason)
{
    struct shogi_position p;
    position(&p, sfen);
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    struct shogi_position q = p;
    struct shogi_move m;
    size_t len = strlen(usi);
    if (usi[1] == '*' && usi[len - 1] == '+') { /* a drop promoted side up: no USI for it */
        char plain[6];
        snprintf(plain, sizeof plain, "%.4s", usi);
        assert_true(shogi_move_from_usi(&q, plain, &m));
        m.piece = (uint8_t)(m.piece + SHOGI_PROMOTED);
    } else {
        assert_true(shogi_move_from_usi(&q, usi, &m));
    }
    shogi_do_move(&q, m);
    int n = observe(g, &q, 3);
    const struct guard_event *e = find(n, kind);
    if (!e) fail_msg("%s in %s: no %s", usi, sfen, guard_kind_name(kind));
    assert_int_equal(e->reason, reason);
    assert_int_equal(e->ply, 1);
    n = observe(g, &p, 3);
    const struct guard_event *back = find(n, GUARD_MOVE);
    assert_non_null(back);
    assert_int_equal(back->reason, GUARD_REASON_TAKEBACK);
    assert_int_equal(shogi_obs_guard_game(g)->n, 0);
    assert_int_equal(flags(n), 0);
    shogi_obs_guard_free(g);
}

static void test_fouls(void **state)
{
    (void)state;
    const char *bare_p = "4k4/9/9/9/9/9/4P4/9/4K4 b P 1";
    foul(bare_p, "P*1a", GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_DEAD_PIECE); /* 1 */
    foul(bare_p, "P*5e", GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_NIFU);       /* 2 */
    foul("8k/6S2/7G1/9/9/9/9/9/4K4 b P 1", "P*1b", GUARD_ILLEGAL_MOVE,
         SHOGI_ILLEGAL_UCHIFUZUME); /* 3 */
    foul("4k4/9/9/9/9/9/9/5G3/4K4 b - 1", "4h3i", GUARD_ILLEGAL_MOVE,
         SHOGI_ILLEGAL_IMPOSSIBLE);                                      /* 5: a gold backwards */
    foul(bare_p, "P*4e+", GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_IMPOSSIBLE); /* 5: promoted drop */
    foul("4k4/9/9/9/9/9/9/9/r3K4 b - 1", "5i4i", GUARD_ILLEGAL_MOVE,
         SHOGI_ILLEGAL_KING_IN_CHECK);                                             /* 8 */
    foul(SHOGI_SFEN_STARTPOS, "3c3d", GUARD_TWO_MOVES, SHOGI_ILLEGAL_OUT_OF_TURN); /* 9 */
}

/* A real foul the players play on from (nobody restores the board): the foul is flagged once,
 * the moves after it are recorded as moves, not each flagged as played after the end. */
static void test_game_goes_on_after_a_foul(void **state)
{
    (void)state;
    struct shogi_position p;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    const char *moves[] = {"7g7f", "2g2f", "3c3d", "2f2e", "8c8d", "2e2d"};
    int nflags = 0, twice = 0;
    for (int i = 0; i < 6; i++) {
        struct shogi_move m;
        assert_true(shogi_move_from_usi(&p, moves[i], &m));
        shogi_do_move(&p, m); /* sente twice: 9), the turn stays with gote */
        int n = observe(g, &p, 3);
        nflags += flags(n);
        twice += count(n, GUARD_TWO_MOVES);
        assert_int_equal(count(n, GUARD_AFTER_END), 0);
    }
    assert_int_equal(twice, 1);
    assert_int_equal(nflags, 1);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 6);
    assert_int_equal(game->outcome.end, SHOGI_END_ILLEGAL);
    assert_int_equal(game->outcome_ply, 2);
    shogi_obs_guard_free(g);
}

/* A foul read where there was none (a gote pawn read on an empty square in sente's time, held
 * long enough to be believed), two moves recorded after it, then the square read empty again
 * with the next move: nothing legal explains that from the game, the game without the foul
 * does. The foul is amended (taken back, the later moves played again), no BOARD_DISTURBED. */
static void test_foul_read_where_there_was_none_is_amended(void **state)
{
    (void)state;
    struct shogi_position p, q;
    position(&p, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PP1PPPPPP/1B5R1/LNSGKGSNL b p 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    play(&p, "2g2f");
    observe(g, &p, 3);
    play(&p, "3c3d");
    observe(g, &p, 3);
    /* the phantom: a gote pawn on 5e, gote's stand read without its pawn */
    q = p;
    q.board[sq_of("5e")] = (uint8_t)shogi_piece(SHOGI_GOTE, SHOGI_PAWN);
    q.hand[SHOGI_GOTE][SHOGI_PAWN] = 0;
    shogi_position_refresh(&q);
    int n = observe(g, &q, 3);
    assert_int_equal(count(n, GUARD_TWO_MOVES), 1);
    assert_int_equal(shogi_obs_guard_game(g)->n, 3);
    for (int i = 0; i < 2; i++) {
        const char *usi = i ? "8c8d" : "2f2e";
        play(&p, usi);
        play(&q, usi);
        n = observe(g, &q, 3);
        assert_int_equal(flags(n), 0);
        assert_int_equal(count(n, GUARD_MOVE), 1);
    }
    play(&p, "2e2d"); /* the phantom gone, and sente's next move */
    n = observe(g, &p, 4);
    assert_int_equal(flags(n), 0);
    const struct guard_event *e = find(n, GUARD_MOVE);
    assert_non_null(e);
    assert_int_equal(e->reason, GUARD_REASON_TAKEBACK);
    const struct shogi_game *game = shogi_obs_guard_game(g);
    assert_int_equal(game->n, 5);
    assert_int_equal(game->outcome.end, SHOGI_END_NONE);
    assert_true(shogi_position_same(&game->pos, &p));
    shogi_obs_guard_free(g);
}

static void test_opponent_piece_moved_as_ones_own(void **state)
{
    (void)state;
    /* sente pushes gote's pawn towards gote's camp (the way a sente pawn goes): 7 */
    struct shogi_position p;
    position(&p, "4k4/9/9/9/4p4/9/9/9/4K4 b - 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    struct shogi_position q = p;
    q.board[sq_of("5e")] = SHOGI_EMPTY;
    q.board[sq_of("5d")] = (uint8_t)shogi_piece(SHOGI_GOTE, SHOGI_PAWN);
    shogi_position_refresh(&q);
    int n = observe(g, &q, 3);
    const struct guard_event *e = find(n, GUARD_ILLEGAL_MOVE);
    assert_non_null(e);
    assert_int_equal(e->reason, SHOGI_ILLEGAL_OPPONENT_PIECE);
    shogi_obs_guard_free(g);
}

static void test_takeback_of_a_finished_move(void **state)
{
    (void)state;
    struct shogi_position p, q;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    q = p;
    play(&q, "7g7f");
    observe(g, &q, 3);
    int n = observe(g, &p, 3); /* 待った */
    const struct guard_event *e = find(n, GUARD_ILLEGAL_MOVE);
    assert_non_null(e);
    assert_int_equal(e->reason, SHOGI_ILLEGAL_TAKEBACK);
    assert_int_equal(e->ply, 1);
    assert_int_equal(shogi_obs_guard_game(g)->n, 0);
    /* switched off: a silent take-back */
    shogi_obs_guard_free(g);
    struct shogi_obs_config cfg;
    shogi_obs_config_default(&cfg);
    cfg.flag_takeback = false;
    g = shogi_obs_guard_new(NULL, NULL, true, &cfg);
    observe(g, &p, 2);
    observe(g, &q, 3);
    n = observe(g, &p, 3);
    assert_int_equal(flags(n), 0);
    assert_int_equal(shogi_obs_guard_game(g)->n, 0);
    shogi_obs_guard_free(g);
}

static void test_perpetual_check(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "8k/9/7R1/9/9/9/9/9/4K4 b - 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    static const char *const cycle[4] = {"2c1c", "1a2a", "1c2c", "2a1a"};
    const struct guard_event *e = NULL;
    int at = 0;
    for (int i = 0; i < 12 && !e; i++) {
        play(&p, cycle[i % 4]);
        int n = observe(g, &p, 2);
        e = find(n, GUARD_ILLEGAL_MOVE);
        at = i + 1;
    }
    assert_non_null(e);
    assert_int_equal(e->reason, SHOGI_ILLEGAL_PERPETUAL_CHECK);
    assert_int_equal(at, 12);
    assert_int_equal(shogi_obs_guard_game(g)->outcome.end, SHOGI_END_PERPETUAL_CHECK);
    shogi_obs_guard_free(g);
}

/* The last view's komadai of side c not in view: a hand over it (covered) or out of the picture. */
static void cover(int c, bool covered)
{
    view.hands[c].visible = false;
    view.hands[c].covered = covered;
}

static void test_resignation_by_hand_over_komadai(void **state)
{
    (void)state;
    struct shogi_position p;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    /* covered for 10 s: nothing */
    for (int i = 0; i < 3; i++) {
        see(&p);
        cover(SHOGI_SENTE, true);
        assert_int_equal(shogi_obs_guard_observe(g, &view, ev), 0);
    }
    observe(g, &p, 1);
    /* covered for 35 s: sente resigns */
    int n = 0;
    int64_t covered_from = view.t_ns + 5 * SEC;
    for (int i = 0; i < 8 && !n; i++) {
        see(&p);
        cover(SHOGI_SENTE, true);
        n = shogi_obs_guard_observe(g, &view, ev);
    }
    assert_true(view.t_ns - covered_from >= 30 * SEC); /* not before the configured time */
    const struct guard_event *e = find(n, GUARD_GAME_END);
    assert_non_null(e);
    assert_int_equal(e->reason, GUARD_REASON_SIGNAL);
    assert_int_equal(shogi_obs_guard_game(g)->outcome.result, SHOGI_RESULT_GOTE_WINS);
    shogi_obs_guard_free(g);
    /* the komadai out of the picture (not covered) for a minute: no resignation */
    g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    for (int i = 0; i < 12; i++) {
        see(&p);
        cover(SHOGI_SENTE, false);
        assert_int_equal(shogi_obs_guard_observe(g, &view, ev), 0);
    }
    assert_int_equal(shogi_obs_guard_game(g)->outcome.end, SHOGI_END_NONE);
    shogi_obs_guard_free(g);
    /* switched off */
    struct shogi_obs_config cfg;
    shogi_obs_config_default(&cfg);
    cfg.resign_hand_ns = 0;
    g = shogi_obs_guard_new(NULL, NULL, true, &cfg);
    observe(g, &p, 2);
    for (int i = 0; i < 20; i++) {
        see(&p);
        cover(SHOGI_SENTE, true);
        assert_int_equal(shogi_obs_guard_observe(g, &view, ev), 0);
    }
    shogi_obs_guard_free(g);
}

/* Referee calls for a promoted piece in hand among the n events in ev; each must say so. */
static int promoted_calls(int n, int want_ply)
{
    int c = 0;
    for (int j = 0; j < n; j++) {
        if (ev[j].kind != GUARD_REFEREE_CALL) continue;
        assert_int_equal(ev[j].reason, GUARD_REASON_PROMOTED_IN_HAND);
        assert_non_null(ev[j].rule_ref);
        assert_int_equal(ev[j].ply, want_ply);
        c++;
    }
    return c;
}

/* Observe pos once with one piece of type t on c's komadai lying promoted side up. */
static int observe_face_up(struct shogi_obs_guard *g, const struct shogi_position *pos, int c,
                           int t, float conf)
{
    see(pos);
    view.hands[c].promoted[t - 1] = 1;
    view.hands[c].conf = conf;
    return shogi_obs_guard_observe(g, &view, ev);
}

/* A captured piece put on the komadai promoted side up: one referee call at the capture's ply
 * once the reading is confirmed, none for a single misread face, none again while it stays,
 * and a new one for the next piece put there promoted. */
static void test_promoted_piece_in_hand(void **state)
{
    (void)state;
    struct shogi_position p;
    position(&p, "4k4/9/9/4+p4/4P4/9/9/9/4K4 b S 1");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    observe(g, &p, 2);
    /* one observation reads the silver's face wrong: not evidence enough */
    assert_int_equal(flags(observe_face_up(g, &p, SHOGI_SENTE, SHOGI_SILVER, 0.95f)), 0);
    assert_int_equal(flags(observe(g, &p, 3)), 0);
    play(&p, "5e5d"); /* captures the tokin: a pawn in hand, left lying as と */
    int calls = 0, at = -1;
    for (int i = 0; i < 4; i++) {
        int n = observe_face_up(g, &p, SHOGI_SENTE, SHOGI_PAWN, 0.95f);
        int k = promoted_calls(n, 1);
        if (k && at < 0) at = i;
        calls += k;
        assert_int_equal(flags(n), k); /* nothing else: not a hidden piece */
    }
    assert_int_equal(calls, 1);
    assert_true(at >= 1);                            /* confirmed: not on the first reading */
    assert_int_equal(shogi_obs_guard_game(g)->n, 1); /* the move stands */
    /* turned: nothing; a single misread of the face afterwards: nothing */
    assert_int_equal(flags(observe(g, &p, 3)), 0);
    assert_int_equal(flags(observe_face_up(g, &p, SHOGI_SENTE, SHOGI_PAWN, 0.95f)), 0);
    assert_int_equal(flags(observe(g, &p, 3)), 0);
    /* gote moves; later a piece on sente's komadai lies promoted again: a new call at ply 2 */
    play(&p, "5a4a");
    observe(g, &p, 2);
    calls = 0;
    for (int i = 0; i < 4; i++)
        calls += promoted_calls(observe_face_up(g, &p, 0, SHOGI_PAWN, 0.95f), 2);
    assert_int_equal(calls, 1);
    shogi_obs_guard_free(g);
    /* readings in doubt confirm it too, after confirm_any of them; gote's komadai alike */
    struct shogi_position q;
    position(&q, "4k4/9/9/9/9/9/9/9/4K4 b s 1");
    g = shogi_obs_guard_new(&q, NULL, true, NULL);
    observe(g, &q, 2);
    calls = 0;
    for (int i = 0; i < 3; i++)
        calls += promoted_calls(observe_face_up(g, &q, SHOGI_GOTE, SHOGI_SILVER, 0.7f), 0);
    assert_int_equal(calls, 1);
    /* a gold has no promoted side: a reading that says so is ignored */
    position(&q, "4k4/9/9/9/9/9/9/9/4K4 b G 1");
    shogi_obs_guard_free(g);
    g = shogi_obs_guard_new(&q, NULL, true, NULL);
    observe(g, &q, 2);
    for (int i = 0; i < 4; i++)
        assert_int_equal(flags(observe_face_up(g, &q, SHOGI_SENTE, SHOGI_GOLD, 0.95f)), 0);
    shogi_obs_guard_free(g);
}

static void test_referee_commands(void **state)
{
    (void)state;
    struct shogi_position p, q;
    shogi_position_startpos(&p);
    struct shogi_obs_guard *g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    observe(g, &p, 2);
    q = p;
    play(&q, "7g7f");
    observe(g, &q, 2);
    /* take back: the board still shows the move, it is not read again */
    int n = shogi_obs_guard_take_back(g, 100 * SEC, ev);
    assert_int_equal(n, 1);
    assert_int_equal(ev[0].reason, GUARD_REASON_TAKEBACK);
    assert_int_equal(observe(g, &q, 3), 0);
    assert_int_equal(shogi_obs_guard_game(g)->n, 0);
    /* accept the position on the board: it becomes the start, the ply goes on */
    n = shogi_obs_guard_accept_position(g, 200 * SEC, ev);
    assert_int_equal(n, 1);
    assert_int_equal(ev[0].reason, GUARD_REASON_SETUP);
    assert_int_equal(shogi_obs_guard_game(g)->start.board[sq_of("7f")],
                     shogi_piece(SHOGI_SENTE, SHOGI_PAWN));
    assert_int_equal(shogi_obs_guard_ply_base(g), 0);
    play(&q, "3c3d");
    n = observe(g, &q, 2);
    assert_int_equal(flags(n), 1); /* gote moved in sente's time (the accepted side) */
    struct shogi_outcome o = {SHOGI_END_RESIGN, SHOGI_RESULT_SENTE_WINS};
    shogi_obs_guard_free(g);
    g = shogi_obs_guard_new(NULL, NULL, true, NULL);
    n = shogi_obs_guard_set_result(g, o, 300 * SEC, ev);
    assert_int_equal(n, 1);
    assert_int_equal(ev[0].kind, GUARD_GAME_END);
    shogi_obs_guard_free(g);
}

static void test_text_format_roundtrip(void **state)
{
    (void)state;
    struct obs_stream_header hdr;
    memset(&hdr, 0, sizeof hdr);
    hdr.game = OBS_GAME_SHOGI;
    hdr.w = hdr.h = 9;
    hdr.sente_bottom = false;
    hdr.to_move = GO_EMPTY;
    snprintf(hdr.start_sfen, sizeof hdr.start_sfen, "%s", SHOGI_SFEN_STARTPOS);
    struct shogi_position p;
    shogi_position_startpos(&p);
    play(&p, "7g7f");
    play(&p, "3c3d");
    play(&p, "8h2b+");
    struct obs_item it;
    memset(&it, 0, sizeof it);
    it.kind = OBS_ITEM_OBS;
    it.obs = *see(&p);
    it.obs.occluded[1 * OBS_MAX + 1] = true;
    it.obs.conf[1 * OBS_MAX + 1] = 0;
    it.obs.conf[2 * OBS_MAX + 2] = 0.7f;
    it.obs.hands[SHOGI_GOTE].visible = false;
    it.obs.hands[SHOGI_GOTE].covered = true; /* a hand over it */
    it.obs.hands[SHOGI_SENTE].count[SHOGI_PAWN - 1] = 3;
    it.obs.hands[SHOGI_SENTE].promoted[SHOGI_PAWN - 1] = 1;
    char text[4096];
    size_t len = obs_text_format_header(&hdr, text, sizeof text);
    len += obs_text_format_item(&hdr, &it, text + len, sizeof text - len);
    assert_true(len < sizeof text);
    assert_non_null(strstr(text, "hand b P2 +P1 B1\n"));
    assert_non_null(strstr(text, "hand w covered\n"));
    const char *cur = text;
    int line = 0;
    struct obs_stream_header back;
    struct obs_text_error err;
    assert_true(obs_text_header(&cur, &line, &back, &err));
    assert_false(back.sente_bottom);
    assert_string_equal(back.start_sfen, SHOGI_SFEN_STARTPOS);
    struct obs_item got;
    assert_int_equal(obs_text_next(&cur, &line, &back, &got, &err), 1);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int q = y * OBS_MAX + x;
            assert_int_equal(got.obs.occluded[q], it.obs.occluded[q]);
            if (!it.obs.occluded[q]) assert_int_equal(got.obs.point[q], it.obs.point[q]);
        }
    assert_true(got.obs.conf[2 * OBS_MAX + 2] < 0.9f && got.obs.conf[2 * OBS_MAX + 2] >= 0.5f);
    assert_true(got.obs.hands[SHOGI_SENTE].visible);
    assert_int_equal(got.obs.hands[SHOGI_SENTE].count[SHOGI_BISHOP - 1], 1);
    assert_int_equal(got.obs.hands[SHOGI_SENTE].count[SHOGI_PAWN - 1], 3);
    assert_int_equal(got.obs.hands[SHOGI_SENTE].promoted[SHOGI_PAWN - 1], 1);
    assert_false(got.obs.hands[SHOGI_SENTE].covered);
    assert_false(got.obs.hands[SHOGI_GOTE].visible);
    assert_true(got.obs.hands[SHOGI_GOTE].covered);
    assert_int_equal(obs_text_next(&cur, &line, &back, &got, &err), 0);
    /* out of the picture is not covered; a gold has no promoted side */
    const char *hands = "kifucam-obs 1 shogi 9x9\nobs t=1 frame=1\n"
                        "l n s g k g s n l\n. r . . . . . b .\np p p p p p p p p\n"
                        ". . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n"
                        "P P P P P P P P P\n. B . . . . . R .\nL N S G K G S N L\n"
                        "hand b hidden\nhand w +R1 +S2 S1 conf=0.7\nend\n"
                        "obs t=2 frame=2\n";
    cur = hands;
    line = 0;
    assert_true(obs_text_header(&cur, &line, &back, &err));
    assert_int_equal(obs_text_next(&cur, &line, &back, &got, &err), 1);
    assert_false(got.obs.hands[SHOGI_SENTE].visible);
    assert_false(got.obs.hands[SHOGI_SENTE].covered);
    assert_int_equal(got.obs.hands[SHOGI_GOTE].count[SHOGI_SILVER - 1], 3);
    assert_int_equal(got.obs.hands[SHOGI_GOTE].promoted[SHOGI_SILVER - 1], 2);
    assert_int_equal(got.obs.hands[SHOGI_GOTE].promoted[SHOGI_ROOK - 1], 1);
    static const char *const bad_hands[] = {"hand b +G1", "hand b +K1", "hand b +", "hand b +p1"};
    for (size_t i = 0; i < sizeof bad_hands / sizeof bad_hands[0]; i++) {
        char one[400];
        snprintf(one, sizeof one, "kifucam-obs 1 shogi 9x9\nobs t=1 frame=1\n%s%s\nend\n",
                 "l n s g k g s n l\n. r . . . . . b .\np p p p p p p p p\n"
                 ". . . . . . . . .\n. . . . . . . . .\n. . . . . . . . .\n"
                 "P P P P P P P P P\n. B . . . . . R .\nL N S G K G S N L\n",
                 bad_hands[i]);
        cur = one;
        line = 0;
        assert_true(obs_text_header(&cur, &line, &back, &err));
        assert_int_equal(obs_text_next(&cur, &line, &back, &got, &err), -1);
        assert_int_equal(err.line, 12);
    }
    /* an error names its line */
    const char *bad = "kifucam-obs 1 shogi 9x9\nobs t=1 frame=1\nl n s g k g s n\nend\n";
    cur = bad;
    line = 0;
    assert_true(obs_text_header(&cur, &line, &back, &err));
    assert_int_equal(obs_text_next(&cur, &line, &back, &got, &err), -1);
    assert_int_equal(err.line, 3);
}

/* A capture whose piece the reader names after the one it took, in doubt (the face that stood
 * there before, read below conf_sure), the piece that moved read gone surely: nothing as read
 * explains it (a gold vanished), but the gold's capture does once the doubtful reading is a
 * misread. Recorded, noted in doubt, no flag; read surely, the same board is still flagged. */
static void test_capture_read_in_doubt_as_the_piece_taken(void **state)
{
    (void)state;
    for (int sure = 0; sure < 2; sure++) {
        struct shogi_position p, q;
        position(&p, "4k4/9/9/4p4/4G4/9/9/9/4K4 b - 1");
        struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
        assert_int_equal(observe(g, &p, 2), 0);
        q = p;
        play(&q, "5e5d");
        int moves = 0, total = 0;
        bool noted = false;
        for (int i = 0; i < 6; i++) {
            see(&q);
            int at = point_of(sq_of("5d"));
            view.point[at] = shogi_piece(SHOGI_GOTE, SHOGI_PAWN);
            view.conf[at] = sure ? 0.95f : 0.7f;
            view.hands[SHOGI_SENTE].visible = false;
            int n = shogi_obs_guard_observe(g, &view, ev);
            total += flags(n);
            for (int k = 0; k < n; k++)
                if (ev[k].kind == GUARD_MOVE) {
                    moves++;
                    char usi[6];
                    assert_string_equal(shogi_move_to_usi(ev[k].shogi, usi), "5e5d");
                    noted |= strstr(ev[k].text, "in doubt") != NULL;
                }
        }
        if (sure) {
            assert_int_equal(moves, 0);
            assert_true(total > 0);
        } else {
            assert_int_equal(moves, 1);
            assert_true(noted);
            assert_int_equal(total, 0);
            assert_int_equal(shogi_obs_guard_game(g)->n, 1);
        }
        shogi_obs_guard_free(g);
    }
}

/* The view of pos held still (16 frames), the squares dark[] (NULL-ended, or NULL) out of the
 * picture, the square sq read as piece at conf; the guard's events into ev, their number. */
static int see_dark_misread(struct shogi_obs_guard *g, const struct shogi_position *pos,
                            const char *const *dark, const char *sq, int piece, float conf)
{
    struct stable_obs s;
    memset(&s, 0, sizeof s);
    s.obs = *see(pos);
    for (int i = 0; dark && dark[i]; i++) {
        s.obs.point[point_of(sq_of(dark[i]))] = SHOGI_EMPTY;
        s.obs.conf[point_of(sq_of(dark[i]))] = OBS_OUT_OF_VIEW_CONF;
    }
    s.obs.point[point_of(sq_of(sq))] = (uint8_t)piece;
    s.obs.conf[point_of(sq_of(sq))] = conf;
    s.frames = 16;
    return shogi_obs_guard_observe_stable(g, &s, ev);
}

/* Knocked film 11 (partial): sente's king steps 5i5h and gote answers 1c1d before the view
 * settles; the reader names the king on 5h a silver in doubt (0.87: a piece surely there, its
 * kind not) in every view after. Read as it is, nothing explains the board (a king gone, a
 * silver come); the king's step does once the doubtful face is a misread: both moves recorded,
 * no flag. Read surely as a silver, the same board is still flagged. */
static void test_piece_read_in_doubt_as_another_kind_where_it_went(void **state)
{
    (void)state;
    for (int sure = 0; sure < 2; sure++) {
        struct shogi_position p;
        position(&p, "lnsgkgsnl/1r7/2ppppbpp/pp4p2/7PP/9/PPPPPPP2/1B5R1/LNSGKGSNL b - 9");
        struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
        int total = flags(see_held(g, &p, NULL, NULL));
        play(&p, "5i5h");
        play(&p, "1c1d");
        for (int v = 0; v < 4; v++)
            total += flags(see_dark_misread(
                g, &p, NULL, "5h", shogi_piece(SHOGI_SENTE, SHOGI_SILVER), sure ? 0.95f : 0.87f));
        const struct shogi_game *game = shogi_obs_guard_game(g);
        if (sure) {
            assert_true(total > 0);
        } else {
            char usi[6];
            assert_int_equal(total, 0);
            assert_int_equal(game->n, 2);
            assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "5i5h");
            assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "1c1d");
        }
        shogi_obs_guard_free(g);
    }
}

/* The same in the film's partial view: 9g-9h-8h-7h and 9i-5i out of the picture from the start,
 * so the king leaves unseen and 5h's face (a silver, in doubt) fits both dark pieces that can
 * reach it, the king and the gold on 6i. Which one came is no foul: the likelier is recorded,
 * the other named in its note and kept; no flag. */
static void test_arrival_from_the_dark_of_one_of_two_pieces(void **state)
{
    (void)state;
    static const char *const dark[] = {"9g", "9h", "8h", "7h", "9i", "8i", "7i", "6i", "5i", NULL};
    struct shogi_position p;
    position(&p, "lnsgkgsnl/1r7/2ppppbpp/pp4p2/7PP/9/PPPPPPP2/1B5R1/LNSGKGSNL b - 9");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    int total = flags(see_held(g, &p, dark, NULL));
    play(&p, "5i5h");
    play(&p, "1c1d");
    int moves = 0;
    bool named = false;
    for (int v = 0; v < 4; v++) {
        int n = see_dark_misread(g, &p, dark, "5h", shogi_piece(SHOGI_SENTE, SHOGI_SILVER), 0.87f);
        total += flags(n);
        moves += count(n, GUARD_MOVE);
        for (int i = 0; i < n; i++)
            named |= ev[i].kind == GUARD_MOVE &&
                     (strstr(ev[i].text, "5i5h") || strstr(ev[i].text, "6i5h"));
    }
    const struct shogi_game *game = shogi_obs_guard_game(g);
    char usi[6];
    assert_int_equal(total, 0);
    assert_int_equal(moves, 2);
    assert_true(named);
    assert_int_equal(game->n, 2);
    shogi_move_to_usi(game->plies[0].move, usi);
    assert_true(!strcmp(usi, "5i5h") || !strcmp(usi, "6i5h"));
    assert_string_equal(shogi_move_to_usi(game->plies[1].move, usi), "1c1d");
    shogi_obs_guard_free(g);
}

/* Opponent-piece film 6 (partial, row i out of the picture): gote's gold steps 4a3b, and
 * sente's silver comes 7i7h unseen before the view settles, named a bishop in doubt (0.87). The
 * gote move is seen whole, then the arrival (the silver's, or the gold's from 6i): both
 * recorded, no flag. It was BOARD_DISTURBED (an arrival was tried only first). */
static void test_move_seen_then_arrival_from_the_dark(void **state)
{
    (void)state;
    static const char *const dark[] = {"9i", "8i", "7i", "6i", "5i", "4i", "3i", "2i", "1i", NULL};
    struct shogi_position p;
    position(&p, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    int total = flags(see_held(g, &p, dark, NULL));
    play(&p, "4a3b");
    play(&p, "7i7h");
    for (int v = 0; v < 4; v++)
        total += flags(
            see_dark_misread(g, &p, dark, "7h", shogi_piece(SHOGI_SENTE, SHOGI_BISHOP), 0.87f));
    const struct shogi_game *game = shogi_obs_guard_game(g);
    char usi[6];
    assert_int_equal(total, 0);
    assert_int_equal(game->n, 2);
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "4a3b");
    shogi_move_to_usi(game->plies[1].move, usi);
    assert_true(!strcmp(usi, "7i7h") || !strcmp(usi, "6i7h"));
    shogi_obs_guard_free(g);
}

/* Knocked film 11 on: the arrival on 5h is recorded as the gold's (6i5h, the lighter piece),
 * the king's step kept; seven plies later the board is knocked and row i comes into view, 5i
 * empty, the gold still on 6i. The arrival is amended to 5i5h and the later moves played again
 * (an arrival's origin seldom comes into view within the few plies an unseen move is kept); no
 * flag. It was BOARD_DISTURBED. */
static void test_arrival_from_the_dark_amended_when_its_origin_shows(void **state)
{
    (void)state;
    static const char *const dark[] = {"9g", "9h", "8h", "7h", "9i", "8i", "7i", "6i", "5i", NULL};
    static const char *const later[] = {"3g3f", "9d9e", "4g4f", "8d8e", "6g6f", "7c7d", "7g7f"};
    struct shogi_position p;
    position(&p, "lnsgkgsnl/1r7/2ppppbpp/pp4p2/7PP/9/PPPPPPP2/1B5R1/LNSGKGSNL b - 9");
    struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
    int total = flags(see_held(g, &p, dark, NULL));
    play(&p, "5i5h");
    play(&p, "1c1d");
    for (int v = 0; v < 2; v++)
        total += flags(
            see_dark_misread(g, &p, dark, "5h", shogi_piece(SHOGI_SENTE, SHOGI_SILVER), 0.87f));
    for (int i = 0; i < 7; i++) {
        play(&p, later[i]);
        total += flags(
            see_dark_misread(g, &p, dark, "5h", shogi_piece(SHOGI_SENTE, SHOGI_SILVER), 0.87f));
    }
    for (int v = 0; v < 3; v++)
        total += flags(
            see_dark_misread(g, &p, NULL, "5h", shogi_piece(SHOGI_SENTE, SHOGI_SILVER), 0.87f));
    const struct shogi_game *game = shogi_obs_guard_game(g);
    char usi[6];
    assert_int_equal(total, 0);
    assert_int_equal(game->n, 9);
    assert_string_equal(shogi_move_to_usi(game->plies[0].move, usi), "5i5h");
    assert_string_equal(shogi_move_to_usi(game->plies[8].move, usi), "7g7f");
    shogi_obs_guard_free(g);
}

/* Not-in-hand film 2 (side): gote's komadai hold a knight and a pawn and are read as a knight
 * and a bishop (the pawn's kind misread). As many pieces read as there are: a kind misread, no
 * piece gone, no HIDDEN_PIECE; the pawn read gone with nothing in its place is still flagged. */
static void test_komadai_kind_misread_is_no_piece_gone(void **state)
{
    (void)state;
    for (int swapped = 0; swapped < 2; swapped++) {
        struct shogi_position p;
        position(&p, "4k4/9/9/9/9/9/9/9/4K4 b NP 1");
        struct shogi_obs_guard *g = shogi_obs_guard_new(&p, NULL, true, NULL);
        int total = flags(observe(g, &p, 2));
        for (int i = 0; i < 6; i++) {
            see(&p);
            view.hands[SHOGI_SENTE].count[SHOGI_PAWN - 1] = 0;
            if (swapped) view.hands[SHOGI_SENTE].count[SHOGI_BISHOP - 1] = 1;
            int n = shogi_obs_guard_observe(g, &view, ev);
            total += count(n, GUARD_HIDDEN_PIECE);
        }
        assert_int_equal(total, swapped ? 0 : 1);
        shogi_obs_guard_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_square_mapping),
        cmocka_unit_test(test_move_needs_confirmation),
        cmocka_unit_test(test_occluded_square_is_no_evidence),
        cmocka_unit_test(test_move_onto_a_square_hidden_since_is_unseen),
        cmocka_unit_test(test_arrival_from_out_of_the_picture_misread),
        cmocka_unit_test(test_first_moves_through_a_square_out_of_the_picture),
        cmocka_unit_test(test_drop_and_promotion_from_the_face),
        cmocka_unit_test(test_promotion_seen_late_is_amended),
        cmocka_unit_test(test_doubtful_drop_against_a_full_komadai_waits),
        cmocka_unit_test(test_drop_read_as_another_kind_follows_the_komadai),
        cmocka_unit_test(test_drop_against_a_full_komadai_keeps_its_kind),
        cmocka_unit_test(test_drop_of_a_kind_not_in_hand_is_the_one_it_holds),
        cmocka_unit_test(test_drop_read_in_doubt_as_a_foul_with_no_komadai_read),
        cmocka_unit_test(test_capture_into_the_zone_read_in_doubt_is_promoted),
        cmocka_unit_test(test_piece_moved_twice_before_the_view_settled),
        cmocka_unit_test(test_drop_captured_at_once_is_no_takeback),
        cmocka_unit_test(test_legal_story_short_of_the_komadai_stays_legal),
        cmocka_unit_test(test_drop_taken_at_once_with_no_komadai_read),
        cmocka_unit_test(test_capture_reaches_the_komadai_late_or_never),
        cmocka_unit_test(test_piece_disappears_from_the_komadai),
        cmocka_unit_test(test_fouls),
        cmocka_unit_test(test_game_goes_on_after_a_foul),
        cmocka_unit_test(test_foul_read_where_there_was_none_is_amended),
        cmocka_unit_test(test_opponent_piece_moved_as_ones_own),
        cmocka_unit_test(test_takeback_of_a_finished_move),
        cmocka_unit_test(test_perpetual_check),
        cmocka_unit_test(test_resignation_by_hand_over_komadai),
        cmocka_unit_test(test_promoted_piece_in_hand),
        cmocka_unit_test(test_referee_commands),
        cmocka_unit_test(test_text_format_roundtrip),
        cmocka_unit_test(test_capture_read_in_doubt_as_the_piece_taken),
        cmocka_unit_test(test_promotion_shown_by_a_later_move),
        cmocka_unit_test(test_drop_kind_shown_by_a_later_move),
        cmocka_unit_test(test_piece_put_down_turned),
        cmocka_unit_test(test_piece_put_down_turned_then_answered),
        cmocka_unit_test(test_capture_from_out_of_the_picture_read_with_the_old_owner),
        cmocka_unit_test(test_capture_read_as_the_piece_taken_is_not_turned),
        cmocka_unit_test(test_illegal_drop_taken_back_after_two_views),
        cmocka_unit_test(test_drop_read_as_another_kind_is_the_pawn_the_komadai_miss),
        cmocka_unit_test(test_capture_read_as_the_piece_taken_then_answered),
        cmocka_unit_test(test_piece_read_in_doubt_as_another_kind_where_it_went),
        cmocka_unit_test(test_arrival_from_the_dark_of_one_of_two_pieces),
        cmocka_unit_test(test_move_seen_then_arrival_from_the_dark),
        cmocka_unit_test(test_arrival_from_the_dark_amended_when_its_origin_shows),
        cmocka_unit_test(test_komadai_kind_misread_is_no_piece_gone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

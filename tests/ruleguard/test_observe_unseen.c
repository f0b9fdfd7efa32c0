/* tests/ruleguard/test_observe_unseen.c — moves played where the camera cannot look, as
 * observation streams (ruleguard/obs_text.h; '~' marks a point out of the picture). The other
 * side's move out of the picture is recorded as a move not seen (GUARD_REASON_UNSEEN) naming the
 * points it may lie on, not as TWO_MOVES; the game is followed on; once its stone is seen the moves
 * are played again with the point found. With every point in view the same stream is TWO_MOVES. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/check_obs.h"
#include "record/event_record.h"
#include "record/shogi_event_record.h"
#include "ruleguard/guard.h"
#include "tests/testutil.h"

#define MAX_EV 256

struct got {
    struct guard_event ev[MAX_EV];
    int n;
};

static void on_event(const struct guard_event *e, void *ctx)
{
    struct got *g = ctx;
    if (g->n < MAX_EV) g->ev[g->n++] = *e;
    tu_note("  ply %d %s%s: %s", e->ply, guard_kind_name(e->kind),
            e->reason == GUARD_REASON_UNSEEN     ? " (unseen)"
            : e->reason == GUARD_REASON_TAKEBACK ? " (take-back)"
                                                 : "",
            e->text);
}

static void on_flag(const struct guard_event *e, void *ctx)
{
    (void)e, (void)ctx;
}

static void run(const char *text, struct got *got, struct check_obs_result *res)
{
    memset(got, 0, sizeof *got);
    check_obs_stream(text, NULL, on_flag, on_event, got, res);
    assert_true(res->readable);
}

static int count(const struct got *g, enum guard_kind k, int reason)
{
    int n = 0;
    for (int i = 0; i < g->n; i++) n += g->ev[i].kind == k && g->ev[i].reason == reason;
    return n;
}

static int flags(const struct got *g)
{
    int n = 0;
    for (int i = 0; i < g->n; i++) n += guard_is_flag(g->ev[i].kind);
    return n;
}

/* The record the events make (as the daemon keeps it): its moves as "B cc W -- ..." ("--" a
 * pass node). */
static void record_of(const struct got *g, int size, char *out, size_t len,
                      struct go_event_record *r)
{
    assert_true(go_event_record_init(r, size, go_rules_find("Japanese 1989")));
    for (int i = 0; i < g->n; i++) go_event_record_apply(r, &g->ev[i]);
    out[0] = '\0';
    for (int i = 0; i < r->nmoves; i++) {
        char name[8];
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%c %s", i ? " " : "",
                 r->moves[i].color == GO_BLACK ? 'B' : 'W',
                 r->moves[i].point == GO_PASS ? "--"
                                              : go_point_name(r->moves[i].point, size, name));
    }
}

/* The 9x9 game g's events give (as a record: "B C7 W --"...), printed; the record is freed. */
static void assert_recorded(const struct got *g, const char *want)
{
    struct go_event_record r;
    char rec[256];
    record_of(g, 9, rec, sizeof rec, &r);
    tu_note("record: %s", rec);
    assert_string_equal(rec, want);
    go_event_record_free(&r);
}

/* Black C7; White's reply on the right-hand column, which the camera does not see; Black E5;
 * White G3 (in view). Then, with 'full', the same with every point in view. */
#define HEAD "kifucam-obs 1 go 9x9\nrules Japanese 1989\n"
#define V(t, f, r0, r1, r2, r3, r4, r5, r6, r7, r8)                                                \
    "obs t=" #t "000000000 frame=" #f "\n" r0 "\n" r1 "\n" r2 "\n" r3 "\n" r4 "\n" r5 "\n" r6      \
    "\n" r7 "\n" r8 "\nend\n"

static const char *const partial_stream = HEAD
    /* Black C7, twice */
    V(1, 1, "........~", "........~", "..X.....~", "........~", "........~", "........~",
      "........~", "........~", "........~")
        V(2, 2, "........~", "........~", "..X.....~", "........~", "........~", "........~",
          "........~", "........~", "........~")
    /* White plays J5, out of the picture: nothing changes in view */
    V(3, 3, "........~", "........~", "..X.....~", "........~", "........~", "........~",
      "........~", "........~", "........~")
    /* Black E5 */
    V(4, 4, "........~", "........~", "..X.....~", "........~", "....X...~", "........~",
      "........~", "........~", "........~")
        V(5, 5, "........~", "........~", "..X.....~", "........~", "....X...~", "........~",
          "........~", "........~", "........~")
            V(6, 6, "........~", "........~", "..X.....~", "........~", "....X...~", "........~",
              "........~", "........~", "........~")
    /* White G3 */
    V(7, 7, "........~", "........~", "..X.....~", "........~", "....X...~", "........~",
      "......O.~", "........~", "........~")
        V(8, 8, "........~", "........~", "..X.....~", "........~", "....X...~", "........~",
          "......O.~", "........~", "........~")
            V(9, 9, "........~", "........~", "..X.....~", "........~", "....X...~", "........~",
              "......O.~", "........~", "........~");

/* The camera turned: the right-hand column in view, White's stone on J5 */
static const char *const turned = V(10, 10, ".........", ".........", "..X......", ".........",
                                    "....X...O", ".........", "......O..", ".........", ".........")
    V(11, 11, ".........", ".........", "..X......", ".........", "....X...O", ".........",
      "......O..", ".........", ".........")
        V(12, 12, ".........", ".........", "..X......", ".........", "....X...O", ".........",
          "......O..", ".........", ".........");

static void test_go_move_out_of_view_is_unseen(void **state)
{
    (void)state;
    static struct got got;
    struct check_obs_result res;
    run(partial_stream, &got, &res);
    assert_int_equal(flags(&got), 0);
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_UNSEEN), 1);
    for (int i = 0; i < got.n; i++)
        if (got.ev[i].reason == GUARD_REASON_UNSEEN) {
            assert_int_equal(got.ev[i].ply, 2);
            assert_int_equal(got.ev[i].move.color, GO_WHITE);
            assert_int_equal(got.ev[i].move.point, GO_NOPOINT);
            /* the nine points of the column it may lie on */
            assert_non_null(strstr(got.ev[i].text, "White's move not seen: on one of 9 unread"));
            assert_non_null(strstr(got.ev[i].text, "J9"));
        }
    /* the record: a pass node for it, with the text as its comment; White's G3 in turn */
    struct go_event_record r;
    char moves[256];
    record_of(&got, 9, moves, sizeof moves, &r);
    tu_note("record: %s", moves);
    assert_string_equal(moves, "B C7 W -- B E5 W G3");
    assert_non_null(r.notes[2]);
    assert_non_null(strstr(r.notes[2], "not seen"));
    char *sgf = go_event_record_sgf(&r, &(struct go_record){0});
    assert_non_null(sgf);
    assert_non_null(strstr(sgf, "W[]"));
    free(sgf);
    go_event_record_free(&r);
}

static void test_go_unseen_move_found_when_seen(void **state)
{
    (void)state;
    size_t len = strlen(partial_stream) + strlen(turned) + 1;
    char *text = malloc(len);
    assert_non_null(text);
    snprintf(text, len, "%s%s", partial_stream, turned);
    static struct got got;
    struct check_obs_result res;
    run(text, &got, &res);
    free(text);
    assert_int_equal(flags(&got), 0);
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_TAKEBACK), 1);
    assert_recorded(&got, "B C7 W J5 B E5 W G3");
}

/* Every point in view: the same colour twice stays TWO_MOVES. */
static void test_go_full_view_still_two_moves(void **state)
{
    (void)state;
    char *text = strdup(partial_stream);
    assert_non_null(text);
    for (char *c = text; *c; c++)
        if (*c == '~') *c = '.';
    static struct got got;
    struct check_obs_result res;
    run(text, &got, &res);
    free(text);
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_UNSEEN), 0);
    int two = 0;
    for (int i = 0; i < got.n; i++) two += got.ev[i].kind == GUARD_TWO_MOVES;
    assert_int_equal(two, 1);
}

/* The camera turned, the right-hand column in view and empty: White's move not seen was on
 * none of its points. Black played twice (or White passed): TWO_MOVES after the unseen move,
 * the record keeping the pass (a render's same-colour fault, first out of the picture). */
static const char *const turned_empty =
    V(10, 10, ".........", ".........", "..X......", ".........", "....X....", ".........",
      "......O..", ".........", ".........")
        V(11, 11, ".........", ".........", "..X......", ".........", "....X....", ".........",
          "......O..", ".........", ".........")
            V(12, 12, ".........", ".........", "..X......", ".........", "....X....", ".........",
              "......O..", ".........", ".........");

static void test_go_unseen_move_on_none_of_its_points(void **state)
{
    (void)state;
    size_t len = strlen(partial_stream) + strlen(turned_empty) + 1;
    char *text = malloc(len);
    assert_non_null(text);
    snprintf(text, len, "%s%s", partial_stream, turned_empty);
    static struct got got;
    struct check_obs_result res;
    run(text, &got, &res);
    free(text);
    int two = 0, ply = 0;
    for (int i = 0; i < got.n; i++)
        if (got.ev[i].kind == GUARD_TWO_MOVES) two++, ply = got.ev[i].ply;
    assert_int_equal(two, 1);
    assert_int_equal(ply, 3); /* Black E5, the second Black stone in a row */
    assert_int_equal(flags(&got), 1);
    assert_recorded(&got, "B C7 W -- B E5 W G3");
}

/* Two views of the 9x9 board b (rows from the top; 'X' 'O' '.'), J5 occluded (for good: a cup
 * stands there), appended to out. */
static void gobs(char *out, size_t len, char b[9][10], int *frame)
{
    for (int rep = 0; rep < 2; rep++) {
        ++*frame;
        size_t used = strlen(out);
        used += (size_t)snprintf(out + used, len - used, "obs t=%d000000000 frame=%d\n", *frame,
                                 *frame);
        for (int y = 0; y < 9; y++) {
            char row[10];
            memcpy(row, b[y], 10);
            if (y == 4) row[8] = '#';
            used += (size_t)snprintf(out + used, len - used, "%s\n", row);
        }
        snprintf(out + used, len - used, "end\n");
    }
}

static void put(char b[9][10], const char *pt, char c)
{
    int x = pt[0] - 'A' - (pt[0] > 'I'), y = 9 - atoi(pt + 1);
    b[y][x] = c;
}

/* White's stone on J5, under the cup, joins White's H5: Black's G5 captures both. The move not
 * seen is found by the capture (the stones seen going need it). */
static void test_go_unseen_move_found_by_its_capture(void **state)
{
    (void)state;
    size_t len = 64 * 1024;
    char *text = malloc(len);
    assert_non_null(text);
    snprintf(text, len, HEAD);
    char b[9][10];
    for (int y = 0; y < 9; y++) snprintf(b[y], 10, ".........");
    int frame = 0;
    gobs(text, len, b, &frame);
    static const char *const moves[] = {"BJ6", "WJ5", "BJ4", "WH5", "BH6",
                                        "WA1", "BH4", "WA2", "BG5"};
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
        put(b, moves[i] + 1, moves[i][0] == 'B' ? 'X' : 'O');
        if (!strcmp(moves[i], "BG5")) put(b, "H5", '.');
        gobs(text, len, b, &frame);
    }
    gobs(text, len, b, &frame);
    static struct got got;
    struct check_obs_result res;
    run(text, &got, &res);
    free(text);
    assert_int_equal(flags(&got), 0);
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_TAKEBACK), 1);
    assert_recorded(&got, "B J6 W J5 B J4 W H5 B H6 W A1 B H4 W A2 B G5");
}

/* ---- Go, views as the settler gives them: when each point began to read what it shows ---- */

/* The stones of a 9x9 game put on at the given times (seconds) ("BC7" at 1.0 ...), seen through a
 * camera that misses the right-hand column: a stable view every half second from 0.5 on but while
 * a hand is over the board (from hand0 to hand1 s), each point read since its stone came (the
 * settler's times), fed to the guard. */
struct timed_stone {
    const char *stone;
    double t;
    double off; /* taken off then (not captured), or 0: it stays */
    float conf; /* its reading's confidence, or 0: 0.95; below 0: in glare (settled_game_in) */
};

/* A point read otherwise than its stone in the views from t0 up to before t1 (glare): as v at
 * conf (below conf_min: unreadable). */
struct reading {
    const char *pt;
    double t0, t1;
    uint8_t v;
    float conf;
};

static void settled_game_read(const struct timed_stone *st, int n, const struct reading *rd,
                              int nrd, double hand0, double hand1, double hand2, double hand3,
                              double end, bool dark_column, struct got *got);

static void settled_game_in(const struct timed_stone *st, int n, double hand0, double hand1,
                            double hand2, double hand3, double end, bool dark_column,
                            struct got *got)
{
    settled_game_read(st, n, NULL, 0, hand0, hand1, hand2, hand3, end, dark_column, got);
}

static int point_of(const char *pt)
{
    int x = pt[0] - 'A' - (pt[0] > 'I'), y = 9 - atoi(pt + 1);
    return y * OBS_MAX + x;
}

static void settled_game_read(const struct timed_stone *st, int n, const struct reading *rd,
                              int nrd, double hand0, double hand1, double hand2, double hand3,
                              double end, bool dark_column, struct got *got)
{
    struct go_obs_guard *g = go_obs_guard_new(9, 9, go_rules_find("Japanese 1989"), NULL);
    assert_non_null(g);
    static struct stable_obs so;
    struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    memset(got, 0, sizeof *got);
    uint64_t frame = 0;
    for (double t = 0.5; t <= end + 1e-9; t += 0.5) {
        if ((t >= hand0 && t <= hand1) || (t >= hand2 && t <= hand3)) continue;
        memset(&so, 0, sizeof so);
        struct observation *o = &so.obs;
        o->t_ns = (int64_t)(t * 1e9);
        o->frame_seq = ++frame;
        o->board_found = true;
        o->w = o->h = 9;
        so.since_ns = o->t_ns;
        so.frames = 10;
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 9; x++) {
                int p = y * OBS_MAX + x;
                o->conf[p] = x == 8 && dark_column ? OBS_OUT_OF_VIEW_CONF : 0.95f;
                so.read_since_ns[p] = 0;
            }
        for (int i = 0; i < n && st[i].t < t; i++) {
            const char *pt = st[i].stone + 1;
            int x = pt[0] - 'A' - (pt[0] > 'I'), y = 9 - atoi(pt + 1), p = y * OBS_MAX + x;
            if (x == 8 && dark_column) continue;
            if (st[i].conf < 0) {
                /* in glare: read empty, in doubt (at -conf) in every third view only */
                if ((int)(t * 2 + 0.5) % 3 == 0) o->conf[p] = -st[i].conf;
                continue;
            }
            if (st[i].off > 0 && st[i].off < t) {
                so.read_since_ns[p] = (int64_t)(st[i].off * 1e9);
                continue;
            }
            o->point[p] = st[i].stone[0] == 'B' ? OBS_BLACK : OBS_WHITE;
            if (st[i].conf > 0) o->conf[p] = st[i].conf;
            so.read_since_ns[p] = (int64_t)(st[i].t * 1e9);
        }
        for (int i = 0; i < nrd; i++)
            if (rd[i].t0 <= t + 1e-9 && t < rd[i].t1 - 1e-9) {
                int p = point_of(rd[i].pt);
                o->point[p] = rd[i].v;
                o->conf[p] = rd[i].conf;
            }
        int k = go_obs_guard_observe_stable(g, &so, ev);
        for (int i = 0; i < k; i++) on_event(&ev[i], got);
    }
    int k = go_obs_guard_flush(g, (int64_t)((end + 1) * 1e9), ev);
    for (int i = 0; i < k; i++) on_event(&ev[i], got);
    go_obs_guard_free(g);
}

static void settled_game(const struct timed_stone *st, int n, double hand0, double hand1,
                         double end, struct got *got)
{
    settled_game_in(st, n, hand0, hand1, 0, 0, end, true, got);
}

/* Black J5, out of the picture, after White G3: White C3 then Black E5, both first seen in one
 * view (a hand over the board between views), C3 read 1.4 s before E5. White's C3 came first:
 * Black's move before it was not seen; E5 is not put before C3 (the next moves would be read out of
 * turn). Footage game 7 (partial view) lost two moves so. */
static void test_go_other_side_read_first_after_unseen_move(void **state)
{
    (void)state;
    static const struct timed_stone st[] = {
        {"BC7", 1.0, 0, 0}, {"WG3", 2.0, 0, 0}, {"BJ5", 3.2, 0, 0}, {"WC3", 3.6, 0, 0},
        {"BE5", 5.0, 0, 0}, {"WD4", 6.0, 0, 0}, {"BF6", 7.0, 0, 0}};
    static struct got got;
    settled_game(st, (int)(sizeof st / sizeof st[0]), 3.0, 5.4, 9.0, &got);
    assert_int_equal(flags(&got), 0);
    assert_recorded(&got, "B C7 W G3 B -- W C3 B E5 W D4 B F6");
}

/* The same board, no move out of the picture: Black E5 then White C3, but Black's arm hid E5 a
 * moment longer (C3 read 0.3 s before it): the side to move's stone first, no move not seen. */
static void test_go_other_side_read_a_moment_first_keeps_the_turn(void **state)
{
    (void)state;
    static const struct timed_stone st[] = {{"BC7", 1.0, 0, 0}, {"WG3", 2.0, 0, 0},
                                            {"BE5", 3.6, 0, 0}, {"WC3", 3.8, 0, 0},
                                            {"BD4", 6.0, 0, 0}, {"WF6", 7.0, 0, 0}};
    /* the arm: E5 read from 4.2, C3 from 3.9 */
    static struct timed_stone seen[sizeof st / sizeof st[0]];
    memcpy(seen, st, sizeof st);
    seen[2].t = 4.2, seen[3].t = 3.9;
    static struct got got;
    settled_game(seen, (int)(sizeof seen / sizeof seen[0]), 3.5, 4.4, 9.0, &got);
    assert_int_equal(flags(&got), 0);
    assert_recorded(&got, "B C7 W G3 B E5 W C3 B D4 W F6");
}

/* Every point in view. White's F6 read in one view only, in doubt (the view between two spells of
 * a hand over the board), between Black's C3 before it and Black's D4 after it; taken off (not
 * captured) before the next view, while four more moves were played. F6 is White's move in its
 * slot and a stone taken off after G5 (STONE_REMOVED at ply 7), not a misread with G5 put before
 * D4 (which made the next moves out of turn: TWO_MOVES; removed-stone film 20, dim). */
static void test_go_stone_read_once_then_taken_off(void **state)
{
    (void)state;
    static const struct timed_stone st[] = {
        {"BC7", 1.0, 0, 0}, {"WG3", 1.5, 0, 0}, {"BC3", 2.0, 0, 0}, {"WF6", 2.8, 4.8, 0.51f},
        {"BD4", 3.2, 0, 0}, {"WG5", 3.8, 0, 0}, {"BE5", 5.2, 0, 0}, {"WG7", 5.6, 0, 0},
        {"BB2", 6.0, 0, 0}, {"WH4", 6.4, 0, 0}};
    static struct got got;
    settled_game_in(st, (int)(sizeof st / sizeof st[0]), 2.6, 4.4, 4.6, 6.9, 9.0, false, &got);
    assert_recorded(&got, "B C7 W G3 B C3 W F6 B D4 W G5 B E5 W G7 B B2 W H4");
    assert_int_equal(flags(&got), 1);
    int removed = 0;
    for (int i = 0; i < got.n; i++)
        if (got.ev[i].kind == GUARD_STONE_REMOVED) {
            removed++;
            assert_int_equal(got.ev[i].ply, 7);
            assert_int_equal(got.ev[i].move.point, go_point(5, 3));
        }
    assert_int_equal(removed, 1);
}

/* Every point in view. White's F6 read in two views (surely, then in doubt), the second with
 * Black's D4 and White's G5 read surely; a hand over the board while four more moves are played
 * and F6 is taken off; then D4 read in doubt (0.85), so White's G5 is confirmed a view before it.
 * F6 is White's move in its slot (before D4, read between them) and a stone taken off, not G5
 * put in F6's slot with every move after it a ply off (removed-stone film 20, dim, on main's
 * reader: F16 read at 1.00 then 0.50, Black's D11 at 0.89: MISSED, 11/20 moves). */
static void test_go_stone_read_twice_then_taken_off(void **state)
{
    (void)state;
    static const struct timed_stone st[] = {
        {"BC7", 1.0, 0, 0}, {"WG3", 1.5, 0, 0}, {"BC3", 2.0, 0, 0}, {"WF6", 2.8, 3.8, 0},
        {"BD4", 3.2, 0, 0}, {"WG5", 3.4, 0, 0}, {"BE5", 4.4, 0, 0}, {"WG7", 4.9, 0, 0},
        {"BB2", 5.3, 0, 0}, {"WH4", 5.7, 0, 0}, {"BA2", 7.2, 0, 0}, {"WJ1", 7.7, 0, 0}};
    static const struct reading rd[] = {{"F6", 3.5, 4.0, OBS_WHITE, 0.51f},
                                        {"D4", 6.0, 99, OBS_BLACK, 0.85f}};
    static struct got got;
    settled_game_read(st, (int)(sizeof st / sizeof st[0]), rd, 2, 3.6, 5.9, 0, 0, 9.0, false, &got);
    assert_recorded(&got, "B C7 W G3 B C3 W F6 B D4 W G5 B E5 W G7 B B2 W H4 B A2 W J1");
    assert_int_equal(flags(&got), 1);
    for (int i = 0; i < got.n; i++)
        if (guard_is_flag(got.ev[i].kind)) {
            assert_int_equal(got.ev[i].kind, GUARD_STONE_REMOVED);
            assert_int_equal(got.ev[i].move.point, go_point(5, 3));
        }
}

/* The same shape, but F6 has one liberty left once Black F7 is played (Black E6, G6, F7 around it,
 * F5 empty), and it is read gone (glare, surely empty) for two views before Black F5 takes that
 * liberty: a stone seen once that the next move of the other side may still capture is no stone
 * taken off (test_settle_order's test_seen_once_played_when_read, on the guard alone). F6 is
 * White's move in its slot, captured by F5; no flag. */
static void test_go_stone_read_once_in_atari_then_captured(void **state)
{
    (void)state;
    static const struct timed_stone st[] = {
        {"BE6", 1.0, 0, 0}, {"WG3", 1.5, 0, 0}, {"BG6", 2.0, 0, 0}, {"WF6", 2.8, 4.8, 0.51f},
        {"BF7", 3.2, 0, 0}, {"WG5", 3.8, 0, 0}, {"BF5", 5.9, 0, 0}, {"WG7", 6.6, 0, 0},
        {"BB2", 7.0, 0, 0}, {"WH4", 7.4, 0, 0}};
    static struct got got;
    settled_game_in(st, (int)(sizeof st / sizeof st[0]), 2.6, 4.4, 0, 0, 9.0, false, &got);
    assert_recorded(&got, "B E6 W G3 B G6 W F6 B F7 W G5 B F5 W G7 B B2 W H4");
    assert_int_equal(flags(&got), 0);
}

/* Column J out of the picture. Black's E6 is in glare: read empty, surely in most views and in
 * doubt in some, never black; White's G7 after it makes Black's move one not seen (on column J,
 * or a pass). Black E4 then captures White's E5 (E6 stands), and White puts a stone on E5 again
 * (a suicide), takes it back and plays H8. Only E6 explains E5's going: the unseen move is found
 * there, and the stone put back is flagged illegal (taken back before it was judged), not
 * E5 taken off without capture (suicide film 35, glare, Black's R13). */
static void test_go_unseen_move_found_by_what_it_captured(void **state)
{
    (void)state;
    static const struct timed_stone st[] = {
        {"BC7", 1.0, 0, 0}, {"WE5", 1.5, 6.2, 0}, {"BD5", 2.0, 0, 0},     {"WG3", 2.5, 0, 0},
        {"BF5", 3.0, 0, 0}, {"WC3", 3.5, 0, 0},   {"BE6", 4.0, 0, -0.6f}, {"WG7", 4.5, 0, 0},
        {"BB2", 5.0, 0, 0}, {"WH2", 5.5, 0, 0},   {"BE4", 6.0, 0, 0},     {"WE5", 7.0, 8.4, 0},
        {"WH8", 9.0, 0, 0}, {"BA2", 9.6, 0, 0}};
    static struct got got;
    settled_game_in(st, (int)(sizeof st / sizeof st[0]), 0, 0, 0, 0, 12.0, true, &got);
    struct go_event_record r;
    char rec[256];
    record_of(&got, 9, rec, sizeof rec, &r);
    tu_note("record: %s", rec);
    for (int i = 0; i < got.n; i++)
        if (guard_is_flag(got.ev[i].kind))
            tu_note("  ply %d %s: %s", got.ev[i].ply, guard_kind_name(got.ev[i].kind),
                    got.ev[i].text);
    assert_string_equal(rec, "B C7 W E5 B D5 W G3 B F5 W C3 B E6 W G7 B B2 W H2 B E4 W H8 B A2");
    go_event_record_free(&r);
    assert_int_equal(flags(&got), 1);
    int illegal = 0;
    for (int i = 0; i < got.n; i++)
        if (got.ev[i].kind == GUARD_ILLEGAL_MOVE) {
            illegal++;
            assert_int_equal(got.ev[i].ply, 12);
            assert_int_equal(got.ev[i].move.point, go_point(4, 4));
        }
    assert_int_equal(illegal, 1);
}

/* Every point in view but a patch in glare (D5 E5 F5, unreadable). Black's E5 goes there: White's
 * C3 after G3 makes it a move not seen. Then the glare names E5's stone White, in doubt (0.83), in
 * two views; it is unreadable again while White plays B5 and H2; then read White in doubt for
 * three views more. A White stone first read before two White moves recorded since is no White
 * move: it is Black's unseen stone, its colour misread (moved-stone film 4, glare: Black's E11,
 * unseen, read as White, was recorded as a White move 21 plies later and put every move after it
 * out of turn). */
static const struct timed_stone glare_game[] = {
    {"BC7", 1.0, 0, 0}, {"WG3", 1.5, 0, 0}, {"BE5", 2.0, 0, 0}, {"WC3", 2.5, 0, 0},
    {"BG7", 3.8, 0, 0}, {"WB5", 5.0, 0, 0}, {"BB3", 6.0, 0, 0}, {"WH2", 7.0, 0, 0},
    {"BB7", 8.0, 0, 0}, {"WH8", 9.0, 0, 0}};

static void test_go_unseen_move_read_in_the_other_colour(void **state)
{
    (void)state;
    static const struct reading rd[] = {{"D5", 0, 99, OBS_EMPTY, 0.44f},
                                        {"E5", 0, 99, OBS_EMPTY, 0.44f},
                                        {"F5", 0, 99, OBS_EMPTY, 0.44f},
                                        {"E5", 4.0, 5.0, OBS_WHITE, 0.83f},
                                        {"E5", 9.5, 11.0, OBS_WHITE, 0.83f}};
    static struct got got;
    settled_game_read(glare_game, (int)(sizeof glare_game / sizeof glare_game[0]), rd,
                      (int)(sizeof rd / sizeof rd[0]), 0, 0, 0, 0, 11.0, false, &got);
    assert_int_equal(flags(&got), 0);
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_TAKEBACK), 1);
    assert_recorded(&got, "B C7 W G3 B E5 W C3 B G7 W B5 B B3 W H2 B B7 W H8");
}

/* The same game, but after White's B5 Black slides G7 to G8 (a moved stone), then plays B3. E5's
 * White run, read in two views and then unreadable, holds no White move after it for good (the
 * views are not read back in a rush with G8 waiting): the slide is MOVED_STONE at its ply, not G8
 * played and G7 taken off. When E5 is found later and the moves are played again, G7 and G8 stay
 * tolerated: no second flag (moved-stone film 4). */
static void test_go_stalled_stone_holds_no_moves(void **state)
{
    (void)state;
    static const struct timed_stone st[] = {
        {"BC7", 1.0, 0, 0},   {"WG3", 1.5, 0, 0}, {"BE5", 2.0, 0, 0}, {"WC3", 2.5, 0, 0},
        {"BG7", 3.8, 5.6, 0},                     /* slid ... */
        {"WB5", 5.0, 0, 0},   {"BG8", 5.6, 0, 0}, /* ... to G8 */
        {"BB3", 6.0, 0, 0},   {"WH2", 7.0, 0, 0}, {"BB7", 8.0, 0, 0}, {"WH8", 9.0, 0, 0}};
    static const struct reading rd[] = {{"D5", 0, 99, OBS_EMPTY, 0.44f},
                                        {"E5", 0, 99, OBS_EMPTY, 0.44f},
                                        {"F5", 0, 99, OBS_EMPTY, 0.44f},
                                        {"E5", 4.0, 5.0, OBS_WHITE, 0.83f},
                                        {"E5", 9.5, 11.0, OBS_WHITE, 0.83f}};
    static struct got got;
    settled_game_read(st, (int)(sizeof st / sizeof st[0]), rd, (int)(sizeof rd / sizeof rd[0]), 0,
                      0, 0, 0, 11.0, false, &got);
    assert_int_equal(flags(&got), 1);
    for (int i = 0; i < got.n; i++)
        if (guard_is_flag(got.ev[i].kind)) {
            /* after White's B5 (flagged once Black's B3 is played with it: ply 7) */
            assert_int_equal(got.ev[i].kind, GUARD_MOVED_STONE);
            assert_in_range(got.ev[i].ply, 6, 7);
        }
    assert_recorded(&got, "B C7 W G3 B E5 W C3 B G7 W B5 B B3 W H2 B B7 W H8");
}

/* Every point in view. White's H7 goes into glare: read empty until it is put there, unreadable
 * since. Black then takes the ko at E5 (White's D5 captured), read surely in one view; White
 * retakes at once (illegal: a ko), the retake read for three views; then the referee puts the
 * board back (E5 Black, D5 empty) and White plays H3. White's move not seen is recorded so (H7 may
 * hold it: it was read empty only before it came), Black's capture is its move, and the retake is
 * ILLEGAL_MOVE at its ply (ko film 180, glare: White's S15 unread, the ko taken and retaken
 * unseen by the guard, which waited for White's move). */
static void test_go_ko_taken_after_unseen_move_then_retaken(void **state)
{
    (void)state;
    static const struct timed_stone st[] = {
        {"BC5", 1.0, 0, 0}, {"WE6", 1.5, 0, 0},  {"BD6", 2.0, 0, 0},   {"WE4", 2.5, 0, 0},
        {"BD4", 3.0, 0, 0}, {"WF5", 3.5, 0, 0},  {"BB2", 4.0, 0, 0},   {"WD5", 4.5, 7.0, 0},
        {"BG2", 5.0, 0, 0}, {"WH7", 6.0, 0, 0},  {"BE5", 7.0, 7.5, 0}, {"WD5", 7.5, 9.0, 0},
        {"BE5", 9.0, 0, 0}, {"WH3", 10.0, 0, 0}, {"BB8", 11.0, 0, 0},  {"WC2", 12.0, 0, 0}};
    /* read empty in the views of Black's G2, unreadable once White's stone is there */
    static const struct reading rd[] = {{"H7", 6.5, 99, OBS_EMPTY, 0.44f}};
    static struct got got;
    settled_game_read(st, (int)(sizeof st / sizeof st[0]), rd, 1, 0, 0, 0, 0, 13.0, false, &got);
    assert_int_equal(flags(&got), 1);
    for (int i = 0; i < got.n; i++)
        if (guard_is_flag(got.ev[i].kind)) {
            assert_int_equal(got.ev[i].kind, GUARD_ILLEGAL_MOVE);
            assert_int_equal(got.ev[i].ply, 12);
            assert_int_equal(got.ev[i].move.point, go_point(3, 4));
        }
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_UNSEEN), 1);
    assert_recorded(&got, "B C5 W E6 B D6 W E4 B D4 W F5 B B2 W D5 B G2 W -- B E5 W H3 B B8 W C2");
}

/* ---- shogi: file 1 (the right-hand column, sente at the bottom) out of the picture ---- */

static const char *const start_rows[9] = {
    "l n s g k g s n l", ". r . . . . . b .", "p p p p p p p p p",
    ". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .",
    "P P P P P P P P P", ". B . . . . . R .", "L N S G K G S N L"};

struct sboard {
    char cell[9][9][4];
};

static void sboard_from(struct sboard *b, const char *const rows[9])
{
    for (int y = 0; y < 9; y++) {
        char row[64];
        snprintf(row, sizeof row, "%s", rows[y]);
        char *sp = NULL;
        int x = 0;
        for (char *tok = strtok_r(row, " ", &sp); tok && x < 9; tok = strtok_r(NULL, " ", &sp))
            snprintf(b->cell[y][x++], 4, "%s", tok);
    }
}

/* move a piece on the board: USI squares ("7g" -> x = 9 - file, y = rank) */
static void sboard_move(struct sboard *b, const char *usi)
{
    int fx = 9 - (usi[0] - '0'), fy = usi[1] - 'a', tx = 9 - (usi[2] - '0'), ty = usi[3] - 'a';
    memcpy(b->cell[ty][tx], b->cell[fy][fx], 4);
    snprintf(b->cell[fy][fx], 4, ".");
}

/* Two observations of b (file 1 out of the picture when dark) appended to out. */
static void sobs(char *out, size_t len, const struct sboard *b, bool dark, int *frame)
{
    for (int rep = 0; rep < 2; rep++) {
        ++*frame;
        size_t used = strlen(out);
        used += (size_t)snprintf(out + used, len - used, "obs t=%d000000000 frame=%d\n", *frame,
                                 *frame);
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 9; x++)
                used += (size_t)snprintf(out + used, len - used, "%s%s",
                                         dark && x == 8 ? "~" : b->cell[y][x], x == 8 ? "\n" : " ");
        snprintf(out + used, len - used, "hand b -\nhand w -\nend\n");
    }
}

/* Sente 7g7f; gote's move on file 1 (out of the picture); sente 2g2f; gote 3c3d; then, with
 * turn, the camera turned onto file 1. */
static char *shogi_stream(const char *unseen, bool dark, bool turn)
{
    size_t len = 64 * 1024;
    char *text = malloc(len);
    assert_non_null(text);
    snprintf(text, len, "kifucam-obs 1 shogi 9x9\n");
    struct sboard b;
    sboard_from(&b, start_rows);
    int frame = 0;
    sobs(text, len, &b, dark, &frame);
    static const char *const moves[4] = {"7g7f", NULL, "2g2f", "3c3d"};
    for (int i = 0; i < 4; i++) {
        sboard_move(&b, moves[i] ? moves[i] : unseen);
        sobs(text, len, &b, dark, &frame);
    }
    if (turn) sobs(text, len, &b, false, &frame);
    return text;
}

static void shogi_record_of(const struct got *g, char *out, size_t len,
                            struct shogi_event_record *r)
{
    struct shogi_position start;
    shogi_position_startpos(&start);
    assert_true(shogi_event_record_init(r, &start));
    for (int i = 0; i < g->n; i++) shogi_event_record_apply(r, &g->ev[i]);
    out[0] = '\0';
    for (int i = 0; i < r->rec->nmoves; i++) {
        char usi[6];
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", i ? " " : "",
                 shogi_move_to_usi(r->rec->moves[i].move, usi));
    }
}

static void test_shogi_move_out_of_view_is_unseen(void **state)
{
    (void)state;
    char *text = shogi_stream("1c1d", true, false);
    static struct got got;
    struct check_obs_result res;
    run(text, &got, &res);
    free(text);
    assert_int_equal(flags(&got), 0);
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_UNSEEN), 1);
    for (int i = 0; i < got.n; i++)
        if (got.ev[i].reason == GUARD_REASON_UNSEEN) {
            assert_int_equal(got.ev[i].ply, 2);
            /* a pawn's step, or the lance's: both on file 1 */
            assert_non_null(strstr(got.ev[i].text, "not seen: one of 2 moves on unread squares"));
            assert_non_null(strstr(got.ev[i].text, "1a1b"));
        }
    struct shogi_event_record r;
    char moves[256];
    shogi_record_of(&got, moves, sizeof moves, &r);
    tu_note("record: %s", moves);
    assert_string_equal(moves, "7g7f 1c1d 2g2f 3c3d");
    assert_non_null(r.rec->moves[1].comment);
    assert_non_null(strstr(r.rec->moves[1].comment, "not seen"));
    shogi_event_record_free(&r);
}

/* Gote moved the lance; recorded as the pawn's step until file 1 comes into view. */
static void test_shogi_unseen_move_amended_when_seen(void **state)
{
    (void)state;
    char *text = shogi_stream("1a1b", true, true);
    static struct got got;
    struct check_obs_result res;
    run(text, &got, &res);
    free(text);
    assert_int_equal(flags(&got), 0);
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_TAKEBACK), 1);
    struct shogi_event_record r;
    char moves[256];
    shogi_record_of(&got, moves, sizeof moves, &r);
    tu_note("record: %s", moves);
    assert_string_equal(moves, "7g7f 1a1b 2g2f 3c3d");
    shogi_event_record_free(&r);
}

/* Every square in view, gote's move never made: TWO_MOVES (9) as before. */
static void test_shogi_full_view_still_two_moves(void **state)
{
    (void)state;
    size_t len = 64 * 1024;
    char *text = malloc(len);
    assert_non_null(text);
    snprintf(text, len, "kifucam-obs 1 shogi 9x9\n");
    struct sboard b;
    sboard_from(&b, start_rows);
    int frame = 0;
    sobs(text, len, &b, false, &frame);
    sboard_move(&b, "7g7f");
    sobs(text, len, &b, false, &frame);
    sboard_move(&b, "2g2f");
    sobs(text, len, &b, false, &frame);
    sobs(text, len, &b, false, &frame);
    static struct got got;
    struct check_obs_result res;
    run(text, &got, &res);
    free(text);
    assert_int_equal(count(&got, GUARD_MOVE, GUARD_REASON_UNSEEN), 0);
    int two = 0;
    for (int i = 0; i < got.n; i++) two += got.ev[i].kind == GUARD_TWO_MOVES;
    assert_int_equal(two, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_move_out_of_view_is_unseen),
        cmocka_unit_test(test_go_unseen_move_found_when_seen),
        cmocka_unit_test(test_go_full_view_still_two_moves),
        cmocka_unit_test(test_go_unseen_move_on_none_of_its_points),
        cmocka_unit_test(test_go_unseen_move_found_by_its_capture),
        cmocka_unit_test(test_go_other_side_read_first_after_unseen_move),
        cmocka_unit_test(test_go_other_side_read_a_moment_first_keeps_the_turn),
        cmocka_unit_test(test_go_stone_read_once_then_taken_off),
        cmocka_unit_test(test_go_stone_read_once_in_atari_then_captured),
        cmocka_unit_test(test_go_stone_read_twice_then_taken_off),
        cmocka_unit_test(test_go_unseen_move_found_by_what_it_captured),
        cmocka_unit_test(test_go_unseen_move_read_in_the_other_colour),
        cmocka_unit_test(test_go_stalled_stone_holds_no_moves),
        cmocka_unit_test(test_go_ko_taken_after_unseen_move_then_retaken),
        cmocka_unit_test(test_shogi_move_out_of_view_is_unseen),
        cmocka_unit_test(test_shogi_unseen_move_amended_when_seen),
        cmocka_unit_test(test_shogi_full_view_still_two_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

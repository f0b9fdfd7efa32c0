/* tests/record/test_shogi_event_record.c — the shogi record kept from guard events: real games
 * turned into events by the shogi rule guard (as the daemon gets them), written as KIF and CSA and
 * read back with the project's readers: same moves, same times, flags as comments, the end and the
 * result; a take-back in mid-game; a set-up position; every shared shogi game when ../shared is
 * there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/journal.h"
#include "record/shogi_event_record.h"
#include "tests/ruleguard/shogi_corpus.h"
#include "tests/ruleguard/shogi_obs_gen.h"
#include "tests/testutil.h"

#define SEC 1000000000LL

static const char *const record_suffixes[] = {".kif", ".kifu", ".ki2", ".ki2u",
                                              ".csa", ".jkf",  ".usi", NULL};

static const struct shogi_event_info test_info = {
    .black = "羽生善治",
    .white = "Gote Player",
    .event = "kifucam test",
    .start_time = "2026/11/24 10:00:00",
    .time_control = "00:10+30",
    .result = "先手の勝ち",
};

/* The thinking time a record gives ply k (0-based), else a made-up one that is no whole second
 * (the files keep whole seconds). */
static int64_t move_ms(const struct shogi_record *src, int k)
{
    int64_t t = src->moves[k].time_ms;
    return t >= 0 ? t : 1000 * (1 + (k * 37) % 9) + 250;
}

/* The events the shogi guard makes of a record's moves (moves it could not play are skipped, as
 * the observation guard never sends them), applied to er. *t_ns runs on with the moves. Returns
 * the number of flags. */
static int feed(struct shogi_event_record *er, struct shogi_guard *g,
                const struct shogi_record *src, int from, int to, int64_t *t_ns)
{
    struct guard_event ev[GUARD_MAX_EVENTS];
    int flags = 0;
    for (int k = from; k < to && k < src->nmoves; k++) {
        if (!src->moves[k].played) continue;
        *t_ns += move_ms(src, k) * 1000000;
        int n = shogi_guard_move(g, src->moves[k].move, *t_ns, 0, ev);
        for (int i = 0; i < n; i++) flags += shogi_event_record_apply(er, &ev[i]);
    }
    return flags;
}

/* The end a record states that only the players make (not the board): resignation, time. */
static void feed_end(struct shogi_event_record *er, struct shogi_guard *g,
                     const struct shogi_record *src, int64_t *t_ns)
{
    enum shogi_color loser = (enum shogi_color)shogi_guard_game(g)->pos.side;
    struct shogi_outcome o = {SHOGI_END_NONE, shogi_win_for((enum shogi_color)(loser ^ 1))};
    if (src->end.kind == SHOGI_REC_END_RESIGN) o.end = SHOGI_END_RESIGN;
    if (src->end.kind == SHOGI_REC_END_TIME_UP) o.end = SHOGI_END_TIME;
    if (o.end == SHOGI_END_NONE) return;
    struct guard_event ev[1];
    *t_ns += 7 * SEC + 500000000;
    if (shogi_guard_end(g, o, *t_ns, ev)) shogi_event_record_apply(er, &ev[0]);
}

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool twice_in_a_row(const struct shogi_record *r)
{
    for (int k = 0; k < r->nmoves; k++)
        if (r->moves[k].verdict.rule == SHOGI_ILLEGAL_OUT_OF_TURN) return true;
    return false;
}

/* Read text back and compare with the event record's game. */
static bool check_back(const struct shogi_event_record *er, const char *text, bool csa,
                       const char *path)
{
    const struct shogi_record *a = er->rec;
    struct shogi_record **v = NULL;
    struct shogi_record_error err = {0};
    const char *what = csa ? "CSA" : "KIF";
    int n =
        text ? shogi_record_read(text, strlen(text), csa ? "game.csa" : "game.kifu", &v, &err) : -1;
    if (n != 1) {
        print_error("%s via %s: not read back: %s\n", path, what, err.message);
        shogi_records_free(v, n);
        return false;
    }
    const struct shogi_record *b = v[0];
    bool ok = true;
    if (!shogi_record_same_moves(a, b)) ok = false, print_error("%s via %s: moves\n", path, what);
    for (int i = 0; ok && i < a->nmoves; i++) {
        if (a->moves[i].time_ms / 1000 != b->moves[i].time_ms / 1000)
            ok = false, print_error("%s via %s: time of ply %d\n", path, what, i + 1);
        if (!same_text(a->moves[i].comment, b->moves[i].comment))
            ok = false, print_error("%s via %s: comment of ply %d\n", path, what, i + 1);
    }
    bool end_written =
        !csa || shogi_record_end_csa(a->end.kind) || a->end.kind == SHOGI_REC_END_ILLEGAL_WIN;
    if (ok && end_written && a->end.kind != b->end.kind)
        ok = false,
        print_error("%s via %s: end %d read as %d\n", path, what, a->end.kind, b->end.kind);
    if (ok && a->end.kind != SHOGI_REC_END_NONE && end_written &&
        !same_text(a->end.comment, b->end.comment))
        ok = false, print_error("%s via %s: end comment\n", path, what);
    if (ok && (!b->black || strcmp(b->black, test_info.black) != 0 || !b->white ||
               strcmp(b->white, test_info.white) != 0 || !b->event ||
               strcmp(b->event, test_info.event) != 0 || !b->start_time ||
               strcmp(b->start_time, test_info.start_time) != 0))
        ok = false, print_error("%s via %s: game information\n", path, what);
    const char *result =
        csa ? (b->head_comment ? strstr(b->head_comment, "結果：先手の勝ち") : NULL)
            : shogi_record_get(b, SHOGI_EVENT_RESULT_KEY);
    if (ok && (!result || !strstr(result, test_info.result)))
        ok = false, print_error("%s via %s: result\n", path, what);
    shogi_records_free(v, n);
    return ok;
}

struct run_count {
    int games, moves, flags, failed;
    int ends[SHOGI_REC_END_COUNT];
};

/* One real game: its moves through the guard into an event record, out as KIF and CSA, back in. */
static void run_game(const struct shogi_record *src, const char *path, struct run_count *c)
{
    struct shogi_event_record er;
    assert_true(shogi_event_record_init(&er, &src->start));
    shogi_event_record_start_clock(&er, 0);
    struct shogi_guard *g = shogi_guard_new(&src->start, &shogi_rules_jsa);
    assert_non_null(g);
    int64_t t = 0;
    c->flags += feed(&er, g, src, 0, src->nmoves, &t);
    /* a game the board ended (mate, a foul) ends there, whatever the file's last word */
    bool board_ended = shogi_guard_game(g)->outcome.end != SHOGI_END_NONE;
    feed_end(&er, g, src, &t);
    bool ok = true;
    /* the guard's moves are the record's (those a board allows) */
    int played = 0;
    for (int k = 0; k < src->nmoves; k++) played += src->moves[k].played;
    if (er.rec->nmoves != played) ok = false, print_error("%s: %d moves kept\n", path, played);
    for (int k = 0, i = 0; ok && k < src->nmoves; k++) {
        if (!src->moves[k].played) continue;
        if (!shogi_move_equal(src->moves[k].move, er.rec->moves[i].move) ||
            er.rec->moves[i].time_ms != move_ms(src, k))
            ok = false, print_error("%s: ply %d differs from the source\n", path, i + 1);
        i++;
    }
    if (ok && !board_ended &&
        (src->end.kind == SHOGI_REC_END_RESIGN || src->end.kind == SHOGI_REC_END_TIME_UP) &&
        er.rec->end.kind != src->end.kind)
        ok = false, print_error("%s: end %d became %d\n", path, src->end.kind, er.rec->end.kind);
    char *kif = shogi_event_record_kif(&er, &test_info);
    char *csa = shogi_event_record_csa(&er, &test_info);
    /* KIF gives no colour per move: a side moving twice cannot be written in it. */
    if (ok && !twice_in_a_row(er.rec)) ok = check_back(&er, kif, false, path);
    if (ok) ok = check_back(&er, csa, true, path);
    c->games++;
    c->moves += er.rec->nmoves;
    c->ends[er.rec->end.kind]++;
    if (!ok) c->failed++;
    free(kif);
    free(csa);
    shogi_guard_free(g);
    shogi_event_record_free(&er);
}

static void run_file(const char *path, void *ctx)
{
    struct shogi_record **v = NULL;
    struct shogi_record_error err = {0};
    int n = shogi_record_read_file(path, &v, &err);
    if (n < 1) {
        print_error("%s\n", err.message);
        ((struct run_count *)ctx)->failed++;
        return;
    }
    for (int i = 0; i < n; i++) run_game(v[i], path, ctx);
    shogi_records_free(v, n);
}

static void test_fixture_games_round_trip(void **state)
{
    (void)state;
    struct run_count c = {0};
    tu_walk(tu_path(tu_fixtures_dir(), "shogi-records"), record_suffixes, run_file, &c);
    tu_note("fixtures: %d games, %d moves, %d flags, ends: %d resign, %d mate, %d illegal, %d "
            "none; %d failed",
            c.games, c.moves, c.flags, c.ends[SHOGI_REC_END_RESIGN], c.ends[SHOGI_REC_END_MATE],
            c.ends[SHOGI_REC_END_ILLEGAL_WIN] + c.ends[SHOGI_REC_END_ILLEGAL_LOSS],
            c.ends[SHOGI_REC_END_NONE], c.failed);
    assert_true(c.games >= 25);
    assert_int_equal(c.failed, 0);
    assert_true(c.ends[SHOGI_REC_END_RESIGN] >= 1); /* the 竜王戦 game */
    assert_true(c.ends[SHOGI_REC_END_MATE] >= 1);   /* 9fu, found mate on the board */
    assert_true(c.flags >= 5);                      /* the illegal-move fixtures */
}

static void test_shared_games_round_trip(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("../shared/data absent: shared shogi games skipped");
        TU_SKIP();
    }
    struct run_count a = {0}, b = {0};
    int files = tu_walk(tu_path(shared, "shogi-records"), record_suffixes, run_file, &a);
    run_file(tu_path(shared, "shogi-games/lishogi-400.usi"), &b);
    tu_note("shared shogi-records: %d files, %d games, %d moves, %d failed", files, a.games,
            a.moves, a.failed);
    tu_note("shared lishogi-400.usi: %d games, %d moves, %d flags, %d failed", b.games, b.moves,
            b.flags, b.failed);
    assert_true(files >= 50);
    assert_int_equal(b.games, 400);
    assert_int_equal(b.flags, 0);
    assert_int_equal(a.failed + b.failed, 0);
}

/* ---- one game, event by event ---------------------------------------------------------------- */

static struct shogi_record *read_fixture(const char *name)
{
    struct shogi_record **v = NULL;
    struct shogi_record_error err = {0};
    char path[4096];
    snprintf(path, sizeof path, "%s/shogi-records/%s", tu_fixtures_dir(), name);
    int n = shogi_record_read_file(path, &v, &err);
    assert_true(n >= 1);
    struct shogi_record *r = v[0];
    for (int i = 1; i < n; i++) shogi_record_free(v[i]);
    free(v);
    return r;
}

static struct shogi_record *read_text(const char *text, const char *name)
{
    struct shogi_record **v = NULL;
    struct shogi_record_error err = {0};
    int n = shogi_record_read(text, strlen(text), name, &v, &err);
    if (n != 1) fail_msg("%s not read back: %s", name, err.message);
    struct shogi_record *r = v[0];
    free(v);
    return r;
}

static void test_takeback_mid_game(void **state)
{
    (void)state;
    struct shogi_record *src = read_fixture("ryuou201409020101.kif");
    struct shogi_event_record er;
    assert_true(shogi_event_record_init(&er, NULL));
    shogi_event_record_start_clock(&er, 0);
    struct shogi_guard *g = shogi_guard_new(NULL, &shogi_rules_jsa);
    int64_t t = 0;
    feed(&er, g, src, 0, 30, &t);
    assert_int_equal(shogi_event_record_moves(&er), 30);
    int64_t at28 = 0;
    for (int k = 0; k < 28; k++) at28 += move_ms(src, k);
    shogi_event_record_note(&er, 30, "HIDDEN_PIECE: a flag on the move taken back");

    /* The referee takes two moves back, as the observation guard says it. */
    struct guard_event tb;
    guard_event_init(&tb, GUARD_MOVE, 28, t + 3 * SEC, 0);
    tb.reason = GUARD_REASON_TAKEBACK;
    snprintf(tb.text, sizeof tb.text, "back to the position after ply 28: the referee");
    assert_false(shogi_event_record_apply(&er, &tb));
    assert_int_equal(shogi_event_record_moves(&er), 28);
    const char *note = er.rec->moves[27].comment;
    assert_non_null(note);
    assert_non_null(strstr(note, "TAKEBACK: plies 29-30 removed: "));
    assert_non_null(strstr(note, "HIDDEN_PIECE: a flag on the move taken back"));
    struct shogi_position pos, want;
    shogi_event_record_position(&er, &pos);
    shogi_record_position(src, 28, &want);
    assert_true(shogi_position_same(&pos, &want));

    /* The game goes on from ply 28 as it was played; ply 29's time counts from ply 28. */
    shogi_guard_free(g);
    g = shogi_guard_new(NULL, &shogi_rules_jsa);
    struct guard_event ev[GUARD_MAX_EVENTS];
    for (int k = 0; k < 28; k++) shogi_guard_move(g, src->moves[k].move, 0, 0, ev);
    t = at28 * 1000000 + 20 * SEC;
    int n = shogi_guard_move(g, src->moves[28].move, t, 0, ev);
    for (int i = 0; i < n; i++) shogi_event_record_apply(&er, &ev[i]);
    assert_int_equal(er.rec->moves[28].time_ms, 20000);
    feed(&er, g, src, 29, src->nmoves, &t);
    feed_end(&er, g, src, &t);
    assert_true(shogi_record_same_moves(src, er.rec));
    assert_int_equal(er.rec->end.kind, SHOGI_REC_END_RESIGN);

    char *kif = shogi_event_record_kif(&er, &test_info);
    char *csa = shogi_event_record_csa(&er, &test_info);
    assert_true(check_back(&er, kif, false, "takeback"));
    assert_true(check_back(&er, csa, true, "takeback"));
    struct shogi_record *back = read_text(kif, "takeback.kifu");
    assert_true(shogi_record_same_moves(src, back));
    assert_non_null(strstr(back->moves[27].comment, "TAKEBACK"));
    assert_int_equal(back->moves[28].time_ms, 20000);
    shogi_record_free(back);
    free(kif);
    free(csa);
    shogi_guard_free(g);
    shogi_event_record_free(&er);
    shogi_record_free(src);
}

/* nifu.kifu: ply 9 drops a second pawn on a file (2) 二歩). The guard's flag is a comment on ply
 * 9 in both files; a flag never changes the moves. */
static void test_flags_are_comments(void **state)
{
    (void)state;
    struct shogi_record *src = read_fixture("nifu.kifu");
    struct shogi_event_record er;
    assert_true(shogi_event_record_init(&er, NULL));
    struct shogi_guard *g = shogi_guard_new(NULL, &shogi_rules_jsa);
    int64_t t = 0;
    int flags = feed(&er, g, src, 0, 9, &t);
    assert_int_equal(flags, 1);
    assert_int_equal(shogi_event_record_moves(&er), 9);
    assert_int_equal(er.rec->moves[0].time_ms, 0); /* the clock starts at the first event */
    assert_non_null(strstr(er.rec->moves[8].comment, "ILLEGAL_MOVE: "));
    /* A flag from the board (a piece missing from the komadai) on ply 5. */
    struct guard_event hp;
    guard_event_init(&hp, GUARD_HIDDEN_PIECE, 5, t, 42);
    hp.rule_ref = "Turnierregeln 1";
    snprintf(hp.text, sizeof hp.text, "the captured pawn is not on sente's komadai");
    assert_true(shogi_event_record_apply(&er, &hp));
    assert_int_equal(shogi_event_record_moves(&er), 9);
    assert_string_equal(
        er.rec->moves[4].comment,
        "HIDDEN_PIECE: the captured pawn is not on sente's komadai (Turnierregeln 1)");
    /* the illegal move ended the game (反則負け of the mover): the side to move wins */
    assert_int_equal(er.rec->end.kind, SHOGI_REC_END_ILLEGAL_WIN);

    char *kif = shogi_event_record_kif(&er, &test_info);
    char *csa = shogi_event_record_csa(&er, &test_info);
    assert_true(check_back(&er, kif, false, "nifu"));
    assert_true(check_back(&er, csa, true, "nifu"));
    struct shogi_record *back = read_text(kif, "nifu.kifu");
    assert_int_equal(back->first_illegal, 9);
    assert_non_null(strstr(back->moves[8].comment, "ILLEGAL_MOVE"));
    assert_non_null(strstr(back->moves[4].comment, "HIDDEN_PIECE"));
    shogi_record_free(back);
    free(kif);
    free(csa);
    shogi_guard_free(g);
    shogi_event_record_free(&er);
    shogi_record_free(src);
}

/* A move the observation guard accepted in doubt carries the reason as its comment in KIF; a plain
 * move none. */
static void test_doubt_is_a_comment(void **state)
{
    (void)state;
    struct shogi_record *src = read_fixture("nifu.kifu");
    struct shogi_event_record er;
    assert_true(shogi_event_record_init(&er, NULL));
    struct shogi_guard *g = shogi_guard_new(NULL, &shogi_rules_jsa);
    struct guard_event ev[GUARD_MAX_EVENTS];
    for (int k = 0; k < 2; k++) {
        int n = shogi_guard_move(g, src->moves[k].move, (k + 1) * SEC, 0, ev);
        for (int i = 0; i < n; i++) {
            if (k == 1 && ev[i].kind == GUARD_MOVE) guard_event_add_doubt(&ev[i], "read in doubt");
            assert_false(shogi_event_record_apply(&er, &ev[i]));
        }
    }
    assert_null(er.rec->moves[0].comment);
    assert_non_null(er.rec->moves[1].comment);
    assert_string_equal(er.rec->moves[1].comment, "kifucam: read in doubt");
    char *kif = shogi_event_record_kif(&er, &test_info);
    struct shogi_record *back = read_text(kif, "doubt.kif");
    assert_string_equal(back->moves[1].comment, "kifucam: read in doubt");
    shogi_record_free(back);
    free(kif);
    shogi_guard_free(g);
    shogi_event_record_free(&er);
    shogi_record_free(src);
}

static struct guard_event end_event(int ply, int64_t t, const char *text)
{
    struct guard_event e;
    guard_event_init(&e, GUARD_GAME_END, ply, t, 0);
    snprintf(e.text, sizeof e.text, "%s", text);
    return e;
}

/* Resignation as the observation guard sees it (a hand over the komadai), then the result; a
 * game that went on after a referee's call; 千日手 from the board. */
static void test_end_and_result(void **state)
{
    (void)state;
    struct shogi_record *src = read_fixture("ryuou201409020101.kif");
    struct shogi_event_record er;
    assert_true(shogi_event_record_init(&er, NULL));
    shogi_event_record_start_clock(&er, 0);
    struct shogi_guard *g = shogi_guard_new(NULL, &shogi_rules_jsa);
    int64_t t = 0;
    feed(&er, g, src, 0, src->nmoves, &t); /* 117 moves: gote to move */
    struct guard_event e =
        end_event(117, t + 31 * SEC, "Gote's hand over the own komadai for 31 s: Gote resigns");
    e.reason = GUARD_REASON_SIGNAL;
    assert_false(shogi_event_record_apply(&er, &e));
    assert_int_equal(er.rec->end.kind, SHOGI_REC_END_RESIGN);
    assert_int_equal(er.rec->end.time_ms, 31000);
    char *kif = shogi_event_record_kif(&er, &test_info);
    assert_non_null(strstr(kif, "まで117手で先手の勝ち"));
    assert_non_null(strstr(kif, "結果：先手の勝ち"));
    assert_non_null(strstr(kif, " 118 投了"));
    assert_true(check_back(&er, kif, false, "resign"));
    char *csa = shogi_event_record_csa(&er, &test_info);
    assert_non_null(strstr(csa, "%TORYO,T31"));
    assert_true(check_back(&er, csa, true, "resign"));
    free(kif);
    free(csa);
    shogi_event_record_free(&er);
    shogi_guard_free(g);

    /* The referee's call on entering kings ends nothing for good: a move after it reopens the
     * game, and the end stays as a comment on its ply. */
    assert_true(shogi_event_record_init(&er, NULL));
    g = shogi_guard_new(NULL, &shogi_rules_jsa);
    t = 0;
    feed(&er, g, src, 0, 40, &t);
    e = end_event(40, t, "referee called (both kings entered): referee decides");
    shogi_event_record_apply(&er, &e);
    assert_int_equal(er.rec->end.kind, SHOGI_REC_END_INTERRUPT);
    feed(&er, g, src, 40, 41, &t);
    assert_int_equal(er.rec->end.kind, SHOGI_REC_END_NONE);
    assert_non_null(strstr(er.rec->moves[39].comment, "GAME_END: 中断, the game went on"));
    shogi_event_record_free(&er);
    shogi_guard_free(g);
    shogi_record_free(src);

    /* 千日手: the same four moves four times over, ended by the board. */
    assert_true(shogi_event_record_init(&er, NULL));
    g = shogi_guard_new(NULL, &shogi_rules_jsa);
    struct shogi_position p;
    shogi_position_startpos(&p);
    const char *usi[4] = {"2h3h", "8b7b", "3h2h", "7b8b"};
    struct guard_event ev[GUARD_MAX_EVENTS];
    for (int k = 0; k < 12; k++) {
        struct shogi_move m;
        assert_true(shogi_move_from_usi(&shogi_guard_game(g)->pos, usi[k % 4], &m));
        int n = shogi_guard_move(g, m, (k + 1) * SEC, 0, ev);
        for (int i = 0; i < n; i++) shogi_event_record_apply(&er, &ev[i]);
    }
    assert_int_equal(er.rec->end.kind, SHOGI_REC_END_SENNICHITE);
    kif = shogi_event_record_kif(&er, NULL);
    struct shogi_record *back = read_text(kif, "sennichite.kifu");
    assert_int_equal(back->end.kind, SHOGI_REC_END_SENNICHITE);
    assert_int_equal(back->nmoves, 12);
    shogi_record_free(back);
    free(kif);
    shogi_event_record_free(&er);
    shogi_guard_free(g);
}

/* The referee accepts the position on the board: before the first move it is the record's start
 * (a handicap is recognised), later a comment with its SFEN, and the live position follows it. */
static void test_setup(void **state)
{
    (void)state;
    struct shogi_record *src = read_fixture("8mai.kif"); /* 八枚落ち */
    struct shogi_event_record er;
    assert_true(shogi_event_record_init(&er, NULL));
    char sfen[SHOGI_SFEN_MAX];
    struct guard_event e, oev[GUARD_OBS_MAX_EVENTS];
    /* the observation guard's own event: the referee accepts the handicap set up on the board */
    struct shogi_obs_guard *og = shogi_obs_guard_new(&src->start, NULL, true, NULL);
    assert_int_equal(shogi_obs_guard_accept_position(og, 0, oev), 1);
    shogi_obs_guard_free(og);
    assert_int_equal(oev[0].reason, GUARD_REASON_SETUP);
    assert_false(shogi_event_record_apply(&er, &oev[0]));
    assert_true(shogi_position_same(&er.rec->start, &src->start));
    assert_int_equal(er.rec->handicap, SHOGI_HC_8);
    struct shogi_guard *g = shogi_guard_new(&src->start, &shogi_rules_jsa);
    int64_t t = 0;
    assert_int_equal(feed(&er, g, src, 0, src->nmoves, &t), 0);
    char *kif = shogi_event_record_kif(&er, &test_info);
    assert_non_null(strstr(kif, "手合割：八枚落ち"));
    struct shogi_record *back = read_text(kif, "8mai.kifu");
    assert_true(shogi_record_same_moves(src, back));
    assert_non_null(strstr(back->head_comment, "Referee: position accepted as set up."));
    shogi_record_free(back);
    free(kif);

    /* In mid-game: a sente pawn the board shows in hand (a position the record's moves do not
     * give): a comment, and the live page shows the accepted position. */
    struct shogi_position now, fixed;
    shogi_event_record_position(&er, &now);
    bool found = false;
    for (int s = 0; s < SHOGI_SQUARES && !found; s++) {
        if (now.board[s] != shogi_piece(SHOGI_SENTE, SHOGI_PAWN)) continue;
        fixed = now;
        fixed.board[s] = SHOGI_EMPTY;
        fixed.hand[SHOGI_SENTE][SHOGI_PAWN]++;
        shogi_position_refresh(&fixed);
        found = shogi_position_valid(&fixed, NULL, 0);
    }
    assert_true(found);
    guard_event_init(&e, GUARD_MOVE, src->nmoves, t, 0);
    e.reason = GUARD_REASON_SETUP;
    snprintf(e.text, sizeof e.text, "the referee accepts the position: %s",
             shogi_sfen_format(&fixed, sfen, sizeof sfen));
    shogi_event_record_apply(&er, &e);
    shogi_event_record_position(&er, &now);
    assert_true(shogi_position_same(&now, &fixed));
    assert_non_null(strstr(er.rec->moves[src->nmoves - 1].comment, sfen));
    assert_int_equal(er.rec->nmoves, src->nmoves);
    shogi_guard_free(g);
    shogi_event_record_free(&er);
    shogi_record_free(src);
}

/* ---- from the camera: the observation guard's events -------------------------------------------
 * Real games as the camera would see them (tests/ruleguard/shogi_obs_gen.h: misreads, hands over
 * the board, late captures) with one fault each, restored the way a referee restores a board:
 * the guard flags it, takes the move back, and the game goes on. */

/* Every event of the stream's observations, applied to er; returns the number of flags. The moves
 * a plain consumer of the events would keep (a take-back cuts) go to want[]. */
static int observe_stream(const struct sgen_stream *st, struct shogi_event_record *er,
                          struct shogi_move *want, int *nwant)
{
    struct shogi_obs_guard *g = shogi_obs_guard_new(&st->start, NULL, st->hdr.sente_bottom, NULL);
    assert_non_null(g);
    struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    int flags = 0;
    int64_t last_t = 0;
    *nwant = 0;
    for (int i = 0; i <= st->n; i++) {
        int n = 0;
        if (i == st->n) {
            n = shogi_obs_guard_flush(g, last_t, ev);
        } else if (st->items[i].kind == OBS_ITEM_OBS) {
            last_t = st->items[i].obs.t_ns;
            n = shogi_obs_guard_observe(g, &st->items[i].obs, ev);
        }
        for (int k = 0; k < n; k++) {
            flags += shogi_event_record_apply(er, &ev[k]);
            if (ev[k].kind != GUARD_MOVE || ev[k].reason == GUARD_REASON_SETUP) continue;
            if (ev[k].reason == GUARD_REASON_TAKEBACK) {
                if (ev[k].ply < *nwant) *nwant = ev[k].ply;
            } else if (ev[k].ply >= 1 && ev[k].ply <= *nwant + 1) {
                want[ev[k].ply - 1] = ev[k].shogi;
                *nwant = ev[k].ply;
            }
        }
    }
    shogi_obs_guard_free(g);
    return flags;
}

/* Lines of the record's comments that are flags ("KIND: text"). */
static int flag_lines(const struct shogi_record *r)
{
    int n = 0;
    for (int p = 0; p <= r->nmoves; p++) {
        const char *c = p ? r->moves[p - 1].comment : r->head_comment;
        for (const char *line = c; line && *line;) {
            for (int k = 0; k < GUARD_KIND_COUNT; k++) {
                const char *name = guard_kind_name((enum guard_kind)k);
                size_t len = strlen(name);
                if (guard_is_flag((enum guard_kind)k) && !strncmp(line, name, len) &&
                    line[len] == ':')
                    n++;
            }
            const char *nl = strchr(line, '\n');
            line = nl ? nl + 1 : NULL;
        }
    }
    return n;
}

/* Does the comment of ply p or p - 1 (a take-back note) name the flag? */
static bool flag_noted(const struct shogi_record *r, const struct sgen_flag *f)
{
    for (int p = f->ply; p >= f->ply - 1 && p >= 0; p--) {
        if (p > r->nmoves) continue;
        const char *c = p ? r->moves[p - 1].comment : r->head_comment;
        if (c && strstr(c, guard_kind_name(f->kind))) return true;
    }
    return false;
}

static void test_observed_games(void **state)
{
    (void)state;
    struct shogi_corpus corpus;
    shogi_corpus_load(&corpus, false);
    struct sgen_noise noise;
    sgen_noise_default(&noise);
    static const enum sgen_fault faults[] = {SF_NONE,       SF_TAKEBACK,      SF_NIFU,
                                             SF_WRONG_WAY,  SF_KING_IN_CHECK, SF_TWO_MOVES,
                                             SF_HIDDEN_LATE};
    int streams = 0, as_events = 0, as_game = 0, trips = 0, flags = 0, noted = 0, expected = 0;
    int found = 0, games = 0;
    for (int i = 0; i < corpus.n && games < 8; i++) {
        const struct shogi_corpus_game *gm = &corpus.games[i];
        if (gm->nmoves < 30) continue;
        games++;
        for (size_t f = 0; f < sizeof faults / sizeof faults[0]; f++) {
            struct sgen_stream st;
            if (!sgen_stream_make(&gm->start, gm->moves, gm->nmoves, faults[f],
                                  (uint64_t)i * 7919 + f, &noise, i % 2 == 0, &st))
                continue;
            streams++;
            struct shogi_event_record er;
            assert_true(shogi_event_record_init(&er, &st.start));
            struct shogi_move *want = calloc((size_t)st.n + 1, sizeof *want);
            int nwant;
            int nflags = observe_stream(&st, &er, want, &nwant);
            flags += nflags;
            /* the record keeps what the events say: moves, take-backs and every flag */
            bool same = er.rec->nmoves == nwant;
            for (int k = 0; same && k < nwant; k++)
                same = shogi_move_equal(er.rec->moves[k].move, want[k]);
            as_events += same;
            if (!same)
                print_error("%s (%s): record differs from the events\n", gm->name,
                            sgen_fault_name(faults[f]));
            bool game = er.rec->nmoves == st.nmoves;
            for (int k = 0; game && k < st.nmoves; k++)
                game = shogi_move_equal(er.rec->moves[k].move, st.moves[k]);
            as_game += game;
            char *kif = shogi_event_record_kif(&er, &test_info);
            char *csa = shogi_event_record_csa(&er, &test_info);
            bool ok = check_back(&er, kif, false, gm->name) && check_back(&er, csa, true, gm->name);
            struct shogi_record *back = ok ? read_text(kif, "observed.kifu") : NULL;
            if (back) {
                noted += flag_lines(back);
                for (int k = 0; k < st.nexpect; k++) found += flag_noted(back, &st.expect[k]);
                expected += st.nexpect;
                if (flag_lines(back) != nflags) {
                    ok = false;
                    print_error("%s (%s): %d flags, %d in the KIF\n", gm->name,
                                sgen_fault_name(faults[f]), nflags, flag_lines(back));
                }
            }
            trips += ok;
            shogi_record_free(back);
            free(kif);
            free(csa);
            free(want);
            shogi_event_record_free(&er);
            sgen_stream_free(&st);
        }
    }
    tu_note("observed: %d streams of %d fixture games (faults restored): record = events %d, = "
            "game %d, KIF+CSA round trips %d; %d flags, %d flag comments read back; the faults' "
            "flags found %d/%d",
            streams, games, as_events, as_game, trips, flags, noted, found, expected);
    shogi_corpus_free(&corpus);
    assert_true(streams >= 40);
    assert_int_equal(as_events, streams);
    assert_int_equal(as_game, streams);
    assert_int_equal(found, expected);
    assert_int_equal(trips, streams);
    assert_int_equal(noted, flags);
}

/* ---- after a crash: the journal replayed ------------------------------------------------------
 */

/* The daemon journals every event before applying it; after a restart it replays the journal.
 * The record rebuilt from the journal is the same file, byte for byte. */
static void test_journal_replay(void **state)
{
    (void)state;
    char dir[64], path[128];
    snprintf(dir, sizeof dir, "/tmp/kifucam-shogirec-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/journal", dir);
    struct journal_log log;
    struct journal_error jerr;
    struct journal *j = journal_open(path, &log, &jerr);
    assert_non_null(j);
    journal_log_free(&log);

    struct shogi_record *src = read_fixture("nifu.kifu");
    struct shogi_event_record live;
    assert_true(shogi_event_record_init(&live, NULL));
    struct shogi_guard *g = shogi_guard_new(NULL, &shogi_rules_jsa);
    struct guard_event ev[GUARD_MAX_EVENTS];
    int64_t t = 5 * SEC;
    for (int k = 0; k < src->nmoves; k++) {
        t += move_ms(src, k) * 1000000;
        int n = shogi_guard_move(g, src->moves[k].move, t, 0, ev);
        for (int i = 0; i < n; i++) {
            assert_true(journal_append_event(j, &ev[i], &jerr) > 0);
            shogi_event_record_apply(&live, &ev[i]);
        }
        if (k == 5) { /* a take-back of ply 6, then the same move again */
            struct guard_event tb;
            guard_event_init(&tb, GUARD_MOVE, 5, t + SEC, 0);
            tb.reason = GUARD_REASON_TAKEBACK;
            snprintf(tb.text, sizeof tb.text, "back to the position after ply 5: the referee");
            assert_true(journal_append_event(j, &tb, &jerr) > 0);
            shogi_event_record_apply(&live, &tb);
            shogi_guard_free(g);
            g = shogi_guard_new(NULL, &shogi_rules_jsa);
            for (int i = 0; i < 6; i++) shogi_guard_move(g, src->moves[i].move, 0, 0, ev);
            assert_true(journal_append_event(j, &ev[0], &jerr) > 0); /* ply 6 again */
            shogi_event_record_apply(&live, &ev[0]);
        }
    }
    journal_close(j);

    struct shogi_event_record again;
    assert_true(shogi_event_record_init(&again, NULL));
    assert_int_equal(journal_read(path, &log, &jerr), 0);
    int replayed = 0;
    for (size_t i = 0; i < log.count; i++) {
        struct guard_event e;
        char rule[128];
        if (strcmp(log.entries[i].type, "EV") != 0) continue;
        assert_true(journal_decode_event(&log.entries[i], &e, rule, sizeof rule));
        shogi_event_record_apply(&again, &e);
        replayed++;
    }
    journal_log_free(&log);
    char *a = shogi_event_record_kif(&live, &test_info),
         *b = shogi_event_record_kif(&again, &test_info);
    assert_string_equal(a, b);
    assert_non_null(strstr(a, "TAKEBACK"));
    assert_non_null(strstr(a, "ILLEGAL_MOVE"));
    free(a);
    free(b);
    a = shogi_event_record_csa(&live, &test_info);
    b = shogi_event_record_csa(&again, &test_info);
    assert_string_equal(a, b);
    free(a);
    free(b);
    tu_note("journal: %d events replayed into the same KIF and CSA", replayed);
    assert_int_equal(shogi_event_record_moves(&again), src->nmoves);
    shogi_event_record_free(&live);
    shogi_event_record_free(&again);
    shogi_guard_free(g);
    shogi_record_free(src);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_games_round_trip),
        cmocka_unit_test(test_shared_games_round_trip),
        cmocka_unit_test(test_takeback_mid_game),
        cmocka_unit_test(test_flags_are_comments),
        cmocka_unit_test(test_doubt_is_a_comment),
        cmocka_unit_test(test_end_and_result),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_observed_games),
        cmocka_unit_test(test_journal_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

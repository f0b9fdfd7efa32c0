/* tests/record/test_shogi_records.c — shogi record readers and writers on real files: every file
 * parses, one game agrees across KIF/KI2/CSA/JKF, write -> read round trips keep the game, illegal
 * moves are kept and flagged at their ply with the board's reason, unreadable lines name the line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/shogi_record.h"
#include "tests/testutil.h"

static const char *const record_suffixes[] = {".kif", ".kifu", ".ki2", ".ki2u",
                                              ".csa", ".jkf",  ".usi", NULL};

static int read_path(const char *path, struct shogi_record ***out)
{
    struct shogi_record_error err = {0};
    int n = shogi_record_read_file(path, out, &err);
    if (n < 0) print_error("%s\n", err.message);
    return n;
}

/* ---- every file parses ------------------------------------------------------------------------
 */

struct corpus_count {
    int files, games, moves, illegal_games, failed;
    bool expect_legal;
};

static void parse_one(const char *path, void *ctx)
{
    struct corpus_count *c = ctx;
    struct shogi_record **v;
    int n = read_path(path, &v);
    c->files++;
    if (n < 1) {
        c->failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        c->games++;
        c->moves += v[i]->nmoves;
        if (v[i]->first_illegal) {
            c->illegal_games++;
            if (c->expect_legal)
                print_error("%s: unexpected illegal move at ply %d: %s\n", path,
                            v[i]->first_illegal, v[i]->nnotes ? v[i]->notes[0].text : "");
        }
    }
    shogi_records_free(v, n);
}

static void test_shared_corpus_parses(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("../shared/data absent: shared shogi-records corpus skipped");
        TU_SKIP();
    }
    struct corpus_count c = {.expect_legal = true};
    int files = tu_walk(tu_path(shared, "shogi-records"), record_suffixes, parse_one, &c);
    tu_note("shared shogi-records: %d files, %d games, %d moves, %d failed", files, c.games,
            c.moves, c.failed);
    assert_true(files >= 50);
    assert_int_equal(c.failed, 0);
    assert_int_equal(c.illegal_games, 0); /* Kifu for JS' files hold only legal moves */
}

static void test_fixtures_parse(void **state)
{
    (void)state;
    struct corpus_count c = {0};
    int files =
        tu_walk(tu_path(tu_fixtures_dir(), "shogi-records"), record_suffixes, parse_one, &c);
    tu_note("fixtures shogi-records: %d files, %d games, %d moves", files, c.games, c.moves);
    assert_true(files >= 20);
    assert_int_equal(c.failed, 0);
}

/* ---- the same game in every format ------------------------------------------------------------
 */

static struct shogi_record *read_one(const char *dir, const char *name)
{
    struct shogi_record **v;
    int n = read_path(tu_path(dir, name), &v);
    assert_true(n >= 1);
    struct shogi_record *r = v[0];
    for (int i = 1; i < n; i++) shogi_record_free(v[i]);
    free(v);
    return r;
}

static void same_game(const char *dir, const char *const *names, int expect_moves,
                      enum shogi_record_end expect_end)
{
    struct shogi_record *first = read_one(dir, names[0]);
    assert_int_equal(first->nmoves, expect_moves);
    assert_int_equal(first->end.kind, expect_end);
    for (int i = 1; names[i]; i++) {
        struct shogi_record *r = read_one(dir, names[i]);
        if (!shogi_record_same_moves(first, r))
            fail_msg("%s and %s disagree (%d vs %d moves)", names[0], names[i], first->nmoves,
                     r->nmoves);
        assert_int_equal(r->end.kind, expect_end);
        shogi_record_free(r);
    }
    shogi_record_free(first);
}

static void test_same_game_across_formats(void **state)
{
    (void)state;
    const char *fx = tu_path(tu_fixtures_dir(), "shogi-records");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", fx);
    same_game(dir, (const char *const[]){"8mai.kif", "8mai.ki2", "8mai.csa", NULL}, 25,
              SHOGI_REC_END_INTERRUPT);
    same_game(dir, (const char *const[]){"9fu.kif", "9fu.ki2", "9fu.csa", NULL}, 61,
              SHOGI_REC_END_MATE);
    same_game(dir, (const char *const[]){"chudan.kif", "chudan.ki2", "chudan.csa", NULL}, 3,
              SHOGI_REC_END_INTERRUPT);
    same_game(dir, (const char *const[]){"ryuou201409020101.kif", "ryuou201409020101.jkf", NULL},
              117, SHOGI_REC_END_RESIGN);
    same_game(dir, (const char *const[]){"illegal.kif", "illegal.ki2", "illegal_lose.csa", NULL}, 2,
              SHOGI_REC_END_ILLEGAL_LOSS);
    same_game(dir, (const char *const[]){"nifu.kifu", "nifu.ki2", NULL}, 9 + 1,
              SHOGI_REC_END_ILLEGAL_LOSS);

    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("../shared/data absent: only the fixture copies compared");
        return;
    }
    snprintf(dir, sizeof dir, "%s/shogi-records/kifu-for-js", shared);
    same_game(dir,
              (const char *const[]){"kif/8mai.kif", "ki2/8mai.ki2", "ki2/8mai.ki2u", "csa/8mai.csa",
                                    "csa/8mai_hirate.csa", NULL},
              25, SHOGI_REC_END_INTERRUPT);
    same_game(dir,
              (const char *const[]){"kif/9fu.kif", "ki2/9fu.ki2", "csa/9fu.csa",
                                    "csa/9fu_komabetsu.csa", NULL},
              61, SHOGI_REC_END_MATE);
    same_game(dir,
              (const char *const[]){"kif/chudan.kif", "ki2/chudan.ki2", "csa/chudan.csa",
                                    "kif/noeol.kif", "ki2/noeol.ki2", NULL},
              3, SHOGI_REC_END_INTERRUPT);
    same_game(dir,
              (const char *const[]){"kif/ryuou201409020101.kif", "jkf/ryuou201409020101.jkf", NULL},
              117, SHOGI_REC_END_RESIGN);
    same_game(dir, (const char *const[]){"kif/no_henka.kif", "kif/no_henka.kifu", NULL}, 11,
              SHOGI_REC_END_NONE);
    same_game(dir,
              (const char *const[]){"csa/example.csa", "csa/formal.csa", "csa/noeol.csa", NULL}, 2,
              SHOGI_REC_END_INTERRUPT);
    tu_note(
        "shared kifu-for-js: 8mai x5, 9fu x4, chudan x5, ryuou x2, no_henka x2, example x3 agree");
}

/* ---- round trips -------------------------------------------------------------------------------
 */

struct trip_count {
    int records, trips, failed;
};

/* Could this format say how the game ended? */
static bool end_survives(enum shogi_format f, enum shogi_record_end e)
{
    if (f == SHOGI_FORMAT_USI) return false;
    if (f == SHOGI_FORMAT_CSA) return e == SHOGI_REC_END_ILLEGAL_WIN || shogi_record_end_csa(e);
    if (f == SHOGI_FORMAT_JKF) return e == SHOGI_REC_END_ILLEGAL_WIN || shogi_record_end_jkf(e);
    return true;
}

static bool check_trip(const struct shogi_record *a, const char *text, enum shogi_format f,
                       const char *what, const char *path)
{
    struct shogi_record **v = NULL;
    struct shogi_record_error err = {0};
    char name[64];
    snprintf(name, sizeof name, "roundtrip.%s",
             f == SHOGI_FORMAT_KIF   ? "kif"
             : f == SHOGI_FORMAT_CSA ? "csa"
             : f == SHOGI_FORMAT_JKF ? "jkf"
                                     : "usi");
    int n = text ? shogi_record_read(text, strlen(text), name, &v, &err) : -1;
    bool ok = n == 1;
    if (!ok) {
        print_error("%s via %s: not read back: %s\n", path, what, err.message);
        shogi_records_free(v, n);
        return false;
    }
    const struct shogi_record *b = v[0];
    if (!shogi_record_same_moves(a, b))
        ok = false, print_error("%s via %s: moves differ\n", path, what);
    if (ok && end_survives(f, a->end.kind) && a->end.kind != b->end.kind)
        ok = false,
        print_error("%s via %s: end %d became %d\n", path, what, a->end.kind, b->end.kind);
    for (int i = 0; ok && i < a->nmoves && f != SHOGI_FORMAT_USI; i++) {
        int64_t ta = a->moves[i].time_ms, tb = b->moves[i].time_ms;
        if (ta >= 0 && (tb < 0 || ta / 1000 != tb / 1000))
            ok = false, print_error("%s via %s: time of ply %d differs\n", path, what, i + 1);
        if (a->moves[i].verdict.rule != b->moves[i].verdict.rule)
            ok = false, print_error("%s via %s: verdict of ply %d differs\n", path, what, i + 1);
    }
    if (ok && f != SHOGI_FORMAT_USI) {
        const char *pa = a->black ? a->black : "", *pb = b->black ? b->black : "";
        if (strcmp(pa, pb) != 0)
            ok = false, print_error("%s via %s: black player differs\n", path, what);
        if (f != SHOGI_FORMAT_CSA && (a->head_comment != NULL) != (b->head_comment != NULL))
            ok = false, print_error("%s via %s: head comment lost\n", path, what);
    }
    if (ok && f == SHOGI_FORMAT_KIF && a->nmoves &&
        ((a->moves[a->nmoves - 1].comment == NULL) != (b->moves[b->nmoves - 1].comment == NULL)))
        ok = false, print_error("%s via %s: last comment lost\n", path, what);
    shogi_records_free(v, n);
    return ok;
}

static void round_trip_one(const char *path, void *ctx)
{
    struct trip_count *c = ctx;
    struct shogi_record **v;
    int n = read_path(path, &v);
    if (n < 1) {
        c->failed++;
        return;
    }
    for (int i = 0; i < n; i++) {
        const struct shogi_record *r = v[i];
        c->records++;
        char *kif = shogi_kif_write(r, NULL);
        char *sjis = shogi_kif_write(r, "CP932");
        char *csa = shogi_csa_write(r);
        char *jkf = shogi_jkf_write(r);
        char *usi = shogi_usi_write(r);
        /* KIF gives no colour per move: a side moving twice cannot be written in it. */
        bool twice = false;
        for (int k = 0; k < r->nmoves; k++)
            twice |= r->moves[k].verdict.rule == SHOGI_ILLEGAL_OUT_OF_TURN;
        bool ok = (twice || (check_trip(r, kif, SHOGI_FORMAT_KIF, "KIF", path) &&
                             check_trip(r, sjis, SHOGI_FORMAT_KIF, "KIF Shift-JIS", path))) &&
                  check_trip(r, csa, SHOGI_FORMAT_CSA, "CSA", path) &&
                  check_trip(r, jkf, SHOGI_FORMAT_JKF, "JKF", path) &&
                  check_trip(r, usi, SHOGI_FORMAT_USI, "USI", path);
        /* Writing what was read back gives the same text: the writers are stable. */
        if (ok && !twice) {
            struct shogi_record **w;
            struct shogi_record_error err;
            int k = shogi_record_read(kif, strlen(kif), "again.kifu", &w, &err);
            char *kif2 = k == 1 ? shogi_kif_write(w[0], NULL) : NULL;
            if (!kif2 || strcmp(kif, kif2) != 0) {
                ok = false;
                print_error("%s: KIF written twice differs\n", path);
            }
            free(kif2);
            shogi_records_free(w, k);
        }
        c->trips += 5;
        if (!ok) c->failed++;
        free(kif);
        free(sjis);
        free(csa);
        free(jkf);
        free(usi);
    }
    shogi_records_free(v, n);
}

static void test_round_trips(void **state)
{
    (void)state;
    struct trip_count c = {0};
    tu_walk(tu_path(tu_fixtures_dir(), "shogi-records"), record_suffixes, round_trip_one, &c);
    const char *shared = tu_shared_data_dir();
    if (shared) tu_walk(tu_path(shared, "shogi-records"), record_suffixes, round_trip_one, &c);
    tu_note("round trips: %d records x (KIF, KIF Shift-JIS, CSA, JKF, USI) = %d, %d failed%s",
            c.records, c.trips, c.failed, shared ? "" : " (fixtures only)");
    assert_true(c.records >= 20);
    assert_int_equal(c.failed, 0);
}

/* ---- illegal moves ------------------------------------------------------------------------------
 */

static void expect_illegal(const struct shogi_record *r, int ply, enum shogi_illegal rule,
                           enum shogi_fault fault, const char *what)
{
    if (r->first_illegal != ply || r->moves[ply - 1].verdict.rule != rule ||
        (fault && r->moves[ply - 1].verdict.fault != fault))
        fail_msg(
            "%s: expected rule %d (fault %d) at ply %d, got first illegal ply %d rule %d fault %d",
            what, rule, fault, ply, r->first_illegal,
            r->first_illegal ? (int)r->moves[r->first_illegal - 1].verdict.rule : 0,
            r->first_illegal ? (int)r->moves[r->first_illegal - 1].verdict.fault : 0);
    /* The move stays in the record, and a note names its ply. */
    assert_true(r->nmoves >= ply);
    bool noted = false;
    for (int i = 0; i < r->nnotes; i++) noted |= r->notes[i].ply == ply;
    assert_true(noted);
}

static void test_illegal_moves_flagged(void **state)
{
    (void)state;
    const char *dir = tu_path(tu_fixtures_dir(), "shogi-records");
    char d[4096];
    snprintf(d, sizeof d, "%s", dir);
    struct shogi_record *r = read_one(d, "nifu.kifu");
    expect_illegal(r, 9, SHOGI_ILLEGAL_NIFU, SHOGI_FAULT_NIFU, "nifu.kifu");
    assert_int_equal(r->nmoves, 10); /* the game went on after the foul and is kept */
    assert_true(r->moves[8].played);
    assert_non_null(r->moves[8].comment);
    assert_int_equal(r->end.kind, SHOGI_REC_END_ILLEGAL_LOSS);
    shogi_record_free(r);

    r = read_one(d, "nifu.ki2");
    expect_illegal(r, 9, SHOGI_ILLEGAL_NIFU, SHOGI_FAULT_NIFU, "nifu.ki2");
    assert_true(shogi_move_is_drop(r->moves[8].move));
    shogi_record_free(r);

    r = read_one(d, "warp.kifu");
    expect_illegal(r, 3, SHOGI_ILLEGAL_IMPOSSIBLE, SHOGI_FAULT_JUMP, "warp.kifu");
    assert_int_equal(r->nmoves, 4);
    assert_int_equal(r->moves[3].verdict.rule, SHOGI_LEGAL); /* 同　銀 takes the bishop */
    shogi_record_free(r);

    r = read_one(d, "twice.csa");
    expect_illegal(r, 4, SHOGI_ILLEGAL_OUT_OF_TURN, 0, "twice.csa");
    assert_int_equal(r->moves[3].time_ms, 3000);
    shogi_record_free(r);

    struct shogi_record **v;
    int n = read_path(tu_path(d, "illegal-moves.usi"), &v);
    assert_int_equal(n, 5);
    expect_illegal(v[0], 3, SHOGI_ILLEGAL_IMPOSSIBLE, SHOGI_FAULT_JUMP, "usi 1 (jump)");
    expect_illegal(v[1], 9, SHOGI_ILLEGAL_NIFU, SHOGI_FAULT_NIFU, "usi 2 (nifu)");
    expect_illegal(v[2], 1, SHOGI_ILLEGAL_UCHIFUZUME, 0, "usi 3 (uchifuzume)");
    expect_illegal(v[3], 1, SHOGI_ILLEGAL_KING_IN_CHECK, SHOGI_FAULT_LEFT_IN_CHECK,
                   "usi 4 (check)");
    expect_illegal(v[4], 1, SHOGI_ILLEGAL_DEAD_PIECE, 0, "usi 5 (dead piece)");
    shogi_records_free(v, n);

    /* Kifu for JS' illegal files: the foul is a terminal move, every move itself legal. */
    r = read_one(d, "illegal_win.csa");
    assert_int_equal(r->first_illegal, 0);
    assert_int_equal(r->end.kind, SHOGI_REC_END_ILLEGAL_WIN);
    shogi_record_free(r);
    tu_note("illegal moves: nifu (KIF, KI2, USI), jump (KIF, USI), twice (CSA), uchifuzume, "
            "king left in check, dead piece: all at their ply with their rule");
}

/* ---- positions reached --------------------------------------------------------------------------
 */

static void test_mate_records_end_in_mate(void **state)
{
    (void)state;
    /* The 9fu problem ends in real mate; the 1967 problem ends in tsume mate, where the defender's
     * remaining replies are futile interpositions (無駄合) that tsume convention ignores. */
    const char *names[] = {"9fu.kif", "9fu.ki2", "9fu.csa", "kobayashi_kinsho196702.ki2"};
    char d[4096];
    snprintf(d, sizeof d, "%s", tu_path(tu_fixtures_dir(), "shogi-records"));
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct shogi_record *r = read_one(d, names[i]);
        assert_int_equal(r->first_illegal, 0);
        assert_int_equal(r->end.kind, SHOGI_REC_END_MATE);
        struct shogi_position pos;
        shogi_record_position(r, r->nmoves, &pos);
        assert_true(shogi_in_check(&pos));
        struct shogi_move replies[SHOGI_MAX_MOVES];
        int n = shogi_legal_moves(&pos, replies);
        if (i < 3) {
            if (n != 0) fail_msg("%s: the final position is not mate", names[i]);
        } else {
            for (int k = 0; k < n; k++) assert_true(shogi_move_is_drop(replies[k]));
        }
        shogi_record_free(r);
    }
}

/* ---- KI2 relative words ------------------------------------------------------------------------
 */

static struct shogi_record *ki2_text(const char *text)
{
    struct shogi_record_error err = {0};
    struct shogi_record *r = shogi_ki2_read(text, strlen(text), "inline.ki2", &err);
    if (!r) fail_msg("%s", err.message);
    return r;
}

static void test_ki2_relative_words(void **state)
{
    (void)state;
    /* Two golds can reach ５八 from ６九 and ４九: 左 is sente's left (file 6), 右 file 4. */
    struct shogi_record *r = ki2_text("▲５八金左");
    assert_int_equal(r->moves[0].move.from, shogi_sq(6, 9));
    shogi_record_free(r);
    r = ki2_text("▲５八金右");
    assert_int_equal(r->moves[0].move.from, shogi_sq(4, 9));
    shogi_record_free(r);
    /* Gote's right is file 9's side: △５二金右 is the gold on ６一. */
    r = ki2_text("▲７六歩 △５二金右");
    assert_int_equal(r->moves[1].move.from, shogi_sq(6, 1));
    shogi_record_free(r);
    /* After ▲５八金左 the golds on ５八 and ４九 both reach ４八: 直 is ４九's, 寄 is ５八's. */
    r = ki2_text("▲５八金左 △３四歩 ▲４八金直");
    assert_int_equal(r->moves[2].move.from, shogi_sq(4, 9));
    shogi_record_free(r);
    r = ki2_text("▲５八金左 △３四歩 ▲４八金寄");
    assert_int_equal(r->moves[2].move.from, shogi_sq(5, 8));
    assert_int_equal(r->first_illegal, 0);
    shogi_record_free(r);
    /* 成 and 不成: the bishop exchange, then the same capture without promotion. */
    r = ki2_text("▲７六歩 △３四歩 ▲２二角成 △同　銀");
    assert_true(r->moves[2].move.promote);
    assert_int_equal(r->moves[3].move.to, shogi_sq(2, 2));
    assert_int_equal(shogi_piece_type(r->moves[3].move.captured), SHOGI_HORSE);
    shogi_record_free(r);
    r = ki2_text("▲７六歩 △３四歩 ▲２二角不成");
    assert_false(r->moves[2].move.promote);
    assert_int_equal(r->first_illegal, 0);
    shogi_record_free(r);
}

/* ---- fuzzer findings ----------------------------------------------------------------------------
 */

/* The CSA text written from a record reads back as the same moves (what fuzz/fuzz_*.c check). */
static void assert_csa_trip(const struct shogi_record *r)
{
    char *csa = shogi_csa_write(r);
    struct shogi_record **v = NULL;
    struct shogi_record_error err;
    int n = shogi_csa_read(csa, strlen(csa), "trip.csa", &v, &err);
    assert_int_equal(n, 1);
    assert_true(shogi_record_same_moves(r, v[0]));
    shogi_records_free(v, n);
    free(csa);
}

static void test_fuzz_regressions(void **state)
{
    (void)state;
    struct shogi_record_error err;
    /* A KIF naming the wrong piece: the record keeps the piece that stood there (the knight on
     * 8九), the verdict says the written piece was wrong. */
    const char *kif = "手合割：平手\n   1 ２二角成(89)\n   2 同　銀(31)\n";
    struct shogi_record *r = shogi_kif_read(kif, strlen(kif), "wrong.kif", &err);
    assert_non_null(r);
    assert_int_equal(r->moves[0].verdict.fault, SHOGI_FAULT_WRONG_PIECE);
    assert_int_equal(shogi_piece_type(r->moves[0].move.piece), SHOGI_KNIGHT);
    assert_csa_trip(r);
    shogi_record_free(r);
    /* A promoted drop, from KI2 (角成 with no bishop on the board) and from CSA (+0055UM). */
    const char *ki2 = "▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲５五角成\n";
    r = shogi_ki2_read(ki2, strlen(ki2), "drop.ki2", &err);
    assert_non_null(r);
    assert_int_equal(r->first_illegal, 5);
    assert_int_equal(r->moves[4].verdict.fault, SHOGI_FAULT_PROMOTED_DROP);
    assert_csa_trip(r);
    shogi_record_free(r);
    const char *csa = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n+0055UM\n";
    struct shogi_record **v = NULL;
    assert_int_equal(shogi_csa_read(csa, strlen(csa), "drop.csa", &v, &err), 1);
    assert_int_equal(v[0]->moves[4].verdict.fault, SHOGI_FAULT_PROMOTED_DROP);
    assert_false(v[0]->moves[4].move.promote); /* the dropped piece is the horse itself */
    assert_int_equal(shogi_piece_type(v[0]->moves[4].move.piece), SHOGI_HORSE);
    shogi_records_free(v, 1);
}

/* ---- readers on bad input ----------------------------------------------------------------------
 */

static void test_errors_name_the_line(void **state)
{
    (void)state;
    struct shogi_record_error err = {0};
    const char *kif = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ＺＺ歩(33)\n";
    assert_null(shogi_kif_read(kif, strlen(kif), "bad.kif", &err));
    assert_int_equal(err.line, 4);
    assert_non_null(strstr(err.message, "bad.kif:4:"));

    struct shogi_record **v = NULL;
    const char *csa = "V2.2\nPI\n+\n+7776FU\n+77\n";
    assert_int_equal(shogi_csa_read(csa, strlen(csa), "bad.csa", &v, &err), -1);
    assert_non_null(strstr(err.message, "bad.csa:5:"));

    const char *jkf =
        "{\"moves\": [{}, {\"move\": {\"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\",\n"
        "  \"from\": {\"x\": 7, \"y\": 7}}}, ]}";
    assert_null(shogi_jkf_read(jkf, strlen(jkf), "bad.jkf", &err));
    assert_non_null(strstr(err.message, "bad.jkf:2:"));

    const char *usi = "position startpos moves 7g7f 3c3d\nposition startpos moves 7g7x\n";
    assert_int_equal(shogi_usi_read(usi, strlen(usi), "bad.usi", &v, &err), -1);
    assert_non_null(strstr(err.message, "bad.usi:2:"));

    const char *ki2 = "▲７六歩 △ＸＸ歩\n";
    assert_null(shogi_ki2_read(ki2, strlen(ki2), "bad.ki2", &err));
    assert_non_null(strstr(err.message, "bad.ki2:1:"));
}

/* ---- shared games -----------------------------------------------------------------------------
 */

static void test_lishogi_games_replay_clean(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("../shared/data absent: lishogi-400.usi skipped");
        TU_SKIP();
    }
    struct shogi_record **v;
    int n = read_path(tu_path(shared, "shogi-games/lishogi-400.usi"), &v);
    assert_int_equal(n, 400);
    int plies = 0, illegal = 0, trips_failed = 0;
    for (int i = 0; i < n; i++) {
        plies += v[i]->nmoves;
        if (v[i]->first_illegal) illegal++;
        /* Every game through KIF and CSA and back. */
        char *kif = shogi_kif_write(v[i], NULL), *csa = shogi_csa_write(v[i]);
        struct shogi_record **a = NULL, **b = NULL;
        struct shogi_record_error err;
        int ka = shogi_record_read(kif, strlen(kif), "x.kifu", &a, &err);
        int kb = shogi_record_read(csa, strlen(csa), "x.csa", &b, &err);
        if (ka != 1 || kb != 1 || !shogi_record_same_moves(v[i], a[0]) ||
            !shogi_record_same_moves(v[i], b[0]))
            trips_failed++;
        shogi_records_free(a, ka);
        shogi_records_free(b, kb);
        free(kif);
        free(csa);
    }
    tu_note("lishogi-400.usi: %d games, %d plies, %d with an illegal move, %d KIF/CSA round trips "
            "failed",
            n, plies, illegal, trips_failed);
    assert_int_equal(illegal, 0);
    assert_int_equal(trips_failed, 0);
    shogi_records_free(v, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures_parse),
        cmocka_unit_test(test_shared_corpus_parses),
        cmocka_unit_test(test_same_game_across_formats),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_illegal_moves_flagged),
        cmocka_unit_test(test_mate_records_end_in_mate),
        cmocka_unit_test(test_ki2_relative_words),
        cmocka_unit_test(test_fuzz_regressions),
        cmocka_unit_test(test_errors_name_the_line),
        cmocka_unit_test(test_lishogi_games_replay_clean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/render/test_render_shogi.c — `kifucam render` for shogi: a real game filmed frame by frame
 * must replay through the rules core (every change between two settled frames is the record's
 * next move, legal, found back from the board alone by shogi_infer_move, with the komadai
 * changing as the move says), faults on request must show exactly where the time line puts them,
 * the pieces must be in the picture where the truth says, and a seed must give the same bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "render/render.h"
#include "tests/testutil.h"

static struct shogi_record *load(const char *rel)
{
    struct shogi_record **games = NULL;
    struct shogi_record_error err = {0};
    const char *path = tu_path(tu_fixtures_dir(), rel);
    int n = shogi_record_read_file(path, &games, &err);
    if (n < 1) fail_msg("%s: %s", path, err.message);
    struct shogi_record *r = games[0];
    for (int i = 1; i < n; i++) shogi_record_free(games[i]);
    free(games);
    return r;
}

static struct render_opts opts(int w, int h, uint64_t seed, enum render_scenario sc, int moves)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = w;
    o.height = h;
    o.seed = seed;
    o.scenario = sc;
    o.max_moves = moves;
    o.bump_rate = 0.1;
    return o;
}

static void to_position(const struct render_shogi_frame *f, struct shogi_position *p)
{
    shogi_position_clear(p);
    memcpy(p->board, f->board, sizeof p->board);
    memcpy(p->hand, f->hand, sizeof p->hand);
    p->side = (uint8_t)f->side;
    shogi_position_refresh(p);
}

struct run_stats {
    int transitions, legal, fault_transitions, frames, hand_frames, faults_seen;
    int pocketed[2][SHOGI_HAND_TYPES];
    int wrong_way_sq;
};

/* Film the first `moves` moves and check every frame. Transitions between settled frames whose
 * window holds no fault event must be the record's move, legal and recovered from the board. */
static void run_game(const struct shogi_record *rec, const struct render_opts *o,
                     struct run_stats *st)
{
    char err[300] = "";
    struct render_shogi *r = render_shogi_open(rec, o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    memset(st, 0, sizeof *st);
    st->wrong_way_sq = -1;
    struct render_shogi_frame *f = malloc(sizeof *f);
    struct shogi_position settled;
    shogi_record_position(rec, 0, &settled);
    int settled_ply = 0, nf = render_shogi_frame_count(r), window_faults = 0;
    int n = o->max_moves > 0 && o->max_moves < rec->nmoves ? o->max_moves : rec->nmoves;
    for (int i = 0; i < nf; i++) {
        if (!render_shogi_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        st->frames++;
        for (int e = 0; e < f->nevents; e++) {
            if (strcmp(f->events[e].kind, "fault") != 0) continue;
            window_faults++;
            st->faults_seen++;
            const char *name = f->events[e].name;
            if (!strcmp(name, "wrong-way")) {
                /* the piece lies turned round at the very frame the time line says */
                int sq = f->events[e].sq;
                struct shogi_position want;
                shogi_record_position(rec, f->events[e].ply, &want);
                assert_int_equal(f->board[sq], want.board[sq] ^ 16);
                st->wrong_way_sq = sq;
            }
            if (!strcmp(name, "not-in-hand") || !strcmp(name, "hidden")) {
                int c = f->events[e].color;
                assert_true(c == 0 || c == 1);
                st->pocketed[c][0]++;
            }
        }
        /* hand truth = the drawn mask under each square's image position */
        bool any = false;
        for (int k = 0; k < f->width * f->height && !any; k++) any = f->hand_mask[k] != 0;
        assert_int_equal(f->hand_in_view, any);
        st->hand_frames += any;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            double u = f->sq_px[sq][0], v = f->sq_px[sq][1];
            bool in = u >= 0 && v >= 0 && u < f->width && v < f->height;
            assert_int_equal(f->covered[sq], in && f->hand_mask[(int)v * f->width + (int)u]);
        }
        if (!f->settled) continue;
        assert_false(f->hand_in_view);
        assert_int_equal(f->carried, 0);
        struct shogi_position now;
        to_position(f, &now);
        if (!memcmp(now.board, settled.board, sizeof now.board) &&
            !memcmp(now.hand, settled.hand, sizeof now.hand)) {
            window_faults = 0;
            continue;
        }
        st->transitions++;
        if (window_faults) {
            st->fault_transitions++;
        } else {
            /* exactly the record's next move, legal, and the rules core finds it from the board */
            assert_int_equal(f->ply, settled_ply + 1);
            struct shogi_move m;
            struct shogi_verdict v;
            assert_true(shogi_infer_move(&settled, f->board, &m, &v));
            assert_int_equal(v.rule, SHOGI_LEGAL);
            struct shogi_move want = rec->moves[f->ply - 1].move;
            assert_int_equal(m.from, want.from);
            assert_int_equal(m.to, want.to);
            assert_int_equal(m.promote, want.promote);
            struct shogi_position after = settled;
            shogi_do_move(&after, m);
            assert_memory_equal(after.hand, now.hand, sizeof now.hand);
            assert_int_equal(after.side, now.side);
            st->legal++;
        }
        settled = now;
        settled_ply = f->ply;
        window_faults = 0;
    }
    /* the last frame shows the record's position after the last move (faults aside) */
    assert_true(f->settled);
    assert_int_equal(f->ply, n);
    struct shogi_position final;
    shogi_record_position(rec, n, &final);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (sq == st->wrong_way_sq)
            assert_int_equal(f->board[sq], final.board[sq] ^ 16);
        else
            assert_int_equal(f->board[sq], final.board[sq]);
    for (int c = 0; c < 2; c++) {
        int missing = 0;
        for (int t = 1; t < SHOGI_HAND_TYPES; t++) {
            assert_true(f->hand[c][t] <= final.hand[c][t]);
            missing += final.hand[c][t] - f->hand[c][t];
        }
        assert_int_equal(missing, st->pocketed[c][0]); /* only the pocketed pieces are gone */
    }
    tu_note("seed %llu, %d moves: %d frames, %d hand frames, %d moves found back legal, %d fault "
            "transitions; %s",
            (unsigned long long)o->seed, n, nf, st->hand_frames, st->legal, st->fault_transitions,
            render_shogi_describe(r));
    free(f);
    render_shogi_close(r);
}

static void test_real_game_replays_through_rules_core(void **state)
{
    (void)state;
    struct shogi_record *rec = load("shogi-records/ryuou201409020101.kif");
    struct run_stats st;
    for (uint64_t seed = 1; seed <= TU_ASAN_LIGHT(2, 1); seed++) { /* ASan: memory, one seed */
        struct render_opts o = opts(160, 120, seed, RENDER_SCENE_MIXED, 40);
        run_game(rec, &o, &st);
        assert_int_equal(st.legal, 40); /* every move, none lost */
        assert_int_equal(st.fault_transitions, 0);
        assert_true(st.hand_frames > st.frames / 10);
    }
    shogi_record_free(rec);
    /* a record that starts from a set-up position with pieces in hand, and promotes */
    rec = load("shogi-records/9fu.kif");
    struct render_opts o = opts(160, 120, 4, RENDER_SCENE_PLAYER, 0);
    run_game(rec, &o, &st);
    assert_int_equal(st.legal, rec->nmoves);
    shogi_record_free(rec);
}

static void test_faults_where_the_time_line_says(void **state)
{
    (void)state;
    struct shogi_record *rec = load("shogi-records/ryuou201409020101.kif");
    unsigned faults = RENDER_FAULT_NOT_IN_HAND | RENDER_FAULT_HIDDEN | RENDER_FAULT_WRONG_WAY |
                      RENDER_FAULT_OPPONENT_PIECE | RENDER_FAULT_KNOCKED;
    for (uint64_t seed = 1; seed <= TU_ASAN_LIGHT(2, 1); seed++) {
        struct render_opts o = opts(160, 120, seed, RENDER_SCENE_MIXED, 60);
        o.faults = faults;
        o.bump_rate = 0;
        struct run_stats st;
        run_game(rec, &o, &st);
        /* five faults (+ the owner putting the moved piece back), each its own change or
         * folded into a move; the rest of the game still replays legally */
        tu_note("  faults seen: %d", st.faults_seen);
        assert_int_equal(st.faults_seen, 6);
        /* not-in-hand and wrong-way fold into their move; opponent-piece and its putting back,
         * hidden: changes of their own */
        assert_int_equal(st.fault_transitions, 5);
        assert_int_equal(st.legal, 60 - 2);
        assert_true(st.wrong_way_sq >= 0);
    }
    shogi_record_free(rec);
}

/* Local contrast of the picture around an image point: the ink of a piece face stands out
 * against the plainer board. */
static double contrast(const struct render_shogi_frame *f, double u, double v, int rad)
{
    double s = 0, s2 = 0;
    int n = 0;
    for (int y = (int)v - rad; y <= (int)v + rad; y++)
        for (int x = (int)u - rad; x <= (int)u + rad; x++) {
            if (x < 0 || y < 0 || x >= f->width || y >= f->height) continue;
            const uint8_t *p = f->rgb + ((size_t)y * f->width + x) * 3;
            double l = 0.3 * p[0] + 0.59 * p[1] + 0.11 * p[2];
            s += l;
            s2 += l * l;
            n++;
        }
    return n ? sqrt(fmax(0, s2 / n - (s / n) * (s / n))) : 0;
}

static void test_pieces_are_where_the_truth_says(void **state)
{
    (void)state;
    struct shogi_record *rec = load("shogi-records/ryuou201409020101.kif");
    char err[300];
    struct render_shogi_frame *f = malloc(sizeof *f);
    int right = 0, total = 0, rendered = 0;
    double worst = 1, secs = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        struct render_opts o =
            opts(640, 480, seed, seed % 2 ? RENDER_SCENE_OVERHEAD : RENDER_SCENE_PLAYER, 50);
        o.bump_rate = 0;
        struct render_shogi *r = render_shogi_open(rec, &o, err, sizeof err);
        assert_non_null(r);
        for (int ply = 10; ply <= 50; ply += 20) {
            int fi = render_shogi_find_frame(r, ply, false);
            assert_true(fi >= 0);
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            assert_true(render_shogi_frame(r, fi, f, err, sizeof err));
            clock_gettime(CLOCK_MONOTONIC, &t1);
            secs += (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
            rendered++;
            assert_true(f->settled);
            /* window: a fifth of the cell, from the distance between neighbouring centres */
            int c = shogi_sq(5, 5);
            double du = f->sq_px[c][0] - f->sq_px[shogi_sq(4, 5)][0],
                   dv = f->sq_px[c][1] - f->sq_px[shogi_sq(4, 5)][1];
            int rad = (int)fmax(2, 0.2 * sqrt(du * du + dv * dv));
            double occ[SHOGI_SQUARES], emp[SHOGI_SQUARES];
            int no = 0, ne = 0;
            for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
                double k = contrast(f, f->sq_px[sq][0], f->sq_px[sq][1], rad);
                if (f->board[sq])
                    occ[no++] = k;
                else
                    emp[ne++] = k;
            }
            /* threshold half-way between the two groups' means: every square must fall on
             * its side */
            double mo = 0, me = 0;
            for (int k = 0; k < no; k++) mo += occ[k] / no;
            for (int k = 0; k < ne; k++) me += emp[k] / ne;
            double th = (mo + me) / 2;
            int ok = 0;
            for (int k = 0; k < no; k++) ok += occ[k] > th;
            for (int k = 0; k < ne; k++) ok += emp[k] <= th;
            assert_true(mo > 2 * me);
            right += ok;
            total += no + ne;
            if ((double)ok / (no + ne) < worst) worst = (double)ok / (no + ne);
        }
        render_shogi_close(r);
    }
    tu_note("squares told occupied/empty from the pixels at the truth's cell centres: %d of %d "
            "(worst frame %.3f)",
            right, total, worst);
    assert_true(right * 100 >= total * 97);
    tu_note("render speed at 640x480 with 40 pieces: %.1f frames/s (%d frames, out of order)",
            rendered / secs, rendered);
    free(f);
    shogi_record_free(rec);
}

static char *truth_line(const struct render_shogi_frame *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    render_shogi_truth_write(m, f);
    fclose(m);
    return buf;
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    struct shogi_record *rec = load("shogi-records/ryuou201409020101.kif");
    struct render_opts o = opts(160, 120, 21, RENDER_SCENE_MIXED, 6);
    char err[300];
    struct render_shogi *a = render_shogi_open(rec, &o, err, sizeof err);
    struct render_shogi *b = render_shogi_open(rec, &o, err, sizeof err);
    o.seed = 22;
    struct render_shogi *c = render_shogi_open(rec, &o, err, sizeof err);
    assert_true(a && b && c);
    struct render_shogi_frame *fa = malloc(sizeof *fa), *fb = malloc(sizeof *fb);
    int n = render_shogi_frame_count(a);
    assert_int_equal(n, render_shogi_frame_count(b));
    for (int i = 0; i < n; i++) {
        assert_true(render_shogi_frame(a, i, fa, err, sizeof err));
        assert_true(render_shogi_frame(b, i, fb, err, sizeof err));
        char *la = truth_line(fa), *lb = truth_line(fb);
        assert_string_equal(la, lb);
        assert_memory_equal(fa->rgb, fb->rgb, (size_t)fa->width * fa->height * 3);
        free(la);
        free(lb);
    }
    assert_true(render_shogi_frame(c, 0, fb, err, sizeof err));
    assert_true(render_shogi_frame(a, 0, fa, err, sizeof err));
    assert_memory_not_equal(fa->rgb, fb->rgb, (size_t)fa->width * fa->height * 3);
    free(fa);
    free(fb);
    render_shogi_close(a);
    render_shogi_close(b);
    render_shogi_close(c);
    shogi_record_free(rec);
}

static void test_resign_signal_and_files(void **state)
{
    (void)state;
    struct shogi_record *rec = load("shogi-records/ryuou201409020101.kif");
    struct render_opts o = opts(160, 120, 5, RENDER_SCENE_OVERHEAD, 3);
    o.signals = RENDER_SIGNAL_RESIGN;
    o.jpeg_quality = 85;
    char dir[] = "/tmp/kifucam-render-shogi-XXXXXX", err[300] = "";
    assert_non_null(mkdtemp(dir));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int n = render_shogi_to_dir(rec, "ryuou.kif", &o, dir, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (n < 0) fail_msg("%s", err);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    tu_note("%d frames of 160x120 with JPEG files in %.2f s (%.0f frames/s)", n, s, n / s);
    char path[256];
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    size_t len;
    char *truth = tu_read_file(path, &len);
    assert_non_null(truth);
    int lines = 0;
    for (size_t i = 0; i < len; i++) lines += truth[i] == '\n';
    assert_int_equal(lines, n + 1);
    assert_non_null(strstr(truth, "\"game\":\"shogi\""));
    /* the start position as SFEN, and the resignation: a hand resting over the komadai of the
     * player to move (gote after three moves) */
    assert_non_null(strstr(truth, "\"sfen\":\"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"
                                  "LNSGKGSNL b - 1\""));
    const char *sig = strstr(truth, "\"type\":\"signal\",\"ply\":3,\"name\":\"resign\"");
    assert_non_null(sig);
    /* the hand is over gote's komadai some frames after the signal */
    const char *cov = strstr(sig, "\"komadai_covered\":[false,true]");
    assert_non_null(cov);
    free(truth);
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/frame_%06d.jpg", dir, i);
        assert_int_equal(unlink(path), 0);
    }
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    unlink(path);
    rmdir(dir);
    shogi_record_free(rec);
}

/* Many real games (the shared lishogi corpus, when present): the same replay check, small frames,
 * a different seed and so a different scene per game. */
/* The komadai stand on the table, the board on its own: a bump or a knock moves the board's grid
 * corners in the truth and leaves the komadai centres where they were; nothing else moves them,
 * and the board never comes over a komadai. */
static void test_komadai_stay_when_the_board_is_bumped(void **state)
{
    (void)state;
    struct shogi_record *rec = load("shogi-records/ryuou201409020101.kif");
    struct render_shogi_frame *f = malloc(sizeof *f);
    char err[300] = "";
    int bumps = 0, knocks = 0;
    double shift_sum = 0, shift_min = 1e9;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        struct render_opts o = opts(160, 120, seed, RENDER_SCENE_OVERHEAD, 40);
        o.faults = RENDER_FAULT_KNOCKED;
        o.bump_rate = 0.2;
        struct render_shogi *r = render_shogi_open(rec, &o, err, sizeof err);
        if (!r) fail_msg("%s", err);
        double last_c[4][2] = {{0}}, last_k[2][2] = {{0}};
        for (int i = 0; i < render_shogi_frame_count(r); i++) {
            assert_true(render_shogi_frame(r, i, f, err, sizeof err));
            char *line = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&line, &len);
            render_shogi_truth_write(m, f);
            fclose(m);
            double c[4][2], k[2][2];
            const char *pc = strstr(line, "\"corners\":["), *pk = strstr(line, "\"komadai\":[");
            assert_true(pc && pk);
            assert_int_equal(sscanf(pc, "\"corners\":[[%lf,%lf],[%lf,%lf],[%lf,%lf],[%lf,%lf]]",
                                    &c[0][0], &c[0][1], &c[1][0], &c[1][1], &c[2][0], &c[2][1],
                                    &c[3][0], &c[3][1]),
                             8);
            assert_int_equal(sscanf(pk, "\"komadai\":[[%lf,%lf],[%lf,%lf]]", &k[0][0], &k[0][1],
                                    &k[1][0], &k[1][1]),
                             4);
            free(line);
            bool bump = false, knock = false;
            for (int e = 0; e < f->nevents; e++) {
                bump = bump || !strcmp(f->events[e].kind, "bump");
                knock = knock || !strcmp(f->events[e].name, "knocked");
            }
            double moved = 0;
            for (int q = 0; q < 4; q++)
                moved = fmax(moved, hypot(c[q][0] - last_c[q][0], c[q][1] - last_c[q][1]));
            for (int q = 0; i > 0 && q < 2; q++) { /* the komadai never move */
                assert_true(fabs(k[q][0] - last_k[q][0]) < 1e-9);
                assert_true(fabs(k[q][1] - last_k[q][1]) < 1e-9);
            }
            if (i > 0 && bump) {
                assert_true(moved > 0.2); /* the board did move */
                bumps++;
                knocks += knock;
                shift_sum += moved;
                shift_min = fmin(shift_min, moved);
            } else if (i > 0) {
                assert_true(moved == 0);
            }
            /* each komadai centre lies outside the grid's quadrilateral (convex, same turn) */
            for (int q = 0; q < 2; q++) {
                bool inside = true;
                double sign = 0;
                for (int a = 0; a < 4; a++) {
                    int b = (a + 1) % 4;
                    double cr = (c[b][0] - c[a][0]) * (k[q][1] - c[a][1]) -
                                (c[b][1] - c[a][1]) * (k[q][0] - c[a][0]);
                    if (a == 0) sign = cr;
                    inside = inside && cr * sign > 0;
                }
                assert_false(inside);
            }
            memcpy(last_c, c, sizeof c);
            memcpy(last_k, k, sizeof k);
        }
        render_shogi_close(r);
    }
    tu_note("komadai still through %d bumps (%d knocks) in 4 renders; the grid's corners moved "
            "%.1f px on average (least %.1f) at 160x120",
            bumps, knocks, bumps ? shift_sum / bumps : 0, shift_min);
    assert_true(knocks == 4 && bumps > knocks);
    free(f);
    shogi_record_free(rec);
}

static void test_many_games_replay(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("../shared/data absent: many-games replay not run");
        TU_SKIP();
    }
    struct shogi_record **games = NULL;
    struct shogi_record_error err = {0};
    int n = shogi_record_read_file(tu_path(shared, "shogi-games/lishogi-400.usi"), &games, &err);
    if (n < 1) {
        tu_note("lishogi-400.usi not readable: %s", err.message);
        TU_SKIP();
    }
    int games_run = 0, moves = 0, faults = 0;
    for (int g = 0; g < n && games_run<TU_ASAN_LIGHT(12, 4); g += n / 12> 0 ? n / 12 : 1) {
        struct render_opts o = opts(96, 72, 1000 + (uint64_t)g, RENDER_SCENE_MIXED, 30);
        if (games_run % 2 == 0) /* half of them with every shogi fault */
            o.faults = RENDER_FAULT_NOT_IN_HAND | RENDER_FAULT_HIDDEN | RENDER_FAULT_WRONG_WAY |
                       RENDER_FAULT_OPPONENT_PIECE | RENDER_FAULT_KNOCKED;
        struct run_stats st;
        run_game(games[g], &o, &st);
        int want = games[g]->nmoves < 30 ? games[g]->nmoves : 30;
        assert_true(st.legal <= want && st.legal >= want - 2);
        moves += st.legal;
        faults += st.faults_seen;
        games_run++;
    }
    tu_note("%d games of the shared corpus: %d moves found back legal, %d fault events", games_run,
            moves, faults);
    shogi_records_free(games, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_game_replays_through_rules_core),
        cmocka_unit_test(test_faults_where_the_time_line_says),
        cmocka_unit_test(test_pieces_are_where_the_truth_says),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_resign_signal_and_files),
        cmocka_unit_test(test_komadai_stay_when_the_board_is_bumped),
        cmocka_unit_test(test_many_games_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

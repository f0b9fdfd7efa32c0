/* tests/render/test_render_go.c — `kifucam render` for Go: a real game filmed frame by frame
 * must keep to the rules core's positions (every settled frame, the final one, each move with its
 * captures taken off one by one), be identical for the same seed, and say truthfully where the
 * hand and the grid corners are. JPEG frames decode to the requested size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>
#include <unistd.h>

#include "render/render.h"
#include "tests/render/render_fixture.h"
#include "tests/testutil.h"

#define W 160
#define H 120

static struct render_opts small_opts(uint64_t seed, enum render_scenario sc)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = W;
    o.height = H;
    o.seed = seed;
    o.scenario = sc;
    o.bump_rate = 0.1;
    return o;
}

/* The rules core's position after each ply of the main line (setup included). */
struct replay {
    int nply;
    uint8_t (*pos)[GO_POINTS]; /* pos[k] after k plies */
    int *mover, *point;        /* of ply k (1-based) */
};

static void replay(const struct go_record *rec, struct replay *out)
{
    struct go_game *g = go_game_new(rec->width, rec->height, go_rules_find(rec->rules));
    assert_non_null(g);
    out->pos = calloc((size_t)rec->nnodes + 1, sizeof *out->pos);
    out->mover = calloc((size_t)rec->nnodes + 1, sizeof(int));
    out->point = calloc((size_t)rec->nnodes + 1, sizeof(int));
    out->nply = 0;
    for (int n = 0; n < rec->nnodes; n++) {
        for (int s = 0; s < rec->nodes[n].nsetup; s++)
            go_game_setup(g, rec->nodes[n].setup[s].color, rec->nodes[n].setup[s].point);
        if (rec->nodes[n].has_move) {
            go_game_play(g, rec->nodes[n].move);
            out->nply++;
            out->mover[out->nply] = rec->nodes[n].move.color;
            out->point[out->nply] = rec->nodes[n].move.point;
        }
        for (int p = 0; p < GO_POINTS; p++) out->pos[out->nply][p] = (uint8_t)go_game_at(g, p);
    }
    go_game_free(g);
}

static void replay_free(struct replay *r)
{
    free(r->pos);
    free(r->mover);
    free(r->point);
}

static char *truth_line(const struct render_frame *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    render_truth_write(m, f);
    fclose(m);
    return buf;
}

/* Plays the whole real game and checks every frame against the rules core. */
static void check_game(const char *rel, uint64_t seed, enum render_scenario sc, int *outside_seen,
                       int *covered_place_frames, int *place_frames)
{
    struct go_record *rec = rf_load_go(rel);
    struct replay rp;
    replay(rec, &rp);
    struct render_opts o = small_opts(seed, sc);
    char err[300] = "";
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int nf = render_go_frame_count(r), settled_ply = 0, removals_left = 0, last_remove_frame = -1;
    uint8_t settled[GO_POINTS];
    memcpy(settled, rp.pos[0], GO_POINTS);
    struct render_frame *f = malloc(sizeof *f);
    int multi_capture_frames = 0, hand_frames = 0;
    for (int i = 0; i < nf; i++) {
        if (!render_go_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        assert_true(f->ply >= settled_ply && f->ply <= settled_ply + 1);
        /* differs from the last settled position only by the move and its captures */
        for (int p = 0; p < GO_POINTS; p++) {
            if (f->stone[p] == settled[p]) continue;
            int k = settled_ply + 1;
            assert_int_equal(f->ply, k);
            if (p == rp.point[k])
                assert_int_equal(f->stone[p], rp.mover[k]);
            else /* a prisoner: on the board before the move, gone after it */
                assert_true(f->stone[p] == GO_EMPTY && rp.pos[k][p] == GO_EMPTY &&
                            rp.pos[k - 1][p] != GO_EMPTY);
        }
        for (int e = 0; e < f->nevents; e++) {
            if (!strcmp(f->events[e].kind, "place")) {
                removals_left = 0;
                for (int p = 0; p < GO_POINTS; p++)
                    removals_left +=
                        rp.pos[f->ply - 1][p] != GO_EMPTY && rp.pos[f->ply][p] == GO_EMPTY;
                (*place_frames)++;
                int px = go_x(f->events[e].point), py = go_y(f->events[e].point), near = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        if (px + dx >= 0 && py + dy >= 0 && px + dx < f->cols && py + dy < f->rows)
                            near += f->covered[go_point(px + dx, py + dy)];
                *covered_place_frames += near > 0;
            }
            if (!strcmp(f->events[e].kind, "remove")) {
                /* prisoners come off one per frame, never two at once */
                assert_true(i > last_remove_frame);
                if (last_remove_frame >= 0 && removals_left > 0) multi_capture_frames++;
                last_remove_frame = i;
                removals_left--;
            }
        }
        if (f->settled) {
            assert_false(f->hand_in_view);
            assert_memory_equal(f->stone, rp.pos[f->ply], GO_POINTS);
            memcpy(settled, f->stone, GO_POINTS);
            settled_ply = f->ply;
            last_remove_frame = -1;
        }
        /* hand truth = the drawn mask under each point's image position */
        bool any = false;
        for (int k = 0; k < W * H; k++) any = any || f->hand_mask[k];
        assert_int_equal(f->hand_in_view, any);
        hand_frames += any;
        for (int y = 0; y < f->rows; y++)
            for (int x = 0; x < f->cols; x++) {
                int p = go_point(x, y);
                double u = f->point_px[p][0], v = f->point_px[p][1];
                bool in = u >= 0 && v >= 0 && u < W && v < H;
                bool under = in && f->hand_mask[(int)v * W + (int)u];
                assert_int_equal(f->covered[p], under);
            }
        for (int k = 0; k < 4; k++) {
            bool in = f->corners[k][0] >= 0 && f->corners[k][0] < W && f->corners[k][1] >= 0 &&
                      f->corners[k][1] < H;
            assert_int_equal(f->corner_inside[k], in);
            if (!in) (*outside_seen)++;
        }
    }
    /* the last frame shows the rules core's final position, every move played */
    assert_true(f->settled);
    assert_int_equal(f->ply, rp.nply);
    assert_memory_equal(f->stone, rp.pos[rp.nply], GO_POINTS);
    assert_true(hand_frames > nf / 10); /* hands are in view for a good part of the game */
    tu_note("%s seed %llu: %d frames, %d plies, %d hand frames, %s", rel, (unsigned long long)seed,
            nf, rp.nply, hand_frames, render_go_describe(r));
    if (multi_capture_frames)
        tu_note("  %d later prisoners taken off in frames of their own", multi_capture_frames);
    free(f);
    render_go_close(r);
    replay_free(&rp);
    go_record_free(rec);
}

static void test_real_game_matches_rules_core(void **state)
{
    (void)state;
    int outside = 0, covered = 0, places = 0;
    check_game("go-check/gnugo-selfplay-tt/gg09_02050.sgf", 5, RENDER_SCENE_MIXED, &outside,
               &covered, &places);
    check_game("render/capture3.sgf", 9, RENDER_SCENE_PLAYER, &outside, &covered, &places);
    /* the fingers are on (or right beside) the point where the stone goes down */
    tu_note("hand over the placed point at %d of %d placements", covered, places);
    assert_true(covered * 10 >= places * 8);
}

static void test_captures_taken_off_one_by_one(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("render/capture3.sgf");
    struct render_opts o = small_opts(2, RENDER_SCENE_OVERHEAD);
    char err[300];
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    assert_non_null(r);
    struct render_frame *f = malloc(sizeof *f);
    int frames_with_remove = 0, place7 = -1, prev = -1, min_gap = 1000;
    for (int i = 0; i < render_go_frame_count(r); i++) {
        assert_true(render_go_frame(r, i, f, err, sizeof err));
        for (int e = 0; e < f->nevents; e++) {
            if (!strcmp(f->events[e].kind, "place") && f->events[e].ply == 7) place7 = i;
            if (!strcmp(f->events[e].kind, "remove")) {
                assert_int_equal(f->events[e].ply, 7);
                assert_true(place7 >= 0 && i > place7);
                frames_with_remove++;
                if (prev >= 0 && i - prev < min_gap) min_gap = i - prev;
                prev = i;
            }
        }
    }
    assert_int_equal(frames_with_remove, 3);
    assert_true(min_gap >= 3); /* several frames apart */
    free(f);
    render_go_close(r);
    go_record_free(rec);
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("go-check/gnugo-selfplay-tt/gg09_02050.sgf");
    struct render_opts o = small_opts(77, RENDER_SCENE_MIXED);
    o.max_moves = 6;
    char err[300];
    struct render_go *a = render_go_open(rec, &o, err, sizeof err);
    struct render_go *b = render_go_open(rec, &o, err, sizeof err);
    o.seed = 78;
    struct render_go *c = render_go_open(rec, &o, err, sizeof err);
    assert_true(a && b && c);
    struct render_frame *fa = malloc(sizeof *fa), *fb = malloc(sizeof *fb);
    int n = render_go_frame_count(a);
    assert_int_equal(n, render_go_frame_count(b));
    int hand_frame = -1;
    for (int i = 0; i < n; i++) {
        assert_true(render_go_frame(a, i, fa, err, sizeof err));
        assert_true(render_go_frame(b, i, fb, err, sizeof err));
        char *la = truth_line(fa), *lb = truth_line(fb);
        assert_string_equal(la, lb);
        assert_memory_equal(fa->rgb, fb->rgb, (size_t)W * H * 3);
        if (fa->hand_in_view && hand_frame < 0) hand_frame = i;
        free(la);
        free(lb);
    }
    assert_true(hand_frame >= 0);
    /* out of order gives the same frame too */
    assert_true(render_go_frame(b, hand_frame, fb, err, sizeof err));
    assert_true(render_go_frame(a, 0, fa, err, sizeof err));
    assert_true(render_go_frame(a, hand_frame, fa, err, sizeof err));
    assert_memory_equal(fa->rgb, fb->rgb, (size_t)W * H * 3);
    /* another seed gives another picture */
    assert_true(render_go_frame(c, 0, fb, err, sizeof err));
    assert_true(render_go_frame(a, 0, fa, err, sizeof err));
    assert_memory_not_equal(fa->rgb, fb->rgb, (size_t)W * H * 3);
    free(fa);
    free(fb);
    render_go_close(a);
    render_go_close(b);
    render_go_close(c);
    go_record_free(rec);
}

static void test_corners_follow_the_view(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("go-check/gnugo-selfplay-tt/gg09_02050.sgf");
    char err[300];
    struct render_frame *f = malloc(sizeof *f);
    int partial_out = 0, overhead_out = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        for (int pass = 0; pass < 2; pass++) {
            struct render_opts o =
                small_opts(seed, pass ? RENDER_SCENE_PARTIAL : RENDER_SCENE_OVERHEAD);
            o.max_moves = 1;
            struct render_go *r = render_go_open(rec, &o, err, sizeof err);
            assert_non_null(r);
            assert_true(render_go_frame(r, 0, f, err, sizeof err));
            int out = 0;
            for (int k = 0; k < 4; k++) out += !f->corner_inside[k];
            if (pass)
                partial_out += out > 0;
            else
                overhead_out += out;
            /* the grid is a convex quadrilateral in the image, corners in drawing order */
            double s = 0;
            for (int k = 0; k < 4; k++) {
                const double *p = f->corners[k], *q = f->corners[(k + 1) % 4];
                s += p[0] * q[1] - q[0] * p[1];
            }
            assert_true(s != 0);
            render_go_close(r);
        }
    }
    assert_int_equal(overhead_out, 0); /* overhead views show the whole grid */
    assert_true(partial_out >= 5);     /* partial views cut a corner off nearly always */
    free(f);
    go_record_free(rec);
}

static void test_files_and_jpeg(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("render/capture3.sgf");
    struct render_opts o = small_opts(3, RENDER_SCENE_MIXED);
    o.max_moves = 2;
    char dir[] = "/tmp/kifucam-render-XXXXXX", err[300] = "";
    assert_non_null(mkdtemp(dir));
    int n = render_go_to_dir(rec, "capture3.sgf", &o, dir, err, sizeof err);
    if (n < 0) fail_msg("%s", err);
    assert_true(n > 30);
    char path[256];
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    size_t len;
    char *truth = tu_read_file(path, &len);
    assert_non_null(truth);
    int lines = 0;
    for (size_t i = 0; i < len; i++) lines += truth[i] == '\n';
    assert_int_equal(lines, n + 1);
    assert_non_null(strstr(truth, "\"kind\":\"render\""));
    assert_non_null(strstr(truth, "\"type\":\"place\",\"ply\":2,\"point\":[0,0],\"color\":\"W\""));
    free(truth);
    snprintf(path, sizeof path, "%s/frame_%06d.jpg", dir, n - 1);
    char *jpg = tu_read_file(path, &len);
    assert_non_null(jpg);
    tjhandle tj = tjInitDecompress();
    int w = 0, h = 0, sub, cs;
    assert_int_equal(tjDecompressHeader3(tj, (unsigned char *)jpg, len, &w, &h, &sub, &cs), 0);
    assert_int_equal(w, W);
    assert_int_equal(h, H);
    tjDestroy(tj);
    free(jpg);
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/frame_%06d.jpg", dir, i);
        assert_int_equal(unlink(path), 0);
    }
    snprintf(path, sizeof path, "%s/truth.jsonl", dir);
    unlink(path);
    rmdir(dir);
    /* bad options are refused with a reason */
    o.width = 10;
    assert_null(render_go_open(rec, &o, err, sizeof err));
    assert_non_null(strstr(err, "frame size"));
    go_record_free(rec);
}

/* Faults on request: every change between two settled frames is the record's next move (its
 * stone and its prisoners) unless the time line names a fault in between, and then the change
 * is exactly that fault. */
static void test_faults_where_the_time_line_says(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("go-check/gnugo-selfplay-tt/gg09_02050.sgf");
    struct replay rp;
    replay(rec, &rp);
    char err[300];
    struct render_frame *f = malloc(sizeof *f);
    int seen[5] = {0}, verified[5] = {0};
    static const char *const names[5] = {"same-color", "moved-stone", "removed-stone",
                                         "captures-left", "knocked"};
    for (uint64_t seed = 1; seed <= TU_ASAN_LIGHT(2, 1); seed++) { /* ASan: memory, one seed */
        struct render_opts o = small_opts(seed, RENDER_SCENE_MIXED);
        o.bump_rate = 0;
        o.faults = RENDER_FAULT_SAME_COLOR | RENDER_FAULT_MOVED_STONE | RENDER_FAULT_REMOVED_STONE |
                   RENDER_FAULT_CAPTURES_LEFT | RENDER_FAULT_KNOCKED;
        struct render_go *r = render_go_open(rec, &o, err, sizeof err);
        assert_non_null(r);
        uint8_t settled[GO_POINTS];
        memcpy(settled, rp.pos[0], GO_POINTS);
        int settled_ply = 0, fault = -1, fault_point = -1, moves = 0;
        double knock = 0;
        for (int i = 0; i < render_go_frame_count(r); i++) {
            assert_true(render_go_frame(r, i, f, err, sizeof err));
            for (int e = 0; e < f->nevents; e++) {
                if (!strcmp(f->events[e].kind, "bump")) knock = fabs(f->events[e].dx_mm);
                if (strcmp(f->events[e].kind, "fault") != 0) continue;
                for (int k = 0; k < 5; k++)
                    if (!strcmp(f->events[e].name, names[k])) {
                        fault = k;
                        seen[k]++;
                    }
                fault_point = f->events[e].point;
            }
            if (fault == 4 && knock >= 12) { /* a knock: the board jumps, no stone changes */
                verified[4]++;
                fault = -1;
                knock = 0;
            }
            if (!f->settled || !memcmp(f->stone, settled, GO_POINTS)) continue;
            int changed[GO_POINTS], nc = 0;
            for (int p = 0; p < GO_POINTS; p++)
                if (f->stone[p] != settled[p]) changed[nc++] = p;
            int k = f->ply;
            for (int q = settled_ply + 1; q < k; q++) /* passes change nothing */
                assert_int_equal(rp.point[q], GO_PASS);
            if (fault < 0 || fault == 4) {
                /* the record's move k: exactly its stone and its prisoners */
                assert_true(k > settled_ply);
                for (int p = 0; p < GO_POINTS; p++)
                    if (rp.pos[k][p] != rp.pos[k - 1][p]) {
                        assert_int_equal(f->stone[p], rp.pos[k][p]);
                        assert_int_equal(settled[p], rp.pos[k - 1][p]);
                    } else {
                        assert_int_equal(f->stone[p], settled[p]);
                    }
                moves++;
            } else if (fault == 0) { /* one more stone of the colour that just moved */
                assert_int_equal(nc, 1);
                assert_int_equal(changed[0], fault_point);
                assert_int_equal(f->stone[changed[0]], rp.mover[settled_ply]);
                assert_int_equal(f->ply, settled_ply);
                verified[0]++;
            } else if (fault == 1) { /* a stone slid to a neighbouring point */
                assert_int_equal(nc, 2);
                int a = changed[0], b = changed[1];
                assert_int_equal(abs(go_x(a) - go_x(b)) + abs(go_y(a) - go_y(b)), 1);
                assert_int_equal(settled[a] | settled[b], f->stone[a] | f->stone[b]);
                assert_true((settled[a] == GO_EMPTY) != (settled[b] == GO_EMPTY));
                verified[1]++;
            } else if (fault == 2) { /* a stone taken off that nothing captured */
                assert_int_equal(nc, 1);
                assert_int_equal(changed[0], fault_point);
                assert_int_equal(f->stone[changed[0]], GO_EMPTY);
                verified[2]++;
            } else if (fault == 3) { /* the move's stone, but its prisoners stay */
                assert_int_equal(f->ply, k);
                assert_int_equal(nc, 1);
                assert_int_equal(changed[0], rp.point[k]);
                int prisoners = 0;
                for (int p = 0; p < GO_POINTS; p++)
                    prisoners += rp.pos[k - 1][p] != GO_EMPTY && rp.pos[k][p] == GO_EMPTY;
                assert_true(prisoners > 0);
                verified[3]++;
                moves++;
            }
            memcpy(settled, f->stone, GO_POINTS);
            settled_ply = f->ply;
            fault = -1;
        }
        assert_int_equal(f->ply, rp.nply); /* every move of the record was played */
        tu_note("seed %llu: %d moves seen as the record's, %d plies", (unsigned long long)seed,
                moves, rp.nply);
        render_go_close(r);
    }
    for (int k = 0; k < 5; k++) {
        tu_note("%s: injected %d times in 2 renders, effect checked %d times", names[k], seen[k],
                verified[k]);
        /* a fault is only injected where the rest of the game can go on as recorded, which
         * some renders cannot offer (a full 9x9 board leaves few points nothing plays later) */
        assert_true(seen[k] >= 1 && seen[k] <= 2);
        assert_int_equal(verified[k], seen[k]);
    }
    free(f);
    replay_free(&rp);
    go_record_free(rec);
}

/* Signals after the last move: a stone beside the board (pass), the opponent's colour beyond the
 * grid's lower right corner (end), two stones at once (resignation), the counting. */
static void test_signals(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("go-check/gnugo-selfplay-tt/gg09_02050.sgf");
    struct replay rp;
    replay(rec, &rp);
    char err[300];
    struct render_frame *f = malloc(sizeof *f);
    struct render_opts o = small_opts(6, RENDER_SCENE_OVERHEAD);
    o.bump_rate = 0;
    o.signals =
        RENDER_SIGNAL_PASS | RENDER_SIGNAL_END | RENDER_SIGNAL_RESIGN | RENDER_SIGNAL_COUNTING;
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    assert_non_null(r);
    int to_move = rp.mover[rp.nply] == GO_BLACK ? GO_WHITE : GO_BLACK;
    bool pass = false, end = false, resign = false, counting = false;
    int removed_after_count = 0;
    uint8_t last[GO_POINTS] = {0};
    for (int i = 0; i < render_go_frame_count(r); i++) {
        assert_true(render_go_frame(r, i, f, err, sizeof err));
        int places = 0;
        for (int e = 0; e < f->nevents; e++) {
            const struct render_event *ev = &f->events[e];
            places += !strcmp(ev->kind, "place");
            if (!strcmp(ev->kind, "remove") && counting) removed_after_count++;
            if (strcmp(ev->kind, "signal") != 0) continue;
            assert_int_equal(ev->ply, rp.nply); /* after the game's last move */
            if (!strcmp(ev->name, "pass")) {
                pass = true;
                /* a stone of the player to move now lies off the grid, outside the board */
                assert_int_equal(f->noff, 1);
                assert_int_equal(f->off_color[0], to_move);
            }
            if (!strcmp(ev->name, "end")) {
                end = true;
                assert_int_equal(f->noff, 2);
                assert_int_equal(f->off_color[1], to_move == GO_BLACK ? GO_WHITE : GO_BLACK);
                /* nearer the grid's lower right corner (cols-1, rows-1) than any other */
                double best = 1e30;
                int at = -1;
                for (int k = 0; k < 4; k++) {
                    double dx = f->off_px[1][0] - f->corners[k][0],
                           dy = f->off_px[1][1] - f->corners[k][1];
                    if (dx * dx + dy * dy < best) {
                        best = dx * dx + dy * dy;
                        at = k;
                    }
                }
                assert_int_equal(at, 2);
            }
            if (!strcmp(ev->name, "resign")) resign = true;
            if (!strcmp(ev->name, "counting")) counting = true;
        }
        if (resign && !counting && places) assert_int_equal(places, 2); /* two together */
        /* the counting (test_render_count.c) touches one stone at a time */
        int changed = 0;
        for (int p = 0; p < GO_POINTS; p++) changed += f->stone[p] != last[p];
        if (counting) assert_true(changed <= 1 && f->counting);
        memcpy(last, f->stone, GO_POINTS);
    }
    assert_true(pass && end && resign && counting);
    tu_note("signals: pass, end, resign shown; %d stones taken off when counting",
            removed_after_count);
    free(f);
    render_go_close(r);
    replay_free(&rp);
    go_record_free(rec);
}

/* The events of a time line and, per move, the longest still stretch (no hand at the board)
 * between its stone going down and the next one's. */
struct paced {
    int nev, nmoves, frames;
    struct {
        char kind[8];
        int point, ply;
    } ev[400];
    int still[200];
};

static void pace(const struct go_record *rec, double think, struct paced *out)
{
    struct render_opts o = small_opts(5, RENDER_SCENE_OVERHEAD);
    o.truth_only = true;
    o.bump_rate = 0;
    o.think_s = think;
    char err[300] = "";
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    memset(out, 0, sizeof *out);
    out->frames = render_go_frame_count(r);
    struct render_frame *f = malloc(sizeof *f);
    assert_non_null(f);
    int run = 0;
    for (int i = 0; i < out->frames; i++) {
        if (!render_go_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        for (int e = 0; e < f->nevents && out->nev < 400; e++) {
            snprintf(out->ev[out->nev].kind, sizeof out->ev[0].kind, "%s", f->events[e].kind);
            out->ev[out->nev].point = f->events[e].point;
            out->ev[out->nev++].ply = f->events[e].ply;
            if (!strcmp(f->events[e].kind, "place") && out->nmoves < 200) {
                out->nmoves++;
                run = 0;
            }
        }
        run = f->settled ? run + 1 : 0;
        if (out->nmoves && run > out->still[out->nmoves - 1]) out->still[out->nmoves - 1] = run;
    }
    free(f);
    render_go_close(r);
}

/* --think: the players rest between moves; the game itself (events, order) is the same */
static void test_thinking_stretches_the_rests(void **state)
{
    (void)state;
    struct go_record *rec = rf_load_go("go-check/gnugo-selfplay-tt/gg09_02050.sgf");
    static struct paced blitz, think;
    pace(rec, 0, &blitz);
    pace(rec, 2.0, &think);
    assert_int_equal(blitz.nev, think.nev);
    for (int k = 0; k < blitz.nev; k++) {
        assert_string_equal(blitz.ev[k].kind, think.ev[k].kind);
        assert_int_equal(blitz.ev[k].point, think.ev[k].point);
        assert_int_equal(blitz.ev[k].ply, think.ev[k].ply);
    }
    assert_true(blitz.nmoves > 20);
    /* 2 s a move at 30 fps: about 60 frames more per move (a log-normal mean, many draws) */
    double extra = (double)(think.frames - blitz.frames) / blitz.nmoves;
    assert_true(extra > 40 && extra < 80);
    int settle = 15, blitz_settles = 0, think_settles = 0; /* the settler's default 0.5 s */
    for (int k = 0; k < blitz.nmoves - 1; k++) {
        blitz_settles += blitz.still[k] >= settle;
        think_settles += think.still[k] >= settle;
    }
    tu_note("%d moves: %.1f frames more a move; a still 0.5 s after %d moves (blitz), %d (think)",
            blitz.nmoves, extra, blitz_settles, think_settles);
    assert_true(think_settles * 10 >= (blitz.nmoves - 1) * 9);
    go_record_free(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_game_matches_rules_core),
        cmocka_unit_test(test_captures_taken_off_one_by_one),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_corners_follow_the_view),
        cmocka_unit_test(test_files_and_jpeg),
        cmocka_unit_test(test_faults_where_the_time_line_says),
        cmocka_unit_test(test_signals),
        cmocka_unit_test(test_thinking_stretches_the_rests),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

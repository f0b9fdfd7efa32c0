/* tests/vision/test_shogi_live_faults.c — the referee's shogi faults end to end: rendered footage
 * with one fault injected (a captured piece never put on the komadai, a komadai piece hidden
 * later, a piece put down pointing the wrong way, an opponent's piece moved, the board knocked),
 * read by the shogi reader from the start position on, settled (both komadai read on settled views,
 * as the recorder does with komadai = true), judged by the shogi guard. Each
 * fault must be flagged with its kind (HIDDEN_PIECE; ILLEGAL_MOVE) near its move; a knock breaks
 * no rule and must pass without a flag. A table per fault and camera scenario: by default each
 * fault in one scenario (in turn), KIFUCAM_SHOGI_FAULT_ALL=1 in all four;
 * KIFUCAM_SHOGI_FAULT_GAMES=n games per fault and scenario (1); SHOGI_FAULT_KIND=name,
 * SHOGI_FAULT_SCENE=name: only those; SHOGI_FAULT_DEBUG=1: the guard's events. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard.h"
#include "tests/testutil.h"
#include "tests/vision/shogi_film.h"
#include "vision/shogi_read.h"

#define MOVES TU_ASAN_LIGHT(20, 12)

struct fault_kind {
    unsigned bit;
    const char *name;
    enum guard_kind want; /* GUARD_MOVE: no flag wanted */
};

static const struct fault_kind kinds[] = {
    {RENDER_FAULT_NOT_IN_HAND, "not-in-hand", GUARD_HIDDEN_PIECE},
    {RENDER_FAULT_HIDDEN, "hidden", GUARD_HIDDEN_PIECE},
    {RENDER_FAULT_WRONG_WAY, "wrong-way", GUARD_ILLEGAL_MOVE},
    {RENDER_FAULT_OPPONENT_PIECE, "opponent-piece", GUARD_ILLEGAL_MOVE},
    {RENDER_FAULT_KNOCKED, "knocked", GUARD_MOVE},
};

struct film {
    bool unplaced, started;
    int fault_ply, fault_frame;
    int nflags;
    struct {
        enum guard_kind kind;
        int ply, frame;
        char text[200]; /* as struct guard_event's */
    } flag[32];
    int moves, right; /* the record's moves filmed, and those accepted right in order */
};

static void take(struct film *fm, const struct guard_event *ev, int n, int frame,
                 struct shogi_move *got, int *ngot, bool debug)
{
    for (int k = 0; k < n; k++) {
        if (debug) {
            char u[6];
            fprintf(stderr, " %s %s", guard_kind_name(ev[k].kind),
                    shogi_move_to_usi(ev[k].shogi, u));
        }
        if (ev[k].kind == GUARD_MOVE && *ngot < 64) got[(*ngot)++] = ev[k].shogi;
        if (guard_is_flag(ev[k].kind) && fm->nflags < 32) {
            fm->flag[fm->nflags].kind = ev[k].kind;
            fm->flag[fm->nflags].ply = ev[k].ply;
            fm->flag[fm->nflags].frame = frame;
            snprintf(fm->flag[fm->nflags].text, sizeof fm->flag[0].text, "%s", ev[k].text);
            fm->nflags++;
        }
    }
}

static void film_game(const struct shogi_record *rec, const struct render_opts *o, bool debug,
                      struct film *fm)
{
    memset(fm, 0, sizeof *fm);
    char err[300] = "";
    struct render_shogi *r = render_shogi_open(rec, o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    struct render_summary sum;
    render_shogi_summary(r, &sum);
    if (o->faults & sum.faults_unplaced) {
        fm->unplaced = true;
        render_shogi_close(r);
        return;
    }
    struct render_shogi_frame *f = malloc(sizeof *f);
    uint8_t *g = malloc((size_t)SF_WIDTH * SF_HEIGHT);
    struct shogi_reader *rd = shogi_reader_new();
    struct settle_params sp;
    sf_settle_params(&sp);
    struct settler *st = settle_new(&sp);
    struct shogi_obs_guard *guard = shogi_obs_guard_new(NULL, NULL, true, NULL);
    struct observation *obs = malloc(sizeof *obs);
    struct stable_obs *stable = malloc(sizeof *stable);
    assert_true(f && g && rd && st && guard && obs && stable);
    struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    struct shogi_move got[64];
    int ngot = 0, frames = render_shogi_frame_count(r);
    fm->fault_ply = -1;
    for (int i = 0; i < frames; i++) {
        if (!render_shogi_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        for (int k = 0; k < f->nevents; k++)
            if (!strcmp(f->events[k].kind, "fault") && fm->fault_ply < 0) {
                fm->fault_ply = f->events[k].ply;
                fm->fault_frame = i;
                if (debug)
                    fprintf(stderr, "fault %s at frame %d ply %d: square %d, piece %d\n",
                            f->events[k].name, i, f->events[k].ply, f->events[k].sq,
                            f->events[k].piece);
            }
        struct vision_image img;
        sf_frame(f, g, &img);
        /* the daemon's way: try to start every tenth frame until it works */
        if (!fm->started && i % 10 == 0) fm->started = shogi_reader_start(rd, &img);
        if (!fm->started || !shogi_reader_observe(rd, &img, obs)) continue;
        if (!settle_push(st, obs, stable)) continue;
        shogi_reader_settled(rd, &stable->obs);
        /* the stands, read on settled views as the recorder does with komadai = true */
        shogi_reader_hands_within(rd, &img, &shogi_obs_guard_game(guard)->pos, stable->obs.hands);
        int n = shogi_obs_guard_observe_stable(guard, stable, ev);
        if (debug) {
            fprintf(stderr, "frame %d (truth ply %d):", i, f->ply);
            for (int c = 0; c < 2; c++) {
                const struct hand_obs *h = &stable->obs.hands[c];
                fprintf(stderr, " hand%d%s", c, h->visible ? "" : " hidden");
                for (int t = 0; t < 7 && h->visible; t++)
                    if (h->count[t] || f->hand[c][t + 1])
                        fprintf(stderr, " %d:%d/%d", t + 1, h->count[t], f->hand[c][t + 1]);
            }
            fprintf(stderr, ";");
            for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
                int p = (shogi_sq_rank(sq) - 1) * OBS_MAX + 9 - shogi_sq_file(sq);
                if (stable->obs.point[p] != f->board[sq] && !obs_out_of_view(&stable->obs, p))
                    fprintf(stderr, " %d%d read %d truth %d (conf %.2f)", shogi_sq_file(sq),
                            shogi_sq_rank(sq), stable->obs.point[p], f->board[sq],
                            stable->obs.conf[p]);
            }
        }
        take(fm, ev, n, i, got, &ngot, debug);
        if (debug) fprintf(stderr, "\n");
    }
    int n = shogi_obs_guard_flush(guard, (int64_t)(f->t * 1e9), ev);
    take(fm, ev, n, frames, got, &ngot, debug);
    fm->moves = rec->nmoves < o->max_moves ? rec->nmoves : o->max_moves;
    for (int k = 0; k < fm->moves && k < ngot; k++) {
        struct shogi_move a = got[k], b = rec->moves[k].move;
        fm->right += a.from == b.from && a.to == b.to && a.promote == b.promote;
    }
    free(stable);
    free(obs);
    shogi_obs_guard_free(guard);
    settle_free(st);
    shogi_reader_free(rd);
    free(g);
    free(f);
    render_shogi_close(r);
}

struct tally {
    int films, started, flagged, at_ply, other_flags, moves, right;
};

static void test_faults_live(void **state)
{
    (void)state;
    int ngames;
    struct shogi_record **games = sf_load_games(&ngames);
    const char *env = getenv("KIFUCAM_SHOGI_FAULT_GAMES");
    int per = env ? atoi(env) : 1;
    bool debug = getenv("SHOGI_FAULT_DEBUG") != NULL;
    bool every_scene = getenv("KIFUCAM_SHOGI_FAULT_ALL") != NULL;
    const char *only_kind = getenv("SHOGI_FAULT_KIND"), *only_scene = getenv("SHOGI_FAULT_SCENE");
    static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_DIM,
                                                  RENDER_SCENE_GLARE, RENDER_SCENE_PLAYER};
    const size_t nscenes = sizeof scenes / sizeof scenes[0];
    tu_note("%d game(s) per fault and scenario, up to %d moves, %d x %d", per, MOVES, SF_WIDTH,
            SF_HEIGHT);
    struct film *fm = malloc(sizeof *fm);
    assert_non_null(fm);
    int gi = 0, films = 0, flagged = 0, at_ply = 0;
    for (size_t f = 0; f < sizeof kinds / sizeof kinds[0]; f++) {
        struct tally all = {0};
        for (size_t s = 0; s < nscenes; s++) {
            if ((only_kind && strcmp(only_kind, kinds[f].name)) ||
                (only_scene && strcmp(only_scene, render_scenario_name(scenes[s]))) ||
                (!every_scene && !only_scene && s != f % nscenes))
                continue;
            struct tally t = {0};
            for (int k = 0, tries = 0; k < per && tries < ngames; tries++) {
                const struct shogi_record *rec = games[gi++ % ngames];
                if (rec->handicap != SHOGI_HC_EVEN || rec->nmoves < 10) continue;
                struct render_opts o;
                render_opts_default(&o);
                o.width = SF_WIDTH, o.height = SF_HEIGHT, o.scenario = scenes[s];
                o.max_moves = MOVES, o.seed = 1200 + (uint64_t)gi, o.faults = kinds[f].bit;
                film_game(rec, &o, debug, fm);
                if (fm->unplaced || fm->fault_ply < 0) continue;
                k++;
                t.films++;
                t.started += fm->started;
                /* the flag of the fault's kind nearest its move is the fault's; any other is
                   false */
                int best = -1, flag_ply = -1;
                for (int j = 0; j < fm->nflags; j++) {
                    if (fm->flag[j].kind != kinds[f].want) continue;
                    int dj = abs(fm->flag[j].ply - fm->fault_ply),
                        db = best < 0 ? 1 << 20 : abs(fm->flag[best].ply - fm->fault_ply);
                    if (dj < db) best = j;
                }
                bool hit = best >= 0, exact = false;
                if (hit) {
                    flag_ply = fm->flag[best].ply;
                    exact = flag_ply >= fm->fault_ply - 1 && flag_ply <= fm->fault_ply + 2;
                }
                int other = 0;
                for (int j = 0; j < fm->nflags; j++) {
                    if (j == best) continue;
                    other++;
                    tu_note("  %s %s seed %llu: other flag, frame %d ply %d %s: %s", kinds[f].name,
                            render_scenario_name(scenes[s]), (unsigned long long)o.seed,
                            fm->flag[j].frame, fm->flag[j].ply, guard_kind_name(fm->flag[j].kind),
                            fm->flag[j].text);
                }
                if (kinds[f].want == GUARD_MOVE) hit = exact = other == 0;
                if (!hit || !exact)
                    tu_note("  %s %s seed %llu: %s %d (fault at frame %d, ply %d)%s", kinds[f].name,
                            render_scenario_name(scenes[s]), (unsigned long long)o.seed,
                            hit ? "flagged at ply" : "not flagged", flag_ply, fm->fault_frame,
                            fm->fault_ply, fm->started ? "" : "; the start was never recognised");
                t.flagged += hit;
                t.at_ply += exact;
                t.other_flags += other;
                t.moves += fm->moves;
                t.right += fm->right;
            }
            tu_note("%-14s %-8s films %d (started %d): flagged %d (near its move %d), other flags "
                    "%d; moves right %d/%d",
                    kinds[f].name, render_scenario_name(scenes[s]), t.films, t.started, t.flagged,
                    t.at_ply, t.other_flags, t.right, t.moves);
            all.films += t.films, all.flagged += t.flagged, all.at_ply += t.at_ply;
        }
        films += all.films, flagged += all.flagged, at_ply += all.at_ply;
    }
    tu_note("all: films %d, fault flagged with its kind %d, near its move %d", films, flagged,
            at_ply);
    free(fm);
    shogi_records_free(games, ngames);
    if (only_kind || only_scene) return;
    assert_true(films >= 4);
    /* a floor under today's figure (one scenario per fault, 20 moves: 4 of 5 flagged with their
       kind near their move, with 4 false flags beside them; 28 moves: 3 of 5, 10 false flags; a
       piece put down the wrong way round is not seen: the tracked reader keeps a piece's owner) */
    assert_true(at_ply * 2 >= films);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_faults_live)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}

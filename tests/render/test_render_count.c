/* tests/render/test_render_count.c — the counting after a Go game (signal "counting"): real games
 * played out to the end, counted under area (Chinese) and territory (Japanese) rules. From its
 * first frame to the last the truth says "counting"; stones change one at a time and only under
 * a hand; the arranged position at the end, counted by board/ the way the rule set counts (with
 * the prisoners still in the lids under territory scoring), gives the same result as the game's
 * final position counted with its dead stones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "tests/render/render_fixture.h"
#include "tests/testutil.h"

#define W 96
#define H 72

/* The final position of rec's main line; *nply: plies played, *last_stone: the last ply that
 * put a stone down. */
static struct go_game *final_game(const struct go_record *rec, int *nply, int *last_stone)
{
    struct go_game *g = go_game_new(rec->width, rec->height, go_rules_find(rec->rules));
    assert_non_null(g);
    *nply = *last_stone = 0;
    for (int n = 0; n < rec->nnodes; n++) {
        for (int s = 0; s < rec->nodes[n].nsetup; s++)
            go_game_setup(g, rec->nodes[n].setup[s].color, rec->nodes[n].setup[s].point);
        if (rec->nodes[n].has_move) {
            go_game_play(g, rec->nodes[n].move);
            (*nply)++;
            if (rec->nodes[n].move.point >= 0) *last_stone = *nply;
        }
    }
    return g;
}

static int stones_of(const uint8_t *pos, enum go_color c)
{
    int n = 0;
    for (int p = 0; p < GO_POINTS; p++) n += pos[p] == c;
    return n;
}

/* Fully empty 2 x 5 or 5 x 2 blocks of pos (overlapping ones counted once each). */
static int empty_tens(const uint8_t *pos, int w, int h)
{
    int n = 0;
    for (int s = 0; s < 2; s++) {
        int bw = s ? 2 : 5, bh = s ? 5 : 2;
        for (int y = 0; y + bh <= h; y++)
            for (int x = 0; x + bw <= w; x++) {
                bool empty = true;
                for (int dy = 0; dy < bh && empty; dy++)
                    for (int dx = 0; dx < bw && empty; dx++)
                        empty = pos[go_point(x + dx, y + dy)] == GO_EMPTY;
                n += empty;
            }
    }
    return n;
}

struct tally {
    int games, changed, dead_taken, tens;
    int changed_min, changed_max, frames_min, frames_max; /* per render */
};

/* Films the counting of one game and checks it (every frame from the game's last move, or only
 * the last frame); adds to t. */
static void check_count(const char *rel, const char *rules, uint64_t seed, bool every,
                        struct tally *t)
{
    struct go_record *rec = rf_load_go(rel);
    free(rec->rules);
    rec->rules = strdup(rules);
    int nply, last_stone;
    struct go_game *g = final_game(rec, &nply, &last_stone);
    uint8_t dead[GO_POINTS], pos0[GO_POINTS];
    go_estimate_dead(g, dead, NULL);
    struct go_score before = go_game_count(g, dead);
    const struct go_rules *ru = go_game_rules(g);
    bool territory = ru->scoring == GO_SCORE_TERRITORY;
    /* the board once the dead are off and the dame filled, as board/'s count leaves it */
    int dame[GO_POINTS], ndead = 0;
    enum go_color dame_col[GO_POINTS];
    for (int p = 0; p < GO_POINTS; p++) {
        pos0[p] = dead[p] ? GO_EMPTY : (uint8_t)go_game_at(g, p);
        ndead += dead[p] && go_game_at(g, p) != GO_EMPTY;
    }
    if (ru->tax != GO_TAX_NONE)
        for (int i = 0, n = go_dame_fill(g, dead, dame, dame_col); i < n; i++)
            pos0[dame[i]] = (uint8_t)dame_col[i];

    struct render_opts o;
    render_opts_default(&o);
    o.width = W;
    o.height = H;
    o.seed = seed;
    o.scenario = RENDER_SCENE_OVERHEAD;
    o.bump_rate = 0;
    o.signals = RENDER_SIGNAL_COUNTING;
    char err[300] = "";
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    int nf = render_go_frame_count(r), start = render_go_find_frame(r, last_stone, false);
    assert_true(start > 0 && start < nf);
    struct render_frame *f = malloc(sizeof *f);
    uint8_t last[GO_POINTS];
    int mark = -1, changes = 0;
    for (int i = every ? start : nf - 1; i < nf; i++) {
        assert_true(render_go_frame(r, i, f, err, sizeof err));
        if (!every) break;
        for (int e = 0; e < f->nevents; e++)
            if (!strcmp(f->events[e].kind, "signal") && !strcmp(f->events[e].name, "counting"))
                mark = i;
        /* the phase begins with the signal and lasts to the end */
        assert_int_equal(f->counting, mark >= 0);
        if (i == start) { /* the game's last position, before any counting */
            assert_false(f->counting);
            for (int p = 0; p < GO_POINTS; p++) assert_int_equal(f->stone[p], go_game_at(g, p));
        } else {
            int changed = 0;
            for (int p = 0; p < GO_POINTS; p++) changed += f->stone[p] != last[p];
            assert_true(changed <= 1); /* one stone at a time */
            if (changed) {             /* by a hand, in the counting */
                assert_true(f->counting && f->hand_in_view && !f->settled);
                assert_int_equal(f->ply, nply);
            }
            changes += changed;
        }
        memcpy(last, f->stone, GO_POINTS);
    }
    int from = render_go_find_counting_frame(r, 0);
    assert_true(f->settled && f->counting && from > start);
    if (every) assert_int_equal(from, mark);
    assert_int_equal(render_go_find_counting_frame(r, 1), nf - 1);
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    render_truth_write(m, f);
    fclose(m);
    assert_non_null(strstr(line, "\"phase\":\"counting\""));
    free(line);

    /* the arranged position, counted by board/ the way the rule set counts */
    struct go_game *a = go_game_new(rec->width, rec->height, ru);
    go_game_set_handicap(a, go_game_handicap(g));
    int changed_from_pos0 = 0;
    for (int y = 0; y < rec->height; y++)
        for (int x = 0; x < rec->width; x++) {
            int p = go_point(x, y);
            if (f->stone[p]) go_game_setup(a, f->stone[p], p);
            changed_from_pos0 += f->stone[p] != pos0[p];
        }
    struct go_score after = go_game_count(a, NULL);
    double lids = 0;
    if (territory) { /* each player's prisoners went into the other's territory, or stayed */
        int put_by_black = stones_of(f->stone, GO_WHITE) - stones_of(pos0, GO_WHITE);
        int put_by_white = stones_of(f->stone, GO_BLACK) - stones_of(pos0, GO_BLACK);
        assert_true(put_by_black >= 0 && put_by_black <= before.prisoners[GO_BLACK]);
        assert_true(put_by_white >= 0 && put_by_white <= before.prisoners[GO_WHITE]);
        lids = (before.prisoners[GO_BLACK] - put_by_black) -
               (before.prisoners[GO_WHITE] - put_by_white);
    }
    assert_true(fabs(after.margin + lids - before.margin) < 1e-9);
    int tens = empty_tens(f->stone, rec->width, rec->height);
    if (every)
        tu_note("%s %s seed %llu: %s, %d dead taken off, %d points changed after that (%d frames "
                "of changes), %d empty 2x5 blocks",
                rel, rules, (unsigned long long)seed, before.result, ndead, changed_from_pos0,
                changes, tens);
    if (t->games == 0 || changed_from_pos0 < t->changed_min) t->changed_min = changed_from_pos0;
    if (t->games == 0 || changed_from_pos0 > t->changed_max) t->changed_max = changed_from_pos0;
    if (t->games == 0 || nf - from < t->frames_min) t->frames_min = nf - from;
    if (t->games == 0 || nf - from > t->frames_max) t->frames_max = nf - from;
    t->games++;
    t->changed += changed_from_pos0;
    t->dead_taken += ndead;
    t->tens += tens;
    go_game_free(a);
    free(f);
    render_go_close(r);
    go_game_free(g);
    go_record_free(rec);
}

static const char *const games[] = {"go-scoring/gg09_01000.sgf",
                                    "go-scoring/gg09_01003.sgf",
                                    "go-scoring/gg09_02027.sgf",
                                    "go-scoring/gg09_02044.sgf",
                                    "go-scoring/gg13_05000.sgf",
                                    "go-scoring/gg13_06038.sgf",
                                    "go-check/foxwq-pro/clean/7p/1425820399019999718.sgf"};
#define NGAMES (int)(sizeof games / sizeof games[0])
/* seeds per game over the many games (under AddressSanitizer one: it looks for memory faults) */
#define SEEDS TU_ASAN_LIGHT(3, 1)

static void test_area_counting_fills_territory(void **state)
{
    (void)state;
    struct tally t = {0};
    for (int k = 0; k < NGAMES; k++) check_count(games[k], "Chinese", 11 + (uint64_t)k, true, &t);
    /* area counting fills each territory from the bowl up to rectangles of ten */
    assert_true(t.changed >= 5 * t.games);
    assert_true(t.tens >= 1);
    tu_note("area: %d games, %d points changed, %d dead taken off, %d empty 2x5 blocks", t.games,
            t.changed, t.dead_taken, t.tens);
}

static void test_territory_counting_puts_prisoners_in(void **state)
{
    (void)state;
    struct tally t = {0};
    for (int k = 0; k < NGAMES; k++) check_count(games[k], "Japanese", 21 + (uint64_t)k, true, &t);
    /* dame filled, prisoners put in, the stones inside and the inner walls arranged */
    assert_true(t.changed >= 5 * t.games);
    tu_note("territory: %d games, %d points changed, %d dead taken off, %d empty 2x5 blocks",
            t.games, t.changed, t.dead_taken, t.tens);
}

/* Every played-out game of the scoring fixtures, both rule families, three seeds: the arranged
 * position always counts as the game did (the last frame only; the spread is reported). */
static void test_count_holds_over_many_games_and_seeds(void **state)
{
    (void)state;
    const char *dir = tu_path(tu_fixtures_dir(), "go-scoring");
    DIR *d = opendir(dir);
    assert_non_null(d);
    char names[64][64];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len < 40 && !strcmp(e->d_name + len - 4, ".sgf"))
            snprintf(names[n++], sizeof names[0], "go-scoring/%.40s", e->d_name);
    }
    closedir(d);
    assert_true(n >= 10);
    static const char *const rules[2] = {"Chinese", "Japanese"};
    for (int ru = 0; ru < 2; ru++) {
        struct tally t = {0};
        for (int k = 0; k < n; k++)
            for (uint64_t seed = 1; seed <= SEEDS; seed++)
                check_count(names[k], rules[ru], seed, false, &t);
        tu_note("%s: %d renders (%d games x %d seeds): points changed %d .. %d (mean %.1f), "
                "counting %d .. %d frames",
                rules[ru], t.games, n, SEEDS, t.changed_min, t.changed_max,
                (double)t.changed / t.games, t.frames_min, t.frames_max);
        assert_true(t.changed >= 5 * t.games);
    }
}

/* 19x19: real games played out to two passes (gnugo's regression games: a New Zealand, a
 * Japanese and an AGA game), counted under area and territory rules, last frame only. */
static void test_count_holds_on_19x19(void **state)
{
    (void)state;
    static const char *const big[] = {
        "go-check/gnugo-regression-games/dublin2.sgf",
        "go-check/gnugo-regression-games/FSGCBot-dr.sgf",
        "go-check/gnugo-regression-games/kgs/GnuGoCVS-john.sgf",
    };
    static const char *const rules[2] = {"Chinese", "Japanese"};
    for (int ru = 0; ru < 2; ru++) {
        struct tally t = {0};
        for (size_t k = 0; k < sizeof big / sizeof big[0]; k++)
            for (uint64_t seed = 1; seed <= TU_ASAN_LIGHT(2, 1); seed++)
                check_count(big[k], rules[ru], seed, false, &t);
        tu_note("19x19 %s: %d renders: points changed %d .. %d (mean %.1f), counting %d .. %d "
                "frames",
                rules[ru], t.games, t.changed_min, t.changed_max, (double)t.changed / t.games,
                t.frames_min, t.frames_max);
        assert_true(t.changed >= 5 * t.games);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_area_counting_fills_territory),
        cmocka_unit_test(test_territory_counting_puts_prisoners_in),
        cmocka_unit_test(test_count_holds_over_many_games_and_seeds),
        cmocka_unit_test(test_count_holds_on_19x19),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

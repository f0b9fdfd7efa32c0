/* tests/render/test_render_truth_replay.c — issue 5's acceptance check: every truth file
 * replays through the rules core without a flag, faults excepted, which must be where the time
 * line says (tests/render/truth_replay_*.c judge one render). Real games of Go 9x9, 13x13 and
 * 19x19 under several rule sets, handicap games among them, and shogi games (even and handicap),
 * from tests/fixtures always and from the shared data when it is there; every camera scenario
 * times every fault kind alone, a few together, and every signal. The renders are truth-only
 * (render_opts.truth_only: the same time line and truth code as a drawn frame, no pixels).
 * A table per game type gives scenario x fault: renders replayed, clean, marks where expected.
 * KIFUCAM_REPLAY_ALL=1 runs every game in every scenario (default: each game's configurations
 * go round two scenarios each); KIFUCAM_REPLAY_SHARED=N takes N games per kind from the shared
 * data (default 6 Go, 4 shogi). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "tests/render/render_fixture.h"
#include "tests/render/truth_replay.h"
#include "tests/testutil.h"

#define NSCEN (RENDER_SCENE_COUNT) /* mixed and the nine others */

struct config {
    const char *label;
    unsigned faults, signals;
};

static const struct config go_configs[] = {
    {"none", 0, 0},
    {"same", RENDER_FAULT_SAME_COLOR, 0},
    {"moved", RENDER_FAULT_MOVED_STONE, 0},
    {"removed", RENDER_FAULT_REMOVED_STONE, 0},
    {"caplft", RENDER_FAULT_CAPTURES_LEFT, 0},
    {"knock", RENDER_FAULT_KNOCKED, 0},
    {"all5", 0x1f, 0},
    {"s+r", RENDER_FAULT_SAME_COLOR | RENDER_FAULT_REMOVED_STONE, 0},
    {"m+c+k", RENDER_FAULT_MOVED_STONE | RENDER_FAULT_CAPTURES_LEFT | RENDER_FAULT_KNOCKED, 0},
    {"ko+sui", RENDER_FAULT_KO_RETAKEN | RENDER_FAULT_SUICIDE, 0},
    {"pass", 0, RENDER_SIGNAL_PASS},
    {"end", 0, RENDER_SIGNAL_END},
    {"resign", 0, RENDER_SIGNAL_RESIGN},
    {"count", 0, RENDER_SIGNAL_COUNTING},
    {"sig4", 0, 0xf},
    {"f5+s4", 0x1f, 0xf},
};
static const struct config shogi_configs[] = {
    {"none", 0, 0},
    {"nohand", RENDER_FAULT_NOT_IN_HAND, 0},
    {"hidden", RENDER_FAULT_HIDDEN, 0},
    {"wrong", RENDER_FAULT_WRONG_WAY, 0},
    {"opp", RENDER_FAULT_OPPONENT_PIECE, 0},
    {"knock", RENDER_FAULT_KNOCKED, 0},
    {"all5", 0x1f0 | RENDER_FAULT_KNOCKED, 0},
    {"n+h", RENDER_FAULT_NOT_IN_HAND | RENDER_FAULT_HIDDEN, 0},
    {"w+o+k", RENDER_FAULT_WRONG_WAY | RENDER_FAULT_OPPONENT_PIECE | RENDER_FAULT_KNOCKED, 0},
    {"resign", 0, RENDER_SIGNAL_RESIGN},
    {"f5+s", 0x1f0 | RENDER_FAULT_KNOCKED, RENDER_SIGNAL_RESIGN},
};
#define NGO  (int)(sizeof go_configs / sizeof go_configs[0])
#define NSH  (int)(sizeof shogi_configs / sizeof shogi_configs[0])
#define MAXC 16

struct cell {
    int renders, clean, marks, found;
};
struct table {
    const char *name;
    const struct config *cfg;
    int ncfg, games, skipped, out_of_view;
    struct cell cell[NSCEN][MAXC];
    int flags;
};

static bool env_all(void)
{
    const char *s = getenv("KIFUCAM_REPLAY_ALL");
    return s && *s && strcmp(s, "0") != 0;
}

/* Does game g run configuration c in scenario s? All of them with KIFUCAM_REPLAY_ALL; else two
 * scenarios per configuration, turning with the game so the games of a type cover the table. */
static bool runs(int g, int c, int s)
{
    if (env_all()) return true;
    int a = (g * 3 + c) % NSCEN;
    return s == a || s == (a + NSCEN / 2) % NSCEN;
}

static void count(struct table *t, int s, int c, const struct tr_result *res, const char *game)
{
    struct cell *cl = &t->cell[s][c];
    cl->renders++;
    cl->clean += res->flags == 0;
    cl->marks += res->marks;
    cl->found += res->marks_found;
    t->flags += res->flags;
    t->out_of_view += res->out_of_view;
    for (int k = 0; k < res->nnotes; k++)
        tu_note("FLAG %s %s/%s: %s", game, render_scenario_name((enum render_scenario)s),
                t->cfg[c].label, res->notes[k]);
}

static void print_table(const struct table *t)
{
    tu_note("%s: %d games replayed (%d skipped: the record itself breaks the rules), %d flags, "
            "%d signals out of the camera's view",
            t->name, t->games, t->skipped, t->flags, t->out_of_view);
    tu_note("  cell: renders replayed/clean, fault and signal events seen where the time line "
            "says/events");
    char line[512];
    int n = snprintf(line, sizeof line, "  %-9s", "");
    for (int c = 0; c < t->ncfg; c++)
        n += snprintf(line + n, sizeof line - n, " %11s", t->cfg[c].label);
    tu_note("%s", line);
    for (int s = 0; s < NSCEN; s++) {
        n = snprintf(line, sizeof line, "  %-9s", render_scenario_name((enum render_scenario)s));
        for (int c = 0; c < t->ncfg; c++) {
            const struct cell *cl = &t->cell[s][c];
            char cellbuf[32];
            if (cl->renders)
                snprintf(cellbuf, sizeof cellbuf, "%d/%d %d/%d", cl->renders, cl->clean, cl->found,
                         cl->marks);
            else
                snprintf(cellbuf, sizeof cellbuf, "-");
            n += snprintf(line + n, sizeof line - n, " %11s", cellbuf);
        }
        tu_note("%s", line);
    }
}

/* ---- Go ---------------------------------------------------------------------------------- */

struct go_game_spec {
    const char *rel;   /* under tests/fixtures */
    const char *rules; /* NULL: the record's own */
};

static const struct go_game_spec go_fixture_games[] = {
    {"go-check/gnugo-selfplay-tt/gg09_02050.sgf", NULL},
    {"go-check/gnugo-selfplay-tt/gg09_02050.sgf", "Japanese"},
    {"go-check/gnugo-regression-games/9x9-4.sgf", NULL},
    {"go-check/gnugo-regression-games/cgos/471085.sgf", NULL},
    {"daemon/handicap2-9x9.sgf", "AGA"},
    {"go-scoring/gg09_01003.sgf", "Korean"},
    {"go-check/gnugo-regression-games/mertin13x13/GMGN1.sgf", NULL},
    {"go-check/gnugo-selfplay-tt/gg13_06036.sgf", NULL},
    {"go-scoring/gg13_05001.sgf", "Tromp-Taylor"},
    {"go-check/gnugo-regression-games/dublin2.sgf", NULL},
    {"go-check/gnugo-regression-games/kgs/20040516-GoBucks-GnuGoCVS.sgf", NULL},
    {"go-check/foxwq-pro/clean/9p/1509435610010001281.sgf", NULL},
    {"go-check/gnugo-regression-games/tg-gg.sgf", "Ing"},
};

static struct table go_tables[3]; /* 9x9, 13x13, 19x19 */

static struct table *go_table_for(int size)
{
    int k = size <= 9 ? 0 : size <= 13 ? 1 : 2;
    static const char *const names[3] = {"Go 9x9", "Go 13x13", "Go 19x19"};
    go_tables[k].name = names[k];
    go_tables[k].cfg = go_configs;
    go_tables[k].ncfg = NGO;
    return &go_tables[k];
}

static void replay_go_game(struct go_record *rec, const char *label, int gi)
{
    struct table *t = go_table_for(rec->width);
    if (!tr_go_record_clean(rec)) {
        tu_note("%s (%s): the record itself breaks the rules, skipped", label,
                rec->rules ? rec->rules : "default rules");
        t->skipped++;
        return;
    }
    t->games++;
    int renders = 0, moves = 0, flags0 = t->flags;
    for (int c = 0; c < NGO; c++)
        for (int s = 0; s < NSCEN; s++) {
            if (!runs(gi, c, s)) continue;
            struct render_opts o;
            render_opts_default(&o);
            o.width = 320;
            o.height = 240;
            o.seed = 1000u * (unsigned)gi + 37u * (unsigned)c + (unsigned)s + 1;
            o.scenario = (enum render_scenario)s;
            o.bump_rate = 0.1;
            o.faults = go_configs[c].faults;
            o.signals = go_configs[c].signals;
            struct tr_result res;
            char err[300] = "";
            if (!tr_replay_go(rec, &o, &res, err, sizeof err)) fail_msg("%s: %s", label, err);
            count(t, s, c, &res, label);
            renders++;
            moves += res.moves;
        }
    tu_note("%s (%dx%d, %s, handicap %d): %d renders, %d moves replayed, %d flags", label,
            rec->width, rec->height, rec->rules ? rec->rules : "default rules", rec->handicap,
            renders, moves, t->flags - flags0);
}

static void set_rules(struct go_record *rec, const char *rules)
{
    if (!rules) return;
    free(rec->rules);
    rec->rules = strdup(rules);
}

struct shared_list {
    char **paths;
    int n, cap;
};

static void collect(const char *path, void *ctx)
{
    struct shared_list *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->paths = realloc(l->paths, sizeof *l->paths * (size_t)l->cap);
        assert_non_null(l->paths);
    }
    l->paths[l->n++] = strdup(path);
}

static int shared_count(int dflt)
{
    const char *s = getenv("KIFUCAM_REPLAY_SHARED");
    return s && *s ? atoi(s) : dflt;
}

static void test_go_truth_replays(void **state)
{
    (void)state;
    memset(go_tables, 0, sizeof go_tables);
    int gi = 0;
    for (size_t k = 0; k < sizeof go_fixture_games / sizeof go_fixture_games[0]; k++) {
        struct go_record *rec = rf_load_go(go_fixture_games[k].rel);
        set_rules(rec, go_fixture_games[k].rules);
        replay_go_game(rec, go_fixture_games[k].rel, gi++);
        go_record_free(rec);
    }
    const char *shared = tu_shared_data_dir();
    int want = shared_count(6);
    if (!shared || want <= 0) {
        tu_note("shared data: %s, no Go games from it", shared ? "not asked for" : "absent");
    } else {
        /* evenly spaced through the shared Go games, so every run takes the same ones */
        static const char *const sfx[] = {".sgf", NULL};
        struct shared_list l = {0};
        tu_walk(tu_path(shared, "go-games"), sfx, collect, &l);
        int taken = 0;
        for (int i = 0; i < want && l.n > 0; i++) {
            /* the i-th of want evenly spaced places, or the first usable game after it */
            for (int k = (int)((long)i * l.n / want), tries = 0; k < l.n && tries < 40;
                 k++, tries++) {
                struct go_record **games = NULL;
                struct sgf_error e = {0};
                int ng = sgf_read_file(l.paths[k], &games, &e);
                bool use = ng >= 1 && games[0]->width == games[0]->height &&
                           (games[0]->width == 9 || games[0]->width == 13 || games[0]->width == 19);
                if (use) {
                    replay_go_game(games[0], l.paths[k] + strlen(shared) + 1, gi++);
                    taken++;
                }
                for (int j = 0; j < ng; j++) go_record_free(games[j]);
                free(games);
                if (use) break;
            }
        }
        tu_note("shared data: %d Go games of %d taken (KIFUCAM_REPLAY_SHARED=%d)", taken, l.n,
                want);
        for (int i = 0; i < l.n; i++) free(l.paths[i]);
        free(l.paths);
    }
    int flags = 0;
    for (int k = 0; k < 3; k++) {
        print_table(&go_tables[k]);
        flags += go_tables[k].flags;
        assert_true(go_tables[k].games >= 2);
        for (int c = 0; c < NGO; c++) { /* every configuration ran, its events all seen */
            int renders = 0, marks = 0, found = 0;
            for (int s = 0; s < NSCEN; s++) {
                renders += go_tables[k].cell[s][c].renders;
                marks += go_tables[k].cell[s][c].marks;
                found += go_tables[k].cell[s][c].found;
            }
            assert_true(renders > 0);
            if (go_configs[c].faults || go_configs[c].signals) assert_true(marks > 0);
            assert_int_equal(found, marks);
        }
    }
    assert_int_equal(flags, 0);
}

/* ---- shogi ------------------------------------------------------------------------------- */

static const char *const shogi_fixture_games[] = {
    "shogi-records/ryuou201409020101.kif",
    "shogi-records/9fu.kif",
    "shogi-records/8mai.kif",
    "shogi-records/chudan.kif",
    "shogi-records/kobayashi_kinsho196702.ki2",
};

static struct table shogi_table;

static void replay_shogi_game(const struct shogi_record *rec, const char *label, int gi)
{
    struct table *t = &shogi_table;
    if (!tr_shogi_record_clean(rec) || rec->nmoves < 4) {
        tu_note("%s: the record itself breaks the rules (or is too short), skipped", label);
        t->skipped++;
        return;
    }
    t->games++;
    int renders = 0, moves = 0, flags0 = t->flags;
    for (int c = 0; c < NSH; c++)
        for (int s = 0; s < NSCEN; s++) {
            if (!runs(gi, c, s)) continue;
            struct render_opts o;
            render_opts_default(&o);
            o.width = 320;
            o.height = 240;
            o.seed = 1000u * (unsigned)gi + 37u * (unsigned)c + (unsigned)s + 1;
            o.scenario = (enum render_scenario)s;
            o.bump_rate = 0.1;
            o.faults = shogi_configs[c].faults;
            o.signals = shogi_configs[c].signals;
            struct tr_result res;
            char err[300] = "";
            if (!tr_replay_shogi(rec, &o, &res, err, sizeof err)) fail_msg("%s: %s", label, err);
            count(t, s, c, &res, label);
            renders++;
            moves += res.moves;
        }
    tu_note("%s (%d moves): %d renders, %d moves replayed, %d flags", label, rec->nmoves, renders,
            moves, t->flags - flags0);
}

static void test_shogi_truth_replays(void **state)
{
    (void)state;
    memset(&shogi_table, 0, sizeof shogi_table);
    shogi_table.name = "shogi";
    shogi_table.cfg = shogi_configs;
    shogi_table.ncfg = NSH;
    int gi = 0;
    for (size_t k = 0; k < sizeof shogi_fixture_games / sizeof shogi_fixture_games[0]; k++) {
        struct shogi_record **games = NULL;
        struct shogi_record_error e = {0};
        const char *path = tu_path(tu_fixtures_dir(), shogi_fixture_games[k]);
        int n = shogi_record_read_file(path, &games, &e);
        if (n < 1) fail_msg("%s: %s", path, e.message);
        replay_shogi_game(games[0], shogi_fixture_games[k], gi++);
        shogi_records_free(games, n);
    }
    const char *shared = tu_shared_data_dir();
    int want = shared_count(4);
    const char *usi = shared ? tu_path(shared, "shogi-games/lishogi-400.usi") : NULL;
    struct shogi_record **games = NULL;
    struct shogi_record_error e = {0};
    int n = usi && want > 0 ? shogi_record_read_file(usi, &games, &e) : -1;
    if (n < 1) {
        tu_note("shared data: %s, no shogi games from it", !shared     ? "absent"
                                                           : want <= 0 ? "not asked for"
                                                                       : "no lishogi-400.usi");
    } else {
        int taken = 0;
        for (int i = 0; i < want && i < n; i++) {
            char label[64];
            int k = (int)((long)i * n / want);
            snprintf(label, sizeof label, "shogi-games/lishogi-400.usi game %d", k + 1);
            replay_shogi_game(games[k], label, gi++);
            taken++;
        }
        tu_note("shared data: %d shogi games of %d taken", taken, n);
    }
    if (n >= 1) shogi_records_free(games, n);
    print_table(&shogi_table);
    assert_true(shogi_table.games >= 3);
    for (int c = 0; c < NSH; c++) {
        int renders = 0, marks = 0, found = 0;
        for (int s = 0; s < NSCEN; s++) {
            renders += shogi_table.cell[s][c].renders;
            marks += shogi_table.cell[s][c].marks;
            found += shogi_table.cell[s][c].found;
        }
        assert_true(renders > 0);
        if (shogi_configs[c].faults || shogi_configs[c].signals) assert_true(marks > 0);
        assert_int_equal(found, marks);
    }
    assert_int_equal(shogi_table.flags, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_truth_replays),
        cmocka_unit_test(test_shogi_truth_replays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

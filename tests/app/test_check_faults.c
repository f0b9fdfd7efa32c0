/* tests/app/test_check_faults.c — real games with one injected fault each (the generator is
 * go_faults.c): every fault is flagged at its ply with its kind, and nothing else is flagged.
 * Also real whole-board repetitions replayed under superko rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/check_go.h"
#include "tests/app/go_faults.h"
#include "tests/app/manifest.h"
#include "tests/testutil.h"

#define MAX_FLAGS 8

struct flags {
    int n;
    struct guard_event ev[MAX_FLAGS];
};

static void collect(const struct guard_event *e, void *arg)
{
    struct flags *f = arg;
    if (f->n < MAX_FLAGS) f->ev[f->n] = *e;
    f->n++;
}

struct fault_stats {
    int injected[FAULT_COUNT], caught[FAULT_COUNT], no_place[FAULT_COUNT], games, games_clean,
        base_flagged;
};

static struct go_record *read_first_game(const char *path)
{
    struct go_record **games = NULL;
    struct sgf_error err = {0};
    int n = sgf_read_file(path, &games, &err);
    if (n < 1) {
        free(games);
        return NULL;
    }
    for (int g = 1; g < n; g++) go_record_free(games[g]);
    struct go_record *r = games[0];
    free(games);
    return r;
}

static const struct go_rules *record_rules(const struct go_record *r)
{
    const struct go_rules *p = r->rules ? go_rules_find(r->rules) : NULL;
    return p ? p : go_rules_find("Japanese 1989");
}

/* Inject every fault kind into one clean game, or (all_kinds false) one fault: the kind `salt`
 * names, or the next kind that has a place in this game. Returns the number of mismatches. */
static int fault_game(const char *path, unsigned salt, bool all_kinds, struct fault_stats *st)
{
    struct go_record *r = read_first_game(path);
    if (!r) {
        printf("# unreadable %s\n", path);
        return 1;
    }
    int failures = 0;
    st->games++;
    bool done = false;
    for (int k = 0; k < FAULT_COUNT && !done; k++) {
        enum go_fault f =
            all_kinds ? (enum go_fault)k : (enum go_fault)((salt + (unsigned)k) % FAULT_COUNT);
        /* A move after the end is a fault where the end is final: Tromp-Taylor. Elsewhere two
         * passes stop the game and play may resume (Japanese 1989 Art. 9). */
        const struct go_rules *rules =
            f == FAULT_AFTER_END ? go_rules_find("Tromp-Taylor") : record_rules(r);
        struct rules_copy {
            struct go_rules r;
        } rc = {*rules};
        rc.r.komi = r->komi;
        struct flags base = {0};
        struct check_go_result res;
        check_go_record(r, rules, collect, &base, &res);
        if (base.n) {
            st->base_flagged++;
            continue;
        }
        if (all_kinds || k == 0) st->games_clean++;
        struct go_fault_result fr;
        if (!go_fault_inject(r, &rc.r, f, salt * 7919u + (unsigned)k, &fr)) {
            st->no_place[f]++;
            continue;
        }
        st->injected[f]++;
        done = !all_kinds;
        struct flags got = {0};
        check_go_record(fr.record, rules, collect, &got, &res);
        if (got.n == 1 && got.ev[0].ply == fr.ply && got.ev[0].kind == fr.kind) {
            st->caught[f]++;
        } else {
            failures++;
            printf("# %s: fault %s expected at ply %d as %s under %s; got %d flags", path,
                   go_fault_name(f), fr.ply, guard_kind_name(fr.kind), rules->name, got.n);
            for (int i = 0; i < got.n && i < MAX_FLAGS; i++)
                printf("; ply %d %s: %s", got.ev[i].ply, guard_kind_name(got.ev[i].kind),
                       got.ev[i].text);
            printf("\n");
        }
        go_record_free(fr.record);
    }
    go_record_free(r);
    return failures;
}

static void report(const char *label, const struct fault_stats *st)
{
    int inj = 0, caught = 0;
    for (int k = 0; k < FAULT_COUNT; k++) {
        inj += st->injected[k];
        caught += st->caught[k];
        tu_note("%s: %-9s injected %4d, flagged exactly %4d (no place in %d games)", label,
                go_fault_name(k), st->injected[k], st->caught[k], st->no_place[k]);
    }
    tu_note("%s: %d games, %d faults injected, %d flagged exactly at their ply (%d base games "
            "skipped: flagged before injection)",
            label, st->games, inj, caught, st->base_flagged);
}

static void test_fixture_faults(void **state)
{
    (void)state;
    const char *dir = tu_path(tu_fixtures_dir(), "go-check");
    char dirbuf[4096];
    snprintf(dirbuf, sizeof dirbuf, "%s", dir);
    struct manifest_row *rows;
    int n = manifest_read(tu_path(dirbuf, "manifest.csv"), &rows);
    assert_true(n > 0);
    struct fault_stats st = {0};
    int failures = 0;
    for (int i = 0; i < n; i++) {
        if (rows[i].events[0]) continue;
        char path[4700];
        snprintf(path, sizeof path, "%s/%s", dirbuf, rows[i].file);
        failures += fault_game(path, (unsigned)i, true, &st);
    }
    free(rows);
    report("fixtures/go-check", &st);
    int inj = 0;
    for (int k = 0; k < FAULT_COUNT; k++) {
        assert_true(st.injected[k] >= 5);
        inj += st.injected[k];
    }
    assert_true(inj >= 150);
    assert_int_equal(failures, 0);
}

struct walk_ctx {
    struct fault_stats *st;
    int failures, seen, limit;
};

static void fault_one(const char *path, void *arg)
{
    struct walk_ctx *c = arg;
    if (c->seen >= c->limit) return;
    c->failures += fault_game(path, (unsigned)c->seen, false, c->st);
    c->seen++;
}

static void test_shared_faults(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    if (!shared) {
        tu_note("../shared/data absent: fault injection ran on fixtures only");
        TU_SKIP();
    }
    char base[4096];
    snprintf(base, sizeof base, "%s", shared);
    static const char *const sets[] = {"go-games/foxwq-pro/clean", "go-games/gnugo-selfplay-tt"};
    static const int limits[] = {250, 100};
    static const char *const sfx[] = {".sgf", NULL};
    struct fault_stats st = {0};
    int failures = 0;
    for (size_t i = 0; i < 2; i++) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/%s", base, sets[i]);
        struct walk_ctx c = {&st, 0, 0, limits[i]};
        tu_walk(dir, sfx, fault_one, &c);
        failures += c.failures;
    }
    report("shared clean games, one fault each", &st);
    int inj = 0;
    for (int k = 0; k < FAULT_COUNT; k++) inj += st.injected[k];
    assert_true(inj >= 300);
    assert_int_equal(failures, 0);
}

/* Whole-board repetitions that real games contain: legal under simple ko, illegal under superko. */
static void test_real_repetitions_under_superko(void **state)
{
    (void)state;
    const char *shared = tu_shared_data_dir();
    const char *dirs[2] = {NULL, NULL};
    char fx[4096], sh[4096];
    snprintf(fx, sizeof fx, "%s", tu_path(tu_fixtures_dir(), "go-check"));
    dirs[0] = fx;
    if (shared) {
        snprintf(sh, sizeof sh, "%s/go-games/foxwq-pro", shared);
        dirs[1] = sh;
    }
    int games = 0, failures = 0, flagged_psk = 0, flagged_ssk = 0;
    for (int d = 0; d < 2 && dirs[d]; d++) {
        struct manifest_row *rows;
        int n = manifest_read(tu_path(dirs[d], "manifest.csv"), &rows);
        for (int i = 0; i < n; i++) {
            int prep = manifest_event(&rows[i], "positional_repeat");
            int srep = manifest_event(&rows[i], "situational_repeat");
            int ko = manifest_event(&rows[i], "simple_ko_violation");
            if (!prep) continue;
            /* Only games whose sole events are repetitions: the rest is checked elsewhere. */
            if (manifest_event(&rows[i], "occupied") ||
                manifest_event(&rows[i], "suicide_single") ||
                manifest_event(&rows[i], "suicide_multi") ||
                manifest_event(&rows[i], "same_colour_twice"))
                continue;
            char path[4300];
            snprintf(path, sizeof path, "%s/%s", dirs[d], rows[i].file);
            struct go_record *r = read_first_game(path);
            if (!r) continue;
            games++;
            struct flags psk = {0}, ssk = {0};
            struct check_go_result res;
            check_go_record(r, go_rules_find("Tromp-Taylor"), collect, &psk, &res);
            check_go_record(r, go_rules_find("AGA"), collect, &ssk, &res);
            flagged_psk += psk.n;
            flagged_ssk += ssk.n;
            bool ok = psk.n == prep && ssk.n == srep; /* a ko retake is a repeat too */
            for (int k = 0; k < psk.n && k < MAX_FLAGS; k++)
                ok = ok && psk.ev[k].kind == GUARD_ILLEGAL_MOVE;
            if (!ok) {
                failures++;
                printf("# %s: repeats %d/%d (positional/situational), ko %d: flagged %d under "
                       "Tromp-Taylor, %d under AGA\n",
                       rows[i].file, prep, srep, ko, psk.n, ssk.n);
            }
            go_record_free(r);
        }
        free(rows);
    }
    tu_note("real repetitions: %d games, %d superko flags under Tromp-Taylor, %d under AGA "
            "(situational)%s",
            games, flagged_psk, flagged_ssk, shared ? "" : "; fixtures only");
    assert_true(games >= 2);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_faults),
        cmocka_unit_test(test_shared_faults),
        cmocka_unit_test(test_real_repetitions_under_superko),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/ruleguard/test_go_observe_live.c — the Go observation guard as the daemon runs it: real
 * vision streams fed WITHOUT the end-of-stream flush. A doubtful but consistent stone answered by
 * the opponent must be recorded while the stream goes on, and a board swept clean must be flagged
 * within a few observations, not only when the stream ends. */
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

/* A stream replayed without flush: per observation index (1-based), the plies recorded so far and
 * the first observation that raised BOARD_DISTURBED after each sweep. */
struct live {
    int nobs;
    int ply_at[256];    /* the game's ply after observation i */
    int empty_from[16]; /* observations where a clean board follows a board with stones */
    int nsweeps;
    int disturbed_at[16]; /* the first BOARD_DISTURBED at or after each sweep, or 0 */
};

static bool board_empty(const struct observation *o)
{
    for (int y = 0; y < o->h; y++)
        for (int x = 0; x < o->w; x++)
            if (o->point[y * OBS_MAX + x] != OBS_EMPTY) return false;
    return true;
}

static void replay(const char *name, struct live *out)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = tu_read_file(tu_path(tu_fixtures_dir(), name), &len);
    assert_non_null(text);
    const char *cur = text;
    int line = 0;
    struct obs_stream_header hdr;
    struct obs_text_error err;
    assert_true(obs_text_header(&cur, &line, &hdr, &err));
    const struct go_rules *rules = go_rules_find(hdr.rules);
    assert_non_null(rules);
    struct go_obs_guard *g = go_obs_guard_new(hdr.w, hdr.h, rules, NULL);
    assert_non_null(g);
    static struct obs_item it;
    static struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    bool had_stones = false;
    int r;
    while ((r = obs_text_next(&cur, &line, &hdr, &it, &err)) == 1) {
        if (it.kind != OBS_ITEM_OBS) continue;
        int i = ++out->nobs;
        assert_true(i < 256);
        bool empty = board_empty(&it.obs);
        if (empty && had_stones && out->nsweeps < 16) out->empty_from[out->nsweeps++] = i;
        had_stones = !empty;
        int n = go_obs_guard_observe(g, &it.obs, ev);
        for (int k = 0; k < n; k++)
            if (ev[k].kind == GUARD_BOARD_DISTURBED)
                for (int s = 0; s < out->nsweeps; s++)
                    if (!out->disturbed_at[s]) out->disturbed_at[s] = i;
        out->ply_at[i] = go_game_ply(go_obs_guard_game(g));
    }
    assert_int_equal(r, 0);
    go_obs_guard_free(g);
    free(text);
}

/* The 11-move clip: the last two moves (W in doubt, then B) are recorded before the stream ends,
 * once the observations after them confirm them. */
static void test_clip_moves_recorded_live(void **state)
{
    (void)state;
    struct live lv;
    replay("obs/vision-clip.obs", &lv);
    tu_note("vision-clip.obs: %d observations, %d plies recorded without flush", lv.nobs,
            lv.ply_at[lv.nobs]);
    assert_int_equal(lv.ply_at[lv.nobs], 11);
    /* W B4 (read in doubt) counts as soon as B B5 answers it: the view before the last, where
       B5 is first read, already has ten plies */
    assert_int_equal(lv.ply_at[lv.nobs - 1], 10);
}

/* The clip looped: each sweep of the board is flagged within a few observations, although stones
 * come back at every observation (the game played again). */
static void test_loop_sweep_flagged_live(void **state)
{
    (void)state;
    struct live lv;
    replay("obs/vision-loop.obs", &lv);
    assert_true(lv.nsweeps >= 2);
    int worst = 0, best = 1 << 30;
    for (int s = 0; s < lv.nsweeps; s++) {
        /* the sweep at the very end of the stream has no observations left to be flagged in */
        if (lv.empty_from[s] + 4 > lv.nobs) continue;
        assert_true(lv.disturbed_at[s] > 0);
        int d = lv.disturbed_at[s] - lv.empty_from[s];
        if (d > worst) worst = d;
        if (d < best) best = d;
        assert_true(d <= 4);
    }
    tu_note("vision-loop.obs: %d observations, %d sweeps, BOARD_DISTURBED %d..%d observations "
            "after each",
            lv.nobs, lv.nsweeps, best, worst);
    /* W B4, read in doubt twice and answered by B B5 before the first sweep, counts; B5 itself,
       read once, cannot */
    int before = lv.ply_at[lv.empty_from[0] - 1];
    tu_note("plies recorded before the first sweep: %d", before);
    assert_int_equal(before, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clip_moves_recorded_live),
        cmocka_unit_test(test_loop_sweep_flagged_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

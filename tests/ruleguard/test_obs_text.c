/* tests/ruleguard/test_obs_text.c — an observation written to a daemon's log reads back as the
 * guard was given it: exact confidences (a washed-out point, a kind in doubt), a settled view's
 * frames and the times since its points have read so; a bad line is named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ruleguard/obs_text.h"

static struct obs_stream_header go_header(void)
{
    struct obs_stream_header h;
    memset(&h, 0, sizeof h);
    h.game = OBS_GAME_GO;
    h.w = h.h = 9;
    h.to_move = GO_EMPTY;
    return h;
}

/* Format it under hdr, parse it back into back. */
static void round_trip(const struct obs_stream_header *hdr, const struct obs_item *it,
                       struct obs_item *back)
{
    static char text[65536], head[1024];
    obs_text_format_header(hdr, head, sizeof head);
    size_t n = strlen(head);
    memcpy(text, head, n);
    size_t m = obs_text_format_item(hdr, it, text + n, sizeof text - n);
    assert_true(n + m < sizeof text);
    const char *cur = text;
    int line = 0;
    struct obs_stream_header h2;
    struct obs_text_error err = {0};
    assert_true(obs_text_header(&cur, &line, &h2, &err));
    int r = obs_text_next(&cur, &line, &h2, back, &err);
    if (r != 1) fail_msg("%d: %s\n%s", err.line, err.message, text);
}

static void test_go_exact(void **state)
{
    (void)state;
    struct obs_stream_header hdr = go_header();
    static struct obs_item it, back;
    memset(&it, 0, sizeof it);
    it.kind = OBS_ITEM_OBS;
    struct observation *o = &it.obs;
    o->t_ns = 90000000000LL;
    o->frame_seq = 2700;
    o->board_found = true;
    o->w = o->h = 9;
    for (int p = 0; p < OBS_POINTS; p++) o->conf[p] = 0.95f;
    o->point[0] = OBS_BLACK, o->conf[0] = 0.987f;
    o->conf[1] = OBS_WASHED_OUT_CONF;
    o->conf[2] = OBS_OUT_OF_VIEW_CONF;
    o->point[OBS_MAX + 3] = OBS_WHITE, o->conf[OBS_MAX + 3] = 0.8733f;
    o->occluded[5 * OBS_MAX + 5] = true, o->conf[5 * OBS_MAX + 5] = 0, o->noccluded = 1;
    it.stable = true;
    it.frames = 17;
    for (int p = 0; p < OBS_POINTS; p++) it.read_since_ns[p] = o->t_ns - 500000000;
    it.read_since_ns[OBS_MAX + 3] = o->t_ns - 1234567891;
    round_trip(&hdr, &it, &back);
    assert_true(back.stable);
    assert_int_equal(back.frames, 17);
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x;
            assert_int_equal(back.obs.point[p], o->point[p]);
            assert_true(back.obs.conf[p] == o->conf[p]); /* the very float */
            assert_int_equal(back.obs.occluded[p], o->occluded[p]);
            assert_true(back.read_since_ns[p] == it.read_since_ns[p]);
        }
    assert_true(obs_washed_out(&back.obs, 1));
    assert_true(obs_out_of_view(&back.obs, 2));
    struct stable_obs s;
    obs_item_stable(&back, &s);
    assert_int_equal(s.frames, 17);
    assert_true(s.read_since_ns[OBS_MAX + 3] == o->t_ns - 1234567891);
}

/* A stream written by hand (tests, the fixtures) keeps its classes: no conf or since lines. */
static void test_classes_stay_short(void **state)
{
    (void)state;
    struct obs_stream_header hdr = go_header();
    static struct obs_item it;
    memset(&it, 0, sizeof it);
    it.kind = OBS_ITEM_OBS;
    it.obs.board_found = true;
    for (int p = 0; p < OBS_POINTS; p++) it.obs.conf[p] = OBS_TEXT_CONF_SURE;
    it.obs.conf[4] = OBS_TEXT_CONF_DOUBT;
    char buf[4096];
    obs_text_format_item(&hdr, &it, buf, sizeof buf);
    assert_null(strstr(buf, "conf"));
    assert_null(strstr(buf, "since"));
    assert_null(strstr(buf, "stable"));
}

static void test_shogi_hand_conf(void **state)
{
    (void)state;
    struct obs_stream_header hdr;
    memset(&hdr, 0, sizeof hdr);
    hdr.game = OBS_GAME_SHOGI;
    hdr.w = hdr.h = 9;
    hdr.sente_bottom = true;
    static struct obs_item it, back;
    memset(&it, 0, sizeof it);
    it.kind = OBS_ITEM_OBS;
    it.obs.board_found = true;
    for (int p = 0; p < OBS_POINTS; p++) it.obs.conf[p] = 0.95f;
    it.obs.point[4] = (uint8_t)shogi_piece(SHOGI_GOTE, SHOGI_KING);
    it.obs.conf[4] = 0.85f; /* a kind in doubt: the guard tells 0.85 from 0.7 */
    it.obs.hands[SHOGI_SENTE] = (struct hand_obs){.visible = true, .conf = 0.62f};
    it.obs.hands[SHOGI_SENTE].count[SHOGI_PAWN - 1] = 2;
    it.stable = true;
    it.frames = 3;
    round_trip(&hdr, &it, &back);
    assert_true(back.obs.conf[4] == 0.85f);
    assert_true(back.obs.hands[SHOGI_SENTE].conf == 0.62f);
    assert_int_equal(back.obs.hands[SHOGI_SENTE].count[SHOGI_PAWN - 1], 2);
    assert_int_equal(back.frames, 3);
    assert_false(back.obs.hands[SHOGI_GOTE].visible);
}

/* Each bad line fails with its number. */
static void expect_error(const char *body, int line, const char *words)
{
    static char text[4096];
    snprintf(text, sizeof text, "kifucam-obs 1 go 9x9\n%s", body);
    const char *cur = text;
    int ln = 0;
    struct obs_stream_header h;
    struct obs_text_error err = {0};
    assert_true(obs_text_header(&cur, &ln, &h, &err));
    static struct obs_item it;
    int r = obs_text_next(&cur, &ln, &h, &it, &err);
    if (r != -1 || err.line != line || !strstr(err.message, words))
        fail_msg("got %d, line %d '%s'; wanted line %d '%s'", r, err.line, err.message, line,
                 words);
}

#define ROWS9                                                                                      \
    ".........\n.........\n.........\n.........\n.........\n.........\n.........\n.........\n...." \
    ".....\n"

static void test_errors(void **state)
{
    (void)state;
    expect_error("obs t=1 frames=3\n" ROWS9 "end\n", 2, "frames= without stable");
    expect_error("obs t=1 stable frames=0\n" ROWS9 "end\n", 2, "bad frames");
    expect_error("obs t=1\nconf 1 1 1 1 1 1 1 1 1 1\n" ROWS9 "end\n", 3, "before the board");
    expect_error("obs t=1\n" ROWS9 "since 1 0 0 0 0 0 0 0 0 0\nend\n", 12, "not stable");
    expect_error("obs t=1\n" ROWS9 "conf 1 0.9 0.9\nend\n", 12, "2 values, expected 9");
    expect_error("obs t=1\n" ROWS9 "conf 1 0.9 0.9 0.9 0.9 0.9 0.9 0.9 0.9 1.5\nend\n", 12,
                 "bad confidence");
    expect_error("obs t=1\n" ROWS9 "conf 10 1 1 1 1 1 1 1 1 1\nend\n", 12, "bad row number");
    expect_error("obs t=1 stable\n" ROWS9 "since 2 0 0 0 0 -5 0 0 0 0\nend\n", 12,
                 "bad time before t");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_exact),
        cmocka_unit_test(test_classes_stay_short),
        cmocka_unit_test(test_shogi_hand_conf),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* tests/vision/test_settle.c — the settler on streams of observations at 30 frames a second: a
 * view is said once it has held stable_s, said again every repeat_s while it holds, a flicker on a
 * doubtful point does not stop the repeat but a change on a sure one does, a hand over the board
 * ends the hold, a cover that does not move (a cup on the board) stops no view for long (a point
 * covered alone, sooner), a doubtful point flickering between two readings stops no view, and
 * the change mask is relative to the view said before; at the source's end, the view its last
 * still frames held is said though a cover there had not lain long (settle_finish). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "vision/vision.h"

#define FPS          30
#define NS_PER_FRAME (1000000000LL / FPS)

struct stream {
    struct settler *st;
    struct observation o;
    uint64_t seq;
    int said, repeats;
    int64_t said_t[64];
    struct stable_obs last;
};

static void stream_open(struct stream *s, const struct settle_params *p)
{
    memset(s, 0, sizeof *s);
    s->st = settle_new(p);
    assert_non_null(s->st);
    s->o.board_found = true;
    s->o.w = s->o.h = 9;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            s->o.point[y * OBS_MAX + x] = OBS_EMPTY;
            s->o.conf[y * OBS_MAX + x] = 0.97f;
        }
}

/* n frames of the current view */
static void frames(struct stream *s, int n)
{
    static struct stable_obs out;
    for (int i = 0; i < n; i++) {
        s->o.t_ns = (int64_t)s->seq * 1000000000LL / FPS;
        s->o.frame_seq = ++s->seq;
        if (settle_push(s->st, &s->o, &out)) {
            if (s->said < 64) s->said_t[s->said] = out.obs.t_ns;
            s->said++;
            s->repeats += out.repeat;
            s->last = out;
        }
    }
}

/* the defaults, said again every second: the timings below are read in whole seconds */
static struct settle_params each_second(void)
{
    struct settle_params p;
    settle_params_default(&p);
    p.repeat_s = 1.0;
    return p;
}

static void put(struct stream *s, int x, int y, uint8_t v, float conf)
{
    s->o.point[y * OBS_MAX + x] = v;
    s->o.conf[y * OBS_MAX + x] = conf;
}

static void test_still_view_is_said_again(void **state)
{
    (void)state;
    struct stream s;
    stream_open(&s, NULL);
    frames(&s, 14);
    assert_int_equal(s.said, 0); /* 13 frames apart: under 0.5 s */
    frames(&s, 2);
    assert_int_equal(s.said, 1);
    assert_true(s.last.first && !s.last.repeat);
    frames(&s, 30 * 3);
    /* said at 0.5 s, then every 0.5 s: at 1.0, 1.5 ... 3.5 s */
    assert_int_equal(s.said, 7);
    assert_int_equal(s.repeats, 6);
    assert_int_equal(s.last.nchanged, 0);
    assert_true(s.last.since_ns == 0); /* a repeat: when the view first held */
    for (int k = 1; k < s.said; k++)
        assert_true(llabs(s.said_t[k] - s.said_t[k - 1] - 500000000LL) <= NS_PER_FRAME);
    settle_free(s.st);
}

static void test_never_repeated_when_off(void **state)
{
    (void)state;
    struct settle_params p;
    settle_params_default(&p);
    p.repeat_s = 0;
    struct stream s;
    stream_open(&s, &p);
    frames(&s, 30 * 5);
    assert_int_equal(s.said, 1);
    put(&s, 4, 4, OBS_BLACK, 0.95f);
    frames(&s, 30 * 5);
    assert_int_equal(s.said, 2);
    assert_int_equal(s.repeats, 0);
    settle_free(s.st);
}

static void test_doubtful_flicker_keeps_the_hold(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    put(&s, 2, 3, OBS_WHITE, 0.6f);
    frames(&s, 20);
    assert_int_equal(s.said, 1);
    /* the doubtful point flickers every fourth frame: no run of identical frames lasts 0.5 s */
    for (int k = 0; k < 12; k++) {
        put(&s, 2, 3, OBS_EMPTY, 0.6f);
        frames(&s, 1);
        put(&s, 2, 3, OBS_WHITE, 0.6f);
        frames(&s, 3);
    }
    assert_int_equal(s.said, 2);
    assert_true(s.last.repeat);
    settle_free(s.st);
}

static void test_sure_change_ends_the_hold(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 20);
    assert_int_equal(s.said, 1);
    /* a stone surely read for a few frames then gone: a real change, not a flicker */
    put(&s, 5, 5, OBS_BLACK, 0.95f);
    frames(&s, 5);
    put(&s, 5, 5, OBS_EMPTY, 0.97f);
    frames(&s, 14);
    assert_int_equal(s.said, 1);
    /* back to the view said: it holds again from its new run, said 1 s after the last time */
    frames(&s, 15);
    assert_int_equal(s.said, 2);
    assert_true(s.last.repeat);
    /* a new stone that stays: a new view, its change mask against the one said before */
    put(&s, 6, 2, OBS_WHITE, 0.95f);
    frames(&s, 16);
    assert_int_equal(s.said, 3);
    assert_false(s.last.repeat);
    assert_int_equal(s.last.nchanged, 1);
    assert_true(s.last.changed[2 * OBS_MAX + 6]);
    settle_free(s.st);
}

static void test_hand_ends_the_hold(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    /* a hand for three seconds, moving over the board: nothing said */
    s.o.noccluded = 1;
    for (int k = 0; k < 30; k++) {
        int q = k % 2 ? 40 : 41;
        s.o.occluded[q] = true;
        frames(&s, 3);
        s.o.occluded[q] = false;
    }
    assert_int_equal(s.said, 1);
    s.o.noccluded = 0;
    frames(&s, 14);
    assert_int_equal(s.said, 1); /* the view must hold stable_s again */
    frames(&s, 2);
    assert_int_equal(s.said, 2); /* the same view, read afresh after the hand */
    assert_true(s.last.repeat);
    assert_int_equal(s.last.nchanged, 0);
    settle_free(s.st);
}

static void cover(struct stream *s, int x, int y, bool on)
{
    int p = y * OBS_MAX + x;
    s->o.noccluded += on - s->o.occluded[p];
    s->o.occluded[p] = on;
    s->o.point[p] = OBS_EMPTY;
    s->o.conf[p] = on ? 0 : 0.97f;
}

static void test_still_cover_is_no_hand(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    p.still_occlusion_s = 2.0;
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    /* a cup put down on the board's corner, and a new stone elsewhere */
    cover(&s, 0, 0, true);
    cover(&s, 1, 0, true);
    put(&s, 4, 4, OBS_BLACK, 0.95f);
    frames(&s, 59 + 15);
    assert_int_equal(s.said, 1); /* a hand, as far as anyone can tell yet */
    frames(&s, 2);
    /* covered two seconds without a break (no hand), then held the usual half second */
    assert_int_equal(s.said, 2);
    assert_true(s.last.obs.occluded[0] && s.last.obs.occluded[1]);
    assert_true(s.last.changed[4 * OBS_MAX + 4]);
    /* a hand passing over other points while the cup stays: nothing said under it */
    int said = s.said;
    for (int k = 0; k < 10; k++) {
        cover(&s, 5 + k % 3, 6, true);
        frames(&s, 2);
        cover(&s, 5 + k % 3, 6, false);
    }
    assert_int_equal(s.said, said);
    /* the hand gone, the next stone is said beside the cup at the settler's usual pace */
    put(&s, 2, 6, OBS_WHITE, 0.95f);
    frames(&s, 16);
    assert_int_equal(s.said, said + 1);
    assert_false(s.last.repeat);
    assert_true(s.last.changed[6 * OBS_MAX + 2]);
    settle_free(s.st);

    /* with still_occlusion_s 0 every view waits for a clear board */
    p.still_occlusion_s = 0;
    stream_open(&s, &p);
    cover(&s, 0, 0, true);
    frames(&s, 30 * 5);
    assert_int_equal(s.said, 0);
    settle_free(s.st);
}

/* A new stone read white at 0.83 but black at 0.75 one frame in four (a dim film's white stone):
 * before, no run of identical frames lasted 0.5 s and the view was never said. It is said, as read
 * most often, at the lowest confidence it was read so. */
static void test_flicker_is_said_as_read_most(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    for (int k = 0; k < 8; k++) {
        put(&s, 3, 5, OBS_BLACK, 0.75f);
        frames(&s, 1);
        put(&s, 3, 5, OBS_WHITE, 0.83f);
        frames(&s, 3);
    }
    assert_int_equal(s.said, 2);
    assert_false(s.last.repeat);
    assert_int_equal(s.last.obs.point[5 * OBS_MAX + 3], OBS_WHITE);
    assert_true(fabsf(s.last.obs.conf[5 * OBS_MAX + 3] - 0.83f) < 1e-6f);
    assert_true(s.last.changed[5 * OBS_MAX + 3]);
    settle_free(s.st);

    /* a sure reading that changes is no flicker: each change starts the run afresh */
    stream_open(&s, &p);
    frames(&s, 16);
    for (int k = 0; k < 12; k++) {
        put(&s, 3, 5, OBS_BLACK, 0.95f);
        frames(&s, 1);
        put(&s, 3, 5, OBS_WHITE, 0.95f);
        frames(&s, 3);
    }
    assert_int_equal(s.said, 1);
    settle_free(s.st);
}

/* A stone read black at 0.75 and empty at 1.0 in turn (a bumped board's stone, its grid a few
 * pixels off): one of the two readings is doubtful, so it is a flicker too. Before, no view
 * settled for 13 s and no move was recorded after the bump. The view is said, and the point,
 * whichever reading wins, is no sure one. */
static void test_flicker_against_a_sure_reading(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    for (int k = 0; k < 8; k++) {
        put(&s, 3, 5, OBS_BLACK, 0.75f);
        frames(&s, 2);
        put(&s, 3, 5, OBS_EMPTY, 1.0f);
        frames(&s, 2);
    }
    assert_true(s.said >= 2);
    assert_true(s.last.obs.conf[5 * OBS_MAX + 3] < p.hold_conf);
    settle_free(s.st);
}

/* A point covered alone (no neighbour covered: a reader's false cover on one stone) is still
 * after 0.5 s; a patch of covered points (a hand) after still_occlusion_s. */
static void test_lone_cover_is_still_sooner(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    put(&s, 6, 6, OBS_BLACK, 0.95f);
    cover(&s, 2, 2, true);
    frames(&s, 15 + 14);
    assert_int_equal(s.said, 1);
    frames(&s, 2);
    assert_int_equal(s.said, 2);
    assert_true(s.last.obs.occluded[2 * OBS_MAX + 2]);
    assert_true(s.last.changed[6 * OBS_MAX + 6]);
    settle_free(s.st);

    stream_open(&s, &p);
    frames(&s, 16);
    put(&s, 6, 6, OBS_BLACK, 0.95f);
    cover(&s, 2, 2, true);
    cover(&s, 3, 2, true);
    frames(&s, 60 + 14);
    assert_int_equal(s.said, 1);
    frames(&s, 2);
    assert_int_equal(s.said, 2);
    settle_free(s.st);
}

/* A sure stone at the board's edge read covered, alone, one or two frames in every three (a dim
 * fault film: no view settled after ply 21 and the last 15 s of moves were lost): a blip is no
 * hand, the point is read as it was, and the view with a new stone elsewhere is said with it. A
 * patch of covered points (a hand) is a cover from its first frame, as before. */
static void test_lone_blinking_cover_is_read_as_it_was(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    put(&s, 8, 4, OBS_BLACK, 0.98f);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    put(&s, 6, 6, OBS_WHITE, 0.95f);
    for (int k = 0; k < 12; k++) {
        cover(&s, 8, 4, true);
        frames(&s, 1 + k % 2);
        cover(&s, 8, 4, false);
        put(&s, 8, 4, OBS_BLACK, 0.98f);
        frames(&s, 2);
    }
    assert_true(s.said >= 2);
    assert_true(s.last.obs.point[6 * OBS_MAX + 6] == OBS_WHITE);
    assert_true(s.last.obs.point[4 * OBS_MAX + 8] == OBS_BLACK);
    assert_false(s.last.obs.occluded[4 * OBS_MAX + 8]);
    settle_free(s.st);

    /* the same blinks over two points side by side: a hand's edge, no view said */
    stream_open(&s, &p);
    put(&s, 8, 4, OBS_BLACK, 0.98f);
    frames(&s, 16);
    put(&s, 6, 6, OBS_WHITE, 0.95f);
    for (int k = 0; k < 12; k++) {
        cover(&s, 8, 4, true), cover(&s, 8, 5, true);
        frames(&s, 1 + k % 2);
        cover(&s, 8, 4, false), cover(&s, 8, 5, false);
        put(&s, 8, 4, OBS_BLACK, 0.98f);
        frames(&s, 2);
    }
    assert_int_equal(s.said, 1);
    settle_free(s.st);
}

/* A point beyond the picture's edge read out of view one frame and covered the next (a partial
 * view's clamped pixels that look like a stone), beside a point covered for good: no hand comes
 * and goes, the view settles once the cover has been still for still_occlusion_s (it never did:
 * each new cover restarted the point's time) */
static void test_out_of_view_flicker_is_no_hand(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    put(&s, 4, 4, OBS_BLACK, 0.95f);
    cover(&s, 7, 8, true);
    for (int k = 0; k < 5; k++) { /* 5 s: covered 0.67 s, out of view 0.33 s */
        cover(&s, 8, 8, true);
        frames(&s, 20);
        cover(&s, 8, 8, false);
        put(&s, 8, 8, OBS_EMPTY, OBS_OUT_OF_VIEW_CONF);
        frames(&s, 10);
    }
    assert_true(s.said >= 2); /* the new stone, then said again */
    assert_true(s.last.obs.point[4 * OBS_MAX + 4] == OBS_BLACK);
    settle_free(s.st);
}

/* Five seconds of a cover over three points (x,y), (x+1,y), (x,y+1) that lifts for two frames in
 * every fifteen; while it is lifted (x,y) reads v (the others empty). */
static void flickering_cover(struct stream *s, int x, int y, uint8_t v)
{
    for (int k = 0; k < 10; k++) {
        cover(s, x, y, true), cover(s, x + 1, y, true), cover(s, x, y + 1, true);
        frames(s, 13);
        cover(s, x, y, false), cover(s, x + 1, y, false), cover(s, x, y + 1, false);
        put(s, x, y, v, 0.95f);
        frames(s, 2);
    }
}

/* A reader's false cover over three empty points at the board's corner that breaks for a frame
 * or two in most half-seconds (a side film in glare after a bump: the cover never lay 2 s without
 * a break, no view settled for 11 s and fourteen changes came at once): the cover runs on through
 * breaks under COVER_BREAK_S while the points stay covered in most frames, and the view with a
 * new stone elsewhere is said. */
static void test_flickering_false_cover_is_still(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    put(&s, 6, 6, OBS_BLACK, 0.95f);
    flickering_cover(&s, 0, 0, OBS_EMPTY);
    assert_true(s.said >= 2);
    assert_true(s.last.obs.point[6 * OBS_MAX + 6] == OBS_BLACK);
    settle_free(s.st);
}

/* A hand that rests over three points and lifts for a frame or two now and then, showing a
 * stone it put down under it (a side film: such a view was said with the stone's point covered,
 * the move not seen and two false TWO_MOVES after it): a break that shows a point changed ends its
 * cover, so no view is said until the hand is gone, and then the one with the stone. */
static void test_cover_over_a_new_stone_is_no_still_cover(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    flickering_cover(&s, 4, 4, OBS_BLACK);
    assert_int_equal(s.said, 1);
    frames(&s, 16);
    assert_int_equal(s.said, 2);
    assert_true(s.last.obs.point[4 * OBS_MAX + 4] == OBS_BLACK);
    assert_false(s.last.obs.occluded[4 * OBS_MAX + 4]);
    settle_free(s.st);
}

/* A new stone while three doubtful points flicker out of step, each on its other reading for two
 * frames at a time (a player film: a white stone read empty at 1.0 and white at 0.51, two more
 * like it): the second frame on the other reading is still the flicker. Before, it broke the run;
 * the view with the new stone was never said in the last 1.5 s of the film and its two moves
 * were lost. */
static void test_flicker_of_two_frames_keeps_the_run(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    put(&s, 1, 1, OBS_WHITE, 0.51f);
    put(&s, 5, 2, OBS_EMPTY, 1.0f);
    put(&s, 7, 7, OBS_BLACK, 0.75f);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    put(&s, 4, 4, OBS_BLACK, 0.95f); /* the move */
    static struct stable_obs first;
    for (int k = 0; k < 45; k++) { /* 1.5 s */
        /* each point two frames on one reading and two on the other, one frame apart */
        bool a = (k / 2) % 2, b = ((k + 1) / 2) % 2, c = ((k + 2) / 2) % 2;
        put(&s, 1, 1, a ? OBS_EMPTY : OBS_WHITE, a ? 1.0f : 0.51f);
        put(&s, 5, 2, b ? OBS_WHITE : OBS_EMPTY, b ? 0.75f : 1.0f);
        put(&s, 7, 7, c ? OBS_EMPTY : OBS_BLACK, c ? 1.0f : 0.75f);
        frames(&s, 1);
        if (s.said == 2 && !s.repeats) first = s.last;
    }
    assert_int_equal(s.said - s.repeats, 2); /* said once, then again while it holds */
    s.last = first;
    assert_true(s.last.changed[4 * OBS_MAX + 4]);
    assert_int_equal(s.last.obs.point[4 * OBS_MAX + 4], OBS_BLACK);
    /* a flickering point is said at a doubtful confidence, whichever reading won */
    assert_true(s.last.obs.conf[1 * OBS_MAX + 1] < p.hold_conf);
    assert_true(s.last.obs.conf[2 * OBS_MAX + 5] < p.hold_conf);
    settle_free(s.st);

    /* a sure reading that stays is no flicker, however it began: it is said, at most 0.2 s
       later than had it come at once */
    stream_open(&s, &p);
    put(&s, 1, 1, OBS_WHITE, 0.51f);
    frames(&s, 16);
    put(&s, 1, 1, OBS_EMPTY, 1.0f);
    frames(&s, 1);
    put(&s, 1, 1, OBS_WHITE, 0.51f);
    frames(&s, 1);
    put(&s, 1, 1, OBS_EMPTY, 1.0f);
    frames(&s, 30);
    assert_int_equal(s.said, 2);
    assert_false(s.last.repeat);
    assert_int_equal(s.last.obs.point[1 * OBS_MAX + 1], OBS_EMPTY);
    assert_true(s.said_t[1] <= (18 + 15 + 6) * NS_PER_FRAME);
    settle_free(s.st);
}

/* The stream ends: n frames more of the current view, then settle_finish (how many views it said:
 * it says one at most). */
static int finish(struct stream *s, int n)
{
    frames(s, n);
    int said = 0;
    static struct stable_obs out;
    while (said < 3 && settle_finish(s->st, &out)) {
        said++;
        s->last = out;
    }
    return said;
}

/* A hand over a patch around (cx, cy) for nframes, moving a little each frame; what lies under
 * it is read again when it goes. */
static void hand_over(struct stream *s, int cx, int cy, int nframes)
{
    struct observation keep = s->o;
    for (int k = 0; k < nframes; k++) {
        for (int y = cy - 1; y <= cy + 1; y++)
            for (int x = cx - 1 - k % 2; x <= cx + 1; x++)
                if (x >= 0 && y >= 0 && x < 9 && y < 9) cover(s, x, y, true);
        frames(s, 1);
        s->o = keep;
    }
}

/* The source ends 1.2 s after the last stone, two points beside each other covered anew when the
 * hand went (a reader's false cover the hand lifted and laid again): the cover has lain under
 * still_occlusion_s, so no view is said while frames come; at the end the view is said, once,
 * with the new stone and the two points covered. Not when the end comes under stable_s after
 * the hand, under a cover that moves, or when the view was said already. */
static void test_end_of_source_settles_the_last_view(void **state)
{
    (void)state;
    struct stream s;
    struct settle_params p = each_second();
    stream_open(&s, &p);
    frames(&s, 16);
    assert_int_equal(s.said, 1);
    put(&s, 4, 4, OBS_BLACK, 0.95f);
    hand_over(&s, 4, 4, 10);
    cover(&s, 7, 7, true);
    cover(&s, 7, 8, true);
    frames(&s, 36);
    assert_int_equal(s.said, 1);
    assert_int_equal(finish(&s, 0), 1);
    assert_false(s.last.repeat);
    assert_true(s.last.changed[4 * OBS_MAX + 4]);
    assert_int_equal(s.last.nchanged, 1);
    assert_true(s.last.obs.occluded[7 * OBS_MAX + 7] && s.last.obs.occluded[8 * OBS_MAX + 7]);
    /* it held from the first frame after the hand */
    assert_true(s.last.since_ns >= 26 * NS_PER_FRAME && s.last.since_ns <= 27 * NS_PER_FRAME);
    settle_free(s.st);

    /* 0.3 s after the hand: too short to be a view */
    stream_open(&s, &p);
    frames(&s, 16);
    put(&s, 4, 4, OBS_BLACK, 0.95f);
    hand_over(&s, 4, 4, 10);
    assert_int_equal(finish(&s, 9), 0);
    settle_free(s.st);

    /* a hand that keeps moving to the end */
    stream_open(&s, &p);
    frames(&s, 16);
    put(&s, 4, 4, OBS_BLACK, 0.95f);
    hand_over(&s, 4, 4, 40);
    assert_int_equal(finish(&s, 0), 0);
    settle_free(s.st);

    /* a clear view that settled before the end: said already, nothing more */
    stream_open(&s, &p);
    frames(&s, 16);
    put(&s, 4, 4, OBS_BLACK, 0.95f);
    hand_over(&s, 4, 4, 10);
    frames(&s, 30);
    assert_int_equal(s.said, 2);
    assert_int_equal(finish(&s, 0), 0);
    settle_free(s.st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_still_view_is_said_again),
        cmocka_unit_test(test_never_repeated_when_off),
        cmocka_unit_test(test_doubtful_flicker_keeps_the_hold),
        cmocka_unit_test(test_sure_change_ends_the_hold),
        cmocka_unit_test(test_hand_ends_the_hold),
        cmocka_unit_test(test_still_cover_is_no_hand),
        cmocka_unit_test(test_flicker_is_said_as_read_most),
        cmocka_unit_test(test_flicker_against_a_sure_reading),
        cmocka_unit_test(test_lone_cover_is_still_sooner),
        cmocka_unit_test(test_lone_blinking_cover_is_read_as_it_was),
        cmocka_unit_test(test_out_of_view_flicker_is_no_hand),
        cmocka_unit_test(test_flickering_false_cover_is_still),
        cmocka_unit_test(test_cover_over_a_new_stone_is_no_still_cover),
        cmocka_unit_test(test_flicker_of_two_frames_keeps_the_run),
        cmocka_unit_test(test_end_of_source_settles_the_last_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* vision/settle.c — from per-frame observations to stable ones: a view is stable once the board
 * is found, nothing is occluded (but a still cover, below), every point is sure enough, and the
 * position has not changed for stable_s seconds (and min_frames frames). Each new stable position
 * is emitted with a mask of the points that differ from the previous stable one; while it holds (a
 * flicker on doubtful points aside) it is said again every repeat_s, a fresh reading for the rule
 * guard. A point covered without a break for still_occlusion_s is under no passing hand (a cup on
 * the board's corner, a hand resting, or a reader's false cover): the view settles with those
 * points occluded, unknown to the rule guard, rather than never again. A doubtful point that
 * flickers between two readings, one of them doubtful (a white stone in dim light read black one
 * frame in a few) does not keep the view from settling: it is said as read most often in the
 * run, at the lowest confidence it was read either way. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

/* A point back on a reading it left less than this ago, one of the two readings under hold_conf,
 * is a flicker, not a change (a dim film's white stone read black at 0.75 against white at 0.83
 * every 0.1-1.4 s for 9 s: the view never settled, four moves came at once and went in wrong
 * order; a bumped board's black stone read black at 0.75 and empty at 1.0 in turn for 13 s: no
 * view settled and no move was recorded after the bump) */
#define FLICKER_S 2.0
/* A point on the other reading of its flicker this long is no longer flickering: it changed (a
 * player film's flickers lay 1-2 frames on the other reading) */
#define FLICKER_STAY_S 0.15
/* A point covered alone, no neighbour covered, is still after this long (a new glass stone in a
 * glare film read covered in most frames: each such stone held the view 2 s, the next moves
 * came before it settled and went in wrong order) */
#define ALONE_STILL_S 0.5
/* A cover's stillness runs on through a break this short, while the point stays covered in
 * COVER_SHARE of the frames since the cover came: a reader's false cover that flickers (a few
 * frames read uncovered in most seconds) never lay 2 s without a break, and held a side film's
 * views for 11 s; a hand that leaves a point is gone for longer, and a hand moving to and fro
 * over a point leaves it uncovered in half the frames. */
#define COVER_BREAK_S 0.25
#define COVER_SHARE   0.8
#define COVER_UNREAD  0xff
/* A point covered alone for at most this many frames in a row, read surely just before, is no
 * hand: it is read as it was (a dim fault film's black stone at the board's edge taken for a hand
 * in one frame of three, one or two frames at a time: no view settled after ply 21, the last 15 s
 * of moves lost). A hand that stays, or grows over a neighbour, is a cover from its next frame. */
#define BLIP_COVER_FRAMES 2

struct settler {
    struct settle_params p;
    bool have_run, have_stable, emitted;
    struct observation run; /* first frame of the current run of identical frames */
    int frames;
    struct observation stable;       /* last said */
    bool holding;                    /* every usable frame since then agreed with it (hold_conf) */
    int64_t held_since;              /* when the run of the view last said anew began */
    bool occl[OBS_POINTS];           /* occluded, but for a break under COVER_BREAK_S */
    int64_t occl_since[OBS_POINTS];  /* and covered since then */
    int64_t break_since[OBS_POINTS]; /* read uncovered since (0: covered in the last frame) */
    int occl_frames[OBS_POINTS], occl_covered[OBS_POINTS]; /* frames since occl_since, covered */
    uint8_t cover_val[OBS_POINTS]; /* read before the cover came (COVER_UNREAD: not yet read) */
    /* each point's last reading uncovered, with its confidence; the reading it left last, and
       when; whether it flickered in the current run */
    uint8_t last_val[OBS_POINTS], left_val[OBS_POINTS];
    float last_conf[OBS_POINTS];
    int64_t left_ns[OBS_POINTS];
    bool have_last[OBS_POINTS], flick[OBS_POINTS];
    /* in the current run: a flickering point's other reading; how often each was read, and
       their lowest confidence */
    uint8_t alt_val[OBS_POINTS];
    int n_run[OBS_POINTS], n_alt[OBS_POINTS];
    float c_run[OBS_POINTS], c_alt[OBS_POINTS];
    /* each point's streak of one reading: the value, when it began, how many frames; the streak
       before it (a blip of under BLIP_FRAMES frames between two of the same value is no new
       streak) */
    uint8_t streak_val[OBS_POINTS], prior_val[OBS_POINTS];
    int64_t streak_ns[OBS_POINTS], prior_ns[OBS_POINTS];
    int streak_n[OBS_POINTS];
    /* the source's last frames, whatever the cover's stillness (settle_finish): the first frame
       of the run of readable frames under one cover that agree on every sure point, and the
       frame by which it had held stable_s and min_frames */
    bool have_tail, tail_held;
    struct observation tail, tail_view;
    int tail_frames;
    int cover_run[OBS_POINTS];    /* frames in a row each point has been read covered */
    struct observation unblipped; /* this frame with its blips read as they were (unblip) */
};

#define BLIP_FRAMES 3

void settle_params_default(struct settle_params *p)
{
    p->stable_s = 0.5;
    p->min_frames = 3;
    p->min_conf = 0.4; /* under the guard's 0.5: a point out of the picture (0.45) passes */
    p->repeat_s = 0.5;
    p->hold_conf = 0.9;
    /* a reader's false cover held for good (a glare, a stone's sheen) stopped a film for good;
     * a move played under a still cover is now found by the guard (an unseen move on its
     * unread points) instead of reading as two in a row */
    p->still_occlusion_s = 2.0;
}

struct settler *settle_new(const struct settle_params *p)
{
    struct settler *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (p)
        s->p = *p;
    else
        settle_params_default(&s->p);
    return s;
}

void settle_free(struct settler *s)
{
    free(s);
}

/* Follows each point's occlusion frame to frame: since when has it been covered without a break?
 * A hand comes and goes over its points; a cup or a reader's false cover stays. */
static void track_occlusion(struct settler *s, const struct observation *o)
{
    for (int p = 0; p < OBS_POINTS; p++) {
        bool now = o->board_found && o->occluded[p];
        /* a point beyond the picture's edge, read out of view one frame and covered the next (a
         * clamped sample that looks like a stone is not known: read_hands.c), is no hand coming
         * and going: neither says anything, and the cover's time runs on (partial film 319: two
         * such points beside each other, one flickering, kept the view from settling for 13 s) */
        if (!now && o->board_found && obs_out_of_view(o, p)) continue;
        if (now) {
            if (!s->occl[p]) {
                s->occl[p] = true;
                s->occl_since[p] = o->t_ns;
                s->occl_frames[p] = s->occl_covered[p] = 0;
                s->cover_val[p] = s->have_last[p] ? s->last_val[p] : COVER_UNREAD;
            }
            s->break_since[p] = 0;
            s->occl_frames[p]++;
            s->occl_covered[p]++;
        } else if (s->occl[p]) {
            s->occl_frames[p]++;
            if (!s->break_since[p]) s->break_since[p] = o->t_ns ? o->t_ns : 1;
            /* a break that shows the point changed ends the cover: it hid a move (a hand that
               put a stone down), no false cover over a point that stays as it was */
            if (s->cover_val[p] == COVER_UNREAD) s->cover_val[p] = o->point[p];
            if ((o->t_ns - s->break_since[p]) / 1e9 >= COVER_BREAK_S ||
                o->point[p] != s->cover_val[p])
                s->occl[p] = false;
        }
    }
}

/* No neighbour of p (the 8 around) is occluded in o: a hand covers points in a patch (the reader
 * grows its cover along it), a reader's false cover on one stone (a glass stone in glare taken
 * for skin) is a point alone. */
static bool alone(const struct observation *o, int p)
{
    int x = p % OBS_MAX, y = p / OBS_MAX;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int u = x + dx, v = y + dy;
            if ((dx || dy) && u >= 0 && v >= 0 && u < o->w && v < o->h &&
                o->occluded[v * OBS_MAX + u])
                return false;
        }
    return true;
}

/* Every occluded point of o has been covered still_occlusion_s without a break, or, alone,
 * ALONE_STILL_S. */
static bool occlusion_still(const struct settler *s, const struct observation *o)
{
    if (o->noccluded == 0) return true;
    if (!(s->p.still_occlusion_s > 0)) return false;
    for (int p = 0; p < OBS_POINTS; p++) {
        if (!o->occluded[p]) continue;
        double covered = (o->t_ns - s->occl_since[p]) / 1e9 + 1e-9;
        if (s->occl_covered[p] < COVER_SHARE * s->occl_frames[p]) return false;
        if (covered < s->p.still_occlusion_s &&
            !(covered >= fmin(ALONE_STILL_S, s->p.still_occlusion_s) && alone(o, p)))
            return false;
    }
    return true;
}

/* The board found and every uncovered point read at least min_conf sure. */
static bool readable(const struct settler *s, const struct observation *o)
{
    if (!o->board_found) return false;
    for (int y = 0; y < o->h; y++)
        for (int x = 0; x < o->w; x++) {
            int p = y * OBS_MAX + x;
            if (!o->occluded[p] && o->conf[p] < s->p.min_conf) return false;
        }
    return true;
}

static bool usable(const struct settler *s, const struct observation *o)
{
    return readable(s, o) && occlusion_still(s, o);
}

/* Follows each point's reading: the one it left last and when. */
/* Point p read v at t: its streak goes on, resumes after a blip, or starts. */
static void track_streak(struct settler *s, int p, uint8_t v, int64_t t)
{
    if (s->have_last[p] && s->streak_val[p] == v) {
        s->streak_n[p]++;
    } else if (s->have_last[p] && s->prior_val[p] == v && s->streak_n[p] < BLIP_FRAMES) {
        s->streak_val[p] = v;
        s->streak_ns[p] = s->prior_ns[p];
        s->streak_n[p] = BLIP_FRAMES;
    } else {
        s->prior_val[p] = s->streak_val[p];
        s->prior_ns[p] = s->streak_ns[p];
        s->streak_val[p] = v;
        s->streak_ns[p] = t;
        s->streak_n[p] = 1;
    }
}

static void track_readings(struct settler *s, const struct observation *o)
{
    if (!o->board_found) return;
    for (int p = 0; p < OBS_POINTS; p++) {
        if (o->occluded[p]) continue;
        if (s->have_last[p] && s->last_val[p] != o->point[p]) {
            s->left_val[p] = s->last_val[p];
            s->left_ns[p] = o->t_ns;
        }
        s->last_val[p] = o->point[p];
        s->last_conf[p] = o->conf[p];
        track_streak(s, p, o->point[p], o->t_ns);
        s->have_last[p] = true;
    }
}

/* o differs from the run only by flickers (FLICKER_S), each marked in s->flick; false when a
 * point changed for real. */
static bool same_but_flicker(struct settler *s, const struct observation *o, int64_t prev_ns[],
                             const uint8_t prev_left[])
{
    const struct observation *r = &s->run;
    if (r->w != o->w || r->h != o->h) return false;
    bool any = false;
    for (int y = 0; y < o->h; y++)
        for (int x = 0; x < o->w; x++) {
            int p = y * OBS_MAX + x;
            if (r->point[p] == o->point[p]) continue;
            /* back on a reading it left, or still on the other reading of its flicker in this
             * run, for a few frames (a point read white one frame and black the next two: the
             * second black frame broke the run, and a player film's four such points kept the
             * last move from ever settling); a reading that stays longer is a change */
            double left = (o->t_ns - prev_ns[p]) / 1e9;
            bool back = (prev_left[p] == o->point[p] && left < FLICKER_S) ||
                        (s->flick[p] && s->alt_val[p] == o->point[p] && left < FLICKER_STAY_S);
            bool flicker = back && (o->conf[p] < s->p.hold_conf || r->conf[p] < s->p.hold_conf);
            if (!flicker) return false;
            any = true;
        }
    for (int y = 0; y < o->h && any; y++)
        for (int x = 0; x < o->w; x++) {
            int p = y * OBS_MAX + x;
            if (r->point[p] == o->point[p]) continue;
            if (!s->flick[p] || s->alt_val[p] != o->point[p])
                s->n_alt[p] = 0, s->c_alt[p] = 1, s->alt_val[p] = o->point[p];
            s->flick[p] = true;
        }
    return true;
}

/* A frame of the run counted: each point's reading, the run's or the other. */
static void count_run(struct settler *s, const struct observation *o)
{
    for (int y = 0; y < o->h; y++)
        for (int x = 0; x < o->w; x++) {
            int p = y * OBS_MAX + x;
            if (o->point[p] == s->run.point[p])
                s->n_run[p]++, s->c_run[p] = fminf(s->c_run[p], o->conf[p]);
            else if (s->flick[p] && o->point[p] == s->alt_val[p])
                s->n_alt[p]++, s->c_alt[p] = fminf(s->c_alt[p], o->conf[p]);
        }
}

static bool same(const struct observation *a, const struct observation *b)
{
    if (a->w != b->w || a->h != b->h) return false;
    for (int y = 0; y < a->h; y++)
        if (memcmp(a->point + y * OBS_MAX, b->point + y * OBS_MAX, (size_t)a->w)) return false;
    return true;
}

/* The same on every point both read at least hold_conf sure. */
static bool holds(const struct settler *s, const struct observation *a, const struct observation *b)
{
    if (a->w != b->w || a->h != b->h) return false;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            int p = y * OBS_MAX + x;
            if (a->point[p] != b->point[p] && a->conf[p] >= s->p.hold_conf &&
                b->conf[p] >= s->p.hold_conf)
                return false;
        }
    return true;
}

/* The same points covered in both. */
static bool same_cover(const struct observation *a, const struct observation *b)
{
    if (a->w != b->w || a->h != b->h || a->noccluded != b->noccluded) return false;
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++)
            if (a->occluded[y * OBS_MAX + x] != b->occluded[y * OBS_MAX + x]) return false;
    return true;
}

/* Follows the source's last frames for settle_finish: readable, under one cover, agreeing on
 * every sure point. A cover that has not moved since is no passing hand at the end of the
 * source, however short it has lain (a false cover lifted by the last move's hand and back at
 * once, 1.3 s before a side film ended: its last stone never settled). */
static void track_tail(struct settler *s, const struct observation *o)
{
    if (!readable(s, o)) {
        s->have_tail = false;
        return;
    }
    if (!s->have_tail || !same_cover(&s->tail, o) || !holds(s, &s->tail, o)) {
        s->tail = *o;
        s->have_tail = true;
        s->tail_held = false;
        s->tail_frames = 0;
    }
    s->tail_frames++;
    if (!s->tail_held && (o->t_ns - s->tail.t_ns) / 1e9 + 1e-9 >= s->p.stable_s &&
        s->tail_frames >= s->p.min_frames) {
        s->tail_view = *o;
        s->tail_held = true;
    }
}

/* Says seen: a new view held since since_ns, or (repeat) the view said last, held since. */
static void say(struct settler *s, const struct observation *seen, bool repeat, int64_t since_ns,
                struct stable_obs *out)
{
    memset(out, 0, sizeof *out);
    out->obs = *seen;
    const struct observation *obs = &out->obs;
    for (int p = 0; p < OBS_POINTS; p++)
        if (s->flick[p] && !out->obs.occluded[p]) {
            bool alt = s->n_alt[p] > s->n_run[p];
            out->obs.point[p] = alt ? s->alt_val[p] : s->run.point[p];
            /* at the lowest confidence it was read so; a sure reading that flickered against a
               doubtful one at that one's (a stone read at 0.75 one frame and empty at 1.0 the
               next is no sure empty point) */
            float c = alt ? s->c_alt[p] : s->c_run[p], other = alt ? s->c_run[p] : s->c_alt[p];
            out->obs.conf[p] = c >= s->p.hold_conf ? other : c;
        }
    if (!repeat) s->held_since = since_ns;
    out->since_ns = s->held_since;
    out->frames = s->frames;
    out->first = !s->have_stable;
    out->repeat = repeat;
    for (int y = 0; y < obs->h; y++)
        for (int x = 0; x < obs->w; x++) {
            int p = y * OBS_MAX + x;
            out->changed[p] = !out->first && s->stable.point[p] != obs->point[p];
            out->nchanged += out->changed[p];
            bool streak = s->have_last[p] && s->streak_val[p] == obs->point[p];
            out->read_since_ns[p] = streak ? s->streak_ns[p] : obs->t_ns;
        }
    s->stable = *obs;
    s->have_stable = true;
    s->holding = true;
}

/* obs, or (in *copy) obs with each point covered alone for a blip (BLIP_COVER_FRAMES) read as it
 * was read last, surely. */
static const struct observation *unblip(struct settler *s, const struct observation *obs,
                                        struct observation *copy)
{
    bool any = false;
    for (int p = 0; p < OBS_POINTS; p++) {
        if (!obs->board_found || !obs->occluded[p]) {
            s->cover_run[p] = 0;
            continue;
        }
        s->cover_run[p]++;
        if (s->cover_run[p] > BLIP_COVER_FRAMES || !alone(obs, p) || !s->have_last[p] ||
            s->last_conf[p] < s->p.hold_conf)
            continue;
        if (!any) *copy = *obs;
        any = true;
        copy->occluded[p] = false;
        copy->noccluded--;
        copy->point[p] = s->last_val[p];
        copy->conf[p] = s->last_conf[p];
    }
    return any ? copy : obs;
}

bool settle_push(struct settler *s, const struct observation *seen, struct stable_obs *out)
{
    const struct observation *obs = unblip(s, seen, &s->unblipped);
    track_occlusion(s, seen); /* the cover as read: its share of frames (COVER_SHARE) */
    /* the readings each point left before this frame (a flicker is a return to one of them) */
    int64_t prev_ns[OBS_POINTS];
    uint8_t prev_left[OBS_POINTS];
    memcpy(prev_ns, s->left_ns, sizeof prev_ns);
    memcpy(prev_left, s->left_val, sizeof prev_left);
    track_readings(s, obs);
    track_tail(s, obs);
    if (!usable(s, obs)) {
        s->have_run = false;
        s->holding = false;
        return false;
    }
    if (!s->have_run || !same_but_flicker(s, obs, prev_ns, prev_left)) {
        s->run = *obs;
        s->have_run = true;
        s->frames = 1;
        s->emitted = false;
        memset(s->flick, 0, sizeof s->flick);
        memset(s->n_run, 0, sizeof s->n_run);
        for (int p = 0; p < OBS_POINTS; p++) s->c_run[p] = 1;
    } else
        s->frames++;
    count_run(s, obs);
    if (s->holding && !holds(s, &s->stable, obs)) s->holding = false;
    double held = (obs->t_ns - s->run.t_ns) / 1e9;
    if (!s->emitted && held + 1e-9 >= s->p.stable_s && s->frames >= s->p.min_frames) {
        s->emitted = true;
        if (!s->have_stable || !same(&s->stable, obs)) {
            say(s, obs, false, s->run.t_ns, out);
            return true;
        }
        /* back to what was said (after a hand, or a flicker): it holds again from here */
        s->holding = true;
    }
    double since = (obs->t_ns - s->stable.t_ns) / 1e9;
    if (s->p.repeat_s > 0 && s->holding && s->have_stable && since + 1e-9 >= s->p.repeat_s) {
        say(s, obs, true, s->run.t_ns, out);
        return true;
    }
    return false;
}

bool settle_finish(struct settler *s, struct stable_obs *out)
{
    if (!s->have_tail || !s->tail_held) return false;
    /* said since (the cover was still, or the view settled anew), or nothing new */
    if (s->have_stable && (s->stable.t_ns >= s->tail_view.t_ns || same(&s->stable, &s->tail_view)))
        return false;
    /* the run's flickers are not the tail's: its frames agree on every sure point */
    memset(s->flick, 0, sizeof s->flick);
    say(s, &s->tail_view, false, s->tail.t_ns, out);
    s->have_tail = false;
    return true;
}

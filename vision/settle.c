/* vision/settle.c — from per-frame observations to stable ones: a view is stable once the board
 * is found, nothing is occluded (but a still cover, below), every point is sure enough, and the
 * position has not changed for stable_s seconds (and min_frames frames). Each new stable position
 * is emitted with a mask of the points that differ from the previous stable one; while it holds (a
 * flicker on doubtful points aside) it is said again every repeat_s, a fresh reading for the rule
 * guard. A point covered without a break for still_occlusion_s is under no passing hand (a cup on
 * the board's corner, a hand resting, or a reader's false cover): the view settles with those
 * points occluded, unknown to the rule guard, rather than never again. */
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

struct settler {
    struct settle_params p;
    bool have_run, have_stable, emitted;
    struct observation run; /* first frame of the current run of identical frames */
    int frames;
    struct observation stable;      /* last said */
    bool holding;                   /* every usable frame since then agreed with it (hold_conf) */
    int64_t held_since;             /* when the run of the view last said anew began */
    bool occl[OBS_POINTS];          /* occluded in the last frame */
    int64_t occl_since[OBS_POINTS]; /* and covered without a break since then */
};

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
        if (!now)
            s->occl[p] = false;
        else if (!s->occl[p])
            s->occl[p] = true, s->occl_since[p] = o->t_ns;
    }
}

/* Every occluded point of o has been covered still_occlusion_s without a break. */
static bool occlusion_still(const struct settler *s, const struct observation *o)
{
    if (o->noccluded == 0) return true;
    if (!(s->p.still_occlusion_s > 0)) return false;
    for (int p = 0; p < OBS_POINTS; p++)
        if (o->occluded[p] && (o->t_ns - s->occl_since[p]) / 1e9 + 1e-9 < s->p.still_occlusion_s)
            return false;
    return true;
}

static bool usable(const struct settler *s, const struct observation *o)
{
    if (!o->board_found) return false;
    if (!occlusion_still(s, o)) return false;
    for (int y = 0; y < o->h; y++)
        for (int x = 0; x < o->w; x++) {
            int p = y * OBS_MAX + x;
            if (!o->occluded[p] && o->conf[p] < s->p.min_conf) return false;
        }
    return true;
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

static void say(struct settler *s, const struct observation *obs, bool repeat,
                struct stable_obs *out)
{
    memset(out, 0, sizeof *out);
    out->obs = *obs;
    if (!repeat) s->held_since = s->run.t_ns;
    out->since_ns = s->held_since;
    out->frames = s->frames;
    out->first = !s->have_stable;
    out->repeat = repeat;
    for (int y = 0; y < obs->h; y++)
        for (int x = 0; x < obs->w; x++) {
            int p = y * OBS_MAX + x;
            out->changed[p] = !out->first && s->stable.point[p] != obs->point[p];
            out->nchanged += out->changed[p];
        }
    s->stable = *obs;
    s->have_stable = true;
    s->holding = true;
}

bool settle_push(struct settler *s, const struct observation *obs, struct stable_obs *out)
{
    track_occlusion(s, obs);
    if (!usable(s, obs)) {
        s->have_run = false;
        s->holding = false;
        return false;
    }
    if (!s->have_run || !same(&s->run, obs)) {
        s->run = *obs;
        s->have_run = true;
        s->frames = 1;
        s->emitted = false;
    } else
        s->frames++;
    if (s->holding && !holds(s, &s->stable, obs)) s->holding = false;
    double held = (obs->t_ns - s->run.t_ns) / 1e9;
    if (!s->emitted && held + 1e-9 >= s->p.stable_s && s->frames >= s->p.min_frames) {
        s->emitted = true;
        if (!s->have_stable || !same(&s->stable, obs)) {
            say(s, obs, false, out);
            return true;
        }
        /* back to what was said (after a hand, or a flicker): it holds again from here */
        s->holding = true;
    }
    double since = (obs->t_ns - s->stable.t_ns) / 1e9;
    if (s->p.repeat_s > 0 && s->holding && s->have_stable && since + 1e-9 >= s->p.repeat_s) {
        say(s, obs, true, out);
        return true;
    }
    return false;
}

/* vision/settle.c — from per-frame observations to stable ones: a view is stable once the board
 * is found, nothing is occluded, every point is sure enough, and the position has not changed for
 * stable_s seconds (and min_frames frames). Each new stable position is emitted once, with a mask
 * of the points that differ from the previous stable one. */
#include <stdlib.h>
#include <string.h>

#include "vision/vision.h"

struct settler {
    struct settle_params p;
    bool have_run, have_stable, emitted;
    struct observation run; /* first frame of the current run of identical frames */
    int frames;
    struct observation stable; /* last emitted */
};

void settle_params_default(struct settle_params *p)
{
    p->stable_s = 0.5;
    p->min_frames = 3;
    p->min_conf = 0.5;
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

static bool usable(const struct settler *s, const struct observation *o)
{
    if (!o->board_found || o->noccluded > 0) return false;
    for (int y = 0; y < o->h; y++)
        for (int x = 0; x < o->w; x++)
            if (o->conf[y * OBS_MAX + x] < s->p.min_conf) return false;
    return true;
}

static bool same(const struct observation *a, const struct observation *b)
{
    if (a->w != b->w || a->h != b->h) return false;
    for (int y = 0; y < a->h; y++)
        if (memcmp(a->point + y * OBS_MAX, b->point + y * OBS_MAX, (size_t)a->w)) return false;
    return true;
}

bool settle_push(struct settler *s, const struct observation *obs, struct stable_obs *out)
{
    if (!usable(s, obs)) {
        s->have_run = false;
        return false;
    }
    if (!s->have_run || !same(&s->run, obs)) {
        s->run = *obs;
        s->have_run = true;
        s->frames = 1;
        s->emitted = false;
    } else
        s->frames++;
    if (s->emitted) return false;
    double held = (obs->t_ns - s->run.t_ns) / 1e9;
    if (held + 1e-9 < s->p.stable_s || s->frames < s->p.min_frames) return false;
    s->emitted = true;
    if (s->have_stable && same(&s->stable, obs)) return false; /* back to what we had */
    memset(out, 0, sizeof *out);
    out->obs = *obs;
    out->since_ns = s->run.t_ns;
    out->frames = s->frames;
    out->first = !s->have_stable;
    for (int y = 0; y < obs->h; y++)
        for (int x = 0; x < obs->w; x++) {
            int p = y * OBS_MAX + x;
            out->changed[p] = !out->first && s->stable.point[p] != obs->point[p];
            out->nchanged += out->changed[p];
        }
    s->stable = *obs;
    s->have_stable = true;
    return true;
}

/* vision/observation_rotate.c — turning an observation to the board's own orientation. */
#include <string.h>

#include "vision/vision.h"

static int turned_index(int n, int x, int y, int degrees)
{
    int nx = x, ny = y;
    if (degrees == 90) {
        nx = n - 1 - y;
        ny = x;
    } else if (degrees == 180) {
        nx = n - 1 - x;
        ny = n - 1 - y;
    } else if (degrees == 270) {
        nx = y;
        ny = n - 1 - x;
    }
    return ny * OBS_MAX + nx;
}

void observation_rotate(struct observation *o, bool changed[OBS_POINTS], int degrees)
{
    degrees = ((degrees % 360) + 360) % 360;
    if (degrees == 0 || o->w != o->h) return;
    struct observation t; /* about 4 KB */
    bool ch[OBS_POINTS];
    t = *o;
    int n = o->w;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int from = y * OBS_MAX + x, to = turned_index(n, x, y, degrees);
            t.point[to] = o->point[from];
            t.conf[to] = o->conf[from];
            t.occluded[to] = o->occluded[from];
            if (changed) ch[to] = changed[from];
        }
    *o = t;
    if (changed) memcpy(changed, ch, sizeof ch);
}

void stable_obs_rotate(struct stable_obs *s, int degrees)
{
    degrees = ((degrees % 360) + 360) % 360;
    if (degrees == 0 || s->obs.w != s->obs.h) return;
    int n = s->obs.w;
    int64_t since[OBS_POINTS];
    memcpy(since, s->read_since_ns, sizeof since);
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            s->read_since_ns[turned_index(n, x, y, degrees)] = since[y * OBS_MAX + x];
    observation_rotate(&s->obs, s->changed, degrees);
}

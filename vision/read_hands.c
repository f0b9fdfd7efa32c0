/* vision/read_hands.c — hands are large: occlusion grown along them, stones at a hand's edge
 * not trusted, and points beyond the frame's edge that look like stones not known. */
#include "vision/read_internal.h"

/* A hand reaches in from beyond the board's edge: an occluded region that touches the edge is
 * taken for one from this many points (a glare patch in the middle needs grow_hands' size) */
#define EDGE_REGION 4

static void cover(struct observation *obs, int p)
{
    obs->occluded[p] = true;
    obs->point[p] = OBS_EMPTY;
    obs->conf[p] = 0;
}

/* A point with a bad gap next to an occluded point is occluded too, and so on along the hand
 * (an arm reaching in covers a chain of such points). */
static void grow_along(const struct read_points_f *pf, const struct read_thresholds *th, int n,
                       struct observation *obs)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                int p = y * OBS_MAX + x;
                if (obs->occluded[p] || pf->badgaps[p] == 0 || th->lines[p]) continue;
                bool next_to = false;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int xx = x + dx, yy = y + dy;
                        if (xx >= 0 && yy >= 0 && xx < n && yy < n &&
                            obs->occluded[yy * OBS_MAX + xx])
                            next_to = true;
                    }
                if (!next_to) continue;
                cover(obs, p);
                changed = true;
            }
    }
}

/* A hand's edge is where a covered point is most easily read as a stone (a knuckle's shadow, a
 * stone half hidden under a finger). A stone read next to an occluded region of a hand's size
 * (min_region points or more, or EDGE_REGION when it reaches the board's edge) is not
 * trusted: it becomes occluded too. Empty points and lone occluded points (a glint) are left
 * as they are. */
static void grow_hands(struct observation *obs, int n, int min_region)
{
    static const int dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
    static const int dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
    int label[OBS_POINTS], size[OBS_POINTS], stack[OBS_POINTS];
    bool edge[OBS_POINTS]; /* the region reaches the board's edge */
    for (int p = 0; p < OBS_POINTS; p++) label[p] = -1;
    int nl = 0;
    for (int y0 = 0; y0 < n; y0++)
        for (int x0 = 0; x0 < n; x0++) {
            int p0 = y0 * OBS_MAX + x0;
            if (!obs->occluded[p0] || label[p0] >= 0) continue;
            int sp = 0, cnt = 0;
            edge[nl] = false;
            stack[sp++] = p0;
            label[p0] = nl;
            while (sp) {
                int p = stack[--sp], x = p % OBS_MAX, y = p / OBS_MAX;
                cnt++;
                edge[nl] |= x == 0 || y == 0 || x == n - 1 || y == n - 1;
                for (int d = 0; d < 8; d++) {
                    int ax = x + dx[d], ay = y + dy[d];
                    if (ax < 0 || ay < 0 || ax >= n || ay >= n) continue;
                    int q = ay * OBS_MAX + ax;
                    if (!obs->occluded[q] || label[q] >= 0) continue;
                    label[q] = nl;
                    stack[sp++] = q;
                }
            }
            size[nl++] = cnt;
        }
    bool grow[OBS_POINTS] = {0};
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (obs->occluded[p] || obs->point[p] == OBS_EMPTY) continue;
            for (int d = 0; d < 8; d++) {
                int ax = x + dx[d], ay = y + dy[d];
                if (ax < 0 || ay < 0 || ax >= n || ay >= n) continue;
                int l = label[ay * OBS_MAX + ax];
                if (l >= 0 && (size[l] >= min_region || (edge[l] && size[l] >= EDGE_REGION)))
                    grow[p] = true;
            }
        }
    for (int p = 0; p < OBS_POINTS; p++)
        if (grow[p]) cover(obs, p);
}

void hands_grow(const struct read_points_f *pf, const struct read_thresholds *th, int n,
                struct observation *obs)
{
    grow_along(pf, th, n, obs);
    /* fifteen points: measured over 3..15 on the renders, 15 takes the stones read under hands
     * from 18 to 12 of 2509 covered points at no cost; smaller regions (6, 10) take off a few
     * more but mistake glare patches for hands and lose settled points */
    grow_hands(obs, n, 15);
    /* a point beyond the frame's edge whose clamped sample looks like a stone (a stone cut off
     * by the frame, or not) is not known; nor is it a hand to grow */
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++) {
            int p = y * OBS_MAX + x;
            if (!pf->outside[p] || pf->body_seen[p] || pf->neu[p] < 0.7 ||
                (pf->rho[p] >= th->tb && pf->whiteness[p] <= th->tw))
                continue;
            cover(obs, p);
        }
}

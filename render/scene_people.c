/* render/scene_people.c — what the players do around the board besides moving, for the shadows,
 * leaning and clock scenarios: a player's soft shadow drifting across the board (nothing hidden,
 * so the truth covers nothing), a player leaning in over one edge (a big, out-of-focus dark shape:
 * the points it hides are covered in the truth), a hand resting on the game clock beside the board
 * (off the grid). When they happen is a list of spans fixed by the seed alone, laid over the game's
 * time line without moving it: the same seed gives the same game and the same frames. */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

static double lean_head_distance(const struct people_span *s, const struct goban *g,
                                 const struct camera *c);

bool people_init(struct people *p, enum render_scenario sc, uint64_t seed, int nframes,
                 const struct goban *g, const struct camera *c, bool shogi)
{
    memset(p, 0, sizeof *p);
    p->sc = sc;
    if (sc < RENDER_SCENE_SHADOWS) return true;
    struct rng r = rng_stream(seed, RS_PEOPLE, 0);
    double lh = g->length / 2, wh = g->width / 2;
    /* the clock: on one side of the board; for shogi on the far end of that side, clear of the
     * komadai (each at its player's right) */
    double cs = rng_unit(&r) < 0.5 ? 1 : -1;
    p->clock_size[0] = 62;
    p->clock_size[1] = shogi ? 130 : 150;
    p->clock_size[2] = 68;
    p->clock_xy[0] = cs * (wh + rng_range(&r, 30, 50) + p->clock_size[0] / 2);
    p->clock_xy[1] = shogi ? -cs * (lh - 25) : rng_range(&r, -60, 60);
    int f = 20 + rng_int(&r, 60);
    while (p->n < PEOPLE_MAX_SPANS) {
        struct people_span *s = &p->spans[p->n];
        int len = sc == RENDER_SCENE_LEANING ? 90 + rng_int(&r, 90) : 60 + rng_int(&r, 90);
        if (f + len >= nframes) break;
        s->f0 = f;
        s->f1 = f + len;
        s->side = rng_unit(&r) < 0.5 ? 1 : -1;
        if (sc == RENDER_SCENE_SHADOWS) { /* across the board along a seeded direction */
            double ang = rng_range(&r, 0, 6.283185307179586), off = rng_range(&r, -0.4, 0.4);
            double reach = fmax(lh, wh) + 60;
            double dx = cos(ang), dy = sin(ang);
            s->from[0] = -dx * reach - dy * off * wh;
            s->from[1] = -dy * reach + dx * off * lh;
            s->to[0] = dx * reach - dy * off * wh;
            s->to[1] = dy * reach + dx * off * lh;
            /* a person's shadow, but a blob on a small board, not a dimmed room */
            s->radius = clampd(rng_range(&r, 0.6, 0.9) * fmax(lh, wh), 90, 230);
            s->stretch = rng_range(&r, 1.0, 1.6);
            s->angle = rng_range(&r, 0, 3.14159265358979);
            s->strength = rng_range(&r, 0.3, 0.5);
        } else if (sc == RENDER_SCENE_LEANING) {
            s->from[0] = rng_range(&r, -0.3, 0.3) * wh; /* where along the edge */
            s->depth = rng_range(&r, 0.6, 1.0);
            s->radius = rng_range(&r, 78, 92); /* head */
            /* a player leaning into the lens would black the frame out: lean from the other
             * side, or less far, until the head stays 0.3 m from the camera */
            for (int k = 0; k < 8 && lean_head_distance(s, g, c) < 300; k++) {
                if (k == 0) s->side = -s->side;
                if (k > 0) s->depth *= 0.75;
            }
        } else {
            s->angle = rng_range(&r, -0.25, 0.25);
        }
        p->n++;
        f = s->f1 + (sc == RENDER_SCENE_LEANING ? 150 + rng_int(&r, 300) : 60 + rng_int(&r, 240));
    }
    if (sc == RENDER_SCENE_SHADOWS || sc == RENDER_SCENE_LEANING) {
        /* where each pixel's ray meets the board-top plane (shadows lie there, world mm) */
        p->plane = malloc(sizeof *p->plane * 2 * (size_t)c->w * c->h);
        if (!p->plane) return false;
        for (int y = 0; y < c->h; y++)
            for (int x = 0; x < c->w; x++) {
                vec3 d = camera_ray(c, x + 0.5, y + 0.5);
                double t = d.z < -1e-9 ? (g->thickness - c->pos.z) / d.z : 1e9;
                float *q = p->plane + 2 * ((size_t)y * c->w + x);
                q[0] = (float)(c->pos.x + t * d.x);
                q[1] = (float)(c->pos.y + t * d.y);
            }
    }
    return true;
}

void people_free(struct people *p)
{
    free(p->plane);
    p->plane = NULL;
}

const struct people_span *people_at(const struct people *p, int f, double *amount)
{
    for (int i = 0; i < p->n; i++) {
        const struct people_span *s = &p->spans[i];
        if (f < s->f0 || f > s->f1) continue;
        /* in over 20 frames, out over 20 */
        double a = fmin(smoothstep(s->f0, s->f0 + 20, f), 1 - smoothstep(s->f1 - 20, s->f1, f));
        if (amount) *amount = a;
        return s;
    }
    return NULL;
}

int people_find_frame(const struct people *p, int k)
{
    return k >= 0 && k < p->n ? (p->spans[k].f0 + p->spans[k].f1) / 2 : -1;
}

/* A soft elliptic shadow at (cx, cy) on the board-top plane, darkening by up to strength. */
static void soft_shadow(const struct people *p, cv_image *img, double cx, double cy, double radius,
                        double stretch, double angle, double strength)
{
    double ca = cos(angle), sa = sin(angle), inner = 0.3 * radius;
    for (int y = 0; y < img->height; y++) {
        uint8_t *row = img->data + (size_t)y * img->stride;
        const float *q = p->plane + 2 * (size_t)y * img->width;
        for (int x = 0; x < img->width; x++) {
            double dx = q[2 * x] - cx, dy = q[2 * x + 1] - cy;
            double u = (dx * ca + dy * sa) / stretch, v = -dx * sa + dy * ca;
            double d2 = u * u + v * v;
            if (d2 >= radius * radius) continue;
            double shade = 1 - strength * (1 - smoothstep(inner, radius, sqrt(d2)));
            uint8_t *px = row + x * 3;
            for (int k = 0; k < 3; k++) px[k] = (uint8_t)(px[k] * shade);
        }
    }
}

/* The body of a player leaning in from side s (+1: the +y side) by amount a. */
static int lean_body(const struct people_span *s, const struct goban *g, double a,
                     struct capsule caps[6])
{
    double lh = g->length / 2, top = g->thickness, sd = s->side, x0 = s->from[0];
    double in = a * s->depth;
    double reach = 100 + 0.6 * lh; /* a small board is filmed from closer: lean less far */
    vec3 head = v3(x0, sd * (lh + 100 - reach * in), top + 260 - 120 * in);
    double sy = sd * (lh + 210 - 0.8 * reach * in), sz = top + 210 - 80 * in;
    int n = 0;
    caps[n++] = (struct capsule){head, head, s->radius, 2}; /* hair */
    caps[n++] = (struct capsule){v3(x0 - 150, sy, sz), v3(x0 + 150, sy, sz), 72, 1};
    caps[n++] =
        (struct capsule){v3(x0, sy + sd * 20, sz - 20), v3(x0, sd * (lh + 380), top + 80), 150, 1};
    /* forearms resting on the table edge, toward the board */
    for (int k = -1; k <= 1; k += 2)
        caps[n++] = (struct capsule){v3(x0 + k * 160, sy, sz - 40),
                                     v3(x0 + k * 120, sd * (lh + 40 - 50 * in), top + 30), 42, 1};
    return n;
}

static double lean_head_distance(const struct people_span *s, const struct goban *g,
                                 const struct camera *c)
{
    struct capsule caps[6];
    lean_body(s, g, 1.0, caps);
    vec3 d = v3_sub(caps[0].a, c->pos);
    return sqrt(v3_dot(d, d)) - caps[0].r;
}

/* Closest distance between the ray o + t d (t > 0) and the segment a..b; t of that point. */
static double ray_segment(vec3 o, vec3 d, vec3 a, vec3 b, double *t_out, vec3 *closest)
{
    vec3 ab = v3_sub(b, a), ao = v3_sub(o, a);
    double aa = v3_dot(ab, ab), ad = v3_dot(ab, d), aao = v3_dot(ab, ao), dao = v3_dot(d, ao);
    double den = aa - ad * ad, sp = 0, t;
    if (aa < 1e-9) {
        t = fmax(0, -dao);
    } else {
        sp = den > 1e-9 ? clampd((aao - ad * dao) / den, 0, 1) : 0;
        t = fmax(0, v3_dot(v3_sub(v3_add(a, v3_scale(ab, sp)), o), d));
        sp = clampd(v3_dot(v3_sub(v3_add(o, v3_scale(d, t)), a), ab) / aa, 0, 1);
    }
    vec3 q = v3_add(a, v3_scale(ab, sp));
    t = fmax(0, v3_dot(v3_sub(q, o), d));
    vec3 pr = v3_add(o, v3_scale(d, t));
    *t_out = t;
    *closest = q;
    return sqrt(v3_dot(v3_sub(pr, q), v3_sub(pr, q)));
}

bool people_draw_lean(const struct people *p, cv_image *img, uint8_t *mask, int f,
                      const struct camera *c, const struct lighting *l, const struct goban *g,
                      const double sleeve[3][3])
{
    double a;
    const struct people_span *s = p->sc == RENDER_SCENE_LEANING ? people_at(p, f, &a) : NULL;
    if (!s || a <= 0) return false;
    struct capsule caps[6];
    int n = lean_body(s, g, a, caps);
    const double hair[3] = {34, 28, 24};
    const double *cloth = sleeve[s->side > 0 ? 1 : 2];
    int ux0 = c->w, uy0 = c->h, ux1 = -1, uy1 = -1;
    for (int i = 0; i < n; i++) {
        int x0, y0, x1, y1;
        vec3 mid = v3_scale(v3_add(caps[i].a, caps[i].b), 0.5);
        double pad = caps[i].r * 1.3;
        if (!pixel_box(c, mid, fabs(caps[i].a.x - caps[i].b.x) / 2 + pad,
                       fabs(caps[i].a.y - caps[i].b.y) / 2 + pad,
                       fabs(caps[i].a.z - caps[i].b.z) / 2 + pad, &x0, &y0, &x1, &y1)) {
            x0 = y0 = 0; /* partly behind the camera: its box is not known, search the frame */
            x1 = c->w - 1;
            y1 = c->h - 1;
        }
        if (x0 < ux0) ux0 = x0;
        if (y0 < uy0) uy0 = y0;
        if (x1 > ux1) ux1 = x1;
        if (y1 > uy1) uy1 = y1;
    }
    bool drawn = false;
    for (int y = uy0; y <= uy1; y++) {
        uint8_t *row = img->data + (size_t)y * img->stride;
        double oy = camera_off_v(c, y + 0.5); /* once per row */
        for (int x = ux0; x <= ux1; x++) {
            vec3 d = camera_ray_off(c, camera_off_u(c, x + 0.5), oy);
            double alpha = 0, best_t = 1e30, col[3] = {0, 0, 0};
            for (int i = 0; i < n; i++) {
                double t;
                vec3 q;
                double dist = ray_segment(c->pos, d, caps[i].a, caps[i].b, &t, &q);
                /* out of focus: the edge fades over a third of the radius */
                double ai = 1 - smoothstep(caps[i].r * 0.82, caps[i].r * 1.15, dist);
                if (ai <= 0 || t < 60) continue;
                alpha = 1 - (1 - alpha) * (1 - ai);
                if (t < best_t && ai > 0.3) {
                    best_t = t;
                    vec3 hit = v3_add(c->pos, v3_scale(d, t));
                    vec3 nrm = v3_norm(v3_sub(hit, q));
                    double lit = 0.35 + 0.45 * fmax(0, v3_dot(nrm, l->dir));
                    const double *base = caps[i].material == 2 ? hair : cloth;
                    for (int k = 0; k < 3; k++) col[k] = base[k] * lit;
                }
            }
            if (alpha <= 0.01 || best_t >= 1e30) continue;
            uint8_t *px = row + x * 3;
            for (int k = 0; k < 3; k++) px[k] = to_u8(px[k] * (1 - alpha) + col[k] * alpha);
            if (alpha >= 0.5) {
                mask[(size_t)y * c->w + x] = 255;
                drawn = true;
            }
        }
    }
    return drawn;
}

bool people_draw_shadow(const struct people *p, cv_image *img, int f, const struct goban *g)
{
    double a;
    const struct people_span *s = p->plane ? people_at(p, f, &a) : NULL;
    if (!s) return false;
    if (p->sc == RENDER_SCENE_SHADOWS) {
        double k = (f - s->f0) / (double)(s->f1 - s->f0);
        double cx = s->from[0] + (s->to[0] - s->from[0]) * k,
               cy = s->from[1] + (s->to[1] - s->from[1]) * k;
        soft_shadow(p, img, cx, cy, s->radius, s->stretch, s->angle, s->strength * a);
        return true;
    }
    /* a leaning body darkens the edge it leans over */
    double lh = g->length / 2;
    soft_shadow(p, img, s->from[0], s->side * (lh + 60 - 120 * a * s->depth), 260, 1.5, 0,
                0.28 * a);
    return false;
}

void people_draw_clock(const struct people *p, cv_image *img, const struct camera *c,
                       const struct lighting *l)
{
    if (p->sc != RENDER_SCENE_CLOCK) return;
    double lo[3] = {p->clock_xy[0] - p->clock_size[0] / 2, p->clock_xy[1] - p->clock_size[1] / 2,
                    0},
           hi[3] = {p->clock_xy[0] + p->clock_size[0] / 2, p->clock_xy[1] + p->clock_size[1] / 2,
                    p->clock_size[2]};
    int x0, y0, x1, y1;
    vec3 mid = v3(p->clock_xy[0], p->clock_xy[1], p->clock_size[2] / 2);
    if (!pixel_box(c, mid, p->clock_size[0] / 2, p->clock_size[1] / 2, p->clock_size[2] / 2, &x0,
                   &y0, &x1, &y1))
        return;
    for (int y = y0; y <= y1; y++) {
        uint8_t *row = img->data + (size_t)y * img->stride;
        double oy = camera_off_v(c, y + 0.5); /* once per row */
        for (int x = x0; x <= x1; x++) {
            vec3 d = camera_ray_off(c, camera_off_u(c, x + 0.5), oy);
            double t;
            double po[3] = {c->pos.x, c->pos.y, c->pos.z}, pd[3] = {d.x, d.y, d.z};
            int axis = render_ray_box(po, pd, lo, hi, &t);
            if (axis < 0) continue;
            vec3 h = v3_add(c->pos, v3_scale(d, t));
            vec3 nrm = axis == 2   ? v3(0, 0, 1)
                       : axis == 0 ? v3(d.x > 0 ? -1 : 1, 0, 0)
                                   : v3(0, d.y > 0 ? -1 : 1, 0);
            double lit = 0.4 + 0.6 * fmax(0, v3_dot(nrm, l->dir));
            double base[3] = {38, 36, 34}; /* black plastic */
            if (axis == 0 && h.z > p->clock_size[2] * 0.35 && h.z < p->clock_size[2] * 0.8 &&
                fabs(fabs(h.y - p->clock_xy[1]) - p->clock_size[1] * 0.25) <
                    p->clock_size[1] * 0.18) { /* the two displays */
                base[0] = 170;
                base[1] = 182;
                base[2] = 160;
            }
            if (axis == 2 && fabs(fabs(h.y - p->clock_xy[1]) - p->clock_size[1] * 0.28) < 14 &&
                fabs(h.x - p->clock_xy[0]) < 14) { /* the buttons */
                base[0] = 150;
                base[1] = 40;
                base[2] = 36;
            }
            uint8_t *px = row + x * 3;
            for (int k = 0; k < 3; k++) px[k] = to_u8(base[k] * lit);
        }
    }
}

bool people_clock_hand(const struct people *p, int f, const struct goban *g, struct hand_model *h,
                       int *side)
{
    double a;
    const struct people_span *s = p->sc == RENDER_SCENE_CLOCK ? people_at(p, f, &a) : NULL;
    if (!s || a <= 0) return false;
    double sd = s->side;
    vec3 from = v3(-sd * sin(s->angle), -sd * cos(s->angle), 0);
    vec3 rest =
        v3(p->clock_xy[0], p->clock_xy[1] + sd * p->clock_size[1] * 0.28, p->clock_size[2] + 10);
    vec3 away = v3(p->clock_xy[0] + 40, sd * (g->length / 2 + 420), 200);
    vec3 tip = v3_add(away, v3_scale(v3_sub(rest, away), a));
    hand_pose(h, tip, from, 6.0);
    *side = s->side > 0 ? 1 : 2;
    return true;
}

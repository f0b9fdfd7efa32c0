/* render/hand.c — a player's hand and arm: capsules (palm, two fingers holding the stone the Go
 * way, curled fingers, forearm, sleeve, upper arm) ray-cast per pixel, with a soft shadow on the
 * board. The drawn pixels form the hand mask the truth is read from. */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

static void add(struct hand_model *h, vec3 a, vec3 b, double r, int material)
{
    if (h->n < (int)(sizeof h->caps / sizeof h->caps[0]))
        h->caps[h->n++] = (struct capsule){a, b, r, material};
}

void hand_pose(struct hand_model *h, vec3 tip, vec3 from, double spread)
{
    h->n = 0;
    vec3 side = v3(-from.y, from.x, 0); /* across the hand */
    vec3 up = v3(0, 0, 1);
    /* from points from the player toward the board; the hand lies behind the fingertips. */
    vec3 knuckle = v3_add(tip, v3_add(v3_scale(from, -34), v3_scale(up, 30)));
    vec3 wrist = v3_add(knuckle, v3_add(v3_scale(from, -62), v3_scale(up, 22)));
    vec3 elbow = v3_add(wrist, v3_add(v3_scale(from, -250), v3_scale(up, 70)));
    vec3 shoulder = v3_add(elbow, v3_add(v3_scale(from, -260), v3_scale(up, 230)));
    /* index and middle finger pinch the stone */
    add(h, knuckle, v3_add(tip, v3_scale(side, 4 + spread)), 7.5, 0);
    add(h, v3_add(knuckle, v3_scale(side, -15)), v3_add(tip, v3_scale(side, -5 - spread)), 7.8, 0);
    /* curled ring and little fingers, thumb */
    add(h, v3_add(knuckle, v3_scale(side, -28)),
        v3_add(knuckle, v3_add(v3_scale(from, -6), v3_add(v3_scale(up, -18), v3_scale(side, -26)))),
        8.0, 0);
    add(h, v3_add(knuckle, v3_scale(side, 14)),
        v3_add(knuckle, v3_add(v3_scale(from, -14), v3_add(v3_scale(up, -16), v3_scale(side, 26)))),
        8.5, 0);
    /* palm and wrist */
    /* a flat, wide palm: three capsules side by side */
    for (int k = -1; k <= 1; k++)
        add(h, v3_add(knuckle, v3_add(v3_scale(side, -7 + 15 * k), v3_scale(up, 4 - 3 * abs(k)))),
            v3_add(wrist, v3_scale(side, -4 + 9 * k)), 12.5, 0);
    add(h, wrist, v3_add(wrist, v3_scale(from, -120)), 21, 0);
    /* forearm in a sleeve, upper arm */
    add(h, v3_add(wrist, v3_scale(from, -70)), elbow, 36, 1);
    add(h, elbow, shoulder, 48, 1);
}

/* Ray against a capsule; returns the distance and the outward normal. */
static bool ray_capsule(vec3 o, vec3 d, const struct capsule *cp, double *t_hit, vec3 *normal)
{
    vec3 ba = v3_sub(cp->b, cp->a), oa = v3_sub(o, cp->a);
    double baba = v3_dot(ba, ba), bard = v3_dot(ba, d), baoa = v3_dot(ba, oa);
    double rdoa = v3_dot(d, oa), oaoa = v3_dot(oa, oa);
    double a = baba - bard * bard, b = baba * rdoa - baoa * bard;
    double c = baba * oaoa - baoa * baoa - cp->r * cp->r * baba;
    double hh = b * b - a * c, t = -1;
    if (hh >= 0 && a > 1e-12) {
        t = (-b - sqrt(hh)) / a;
        double y = baoa + t * bard;
        if (!(y > 0 && y < baba)) t = -1; /* outside the body: try the end spheres */
    }
    if (t < 0) {
        double best = -1;
        for (int e = 0; e < 2; e++) {
            vec3 oc = v3_sub(o, e ? cp->b : cp->a);
            double bb = v3_dot(d, oc), cc = v3_dot(oc, oc) - cp->r * cp->r, h2 = bb * bb - cc;
            if (h2 < 0) continue;
            double te = -bb - sqrt(h2);
            if (te > 0 && (best < 0 || te < best)) best = te;
        }
        t = best;
    }
    if (t <= 0) return false;
    vec3 p = v3_add(o, v3_scale(d, t));
    double s = clampd(v3_dot(v3_sub(p, cp->a), ba) / baba, 0, 1);
    *normal = v3_norm(v3_sub(p, v3_add(cp->a, v3_scale(ba, s))));
    *t_hit = t;
    return true;
}

void hand_draw_shadow(cv_image *img, const struct camera *c, const struct lighting *l,
                      const struct hand_model *h, double board_top)
{
    double lz = fmax(l->dir.z, 0.25);
    for (int i = 0; i < h->n; i++) {
        const struct capsule *cp = &h->caps[i];
        /* the capsule's axis dropped onto the board along the light */
        vec3 a = v3(cp->a.x - l->dir.x / lz * (cp->a.z - board_top),
                    cp->a.y - l->dir.y / lz * (cp->a.z - board_top), board_top);
        vec3 b = v3(cp->b.x - l->dir.x / lz * (cp->b.z - board_top),
                    cp->b.y - l->dir.y / lz * (cp->b.z - board_top), board_top);
        double height = fmax(0, (cp->a.z + cp->b.z) / 2 - board_top);
        double pen = 4 + 0.12 * height, reach = cp->r + pen;
        vec3 mid = v3_scale(v3_add(a, b), 0.5);
        int x0, y0, x1, y1;
        if (!pixel_box(c, mid, fabs(a.x - b.x) / 2 + reach, fabs(a.y - b.y) / 2 + reach, 0, &x0,
                       &y0, &x1, &y1))
            continue;
        vec3 ab = v3_sub(b, a);
        double abab = fmax(v3_dot(ab, ab), 1e-9);
        double strength = 0.35 * (1 - smoothstep(0, 400, height));
        for (int y = y0; y <= y1; y++) {
            uint8_t *row = img->data + (size_t)y * img->stride;
            double oy = camera_off_v(c, y + 0.5); /* once per row */
            for (int x = x0; x <= x1; x++) {
                vec3 d = camera_ray_off(c, camera_off_u(c, x + 0.5), oy);
                if (d.z >= -1e-9) continue;
                double t = (board_top - c->pos.z) / d.z;
                vec3 p = v3(c->pos.x + t * d.x, c->pos.y + t * d.y, board_top);
                double s = clampd(v3_dot(v3_sub(p, a), ab) / abab, 0, 1);
                vec3 q = v3_add(a, v3_scale(ab, s));
                double dist = sqrt((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y));
                double shade = 1 - strength * (1 - smoothstep(cp->r - pen, cp->r + pen, dist));
                if (shade > 0.999) continue;
                uint8_t *px = row + x * 3;
                for (int k = 0; k < 3; k++) px[k] = (uint8_t)(px[k] * shade);
            }
        }
    }
}

/* Shorten a capsule so that it lies in front of the camera (an arm may reach past it). */
static bool clip_to_camera(const struct camera *c, struct capsule *cp)
{
    const double near = 40 + cp->r;
    double za = v3_dot(v3_sub(cp->a, c->pos), c->fwd), zb = v3_dot(v3_sub(cp->b, c->pos), c->fwd);
    if (za < near && zb < near) return false;
    if (za < near) cp->a = v3_add(cp->a, v3_scale(v3_sub(cp->b, cp->a), (near - za) / (zb - za)));
    if (zb < near) cp->b = v3_add(cp->b, v3_scale(v3_sub(cp->a, cp->b), (near - zb) / (za - zb)));
    return true;
}

void hand_draw(cv_image *img, uint8_t *mask, const struct camera *c, const struct lighting *l,
               const struct hand_model *h)
{
    /* Capsule by capsule over its own pixel box, nearest hit kept in a depth buffer. */
    float *depth = NULL;
    int bx0[16], by0[16], bx1[16], by1[16], ux0 = c->w, uy0 = c->h, ux1 = -1, uy1 = -1;
    struct capsule caps[16];
    bool use[16];
    for (int i = 0; i < h->n; i++) {
        caps[i] = h->caps[i];
        use[i] = clip_to_camera(c, &caps[i]);
        vec3 mid = v3_scale(v3_add(caps[i].a, caps[i].b), 0.5);
        use[i] = use[i] && pixel_box(c, mid, fabs(caps[i].a.x - caps[i].b.x) / 2 + caps[i].r,
                                     fabs(caps[i].a.y - caps[i].b.y) / 2 + caps[i].r,
                                     fabs(caps[i].a.z - caps[i].b.z) / 2 + caps[i].r, &bx0[i],
                                     &by0[i], &bx1[i], &by1[i]);
        if (!use[i]) continue;
        if (bx0[i] < ux0) ux0 = bx0[i];
        if (by0[i] < uy0) uy0 = by0[i];
        if (bx1[i] > ux1) ux1 = bx1[i];
        if (by1[i] > uy1) uy1 = by1[i];
    }
    if (ux1 < ux0 || !(depth = malloc(sizeof *depth * (size_t)c->w * c->h))) return;
    for (int y = uy0; y <= uy1; y++)
        for (int x = ux0; x <= ux1; x++) depth[(size_t)y * c->w + x] = 1e30f;
    for (int i = 0; i < h->n; i++) {
        if (!use[i]) continue;
        const double *base = caps[i].material == 1 ? h->sleeve : h->skin;
        for (int y = by0[i]; y <= by1[i]; y++) {
            uint8_t *row = img->data + (size_t)y * img->stride;
            double oy = camera_off_v(c, y + 0.5); /* once per row */
            for (int x = bx0[i]; x <= bx1[i]; x++) {
                vec3 d = camera_ray_off(c, camera_off_u(c, x + 0.5), oy), nrm;
                double t;
                size_t k = (size_t)y * c->w + x;
                if (!ray_capsule(c->pos, d, &caps[i], &t, &nrm) || t >= depth[k]) continue;
                depth[k] = (float)t;
                double ndl = fmax(0, v3_dot(nrm, l->dir));
                double amb = 0.38 + 0.25 * nrm.z;
                vec3 hv = v3_norm(v3_sub(l->dir, d));
                double nh = fmax(0, v3_dot(nrm, hv)), nh2 = nh * nh, nh4 = nh2 * nh2;
                double spec = caps[i].material == 0 ? 25 * nh4 * nh4 * nh4 * nh4 : 0;
                uint8_t *p = row + x * 3;
                for (int j = 0; j < 3; j++) p[j] = to_u8(base[j] * (amb + 0.75 * ndl) + spec);
                mask[k] = 255;
            }
        }
    }
    free(depth);
}

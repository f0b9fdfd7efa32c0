/* render/stones.c — Go stones as real biconvex lenses (two spherical caps), ray-cast per pixel
 * with 2x2 supersampling: slate black with a soft sheen, shell white with faint stripes or glass
 * white with a gloss, each a little off-centre and turned; soft shadows on the board. */
#include <stdlib.h>

#include "render/render_internal.h"

/* Pixel box covering the world box centre +- (rx, ry, rz); false when nothing is visible. */
bool pixel_box(const struct camera *c, vec3 ctr, double rx, double ry, double rz, int *x0, int *y0,
               int *x1, int *y1)
{
    double lo_u = 1e30, lo_v = 1e30, hi_u = -1e30, hi_v = -1e30;
    for (int i = 0; i < 8; i++) {
        vec3 p =
            v3(ctr.x + (i & 1 ? rx : -rx), ctr.y + (i & 2 ? ry : -ry), ctr.z + (i & 4 ? rz : -rz));
        double u, v;
        if (!camera_project(c, p, &u, &v)) return false;
        lo_u = fmin(lo_u, u);
        hi_u = fmax(hi_u, u);
        lo_v = fmin(lo_v, v);
        hi_v = fmax(hi_v, v);
    }
    *x0 = (int)fmax(0, floor(lo_u) - 1);
    *y0 = (int)fmax(0, floor(lo_v) - 1);
    *x1 = (int)fmin(c->w - 1, ceil(hi_u) + 1);
    *y1 = (int)fmin(c->h - 1, ceil(hi_v) + 1);
    return *x0 <= *x1 && *y0 <= *y1;
}

void stones_draw_shadows(cv_image *img, const struct camera *c, const struct lighting *l,
                         const struct stone_draw *s, int n, double board_top)
{
    double lz = fmax(l->dir.z, 0.2);
    for (int i = 0; i < n; i++) {
        double up = s[i].centre.z - board_top;
        vec3 sc =
            v3(s[i].centre.x - l->dir.x / lz * up, s[i].centre.y - l->dir.y / lz * up, board_top);
        double reach = STONE_R + 6;
        int x0, y0, x1, y1;
        vec3 box = v3((sc.x + s[i].centre.x) / 2, (sc.y + s[i].centre.y) / 2, board_top);
        double ext = reach + fabs(sc.x - s[i].centre.x) / 2 + fabs(sc.y - s[i].centre.y) / 2;
        if (!pixel_box(c, box, ext, ext, 0, &x0, &y0, &x1, &y1)) continue;
        for (int y = y0; y <= y1; y++) {
            uint8_t *row = img->data + (size_t)y * img->stride;
            double oy = camera_off_v(c, y + 0.5); /* once per row */
            for (int x = x0; x <= x1; x++) {
                vec3 d = camera_ray_off(c, camera_off_u(c, x + 0.5), oy);
                if (d.z >= -1e-9) continue;
                double t = (board_top - c->pos.z) / d.z;
                double px = c->pos.x + t * d.x, py = c->pos.y + t * d.y;
                double ex = px - sc.x, ey = py - sc.y, fx = px - s[i].centre.x,
                       fy = py - s[i].centre.y;
                double ds = sqrt(ex * ex + ey * ey), dc = sqrt(fx * fx + fy * fy);
                double shade = 1 - 0.42 * (1 - smoothstep(STONE_R - 3.5, STONE_R + 3.0, ds));
                shade *= 1 - 0.30 * (1 - smoothstep(STONE_R - 1.0, STONE_R + 2.5, dc));
                if (shade > 0.999) continue;
                uint8_t *p = row + x * 3;
                for (int k = 0; k < 3; k++) p[k] = (uint8_t)(p[k] * shade);
            }
        }
    }
}

/* What a ray from the camera (o) needs of the lens centred at ctr besides its direction: the two
 * caps' spheres and the camera's place relative to them. The same for every pixel of the stone,
 * so computed once per stone. */
struct lens_eye {
    vec3 o, ct, cb;  /* the camera; the centres of the top cap's and the bottom cap's spheres */
    vec3 ot, ob;     /* the camera from each centre */
    double ct2, cb2; /* |ot|^2 - R^2, |ob|^2 - R^2 */
};

static void lens_eye_init(struct lens_eye *e, vec3 o, vec3 ctr)
{
    const double R = (STONE_R * STONE_R + STONE_H * STONE_H) / (2 * STONE_H);
    e->o = o;
    e->ct = v3(ctr.x, ctr.y, ctr.z - (R - STONE_H));
    e->cb = v3(ctr.x, ctr.y, ctr.z + (R - STONE_H));
    e->ot = v3_sub(o, e->ct);
    e->ob = v3_sub(o, e->cb);
    e->ct2 = v3_dot(e->ot, e->ot) - R * R;
    e->cb2 = v3_dot(e->ob, e->ob) - R * R;
}

/* Ray (camera, d unit) against the lens; returns the distance and the normal. */
static bool ray_lens(const struct lens_eye *e, vec3 d, double *t_hit, vec3 *normal)
{
    double bt = v3_dot(d, e->ot), ht = bt * bt - e->ct2;
    double bb = v3_dot(d, e->ob), hb = bb * bb - e->cb2;
    if (ht < 0 || hb < 0) return false;
    ht = sqrt(ht);
    hb = sqrt(hb);
    double t0t = -bt - ht, t1t = -bt + ht, t0b = -bb - hb, t1b = -bb + hb;
    double t_in = fmax(t0t, t0b), t_out = fmin(t1t, t1b);
    if (t_in >= t_out || t_out < 0) return false;
    *t_hit = t_in;
    vec3 p = v3_add(e->o, v3_scale(d, t_in));
    *normal = v3_norm(v3_sub(p, t0t > t0b ? e->ct : e->cb));
    return true;
}

/* Colour of a stone surface point. */
static void shade_stone(const struct stone_draw *s, const struct lighting *l, vec3 p, vec3 nrm,
                        vec3 view, bool glass, double out[3])
{
    double ndl = fmax(0, v3_dot(nrm, l->dir));
    vec3 hv = v3_norm(v3_add(l->dir, view));
    double ndh = fmax(0, v3_dot(nrm, hv));
    double amb = 0.42 + 0.30 * nrm.z;
    if (s->color == GO_BLACK) {
        double base = 24 * s->look.tone;
        double diff = base * (amb + 0.9 * ndl);
        double sheen = 70 * pow(ndh, 10) + 55 * pow(ndh, 60); /* slate: broad, soft */
        double rim = 18 * pow(1 - fmax(0, v3_dot(nrm, view)), 3);
        for (int k = 0; k < 3; k++) out[k] = diff + sheen + rim + (k == 2 ? 2 : 0);
    } else {
        double stripe = 0;
        if (!glass) {
            double lx = p.x - s->centre.x, ly = p.y - s->centre.y;
            double u = lx * cos(s->look.angle) + ly * sin(s->look.angle);
            stripe = 0.018 * sin(u * 5.2 + 0.8 * sin(u * 0.9)) + 0.008 * sin(u * 13.0);
        }
        double alb = 0.93 * s->look.tone * (1 + stripe);
        double tint[3] = {1.0, 0.985, glass ? 0.99 : 0.94};
        double diff = 242 * alb * (0.56 * amb + 0.68 * ndl);
        double spec = glass ? 150 * pow(ndh, 90) + 30 * pow(ndh, 12) : 70 * pow(ndh, 40);
        for (int k = 0; k < 3; k++) out[k] = diff * tint[k] + spec;
    }
}

static int by_distance(const void *a, const void *b)
{
    double da = ((const struct stone_draw *)a)->dist, db = ((const struct stone_draw *)b)->dist;
    return da < db ? 1 : da > db ? -1 : 0;
}

void stones_draw(cv_image *img, uint8_t *mask, const struct camera *c, const struct lighting *l,
                 struct stone_draw *s, int n, bool white_glass)
{
    for (int i = 0; i < n; i++)
        s[i].dist = sqrt(v3_dot(v3_sub(s[i].centre, c->pos), v3_sub(s[i].centre, c->pos)));
    qsort(s, (size_t)n, sizeof *s, by_distance); /* far ones first: near ones cover them */
    static const double sub[4][2] = {{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}};
    for (int i = 0; i < n; i++) {
        int x0, y0, x1, y1;
        if (!pixel_box(c, s[i].centre, STONE_R, STONE_R, STONE_H, &x0, &y0, &x1, &y1)) continue;
        struct lens_eye eye;
        lens_eye_init(&eye, c->pos, s[i].centre);
        for (int y = y0; y <= y1; y++) {
            uint8_t *row = img->data + (size_t)y * img->stride;
            /* the sub-samples' offsets: two rows here, two columns per pixel */
            double oy[2] = {camera_off_v(c, y + sub[0][1]), camera_off_v(c, y + sub[2][1])};
            for (int x = x0; x <= x1; x++) {
                /* coverage from four sub-samples, colour shaded once at the first hit */
                double col[3];
                double ox[2] = {camera_off_u(c, x + sub[0][0]), camera_off_u(c, x + sub[1][0])};
                int hits = 0;
                for (int k = 0; k < 4; k++) {
                    vec3 d = camera_ray_off(c, ox[k & 1], oy[k >> 1]), nrm;
                    double t;
                    if (!ray_lens(&eye, d, &t, &nrm)) continue;
                    if (!hits++)
                        shade_stone(&s[i], l, v3_add(c->pos, v3_scale(d, t)), nrm, v3_scale(d, -1),
                                    white_glass, col);
                }
                if (!hits) continue;
                uint8_t *p = row + x * 3;
                double a = hits / 4.0;
                for (int j = 0; j < 3; j++) p[j] = to_u8(p[j] * (1 - a) + col[j] * a);
                if (mask && hits >= 2) mask[(size_t)y * c->w + x] = 255;
            }
        }
    }
}

/* render/pieces.c — shogi pieces as real wedges: a pentagonal prism whose top slopes from the
 * thick base edge down to the thinner apex, ray-cast per pixel (Cyrus-Beck against its seven
 * planes) with 2x2 supersampling. The top carries the face texture (black ink, red for promoted
 * faces) on pale boxwood with a faint grain; the apex points at the opponent. */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

/* Real sets (mm): the king is the largest piece, the pawn the smallest. */
void piece_size(enum shogi_type t, double *w, double *h, double *thick)
{
    static const double dims[9][3] = {{0, 0, 0},         {23.5, 27.0, 6.8}, {24.0, 28.0, 7.2},
                                      {25.0, 28.5, 7.4}, {26.0, 29.5, 7.8}, {27.0, 31.0, 8.2},
                                      {27.0, 31.0, 8.2}, {26.0, 29.5, 7.8}, {28.5, 32.0, 8.6}};
    int b = shogi_type_base(t);
    if (b < 1 || b > 8) b = 1;
    *w = dims[b][0];
    *h = dims[b][1];
    *thick = dims[b][2];
}

/* The piece's local frame: u to the owner's right, v toward the apex, z up from the base. */
struct frame3 {
    vec3 right, fwd;
};
static struct frame3 piece_frame(const struct piece_draw *p)
{
    struct frame3 f;
    f.fwd = v3(cos(p->heading), sin(p->heading), 0);
    f.right = v3(-f.fwd.y, f.fwd.x, 0);
    return f;
}

/* The wedge's seven planes (n.x <= c in the local frame), computed once per piece. */
struct wedge {
    struct frame3 fr;
    double w, h, tb;
    double pl[7][4];
};

static void wedge_init(struct wedge *wg, const struct piece_draw *p)
{
    wg->fr = piece_frame(p);
    piece_size(shogi_piece_type(p->piece), &wg->w, &wg->h, &wg->tb);
    double w = wg->w, h = wg->h, tb = wg->tb, ta = tb * 0.62, k = (ta - tb) / h;
    double sw = 0.43 * w, sv = 0.2 * h;
    double vx[5][2] = {{-w / 2, -h / 2}, {w / 2, -h / 2}, {sw, sv}, {0, h / 2}, {-sw, sv}};
    for (int i = 0; i < 5; i++) {
        const double *a = vx[i], *b = vx[(i + 1) % 5];
        double nu = b[1] - a[1], nv = -(b[0] - a[0]), len = sqrt(nu * nu + nv * nv);
        nu /= len;
        nv /= len;
        double row[4] = {nu, nv, 0, nu * a[0] + nv * a[1]};
        memcpy(wg->pl[i], row, sizeof row);
    }
    double nl = sqrt(k * k + 1);
    double top[4] = {0, -k / nl, 1 / nl, (tb + k * h / 2) / nl}, bottom[4] = {0, 0, -1, 0};
    memcpy(wg->pl[5], top, sizeof top);
    memcpy(wg->pl[6], bottom, sizeof bottom);
}

/* What a ray from the camera needs of the wedge besides its direction: the camera in the
 * piece's frame and each plane's offset from it. The same for every pixel of the piece, so
 * computed once per piece. */
struct wedge_eye {
    double ol[3];
    double num[7];
};

static void wedge_eye_init(struct wedge_eye *e, const struct piece_draw *p, const struct wedge *wg,
                           vec3 o)
{
    vec3 ro = v3_sub(o, p->base);
    e->ol[0] = v3_dot(ro, wg->fr.right);
    e->ol[1] = v3_dot(ro, wg->fr.fwd);
    e->ol[2] = ro.z;
    for (int i = 0; i < 7; i++) {
        const double *q = wg->pl[i];
        e->num[i] = q[3] - (q[0] * e->ol[0] + q[1] * e->ol[1] + q[2] * e->ol[2]);
    }
}

/* Ray from the camera against the wedge (Cyrus-Beck); the local normal of the face hit and the
 * local (u, v). */
static bool ray_piece(const struct wedge *wg, const struct wedge_eye *e, vec3 d, double *t_hit,
                      vec3 *n_local, double *u_hit, double *v_hit)
{
    double dl[3] = {v3_dot(d, wg->fr.right), v3_dot(d, wg->fr.fwd), d.z};
    double t_in = -1e30, t_out = 1e30;
    int face = -1;
    for (int i = 0; i < 7; i++) {
        const double *q = wg->pl[i];
        double den = q[0] * dl[0] + q[1] * dl[1] + q[2] * dl[2];
        double num = e->num[i];
        if (fabs(den) < 1e-12) {
            if (num < 0) return false;
            continue;
        }
        double t = num / den;
        if (den < 0) {
            if (t > t_in) {
                t_in = t;
                face = i;
            }
        } else if (t < t_out) {
            t_out = t;
        }
        if (t_in > t_out) return false;
    }
    if (t_out <= 0 || face < 0 || t_in <= 0) return false;
    *t_hit = t_in;
    *n_local = v3(wg->pl[face][0], wg->pl[face][1], wg->pl[face][2]);
    *u_hit = e->ol[0] + t_in * dl[0];
    *v_hit = e->ol[1] + t_in * dl[1];
    return true;
}

/* Ink coverage (0..1) of the face at local (u, v). */
static double face_ink(const struct piece_draw *p, const struct wedge *wg,
                       const struct piece_faces *pf, double u, double v)
{
    int type = shogi_piece_type(p->piece);
    int idx = type == SHOGI_KING && shogi_piece_color(p->piece) == SHOGI_GOTE ? 0 : type;
    double tx = (u / wg->w + 0.5) * pf->tw - 0.5, ty = (0.5 - v / wg->h) * pf->th - 0.5;
    int ix = (int)floor(tx), iy = (int)floor(ty);
    double fx = tx - ix, fy = ty - iy, a = 0;
    for (int q = 0; q < 4; q++) {
        int xx = ix + (q & 1), yy = iy + (q >> 1);
        if (xx < 0 || yy < 0 || xx >= pf->tw || yy >= pf->th) continue;
        a += (q & 1 ? fx : 1 - fx) * (q >> 1 ? fy : 1 - fy) * pf->ink[idx][yy * pf->tw + xx];
    }
    return a / 255.0;
}

/* Light on the surface (gain and specular) and the bare wood colour there. */
static void shade_piece(const struct piece_draw *p, const struct wedge *wg,
                        const struct lighting *l, vec3 nl, double u, double v, vec3 view,
                        double wood[3], double *gain, double *spec)
{
    vec3 n = v3_norm(
        v3_add(v3_add(v3_scale(wg->fr.right, nl.x), v3_scale(wg->fr.fwd, nl.y)), v3(0, 0, nl.z)));
    double ndl = fmax(0, v3_dot(n, l->dir));
    vec3 hv = v3_norm(v3_add(l->dir, view));
    double nh = fmax(0, v3_dot(n, hv)), nh2 = nh * nh, nh4 = nh2 * nh2, nh8 = nh4 * nh4;
    *spec = 38 * nh8 * nh8 * nh8;
    *gain = 0.45 + 0.25 * n.z + 0.62 * ndl;
    /* boxwood: pale yellow with a faint straight grain along the piece */
    double grain = 0.04 * sin(u * 2.3 + 1.7 * sin(v * 0.21 + p->tone * 40));
    double side = nl.z > 0.5 ? 1.0 : 0.86;
    wood[0] = p->wood[0] * (1 + grain) * side;
    wood[1] = p->wood[1] * (1 + grain) * side;
    wood[2] = p->wood[2] * (1 + 1.3 * grain) * side;
}

static int by_distance(const void *a, const void *b)
{
    const struct piece_draw *pa = a, *pb = b;
    if (pa->base.z != pb->base.z)
        return pa->base.z < pb->base.z ? -1 : 1; /* stacked: lower first */
    return pa->dist < pb->dist ? 1 : pa->dist > pb->dist ? -1 : 0;
}

/* What a piece's sprite follows from: its place and look (the camera, the light and the faces
 * are the same for every frame of a render). */
static void sprite_key(const struct piece_draw *p, double key[9])
{
    const double k[9] = {p->base.x, p->base.y,  p->base.z,  p->heading, p->piece,
                         p->tone,   p->wood[0], p->wood[1], p->wood[2]};
    memcpy(key, k, sizeof k);
}

/* Paint piece p into sprite s: its pixel box, each pixel's colour and sub-sample coverage (the
 * box is empty when the piece is not in view). false: out of memory. */
static bool sprite_paint(struct piece_sprite *s, const struct camera *c, const struct lighting *l,
                         const struct piece_faces *pf, const struct piece_draw *p)
{
    static const double sub[4][2] = {{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}};
    sprite_key(p, s->key);
    s->x0 = s->y0 = 0, s->x1 = s->y1 = -1;
    s->col = NULL;
    s->hits = NULL;
    double w, h, tb;
    piece_size(shogi_piece_type(p->piece), &w, &h, &tb);
    struct wedge wg;
    wedge_init(&wg, p);
    struct wedge_eye eye;
    wedge_eye_init(&eye, p, &wg, c->pos);
    bool red = shogi_type_is_promoted(shogi_piece_type(p->piece));
    const double ink[3] = {red ? 176 : 22, red ? 30 : 18, red ? 24 : 14};
    /* pixel box of the wedge's ten corners (tighter than a box around its circle) */
    double lo_u = 1e30, lo_v = 1e30, hi_u = -1e30, hi_v = -1e30;
    static const double cu[5] = {-0.5, 0.5, 0.43, 0, -0.43}, cv[5] = {-0.5, -0.5, 0.2, 0.5, 0.2};
    bool seen = true;
    for (int k = 0; k < 10 && seen; k++) {
        vec3 q = v3_add(p->base, v3_add(v3_scale(wg.fr.right, cu[k % 5] * w),
                                        v3_scale(wg.fr.fwd, cv[k % 5] * h)));
        q.z += k < 5 ? 0 : tb;
        double u, v;
        seen = camera_project(c, q, &u, &v);
        lo_u = fmin(lo_u, u);
        hi_u = fmax(hi_u, u);
        lo_v = fmin(lo_v, v);
        hi_v = fmax(hi_v, v);
    }
    if (!seen) return true;
    int x0 = (int)fmax(0, floor(lo_u) - 1), y0 = (int)fmax(0, floor(lo_v) - 1);
    int x1 = (int)fmin(c->w - 1, ceil(hi_u) + 1), y1 = (int)fmin(c->h - 1, ceil(hi_v) + 1);
    if (x1 < x0 || y1 < y0) return true;
    size_t bw = (size_t)(x1 - x0 + 1), npx = bw * (size_t)(y1 - y0 + 1);
    if (!(s->col = malloc(sizeof *s->col * 3 * npx)) || !(s->hits = malloc(npx))) return false;
    s->x0 = x0, s->y0 = y0, s->x1 = x1, s->y1 = y1;
    for (int y = y0; y <= y1; y++) {
        /* the sub-samples' offsets: two rows here, two columns per pixel */
        double oy[2] = {camera_off_v(c, y + sub[0][1]), camera_off_v(c, y + sub[2][1])};
        for (int x = x0; x <= x1; x++) {
            /* coverage and ink from four sub-samples, light once at the first hit */
            double wood[3] = {0, 0, 0}, gain = 0, spec = 0, inked = 0;
            double ox[2] = {camera_off_u(c, x + sub[0][0]), camera_off_u(c, x + sub[1][0])};
            int hits = 0, tops = 0;
            for (int k = 0; k < 4; k++) {
                vec3 d = camera_ray_off(c, ox[k & 1], oy[k >> 1]), nl;
                double t, u, v;
                if (!ray_piece(&wg, &eye, d, &t, &nl, &u, &v)) continue;
                if (!hits++) shade_piece(p, &wg, l, nl, u, v, v3_scale(d, -1), wood, &gain, &spec);
                if (nl.z > 0.5 && pf) {
                    inked += face_ink(p, &wg, pf, u, v);
                    tops++;
                }
            }
            size_t i = (size_t)(y - y0) * bw + (size_t)(x - x0);
            s->hits[i] = (uint8_t)hits;
            if (!hits) continue;
            double ia = tops ? 0.95 * inked / hits : 0;
            for (int j = 0; j < 3; j++)
                s->col[3 * i + j] = (wood[j] * (1 - ia) + ink[j] * ia) * gain + spec;
        }
    }
    return true;
}

/* Lay sprite s over the image: each pixel blends by the share of sub-samples covered. */
static void sprite_blend(const struct piece_sprite *s, cv_image *img, uint8_t *mask)
{
    size_t bw = (size_t)(s->x1 - s->x0 + 1);
    for (int y = s->y0; y <= s->y1; y++) {
        uint8_t *row = img->data + (size_t)y * img->stride;
        for (int x = s->x0; x <= s->x1; x++) {
            size_t i = (size_t)(y - s->y0) * bw + (size_t)(x - s->x0);
            int hits = s->hits[i];
            if (!hits) continue;
            uint8_t *px = row + x * 3;
            double a = hits / 4.0;
            for (int j = 0; j < 3; j++) px[j] = to_u8(px[j] * (1 - a) + s->col[3 * i + j] * a);
            if (mask && hits >= 2) mask[(size_t)y * img->width + x] = 255;
        }
    }
}

static void sprite_free(struct piece_sprite *s)
{
    free(s->col);
    free(s->hits);
    s->col = NULL;
    s->hits = NULL;
}

void piece_sprites_free(struct piece_sprites *keep)
{
    if (!keep) return;
    for (int i = 0; i < keep->n; i++) sprite_free(&keep->v[i]);
    free(keep->v);
    *keep = (struct piece_sprites){NULL, 0};
}

/* The kept sprite of a piece with this key, taken out of keep into out; false: none kept. */
static bool sprite_take(struct piece_sprites *keep, const double key[9], struct piece_sprite *out)
{
    for (int j = 0; keep && j < keep->n; j++) {
        struct piece_sprite *s = &keep->v[j];
        if (s->taken || memcmp(s->key, key, sizeof s->key) != 0) continue;
        *out = *s;
        s->taken = true;
        s->col = NULL;
        s->hits = NULL;
        return true;
    }
    return false;
}

bool pieces_draw(cv_image *img, uint8_t *mask, const struct camera *c, const struct lighting *l,
                 const struct piece_faces *pf, struct piece_draw *p, int n,
                 struct piece_sprites *keep)
{
    for (int i = 0; i < n; i++)
        p[i].dist = sqrt(v3_dot(v3_sub(p[i].base, c->pos), v3_sub(p[i].base, c->pos)));
    qsort(p, (size_t)n, sizeof *p, by_distance);
    struct piece_sprite *next = calloc((size_t)n + 1, sizeof *next);
    bool ok = next != NULL;
    for (int i = 0; ok && i < n; i++) {
        double key[9];
        sprite_key(&p[i], key);
        if (!sprite_take(keep, key, &next[i])) ok = sprite_paint(&next[i], c, l, pf, &p[i]);
        next[i].taken = false;
        if (ok) sprite_blend(&next[i], img, mask);
    }
    piece_sprites_free(keep); /* the sprites of pieces no longer there */
    if (ok && keep) {
        *keep = (struct piece_sprites){next, n};
        return true;
    }
    for (int i = 0; next && i < n; i++) sprite_free(&next[i]);
    free(next);
    return ok;
}

void pieces_draw_shadows(cv_image *img, const struct camera *c, const struct lighting *l,
                         const struct piece_draw *p, int n, const double *surface_z)
{
    double lz = fmax(l->dir.z, 0.2);
    for (int i = 0; i < n; i++) {
        double w, h, tb;
        piece_size(shogi_piece_type(p[i].piece), &w, &h, &tb);
        double zs = surface_z ? surface_z[i] : p[i].base.z;
        double up = p[i].base.z - zs + tb * 0.6;
        vec3 sc = v3(p[i].base.x - l->dir.x / lz * up, p[i].base.y - l->dir.y / lz * up, zs);
        double r = 0.25 * (w + h), pen = 2.5 + 0.15 * (p[i].base.z - zs);
        int x0, y0, x1, y1;
        double ext = r + pen + 2;
        if (!pixel_box(c, sc, ext, ext, 0, &x0, &y0, &x1, &y1)) continue;
        double strength = 0.38 * (1 - smoothstep(0, 300, p[i].base.z - zs));
        for (int y = y0; y <= y1; y++) {
            uint8_t *row = img->data + (size_t)y * img->stride;
            double oy = camera_off_v(c, y + 0.5); /* once per row */
            for (int x = x0; x <= x1; x++) {
                vec3 d = camera_ray_off(c, camera_off_u(c, x + 0.5), oy);
                if (d.z >= -1e-9) continue;
                double t = (zs - c->pos.z) / d.z;
                double ex = c->pos.x + t * d.x - sc.x, ey = c->pos.y + t * d.y - sc.y;
                double shade =
                    1 - strength * (1 - smoothstep(r - pen, r + pen, sqrt(ex * ex + ey * ey)));
                if (shade > 0.999) continue;
                uint8_t *px = row + x * 3;
                for (int k = 0; k < 3; k++) px[k] = (uint8_t)(px[k] * shade);
            }
        }
    }
}

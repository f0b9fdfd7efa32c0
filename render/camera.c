/* render/camera.c — the simulated camera: pinhole perspective placed by tilt, yaw, roll and
 * distance, a barrel lens, and the per-pixel map from the frame into the texture atlas (ray cast
 * against the board's box and the table). Points above the board (stones, hands) are projected at
 * their real height, so stones lean toward the camera's horizon as they do in photos. */
#include "render/render_internal.h"

static const double DEG = 3.14159265358979323846 / 180.0;

void camera_setup(struct camera *c, int w, int h, const struct camera_params *p,
                  const struct goban *g)
{
    c->w = w;
    c->h = h;
    c->cx = w / 2.0;
    c->cy = h / 2.0;
    c->f = (w / 2.0) / tan(p->hfov * DEG / 2);
    c->norm = sqrt(c->cx * c->cx + c->cy * c->cy);
    c->k1 = p->k1;
    /* fill: the board's longer side over the frame's shorter side, for an overhead view */
    double dist = c->f * fmax(g->width, g->length) / (p->fill * (w < h ? w : h));
    double th = p->tilt * DEG, ps = p->yaw * DEG, ro = p->roll * DEG;
    vec3 target = v3(p->off_x * g->width, p->off_y * g->length, g->thickness);
    vec3 hz = v3(sin(ps), cos(ps), 0); /* from the target toward the camera, flat */
    c->pos = v3_add(target, v3(hz.x * sin(th) * dist, hz.y * sin(th) * dist, cos(th) * dist));
    c->fwd = v3_norm(v3_sub(target, c->pos));
    vec3 right = v3(cos(ps), -sin(ps), 0);
    vec3 down = v3(hz.x * cos(th), hz.y * cos(th), -sin(th));
    c->right = v3_add(v3_scale(right, cos(ro)), v3_scale(down, sin(ro)));
    c->down = v3_add(v3_scale(right, -sin(ro)), v3_scale(down, cos(ro)));
}

/* Ideal (pinhole) pixel to distorted pixel: solve r_d (1 + k1 r_d^2) = r_u by Newton. */
static void distort(const struct camera *c, double xu, double yu, double *xd, double *yd)
{
    double dx = (xu - c->cx) / c->norm, dy = (yu - c->cy) / c->norm;
    double ru = sqrt(dx * dx + dy * dy);
    if (ru < 1e-12 || c->k1 == 0) {
        *xd = xu;
        *yd = yu;
        return;
    }
    double rd = ru;
    for (int i = 0; i < 20; i++) {
        double fv = rd * (1 + c->k1 * rd * rd) - ru, df = 1 + 3 * c->k1 * rd * rd;
        double step = fv / df;
        rd -= step;
        if (fabs(step) < 1e-12) break;
    }
    double s = rd / ru;
    *xd = c->cx + dx * s * c->norm;
    *yd = c->cy + dy * s * c->norm;
}

bool camera_project(const struct camera *c, vec3 p, double *u, double *v)
{
    vec3 d = v3_sub(p, c->pos);
    double zc = v3_dot(d, c->fwd);
    if (zc <= 1e-6) return false;
    double xi = c->cx + c->f * v3_dot(d, c->right) / zc;
    double yi = c->cy + c->f * v3_dot(d, c->down) / zc;
    distort(c, xi, yi, u, v);
    return true;
}

vec3 camera_ray(const struct camera *c, double u, double v)
{
    return camera_ray_off(c, camera_off_u(c, u), camera_off_v(c, v));
}

/* Slab test of a ray (board frame) against the board's box; returns the entry axis (0 x, 1 y,
 * 2 top) or -1 on a miss, with the entry distance. */
int render_ray_box(const double o[3], const double d[3], const double lo[3], const double hi[3],
                   double *t_in)
{
    double tmin = -1e300, tmax = 1e300;
    int axis = -1;
    for (int k = 0; k < 3; k++) {
        if (fabs(d[k]) < 1e-12) {
            if (o[k] < lo[k] || o[k] > hi[k]) return -1;
            continue;
        }
        double t0 = (lo[k] - o[k]) / d[k], t1 = (hi[k] - o[k]) / d[k];
        if (t0 > t1) {
            double t = t0;
            t0 = t1;
            t1 = t;
        }
        if (t0 > tmin) {
            tmin = t0;
            axis = k;
        }
        if (t1 < tmax) tmax = t1;
    }
    if (tmin > tmax || tmax < 0 || axis < 0) return -1;
    *t_in = tmin;
    return axis;
}

void camera_build_map(const struct camera *c, const struct goban *g, const struct board_pose *p,
                      float *mapx, float *mapy)
{
    double bo[3], cr = cos(p->rot), sr = sin(p->rot);
    world_to_board(p, c->pos, &bo[0], &bo[1]);
    bo[2] = c->pos.z;
    double lo[3] = {-g->width / 2, -g->length / 2, 0},
           hi[3] = {g->width / 2, g->length / 2, g->thickness};
    for (int y = 0; y < c->h; y++) {
        for (int x = 0; x < c->w; x++) {
            size_t i = (size_t)y * c->w + x;
            vec3 d = camera_ray(c, x, y);
            double db[3] = {cr * d.x + sr * d.y, -sr * d.x + cr * d.y, d.z}, t;
            int axis = render_ray_box(bo, db, lo, hi, &t);
            double mx = -100, my = -100; /* outside the atlas: the wall/border colour */
            int si = -1;
            for (int k = 0; k < g->nstands; k++) { /* a komadai (on the table) nearer */
                const struct stand *st = &g->stands[k];
                double slo[3] = {st->cx - st->w / 2, st->cy - st->l / 2, 0},
                       shi[3] = {st->cx + st->w / 2, st->cy + st->l / 2, st->h}, ts;
                double wo[3] = {c->pos.x, c->pos.y, c->pos.z}, wd[3] = {d.x, d.y, d.z};
                int ax = render_ray_box(wo, wd, slo, shi, &ts);
                if (ax >= 0 && (axis < 0 || ts < t)) {
                    axis = ax;
                    t = ts;
                    si = k;
                }
            }
            if (si >= 0) { /* world coordinates: the same ray, t the same distance */
                const struct stand *st = &g->stands[si];
                double bx = c->pos.x + t * d.x, by = c->pos.y + t * d.y, z = c->pos.z + t * d.z;
                if (axis == 2) {
                    mx = st->top_x0 + (bx - st->cx + st->w / 2) * g->top_scale - 0.5;
                    my = st->top_y0 + (by - st->cy + st->l / 2) * g->top_scale - 0.5;
                } else {
                    double s = axis == 0 ? by - st->cy + st->l / 2 : bx - st->cx + st->w / 2;
                    mx = s * g->side_scale - 0.5;
                    my = g->side_y0 + (st->h - z) * g->side_scale - 0.5;
                }
            } else if (axis == 2) {
                double bx = bo[0] + t * db[0], by = bo[1] + t * db[1];
                mx = (bx + g->width / 2) * g->top_scale - 0.5;
                my = (by + g->length / 2) * g->top_scale - 0.5;
            } else if (axis >= 0) {
                double bx = bo[0] + t * db[0], by = bo[1] + t * db[1], z = bo[2] + t * db[2];
                double s = axis == 0 ? by + g->length / 2 : bx + g->width / 2;
                mx = s * g->side_scale - 0.5;
                my = g->side_y0 + (g->thickness - z) * g->side_scale - 0.5;
            } else if (d.z < -1e-9) {
                double tt = -c->pos.z / d.z;
                double wx = c->pos.x + tt * d.x, wy = c->pos.y + tt * d.y;
                if (fabs(wx) < g->table_extent && fabs(wy) < g->table_extent) {
                    mx = (wx + g->table_extent) * g->table_scale - 0.5;
                    my = g->table_y0 + (wy + g->table_extent) * g->table_scale - 0.5;
                }
            }
            mapx[i] = (float)mx;
            mapy[i] = (float)my;
        }
    }
}

/* render/render_go.c — puts the pieces together: the seed chooses the scene (style, camera,
 * light), the time line says what lies on the board and where the hand is, and each frame is
 * drawn as board -> shadows -> stones -> hand -> camera effects, with its truth alongside. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "render/render_internal.h"

struct render_go {
    struct render_opts o;
    enum render_style style;
    enum render_scenario scenario;
    struct timeline tl;
    struct goban g;
    struct camera_params cp;
    struct camera cam;
    struct lighting light;
    float *field;         /* photo gain + glare */
    float *mapx, *mapy;   /* frame -> atlas, for the current board pose */
    int map_bumps;        /* bumps the maps were built for, -1 = none yet */
    double (*grid_px)[2]; /* grid points in the image for grid_bumps bumps (-1 = none yet) */
    int grid_bumps;
    struct board_pose pose;
    uint8_t *rgb, *mask;
    struct stone_draw *draws;
    struct still_scene still; /* the drawing of the last frame in which nothing moved */
    struct people people;     /* shadows, a player leaning in, a hand on the clock */
    bool white_glass;
    double skin[3][3], sleeve[3][3]; /* by colour (index GO_BLACK, GO_WHITE) */
    int jpeg_quality;
    char describe[320];
};

static const char *const style_names[] = {"random", "kaya", "light", "vinyl", "folding"};
static const char *const scene_names[] = {"mixed", "overhead", "player",  "side",    "partial",
                                          "dim",   "glare",    "shadows", "leaning", "clock"};

const char *render_style_name(enum render_style s)
{
    return s >= 0 && s < RENDER_STYLE_COUNT ? style_names[s] : "?";
}

const char *render_scenario_name(enum render_scenario s)
{
    return s >= 0 && s < RENDER_SCENE_COUNT ? scene_names[s] : "?";
}

int render_style_find(const char *name)
{
    for (int i = 0; i < RENDER_STYLE_COUNT; i++)
        if (!strcasecmp(name, style_names[i])) return i;
    return -1;
}

int render_scenario_find(const char *name)
{
    for (int i = 0; i < RENDER_SCENE_COUNT; i++)
        if (!strcasecmp(name, scene_names[i])) return i;
    return -1;
}

void render_opts_default(struct render_opts *o)
{
    *o = (struct render_opts){.width = 1280,
                              .height = 960,
                              .seed = 1,
                              .style = RENDER_STYLE_RANDOM,
                              .scenario = RENDER_SCENE_MIXED,
                              .fps = 30,
                              .max_moves = 0,
                              .jpeg_quality = 0,
                              .bump_rate = 0.04,
                              .hands = true};
}

void render_choose_camera(struct camera_params *p, enum render_scenario sc, struct rng *r)
{
    p->hfov = rng_range(r, 52, 70);
    p->k1 = rng_range(r, 0.0, 0.09);
    p->roll = rng_range(r, -4, 4);
    p->off_x = rng_range(r, -0.04, 0.04);
    p->off_y = rng_range(r, -0.04, 0.04);
    p->fill = rng_range(r, 0.72, 0.92);
    bool black_side = rng_unit(r) < 0.5;
    switch (sc) {
    case RENDER_SCENE_OVERHEAD:
        p->tilt = rng_range(r, 0, 8);
        p->yaw = rng_int(r, 4) * 90 + rng_range(r, -6, 6);
        break;
    case RENDER_SCENE_SIDE:
        p->tilt = rng_range(r, 25, 45);
        p->yaw = (black_side ? 90 : 270) + rng_range(r, -15, 15);
        break;
    case RENDER_SCENE_PARTIAL:
        p->tilt = rng_range(r, 5, 30);
        p->yaw = rng_range(r, 0, 360);
        p->fill = rng_range(r, 1.05, 1.3);
        p->off_x = rng_range(r, 0.12, 0.22) * (rng_unit(r) < 0.5 ? -1 : 1);
        p->off_y = rng_range(r, 0.12, 0.22) * (rng_unit(r) < 0.5 ? -1 : 1);
        break;
    case RENDER_SCENE_PLAYER:
    default: /* dim and glare rooms are filmed from a player's side */
        p->tilt = sc == RENDER_SCENE_PLAYER ? rng_range(r, 20, 40) : rng_range(r, 8, 35);
        p->yaw = (black_side ? 0 : 180) + rng_range(r, -15, 15);
        break;
    }
}

static const double skin_tones[][3] = {{241, 196, 170}, {226, 174, 140}, {198, 136, 100},
                                       {160, 104, 74},  {112, 74, 54},   {236, 204, 178}};
static const double sleeve_colors[][3] = {{40, 50, 82},   {120, 120, 126}, {222, 222, 216},
                                          {30, 30, 34},   {150, 42, 44},   {62, 92, 64},
                                          {192, 172, 140}};

void render_choose_people(struct rng *rs, double skin[3][3], double sleeve[3][3])
{
    for (int c = 1; c <= 2; c++) {
        memcpy(skin[c], skin_tones[rng_int(rs, 6)], sizeof skin[c]);
        memcpy(sleeve[c], sleeve_colors[rng_int(rs, 7)], sizeof sleeve[c]);
    }
}

struct render_go *render_go_open(const struct go_record *rec, const struct render_opts *o,
                                 char *err, size_t errlen)
{
    if (o->width < 64 || o->height < 48 || o->width > 8192 || o->height > 8192) {
        snprintf(err, errlen, "frame size %dx%d out of range (64x48 .. 8192x8192)", o->width,
                 o->height);
        return NULL;
    }
    if (o->fps < 1 || o->fps > 240 || o->jpeg_quality < 0 || o->jpeg_quality > 100) {
        snprintf(err, errlen, "fps or JPEG quality out of range");
        return NULL;
    }
    struct render_go *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->o = *o;
    r->map_bumps = r->grid_bumps = -1;
    struct rng rs = rng_stream(o->seed, RS_SCENE, 0);
    r->style = o->style ? o->style : (enum render_style)(1 + rng_int(&rs, RENDER_STYLE_COUNT - 1));
    r->scenario = o->scenario ? o->scenario
                              : (enum render_scenario)(1 + rng_int(&rs, RENDER_SCENE_CAMERA_COUNT));
    render_choose_camera(&r->cp, r->scenario, &rs);
    lighting_choose(&r->light, r->scenario, o->width, o->height, &rs);
    r->white_glass = rng_unit(&rs) < 0.3;
    render_choose_people(&rs, r->skin, r->sleeve);
    r->jpeg_quality = o->jpeg_quality ? o->jpeg_quality : 70 + rng_int(&rs, 26);
    if (!timeline_build(&r->tl, rec, o, err, errlen)) {
        free(r);
        return NULL;
    }
    /* texture detail: about 1.5 texels per image pixel on the board */
    double bw = (rec->width - 1) * 22.0 + 30, bl = (rec->height - 1) * 23.7 + 30;
    double img_per_mm = r->cp.fill * (o->width < o->height ? o->width : o->height) / fmax(bw, bl);
    size_t npx = o->truth_only ? 1 : (size_t)o->width * o->height;
    /* truth only: the board's geometry is all that counts, its textures are not made and the frame
     * buffers hold one pixel */
    if (!goban_init(&r->g, rec->width, rec->height, r->style, o->seed,
                    o->truth_only ? 0 : clampd(img_per_mm * 1.5, 0.4, 4.0)) ||
        !(r->field = photo_gain_field(&r->light, o->truth_only ? 1 : o->width,
                                      o->truth_only ? 1 : o->height)) ||
        !(r->mapx = malloc(sizeof(float) * npx)) || !(r->mapy = malloc(sizeof(float) * npx)) ||
        !(r->rgb = malloc(npx * 3)) || !(r->mask = malloc(npx)) ||
        !(r->draws = malloc(sizeof *r->draws * (GO_POINTS + 1 + TL_MAX_OFF))) ||
        !still_init(&r->still, npx * 3, 2 + 8 * (GO_POINTS + 1 + TL_MAX_OFF)) ||
        !(r->grid_px = malloc(sizeof *r->grid_px * GO_POINTS))) {
        snprintf(err, errlen, "out of memory");
        render_go_close(r);
        return NULL;
    }
    camera_setup(&r->cam, o->width, o->height, &r->cp, &r->g);
    if (!people_init(&r->people, r->scenario, o->seed, r->tl.nframes, &r->g, &r->cam, false)) {
        snprintf(err, errlen, "out of memory");
        render_go_close(r);
        return NULL;
    }
    snprintf(r->describe, sizeof r->describe,
             "%dx%d, %s board, %s view: tilt %.1f deg, yaw %.0f deg, roll %.1f deg, fill %.2f, "
             "fov %.0f deg, barrel k1 %.3f; light tint %.2f/%.2f, exposure %.2f, glare %s, blur "
             "%.2f px, noise %.1f; %s white stones; JPEG q%d",
             rec->width, rec->height, render_style_name(r->style),
             render_scenario_name(r->scenario), r->cp.tilt, r->cp.yaw, r->cp.roll, r->cp.fill,
             r->cp.hfov, r->cp.k1, r->light.tint[0], r->light.tint[2], r->light.exposure,
             r->light.glare_i > 0 ? "yes" : "no", r->light.blur_sigma, r->light.noise,
             r->white_glass ? "glass" : "shell", r->jpeg_quality);
    return r;
}

int render_go_frame_count(const struct render_go *r)
{
    return r->tl.nframes;
}

int render_go_find_frame(const struct render_go *r, int ply, bool with_hand)
{
    for (int e = 0; e < r->tl.nev; e++) {
        const struct tl_event *te = &r->tl.ev[e];
        if (te->ply != ply || te->kind != TL_PLACE) continue;
        if (with_hand) return te->frame > 3 ? te->frame - 3 : 0;
        const struct tl_visit *v = timeline_visit_at(&r->tl, te->frame);
        int f = v ? v->f1 + 2 : te->frame + 1;
        return f < r->tl.nframes ? f : r->tl.nframes - 1;
    }
    return -1;
}

int render_go_find_counting_frame(const struct render_go *r, double at)
{
    if (r->tl.count_from <= 0) return -1;
    int last = r->tl.nframes - 1;
    return r->tl.count_from + (int)(clampd(at, 0, 1) * (last - r->tl.count_from));
}

int render_go_find_scene_frame(const struct render_go *r, int k)
{
    return people_find_frame(&r->people, k);
}

const char *render_go_describe(const struct render_go *r)
{
    return r->describe;
}

int render_go_jpeg_quality(const struct render_go *r)
{
    return r->jpeg_quality;
}

void render_go_close(struct render_go *r)
{
    if (!r) return;
    timeline_free(&r->tl);
    people_free(&r->people);
    goban_free(&r->g);
    free(r->field);
    free(r->mapx);
    free(r->mapy);
    free(r->rgb);
    free(r->mask);
    free(r->draws);
    still_free(&r->still);
    free(r->grid_px);
    free(r);
}

/* Where the fingertips are at frame f of visit v (world), and the colour of the stone carried
 * (GO_EMPTY: none): the one put down at the next target, on the way to a target that places. */
static vec3 hand_tip(const struct render_go *r, const struct tl_visit *v, int f, vec3 *from,
                     enum go_color *carry)
{
    const struct goban *g = &r->g;
    struct rng hr = rng_stream(r->o.seed, RS_HAND, (uint64_t)v->f0);
    double ang = rng_range(&hr, -0.4, 0.4), lateral = rng_range(&hr, -160, 160);
    double sgn = v->color == GO_BLACK ? 1 : -1; /* Black sits at +y */
    *from = v3(-sgn * sin(ang), -sgn * cos(ang), 0);
    double top = g->thickness;
    vec3 far = board_to_world(&r->pose, lateral, sgn * (g->length / 2 + 420), top + 170);
    /* keyframes: far, targets..., far */
    int nk = v->ntargets + 2;
    int kf[26];
    vec3 kp[26];
    enum go_color put_color[24];
    kf[0] = v->f0;
    kp[0] = far;
    for (int i = 0; i < v->ntargets; i++) {
        int p = v->target_point[i];
        double dx = 0, dy = 0;
        put_color[i] = v->color;
        for (int e = 0; e < r->tl.nev; e++) /* the placed stone's offset */
            if (r->tl.ev[e].kind == TL_PLACE && r->tl.ev[e].point == p &&
                r->tl.ev[e].frame == v->target_frame[i]) {
                dx = r->tl.ev[e].look.dx;
                dy = r->tl.ev[e].look.dy;
                put_color[i] = r->tl.ev[e].color;
            }
        kf[i + 1] = v->target_frame[i];
        if (p <= -100) { /* a stone put off the grid */
            int k = -100 - p;
            double z = fabs(r->tl.off_xy[k][0]) > g->width / 2 ? 0 : top;
            kp[i + 1] = board_to_world(&r->pose, r->tl.off_xy[k][0], r->tl.off_xy[k][1],
                                       z + 2 * STONE_H + 2);
            continue;
        }
        kp[i + 1] = board_to_world(&r->pose, goban_px(g, go_x(p)) + dx, goban_py(g, go_y(p)) + dy,
                                   top + 2 * STONE_H + 2);
    }
    kf[nk - 1] = v->f1;
    kp[nk - 1] = board_to_world(&r->pose, lateral * 0.6, sgn * (g->length / 2 + 420), top + 200);
    int k = 0;
    while (k < nk - 2 && f > kf[k + 1]) k++;
    *carry = k < v->ntargets && v->carries[k] && f < v->target_frame[k] ? put_color[k] : GO_EMPTY;
    double span = kf[k + 1] - kf[k];
    double s = span > 0 ? clampd((f - kf[k]) / span, 0, 1) : 1;
    s = s * s * (3 - 2 * s);
    vec3 p = v3_add(kp[k], v3_scale(v3_sub(kp[k + 1], kp[k]), s));
    bool hop = k > 0 && k < nk - 2; /* between two points on the board: lift a little */
    if (hop) p.z += 28 * sin(3.14159265358979 * s);
    return p;
}

/* What the time line alone decides about frame i, for drawn and truth-only frames alike: the
 * stones (and their looks, for drawing), the ply, the board's pose, the stones off the grid, the
 * grid in the image, settled, counting and the events. */
static void frame_truth(struct render_go *r, int i, struct render_frame *out,
                        struct stone_look look[GO_POINTS], int *nbumps)
{
    int w = r->o.width, h = r->o.height;
    memset(out, 0, sizeof *out);
    timeline_state(&r->tl, i, out->stone, look, &out->ply, &r->pose, nbumps);
    const struct goban *g = &r->g;
    double off_xy[TL_MAX_OFF][2];
    enum go_color off_col[TL_MAX_OFF];
    out->noff = timeline_off_stones(&r->tl, i, off_xy, off_col);
    for (int k = 0; k < out->noff; k++) { /* on the table beside the board, or on its margin */
        double z = fabs(off_xy[k][0]) > g->width / 2 || fabs(off_xy[k][1]) > g->length / 2
                       ? 0
                       : g->thickness;
        out->off_color[k] = (uint8_t)off_col[k];
        camera_project(&r->cam, board_to_world(&r->pose, off_xy[k][0], off_xy[k][1], z),
                       &out->off_px[k][0], &out->off_px[k][1]);
    }
    /* grid points on the board surface, seen through the lens (again only after a bump) */
    out->cols = g->cols;
    out->rows = g->rows;
    if (*nbumps != r->grid_bumps) {
        for (int y = 0; y < g->rows; y++)
            for (int x = 0; x < g->cols; x++) {
                int p = go_point(x, y);
                double u = -1e6, vv = -1e6;
                camera_project(
                    &r->cam, board_to_world(&r->pose, goban_px(g, x), goban_py(g, y), g->thickness),
                    &u, &vv);
                r->grid_px[p][0] = u;
                r->grid_px[p][1] = vv;
            }
        r->grid_bumps = *nbumps;
    }
    for (int y = 0; y < g->rows; y++)
        for (int x = 0; x < g->cols; x++) {
            int p = go_point(x, y);
            out->point_px[p][0] = r->grid_px[p][0];
            out->point_px[p][1] = r->grid_px[p][1];
        }
    const int cx[4] = {0, g->cols - 1, g->cols - 1, 0}, cy[4] = {0, 0, g->rows - 1, g->rows - 1};
    for (int k = 0; k < 4; k++) {
        int p = go_point(cx[k], cy[k]);
        out->corners[k][0] = out->point_px[p][0];
        out->corners[k][1] = out->point_px[p][1];
        out->corner_inside[k] = out->corners[k][0] >= 0 && out->corners[k][0] < w &&
                                out->corners[k][1] >= 0 && out->corners[k][1] < h;
    }
    out->settled = timeline_visit_at(&r->tl, i) == NULL;
    out->counting = r->tl.count_from > 0 && i >= r->tl.count_from;
    out->people_scene = r->people.sc >= RENDER_SCENE_SHADOWS;
    for (int e = 0; e < r->tl.nev && r->tl.ev[e].frame <= i; e++) {
        const struct tl_event *te = &r->tl.ev[e];
        if (te->frame != i || out->nevents >= 8) continue;
        struct render_event *re = &out->events[out->nevents++];
        static const char *const kinds[] = {"place", "remove", "pass", "bump", "fault", "off"};
        snprintf(re->kind, sizeof re->kind, "%s",
                 te->kind == TL_MARK && te->signal ? "signal" : kinds[te->kind]);
        snprintf(re->name, sizeof re->name, "%s", te->name);
        re->point = te->point;
        re->color = te->color;
        re->ply = te->ply;
        re->dx_mm = te->dx;
        re->dy_mm = te->dy;
        re->rot_deg = te->rot * 180 / 3.14159265358979;
    }
    out->index = i;
    out->t = (double)i / r->o.fps;
    out->width = w;
    out->height = h;
}

/* The stones to draw at frame i: those on the grid, then those lying off it. */
static int go_stones(struct render_go *r, int i, const struct render_frame *out,
                     const struct stone_look *look)
{
    const struct goban *g = &r->g;
    int n = 0;
    for (int y = 0; y < g->rows; y++)
        for (int x = 0; x < g->cols; x++) {
            int p = go_point(x, y);
            if (out->stone[p] == GO_EMPTY) continue;
            r->draws[n].centre =
                board_to_world(&r->pose, goban_px(g, x) + look[p].dx, goban_py(g, y) + look[p].dy,
                               g->thickness + STONE_H);
            r->draws[n].color = (enum go_color)out->stone[p];
            r->draws[n].look = look[p];
            n++;
        }
    double off_xy[TL_MAX_OFF][2];
    enum go_color off_col[TL_MAX_OFF];
    int noff = timeline_off_stones(&r->tl, i, off_xy, off_col);
    for (int k = 0; k < noff; k++) { /* on the table beside the board, or on its margin */
        double z = fabs(off_xy[k][0]) > g->width / 2 || fabs(off_xy[k][1]) > g->length / 2
                       ? 0
                       : g->thickness;
        r->draws[n].centre = board_to_world(&r->pose, off_xy[k][0], off_xy[k][1], z + STONE_H);
        r->draws[n].color = off_col[k];
        r->draws[n].look = (struct stone_look){0, 0, 0.3 * k, 1.0};
        n++;
    }
    return n;
}

/* The hand of visit v at frame i, with the stone it carries. */
static void go_hand(const struct render_go *r, const struct tl_visit *v, int i,
                    struct hand_model *hand)
{
    vec3 from;
    enum go_color carry;
    vec3 tip = hand_tip(r, v, i, &from, &carry);
    hand_pose(hand, tip, from, 2.0);
    memcpy(hand->skin, r->skin[v->color], sizeof hand->skin);
    memcpy(hand->sleeve, r->sleeve[v->color], sizeof hand->sleeve);
    hand->holds_stone = carry != GO_EMPTY;
    if (hand->holds_stone) {
        hand->stone.centre = v3(tip.x, tip.y, tip.z - STONE_H - 2);
        hand->stone.color = carry;
        hand->stone.look = (struct stone_look){0, 0, 0.5, 1.0};
    }
}

/* What a still frame's drawing follows from, besides what is fixed for the render (camera,
 * light, board, people): the bumps (the board's texture map) and each stone drawn. */
static void go_still_key(struct render_go *r, int nbumps, int n)
{
    still_want_begin(&r->still);
    still_want(&r->still, nbumps);
    still_want(&r->still, n);
    for (int k = 0; k < n; k++) {
        const struct stone_draw *d = &r->draws[k];
        const double v[8] = {d->centre.x, d->centre.y, d->centre.z,   d->color,
                             d->look.dx,  d->look.dy,  d->look.angle, d->look.tone};
        for (int j = 0; j < 8; j++) still_want(&r->still, v[j]);
    }
}

/* Draw frame i (n stones in r->draws, the hand or NULL) before the camera's finish; false when
 * the board's texture cannot be mapped. */
static bool go_draw(struct render_go *r, int i, cv_image *img, int n, const struct hand_model *hand,
                    struct scene_events *ev)
{
    const struct goban *g = &r->g;
    const uint8_t wall[3] = {74, 68, 62};
    if (cv_remap(&g->atlas, img, r->mapx, r->mapy, wall) != CV_OK) return false;
    memset(r->mask, 0, (size_t)img->width * img->height);
    people_draw_clock(&r->people, img, &r->cam, &r->light);
    stones_draw_shadows(img, &r->cam, &r->light, r->draws, n, g->thickness);
    if (hand) {
        if (hand->holds_stone)
            stones_draw_shadows(img, &r->cam, &r->light, &hand->stone, 1, g->thickness);
        hand_draw_shadow(img, &r->cam, &r->light, hand, g->thickness);
    }
    stones_draw(img, NULL, &r->cam, &r->light, r->draws, n, r->white_glass);
    ev->shadow = people_draw_shadow(&r->people, img, i, g);
    if (hand) {
        struct stone_draw stone = hand->stone; /* stones_draw sets its distance */
        if (hand->holds_stone)
            stones_draw(img, r->mask, &r->cam, &r->light, &stone, 1, r->white_glass);
        hand_draw(img, r->mask, &r->cam, &r->light, hand);
    }
    struct hand_model clock_hand = {0};
    int clock_side;
    ev->on_clock = people_clock_hand(&r->people, i, g, &clock_hand, &clock_side);
    if (ev->on_clock) {
        memcpy(clock_hand.skin, r->skin[clock_side], sizeof clock_hand.skin);
        memcpy(clock_hand.sleeve, r->sleeve[clock_side], sizeof clock_hand.sleeve);
        hand_draw_shadow(img, &r->cam, &r->light, &clock_hand, r->people.clock_size[2]);
        hand_draw(img, r->mask, &r->cam, &r->light, &clock_hand);
    }
    return true;
}

bool render_go_frame(struct render_go *r, int i, struct render_frame *out, char *err, size_t errlen)
{
    if (i < 0 || i >= r->tl.nframes) {
        snprintf(err, errlen, "frame %d out of range (0..%d)", i, r->tl.nframes - 1);
        return false;
    }
    int w = r->o.width, h = r->o.height, nbumps;
    struct stone_look look[GO_POINTS];
    frame_truth(r, i, out, look, &nbumps);
    if (r->o.truth_only) return true;
    if (nbumps != r->map_bumps) {
        camera_build_map(&r->cam, &r->g, &r->pose, r->mapx, r->mapy);
        r->map_bumps = nbumps;
    }
    cv_image img = {r->rgb, w, h, w * 3, 3};
    const struct goban *g = &r->g;
    int n = go_stones(r, i, out, look);
    const struct tl_visit *v = timeline_visit_at(&r->tl, i);
    struct hand_model hand = {0};
    bool show_hand = v && r->o.hands;
    if (show_hand) go_hand(r, v, i, &hand);
    struct scene_events ev = {false, false};
    /* nothing moves: no hand, nothing of the people (their shadow, lean or hand at the clock) */
    bool still = !show_hand && !people_at(&r->people, i, NULL);
    if (still) go_still_key(r, nbumps, n);
    if (still && still_reuse(&r->still, r->rgb)) {
        memset(r->mask, 0, (size_t)w * h);
    } else {
        if (!go_draw(r, i, &img, n, show_hand ? &hand : NULL, &ev)) {
            snprintf(err, errlen, "frame %d: %s", i, cv_last_error());
            return false;
        }
        if (still) still_keep(&r->still, r->rgb);
    }
    bool on_clock = ev.on_clock;
    out->hand_in_view = false;
    for (size_t k = 0; (show_hand || on_clock) && k < (size_t)w * h; k++)
        if (r->mask[k]) {
            out->hand_in_view = true;
            break;
        }
    bool lean = people_draw_lean(&r->people, &img, r->mask, i, &r->cam, &r->light, g, r->sleeve);
    out->scene_event = lean ? "lean" : on_clock ? "clock-hand" : ev.shadow ? "shadow" : NULL;
    /* truth: a point is covered where the drawn hand lies over its image position */
    for (int p = 0; p < GO_POINTS; p++) {
        if (go_x(p) >= g->cols || go_y(p) >= g->rows) continue;
        int xi = (int)floor(out->point_px[p][0]), yi = (int)floor(out->point_px[p][1]);
        out->covered[p] =
            xi >= 0 && yi >= 0 && xi < w && yi < h && r->mask[(size_t)yi * w + xi] != 0;
    }
    if (!photo_finish(&r->light, &img, i, r->o.seed, r->field)) {
        snprintf(err, errlen, "frame %d: %s", i, cv_last_error());
        return false;
    }
    out->rgb = r->rgb;
    out->hand_mask = r->mask;
    return true;
}

bool render_make_dir(const char *dir, char *err, size_t errlen)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) break;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errlen, "%s: cannot create directory: %s", dir, strerror(errno));
        return false;
    }
    return true;
}

void render_go_summary(const struct render_go *r, struct render_summary *sum)
{
    render_summary_begin(sum);
    for (int e = 0; e < r->tl.nev; e++)
        if (r->tl.ev[e].kind == TL_MARK)
            render_summary_mark(sum, r->tl.ev[e].name, r->tl.ev[e].signal);
    render_summary_end(sum, &r->o, render_go_fault_bits);
}

int render_go_to_dir(const struct go_record *rec, const char *record_path,
                     const struct render_opts *o, const char *dir, char *err, size_t errlen)
{
    return render_go_save(rec, record_path, o, dir, NULL, err, errlen);
}

int render_go_save(const struct go_record *rec, const char *record_path,
                   const struct render_opts *o, const char *dir, struct render_summary *sum,
                   char *err, size_t errlen)
{
    if (!render_make_dir(dir, err, errlen)) return -1;
    struct render_go *r = render_go_open(rec, o, err, errlen);
    if (!r) return -1;
    struct render_sink sink;
    FILE *truth = NULL;
    if (!render_sink_open(&sink, dir, o, r->jpeg_quality, err, errlen) ||
        !(truth = render_truth_open(dir, err, errlen))) {
        render_sink_close(&sink, NULL, 0);
        render_go_close(r);
        return -1;
    }
    render_truth_header(truth, r, record_path, &sink);
    int count = render_go_frame_count(r), done = 0;
    struct render_frame *f = malloc(sizeof *f);
    for (int i = 0; f && i < count; i++) {
        if (!render_go_frame(r, i, f, err, errlen) ||
            !render_sink_put(&sink, i, f->rgb, f->width, f->height, err, errlen))
            break;
        f->t = render_sink_time(&sink, i);
        render_truth_write(truth, f);
        done++;
    }
    if (!f) snprintf(err, errlen, "out of memory");
    free(f);
    if (!render_sink_close(&sink, err, errlen)) done = -1;
    if (fclose(truth) != 0 && done == count) {
        snprintf(err, errlen, "%s/truth.jsonl: write failed", dir);
        done = -1;
    }
    if (sum) {
        render_go_summary(r, sum);
        sum->frames = done;
        snprintf(sum->codec, sizeof sum->codec, "%s", sink.codec);
    }
    render_go_close(r);
    return done == count ? count : -1;
}

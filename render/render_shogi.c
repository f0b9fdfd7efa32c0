/* render/render_shogi.c — a shogi game filmed: the seed chooses the scene (board style, camera,
 * light, piece set and font), the time line says where every piece is and where the hand goes,
 * and each frame is drawn board -> shadows -> pieces (board and komadai) -> hand with the piece
 * it holds -> camera effects, with its truth alongside. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

#define MAX_DRAWS (SHOGI_SQUARES + 40 + 2)

struct render_shogi {
    struct render_opts o;
    enum render_style style;
    enum render_scenario scenario;
    struct shogi_timeline tl;
    struct goban g;
    struct piece_faces faces;
    struct camera_params cp;
    struct camera cam;
    struct lighting light;
    float *field, *mapx, *mapy;
    int map_bumps;
    double sq_px[SHOGI_SQUARES][2]; /* square centres in the image for sq_bumps bumps */
    int sq_bumps;
    struct board_pose pose;
    uint8_t *rgb, *mask;
    struct piece_draw draws[MAX_DRAWS];
    double surf[MAX_DRAWS];
    struct still_scene still;     /* the drawing of the last frame in which nothing moved */
    struct piece_sprites sprites; /* the pieces lying on the board and the komadai, as drawn */
    struct people people;         /* shadows, a player leaning in, a hand on the clock */
    double wood[3];
    double skin[3][3], sleeve[3][3]; /* index 1 + colour */
    int jpeg_quality;
    char describe[512];
};

static const double PI = 3.14159265358979323846;

struct render_shogi *render_shogi_open(const struct shogi_record *rec, const struct render_opts *o,
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
    struct render_shogi *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->o = *o;
    r->map_bumps = r->sq_bumps = -1;
    struct rng rs = rng_stream(o->seed, RS_SCENE, 1);
    r->style = o->style ? o->style : (enum render_style)(1 + rng_int(&rs, RENDER_STYLE_COUNT - 1));
    r->scenario = o->scenario ? o->scenario
                              : (enum render_scenario)(1 + rng_int(&rs, RENDER_SCENE_CAMERA_COUNT));
    render_choose_camera(&r->cp, r->scenario, &rs);
    lighting_choose(&r->light, r->scenario, o->width, o->height, &rs);
    render_choose_people(&rs, r->skin, r->sleeve);
    r->jpeg_quality = o->jpeg_quality ? o->jpeg_quality : 70 + rng_int(&rs, 26);
    /* boxwood sets from pale yellow to honey */
    double honey = rng_unit(&rs);
    r->wood[0] = 236 - 10 * honey;
    r->wood[1] = 206 - 26 * honey;
    r->wood[2] = 150 - 48 * honey;
    int font_choice = rng_int(&rs, 4) == 0; /* mostly the serif (carved-looking) face */
    if (!o->truth_only && !piece_faces_init(&r->faces, font_choice, err, errlen)) {
        free(r);
        return NULL;
    }
    if (!shogi_timeline_build(&r->tl, rec, o, err, errlen)) {
        piece_faces_free(&r->faces);
        free(r);
        return NULL;
    }
    double span_x = 9 * 33.0 + 40 + 2 * (50 + 170), span_y = 9 * 36.4 + 40;
    double shorter = o->width < o->height ? o->width : o->height;
    double img_per_mm = r->cp.fill * shorter / fmax(span_y, span_x * shorter / o->width);
    size_t npx = o->truth_only ? 1 : (size_t)o->width * o->height;
    /* truth only: geometry without textures, one-pixel buffers (render_go.c) */
    if (!shogiban_init(&r->g, r->style, o->seed,
                       o->truth_only ? 0 : clampd(img_per_mm * 1.5, 0.4, 4.0)) ||
        !(r->field = photo_gain_field(&r->light, o->truth_only ? 1 : o->width,
                                      o->truth_only ? 1 : o->height)) ||
        !(r->mapx = malloc(sizeof(float) * npx)) || !(r->mapy = malloc(sizeof(float) * npx)) ||
        !(r->rgb = malloc(npx * 3)) || !(r->mask = malloc(npx)) ||
        !still_init(&r->still, npx * 3, 2 + 10 * MAX_DRAWS)) {
        snprintf(err, errlen, "out of memory");
        render_shogi_close(r);
        return NULL;
    }
    shogi_timeline_keep_clear(&r->tl, &r->g);
    /* frame the board with both komadai: the camera sizes itself on a box that holds them */
    struct goban frame_box = r->g;
    double reach = fabs(r->g.stands[0].cx) + r->g.stands[0].w / 2;
    frame_box.width = 2 * reach * shorter / o->width;
    camera_setup(&r->cam, o->width, o->height, &r->cp, &frame_box);
    if (!people_init(&r->people, r->scenario, o->seed, r->tl.nframes, &r->g, &r->cam, true)) {
        snprintf(err, errlen, "out of memory");
        render_shogi_close(r);
        return NULL;
    }
    const char *font = strrchr(r->faces.font, '/');
    snprintf(r->describe, sizeof r->describe,
             "shogi, %s board, %s view: tilt %.1f deg, yaw %.0f deg, roll %.1f deg, fill %.2f, "
             "fov %.0f deg, barrel k1 %.3f; light tint %.2f/%.2f, exposure %.2f, glare %s, blur "
             "%.2f px, noise %.1f; pieces %.60s; JPEG q%d",
             render_style_name(r->style), render_scenario_name(r->scenario), r->cp.tilt, r->cp.yaw,
             r->cp.roll, r->cp.fill, r->cp.hfov, r->cp.k1, r->light.tint[0], r->light.tint[2],
             r->light.exposure, r->light.glare_i > 0 ? "yes" : "no", r->light.blur_sigma,
             r->light.noise, font ? font + 1 : r->faces.font, r->jpeg_quality);
    return r;
}

int render_shogi_frame_count(const struct render_shogi *r)
{
    return r->tl.nframes;
}

const char *render_shogi_describe(const struct render_shogi *r)
{
    return r->describe;
}

int render_shogi_jpeg_quality(const struct render_shogi *r)
{
    return r->jpeg_quality;
}

void render_shogi_close(struct render_shogi *r)
{
    if (!r) return;
    shogi_timeline_free(&r->tl);
    people_free(&r->people);
    goban_free(&r->g);
    piece_faces_free(&r->faces);
    free(r->field);
    free(r->mapx);
    free(r->mapy);
    free(r->rgb);
    free(r->mask);
    still_free(&r->still);
    piece_sprites_free(&r->sprites);
    free(r);
}

int render_shogi_find_scene_frame(const struct render_shogi *r, int k)
{
    return people_find_frame(&r->people, k);
}

int render_shogi_find_frame(const struct render_shogi *r, int ply, bool with_hand)
{
    for (int e = 0; e < r->tl.nev; e++) {
        const struct stl_event *te = &r->tl.ev[e];
        if (te->ply != ply || te->kind != STL_PUT) continue;
        if (with_hand) return te->frame > 3 ? te->frame - 3 : 0;
        const struct shogi_timeline *t = &r->tl;
        int f = te->frame + 1;
        for (const struct stl_visit *v; (v = shogi_timeline_visit_at(t, f));) f = v->f1 + 2;
        return f < t->nframes ? f : t->nframes - 1;
    }
    return -1;
}

/* Look of a piece on a square: off-centre and turned a little, fixed from when it was put there. */
static void square_look(uint64_t seed, int sq, int put_frame, double *dx, double *dy, double *rot,
                        double *tone)
{
    struct rng q = rng_stream(seed, RS_STONE, (uint64_t)put_frame * 97 + (uint64_t)sq);
    *dx = clampd(rng_gauss(&q) * 0.8, -2.2, 2.2);
    *dy = clampd(rng_gauss(&q) * 0.9, -2.5, 2.5);
    *rot = clampd(rng_gauss(&q) * 0.035, -0.1, 0.1);
    *tone = rng_range(&q, 0.0, 1.0);
}

static double heading_of(int piece, double rot)
{
    /* sente's pieces point to -y (toward gote), gote's to +y */
    return (shogi_piece_color(piece) == SHOGI_SENTE ? -PI / 2 : PI / 2) + rot;
}

/* Board position (mm) and height of a hand target; from: the hand's direction (hand_pose). */
static vec3 target_point(const struct render_shogi *r, const struct stl_visit *v, int k, vec3 from)
{
    const struct goban *g = &r->g;
    double bx, by, z;
    if (v->tkind[k] == TGT_SQ) {
        bx = shogiban_sq_x(g, v->tsq[k]);
        by = shogiban_sq_y(g, v->tsq[k]);
        z = g->thickness + 9 + 3;
    } else if (v->tkind[k] == TGT_STAND) {
        double rot, lift;
        komadai_slot(g, r->o.seed, v->color, v->ttype[k], v->tidx[k], &bx, &by, &rot, &lift);
        z = g->stands[v->color].h + 9 + 3 + lift;
    } else {
        /* resting over the komadai: the palm (hand_pose: 65 mm behind the fingertips, 41 mm
         * above them) where the camera sees it over the komadai's centre, so the hand hides the
         * stand in every view (a palm straight above it slid off the centre in tilted views) */
        const struct stand *st = &g->stands[v->color];
        vec3 c = board_to_world(&table_pose, st->cx, st->cy, st->h);
        vec3 to_cam = v3_sub(r->cam.pos, c);
        double up = 55; /* the palm's height above the komadai */
        vec3 palm =
            to_cam.z > up ? v3_add(c, v3_scale(to_cam, up / to_cam.z)) : v3(c.x, c.y, c.z + up);
        return v3_add(palm, v3_add(v3_scale(from, 65), v3(0, 0, -41)));
    }
    return board_to_world(v->tkind[k] == TGT_SQ ? &r->pose : &table_pose, bx, by, z);
}

static vec3 hand_tip(const struct render_shogi *r, const struct stl_visit *v, int f, vec3 *from)
{
    const struct goban *g = &r->g;
    struct rng hr = rng_stream(r->o.seed, RS_HAND, (uint64_t)v->f0);
    double ang = rng_range(&hr, -0.4, 0.4), lateral = rng_range(&hr, -120, 200);
    double sgn = v->color == SHOGI_SENTE ? 1 : -1;
    *from = v3(-sgn * sin(ang), -sgn * cos(ang), 0);
    double top = g->thickness;
    int nk = v->nt + 2, kf[10];
    vec3 kp[10];
    kf[0] = v->f0;
    kp[0] = board_to_world(&r->pose, sgn * lateral, sgn * (g->length / 2 + 420), top + 170);
    for (int i = 0; i < v->nt; i++) {
        kf[i + 1] = v->tframe[i];
        kp[i + 1] = target_point(r, v, i, *from);
    }
    kf[nk - 1] = v->f1;
    kp[nk - 1] =
        board_to_world(&r->pose, sgn * lateral * 0.6, sgn * (g->length / 2 + 420), top + 200);
    int k = 0;
    while (k < nk - 2 && f > kf[k + 1]) k++;
    double span = kf[k + 1] - kf[k];
    double s = span > 0 ? clampd((f - kf[k]) / span, 0, 1) : 1;
    s = s * s * (3 - 2 * s);
    vec3 p = v3_add(kp[k], v3_scale(v3_sub(kp[k + 1], kp[k]), s));
    if (k > 0 && k < nk - 2) p.z += 35 * sin(PI * s); /* lift between two targets */
    return p;
}

/* What the time line alone decides about frame i, for drawn and truth-only frames alike: the
 * pieces on the board, the komadai and in the hand, side and ply, the board's pose (r->pose),
 * squares, corners and komadai in the image, settled and the events. */
static void frame_truth(struct render_shogi *r, int i, struct render_shogi_frame *out,
                        struct stl_state *st)
{
    int w = r->o.width, h = r->o.height;
    const struct goban *g = &r->g;
    shogi_timeline_state(&r->tl, i, st);
    r->pose = st->pose;
    memset(out, 0, sizeof *out);
    memcpy(out->board, st->board, sizeof out->board);
    memcpy(out->hand, st->hand, sizeof out->hand);
    out->carried = st->carried;
    out->side = st->side;
    out->ply = st->ply;
    if (st->nbumps != r->sq_bumps) { /* the squares move in the image only with a bump */
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            double u = -1e6, vv = -1e6;
            camera_project(
                &r->cam,
                board_to_world(&r->pose, shogiban_sq_x(g, sq), shogiban_sq_y(g, sq), g->thickness),
                &u, &vv);
            r->sq_px[sq][0] = u;
            r->sq_px[sq][1] = vv;
        }
        r->sq_bumps = st->nbumps;
    }
    memcpy(out->sq_px, r->sq_px, sizeof out->sq_px);
    const double cxs[4] = {-4.5, 4.5, 4.5, -4.5}, cys[4] = {-4.5, -4.5, 4.5, 4.5};
    for (int k = 0; k < 4; k++) {
        double u = -1e6, vv = -1e6;
        camera_project(
            &r->cam,
            board_to_world(&r->pose, cxs[k] * g->pitch_x, cys[k] * g->pitch_y, g->thickness), &u,
            &vv);
        out->corners[k][0] = u;
        out->corners[k][1] = vv;
        out->corner_inside[k] = u >= 0 && u < w && vv >= 0 && vv < h;
    }
    for (int c = 0; c < 2; c++) {
        double u = -1e6, vv = -1e6;
        camera_project(
            &r->cam, board_to_world(&table_pose, g->stands[c].cx, g->stands[c].cy, g->stands[c].h),
            &u, &vv);
        out->komadai_px[c][0] = u;
        out->komadai_px[c][1] = vv;
    }
    out->settled = shogi_timeline_visit_at(&r->tl, i) == NULL && !st->carried;
    out->people_scene = r->people.sc >= RENDER_SCENE_SHADOWS;
    static const char *const kinds[] = {"lift",   "put",  "to-komadai", "from-komadai",
                                        "pocket", "hide", "bump",       "mark"};
    for (int e = 0; e < r->tl.nev && r->tl.ev[e].frame <= i; e++) {
        const struct stl_event *te = &r->tl.ev[e];
        if (te->frame != i || out->nevents >= 8) continue;
        struct render_shogi_event *re = &out->events[out->nevents++];
        const char *kind =
            te->kind == STL_MARK ? (te->signal ? "signal" : "fault") : kinds[te->kind];
        snprintf(re->kind, sizeof re->kind, "%s", kind);
        snprintf(re->name, sizeof re->name, "%s", te->name);
        re->sq = te->kind == STL_LIFT || te->kind == STL_PUT || te->kind == STL_MARK ? te->sq : -1;
        re->piece = te->piece;
        re->color = te->color;
        re->ply = te->ply;
        re->dx_mm = te->dx;
        re->dy_mm = te->dy;
        re->rot_deg = te->rot * 180 / PI;
    }
    out->index = i;
    out->t = (double)i / r->o.fps;
    out->width = w;
    out->height = h;
}

/* The pieces to draw (on the board, then on the komadai) into r->draws, their surfaces into
 * r->surf. */
static int shogi_pieces(struct render_shogi *r, const struct stl_state *st)
{
    const struct goban *g = &r->g;
    int n = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (!st->board[sq]) continue;
        double dx, dy, rot, tone;
        square_look(r->o.seed, sq, st->put_frame[sq], &dx, &dy, &rot, &tone);
        struct piece_draw *d = &r->draws[n];
        d->base = board_to_world(&r->pose, shogiban_sq_x(g, sq) + dx, shogiban_sq_y(g, sq) + dy,
                                 g->thickness);
        d->heading = heading_of(st->board[sq], rot + r->pose.rot);
        d->piece = st->board[sq];
        d->tone = tone;
        memcpy(d->wood, r->wood, sizeof d->wood);
        r->surf[n] = g->thickness;
        n++;
    }
    for (int c = 0; c < 2; c++)
        for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++)
            for (int k = 0; k < st->hand[c][ty] && n < MAX_DRAWS - 1; k++) {
                double bx, by, rot, lift;
                komadai_slot(g, r->o.seed, c, ty, k, &bx, &by, &rot, &lift);
                struct piece_draw *d = &r->draws[n];
                d->base = board_to_world(&table_pose, bx, by, g->stands[c].h + lift);
                d->piece = shogi_piece(c, ty);
                d->heading = heading_of(d->piece, rot);
                d->tone = (double)(ty * 7 + k) / 50.0;
                memcpy(d->wood, r->wood, sizeof d->wood);
                r->surf[n] = g->stands[c].h;
                n++;
            }
    return n;
}

/* The hand of visit v at frame i; true when it carries a piece (held). */
static bool shogi_hand(const struct render_shogi *r, const struct stl_visit *v, int i,
                       uint8_t carried, struct hand_model *hand, struct piece_draw *held)
{
    vec3 from;
    vec3 tip = hand_tip(r, v, i, &from);
    hand_pose(hand, tip, from, 3.0);
    memcpy(hand->skin, r->skin[v->color + 1], sizeof hand->skin);
    memcpy(hand->sleeve, r->sleeve[v->color + 1], sizeof hand->sleeve);
    if (!carried) return false;
    double pw, ph, pt;
    piece_size(shogi_piece_type(carried), &pw, &ph, &pt);
    *held = (struct piece_draw){.base = v3(tip.x, tip.y, tip.z - 12 - pt * 0.5),
                                .heading = heading_of(carried, r->pose.rot + 0.05),
                                .piece = carried,
                                .tone = 0.5};
    memcpy(held->wood, r->wood, sizeof held->wood);
    return true;
}

/* What a still frame's drawing follows from, besides what is fixed for the render (camera,
 * light, board, people): the bumps (the board's texture map) and each piece drawn. */
static void shogi_still_key(struct render_shogi *r, int nbumps, int n)
{
    still_want_begin(&r->still);
    still_want(&r->still, nbumps);
    still_want(&r->still, n);
    for (int k = 0; k < n; k++) {
        const struct piece_draw *d = &r->draws[k];
        const double v[10] = {d->base.x, d->base.y,  d->base.z,  d->heading, d->piece,
                              d->tone,   d->wood[0], d->wood[1], d->wood[2], r->surf[k]};
        for (int j = 0; j < 10; j++) still_want(&r->still, v[j]);
    }
}

/* Draw frame i (n pieces in r->draws, the hand and the piece it holds or NULL) before the
 * camera's finish; false with err filled on failure. */
static bool shogi_draw(struct render_shogi *r, int i, cv_image *img, int n,
                       const struct hand_model *hand, struct piece_draw *held,
                       struct scene_events *ev, char *err, size_t errlen)
{
    const struct goban *g = &r->g;
    const uint8_t wall[3] = {74, 68, 62};
    if (cv_remap(&g->atlas, img, r->mapx, r->mapy, wall) != CV_OK) {
        snprintf(err, errlen, "frame %d: %s", i, cv_last_error());
        return false;
    }
    memset(r->mask, 0, (size_t)img->width * img->height);
    people_draw_clock(&r->people, img, &r->cam, &r->light);
    double held_surf = g->thickness;
    pieces_draw_shadows(img, &r->cam, &r->light, r->draws, n, r->surf);
    if (held) pieces_draw_shadows(img, &r->cam, &r->light, held, 1, &held_surf);
    if (hand) hand_draw_shadow(img, &r->cam, &r->light, hand, g->thickness);
    /* the pieces lying still keep their sprites from frame to frame, the held one does not */
    bool drawn = pieces_draw(img, NULL, &r->cam, &r->light, &r->faces, r->draws, n, &r->sprites);
    ev->shadow = people_draw_shadow(&r->people, img, i, g);
    if (hand && held)
        drawn = drawn && pieces_draw(img, r->mask, &r->cam, &r->light, &r->faces, held, 1, NULL);
    if (!drawn) {
        snprintf(err, errlen, "frame %d: out of memory", i);
        return false;
    }
    if (hand) hand_draw(img, r->mask, &r->cam, &r->light, hand);
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

bool render_shogi_frame(struct render_shogi *r, int i, struct render_shogi_frame *out, char *err,
                        size_t errlen)
{
    if (i < 0 || i >= r->tl.nframes) {
        snprintf(err, errlen, "frame %d out of range (0..%d)", i, r->tl.nframes - 1);
        return false;
    }
    int w = r->o.width, h = r->o.height;
    struct stl_state st;
    frame_truth(r, i, out, &st);
    if (r->o.truth_only) return true;
    if (st.nbumps != r->map_bumps) {
        camera_build_map(&r->cam, &r->g, &r->pose, r->mapx, r->mapy);
        r->map_bumps = st.nbumps;
    }
    cv_image img = {r->rgb, w, h, w * 3, 3};
    const struct goban *g = &r->g;
    int n = shogi_pieces(r, &st);
    const struct stl_visit *v = shogi_timeline_visit_at(&r->tl, i);
    bool show_hand = v && r->o.hands;
    struct hand_model hand = {0};
    struct piece_draw held;
    bool holding = show_hand && shogi_hand(r, v, i, st.carried, &hand, &held);
    struct scene_events ev = {false, false};
    /* nothing moves: no hand, nothing of the people (their shadow, lean or hand at the clock) */
    bool still = !show_hand && !people_at(&r->people, i, NULL);
    if (still) shogi_still_key(r, st.nbumps, n);
    if (still && still_reuse(&r->still, r->rgb)) {
        memset(r->mask, 0, (size_t)w * h);
    } else {
        if (!shogi_draw(r, i, &img, n, show_hand ? &hand : NULL, holding ? &held : NULL, &ev, err,
                        errlen))
            return false;
        if (still) still_keep(&r->still, r->rgb);
    }
    bool on_clock = ev.on_clock;
    for (size_t k = 0; (show_hand || on_clock) && k < (size_t)w * h && !out->hand_in_view; k++)
        out->hand_in_view = r->mask[k] != 0;
    bool lean = people_draw_lean(&r->people, &img, r->mask, i, &r->cam, &r->light, g, r->sleeve);
    out->scene_event = lean ? "lean" : on_clock ? "clock-hand" : ev.shadow ? "shadow" : NULL;
    /* truth: squares and komadai the drawn hand lies over */
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int xi = (int)floor(out->sq_px[sq][0]), yi = (int)floor(out->sq_px[sq][1]);
        out->covered[sq] = xi >= 0 && yi >= 0 && xi < w && yi < h && r->mask[(size_t)yi * w + xi];
    }
    for (int c = 0; c < 2; c++) {
        int xi = (int)floor(out->komadai_px[c][0]), yi = (int)floor(out->komadai_px[c][1]);
        out->komadai_covered[c] =
            xi >= 0 && yi >= 0 && xi < w && yi < h && r->mask[(size_t)yi * w + xi];
    }
    if (!photo_finish(&r->light, &img, i, r->o.seed, r->field)) {
        snprintf(err, errlen, "frame %d: %s", i, cv_last_error());
        return false;
    }
    out->rgb = r->rgb;
    out->hand_mask = r->mask;
    return true;
}

void render_shogi_summary(const struct render_shogi *r, struct render_summary *sum)
{
    render_summary_begin(sum);
    for (int e = 0; e < r->tl.nev; e++)
        if (r->tl.ev[e].kind == STL_MARK)
            render_summary_mark(sum, r->tl.ev[e].name, r->tl.ev[e].signal);
    render_summary_end(sum, &r->o, render_shogi_fault_bits);
}

int render_shogi_to_dir(const struct shogi_record *rec, const char *record_path,
                        const struct render_opts *o, const char *dir, char *err, size_t errlen)
{
    return render_shogi_save(rec, record_path, o, dir, NULL, err, errlen);
}

int render_shogi_save(const struct shogi_record *rec, const char *record_path,
                      const struct render_opts *o, const char *dir, struct render_summary *sum,
                      char *err, size_t errlen)
{
    if (!render_make_dir(dir, err, errlen)) return -1;
    struct render_shogi *r = render_shogi_open(rec, o, err, errlen);
    if (!r) return -1;
    struct render_sink sink;
    FILE *truth = NULL;
    if (!render_sink_open(&sink, dir, o, r->jpeg_quality, err, errlen) ||
        !(truth = render_truth_open(dir, err, errlen))) {
        render_sink_close(&sink, NULL, 0);
        render_shogi_close(r);
        return -1;
    }
    render_shogi_truth_header(truth, r, record_path, &sink);
    int count = render_shogi_frame_count(r), done = 0;
    struct render_shogi_frame *f = malloc(sizeof *f);
    for (int i = 0; f && i < count; i++) {
        if (!render_shogi_frame(r, i, f, err, errlen) ||
            !render_sink_put(&sink, i, f->rgb, f->width, f->height, err, errlen))
            break;
        f->t = render_sink_time(&sink, i);
        render_shogi_truth_write(truth, f);
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
        render_shogi_summary(r, sum);
        sum->frames = done;
        snprintf(sum->codec, sizeof sum->codec, "%s", sink.codec);
    }
    render_shogi_close(r);
    return done == count ? count : -1;
}

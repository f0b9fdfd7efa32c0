/* render/render_internal.h — what the renderer's files share: a seeded PRNG, 3-D vectors, the
 * board (geometry and textures), the camera, the light, the time line and the hand model.
 * World coordinates are millimetres: the table is z = 0, x to the right of Black's seat, y toward
 * Black (the near side), z up. Board coordinates have the board's centre as origin, the same axes
 * before the board is moved by a bump. */
#ifndef KIFUCAM_RENDER_INTERNAL_H
#define KIFUCAM_RENDER_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "board/shogi.h"
#include "render/render.h"
#include "vision/cv.h"

/* ---- randomness: splitmix64, one independent stream per (seed, purpose, index) ------------- */

struct rng {
    uint64_t s;
};

static inline uint64_t rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline struct rng rng_stream(uint64_t seed, uint64_t purpose, uint64_t index)
{
    struct rng r = {rng_mix(rng_mix(seed + 0x9E3779B97F4A7C15ull) ^ rng_mix(purpose * 7919 + 1) ^
                            rng_mix(index * 104729 + 17))};
    return r;
}
static inline uint64_t rng_next(struct rng *r)
{
    r->s += 0x9E3779B97F4A7C15ull;
    return rng_mix(r->s);
}
static inline double rng_unit(struct rng *r) /* [0, 1) */
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}
static inline double rng_range(struct rng *r, double a, double b)
{
    return a + (b - a) * rng_unit(r);
}
static inline int rng_int(struct rng *r, int n) /* 0 .. n-1 */
{
    return (int)(rng_unit(r) * n);
}
static inline double rng_gauss(struct rng *r)
{
    double u = rng_unit(r), v = rng_unit(r);
    return sqrt(-2.0 * log(1.0 - u)) * cos(6.283185307179586 * v);
}

/* Random streams (the purpose argument of rng_stream). */
enum { RS_SCENE = 1, RS_TEXTURE, RS_TIMELINE, RS_STONE, RS_FRAME, RS_HAND, RS_PEOPLE, RS_THINK };

/* ---- vectors ----------------------------------------------------------------------------- */

typedef struct {
    double x, y, z;
} vec3;

static inline vec3 v3(double x, double y, double z)
{
    vec3 v = {x, y, z};
    return v;
}
static inline vec3 v3_add(vec3 a, vec3 b)
{
    return v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline vec3 v3_sub(vec3 a, vec3 b)
{
    return v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline vec3 v3_scale(vec3 a, double s)
{
    return v3(a.x * s, a.y * s, a.z * s);
}
static inline double v3_dot(vec3 a, vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline vec3 v3_cross(vec3 a, vec3 b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline vec3 v3_norm(vec3 a)
{
    double l = sqrt(v3_dot(a, a));
    return l > 0 ? v3_scale(a, 1.0 / l) : a;
}
static inline double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Frames the players think after move ply (render_opts.think_s): log-normal with mean think_s,
 * capped at six times it, from a stream of its own so nothing else in the time line moves. */
static inline int render_think_frames(const struct render_opts *o, int ply)
{
    if (o->think_s <= 0) return 0;
    struct rng r = rng_stream(o->seed, RS_THINK, (uint64_t)ply);
    double mean = o->think_s * (o->fps > 0 ? o->fps : 30);
    return (int)clampd(mean * exp(0.6 * rng_gauss(&r) - 0.18), 0, 6 * mean);
}
static inline double smoothstep(double e0, double e1, double x)
{
    double t = clampd((x - e0) / (e1 - e0), 0, 1);
    return t * t * (3 - 2 * t);
}
static inline uint8_t to_u8(double v)
{
    return (uint8_t)(v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5);
}

/* ---- the board (scene_go.c) ------------------------------------------------------------- */

struct goban {
    int cols, rows;
    enum render_style style;
    double pitch_x, pitch_y; /* line spacing: 22 mm across, 23.7 mm along */
    double width, length;    /* board extents in x and y */
    double thickness;        /* top surface height above the table */
    double line_w, star_d;   /* line width, star point diameter */
    double seam_y;           /* folding seam position in board y, or NAN */
    /* One texture atlas: board top, board side, table (cv_remap samples it once per frame). */
    cv_image atlas;
    double top_scale;    /* atlas pixels per mm on the board top */
    int top_w, top_h;    /* board top region at (0, 0) */
    int side_y0, side_h; /* side region: rows side_y0.., same width as the top */
    double side_scale;
    int table_y0, table_w, table_h;   /* table region below the side region */
    double table_scale, table_extent; /* table covers [-extent, extent]^2 mm */
    /* Shogi: the two komadai (piece stands) beside the board, boxes standing on the table in
     * world coordinates (the board's before any bump): a bump or a knock moves the board, which
     * stands on its own, not the komadai; the timeline keeps the board clear of them. Their tops
     * are atlas regions, their sides reuse the board's side region. */
    int nstands;
    struct stand {
        double cx, cy, w, l, h; /* centre (board mm), size, height of the top above the table */
        int top_x0, top_y0;     /* atlas region of the top, at top_scale */
    } stands[2];
};

/* Wood for board tops and sides (scene_go.c, shared with scene_shogi.c). */
struct wood {
    double base[3], dark[3];
    double period; /* grain spacing, mm */
    double warp;   /* how much the grain wanders */
    double contrast;
    double ring_bend; /* >0: curved (flat-sawn) grain */
};
double scene_noise2(uint64_t seed, double x, double y);
double scene_fbm(uint64_t seed, double x, double y, int octaves);
void scene_wood_color(const struct wood *w, uint64_t seed, double x, double y, double out[3]);
void scene_style_wood(enum render_style st, struct rng *r, struct wood *w);
void scene_paint_side(struct goban *g, uint64_t seed, const struct wood *w);
void scene_paint_table(struct goban *g, uint64_t seed, struct rng *r);

/* Build geometry and textures for the style; px_per_mm sets the texture detail (0: geometry
 * only, no atlas, for truth-only renders; shogiban_init alike). */
bool goban_init(struct goban *g, int cols, int rows, enum render_style style, uint64_t seed,
                double px_per_mm);
void goban_free(struct goban *g);
/* Board coordinates (mm) of grid point (x, y). */
double goban_px(const struct goban *g, int x);
double goban_py(const struct goban *g, int y);

/* Where the board lies on the table: a shift and a turn about z (bumps change it). */
struct board_pose {
    double x, y, rot; /* mm, mm, radians */
};
vec3 board_to_world(const struct board_pose *p, double bx, double by, double z);
/* Where the komadai stand: the table, which bumps do not move. */
extern const struct board_pose table_pose;
/* The board at pose p comes within margin mm of a komadai (shogi), or overlaps one. */
bool board_hits_stands(const struct goban *g, const struct board_pose *p, double margin);
void world_to_board(const struct board_pose *p, vec3 w, double *bx, double *by);

/* ---- the camera (camera.c) -------------------------------------------------------------- */

struct camera {
    int w, h;
    double f, cx, cy;      /* pinhole focal length (px) and principal point */
    double k1, norm;       /* barrel: ideal = distorted * (1 + k1 r^2), r = |p - c| / norm */
    vec3 pos;              /* centre of projection, world mm */
    vec3 right, down, fwd; /* camera axes in world coordinates */
};

struct camera_params {
    double tilt, yaw, roll; /* degrees: 0 tilt = straight down; yaw 0 = from Black's side */
    double fill;            /* board's longer side / frame's shorter side (overhead) */
    double off_x, off_y;    /* aim point shift, in board widths */
    double hfov;            /* horizontal field of view, degrees */
    double k1;
};

void camera_setup(struct camera *c, int w, int h, const struct camera_params *p,
                  const struct goban *g);
/* World point to (distorted) pixel; false when behind the camera. */
bool camera_project(const struct camera *c, vec3 p, double *u, double *v);
/* The world direction (unit) of the ray through pixel (u, v). */
vec3 camera_ray(const struct camera *c, double u, double v);
/* camera_ray in two steps, the very same operations: the offsets of a pixel column (u) and row (v)
 * from the centre, then the ray. Loops over many pixels compute each offset once per column or
 * row instead of once per ray. */
static inline double camera_off_u(const struct camera *c, double u)
{
    return (u - c->cx) / c->norm;
}
static inline double camera_off_v(const struct camera *c, double v)
{
    return (v - c->cy) / c->norm;
}
static inline vec3 camera_ray_off(const struct camera *c, double dx, double dy)
{
    double s = 1 + c->k1 * (dx * dx + dy * dy);
    double xi = dx * s * c->norm / c->f, yi = dy * s * c->norm / c->f;
    return v3_norm(v3_add(c->fwd, v3_add(v3_scale(c->right, xi), v3_scale(c->down, yi))));
}
/* Atlas coordinates for every frame pixel: the ray meets the board top, a board side or the table.
 */
void camera_build_map(const struct camera *c, const struct goban *g, const struct board_pose *p,
                      float *mapx, float *mapy);

/* ---- frames in which nothing moves (still.c) -------------------------------------------- */

/* The drawing of a frame with no hand and nothing of the people in it, kept with the numbers it
 * was drawn from (its key, compared bit for bit). The caller lists every number that can differ
 * between such frames of one render: still_want_begin, still_want for each, then still_reuse
 * (copies the kept drawing when the key is the same) or, after drawing, still_keep. */
struct still_scene {
    double *key, *want; /* the kept drawing's key; the key of the frame at hand */
    int nkey, nwant, cap;
    uint8_t *rgb; /* the kept drawing (size bytes) */
    size_t size;
    bool kept;
};
/* What the people do in a frame (render_go.c, render_shogi.c): a player's shadow, a hand at the
 * clock. */
struct scene_events {
    bool shadow, on_clock;
};
bool still_init(struct still_scene *s, size_t size, int cap);
void still_free(struct still_scene *s);
void still_want_begin(struct still_scene *s);
void still_want(struct still_scene *s, double v);
bool still_reuse(const struct still_scene *s, uint8_t *rgb);
void still_keep(struct still_scene *s, const uint8_t *rgb);

/* ---- light and photography (photo.c) ---------------------------------------------------- */

struct lighting {
    vec3 dir;                                  /* unit vector toward the main light */
    double tint[3];                            /* white balance gains (warm/cool) */
    double exposure;                           /* overall gain */
    double drift_amp, drift_period;            /* slow auto-exposure / WB wandering */
    double vignette;                           /* 0..1 darkening at the corners */
    double grad_x, grad_y;                     /* linear light fall-off across the frame */
    double glare_u, glare_v, glare_r, glare_i; /* glare spot: centre px, radius px, intensity */
    double blur_sigma;                         /* focus blur, px */
    double noise; /* sensor noise, std-dev in 8-bit levels at mid grey */
};
void lighting_choose(struct lighting *l, enum render_scenario sc, int w, int h, struct rng *r);
/* Uneven light, glare, drift, blur and sensor noise, in place, for frame index i. */
bool photo_finish(const struct lighting *l, cv_image *img, int frame, uint64_t seed,
                  const float *gain_field);
/* Per-pixel light: w*h gains (vignette, gradient) then w*h additive glare levels; computed once
 * per scene. */
float *photo_gain_field(const struct lighting *l, int w, int h);

/* ---- stones and hands (stones.c, hand.c) ------------------------------------------------ */

struct stone_look {
    double dx, dy; /* off-centre, mm */
    double angle;  /* rotation of the shell stripes, radians */
    double tone;   /* small per-stone brightness variation */
};
struct stone_draw {
    vec3 centre; /* world centre of the lens (mid height) */
    enum go_color color;
    struct stone_look look;
    double dist; /* from the camera, for painter's order */
};

/* Stone geometry: radius and half thickness (mm). */
#define STONE_R 10.9
#define STONE_H 4.6

/* Pixel box covering the world box centre +- (rx, ry, rz), clipped to the frame; false when
 * nothing is visible. */
bool pixel_box(const struct camera *c, vec3 ctr, double rx, double ry, double rz, int *x0, int *y0,
               int *x1, int *y1);
void stones_draw_shadows(cv_image *img, const struct camera *c, const struct lighting *l,
                         const struct stone_draw *s, int n, double board_top);
/* Draw stones far to near; mask (may be NULL) gets 255 where a stone is drawn. */
void stones_draw(cv_image *img, uint8_t *mask, const struct camera *c, const struct lighting *l,
                 struct stone_draw *s, int n, bool white_glass);

/* A hand and arm as capsules (segments with a radius). */
struct capsule {
    vec3 a, b;
    double r;
    int material; /* 0 skin, 1 sleeve, 2 nail */
};
struct hand_model {
    struct capsule caps[16];
    int n;
    double skin[3], sleeve[3];
    bool holds_stone;
    struct stone_draw stone;
};
/* Pose the hand: fingertips at tip (world), coming from direction from (unit, horizontal). */
void hand_pose(struct hand_model *h, vec3 tip, vec3 from, double spread);
/* Draw the hand's soft shadow on the board plane at height board_top. */
void hand_draw_shadow(cv_image *img, const struct camera *c, const struct lighting *l,
                      const struct hand_model *h, double board_top);
/* Draw the hand and arm; sets mask to 255 where drawn. */
void hand_draw(cv_image *img, uint8_t *mask, const struct camera *c, const struct lighting *l,
               const struct hand_model *h);

/* ---- shogi: board, pieces, faces (scene_shogi.c, pieces.c, piece_faces.c) -------------- */

/* A shogiban in a struct goban (cols = rows = 9 cells, pitch = cell size) with two komadai. */
bool shogiban_init(struct goban *g, enum render_style style, uint64_t seed, double px_per_mm);
/* Board coordinates (mm) of a square's centre. */
double shogiban_sq_x(const struct goban *g, int sq);
double shogiban_sq_y(const struct goban *g, int sq);

#define PIECE_TEX_W 72
#define PIECE_TEX_H 80
struct piece_faces {
    int tw, th;
    uint8_t *ink[SHOGI_TYPES]; /* ink coverage per face, rows from the apex; [0] = gote's 王将 */
    char font[240];
};
/* font_choice 0/1: the first or second CJK font found (serif or sans). */
bool piece_faces_init(struct piece_faces *pf, int font_choice, char *err, size_t errlen);
void piece_faces_free(struct piece_faces *pf);

struct piece_draw {
    vec3 base;      /* centre of the bottom face, world */
    double heading; /* world angle (radians) of the direction the apex points */
    int piece;      /* piece code (type and owner) */
    double tone;    /* per-piece variation */
    double wood[3]; /* boxwood colour of the set */
    double dist;
};
void piece_size(enum shogi_type t, double *w, double *h, double *thick);
/* A piece as pieces_draw paints it: over its pixel box, each pixel's colour and how many of its
 * four sub-samples the piece covers. That follows from the piece's place and look alone (the
 * camera, the light and the faces are fixed for a render), so a render keeps the sprites of one
 * frame's pieces and the next frame paints a piece that has not moved from its sprite: only the
 * blend with what lies behind it is done again. */
struct piece_sprite {
    double key[9];      /* base x y z, heading, piece, tone, wood r g b (compared bit for bit) */
    int x0, y0, x1, y1; /* the box; empty (x1 < x0) when the piece is not in view */
    double *col;        /* 3 per pixel of the box */
    uint8_t *hits;      /* sub-samples covered, 0..4 per pixel */
    bool taken;
};
struct piece_sprites {
    struct piece_sprite *v;
    int n;
};
void piece_sprites_free(struct piece_sprites *keep);
/* Draw pieces far to near (lower ones first); mask (may be NULL) gets 255 where drawn. keep (may
 * be NULL): the sprites kept from the last call, replaced by this call's. false: out of memory. */
bool pieces_draw(cv_image *img, uint8_t *mask, const struct camera *c, const struct lighting *l,
                 const struct piece_faces *pf, struct piece_draw *p, int n,
                 struct piece_sprites *keep);
/* Soft shadows on the surface each piece stands over (surface_z[i], or its own base if NULL). */
void pieces_draw_shadows(cv_image *img, const struct camera *c, const struct lighting *l,
                         const struct piece_draw *p, int n, const double *surface_z);

/* ---- time line (timeline.c) ------------------------------------------------------------- */

enum tl_kind { TL_PLACE, TL_REMOVE, TL_PASS, TL_BUMP, TL_MARK, TL_OFF };

struct tl_event {
    int frame;
    enum tl_kind kind;
    int point;
    enum go_color color;
    int ply;
    struct stone_look look; /* PLACE: how the stone lies */
    double dx, dy, rot;     /* BUMP: board shift (mm) and turn (radians); OFF: board mm */
    char name[16];          /* MARK: the fault or signal */
    bool signal;            /* MARK: a signal, not a fault */
};

/* Stones put down off the grid (signals): board mm, from their frame on. */
#define TL_MAX_OFF 4

/* Where the requested Go faults go (faults_go.c); a ply of 0 means not injected. */
struct go_fault_plan {
    int same_k, same_pt, same_color;
    int moved_k, moved_from, moved_to, moved_color;
    int removed_k, removed_pt, removed_color;
    int left_k; /* the capture at this ply leaves its prisoners */
    int knock_k;
    /* illegal moves, put back before the record's next move: after ply ko_k the side to move
       retakes the ko at ko_pt (ko_taker: the stone it takes); after sui_k it puts a stone on
       sui_pt, where it has no liberty and takes nothing */
    int ko_k, ko_pt, ko_taker, ko_color;
    int sui_k, sui_pt, sui_color;
};
void go_faults_plan(const struct go_record *rec, const struct render_opts *o, int nmoves,
                    struct go_fault_plan *plan);

/* A hand visit: from frame f0 to f1 the hand of player `color` reaches in, visits targets, leaves.
 */
struct tl_visit {
    int f0, f1;
    enum go_color color;
    int ntargets;
    int target_point[24];
    int target_frame[24]; /* frame at which the fingers touch each target */
    bool carries[24];     /* carries a stone in to this target (a placement) */
};

struct timeline {
    int nframes;
    int width, height; /* board */
    uint8_t setup[GO_POINTS];
    struct stone_look setup_look[GO_POINTS];
    struct tl_event *ev;
    int nev;
    struct tl_visit *visits;
    int nvisits;
    int noff; /* stones off the grid: a visit target of -100 - i is off stone i */
    double off_xy[TL_MAX_OFF][2];
    enum go_color off_color[TL_MAX_OFF];
    int off_frame[TL_MAX_OFF];
    struct go_fault_plan plan;
    int count_from; /* first frame of the counting after the game (0: none) */
};

bool timeline_build(struct timeline *t, const struct go_record *rec, const struct render_opts *o,
                    char *err, size_t errlen);
void timeline_free(struct timeline *t);
/* The stones on the board at frame f (events at f included), the ply reached, their looks, and
 * the board pose (sum of bumps so far). */
void timeline_state(const struct timeline *t, int f, uint8_t stone[GO_POINTS],
                    struct stone_look look[GO_POINTS], int *ply, struct board_pose *pose,
                    int *nbumps);
/* Building blocks shared by timeline.c and timeline_go_extra.c. */
bool tl_push_event(struct timeline *t, int *cap, struct tl_event e);
bool tl_push_visit(struct timeline *t, int *cap, const struct tl_visit *v);
struct stone_look tl_random_look(uint64_t seed, uint64_t index);
struct tl_event tl_mark_event(int frame, int ply, int point, enum go_color c, const char *name);
/* Fault visits after this ply (t->plan); signals after the last move. Advance *frame. */
bool tl_fault_visits(struct timeline *t, int *evcap, int *vcap, struct rng *r, int ply, int *frame,
                     uint64_t seed);
bool tl_signal_visits(struct timeline *t, int *evcap, int *vcap, struct rng *r,
                      const struct go_game *g, const struct go_record *rec, int ply, int *frame,
                      const struct render_opts *o);
/* The counting after the last move (timeline_go_count.c): visits that carry out count_plan_make's
 * plan; sets t->count_from. Advances *frame. */
bool tl_counting_visits(struct timeline *t, int *evcap, int *vcap, struct rng *r,
                        const struct go_game *g, int ply, int *frame, uint64_t seed);
/* The board as the events pushed so far leave it, faults included (while building: they are
 * pushed in time order per point). */
void timeline_board_now(const struct timeline *t, uint8_t pos[GO_POINTS]);
/* Stones lying off the grid at frame f (signals): board mm and colour; returns how many. */
int timeline_off_stones(const struct timeline *t, int f, double xy[TL_MAX_OFF][2],
                        enum go_color color[TL_MAX_OFF]);
/* The visit in progress at frame f, or NULL. */
const struct tl_visit *timeline_visit_at(const struct timeline *t, int f);

/* ---- the counting after a Go game (count_plan.c) ---------------------------------------- */

enum count_op_kind {
    COUNT_TAKE, /* a stone taken off `from` (dead, or not part of the game) */
    COUNT_PUT,  /* a stone put on `to` (a prisoner, a dame, or from the bowl) */
    COUNT_MOVE  /* a stone lifted at `from` and put on `to` */
};
struct count_op {
    enum count_op_kind kind;
    int from, to;
    enum go_color stone, hand; /* the stone's colour; whose hand */
};
#define COUNT_MAX_OPS (4 * GO_POINTS)
struct count_plan {
    int n;
    struct count_op op[COUNT_MAX_OPS];
    int lid[3]; /* prisoners left in each player's lid (territory scoring) */
};
/* The counting of g's final position, starting from `board` (what lies there when it begins). */
void count_plan_make(const struct go_game *g, const uint8_t board[GO_POINTS], uint64_t seed,
                     struct count_plan *out);

/* ---- shogi time line (timeline_shogi.c) ------------------------------------------------- */

enum stl_kind {
    STL_LIFT,      /* a piece leaves square sq into a hand */
    STL_PUT,       /* the carried piece goes down on sq as `piece` (promoted, turned: as given) */
    STL_HAND_ADD,  /* the carried piece goes onto color's komadai */
    STL_HAND_TAKE, /* a piece of color's komadai into the hand */
    STL_POCKET,    /* the carried piece leaves the scene (a fault) */
    STL_HIDE,      /* a komadai piece is hidden away (a fault) */
    STL_BUMP,
    STL_MARK /* a fault or signal noted in the time line (no change by itself) */
};

struct stl_event {
    int frame;
    enum stl_kind kind;
    int sq;
    uint8_t piece;
    int color;
    int ply;  /* the move it belongs to; PUT completes it */
    int side; /* PUT: side to move after the move */
    double dx, dy, rot;
    char name[24]; /* MARK: "fault"/"signal" name; "kind" below */
    bool signal;
};

enum { TGT_SQ, TGT_STAND, TGT_REST };
struct stl_visit {
    int f0, f1, color, nt;
    int tkind[8], tsq[8], ttype[8], tidx[8], tframe[8];
};

struct shogi_timeline {
    int nframes;
    struct shogi_position start;
    struct stl_event *ev;
    int nev;
    struct stl_visit *visits;
    int nvisits;
};

struct stl_state {
    uint8_t board[SHOGI_SQUARES];
    int put_frame[SHOGI_SQUARES]; /* when the piece came to the square (its look) */
    uint8_t hand[2][SHOGI_HAND_TYPES];
    uint8_t carried;
    int ply, side;
    struct board_pose pose;
    int nbumps;
};

bool shogi_timeline_build(struct shogi_timeline *t, const struct shogi_record *rec,
                          const struct render_opts *o, char *err, size_t errlen);
void shogi_timeline_free(struct shogi_timeline *t);
void shogi_timeline_state(const struct shogi_timeline *t, int f, struct stl_state *s);
const struct stl_visit *shogi_timeline_visit_at(const struct shogi_timeline *t, int f);
/* Bumps that would push the board into a komadai turned away or made smaller
 * (stand_clearance.c); the events must be in frame order. */
void shogi_timeline_keep_clear(struct shogi_timeline *t, const struct goban *g);
/* Where piece idx of `type` lies on color's komadai (board mm), its turn and lift. */
void komadai_slot(const struct goban *g, uint64_t seed, int color, int type, int idx, double *bx,
                  double *by, double *rot, double *lift);

/* ---- what players do around the board (scene_people.c) ---------------------------------- */

#define PEOPLE_MAX_SPANS 64
struct people_span {
    int f0, f1;            /* frames, both included */
    int side;              /* +1: the player at +y (Black, sente), -1: the other */
    double from[2], to[2]; /* shadows: drift (world mm); leaning: from[0] = x */
    double radius, stretch, angle, strength; /* shadow ellipse; leaning: head radius */
    double depth;                            /* leaning: how far in (0..1) */
};
struct people {
    enum render_scenario sc;
    int n;
    struct people_span spans[PEOPLE_MAX_SPANS];
    float *plane;       /* x, y (world mm) where each pixel's ray meets the board-top plane */
    double clock_xy[2]; /* the clock's centre on the table (world mm) */
    double clock_size[3];
};
/* Spans for the shadows / leaning / clock scenarios (none for the others); false: no memory. */
bool people_init(struct people *p, enum render_scenario sc, uint64_t seed, int nframes,
                 const struct goban *g, const struct camera *c, bool shogi);
void people_free(struct people *p);
/* The span at frame f and how far it has come in (0..1), or NULL. */
const struct people_span *people_at(const struct people *p, int f, double *amount);
/* The middle frame of span k, or -1. */
int people_find_frame(const struct people *p, int k);
/* A drifting player's shadow, or the shadow of a leaning body; true for a player's shadow. */
bool people_draw_shadow(const struct people *p, cv_image *img, int f, const struct goban *g);
/* The leaning body, last: mask 255 where it hides what is behind; true when drawn. */
bool people_draw_lean(const struct people *p, cv_image *img, uint8_t *mask, int f,
                      const struct camera *c, const struct lighting *l, const struct goban *g,
                      const double sleeve[3][3]);
/* The game clock on the table (clock scenario). */
void people_draw_clock(const struct people *p, cv_image *img, const struct camera *c,
                       const struct lighting *l);
/* The hand resting on the clock at frame f, posed, and whose it is (1: +y player, 2: other). */
bool people_clock_hand(const struct people *p, int f, const struct goban *g, struct hand_model *h,
                       int *side);

/* ---- contact sheets (contact_sheet.c, scene_sheet.c) ------------------------------------ */

enum { SHEET_COLS = 4, SHEET_ROWS = 3 };
/* A frame shrunk into tile K of the sheet (sw pixels wide). */
bool sheet_paste_tile(uint8_t *sheet, int sw, int k, int tile_w, int tile_h, const uint8_t *rgb,
                      int w, int h, char *err, size_t errlen);
bool sheet_write(const uint8_t *sheet, int sw, int sh, const char *path, char *err, size_t errlen);

/* ---- shared by the Go and shogi renders (render_go.c) ----------------------------------- */

void render_choose_camera(struct camera_params *p, enum render_scenario sc, struct rng *r);
/* Skin and sleeve colours of the two players (index 1 and 2). */
void render_choose_people(struct rng *rs, double skin[3][3], double sleeve[3][3]);
bool render_make_dir(const char *dir, char *err, size_t errlen);
/* rgb (w x h, 3 bytes a pixel) as a PNG file (render/png_out.c); false with err filled. */
bool render_png_write(const uint8_t *rgb, int w, int h, const char *path, char *err, size_t errlen);
/* DIR/frame_NNNNNN.jpg of one rendered RGB frame (render_jpeg_encode at QUALITY). */
bool render_save_frame(const char *dir, int index, const uint8_t *rgb, int width, int height,
                       int quality, char *err, size_t errlen);
/* DIR/truth.jsonl opened for writing, or NULL with err filled. */
FILE *render_truth_open(const char *dir, char *err, size_t errlen);
/* The faults and signals summary's part of the truth header (",\"faults_unplaced\":[...]"). */
void render_summary_header_json(FILE *out, const struct render_summary *sum);
/* faults.c: a summary from the time line's marks: begin, one mark per fault or signal shown
 * (placed and shown collect in the summary's fields), then end turns them into what was asked
 * for and not placed (game_bits: the faults this game knows). */
void render_summary_begin(struct render_summary *sum);
void render_summary_mark(struct render_summary *sum, const char *name, bool signal);
void render_summary_end(struct render_summary *sum, const struct render_opts *o,
                        unsigned game_bits);

/* ---- output: JPEG files or one video (frame_sink.c, video_out.c) ------------------------ */

struct render_video;
/* quality 1..100 as for JPEG (MJPEG's qscale follows it); mjpeg: skip H.264. */
struct render_video *render_video_open(const char *path, int width, int height, int fps,
                                       int quality, bool mjpeg, char *err, size_t errlen);
const char *render_video_codec(const struct render_video *v);
/* Seconds of frame index in the file's own clock (the container's time base). */
double render_video_time(const struct render_video *v, int index);
bool render_video_write(struct render_video *v, int index, const uint8_t *rgb, char *err,
                        size_t errlen);
/* Drains the encoder and finishes the file; frees v (NULL is fine). */
bool render_video_close(struct render_video *v, char *err, size_t errlen);

struct render_sink {
    const char *dir;
    int quality, fps;
    struct render_video *video; /* NULL: JPEG frames */
    char video_name[256];
    char codec[16];  /* of the video: "h264" or "mjpeg" */
    bool truth_only; /* render_opts.truth_only: no frames written, truth.jsonl only */
};
bool render_sink_open(struct render_sink *s, const char *dir, const struct render_opts *o,
                      int quality, char *err, size_t errlen);
bool render_sink_put(struct render_sink *s, int index, const uint8_t *rgb, int width, int height,
                     char *err, size_t errlen);
/* The time of frame index in the output (truth "t"). */
double render_sink_time(const struct render_sink *s, int index);
void render_sink_header_json(FILE *out, const struct render_sink *s);
bool render_sink_close(struct render_sink *s, char *err, size_t errlen);

/* camera.c: a ray from o along d against an axis-aligned box: the entry distance in *t_in and the
 * axis of the face it enters by, or -1 when it misses. */
int render_ray_box(const double o[3], const double d[3], const double lo[3], const double hi[3],
                   double *t_in);

#endif

/* vision/shogi_reader_internal.h — the shogi reader's state, shared by the files of the reader
 * (tracking, per-frame observations, the komadai). Not for other stages. */
#ifndef KIFUCAM_VISION_SHOGI_READER_INTERNAL_H
#define KIFUCAM_VISION_SHOGI_READER_INTERNAL_H

#include "vision/shogi_read.h"

#define SHOGI_PATCH_AREA (SHOGI_PATCH * SHOGI_PATCH)
#define SHOGI_SIG        8  /* coarse samples a side that tell whether a cell changed */
#define SHOGI_RIM        32 /* samples of the rim beside one edge cell */

struct shogi_reader {
    struct shogi_finder *finder;
    struct shogi_grid grid;
    bool have_grid, oriented;
    bool sided; /* sente's side known (from the first move) */
    struct shogi_book book;
    struct shogi_position pos;
    uint8_t patch[SHOGI_SQUARES][SHOGI_PATCH_AREA];
    double tex[SHOGI_SQUARES];
    bool seen[SHOGI_SQUARES]; /* the whole cell lies inside the image */
    struct shogi_reader_stats stats;
    /* per-frame observations (shogi_observe.c) */
    uint8_t expect[SHOGI_SQUARES];      /* what the last settled view showed (or the start) */
    int first_mover;                    /* whose move the start position awaits */
    uint8_t start_board[SHOGI_SQUARES]; /* the position the reader started from (which side is
                                           sente is judged by the moves made since) */
    /* How sure the reading was that named the piece standing here when it came (1 when sure):
     * a piece named in doubt (a promotion neither the ink's colour nor a face seen before told,
     * a drop whose face fits another kind about as well, a piece no cell and no hand explains)
     * is read no surer while it stays, for nothing since has told what it is. */
    float named_conf[SHOGI_SQUARES];
    /* Cells out of the picture whose piece the last frame read arrived on a cell in view: empty
     * from the next settled view on (shogi_arrivals.c names them, shogi_observe.c clears them). */
    bool left_unseen[SHOGI_SQUARES];
    /* The pieces each side holds as the settled views tell them (a piece of the other side
     * gone from the board went to this side's hand, a piece of this side new on it came from
     * it): what a drop can be (shogi_arrivals.c). */
    int hand_est[2][SHOGI_HAND_TYPES];
    double line_ref;                 /* grid-line contrast of an uncovered cell border */
    double line_cell[SHOGI_SQUARES]; /* each cell's at the last settled view (pieces standing in
                                        front hide lines in an oblique view) */
    double last_ev[SHOGI_SQUARES];   /* each cell's in the last frame read */
    /* The per-frame path samples a cell again only when its coarse look changed since it was
     * last sampled (shogi_observe.c); otherwise its patch, texture, line evidence and book
     * scores stand. Cleared by shogi_reader_sample and whenever the grid moves. */
    bool cached[SHOGI_SQUARES];
    double cache_H[9];                                 /* the grid the cache was sampled on */
    uint8_t sig[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG]; /* coarse samples when last sampled */
    double ev[SHOGI_SQUARES];                          /* line evidence when last sampled */
    float score[SHOGI_SQUARES][SHOGI_TYPES][2];        /* book scores of the patch */
    bool scored[SHOGI_SQUARES];                        /* ... valid for score_gen */
    unsigned score_gen[SHOGI_SQUARES];                 /* the book's generation scored */
    double sig_noise; /* learned difference of an unchanged cell (camera noise) */
    double sig_thr;   /* a cell moved more than this has changed (this frame) */
    int resampled;    /* cells sampled again in the last frame */
    int64_t cell_moved_ns[SHOGI_SQUARES]; /* when each cell's coarse look last moved */
    uint8_t sig_now[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG]; /* this frame's coarse samples */
    /* An arm reaches over the board's rim: the rim beside each cell of the edge (top, bottom,
     * left, right, 9 each) and the cells as the last settled view showed them. */
    uint8_t rim_now[4 * 9][SHOGI_RIM], rim_ref[4 * 9][SHOGI_RIM], rim_prev[4 * 9][SHOGI_RIM];
    int64_t rim_still_ns[4 * 9]; /* since when each rim piece looks the same */
    uint8_t sig_ref[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG];
    bool ref_valid;
    /* Each cell's coarse samples at the last settled view (or the start), taken through the grid
     * settled_H: a cell that still looks so holds what it held then (shogi_observe.c). Like
     * sig_ref, taken from the last frame read whole and clear where it shows the view (clear). */
    uint8_t sig_settled[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG];
    double settled_H[9];
    bool moved_since[SHOGI_SQUARES]; /* ... the cell no longer looks so (with hysteresis) */
    bool have_settled_sig[SHOGI_SQUARES];
    /* Each cell's picture and texture at the last settled view (or the start): a piece that
     * left, and a piece that took another of the same colour, are told by them. */
    uint8_t ref_patch[SHOGI_SQUARES][SHOGI_PATCH_AREA]; /* each cell at the last settled view */
    double ref_tex[SHOGI_SQUARES]; /* each cell's texture at the last settled view */
    bool have_ref;
    double follow_ref;  /* grid-line share at the start or the last settled view (shogi_follow.c) */
    double follow_now;  /* ... in the last frame read */
    int follow_steady;  /* frames the share has stayed low and steady */
    int last_noccluded; /* cells a hand covered in the last frame read */
    int rim_nchanged;   /* rim pieces changed from their reference in the last frame read (-1
                           when the references were taken from it: a start, a jolt) */
    /* The last frame read whole and clear: no cell covered or read under 0.5, no rim piece
     * changed. The references a settled view takes (each cell's coarse look for the arm
     * detector, the rim's, each cell's picture, texture and line evidence) come from it when it
     * shows that view, whichever frame the settler says the view on: said on a hand's first
     * frame (a fingertip over one cell taken for a blip), the hand's look became the cells' own
     * and they were read covered once it left (shogi footage game 25). */
    struct {
        bool valid;
        double H[9];                  /* the grid it was read through */
        uint8_t point[SHOGI_SQUARES]; /* its readings, by square */
        float conf[SHOGI_SQUARES];
        uint8_t sig[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG];
        uint8_t rim[4 * 9][SHOGI_RIM];
        uint8_t patch[SHOGI_SQUARES][SHOGI_PATCH_AREA];
        double tex[SHOGI_SQUARES], ev[SHOGI_SQUARES];
        double follow;
    } clear;
    int64_t jolt_ns; /* when the rim or most cells last changed at once (a bump, the light) */
    /* colour (shogi_colour.c): this frame's colour image (NULL for a grey frame) and the grey
     * copy the reader works on */
    const struct vision_image *colour;
    uint8_t *gray_buf;
    size_t gray_cap;
    struct vision_image gray_img;
    float red[SHOGI_SQUARES]; /* each cell's ink redness when last sampled (shogi_cell_ink_red) */
    bool has_red[SHOGI_SQUARES]; /* ... measured on a colour frame */
    struct {
        double n, sum, ss;
    } red_cls[2]; /* the redness of plain [0] and promoted [1] faces seen on this set */
    /* shogi_komadai.c: how much wider than the book's piece a row's mask is on each stand in
     * this view (pixels at its scale), learned where the game's hands tell a row's count */
    double stand_bleed[2];
    int stand_learned[2];
};

/* shogi_grid.c: how the finder cleans the picture before it marks lines (enum find_filter;
 * FIND_MEDIAN until told). */
void shogi_finder_filter(struct shogi_finder *f, unsigned filter);
/* shogi_grid.c: shogi_grid_find_tuned with the finder working on times its working size (640 px
 * a side), the frame enlarged when it is smaller (thin lines seen at a slant are a pixel wide or
 * less at 640); corners in the frame's pixels. */
bool shogi_grid_find_at(struct shogi_finder *f, const struct vision_image *gray, int times,
                        double line_c, int votes, struct shogi_grid *g);

/* shogi_colour.c */
/* The grey frame the reader works on (img itself, or a grey copy of a colour img, which is then
 * kept as r->colour for this frame); NULL when out of memory. */
const struct vision_image *shogi_reader_frame(struct shogi_reader *r,
                                              const struct vision_image *img);
/* Measure the cell's redness into r->red (when the frame has colour). */
void shogi_cell_measure_red(struct shogi_reader *r, int sq);
/* A face seen as piece at sq: its redness joins its class (plain or promoted). */
void shogi_red_learn(struct shogi_reader *r, int piece, int sq);
/* What the cell's ink colour says: +1 a promoted face, -1 a plain one, 0 nothing (no colour,
 * too little learned, a set whose promoted faces are not coloured, or in between). */
int shogi_red_vote(const struct shogi_reader *r, int sq);

/* shogi_track.c */
void shogi_reader_sample(struct shogi_reader *r, const struct vision_image *gray);
/* Find the grid again; keep ours unless the new one is the same board moved a little. */
bool shogi_reader_regrid(struct shogi_reader *r, const struct vision_image *gray);
/* The view turned half round: the grid turns and the book's owners swap (sente's side decided);
 * the patches are stale until the next shogi_reader_sample. */
void shogi_reader_turn(struct shogi_reader *r);
int shogi_reader_cell_owner(const struct shogi_book *b, const uint8_t *patch);
/* How well piece fits patch; an unseen promoted face by how badly its unpromoted face fits. */
double shogi_reader_piece_fit(const struct shogi_book *b, int piece, const uint8_t *patch);
/* The observation point of a square, in sente's view (the guard's sente_bottom convention). */
static inline int shogi_obs_point(int sq)
{
    return (shogi_sq_rank(sq) - 1) * OBS_MAX + (9 - shogi_sq_file(sq));
}

/* A piece surely there, its face in doubt: below the guard's sure 0.9, at or above its
 * SOBS_CONF_SEEN 0.85 (ruleguard/guard_observe_shogi_internal.h). */
#define SHOGI_FACE_DOUBT 0.87f
static inline bool shogi_conf_face_doubt(float c)
{
    return c >= 0.85f && c < 0.9f;
}

/* A cell's picture correlates less than this with its picture at the last settled view: another
 * piece may stand there (shogi_observe.c). */
#define SHOGI_REPLACED_NCC 0.75

/* What changed in a frame against the last settled view (shogi_observe.c). */
struct shogi_changes {
    int vacated[SHOGI_SQUARES], nvacated; /* a piece stood here, the cell reads empty */
    int arrived[SHOGI_SQUARES], narrived; /* the cell reads a piece it did not hold */
    int kept[SHOGI_SQUARES], nkept;       /* the cell still shows a piece of the same owner */
    bool replaced[SHOGI_SQUARES];         /* kept, but its picture is not the one it showed */
    double fits_median;                   /* how well kept pieces fit their book faces */
    bool left_unseen[SHOGI_SQUARES];      /* out of the picture: its piece named elsewhere */
};
/* shogi_arrivals.c: whether the piece on from reaches to in one move over board (by how it
 * moves, not whether the move is legal). */
bool shogi_piece_reaches(const uint8_t *board, int piece, int from, int to);
/* shogi_arrivals.c: name the arrived pieces by the cells pieces left (o's points rewritten). */
void shogi_name_arrivals(const struct shogi_reader *r, struct shogi_changes *ch,
                         struct observation *o);

double shogi_patch_ncc(const uint8_t *a, const uint8_t *b);

/* shogi_resample.c: the change cache. */
/* Sample again the cells whose coarse look changed since they were last sampled. */
void shogi_sample_changed(struct shogi_reader *r, const struct vision_image *gray);
/* Every cell's coarse samples (what tells whether a cell changed) through the reader's grid. */
void shogi_cells_sig(const struct shogi_reader *r, const struct vision_image *gray,
                     uint8_t sig[SHOGI_SQUARES][SHOGI_SIG * SHOGI_SIG]);
/* The best piece by a cell's book scores (*s its score), and how well PIECE fits the cell. */
int shogi_cell_best(struct shogi_reader *r, int sq, double *s);
double shogi_cell_fit(struct shogi_reader *r, int sq, int piece);
/* The grey level at view coordinates (cells), -1 outside the image. */
double shogi_gray_at(const struct shogi_grid *g, const struct vision_image *gray, double vx,
                     double vy);
/* How far two cells' coarse samples differ, a change of light taken out. */
double shogi_sig_change(const uint8_t *a, const uint8_t *b);
double shogi_median(double *v, int n); /* sorts v */

/* shogi_follow.c: the share of the grid-line samples between two empty cells of board that are
 * darker than the wood on both sides (-1 when too few are in view): whether g sits on the lines. */
double shogi_grid_line_share(const struct vision_image *gray, const struct shogi_grid *g,
                             const uint8_t board[SHOGI_SQUARES]);
/* shogi_follow.c: the grid moved onto the board where a bump took it (true when it moved). */
bool shogi_follow_board(struct shogi_reader *r, const struct vision_image *gray);

/* shogi_arm.c: the cells a hand covers (marked occluded in o). */
void shogi_cover_arm(struct shogi_reader *r, const struct vision_image *gray,
                     struct observation *o);
void shogi_grow_covered(struct observation *o);
/* shogi_observe.c: the start (or a resumed position) is what the next view is compared with. */
void shogi_reader_expect_position(struct shogi_reader *r, const struct shogi_position *pos);

#endif

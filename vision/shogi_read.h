/* vision/shogi_read.h — reading a shogiban: the 9 x 9 cell grid, occupancy and owner per cell, a
 * piece book learned from the initial position, and tracking a game from there with the rules.
 *
 * Squares are board/shogi.h squares (file 1-9 from sente's right, rank 1-9 from gote's side). The
 * grid is found by the Go board finder asked for 10 lines (a shogiban's 9 cells lie between 10
 * lines). The initial position fixes the cells and which way ranks run; it looks the same from
 * either player's side, so which side is sente is decided by the first move (sente's) and kept. */
#ifndef KIFUCAM_VISION_SHOGI_READ_H
#define KIFUCAM_VISION_SHOGI_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "board/shogi.h"
#include "vision/vision.h"

#define SHOGI_PATCH 24 /* a cell resampled to this many pixels a side */

/* ---- shogi_grid.c ---- */

/* The grid of a shogiban in an image: corners of the outer lines in sente's view order (9a, 1a,
 * 1i, 9i) and H mapping view coordinates (x right 0..9, y down 0..9, in cells) to image pixels. */
struct shogi_grid {
    double corners[4][2];
    double H[9];
};
struct shogi_finder;
struct shogi_finder *shogi_finder_new(void);
void shogi_finder_free(struct shogi_finder *f);
/* Search the grey image for the 10 x 10 lines; corners come clockwise in the image from an
 * arbitrary one (orientation is decided later). false when no grid. */
bool shogi_grid_find(struct shogi_finder *f, const struct vision_image *gray, struct shogi_grid *g);
/* The same with the finder's line contrast and Hough votes set (see struct vision_detector). */
bool shogi_grid_find_tuned(struct shogi_finder *f, const struct vision_image *gray, double line_c,
                           int votes, struct shogi_grid *g);
/* shogi_refine.c: move g's corners (half a cell at most) until its lines lie on the bare cell
 * borders of board (piece codes by square, the position the view shows: cells as
 * shogi_grid_patch takes them). */
void shogi_grid_refine(struct shogi_grid *g, const struct vision_image *gray,
                       const uint8_t board[SHOGI_SQUARES]);
/* Set g's corners (view order) and recompute H. */
void shogi_grid_set(struct shogi_grid *g, const double corners[4][2]);
/* Move the grid by whole cells (dx right, dy down in the view), along its own perspective. */
void shogi_grid_shift(struct shogi_grid *g, int dx, int dy);
/* Turn the view by quarter turns: corners start from the k-th. */
void shogi_grid_rotate(struct shogi_grid *g, int k);
/* Sample the cell of square sq into patch (SHOGI_PATCH^2 grey bytes, the piece's apex up when it
 * belongs to sente). Outside the image: 0, and false returned. */
bool shogi_grid_patch(const struct shogi_grid *g, const struct vision_image *gray, int sq,
                      uint8_t *patch);
/* n x n grey samples (sample centres) over the view square from (x0, y0), span cells a side;
 * outside the image 0, and false returned. */
bool shogi_grid_sample(const struct shogi_grid *g, const struct vision_image *gray, double x0,
                       double y0, double span, int n, uint8_t *out);

/* ---- shogi_cells.c ---- */

/* Texture inside the cell (mean gradient magnitude of the inner part): high when a piece lies. */
double shogi_cell_texture(const uint8_t *patch);
/* Add the patch's gx * gy (Sobel) into mag (SHOGI_PATCH^2), turned half round when turn. */
void shogi_cell_edges(const uint8_t *patch, bool turn, float *mag);
/* From the summed gx * gy of many pieces: > 0 when their pentagons point up. */
double shogi_outline_apex(const float *mag);

/* ---- shogi_book.c ---- */

/* Mean zero-mean unit-norm patches per piece (type 1..14, owner 0/1), learned from what is seen. */
struct shogi_book {
    float tpl[SHOGI_TYPES][2][SHOGI_PATCH * SHOGI_PATCH];
    int count[SHOGI_TYPES][2];
    float norm[SHOGI_TYPES][2]; /* of each tpl (a mean of unit vectors is shorter) */
    /* the entry holds only the other owner's face turned half round (shogi_book_add): the first
     * face seen of this owner replaces it */
    bool turned_only[SHOGI_TYPES][2];
    unsigned generation;  /* changes whenever an entry does (cached scores go stale) */
    double occ_threshold; /* texture above which a cell is occupied */
};
void shogi_book_clear(struct shogi_book *b);
/* Add a patch as an example of piece (board/shogi.h piece code). A promoted face of one owner the
 * book has not seen of the other owner (a promotion learned when it happens) starts the other's
 * entry too, turned half round (a piece points at the opponent: the same face from the other
 * side), until a face of the other owner replaces it. */
void shogi_book_add(struct shogi_book *b, int piece, const uint8_t *patch);
/* Normalised cross-correlation of patch with the book's entry for piece (-2 when none). */
double shogi_book_match(const struct shogi_book *b, int piece, const uint8_t *patch);
/* Every entry's correlation with patch (-2 where the book has none, and for type 0). */
void shogi_book_scores(const struct shogi_book *b, const uint8_t *patch,
                       float scores[SHOGI_TYPES][2]);
/* The best piece for patch; *score its correlation. 0 when the book is empty. */
int shogi_book_classify(const struct shogi_book *b, const uint8_t *patch, double *score);

/* ---- shogi_colour.c ---- */

/* How much redder than the piece's own face the ink in the cell is (per grey level of the face):
 * below 0 for black ink on wood, far above for the red ink of most promoted faces. 0 for a grey
 * image or a cell without ink. col: a VISION_BGR24 or VISION_RGB24 frame. Grey gives no such cue:
 * the darkest ink as a share of the face's level, measured on the grey 1280x960 footage, overlaps
 * (plain faces 0.38-0.55, promoted 0.48-0.62): promotions need colour frames. */
double shogi_cell_ink_red(const struct shogi_grid *g, const struct vision_image *col, int sq);

/* ---- shogi_track.c: the reader ---- */
/* Every function of the reader that takes a frame takes grey (VISION_GRAY8) or colour
 * (VISION_BGR24, VISION_RGB24) frames; with colour, the ink's colour tells promoted faces. */

struct shogi_reader_stats {
    bool found;      /* a grid was found (or kept) this frame */
    bool refound;    /* the finder's grid was taken this frame */
    bool oriented;   /* start: the initial position was recognised; track: sente's side known */
    int changed;     /* cells that disagree with the tracked position */
    double move_fit; /* mismatching cells of the move taken (0 = perfect) */
    double ms;       /* time for the frame */
};
struct shogi_reader;
struct shogi_reader *shogi_reader_new(void);
void shogi_reader_free(struct shogi_reader *r);
/* Start: look for the initial position (平手) in this frame, decide orientation, learn the book.
 * false when no grid or the position is not the initial one. */
bool shogi_reader_start(struct shogi_reader *r, const struct vision_image *gray);
/* The same from any known position (a resumed game, a set-up or handicap start): a position
 * that is not symmetric also tells which side is sente. */
bool shogi_reader_start_from(struct shogi_reader *r, const struct vision_image *gray,
                             const struct shogi_position *known);
/* A settled frame (no hand in view): follow the game by the move the board shows. pos is the
 * position tracked so far (board from the rules, hands from the moves). */
bool shogi_reader_track(struct shogi_reader *r, const struct vision_image *gray,
                        struct shogi_position *pos);
/* Read every cell cold with the book: pieces (0 empty) into board. */
bool shogi_reader_cold(struct shogi_reader *r, const struct vision_image *gray,
                       uint8_t board[SHOGI_SQUARES]);

/* ---- shogi_observe.c: per-frame observations for the rule guard ---- */

/* One frame as an observation for the shogi observation guard (ruleguard/guard.h), from a
 * started reader (shogi_reader_start or _start_from; false before). Every cell:
 * the piece it shows (board/shogi.h code, 0 empty), read against what the last settled view
 * showed (a cell that still shows its piece keeps it; a changed cell is read by the book, a
 * piece that moved is the one that left its cell, promoted when its face says so), a
 * confidence, and cells a hand or arm covers (occluded, no reading). Points are in sente's view:
 * point (x, y) is square shogi_sq(9 - x, y + 1), the guard's sente_bottom convention, whatever
 * side of the image sente sits on. Returns board_found. */
bool shogi_reader_observe(struct shogi_reader *r, const struct vision_image *gray,
                          struct observation *o);
/* Cells out of the picture are read empty at SHOGI_OUT_OF_VIEW_CONF (no evidence for the guard,
 * whose conf_min is 0.5); a settler for these observations takes SHOGI_SETTLE_MIN_CONF, so that a
 * board partly outside the picture still settles. */
#define SHOGI_OUT_OF_VIEW_CONF OBS_OUT_OF_VIEW_CONF
#define SHOGI_SETTLE_MIN_CONF  0.4
/* A settled observation: its readable cells become what the next frames are read against, and
 * the book learns the faces that arrived. Before the first move it decides which side is sente:
 * when the first change shows the far side moving first, the view is turned round and o is
 * rewritten in the turned view. */
void shogi_reader_settled(struct shogi_reader *r, struct observation *o);

/* ---- shogi_komadai.c: the piece stands ---- */

/* Both komadai: counts per type (hand_obs in vision/observation.h: count[t-1] for board/shogi.h
 * types SHOGI_PAWN..SHOGI_GOLD, promoted[] pieces lying promoted side up, conf), visible=false with
 * covered=true when a hand/arm lies over a stand, visible=false covered=false when it is out of the
 * picture. hands[SHOGI_SENTE], hands[SHOGI_GOTE]. Needs a started reader (its grid and book). */
bool shogi_reader_hands(struct shogi_reader *r, const struct vision_image *gray,
                        struct hand_obs hands[2]);
/* The same, with the game's position as the caller (the guard) knows it: per kind, both hands
 * together hold no more than the game's pieces off its board (a row whose face fits a kind with
 * none left is taken for the next best kind; when both stands are read and hold more than that,
 * the row least sure of its count gives a piece up; counts are never raised toward the game's).
 * game NULL: shogi_reader_hands. */
bool shogi_reader_hands_within(struct shogi_reader *r, const struct vision_image *gray,
                               const struct shogi_position *game, struct hand_obs hands[2]);

const struct shogi_grid *shogi_reader_grid(const struct shogi_reader *r);
const struct shogi_reader_stats *shogi_reader_stats(const struct shogi_reader *r);

#endif

/* render/render.h — synthetic camera footage of a real Go or shogi game, with its exact truth.
 *
 * A record is replayed through the rules core and filmed by a simulated camera at 30 fps: hands
 * bring each stone in (or lift, move and drop shogi pieces, captures going to the komadai) and
 * leave, prisoners come off one by one, the board is bumped now and then; faults and signals are
 * injected on request. Everything random comes from one seed, so a (record, options) pair always
 * gives the same bytes. Per frame the truth says what lies on the board, which points a hand
 * hides, where the grid's corners are in the image and what happened at that frame. */
#ifndef KIFUCAM_RENDER_RENDER_H
#define KIFUCAM_RENDER_RENDER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "record/sgf.h"
#include "record/shogi_record.h"

enum render_style {
    RENDER_STYLE_RANDOM = 0, /* one of the others, chosen by the seed */
    RENDER_STYLE_KAYA,       /* thick kaya board: warm yellow, fine straight grain */
    RENDER_STYLE_LIGHT_WOOD, /* pale table board with visible grain */
    RENDER_STYLE_VINYL,      /* thin printed vinyl or paper sheet on a table */
    RENDER_STYLE_FOLDING,    /* folding board: printed wood with a seam across the middle */
    RENDER_STYLE_COUNT
};

enum render_scenario {
    RENDER_SCENE_MIXED = 0, /* any of the others, chosen by the seed */
    RENDER_SCENE_OVERHEAD,  /* camera nearly straight above, board centred */
    RENDER_SCENE_PLAYER,    /* from behind one player, tilt 20-40 degrees */
    RENDER_SCENE_SIDE,      /* from the side of the table, tilt 25-45 degrees */
    RENDER_SCENE_PARTIAL,   /* off-centre, part of the board outside the frame */
    RENDER_SCENE_DIM,       /* poor light: warm, dark, noisy, soft focus */
    RENDER_SCENE_GLARE,     /* a lamp's glare spot and strongly uneven light */
    /* The scenarios above set camera and light ("mixed" picks among them); those below add what
     * the players do around the board, filmed from a player's side (only on request). */
    RENDER_SCENE_SHADOWS, /* players' soft shadows drift across the board (cover nothing) */
    RENDER_SCENE_LEANING, /* a player leans in over one edge now and then (covers points) */
    RENDER_SCENE_CLOCK,   /* a hand rests on the clock beside the board (covers nothing) */
    RENDER_SCENE_COUNT
};
/* How many scenarios "mixed" chooses among (overhead .. glare). */
#define RENDER_SCENE_CAMERA_COUNT 6

struct render_opts {
    int width, height;             /* frame size; default 1280 x 960 */
    uint64_t seed;                 /* default 1 */
    enum render_style style;       /* default RENDER_STYLE_RANDOM */
    enum render_scenario scenario; /* default RENDER_SCENE_MIXED */
    int fps;                       /* frames per second of the time line; default 30 */
    int max_moves;    /* render only the first N moves (passes count); 0 = all (default) */
    int jpeg_quality; /* 0 = chosen by the seed in 70..95 (default); else 1..100 */
    double bump_rate; /* chance per move of a bump that shifts the board; default 0.04 */
    /* Mean seconds the players think after a move, on top of the hand's short rest (0.2-0.8 s).
     * Default 0: moves follow each other as in a blitz game. Drawn per move from a log-normal
     * (spread about x0.5..x2), on a stream of its own: the rest of the time line is the same. */
    double think_s;
    bool hands;       /* hands and arms bring the stones; default true */
    unsigned faults;  /* RENDER_FAULT_* bits: mistakes to inject (default none) */
    unsigned signals; /* RENDER_SIGNAL_* bits: gestures to show (default none) */
    /* Output of the *_to_dir / *_save functions: NULL (default) writes JPEG frames; a file name
     * (".mp4", ".mkv") writes one video of the frames into the folder instead (30 fps, H.264, or
     * MJPEG when no H.264 encoder is there or video_mjpeg asks for it; even frame sizes). */
    const char *video;
    bool video_mjpeg;
    /* No pixels: each frame carries only what the time line decides (stones or pieces, hands,
     * ply, settled, counting, events, grid and komadai positions in the image), from the same
     * code as a drawn frame; rgb and hand_mask are NULL and covered, hand_in_view,
     * komadai_covered and scene_event stay unset. For checks that replay many time lines. */
    bool truth_only;
};

/* Faults on request (--faults KIND,...). Each is injected once, at a move the seed picks; the
 * truth's time line has a "fault" event at the frame it happens. */
enum render_fault {
    RENDER_FAULT_SAME_COLOR = 1u << 0,     /* go: a stone of the colour that just moved */
    RENDER_FAULT_MOVED_STONE = 1u << 1,    /* go: a stone slid to a neighbouring point */
    RENDER_FAULT_REMOVED_STONE = 1u << 2,  /* go: a stone taken off that was not captured */
    RENDER_FAULT_CAPTURES_LEFT = 1u << 3,  /* go: the prisoners of a capture stay on the board */
    RENDER_FAULT_KNOCKED = 1u << 4,        /* go, shogi: the board knocked hard (shifts, turns) */
    RENDER_FAULT_NOT_IN_HAND = 1u << 5,    /* shogi: a captured piece never put on the komadai */
    RENDER_FAULT_HIDDEN = 1u << 6,         /* shogi: a piece on the komadai hidden later */
    RENDER_FAULT_WRONG_WAY = 1u << 7,      /* shogi: a piece put down pointing the wrong way */
    RENDER_FAULT_OPPONENT_PIECE = 1u << 8, /* shogi: a player moves an opponent's piece */
    RENDER_FAULT_KO_RETAKEN = 1u << 9,     /* go: a ko the record took is retaken at once (illegal),
                                              then the referee has the board put back */
    RENDER_FAULT_SUICIDE = 1u << 10,       /* go: a stone put where it has no liberty and takes
                                              nothing (illegal), then taken back */
    RENDER_FAULT_NIFU = 1u << 11           /* shogi: a pawn dropped on a file holding the
                                              dropper's own unpromoted pawn (illegal), then taken
                                              back to the komadai */
};
/* Signals on request (--signals KIND,...), at the end of the game. */
enum render_signal {
    RENDER_SIGNAL_PASS = 1u << 0,    /* go: a stone put beside the board */
    RENDER_SIGNAL_END = 1u << 1,     /* go: opponent-colour stone outside the grid, lower right */
    RENDER_SIGNAL_RESIGN = 1u << 2,  /* go: two stones put on the board; shogi: a hand resting
                                        over the komadai */
    RENDER_SIGNAL_COUNTING = 1u << 3 /* go: the counting after the game: dead stones off, then
                                        territory filled and arranged (render/count_plan.c) */
};
/* "same-color,moved-stone,..." to bits; false (with the bad word in err) when one is unknown. */
bool render_faults_parse(const char *list, unsigned *bits, char *err, size_t errlen);
bool render_signals_parse(const char *list, unsigned *bits, char *err, size_t errlen);
/* Names of fault / signal bits, for the truth ("same-color" ...); NULL for unknown bits. */
const char *render_fault_name(unsigned bit);
const char *render_signal_name(unsigned bit);

/* Which faults each game knows (a fault of the other game is not injected). */
extern const unsigned render_go_fault_bits, render_shogi_fault_bits;

/* What a render could not do, for the truth header and the command's warnings. */
struct render_summary {
    int frames;
    unsigned faults_unplaced;   /* requested faults of this game that found no place in it */
    unsigned faults_other_game; /* requested faults only the other game has */
    unsigned signals_unplaced;  /* requested signals not shown (no room, or not this game's) */
    char codec[16];             /* the video's codec ("h264", "mjpeg"); "" for JPEG frames */
};

/* Fill o with the defaults above. */
void render_opts_default(struct render_opts *o);

/* Names for the command line: "kaya", "light", "vinyl", "folding", "random"; "mixed",
 * "overhead", "player", "side", "partial", "dim", "glare". Lookups return -1 when unknown. */
const char *render_style_name(enum render_style s);
const char *render_scenario_name(enum render_scenario s);
int render_style_find(const char *name);
int render_scenario_find(const char *name);

/* ---- frame by frame ------------------------------------------------------------------------ */

struct render_go;

/* Everything known about one frame. Pointers stay valid until the next render_go_frame call. */
struct render_frame {
    int index; /* 0-based frame number */
    double t;  /* seconds since the first frame */
    int width, height;
    const uint8_t *rgb;       /* width * height * 3 bytes, rows top to bottom */
    const uint8_t *hand_mask; /* width * height bytes, 255 where a hand, an arm or a leaning body
                                 hides what is behind */
    int cols, rows;           /* board size */
    uint8_t stone[GO_POINTS]; /* GO_EMPTY/GO_BLACK/GO_WHITE at go_point(x, y) */
    bool covered[GO_POINTS];  /* a hand or arm is drawn over the point's image position */
    double point_px[GO_POINTS][2]; /* image position of each grid point (board surface) */
    double corners[4][2];          /* grid corners (0,0), (cols-1,0), (cols-1,rows-1), (0,rows-1) */
    bool corner_inside[4];         /* that corner lies inside the frame */
    int ply;                       /* moves (and passes) whose stone has been put down */
    bool settled;                  /* no hand at the board (one on the clock does not count), every
                                      capture taken off */
    bool hand_in_view;             /* a hand or arm in the frame (the clock's too) */
    bool counting; /* the counting after the game (signal "counting"): from its start to the end
                      of the footage, the stones taken off, put in and moved are not moves */
    /* shadows / leaning / clock scenarios: what is going on in this frame, NULL for nothing
     * ("shadow", "lean", "clock-hand"); people_scene false for the other scenarios. */
    bool people_scene;
    const char *scene_event;
    int noff;             /* stones lying off the grid (signals), and where they are */
    uint8_t off_color[4]; /* GO_BLACK / GO_WHITE */
    double off_px[4][2];  /* image position of each (board surface) */
    /* Events at this frame: "place", "remove", "pass", "bump", "fault", "signal", "off" (a stone
     * put down off the grid). */
    int nevents;
    struct render_event {
        char kind[8];
        char name[16]; /* fault / signal name */
        int point;     /* go_point, or GO_PASS / GO_NOPOINT */
        enum go_color color;
        int ply;                      /* the move this event belongs to */
        double dx_mm, dy_mm, rot_deg; /* bumps: how far the board moved */
    } events[8];
};

/* Prepare a render of rec; NULL with err filled when the record cannot be replayed or the options
 * are out of range. */
struct render_go *render_go_open(const struct go_record *rec, const struct render_opts *o,
                                 char *err, size_t errlen);
int render_go_frame_count(const struct render_go *r);
/* Render frame i (any order; sequential is fastest). false with err filled on failure. */
bool render_go_frame(struct render_go *r, int i, struct render_frame *out, char *err,
                     size_t errlen);
/* A frame worth showing: with_hand, a few frames before the stone of move `ply` goes down (the
 * hand in view); otherwise the first settled frame after that move. -1 if there is no such move. */
int render_go_find_frame(const struct render_go *r, int ply, bool with_hand);
/* The scene events of the shadows / leaning / clock scenarios: a frame in the middle of the
 * k-th one (0-based), or -1 when there are not that many (or the scenario has none). */
int render_go_find_scene_frame(const struct render_go *r, int k);
/* The faults and signals this render could not place (frames and codec left 0 / ""). */
void render_go_summary(const struct render_go *r, struct render_summary *sum);
/* The scene the seed chose, one line for people ("kaya, player view, tilt 31.0 deg, ..."). */
const char *render_go_describe(const struct render_go *r);
void render_go_close(struct render_go *r);

/* ---- files --------------------------------------------------------------------------------- */

struct render_sink; /* where the frames go (JPEG files or a video), render_internal.h */

/* Write one truth.jsonl line (no newline added by the caller: the function ends it) for f. */
void render_truth_write(FILE *out, const struct render_frame *f);
/* The first line of truth.jsonl: the record, the options and the scene, the output (sink may be
 * NULL), the faults and signals that found no place. */
void render_truth_header(FILE *out, const struct render_go *r, const char *record_path,
                         const struct render_sink *sink);

/* JPEG-encode an RGB image (TurboJPEG); returns a malloc'd buffer and its size, NULL on error. */
uint8_t *render_jpeg_encode(const uint8_t *rgb, int width, int height, int quality, size_t *size,
                            char *err, size_t errlen);
/* The quality the options and seed chose for this render. */
int render_go_jpeg_quality(const struct render_go *r);

/* Render the whole record into dir (created if missing): frame_000000.jpg ... (or o->video) and
 * truth.jsonl. Returns the number of frames written, or -1 with err filled. */
int render_go_to_dir(const struct go_record *rec, const char *record_path,
                     const struct render_opts *o, const char *dir, char *err, size_t errlen);
/* The same, telling what could not be placed (sum may be NULL). */
int render_go_save(const struct go_record *rec, const char *record_path,
                   const struct render_opts *o, const char *dir, struct render_summary *sum,
                   char *err, size_t errlen);

/* A contact sheet: 12 frames of rec with different seeds, styles, views and light (half of them
 * with a hand in view), tiled 4 x 3 at tile_w x tile_h into one JPEG at path. */
bool render_go_contact_sheet(const struct go_record *rec, uint64_t seed, int tile_w, int tile_h,
                             const char *path, char *err, size_t errlen);

/* A frame of the counting after the game (signal "counting") `at` (0..1) of the way through it,
 * or -1 when this render has none. */
int render_go_find_counting_frame(const struct render_go *r, double at);
/* A contact sheet of what goes on around the board, 4 x 3 tiles, a column each: three frames of
 * each of the shadows, leaning and clock scenarios at their scene events, and three of the
 * counting after the game (its start, middle and end). */
bool render_go_scene_sheet(const struct go_record *rec, uint64_t seed, int tile_w, int tile_h,
                           const char *path, char *err, size_t errlen);

/* ---- shogi ---------------------------------------------------------------------------------
 * A shogi record (KIF, KI2, CSA, USI, JKF through record/shogi_record.h) on a shogiban with two
 * komadai: hands lift a piece and put it down (promoted face up when it promotes), take captured
 * pieces to their komadai, drop pieces from it. Squares are board/shogi.h squares. */

struct render_shogi;

struct render_shogi_frame {
    int index;
    double t;
    int width, height;
    const uint8_t *rgb, *hand_mask;    /* as in struct render_frame */
    uint8_t board[SHOGI_SQUARES];      /* piece codes lying on the board */
    uint8_t hand[2][SHOGI_HAND_TYPES]; /* pieces lying on each player's komadai */
    uint8_t carried;                   /* piece held by a hand (0: none) */
    int side;                          /* side to move after the last completed move */
    bool covered[SHOGI_SQUARES];       /* a hand or arm is drawn over the square's centre */
    double sq_px[SHOGI_SQUARES][2];    /* image position of each square's centre (surface) */
    double corners[4][2];              /* grid corners 9一, 1一, 1九, 9九 (sente's view: top-
                                          left, top-right, bottom-right, bottom-left) */
    bool corner_inside[4];
    double komadai_px[2][2]; /* image position of each komadai's centre (top face); the
                                komadai stand on the table: a bump moves the board, not them */
    bool komadai_covered[2];
    int ply;      /* moves completed (piece put down) */
    bool settled; /* no hand at the board (the clock's does not count), nothing carried */
    bool hand_in_view;
    bool people_scene; /* as in struct render_frame */
    const char *scene_event;
    int nevents;
    struct render_shogi_event {
        char kind[24]; /* "lift" "put" "to-komadai" "from-komadai" "pocket" "bump" "fault"
                          "signal" */
        char name[24]; /* fault / signal name */
        int sq;        /* square, or -1 */
        uint8_t piece;
        int color; /* whose hand (or komadai) */
        int ply;
        double dx_mm, dy_mm, rot_deg;
    } events[8];
};

struct render_shogi *render_shogi_open(const struct shogi_record *rec, const struct render_opts *o,
                                       char *err, size_t errlen);
int render_shogi_frame_count(const struct render_shogi *r);
bool render_shogi_frame(struct render_shogi *r, int i, struct render_shogi_frame *out, char *err,
                        size_t errlen);
/* with_hand: a frame of move `ply` with the hand in view; else the first settled frame after it. */
int render_shogi_find_frame(const struct render_shogi *r, int ply, bool with_hand);
const char *render_shogi_describe(const struct render_shogi *r);
int render_shogi_jpeg_quality(const struct render_shogi *r);
void render_shogi_close(struct render_shogi *r);
/* truth.jsonl lines: the position as SFEN (side to move of the last completed move) with the
 * komadai in the SFEN hand field, the carried piece, covered squares, corners, events. */
void render_shogi_truth_header(FILE *out, const struct render_shogi *r, const char *record_path,
                               const struct render_sink *sink);
int render_shogi_find_scene_frame(const struct render_shogi *r, int k);
void render_shogi_summary(const struct render_shogi *r, struct render_summary *sum);
void render_shogi_truth_write(FILE *out, const struct render_shogi_frame *f);
int render_shogi_to_dir(const struct shogi_record *rec, const char *record_path,
                        const struct render_opts *o, const char *dir, char *err, size_t errlen);
int render_shogi_save(const struct shogi_record *rec, const char *record_path,
                      const struct render_opts *o, const char *dir, struct render_summary *sum,
                      char *err, size_t errlen);
bool render_shogi_contact_sheet(const struct shogi_record *rec, uint64_t seed, int tile_w,
                                int tile_h, const char *path, char *err, size_t errlen);
/* Four frames of each of the shadows, leaning and clock scenarios (a row each), at their scene
 * events. */
bool render_shogi_scene_sheet(const struct shogi_record *rec, uint64_t seed, int tile_w, int tile_h,
                              const char *path, char *err, size_t errlen);

#endif

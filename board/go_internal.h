/* board/go_internal.h — what the Go core's files share and the public header does not show.
 *
 * The position (struct go_board) keeps chains as circular lists with pseudo-liberties (one per
 * stone-to-empty adjacency, so a chain is captured exactly when its count reaches 0), updated
 * incrementally; go_board_trial() tells what a move would do without touching the board. Scoring
 * code may read a game's board through go_game_board(); it must not change it. */
#ifndef KIFUCAM_BOARD_GO_INTERNAL_H
#define KIFUCAM_BOARD_GO_INTERNAL_H

#include "board/go.h"

struct go_board {
    int w, h;
    uint64_t hash;              /* Zobrist hash of the stones (go_zobrist) */
    int stones[3];              /* stones on the board by colour */
    uint8_t color[GO_POINTS];   /* enum go_color per point; points off the w×h board stay EMPTY */
    uint16_t head[GO_POINTS];   /* the chain's representative stone */
    uint16_t next[GO_POINTS];   /* next stone of the chain (circular list) */
    uint16_t pseudo[GO_POINTS]; /* pseudo-liberties, valid at the head */
    uint16_t size[GO_POINTS];   /* stones in the chain, valid at the head */
};

/* What a stone of colour c at point p would do (p empty and on the board). */
struct go_trial {
    int captured;  /* opponent stones removed */
    int suicide;   /* own stones removed when the chain has no liberty left, else 0 */
    bool ko_shape; /* a single stone captured a single stone and sits in atari at its point */
    int ko_point;  /* the captured stone's point when ko_shape */
    uint64_t hash; /* hash of the resulting stones */
};

/* Zobrist key of a stone: fixed and deterministic (a mix of colour, point and a constant seed). */
uint64_t go_zobrist(enum go_color c, int p);

void go_board_init(struct go_board *b, int w, int h);
bool go_board_on(const struct go_board *b, int p);
/* The on-board orthogonal neighbours of p; returns how many (2..4). */
int go_board_neighbors(const struct go_board *b, int p, int out[4]);
/* Set a point without play (setup); chains are rebuilt. */
void go_board_set(struct go_board *b, int p, enum go_color c);
struct go_trial go_board_trial(const struct go_board *b, int p, enum go_color c);
/* Play a stone (p empty and on the board): captures, then removes its own chain if it has no
 * liberty. Fills *t like go_board_trial would have. */
void go_board_play(struct go_board *b, int p, enum go_color c, struct go_trial *t);
int go_board_liberties(const struct go_board *b, int p);
int go_board_chain(const struct go_board *b, int p, int out[GO_POINTS]);

/* Facts a verdict's sentence needs beyond the verdict and the move (go_text.c). */
struct go_verdict_facts {
    int height;                /* for point names */
    enum go_color to_move;     /* whose turn it was */
    enum go_game_state state;  /* before the move */
    enum go_ko_rule ko;        /* which superko, for the wording */
    int suicide;               /* own stones the move removes */
    int occurrences;           /* no-result: how often the situation has now occurred */
    enum go_verdict_kind also; /* a second rule the move breaks, GO_LEGAL if none */
};

/* Write v->text: one sentence naming the move (v->kind, repeats_ply and captured are set). */
void go_verdict_describe(struct go_verdict *v, struct go_move m, const struct go_verdict_facts *f);

/* The game's current position (read-only). */
const struct go_board *go_game_board(const struct go_game *g);

#endif

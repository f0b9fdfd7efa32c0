/* board/go.h — the Go rules core: positions, moves, legality, repetition, scoring.
 *
 * Pure functions over in-memory games; no I/O. A rule set is a row of parameters (struct go_rules);
 * the named presets are rows of one table (board/go_rules.c). Moves are replayed tolerantly, the
 * way SGF says a recorder must: an illegal move is executed where it can be (a suicide removes its
 * own chain, a ko recapture captures) and the verdict says which rule it breaks, so a record with a
 * fault still replays to the position the players had on the board.
 *
 * Points are numbered y * GO_MAX + x, with x from the left and y from the top (SGF "aa" = 0). */
#ifndef KIFUCAM_BOARD_GO_H
#define KIFUCAM_BOARD_GO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GO_MIN     2
#define GO_MAX     25
#define GO_POINTS  (GO_MAX * GO_MAX)
#define GO_PASS    (-1)
#define GO_NOPOINT (-2)

static inline int go_point(int x, int y)
{
    return y * GO_MAX + x;
}
static inline int go_x(int p)
{
    return p % GO_MAX;
}
static inline int go_y(int p)
{
    return p / GO_MAX;
}

enum go_color { GO_EMPTY = 0, GO_BLACK = 1, GO_WHITE = 2 };

static inline enum go_color go_other(enum go_color c)
{
    return c == GO_BLACK ? GO_WHITE : c == GO_WHITE ? GO_BLACK : GO_EMPTY;
}

/* One move as a record or the camera gives it. point is GO_PASS for a pass. */
struct go_move {
    enum go_color color;
    int point;
};

/* ---- rule parameters ---------------------------------------------------------------------- */

enum go_ko_rule {
    GO_KO_SIMPLE,     /* only the immediate recapture of a single stone is forbidden */
    GO_KO_POSITIONAL, /* no move may recreate an earlier whole-board position */
    GO_KO_SITUATIONAL /* ... an earlier position with the same player to move */
};

/* What a whole-board repetition that the ko rule does not forbid means. */
enum go_repetition {
    GO_REPEAT_ALLOWED,   /* nothing */
    GO_REPEAT_NO_RESULT, /* Japanese 1989 Art. 12: the 3rd occurrence of (position, player to move)
                            after a move (not a pass) ends the game without result */
    GO_REPEAT_REFEREE    /* report every positional repetition for the referee to decide (Chinese
                            as played, Ing's hot-stone / disturbing-ko rule) */
};

enum go_suicide {
    GO_SUICIDE_NONE,  /* every suicide is forbidden */
    GO_SUICIDE_MULTI, /* a multi-stone suicide is allowed, a single stone's is not (Ing SST) */
    GO_SUICIDE_ALL    /* every suicide is allowed (Tromp-Taylor) */
};

enum go_scoring {
    GO_SCORE_AREA,      /* stones + surrounded points */
    GO_SCORE_TERRITORY, /* surrounded points + prisoners */
    GO_SCORE_STONES     /* stones on the board only */
};

/* Which surrounded points do not count (KataGo's tax rule). */
enum go_tax {
    GO_TAX_NONE, /* every surrounded point counts */
    GO_TAX_SEKI, /* eyes of groups in seki count for nobody (Japanese 1989) */
    GO_TAX_ALL   /* two points per group are not counted (ancient stone scoring) */
};

enum go_handicap_placement { GO_HANDICAP_FIXED, GO_HANDICAP_FREE };

/* Points White receives per handicap stone beyond komi. */
enum go_handicap_bonus { GO_BONUS_NONE, GO_BONUS_N, GO_BONUS_N_MINUS_1 };

/* Citations of the rule text, e.g. "Chinese 1988 §5 (forbidden point)". */
struct go_rule_refs {
    const char *occupied, *suicide, *ko, *superko, *two_moves, *repetition, *after_end, *scoring;
};

struct go_rules {
    const char *name; /* preset name as shown to users, e.g. "Chinese 1988" */
    enum go_ko_rule ko;
    enum go_repetition repetition;
    enum go_suicide suicide;
    enum go_scoring scoring;
    enum go_tax tax;
    bool pass_stones;       /* a pass hands a prisoner to the opponent (AGA, Simplified Ing) */
    bool white_passes_last; /* the game ends only with a pass by White (AGA) */
    bool no_resumption;     /* two passes end the game for good (Tromp-Taylor); elsewhere play may
                               resume after them to settle a dispute (Japanese 1989 Art. 9) */
    enum go_handicap_placement handicap_placement;
    enum go_handicap_bonus handicap_bonus;
    double komi;
    bool black_wins_ties; /* Ing: komi 8, Black wins a drawn game */
    struct go_rule_refs ref;
};

/* A preset by name or alias, case-insensitive ("chinese", "Japanese", "tromp-taylor", "GOE", the
 * SGF RU[] spellings...). NULL when unknown. */
const struct go_rules *go_rules_find(const char *name);
/* All presets, for --help and the tests. */
const struct go_rules *go_rules_presets(size_t *count);

/* ---- games ------------------------------------------------------------------------------- */

enum go_verdict_kind {
    GO_LEGAL,
    GO_ILLEGAL_OFF_BOARD,
    GO_ILLEGAL_OCCUPIED,
    GO_ILLEGAL_SUICIDE,
    GO_ILLEGAL_KO,           /* simple ko: immediate recapture */
    GO_ILLEGAL_SUPERKO,      /* positional or situational repetition under a superko rule */
    GO_WRONG_TURN,           /* the same colour twice (two moves in a row, or an unrecorded pass) */
    GO_AFTER_END,            /* a move after the game ended */
    GO_REPETITION_NO_RESULT, /* the game ends without result (Japanese Art. 12) */
    GO_REPETITION_REFEREE    /* a repetition the referee must rule on */
};

/* One verdict per move: the first that applies of off-board, after-end, occupied, wrong-turn,
 * suicide, ko, superko, repetition. A wrong-colour move is judged as that colour's move; its text
 * ends with "; also suicide" (etc.) when it breaks a second rule. Off-board and occupied moves
 * leave the board as it was but count as a ply. After resignation, time or no-result a move is
 * executed and the result stands; a stone after the end by passes resumes play. */
struct go_verdict {
    enum go_verdict_kind kind;
    const char *rule_ref; /* citation from the rule set's refs, or NULL when legal */
    int repeats_ply;      /* for repetitions: the ply whose position came back, else -1 */
    int captured;         /* stones this move captured (own stones for a suicide, negative) */
    char text[160];       /* a sentence for people: "White retakes the ko at D4 at once" */
};

enum go_game_state {
    GO_PLAYING,
    GO_ENDED_PASSES,
    GO_ENDED_RESIGN,
    GO_ENDED_TIME,
    GO_ENDED_NO_RESULT
};

struct go_game;

/* NULL if a side is outside GO_MIN..GO_MAX. The rules row is copied; NULL means the first preset
 * (Chinese 1988). */
struct go_game *go_game_new(int width, int height, const struct go_rules *rules);
struct go_game *go_game_copy(const struct go_game *g);
void go_game_free(struct go_game *g);

/* Setup stones (SGF AB/AW/AE) before or between moves; GO_EMPTY clears a point. Chains are
 * recomputed; stones left without liberties stay (setup is not play). */
void go_game_setup(struct go_game *g, enum go_color c, int point);
/* Fixed handicap: n stones (2..9) on the star points; White moves next. false if the size has no
 * fixed placement for n. Free placement is done with go_game_setup + go_game_set_handicap. */
bool go_game_place_handicap(struct go_game *g, int n);
/* Records the handicap (for scoring); before the first move, n >= 2 also makes White move next. */
void go_game_set_handicap(struct go_game *g, int n);
/* The fixed handicap points for a size: fills out[] (up to 9), returns the count, 0 if none. */
int go_handicap_points(int width, int height, int n, int out[9]);
void go_game_set_to_move(struct go_game *g, enum go_color c);

/* Would this move be legal now? Does not change the game. */
struct go_verdict go_game_check(const struct go_game *g, struct go_move m);
/* Play the move tolerantly (see the top of this file) and return its verdict. */
struct go_verdict go_game_play(struct go_game *g, struct go_move m);
void go_game_resign(struct go_game *g, enum go_color loser);
void go_game_timeout(struct go_game *g, enum go_color loser);
/* After the end by passes, players may resume (Japanese 1989 Art. 9); a no-result the referee
 * overrules may be resumed too, and its repetition count starts afresh. Resign/time stand. */
void go_game_resume(struct go_game *g);

int go_game_width(const struct go_game *g);
int go_game_height(const struct go_game *g);
const struct go_rules *go_game_rules(const struct go_game *g);
enum go_color go_game_at(const struct go_game *g, int point);
enum go_color go_game_to_move(const struct go_game *g);
int go_game_ply(const struct go_game *g); /* moves and passes played so far */
/* Stones taker captured (incl. the opponent's suicides) plus, under pass_stones rules, one per
 * opponent pass. */
int go_game_prisoners(const struct go_game *g, enum go_color taker);
int go_game_passes(const struct go_game *g, enum go_color c);
int go_game_handicap(const struct go_game *g);
enum go_game_state go_game_state(const struct go_game *g);
enum go_color go_game_winner_by_default(const struct go_game *g); /* resign/time: the winner */
uint64_t go_game_hash(const struct go_game *g);                   /* Zobrist hash of the stones */
int go_game_liberties(const struct go_game *g, int point); /* of the chain at point; 0 if empty */
/* The chain at point: fills out[] with its stones, returns their number. */
int go_game_chain(const struct go_game *g, int point, int out[GO_POINTS]);

/* ---- scoring ----------------------------------------------------------------------------- */

struct go_score {
    int stones[3];    /* on the board after removing dead stones, by colour */
    int territory[3]; /* surrounded empty points, after the tax rule */
    int prisoners[3]; /* captured by this colour, incl. dead stones removed and pass stones */
    int dame, seki_points;
    double black, white; /* totals under the rule set, komi and handicap bonus included */
    double margin;       /* black - white */
    char result[16];     /* SGF RE: "B+3.5", "W+0.5", "0" */
};

/* Score the final position; dead[point] != 0 marks stones to remove (may be NULL). */
struct go_score go_game_score(const struct go_game *g, const uint8_t *dead);
/* Count a final position the way players do: take off the dead stones, fill the neutral points
 * (dame) where the tax rule makes them matter, then score. dead may be NULL. */
struct go_score go_game_count(const struct go_game *g, const uint8_t *dead);
/* The dame go_game_count fills: empty points touching both colours whose filling cannot put a
 * chain in atari (seki liberties stay empty). Fills pts[]/colors[], returns how many. */
int go_dame_fill(const struct go_game *g, const uint8_t *dead, int pts[GO_POINTS],
                 enum go_color colors[GO_POINTS]);
/* The game's result the SGF way: "B+R" / "W+R" (resignation), "B+T" / "W+T" (time), "Void" (no
 * result), the count ("B+3.5", "W+0.5", "0") once ended by passes (dead as for go_game_count), or
 * "?" while the game goes on. buf must hold 16 bytes. */
const char *go_game_result(const struct go_game *g, const uint8_t *dead, char buf[16]);
/* Estimate dead stones of a final position (unconditional life, territory flood fill and a
 * heuristic for the rest). dead[] gets 1 for dead stones; confidence[] (may be NULL) 0..1. */
void go_estimate_dead(const struct go_game *g, uint8_t dead[GO_POINTS],
                      float confidence[GO_POINTS]);

/* ---- text ------------------------------------------------------------------------------ */

/* "D4" style coordinates (no I column), "pass" for GO_PASS. buf must hold 8 bytes. */
const char *go_point_name(int point, int height, char buf[8]);
const char *go_verdict_name(enum go_verdict_kind k);

#endif

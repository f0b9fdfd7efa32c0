/* ruleguard/guard_observe_shogi_internal.h — the shogi observation guard's state, shared by its
 * files: guard_observe_shogi.c (API, referee commands), _belief.c (readings -> belief), _explain.c
 * (belief -> moves and board flags), _search.c (which moves explain a change), _hand.c (captures
 * reaching the komadai, HIDDEN_PIECE, promoted pieces in hand, resignation by hand), _history.c
 * (the moves, rebuild and take-back). */
#ifndef KIFUCAM_RULEGUARD_GUARD_OBSERVE_SHOGI_INTERNAL_H
#define KIFUCAM_RULEGUARD_GUARD_OBSERVE_SHOGI_INTERNAL_H

#include "ruleguard/guard.h"

/* One reading being confirmed (a square's piece code, or a komadai's counts packed in a key). */
struct sobs_cand {
    bool active;
    uint64_t value;
    int streak_sure, streak_any;
    bool doubt;     /* some reading of the run was below conf_sure */
    bool sure_seen; /* some reading of the run was sure, or at least SOBS_CONF_SEEN */
    uint64_t alt;   /* a reading of another value inside the run (a misread, or the next change) */
    int alt_n;
    bool alt_sure, alt_seen, alt_kind_doubt;
    bool kind_doubt; /* some reading of the run in [SOBS_CONF_SEEN, conf_sure) */
};

/* A reading at or above this, below conf_sure, shows a piece surely there but its kind in doubt
 * (vision/shogi_arrivals.c: a fresh drop whose face fits another kind about as well): in doubt
 * for which piece it is, not weak evidence that a piece is there. */
#define SOBS_CONF_SEEN 0.85f

struct sobs_square {
    uint8_t belief;
    long touched_obs;      /* the last observation that read something else here */
    uint8_t touched_value; /* what it read (a state seen too briefly to believe) */
    long touched_obs2;     /* the same for the value read before that one */
    uint8_t touched_value2;
    bool touched_sure, touched_sure2; /* some reading of that value there was sure */
    uint8_t last_read;                /* the latest readable reading */
    bool last_sure;                   /* ... read surely */
    bool doubt;                       /* the belief came from doubtful readings */
    bool weak;       /* ... and none of them was sure nor SOBS_CONF_SEEN (two doubtful misreads of
                        an empty square look like this) */
    bool kind_doubt; /* ... and some of them said its kind was in doubt (SOBS_CONF_SEEN) */
    struct sobs_cand cand;
    long lit_obs; /* the last observation that had it in the picture, not occluded */
};

struct sobs_hand {
    uint8_t belief[SHOGI_HAND_TYPES];
    struct sobs_cand cand;
    long read_obs;                       /* the last observation that read this komadai */
    uint8_t last_read[SHOGI_HAND_TYPES]; /* ... and what it read there */
    int gone_reads[SHOGI_HAND_TYPES];    /* readings in a row short of an unexplained piece */
    uint8_t tolerated[SHOGI_HAND_TYPES]; /* missing pieces already flagged HIDDEN_PIECE */
    int64_t covered_since;               /* first observation of the current covered run, or -1 */
    /* pieces lying promoted side up, believed like the counts (a run of agreeing readings) */
    struct sobs_cand pcand;
    uint8_t promoted[SHOGI_HAND_TYPES];
    uint8_t promoted_flagged[SHOGI_HAND_TYPES]; /* of promoted[], already flagged */
};

/* A captured piece on its way to the capturer's komadai. */
struct sobs_pending {
    int ply;      /* game ply (without ply_base) of the capture */
    uint8_t side; /* who captured: whose komadai */
    uint8_t type; /* base type */
    int64_t t_ns;
    int reads_after; /* readings of that komadai since the opponent moved */
};

#define SOBS_MAX_PENDING 16
#define SOBS_SEQ_MAX     3  /* moves seen at once: each seen only once before the next came */
#define SOBS_UNSEEN_ALTS 16 /* moves an unseen move may have been, kept */
#define SOBS_UNSEEN_MAX  4  /* unseen moves followed at once */
#define SOBS_UNSEEN_PLY  4  /* plies after an unseen move it may still be amended */
#define SOBS_ARRIVAL_PLY 24 /* ... an arrival from the dark (its origin seldom comes into view) */

struct shogi_obs_guard {
    struct shogi_obs_config cfg;
    struct shogi_rules rules;
    bool sente_bottom;
    struct shogi_position start;
    struct shogi_guard *guard;
    struct shogi_move *moves; /* as played (shogi_game plies), to rebuild */
    int nmoves, capmoves;
    int ply_base; /* plies before start (accepted positions) */

    struct sobs_square sq[SHOGI_SQUARES];
    struct sobs_hand hand[2];
    int16_t mask[SHOGI_SQUARES]; /* -1, or the belief tolerated after a flag until restored */
    struct sobs_pending pend[SOBS_MAX_PENDING];
    int npend;

    int open_ply; /* game ply of an ILLEGAL_MOVE / TWO_MOVES flag the board may undo, or 0 */
    long nobs;    /* observations read */
    uint64_t last_frame;
    int64_t last_t;
    bool last_clean; /* the last observation read every square */
    bool view_held;  /* the observation is the last reading of a view the settler held still */
    uint64_t wait_sig;
    int wait;
    bool resigned;
    long move_obs; /* the observation of the last move committed */
    /* moves recorded as not seen (guard_observe_shogi_unseen.c), oldest first */
    struct sobs_unseen {
        int k;                                   /* index in the game's plies */
        struct shogi_move alt[SOBS_UNSEEN_ALTS]; /* the moves it may have been, alt[0] recorded */
        int nalt;
        bool arrival; /* a half-seen arrival from the dark (which piece came): amended later on,
                         up to SOBS_ARRIVAL_PLY plies after */
    } unseen[SOBS_UNSEEN_MAX];
    int nunseen;
    /* an illegal drop of the side to move waiting to be judged (guard_observe_shogi_explain.c):
       flagged when the board is put back after it was read surely in two settled views */
    struct sobs_held_drop {
        bool on;
        struct shogi_move m;
        int n;           /* the game's plies when it was seen */
        int views;       /* settled views that read it surely */
        bool doubted;    /* some reading of it was in doubt or weak */
        bool hand_holds; /* its komadai was read holding the piece still */
        int64_t t;       /* its first reading */
        uint64_t frame;
    } held;
};

struct sobs_evbuf {
    struct guard_event *ev;
    int n;
};

/* events (guard_observe_shogi.c) */
struct guard_event *sobs_event(struct sobs_evbuf *b, enum guard_kind kind, int ply, int64_t t,
                               uint64_t frame);
const char *sobs_side_name(int color);
void sobs_square_name(int sq, char out[4]); /* "7f" (USI) */

/* belief (guard_observe_shogi_belief.c) */
void sobs_belief_reset(struct shogi_obs_guard *g, const struct shogi_position *pos);
/* Reads one observation into the beliefs; true when a square or komadai belief changed. */
bool sobs_read(struct shogi_obs_guard *g, const struct observation *o);
/* At the end of a stream: candidates seen at least once become beliefs (marked in doubt). */
void sobs_accept_candidates(struct shogi_obs_guard *g);
bool sobs_any_candidate(const struct shogi_obs_guard *g);
/* The board as believed, masked squares showing what the game expects. */
void sobs_belief_board(const struct shogi_obs_guard *g, uint8_t board[SHOGI_SQUARES]);

/* history (guard_observe_shogi_history.c) */
const struct shogi_game *sobs_game(const struct shogi_obs_guard *g);
int sobs_ply(const struct shogi_obs_guard *g); /* ply_base + moves played */
/* Play m through the recorded-move guard and keep it for rebuilds; events into b. false when m
 * was not playable (its flag is in b, nothing was played). */
bool sobs_commit(struct shogi_obs_guard *g, struct shogi_move m, int64_t t, uint64_t frame,
                 const char *note, struct sobs_evbuf *b);
/* Take moves back until n moves remain (rebuilding the guard); a TAKEBACK event. */
void sobs_truncate(struct shogi_obs_guard *g, int n, int64_t t, uint64_t frame, const char *why,
                   struct sobs_evbuf *b);
bool sobs_restart(struct shogi_obs_guard *g, const struct shogi_position *start);

/* explanation (guard_observe_shogi_explain.c) */
enum sobs_mode {
    SOBS_OBSERVING,       /* an observation: wait when in doubt */
    SOBS_FLUSH_CONFIRMED, /* the end: what was confirmed is judged, waiting is over */
    SOBS_FLUSH_SEEN       /* the end: readings seen but not confirmed, legal moves only */
};
void sobs_explain(struct shogi_obs_guard *g, int64_t t, uint64_t frame, enum sobs_mode mode,
                  struct sobs_evbuf *b);

/* A move recorded with the other face (promoted or not) than the one now read surely where it
 * landed: the move amended when the board is then the game's, or fewer legal moves than the
 * search found (nmoves, legal) explain the rest (guard_observe_shogi_amend.c). */
bool sobs_try_amend_promotion(struct shogi_obs_guard *g, const uint8_t *board, int nmoves,
                              bool legal, int64_t t, uint64_t frame, struct sobs_evbuf *b);

/* A move recorded unpromoted (or a drop of one kind) whose piece still stands where it went in
 * the game, and a board nothing legal explains: when the game with that move promoted (or the
 * drop of another kind its mover held) explains it with legal moves, one of them the piece
 * leaving its square (it moved as only the other kind can), the move is amended, said in its
 * comment, the later moves played again and the reader's face where it stood tolerated. Waits
 * (true, nothing done) while the view is not settled. */
bool sobs_amend_kind_by_move(struct shogi_obs_guard *g, const uint8_t *board, bool settled,
                             int64_t t, uint64_t frame, struct sobs_evbuf *b);

/* A foul flagged and recorded (open_ply), moves recorded after it, and a board nothing legal
 * explains from the game: when the game with the foul read otherwise (not made, the drop of the
 * side to move, another kind dropped, another legal move to its square or from its origin)
 * explains it, the foul is amended and the later moves played again: 2. 1: such a story waits
 * for a settled view (settled false; nothing else is to be tried now); 0: none. */
int sobs_amend_foul(struct shogi_obs_guard *g, const uint8_t *board, bool settled, int64_t t,
                    uint64_t frame, struct sobs_evbuf *b);

/* unseen moves (guard_observe_shogi_unseen.c) */
/* Moves seq[0..n) start with a move out of turn: the legal moves of the side to move that stay
 * wholly on squares unread since the last move (no capture, no drop) after which seq is legal,
 * likeliest first (a pawn's step before the rest), into alt; returns how many (up to
 * SOBS_UNSEEN_ALTS kept, *total all). */
int sobs_unseen_moves(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                      const struct shogi_move *seq, int n, struct shogi_move alt[SOBS_UNSEEN_ALTS],
                      int *total);
/* Nothing explains the board legally, but a move of the side to move that left a square read
 * empty for one unread since the last move (a false cover holding still over it), and legal
 * moves of the opponent after it, do: those moves (the likeliest first, into alt; how many,
 * *total all) and the opponent's moves after alt[0] (into rest, *nrest). */
int sobs_half_seen(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                   const uint8_t *board, struct shogi_move alt[SOBS_UNSEEN_ALTS], int *total,
                   struct shogi_move rest[SOBS_SEQ_MAX], int *nrest);
/* Nothing explains the board legally, but a move of the side to move from a square unread since
 * the last move (out of the picture) onto one read now with a piece of its side that was not
 * there (the piece as the game has it, or a face read in doubt: the reader named an arrival it
 * never saw leave), or onto an empty square read empty from which the moves after it take the
 * piece on (its first step unseen), and legal moves of the opponent after it, do: those moves
 * (the likeliest first, into alt; how many, *total all) and the moves after alt[0] (into rest). */
int sobs_arrived_from_dark(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                           const uint8_t *board, struct shogi_move alt[SOBS_UNSEEN_ALTS],
                           int *total, struct shogi_move rest[SOBS_SEQ_MAX], int *nrest);
/* Record alt[0] (sobs_arrived_from_dark) with a note saying so; its origin believed as the game
 * has it, a face misread where it arrived tolerated. With nalt > 1 (the same arrival from other
 * unread squares, the face read in doubt) the others are named in the note and kept, as an
 * unseen move's are, to amend it when the board shows one of them. */
bool sobs_arrived_commit(struct shogi_obs_guard *g, const struct shogi_move *alt, int nalt,
                         int64_t t, uint64_t frame, struct sobs_evbuf *b);
/* Record alt[0] as the move not seen (GUARD_REASON_UNSEEN) and follow it. */
bool sobs_unseen_commit(struct shogi_obs_guard *g, const struct shogi_move *alt, int nalt,
                        int total, int64_t t, uint64_t frame, struct sobs_evbuf *b);
/* An unseen move recorded as one move when another of its alternatives explains the board
 * (exactly, or legally where the recorded one cannot): amended, the later moves played again. */
bool sobs_unseen_amend(struct shogi_obs_guard *g, const uint8_t *board, int nd, bool legal,
                       int64_t t, uint64_t frame, struct sobs_evbuf *b);
void sobs_unseen_truncate(struct shogi_obs_guard *g, int n);

/* search (guard_observe_shogi_search.c) */
#define SOBS_TOUCHED_OBS 8 /* observations a square read differently stays one moves may pass */
/* How far the komadai of p are from the ones believed (captures on their way count as there). */
int sobs_hand_distance(const struct shogi_obs_guard *g, const struct shogi_position *p);
/* The moves that turn pos into board, touching only the squares d[0..nd) (the first nchanged
 * of them changed, the others were read differently of late); 0 when none. *legal_dist: the
 * komadai score (8 per piece off, less a point per face seen on the way) of a legal answer,
 * 1 << 20 when the answer holds an illegal move. */
int sobs_find_moves(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                    const uint8_t *board, const int *d, int nd, int nchanged,
                    struct shogi_move seq[SOBS_SEQ_MAX], int *legal_dist);

/* Nothing legal explains the board as read, but legal moves do when the squares read in doubt
 * (the latest reading below conf_sure: changed, or in the picture since the last move) may hold
 * something else: the fewest such moves, the fewest doubtful readings overruled, the komadai
 * agreeing best; 0 when none, or when another story as good ends elsewhere. */
/* A square read in doubt: its latest reading was below conf_sure (a face misread, or a piece that
 * arrived read as the one that stood there before), not masked, not being confirmed. */
bool sobs_read_in_doubt(const struct shogi_obs_guard *g, int sq);
#define SOBS_DOUBT_MAX 6 /* squares in doubt at once beyond which nothing is guessed */
int sobs_find_moves_doubt(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                          const uint8_t *board, const int *d, int nd,
                          struct shogi_move seq[SOBS_SEQ_MAX]);

/* A drop read as one kind, made as another: the kind the mover's komadai show gone (when read),
 * else the one kind in the mover's hand that may legally be dropped there when the kind read is
 * not in it; else m. */
struct shogi_move sobs_drop_kind(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                                 struct shogi_move m);

/* A move that changed its piece on the way from a square whose face was tolerated as misread:
 * the legal move of the game's piece there into *out (promoted as the face says when it may);
 * false when none. */
bool sobs_tolerated_move(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                         struct shogi_move m, int arrived, struct shogi_move *out);

/* komadai (guard_observe_shogi_hand.c) */
void sobs_capture_made(struct shogi_obs_guard *g, struct shogi_move m, int ply, int64_t t,
                       uint64_t frame);
void sobs_drop_pending_after(struct shogi_obs_guard *g, int ply);
/* Captured pieces of type t still on their way to c's komadai. */
int sobs_pending_count(const struct shogi_obs_guard *g, int c, int t);
void sobs_check_hands(struct shogi_obs_guard *g, int64_t t, uint64_t frame, bool board_settled,
                      struct sobs_evbuf *b);
/* A promoted piece believed on a komadai (newly: once per piece put there): a referee call,
 * judged once the board shows the game's position (so the move that captured it is counted). */
void sobs_check_promoted_in_hand(struct shogi_obs_guard *g, int64_t t, uint64_t frame,
                                 bool board_settled, struct sobs_evbuf *b);
void sobs_check_resign(struct shogi_obs_guard *g, const struct observation *o, bool board_settled,
                       struct sobs_evbuf *b);

/* guard_observe_shogi_amend.c: the position after the game with ply k made as m instead and the
 * later plies as they were; false when one of them is then illegal. */
bool sobs_replay_with(const struct shogi_game *game, int k, struct shogi_move m,
                      struct shogi_position *out);

#endif

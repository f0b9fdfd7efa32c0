/* ruleguard/guard_observe_go_internal.h — what the files of the Go observation guard share: its
 * state and the functions one file gives the others (prefix gog_). Not part of the API.
 *
 * Three layers:
 * 1. Belief (guard_observe_go_belief.c): per point, what is physically on the board. A reading
 *    changes the belief only after a run of consecutive readings agree (go_obs_config), so one
 *    misread never becomes a move; occluded and unsure points are no evidence.
 * 2. Explanation (guard_observe_go_explain.c, _plan.c, _unseen.c, _commit_plan.c,
 *    _unexplained.c): the belief is compared with the expected board
 *    (the game's stones plus captured stones not yet taken off, guard_observe_go_captures.c). New
 *    stones of alternating colours, in the order they were first seen, are moves (the rules core
 *    judges them, guard_observe_go_accept.c); what no move explains waits a few observations for
 *    an explanation, then becomes a flag (guard_observe_go_flags.c) and is tolerated (masked)
 *    until the board is restored.
 *    A view that surely reads a whole legal capture (the stone, its prisoners gone) is a move
 *    at once (guard_observe_go_capview.c): a capture undone the next moment (a ko retaken at
 *    once, a stone captured back) is seen in one view only.
 * 3. Resync (guard_observe_go_history.c): after an ILLEGAL_MOVE or TWO_MOVES flag, a board put
 *    back to an earlier position of the game takes the moves back; a restored point clears its
 *    mask.
 * The moves go through ruleguard/guard_go.c's go_guard, rebuilt from a history of actions when the
 * referee (or a restoration) rewrites the past. */
#ifndef KIFUCAM_RULEGUARD_GUARD_OBSERVE_GO_INTERNAL_H
#define KIFUCAM_RULEGUARD_GUARD_OBSERVE_GO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ruleguard/guard.h"

/* Views kept for reading back a short sequence of moves (ko fights, snapbacks). */
#define GOG_VIEWS  16
#define GOG_UNREAD 3
/* Unseen moves followed at once (guard_observe_go_unseen_view.c) */
#define GOG_UNSEEN_MAX 8

enum action_kind { ACT_SETUP, ACT_MOVE, ACT_TO_MOVE, ACT_HANDICAP, ACT_RESIGN };

struct action {
    enum action_kind kind;
    struct go_move m; /* SETUP: colour + point; MOVE; TO_MOVE: colour; RESIGN: loser */
    int n;            /* HANDICAP: stones */
};

struct point_state {
    uint8_t belief; /* enum go_color believed on the board */
    uint8_t last;   /* latest reading, valid when last_known */
    bool last_known;
    bool has_last; /* last holds a reading (from this or an earlier observation) */
    uint8_t cand;  /* a reading that differs from the belief, being confirmed */
    bool cand_active;
    bool skipped; /* a doubtful reading of a third value inside the candidate's run was skipped */
    int streak_sure, streak_any, agree;
    float cand_minconf;
    int64_t cand_t;
    uint64_t cand_frame;
    long cand_obs;
    /* the first reading of each value since the point was last surely read as the belief: a
       misread in the middle of a new stone's run (mostly unsure) restarts the candidate, not the
       stone's place in time */
    long ep_obs[3];
    int64_t ep_t[3];
    uint64_t ep_frame[3];
    /* ep_* set aside by one sure reading of the belief (restored if the run goes on at once) */
    long ep_keep[3];
    int64_t ep_keep_t[3];
    uint64_t ep_keep_frame[3];
    /* the evidence of the last confirmed change */
    int64_t seen_t;
    uint64_t seen_frame;
    long seen_obs;
    long seen_own; /* the first reading of the colour believed (seen_obs may be an earlier
                      reading of the other colour) */
    bool seen_doubt;
    /* the last reading of a stone here while the belief was empty, or right after an empty
       reading (a stone seen once, perhaps captured at once) */
    long stone_obs[3];   /* by colour: a misread of the other colour does not hide it */
    long stone_first[3]; /* the first reading of that run of readings (when the stone came) */
    long last_obs;       /* the observation of `last` */
    long empty_obs; /* the last sure reading of an empty point here while a stone was believed */
    long empty_any_obs; /* the same, any readable confidence (a prisoner off, read in doubt) */
    int64_t stone_t[3]; /* time and frame of stone_first */
    uint64_t stone_frame[3];
};

struct pending {
    int point;
    uint8_t color;
    int ply;
    int64_t t_ns;
    long obs;
    long from;      /* the first view of the capturing stone */
    long last_seen; /* the last observation that read the prisoner still on its point */
    bool late;      /* still seen after the next move appeared */
};

struct go_obs_guard {
    struct go_obs_config cfg;
    struct go_rules rules;
    int w, h;
    struct go_guard *guard;
    struct action *hist;
    int nhist, caphist;
    uint8_t (*snap)[GO_POINTS]; /* snap[j]: the board after ply j (snap[0]: the start) */
    int capsnap;
    struct point_state pt[GO_POINTS];
    struct pending pend[GO_POINTS];
    int npend;
    int16_t mask[GO_POINTS]; /* -1, or the reading tolerated at this point after a flag */
    long disturbed_obs;      /* the observation of the last BOARD_DISTURBED flag, or 0 */
    /* a prisoner's point taken as played again on one doubtful empty reading (the prisoner may
       have stayed on): if the new stone is the last move and is then surely read gone, with
       nothing capturing it, it was the prisoner coming off late (guard_observe_go_captures.c) */
    bool replay_in_doubt;
    int replay_point, replay_ply; /* its point; the ply when it was taken so */
    int handicap_left;            /* free handicap stones still to come */
    long nobs;
    uint64_t last_frame;
    int64_t last_t;
    /* while a stable observation is read: the settler's per-point times (when each point began
       to read what the view says), and the time of the view before it; NULL otherwise */
    const int64_t *read_since;
    int64_t prev_view_t;
    uint64_t wait_sig;
    int wait;
    /* each unexplained change's own wait (guard_observe_go_unexplained.c): the reading waiting
       at the point, the first and the last observation it was left unexplained in a row */
    uint8_t unexp_now[GO_POINTS];
    long unexp_since[GO_POINTS], unexp_last[GO_POINTS];
    int unexp_ply[GO_POINTS]; /* the game's ply when it was first left unexplained */
    /* an illegal stone of the side to move confirmed and waiting to be judged (after its wait,
       gog_flag_unexplained): flagged even when taken back before (gog_illegal_taken_back) */
    struct {
        bool on;
        int point, ply; /* where; the game's ply when it waited */
        uint8_t color;
        long obs; /* its first reading */
        int64_t t;
        uint64_t frame;
    } illegal_wait;
    int open_ply; /* ply of the oldest ILLEGAL_MOVE / TWO_MOVES flag the board may undo, or 0 */
    bool counting;
    uint8_t removed_in_count[GO_POINTS];
    /* pass signals waiting for the move before them to be confirmed, in order */
    struct {
        enum go_color who;
        int64_t t;
        uint64_t frame;
        long obs; /* observations up to this one came before the pass */
    } queue[8];
    int nqueue;
    /* the last views, read back when no move explains a change (guard_observe_go_decode.c) */
    struct gog_view {
        long obs;
        uint8_t v[GO_POINTS]; /* the reading, or GOG_UNREAD */
        uint8_t sure[GO_POINTS];
        uint8_t doubt[GO_POINTS]; /* read, but not surely (even below conf_min) */
        uint8_t dark[GO_POINTS];  /* out of the picture, or hidden (obs_out_of_view, occluded) */
    } views[GOG_VIEWS];
    long anchor_obs; /* the first view of the last move accepted */
    /* moves recorded as not seen (GUARD_REASON_UNSEEN), oldest first: where each may lie, until
       its stone is read there (the record amended) or every such point is read otherwise */
    struct gog_unseen {
        int ply;
        uint8_t color;
        uint8_t dark[GO_POINTS]; /* 1: unread since, may hold the stone */
        /* 1: a dark point read since as the other colour, never surely (glare may name a stone's
           colour wrongly: the unseen stone misread, gog_unseen_resolve) */
        uint8_t odd[GO_POINTS];
        int ndark;
    } unseen[GOG_UNSEEN_MAX];
    int nunseen;
    /* unseen moves whose every point has been read without their stone since: flagged next */
    struct gog_unseen_lost {
        int ply;
        uint8_t color;
    } lost[GOG_UNSEEN_MAX];
    int nlost;
};

/* When point p of observation o began to read what o says: the settler's time when there is one,
 * not before the view before it, else the observation's own time. Several stones that came
 * between two views are ordered by it, and each move is timed by it. */
static inline int64_t gog_read_time(const struct go_obs_guard *g, const struct observation *o,
                                    int p)
{
    if (!g->read_since) return o->t_ns;
    int64_t t = g->read_since[p];
    if (t > o->t_ns) t = o->t_ns;
    if (t < g->prev_view_t) t = g->prev_view_t;
    return t;
}

/* ---- events -------------------------------------------------------------------------------- */

struct evbuf {
    struct guard_event *ev;
    int n;
};

/* ---- layer 2: explanation ------------------------------------------------------------------- */

struct change {
    int point;
    uint8_t was, now; /* expected (game) colour, believed colour */
    long obs;         /* first seen */
    int64_t t;        /* and when, within the frames before that view (gog_read_time) */
};

/* guard_observe_go.c */
void gog_sync_beliefs_to_game(struct go_obs_guard *g);
void gog_count_phase(struct go_obs_guard *g);

/* guard_observe_go_events.c */
bool gog_ev_room(const struct evbuf *b, int need);
struct guard_event *gog_ev_add(struct evbuf *b, enum guard_kind kind, int ply, int64_t t,
                               uint64_t frame);
const char *gog_color_name(int c);
/* Flag an illegal move m (its verdict v) that was taken back before the guard judged it: not
 * recorded, ILLEGAL_MOVE at ply. */
void gog_flag_taken_back(struct evbuf *b, struct go_move m, struct go_verdict v, int ply, int64_t t,
                         uint64_t frame);
void gog_append_points(char *text, size_t len, const int *pts, int n, int height);
/* Append note to the text of every event of kind from index `from` of b on (a move committed
 * under doubt says why). */
void gog_doubt_note(struct guard_event *e, const struct point_state *s, bool flushing);
/* The moves in b from `from` on were accepted under doubt for the reason WHY. */
void gog_doubt_events(struct evbuf *b, int from, const char *why);

/* guard_observe_go_history.c */
const struct go_game *gog_game_of(const struct go_obs_guard *g);
int gog_ply_of(const struct go_obs_guard *g);
void gog_hist_push(struct go_obs_guard *g, struct action a);
void gog_board_of(const struct go_game *game, uint8_t out[GO_POINTS]);
void gog_snap_now(struct go_obs_guard *g);
int gog_apply_action(struct go_obs_guard *g, const struct action *a, int64_t t, uint64_t frame,
                     struct guard_event ev[GUARD_MAX_EVENTS]);
void gog_rebuild(struct go_obs_guard *g);
int gog_actions_for_ply(struct go_obs_guard *g, int ply);
void gog_truncate_to_ply(struct go_obs_guard *g, int ply);
void gog_try_resync(struct go_obs_guard *g, struct evbuf *b, int64_t t, uint64_t frame);

/* guard_observe_go_belief.c */
void gog_read_point(struct go_obs_guard *g, int p, const struct observation *o, bool *changed);
void gog_confirm_tentative(struct go_obs_guard *g);
bool gog_tentative_stone(const struct go_obs_guard *g, uint8_t c);
bool gog_new_stone_by(const struct go_obs_guard *g, uint8_t c, long obs);
bool gog_cand_stalled(const struct go_obs_guard *g, const struct point_state *s);
bool gog_tentative_before(const struct go_obs_guard *g, uint8_t c, long obs);
bool gog_tentative_removal(const struct go_obs_guard *g, uint8_t c, long obs);
bool gog_stone_before(const struct go_obs_guard *g, long obs);
bool gog_run_confirmed(const struct go_obs_guard *g, int p, uint8_t c, long from);
bool gog_read_empty_between(const struct go_obs_guard *g, int p, long from, long to);
long gog_replayed_since(const struct go_obs_guard *g, int p, uint8_t c, long from);

/* guard_observe_go_captures.c */
uint8_t gog_expected_at(const struct go_obs_guard *g, int p);
int gog_pending_index(const struct go_obs_guard *g, int p);
void gog_pending_drop(struct go_obs_guard *g, int i);
void gog_check_pending(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing,
                       struct evbuf *b);
bool gog_read_surely_empty_between(const struct go_obs_guard *g, int p, long from, long to);
bool gog_undo_doubtful_replay(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b);

/* guard_observe_go_accept.c */
void gog_commit_move(struct go_obs_guard *g, struct go_move m, int64_t t, uint64_t frame,
                     const struct point_state *s, long seen_obs, bool flushing, struct evbuf *b);

/* The differences between belief and expected board (guard_observe_go_explain.c). */
struct gog_diff {
    struct change adds[GO_POINTS]; /* stones on points empty in the game, in the order first seen */
    struct change rest[GO_POINTS]; /* stones gone, colours changed */
    int na, nrest;
    bool after_pass; /* stones held back: read after a pass still waiting for its move */
};

/* The moves that explain them (guard_observe_go_plan.c), and what they leave. */
struct gog_plan {
    struct go_move move[GUARD_OBS_MAX_EVENTS];
    /* where each move was read: its point; -1 a pass assumed between two stones of one colour;
       -2 - q a stone at q seen once (or never) and captured at once */
    int from[GUARD_OBS_MAX_EVENTS];
    int unseen_by[GUARD_OBS_MAX_EVENTS]; /* a stone never read: the point of its capturer, or -1 */
    int unseen_fits[GUARD_OBS_MAX_EVENTS]; /* how many points fit that unseen stone */
    bool guessed[GUARD_OBS_MAX_EVENTS];    /* put before a stone of its colour read as early */
    bool early[GUARD_OBS_MAX_EVENTS];      /* seen once, played before stones of its colour read
                                              after it, captured later */
    /* the point of such a stone that no later move captures, surely read gone since: played where
       its reading puts it and flagged taken off (STONE_REMOVED), or -1 */
    int early_gone;
    int early_libs; /* the liberties of that stone's chain once the plan is played (0: gone) */
    int n;
    bool has_blocker; /* a stone the plan could not play (out of turn, illegal, in doubt) */
    struct change blocker;
    bool maybe;     /* an explanation may still come: wait longer */
    bool reordered; /* a stone of the side to move put before a reply seen earlier */
    bool illegal;   /* the blocker is an illegal move of the side to move */
    bool capturer;  /* a stone that could capture a removal is still being confirmed */
    bool moved;     /* a new stone and one of its colour gone at the same time: a moved stone */
    /* the move of index unseen_at (or -1) is a move of the other side not seen, on one of the
       dark points (unread for good) or a pass: played as a pass */
    int unseen_at;
    int seen_once; /* the blocker waits for a stone read once before it at this point, or -1 */
    uint8_t dark[GO_POINTS];
    int ndark;
    struct change left[GO_POINTS]; /* what the moves do not explain */
    int nleft;
    /* left[k] may still be explained (its own reasons: a capturing stone on a liberty of its
       chain or a stone of its colour nearby still being confirmed, a restoration, read as
       expected again): it waits longer */
    bool left_maybe[GO_POINTS];
    /* left[k] is a stone gone alone (lone_removal, guard_observe_go_plan.c): while the game goes
       on around it, it waits longer (guard_observe_go_unexplained.c) */
    bool left_lone[GO_POINTS];
    bool blocker_maybe;     /* the blocker waits for a stone still being confirmed */
    uint8_t end[GO_POINTS]; /* the board after the plan */
};

/* guard_observe_go_explain.c */
void gog_explain(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing, struct evbuf *b);
int gog_change_order(const void *a, const void *b);

/* guard_observe_go_plan.c */
void gog_plan_moves(const struct go_obs_guard *g, struct gog_diff *d, bool flushing,
                    struct gog_plan *p);
bool gog_restoring(const struct go_obs_guard *g, const struct change *c);

/* guard_observe_go_unseen.c */
int gog_hidden_capture(const struct go_obs_guard *g, const struct go_game *sim, int at, long at_obs,
                       enum go_color c, enum go_color tm, int *unseen);
bool gog_tentative_hidden(const struct go_obs_guard *g, const struct go_game *sim, long obs,
                          enum go_color tm);
int gog_hidden_capturer(const struct go_obs_guard *g, const struct go_game *sim, int removed,
                        long removed_obs, enum go_color tm);

/* guard_observe_go_unseen_view.c */
int gog_dark_points(const struct go_obs_guard *g, const struct go_game *sim, enum go_color c,
                    long since, bool came_after, uint8_t dark[GO_POINTS]);
void gog_unseen_commit(struct go_obs_guard *g, const struct gog_plan *p, int n0, int64_t t,
                       uint64_t frame, struct evbuf *b);
void gog_unseen_view(struct go_obs_guard *g);
/* An unseen move none of whose points held its stone: the other side moved twice, or it passed
   without a signal. TWO_MOVES, the record keeping the pass reading for the referee. */
void gog_unseen_flag_lost(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b);
bool gog_unseen_resolve(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b);
void gog_unseen_truncate(struct go_obs_guard *g, int ply);

/* guard_observe_go_commit_plan.c */
void gog_commit_plan_before(struct go_obs_guard *g, const struct gog_plan *p, long first_bad,
                            bool flushing, struct evbuf *b);
void gog_commit_plan(struct go_obs_guard *g, const struct gog_plan *p, int64_t t, uint64_t frame,
                     bool flushing, struct evbuf *b);

/* guard_observe_go_unexplained.c */
void gog_flag_unexplained(struct go_obs_guard *g, struct gog_plan *p, bool disturbed,
                          long first_bad, int64_t t, uint64_t frame, bool flushing,
                          struct evbuf *b);

/* An illegal stone that waited (illegal_wait) and is read gone, the game unchanged, no stone of
 * the other colour come that could have captured it: played and taken back before its wait
 * ended. ILLEGAL_MOVE at its ply (the record keeps no move). guard_observe_go_unexplained.c */
void gog_illegal_taken_back(struct go_obs_guard *g, struct evbuf *b);

/* guard_observe_go_decode.c */
void gog_keep_view(struct go_obs_guard *g, const struct observation *o);
bool gog_decode(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b);

/* guard_observe_go_capview.c */
void gog_confirm_capture_view(struct go_obs_guard *g, const struct observation *o);
/* The stones a stone of c at q would capture on game (chains of the other colour whose last
 * liberty q is), whether or not it may be played there: their number, the points in pts. */
int gog_would_capture(const struct go_game *game, int q, uint8_t c, int pts[GO_POINTS]);
/* Did view v read a stone of c at q (in any confidence) with the n stones of pts surely gone? */
bool gog_capture_read(const struct go_obs_guard *g, const struct gog_view *v, int q, uint8_t c,
                      const int *pts, int n);

/* guard_observe_go_phantom.c */
bool gog_stone_in_doubt(const struct go_obs_guard *g, const struct go_game *sim, int p, uint8_t c,
                        long first);

/* guard_observe_go_flags.c */
/* at_ply: the ply a STONE_REMOVED flag names (the stones went then), or -1: the game's ply */
void gog_flag_board(struct go_obs_guard *g, const struct change *ch, int nch, int at_ply, int64_t t,
                    uint64_t frame, struct evbuf *b);
int gog_swept_move(const struct go_obs_guard *g, const struct change *ch, int nch, long first_bad);

/* guard_observe_go_signals.c */
bool gog_commit_queue(struct go_obs_guard *g, bool flushing, struct evbuf *b);
int gog_count_now(struct go_obs_guard *g, int64_t t, uint64_t frame, const char *why,
                  struct guard_event ev[GUARD_OBS_MAX_EVENTS]);

#endif

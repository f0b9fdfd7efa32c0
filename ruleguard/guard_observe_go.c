/* ruleguard/guard_observe_go.c — the Go rule guard fed by observations instead of moves.
 *
 * Three layers:
 * 1. Belief: per point, what is physically on the board. A reading changes the belief only after
 *    a run of consecutive readings agree (go_obs_config), so one misread never becomes a move;
 *    occluded and unsure points are no evidence.
 * 2. Explanation: the belief is compared with the expected board (the game's stones plus captured
 *    stones not yet taken off). New stones of alternating colours, in the order they were first
 *    seen, are moves (the rules core judges them); what no move explains waits a few
 *    observations for an explanation, then becomes a flag and is tolerated (masked) until the
 *    board is restored.
 * 3. Resync: after an ILLEGAL_MOVE or TWO_MOVES flag, a board put back to an earlier position of
 *    the game takes the moves back; a restored point clears its mask.
 * The moves go through ruleguard/guard_go.c's go_guard, rebuilt from a history of actions when
 * the referee (or a restoration) rewrites the past. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard.h"

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
    uint8_t cand; /* a reading that differs from the belief, being confirmed */
    bool cand_active;
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
    /* the evidence of the last confirmed change */
    int64_t seen_t;
    uint64_t seen_frame;
    long seen_obs;
    bool seen_doubt;
    /* the last reading of a stone here while the belief was empty (a stone seen once, perhaps
       captured at once) */
    long stone_obs[3]; /* by colour: a misread of the other colour does not hide it */
    long empty_obs;    /* the last sure reading of an empty point here while a stone was believed */
    long empty_any_obs; /* the same, any readable confidence (a prisoner off, read in doubt) */
    int64_t stone_t[3];
    uint64_t stone_frame[3];
};

struct pending {
    int point;
    uint8_t color;
    int ply;
    int64_t t_ns;
    long obs;
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
    int handicap_left;       /* free handicap stones still to come */
    long nobs;
    uint64_t last_frame;
    int64_t last_t;
    uint64_t wait_sig;
    int wait;
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
};

void go_obs_config_default(struct go_obs_config *c)
{
    memset(c, 0, sizeof *c);
    c->conf_min = 0.5f;
    c->conf_sure = 0.9f;
    c->confirm_sure = 2;
    c->confirm_any = 3;
    c->max_wait_obs = 2;
    c->disturbed_min = 4;
    c->capture_max_plies = 1;
    c->capture_max_ns = 120 * (int64_t)1000000000;
    c->capture_max_obs = 0;
    c->assume_pass = false;
    c->counting_after_passes = true;
    c->signals = (1u << GO_SIGNAL_COUNT) - 1;
}

/* ---- events -------------------------------------------------------------------------------- */

struct evbuf {
    struct guard_event *ev;
    int n;
};

static bool ev_room(const struct evbuf *b, int need)
{
    return b->n + need <= GUARD_OBS_MAX_EVENTS;
}

static struct guard_event *ev_add(struct evbuf *b, enum guard_kind kind, int ply, int64_t t,
                                  uint64_t frame)
{
    if (b->n >= GUARD_OBS_MAX_EVENTS) return NULL;
    struct guard_event *e = &b->ev[b->n++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->ply = ply;
    e->t_ns = t;
    e->frame_seq = frame;
    e->move.color = GO_EMPTY;
    e->move.point = GO_NOPOINT;
    return e;
}

static const char *color_name(int c)
{
    return c == GO_BLACK ? "Black" : c == GO_WHITE ? "White" : "empty";
}

/* Append " D4 Q16 ..." for a list of points, as far as the text has room. */
static void append_points(char *text, size_t len, const int *pts, int n, int height)
{
    size_t used = strlen(text);
    for (int i = 0; i < n && used + 8 < len; i++) {
        char name[8];
        used += (size_t)snprintf(text + used, len - used, "%s%s", i ? " " : "",
                                 go_point_name(pts[i], height, name));
    }
}

/* ---- history and rebuilding ----------------------------------------------------------------- */

static const struct go_game *game_of(const struct go_obs_guard *g)
{
    return go_guard_game(g->guard);
}

static int ply_of(const struct go_obs_guard *g)
{
    return go_game_ply(game_of(g));
}

static void hist_push(struct go_obs_guard *g, struct action a)
{
    if (g->nhist == g->caphist) {
        int cap = g->caphist ? g->caphist * 2 : 64;
        struct action *h = realloc(g->hist, (size_t)cap * sizeof *h);
        if (!h) return;
        g->hist = h;
        g->caphist = cap;
    }
    g->hist[g->nhist++] = a;
}

static void board_of(const struct go_game *game, uint8_t out[GO_POINTS])
{
    memset(out, 0, GO_POINTS);
    for (int y = 0; y < go_game_height(game); y++)
        for (int x = 0; x < go_game_width(game); x++)
            out[go_point(x, y)] = (uint8_t)go_game_at(game, go_point(x, y));
}

/* Keep snap[ply] equal to the board now. */
static void snap_now(struct go_obs_guard *g)
{
    int ply = ply_of(g);
    if (ply >= g->capsnap) {
        int cap = g->capsnap ? g->capsnap : 64;
        while (cap <= ply) cap *= 2;
        uint8_t(*s)[GO_POINTS] = realloc(g->snap, (size_t)cap * sizeof *s);
        if (!s) return;
        g->snap = s;
        g->capsnap = cap;
    }
    board_of(game_of(g), g->snap[ply]);
}

/* The go_guard takes the first Black stones of a free handicap as setup: mirror its count. */
static void track_handicap(struct go_obs_guard *g, const struct action *a, bool point_was_empty)
{
    if (a->kind == ACT_HANDICAP) {
        int black = 0;
        for (int p = 0; p < GO_POINTS; p++) black += go_game_at(game_of(g), p) == GO_BLACK;
        g->handicap_left = a->n >= 2 && a->n > black && ply_of(g) == 0 ? a->n - black : 0;
    } else if (a->kind == ACT_MOVE) {
        if (g->handicap_left > 0 && a->m.color == GO_BLACK && a->m.point >= 0 && point_was_empty)
            g->handicap_left--;
        else
            g->handicap_left = 0;
    }
}

static int apply_action(struct go_obs_guard *g, const struct action *a, int64_t t, uint64_t frame,
                        struct guard_event ev[GUARD_MAX_EVENTS])
{
    int n = 0;
    bool was_empty = a->m.point >= 0 && go_game_at(game_of(g), a->m.point) == GO_EMPTY;
    switch (a->kind) {
    case ACT_SETUP: go_guard_setup(g->guard, a->m.color, a->m.point); break;
    case ACT_TO_MOVE: go_guard_set_to_move(g->guard, a->m.color); break;
    case ACT_HANDICAP: go_guard_set_handicap(g->guard, a->n); break;
    case ACT_MOVE: n = go_guard_move(g->guard, a->m, t, frame, ev); break;
    case ACT_RESIGN: n = go_guard_resign(g->guard, a->m.color, t, ev); break;
    }
    track_handicap(g, a, was_empty);
    return n;
}

/* Replay the history into a fresh go_guard (after the past was rewritten). */
static void rebuild(struct go_obs_guard *g)
{
    go_guard_free(g->guard);
    g->guard = go_guard_new(g->w, g->h, &g->rules);
    struct guard_event ev[GUARD_MAX_EVENTS];
    g->handicap_left = 0;
    snap_now(g);
    for (int i = 0; i < g->nhist; i++) {
        apply_action(g, &g->hist[i], 0, 0, ev);
        snap_now(g);
    }
}

/* The number of history actions that make the game up to ply `ply` (handicap stones given as
 * moves do not count as plies). */
static int actions_for_ply(struct go_obs_guard *g, int ply)
{
    struct go_guard *save = g->guard;
    int left = g->handicap_left;
    g->guard = go_guard_new(g->w, g->h, &g->rules);
    struct guard_event ev[GUARD_MAX_EVENTS];
    int i = 0;
    for (; i < g->nhist; i++) {
        apply_action(g, &g->hist[i], 0, 0, ev);
        if (ply_of(g) > ply) break; /* this action made ply+1 */
    }
    go_guard_free(g->guard);
    g->guard = save;
    g->handicap_left = left;
    return i;
}

/* Drop the history after the move that made ply `ply`. */
static void truncate_to_ply(struct go_obs_guard *g, int ply)
{
    g->nhist = actions_for_ply(g, ply);
    rebuild(g);
    int j = 0;
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].ply <= ply) g->pend[j++] = g->pend[i];
    g->npend = j;
    for (int p = 0; p < GO_POINTS; p++) g->mask[p] = -1;
    g->open_ply = 0;
    g->counting = false;
}

/* ---- creation and setup ---------------------------------------------------------------------- */

struct go_obs_guard *go_obs_guard_new(int width, int height, const struct go_rules *rules,
                                      const struct go_obs_config *cfg)
{
    if (width < GO_MIN || height < GO_MIN || width > GO_MAX || height > GO_MAX) return NULL;
    struct go_obs_guard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    if (!rules) rules = go_rules_presets(&(size_t){0});
    g->rules = *rules;
    if (cfg)
        g->cfg = *cfg;
    else
        go_obs_config_default(&g->cfg);
    g->w = width;
    g->h = height;
    g->guard = go_guard_new(width, height, &g->rules);
    if (!g->guard) {
        free(g);
        return NULL;
    }
    for (int p = 0; p < GO_POINTS; p++) g->mask[p] = -1;
    snap_now(g);
    return g;
}

void go_obs_guard_free(struct go_obs_guard *g)
{
    if (!g) return;
    go_guard_free(g->guard);
    free(g->hist);
    free(g->snap);
    free(g);
}

const struct go_game *go_obs_guard_game(const struct go_obs_guard *g)
{
    return game_of(g);
}

bool go_obs_guard_counting(const struct go_obs_guard *g)
{
    return g->counting;
}

static void sync_beliefs_to_game(struct go_obs_guard *g)
{
    for (int p = 0; p < GO_POINTS; p++) g->pt[p].belief = (uint8_t)go_game_at(game_of(g), p);
}

void go_obs_guard_setup(struct go_obs_guard *g, enum go_color c, int point)
{
    struct action a = {.kind = ACT_SETUP, .m = {c, point}};
    hist_push(g, a);
    apply_action(g, &a, 0, 0, NULL);
    snap_now(g);
    g->pt[point].belief = (uint8_t)c;
}

void go_obs_guard_set_to_move(struct go_obs_guard *g, enum go_color c)
{
    struct action a = {.kind = ACT_TO_MOVE, .m = {c, GO_NOPOINT}};
    hist_push(g, a);
    apply_action(g, &a, 0, 0, NULL);
}

bool go_obs_guard_set_handicap(struct go_obs_guard *g, int n, enum go_handicap_placement how)
{
    if (how == GO_HANDICAP_FIXED && n >= 2) {
        int pts[9];
        if (go_handicap_points(g->w, g->h, n, pts) != n) return false;
        for (int i = 0; i < n; i++) go_obs_guard_setup(g, GO_BLACK, pts[i]);
    }
    struct action a = {.kind = ACT_HANDICAP, .n = n};
    hist_push(g, a);
    apply_action(g, &a, 0, 0, NULL);
    return true;
}

/* What should be on the board: the game's stones, plus captured stones still allowed there. */
static uint8_t expected_at(const struct go_obs_guard *g, int p)
{
    uint8_t c = (uint8_t)go_game_at(game_of(g), p);
    if (c != GO_EMPTY) return c;
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].point == p) return g->pend[i].color;
    return GO_EMPTY;
}

void go_obs_guard_last_good(const struct go_obs_guard *g, uint8_t board[GO_POINTS])
{
    memset(board, 0, GO_POINTS);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) board[go_point(x, y)] = expected_at(g, go_point(x, y));
}

static int pending_index(const struct go_obs_guard *g, int p)
{
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].point == p) return i;
    return -1;
}

static void pending_drop(struct go_obs_guard *g, int i)
{
    g->pend[i] = g->pend[--g->npend];
}

/* ---- layer 1: belief ------------------------------------------------------------------------ */

static void read_point(struct go_obs_guard *g, int p, const struct observation *o, bool *changed)
{
    struct point_state *s = &g->pt[p];
    float conf = o->conf[p];
    bool known = !o->occluded[p] && conf >= g->cfg.conf_min && o->point[p] <= OBS_WHITE;
    s->last_known = known;
    if (!known) return;
    uint8_t v = o->point[p];
    s->last = v;
    bool sure = conf >= g->cfg.conf_sure;
    if (v == OBS_EMPTY && s->belief != OBS_EMPTY && sure) s->empty_obs = g->nobs;
    if (v == OBS_EMPTY && s->belief != OBS_EMPTY) s->empty_any_obs = g->nobs;
    if (v != OBS_EMPTY && s->belief == OBS_EMPTY) {
        s->stone_obs[v] = g->nobs;
        s->stone_t[v] = o->t_ns;
        s->stone_frame[v] = o->frame_seq;
    }
    if (v == s->belief) {
        s->streak_sure = s->streak_any = 0;
        if (++s->agree >= 2 || sure) memset(s->ep_obs, 0, sizeof s->ep_obs);
        if (s->agree >= 2) s->cand_active = false;
        return;
    }
    s->agree = 0;
    if (!s->ep_obs[v]) {
        s->ep_obs[v] = g->nobs;
        s->ep_t[v] = o->t_ns;
        s->ep_frame[v] = o->frame_seq;
    }
    if (s->cand_active && s->cand == v) {
        s->streak_any++;
        s->streak_sure = sure ? s->streak_sure + 1 : 0;
        if (conf < s->cand_minconf) s->cand_minconf = conf;
    } else {
        s->cand_active = true;
        s->cand = v;
        s->cand_t = o->t_ns;
        s->cand_frame = o->frame_seq;
        s->cand_obs = g->nobs;
        s->streak_any = 1;
        s->streak_sure = sure;
        s->cand_minconf = conf;
    }
    if (s->streak_sure >= g->cfg.confirm_sure || s->streak_any >= g->cfg.confirm_any) {
        /* a new stone appeared when a stone was first read here, of either colour (a doubtful
           first reading may name the wrong one) */
        int e = v;
        if (v != OBS_EMPTY && s->belief == OBS_EMPTY) {
            int o2 = v == OBS_BLACK ? OBS_WHITE : OBS_BLACK;
            if (s->ep_obs[o2] && s->ep_obs[o2] < s->ep_obs[v]) e = o2;
        }
        s->belief = v;
        s->seen_t = s->ep_t[e];
        s->seen_frame = s->ep_frame[e];
        s->seen_obs = s->ep_obs[e];
        memset(s->ep_obs, 0, sizeof s->ep_obs);
        s->seen_doubt = s->cand_minconf < g->cfg.conf_sure;
        s->cand_active = false;
        s->streak_sure = s->streak_any = 0;
        *changed = true;
    }
}

/* At the end of a stream: a change read in two observations in a row counts, under doubt. One
 * reading alone stays unconfirmed (it is as likely a misread). */
static void confirm_tentative(struct go_obs_guard *g)
{
    for (int p = 0; p < GO_POINTS; p++) {
        struct point_state *s = &g->pt[p];
        /* s->last: the last known reading (a hand over the point at the end hides nothing new) */
        if (!s->cand_active || s->last != s->cand || s->streak_any < 2) continue;
        s->belief = s->cand;
        s->seen_t = s->ep_obs[s->cand] ? s->ep_t[s->cand] : s->cand_t;
        s->seen_frame = s->ep_obs[s->cand] ? s->ep_frame[s->cand] : s->cand_frame;
        s->seen_obs = s->ep_obs[s->cand] ? s->ep_obs[s->cand] : s->cand_obs;
        s->seen_doubt = true;
        s->cand_active = false;
    }
}

/* ---- layer 3: resync ------------------------------------------------------------------------ */

static bool belief_equals(const struct go_obs_guard *g, const uint8_t board[GO_POINTS])
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            if (g->pt[p].belief != board[p]) return false;
        }
    return true;
}

/* After an ILLEGAL_MOVE or TWO_MOVES flag: is the board back at an earlier position? */
static void try_resync(struct go_obs_guard *g, struct evbuf *b, int64_t t, uint64_t frame)
{
    int n = ply_of(g);
    if (!g->open_ply) return;
    if (n >= g->open_ply + 2 || n < g->open_ply) {
        g->open_ply = 0; /* play went on over the flagged move: it stands */
        return;
    }
    for (int j = n - 1; j >= g->open_ply - 1 && j >= 0; j--) {
        if (!belief_equals(g, g->snap[j])) continue;
        truncate_to_ply(g, j);
        struct guard_event *e = ev_add(b, GUARD_MOVE, j, t, frame);
        if (e) {
            e->reason = GUARD_REASON_TAKEBACK;
            snprintf(e->text, sizeof e->text,
                     "the board is back to the position after ply %d: moves %d..%d taken back", j,
                     j + 1, n);
        }
        return;
    }
}

/* ---- layer 2: explanation ------------------------------------------------------------------- */

struct change {
    int point;
    uint8_t was, now; /* expected (game) colour, believed colour */
    long obs;         /* first seen */
};

static int cmp_change(const void *a, const void *b)
{
    const struct change *x = a, *y = b;
    if (x->obs != y->obs) return x->obs < y->obs ? -1 : 1;
    return x->point - y->point;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

/* A change the guard cannot yet explain: wait until the same situation has been seen in
 * max_wait_obs observations (an unconfirmed capturing stone, a restoration under way). */
static bool waited_enough(struct go_obs_guard *g, uint64_t sig, bool flushing)
{
    if (flushing) return true;
    if (sig != g->wait_sig) {
        g->wait_sig = sig;
        g->wait = 1;
    } else {
        g->wait++;
    }
    return g->wait >= g->cfg.max_wait_obs;
}

/* Is a stone of colour c being read somewhere new but not yet confirmed? */
static bool tentative_stone(const struct go_obs_guard *g, uint8_t c)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            const struct point_state *s = &g->pt[go_point(x, y)];
            if (s->cand_active && s->cand == c && s->belief == GO_EMPTY &&
                (!s->last_known || s->last == c))
                return true;
        }
    return false;
}

static void doubt_note(char *text, size_t len, const struct point_state *s, bool flushing)
{
    size_t used = strlen(text);
    if (used + 4 >= len) return;
    if (flushing)
        snprintf(text + used, len - used, " (accepted under doubt: seen in one observation)");
    else if (s->seen_doubt)
        snprintf(text + used, len - used, " (accepted under doubt: low-confidence reading)");
}

/* Commit one move through the go_guard: its events, the captured stones still on the board
 * become pending, stones a tolerant replay removed but that stand on the board are masked. */
static void commit_move(struct go_obs_guard *g, struct go_move m, int64_t t, uint64_t frame,
                        const struct point_state *s, long seen_obs, bool flushing, struct evbuf *b)
{
    uint8_t before[GO_POINTS];
    board_of(game_of(g), before);
    struct guard_event tmp[GUARD_MAX_EVENTS];
    struct action a = {.kind = ACT_MOVE, .m = m};
    int n = apply_action(g, &a, t, frame, tmp);
    hist_push(g, a);
    snap_now(g);
    int ply = ply_of(g);
    long move_seen = seen_obs > 0 ? seen_obs : g->nobs; /* when this move's stone appeared */
    /* prisoners of earlier plies read on the board when this move appeared were left on */
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].ply < ply && g->pend[i].last_seen >= move_seen) g->pend[i].late = true;
    for (int i = 0; i < n; i++) {
        struct guard_event *e = ev_add(b, tmp[i].kind, tmp[i].ply, t, frame);
        if (!e) break;
        *e = tmp[i];
        if (e->kind == GUARD_MOVE && s) doubt_note(e->text, sizeof e->text, s, flushing);
        if ((e->kind == GUARD_ILLEGAL_MOVE || e->kind == GUARD_TWO_MOVES) && !g->open_ply)
            g->open_ply = ply;
    }
    /* a suicide the rules core took off at once: the stone stands on the board until restored */
    if (m.point >= 0 && go_game_at(game_of(g), m.point) == GO_EMPTY &&
        g->pt[m.point].belief == m.color)
        g->mask[m.point] = m.color;
    for (int p = 0; p < GO_POINTS; p++) {
        if (before[p] == GO_EMPTY || go_game_at(game_of(g), p) != GO_EMPTY) continue;
        if (g->pt[p].belief == GO_EMPTY) continue;
        if (seen_obs > 0 && before[p] != m.color && g->pt[p].empty_any_obs >= seen_obs) {
            /* seen taken off since the capturing stone came, before its confirmation (and
               perhaps already played on again: a snapback) */
            g->pt[p].belief = GO_EMPTY;
            continue;
        }
        if (before[p] == m.color) {
            g->mask[p] = g->pt[p].belief; /* own stones a suicide took: the board keeps them */
        } else if (g->npend < GO_POINTS) {
            struct pending *pd = &g->pend[g->npend++];
            pd->point = p;
            pd->color = before[p];
            pd->ply = ply;
            pd->t_ns = t;
            pd->obs = g->nobs;
            pd->last_seen = g->pt[p].last_known && g->pt[p].last == before[p] ? g->nobs : 0;
            pd->late = false;
        }
    }
    if (go_game_state(game_of(g)) == GO_ENDED_PASSES && g->cfg.counting_after_passes) {
        g->counting = true;
        memset(g->removed_in_count, 0, sizeof g->removed_in_count);
    }
}

/* Is a new stone of colour c, not yet played, on the board since observation obs or before
 * (confirmed or still being confirmed)? */
static bool new_stone_by(const struct go_obs_guard *g, uint8_t c, long obs)
{
    const struct go_game *game = game_of(g);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (go_game_at(game, p) != GO_EMPTY || expected_at(g, p) != GO_EMPTY) continue;
            if (s->belief == c && g->mask[p] < 0 && s->seen_obs <= obs) return true;
            long first = s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
            if (s->cand_active && s->cand == c && s->belief == GO_EMPTY && first <= obs)
                return true;
        }
    return false;
}

/* Captured stones still on the board past the configured limits. */
static void check_pending(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing,
                          struct evbuf *b)
{
    int ply = ply_of(g);
    for (int i = 0; i < g->npend;) {
        struct pending *pd = &g->pend[i];
        struct point_state *s = &g->pt[pd->point];
        if (s->last_known && s->last == pd->color) pd->last_seen = g->nobs;
        if (pd->late && g->cfg.capture_max_plies > 0 && ply - pd->ply >= g->cfg.capture_max_plies) {
            i++; /* taken off, but too late: flagged below */
            continue;
        }
        if (!pd->late && pd->last_seen > 0 && s->last_known && s->last == GO_EMPTY &&
            new_stone_by(g, pd->color, pd->last_seen)) {
            pd->late = true; /* the next move came while it was on the board: judged below */
            i++;
            continue;
        }
        if (pd->late && !new_stone_by(g, pd->color, pd->last_seen)) pd->late = false;
        if (s->belief != pd->color || (s->last_known && s->last == GO_EMPTY)) {
            /* taken off (or something else stands there now: the belief decides) */
            if (s->last_known && s->last == GO_EMPTY) s->belief = GO_EMPTY;
            pending_drop(g, i);
            continue;
        }
        i++;
    }
    /* one flag per capturing ply */
    for (int i = 0; i < g->npend; i++) {
        struct pending *pd = &g->pend[i];
        const struct go_obs_config *c = &g->cfg;
        bool late = (c->capture_max_plies > 0 && ply - pd->ply >= c->capture_max_plies) ||
                    (c->capture_max_ns > 0 && t - pd->t_ns > c->capture_max_ns) ||
                    (c->capture_max_obs > 0 && g->nobs - pd->obs > c->capture_max_obs) ||
                    (flushing && ply > pd->ply);
        bool seen_late =
            pd->late && c->capture_max_plies > 0 && ply - pd->ply >= c->capture_max_plies;
        if (!seen_late && (!late || !g->pt[pd->point].last_known)) continue;
        int cply = pd->ply;
        int pts[GO_POINTS], np = 0;
        uint8_t color = pd->color;
        for (int k = 0; k < g->npend;) {
            if (g->pend[k].ply == cply) {
                pts[np++] = g->pend[k].point;
                g->mask[g->pend[k].point] = g->pend[k].color;
                pending_drop(g, k);
            } else {
                k++;
            }
        }
        struct guard_event *e = ev_add(b, GUARD_CAPTURE_NOT_REMOVED, cply, t, frame);
        if (e) {
            e->rule_ref = "Japanese 1989 Art. 5 (captured stones are removed); Chinese 1988 §4";
            e->move.color = go_other((enum go_color)color);
            snprintf(e->text, sizeof e->text,
                     "%d %s stone%s captured at ply %d still on the board:", np, color_name(color),
                     np > 1 ? "s" : "", cply);
            strncat(e->text, " ", sizeof e->text - strlen(e->text) - 1);
            append_points(e->text, sizeof e->text, pts, np, g->h);
        }
        i = -1; /* the list changed: scan again */
    }
}

static void flag_board(struct go_obs_guard *g, const struct change *ch, int nch, int64_t t,
                       uint64_t frame, struct evbuf *b)
{
    int removed[GO_POINTS], nr = 0, other[GO_POINTS], no = 0;
    for (int i = 0; i < nch; i++) {
        if (ch[i].now == GO_EMPTY)
            removed[nr++] = ch[i].point;
        else
            other[no++] = ch[i].point;
        g->mask[ch[i].point] = ch[i].now;
    }
    int ply = ply_of(g);
    struct guard_event *e;
    /* a stone that left its point for a neighbour of the same colour */
    if (nr == 1 && no == 1 && nch == 2) {
        const struct change *from = ch[0].now == GO_EMPTY ? &ch[0] : &ch[1];
        const struct change *to = ch[0].now == GO_EMPTY ? &ch[1] : &ch[0];
        if (to->was == GO_EMPTY && to->now == from->was) {
            e = ev_add(b, GUARD_MOVED_STONE, ply, t, frame);
            if (!e) return;
            char a[8], c[8];
            e->move.color = (enum go_color)from->was;
            e->move.point = to->point;
            e->rule_ref = "Chinese 1988 §17.3; Japanese 1989 Art. 13.2";
            snprintf(e->text, sizeof e->text, "the %s stone at %s moved to %s; restore it",
                     color_name(from->was), go_point_name(from->point, g->h, a),
                     go_point_name(to->point, g->h, c));
            return;
        }
    }
    if (nch >= g->cfg.disturbed_min) {
        e = ev_add(b, GUARD_BOARD_DISTURBED, ply, t, frame);
        if (!e) return;
        e->rule_ref = "Chinese 1988 §17.4 (restore the position)";
        snprintf(e->text, sizeof e->text, "%d points changed at once; restore ply %d:", nch, ply);
        int pts[GO_POINTS];
        for (int i = 0; i < nch; i++) pts[i] = ch[i].point;
        strncat(e->text, " ", sizeof e->text - strlen(e->text) - 1);
        append_points(e->text, sizeof e->text, pts, nch, g->h);
        return;
    }
    e = ev_add(b, GUARD_STONE_REMOVED, ply, t, frame);
    if (!e) return;
    e->rule_ref = "Chinese 1988 §18";
    if (nr) {
        e->move.color = (enum go_color)ch[0].was;
        e->move.point = removed[0];
        snprintf(e->text, sizeof e->text, "stone%s taken off without capture:", nr > 1 ? "s" : "");
        strncat(e->text, " ", sizeof e->text - strlen(e->text) - 1);
        append_points(e->text, sizeof e->text, removed, nr, g->h);
    }
    if (no) {
        size_t used = strlen(e->text);
        snprintf(e->text + used, sizeof e->text - used,
                 "%sstone%s changed or added out of play:", nr ? "; " : "", no > 1 ? "s" : "");
        strncat(e->text, " ", sizeof e->text - strlen(e->text) - 1);
        append_points(e->text, sizeof e->text, other, no, g->h);
    }
}

/* After an ILLEGAL_MOVE or TWO_MOVES flag: does this change put a point back the way it was
 * before the flagged move (a restoration under way)? */
static bool restoring(const struct go_obs_guard *g, const struct change *c)
{
    return g->open_ply > 0 && g->snap[g->open_ply - 1][c->point] == c->now;
}

/* Is a stone of colour c, first seen before observation obs, still being confirmed? Then it
 * came first: the stones seen after it wait. */
static bool tentative_before(const struct go_obs_guard *g, uint8_t c, long obs)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            const struct point_state *s = &g->pt[go_point(x, y)];
            long first = s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
            if (s->cand_active && s->cand == c && s->belief == GO_EMPTY && first < obs &&
                (!s->last_known || s->last == c))
                return true;
        }
    return false;
}

/* Is a stone of colour c of the game being read as taken off (not yet confirmed) since
 * observation obs or before? A new stone of the same colour seen then may be that stone moved. */
static bool tentative_removal(const struct go_obs_guard *g, uint8_t c, long obs)
{
    const struct go_game *game = game_of(g);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (s->belief != c || go_game_at(game, p) != c || !s->cand_active ||
                s->cand != GO_EMPTY || s->last != GO_EMPTY)
                continue;
            long first = s->ep_obs[GO_EMPTY] ? s->ep_obs[GO_EMPTY] : s->cand_obs;
            if (first <= obs) return true;
        }
    return false;
}

/* A stone of the other colour out of turn may be the capture of a stone the side to move put
 * down and that came off before it could be confirmed (seen once, surely) — next to it, or
 * joined to the captured chain. Returns that point, or -1. */
static int hidden_capture(const struct go_obs_guard *g, const struct go_game *sim, int at,
                          enum go_color c, enum go_color tm)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int q = go_point(x, y);
            const struct point_state *s = &g->pt[q];
            if (q == at || s->stone_obs[tm] < g->nobs - 6 || s->stone_obs[tm] <= 0) continue;
            if (go_game_at(sim, q) != GO_EMPTY || s->belief != GO_EMPTY) continue;
            struct go_game *cp = go_game_copy(sim);
            bool ok = go_game_play(cp, (struct go_move){tm, q}).kind == GO_LEGAL &&
                      go_game_play(cp, (struct go_move){c, at}).kind == GO_LEGAL &&
                      go_game_at(cp, q) == GO_EMPTY;
            go_game_free(cp);
            if (ok) return q;
        }
    return -1;
}

/* Is a stone of the other colour, seen no later than obs, still being confirmed while it could
 * be the reply that captured a stone of the side to move seen once? Then it may come first. */
static bool tentative_hidden(const struct go_obs_guard *g, const struct go_game *sim, long obs,
                             enum go_color tm)
{
    uint8_t c = (uint8_t)go_other(tm);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            long first = s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
            if (!s->cand_active || s->cand != c || s->belief != GO_EMPTY || s->last != c ||
                first > obs || go_game_at(sim, p) != GO_EMPTY)
                continue;
            if (hidden_capture(g, sim, p, (enum go_color)c, tm) >= 0) return true;
        }
    return false;
}

/* A stone taken off that no move explains may have been captured by a stone of the side to
 * move seen once and captured back at once (a snapback): find that stone. -1 when none. */
static int hidden_capturer(const struct go_obs_guard *g, const struct go_game *sim, int removed,
                           enum go_color tm)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int q = go_point(x, y);
            const struct point_state *s = &g->pt[q];
            if (s->stone_obs[tm] < g->nobs - 6 || s->stone_obs[tm] <= 0) continue;
            if (go_game_at(sim, q) != GO_EMPTY || s->belief != GO_EMPTY) continue;
            struct go_game *cp = go_game_copy(sim);
            bool ok = go_game_play(cp, (struct go_move){tm, q}).kind == GO_LEGAL &&
                      go_game_at(cp, removed) == GO_EMPTY;
            go_game_free(cp);
            if (ok) return q;
        }
    return -1;
}

/* Does a stone of the other colour, seen among the additions, capture `point` once `a` is
 * played? Then a stone of a's colour gone at the same time was captured, not moved. */
static bool captured_by_other(const struct go_game *sim, const struct change *a,
                              const struct change *adds, int na, const bool *taken, int point)
{
    for (int k = 0; k < na; k++) {
        if (taken[k] || adds[k].now == a->now) continue;
        struct go_game *cp = go_game_copy(sim);
        enum go_color c = (enum go_color)a->now;
        if (go_game_to_move(cp) != c) go_game_play(cp, (struct go_move){go_other(c), GO_PASS});
        bool ok = go_game_play(cp, (struct go_move){c, a->point}).kind == GO_LEGAL &&
                  go_game_play(cp, (struct go_move){go_other(c), adds[k].point}).kind == GO_LEGAL &&
                  go_game_at(cp, point) == GO_EMPTY;
        go_game_free(cp);
        if (ok) return true;
    }
    return false;
}

static void explain(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing,
                    struct evbuf *b)
{
    struct change adds[GO_POINTS], rest[GO_POINTS];
    int na = 0, nrest = 0;
    const struct go_game *game = game_of(g);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            if (g->mask[p] > 0 && g->pt[p].belief == g->mask[p] &&
                go_game_at(game, p) == GO_EMPTY && g->pt[p].empty_obs == g->nobs) {
                /* a tolerated stone surely seen taken off: gone, even if a stone comes back here
                   before the empty point could be confirmed (a new move on the same point) */
                g->pt[p].belief = GO_EMPTY;
                g->mask[p] = -1;
            }
            uint8_t bel = g->pt[p].belief, exp = expected_at(g, p);
            if (g->mask[p] >= 0) {
                if (bel == exp) {
                    g->mask[p] = -1;
                    continue;
                }
                if (bel == g->mask[p]) continue;
                g->mask[p] = -1;
            }
            if (bel == exp) continue;
            int pi = pending_index(g, p);
            if (pi >= 0) {
                pending_drop(g, pi); /* a prisoner gone */
                if (bel == GO_EMPTY) continue;
            }
            struct change c = {p, (uint8_t)go_game_at(game, p), bel, g->pt[p].seen_obs};
            if (c.was == GO_EMPTY && g->nqueue > 0 && c.obs > g->queue[0].obs)
                continue; /* after a pass still waiting for the stones before it */
            if (c.was == GO_EMPTY)
                adds[na++] = c;
            else
                rest[nrest++] = c;
        }
    if (!na && !nrest) {
        g->wait_sig = 0;
        g->wait = 0;
        return;
    }
    qsort(adds, (size_t)na, sizeof *adds, cmp_change);

    /* Simulate the moves on a copy: which removals do their captures explain? A stone of the
     * wrong colour (out of turn) stops the plan: it is a flag, after a wait. */
    struct go_game *sim = go_game_copy(game);
    struct go_move plan[GUARD_OBS_MAX_EVENTS];
    int plan_from[GUARD_OBS_MAX_EVENTS], nplan = 0, handicap_left = g->handicap_left;
    const struct change *blocker = NULL;
    bool maybe = false; /* an explanation may still come: wait longer */
    bool taken[GO_POINTS] = {false};
    for (int step = 0; step < na && nplan < GUARD_OBS_MAX_EVENTS / 3; step++) {
        /* The next stone: the earliest seen of the side to move (a hand may have hidden a stone
         * longer than the reply to it); one of the other colour only when there is none. */
        enum go_color tm = go_game_to_move(sim);
        bool handicap_now = handicap_left > 0;
        int pick = -1;
        /* the earliest stone, out of turn but explained by a stone captured at once, first */
        long first_tm = -1; /* when the earliest stone of the side to move was seen */
        for (int k = 0; k < na && first_tm < 0; k++)
            if (!taken[k] && adds[k].now == tm) first_tm = adds[k].obs;
        for (int k = 0; k < na && pick < 0 && !handicap_now; k++) {
            if (taken[k]) continue;
            if (first_tm >= 0 && adds[k].obs > first_tm) break;
            if (adds[k].now != tm &&
                hidden_capture(g, sim, adds[k].point, (enum go_color)adds[k].now, tm) >= 0)
                pick = k;
        }
        for (int k = 0; k < na && pick < 0; k++)
            if (!taken[k] && !handicap_now && adds[k].now == tm) pick = k;
        for (int k = 0; k < na && pick < 0; k++)
            if (!taken[k]) pick = k;
        if (pick < 0) break;
        taken[pick] = true;
        const struct change *a = &adds[pick];
        enum go_color c = (enum go_color)a->now;
        /* the same colour taken off elsewhere at the same time: a moved stone, not a move */
        bool moved = false;
        for (int k = 0; k < nrest; k++)
            if (rest[k].now == GO_EMPTY && rest[k].was == c && rest[k].obs == a->obs &&
                go_game_at(sim, rest[k].point) == c &&
                !captured_by_other(sim, a, adds, na, taken, rest[k].point))
                moved = true;
        if (moved) {
            rest[nrest++] = *a;
            continue;
        }
        if (restoring(g, a) || tentative_before(g, a->now, a->obs) ||
            tentative_removal(g, a->now, a->obs) ||
            (c == tm && tentative_hidden(g, sim, a->obs, tm))) {
            blocker = a;
            maybe = true;
            break;
        }
        bool handicap = handicap_left > 0 && c == GO_BLACK;
        int hidden = !handicap && c != tm ? hidden_capture(g, sim, a->point, c, tm) : -1;
        if (hidden >= 0) {
            go_game_play(sim, (struct go_move){tm, hidden});
            plan[nplan] = (struct go_move){tm, hidden};
            plan_from[nplan++] = -2 - hidden;
            go_game_play(sim, (struct go_move){c, a->point});
            plan[nplan] = (struct go_move){c, a->point};
            plan_from[nplan++] = a->point;
            handicap_left = 0;
            continue;
        }
        if (!handicap && c != tm && !g->cfg.assume_pass) {
            blocker = a;
            maybe = tentative_stone(g, (uint8_t)tm);
            break;
        }
        if (!handicap && c != tm) {
            plan[nplan] = (struct go_move){tm, GO_PASS};
            plan_from[nplan++] = -1;
            go_game_play(sim, (struct go_move){tm, GO_PASS});
        }
        if (handicap) {
            handicap_left--;
            go_game_setup(sim, GO_BLACK, a->point);
        } else {
            handicap_left = 0;
            go_game_play(sim, (struct go_move){c, a->point});
        }
        plan[nplan] = (struct go_move){c, a->point};
        plan_from[nplan++] = a->point;
    }
    if (!blocker)
        for (int k = 0; k < nrest && nplan < GUARD_OBS_MAX_EVENTS / 3; k++) {
            enum go_color tm = go_game_to_move(sim);
            const struct change *r = &rest[k];
            if (r->now != GO_EMPTY || r->was != go_other(tm) ||
                go_game_at(sim, r->point) == GO_EMPTY)
                continue;
            int q = hidden_capturer(g, sim, r->point, tm);
            if (q < 0) continue;
            go_game_play(sim, (struct go_move){tm, q});
            plan[nplan] = (struct go_move){tm, q};
            plan_from[nplan++] = -2 - q;
        }
    /* What the moves do not explain: removals their captures do not cover, changed colours. */
    struct change left[GO_POINTS];
    int nleft = 0;
    for (int k = 0; k < nrest; k++) {
        const struct change *r = &rest[k];
        if (r->was != GO_EMPTY && r->now == GO_EMPTY && go_game_at(sim, r->point) == GO_EMPTY)
            continue; /* captured by a planned move */
        left[nleft++] = *r;
        if (restoring(g, r)) maybe = true;
        if (r->now == GO_EMPTY && tentative_stone(g, (uint8_t)go_other((enum go_color)r->was)))
            maybe = true; /* a capturing stone not yet confirmed */
    }
    go_game_free(sim);

    bool disturbed = nleft >= g->cfg.disturbed_min;
    /* A disturbed board: the moves seen before the disturbance still count (the flag belongs
     * after them); the rest waits for the restoration. */
    long first_bad = -1;
    for (int k = 0; k < nleft; k++)
        if (first_bad < 0 || left[k].obs < first_bad) first_bad = left[k].obs;
    if (disturbed)
        for (int k = 0; k < nplan; k++) {
            if (!ev_room(b, GUARD_MAX_EVENTS + 2) || plan_from[k] < 0) break;
            const struct point_state *s = &g->pt[plan_from[k]];
            if (s->seen_obs >= first_bad) break;
            commit_move(g, plan[k], s->seen_t, s->seen_frame, s, s->seen_obs, flushing, b);
        }
    if (!disturbed) {
        for (int k = 0; k < nplan; k++) {
            if (!ev_room(b, GUARD_MAX_EVENTS + 2)) break;
            const struct point_state *s = plan_from[k] >= 0 ? &g->pt[plan_from[k]] : NULL;
            int n0 = b->n;
            if (plan_from[k] <= -2) {
                /* seen once, captured at once */
                const struct point_state *h = &g->pt[-2 - plan_from[k]];
                int c = plan[k].color;
                commit_move(g, plan[k], h->stone_t[c], h->stone_frame[c], NULL, h->stone_obs[c],
                            false, b);
                for (int e = n0; e < b->n; e++)
                    if (b->ev[e].kind == GUARD_MOVE)
                        strncat(b->ev[e].text,
                                " (accepted under doubt: seen once, captured by the reply)",
                                sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
                continue;
            }
            commit_move(g, plan[k], s ? s->seen_t : t, s ? s->seen_frame : frame, s,
                        s ? s->seen_obs : -1, flushing, b);
            if (plan_from[k] == -1)
                for (int e = n0; e < b->n; e++)
                    if (b->ev[e].kind == GUARD_PASS) {
                        b->ev[e].reason = GUARD_REASON_SIGNAL;
                        strncat(b->ev[e].text, " (assumed: the same colour played twice)",
                                sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
                    }
        }
    }
    if (!blocker && !nleft) {
        g->wait_sig = 0;
        g->wait = 0;
        return;
    }
    uint64_t sig = 0x51;
    if (blocker) sig = mix(sig, (uint64_t)blocker->point * 3 + blocker->now);
    for (int k = 0; k < nleft; k++) sig = mix(sig, (uint64_t)left[k].point * 7 + left[k].now);
    bool ready = waited_enough(g, sig, flushing);
    if (maybe && !flushing && g->wait < 2 * g->cfg.max_wait_obs + 1) ready = false;
    if (!ready) return;
    g->wait_sig = 0;
    g->wait = 0;
    if (blocker && !disturbed && !restoring(g, blocker)) {
        /* Out of turn: two moves in a row, or an unseen pass; the rules core flags it. The rest
         * is judged at the next observation. */
        const struct point_state *s = &g->pt[blocker->point];
        if (ev_room(b, GUARD_MAX_EVENTS + 1))
            commit_move(g, (struct go_move){(enum go_color)blocker->now, blocker->point}, s->seen_t,
                        s->seen_frame, s, s->seen_obs, flushing, b);
        for (int e = 0; e < b->n; e++)
            if (b->ev[e].kind == GUARD_TWO_MOVES) {
                size_t used = strlen(b->ev[e].text);
                snprintf(b->ev[e].text + used, sizeof b->ev[e].text - used,
                         "; either %s passed unseen, or two moves in a row (Chinese 1988 §17.1): "
                         "the referee decides",
                         color_name(go_other((enum go_color)blocker->now)));
            }
        return;
    }
    if (blocker) left[nleft++] = *blocker;
    qsort(left, (size_t)nleft, sizeof *left, cmp_change);
    flag_board(g, left, nleft, t, frame, b);
}

/* ---- observing ---------------------------------------------------------------------------- */

static void count_phase(struct go_obs_guard *g)
{
    const struct go_game *game = game_of(g);
    for (int p = 0; p < GO_POINTS; p++)
        if (go_game_at(game, p) != GO_EMPTY && g->pt[p].belief == GO_EMPTY)
            g->removed_in_count[p] = 1;
}

static void pass_with_reason(struct go_obs_guard *g, enum go_color c, int64_t t, uint64_t frame,
                             const char *why, struct evbuf *b);

static const char *const pass_stone_why = "a stone put beside the board, Ing SST Art. 9";

/* Is a stone seen before observation `obs` still waiting to be confirmed or played? */
static bool stone_before(const struct go_obs_guard *g, long obs)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            /* the first reading of a stone here, of either colour (a misread colour at first) */
            long first = s->cand_obs;
            for (int c = GO_BLACK; c <= GO_WHITE; c++)
                if (s->ep_obs[c] && s->ep_obs[c] < first) first = s->ep_obs[c];
            /* still a candidate after one reading of the empty point (a misread of it) */
            if (s->cand_active && s->cand != GO_EMPTY && s->belief == GO_EMPTY && first <= obs)
                return true;
            if (s->belief != GO_EMPTY && expected_at(g, p) == GO_EMPTY && g->mask[p] < 0 &&
                s->seen_obs <= obs)
                return true;
        }
    return false;
}

/* Passes signalled, in order, once the stones seen before each are played. */
static bool commit_queue(struct go_obs_guard *g, bool flushing, struct evbuf *b)
{
    bool any = false;
    while (g->nqueue > 0 && ev_room(b, GUARD_MAX_EVENTS) && !g->counting) {
        if (!flushing && stone_before(g, g->queue[0].obs)) break;
        pass_with_reason(g, g->queue[0].who, g->queue[0].t, g->queue[0].frame, pass_stone_why, b);
        memmove(&g->queue[0], &g->queue[1], (size_t)--g->nqueue * sizeof g->queue[0]);
        any = true;
    }
    return any;
}

static int run(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing,
               struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    if (g->counting) {
        count_phase(g);
        return 0;
    }
    try_resync(g, &b, t, frame);
    check_pending(g, t, frame, false, &b);
    explain(g, t, frame, flushing, &b);
    check_pending(g, t, frame, flushing, &b);
    if (commit_queue(g, flushing, &b)) {
        explain(g, t, frame, flushing, &b); /* the stones after the pass */
        check_pending(g, t, frame, flushing, &b);
    }
    return b.n;
}

int go_obs_guard_observe(struct go_obs_guard *g, const struct observation *o,
                         struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    if (o->frame_seq && o->frame_seq == g->last_frame) return 0;
    g->last_frame = o->frame_seq;
    g->last_t = o->t_ns;
    if (!o->board_found) return 0;
    if (o->w != g->w || o->h != g->h) {
        struct evbuf b = {ev, 0};
        struct guard_event *e = ev_add(&b, GUARD_UNREADABLE, ply_of(g), o->t_ns, o->frame_seq);
        snprintf(e->text, sizeof e->text, "a %dx%d board seen; the game is %dx%d", o->w, o->h, g->w,
                 g->h);
        return b.n;
    }
    g->nobs++;
    bool changed = false;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) read_point(g, go_point(x, y), o, &changed);
    return run(g, o->t_ns, o->frame_seq, false, ev);
}

int go_obs_guard_observe_stable(struct go_obs_guard *g, const struct stable_obs *s,
                                struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    return go_obs_guard_observe(g, &s->obs, ev);
}

int go_obs_guard_flush(struct go_obs_guard *g, int64_t t_ns,
                       struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    confirm_tentative(g);
    return run(g, t_ns, g->last_frame, true, ev);
}

/* ---- passes, signals, referee -----------------------------------------------------------------
 */

static void pass_with_reason(struct go_obs_guard *g, enum go_color c, int64_t t, uint64_t frame,
                             const char *why, struct evbuf *b)
{
    int n0 = b->n;
    commit_move(g, (struct go_move){c, GO_PASS}, t, frame, NULL, -1, false, b);
    for (int i = n0; i < b->n; i++)
        if (b->ev[i].kind == GUARD_PASS && why) {
            b->ev[i].reason = GUARD_REASON_SIGNAL;
            size_t used = strlen(b->ev[i].text);
            snprintf(b->ev[i].text + used, sizeof b->ev[i].text - used, " (%s)", why);
        }
}

static int do_pass(struct go_obs_guard *g, enum go_color c, int64_t t, uint64_t frame,
                   const char *why, struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    pass_with_reason(g, c, t, frame, why, &b);
    return b.n;
}

int go_obs_guard_pass(struct go_obs_guard *g, enum go_color c, int64_t t_ns,
                      struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    return do_pass(g, c, t_ns, 0, "told by the referee", ev);
}

static int count_now(struct go_obs_guard *g, int64_t t, uint64_t frame, const char *why,
                     struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    const struct go_game *game = game_of(g);
    uint8_t dead[GO_POINTS];
    bool any = false;
    for (int p = 0; p < GO_POINTS; p++) any |= g->removed_in_count[p] != 0;
    if (any)
        memcpy(dead, g->removed_in_count, sizeof dead);
    else
        go_estimate_dead(game, dead, NULL);
    struct go_score s = go_game_count(game, dead);
    struct guard_event *e = ev_add(&b, GUARD_GAME_END, ply_of(g), t, frame);
    e->reason = GUARD_REASON_SIGNAL;
    e->rule_ref = go_game_rules(game)->ref.scoring;
    snprintf(e->text, sizeof e->text, "%s: counted %s (Black %.1f, White %.1f; dead stones %s)",
             why, s.result, s.black, s.white, any ? "as taken off the board" : "estimated");
    g->counting = false;
    return b.n;
}

int go_obs_guard_signal(struct go_obs_guard *g, enum go_obs_signal s, enum go_color who,
                        int64_t t_ns, uint64_t frame_seq,
                        struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    if ((unsigned)s >= GO_SIGNAL_COUNT || !(g->cfg.signals & (1u << s))) return 0;
    if (who != GO_BLACK && who != GO_WHITE) return 0;
    switch (s) {
    case GO_SIGNAL_PASS_STONE: {
        /* the stones seen before the pass may still be being confirmed: the pass waits */
        if (g->nqueue == (int)(sizeof g->queue / sizeof g->queue[0])) return 0;
        g->queue[g->nqueue].who = who;
        g->queue[g->nqueue].t = t_ns;
        g->queue[g->nqueue].frame = frame_seq;
        g->queue[g->nqueue].obs = g->nobs;
        g->nqueue++;
        struct evbuf b = {ev, 0};
        commit_queue(g, false, &b);
        return b.n;
    }
    case GO_SIGNAL_END_CONFIRMED:
        if (g->counting) count_phase(g);
        return count_now(g, t_ns, frame_seq,
                         who == GO_BLACK ? "Black confirms the end (Chinese 1988 §13.2)"
                                         : "White confirms the end (Chinese 1988 §13.2)",
                         ev);
    case GO_SIGNAL_RESIGN_TWO_STONES: {
        struct action a = {.kind = ACT_RESIGN, .m = {who, GO_NOPOINT}};
        hist_push(g, a);
        int n = apply_action(g, &a, t_ns, frame_seq, ev);
        if (n) {
            ev[0].frame_seq = frame_seq;
            ev[0].reason = GUARD_REASON_SIGNAL;
            size_t used = strlen(ev[0].text);
            snprintf(ev[0].text + used, sizeof ev[0].text - used,
                     " (two stones put on the board, Ing SST Art. 9)");
        }
        return n;
    }
    case GO_SIGNAL_COUNT: break;
    }
    return 0;
}

int go_obs_guard_confirm_pass(struct go_obs_guard *g, int ply, int64_t t_ns,
                              struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    int n = ply_of(g);
    if (ply < 1 || ply > n || n - ply + 3 > GUARD_OBS_MAX_EVENTS) return 0;
    int at = actions_for_ply(g, ply - 1);
    while (at < g->nhist && g->hist[at].kind != ACT_MOVE) at++;
    if (at >= g->nhist) return 0;
    int moves;
    enum go_color c = go_other(g->hist[at].m.color);
    hist_push(g, g->hist[g->nhist - 1]); /* room for one more */
    memmove(&g->hist[at + 1], &g->hist[at], (size_t)(g->nhist - 1 - at) * sizeof *g->hist);
    g->hist[at] = (struct action){.kind = ACT_MOVE, .m = {c, GO_PASS}};
    rebuild(g);
    g->open_ply = 0;
    /* Tell the record: back to ply-1, then the plies again. */
    struct evbuf b = {ev, 0};
    struct guard_event *e = ev_add(&b, GUARD_MOVE, ply - 1, t_ns, 0);
    e->reason = GUARD_REASON_TAKEBACK;
    snprintf(e->text, sizeof e->text, "the referee confirms a pass before ply %d: replaying", ply);
    moves = ply - 1;
    for (int i = at; i < g->nhist; i++) {
        if (g->hist[i].kind != ACT_MOVE) continue;
        ++moves;
        struct go_move m = g->hist[i].m;
        e = ev_add(&b, m.point == GO_PASS ? GUARD_PASS : GUARD_MOVE, moves, t_ns, 0);
        if (!e) break;
        e->move = m;
        char name[8];
        snprintf(e->text, sizeof e->text, "%s %s%s", color_name(m.color),
                 go_point_name(m.point, g->h, name),
                 moves == ply ? " (pass confirmed by the referee)" : "");
        if (moves == ply) e->reason = GUARD_REASON_SIGNAL;
    }
    return b.n;
}

int go_obs_guard_accept_position(struct go_obs_guard *g, int64_t t_ns,
                                 struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    int changed = 0;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            uint8_t bel = g->pt[p].belief;
            if (bel == go_game_at(game_of(g), p)) continue;
            struct action a = {.kind = ACT_SETUP, .m = {(enum go_color)bel, p}};
            hist_push(g, a);
            apply_action(g, &a, 0, 0, NULL);
            changed++;
        }
    snap_now(g);
    g->npend = 0;
    for (int p = 0; p < GO_POINTS; p++) g->mask[p] = -1;
    g->open_ply = 0;
    g->wait = 0;
    struct guard_event *e = ev_add(&b, GUARD_MOVE, ply_of(g), t_ns, 0);
    e->reason = GUARD_REASON_SETUP;
    snprintf(e->text, sizeof e->text,
             "the referee accepts the position on the board (%d points set up)", changed);
    return b.n;
}

int go_obs_guard_take_back(struct go_obs_guard *g, int64_t t_ns,
                           struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    int n = ply_of(g);
    if (n < 1) return 0;
    truncate_to_ply(g, n - 1);
    struct evbuf b = {ev, 0};
    struct guard_event *e = ev_add(&b, GUARD_MOVE, n - 1, t_ns, 0);
    e->reason = GUARD_REASON_TAKEBACK;
    snprintf(e->text, sizeof e->text, "the referee takes ply %d back", n);
    return b.n;
}

int go_obs_guard_set_result(struct go_obs_guard *g, enum go_game_state st, enum go_color loser,
                            int64_t t_ns, struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct evbuf b = {ev, 0};
    switch (st) {
    case GO_ENDED_RESIGN: {
        struct action a = {.kind = ACT_RESIGN, .m = {loser, GO_NOPOINT}};
        hist_push(g, a);
        return apply_action(g, &a, t_ns, 0, ev);
    }
    case GO_ENDED_TIME: {
        struct guard_event *e = ev_add(&b, GUARD_GAME_END, ply_of(g), t_ns, 0);
        snprintf(e->text, sizeof e->text, "%s loses on time (the referee)", color_name(loser));
        return b.n;
    }
    case GO_ENDED_PASSES:
        if (g->counting) count_phase(g);
        return count_now(g, t_ns, 0, "the referee counts", ev);
    default: break;
    }
    return 0;
}

void go_obs_guard_resume(struct go_obs_guard *g)
{
    g->counting = false;
    sync_beliefs_to_game(g);
}

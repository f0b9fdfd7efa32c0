/* ruleguard/guard_observe_shogi.c — shogi from observations: the square mapping, the guard's
 * life cycle, one observation through its layers, and the referee's commands.
 *
 * Layers (one file each): belief (_belief.c: a reading counts after a run of agreeing readings;
 * occluded or unsure squares and komadai out of view are no evidence), explanation (_explain.c:
 * the believed board against the game: a restoration, one or two moves through the rules core,
 * or an unexplained change), the komadai (_hand.c: captures that must reach the stand, hidden
 * pieces, the resignation signal), and the history (_history.c: the recorded-move guard of
 * guard_shogi.c, rebuilt when moves are taken back). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_shogi_internal.h"

int shogi_obs_square(int x, int y, bool sente_bottom)
{
    if (x < 0 || x > 8 || y < 0 || y > 8) return -1;
    /* sente at the bottom: the image's top-left point is 9一 */
    return sente_bottom ? shogi_sq(9 - x, y + 1) : shogi_sq(x + 1, 9 - y);
}

void shogi_obs_config_default(struct shogi_obs_config *c)
{
    memset(c, 0, sizeof *c);
    c->conf_min = 0.5f;
    c->conf_sure = 0.9f;
    c->confirm_sure = 2;
    c->confirm_any = 2;
    c->max_wait_obs = 2;
    c->hidden_wait_obs = 3;
    c->hidden_max_ns = 180 * (int64_t)1000000000;
    c->resign_hand_ns = 30 * (int64_t)1000000000;
    c->flag_takeback = true;
}

struct guard_event *sobs_event(struct sobs_evbuf *b, enum guard_kind kind, int ply, int64_t t,
                               uint64_t frame)
{
    if (b->n >= GUARD_OBS_MAX_EVENTS) return NULL;
    struct guard_event *e = &b->ev[b->n++];
    guard_event_init(e, kind, ply, t, frame);
    return e;
}

const char *sobs_side_name(int color)
{
    return color == SHOGI_SENTE ? "Sente" : "Gote";
}

void sobs_square_name(int sq, char out[4])
{
    out[0] = (char)('0' + shogi_sq_file(sq));
    out[1] = (char)('a' + shogi_sq_rank(sq) - 1);
    out[2] = '\0';
}

struct shogi_obs_guard *shogi_obs_guard_new(const struct shogi_position *start,
                                            const struct shogi_rules *rules, bool sente_bottom,
                                            const struct shogi_obs_config *cfg)
{
    struct shogi_obs_guard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    if (cfg)
        g->cfg = *cfg;
    else
        shogi_obs_config_default(&g->cfg);
    g->rules = rules ? *rules : shogi_rules_tournament;
    g->sente_bottom = sente_bottom;
    struct shogi_position even;
    if (!start) {
        shogi_position_startpos(&even);
        start = &even;
    }
    if (!sobs_restart(g, start)) {
        free(g);
        return NULL;
    }
    sobs_belief_reset(g, start);
    return g;
}

void shogi_obs_guard_free(struct shogi_obs_guard *g)
{
    if (!g) return;
    shogi_guard_free(g->guard);
    free(g->moves);
    free(g);
}

const struct shogi_game *shogi_obs_guard_game(const struct shogi_obs_guard *g)
{
    return sobs_game(g);
}

int shogi_obs_guard_ply_base(const struct shogi_obs_guard *g)
{
    return g->ply_base;
}

void shogi_obs_guard_last_good(const struct shogi_obs_guard *g, struct shogi_position *pos)
{
    *pos = sobs_game(g)->pos;
}

/* The board shows the game's position and no piece is about to appear on it (a drop being read
 * while its komadai already shows the piece gone; not a piece read once on an empty square that
 * the latest view shows empty again): what the komadai show can be judged. */
static bool board_settled(const struct shogi_obs_guard *g)
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        const struct sobs_square *s = &g->sq[sq];
        if (s->cand.active && s->belief == SHOGI_EMPTY && s->last_read != SHOGI_EMPTY) return false;
    }
    uint8_t board[SHOGI_SQUARES];
    sobs_belief_board(g, board);
    return !memcmp(board, sobs_game(g)->pos.board, SHOGI_SQUARES);
}

/* The board believed is the game's position, every square (the mask put aside). */
static bool board_in_sync(const struct shogi_obs_guard *g)
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (g->sq[sq].belief != sobs_game(g)->pos.board[sq] || g->sq[sq].cand.active) return false;
    return true;
}

static void run(struct shogi_obs_guard *g, const struct observation *o, int64_t t, uint64_t frame,
                enum sobs_mode mode, struct sobs_evbuf *b)
{
    sobs_explain(g, t, frame, mode, b);
    bool settled = board_settled(g);
    if (mode != SOBS_FLUSH_SEEN) {
        sobs_check_hands(g, t, frame, settled, b);
        sobs_check_promoted_in_hand(g, t, frame, settled, b);
    }
    if (o) sobs_check_resign(g, o, settled, b);
}

int shogi_obs_guard_observe(struct shogi_obs_guard *g, const struct observation *o,
                            struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    if (o->frame_seq && o->frame_seq == g->last_frame) return 0;
    g->last_frame = o->frame_seq;
    g->last_t = o->t_ns;
    g->nobs++;
    sobs_read(g, o);
    struct sobs_evbuf b = {ev, 0};
    run(g, o, o->t_ns, o->frame_seq, SOBS_OBSERVING, &b);
    /* before the first move, the last view that showed the start stands for the last move: a
       square unread since then is as unread since the last move (a first move made out of the
       picture before any was seen) */
    if (g->nmoves == 0 && b.n == 0 && board_in_sync(g)) g->move_obs = g->nobs;
    return b.n;
}

int shogi_obs_guard_observe_stable(struct shogi_obs_guard *g, const struct stable_obs *s,
                                   struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    /* The settler hands on a position once, after it held still over s->frames frames: that
     * run is as many readings as a change needs to be confirmed, not one (else every move
     * waits for the next one to be seen). The repeats carry no frame number (not skipped). */
    int reps = 1;
    if (s->frames >= 2)
        reps = g->cfg.confirm_sure > g->cfg.confirm_any ? g->cfg.confirm_sure : g->cfg.confirm_any;
    struct observation o = s->obs;
    int n = 0;
    long before = g->move_obs;
    for (int i = 0; i < reps; i++) {
        struct guard_event tmp[GUARD_OBS_MAX_EVENTS];
        o.frame_seq = i ? 0 : s->obs.frame_seq;
        g->view_held = s->frames >= 2 && i == reps - 1;
        int k = shogi_obs_guard_observe(g, &o, tmp);
        g->view_held = false;
        for (int j = 0; j < k && n < GUARD_OBS_MAX_EVENTS; j++) {
            ev[n] = tmp[j];
            ev[n++].frame_seq = s->obs.frame_seq;
        }
    }
    /* a move committed on this view: its repeats are the same view, no reading after the move */
    if (g->move_obs != before) g->move_obs = g->nobs;
    return n;
}

int shogi_obs_guard_flush(struct shogi_obs_guard *g, int64_t t_ns,
                          struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    /* first what was confirmed, waiting over; then what was seen but not confirmed, as moves
     * only when they are legal (a last misread is no move and no flag) */
    struct sobs_evbuf b = {ev, 0};
    run(g, NULL, t_ns, g->last_frame, SOBS_FLUSH_CONFIRMED, &b);
    /* the readings still being confirmed, the most of them that make legal moves (a misread in
       the last observation must not hide the last move) */
    int cand[SHOGI_SQUARES], nc = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (g->sq[sq].cand.active && nc < 5) cand[nc++] = sq;
    struct sobs_square saved[SHOGI_SQUARES];
    memcpy(saved, g->sq, sizeof saved);
    /* each reading in its run's value, else the latest reading there, else not at all; the
       first combination that makes a legal move stands */
    int combos = 1;
    for (int i = 0; i < nc; i++) combos *= 3;
    for (int k = 0; k < combos; k++) {
        memcpy(g->sq, saved, sizeof saved);
        int code = k;
        bool useless = false;
        for (int i = 0; i < nc; i++, code /= 3) {
            struct sobs_square *s = &g->sq[cand[i]];
            /* a run read only in doubt, the latest reading sure and another: that one first */
            bool latest_first = s->last_sure && s->cand.doubt && !s->cand.sure_seen &&
                                s->last_read != s->cand.value && s->last_read != s->belief;
            int option = code % 3;
            if (latest_first && option < 2) option ^= 1;
            if (option == 1) {
                useless |= s->last_read == s->cand.value || s->last_read == s->belief;
                s->cand.value = s->last_read;
            } else if (option == 2) {
                s->cand.active = false;
            }
        }
        if (useless) continue;
        int before = sobs_game(g)->n;
        sobs_accept_candidates(g);
        run(g, NULL, t_ns, g->last_frame, SOBS_FLUSH_SEEN, &b);
        if (sobs_game(g)->n != before) break;
    }
    return b.n;
}

int shogi_obs_guard_accept_position(struct shogi_obs_guard *g, int64_t t_ns,
                                    struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct sobs_evbuf b = {ev, 0};
    struct shogi_position p;
    shogi_position_clear(&p);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) p.board[sq] = g->sq[sq].belief;
    for (int c = 0; c < 2; c++) memcpy(p.hand[c], g->hand[c].belief, sizeof p.hand[c]);
    p.side = sobs_game(g)->pos.side;
    shogi_position_refresh(&p);
    if (!sobs_restart(g, &p)) return 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) g->mask[sq] = -1;
    for (int c = 0; c < 2; c++) memset(g->hand[c].tolerated, 0, sizeof g->hand[c].tolerated);
    struct guard_event *e = sobs_event(&b, GUARD_MOVE, g->ply_base, t_ns, g->last_frame);
    if (e) {
        char sfen[SHOGI_SFEN_MAX];
        e->reason = GUARD_REASON_SETUP;
        snprintf(e->text, sizeof e->text, "the referee accepts the position: %s",
                 shogi_sfen_format(&p, sfen, sizeof sfen));
    }
    return b.n;
}

int shogi_obs_guard_take_back(struct shogi_obs_guard *g, int64_t t_ns,
                              struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct sobs_evbuf b = {ev, 0};
    if (g->nmoves == 0) return 0;
    sobs_truncate(g, g->nmoves - 1, t_ns, g->last_frame, "the referee takes the move back", &b);
    /* the board still shows the move until it is put back: tolerate it, do not read it again */
    const struct shogi_position *pos = &sobs_game(g)->pos;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (g->sq[sq].belief != pos->board[sq]) g->mask[sq] = g->sq[sq].belief;
    return b.n;
}

int shogi_obs_guard_set_result(struct shogi_obs_guard *g, struct shogi_outcome o, int64_t t_ns,
                               struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    struct guard_event one[1];
    if (!shogi_guard_end(g->guard, o, t_ns, one)) return 0;
    ev[0] = one[0];
    ev[0].ply += g->ply_base;
    ev[0].frame_seq = g->last_frame;
    return 1;
}

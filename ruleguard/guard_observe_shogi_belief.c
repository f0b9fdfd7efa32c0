/* ruleguard/guard_observe_shogi_belief.c — readings become belief only after a run of agreeing
 * readings, so one misread (of a square or of a komadai count) never becomes a move; occluded,
 * unsure or out-of-view readings are no evidence either way. */
#include <string.h>

#include "ruleguard/guard_observe_shogi_internal.h"

void sobs_belief_reset(struct shogi_obs_guard *g, const struct shogi_position *pos)
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        memset(&g->sq[sq], 0, sizeof g->sq[sq]);
        g->sq[sq].belief = pos->board[sq];
        g->sq[sq].last_read = pos->board[sq];
        g->mask[sq] = -1;
    }
    for (int c = 0; c < 2; c++) {
        struct sobs_hand *h = &g->hand[c];
        memset(h, 0, sizeof *h);
        memcpy(h->belief, pos->hand[c], sizeof h->belief);
        h->covered_since = -1;
    }
}

static uint64_t hand_key(const uint8_t count[7])
{
    uint64_t k = 0;
    for (int i = 0; i < 7; i++) k = k << 6 | (count[i] & 63);
    return k;
}

static void hand_unkey(uint64_t k, uint8_t belief[SHOGI_HAND_TYPES])
{
    for (int i = 6; i >= 0; i--, k >>= 6) belief[i + 1] = (uint8_t)(k & 63);
    belief[0] = 0;
}

/* One readable reading of value v: true when it confirms a change of belief. A single reading
 * of a third value inside a run (a misread) neither breaks nor replaces the run; two of them in a
 * row take over. */
static bool feed(const struct shogi_obs_config *cfg, struct sobs_cand *c, uint64_t belief,
                 uint64_t v, bool sure, bool seen)
{
    bool kind_doubt = seen && !sure;
    if (v == belief && !c->active) return false;
    if (c->active && c->value != v) {
        /* the old value read again inside a run counts like any other interruption: once is a
           misread, twice in a row ends the run */
        if (c->alt_n && c->alt == v) {
            c->active = false; /* the other value again: it takes over */
            if (v == belief) {
                c->alt_n = 0;
                return false;
            }
        } else {
            c->alt = v;
            c->alt_n = 1;
            c->alt_sure = sure;
            c->alt_seen = seen;
            c->alt_kind_doubt = kind_doubt;
            return false;
        }
    }
    if (!c->active) {
        c->active = true;
        c->value = v;
        c->streak_sure = c->streak_any = 0;
        c->doubt = false;
        c->sure_seen = false;
        c->kind_doubt = false;
        if (c->alt_n && c->alt == v) { /* the interrupting value's first reading counts */
            c->streak_any = 1;
            c->streak_sure = c->alt_sure;
            c->doubt = !c->alt_sure;
            c->sure_seen = c->alt_seen;
            c->kind_doubt = c->alt_kind_doubt;
        }
    }
    c->alt_n = 0;
    c->streak_any++;
    c->streak_sure = sure ? c->streak_sure + 1 : 0;
    if (!sure) c->doubt = true;
    if (seen) c->sure_seen = true;
    if (kind_doubt) c->kind_doubt = true;
    return c->streak_sure >= cfg->confirm_sure || c->streak_any >= cfg->confirm_any;
}

bool sobs_read(struct shogi_obs_guard *g, const struct observation *o)
{
    const struct shogi_obs_config *cfg = &g->cfg;
    bool changed = false, clean = o->board_found;
    if (o->board_found) {
        for (int y = 0; y < 9; y++)
            for (int x = 0; x < 9; x++) {
                int p = y * OBS_MAX + x, sq = shogi_obs_square(x, y, g->sente_bottom);
                struct sobs_square *s = &g->sq[sq];
                uint8_t v = o->point[p];
                bool valid =
                    v == SHOGI_EMPTY || ((v & ~31) == 0 && shogi_piece_type(v) != SHOGI_NO_TYPE &&
                                         shogi_piece_type(v) < SHOGI_TYPES);
                if (!o->occluded[p] && !obs_out_of_view(o, p)) s->lit_obs = g->nobs;
                if (o->occluded[p] || o->conf[p] < cfg->conf_min || !valid) {
                    /* no evidence: keep the run as it is; the view is not clean, unless the
                       square lies out of the picture (a partial view stays so: waiting for a
                       clean one would hold every drop back until the next move came) */
                    if (!obs_out_of_view(o, p)) clean = false;
                    continue;
                }
                if (v != s->belief) {
                    bool sure = o->conf[p] >= cfg->conf_sure;
                    /* two values are kept: a doubtful one gives way before a sure one */
                    bool keep2 = s->touched_sure2 && !s->touched_sure &&
                                 g->nobs - s->touched_obs2 <= SOBS_TOUCHED_OBS;
                    if (v != s->touched_value && !keep2) {
                        s->touched_obs2 = s->touched_obs;
                        s->touched_value2 = s->touched_value;
                        s->touched_sure2 = s->touched_sure;
                    }
                    if (v != s->touched_value) s->touched_sure = false;
                    s->touched_obs = g->nobs;
                    s->touched_value = v;
                    s->touched_sure |= sure;
                }
                s->last_read = v;
                s->last_sure = o->conf[p] >= cfg->conf_sure;
                if (feed(cfg, &s->cand, s->belief, v, o->conf[p] >= cfg->conf_sure,
                         o->conf[p] >= SOBS_CONF_SEEN)) {
                    s->belief = v;
                    s->doubt = s->cand.doubt;
                    s->weak = !s->cand.sure_seen;
                    s->kind_doubt = s->cand.kind_doubt;
                    s->cand.active = false;
                    changed = true;
                }
            }
    }
    for (int c = 0; c < 2; c++) {
        const struct hand_obs *ho = &o->hands[c];
        struct sobs_hand *h = &g->hand[c];
        if (!ho->visible || ho->conf < cfg->conf_min) continue;
        bool sane = true;
        for (int i = 0; i < 7; i++) sane &= ho->count[i] <= 18;
        if (!sane) continue;
        h->read_obs = g->nobs;
        for (int i = 0; i < 7; i++) h->last_read[i + 1] = ho->count[i];
        uint8_t cur[7];
        for (int i = 0; i < 7; i++) cur[i] = h->belief[i + 1];
        bool hsure = ho->conf >= cfg->conf_sure;
        if (feed(cfg, &h->cand, hand_key(cur), hand_key(ho->count), hsure, hsure)) {
            hand_unkey(h->cand.value, h->belief);
            h->cand.active = false;
            changed = true;
        }
        /* the faces: only pieces that can promote, and no more than are there */
        uint8_t up[7], was[7];
        for (int i = 0; i < 7; i++) {
            bool can = shogi_type_can_promote((enum shogi_type)(i + 1));
            up[i] = can ? (ho->promoted[i] < ho->count[i] ? ho->promoted[i] : ho->count[i]) : 0;
            was[i] = h->promoted[i + 1];
        }
        if (feed(cfg, &h->pcand, hand_key(was), hand_key(up), hsure, hsure)) {
            hand_unkey(h->pcand.value, h->promoted);
            h->pcand.active = false;
        }
    }
    g->last_clean = clean;
    return changed;
}

void sobs_accept_candidates(struct shogi_obs_guard *g)
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        struct sobs_square *s = &g->sq[sq];
        if (!s->cand.active) continue;
        s->belief = (uint8_t)s->cand.value;
        s->doubt = true;
        s->weak = !s->cand.sure_seen;
        s->kind_doubt = s->cand.kind_doubt;
        s->cand.active = false;
    }
    for (int c = 0; c < 2; c++) {
        struct sobs_hand *h = &g->hand[c];
        if (!h->cand.active) continue;
        hand_unkey(h->cand.value, h->belief);
        h->cand.active = false;
    }
    g->last_clean = true;
}

bool sobs_any_candidate(const struct shogi_obs_guard *g)
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (g->sq[sq].cand.active) return true;
    return false;
}

void sobs_belief_board(const struct shogi_obs_guard *g, uint8_t board[SHOGI_SQUARES])
{
    const struct shogi_position *pos = &sobs_game(g)->pos;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        board[sq] = g->mask[sq] >= 0 && g->sq[sq].belief == (uint8_t)g->mask[sq] ? pos->board[sq]
                                                                                 : g->sq[sq].belief;
}

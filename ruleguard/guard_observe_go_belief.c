/* ruleguard/guard_observe_go_belief.c — per point, what is physically on the board: readings become
 * belief only when confirmed, and queries on changes still being confirmed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

/* A stone of the game (played, set up or resumed from the record) is established: read as gone
 * only in doubt, it stays until one reading of the run is sure. A stone read near conf_min flickers
 * between its colour and empty; taking it off on such readings alone flags a stone nobody touched.
 * Captured stones are no longer of the game and go as usual. */
static bool doubt_against_game(const struct go_obs_guard *g, int p, const struct point_state *s)
{
    uint8_t c = (uint8_t)go_game_at(gog_game_of(g), p);
    return c != GO_EMPTY && s->belief == c && s->cand == GO_EMPTY && s->empty_obs < s->cand_obs;
}

void gog_read_point(struct go_obs_guard *g, int p, const struct observation *o, bool *changed)
{
    struct point_state *s = &g->pt[p];
    float conf = o->conf[p];
    bool known = !o->occluded[p] && conf >= g->cfg.conf_min && o->point[p] <= OBS_WHITE;
    s->last_known = known;
    if (!known) return;
    uint8_t v = o->point[p];
    /* one doubtful reading of a third value in the middle of a run (a stone read as the other
       colour once) is a misread: the run goes on, and a second one in a row starts its own */
    if (s->cand_active && s->cand != s->belief && v != s->cand && v != s->belief &&
        conf < g->cfg.conf_sure && s->has_last && s->last == s->cand && !s->skipped) {
        s->skipped = true;
        s->last_known = false;
        return;
    }
    s->skipped = false;
    /* a stone read right after an empty reading may be a new stone even where the belief still
       holds an old one (a prisoner taken off and its point played again at once, a ko retaken) */
    bool after_empty = s->has_last && s->last == OBS_EMPTY && s->belief != OBS_EMPTY;
    /* the same stone read in the previous readable view too: the run goes on */
    bool run_goes_on = s->has_last && s->last == v && s->stone_obs[v] == s->last_obs;
    s->last = v;
    s->last_obs = g->nobs;
    s->has_last = true;
    bool sure = conf >= g->cfg.conf_sure;
    if (v == OBS_EMPTY && s->belief != OBS_EMPTY && sure) s->empty_obs = g->nobs;
    if (v == OBS_EMPTY && s->belief != OBS_EMPTY) s->empty_any_obs = g->nobs;
    if (v != OBS_EMPTY && (s->belief == OBS_EMPTY || after_empty)) {
        if (!run_goes_on) {
            s->stone_first[v] = g->nobs;
            s->stone_t[v] = gog_read_time(g, o, p);
            s->stone_frame[v] = o->frame_seq;
        }
        s->stone_obs[v] = g->nobs;
    }
    if (v == s->belief) {
        s->streak_sure = s->streak_any = 0;
        ++s->agree;
        if (s->agree == 1 && sure) {
            /* one sure reading of the belief: kept aside, in case it is the misread and the
               stone's run goes on at the next reading */
            memcpy(s->ep_keep, s->ep_obs, sizeof s->ep_keep);
            memcpy(s->ep_keep_t, s->ep_t, sizeof s->ep_keep_t);
            memcpy(s->ep_keep_frame, s->ep_frame, sizeof s->ep_keep_frame);
        }
        if (s->agree >= 2) memset(s->ep_keep, 0, sizeof s->ep_keep);
        if (s->agree >= 2 || sure) memset(s->ep_obs, 0, sizeof s->ep_obs);
        if (s->agree >= 2) s->cand_active = false;
        return;
    }
    if (s->agree == 1 && !s->ep_obs[v] && s->ep_keep[v]) {
        s->ep_obs[v] = s->ep_keep[v];
        s->ep_t[v] = s->ep_keep_t[v];
        s->ep_frame[v] = s->ep_keep_frame[v];
    }
    memset(s->ep_keep, 0, sizeof s->ep_keep);
    s->agree = 0;
    if (!s->ep_obs[v]) {
        s->ep_obs[v] = g->nobs;
        s->ep_t[v] = gog_read_time(g, o, p);
        s->ep_frame[v] = o->frame_seq;
    }
    if (s->cand_active && s->cand == v) {
        s->streak_any++;
        s->streak_sure = sure ? s->streak_sure + 1 : 0;
        if (conf < s->cand_minconf) s->cand_minconf = conf;
    } else {
        s->cand_active = true;
        s->cand = v;
        s->cand_t = gog_read_time(g, o, p);
        s->cand_frame = o->frame_seq;
        s->cand_obs = g->nobs;
        s->streak_any = 1;
        s->streak_sure = sure;
        s->cand_minconf = conf;
    }
    if (s->streak_sure >= g->cfg.confirm_sure ||
        (s->streak_any >= g->cfg.confirm_any && !doubt_against_game(g, p, s))) {
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
        s->seen_own = s->ep_obs[v];
        memset(s->ep_obs, 0, sizeof s->ep_obs);
        s->seen_doubt = s->cand_minconf < g->cfg.conf_sure;
        s->cand_active = false;
        s->streak_sure = s->streak_any = 0;
        *changed = true;
    }
}

/* Views since observation from (the last GOG_VIEWS) reading colour c at p surely. */
static int reads_since(const struct go_obs_guard *g, int p, uint8_t c, long from)
{
    int n = 0;
    for (long o = from > g->nobs - GOG_VIEWS ? from : g->nobs - GOG_VIEWS + 1; o <= g->nobs; o++)
        n += o > 0 && g->views[o % GOG_VIEWS].obs == o && g->views[o % GOG_VIEWS].v[p] == c &&
             g->views[o % GOG_VIEWS].sure[p];
    return n;
}

/* At the end of a stream: a change read in two observations in a row (or surely in two, with a
 * misread between them, the last reading its own) counts, under doubt. One reading alone stays
 * unconfirmed (it is as likely a misread). */
void gog_confirm_tentative(struct go_obs_guard *g)
{
    for (int p = 0; p < GO_POINTS; p++) {
        struct point_state *s = &g->pt[p];
        /* s->last: the last known reading (a hand over the point at the end hides nothing new) */
        if (!s->cand_active || s->last != s->cand) continue;
        if (s->streak_any < 2 &&
            reads_since(g, p, s->cand, s->ep_obs[s->cand] ? s->ep_obs[s->cand] : s->cand_obs) < 2)
            continue;
        if (doubt_against_game(g, p, s)) continue;
        s->belief = s->cand;
        s->seen_t = s->ep_obs[s->cand] ? s->ep_t[s->cand] : s->cand_t;
        s->seen_frame = s->ep_obs[s->cand] ? s->ep_frame[s->cand] : s->cand_frame;
        s->seen_obs = s->seen_own = s->ep_obs[s->cand] ? s->ep_obs[s->cand] : s->cand_obs;
        s->seen_doubt = true;
        s->cand_active = false;
    }
}

/* Is a stone of colour c being read somewhere new but not yet confirmed? */
bool gog_tentative_stone(const struct go_obs_guard *g, uint8_t c)
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

/* Is a new stone of colour c, not yet played, on the board since observation obs or before
 * (confirmed or still being confirmed)? */
bool gog_new_stone_by(const struct go_obs_guard *g, uint8_t c, long obs)
{
    const struct go_game *game = gog_game_of(g);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (go_game_at(game, p) != GO_EMPTY || gog_expected_at(g, p) != GO_EMPTY) continue;
            if (s->belief == c && g->mask[p] < 0 && s->seen_obs <= obs) return true;
            long first = s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
            if (s->cand_active && s->cand == c && s->belief == GO_EMPTY && first <= obs)
                return true;
        }
    return false;
}

/* Is a candidate's run stalled: its point unread (glare, out of the picture, hidden) in more
 * than twice max_wait_obs views since its last reading? Such a stone may never be read again; it
 * no longer holds the stones seen after it (mv4: a stone in glare, read twice in doubt, held
 * every White move for ten views). */
bool gog_cand_stalled(const struct go_obs_guard *g, const struct point_state *s)
{
    return s->cand_active && !s->last_known && g->nobs - s->last_obs > 2 * g->cfg.max_wait_obs;
}

/* Is a stone of colour c, first seen before observation obs, still being confirmed? Then it
 * came first: the stones seen after it wait (not on a stalled run). */
bool gog_tentative_before(const struct go_obs_guard *g, uint8_t c, long obs)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            const struct point_state *s = &g->pt[go_point(x, y)];
            long first = s->ep_obs[c] ? s->ep_obs[c] : s->cand_obs;
            if (s->cand_active && s->cand == c && s->belief == GO_EMPTY && first < obs &&
                (!s->last_known || s->last == c) && !gog_cand_stalled(g, s))
                return true;
        }
    return false;
}

/* Is a stone of colour c of the game being read as taken off (not yet confirmed) since
 * observation obs or before? A new stone of the same colour seen then may be that stone moved. */
bool gog_tentative_removal(const struct go_obs_guard *g, uint8_t c, long obs)
{
    const struct go_game *game = gog_game_of(g);
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

/* Is a stone seen before observation `obs` still waiting to be confirmed or played? */
bool gog_stone_before(const struct go_obs_guard *g, long obs)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            /* the first reading of the stone's colour here (a doubtful reading of the other
               colour before a pass is as likely a misread) */
            long first = s->ep_obs[s->cand] ? s->ep_obs[s->cand] : s->cand_obs;
            /* still a candidate after one reading of the empty point (a misread of it); or on a
               prisoner's point (the prisoner off, the point played again) */
            bool open = s->belief == GO_EMPTY ||
                        (go_game_at(gog_game_of(g), p) == GO_EMPTY && s->cand != s->belief);
            if (s->cand_active && s->cand != GO_EMPTY && open && first <= obs) return true;
            if (s->belief != GO_EMPTY && gog_expected_at(g, p) == GO_EMPTY && g->mask[p] < 0 &&
                (s->seen_own > 0 ? s->seen_own : s->seen_obs) <= obs)
                return true;
        }
    return false;
}

/* Is point p read as c in every readable view since observation `from`, enough times to confirm
 * a change (go_obs_config)? */
bool gog_run_confirmed(const struct go_obs_guard *g, int p, uint8_t c, long from)
{
    int any = 0, sure = 0;
    for (long o = from; o <= g->nobs; o++) {
        if (o <= g->nobs - GOG_VIEWS) continue;
        const struct gog_view *v = &g->views[o % GOG_VIEWS];
        if (v->obs != o || v->v[p] == GOG_UNREAD) continue;
        if (v->v[p] != c) return false;
        any++;
        sure += v->sure[p];
    }
    return sure >= g->cfg.confirm_sure || any >= g->cfg.confirm_any;
}

/* Was point p read empty in a view from observation `from` up to before `to`? */
bool gog_read_empty_between(const struct go_obs_guard *g, int p, long from, long to)
{
    for (long o = from; o < to; o++) {
        if (o <= g->nobs - GOG_VIEWS) continue;
        const struct gog_view *v = &g->views[o % GOG_VIEWS];
        if (v->obs == o && v->v[p] == GO_EMPTY) return true;
    }
    return false;
}

/* Was point p read empty in a view since observation `from`, and read as c (as surely as a change
 * needs) in every readable view after the last such one? A prisoner taken off and its point
 * played again: a misread of c just after the empty view joins the new stone's run. */
long gog_replayed_since(const struct go_obs_guard *g, int p, uint8_t c, long from)
{
    long last_empty = 0;
    for (long o = from; o <= g->nobs; o++) {
        if (o <= g->nobs - GOG_VIEWS) continue;
        const struct gog_view *v = &g->views[o % GOG_VIEWS];
        if (v->obs == o && v->v[p] == GO_EMPTY) last_empty = o;
    }
    if (!last_empty || last_empty == g->nobs) return 0;
    return gog_run_confirmed(g, p, c, last_empty + 1) ? last_empty + 1 : 0;
}

/* ruleguard/guard_observe_go_captures.c — captured stones still on the board: what is expected
 * there, waiting for them to come off, CAPTURE_NOT_REMOVED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

/* What should be on the board: the game's stones, plus captured stones still allowed there. */
uint8_t gog_expected_at(const struct go_obs_guard *g, int p)
{
    uint8_t c = (uint8_t)go_game_at(gog_game_of(g), p);
    if (c != GO_EMPTY) return c;
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].point == p) return g->pend[i].color;
    return GO_EMPTY;
}

void go_obs_guard_last_good(const struct go_obs_guard *g, uint8_t board[GO_POINTS])
{
    memset(board, 0, GO_POINTS);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) board[go_point(x, y)] = gog_expected_at(g, go_point(x, y));
}

int gog_pending_index(const struct go_obs_guard *g, int p)
{
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].point == p) return i;
    return -1;
}

void gog_pending_drop(struct go_obs_guard *g, int i)
{
    g->pend[i] = g->pend[--g->npend];
}

/* Is a stone of the other colour next to prisoner point p, standing in the game, surely read gone
 * at the last view? The prisoner's point was then played again and took it (a ko retaken before
 * the views confirmed the retake): not a prisoner left on the board, the next views tell. */
static bool capturer_gone(const struct go_obs_guard *g, int p, uint8_t color)
{
    static const int dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    const struct go_game *game = gog_game_of(g);
    uint8_t o = (uint8_t)go_other((enum go_color)color);
    for (int k = 0; k < 4; k++) {
        int x = go_x(p) + dir[k][0], y = go_y(p) + dir[k][1];
        if (x < 0 || y < 0 || x >= g->w || y >= g->h) continue;
        int q = go_point(x, y);
        const struct point_state *s = &g->pt[q];
        if (go_game_at(game, q) == o && s->last_known && s->last == GO_EMPTY &&
            s->empty_obs == g->nobs)
            return true;
    }
    return false;
}

/* Captured stones still on the board past the configured limits. */
void gog_check_pending(struct go_obs_guard *g, int64_t t, uint64_t frame, bool flushing,
                       struct evbuf *b)
{
    int ply = gog_ply_of(g);
    for (int i = 0; i < g->npend;) {
        struct pending *pd = &g->pend[i];
        struct point_state *s = &g->pt[pd->point];
        long again = s->belief == pd->color && s->last == pd->color
                         ? gog_replayed_since(g, pd->point, pd->color, pd->from)
                         : 0;
        if (again > 0 &&
            go_game_check(gog_game_of(g), (struct go_move){(enum go_color)pd->color, pd->point})
                    .kind == GO_LEGAL) {
            /* read gone, then a stone of its colour there again (as surely as a change needs),
               where that colour may play now: taken off, and the point played again */
            s->seen_obs = s->seen_own = s->stone_first[pd->color];
            s->seen_t = s->stone_t[pd->color];
            s->seen_frame = s->stone_frame[pd->color];
            g->replay_in_doubt = !gog_read_surely_empty_between(g, pd->point, pd->from, again);
            g->replay_point = pd->point;
            g->replay_ply = gog_ply_of(g);
            gog_pending_drop(g, i);
            continue;
        }
        if (s->last_known && s->last == pd->color) pd->last_seen = g->nobs;
        if (pd->late && g->cfg.capture_max_plies > 0 && ply - pd->ply >= g->cfg.capture_max_plies) {
            i++; /* taken off, but too late: flagged below */
            continue;
        }
        if (!pd->late && pd->last_seen > 0 && s->last_known && s->last == GO_EMPTY &&
            gog_new_stone_by(g, pd->color, pd->last_seen)) {
            pd->late = true; /* the next move came while it was on the board: judged below */
            i++;
            continue;
        }
        if (pd->late && !gog_new_stone_by(g, pd->color, pd->last_seen)) pd->late = false;
        if (s->belief != pd->color ||
            (s->last_known && s->last == GO_EMPTY && s->empty_obs == g->nobs)) {
            /* taken off (surely read empty, or something else stands there now: the belief
               decides; one doubtful empty reading of a prisoner still on is a misread) */
            if (s->last_known && s->last == GO_EMPTY) s->belief = GO_EMPTY;
            gog_pending_drop(g, i);
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
        /* flagged when the prisoner is read on its point (read gone in doubt: wait) */
        const struct point_state *ps = &g->pt[pd->point];
        if (!seen_late && (!late || !ps->last_known || ps->last != pd->color)) continue;
        if (!flushing && capturer_gone(g, pd->point, pd->color)) continue;
        int cply = pd->ply;
        int pts[GO_POINTS], np = 0;
        uint8_t color = pd->color;
        for (int k = 0; k < g->npend;) {
            if (g->pend[k].ply == cply) {
                pts[np++] = g->pend[k].point;
                g->mask[g->pend[k].point] = g->pend[k].color;
                gog_pending_drop(g, k);
            } else {
                k++;
            }
        }
        struct guard_event *e = gog_ev_add(b, GUARD_CAPTURE_NOT_REMOVED, cply, t, frame);
        if (e) {
            e->rule_ref = "Japanese 1989 Art. 5 (captured stones are removed); Chinese 1988 §4";
            e->move.color = go_other((enum go_color)color);
            snprintf(e->text, sizeof e->text,
                     "%d %s stone%s captured at ply %d still on the board:", np,
                     gog_color_name(color), np > 1 ? "s" : "", cply);
            strncat(e->text, " ", sizeof e->text - strlen(e->text) - 1);
            gog_append_points(e->text, sizeof e->text, pts, np, g->h);
        }
        i = -1; /* the list changed: scan again */
    }
}

/* Was p read surely empty in a view from observation `from` up to before `to`? */
bool gog_read_surely_empty_between(const struct go_obs_guard *g, int p, long from, long to)
{
    for (long o = from; o < to; o++) {
        if (o <= g->nobs - GOG_VIEWS) continue;
        const struct gog_view *v = &g->views[o % GOG_VIEWS];
        if (v->obs == o && v->v[p] == GO_EMPTY && v->sure[p]) return true;
    }
    return false;
}

/* A prisoner's point taken as played again on one doubtful empty reading, the new stone the last
 * move, now surely read gone (its belief empty) though the game still has it and no stone was
 * played since: it was the prisoner, taken off late, not a move. The move is taken back. */
bool gog_undo_doubtful_replay(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b)
{
    if (!g->replay_in_doubt) return false;
    int p = g->replay_point, ply = gog_ply_of(g);
    const struct action *last = g->nhist > 0 ? &g->hist[g->nhist - 1] : NULL;
    if (!last || last->kind != ACT_MOVE || last->m.point != p || ply < 1) {
        if (ply > g->replay_ply) g->replay_in_doubt = false; /* play went on without it */
        return false;
    }
    const struct point_state *s = &g->pt[p];
    if (s->belief != GO_EMPTY || go_game_at(gog_game_of(g), p) == GO_EMPTY ||
        !(s->last_known && s->last == GO_EMPTY && s->empty_obs == g->nobs))
        return false;
    g->replay_in_doubt = false;
    /* back one ply; the points tolerated after earlier flags stay tolerated */
    g->nhist = gog_actions_for_ply(g, ply - 1);
    gog_rebuild(g);
    int j = 0;
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].ply <= ply - 1) g->pend[j++] = g->pend[i];
    g->npend = j;
    struct guard_event *e = gog_ev_add(b, GUARD_MOVE, ply - 1, t, frame);
    if (e) {
        char name[8];
        e->reason = GUARD_REASON_TAKEBACK;
        snprintf(e->text, sizeof e->text,
                 "move %d taken back: the stone at %s was the prisoner, taken off late", ply,
                 go_point_name(p, g->h, name));
    }
    return true;
}

/* ruleguard/guard_observe_go_flags.c — what no move explains becomes a flag: MOVED_STONE,
 * BOARD_DISTURBED or STONE_REMOVED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

/* A board disturbed right after a move read once: the stone of the side to move read surely in
 * the view just before the disturbance, near the changed points, legal, and not read since (swept
 * off with the others) was that move; the referee's restoration brings it back. Its point, or -1
 * (none, or more than one). */
int gog_swept_move(const struct go_obs_guard *g, const struct change *ch, int nch, long first_bad)
{
    const struct go_game *game = gog_game_of(g);
    enum go_color tm = go_game_to_move(game);
    if (first_bad < 2 || first_bad - 1 <= g->nobs - GOG_VIEWS) return -1;
    const struct gog_view *v = &g->views[(first_bad - 1) % GOG_VIEWS];
    if (v->obs != first_bad - 1) return -1;
    int found = -1;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (v->v[p] != tm || !v->sure[p] || go_game_at(game, p) != GO_EMPTY ||
                s->belief != GO_EMPTY || (s->last_known && s->last == tm))
                continue;
            bool near = false;
            for (int i = 0; i < nch && !near; i++) {
                int dx = go_x(ch[i].point) - x, dy = go_y(ch[i].point) - y;
                near = dx * dx + dy * dy <= 4;
            }
            if (!near || go_game_check(game, (struct go_move){tm, p}).kind != GO_LEGAL) continue;
            if (found >= 0) return -1;
            found = p;
        }
    return found;
}

void gog_flag_board(struct go_obs_guard *g, const struct change *ch, int nch, int at_ply, int64_t t,
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
    int ply = gog_ply_of(g);
    struct guard_event *e;
    /* a stone that left its point for a neighbour of the same colour */
    if (nr == 1 && no == 1 && nch == 2) {
        const struct change *from = ch[0].now == GO_EMPTY ? &ch[0] : &ch[1];
        const struct change *to = ch[0].now == GO_EMPTY ? &ch[1] : &ch[0];
        /* a knocked or slid stone goes a line or two; a pair far apart is a stone taken off
           and one added, flagged below as that */
        int dx = abs(go_x(to->point) - go_x(from->point));
        int dy = abs(go_y(to->point) - go_y(from->point));
        if (to->was == GO_EMPTY && to->now == from->was && dx <= 2 && dy <= 2) {
            e = gog_ev_add(b, GUARD_MOVED_STONE, ply, t, frame);
            if (!e) return;
            char a[8], c[8];
            e->move.color = (enum go_color)from->was;
            e->move.point = to->point;
            e->rule_ref = "Chinese 1988 §17.3; Japanese 1989 Art. 13.2";
            snprintf(e->text, sizeof e->text, "the %s stone at %s moved to %s; restore it",
                     gog_color_name(from->was), go_point_name(from->point, g->h, a),
                     go_point_name(to->point, g->h, c));
            return;
        }
    }
    if (nch >= g->cfg.disturbed_min) {
        e = gog_ev_add(b, GUARD_BOARD_DISTURBED, ply, t, frame);
        if (!e) return;
        g->disturbed_obs = g->nobs;
        e->rule_ref = "Chinese 1988 §17.4 (restore the position)";
        snprintf(e->text, sizeof e->text, "%d points changed at once; restore ply %d:", nch, ply);
        int pts[GO_POINTS];
        for (int i = 0; i < nch; i++) pts[i] = ch[i].point;
        strncat(e->text, " ", sizeof e->text - strlen(e->text) - 1);
        gog_append_points(e->text, sizeof e->text, pts, nch, g->h);
        return;
    }
    e = gog_ev_add(b, GUARD_STONE_REMOVED, at_ply >= 0 && at_ply <= ply ? at_ply : ply, t, frame);
    if (!e) return;
    e->rule_ref = "Chinese 1988 §18";
    if (nr) {
        e->move.color = (enum go_color)ch[0].was;
        e->move.point = removed[0];
        snprintf(e->text, sizeof e->text, "stone%s taken off without capture:", nr > 1 ? "s" : "");
        strncat(e->text, " ", sizeof e->text - strlen(e->text) - 1);
        gog_append_points(e->text, sizeof e->text, removed, nr, g->h);
    }
    if (no) {
        size_t used = strlen(e->text);
        snprintf(e->text + used, sizeof e->text - used,
                 "%sstone%s changed or added out of play:", nr ? "; " : "", no > 1 ? "s" : "");
        strncat(e->text, " ", sizeof e->text - strlen(e->text) - 1);
        gog_append_points(e->text, sizeof e->text, other, no, g->h);
    }
}

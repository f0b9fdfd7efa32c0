/* ruleguard/guard_observe_go_unseen_view.c — moves played where the camera cannot look. A camera
 * that sees part of the board (or a point hidden for good) misses the moves played there: the
 * other side then seems to move twice. With points unread since the last move that could hold
 * the missing move, that is no TWO_MOVES: the move is recorded as made but not seen
 * (GUARD_REASON_UNSEEN, played as a pass in the game so that the turns go on), with the points it
 * may lie on, and the guard follows the game on. Once its stone is read on one of those points
 * (the view moved, the hand went), the moves are taken back to the ply before it and played again
 * with the point found; a point read otherwise drops out of the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

/* Points where a stone of c may stand unseen: empty in sim and believed empty, no reading being
 * confirmed there, legal for c on sim, and unread (out of the picture, hidden, or unreadable) in
 * every kept view since the last move accepted (and since observation `since`, at least two views).
 * With came_after, a point read empty in views before `since` counts too (the stone came after
 * them: ko film 180, glare, White's S15 read empty until it was put there, unreadable since);
 * callers pass the view before the other side's stone was first read, so a point is unread at
 * least from the view before that stone on (a camera turned as that stone came is no place for
 * the move: test_go_observe_unit's test_two_moves_with_points_out_of_view).
 * Fills dark[] (1 per such point) and returns how many. */
int gog_dark_points(const struct go_obs_guard *g, const struct go_game *sim, enum go_color c,
                    long since, bool came_after, uint8_t dark[GO_POINTS])
{
    memset(dark, 0, GO_POINTS);
    long from = g->anchor_obs < since ? g->anchor_obs : since;
    if (from < 1) from = 1;
    if (from <= g->nobs - GOG_VIEWS) from = g->nobs - GOG_VIEWS + 1;
    int nviews = 0;
    for (long o = from; o <= g->nobs; o++) nviews += g->views[o % GOG_VIEWS].obs == o;
    if (nviews < 2 || go_game_state(sim) != GO_PLAYING) return 0;
    int n = 0;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (go_game_at(sim, p) != GO_EMPTY || s->belief != GO_EMPTY || s->cand_active ||
                g->mask[p] >= 0)
                continue;
            bool hidden = true;
            for (long o = from; o <= g->nobs && hidden; o++) {
                const struct gog_view *v = &g->views[o % GOG_VIEWS];
                /* dark, or unreadable (glare on the point: a stone there may never be read) */
                if (v->obs == o)
                    hidden =
                        v->v[p] == GOG_UNREAD || (came_after && o < since && v->v[p] == GO_EMPTY);
            }
            if (!hidden || go_game_check(sim, (struct go_move){c, p}).kind != GO_LEGAL) continue;
            dark[p] = 1;
            n++;
        }
    return n;
}

/* The text of an unseen move: who, and where it may be. */
static void unseen_text(const struct go_obs_guard *g, const struct gog_unseen *u, char *text,
                        size_t len)
{
    int pts[GO_POINTS], n = 0;
    for (int p = 0; p < GO_POINTS; p++)
        if (u->dark[p]) pts[n++] = p;
    snprintf(text, len, "%s's move not seen: on one of %d unread point%s (or a pass): ",
             gog_color_name(u->color), n, n == 1 ? "" : "s");
    if (n > 8) n = 8;
    gog_append_points(text, len, pts, n, g->h);
    if (n < u->ndark) strncat(text, " ...", len - strlen(text) - 1);
}

/* The plan's unseen move was just committed (as a pass, events from n0): say so, and follow it. */
void gog_unseen_commit(struct go_obs_guard *g, const struct gog_plan *p, int n0, int64_t t,
                       uint64_t frame, struct evbuf *b)
{
    (void)t, (void)frame;
    enum go_color c = p->move[p->unseen_at].color;
    if (g->nunseen == GOG_UNSEEN_MAX) {
        memmove(g->unseen, g->unseen + 1, (GOG_UNSEEN_MAX - 1) * sizeof g->unseen[0]);
        g->nunseen--;
    }
    struct gog_unseen *u = &g->unseen[g->nunseen++];
    u->ply = gog_ply_of(g);
    u->color = (uint8_t)c;
    memcpy(u->dark, p->dark, GO_POINTS);
    memset(u->odd, 0, GO_POINTS);
    u->ndark = p->ndark;
    for (int e = n0; e < b->n; e++)
        if (b->ev[e].kind == GUARD_PASS) {
            b->ev[e].kind = GUARD_MOVE;
            b->ev[e].reason = GUARD_REASON_UNSEEN;
            b->ev[e].move = (struct go_move){c, GO_NOPOINT};
            unseen_text(g, u, b->ev[e].text, sizeof b->ev[e].text);
        }
}

/* After a new view: a dark point read (empty, or the other colour surely) no longer hides the
 * stone. One read as the other colour in doubt still may: it is marked odd. */
void gog_unseen_view(struct go_obs_guard *g)
{
    const struct gog_view *v = &g->views[g->nobs % GOG_VIEWS];
    if (v->obs != g->nobs) return;
    int j = 0;
    for (int i = 0; i < g->nunseen; i++) {
        struct gog_unseen *u = &g->unseen[i];
        for (int p = 0; p < GO_POINTS; p++) {
            if (!u->dark[p] || v->v[p] == GOG_UNREAD || v->v[p] == u->color) continue;
            if (v->v[p] != GO_EMPTY && !v->sure[p]) {
                u->odd[p] = 1;
                continue;
            }
            u->dark[p] = u->odd[p] = 0;
            u->ndark--;
        }
        if (u->ndark > 0)
            g->unseen[j++] = *u;
        else if (g->nlost < GOG_UNSEEN_MAX)
            g->lost[g->nlost++] = (struct gog_unseen_lost){u->ply, u->color};
    }
    g->nunseen = j;
}

void gog_unseen_flag_lost(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b)
{
    for (int i = 0; i < g->nlost; i++) {
        const struct gog_unseen_lost *l = &g->lost[i];
        if (l->ply > gog_ply_of(g)) continue; /* taken back since */
        struct guard_event *e = gog_ev_add(b, GUARD_TWO_MOVES, l->ply + 1, t, frame);
        if (!e) break;
        e->move.color = go_other((enum go_color)l->color);
        e->rule_ref = "Chinese 1988 §17.1";
        snprintf(e->text, sizeof e->text,
                 "%s's move not seen at ply %d lies on none of its points (all read without it "
                 "since): %s played twice, or %s passed (recorded as a pass)",
                 gog_color_name(l->color), l->ply, gog_color_name(go_other(l->color)),
                 gog_color_name(l->color));
    }
    g->nlost = 0;
}

/* Moves taken back to ply: the unseen moves after it are gone. */
void gog_unseen_truncate(struct go_obs_guard *g, int ply)
{
    int j = 0;
    for (int i = 0; i < g->nunseen; i++)
        if (g->unseen[i].ply <= ply) g->unseen[j++] = g->unseen[i];
    g->nunseen = j;
}

/* Replay the history with action k's move at point q into a scratch guard: false when any move
 * from k on is then flagged (the stone cannot have stood there). With removed[] (and nadd stones
 * of the other colour, adds[], played after it): true only when they are legal and every point
 * of removed[] and q itself are then empty (the unseen stone's chain taken off with the stones
 * seen going, by a move already played or by the new stones). */
static bool replays_clean(struct go_obs_guard *g, int k, int q, const int *adds, int nadd,
                          const int *removed, int nremoved, bool q_stays)
{
    struct go_guard *save = g->guard;
    int left = g->handicap_left;
    g->guard = go_guard_new(g->w, g->h, &g->rules);
    struct action keep = g->hist[k];
    g->hist[k].m.point = q;
    bool clean = true;
    struct guard_event ev[GUARD_MAX_EVENTS];
    for (int i = 0; i < g->nhist && clean; i++) {
        int n = gog_apply_action(g, &g->hist[i], 0, 0, ev);
        for (int e = 0; e < n && i >= k; e++) clean &= !guard_is_flag(ev[e].kind);
    }
    if (clean && (nadd > 0 || nremoved > 0)) {
        struct go_game *cp = go_game_copy(gog_game_of(g));
        enum go_color other = go_other((enum go_color)keep.m.color);
        for (int a = 0; a < nadd && clean; a++) {
            if (go_game_to_move(cp) != other)
                go_game_play(cp, (struct go_move){keep.m.color, GO_PASS});
            clean = go_game_play(cp, (struct go_move){other, adds[a]}).kind == GO_LEGAL;
        }
        for (int r = 0; r < nremoved && clean; r++) clean = go_game_at(cp, removed[r]) == GO_EMPTY;
        clean = clean && go_game_at(cp, q) == (q_stays ? keep.m.color : GO_EMPTY);
        go_game_free(cp);
    }
    g->hist[k] = keep;
    go_guard_free(g->guard);
    g->guard = save;
    g->handicap_left = left;
    return clean;
}

/* Stones of colour c the game has that are believed gone (removed[]), and new stones of the
 * other colour (adds[], at most two): a capture the game cannot explain as it stands. */
static void capture_unexplained(const struct go_obs_guard *g, uint8_t c, int *removed, int *nrem,
                                int *adds, int *nadd)
{
    const struct go_game *game = gog_game_of(g);
    *nrem = *nadd = 0;
    uint8_t o = (uint8_t)go_other((enum go_color)c);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (g->mask[p] >= 0 || gog_pending_index(g, p) >= 0) continue;
            if (go_game_at(game, p) == c && s->belief == GO_EMPTY) removed[(*nrem)++] = p;
            if (go_game_at(game, p) == GO_EMPTY && s->belief == o && *nadd < 3) adds[(*nadd)++] = p;
        }
    if (*nadd > 2) *nrem = 0;
}

/* near[p] = 1 for the points next to the game's chains through removed[] (where a stone joining
 * them could stand): the unseen stone captured with them must be one of those. */
static void near_chains(const struct go_obs_guard *g, const int *removed, int nrem,
                        uint8_t near[GO_POINTS])
{
    static const int dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    const struct go_game *game = gog_game_of(g);
    memset(near, 0, GO_POINTS);
    for (int r = 0; r < nrem; r++) {
        int chain[GO_POINTS];
        int n = go_game_chain(game, removed[r], chain);
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 4; k++) {
                int x = go_x(chain[i]) + dir[k][0], y = go_y(chain[i]) + dir[k][1];
                if (x >= 0 && y >= 0 && x < g->w && y < g->h) near[go_point(x, y)] = 1;
            }
    }
}

/* Stones of the other colour than c that the game has and that are read gone for good (believed
 * empty, read empty last), with nothing pending or masked there: at most 8, else none. */
static int gone_of_other(const struct go_obs_guard *g, uint8_t c, int removed[8])
{
    const struct go_game *game = gog_game_of(g);
    uint8_t o = (uint8_t)go_other((enum go_color)c);
    int n = 0;
    for (int p = 0; p < GO_POINTS; p++) {
        const struct point_state *s = &g->pt[p];
        if (g->mask[p] >= 0 || gog_pending_index(g, p) >= 0 || go_game_at(game, p) != o ||
            s->belief != GO_EMPTY || !s->has_last || s->last != GO_EMPTY)
            continue;
        if (n == 8) return 0;
        removed[n++] = p;
    }
    return n;
}

/* Was q read in doubt (not surely) in a kept view, and never read as the colour o? A stone in
 * glare may read empty, surely, in most views: one read in doubt is what shows it may stand. */
static bool doubted_in_views(const struct go_obs_guard *g, int q, uint8_t o)
{
    bool doubt = false;
    for (long v = g->nobs; v > g->nobs - GOG_VIEWS && v >= 1; v--) {
        const struct gog_view *w = &g->views[v % GOG_VIEWS];
        if (w->obs != v || w->v[q] == GOG_UNREAD) continue;
        if (w->v[q] == o) return false;
        doubt |= w->doubt[q] != 0;
    }
    return doubt;
}

/* An unseen move of colour u->color (action k) that captures, with the moves after it, the
 * stones of the other colour read gone that no move explains: it lies on a liberty of their
 * chains, empty in the game and read there in doubt (glare: suicide film 35, Black's stone read
 * surely empty in most views, White's stone beside it captured three moves later). The point, or
 * -1 when none or more than one fits. */
static int found_by_its_capture(struct go_obs_guard *g, const struct gog_unseen *u, int k,
                                int removed[8], int *nrem)
{
    const struct go_game *game = gog_game_of(g);
    uint8_t o = (uint8_t)go_other((enum go_color)u->color);
    *nrem = gone_of_other(g, u->color, removed);
    if (*nrem == 0) return -1;
    uint8_t near[GO_POINTS];
    near_chains(g, removed, *nrem, near);
    int found = -1, seen = 0;
    for (int q = 0; q < GO_POINTS && seen < 2; q++) {
        const struct point_state *s = &g->pt[q];
        if (!near[q] || g->mask[q] >= 0 || go_game_at(game, q) != GO_EMPTY ||
            s->belief != GO_EMPTY || s->cand_active || !doubted_in_views(g, q, o))
            continue;
        if (replays_clean(g, k, q, NULL, 0, removed, *nrem, true)) found = q, seen++;
    }
    return seen == 1 ? found : -1;
}

/* After the capture found: a stone of colour o read again on the captured point r (read gone,
 * then surely there, now gone) was put back there, and is illegal there (a suicide): it was
 * taken back before it was judged. Flagged as such (ILLEGAL_MOVE, the ply after the last). */
static void flag_put_back(struct go_obs_guard *g, int r, uint8_t o, int64_t t, uint64_t frame,
                          struct evbuf *b)
{
    int state = 0, back = 0;
    long from = g->nobs - GOG_VIEWS + 1 < 1 ? 1 : g->nobs - GOG_VIEWS + 1;
    for (long v = from; v <= g->nobs; v++) {
        const struct gog_view *w = &g->views[v % GOG_VIEWS];
        if (w->obs != v || w->v[r] == GOG_UNREAD || !w->sure[r]) continue;
        if (state == 0 && w->v[r] == GO_EMPTY)
            state = 1;
        else if (state >= 1 && w->v[r] == o)
            state = 2, back++;
        else if (state == 2 && w->v[r] == GO_EMPTY)
            state = 3;
    }
    if (state != 3 || back < 2) return;
    struct go_move m = {(enum go_color)o, r};
    struct go_verdict v = go_game_check(gog_game_of(g), m);
    if (v.kind != GO_ILLEGAL_SUICIDE) return;
    gog_flag_taken_back(b, m, v, gog_ply_of(g) + 1, t, frame);
}

/* An unseen move of colour u->color (action k) whose stone is read in the other colour: one of
 * its dark points believed the other colour, read so only in doubt (odd), and first read before
 * a move of that colour accepted since (so no move of its own: that move's turn came after it).
 * Glare names a stone's colour wrongly (moved-stone film 4: Black's E11, unseen, read as White
 * at 0.83). The point, or -1 when none or more than one fits. */
static int misread_colour(struct go_obs_guard *g, const struct gog_unseen *u, int k)
{
    const struct go_game *game = gog_game_of(g);
    uint8_t o = (uint8_t)go_other((enum go_color)u->color);
    int found = -1, seen = 0;
    for (int p = 0; p < GO_POINTS && seen < 2; p++) {
        const struct point_state *s = &g->pt[p];
        if (!u->dark[p] || !u->odd[p] || s->belief != o || go_game_at(game, p) != GO_EMPTY ||
            g->mask[p] >= 0)
            continue;
        long first = s->seen_own > 0 ? s->seen_own : s->seen_obs;
        bool later = false;
        for (int a = k + 1; a < g->nhist && !later; a++) {
            const struct action *m = &g->hist[a];
            int q = m->m.point;
            later = m->kind == ACT_MOVE && m->m.color == o && q >= 0 && q < GO_POINTS &&
                    go_game_at(game, q) == o && g->pt[q].seen_obs > first;
        }
        if (later && replays_clean(g, k, p, NULL, 0, NULL, 0, false)) found = p, seen++;
    }
    return seen == 1 ? found : -1;
}

/* A stone of an unseen move's colour now believed on one of its dark points (and on no other):
 * the move is found. The moves go back to the ply before it and are played again, the found one
 * on its point (events: the take-back, then the moves). */
bool gog_unseen_resolve(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b)
{
    const struct go_game *game = gog_game_of(g);
    for (int i = g->nunseen - 1; i >= 0; i--) {
        struct gog_unseen *u = &g->unseen[i];
        int found = -1, seen = 0;
        for (int p = 0; p < GO_POINTS; p++)
            if (u->dark[p] && g->pt[p].belief == u->color && go_game_at(game, p) == GO_EMPTY &&
                g->mask[p] < 0)
                found = p, seen++;
        int ply = gog_ply_of(g);
        if (!gog_ev_room(b, ply - u->ply + 2)) continue;
        int k = gog_actions_for_ply(g, u->ply - 1);
        if (k >= g->nhist || g->hist[k].kind != ACT_MOVE || g->hist[k].m.point != GO_PASS ||
            g->hist[k].m.color != u->color)
            continue;
        const char *how = "seen now";
        int took[8], ntook = 0;
        bool misread = false;
        if (seen == 0) {
            /* or its chain captured: stones of its colour read gone that a new stone of the
               other colour captures only with the unseen stone on one of its points */
            int removed[GO_POINTS], nrem, adds[3], nadd;
            capture_unexplained(g, u->color, removed, &nrem, adds, &nadd);
            if (nrem > 0) {
                uint8_t near[GO_POINTS];
                near_chains(g, removed, nrem, near);
                for (int p = 0; p < GO_POINTS && seen < 2; p++)
                    if (u->dark[p] && near[p] &&
                        replays_clean(g, k, p, adds, nadd, removed, nrem, false))
                        found = p, seen++;
                how = "captured with the stones seen going";
            } else if ((found = found_by_its_capture(g, u, k, took, &ntook)) >= 0) {
                seen = 1;
                how = "found by the stones it captured (read in doubt there)";
            } else if ((found = misread_colour(g, u, k)) >= 0) {
                seen = 1;
                misread = true;
                how = "its stone read there in the other colour, in doubt";
            }
        } else if (seen == 1 && !replays_clean(g, k, found, NULL, 0, NULL, 0, false)) {
            continue;
        }
        if (seen != 1) continue;
        int ufound = u->ply;
        enum go_color color = (enum go_color)u->color;
        /* the unseen moves after this one, to be said again as such */
        struct gog_unseen later[GOG_UNSEEN_MAX];
        int nlater = 0;
        for (int j = i + 1; j < g->nunseen; j++) later[nlater++] = g->unseen[j];
        g->nunseen = i; /* this one found; the later ones come back below */
        struct action *tail = malloc((size_t)(g->nhist - k) * sizeof *tail);
        if (!tail) return false;
        int ntail = g->nhist - k;
        memcpy(tail, g->hist + k, (size_t)ntail * sizeof *tail);
        tail[0].m.point = found;
        int npend = g->npend;
        struct pending pend[GO_POINTS];
        memcpy(pend, g->pend, (size_t)npend * sizeof pend[0]);
        int16_t mask[GO_POINTS]; /* the readings tolerated after flags stay so */
        memcpy(mask, g->mask, sizeof mask);
        gog_truncate_to_ply(g, ufound - 1);
        struct guard_event *e = gog_ev_add(b, GUARD_MOVE, ufound - 1, t, frame);
        if (e) {
            char name[8];
            e->reason = GUARD_REASON_TAKEBACK;
            snprintf(e->text, sizeof e->text,
                     "the move of ply %d, not seen, is %s: %s %s; moves %d..%d played again",
                     ufound, how, gog_color_name(color), go_point_name(found, g->h, name), ufound,
                     ply);
        }
        for (int a = 0; a < ntail; a++) {
            int n0 = b->n;
            struct guard_event tmp[GUARD_MAX_EVENTS];
            int n = gog_apply_action(g, &tail[a], t, frame, tmp);
            gog_hist_push(g, tail[a]);
            gog_snap_now(g);
            for (int x = 0; x < n; x++) {
                struct guard_event *ne = gog_ev_add(b, tmp[x].kind, tmp[x].ply, t, frame);
                if (ne) *ne = tmp[x];
            }
            if (a == 0) gog_doubt_events(b, n0, "not seen when played: found later");
            for (int j = 0; j < nlater; j++)
                if (later[j].ply == gog_ply_of(g) && g->nunseen < GOG_UNSEEN_MAX) {
                    g->unseen[g->nunseen++] = later[j];
                    for (int x = n0; x < b->n; x++)
                        if (b->ev[x].kind == GUARD_PASS) {
                            b->ev[x].kind = GUARD_MOVE;
                            b->ev[x].reason = GUARD_REASON_UNSEEN;
                            b->ev[x].move =
                                (struct go_move){(enum go_color)later[j].color, GO_NOPOINT};
                            unseen_text(g, &later[j], b->ev[x].text, sizeof b->ev[x].text);
                        }
                }
        }
        free(tail);
        /* prisoners still on the board stay pending as before */
        g->npend = npend;
        memcpy(g->pend, pend, (size_t)npend * sizeof pend[0]);
        memcpy(g->mask, mask, sizeof mask);
        /* a stone found by its capture is read empty (glare): that reading is tolerated there,
           as after a flag, until it is read in its colour or the game empties the point */
        if (ntook > 0) g->mask[found] = GO_EMPTY;
        /* a stone read in the other colour: that reading is tolerated there likewise */
        if (misread) g->mask[found] = g->pt[found].belief;
        for (int r = 0; r < ntook; r++)
            flag_put_back(g, took[r], (uint8_t)go_other(color), t, frame, b);
        return true;
    }
    return false;
}

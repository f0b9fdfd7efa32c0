/* ruleguard/guard_observe_go_plan.c — the multi-move fit: the new stones, in the order they were
 * first seen, played as moves of alternating colours on a copy of the game, so that their captures
 * explain the stones taken off. What the plan cannot play (a stone out of turn, an illegal move, a
 * stone still being confirmed) stops it; what its captures do not cover is left over for a flag.
 * Nothing is committed here (guard_observe_go_commit_plan.c does that), so the guard can still
 * read the views back first (guard_observe_go_decode.c).
 */
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

/* After an ILLEGAL_MOVE or TWO_MOVES flag: does this change put a point back the way it was
 * before the flagged move (a restoration under way)? */
bool gog_restoring(const struct go_obs_guard *g, const struct change *c)
{
    return g->open_ply > 0 && g->snap[g->open_ply - 1][c->point] == c->now;
}

/* New stones of colour tm, not yet planned, all first read (in any confidence) after
 * observation obs, at least one? One read as early may be tm's move itself. */
static bool reply_after(const struct go_obs_guard *g, const struct change *adds, int na,
                        const bool *taken, uint8_t tm, long obs)
{
    bool any = false;
    for (int k = 0; k < na; k++) {
        if (taken[k] || adds[k].now != tm) continue;
        long first = g->pt[adds[k].point].stone_first[tm];
        if (adds[k].obs <= obs || (first > 0 && first <= obs)) return false;
        any = true;
    }
    return any;
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

/* Is a new stone of colour c, on a point empty in the game, still being confirmed (it may
 * capture what was taken off)? A stone read again where the game has one is a restoration. */
static bool tentative_capturer(const struct go_obs_guard *g, uint8_t c)
{
    const struct go_game *game = gog_game_of(g);
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            if (s->cand_active && s->cand == c && s->belief == GO_EMPTY &&
                go_game_at(game, p) == GO_EMPTY && (!s->last_known || s->last == c))
                return true;
        }
    return false;
}

/* A stone of colour c on a point the plan leaves empty, still being confirmed (as
 * gog_tentative_stone): with `chain`, on a liberty of the chain at `point` in sim (it may capture
 * it); else at most two lines from `point` (a stone slid there). */
static bool tentative_near(const struct go_obs_guard *g, const struct go_game *sim, int point,
                           uint8_t c, bool chain)
{
    int pts[GO_POINTS], n = 1;
    pts[0] = point;
    if (chain && go_game_at(sim, point) != GO_EMPTY) n = go_game_chain(sim, point, pts);
    int reach = chain ? 1 : 2;
    for (int i = 0; i < n; i++) {
        int x0 = go_x(pts[i]), y0 = go_y(pts[i]);
        for (int y = y0 - reach; y <= y0 + reach; y++)
            for (int x = x0 - reach; x <= x0 + reach; x++) {
                if (x < 0 || y < 0 || x >= g->w || y >= g->h) continue;
                if (chain && abs(x - x0) + abs(y - y0) != 1) continue;
                int q = go_point(x, y);
                const struct point_state *s = &g->pt[q];
                if (go_game_at(sim, q) == GO_EMPTY && s->cand_active && s->cand == c &&
                    s->belief == GO_EMPTY && (!s->last_known || s->last == c))
                    return true;
            }
    }
    return false;
}

/* Is the stone gone at r alone: no stone of the game beside it (its going is not read against
 * stones read around it) and no other change, nor a stone still being confirmed, within two
 * lines? A reader's misread of one stone (a glint, a side view) looks so, and the stone comes
 * back some views later; a stone taken off stays gone. */
static bool lone_removal(const struct go_obs_guard *g, const struct gog_diff *d,
                         const struct change *r)
{
    const struct go_game *game = gog_game_of(g);
    int x0 = go_x(r->point), y0 = go_y(r->point);
    for (int y = y0 - 2; y <= y0 + 2; y++)
        for (int x = x0 - 2; x <= x0 + 2; x++) {
            if (x < 0 || y < 0 || x >= g->w || y >= g->h || (x == x0 && y == y0)) continue;
            int q = go_point(x, y);
            if (abs(x - x0) + abs(y - y0) == 1 && go_game_at(game, q) != GO_EMPTY) return false;
            if (g->pt[q].cand_active) return false;
        }
    for (int k = 0; k < d->na; k++)
        if (abs(go_x(d->adds[k].point) - x0) <= 2 && abs(go_y(d->adds[k].point) - y0) <= 2)
            return false;
    for (int k = 0; k < d->nrest; k++)
        if (d->rest[k].point != r->point && abs(go_x(d->rest[k].point) - x0) <= 2 &&
            abs(go_y(d->rest[k].point) - y0) <= 2)
            return false;
    return true;
}

/* Did a view from the first sight of `earlier` on, before `later` was first seen, surely read
 * the one stone and surely read the other's point empty (or two such views read the stone, in
 * doubt: a dim stone is seldom read surely)? Then `later` was put after it: the order is not a
 * guess (a hand hiding the later stone would leave its point unread). Not when `later` was read
 * in any view before, or `earlier` read gone in one from its first sight up to `later`'s: a stone
 * read once and then not is a misread, no evidence of order. */
static bool surely_after(const struct go_obs_guard *g, const struct change *earlier,
                         const struct change *later)
{
    bool shown = false;
    int read = 0;
    for (long o = g->nobs - GOG_VIEWS + 1; o <= later->obs; o++) {
        const struct gog_view *v = &g->views[(o > 0 ? o : 0) % GOG_VIEWS];
        if (o <= 0 || v->obs != o) continue;
        bool before = o < later->obs;
        if (before && v->v[later->point] == later->now) return false;
        if (o < earlier->obs) continue;
        if (v->v[earlier->point] == GO_EMPTY) return false;
        bool both = before && v->v[earlier->point] == earlier->now &&
                    v->v[later->point] == GO_EMPTY && v->sure[later->point];
        shown |= both && v->sure[earlier->point];
        read += both;
    }
    return shown || read >= 2;
}

/* Stones first read in one view at least this far apart by the settler's times (gog_read_time)
 * came in that order: a move's stone is read a moment after the hand leaves it, and a hand over
 * two points uncovers them within a few frames of each other. */
#define ORDER_APART_NS 1000000000

/* Is stone k of the side to move surely put after a stone of the other colour not yet played?
 * Then that stone comes first, out of turn. Surely: a view read the one and not the other
 * (surely_after); or, while the side to move has points unread since its last move (out of the
 * picture, hidden, in glare) where its move may have gone unseen, the other stone, first read in
 * the same view, was read ORDER_APART_NS before it: moves out of the picture, an odd number, then
 * that stone, then k. (Not a stone read in an earlier view and waiting since: a stone left
 * unexplained while the game goes on says nothing of the order of the next moves.)
 * Asked of the first move only: after a guessed move the side to move is itself a guess. */
static bool after_other(const struct go_obs_guard *g, const struct go_game *sim,
                        const struct gog_diff *d, const bool *taken, int k)
{
    const struct change *a = &d->adds[k];
    enum go_color tm = (enum go_color)a->now;
    for (int j = 0; j < d->na; j++) {
        const struct change *o = &d->adds[j];
        if (taken[j] || o->now == a->now || o->obs > a->obs) continue;
        if (o->obs < a->obs && surely_after(g, o, a)) return true;
        uint8_t dark[GO_POINTS];
        if (!g->cfg.assume_pass && o->obs == a->obs && o->t + ORDER_APART_NS <= a->t &&
            !gog_tentative_stone(g, (uint8_t)tm) &&
            gog_dark_points(g, sim, tm, o->obs, false, dark) > 0)
            return true;
    }
    return false;
}

/* Was the move before the next one of the plan a pass? (A move not seen, played as a pass,
 * must not make two passes in a row: the game would end.) */
static bool pass_before(const struct go_obs_guard *g, const struct gog_plan *p)
{
    if (p->n > 0) return p->move[p->n - 1].point == GO_PASS;
    for (int i = g->nhist - 1; i >= 0; i--)
        if (g->hist[i].kind == ACT_MOVE) return g->hist[i].m.point == GO_PASS;
    return false;
}

/* Stones of one colour first read in one view within ORDER_TIE_NS of each other (uncovered
 * together, when a hand left): which came first is a guess. */
#define ORDER_TIE_NS 100000000
static bool order_guessed(const struct gog_diff *d, const struct change *a)
{
    for (int k = 0; k < d->na; k++) {
        const struct change *o = &d->adds[k];
        if (o != a && o->now == a->now && o->obs == a->obs && llabs(o->t - a->t) < ORDER_TIE_NS)
            return true;
    }
    return false;
}

/* A stone seen once (read in one view or two in a row, gone since or still being confirmed), to
 * be played where its reading puts it among the stones of its colour (gog_plan_moves, below). */
struct seen_once {
    int point;
    enum go_color color;
    int64_t t; /* when it was read */
};

/* A stone of the side to move put before a stone of the other colour read earlier (the
 * alternation asks it), while a stone of its colour was read before that one in one view and not
 * since (glare, a hand; or captured before another view): that stone may be the move between
 * them. Its point, or -1. Asked for a few views after it was read (then the plan goes on as if it
 * were a misread), not of `skip` (the plan plays it). */
static int seen_once_between(const struct go_obs_guard *g, const struct go_game *sim,
                             const struct gog_diff *d, const bool *taken, const struct change *a,
                             int skip)
{
    uint8_t c = a->now;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int q = go_point(x, y);
            const struct point_state *s = &g->pt[q];
            if (q == skip || s->belief != GO_EMPTY || go_game_at(sim, q) != GO_EMPTY) continue;
            long obs;
            int64_t t;
            if (s->cand_active && s->cand == c) {
                obs = s->cand_obs, t = s->cand_t; /* still being confirmed */
            } else if (s->stone_first[c] > 0 && s->stone_obs[c] - s->stone_first[c] <= 1 &&
                       s->has_last && s->last != c) {
                /* read in one view (or two in a row, unconfirmed), gone since */
                obs = s->stone_first[c], t = s->stone_t[c];
            } else {
                continue;
            }
            if (obs > a->obs || t >= a->t || g->nobs - obs > 2 * g->cfg.max_wait_obs) continue;
            for (int k = 0; k < d->na; k++)
                if (!taken[k] && d->adds[k].now != c && d->adds[k].obs <= a->obs &&
                    d->adds[k].t < a->t && t < d->adds[k].t)
                    return q;
            /* or a stone of the other colour between them still being confirmed, read in the
               last view (a dim stone read in doubt: removed-stone film 20's D11 at 0.89): the
               order waits for it */
            for (int r = 0; r < GO_POINTS; r++) {
                const struct point_state *o = &g->pt[r];
                if (r == q || !o->cand_active || o->cand == c || o->cand == GO_EMPTY ||
                    o->belief != GO_EMPTY || !o->last_known || o->last != o->cand)
                    continue;
                if (o->cand_obs <= a->obs && o->cand_t < a->t && t < o->cand_t) return q;
            }
        }
    return -1;
}

/* Simulate the moves on a copy: which removals do their captures explain? A stone of the wrong
 * colour (out of turn) stops the plan: it is a flag, after a wait. Moves rest[] on (a moved stone
 * is a change no move explains). With `early`, that stone is played, in turn, before the first
 * stone of its colour read after it. */
static void plan_moves(const struct go_obs_guard *g, struct gog_diff *d, bool flushing,
                       struct gog_plan *p, const struct seen_once *early)
{
    const struct go_game *game = gog_game_of(g);
    struct go_game *sim = go_game_copy(game);
    int handicap_left = g->handicap_left;
    memset(p, 0, sizeof *p);
    p->unseen_at = -1;
    p->seen_once = -1;
    p->early_gone = -1;
    for (int k = 0; k < GUARD_OBS_MAX_EVENTS; k++) p->unseen_by[k] = p->unseen_fits[k] = -1;
    const struct change *blocker = NULL;
    bool taken[GO_POINTS] = {false};
    int nrest0 = d->nrest; /* the changes besides new stones, before moved stones join them */
    bool early_played = false;
    for (int step = 0; step < d->na + (early != NULL) && p->n < GUARD_OBS_MAX_EVENTS / 3; step++) {
        /* The next stone: the earliest seen of the side to move (a hand may have hidden a stone
         * longer than the reply to it); one of the other colour only when there is none. */
        enum go_color tm = go_game_to_move(sim);
        bool handicap_now = handicap_left > 0;
        int pick = -1;
        /* the earliest stone, out of turn but explained by a stone captured at once, first */
        long first_tm = -1; /* when the earliest stone of the side to move was seen */
        for (int k = 0; k < d->na && first_tm < 0; k++)
            if (!taken[k] && d->adds[k].now == tm) first_tm = d->adds[k].obs;
        for (int k = 0; k < d->na && pick < 0 && !handicap_now; k++) {
            if (taken[k]) continue;
            if (first_tm >= 0 && d->adds[k].obs > first_tm) break;
            if (d->adds[k].now == tm) continue;
            int fits;
            int q = gog_hidden_capture(
                g, sim, d->adds[k].point, d->adds[k].obs, (enum go_color)d->adds[k].now, tm,
                reply_after(g, d->adds, d->na, taken, (uint8_t)tm, d->adds[k].obs) ? &fits : NULL);
            /* first read with a stone of the side to move, the stone "seen" at q being a
               prisoner of the last move read before it came off: that stone first explains both */
            int ply = gog_ply_of(g);
            if (q >= 0 && d->adds[k].obs == first_tm && ply > 0 && g->snap[ply - 1][q] == tm &&
                go_game_at(game, q) == GO_EMPTY)
                continue;
            if (q >= 0) pick = k;
        }
        for (int k = 0; k < d->na && pick < 0; k++)
            if (!taken[k] && !handicap_now && d->adds[k].now == tm &&
                (p->n > 0 || !after_other(g, sim, d, taken, k)))
                pick = k;
        for (int k = 0; k < d->na && pick < 0; k++)
            if (!taken[k]) pick = k;
        if (pick < 0) break;
        if (early && !early_played && !handicap_now && early->color == tm &&
            d->adds[pick].now == tm && early->t < d->adds[pick].t &&
            go_game_at(sim, early->point) == GO_EMPTY &&
            go_game_check(sim, (struct go_move){tm, early->point}).kind == GO_LEGAL) {
            early_played = true;
            handicap_left = 0;
            go_game_play(sim, (struct go_move){tm, early->point});
            p->early[p->n] = true;
            p->move[p->n] = (struct go_move){tm, early->point};
            p->from[p->n++] = -2 - early->point;
            continue;
        }
        /* a stone of the side to move put before a reply seen earlier: a guess (a hand hid
           it, or a stone between them was never read); the views are read back first */
        for (int k = 0; k < d->na; k++)
            if (!taken[k] && k != pick && d->adds[k].now != tm &&
                d->adds[k].obs < d->adds[pick].obs)
                p->reordered = true;
        taken[pick] = true;
        const struct change *a = &d->adds[pick];
        enum go_color c = (enum go_color)a->now;
        /* the same colour taken off at the same time: a moved stone, not a move. When that stone
           is the one change besides the new stones, only a line or two away (a knocked or slid
           stone goes no farther; one stone read gone far away is a removal or a misread, judged
           on its own); with more changes, anywhere (a board shifted or swept). At the same time:
           when the stone was first seen, or when its last run of readings began (a doubtful
           reading of it before the slide is as likely a misread) */
        bool moved = false;
        long run_from = g->pt[a->point].stone_first[c];
        for (int k = 0; k < d->nrest; k++)
            if (d->rest[k].now == GO_EMPTY && d->rest[k].was == c &&
                (nrest0 > 1 || (abs(go_x(d->rest[k].point) - go_x(a->point)) <= 2 &&
                                abs(go_y(d->rest[k].point) - go_y(a->point)) <= 2)) &&
                (d->rest[k].obs == a->obs || d->rest[k].obs == run_from) &&
                go_game_at(sim, d->rest[k].point) == c &&
                !captured_by_other(sim, a, d->adds, d->na, taken, d->rest[k].point))
                moved = true;
        if (moved) {
            d->rest[d->nrest++] = *a;
            p->moved = true;
            continue;
        }
        if (gog_restoring(g, a) || gog_tentative_before(g, a->now, a->obs) ||
            (!flushing && gog_stone_in_doubt(g, sim, a->point, a->now, a->obs)) ||
            gog_tentative_removal(g, a->now, a->obs) ||
            (c == tm && gog_tentative_hidden(g, sim, a->obs, tm)) ||
            (c == tm && !flushing &&
             (p->seen_once = seen_once_between(g, sim, d, taken, a, early ? early->point : -1)) >=
                 0)) {
            blocker = a;
            p->maybe = true;
            break;
        }
        bool handicap = handicap_left > 0 && c == GO_BLACK;
        int fits = 0;
        int hidden =
            !handicap && c != tm
                ? gog_hidden_capture(
                      g, sim, a->point, a->obs, c, tm,
                      reply_after(g, d->adds, d->na, taken, (uint8_t)tm, a->obs) ? &fits : NULL)
                : -1;
        if (hidden >= 0) {
            go_game_play(sim, (struct go_move){tm, hidden});
            p->move[p->n] = (struct go_move){tm, hidden};
            p->unseen_by[p->n] = fits ? a->point : -1;
            p->unseen_fits[p->n] = fits;
            p->from[p->n++] = -2 - hidden;
            go_game_play(sim, (struct go_move){c, a->point});
            p->move[p->n] = (struct go_move){c, a->point};
            p->from[p->n++] = a->point;
            handicap_left = 0;
            continue;
        }
        /* An illegal move (ko, suicide) is a flag only after a wait: the next views may show
         * a legal exchange the guard read too slowly (gog_decode). */
        if (!handicap && c == tm && !flushing && !g->open_ply &&
            go_game_check(sim, (struct go_move){c, a->point}).kind != GO_LEGAL) {
            blocker = a;
            p->illegal = true;
            break;
        }
        /* A stone out of turn while points the camera cannot read may hold the reply: the
         * move of tm not seen (once a plan), played as a pass until its stone is seen */
        if (!handicap && c != tm && !g->cfg.assume_pass && p->unseen_at < 0 &&
            !gog_tentative_stone(g, (uint8_t)tm) && !pass_before(g, p) &&
            (p->ndark = gog_dark_points(g, sim, tm, a->obs - 1, true, p->dark)) > 0) {
            p->unseen_at = p->n;
            p->move[p->n] = (struct go_move){tm, GO_PASS};
            p->from[p->n++] = -1;
            go_game_play(sim, (struct go_move){tm, GO_PASS});
            go_game_play(sim, (struct go_move){c, a->point});
            p->move[p->n] = (struct go_move){c, a->point};
            p->from[p->n++] = a->point;
            handicap_left = 0;
            continue;
        }
        if (!handicap && c != tm && !g->cfg.assume_pass) {
            blocker = a;
            p->maybe = gog_tentative_stone(g, (uint8_t)tm);
            break;
        }
        if (!handicap && c != tm) {
            p->move[p->n] = (struct go_move){tm, GO_PASS};
            p->from[p->n++] = -1;
            go_game_play(sim, (struct go_move){tm, GO_PASS});
        }
        if (handicap) {
            handicap_left--;
            go_game_setup(sim, GO_BLACK, a->point);
        } else {
            handicap_left = 0;
            go_game_play(sim, (struct go_move){c, a->point});
        }
        p->guessed[p->n] = order_guessed(d, a);
        p->move[p->n] = (struct go_move){c, a->point};
        p->from[p->n++] = a->point;
    }
    if (!blocker)
        for (int k = 0; k < d->nrest && p->n < GUARD_OBS_MAX_EVENTS / 3; k++) {
            enum go_color tm = go_game_to_move(sim);
            const struct change *r = &d->rest[k];
            if (r->now != GO_EMPTY || r->was != go_other(tm) ||
                go_game_at(sim, r->point) == GO_EMPTY)
                continue;
            int q = gog_hidden_capturer(g, sim, r->point, r->obs, tm);
            if (q < 0) continue;
            go_game_play(sim, (struct go_move){tm, q});
            p->move[p->n] = (struct go_move){tm, q};
            p->from[p->n++] = -2 - q;
        }
    p->blocker_maybe = p->maybe;
    /* What the moves do not explain: removals their captures do not cover, changed colours. */
    for (int k = 0; k < d->nrest; k++) {
        const struct change *r = &d->rest[k];
        if (r->was != GO_EMPTY && r->now == GO_EMPTY && go_game_at(sim, r->point) == GO_EMPTY)
            continue; /* captured by a planned move */
        bool *m = &p->left_maybe[p->nleft];
        p->left[p->nleft++] = *r;
        *m = false;
        if (gog_restoring(g, r)) p->maybe = *m = true;
        if (r->now == GO_EMPTY) {
            uint8_t other = (uint8_t)go_other((enum go_color)r->was);
            if (gog_tentative_stone(g, other)) p->maybe = true;
            if (gog_tentative_stone(g, r->was)) p->maybe = true;
            /* a capturing stone not yet confirmed on a liberty of its chain; a stone of its
               colour not yet confirmed a line or two away: it may have slid there */
            *m |= tentative_near(g, sim, r->point, other, true) ||
                  tentative_near(g, sim, r->point, r->was, false);
        }
        p->left_lone[p->nleft - 1] = r->now == GO_EMPTY && lone_removal(g, d, r);
        const struct point_state *rs = &g->pt[r->point];
        if (rs->last_known && rs->last == gog_expected_at(g, r->point))
            p->maybe = *m =
                true; /* read as expected again: a run of misreads ending, or restored */
        if (r->now == GO_EMPTY && tentative_capturer(g, (uint8_t)go_other((enum go_color)r->was)))
            p->capturer = true;
    }
    gog_board_of(sim, p->end);
    if (early && go_game_at(sim, early->point) == early->color)
        p->early_libs = go_game_liberties(sim, early->point);
    go_game_free(sim);
    p->has_blocker = blocker != NULL;
    if (blocker) p->blocker = *blocker;
}

/* Did the view of observation o read c at q surely? */
static bool surely_read(const struct go_obs_guard *g, int q, uint8_t c, long o)
{
    const struct gog_view *v = &g->views[(o > 0 ? o : 0) % GOG_VIEWS];
    return o > 0 && o > g->nobs - GOG_VIEWS && v->obs == o && v->v[q] == c && v->sure[q];
}

/* The plan; when it waits for a stone seen once (seen_once_between), a second plan that plays that
 * stone where it was read, in turn: when that one explains its going (captured later, by a
 * stone read) and stops at nothing, it is the order. A stone the second plan leaves standing is
 * the order too once its point is surely read empty (the stone read in its colour's slot, between
 * stones of the other colour read before and after it, in the first view of the new stones, then
 * taken off: removed-stone film 20, dim, White's F16 read once in doubt): it is played there and
 * flagged taken off
 * (gog_commit_plan). Else the first waits (a few views at most, then goes on as if the stone were
 * a misread). */
void gog_plan_moves(const struct go_obs_guard *g, struct gog_diff *d, bool flushing,
                    struct gog_plan *p)
{
    int nrest = d->nrest; /* a plan only adds to rest[] (moved stones) */
    plan_moves(g, d, flushing, p, NULL);
    if (!p->has_blocker || p->seen_once < 0) return;
    int q = p->seen_once;
    enum go_color c = (enum go_color)p->blocker.now;
    const struct point_state *h = &g->pt[q];
    struct seen_once e = {q, c, h->cand_active && h->cand == c ? h->cand_t : h->stone_t[c]};
    struct gog_plan p1;
    d->nrest = nrest;
    plan_moves(g, d, flushing, &p1, &e);
    bool placed = false;
    for (int j = 0; j < p1.n; j++) placed |= p1.early[j];
    /* left standing: read in the first view of the new stones, or surely in the one before it
       (a misread seen views before them is no move: test_go_observe_corpus; nor one read once
       in doubt the view before them: go_observe_faults' 1514799269010001297, J1 at 0.58 under
       a hand), now surely read empty */
    long first_add = -1;
    for (int k = 0; k < d->na; k++)
        if (first_add < 0 || d->adds[k].obs < first_add) first_add = d->adds[k].obs;
    /* and not while one move of the other side could still capture it (its chain's last
       liberty empty): a stone seen once, hidden by glare, captured by the next move is no stone
       taken off (test_settle_order, test_seen_once_played_when_read) */
    bool gone = h->last_known && h->last == GO_EMPTY && !h->cand_active && p1.end[q] == c &&
                first_add >= 0 &&
                (h->stone_first[c] >= first_add ||
                 (h->stone_first[c] == first_add - 1 && surely_read(g, q, c, first_add - 1))) &&
                p1.early_libs >= 2;
    if (placed && !p1.has_blocker && (p1.end[q] == GO_EMPTY || gone)) {
        *p = p1;
        p->early_gone = gone ? q : -1;
        return;
    }
    d->nrest = nrest; /* the second may have written over what the first added */
    plan_moves(g, d, flushing, p, NULL);
}

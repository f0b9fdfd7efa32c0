/* ruleguard/guard_observe_go_unexplained.c — what no move explains: it waits a few observations
 * (a stone still being confirmed, a restoration under way, a fast exchange the views read back may
 * explain), then becomes a flag: two moves in a row for a stone out of turn, the kind the changes
 * show otherwise (guard_observe_go_flags.c), BOARD_DISTURBED for many at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

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

/* Empty points of the game the last view could not read (a hand over them, or out of the
 * picture: a camera that sees part of the board): a move may lie there unseen. */
static int unread_empty(const struct go_obs_guard *g)
{
    const struct gog_view *v = &g->views[g->nobs % GOG_VIEWS];
    if (v->obs != g->nobs) return 0;
    int n = 0;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            n += v->v[p] == GOG_UNREAD && go_game_at(gog_game_of(g), p) == GO_EMPTY;
        }
    return n;
}

/* Is a change away from the expected board still being confirmed somewhere (the disturbance
 * still growing)? Stones read back where the game has them are a restoration, not growth. */
static bool change_growing(const struct go_obs_guard *g)
{
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            const struct point_state *s = &g->pt[p];
            uint8_t e = gog_expected_at(g, p);
            if (s->cand_active && s->cand != e && s->belief == e && s->last_known &&
                s->last == s->cand && g->mask[p] < 0)
                return true;
        }
    return false;
}

/* Were these changes all there (first read, perhaps in doubt) when the board was flagged
 * disturbed, and is that disturbance not yet restored (points still tolerated)? Then they are
 * part of it, confirmed late (a stone read in doubt as the sleeve swept it off): one flag for one
 * disturbance. */
static bool part_of_disturbance(const struct go_obs_guard *g, const struct change *ch, int n)
{
    if (g->disturbed_obs <= 0 || n <= 0) return false;
    for (int k = 0; k < n; k++)
        if (ch[k].obs <= 0 || ch[k].obs > g->disturbed_obs) return false;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            if (g->mask[go_point(x, y)] >= 0) return true;
    return false;
}

/* How many observations in a row change ch has been left unexplained, this one included: each
 * change waits on its own (a change coming or going beside it does not restart its wait). */
static int change_age(struct go_obs_guard *g, const struct change *ch)
{
    int p = ch->point;
    if (g->unexp_now[p] != ch->now || g->unexp_last[p] < g->nobs - 1 || g->unexp_last[p] <= 0) {
        g->unexp_now[p] = ch->now;
        g->unexp_since[p] = g->nobs;
        g->unexp_ply[p] = gog_ply_of(g);
    }
    g->unexp_last[p] = g->nobs;
    return (int)(g->nobs - g->unexp_since[p] + 1);
}

/* Has a change waited long enough: max_wait_obs observations, twice as long and one more while
 * an explanation may still come (maybe), three times as long for a stone gone alone (lone: a
 * misread of one stone comes back within a few views, a stone taken off stays gone)? */
static bool aged(const struct go_obs_guard *g, int age, bool maybe, bool lone, bool flushing)
{
    if (flushing) return true;
    int need = maybe ? 2 * g->cfg.max_wait_obs + 1 : g->cfg.max_wait_obs;
    if (lone && need < 3 * g->cfg.max_wait_obs) need = 3 * g->cfg.max_wait_obs;
    return age >= need;
}

/* Would the stone of `blocker` take the last liberty of the chain of the stone gone at r? */
static bool blocker_captures(const struct go_obs_guard *g, const struct change *blocker,
                             const struct change *r)
{
    const struct go_game *game = gog_game_of(g);
    if (r->now != GO_EMPTY || r->was == GO_EMPTY || blocker->now == r->was ||
        go_game_at(game, r->point) != r->was || go_game_liberties(game, r->point) != 1)
        return false;
    int pts[GO_POINTS];
    int n = go_game_chain(game, r->point, pts);
    int bx = go_x(blocker->point), by = go_y(blocker->point);
    for (int i = 0; i < n; i++)
        if (abs(go_x(pts[i]) - bx) + abs(go_y(pts[i]) - by) == 1) return true;
    return false;
}

/* At the stream's end: a stone of the game read gone for fewer views than the wait, where a kept
 * view before its going already read it gone surely and a later one read it back (the reader's
 * lapse on this point, seen before)? The stream ended before the wait could tell such a lapse
 * from a removal (suicide film 14, side: a white stone read empty at 1.00 now and then, flagged
 * STONE_REMOVED at the flush). */
static bool lapse_at_the_end(const struct go_obs_guard *g, const struct change *ch, int age)
{
    if (ch->now != GO_EMPTY || ch->was == GO_EMPTY || age >= g->cfg.max_wait_obs) return false;
    int p = ch->point;
    bool stone = false, gone = false;
    for (long o = g->nobs - GOG_VIEWS + 1; o < ch->obs; o++) {
        const struct gog_view *v = &g->views[(o > 0 ? o : 0) % GOG_VIEWS];
        if (o <= 0 || v->obs != o) continue;
        if (v->v[p] == ch->was && gone) return true;
        if (v->v[p] == ch->was) stone = true;
        if (stone && v->v[p] == GO_EMPTY && v->sure[p]) gone = true;
    }
    return false;
}

/* A board not disturbed: of what is left, keep in p->left only the changes that waited long
 * enough, with a change paired with one of them (a stone gone and one of its colour come a line
 * or two away: a moved stone flagged as one, even when one end was confirmed an observation
 * later). The others go on waiting. How many are kept. */
static int keep_aged(struct go_obs_guard *g, struct gog_plan *p, bool blocker_ready, bool flushing)
{
    bool ready[GO_POINTS];
    int n = p->nleft;
    for (int k = 0; k < n; k++) {
        int age = change_age(g, &p->left[k]);
        /* gone alone, and the game goes on around it (a move accepted whose stone came when it
           went or later, or a stone being confirmed): the players play as if it stood, as a
           stone misread for a few views looks; it waits longer */
        p->left_lone[k] &= g->anchor_obs >= p->left[k].obs || gog_tentative_stone(g, GO_BLACK) ||
                           gog_tentative_stone(g, GO_WHITE);
        ready[k] = aged(g, age, p->left_maybe[k], p->left_lone[k], flushing) &&
                   !(flushing && lapse_at_the_end(g, &p->left[k], age));
        /* a stone the waiting blocker would capture (its chain's last liberty: a ko retaken at
           once, judged as an illegal move) waits with it */
        if (ready[k] && p->has_blocker && !blocker_ready &&
            blocker_captures(g, &p->blocker, &p->left[k]))
            ready[k] = false;
    }
    bool keep[GO_POINTS];
    for (int k = 0; k < n; k++) {
        keep[k] = ready[k];
        for (int j = 0; j < n && !keep[k]; j++) {
            if (!ready[j]) continue;
            const struct change *a = &p->left[k], *b = &p->left[j];
            const struct change *gone = a->now == GO_EMPTY ? a : b,
                                *come = a->now == GO_EMPTY ? b : a;
            keep[k] = gone->now == GO_EMPTY && gone->was != GO_EMPTY && come->was == GO_EMPTY &&
                      come->now == gone->was && abs(go_x(gone->point) - go_x(come->point)) <= 2 &&
                      abs(go_y(gone->point) - go_y(come->point)) <= 2;
        }
    }
    int m = 0;
    for (int k = 0; k < n; k++)
        if (keep[k]) {
            p->left_maybe[m] = p->left_maybe[k];
            p->left_lone[m] = p->left_lone[k];
            p->left[m++] = p->left[k];
        }
    p->nleft = m;
    return m;
}

/* Was the stone at p read as c surely in at least two kept views from observation from on, or
 * in any confidence with the stones it would capture on game surely gone (a ko retaken, its
 * prisoner off)? */
static bool read_surely_twice(const struct go_obs_guard *g, int p, uint8_t c, long from)
{
    int caps[GO_POINTS];
    int ncaps = gog_would_capture(gog_game_of(g), p, c, caps);
    int n = 0;
    for (long o = from > g->nobs - GOG_VIEWS ? from : g->nobs - GOG_VIEWS + 1; o <= g->nobs; o++) {
        const struct gog_view *v = &g->views[(o > 0 ? o : 0) % GOG_VIEWS];
        if (o > 0 && v->obs == o &&
            ((v->v[p] == c && v->sure[p]) || gog_capture_read(g, v, p, c, caps, ncaps)))
            n++;
    }
    return n >= 2;
}

void gog_illegal_taken_back(struct go_obs_guard *g, struct evbuf *b)
{
    if (!g->illegal_wait.on) return;
    const struct go_game *game = gog_game_of(g);
    int q = g->illegal_wait.point;
    uint8_t c = g->illegal_wait.color, o = (uint8_t)go_other((enum go_color)c);
    if (gog_ply_of(g) != g->illegal_wait.ply || g->open_ply || go_game_at(game, q) != GO_EMPTY) {
        g->illegal_wait.on = false; /* judged, explained, or the game went on */
        return;
    }
    if (g->pt[q].belief == c) return; /* still there: it waits */
    g->illegal_wait.on = false;
    if (go_game_to_move(game) != (enum go_color)c) return;
    /* a stone of the other colour come since beside the stone or the chain of its colour it
       joins: it may have captured the stone (a prisoner coming off, its move read too slowly),
       no taking back (a reply played elsewhere at once is no such stone) */
    bool near[GO_POINTS] = {false};
    near[q] = true;
    int qx = go_x(q), qy = go_y(q);
    static const int dd[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int k = 0; k < 4; k++) {
        int x = qx + dd[k][0], y = qy + dd[k][1];
        if (x < 0 || y < 0 || x >= g->w || y >= g->h) continue;
        int n = go_point(x, y);
        if (go_game_at(game, n) != (enum go_color)c) continue;
        int pts[GO_POINTS];
        int m = go_game_chain(game, n, pts);
        for (int i = 0; i < m; i++) near[pts[i]] = true;
    }
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int r = go_point(x, y);
            const struct point_state *s = &g->pt[r];
            if (go_game_at(game, r) != GO_EMPTY || gog_expected_at(g, r) != GO_EMPTY) continue;
            if (s->belief != o && !(s->cand_active && s->cand == o)) continue;
            for (int k = 0; k < 4; k++) {
                int nx = x + dd[k][0], ny = y + dd[k][1];
                if (nx >= 0 && ny >= 0 && nx < g->w && ny < g->h && near[go_point(nx, ny)]) return;
            }
        }
    if (!read_surely_twice(g, q, c, g->illegal_wait.obs)) return;
    /* the move before the last put this stone, and the last captured it: its prisoner, read on
       its point while it comes off, no stone put again (a ko retaken is put where a stone the
       last move captured stood for longer) */
    int ply = gog_ply_of(g);
    if (ply >= 2 && g->snap[ply - 1][q] == c && g->snap[ply - 2][q] == GO_EMPTY) return;
    struct go_move m = {(enum go_color)c, q};
    struct go_verdict v = go_game_check(game, m);
    if (v.kind != GO_ILLEGAL_SUICIDE && v.kind != GO_ILLEGAL_KO && v.kind != GO_ILLEGAL_SUPERKO)
        return;
    gog_flag_taken_back(b, m, v, g->illegal_wait.ply + 1, g->illegal_wait.t, g->illegal_wait.frame);
}

/* After the plan's moves: wait for an explanation, or flag what is left (p->left; the blocker, if
 * any, is flagged too). disturbed: many changes at once; first_bad: the first of them seen. */
void gog_flag_unexplained(struct go_obs_guard *g, struct gog_plan *p, bool disturbed,
                          long first_bad, int64_t t, uint64_t frame, bool flushing, struct evbuf *b)
{
    bool ready, blocker_ready = p->has_blocker;
    if (p->has_blocker && p->illegal && !disturbed && !flushing) {
        /* an illegal stone waits: if it is taken back before it is judged, it is flagged then */
        const struct point_state *s = &g->pt[p->blocker.point];
        if (!g->illegal_wait.on || g->illegal_wait.point != p->blocker.point ||
            g->illegal_wait.ply != gog_ply_of(g)) {
            g->illegal_wait.on = true;
            g->illegal_wait.point = p->blocker.point;
            g->illegal_wait.ply = gog_ply_of(g);
            g->illegal_wait.color = p->blocker.now;
            g->illegal_wait.obs = p->blocker.obs;
            g->illegal_wait.t = s->seen_t;
            g->illegal_wait.frame = s->seen_frame;
        }
    }
    if (disturbed) {
        /* many changes at once: one flag for them all, once the set stops changing */
        uint64_t sig = 0x51;
        if (p->has_blocker) sig = mix(sig, (uint64_t)p->blocker.point * 3 + p->blocker.now);
        for (int k = 0; k < p->nleft; k++)
            sig = mix(sig, (uint64_t)p->left[k].point * 7 + p->left[k].now);
        ready = waited_enough(g, sig, flushing);
        if (p->maybe && !flushing && g->wait < 2 * g->cfg.max_wait_obs + 1) ready = false;
        /* The wait restarts whenever the unexplained set changes; a board changing at every
         * observation (swept, then stones put back one by one in a new game) would never flag.
         * A change still unexplained this many observations after it was first seen flags
         * anyway. */
        if (!flushing && first_bad > 0 && !p->capturer && !(p->has_blocker && p->maybe) &&
            !change_growing(g) && g->nobs - first_bad + 1 >= 2 * g->cfg.max_wait_obs + 1)
            ready = true;
    } else {
        /* each change by its own wait: a stone slid or taken off is flagged at its ply, not
           when the moves around it stop coming */
        if (p->has_blocker) {
            bool restoring = gog_restoring(g, &p->blocker);
            blocker_ready =
                aged(g, change_age(g, &p->blocker), p->blocker_maybe || restoring, false, flushing);
            if (restoring && !blocker_ready) p->has_blocker = false; /* it waits */
        }
        int n = keep_aged(g, p, blocker_ready, flushing);
        ready = blocker_ready || n > 0;
        if (p->has_blocker && !blocker_ready) p->has_blocker = false; /* it waits */
    }
    if (!ready) return;
    /* the illegal stone read gone at this very view: a prisoner still coming off (captured
       before its own readings confirmed it), or a misread; the next view tells */
    bool hold = p->has_blocker && p->illegal && !flushing && g->pt[p->blocker.point].last_known &&
                g->pt[p->blocker.point].last == GO_EMPTY;
    if (!hold) {
        g->wait_sig = 0;
        g->wait = 0;
    }
    /* Before a flag: a short sequence of legal moves the last views show (a ko fight or a
     * snapback played faster than the views) explains it better; a moved stone is no such
     * sequence (the slid stone would be read as a move, its old point as a stone removed). */
    if (!g->open_ply && !p->moved && gog_decode(g, t, frame, b)) return;
    if (hold) return;
    if (p->has_blocker && !disturbed && !gog_restoring(g, &p->blocker)) {
        /* Out of turn: two moves in a row, or an unseen pass; the rules core flags it. The rest
         * is judged at the next observation. */
        const struct point_state *s = &g->pt[p->blocker.point];
        if (gog_ev_room(b, GUARD_MAX_EVENTS + 1))
            gog_commit_move(g, (struct go_move){(enum go_color)p->blocker.now, p->blocker.point},
                            s->seen_t, s->seen_frame, s, s->seen_obs, flushing, b);
        int unread = unread_empty(g);
        for (int e = 0; e < b->n; e++)
            if (b->ev[e].kind == GUARD_TWO_MOVES) {
                size_t used = strlen(b->ev[e].text);
                /* (the event's 200 bytes hold the longest of these) */
                char where[64] = "";
                if (unread)
                    snprintf(where, sizeof where, " or played on one of %d unread points", unread);
                snprintf(b->ev[e].text + used, sizeof b->ev[e].text - used,
                         "; either %s passed unseen%s, or two moves in a row (Chinese 1988 "
                         "§17.1): the referee decides",
                         gog_color_name(go_other((enum go_color)p->blocker.now)), where);
            }
        return;
    }
    if (p->has_blocker) p->left[p->nleft++] = p->blocker;
    int swept = disturbed && !p->has_blocker && !g->open_ply
                    ? gog_swept_move(g, p->left, p->nleft, first_bad)
                    : -1;
    if (swept >= 0 && gog_ev_room(b, GUARD_MAX_EVENTS + 2)) {
        /* the last move, read once and swept off with the others: played, then disturbed */
        const struct point_state *s = &g->pt[swept];
        enum go_color c = go_game_to_move(gog_game_of(g));
        int n0 = b->n;
        gog_commit_move(g, (struct go_move){c, swept}, s->stone_t[c], s->stone_frame[c], NULL,
                        first_bad - 1, flushing, b);
        gog_doubt_events(b, n0,
                         "accepted under doubt: read once, then swept off with the stones "
                         "around it");
        p->left[p->nleft++] = (struct change){swept, (uint8_t)c, GO_EMPTY, first_bad, 0};
    }
    if (!disturbed && part_of_disturbance(g, p->left, p->nleft)) {
        /* already shown by the disturbance's flag: tolerated like the rest of it */
        for (int k = 0; k < p->nleft; k++) g->mask[p->left[k].point] = p->left[k].now;
        return;
    }
    /* stones gone alone, flagged after their longer wait: at the ply they went */
    int ply = -1;
    for (int k = 0; k < p->nleft && !disturbed; k++) {
        int q = p->left[k].point;
        if (k >= p->nleft - (p->has_blocker ? 1 : 0) || !p->left_lone[k] ||
            g->unexp_last[q] != g->nobs) {
            ply = -1;
            break;
        }
        if (ply < 0 || g->unexp_ply[q] < ply) ply = g->unexp_ply[q];
    }
    qsort(p->left, (size_t)p->nleft, sizeof *p->left, gog_change_order);
    gog_flag_board(g, p->left, p->nleft, ply, t, frame, b);
}

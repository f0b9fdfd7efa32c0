/* ruleguard/guard_observe_go_decode.c — reading back the last views when no move explains a
 * change: a ko fight or a snapback can pass faster than the views confirm each stone (a stone
 * seen once, captured at once, its point played again). Before a flag, the guard tries every short
 * sequence of legal moves whose stones were read in the views since the last move accepted, lets
 * each view show one state of that sequence in order (the captured stones of a move may still
 * stand in its views), and accepts the sequence only when the views fit it almost without a
 * misread (besides misreads in one view at points it leaves alone, which every sequence pays)
 * and clearly better than any other. The rules core is the filter: an illegal move is
 * never part of a sequence.
 * Play goes on while the guard waits, so the last views may already show moves after the exchange
 * (more than the search can read back). The views are therefore also judged up to each earlier
 * view (a cut): the views after it need only fit the sequence's last position plus later moves
 * (new stones, and stones gone next to a new stone of the other colour), and the latest cut
 * whose best sequence is clear is taken; the moves after it are read as usual. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_go_internal.h"

#define DEC_DEPTH  3     /* moves read back at most */
#define DEC_CAND   5     /* candidate points per move */
#define DEC_FIT    1.0   /* the most misread cost an accepted sequence may leave */
#define DEC_CLEAR  1.0   /* by how much it must beat every other sequence */
#define DEC_UNSURE 0.25f /* the cost of an unsure reading against the state */

void gog_keep_view(struct go_obs_guard *g, const struct observation *o)
{
    struct gog_view *v = &g->views[g->nobs % GOG_VIEWS];
    v->obs = g->nobs;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++) {
            int p = go_point(x, y);
            bool known = !o->occluded[p] && o->conf[p] >= g->cfg.conf_min && o->point[p] <= 2;
            v->v[p] = known ? o->point[p] : GOG_UNREAD;
            v->sure[p] = o->conf[p] >= g->cfg.conf_sure;
            v->doubt[p] = !o->occluded[p] && o->conf[p] < g->cfg.conf_sure;
            v->dark[p] = o->occluded[p] || obs_out_of_view(o, p);
        }
}

/* The best sequence when the views up to one cut are judged fully. */
struct dec_cut {
    double best, second;
    int k;
    struct go_move seq[DEC_DEPTH];
    long first[DEC_DEPTH];  /* the first view showing each move */
    uint8_t end[GO_POINTS]; /* the position after the sequence */
};

struct dec {
    struct go_obs_guard *g;
    const struct gog_view *view[GOG_VIEWS];
    int nview;
    /* states: st[0] the board expected now (prisoners still allowed included), st[j] after j
       moves; lin[j]: stones move j captured (still allowed on the board in its views) */
    uint8_t st[DEC_DEPTH + 1][GO_POINTS], lin[DEC_DEPTH + 1][GO_POINTS];
    float cost[DEC_DEPTH + 1][GOG_VIEWS]; /* view i against state j */
    /* later[j][i]: views i.. against state j as the last the sequence reaches, later moves
       allowed (the views after a cut) */
    float later[DEC_DEPTH + 1][GOG_VIEWS + 1];
    struct go_move seq[DEC_DEPTH];
    struct dec_cut cut[GOG_VIEWS]; /* cut[c]: views 0..c judged fully */
};

static float board_cost(const struct dec *d, int i, const uint8_t *st, const uint8_t *lin)
{
    const struct gog_view *v = d->view[i];
    float c = 0;
    for (int y = 0; y < d->g->h; y++)
        for (int x = 0; x < d->g->w; x++) {
            int p = go_point(x, y);
            uint8_t r = v->v[p];
            if (r == GOG_UNREAD || r == st[p]) continue;
            if (r != GO_EMPTY && lin[p] == r) continue;
            c += v->sure[p] ? 1.0f : DEC_UNSURE;
        }
    return c;
}

static float view_cost(const struct dec *d, int i, int j)
{
    return board_cost(d, i, d->st[j], d->lin[j]);
}

/* Is the stone at p in state st gone in view v because a later move took its chain: a new stone
 * of the other colour read on one of the chain's liberties? */
static bool taken_later(const struct dec *d, const struct gog_view *v, const uint8_t *st, int p)
{
    static const int dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    uint8_t c = st[p], o = c == GO_BLACK ? GO_WHITE : GO_BLACK;
    int stack[GO_POINTS], n = 0;
    bool seen[GO_POINTS] = {false};
    stack[n++] = p;
    seen[p] = true;
    while (n > 0) {
        int q = stack[--n];
        for (int k = 0; k < 4; k++) {
            int x = go_x(q) + dir[k][0], y = go_y(q) + dir[k][1];
            if (x < 0 || y < 0 || x >= d->g->w || y >= d->g->h) continue;
            int r = go_point(x, y);
            if (seen[r]) continue;
            if (st[r] == GO_EMPTY && v->v[r] == o) return true;
            if (st[r] != c) continue;
            seen[r] = true;
            stack[n++] = r;
        }
    }
    return false;
}

/* View i after the cut against state j: new stones are later moves, stones gone next to a new
 * stone of the other colour were captured by one; anything else is a misread. */
static float later_cost(const struct dec *d, int i, int j)
{
    const struct gog_view *v = d->view[i];
    float c = 0;
    for (int y = 0; y < d->g->h; y++)
        for (int x = 0; x < d->g->w; x++) {
            int p = go_point(x, y);
            uint8_t r = v->v[p], s = d->st[j][p];
            if (r == GOG_UNREAD || r == s || s == GO_EMPTY) continue;
            if (taken_later(d, v, d->st[j], p)) continue;
            c += v->sure[p] ? 1.0f : DEC_UNSURE;
        }
    return c;
}

static void fill_state_costs(struct dec *d, int j)
{
    for (int i = 0; i < d->nview; i++) d->cost[j][i] = view_cost(d, i, j);
    d->later[j][d->nview] = 0;
    for (int i = d->nview - 1; i >= 0; i--)
        d->later[j][i] = d->later[j][i + 1] + later_cost(d, i, j);
}

/* Was the stone of move m read (as its colour) in view i? */
static bool read_in(const struct dec *d, int m, int i)
{
    return d->view[i]->v[d->seq[m].point] == d->seq[m].color;
}

/* The cost a cut's best sequence pays for misreads it cannot help: a reading that differs from the
 * board now at a point the sequence leaves alone, in one view only (any sequence pays it). */
static double isolated_noise(const struct dec *d, const struct dec_cut *cut, int c)
{
    double noise = 0;
    for (int y = 0; y < d->g->h; y++)
        for (int x = 0; x < d->g->w; x++) {
            int p = go_point(x, y);
            if (cut->end[p] != d->st[0][p]) continue;
            bool played = false;
            for (int m = 0; m < cut->k; m++) played |= cut->seq[m].point == p;
            if (played) continue;
            int odd = -1, n = 0;
            for (int i = 0; i < d->nview; i++) {
                uint8_t r = d->view[i]->v[p];
                if (r == GOG_UNREAD || r == d->st[0][p] || (r != GO_EMPTY && d->lin[0][p] == r))
                    continue;
                odd = i;
                n++;
            }
            if (n != 1) continue;
            /* after the cut only a stone read gone costs (later moves are free) */
            if (odd > c && d->view[odd]->v[p] != GO_EMPTY) continue;
            noise += d->view[odd]->sure[p] ? 1.0 : DEC_UNSURE;
        }
    return noise;
}

/* Was move m's stone read in a view before view i? */
static bool read_before(const struct dec *d, int m, int i)
{
    for (int e = 0; e < i; e++)
        if (read_in(d, m, e)) return true;
    return false;
}

/* Is move m2's stone, read in view i, never read gone after it up to the view that first reads
 * move m's stone? */
static bool stays_until(const struct dec *d, int m2, int i, int m)
{
    for (int e = i + 1; e < d->nview; e++) {
        if (d->view[e]->v[d->seq[m2].point] == GO_EMPTY) return false;
        if (read_in(d, m, e)) break;
    }
    return true;
}

/* Does a view surely show a later move's stone while surely showing an earlier move's point
 * empty, its stone still standing then? The order is read from the board itself: a stone played
 * after one that is not there yet is another sequence (a player moving twice). Only when the
 * earlier stone was never read before that view and the later one stays from it on: a stone read
 * and then once not, or one read once before its time, is a misread, which the sequence pays for
 * in the fit like any other. */
static bool inverted(const struct dec *d, int k)
{
    for (int i = 0; i < d->nview; i++) {
        const struct gog_view *v = d->view[i];
        for (int m2 = 1; m2 < k; m2++) {
            int q = d->seq[m2].point;
            if (v->v[q] != d->seq[m2].color || !v->sure[q]) continue;
            for (int m = 0; m < m2; m++) {
                int p = d->seq[m].point;
                if (v->v[p] == GO_EMPTY && v->sure[p] && d->st[m2 + 1][p] == d->seq[m].color &&
                    !read_before(d, m, i) && stays_until(d, m2, i, m))
                    return true;
            }
        }
    }
    return false;
}

/* For every cut c: the best monotone assignment of views 0..c to states 0..k that ends in state
 * k (the first view may show any state), plus the views after c against state k; the cut's best
 * and second updated. A stone never read in views 0..c must be captured within the sequence; a
 * stone still on the board at the end must be read in two views that show its move or a later
 * one (one misread is never a move), or in one and then captured by a later stone. */
static void judge(struct dec *d, int k)
{
    if (inverted(d, k)) return;
    double dp[GOG_VIEWS][DEC_DEPTH + 1];
    int from[GOG_VIEWS][DEC_DEPTH + 1];
    for (int i = 0; i < d->nview; i++)
        for (int j = 0; j <= k; j++) {
            double prev = 0;
            int pj = j;
            if (i > 0) {
                prev = 1e9;
                for (int q = 0; q <= j; q++)
                    if (dp[i - 1][q] < prev) prev = dp[i - 1][q], pj = q;
            }
            dp[i][j] = prev + d->cost[j][i];
            from[i][j] = pj;
        }
    int first_read[DEC_DEPTH]; /* the first view reading each move's stone, or nview */
    for (int m = 0; m < k; m++) {
        first_read[m] = d->nview;
        for (int i = d->nview - 1; i >= 0; i--)
            if (read_in(d, m, i)) first_read[m] = i;
    }
    for (int c = 1; c < d->nview; c++) {
        struct dec_cut *cut = &d->cut[c];
        double total = dp[c][k] + d->later[k][c + 1];
        if (total >= cut->second) continue;
        bool ok = true;
        for (int m = 0; m < k && ok; m++)
            if (first_read[m] > c && d->st[k][d->seq[m].point] == d->seq[m].color) ok = false;
        if (!ok) continue;
        int state[GOG_VIEWS];
        for (int i = c, j = k; i >= 0; i--) {
            state[i] = j;
            j = from[i][j];
        }
        long first[DEC_DEPTH];
        for (int m = 0; m < k && ok; m++) {
            int fi = c;
            for (int i = 0; i <= c; i++)
                if (state[i] > m) {
                    fi = i;
                    break;
                }
            first[m] = d->view[fi]->obs;
            if (d->st[k][d->seq[m].point] != d->seq[m].color) continue;
            int shown = 0;
            bool taken = false; /* read gone later, next to a later stone of the other colour */
            for (int i = fi; i < d->nview; i++) {
                shown += read_in(d, m, i);
                if (i > c && d->view[i]->v[d->seq[m].point] == GO_EMPTY)
                    taken |= taken_later(d, d->view[i], d->st[k], d->seq[m].point);
            }
            ok = shown >= 2 || (shown == 1 && taken);
        }
        if (!ok) continue;
        if (total < cut->best) {
            if (cut->best < cut->second) cut->second = cut->best;
            cut->best = total;
            cut->k = k;
            memcpy(cut->seq, d->seq, sizeof d->seq);
            memcpy(cut->first, first, sizeof first);
            memcpy(cut->end, d->st[k], sizeof cut->end);
        } else {
            cut->second = total;
        }
    }
}

/* The first view reading a stone of colour c at a point next to p that is empty in pos (a new
 * stone), or -1. */
static int new_neighbour(const struct dec *d, const struct go_game *pos, int p, enum go_color c)
{
    static const int dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int first = -1;
    for (int k = 0; k < 4; k++) {
        int x = go_x(p) + dir[k][0], y = go_y(p) + dir[k][1];
        if (x < 0 || y < 0 || x >= d->g->w || y >= d->g->h) continue;
        int q = go_point(x, y);
        if (go_game_at(pos, q) != GO_EMPTY) continue;
        for (int i = 0; i < d->nview; i++)
            if (d->view[i]->v[q] == c && (first < 0 || i < first)) first = i;
    }
    return first;
}

/* Candidate points for the next move of colour c: empty, legal, and read as c in a view (the
 * most often read first); or, ranked last, never read as c but read in doubt next to a new stone
 * of the other colour (a stone whose one view misread it, captured by that stone: judge()
 * keeps it only when the sequence captures it). */
static int candidates(const struct dec *d, const struct go_game *pos, enum go_color c,
                      int out[DEC_CAND])
{
    int n = 0, score[DEC_CAND];
    bool weak[DEC_CAND] = {false}, strong = false;
    for (int y = 0; y < d->g->h; y++)
        for (int x = 0; x < d->g->w; x++) {
            int p = go_point(x, y);
            if (go_game_at(pos, p) != GO_EMPTY) continue;
            int reads = 0;
            for (int i = 0; i < d->nview; i++) reads += 2 * (d->view[i]->v[p] == c);
            /* read in doubt while it stood: before the capturing stone was first read. Not
               readable at all (a right reading is never that unsure) beats read empty in doubt */
            int by = reads ? -1 : new_neighbour(d, pos, p, go_other(c));
            bool unreadable = false;
            for (int i = 0; i < by; i++)
                if (d->view[i]->doubt[p]) {
                    reads = 1;
                    unreadable |= d->view[i]->v[p] == GOG_UNREAD;
                }
            if (!reads || (n == DEC_CAND && score[n - 1] >= reads)) continue;
            if (go_game_check(pos, (struct go_move){c, p}).kind != GO_LEGAL) continue;
            int k = n < DEC_CAND ? n++ : DEC_CAND - 1; /* insert, dropping the least read */
            while (k > 0 && score[k - 1] < reads) {
                score[k] = score[k - 1];
                out[k] = out[k - 1];
                weak[k] = weak[k - 1];
                k--;
            }
            score[k] = reads;
            out[k] = p;
            weak[k] = reads == 1 && !unreadable;
            strong |= reads == 1 && unreadable;
        }
    if (strong) { /* the stones never read: only those read as nothing at all */
        int m = 0;
        for (int k = 0; k < n; k++)
            if (!weak[k]) out[m++] = out[k], score[m - 1] = score[k];
        n = m;
    }
    return n;
}

static void search(struct dec *d, const struct go_game *pos, int j)
{
    if (j > 0) judge(d, j);
    if (j == DEC_DEPTH) return;
    enum go_color c = go_game_to_move(pos);
    int cand[DEC_CAND];
    int n = candidates(d, pos, c, cand);
    for (int k = 0; k < n; k++) {
        struct go_game *next = go_game_copy(pos);
        go_game_play(next, (struct go_move){c, cand[k]});
        d->seq[j] = (struct go_move){c, cand[k]};
        memset(d->lin[j + 1], 0, GO_POINTS);
        for (int p = 0; p < GO_POINTS; p++) {
            d->st[j + 1][p] = (uint8_t)go_game_at(next, p);
            if (go_game_at(pos, p) != GO_EMPTY && go_game_at(next, p) == GO_EMPTY)
                d->lin[j + 1][p] = (uint8_t)go_game_at(pos, p);
        }
        fill_state_costs(d, j + 1);
        search(d, next, j + 1);
        go_game_free(next);
    }
}

bool gog_decode(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b)
{
    if (g->counting || g->handicap_left > 0) return false;
    if (!gog_ev_room(b, DEC_DEPTH * GUARD_MAX_EVENTS)) return false;
    const struct go_game *game = gog_game_of(g);
    if (go_game_state(game) != GO_PLAYING) return false;
    struct dec *d = calloc(1, sizeof *d);
    if (!d) return false;
    d->g = g;
    long from = g->anchor_obs > 0 ? g->anchor_obs : 1;
    if (from < g->nobs - GOG_VIEWS + 1) from = g->nobs - GOG_VIEWS + 1;
    for (long o = from; o <= g->nobs; o++)
        if (o > 0 && g->views[o % GOG_VIEWS].obs == o)
            d->view[d->nview++] = &g->views[o % GOG_VIEWS];
    const struct dec_cut *use = NULL;
    if (d->nview >= 2) {
        for (int y = 0; y < g->h; y++)
            for (int x = 0; x < g->w; x++) {
                int p = go_point(x, y);
                d->st[0][p] = (uint8_t)go_game_at(game, p);
                /* prisoners still allowed, and those of the last move (its first views) */
                uint8_t e = gog_expected_at(g, p);
                int ply = gog_ply_of(g);
                if (e == GO_EMPTY && ply > 0) e = g->snap[ply - 1][p];
                if (e != d->st[0][p]) d->lin[0][p] = e;
            }
        fill_state_costs(d, 0);
        /* the first views may still show the position before the last move (its stone was
           placed, or first read, after the view it was dated from) */
        int ply = gog_ply_of(g);
        for (int i = 0; i < d->nview && ply > 0; i++) {
            float before = board_cost(d, i, g->snap[ply - 1], d->lin[0]);
            if (before < d->cost[0][i]) d->cost[0][i] = before;
        }
        for (int c = 0; c < d->nview; c++) {
            d->cut[c].best = d->cut[c].second = 1e9;
            d->cut[c].k = 0;
        }
        judge(d, 0); /* no move: what a flag would say, the second to beat */
        for (int c = 1; c < d->nview; c++) {
            d->cut[c].second = d->cut[c].best;
            d->cut[c].best = 1e9;
        }
        search(d, game, 0);
        /* a pass signalled and waiting: the moves read back come before it, so the cut does too
           (the views after the signal only fit later moves) */
        int last = d->nview - 1;
        while (g->nqueue > 0 && last >= 1 && d->view[last]->obs > g->queue[0].obs) last--;
        for (int c = last; c >= 1 && !use; c--) {
            const struct dec_cut *cut = &d->cut[c];
            if (cut->k > 0 && cut->best - isolated_noise(d, cut, c) <= DEC_FIT &&
                cut->best + DEC_CLEAR <= cut->second)
                use = cut;
        }
    }
    bool ok = use != NULL;
    if (ok)
        for (int m = 0; m < use->k; m++) {
            int n0 = b->n;
            gog_commit_move(g, use->seq[m], t, frame, NULL, use->first[m], false, b);
            gog_doubt_events(b, n0,
                             "accepted under doubt: read back from the last views, a fast "
                             "exchange");
        }
    free(d);
    return ok;
}

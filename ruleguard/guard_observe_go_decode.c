/* ruleguard/guard_observe_go_decode.c — reading back the last views when no move explains a
 * change: a ko fight or a snapback can pass faster than the views confirm each stone (a stone
 * seen once, captured at once, its point played again). Before a flag, the guard tries every short
 * sequence of legal moves whose stones were read in the views since the last move accepted, lets
 * each view show one state of that sequence in order (the captured stones of a move may still
 * stand in its views), and accepts the sequence only when the views fit it almost without a
 * misread and clearly better than any other. The rules core is the filter: an illegal move is
 * never part of a sequence. */
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
        }
}

struct dec {
    struct go_obs_guard *g;
    const struct gog_view *view[GOG_VIEWS];
    int nview;
    /* states: st[0] the board expected now (prisoners still allowed included), st[j] after j
       moves; lin[j]: stones move j captured (still allowed on the board in its views) */
    uint8_t st[DEC_DEPTH + 1][GO_POINTS], lin[DEC_DEPTH + 1][GO_POINTS];
    float cost[DEC_DEPTH + 1][GOG_VIEWS]; /* view i against state j */
    struct go_move seq[DEC_DEPTH];
    /* results */
    double best, second;
    int best_k;
    struct go_move best_seq[DEC_DEPTH];
    long best_first[DEC_DEPTH]; /* the first view showing each move */
};

static float view_cost(const struct dec *d, int i, int j)
{
    const struct gog_view *v = d->view[i];
    float c = 0;
    for (int y = 0; y < d->g->h; y++)
        for (int x = 0; x < d->g->w; x++) {
            int p = go_point(x, y);
            uint8_t r = v->v[p];
            if (r == GOG_UNREAD || r == d->st[j][p]) continue;
            if (r != GO_EMPTY && d->lin[j][p] == r) continue;
            c += v->sure[p] ? 1.0f : DEC_UNSURE;
        }
    return c;
}

/* The best monotone assignment of views to states 0..k that ends in state k; its cost, and in
 * first[m] the first view showing move m+1 or later. */
static bool read_once(const struct dec *d, int j);

static double assign(const struct dec *d, int k, long first[DEC_DEPTH])
{
    double dp[GOG_VIEWS][DEC_DEPTH + 1];
    int from[GOG_VIEWS][DEC_DEPTH + 1];
    for (int i = 0; i < d->nview; i++)
        for (int j = 0; j <= k; j++) {
            double prev = 0; /* the first view may show any state */
            int pj = j;
            if (i > 0) {
                prev = 1e9;
                for (int q = 0; q <= j; q++)
                    if (dp[i - 1][q] < prev) prev = dp[i - 1][q], pj = q;
            }
            dp[i][j] = prev + d->cost[j][i];
            from[i][j] = pj;
        }
    int state[GOG_VIEWS];
    for (int i = d->nview - 1, j = k; i >= 0; i--) {
        state[i] = j;
        j = from[i][j];
    }
    for (int m = 0; m < k; m++) {
        first[m] = d->view[d->nview - 1]->obs;
        for (int i = 0; i < d->nview; i++)
            if (state[i] > m) {
                first[m] = d->view[i]->obs;
                break;
            }
    }
    return dp[d->nview - 1][k];
}

static void judge(struct dec *d, int k)
{
    /* a stone never read must be gone by the end: captured within the sequence */
    for (int j = 0; j < k; j++)
        if (!read_once(d, j) && d->st[k][d->seq[j].point] == d->seq[j].color) return;
    long first[DEC_DEPTH];
    double c = assign(d, k, first);
    if (c < d->best) {
        d->second = d->best;
        d->best = c;
        d->best_k = k;
        memcpy(d->best_seq, d->seq, sizeof d->seq);
        memcpy(d->best_first, first, sizeof first);
    } else if (c < d->second) {
        d->second = c;
        if (getenv("GOG_DEBUG")) { /* DEBUG-REMOVE */
            char nm[8];
            fprintf(stderr, "  second %.2f:", c);
            for (int m = 0; m < k; m++)
                fprintf(stderr, " %c%s", ".BW"[d->seq[m].color],
                        go_point_name(d->seq[m].point, d->g->h, nm));
            fprintf(stderr, "\n");
        }
    }
}

/* Was a stone of colour c read at a point next to p that is empty in pos (a new stone)? */
static bool new_neighbour(const struct dec *d, const struct go_game *pos, int p, enum go_color c)
{
    static const int dir[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int k = 0; k < 4; k++) {
        int x = go_x(p) + dir[k][0], y = go_y(p) + dir[k][1];
        if (x < 0 || y < 0 || x >= d->g->w || y >= d->g->h) continue;
        int q = go_point(x, y);
        if (go_game_at(pos, q) != GO_EMPTY) continue;
        for (int i = 0; i < d->nview; i++)
            if (d->view[i]->v[q] == c) return true;
    }
    return false;
}

/* Candidate points for the next move of colour c: empty, legal, and read as c in a view (the
 * most often read first); or, ranked last, never read as c but read in doubt next to a new stone
 * of the other colour (a stone whose one view misread it, captured by that stone: judge()
 * keeps it only when the sequence captures it). */
static int candidates(const struct dec *d, const struct go_game *pos, enum go_color c,
                      int out[DEC_CAND])
{
    int n = 0, score[DEC_CAND];
    for (int y = 0; y < d->g->h; y++)
        for (int x = 0; x < d->g->w; x++) {
            int p = go_point(x, y);
            if (go_game_at(pos, p) != GO_EMPTY) continue;
            int reads = 0, doubt = 0;
            for (int i = 0; i < d->nview; i++) {
                reads += 2 * (d->view[i]->v[p] == c);
                doubt |= d->view[i]->doubt[p];
            }
            if (!reads && doubt && new_neighbour(d, pos, p, go_other(c))) reads = 1;
            if (!reads || (n == DEC_CAND && score[n - 1] >= reads)) continue;
            if (go_game_check(pos, (struct go_move){c, p}).kind != GO_LEGAL) continue;
            int k = n < DEC_CAND ? n++ : DEC_CAND - 1; /* insert, dropping the least read */
            while (k > 0 && score[k - 1] < reads) {
                score[k] = score[k - 1];
                out[k] = out[k - 1];
                k--;
            }
            score[k] = reads;
            out[k] = p;
        }
    return n;
}

/* Is the move at step j read as its colour in some view? */
static bool read_once(const struct dec *d, int j)
{
    for (int i = 0; i < d->nview; i++)
        if (d->view[i]->v[d->seq[j].point] == d->seq[j].color) return true;
    return false;
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
        for (int i = 0; i < d->nview; i++) d->cost[j + 1][i] = view_cost(d, i, j + 1);
        search(d, next, j + 1);
        go_game_free(next);
    }
}

bool gog_decode(struct go_obs_guard *g, int64_t t, uint64_t frame, struct evbuf *b)
{
    if (getenv("GOG_DEBUG")) /* DEBUG-REMOVE */
        fprintf(stderr, "decode? nobs %ld counting %d hl %d nq %d\n", g->nobs, g->counting,
                g->handicap_left, g->nqueue);
    if (g->counting || g->handicap_left > 0 || g->nqueue > 0) return false;
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
    bool ok = false;
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
        for (int i = 0; i < d->nview; i++) d->cost[0][i] = view_cost(d, i, 0);
        long first[DEC_DEPTH];
        double none = assign(d, 0, first); /* no move: what a flag would say */
        d->best = d->second = 1e9;
        d->best_k = 0;
        search(d, game, 0);
        if (none < d->second) d->second = none;
        ok = d->best_k > 0 && d->best <= DEC_FIT && d->best + DEC_CLEAR <= d->second;
        if (getenv("GOG_DEBUG")) { /* DEBUG-REMOVE */
            char nm[8];
            fprintf(stderr, "decode nobs %ld views %d best %.2f k %d second %.2f none %.2f:", g->nobs,
                    d->nview, d->best, d->best_k, d->second, none);
            for (int m = 0; m < d->best_k; m++)
                fprintf(stderr, " %c%s", ".BW"[d->best_seq[m].color],
                        go_point_name(d->best_seq[m].point, g->h, nm));
            fprintf(stderr, "\n");
        }
    }
    if (ok)
        for (int m = 0; m < d->best_k; m++) {
            int n0 = b->n;
            gog_commit_move(g, d->best_seq[m], t, frame, NULL, d->best_first[m], false, b);
            for (int e = n0; e < b->n; e++)
                if (b->ev[e].kind == GUARD_MOVE)
                    strncat(b->ev[e].text,
                            " (accepted under doubt: read back from the last views, a fast "
                            "exchange)",
                            sizeof b->ev[e].text - strlen(b->ev[e].text) - 1);
        }
    free(d);
    return ok;
}

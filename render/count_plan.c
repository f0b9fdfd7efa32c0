/* render/count_plan.c — what the counting after a Go game changes on the board, decided before it
 * is filmed. Players first take the dead stones off (board/'s estimate). Then, under territory
 * scoring (Japanese), the dame are filled, each player puts their prisoners into the opponent's
 * territory and the stones inside each territory, with the inner side of a thick wall, are moved
 * so that its empty points make rectangles of ten (2 x 5) and a short rest. Under area scoring
 * (Chinese) each player fills their territory from the bowl, leaving only rectangles of ten
 * empty. None of it may change the result: every step is checked with board/'s count and undone
 * when the count moved (seki eyes, a chain left in atari). */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

struct planner {
    const struct go_game *g;
    int w, h;
    uint8_t pos[GO_POINTS]; /* the board as the plan leaves it so far */
    struct count_plan *out;
    struct rng r;
};

static void push(struct planner *pl, enum count_op_kind k, int from, int to, enum go_color stone,
                 enum go_color hand)
{
    struct count_plan *p = pl->out;
    if (p->n >= COUNT_MAX_OPS) return;
    p->op[p->n++] = (struct count_op){k, from, to, stone, hand};
    if (k == COUNT_TAKE || k == COUNT_MOVE) pl->pos[from] = GO_EMPTY;
    if (k == COUNT_PUT || k == COUNT_MOVE) pl->pos[to] = (uint8_t)stone;
}

static int neighbours(const struct planner *pl, int p, int adj[4])
{
    int x = go_x(p), y = go_y(p), n = 0;
    if (x > 0) adj[n++] = p - 1;
    if (x + 1 < pl->w) adj[n++] = p + 1;
    if (y > 0) adj[n++] = p - GO_MAX;
    if (y + 1 < pl->h) adj[n++] = p + GO_MAX;
    return n;
}

/* The margin board/ counts for a position with no prisoners (the rules, komi and handicap of g). */
static double board_margin(const struct planner *pl, const uint8_t pos[GO_POINTS])
{
    struct go_game *s = go_game_new(pl->w, pl->h, go_game_rules(pl->g));
    if (!s) return NAN;
    go_game_set_handicap(s, go_game_handicap(pl->g));
    for (int y = 0; y < pl->h; y++)
        for (int x = 0; x < pl->w; x++)
            if (pos[go_point(x, y)]) go_game_setup(s, pos[go_point(x, y)], go_point(x, y));
    double m = go_game_count(s, NULL).margin;
    go_game_free(s);
    return m;
}

/* Empty regions bordered by one colour: region[p] = index or -1, owner[] per region. */
static int find_regions(const struct planner *pl, int region[GO_POINTS], uint8_t owner[GO_POINTS])
{
    int stack[GO_POINTS], n = 0;
    for (int p = 0; p < GO_POINTS; p++) region[p] = -1;
    for (int y = 0; y < pl->h; y++)
        for (int x = 0; x < pl->w; x++) {
            int s = go_point(x, y);
            if (pl->pos[s] != GO_EMPTY || region[s] != -1) continue;
            unsigned seen = 0;
            int sp = 0;
            region[s] = n;
            stack[sp++] = s;
            while (sp > 0) {
                int q = stack[--sp], adj[4], k = neighbours(pl, q, adj);
                for (int j = 0; j < k; j++) {
                    int a = adj[j];
                    seen |= 1u << pl->pos[a];
                    if (pl->pos[a] == GO_EMPTY && region[a] == -1) {
                        region[a] = n;
                        stack[sp++] = a;
                    }
                }
            }
            seen &= ~1u;
            owner[n++] = seen == (1u << GO_BLACK)   ? GO_BLACK
                         : seen == (1u << GO_WHITE) ? GO_WHITE
                                                    : GO_EMPTY;
        }
    return n;
}

/* The points of region `id` that should stay empty: as many 2 x 5 rectangles as fit (want points
 * at most), then, when `rest`, points next to them until there are exactly `want`. */
static void choose_empty(const struct planner *pl, const int region[GO_POINTS], int id, int want,
                         bool rest, bool keep[GO_POINTS])
{
    static const int shape[2][2] = {{5, 2}, {2, 5}};
    int count = 0;
    memset(keep, 0, sizeof(bool) * GO_POINTS);
    for (int y = 0; y < pl->h; y++)
        for (int x = 0; x < pl->w; x++)
            for (int s = 0; s < 2 && count + 10 <= want; s++) {
                int sw = shape[s][0], sh = shape[s][1];
                if (x + sw > pl->w || y + sh > pl->h) continue;
                bool fits = true;
                for (int dy = 0; dy < sh && fits; dy++)
                    for (int dx = 0; dx < sw && fits; dx++) {
                        int q = go_point(x + dx, y + dy);
                        fits = region[q] == id && !keep[q];
                    }
                if (!fits) continue;
                for (int dy = 0; dy < sh; dy++)
                    for (int dx = 0; dx < sw; dx++) keep[go_point(x + dx, y + dy)] = true;
                count += 10;
            }
    if (!rest) return;
    /* the rest grows from the rectangles (or the region's first point) so it stays together */
    int queue[GO_POINTS], head = 0, tail = 0;
    bool queued[GO_POINTS] = {false};
    for (int p = 0; p < GO_POINTS; p++)
        if (keep[p]) {
            queue[tail++] = p;
            queued[p] = true;
        }
    if (tail == 0)
        for (int p = 0; p < GO_POINTS && tail == 0; p++)
            if (region[p] == id && go_x(p) < pl->w) {
                queue[tail++] = p;
                queued[p] = true;
            }
    while (head < tail && count < want) {
        int q = queue[head++], adj[4], k = neighbours(pl, q, adj);
        if (!keep[q]) {
            keep[q] = true;
            count++;
        }
        for (int j = 0; j < k; j++)
            if (region[adj[j]] == id && !queued[adj[j]]) {
                queued[adj[j]] = true;
                queue[tail++] = adj[j];
            }
    }
}

static int manhattan(int a, int b)
{
    return abs(go_x(a) - go_x(b)) + abs(go_y(a) - go_y(b));
}

/* Moves (or, with from_bowl, puts) stones so that exactly the `keep` points of region id are
 * empty; the stones are the owner's. */
static void arrange(struct planner *pl, const int region[GO_POINTS], int id, enum go_color owner,
                    const bool keep[GO_POINTS], bool from_bowl)
{
    for (int a = 0; a < GO_POINTS; a++) {
        if (region[a] != id || keep[a] || pl->pos[a] != GO_EMPTY) continue;
        if (from_bowl) {
            push(pl, COUNT_PUT, -1, a, owner, owner);
            continue;
        }
        int best = -1; /* the nearest stone lying on a point that should be empty */
        for (int b = 0; b < GO_POINTS; b++)
            if (region[b] == id && keep[b] && pl->pos[b] != GO_EMPTY &&
                (best < 0 || manhattan(a, b) < manhattan(a, best)))
                best = b;
        if (best >= 0) push(pl, COUNT_MOVE, best, a, owner, owner);
    }
}

/* The owner's stones that only touch region id or more of the owner's stones: the inner side of
 * a thick wall, which the players may move too when they straighten the territory. */
static void inner_wall(const struct planner *pl, const int region[GO_POINTS], int id,
                       enum go_color owner, int area[GO_POINTS])
{
    memcpy(area, region, sizeof(int) * GO_POINTS);
    for (int q = 0; q < GO_POINTS; q++) {
        if (go_x(q) >= pl->w || go_y(q) >= pl->h || pl->pos[q] != owner || region[q] >= 0) continue;
        int adj[4], k = neighbours(pl, q, adj), touches = 0;
        bool inner = true;
        for (int j = 0; j < k; j++) {
            touches += region[adj[j]] == id;
            inner = inner && (region[adj[j]] == id || pl->pos[adj[j]] == owner);
        }
        if (inner && touches > 0) area[q] = id;
    }
}

/* Keeps the operations since n0 when board/'s count, with lid[] prisoners in the lids, is still
 * want; else undoes them (the plan and the board back to `saved`). */
static bool keep_if_count_holds(struct planner *pl, int n0, const uint8_t saved[GO_POINTS],
                                const int lid[3], double want)
{
    double m = board_margin(pl, pl->pos) + lid[GO_BLACK] - lid[GO_WHITE];
    if (pl->out->n > n0 && fabs(m - want) < 1e-9) return true;
    pl->out->n = n0;
    memcpy(pl->pos, saved, GO_POINTS);
    return false;
}

/* Region id of `owner`: the prisoners put in (territory scoring), then the stones arranged so
 * that the empty points make rectangles of ten; each step kept only when board/'s count, with the
 * prisoners still in the lids (lid[]), did not move (a seki eye, a chain left in atari). */
static void checked_region(struct planner *pl, const int region[GO_POINTS], int id,
                           enum go_color owner, int prisoners, bool territory, double want_margin,
                           int lid[3])
{
    struct count_plan *p = pl->out;
    uint8_t saved[GO_POINTS];
    int n0 = p->n, placer = go_other(owner);
    memcpy(saved, pl->pos, sizeof saved);
    /* prisoners dropped where the hand happens to reach first: random points of the region */
    for (int k = 0; k < prisoners; k++) {
        int pts[GO_POINTS], n = 0;
        for (int q = 0; q < GO_POINTS; q++)
            if (region[q] == id && pl->pos[q] == GO_EMPTY) pts[n++] = q;
        if (n <= 2) break;
        push(pl, COUNT_PUT, -1, pts[rng_int(&pl->r, n)], owner, (enum go_color)placer);
    }
    int lid_after[3] = {lid[0], lid[1], lid[2]};
    lid_after[placer] -= p->n - n0;
    if (p->n > n0 && keep_if_count_holds(pl, n0, saved, lid_after, want_margin)) {
        memcpy(lid, lid_after, sizeof lid_after);
        memcpy(saved, pl->pos, sizeof saved);
        n0 = p->n;
    }
    int empty = 0, size = 0, area[GO_POINTS];
    for (int q = 0; q < GO_POINTS; q++) {
        size += region[q] == id;
        empty += region[q] == id && pl->pos[q] == GO_EMPTY;
    }
    bool keep[GO_POINTS];
    /* territory: the same number of empty points, walls straightened when the count allows;
     * area: filled from the bowl, leaving only whole rectangles */
    for (int wall = territory; wall >= 0; wall--) {
        if (wall)
            inner_wall(pl, region, id, owner, area);
        else
            memcpy(area, region, sizeof area);
        choose_empty(pl, area, id, territory ? empty : size / 10 * 10, territory, keep);
        arrange(pl, area, id, owner, keep, !territory);
        if (keep_if_count_holds(pl, n0, saved, lid, want_margin)) return;
    }
}

void count_plan_make(const struct go_game *g, const uint8_t board[GO_POINTS], uint64_t seed,
                     struct count_plan *out)
{
    struct planner *pl = calloc(1, sizeof *pl);
    int lid[3] = {0, 0, 0}; /* prisoners not on the board (territory scoring counts them) */
    out->n = 0;
    out->lid[GO_BLACK] = out->lid[GO_WHITE] = 0;
    if (!pl) return;
    pl->g = g;
    pl->w = go_game_width(g);
    pl->h = go_game_height(g);
    pl->out = out;
    pl->r = rng_stream(seed, RS_TIMELINE, 77);
    memcpy(pl->pos, board, GO_POINTS);
    /* stones that are not part of the game (a resignation's two) go back to the bowl first */
    for (int p = 0; p < GO_POINTS; p++)
        if (pl->pos[p] != GO_EMPTY && go_game_at(g, p) != pl->pos[p])
            push(pl, COUNT_TAKE, p, -1, (enum go_color)pl->pos[p], (enum go_color)pl->pos[p]);
    uint8_t dead[GO_POINTS];
    go_estimate_dead(g, dead, NULL);
    for (int p = 0; p < GO_POINTS; p++)
        if (dead[p] && pl->pos[p] != GO_EMPTY)
            push(pl, COUNT_TAKE, p, -1, (enum go_color)pl->pos[p],
                 go_other((enum go_color)pl->pos[p]));
    const struct go_rules *rules = go_game_rules(g);
    if (rules->scoring == GO_SCORE_STONES || rules->tax == GO_TAX_ALL) goto done;
    bool territory = rules->scoring == GO_SCORE_TERRITORY;
    if (rules->tax != GO_TAX_NONE) { /* the dame, as board/'s count fills them */
        int pts[GO_POINTS];
        enum go_color cols[GO_POINTS];
        int n = go_dame_fill(g, dead, pts, cols);
        for (int i = 0; i < n; i++)
            if (pl->pos[pts[i]] == GO_EMPTY) push(pl, COUNT_PUT, -1, pts[i], cols[i], cols[i]);
    }
    struct go_score before = go_game_count(g, dead);
    if (territory) {
        lid[GO_BLACK] = before.prisoners[GO_BLACK];
        lid[GO_WHITE] = before.prisoners[GO_WHITE];
    }
    double want = board_margin(pl, pl->pos) + lid[GO_BLACK] - lid[GO_WHITE];
    int region[GO_POINTS], nreg;
    uint8_t owner[GO_POINTS];
    nreg = find_regions(pl, region, owner);
    /* prisoners shared out over the opponent's regions, the roomiest first, two points left open */
    int share[GO_POINTS] = {0}, room[GO_POINTS] = {0};
    for (int p = 0; p < GO_POINTS; p++)
        if (region[p] >= 0) room[region[p]]++;
    for (int c = GO_BLACK; territory && c <= GO_WHITE; c++)
        for (int left = lid[c]; left > 0; left--) {
            int best = -1;
            for (int i = 0; i < nreg; i++)
                if (owner[i] == go_other((enum go_color)c) && room[i] - share[i] > 2 &&
                    (best < 0 || room[i] - share[i] > room[best] - share[best]))
                    best = i;
            if (best < 0) break;
            share[best]++;
        }
    for (int i = 0; i < nreg; i++)
        if (owner[i] != GO_EMPTY)
            checked_region(pl, region, i, (enum go_color)owner[i], share[i], territory, want, lid);
done:
    out->lid[GO_BLACK] = lid[GO_BLACK];
    out->lid[GO_WHITE] = lid[GO_WHITE];
    free(pl);
}

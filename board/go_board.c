/* board/go_board.c — a Go position: stones, chains with pseudo-liberties, Zobrist hash.
 *
 * Chains are circular lists through next[] with a representative stone in head[]; the head keeps
 * the chain's size and pseudo-liberty count (one per stone-to-empty adjacency). Pseudo-liberties
 * reach zero exactly when the chain has no liberty, and a neighbour chain is captured by a stone
 * at p exactly when all its pseudo-liberties are adjacencies to p — which is how go_board_trial
 * answers "what would this move do" without changing anything. */
#include "board/go_internal.h"

#include <string.h>

/* splitmix64's finaliser over (seed, colour, point): well mixed, no table, same on every run. */
uint64_t go_zobrist(enum go_color c, int p)
{
    uint64_t z = 0x9e3779b97f4a7c15ULL * (uint64_t)(c * GO_POINTS + p + 1) ^ 0x6b69667563616d21ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void go_board_init(struct go_board *b, int w, int h)
{
    memset(b, 0, sizeof *b);
    b->w = w;
    b->h = h;
}

bool go_board_on(const struct go_board *b, int p)
{
    return p >= 0 && p < GO_POINTS && go_x(p) < b->w && go_y(p) < b->h;
}

int go_board_neighbors(const struct go_board *b, int p, int out[4])
{
    int x = go_x(p), y = go_y(p), n = 0;
    if (x > 0) out[n++] = p - 1;
    if (x + 1 < b->w) out[n++] = p + 1;
    if (y > 0) out[n++] = p - GO_MAX;
    if (y + 1 < b->h) out[n++] = p + GO_MAX;
    return n;
}

static int empty_neighbors(const struct go_board *b, int p)
{
    int nb[4], k = go_board_neighbors(b, p, nb), e = 0;
    for (int i = 0; i < k; i++) e += b->color[nb[i]] == GO_EMPTY;
    return e;
}

/* Rebuild every chain from the colours (after setup; not on the play path). */
static void rebuild_chains(struct go_board *b)
{
    static const int none = -1;
    uint8_t seen[GO_POINTS] = {0};
    int stack[GO_POINTS];
    for (int y = 0; y < b->h; y++) {
        for (int x = 0; x < b->w; x++) {
            int s = go_point(x, y);
            if (b->color[s] == GO_EMPTY || seen[s]) continue;
            int top = 0, prev = none, count = 0, pseudo = 0;
            stack[top++] = s;
            seen[s] = 1;
            while (top > 0) {
                int q = stack[--top], nb[4], k = go_board_neighbors(b, q, nb);
                b->head[q] = (uint16_t)s;
                b->next[q] = (uint16_t)(prev == none ? q : prev);
                prev = q;
                count++;
                for (int i = 0; i < k; i++) {
                    if (b->color[nb[i]] == GO_EMPTY) {
                        pseudo++;
                    } else if (b->color[nb[i]] == b->color[s] && !seen[nb[i]]) {
                        seen[nb[i]] = 1;
                        stack[top++] = nb[i];
                    }
                }
            }
            /* The list was built backwards from s; close the circle at s. */
            b->next[s] = (uint16_t)prev;
            b->size[s] = (uint16_t)count;
            b->pseudo[s] = (uint16_t)pseudo;
        }
    }
}

void go_board_set(struct go_board *b, int p, enum go_color c)
{
    if (!go_board_on(b, p) || b->color[p] == c) return;
    enum go_color old = b->color[p];
    if (old != GO_EMPTY) {
        b->hash ^= go_zobrist(old, p);
        b->stones[old]--;
    }
    if (c != GO_EMPTY) {
        b->hash ^= go_zobrist(c, p);
        b->stones[c]++;
    }
    b->color[p] = (uint8_t)c;
    rebuild_chains(b);
}

/* The distinct chains next to p and how many of p's sides touch each. */
struct near_chains {
    int n;
    int head[4], adj[4];
    int empty; /* empty neighbours of p */
};

static void near_chains(const struct go_board *b, int p, struct near_chains *nc)
{
    int nb[4], k = go_board_neighbors(b, p, nb);
    nc->n = 0;
    nc->empty = 0;
    for (int i = 0; i < k; i++) {
        if (b->color[nb[i]] == GO_EMPTY) {
            nc->empty++;
            continue;
        }
        int h = b->head[nb[i]], j = 0;
        while (j < nc->n && nc->head[j] != h) j++;
        if (j == nc->n) {
            nc->head[nc->n] = h;
            nc->adj[nc->n++] = 0;
        }
        nc->adj[j]++;
    }
}

static uint64_t chain_hash(const struct go_board *b, int h)
{
    enum go_color c = b->color[h];
    uint64_t z = 0;
    int s = h;
    do {
        z ^= go_zobrist(c, s);
        s = b->next[s];
    } while (s != h);
    return z;
}

struct go_trial go_board_trial(const struct go_board *b, int p, enum go_color c)
{
    struct go_trial t = {.ko_point = GO_NOPOINT, .hash = b->hash};
    struct near_chains nc;
    near_chains(b, p, &nc);
    bool friend_near = false, friend_breathes = false;
    int friend_stones = 0, single_victim = GO_NOPOINT;
    for (int i = 0; i < nc.n; i++) {
        int h = nc.head[i];
        bool last_liberty = b->pseudo[h] == nc.adj[i];
        if (b->color[h] == c) {
            friend_near = true;
            friend_stones += b->size[h];
            if (!last_liberty) friend_breathes = true;
        } else if (last_liberty) {
            t.captured += b->size[h];
            t.hash ^= chain_hash(b, h);
            if (b->size[h] == 1) single_victim = h;
        }
    }
    if (t.captured == 0 && nc.empty == 0 && !friend_breathes) {
        /* Suicide: the new stone and its friends leave the board. */
        t.suicide = 1 + friend_stones;
        for (int i = 0; i < nc.n; i++)
            if (b->color[nc.head[i]] == c) t.hash ^= chain_hash(b, nc.head[i]);
        return t;
    }
    t.hash ^= go_zobrist(c, p);
    if (t.captured == 1 && !friend_near && nc.empty == 0) {
        t.ko_shape = true;
        t.ko_point = single_victim;
    }
    return t;
}

/* Join chain b2 into chain a (a keeps its head); lists are spliced by swapping successors. */
static int merge(struct go_board *b, int a, int b2)
{
    if (b->size[a] < b->size[b2]) {
        int tmp = a;
        a = b2;
        b2 = tmp;
    }
    int s = b2;
    do {
        b->head[s] = (uint16_t)a;
        s = b->next[s];
    } while (s != b2);
    uint16_t na = b->next[a];
    b->next[a] = b->next[b2];
    b->next[b2] = na;
    b->size[a] = (uint16_t)(b->size[a] + b->size[b2]);
    b->pseudo[a] = (uint16_t)(b->pseudo[a] + b->pseudo[b2]);
    return a;
}

static void remove_chain(struct go_board *b, int h)
{
    enum go_color c = b->color[h];
    int s = h;
    do {
        b->color[s] = GO_EMPTY;
        b->hash ^= go_zobrist(c, s);
        s = b->next[s];
    } while (s != h);
    b->stones[c] -= b->size[h];
    /* Every emptied point is a new liberty for each stone next to it. */
    do {
        int nb[4], k = go_board_neighbors(b, s, nb);
        for (int i = 0; i < k; i++)
            if (b->color[nb[i]] != GO_EMPTY) b->pseudo[b->head[nb[i]]]++;
        s = b->next[s];
    } while (s != h);
}

void go_board_play(struct go_board *b, int p, enum go_color c, struct go_trial *t)
{
    *t = go_board_trial(b, p, c);
    b->color[p] = (uint8_t)c;
    b->hash ^= go_zobrist(c, p);
    b->stones[c]++;
    b->head[p] = (uint16_t)p;
    b->next[p] = (uint16_t)p;
    b->size[p] = 1;
    b->pseudo[p] = (uint16_t)empty_neighbors(b, p);

    int nb[4], k = go_board_neighbors(b, p, nb);
    for (int i = 0; i < k; i++)
        if (b->color[nb[i]] != GO_EMPTY && nb[i] != p) b->pseudo[b->head[nb[i]]]--;
    int mine = p;
    for (int i = 0; i < k; i++)
        if (b->color[nb[i]] == c && b->head[nb[i]] != mine) mine = merge(b, mine, b->head[nb[i]]);
    for (int i = 0; i < k; i++) {
        int q = nb[i];
        if (b->color[q] == go_other(c) && b->pseudo[b->head[q]] == 0) remove_chain(b, b->head[q]);
    }
    if (b->pseudo[mine] == 0) remove_chain(b, mine);
}

int go_board_liberties(const struct go_board *b, int p)
{
    if (!go_board_on(b, p) || b->color[p] == GO_EMPTY) return 0;
    uint8_t mark[GO_POINTS];
    memset(mark, 0, sizeof mark);
    int h = b->head[p], s = h, libs = 0;
    do {
        int nb[4], k = go_board_neighbors(b, s, nb);
        for (int i = 0; i < k; i++) {
            if (b->color[nb[i]] == GO_EMPTY && !mark[nb[i]]) {
                mark[nb[i]] = 1;
                libs++;
            }
        }
        s = b->next[s];
    } while (s != h);
    return libs;
}

int go_board_chain(const struct go_board *b, int p, int out[GO_POINTS])
{
    if (!go_board_on(b, p) || b->color[p] == GO_EMPTY) return 0;
    int h = b->head[p], s = h, n = 0;
    do {
        out[n++] = s;
        s = b->next[s];
    } while (s != h);
    return n;
}

/* tests/app/go_faults.c — see go_faults.h. The generator replays the real game with the rules core
 * to know the position at every ply, picks a place for the fault from the seed, and builds a new
 * record: the real nodes, with the faulty move and a restoring setup node spliced in. */
#include "tests/app/go_faults.h"

#include <stdlib.h>
#include <string.h>

const char *go_fault_name(enum go_fault f)
{
    static const char *const names[FAULT_COUNT] = {"occupied", "suicide", "ko", "two-moves",
                                                   "after-end"};
    return (unsigned)f < FAULT_COUNT ? names[f] : "?";
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void copy_node(struct go_record_node *dst, const struct go_record_node *src)
{
    *dst = *src;
    dst->setup = NULL;
    if (src->nsetup) {
        dst->setup = malloc((size_t)src->nsetup * sizeof *dst->setup);
        memcpy(dst->setup, src->setup, (size_t)src->nsetup * sizeof *dst->setup);
    }
    dst->comment = dup_or_null(src->comment);
}

static struct go_record_node plain_node(void)
{
    struct go_record_node n;
    memset(&n, 0, sizeof n);
    n.time_left = -1;
    n.periods_left = -1;
    n.player = GO_EMPTY;
    return n;
}

/* A deep copy of r with room for `extra` more nodes. */
static struct go_record *copy_record(const struct go_record *r, int extra)
{
    struct go_record *c = malloc(sizeof *c);
    *c = *r;
    char **fields[] = {&c->black,        &c->white,       &c->black_rank,   &c->white_rank,
                       &c->event,        &c->round,       &c->date,         &c->place,
                       &c->result,       &c->rules,       &c->time_control, &c->overtime,
                       &c->game_comment, &c->application, &c->game_name,    &c->source};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        *fields[i] = dup_or_null(*fields[i]);
    c->nodes = calloc((size_t)(r->nnodes + extra), sizeof *c->nodes);
    c->nnodes = 0;
    return c;
}

static void append_copy(struct go_record *c, const struct go_record_node *n)
{
    copy_node(&c->nodes[c->nnodes++], n);
}

static void append_move(struct go_record *c, enum go_color color, int point)
{
    struct go_record_node n = plain_node();
    n.has_move = true;
    n.move = (struct go_move){color, point};
    c->nodes[c->nnodes++] = n;
}

/* A setup node that sets each listed point and gives the turn to `player`. */
static void append_setup(struct go_record *c, const struct go_move *stones, int n,
                         enum go_color player)
{
    struct go_record_node node = plain_node();
    if (n) {
        node.setup = malloc((size_t)n * sizeof *node.setup);
        memcpy(node.setup, stones, (size_t)n * sizeof *node.setup);
        node.nsetup = n;
    }
    node.player = player;
    c->nodes[c->nnodes++] = node;
}

struct candidate {
    int node; /* the fault goes before (or after, for ko/two moves) this node */
    int point;
};

struct cand_list {
    struct candidate *v;
    int n, cap;
};

static void cand_add(struct cand_list *l, int node, int point)
{
    if (l->n == l->cap)
        l->v = realloc(l->v, (size_t)(l->cap = l->cap ? l->cap * 2 : 256) * sizeof *l->v);
    l->v[l->n++] = (struct candidate){node, point};
}

static bool isolated_empty(const struct go_game *g, int p)
{
    int w = go_game_width(g), h = go_game_height(g), x = go_x(p), y = go_y(p);
    if (go_game_at(g, p) != GO_EMPTY) return false;
    int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (int i = 0; i < 4; i++) {
        int nx = x + d[i][0], ny = y + d[i][1];
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        if (go_game_at(g, go_point(nx, ny)) != GO_EMPTY) return false;
    }
    return true;
}

static bool played_later(const struct go_record *r, int node, int p)
{
    for (int i = node + 1; i < r->nnodes; i++)
        if (r->nodes[i].has_move && r->nodes[i].move.point == p) return true;
    return false;
}

/* Scan the game for every place where fault f can go. Returns false when the record is not usable
 * (handicap given as moves, a setup in the middle) so that its plies would not be plain. */
static bool find_candidates(const struct go_record *r, const struct go_rules *rules,
                            enum go_fault f, struct cand_list *out, enum go_color *last_to_move,
                            bool *ends_in_pass)
{
    struct go_game *g = go_game_new(r->width, r->height, rules);
    if (!g) return false;
    int w = r->width, h = r->height, black_setup = 0;
    *ends_in_pass = false;
    bool moved = false;
    for (int i = 0; i < r->nnodes; i++) {
        const struct go_record_node *n = &r->nodes[i];
        if (n->nsetup && moved) {
            go_game_free(g);
            return false;
        }
        for (int s = 0; s < n->nsetup; s++) {
            go_game_setup(g, n->setup[s].color, n->setup[s].point);
            black_setup += n->setup[s].color == GO_BLACK;
        }
        if (n->has_move && !moved && r->handicap >= 2) {
            if (black_setup < r->handicap) {
                go_game_free(g);
                return false;
            }
            go_game_set_handicap(g, r->handicap);
            go_game_set_to_move(g, GO_WHITE);
        }
        moved = moved || n->has_move;
        if (n->player != GO_EMPTY && !n->has_move) go_game_set_to_move(g, n->player);
        if (!n->has_move) continue;
        struct go_move m = n->move;
        /* Faults placed before this move, by the player about to move. */
        if (f == FAULT_OCCUPIED || f == FAULT_SUICIDE) {
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    int p = go_point(x, y);
                    if (f == FAULT_OCCUPIED && go_game_at(g, p) != GO_EMPTY) cand_add(out, i, p);
                    if (f == FAULT_SUICIDE && go_game_at(g, p) == GO_EMPTY) {
                        struct go_verdict v = go_game_check(g, (struct go_move){m.color, p});
                        if (v.kind == GO_ILLEGAL_SUICIDE && v.captured == -1) cand_add(out, i, p);
                    }
                }
        }
        go_game_play(g, m);
        if (n->player != GO_EMPTY) go_game_set_to_move(g, n->player);
        *ends_in_pass = m.point == GO_PASS;
        /* Faults placed after this move. */
        if (f == FAULT_KO && m.point != GO_PASS && i + 1 < r->nnodes) {
            enum go_color opp = go_other(m.color);
            for (int k = 0; k < 4; k++) {
                int dx = k == 0 ? 1 : k == 1 ? -1 : 0, dy = k == 2 ? 1 : k == 3 ? -1 : 0;
                int nx = go_x(m.point) + dx, ny = go_y(m.point) + dy;
                if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
                int q = go_point(nx, ny);
                if (go_game_at(g, q) != GO_EMPTY) continue;
                if (go_game_check(g, (struct go_move){opp, q}).kind == GO_ILLEGAL_KO)
                    cand_add(out, i, q);
            }
        }
        /* The extra stone goes where nobody plays later, so that no later position can repeat
         * the one it made for a moment. */
        if (f == FAULT_TWO_MOVES && m.point != GO_PASS && i + 1 < r->nnodes) {
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    if (isolated_empty(g, go_point(x, y)) && !played_later(r, i, go_point(x, y)))
                        cand_add(out, i, go_point(x, y));
        }
    }
    *last_to_move = go_game_to_move(g);
    if (f == FAULT_AFTER_END && !*ends_in_pass && go_game_state(g) == GO_PLAYING) {
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                if (isolated_empty(g, go_point(x, y))) cand_add(out, r->nnodes, go_point(x, y));
    }
    go_game_free(g);
    return true;
}

static int moves_before(const struct go_record *r, int node)
{
    int n = 0;
    for (int i = 0; i < node && i < r->nnodes; i++) n += r->nodes[i].has_move;
    return n;
}

bool go_fault_inject(const struct go_record *r, const struct go_rules *rules, enum go_fault f,
                     unsigned seed, struct go_fault_result *out)
{
    struct cand_list cands = {0};
    enum go_color to_move;
    bool ends_in_pass;
    memset(out, 0, sizeof *out);
    if (!find_candidates(r, rules, f, &cands, &to_move, &ends_in_pass) || cands.n == 0) {
        free(cands.v);
        return false;
    }
    if (f == FAULT_AFTER_END && rules->white_passes_last && to_move == GO_WHITE) {
        free(cands.v);
        return false;
    }
    struct candidate c = cands.v[seed % (unsigned)cands.n];
    free(cands.v);

    struct go_record *fr = copy_record(r, 4);
    const struct go_record_node *at = c.node < r->nnodes ? &r->nodes[c.node] : NULL;
    switch (f) {
    case FAULT_OCCUPIED:
    case FAULT_SUICIDE:
        /* The faulty move comes just before node c.node, by the player who makes that move; the
         * board is unchanged after it (occupied: nothing placed; suicide: the stone removed
         * itself), so the restoring setup only gives the turn back. */
        for (int i = 0; i < c.node; i++) append_copy(fr, &r->nodes[i]);
        append_move(fr, at->move.color, c.point);
        append_setup(fr, NULL, 0, at->move.color);
        for (int i = c.node; i < r->nnodes; i++) append_copy(fr, &r->nodes[i]);
        out->ply = moves_before(r, c.node) + 1;
        out->kind = f == FAULT_OCCUPIED || f == FAULT_SUICIDE ? GUARD_ILLEGAL_MOVE : GUARD_MOVE;
        break;
    case FAULT_KO: {
        /* After node c.node took a ko, the opponent retakes it at once; the referee then puts the
         * stones back: the ko stone returns, the retaking stone goes. */
        for (int i = 0; i <= c.node; i++) append_copy(fr, &r->nodes[i]);
        enum go_color taker = at->move.color, opp = go_other(taker);
        append_move(fr, opp, c.point);
        struct go_move restore[2] = {{taker, at->move.point}, {GO_EMPTY, c.point}};
        append_setup(fr, restore, 2, opp);
        for (int i = c.node + 1; i < r->nnodes; i++) append_copy(fr, &r->nodes[i]);
        out->ply = moves_before(r, c.node + 1) + 1;
        out->kind = GUARD_ILLEGAL_MOVE;
        break;
    }
    case FAULT_TWO_MOVES: {
        for (int i = 0; i <= c.node; i++) append_copy(fr, &r->nodes[i]);
        enum go_color mover = at->move.color;
        append_move(fr, mover, c.point);
        struct go_move restore[1] = {{GO_EMPTY, c.point}};
        append_setup(fr, restore, 1, go_other(mover));
        for (int i = c.node + 1; i < r->nnodes; i++) append_copy(fr, &r->nodes[i]);
        out->ply = moves_before(r, c.node + 1) + 1;
        out->kind = GUARD_TWO_MOVES;
        break;
    }
    case FAULT_AFTER_END:
        for (int i = 0; i < r->nnodes; i++) append_copy(fr, &r->nodes[i]);
        append_move(fr, to_move, GO_PASS);
        append_move(fr, go_other(to_move), GO_PASS);
        append_move(fr, to_move, c.point);
        out->ply = moves_before(r, r->nnodes) + 3;
        out->kind = GUARD_AFTER_END;
        break;
    case FAULT_COUNT: break;
    }
    out->record = fr;
    return true;
}

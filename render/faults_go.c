/* render/faults_go.c — where the Go faults go. A fault is a change to the stones after some move
 * (an extra stone, a stone slid or taken off, prisoners left lying); the seed proposes places
 * and the rules core vets them: replaying the rest of the record with the change must give the
 * same positions apart from the changed points, so the game goes on as recorded and the fault
 * stays exactly where the time line says. The illegal moves (a ko retaken at once, a suicide)
 * are put back before the record's next move: they need a place the record really offers (a
 * ko the game took; an eye of the other colour none of whose walls is in atari). */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

/* Replay the record (its first maxm moves) on two boards, changing the second after ply k; true
 * when every later position differs only at the changed points, which keep their new value. */
static bool harmless(const struct go_record *rec, int maxm, int k, const int *pt,
                     const uint8_t *val, int nt)
{
    const struct go_rules *rules = rec->rules ? go_rules_find(rec->rules) : NULL;
    struct go_game *a = go_game_new(rec->width, rec->height, rules);
    struct go_game *b = go_game_new(rec->width, rec->height, rules);
    bool ok = a && b, tweaked = false;
    int ply = 0;
    for (int n = 0; ok && n < rec->nnodes; n++) {
        const struct go_record_node *node = &rec->nodes[n];
        for (int s = 0; s < node->nsetup; s++) {
            go_game_setup(a, node->setup[s].color, node->setup[s].point);
            go_game_setup(b, node->setup[s].color, node->setup[s].point);
        }
        if (!node->has_move) continue;
        if (maxm > 0 && ply >= maxm) break;
        for (int t = 0; t < nt && tweaked; t++)
            if (node->move.point == pt[t]) ok = false;
        go_game_play(a, node->move);
        go_game_play(b, node->move);
        ply++;
        if (ply == k) {
            for (int t = 0; t < nt; t++) go_game_setup(b, (enum go_color)val[t], pt[t]);
            tweaked = true;
        }
        for (int p = 0; tweaked && ok && p < GO_POINTS; p++) {
            int want = go_game_at(a, p);
            for (int t = 0; t < nt; t++)
                if (pt[t] == p) want = val[t];
            if ((int)go_game_at(b, p) != want) ok = false;
        }
    }
    go_game_free(a);
    go_game_free(b);
    return ok && tweaked;
}

/* The board after every ply of the first n, the points each move captured, and its mover:
 * one replay, looked up by every proposal (board_at). */
struct plies {
    int n;
    uint8_t (*pos)[GO_POINTS], (*cap)[GO_POINTS];
    int *mover, *point;
};

static bool plies_make(const struct go_record *rec, int n, struct plies *pl)
{
    pl->n = n;
    pl->pos = calloc((size_t)n + 1, sizeof *pl->pos);
    pl->cap = calloc((size_t)n + 1, sizeof *pl->cap);
    pl->mover = calloc((size_t)n + 1, sizeof *pl->mover);
    pl->point = calloc((size_t)n + 1, sizeof *pl->point);
    const struct go_rules *rules = rec->rules ? go_rules_find(rec->rules) : NULL;
    struct go_game *g = go_game_new(rec->width, rec->height, rules);
    if (!pl->pos || !pl->cap || !pl->mover || !pl->point || !g) {
        go_game_free(g);
        return false;
    }
    int ply = 0;
    pl->mover[0] = GO_BLACK;
    for (int nd = 0; nd < rec->nnodes && ply < n; nd++) {
        const struct go_record_node *node = &rec->nodes[nd];
        for (int s = 0; s < node->nsetup; s++)
            go_game_setup(g, node->setup[s].color, node->setup[s].point);
        if (!node->has_move) continue;
        uint8_t before[GO_POINTS];
        for (int p = 0; p < GO_POINTS; p++) before[p] = (uint8_t)go_game_at(g, p);
        go_game_play(g, node->move);
        ply++;
        pl->mover[ply] = node->move.color;
        pl->point[ply] = node->move.point;
        for (int p = 0; p < GO_POINTS; p++) {
            pl->pos[ply][p] = (uint8_t)go_game_at(g, p);
            pl->cap[ply][p] = before[p] != GO_EMPTY && pl->pos[ply][p] == GO_EMPTY ? before[p] : 0;
        }
    }
    go_game_free(g);
    return true;
}

static void plies_free(struct plies *pl)
{
    free(pl->pos);
    free(pl->cap);
    free(pl->mover);
    free(pl->point);
}

/* The board after ply k (1..n), the points the move at ply k captured, and its mover. */
static void board_at(const struct plies *pl, int k, uint8_t out[GO_POINTS],
                     uint8_t captured[GO_POINTS], int *mover)
{
    memcpy(out, pl->pos[k], GO_POINTS);
    memcpy(captured, pl->cap[k], GO_POINTS);
    *mover = pl->mover[k];
}

static bool taken(const struct go_fault_plan *p, int k)
{
    return k == p->same_k || k == p->moved_k || k == p->removed_k || k == p->left_k ||
           k == p->knock_k || k == p->ko_k || k == p->sui_k;
}

/* The record's game after its first k moves (NULL: out of memory). */
static struct go_game *game_after(const struct go_record *rec, int k)
{
    const struct go_rules *rules = rec->rules ? go_rules_find(rec->rules) : NULL;
    struct go_game *g = go_game_new(rec->width, rec->height, rules);
    int ply = 0;
    for (int nd = 0; g && nd < rec->nnodes && ply < k; nd++) {
        const struct go_record_node *node = &rec->nodes[nd];
        for (int s = 0; s < node->nsetup; s++)
            go_game_setup(g, node->setup[s].color, node->setup[s].point);
        if (!node->has_move) continue;
        go_game_play(g, node->move);
        ply++;
    }
    return g;
}

/* The ko the move at ply k took, when the other side may not retake it at once: the point it
 * took (*pt) and the taking stone (*taker). */
static bool ko_at(const struct go_record *rec, const struct plies *pl, int k, int *pt, int *taker)
{
    int q = -1, n = 0;
    for (int p = 0; p < GO_POINTS; p++)
        if (pl->cap[k][p]) q = p, n++;
    if (n != 1 || pl->point[k] < 0) return false;
    struct go_game *g = game_after(rec, k);
    if (!g) return false;
    struct go_move m = {go_other((enum go_color)pl->mover[k]), q};
    bool ko = go_game_check(g, m).kind == GO_ILLEGAL_KO;
    go_game_free(g);
    *pt = q;
    *taker = pl->point[k];
    return ko;
}

/* A point where the side to move after ply k would put a stone that has no liberty and takes
 * nothing (every neighbour the other colour's, none of their chains in atari), from a seeded
 * start; -1 when there is none. */
static int suicide_at(const struct go_record *rec, const struct plies *pl, int k, int off)
{
    if (pl->point[k] < 0) return -1; /* after a pass the time line has no fault visits */
    int w = rec->width, h = rec->height;
    enum go_color c = go_other((enum go_color)pl->mover[k]);
    struct go_game *g = NULL;
    int found = -1;
    for (int j = 0; j < w * h && found < 0; j++) {
        int q = (off + j) % (w * h), x = q % w, y = q / w, p = go_point(x, y);
        if (pl->pos[k][p] != GO_EMPTY) continue;
        static const int dd[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
        bool walled = true;
        for (int d = 0; d < 4 && walled; d++) {
            int nx = x + dd[d][0], ny = y + dd[d][1];
            if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
            walled = pl->pos[k][go_point(nx, ny)] == go_other(c);
        }
        if (!walled) continue;
        if (!g) g = game_after(rec, k);
        if (!g) break;
        struct go_verdict v = go_game_check(g, (struct go_move){c, p});
        if (v.kind == GO_ILLEGAL_SUICIDE && v.captured == -1) found = p;
    }
    go_game_free(g);
    return found;
}

/* A point another fault changed within three lines of p? */
static bool near_used(const uint8_t used[GO_POINTS], int p)
{
    for (int q = 0; q < GO_POINTS; q++)
        if (used[q] && abs(go_x(q) - go_x(p)) + abs(go_y(q) - go_y(p)) <= 3) return true;
    return false;
}

void go_faults_plan(const struct go_record *rec, const struct render_opts *o, int nmoves,
                    struct go_fault_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    struct rng r = rng_stream(o->seed, RS_TIMELINE, 3);
    int w = rec->width, h = rec->height;
    struct plies pl;
    if (nmoves < 3 || !plies_make(rec, nmoves, &pl)) {
        if (nmoves >= 3) plies_free(&pl);
        return;
    }
    for (int attempt = 0; attempt < 200; attempt++) {
        int k = 2 + rng_int(&r, nmoves - 2); /* after ply k, before the last move */
        if (k >= nmoves) continue;           /* one fault per move (taken): each stays clear */
        uint8_t b[GO_POINTS], cap[GO_POINTS];
        int mover;
        board_at(&pl, k, b, cap, &mover);
        int x = rng_int(&r, w), y = rng_int(&r, h), p = go_point(x, y);
        if ((o->faults & RENDER_FAULT_SAME_COLOR) && !plan->same_k && !taken(plan, k) &&
            b[p] == GO_EMPTY) {
            uint8_t v = (uint8_t)mover;
            if (harmless(rec, nmoves, k, &p, &v, 1)) {
                plan->same_k = k;
                plan->same_pt = p;
                plan->same_color = mover;
            }
        }
        if ((o->faults & RENDER_FAULT_REMOVED_STONE) && !plan->removed_k && !taken(plan, k) &&
            b[p] != GO_EMPTY) {
            uint8_t v = GO_EMPTY;
            if (harmless(rec, nmoves, k, &p, &v, 1)) {
                plan->removed_k = k;
                plan->removed_pt = p;
                plan->removed_color = mover;
            }
        }
        if ((o->faults & RENDER_FAULT_MOVED_STONE) && !plan->moved_k && !taken(plan, k) &&
            b[p] != GO_EMPTY) {
            static const int dd[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            int d = rng_int(&r, 4), nx = x + dd[d][0], ny = y + dd[d][1];
            if (nx >= 0 && ny >= 0 && nx < w && ny < h && b[go_point(nx, ny)] == GO_EMPTY) {
                int pts[2] = {p, go_point(nx, ny)};
                uint8_t v[2] = {GO_EMPTY, b[p]};
                if (harmless(rec, nmoves, k, pts, v, 2)) {
                    plan->moved_k = k;
                    plan->moved_from = pts[0];
                    plan->moved_to = pts[1];
                    plan->moved_color = mover;
                }
            }
        }
        if ((o->faults & RENDER_FAULT_KNOCKED) && !plan->knock_k && !taken(plan, k))
            plan->knock_k = k;
    }
    /* a slid stone: every stone and direction of a move from a seeded start, until one fits */
    int from_k = 2 + rng_int(&r, nmoves - 2);
    for (int i = 0; (o->faults & RENDER_FAULT_MOVED_STONE) && !plan->moved_k && i < nmoves; i++) {
        int k = 1 + (from_k + i) % (nmoves - 1);
        if (k < 2 || taken(plan, k)) continue;
        uint8_t b[GO_POINTS], cap[GO_POINTS];
        int mover;
        board_at(&pl, k, b, cap, &mover);
        int off = rng_int(&r, w * h);
        for (int j = 0; j < w * h * 4 && !plan->moved_k; j++) {
            static const int dd[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            int q = (off + j / 4) % (w * h), x = q % w, y = q / w, d = j % 4;
            int nx = x + dd[d][0], ny = y + dd[d][1], p = go_point(x, y);
            if (b[p] == GO_EMPTY || nx < 0 || ny < 0 || nx >= w || ny >= h ||
                b[go_point(nx, ny)] != GO_EMPTY)
                continue;
            int pts[2] = {p, go_point(nx, ny)};
            uint8_t v[2] = {GO_EMPTY, b[p]};
            if (harmless(rec, nmoves, k, pts, v, 2)) {
                plan->moved_k = k;
                plan->moved_from = pts[0];
                plan->moved_to = pts[1];
                plan->moved_color = mover;
            }
        }
    }
    /* prisoners left lying: the first capture from a seeded start whose stones can stay */
    int start = 2 + rng_int(&r, nmoves - 2);
    for (int i = 0; (o->faults & RENDER_FAULT_CAPTURES_LEFT) && !plan->left_k && i < nmoves; i++) {
        int k = 1 + (start + i) % (nmoves - 1);
        uint8_t b[GO_POINTS], cap[GO_POINTS];
        int mover, pts[GO_POINTS], n = 0;
        board_at(&pl, k, b, cap, &mover);
        uint8_t v[GO_POINTS];
        for (int q = 0; q < GO_POINTS; q++)
            if (cap[q]) {
                pts[n] = q;
                v[n++] = cap[q];
            }
        if (n > 0 && !taken(plan, k) && harmless(rec, nmoves, k, pts, v, n)) plan->left_k = k;
    }
    /* a ko the record took, retaken at once: the first from a seeded start with a move after */
    int ko_from = 2 + rng_int(&r, nmoves - 2);
    for (int i = 0; (o->faults & RENDER_FAULT_KO_RETAKEN) && !plan->ko_k && i < nmoves; i++) {
        int k = 1 + (ko_from + i) % (nmoves - 1), pt, taker;
        if (k < 2 || taken(plan, k) || !ko_at(rec, &pl, k, &pt, &taker)) continue;
        plan->ko_k = k;
        plan->ko_pt = pt;
        plan->ko_taker = taker;
        plan->ko_color = go_other((enum go_color)pl.mover[k]);
    }
    /* a suicide: the first ply from a seeded start that offers one */
    int sui_from = 2 + rng_int(&r, nmoves - 2), sui_off = rng_int(&r, w * h);
    for (int i = 0; (o->faults & RENDER_FAULT_SUICIDE) && !plan->sui_k && i < nmoves; i++) {
        int k = 1 + (sui_from + i) % (nmoves - 1);
        if (k < 2 || taken(plan, k)) continue;
        int p = suicide_at(rec, &pl, k, sui_off);
        if (p < 0) continue;
        plan->sui_k = k;
        plan->sui_pt = p;
        plan->sui_color = go_other((enum go_color)pl.mover[k]);
    }
    /* faults must not touch each other's points (each was vetted against the record alone) */
    uint8_t used[GO_POINTS] = {0};
    if (plan->same_k) used[plan->same_pt] = 1;
    if (plan->moved_k) {
        if (used[plan->moved_from] || used[plan->moved_to])
            plan->moved_k = 0;
        else
            used[plan->moved_from] = used[plan->moved_to] = 1;
    }
    if (plan->removed_k) {
        if (used[plan->removed_pt])
            plan->removed_k = 0;
        else
            used[plan->removed_pt] = 1;
    }
    if (plan->left_k) {
        uint8_t b[GO_POINTS], cap[GO_POINTS];
        int mover;
        board_at(&pl, plan->left_k, b, cap, &mover);
        for (int q = 0; q < GO_POINTS; q++)
            if (cap[q] && used[q]) plan->left_k = 0;
        if (plan->left_k)
            for (int q = 0; q < GO_POINTS; q++) used[q] |= cap[q];
    }
    /* an illegal move stays illegal only on the record's board: no other fault near it before */
    const int ks[4] = {plan->same_k, plan->moved_k, plan->removed_k, plan->left_k};
    for (int i = 0; i < 4; i++) {
        if (ks[i] && plan->ko_k && ks[i] < plan->ko_k && near_used(used, plan->ko_pt))
            plan->ko_k = 0;
        if (ks[i] && plan->sui_k && ks[i] < plan->sui_k && near_used(used, plan->sui_pt))
            plan->sui_k = 0;
    }
    plies_free(&pl);
}

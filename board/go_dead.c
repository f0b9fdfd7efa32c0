/* board/go_dead.c — which stones of a final position are dead, as a proposal for the referee.
 *
 * 1. Benson: pass-alive chains are alive, enemy stones inside their unconditional territory are
 *    dead (confidence 1).
 * 2. Enclosures: for each colour o, the regions of points that are not o (empty or the other
 *    colour c) are each bordered by o only. An enclosure holding c stones is a place where c
 *    must live on its own: if no c group inside has two eyes made of empty points bordered by
 *    c alone ("pure" eyes; a region of four or more points counts as two, except the square
 *    four; a false eye counts as none), the c stones there are dead — provided that
 *      - o can fill their liberties outside their eyes, c never answering, without putting its
 *        living stones in atari (killing stones wholly inside the enclosure may be sacrificed);
 *        otherwise it is a seki and they live, and
 *      - with them removed, the o group around the enclosure has two eyes, where the emptied
 *        enclosure counts as two only from seven points up (smaller, the c stones may be
 *        killing stones on the vital point of o's eye shape, so they are left alone).
 *    Enclosures are judged smallest first and the analysis is redone after each one, so dead
 *    stones inside a group's eyes go first and that group's eyes become pure.
 * Everything else is alive. confidence[]: 1 for Benson's verdicts and for empty points, 0.8 for
 * stones found dead by the heuristic, 0.7 for stones it leaves alive.
 *
 * Known limit: an enclosure that also holds a living c group protects every c stone in it, so a
 * dead group whose surroundings connect through empty points to a living friend stays alive. */
#include "board/go_score_internal.h"

#include <stdlib.h>
#include <string.h>

#define BIG_EYE 4 /* a pure region this large (except the square four) is worth two eyes */
#define NO_NAKADE                                                                                  \
    7 /* ... and, if enemy stones were taken out of it, this large: below that the                 \
         enemy stones may sit on the vital point of a killable shape */

struct analysis {
    struct go_pos q; /* the board with the stones found dead so far taken off */
    struct go_chains ch;
    struct go_regions rg;
    int16_t group[GO_POINTS];     /* chain -> pure group representative */
    int16_t pure_eyes[GO_POINTS]; /* representative -> eye value of its pure regions (capped) */
    uint8_t emptied[GO_POINTS];   /* points whose enemy stones were taken out (hypothesis) */
};

static int find_root(int16_t *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static void unite(int16_t *parent, int a, int b)
{
    a = find_root(parent, a);
    b = find_root(parent, b);
    if (a != b) parent[a < b ? b : a] = (int16_t)(a < b ? a : b);
}

/* A one-point region is a false eye when the enemy holds enough of its diagonals. */
static bool false_eye(const struct go_pos *q, int pt, enum go_color c)
{
    int x = go_x(pt), y = go_y(pt), on = 0, enemy = 0;
    for (int dy = -1; dy <= 1; dy += 2) {
        for (int dx = -1; dx <= 1; dx += 2) {
            int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= q->w || ny >= q->h) continue;
            on++;
            enemy += q->col[go_point(nx, ny)] == go_other(c);
        }
    }
    return on < 4 ? enemy >= 1 : enemy >= 2;
}

static bool square_four(const struct go_pos *q, const struct go_regions *rg, int r)
{
    int minx = GO_MAX, miny = GO_MAX, maxx = -1, maxy = -1;
    if (rg->size[r] != 4) return false;
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (!go_pos_on(q, pt) || rg->of[pt] != r) continue;
        if (go_x(pt) < minx) minx = go_x(pt);
        if (go_x(pt) > maxx) maxx = go_x(pt);
        if (go_y(pt) < miny) miny = go_y(pt);
        if (go_y(pt) > maxy) maxy = go_y(pt);
    }
    return maxx - minx == 1 && maxy - miny == 1;
}

/* Eye value of a pure region (empty points bordered by c only). */
static int eye_value(const struct analysis *a, int r, int first_pt)
{
    const struct go_pos *q = &a->q;
    const struct go_regions *rg = &a->rg;
    enum go_color c = go_region_owner(rg->border[r]);
    if (rg->size[r] == 1) return false_eye(q, first_pt, c) ? 0 : 1;
    if (rg->size[r] >= NO_NAKADE) return 2;
    for (int pt = 0; pt < GO_POINTS; pt++)
        if (a->emptied[pt] && rg->of[pt] == r) return 1;
    if (rg->size[r] >= BIG_EYE && !square_four(q, rg, r)) return 2;
    return 1;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Chains, pure regions, and groups: chains of one colour joined by a pure region they both
 * touch or by two shared liberties; each group's pure eye value. */
static void analyse(struct analysis *a)
{
    static const int none = -1;
    int region_first[GO_POINTS];
    int pairs[GO_POINTS * 6], npairs = 0;
    go_chains_find(&a->q, &a->ch);
    go_regions_find(&a->q, &a->rg);
    for (int i = 0; i < a->ch.n; i++) a->group[i] = (int16_t)i;
    for (int r = 0; r < a->rg.n; r++) region_first[r] = none;
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (!go_pos_on(&a->q, pt) || a->q.col[pt] != GO_EMPTY) continue;
        int r = a->rg.of[pt], adj[4], k = go_pos_adj(&a->q, pt, adj), near[4], nn = 0;
        if (region_first[r] == none) region_first[r] = pt;
        for (int j = 0; j < k; j++) {
            if (a->q.col[adj[j]] == GO_EMPTY) continue;
            int id = a->ch.of[adj[j]];
            bool dup = false;
            for (int t = 0; t < nn; t++) dup |= near[t] == id;
            if (!dup) near[nn++] = id;
        }
        for (int s = 0; s < nn; s++) {
            for (int t = s + 1; t < nn; t++) {
                if (a->ch.color[near[s]] != a->ch.color[near[t]]) continue;
                /* A pure region joins its chains at once; other shared liberties are counted. */
                if (go_region_owner(a->rg.border[r]) != GO_EMPTY) {
                    unite(a->group, near[s], near[t]);
                } else {
                    int lo = near[s] < near[t] ? near[s] : near[t], hi = near[s] ^ near[t] ^ lo;
                    pairs[npairs++] = lo * GO_POINTS + hi;
                }
            }
        }
    }
    qsort(pairs, (size_t)npairs, sizeof pairs[0], cmp_int);
    for (int i = 1; i < npairs; i++)
        if (pairs[i] == pairs[i - 1]) unite(a->group, pairs[i] / GO_POINTS, pairs[i] % GO_POINTS);
    for (int i = 0; i < a->ch.n; i++) a->group[i] = (int16_t)find_root(a->group, i);

    /* Pure eye value per group: each pure region counted once per group it touches. */
    int16_t last_region[GO_POINTS];
    for (int i = 0; i < a->ch.n; i++) {
        a->pure_eyes[i] = 0;
        last_region[i] = -1;
    }
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (!go_pos_on(&a->q, pt) || a->q.col[pt] != GO_EMPTY) continue;
        int r = a->rg.of[pt];
        if (go_region_owner(a->rg.border[r]) == GO_EMPTY) continue;
        int adj[4], k = go_pos_adj(&a->q, pt, adj);
        for (int j = 0; j < k; j++) {
            if (a->q.col[adj[j]] == GO_EMPTY) continue;
            int gr = a->group[a->ch.of[adj[j]]];
            if (last_region[gr] == r) continue;
            last_region[gr] = (int16_t)r;
            a->pure_eyes[gr] = (int16_t)(a->pure_eyes[gr] + eye_value(a, r, region_first[r]));
            if (a->pure_eyes[gr] > 2) a->pure_eyes[gr] = 2;
        }
    }
}

/* Could colour o play at the empty point pt without being left in atari (or does it capture)? */
static bool safe_fill(const struct go_pos *q, const struct go_chains *ch, int pt, enum go_color o)
{
    int adj[4], k = go_pos_adj(q, pt, adj), libs = 0;
    int16_t friends[4];
    int nf = 0;
    uint8_t seen[GO_POINTS];
    for (int j = 0; j < k; j++) {
        int n = adj[j];
        if (q->col[n] == go_other(o) && ch->libs[ch->of[n]] == 1) return true; /* captures */
        if (q->col[n] == o) friends[nf++] = ch->of[n];
    }
    memset(seen, 0, sizeof seen);
    seen[pt] = 1;
    for (int j = 0; j < k; j++)
        if (q->col[adj[j]] == GO_EMPTY && !seen[adj[j]]) {
            seen[adj[j]] = 1;
            libs++;
        }
    for (int p = 0; p < GO_POINTS && libs < 2 && nf > 0; p++) {
        if (!go_pos_on(q, p) || q->col[p] != o) continue;
        bool mine = false;
        for (int f = 0; f < nf; f++) mine |= ch->of[p] == friends[f];
        if (!mine) continue;
        int padj[4], pk = go_pos_adj(q, p, padj);
        for (int j = 0; j < pk; j++)
            if (q->col[padj[j]] == GO_EMPTY && !seen[padj[j]]) {
                seen[padj[j]] = 1;
                libs++;
            }
    }
    return libs >= 2;
}

/* Liberties the chain through pt would have if o played there (0 if it would have none). */
static int libs_if_played(struct go_pos *q, int pt, enum go_color o)
{
    struct go_chains *ch = malloc(sizeof *ch);
    int libs = 0;
    if (!ch) return 0;
    q->col[pt] = (uint8_t)o;
    go_chains_find(q, ch);
    libs = ch->libs[ch->of[pt]];
    q->col[pt] = GO_EMPTY;
    free(ch);
    return libs;
}

/* Seki test. o fills the liberties of the c stones in the enclosure, outside c's own eyes,
 * c never answering: first where o keeps two liberties or captures; failing that, o sacrifices
 * stones that are wholly inside the enclosure (killing stones, as in a nakade), which a seki
 * never needs. The c stones are capturable when no such liberty is left; in a seki one stays
 * that o cannot fill without putting its living stones in atari. */
static bool o_can_fill_out(const struct analysis *a, const int *encl, int n, enum go_color c,
                           const uint8_t *victims)
{
    enum go_color o = go_other(c);
    struct go_pos *q = malloc(sizeof *q);
    struct go_chains *ch = malloc(sizeof *ch);
    uint8_t in_e[GO_POINTS], spare[GO_POINTS];
    bool done = false, stuck = false;
    if (!q || !ch) {
        free(q);
        free(ch);
        return false;
    }
    *q = a->q;
    memset(in_e, 0, sizeof in_e);
    for (int i = 0; i < n; i++) in_e[encl[i]] = 1;
    /* Expendable o chains: everything around them is in the enclosure. */
    memset(spare, 1, sizeof spare);
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (!go_pos_on(q, pt) || q->col[pt] != o) continue;
        int adj[4], k = go_pos_adj(q, pt, adj);
        for (int j = 0; j < k; j++)
            if (!in_e[adj[j]] && q->col[adj[j]] != o) spare[a->ch.of[pt]] = 0;
    }
    for (int pt = 0; pt < GO_POINTS; pt++)
        in_e[pt] = go_pos_on(q, pt) && q->col[pt] == o && spare[a->ch.of[pt]] ? 2 : in_e[pt];
    while (!done && !stuck) {
        int move = -1;
        done = true;
        go_chains_find(q, ch);
        for (int pass = 0; pass < 2 && move < 0; pass++) {
            for (int i = 0; i < n && move < 0; i++) {
                int pt = encl[i], adj[4], k;
                if (q->col[pt] != GO_EMPTY) continue;
                if (a->q.col[pt] == GO_EMPTY && go_region_owner(a->rg.border[a->rg.of[pt]]) == c)
                    continue; /* c's own eye: filled last, by the capture */
                k = go_pos_adj(q, pt, adj);
                bool lib = false, inner = true;
                for (int j = 0; j < k; j++) {
                    lib |= q->col[adj[j]] == c && victims[adj[j]];
                    if (q->col[adj[j]] == o && in_e[adj[j]] != 2) inner = false;
                }
                if (!lib) continue;
                done = false;
                if (pass == 0 ? safe_fill(q, ch, pt, o) : inner && libs_if_played(q, pt, o) > 0)
                    move = pt;
            }
        }
        if (move < 0) {
            if (!done) stuck = true;
            break;
        }
        int adj[4], k = go_pos_adj(q, move, adj);
        bool inner = true;
        for (int j = 0; j < k; j++)
            if (q->col[adj[j]] == o && in_e[adj[j]] != 2) inner = false;
        q->col[move] = (uint8_t)o;
        in_e[move] = inner ? 2 : 1;
        for (int j = 0; j < k; j++) /* captures */
            if (q->col[adj[j]] == c && ch->libs[ch->of[adj[j]]] == 1)
                for (int p = 0; p < GO_POINTS; p++)
                    if (go_pos_on(q, p) && q->col[p] == c && ch->of[p] == ch->of[adj[j]])
                        q->col[p] = GO_EMPTY;
    }
    free(q);
    free(ch);
    return !stuck;
}

/* Eye value of o's group around an enclosure once the c stones in it are gone (the enclosure
 * then is one pure o region, so every o chain around it is in that group). */
static int encloser_eyes(const struct analysis *a, const int *encl, int n, const uint8_t *in_encl)
{
    struct analysis *hyp = malloc(sizeof *hyp); /* large: off the stack */
    int eyes = 0, border_chain = -1;
    if (!hyp) return 0;
    hyp->q = a->q;
    memcpy(hyp->emptied, in_encl, sizeof hyp->emptied);
    for (int pt = 0; pt < GO_POINTS; pt++)
        if (in_encl[pt]) hyp->q.col[pt] = GO_EMPTY;
    analyse(hyp);
    for (int pt = 0; pt < GO_POINTS && border_chain < 0; pt++) {
        int adj[4], k = in_encl[pt] ? go_pos_adj(&hyp->q, pt, adj) : 0;
        for (int j = 0; j < k; j++)
            if (hyp->q.col[adj[j]] != GO_EMPTY) border_chain = hyp->ch.of[adj[j]];
    }
    for (int i = 0; i < n && border_chain < 0; i++) {
        int adj[4], k = go_pos_adj(&hyp->q, encl[i], adj);
        for (int j = 0; j < k; j++)
            if (hyp->q.col[adj[j]] != GO_EMPTY && hyp->q.col[encl[i]] == GO_EMPTY)
                border_chain = hyp->ch.of[adj[j]];
    }
    if (border_chain >= 0) eyes = hyp->pure_eyes[hyp->group[border_chain]];
    free(hyp);
    return eyes;
}

/* Decide one enclosure (points listed in encl[], c stones in it to be judged). Returns true and
 * marks dead[] when its c stones are dead. */
static bool judge_enclosure(const struct analysis *a, const int *encl, int n, enum go_color c,
                            const uint8_t *alive_sure, uint8_t *dead, float *conf)
{
    uint8_t in_encl[GO_POINTS], live[GO_POINTS], guarded[GO_POINTS];
    bool any_c = false;
    memset(in_encl, 0, sizeof in_encl);
    memset(live, 0, sizeof live);
    memset(guarded, 0, sizeof guarded);
    /* Living c groups in the enclosure, and the weak ones sharing a liberty with them (connected
     * in practice): those stay. The rest of the c stones are the ones judged. */
    for (int i = 0; i < n; i++) {
        int pt = encl[i];
        if (a->q.col[pt] != c) continue;
        int gr = a->group[a->ch.of[pt]];
        if (alive_sure[pt] || a->pure_eyes[gr] >= 2) live[gr] = 1;
    }
    for (int i = 0; i < n; i++) {
        int pt = encl[i], adj[4], k;
        if (a->q.col[pt] != GO_EMPTY) continue;
        bool near_live = false;
        k = go_pos_adj(&a->q, pt, adj);
        for (int j = 0; j < k; j++)
            if (a->q.col[adj[j]] == c && live[a->group[a->ch.of[adj[j]]]]) near_live = true;
        if (!near_live) continue;
        for (int j = 0; j < k; j++)
            if (a->q.col[adj[j]] == c) guarded[a->group[a->ch.of[adj[j]]]] = 1;
    }
    for (int i = 0; i < n; i++) {
        int pt = encl[i];
        if (a->q.col[pt] != c) continue;
        int gr = a->group[a->ch.of[pt]];
        if (live[gr] || guarded[gr]) continue;
        in_encl[pt] = 1;
        any_c = true;
    }
    if (!any_c) return false;
    if (!o_can_fill_out(a, encl, n, c, in_encl)) return false;
    /* o must live around it once the c stones are gone. */
    if (encloser_eyes(a, encl, n, in_encl) < 2) return false;
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (!in_encl[pt]) continue;
        dead[pt] = 1;
        if (conf) conf[pt] = 0.8f;
    }
    return true;
}

struct enclosure {
    int start, size;
    enum go_color victim;
};

static int cmp_enclosure(const void *x, const void *y)
{
    const struct enclosure *a = x, *b = y;
    if (a->size != b->size) return a->size - b->size;
    return a->start - b->start;
}

/* One round: list the enclosures holding stones, judge them smallest first, stop at the first
 * that kills (the analysis must then be redone). Returns whether anything died. */
static bool one_round(struct analysis *a, const uint8_t *alive_sure, uint8_t *dead, float *conf)
{
    struct enclosure list[GO_POINTS * 2];
    int members[GO_POINTS], stack[GO_POINTS];
    int16_t label[GO_POINTS];
    int nlist = 0;
    analyse(a);
    for (int v = GO_BLACK; v <= GO_WHITE; v++) {
        enum go_color c = (enum go_color)v, o = go_other(c);
        for (int i = 0; i < GO_POINTS; i++) label[i] = -1;
        for (int start = 0; start < GO_POINTS; start++) {
            if (!go_pos_on(&a->q, start) || a->q.col[start] == o || label[start] != -1) continue;
            int sp = 0, size = 0;
            bool has_c = false, has_o_border = false;
            label[start] = 1;
            stack[sp++] = start;
            while (sp > 0) {
                int p = stack[--sp], adj[4], k = go_pos_adj(&a->q, p, adj);
                size++;
                has_c |= a->q.col[p] == c;
                for (int j = 0; j < k; j++) {
                    if (a->q.col[adj[j]] == o) {
                        has_o_border = true;
                    } else if (label[adj[j]] == -1) {
                        label[adj[j]] = 1;
                        stack[sp++] = adj[j];
                    }
                }
            }
            if (has_c && has_o_border) list[nlist++] = (struct enclosure){start, size, c};
        }
    }
    qsort(list, (size_t)nlist, sizeof list[0], cmp_enclosure);
    for (int e = 0; e < nlist; e++) {
        enum go_color o = go_other(list[e].victim);
        int n = 0, sp = 0;
        for (int i = 0; i < GO_POINTS; i++) label[i] = -1;
        label[list[e].start] = 1;
        stack[sp++] = list[e].start;
        while (sp > 0) {
            int p = stack[--sp], adj[4], k = go_pos_adj(&a->q, p, adj);
            members[n++] = p;
            for (int j = 0; j < k; j++)
                if (a->q.col[adj[j]] != o && label[adj[j]] == -1) {
                    label[adj[j]] = 1;
                    stack[sp++] = adj[j];
                }
        }
        if (judge_enclosure(a, members, n, list[e].victim, alive_sure, dead, conf)) return true;
    }
    return false;
}

void go_estimate_dead(const struct go_game *g, uint8_t dead[GO_POINTS], float confidence[GO_POINTS])
{
    const struct go_rules *r = go_game_rules(g);
    bool suicide_ok = r && r->suicide != GO_SUICIDE_NONE;
    struct analysis *a = malloc(sizeof *a);
    uint8_t alive_sure[GO_POINTS], alive_c[GO_POINTS], terr_c[GO_POINTS];

    memset(dead, 0, GO_POINTS);
    if (confidence)
        for (int i = 0; i < GO_POINTS; i++) confidence[i] = 1.0f;
    if (!a) return;
    go_pos_load(&a->q, g);
    memset(a->emptied, 0, sizeof a->emptied);
    memset(alive_sure, 0, sizeof alive_sure);
    for (int v = GO_BLACK; v <= GO_WHITE; v++) {
        go_benson(&a->q, (enum go_color)v, suicide_ok, alive_c, terr_c);
        for (int pt = 0; pt < GO_POINTS; pt++) {
            if (!go_pos_on(&a->q, pt)) continue;
            if (alive_c[pt]) alive_sure[pt] = 1;
            if (terr_c[pt] && a->q.col[pt] == go_other((enum go_color)v)) dead[pt] = 1;
        }
    }
    for (int pt = 0; pt < GO_POINTS; pt++)
        if (dead[pt]) a->q.col[pt] = GO_EMPTY;
    if (confidence)
        for (int pt = 0; pt < GO_POINTS; pt++)
            if (go_pos_on(&a->q, pt) && a->q.col[pt] != GO_EMPTY && !alive_sure[pt])
                confidence[pt] = 0.7f;
    while (one_round(a, alive_sure, dead, confidence))
        for (int pt = 0; pt < GO_POINTS; pt++)
            if (dead[pt]) a->q.col[pt] = GO_EMPTY;
    free(a);
}

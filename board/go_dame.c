/* board/go_dame.c — filling the dame before a territory count.
 *
 * Japanese practice fills the neutral points before counting; the seki tax (go_score.c) relies
 * on it, since an empty point touching both colours is otherwise read as a seki liberty. A
 * neutral point is filled only where that is harmless: the filling stone keeps two liberties and
 * puts no enemy chain in atari. A shared liberty of a seki fails that test and stays empty. */
#include "board/go_score_internal.h"

#include <string.h>

static int chain_libs_after(const struct go_pos *p, int pt, enum go_color c)
{
    /* Liberties of the chain c would form at pt (pt already holds c in p). */
    uint8_t seen[GO_POINTS];
    int stack[GO_POINTS], sp = 0, libs = 0;
    memset(seen, 0, sizeof seen);
    seen[pt] = 1;
    stack[sp++] = pt;
    while (sp > 0) {
        int q = stack[--sp], adj[4], k = go_pos_adj(p, q, adj);
        for (int j = 0; j < k; j++) {
            int a = adj[j];
            if (seen[a]) continue;
            if (p->col[a] == GO_EMPTY) {
                seen[a] = 1;
                libs++;
            } else if (p->col[a] == c) {
                seen[a] = 1;
                stack[sp++] = a;
            }
        }
    }
    return libs;
}

static bool harmless(struct go_pos *p, int pt, enum go_color c)
{
    bool ok = true;
    int adj[4], k = go_pos_adj(p, pt, adj);
    p->col[pt] = (uint8_t)c;
    if (chain_libs_after(p, pt, c) < 2) ok = false;
    for (int j = 0; j < k && ok; j++)
        if (p->col[adj[j]] == go_other(c) && chain_libs_after(p, adj[j], go_other(c)) < 2)
            ok = false;
    p->col[pt] = GO_EMPTY;
    return ok;
}

int go_dame_fill(const struct go_game *g, const uint8_t *dead, int pts[GO_POINTS],
                 enum go_color colors[GO_POINTS])
{
    struct go_pos p;
    struct go_regions rg;
    int n = 0;
    go_pos_load(&p, g);
    if (dead)
        for (int pt = 0; pt < GO_POINTS; pt++)
            if (go_pos_on(&p, pt) && dead[pt]) p.col[pt] = GO_EMPTY;
    for (bool changed = true; changed;) {
        changed = false;
        go_regions_find(&p, &rg);
        for (int pt = 0; pt < GO_POINTS; pt++) {
            if (!go_pos_on(&p, pt) || p.col[pt] != GO_EMPTY || rg.border[rg.of[pt]] != 3) continue;
            int adj[4], k = go_pos_adj(&p, pt, adj), count[3] = {0, 0, 0};
            for (int j = 0; j < k; j++) count[p.col[adj[j]]]++;
            if (count[GO_BLACK] == 0 && count[GO_WHITE] == 0) continue; /* inside the region */
            /* The colour with more stones around the point fills it, if harmless. */
            enum go_color first = count[GO_WHITE] > count[GO_BLACK] ? GO_WHITE : GO_BLACK;
            enum go_color pick = GO_EMPTY;
            if (count[first] > 0 && harmless(&p, pt, first))
                pick = first;
            else if (count[go_other(first)] > 0 && harmless(&p, pt, go_other(first)))
                pick = go_other(first);
            if (pick == GO_EMPTY) continue;
            p.col[pt] = (uint8_t)pick;
            pts[n] = pt;
            colors[n] = pick;
            n++;
            changed = true;
            break; /* regions changed: recompute */
        }
    }
    return n;
}

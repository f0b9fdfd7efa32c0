/* board/go_benson.c — Benson's unconditional life ("pass-alive" chains) and the territory it
 * secures. Benson 1976: a set of chains is unconditionally alive when each of them has two
 * vital regions bordered only by chains of the set; a region is vital to a chain when all of its
 * empty points are liberties of that chain. */
#include "board/go_score_internal.h"

#include <string.h>

#define MAX_LINKS (GO_POINTS * 4)

/* Regions of non-c points (empty or enemy), with the c chains around them. */
struct benson_regions {
    int n;
    int16_t of[GO_POINTS];
    int16_t internal[GO_POINTS]; /* points not next to any c stone */
    int16_t border_start[GO_POINTS], border_len[GO_POINTS];
    int16_t vital_start[GO_POINTS], vital_len[GO_POINTS];
    int16_t border[MAX_LINKS], vital[MAX_LINKS];
};

static void trace_regions(const struct go_pos *p, enum go_color c, const struct go_chains *ch,
                          bool suicide_ok, struct benson_regions *br)
{
    int stack[GO_POINTS], members[GO_POINTS];
    int16_t seen_by[GO_POINTS]; /* chain -> last region that listed it */
    int16_t touch[GO_POINTS];   /* chain -> required points of this region it touches */
    int nborder = 0, nvital = 0;
    br->n = 0;
    for (int i = 0; i < GO_POINTS; i++) {
        br->of[i] = -1;
        seen_by[i] = -1;
        touch[i] = 0;
    }
    for (int y = 0; y < p->h; y++) {
        for (int x = 0; x < p->w; x++) {
            int start = go_point(x, y);
            if (p->col[start] == c || br->of[start] != -1) continue;
            int16_t id = (int16_t)br->n++;
            int sp = 0, nm = 0, required = 0;
            br->of[start] = id;
            br->internal[id] = 0;
            br->border_start[id] = (int16_t)nborder;
            stack[sp++] = start;
            while (sp > 0) {
                int q = stack[--sp], adj[4], k = go_pos_adj(p, q, adj);
                bool next_to_c = false;
                members[nm++] = q;
                for (int j = 0; j < k; j++) {
                    int a = adj[j];
                    if (p->col[a] == c) {
                        int16_t chain = ch->of[a];
                        next_to_c = true;
                        if (seen_by[chain] != id) {
                            seen_by[chain] = id;
                            touch[chain] = 0;
                            br->border[nborder++] = chain;
                        }
                    } else if (br->of[a] == -1) {
                        br->of[a] = id;
                        stack[sp++] = a;
                    }
                }
                if (!next_to_c) br->internal[id]++;
            }
            br->border_len[id] = (int16_t)(nborder - br->border_start[id]);
            /* Vital: every required point (empty, or any point when suicide is legal) is a
             * liberty of the chain. Count, per bordering chain, the required points it touches. */
            for (int m = 0; m < nm; m++) {
                int q = members[m], adj[4], k = go_pos_adj(p, q, adj);
                int16_t counted[4];
                int nc = 0;
                if (!suicide_ok && p->col[q] != GO_EMPTY) continue;
                required++;
                for (int j = 0; j < k; j++) {
                    if (p->col[adj[j]] != c) continue;
                    int16_t chain = ch->of[adj[j]];
                    bool dup = false;
                    for (int t = 0; t < nc; t++) dup |= counted[t] == chain;
                    if (!dup) {
                        counted[nc++] = chain;
                        touch[chain]++;
                    }
                }
            }
            br->vital_start[id] = (int16_t)nvital;
            for (int b = 0; b < br->border_len[id]; b++) {
                int16_t chain = br->border[br->border_start[id] + b];
                if (required > 0 && touch[chain] == required) br->vital[nvital++] = chain;
            }
            br->vital_len[id] = (int16_t)(nvital - br->vital_start[id]);
        }
    }
}

void go_benson(const struct go_pos *p, enum go_color c, bool suicide_ok, uint8_t alive[GO_POINTS],
               uint8_t terr[GO_POINTS])
{
    struct go_chains ch;
    struct benson_regions br;
    bool killed[GO_POINTS], bad[GO_POINTS];
    int16_t vital_count[GO_POINTS];
    memset(alive, 0, GO_POINTS);
    memset(terr, 0, GO_POINTS);
    go_chains_find(p, &ch);
    trace_regions(p, c, &ch, suicide_ok, &br);
    for (int i = 0; i < ch.n; i++) killed[i] = ch.color[i] != c;
    for (;;) {
        bool changed = false;
        for (int r = 0; r < br.n; r++) {
            bad[r] = false;
            for (int b = 0; b < br.border_len[r]; b++)
                bad[r] |= killed[br.border[br.border_start[r] + b]];
        }
        for (int i = 0; i < ch.n; i++) vital_count[i] = 0;
        for (int r = 0; r < br.n; r++) {
            if (bad[r]) continue;
            for (int v = 0; v < br.vital_len[r]; v++)
                vital_count[br.vital[br.vital_start[r] + v]]++;
        }
        for (int i = 0; i < ch.n; i++) {
            if (!killed[i] && vital_count[i] < 2) {
                killed[i] = true;
                changed = true;
            }
        }
        if (!changed) break;
    }
    for (int pt = 0; pt < GO_POINTS; pt++) {
        if (!go_pos_on(p, pt)) continue;
        if (p->col[pt] == c) {
            alive[pt] = !killed[ch.of[pt]];
        } else {
            int r = br.of[pt];
            /* bad[] is current: the last pass changed nothing. */
            terr[pt] =
                br.border_len[r] > 0 && !bad[r] && (br.vital_len[r] > 0 || br.internal[r] <= 1);
        }
    }
}

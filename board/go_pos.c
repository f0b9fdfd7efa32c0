/* board/go_pos.c — a plain copy of a position's stones, its chains and its empty regions, for
 * scoring and dead-stone estimation (board/go_score_internal.h). */
#include "board/go_score_internal.h"

#include <string.h>

void go_pos_load(struct go_pos *p, const struct go_game *g)
{
    memset(p, 0, sizeof *p);
    p->w = go_game_width(g);
    p->h = go_game_height(g);
    for (int y = 0; y < p->h; y++)
        for (int x = 0; x < p->w; x++)
            p->col[go_point(x, y)] = (uint8_t)go_game_at(g, go_point(x, y));
}

bool go_pos_on(const struct go_pos *p, int pt)
{
    return pt >= 0 && pt < GO_POINTS && go_x(pt) < p->w && go_y(pt) < p->h;
}

int go_pos_adj(const struct go_pos *p, int pt, int out[4])
{
    int n = 0, x = go_x(pt), y = go_y(pt);
    if (x > 0) out[n++] = pt - 1;
    if (x < p->w - 1) out[n++] = pt + 1;
    if (y > 0) out[n++] = pt - GO_MAX;
    if (y < p->h - 1) out[n++] = pt + GO_MAX;
    return n;
}

void go_chains_find(const struct go_pos *p, struct go_chains *ch)
{
    static const int16_t none = -1;
    int stack[GO_POINTS];
    int16_t lib_mark[GO_POINTS];
    ch->n = 0;
    for (int i = 0; i < GO_POINTS; i++) {
        ch->of[i] = none;
        lib_mark[i] = none;
    }
    for (int y = 0; y < p->h; y++) {
        for (int x = 0; x < p->w; x++) {
            int start = go_point(x, y);
            if (p->col[start] == GO_EMPTY || ch->of[start] != none) continue;
            int16_t id = (int16_t)ch->n++;
            int sp = 0, size = 0, libs = 0;
            ch->color[id] = p->col[start];
            ch->head[id] = (int16_t)start;
            ch->of[start] = id;
            stack[sp++] = start;
            while (sp > 0) {
                int q = stack[--sp], adj[4], k = go_pos_adj(p, q, adj);
                size++;
                for (int j = 0; j < k; j++) {
                    int a = adj[j];
                    if (p->col[a] == GO_EMPTY) {
                        if (lib_mark[a] != id) {
                            lib_mark[a] = id;
                            libs++;
                        }
                    } else if (p->col[a] == p->col[start] && ch->of[a] == none) {
                        ch->of[a] = id;
                        stack[sp++] = a;
                    }
                }
            }
            ch->size[id] = (int16_t)size;
            ch->libs[id] = (int16_t)libs;
        }
    }
}

void go_regions_find(const struct go_pos *p, struct go_regions *rg)
{
    int stack[GO_POINTS];
    rg->n = 0;
    for (int i = 0; i < GO_POINTS; i++) rg->of[i] = -1;
    for (int y = 0; y < p->h; y++) {
        for (int x = 0; x < p->w; x++) {
            int start = go_point(x, y);
            if (p->col[start] != GO_EMPTY || rg->of[start] != -1) continue;
            int16_t id = (int16_t)rg->n++;
            int sp = 0, size = 0;
            uint8_t border = 0;
            rg->of[start] = id;
            stack[sp++] = start;
            while (sp > 0) {
                int q = stack[--sp], adj[4], k = go_pos_adj(p, q, adj);
                size++;
                for (int j = 0; j < k; j++) {
                    int a = adj[j];
                    if (p->col[a] != GO_EMPTY) {
                        border |= p->col[a];
                    } else if (rg->of[a] == -1) {
                        rg->of[a] = id;
                        stack[sp++] = a;
                    }
                }
            }
            rg->size[id] = (int16_t)size;
            rg->border[id] = border;
        }
    }
}

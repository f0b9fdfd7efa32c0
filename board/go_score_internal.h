/* board/go_score_internal.h — private to the scoring files (go_score.c, go_dead.c, go_benson.c,
 * go_dame.c): a plain copy of the stones and the analyses scoring needs on it (chains, empty
 * regions, Benson's unconditional life), so scoring never depends on the game's internals. */
#ifndef KIFUCAM_BOARD_GO_SCORE_INTERNAL_H
#define KIFUCAM_BOARD_GO_SCORE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "board/go.h"

/* The stones of a position, GO_EMPTY/GO_BLACK/GO_WHITE per point. */
struct go_pos {
    int w, h;
    uint8_t col[GO_POINTS];
};

void go_pos_load(struct go_pos *p, const struct go_game *g);
/* The on-board neighbours of pt; returns how many (2..4). */
int go_pos_adj(const struct go_pos *p, int pt, int out[4]);
bool go_pos_on(const struct go_pos *p, int pt);

/* Chains: of[pt] is the chain index of a stone, -1 for an empty point. */
struct go_chains {
    int n;
    int16_t of[GO_POINTS];
    uint8_t color[GO_POINTS];
    int16_t size[GO_POINTS];
    int16_t libs[GO_POINTS];
    int16_t head[GO_POINTS]; /* one stone of the chain */
};
void go_chains_find(const struct go_pos *p, struct go_chains *ch);

/* Empty regions: of[pt] is the region of an empty point, -1 for a stone. border has bit 1 set
 * when the region touches a black stone and bit 2 when it touches a white one. */
struct go_regions {
    int n;
    int16_t of[GO_POINTS];
    int16_t size[GO_POINTS];
    uint8_t border[GO_POINTS];
};
void go_regions_find(const struct go_pos *p, struct go_regions *rg);
/* The colour owning a region (bordered by that colour only), GO_EMPTY for dame or none. */
static inline enum go_color go_region_owner(uint8_t border)
{
    return border == 1 ? GO_BLACK : border == 2 ? GO_WHITE : GO_EMPTY;
}

/* Benson's unconditional life for colour c. alive[pt] = 1 on the stones of pass-alive chains;
 * terr[pt] = 1 on the points (empty or enemy) of regions that are c's unconditional territory:
 * bordered only by pass-alive chains and either vital to one of them or with at most one point
 * not next to a c stone, so that the enemy can never make two eyes there. suicide_ok: multi-stone
 * suicide is legal, so enemy stones in a region count as points the chain must touch. */
void go_benson(const struct go_pos *p, enum go_color c, bool suicide_ok, uint8_t alive[GO_POINTS],
               uint8_t terr[GO_POINTS]);


#endif

/* board/go_count.c — counting a finished game as players do it: dead stones off, dame filled
 * where the tax rule would otherwise let an open neutral point cancel a group's territory. */
#include <stdio.h>
#include <stdlib.h>

#include "board/go.h"

struct go_score go_game_count(const struct go_game *g, const uint8_t *dead)
{
    if (go_game_rules(g)->tax == GO_TAX_NONE) return go_game_score(g, dead);
    int pts[GO_POINTS];
    enum go_color cols[GO_POINTS];
    int n = go_dame_fill(g, dead, pts, cols);
    struct go_game *filled = go_game_copy(g);
    if (!filled) return go_game_score(g, dead);
    for (int i = 0; i < n; i++) go_game_setup(filled, cols[i], pts[i]);
    struct go_score s = go_game_score(filled, dead);
    go_game_free(filled);
    return s;
}

const char *go_game_result(const struct go_game *g, const uint8_t *dead, char buf[16])
{
    enum go_color winner = go_game_winner_by_default(g);
    const char w = winner == GO_BLACK ? 'B' : 'W';
    switch (go_game_state(g)) {
    case GO_ENDED_RESIGN: snprintf(buf, 16, "%c+R", w); break;
    case GO_ENDED_TIME: snprintf(buf, 16, "%c+T", w); break;
    case GO_ENDED_NO_RESULT: snprintf(buf, 16, "Void"); break;
    case GO_ENDED_PASSES: {
        struct go_score s = go_game_count(g, dead);
        snprintf(buf, 16, "%s", s.result);
        break;
    }
    case GO_PLAYING: snprintf(buf, 16, "?"); break;
    }
    return buf;
}

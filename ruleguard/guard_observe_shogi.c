/* ruleguard/guard_observe_shogi.c — shogi from observations. So far only the square mapping
 * every shogi consumer of observations needs (ruleguard/guard.h, shogi_obs_square); the guard
 * itself (moves from at most two changed squares plus a hand, drops, HIDDEN_PIECE) is to come. */
#include "ruleguard/guard.h"

int shogi_obs_square(int x, int y, bool sente_bottom)
{
    if (x < 0 || x > 8 || y < 0 || y > 8) return -1;
    /* sente at the bottom: the image's top-left point is 9一 */
    return sente_bottom ? shogi_sq(9 - x, y + 1) : shogi_sq(x + 1, 9 - y);
}

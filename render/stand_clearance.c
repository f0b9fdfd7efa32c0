/* render/stand_clearance.c — a bumped shogi board stays clear of the komadai. The komadai stand
 * on the table on their own, so a bump or a knock moves the board and not them (a knock that
 * shoved a stand as well would move it by some other amount, which nobody could tell from the
 * footage); a bump that would push the board into a stand is turned the other way, or made
 * smaller, as the board would have stopped against it. */
#include "render/render_internal.h"

bool board_hits_stands(const struct goban *g, const struct board_pose *p, double margin)
{
    for (int k = 0; k < g->nstands; k++) {
        const struct stand *st = &g->stands[k];
        double x0 = st->cx - st->w / 2 - margin, x1 = st->cx + st->w / 2 + margin,
               y0 = st->cy - st->l / 2 - margin, y1 = st->cy + st->l / 2 + margin;
        /* the board's rim, sampled every few mm, against the stand's (grown) rectangle */
        for (int side = 0; side < 4; side++)
            for (int i = 0; i <= 64; i++) {
                double s = i / 64.0 - 0.5;
                double bx = side < 2 ? s * g->width : (side == 2 ? -0.5 : 0.5) * g->width;
                double by = side < 2 ? (side == 0 ? -0.5 : 0.5) * g->length : s * g->length;
                vec3 w = board_to_world(p, bx, by, 0);
                if (w.x > x0 && w.x < x1 && w.y > y0 && w.y < y1) return true;
            }
        /* a stand's corner inside the board (a turn could put one there first) */
        for (int c = 0; c < 4; c++) {
            double bx, by;
            world_to_board(p, v3(c & 1 ? x1 : x0, c & 2 ? y1 : y0, 0), &bx, &by);
            if (fabs(bx) < g->width / 2 && fabs(by) < g->length / 2) return true;
        }
    }
    return false;
}

void shogi_timeline_keep_clear(struct shogi_timeline *t, const struct goban *g)
{
    struct board_pose pose = {0, 0, 0};
    for (int i = 0; i < t->nev; i++) {
        struct stl_event *e = &t->ev[i];
        if (e->kind != STL_BUMP) continue;
        for (int k = 0; k < 8; k++) {
            struct board_pose next = {pose.x + e->dx, pose.y + e->dy, pose.rot + e->rot};
            if (!board_hits_stands(g, &next, 5)) break;
            if (k == 0) { /* away from the stand it would hit */
                e->dx = -e->dx;
                e->rot = -e->rot;
            } else {
                e->dx *= 0.5;
                e->dy *= 0.5;
                e->rot *= 0.5;
            }
            if (k == 7) e->dx = e->dy = e->rot = 0;
        }
        pose.x += e->dx;
        pose.y += e->dy;
        pose.rot += e->rot;
    }
}

/* render/timeline_go_count.c — the counting after a Go game in front of the camera: the plan of
 * count_plan.c carried out by the players' hands, a few stones per visit, one stone touched per
 * frame (a move lifts it, carries it over and puts it down a few frames later). */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

/* Targets one operation needs in a visit. */
static int op_targets(const struct count_op *op)
{
    return op->kind == COUNT_MOVE ? 2 : 1;
}

bool tl_counting_visits(struct timeline *t, int *evcap, int *vcap, struct rng *r,
                        const struct go_game *g, int ply, int *frame, uint64_t seed)
{
    struct count_plan *plan = malloc(sizeof *plan);
    if (!plan) return false;
    uint8_t pos[GO_POINTS];
    timeline_board_now(t, pos);
    count_plan_make(g, pos, seed, plan);
    t->count_from = *frame;
    struct tl_event m = tl_mark_event(*frame, ply, GO_NOPOINT, go_game_to_move(g), "counting");
    m.signal = true;
    bool ok = tl_push_event(t, evcap, m);
    int i = 0;
    do { /* one visit: the same hand, at most 10 stones (a plan with nothing to do still shows
            a hand pointing at the centre, as the players look the board over) */
        struct tl_visit v = {.f0 = *frame,
                             .color = i < plan->n ? plan->op[i].hand : go_game_to_move(g)};
        int f = *frame + 9 + rng_int(r, 6), touched = 0;
        while (i < plan->n && plan->op[i].hand == v.color && touched < 10 &&
               v.ntargets + op_targets(&plan->op[i]) <= 24 && ok) {
            const struct count_op *op = &plan->op[i++];
            if (op->kind != COUNT_PUT) { /* off the board, into the hand */
                v.target_point[v.ntargets] = op->from;
                v.target_frame[v.ntargets] = f;
                v.carries[v.ntargets++] = false;
                struct tl_event rm = {.frame = f,
                                      .kind = TL_REMOVE,
                                      .point = op->from,
                                      .color = (enum go_color)pos[op->from],
                                      .ply = ply};
                pos[op->from] = GO_EMPTY;
                ok = ok && tl_push_event(t, evcap, rm);
                if (op->kind == COUNT_MOVE) f += 6 + rng_int(r, 4);
            }
            if (op->kind != COUNT_TAKE) { /* carried in and put down */
                v.target_point[v.ntargets] = op->to;
                v.target_frame[v.ntargets] = f;
                v.carries[v.ntargets++] = true;
                struct tl_event pl = {.frame = f,
                                      .kind = TL_PLACE,
                                      .point = op->to,
                                      .color = op->stone,
                                      .ply = ply,
                                      .look = tl_random_look(seed, 700000u + (uint64_t)i)};
                pos[op->to] = (uint8_t)op->stone;
                ok = ok && tl_push_event(t, evcap, pl);
            }
            touched++;
            f += 4 + rng_int(r, 4);
        }
        if (v.ntargets == 0) {
            v.target_point[0] = go_point(t->width / 2, t->height / 2);
            v.target_frame[0] = f;
            v.ntargets = 1;
        }
        v.f1 = f + 6 + rng_int(r, 6);
        ok = ok && tl_push_visit(t, vcap, &v);
        *frame = v.f1 + 1 + 4 + rng_int(r, 8);
    } while (i < plan->n && ok);
    *frame += 10;
    free(plan);
    return ok;
}

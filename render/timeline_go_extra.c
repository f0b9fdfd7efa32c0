/* render/timeline_go_extra.c — what the Go time line adds on request: the faults planned by
 * faults_go.c (a hand comes back after a move and changes the stones, or leaves the prisoners
 * lying) and the signals after the last move (a stone beside the board for a pass, the
 * opponent's colour beyond the lower right corner for the end, two stones for a resignation,
 * the counting: timeline_go_count.c). */
#include <stdio.h>
#include <string.h>

#include "render/render_internal.h"

struct tl_event tl_mark_event(int frame, int ply, int point, enum go_color c, const char *name)
{
    struct tl_event e = {.frame = frame, .kind = TL_MARK, .point = point, .color = c, .ply = ply};
    snprintf(e.name, sizeof e.name, "%s", name);
    return e;
}

/* An illegal move after this ply (t->plan), put back: the side to move retakes the ko (its stone
 * on the point the ko took, the taking stone off) or puts a stone where it has no liberty; the
 * stones stand while the other player objects (one to two seconds), then the same hand takes the
 * stone back and, for the ko, puts the taken stone back: the board is as the record has it. */
static bool illegal_visits(struct timeline *t, int *evcap, int *vcap, struct rng *r, int ply,
                           int *frame, uint64_t seed, bool suicide)
{
    const struct go_fault_plan *fp = &t->plan;
    enum go_color c = (enum go_color)(suicide ? fp->sui_color : fp->ko_color);
    int pt = suicide ? fp->sui_pt : fp->ko_pt;
    struct tl_visit v = {.f0 = *frame, .color = c};
    int f = *frame + 9 + rng_int(r, 8);
    v.target_point[0] = pt;
    v.target_frame[0] = f;
    v.carries[0] = true;
    v.ntargets = 1;
    struct tl_event put = {.frame = f,
                           .kind = TL_PLACE,
                           .point = pt,
                           .color = c,
                           .ply = ply,
                           .look = tl_random_look(seed, 700000u + (uint64_t)ply)};
    bool ok =
        tl_push_event(t, evcap, put) &&
        tl_push_event(t, evcap, tl_mark_event(f, ply, pt, c, suicide ? "suicide" : "ko-retaken"));
    if (!suicide) { /* the ko's taking stone comes off, as a capture's would */
        f += 4 + rng_int(r, 5);
        v.target_point[1] = fp->ko_taker;
        v.target_frame[1] = f;
        v.ntargets = 2;
        struct tl_event rm = {
            .frame = f, .kind = TL_REMOVE, .point = fp->ko_taker, .color = go_other(c), .ply = ply};
        ok = ok && tl_push_event(t, evcap, rm);
    }
    v.f1 = f + 8 + rng_int(r, 7);
    ok = ok && tl_push_visit(t, vcap, &v);
    /* put back */
    struct tl_visit back = {.f0 = v.f1 + 1 + 30 + rng_int(r, 30), .color = c};
    f = back.f0 + 9 + rng_int(r, 8);
    back.target_point[0] = pt;
    back.target_frame[0] = f;
    back.ntargets = 1;
    struct tl_event off = {.frame = f, .kind = TL_REMOVE, .point = pt, .color = c, .ply = ply};
    ok = ok && tl_push_event(t, evcap, off);
    if (!suicide) {
        f += 6 + rng_int(r, 4);
        back.target_point[1] = fp->ko_taker;
        back.target_frame[1] = f;
        back.carries[1] = true;
        back.ntargets = 2;
        struct tl_event again = {.frame = f,
                                 .kind = TL_PLACE,
                                 .point = fp->ko_taker,
                                 .color = go_other(c),
                                 .ply = ply,
                                 .look = tl_random_look(seed, 800000u + (uint64_t)ply)};
        ok = ok && tl_push_event(t, evcap, again);
    }
    back.f1 = f + 8 + rng_int(r, 7);
    ok = ok && tl_push_visit(t, vcap, &back);
    *frame = back.f1 + 1 + 8 + rng_int(r, 12);
    return ok;
}

/* Faults planned after this ply: a hand comes back and changes the stones (faults_go.c vetted
 * the change against the rest of the record). */
bool tl_fault_visits(struct timeline *t, int *evcap, int *vcap, struct rng *r, int ply, int *frame,
                     uint64_t seed)
{
    const struct go_fault_plan *fp = &t->plan;
    bool ok = true;
    for (int kind = 0; kind < 3; kind++) {
        int k = kind == 0 ? fp->same_k : kind == 1 ? fp->moved_k : fp->removed_k;
        if (k != ply) continue;
        enum go_color c = (enum go_color)(kind == 0   ? fp->same_color
                                          : kind == 1 ? fp->moved_color
                                                      : fp->removed_color);
        struct tl_visit v = {.f0 = *frame, .color = c};
        int f = *frame + 9 + rng_int(r, 8);
        if (kind == 0) {
            v.target_point[0] = fp->same_pt;
            v.target_frame[0] = f;
            v.carries[0] = true;
            v.ntargets = 1;
            struct tl_event e = {.frame = f,
                                 .kind = TL_PLACE,
                                 .point = fp->same_pt,
                                 .color = c,
                                 .ply = ply,
                                 .look = tl_random_look(seed, 400000u + (uint64_t)ply)};
            ok = ok && tl_push_event(t, evcap, e) &&
                 tl_push_event(t, evcap, tl_mark_event(f, ply, fp->same_pt, c, "same-color"));
        } else {
            int from = kind == 1 ? fp->moved_from : fp->removed_pt;
            uint8_t col = GO_EMPTY;
            for (int i = 0; i < t->nev; i++) { /* the colour lying there now */
                const struct tl_event *e = &t->ev[i];
                if (e->point == from && e->kind == TL_PLACE) col = (uint8_t)e->color;
                if (e->point == from && e->kind == TL_REMOVE) col = GO_EMPTY;
            }
            if (col == GO_EMPTY) col = t->setup[from];
            v.target_point[0] = from;
            v.target_frame[0] = f;
            v.ntargets = 1;
            struct tl_event rm = {.frame = f,
                                  .kind = TL_REMOVE,
                                  .point = from,
                                  .color = (enum go_color)col,
                                  .ply = ply};
            ok = ok && tl_push_event(t, evcap, rm) &&
                 tl_push_event(
                     t, evcap,
                     tl_mark_event(f, ply, from, c, kind == 1 ? "moved-stone" : "removed-stone"));
            if (kind == 1) { /* slid to the neighbouring point */
                f += 6 + rng_int(r, 4);
                v.target_point[1] = fp->moved_to;
                v.target_frame[1] = f;
                v.ntargets = 2;
                struct tl_event pl = {.frame = f,
                                      .kind = TL_PLACE,
                                      .point = fp->moved_to,
                                      .color = (enum go_color)col,
                                      .ply = ply,
                                      .look = tl_random_look(seed, 500000u + (uint64_t)ply)};
                ok = ok && tl_push_event(t, evcap, pl);
            }
        }
        v.f1 = f + 8 + rng_int(r, 7);
        ok = ok && tl_push_visit(t, vcap, &v);
        *frame = v.f1 + 1 + 8 + rng_int(r, 12);
    }
    for (int kind = 0; kind < 2; kind++)
        if (ply == (kind ? fp->sui_k : fp->ko_k))
            ok = ok && illegal_visits(t, evcap, vcap, r, ply, frame, seed, kind == 1);
    return ok;
}

/* Signals after the last move, in the order pass, end, resign, counting. */
bool tl_signal_visits(struct timeline *t, int *evcap, int *vcap, struct rng *r,
                      const struct go_game *g, const struct go_record *rec, int ply, int *frame,
                      const struct render_opts *o)
{
    bool ok = true;
    double px = 22.0, py = 23.7; /* nominal pitch; the grid's extent in board mm */
    double gx = (rec->width - 1) / 2.0 * px, gy = (rec->height - 1) / 2.0 * py;
    enum go_color to_move = go_game_to_move(g);
    for (int s = 0; s < 4 && ok; s++) {
        unsigned bit = 1u << s;
        if (!(o->signals & bit)) continue;
        enum go_color c = bit == RENDER_SIGNAL_END ? go_other(to_move) : to_move;
        double sgn = c == GO_BLACK ? 1 : -1;
        struct tl_visit v = {.f0 = *frame, .color = c};
        int f = *frame + 10 + rng_int(r, 6);
        if (bit == RENDER_SIGNAL_PASS || bit == RENDER_SIGNAL_END) {
            if (t->noff >= TL_MAX_OFF) continue;
            int i = t->noff++;
            if (bit == RENDER_SIGNAL_PASS) { /* on the table at the player's right */
                t->off_xy[i][0] = sgn * (gx + 60 + rng_range(r, 0, 30));
                t->off_xy[i][1] = sgn * (gy - rng_range(r, 20, 80));
            } else { /* beyond the grid's lower right corner (Black's view), on the margin */
                t->off_xy[i][0] = gx + 12;
                t->off_xy[i][1] = gy + 12;
            }
            t->off_color[i] = c;
            t->off_frame[i] = f;
            v.target_point[0] = -100 - i;
            v.target_frame[0] = f;
            v.carries[0] = true;
            v.ntargets = 1;
            struct tl_event e = {.frame = f,
                                 .kind = TL_OFF,
                                 .point = GO_NOPOINT,
                                 .color = c,
                                 .ply = ply,
                                 .dx = t->off_xy[i][0],
                                 .dy = t->off_xy[i][1]};
            struct tl_event m =
                tl_mark_event(f, ply, GO_NOPOINT, c, bit == RENDER_SIGNAL_PASS ? "pass" : "end");
            m.signal = true;
            ok = tl_push_event(t, evcap, e) && tl_push_event(t, evcap, m);
        } else if (bit == RENDER_SIGNAL_RESIGN) {
            /* two stones together, on points empty on the board as it lies (a fault's stone or
             * prisoners left lying are there, though the rules core's game has none) */
            uint8_t pos[GO_POINTS];
            timeline_board_now(t, pos);
            int pts[2] = {-1, -1}, n = 0;
            int cx = rec->width / 2, cy = rec->height / 2;
            for (int rad = 0; rad < 19 && n < 2; rad++)
                for (int y = cy - rad; y <= cy + rad && n < 2; y++)
                    for (int x = cx - rad; x + 1 <= cx + rad && n < 2; x++) {
                        if (x < 0 || y < 0 || x + 1 >= rec->width || y >= rec->height) continue;
                        if (pos[go_point(x, y)] || pos[go_point(x + 1, y)]) continue;
                        pts[0] = go_point(x, y);
                        pts[1] = go_point(x + 1, y);
                        n = 2;
                    }
            if (n < 2) continue;
            v.target_point[0] = pts[0];
            v.target_frame[0] = f;
            v.carries[0] = true;
            v.ntargets = 1;
            for (int k = 0; k < 2; k++) {
                struct tl_event e = {.frame = f,
                                     .kind = TL_PLACE,
                                     .point = pts[k],
                                     .color = c,
                                     .ply = ply,
                                     .look = tl_random_look(o->seed, 600000u + (uint64_t)k)};
                ok = ok && tl_push_event(t, evcap, e);
            }
            struct tl_event m = tl_mark_event(f, ply, pts[0], c, "resign");
            m.signal = true;
            ok = ok && tl_push_event(t, evcap, m);
        } else { /* counting: its own visits */
            ok = tl_counting_visits(t, evcap, vcap, r, g, ply, frame, o->seed);
            continue;
        }
        v.f1 = f + 10 + rng_int(r, 8);
        ok = ok && tl_push_visit(t, vcap, &v);
        *frame = v.f1 + 1 + 15 + rng_int(r, 15);
    }
    return ok;
}

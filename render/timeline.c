/* render/timeline.c — the game as it happens in front of the camera, at 30 frames a second.
 * Moves come from replaying the record through the rules core (board/go.h), which also says
 * which stones each move captures. Per move a hand reaches in, puts the stone down, takes the
 * prisoners off one by one and leaves; between moves the board rests; now and then a bump shifts
 * the board. Frame numbers depend only on the seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

bool tl_push_event(struct timeline *t, int *cap, struct tl_event e)
{
    if (t->nev == *cap) {
        int n = *cap ? *cap * 2 : 256;
        struct tl_event *p = realloc(t->ev, sizeof *p * (size_t)n);
        if (!p) return false;
        t->ev = p;
        *cap = n;
    }
    t->ev[t->nev++] = e;
    return true;
}

bool tl_push_visit(struct timeline *t, int *cap, const struct tl_visit *v)
{
    if (t->nvisits == *cap) {
        int n = *cap ? *cap * 2 : 128;
        struct tl_visit *p = realloc(t->visits, sizeof *p * (size_t)n);
        if (!p) return false;
        t->visits = p;
        *cap = n;
    }
    t->visits[t->nvisits++] = *v;
    return true;
}

struct stone_look tl_random_look(uint64_t seed, uint64_t index)
{
    struct rng r = rng_stream(seed, RS_STONE, index);
    struct stone_look k;
    k.dx = clampd(rng_gauss(&r) * 0.7, -1.6, 1.6);
    k.dy = clampd(rng_gauss(&r) * 0.8, -1.8, 1.8);
    k.angle = rng_range(&r, 0, 3.14159265358979);
    k.tone = rng_range(&r, 0.96, 1.04);
    return k;
}

void timeline_board_now(const struct timeline *t, uint8_t pos[GO_POINTS])
{
    memcpy(pos, t->setup, GO_POINTS);
    for (int i = 0; i < t->nev; i++) {
        if (t->ev[i].kind == TL_PLACE) pos[t->ev[i].point] = (uint8_t)t->ev[i].color;
        if (t->ev[i].kind == TL_REMOVE) pos[t->ev[i].point] = GO_EMPTY;
    }
}

int timeline_off_stones(const struct timeline *t, int f, double xy[TL_MAX_OFF][2],
                        enum go_color color[TL_MAX_OFF])
{
    int n = 0;
    for (int i = 0; i < t->noff; i++)
        if (t->off_frame[i] <= f) {
            xy[n][0] = t->off_xy[i][0];
            xy[n][1] = t->off_xy[i][1];
            color[n++] = t->off_color[i];
        }
    return n;
}

bool timeline_build(struct timeline *t, const struct go_record *rec, const struct render_opts *o,
                    char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->width = rec->width;
    t->height = rec->height;
    const struct go_rules *rules = rec->rules ? go_rules_find(rec->rules) : NULL;
    struct go_game *g = go_game_new(rec->width, rec->height, rules);
    if (!g) {
        snprintf(err, errlen, "board size %dx%d cannot be rendered", rec->width, rec->height);
        return false;
    }
    struct rng r = rng_stream(o->seed, RS_TIMELINE, 0);
    int evcap = 0, vcap = 0, ply = 0, moves = 0, frame = 10 + rng_int(&r, 12);
    bool ok = true;
    int nmoves = 0;
    for (int n = 0; n < rec->nnodes; n++) nmoves += rec->nodes[n].has_move;
    if (o->max_moves > 0 && nmoves > o->max_moves) nmoves = o->max_moves;
    if (o->faults) go_faults_plan(rec, o, nmoves, &t->plan);
    const struct go_fault_plan *fp = &t->plan;
    bool started = false; /* the start position is taken: later set-up stones are events */
    for (int n = 0; n < rec->nnodes && ok; n++) {
        const struct go_record_node *node = &rec->nodes[n];
        for (int s = 0; s < node->nsetup; s++) {
            go_game_setup(g, node->setup[s].color, node->setup[s].point);
            if (!started) continue;
            struct tl_event e = {.frame = frame,
                                 .kind = node->setup[s].color ? TL_PLACE : TL_REMOVE,
                                 .point = node->setup[s].point,
                                 .color = node->setup[s].color,
                                 .ply = ply,
                                 .look = tl_random_look(o->seed, 100000u + (unsigned)n)};
            ok = ok && tl_push_event(t, &evcap, e);
        }
        /* set-up stones before the first move (a handicap in the second node, as Fox writes
         * it) lie on the board from the first frame: they were there before the game began */
        if (!started && (node->has_move || n + 1 == rec->nnodes)) {
            started = true;
            for (int p = 0; p < GO_POINTS; p++) {
                t->setup[p] = (uint8_t)go_game_at(g, p);
                t->setup_look[p] = tl_random_look(o->seed, 200000u + (unsigned)p);
            }
        }
        if (!node->has_move) continue;
        if (o->max_moves > 0 && moves >= o->max_moves) break;
        moves++;
        struct go_move m = node->move;
        uint8_t before[GO_POINTS];
        for (int p = 0; p < GO_POINTS; p++) before[p] = (uint8_t)go_game_at(g, p);
        go_game_play(g, m);
        ply++;
        if (m.point == GO_PASS || m.point < 0 || before[m.point] != GO_EMPTY ||
            go_game_at(g, m.point) == GO_EMPTY) {
            /* a pass, or a move the rules core could not execute: nothing changes on the board */
            struct tl_event e = {.frame = frame + 5 + rng_int(&r, 10),
                                 .kind = TL_PASS,
                                 .point = GO_PASS,
                                 .color = m.color,
                                 .ply = ply};
            ok = ok && tl_push_event(t, &evcap, e);
            frame = e.frame + 10 + rng_int(&r, 15);
            continue;
        }
        struct tl_visit v = {.f0 = frame, .color = m.color};
        int f = frame + 9 + rng_int(&r, 8);
        v.target_point[0] = m.point;
        v.target_frame[0] = f;
        v.carries[0] = true;
        v.ntargets = 1;
        struct tl_event e = {.frame = f,
                             .kind = TL_PLACE,
                             .point = m.point,
                             .color = m.color,
                             .ply = ply,
                             .look = tl_random_look(o->seed, (uint64_t)ply)};
        ok = ok && tl_push_event(t, &evcap, e);
        /* prisoners, nearest first from where the hand is */
        int caps[GO_POINTS], ncap = 0;
        for (int p = 0; p < GO_POINTS; p++)
            if (before[p] != GO_EMPTY && go_game_at(g, p) == GO_EMPTY && p != m.point)
                caps[ncap++] = p;
        int at = m.point;
        if (ply == fp->left_k && ncap > 0) { /* the prisoners stay on the board */
            ok = ok &&
                 tl_push_event(t, &evcap, tl_mark_event(f, ply, m.point, m.color, "captures-left"));
            ncap = 0;
        }
        for (int k = 0; k < ncap; k++) {
            int best = k;
            for (int j = k + 1; j < ncap; j++) {
                int dj = abs(go_x(caps[j]) - go_x(at)) + abs(go_y(caps[j]) - go_y(at));
                int db = abs(go_x(caps[best]) - go_x(at)) + abs(go_y(caps[best]) - go_y(at));
                if (dj < db) best = j;
            }
            int tmp = caps[k];
            caps[k] = caps[best];
            caps[best] = tmp;
            at = caps[k];
            f += 4 + rng_int(&r, 5);
            if (v.ntargets < 24) {
                v.target_point[v.ntargets] = at;
                v.target_frame[v.ntargets] = f;
                v.carries[v.ntargets] = false;
                v.ntargets++;
            }
            struct tl_event rm = {.frame = f,
                                  .kind = TL_REMOVE,
                                  .point = at,
                                  .color = (enum go_color)before[at],
                                  .ply = ply};
            ok = ok && tl_push_event(t, &evcap, rm);
        }
        v.f1 = f + 8 + rng_int(&r, 7);
        ok = ok && tl_push_visit(t, &vcap, &v);
        int pause = 6 + rng_int(&r, 20) + render_think_frames(o, ply);
        frame = v.f1 + 1 + pause;
        ok = ok && tl_fault_visits(t, &evcap, &vcap, &r, ply, &frame, o->seed);
        bool knock = ply == fp->knock_k;
        if (knock || rng_unit(&r) < o->bump_rate) {
            double s = knock ? 5 : 1;
            struct tl_event b = {
                .frame = frame - 1 - pause / 2, .kind = TL_BUMP, .point = GO_NOPOINT, .ply = ply};
            if (b.frame <= v.f1) b.frame = v.f1 + 1;
            b.dx = clampd(rng_gauss(&r) * 4 * s, -10 * s, 10 * s);
            b.dy = clampd(rng_gauss(&r) * 4 * s, -10 * s, 10 * s);
            b.rot = clampd(rng_gauss(&r) * 0.6 * s, -1.5 * s, 1.5 * s) * 3.14159265358979 / 180;
            if (knock) {
                if (fabs(b.dx) < 12) b.dx = b.dx < 0 ? -12 : 12;
                ok = ok &&
                     tl_push_event(t, &evcap,
                                   tl_mark_event(b.frame, ply, GO_NOPOINT, GO_EMPTY, "knocked"));
            }
            ok = ok && tl_push_event(t, &evcap, b);
        }
    }
    if (o->signals && ok) ok = tl_signal_visits(t, &evcap, &vcap, &r, g, rec, ply, &frame, o);
    go_game_free(g);
    t->nframes = frame + 15;
    for (int i = 1; i < t->nev; i++) { /* frame order; same-frame events keep theirs */
        struct tl_event e = t->ev[i];
        int j = i;
        while (j > 0 && t->ev[j - 1].frame > e.frame) {
            t->ev[j] = t->ev[j - 1];
            j--;
        }
        t->ev[j] = e;
    }
    if (!ok) {
        snprintf(err, errlen, "out of memory building the time line");
        timeline_free(t);
        return false;
    }
    return true;
}

void timeline_free(struct timeline *t)
{
    free(t->ev);
    free(t->visits);
    t->ev = NULL;
    t->visits = NULL;
    t->nev = t->nvisits = 0;
}

void timeline_state(const struct timeline *t, int f, uint8_t stone[GO_POINTS],
                    struct stone_look look[GO_POINTS], int *ply, struct board_pose *pose,
                    int *nbumps)
{
    memcpy(stone, t->setup, GO_POINTS);
    if (look) memcpy(look, t->setup_look, sizeof t->setup_look);
    *ply = 0;
    *pose = (struct board_pose){0, 0, 0};
    *nbumps = 0;
    for (int i = 0; i < t->nev && t->ev[i].frame <= f; i++) {
        const struct tl_event *e = &t->ev[i];
        switch (e->kind) {
        case TL_PLACE:
            stone[e->point] = (uint8_t)e->color;
            if (look) look[e->point] = e->look;
            break;
        case TL_REMOVE: stone[e->point] = GO_EMPTY; break;
        case TL_PASS:
        case TL_MARK:
        case TL_OFF: break;
        case TL_BUMP:
            pose->x += e->dx;
            pose->y += e->dy;
            pose->rot += e->rot;
            (*nbumps)++;
            break;
        }
        if (e->ply > *ply && e->kind != TL_BUMP && e->kind != TL_MARK) *ply = e->ply;
    }
}

const struct tl_visit *timeline_visit_at(const struct timeline *t, int f)
{
    for (int i = 0; i < t->nvisits; i++)
        if (f >= t->visits[i].f0 && f <= t->visits[i].f1) return &t->visits[i];
    return NULL;
}

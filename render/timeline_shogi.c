/* render/timeline_shogi.c — a shogi game as it happens in front of the camera, at 30 frames a
 * second. The moves come from the record replayed through the rules core (board/shogi.h). Per
 * move the mover's hand reaches in; a capture is lifted off first and put on the mover's komadai;
 * then the moving piece is lifted and put down (promoted face up when it promotes), or a piece in
 * hand is taken from the komadai and dropped. Faults and signals on request are woven in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

struct builder {
    struct shogi_timeline *t;
    int evcap, vcap;
    bool ok;
};

static void push_event(struct builder *b, struct stl_event e)
{
    struct shogi_timeline *t = b->t;
    if (t->nev == b->evcap) {
        int n = b->evcap ? b->evcap * 2 : 256;
        struct stl_event *p = realloc(t->ev, sizeof *p * (size_t)n);
        if (!p) {
            b->ok = false;
            return;
        }
        t->ev = p;
        b->evcap = n;
    }
    t->ev[t->nev++] = e;
}

static void push_visit(struct builder *b, const struct stl_visit *v)
{
    struct shogi_timeline *t = b->t;
    if (t->nvisits == b->vcap) {
        int n = b->vcap ? b->vcap * 2 : 128;
        struct stl_visit *p = realloc(t->visits, sizeof *p * (size_t)n);
        if (!p) {
            b->ok = false;
            return;
        }
        t->visits = p;
        b->vcap = n;
    }
    t->visits[t->nvisits++] = *v;
}

static void target(struct stl_visit *v, int kind, int sq, int type, int idx, int frame)
{
    if (v->nt >= 8) return;
    v->tkind[v->nt] = kind;
    v->tsq[v->nt] = sq;
    v->ttype[v->nt] = type;
    v->tidx[v->nt] = idx;
    v->tframe[v->nt] = frame;
    v->nt++;
}

static void mark(struct builder *b, int frame, int ply, int color, int sq, const char *name,
                 bool signal)
{
    struct stl_event e = {.frame = frame, .kind = STL_MARK, .sq = sq, .color = color, .ply = ply};
    snprintf(e.name, sizeof e.name, "%s", name);
    e.signal = signal;
    push_event(b, e);
}

/* Moves that can take a fault: index into rec->moves, or -1. The seed picks among candidates. */
static int pick(struct rng *r, const bool *cand, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++) count += cand[i];
    if (!count) return -1;
    int k = rng_int(r, count);
    for (int i = 0; i < n; i++)
        if (cand[i] && k-- == 0) return i;
    return -1;
}

/* Does color drop a `type` after move index k? (then a missing piece in hand would show.) */
static bool drops_later(const struct shogi_record *rec, int k, int color, int type, int n)
{
    for (int j = k + 1; j < n; j++) {
        struct shogi_move m = rec->moves[j].move;
        if (rec->moves[j].played && shogi_move_is_drop(m) &&
            (int)shogi_piece_color(m.piece) == color &&
            (int)shogi_type_base(shogi_piece_type(m.piece)) == type)
            return true;
    }
    return false;
}

/* A square where the side to move, holding a pawn, would drop one on a file that holds its own
 * unpromoted pawn (二歩, and no other rule broken first): the first such from square `off` on,
 * or -1. */
static int nifu_square(const struct shogi_position *pos, int off)
{
    int c = pos->side;
    if (pos->hand[c][SHOGI_PAWN] < 1) return -1;
    for (int i = 0; i < SHOGI_SQUARES; i++) {
        int s = (off + i) % SHOGI_SQUARES;
        if (pos->board[s]) continue;
        struct shogi_move m = {.from = SHOGI_HAND,
                               .to = (uint8_t)s,
                               .piece = (uint8_t)shogi_piece((enum shogi_color)c, SHOGI_PAWN)};
        if (shogi_check_move(pos, m).rule == SHOGI_ILLEGAL_NIFU) return s;
    }
    return -1;
}

bool shogi_timeline_build(struct shogi_timeline *t, const struct shogi_record *rec,
                          const struct render_opts *o, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->start = rec->start;
    struct builder b = {t, 0, 0, true};
    struct rng r = rng_stream(o->seed, RS_TIMELINE, 1);
    struct rng rf = rng_stream(o->seed, RS_TIMELINE, 2); /* faults: their own stream */
    int n = rec->nmoves;
    if (o->max_moves > 0 && n > o->max_moves) n = o->max_moves;

    /* choose where the requested faults go (playable moves only) */
    bool *cand = calloc((size_t)n + 1, sizeof *cand);
    if (!cand) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    int f_pocket = -1, f_wrong = -1, f_opp = -1, f_hide = -1, f_knock = -1, f_nifu = -1;
    struct shogi_position pos = rec->start;
    /* (a new kind's pass comes last: the seed's picks for the others stay where they were) */
    for (int pass = 0; pass < 6; pass++) {
        unsigned bit = pass == 0   ? RENDER_FAULT_NOT_IN_HAND
                       : pass == 1 ? RENDER_FAULT_WRONG_WAY
                       : pass == 2 ? RENDER_FAULT_OPPONENT_PIECE
                       : pass == 3 ? RENDER_FAULT_HIDDEN
                       : pass == 4 ? RENDER_FAULT_KNOCKED
                                   : RENDER_FAULT_NIFU;
        if (!(o->faults & bit)) continue;
        pos = rec->start;
        for (int k = 0; k < n; k++) {
            const struct shogi_record_move *rm = &rec->moves[k];
            struct shogi_move m = rm->move;
            int c = shogi_piece_color(m.piece);
            cand[k] = false;
            if (!rm->played) continue;
            if (pass == 0 && m.captured) {
                int ty = shogi_type_base(shogi_piece_type(m.captured));
                cand[k] = ty != SHOGI_KING && !drops_later(rec, k, c, ty, n);
            } else if (pass == 1) {
                /* a piece that stays where it is to the end: the fault stays visible */
                cand[k] = !shogi_move_is_drop(m) && !m.captured && k >= 2;
                for (int j = k + 1; j < n && cand[k]; j++)
                    cand[k] = rec->moves[j].move.from != m.to && rec->moves[j].move.to != m.to;
                if (cand[k]) { /* and the turned piece changes no later verdict */
                    struct shogi_position p2 = pos;
                    shogi_do_move(&p2, m);
                    p2.board[m.to] ^= 16;
                    shogi_position_refresh(&p2);
                    for (int j = k + 1; j < n && cand[k]; j++) {
                        if (!rec->moves[j].played) continue;
                        cand[k] = shogi_check_move(&p2, rec->moves[j].move).rule == SHOGI_LEGAL;
                        shogi_do_move(&p2, rec->moves[j].move);
                    }
                }
            } else if (pass == 2 || pass == 4) {
                cand[k] = k >= 1 && k + 1 < n;
            } else if (pass == 5 && k >= 1 && k + 1 < n) {
                /* after this move the player to move holds a pawn and has a file with one of
                   their own unpromoted pawns and an empty square a pawn may stand on */
                struct shogi_position p2 = pos;
                shogi_do_move(&p2, m);
                cand[k] = nifu_square(&p2, 0) >= 0;
            } else if (pass == 3) {
                for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) {
                    int later = 0;
                    for (int j = k + 1; j < n; j++) {
                        struct shogi_move mj = rec->moves[j].move;
                        later += rec->moves[j].played && shogi_move_is_drop(mj) &&
                                 (int)shogi_piece_color(mj.piece) == c &&
                                 (int)shogi_type_base(shogi_piece_type(mj.piece)) == ty;
                    }
                    int have =
                        pos.hand[c][ty] +
                        (m.captured && (int)shogi_type_base(shogi_piece_type(m.captured)) == ty) -
                        (shogi_move_is_drop(m) &&
                         (int)shogi_type_base(shogi_piece_type(m.piece)) == ty);
                    if (f_pocket >= 0 && k >= f_pocket) { /* not on the komadai: pocketed */
                        struct shogi_move mp = rec->moves[f_pocket].move;
                        have -= (int)shogi_piece_color(mp.piece) == c &&
                                (int)shogi_type_base(shogi_piece_type(mp.captured)) == ty;
                    }
                    if (have > later) cand[k] = true;
                }
            }
            shogi_do_move(&pos, m);
        }
        int k = pick(&rf, cand, n);
        if (pass == 0) f_pocket = k;
        if (pass == 1) f_wrong = k;
        if (pass == 2) f_opp = k;
        if (pass == 3) f_hide = k;
        if (pass == 4) f_knock = k;
        if (pass == 5) f_nifu = k;
    }
    free(cand);

    pos = rec->start;
    int gone[2][SHOGI_HAND_TYPES] = {{0}}; /* pieces in hand the faults took off the komadai */
    int frame = 10 + rng_int(&r, 12);
    for (int k = 0; k < n && b.ok; k++) {
        const struct shogi_record_move *rm = &rec->moves[k];
        if (!rm->played) continue; /* not playable: the board does not change */
        struct shogi_move m = rm->move;
        int c = shogi_piece_color(m.piece), ply = k + 1;
        struct stl_visit v = {.f0 = frame, .color = c};
        int f = frame + 8 + rng_int(&r, 6);
        if (m.captured) {
            int ty = shogi_type_base(shogi_piece_type(m.captured));
            target(&v, TGT_SQ, m.to, 0, 0, f);
            push_event(&b, (struct stl_event){.frame = f,
                                              .kind = STL_LIFT,
                                              .sq = m.to,
                                              .piece = m.captured,
                                              .color = c,
                                              .ply = ply});
            f += 8 + rng_int(&r, 6);
            if (k == f_pocket) { /* the piece goes into the player's lap, not on the komadai */
                mark(&b, f, ply, c, m.to, "not-in-hand", false);
                gone[c][ty]++;
                f += 4;
            } else if (ty != SHOGI_KING) {
                target(&v, TGT_STAND, -1, ty, pos.hand[c][ty] - gone[c][ty], f);
                push_event(&b, (struct stl_event){.frame = f,
                                                  .kind = STL_HAND_ADD,
                                                  .piece = (uint8_t)shogi_piece(c, ty),
                                                  .color = c,
                                                  .ply = ply});
                f += 6 + rng_int(&r, 5);
            }
        }
        bool pocketed = k == f_pocket;
        if (shogi_move_is_drop(m)) {
            int ty = shogi_type_base(shogi_piece_type(m.piece));
            int idx = pos.hand[c][ty] - gone[c][ty] > 0 ? pos.hand[c][ty] - gone[c][ty] - 1 : 0;
            target(&v, TGT_STAND, -1, ty, idx, f);
            push_event(&b, (struct stl_event){.frame = f,
                                              .kind = STL_HAND_TAKE,
                                              .piece = (uint8_t)shogi_piece(c, ty),
                                              .color = c,
                                              .ply = ply});
            f += 9 + rng_int(&r, 6);
        } else {
            target(&v, TGT_SQ, m.from, 0, 0, f);
            push_event(&b, (struct stl_event){.frame = f,
                                              .kind = STL_LIFT,
                                              .sq = m.from,
                                              .piece = m.piece,
                                              .color = c,
                                              .ply = ply});
            int dist = abs(shogi_sq_file(m.from) - shogi_sq_file(m.to)) +
                       abs(shogi_sq_rank(m.from) - shogi_sq_rank(m.to));
            f += 6 + rng_int(&r, 5) + dist;
        }
        uint8_t put = (uint8_t)(m.piece + (m.promote ? SHOGI_PROMOTED : 0));
        shogi_do_move(&pos, m);
        target(&v, TGT_SQ, m.to, 0, 0, f);
        if (k == f_wrong) {
            put ^= 16; /* turned round: it now points at its owner's side */
            mark(&b, f, ply, c, m.to, "wrong-way", false);
        }
        push_event(&b, (struct stl_event){.frame = f,
                                          .kind = STL_PUT,
                                          .sq = m.to,
                                          .piece = put,
                                          .color = c,
                                          .ply = ply,
                                          .side = pos.side});
        if (pocketed) /* the pocketed piece is still in the hand: it leaves with it */
            push_event(
                &b, (struct stl_event){.frame = f + 1, .kind = STL_POCKET, .color = c, .ply = ply});
        v.f1 = f + 8 + rng_int(&r, 7);
        push_visit(&b, &v);
        frame = v.f1 + 1 + 6 + rng_int(&r, 18) + render_think_frames(o, ply);
        if (k == f_opp || k == f_hide) {
            /* an opponent's piece moved: the player to move takes a piece of the one who just
             * moved for their own and pushes it a square forward, their forward (it points the
             * other way: its owner is plain to see); the owner puts it back. A hidden piece: the
             * player who just moved reaches in again and hides a piece of their own komadai. */
            int who = k == f_opp ? !c : c;
            struct stl_visit w = {.f0 = frame, .color = who};
            int g = frame + 10 + rng_int(&r, 5);
            if (k == f_opp) {
                int from = -1, to = -1, off = rng_int(&r, SHOGI_SQUARES);
                int fwd = c == SHOGI_SENTE ? 1 : -1; /* the player to move's forward, in ranks */
                /* a pawn, lance or silver: a step its owner's piece never makes, the mover's
                   piece of that kind does (else any piece of theirs, a square any way) */
                for (int pass = 0; pass < 2 && from < 0; pass++)
                    for (int i = 0; i < SHOGI_SQUARES && from < 0; i++) {
                        int s = (off + i) % SHOGI_SQUARES, pc = pos.board[s];
                        bool turned =
                            f_wrong >= 0 && f_wrong < k && s == rec->moves[f_wrong].move.to;
                        if (!pc || (int)shogi_piece_color(pc) != c ||
                            shogi_piece_type(pc) == SHOGI_KING || turned)
                            continue; /* (the turned piece keeps its fault) */
                        int ty = shogi_piece_type(pc);
                        if (pass == 0 &&
                            (ty == SHOGI_PAWN || ty == SHOGI_LANCE || ty == SHOGI_SILVER)) {
                            int rk = shogi_sq_rank(s) + fwd;
                            if (rk >= 1 && rk <= 9 && !pos.board[shogi_sq(shogi_sq_file(s), rk)])
                                from = s, to = shogi_sq(shogi_sq_file(s), rk);
                            continue;
                        }
                        static const int dd[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
                        for (int d = 0; pass == 1 && d < 4 && from < 0; d++) {
                            int fl = shogi_sq_file(s) + dd[d][0], rk = shogi_sq_rank(s) + dd[d][1];
                            if (fl < 1 || fl > 9 || rk < 1 || rk > 9 || pos.board[shogi_sq(fl, rk)])
                                continue;
                            from = s;
                            to = shogi_sq(fl, rk);
                        }
                    }
                if (from >= 0) {
                    uint8_t pc = pos.board[from];
                    target(&w, TGT_SQ, from, 0, 0, g);
                    push_event(&b, (struct stl_event){.frame = g,
                                                      .kind = STL_LIFT,
                                                      .sq = from,
                                                      .piece = pc,
                                                      .color = who,
                                                      .ply = ply});
                    mark(&b, g, ply, who, from, "opponent-piece", false);
                    g += 8 + rng_int(&r, 4);
                    target(&w, TGT_SQ, to, 0, 0, g);
                    push_event(&b, (struct stl_event){.frame = g,
                                                      .kind = STL_PUT,
                                                      .sq = to,
                                                      .piece = pc,
                                                      .color = who,
                                                      .ply = ply,
                                                      .side = pos.side});
                    w.f1 = g + 8 + rng_int(&r, 6);
                    push_visit(&b, &w);
                    /* the owner puts it back */
                    struct stl_visit x = {.f0 = w.f1 + 20 + rng_int(&r, 20), .color = c};
                    int h = x.f0 + 10 + rng_int(&r, 5);
                    target(&x, TGT_SQ, to, 0, 0, h);
                    push_event(&b, (struct stl_event){.frame = h,
                                                      .kind = STL_LIFT,
                                                      .sq = to,
                                                      .piece = pc,
                                                      .color = c,
                                                      .ply = ply});
                    h += 8 + rng_int(&r, 4);
                    target(&x, TGT_SQ, from, 0, 0, h);
                    push_event(&b, (struct stl_event){.frame = h,
                                                      .kind = STL_PUT,
                                                      .sq = from,
                                                      .piece = pc,
                                                      .color = c,
                                                      .ply = ply,
                                                      .side = pos.side});
                    mark(&b, h, ply, c, from, "put-back", false);
                    x.f1 = h + 8 + rng_int(&r, 6);
                    push_visit(&b, &x);
                    frame = x.f1 + 1 + 6 + rng_int(&r, 10);
                }
            } else {
                int ty = 0;
                for (int q = SHOGI_GOLD; q >= SHOGI_PAWN && !ty; q--) {
                    int later = 0;
                    for (int j = k + 1; j < n; j++) {
                        struct shogi_move mj = rec->moves[j].move;
                        later += rec->moves[j].played && shogi_move_is_drop(mj) &&
                                 (int)shogi_piece_color(mj.piece) == c &&
                                 (int)shogi_type_base(shogi_piece_type(mj.piece)) == q;
                    }
                    if (pos.hand[c][q] - gone[c][q] > later) ty = q;
                }
                if (ty) {
                    target(&w, TGT_STAND, -1, ty, pos.hand[c][ty] - gone[c][ty] - 1, g);
                    gone[c][ty]++;
                    push_event(&b, (struct stl_event){.frame = g,
                                                      .kind = STL_HAND_TAKE,
                                                      .piece = (uint8_t)shogi_piece(c, ty),
                                                      .color = c,
                                                      .ply = ply});
                    mark(&b, g, ply, c, -1, "hidden", false);
                    w.f1 = g + 10 + rng_int(&r, 6);
                    push_event(&b, (struct stl_event){
                                       .frame = w.f1, .kind = STL_POCKET, .color = c, .ply = ply});
                    push_visit(&b, &w);
                    frame = w.f1 + 1 + 6 + rng_int(&r, 10);
                }
            }
        }
        if (k == f_nifu) {
            /* 二歩: the player to move takes a pawn from their komadai and drops it on a file
             * that holds one of their own unpromoted pawns; then (the referee, or they, see it)
             * they take it back to the komadai and play the game's move. */
            int who = pos.side;
            int sq = nifu_square(&pos, rng_int(&r, SHOGI_SQUARES));
            int idx = pos.hand[who][SHOGI_PAWN] - gone[who][SHOGI_PAWN] - 1;
            if (sq >= 0 && idx >= 0) {
                uint8_t pc = (uint8_t)shogi_piece((enum shogi_color)who, SHOGI_PAWN);
                struct stl_visit w = {.f0 = frame, .color = who};
                int g = frame + 10 + rng_int(&r, 5);
                target(&w, TGT_STAND, -1, SHOGI_PAWN, idx, g);
                push_event(
                    &b,
                    (struct stl_event){
                        .frame = g, .kind = STL_HAND_TAKE, .piece = pc, .color = who, .ply = ply});
                g += 9 + rng_int(&r, 6);
                target(&w, TGT_SQ, sq, 0, 0, g);
                push_event(&b, (struct stl_event){.frame = g,
                                                  .kind = STL_PUT,
                                                  .sq = sq,
                                                  .piece = pc,
                                                  .color = who,
                                                  .ply = ply,
                                                  .side = pos.side});
                mark(&b, g, ply, who, sq, "nifu", false);
                w.f1 = g + 8 + rng_int(&r, 6);
                push_visit(&b, &w);
                /* the pawn stands while the other player objects (one to two seconds, as a Go
                   ko retaken or a suicide), then goes back to its place on the komadai */
                struct stl_visit x = {.f0 = w.f1 + 1 + 30 + rng_int(&r, 30), .color = who};
                int h = x.f0 + 10 + rng_int(&r, 5);
                target(&x, TGT_SQ, sq, 0, 0, h);
                push_event(&b, (struct stl_event){.frame = h,
                                                  .kind = STL_LIFT,
                                                  .sq = sq,
                                                  .piece = pc,
                                                  .color = who,
                                                  .ply = ply});
                h += 8 + rng_int(&r, 4);
                target(&x, TGT_STAND, -1, SHOGI_PAWN, idx, h);
                push_event(
                    &b,
                    (struct stl_event){
                        .frame = h, .kind = STL_HAND_ADD, .piece = pc, .color = who, .ply = ply});
                mark(&b, h, ply, who, sq, "put-back", false);
                x.f1 = h + 8 + rng_int(&r, 6);
                push_visit(&b, &x);
                frame = x.f1 + 1 + 6 + rng_int(&r, 10);
            }
        }
        bool knock = k == f_knock;
        if (knock || rng_unit(&r) < o->bump_rate) {
            int bf = frame - 3;
            double s = knock ? 5 : 1;
            struct stl_event e = {.frame = bf, .kind = STL_BUMP, .sq = -1, .color = -1, .ply = ply};
            e.dx = clampd(rng_gauss(&r) * 4 * s, -10 * s, 10 * s);
            e.dy = clampd(rng_gauss(&r) * 4 * s, -10 * s, 10 * s);
            e.rot = clampd(rng_gauss(&r) * 0.6 * s, -1.5 * s, 1.5 * s) * 3.14159265358979 / 180;
            if (knock) {
                if (fabs(e.dx) < 12) e.dx = e.dx < 0 ? -12 : 12;
                mark(&b, bf, ply, -1, -1, "knocked", false);
            }
            push_event(&b, e);
        }
    }
    if ((o->signals & RENDER_SIGNAL_RESIGN) && b.ok) {
        /* the player to move rests a hand over their komadai: resignation */
        int c = pos.side;
        struct stl_visit v = {.f0 = frame, .color = c};
        target(&v, TGT_REST, -1, 0, 0, frame + 14);
        mark(&b, frame + 14, n, c, -1, "resign", true);
        v.f1 = frame + 14 + 60;
        target(&v, TGT_REST, -1, 0, 0, v.f1 - 10);
        push_visit(&b, &v);
        frame = v.f1 + 10;
    }
    t->nframes = frame + 15;
    /* events in frame order (stable: same-frame events keep their order) */
    for (int i = 1; i < t->nev; i++) {
        struct stl_event e = t->ev[i];
        int j = i;
        while (j > 0 && t->ev[j - 1].frame > e.frame) {
            t->ev[j] = t->ev[j - 1];
            j--;
        }
        t->ev[j] = e;
    }
    if (!b.ok) {
        snprintf(err, errlen, "out of memory building the time line");
        shogi_timeline_free(t);
        return false;
    }
    return true;
}

void shogi_timeline_free(struct shogi_timeline *t)
{
    free(t->ev);
    free(t->visits);
    t->ev = NULL;
    t->visits = NULL;
    t->nev = t->nvisits = 0;
}

void shogi_timeline_state(const struct shogi_timeline *t, int f, struct stl_state *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->board, t->start.board, sizeof s->board);
    memcpy(s->hand, t->start.hand, sizeof s->hand);
    s->side = t->start.side;
    for (int i = 0; i < t->nev && t->ev[i].frame <= f; i++) {
        const struct stl_event *e = &t->ev[i];
        switch (e->kind) {
        case STL_LIFT:
            s->board[e->sq] = 0;
            s->carried = e->piece;
            break;
        case STL_PUT:
            s->board[e->sq] = e->piece;
            s->put_frame[e->sq] = e->frame;
            s->carried = 0;
            s->side = e->side;
            if (e->ply > s->ply) s->ply = e->ply;
            break;
        case STL_HAND_ADD: {
            int ty = shogi_piece_type(e->piece);
            if (s->hand[e->color][ty] < 18) s->hand[e->color][ty]++;
            s->carried = 0;
            break;
        }
        case STL_HAND_TAKE: {
            int ty = shogi_piece_type(e->piece);
            if (s->hand[e->color][ty] > 0) s->hand[e->color][ty]--;
            s->carried = e->piece;
            break;
        }
        case STL_POCKET:
        case STL_HIDE: s->carried = 0; break;
        case STL_BUMP:
            s->pose.x += e->dx;
            s->pose.y += e->dy;
            s->pose.rot += e->rot;
            s->nbumps++;
            break;
        case STL_MARK: break;
        }
    }
}

const struct stl_visit *shogi_timeline_visit_at(const struct shogi_timeline *t, int f)
{
    for (int i = 0; i < t->nvisits; i++)
        if (f >= t->visits[i].f0 && f <= t->visits[i].f1) return &t->visits[i];
    return NULL;
}

void komadai_slot(const struct goban *g, uint64_t seed, int color, int type, int idx, double *bx,
                  double *by, double *rot, double *lift)
{
    /* Players group pieces in hand by type: rook and bishop at the back, gold and silver, knight
     * and lance, pawns in front in an overlapping row (a second row when there are many). */
    const struct stand *st = &g->stands[color];
    double w, h, th;
    piece_size((enum shogi_type)type, &w, &h, &th);
    int row, col;
    switch (type) {
    case SHOGI_ROOK: row = 0, col = 0; break;
    case SHOGI_BISHOP: row = 0, col = 1; break;
    case SHOGI_GOLD: row = 1, col = 0; break;
    case SHOGI_SILVER: row = 1, col = 1; break;
    case SHOGI_KNIGHT: row = 2, col = 0; break;
    case SHOGI_LANCE: row = 2, col = 1; break;
    default: row = 3 + idx / 9, col = 0; break;
    }
    int k = type == SHOGI_PAWN ? idx % 9 : idx;
    double step = type == SHOGI_PAWN ? 0.52 * w : 0.62 * w;
    double u0 = type == SHOGI_PAWN ? -st->w / 2 + 4 + w / 2 : (col ? 4 : -st->w / 2 + 4) + w / 2;
    double u = u0 + k * step;
    double pitch = (st->l - 8) / 4.6;
    double v = st->l / 2 - 4 - h / 2 - row * pitch;
    struct rng r = rng_stream(seed, RS_STONE, 300000u + (uint64_t)(color * 1000 + type * 40 + idx));
    u += rng_range(&r, -1.5, 1.5);
    v += rng_range(&r, -1.5, 1.5);
    *rot = rng_range(&r, -0.12, 0.12);
    *lift = (k % 2) ? th * 0.3 : 0; /* every other piece of a group lies on its neighbours' edge */
    /* owner's frame: sente's right is +x and away is -y; gote's the opposite */
    double sgn = color == SHOGI_SENTE ? 1 : -1;
    *bx = st->cx + sgn * u;
    *by = st->cy - sgn * v;
}

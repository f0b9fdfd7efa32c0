/* tests/ruleguard/obs_gen.c — real games as noisy observation streams (see obs_gen.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ruleguard/obs_gen.h"

void gen_noise_default(struct gen_noise *n)
{
    n->misread = 0.001;
    n->misread_sure = 0.08;
    n->doubtful = 0.03;
    n->occlude = 0.15;
    n->repeat = 0.5;
    n->duplicate = 0.03;
    n->hidden_hand = 0.05;
}

void gen_rng_seed(struct gen_rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
    if (!r->s) r->s = 1;
    for (int i = 0; i < 4; i++) gen_rng_next(r);
}

uint64_t gen_rng_next(struct gen_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

double gen_rng_unit(struct gen_rng *r)
{
    return (double)(gen_rng_next(r) >> 11) / 9007199254740992.0;
}

int gen_rng_int(struct gen_rng *r, int n)
{
    return n > 0 ? (int)(gen_rng_unit(r) * n) : 0;
}

static double uniform(struct gen_rng *r, double a, double b)
{
    return a + (b - a) * gen_rng_unit(r);
}

void gen_stream_free(struct gen_stream *s)
{
    free(s->items);
    free(s->moves);
    memset(s, 0, sizeof *s);
}

static struct obs_item *push_item(struct gen_stream *s)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->items = realloc(s->items, (size_t)s->cap * sizeof *s->items);
    }
    struct obs_item *it = &s->items[s->n++];
    memset(it, 0, sizeof *it);
    return it;
}

const char *gen_go_fault_name(enum gen_go_fault f)
{
    static const char *const names[GF_COUNT] = {"none",          "illegal",     "two-moves",
                                                "stone-removed", "moved-stone", "capture-left",
                                                "disturbed"};
    return (unsigned)f < GF_COUNT ? names[f] : "?";
}

/* ---- observations of a physical board -------------------------------------------------------- */

struct gctx {
    struct gen_stream *s;
    struct gen_rng rng;
    const struct gen_noise *nz;
    int w, h;
    bool shogi;
    uint8_t phys[OBS_POINTS]; /* image layout: y * OBS_MAX + x */
    struct hand_obs hands[2];
    int64_t t;
    uint64_t frame;
    int focus; /* where the last thing happened, for the hand blob */
};

/* A hand over the board: a disc around a point near the focus, with an arm to the nearest edge. */
static void occlude_blob(struct gctx *c, struct observation *o)
{
    int fx = c->focus >= 0 ? c->focus % OBS_MAX : c->w / 2;
    int fy = c->focus >= 0 ? c->focus / OBS_MAX : c->h / 2;
    int cx = fx + gen_rng_int(&c->rng, 7) - 3, cy = fy + gen_rng_int(&c->rng, 7) - 3;
    double r = uniform(&c->rng, 1.2, 3.2);
    bool down = cy >= c->h / 2;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            double dx = x - cx, dy = y - cy;
            bool disc = dx * dx + dy * dy <= r * r;
            bool arm = (x == cx || x == cx + 1) && (down ? y > cy : y < cy);
            if (!disc && !arm) continue;
            int p = y * OBS_MAX + x;
            o->occluded[p] = true;
            o->noccluded++;
            o->conf[p] = 0;
        }
}

static uint8_t misread_value(struct gctx *c, uint8_t v)
{
    if (!c->shogi) return (uint8_t)((v + 1 + gen_rng_int(&c->rng, 2)) % 3);
    /* shogi: empty <-> a piece, or a neighbouring face (promoted / unpromoted / other owner) */
    int k = gen_rng_int(&c->rng, 3);
    if (v == SHOGI_EMPTY) return (uint8_t)shogi_piece(gen_rng_int(&c->rng, 2), SHOGI_PAWN);
    if (k == 0) return SHOGI_EMPTY;
    enum shogi_type t = shogi_piece_type(v);
    if (k == 1 && shogi_type_can_promote(t)) return (uint8_t)(v + SHOGI_PROMOTED);
    return (uint8_t)(v ^ 16);
}

static void emit_obs_once(struct gctx *c, bool allow_blob)
{
    struct obs_item *it = push_item(c->s);
    it->kind = OBS_ITEM_OBS;
    struct observation *o = &it->obs;
    c->t += (int64_t)(uniform(&c->rng, 1.5, 12.0) * 1e9) + gen_rng_int(&c->rng, 40) * 1000000;
    c->frame += 5 + (uint64_t)gen_rng_int(&c->rng, 300);
    o->t_ns = c->t;
    o->frame_seq = c->frame;
    o->board_found = true;
    o->w = c->w;
    o->h = c->h;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            int p = y * OBS_MAX + x;
            uint8_t v = c->phys[p];
            float conf = gen_rng_unit(&c->rng) < c->nz->doubtful
                             ? (float)uniform(&c->rng, 0.55, 0.9)
                             : (float)uniform(&c->rng, 0.9, 1.0);
            if (gen_rng_unit(&c->rng) < c->nz->misread) {
                v = misread_value(c, v);
                conf = gen_rng_unit(&c->rng) < c->nz->misread_sure
                           ? (float)uniform(&c->rng, 0.9, 1.0)
                           : (float)uniform(&c->rng, 0.3, 0.9);
            }
            o->point[p] = v;
            o->conf[p] = conf;
        }
    if (allow_blob && gen_rng_unit(&c->rng) < c->nz->occlude) occlude_blob(c, o);
    if (c->shogi)
        for (int s = 0; s < 2; s++) {
            o->hands[s] = c->hands[s];
            o->hands[s].conf = (float)uniform(&c->rng, 0.9, 1.0);
            if (gen_rng_unit(&c->rng) < c->nz->hidden_hand) o->hands[s].visible = false;
        }
    if (gen_rng_unit(&c->rng) < c->nz->duplicate) {
        struct obs_item copy = *it;
        *push_item(c->s) = copy; /* the settler sent the same frame twice */
    }
}

/* One stable state: one observation, maybe repeated (new frames). */
static void emit_state(struct gctx *c)
{
    /* the settler's first view of a state waits for the hand to leave; later ones may not */
    emit_obs_once(c, false);
    while (gen_rng_unit(&c->rng) < c->nz->repeat * 0.6) emit_obs_once(c, true);
}

/* A state that lasts (a fault waiting for the referee): n observations. */
static void emit_lasting(struct gctx *c, int n)
{
    for (int i = 0; i < n; i++) emit_obs_once(c, i > 0);
}

/* ---- Go ---------------------------------------------------------------------------------------
 */

static int img(int point)
{
    return go_y(point) * OBS_MAX + go_x(point);
}

static void phys_from_game(struct gctx *c, const struct go_game *g)
{
    memset(c->phys, 0, sizeof c->phys);
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++)
            c->phys[y * OBS_MAX + x] = (uint8_t)go_game_at(g, go_point(x, y));
}

static void push_signal_pass(struct gctx *c, enum go_color who)
{
    struct obs_item *it = push_item(c->s);
    it->kind = OBS_ITEM_SIGNAL;
    it->signal = GO_SIGNAL_PASS_STONE;
    it->color = who;
    c->t += (int64_t)(uniform(&c->rng, 2, 10) * 1e9);
    it->t_ns = c->t;
}

/* Take prisoners off over one or more observations. */
static void take_off_slowly(struct gctx *c, const int *cap, int ncap)
{
    int left = ncap, order[GO_POINTS];
    memcpy(order, cap, (size_t)ncap * sizeof *cap);
    for (int i = ncap - 1; i > 0; i--) {
        int j = gen_rng_int(&c->rng, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    /* first view: often everything is gone already, else a part */
    int first = gen_rng_unit(&c->rng) < 0.5 ? ncap : gen_rng_int(&c->rng, ncap + 1);
    for (int i = 0; i < first; i++) c->phys[img(order[--left])] = OBS_EMPTY;
    emit_state(c);
    while (left > 0) {
        int k = 1 + gen_rng_int(&c->rng, left);
        for (int i = 0; i < k; i++) c->phys[img(order[--left])] = OBS_EMPTY;
        emit_state(c);
    }
}

static int captured_points(const uint8_t before[GO_POINTS], const struct go_game *g, int except,
                           int out[GO_POINTS])
{
    int n = 0;
    for (int p = 0; p < GO_POINTS; p++)
        if (before[p] != GO_EMPTY && go_game_at(g, p) == GO_EMPTY && p != except) out[n++] = p;
    return n;
}

static void board_copy(const struct go_game *g, uint8_t out[GO_POINTS])
{
    for (int p = 0; p < GO_POINTS; p++) out[p] = (uint8_t)go_game_at(g, p);
}

/* Inject fault f after the current position; false when it has no place here. */
static bool inject_go(struct gctx *c, struct go_guard *mg, enum gen_go_fault f,
                      struct gen_stream *s)
{
    const struct go_game *g = go_guard_game(mg);
    int ply = go_game_ply(g);
    enum go_color tm = go_game_to_move(g), just = go_other(tm);
    int empties[GO_POINTS], ne = 0, stones[GO_POINTS], ns = 0;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            int p = go_point(x, y);
            if (go_game_at(g, p) == GO_EMPTY)
                empties[ne++] = p;
            else
                stones[ns++] = p;
        }
    if (ns < 8 || ne < 8) return false;
    int start = gen_rng_int(&c->rng, ne);
    char name[8];
    switch (f) {
    case GF_ILLEGAL:
        for (int i = 0; i < ne; i++) {
            int p = empties[(start + i) % ne];
            struct go_verdict v = go_game_check(g, (struct go_move){tm, p});
            if (v.kind != GO_ILLEGAL_SUICIDE && v.kind != GO_ILLEGAL_KO &&
                v.kind != GO_ILLEGAL_SUPERKO)
                continue;
            struct go_game *cp = go_game_copy(g);
            uint8_t before[GO_POINTS];
            board_copy(cp, before);
            go_game_play(cp, (struct go_move){tm, p});
            int cap[GO_POINTS];
            int nc = captured_points(before, cp, p, cap);
            go_game_free(cp);
            c->phys[img(p)] = (uint8_t)tm;
            for (int k = 0; k < nc; k++)
                if (before[cap[k]] != tm) c->phys[img(cap[k])] = OBS_EMPTY;
            c->focus = img(p);
            emit_lasting(c, 6);
            s->fault_ply = ply + 1;
            s->fault_kind = GUARD_ILLEGAL_MOVE;
            snprintf(s->fault_text, sizeof s->fault_text, "%s at %s (%s)",
                     tm == GO_BLACK ? "Black" : "White", go_point_name(p, c->h, name),
                     go_verdict_name(v.kind));
            return true;
        }
        return false;
    case GF_TWO_MOVES:
        for (int i = 0; i < ne; i++) {
            int p = empties[(start + i) % ne];
            struct go_game *cp = go_game_copy(g);
            go_game_set_to_move(cp, just);
            struct go_verdict v = go_game_play(cp, (struct go_move){just, p});
            go_game_free(cp);
            if (v.kind != GO_LEGAL || v.captured != 0) continue;
            c->phys[img(p)] = (uint8_t)just;
            c->focus = img(p);
            emit_lasting(c, 6);
            s->fault_ply = ply + 1;
            s->fault_kind = GUARD_TWO_MOVES;
            snprintf(s->fault_text, sizeof s->fault_text, "%s again at %s",
                     just == GO_BLACK ? "Black" : "White", go_point_name(p, c->h, name));
            return true;
        }
        return false;
    case GF_STONE_REMOVED: {
        int p = stones[gen_rng_int(&c->rng, ns)];
        c->phys[img(p)] = OBS_EMPTY;
        c->focus = img(p);
        emit_lasting(c, 6);
        s->fault_ply = ply;
        s->fault_kind = GUARD_STONE_REMOVED;
        snprintf(s->fault_text, sizeof s->fault_text, "stone at %s taken off",
                 go_point_name(p, c->h, name));
        return true;
    }
    case GF_MOVED_STONE:
        for (int i = 0; i < ns; i++) {
            int p = stones[(start + i) % ns];
            static const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
            for (int k = 0; k < 4; k++) {
                int x = go_x(p) + d[k][0], y = go_y(p) + d[k][1];
                if (x < 0 || y < 0 || x >= c->w || y >= c->h) continue;
                int q = go_point(x, y);
                if (go_game_at(g, q) != GO_EMPTY) continue;
                c->phys[img(q)] = c->phys[img(p)];
                c->phys[img(p)] = OBS_EMPTY;
                c->focus = img(q);
                emit_lasting(c, 6);
                s->fault_ply = ply;
                s->fault_kind = GUARD_MOVED_STONE;
                char n2[8];
                snprintf(s->fault_text, sizeof s->fault_text, "stone %s slid to %s",
                         go_point_name(p, c->h, name), go_point_name(q, c->h, n2));
                return true;
            }
        }
        return false;
    case GF_DISTURBED: {
        /* a sleeve sweeps a corner of the position: 5 stones near one place knocked off */
        int centre = stones[gen_rng_int(&c->rng, ns)], picked = 0;
        for (int r = 1; r <= 6 && picked < 5; r++)
            for (int i = 0; i < ns && picked < 5; i++) {
                int p = stones[i];
                int dx = go_x(p) - go_x(centre), dy = go_y(p) - go_y(centre);
                if (dx * dx + dy * dy > r * r || c->phys[img(p)] == OBS_EMPTY) continue;
                c->phys[img(p)] = OBS_EMPTY;
                picked++;
            }
        if (picked < 5) return false;
        c->focus = img(centre);
        emit_lasting(c, 6);
        s->fault_ply = ply;
        s->fault_kind = GUARD_BOARD_DISTURBED;
        snprintf(s->fault_text, sizeof s->fault_text, "5 stones near %s knocked off",
                 go_point_name(centre, c->h, name));
        return true;
    }
    default: return false;
    }
}

bool gen_go_stream(const struct go_record *r, const struct go_rules *rules, enum gen_go_fault f,
                   uint64_t seed, const struct gen_noise *noise, struct gen_stream *out)
{
    memset(out, 0, sizeof *out);
    if (r->width > OBS_MAX || r->height > OBS_MAX) return false;
    /* set-up stones before the first move (a handicap in the first node, as Fox writes it) are the
       start position; set-up stones between moves are no live game */
    int first_move = r->nnodes;
    for (int i = 0; i < r->nnodes && first_move == r->nnodes; i++)
        if (r->nodes[i].has_move) first_move = i;
    for (int i = first_move + 1; i < r->nnodes; i++)
        if (r->nodes[i].nsetup) return false;
    int nm = 0;
    for (int i = 0; i < r->nnodes; i++) nm += r->nodes[i].has_move;
    if (nm < 12) return false;

    struct gctx c = {.s = out, .nz = noise, .w = r->width, .h = r->height, .focus = -1};
    gen_rng_seed(&c.rng, seed);
    c.t = 1000000000;
    c.frame = 1;
    struct obs_stream_header *hdr = &out->hdr;
    hdr->game = OBS_GAME_GO;
    hdr->w = r->width;
    hdr->h = r->height;
    snprintf(hdr->rules, sizeof hdr->rules, "%s", rules->name);
    struct go_guard *mg = go_guard_new(r->width, r->height, rules);
    for (int i = 0; i <= first_move && i < r->nnodes; i++)
        for (int k = 0; k < r->nodes[i].nsetup; k++) {
            if ((size_t)hdr->nsetup >= sizeof hdr->setup / sizeof hdr->setup[0]) break;
            hdr->setup[hdr->nsetup++] = r->nodes[i].setup[k];
            go_guard_setup(mg, r->nodes[i].setup[k].color, r->nodes[i].setup[k].point);
        }
    if (r->handicap >= 2) {
        hdr->handicap = r->handicap;
        hdr->handicap_free = true;
        go_guard_set_handicap(mg, r->handicap);
    }
    out->moves = calloc((size_t)nm, sizeof *out->moves);
    /* the first mover, when the rules core would expect the other */
    for (int i = 0; i < r->nnodes; i++)
        if (r->nodes[i].has_move) {
            if (r->handicap < 2 && r->nodes[i].move.color != go_game_to_move(go_guard_game(mg))) {
                hdr->to_move = r->nodes[i].move.color;
                go_guard_set_to_move(mg, hdr->to_move);
            }
            break;
        }
    phys_from_game(&c, go_guard_game(mg));
    emit_state(&c);

    /* where the fault goes: a move index in the middle half, tried forward until it fits */
    int fault_at = f == GF_NONE ? -1 : nm / 4 + gen_rng_int(&c.rng, nm / 2 > 0 ? nm / 2 : 1);
    bool fault_done = f == GF_NONE;
    int keep_cap[GO_POINTS], nkeep = 0, keep_until = -1;
    int mi = 0;
    for (int i = 0; i < r->nnodes; i++) {
        const struct go_record_node *node = &r->nodes[i];
        if (!node->has_move) continue;
        struct go_move m = node->move;
        out->moves[out->nmoves++] = m;
        uint8_t before[GO_POINTS];
        board_copy(go_guard_game(mg), before);
        struct guard_event ev[GUARD_MAX_EVENTS];
        go_guard_move(mg, m, 0, 0, ev);
        if (m.point == GO_PASS) {
            push_signal_pass(&c, m.color);
        } else {
            c.phys[img(m.point)] = (uint8_t)m.color;
            c.focus = img(m.point);
            int cap[GO_POINTS];
            int nc = captured_points(before, go_guard_game(mg), m.point, cap);
            bool keep =
                !fault_done && f == GF_CAPTURE_LEFT && mi >= fault_at && nc > 0 && mi + 3 < nm;
            if (keep) {
                memcpy(keep_cap, cap, (size_t)nc * sizeof *cap);
                nkeep = nc;
                keep_until = mi + 2;
                fault_done = true;
                out->fault_ply = go_game_ply(go_guard_game(mg));
                out->fault_kind = GUARD_CAPTURE_NOT_REMOVED;
                snprintf(out->fault_text, sizeof out->fault_text, "%d prisoners left on", nc);
                emit_state(&c);
            } else if (nc) {
                take_off_slowly(&c, cap, nc);
            } else {
                emit_state(&c);
            }
        }
        if (mi == keep_until) {
            /* a prisoner's point played on again meanwhile holds the new stone: leave it */
            int j = 0;
            for (int k = 0; k < nkeep; k++)
                if (go_game_at(go_guard_game(mg), keep_cap[k]) == GO_EMPTY)
                    keep_cap[j++] = keep_cap[k];
            nkeep = j;
            take_off_slowly(&c, keep_cap, nkeep);
            keep_until = -1;
        }
        if (!fault_done && f != GF_CAPTURE_LEFT && mi >= fault_at && mi + 3 < nm &&
            m.point != GO_PASS && go_game_state(go_guard_game(mg)) == GO_PLAYING) {
            if (inject_go(&c, mg, f, out)) {
                fault_done = true;
                phys_from_game(&c, go_guard_game(mg)); /* the referee restores the board */
                emit_lasting(&c, 2);
            }
        }
        mi++;
    }
    /* after the game the final position stays on the board a while */
    emit_lasting(&c, 2);
    go_guard_free(mg);
    if (!fault_done) {
        gen_stream_free(out);
        return false;
    }
    return true;
}

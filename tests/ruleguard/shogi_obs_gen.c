/* tests/ruleguard/shogi_obs_gen.c — shogi games as noisy observation streams, with one fault
 * injected on request (tests/ruleguard/shogi_obs_gen.h). The physical board and komadai are a
 * shogi_position the generator plays on; each observation is that position seen through noise. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/ruleguard/shogi_obs_gen.h"

#define SEC ((int64_t)1000000000)

void sgen_noise_default(struct sgen_noise *n)
{
    n->misread = 0.001;
    n->misread_sure = 0.08;
    n->doubtful = 0.03;
    n->occlude = 0.15;
    n->hidden_hand = 0.05;
    n->repeat = 0.5;
    n->duplicate = 0.03;
    n->late_capture = 0.3;
}

void sgen_rng_seed(struct sgen_rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (!r->s) r->s = 1;
}

static uint64_t rng_next(struct sgen_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

double sgen_rng_unit(struct sgen_rng *r)
{
    return (double)(rng_next(r) >> 11) / 9007199254740992.0;
}

int sgen_rng_int(struct sgen_rng *r, int n)
{
    return n > 0 ? (int)(rng_next(r) % (uint64_t)n) : 0;
}

const char *sgen_fault_name(enum sgen_fault f)
{
    static const char *const names[SF_COUNT] = {
        "none",          "dead piece",  "nifu",        "uchifuzume",     "wrong way",
        "promoted drop", "own capture", "takeback",    "opponent piece", "king in check",
        "two moves",     "hidden late", "hidden gone", "promoted hand"};
    return f < SF_COUNT ? names[f] : "?";
}

const char *sgen_flag_class(enum guard_kind k, int reason)
{
    static const char *const rules[] = {"?",        "1 dead",       "2 nifu",     "3 uchifu",
                                        "4 perpet", "5 impossible", "6 takeback", "7 opp piece",
                                        "8 check",  "9 two"};
    if ((k == GUARD_ILLEGAL_MOVE || k == GUARD_TWO_MOVES) && reason >= 1 && reason <= 9)
        return rules[reason];
    if (k == GUARD_HIDDEN_PIECE) return "hidden";
    if (k == GUARD_REFEREE_CALL && reason == GUARD_REASON_PROMOTED_IN_HAND) return "hand+";
    if (k == GUARD_BOARD_DISTURBED) return "disturbed";
    return "other";
}

const char *sgen_fault_class(enum sgen_fault f)
{
    switch (f) {
    case SF_DEAD_PIECE: return "1 dead";
    case SF_NIFU: return "2 nifu";
    case SF_UCHIFUZUME: return "3 uchifu";
    case SF_WRONG_WAY:
    case SF_PROMOTED_DROP:
    case SF_OWN_CAPTURE: return "5 impossible";
    case SF_TAKEBACK: return "6 takeback";
    case SF_OPPONENT_PIECE: return "7 opp piece";
    case SF_KING_IN_CHECK: return "8 check";
    case SF_TWO_MOVES: return "9 two";
    case SF_HIDDEN_LATE:
    case SF_HIDDEN_GONE: return "hidden";
    case SF_PROMOTED_HAND: return "hand+";
    default: return "none";
    }
}

void sgen_stream_free(struct sgen_stream *s)
{
    free(s->items);
    free(s->moves);
    memset(s, 0, sizeof *s);
}

/* ---- the camera ------------------------------------------------------------------------------ */

struct ctx {
    struct sgen_stream *s;
    const struct sgen_noise *nz;
    struct sgen_rng rng;
    struct shogi_position phys; /* what stands on the board and the komadai */
    int64_t t;
    uint64_t frame;
    bool keep_hands_visible;
    int face_up_side, face_up_type; /* a piece lying promoted side up on a komadai, or -1 */
};

static struct obs_item *new_item(struct ctx *c)
{
    struct sgen_stream *s = c->s;
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 512;
        struct obs_item *v = realloc(s->items, (size_t)cap * sizeof *v);
        if (!v) abort();
        s->items = v;
        s->cap = cap;
    }
    struct obs_item *it = &s->items[s->n++];
    memset(it, 0, sizeof *it);
    return it;
}

/* A plausible misreading of piece code v: empty <-> a piece, the other face, the other owner,
 * a neighbouring type. */
static uint8_t misread(struct ctx *c, uint8_t v)
{
    int k = sgen_rng_int(&c->rng, 4);
    if (v == SHOGI_EMPTY)
        return (uint8_t)shogi_piece((enum shogi_color)sgen_rng_int(&c->rng, 2), SHOGI_PAWN);
    if (k == 0) return SHOGI_EMPTY;
    enum shogi_type t = shogi_piece_type(v);
    enum shogi_color o = shogi_piece_color(v);
    if (k == 1 && shogi_type_can_promote(t)) return (uint8_t)(v + SHOGI_PROMOTED);
    if (k == 1 && shogi_type_is_promoted(t)) return (uint8_t)(v - SHOGI_PROMOTED);
    if (k == 2) return (uint8_t)shogi_piece((enum shogi_color)(o ^ 1), t);
    enum shogi_type u = t == SHOGI_GOLD ? SHOGI_SILVER : SHOGI_GOLD;
    return (uint8_t)shogi_piece(o, u);
}

static void observe(struct ctx *c)
{
    const struct sgen_noise *nz = c->nz;
    c->t += SEC + (int64_t)(sgen_rng_unit(&c->rng) * 14.0 * (double)SEC);
    struct obs_item *it = new_item(c);
    it->kind = OBS_ITEM_OBS;
    struct observation *o = &it->obs;
    o->t_ns = c->t;
    o->frame_seq = ++c->frame;
    o->board_found = true;
    o->w = o->h = 9;
    int bx = -9, by = -9, bw = 0, bh = 0;
    bool blob = sgen_rng_unit(&c->rng) < nz->occlude;
    if (blob) {
        bw = 2 + sgen_rng_int(&c->rng, 3);
        bh = 2 + sgen_rng_int(&c->rng, 3);
        bx = sgen_rng_int(&c->rng, 10 - bw);
        by = sgen_rng_int(&c->rng, 10 - bh);
    }
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x;
            int sq = shogi_obs_square(x, y, c->s->hdr.sente_bottom);
            uint8_t v = c->phys.board[sq];
            float conf = sgen_rng_unit(&c->rng) < nz->doubtful ? 0.7f : 0.95f;
            if (sgen_rng_unit(&c->rng) < nz->misread) {
                v = misread(c, v);
                conf = sgen_rng_unit(&c->rng) < nz->misread_sure ? 0.95f : 0.7f;
            }
            if (x >= bx && x < bx + bw && y >= by && y < by + bh) {
                o->occluded[p] = true;
                o->noccluded++;
                conf = 0;
                v = SHOGI_EMPTY;
            }
            o->point[p] = v;
            o->conf[p] = conf;
        }
    for (int side = 0; side < 2; side++) {
        struct hand_obs *h = &o->hands[side];
        /* the blob reaching over a komadai (the arm of a player) hides it too */
        bool near =
            blob && ((side == SHOGI_SENTE) == c->s->hdr.sente_bottom ? by + bh >= 8 : by == 0);
        bool out_of_picture = !c->keep_hands_visible && sgen_rng_unit(&c->rng) < nz->hidden_hand;
        bool under_arm = !c->keep_hands_visible && near && bx + bw >= 8;
        h->visible = !out_of_picture && !under_arm;
        h->covered = under_arm;
        h->conf = 0.95f;
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) h->count[t - 1] = c->phys.hand[side][t];
        if (c->face_up_side == side && h->count[c->face_up_type - 1])
            h->promoted[c->face_up_type - 1] = 1;
        if (sgen_rng_unit(&c->rng) < nz->misread) {
            int t = sgen_rng_int(&c->rng, 7);
            h->count[t] = (uint8_t)(h->count[t] ? h->count[t] - 1 : 1);
            h->conf = sgen_rng_unit(&c->rng) < nz->misread_sure ? 0.95f : 0.7f;
        }
    }
    if (sgen_rng_unit(&c->rng) < nz->duplicate) { /* the same frame handed on twice */
        struct obs_item copy = *it;
        *new_item(c) = copy;
    }
}

/* One or more observations of the state as it is now (stable: seen at least sure twice when
 * `settle`). */
static void observe_state(struct ctx *c, int at_least)
{
    int n = at_least;
    while (sgen_rng_unit(&c->rng) < c->nz->repeat && n < at_least + 3) n++;
    for (int i = 0; i < n; i++) observe(c);
}

/* ---- faults ---------------------------------------------------------------------------------- */

static bool verdict_is(const struct shogi_position *pos, struct shogi_move m, int rule, int fault)
{
    struct shogi_verdict v = shogi_check_move(pos, m);
    return (int)v.rule == rule && (fault < 0 || (int)v.fault == fault);
}

/* A random element of a list of candidate moves. */
struct cands {
    struct shogi_move m[1024];
    int n;
};

static void add(struct cands *l, struct shogi_move m)
{
    if (l->n < 1024) l->m[l->n++] = m;
}

static void drops_with(const struct shogi_position *pos, int rule, int fault, bool promoted,
                       struct cands *l)
{
    int c = pos->side;
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        if (!pos->hand[c][t] || (promoted && !shogi_type_can_promote((enum shogi_type)t))) continue;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            if (pos->board[sq]) continue;
            struct shogi_move m = {SHOGI_HAND, (uint8_t)sq,
                                   (uint8_t)shogi_piece((enum shogi_color)c,
                                                        (enum shogi_type)(t + (promoted ? 8 : 0))),
                                   0, false};
            if (verdict_is(pos, m, rule, fault)) add(l, m);
        }
    }
}

/* Board moves of pieces of colour `owner` (claimed by `claim`'s colour when claim >= 0) with
 * the given verdict; to-squares filtered by `to_empty` (-1 any, 1 empty, 0 occupied). */
static void board_moves_with(const struct shogi_position *pos, int owner, int rule, int fault,
                             int to_empty, bool as_side_to_move, struct cands *l)
{
    for (int from = 0; from < SHOGI_SQUARES; from++) {
        int p = pos->board[from];
        if (!p || (int)shogi_piece_color(p) != owner) continue;
        for (int to = 0; to < SHOGI_SQUARES; to++) {
            if (to == from) continue;
            if (to_empty == 1 && pos->board[to]) continue;
            if (to_empty == 0 && !pos->board[to]) continue;
            int df = shogi_sq_file(to) - shogi_sq_file(from),
                dr = shogi_sq_rank(to) - shogi_sq_rank(from);
            if (df * df > 4 || dr * dr > 4) continue; /* near moves only: what hands do */
            /* a piece taking its own twin leaves the board looking unchanged but for the
               emptied square: no move can be read from that, so those are left out */
            if (pos->board[to] == p) continue;
            struct shogi_move m = {(uint8_t)from, (uint8_t)to, (uint8_t)p, pos->board[to], false};
            if (as_side_to_move)
                m.piece = (uint8_t)shogi_piece((enum shogi_color)pos->side, shogi_piece_type(p));
            if (verdict_is(pos, m, rule, fault)) add(l, m);
        }
    }
}

/* The illegal move for fault f in pos (side to move about to play), or false. */
static bool fault_move(struct ctx *c, const struct shogi_position *pos,
                       const struct shogi_position *before_last, enum sgen_fault f,
                       struct shogi_move *out)
{
    static struct cands l;
    l.n = 0;
    int s = pos->side;
    switch (f) {
    case SF_DEAD_PIECE: drops_with(pos, 1, -1, false, &l); break;
    case SF_NIFU: drops_with(pos, 2, -1, false, &l); break;
    case SF_UCHIFUZUME: drops_with(pos, 3, -1, false, &l); break;
    case SF_PROMOTED_DROP: drops_with(pos, 5, SHOGI_FAULT_PROMOTED_DROP, true, &l); break;
    case SF_WRONG_WAY: board_moves_with(pos, s, 5, SHOGI_FAULT_CANNOT_REACH, 1, false, &l); break;
    case SF_OWN_CAPTURE: board_moves_with(pos, s, 5, SHOGI_FAULT_OWN_CAPTURE, 0, false, &l); break;
    case SF_KING_IN_CHECK: board_moves_with(pos, s, 8, -1, -1, false, &l); break;
    case SF_TWO_MOVES: {
        /* the side that just moved plays one of its legal moves again */
        struct shogi_position q = *pos;
        q.side ^= 1;
        shogi_position_refresh(&q);
        struct shogi_move all[SHOGI_MAX_MOVES];
        int n = shogi_legal_moves(&q, all);
        for (int i = 0; i < n; i++)
            if (!all[i].captured && verdict_is(pos, all[i], 9, -1)) add(&l, all[i]);
        break;
    }
    case SF_OPPONENT_PIECE: {
        /* claimed by the side to move, a way only its own piece of that type could go */
        board_moves_with(pos, s ^ 1, 7, -1, 1, true, &l);
        int k = 0;
        for (int i = 0; i < l.n; i++) {
            struct shogi_move m = l.m[i];
            m.piece = pos->board[m.from];
            struct shogi_position q = *pos;
            q.side ^= 1;
            shogi_position_refresh(&q);
            struct shogi_position r = *pos;
            r.board[m.from] = l.m[i].piece;
            shogi_position_refresh(&r);
            struct shogi_move own = l.m[i];
            if (shogi_check_move(&q, m).fault == SHOGI_FAULT_CANNOT_REACH &&
                shogi_check_move(&r, own).fault != SHOGI_FAULT_CANNOT_REACH)
                l.m[k++] = m; /* physically: the opponent's piece, moved */
        }
        l.n = k;
        break;
    }
    default: return false;
    }
    /* a foul that puts the board back as it was before the last move looks like taking that
       move back (6): no camera can tell them apart, so such are left out */
    if (before_last) {
        int k = 0;
        for (int i = 0; i < l.n; i++) {
            struct shogi_position q = *pos;
            struct shogi_move m = l.m[i];
            if (!shogi_move_is_drop(m)) m.piece = pos->board[m.from]; /* as the board plays it */
            shogi_do_move(&q, m);
            if (memcmp(q.board, before_last->board, SHOGI_SQUARES)) l.m[k++] = l.m[i];
        }
        l.n = k;
    }
    if (!l.n) return false;
    *out = l.m[sgen_rng_int(&c->rng, l.n)];
    return true;
}

/* ---- the game ------------------------------------------------------------------------------ */

static void expect(struct sgen_stream *s, int ply, enum guard_kind k, int reason)
{
    if (s->nexpect < SGEN_MAX_FLAGS) s->expect[s->nexpect++] = (struct sgen_flag){ply, k, reason};
}

/* The recorded-move guard's flags on the game itself: what the observation guard must report
 * too, no more. */
static void record_flags(struct sgen_stream *s)
{
    struct shogi_guard *g = shogi_guard_new(&s->start, &shogi_rules_tournament);
    struct guard_event ev[GUARD_MAX_EVENTS];
    for (int i = 0; i < s->nmoves; i++) {
        int n = shogi_guard_move(g, s->moves[i], 0, 0, ev);
        for (int j = 0; j < n; j++)
            if (guard_is_flag(ev[j].kind)) expect(s, ev[j].ply, ev[j].kind, ev[j].reason);
    }
    shogi_guard_free(g);
}

/* Plays m on the board and komadai; a capture reaches the komadai now, or (late) after the
 * caller's next observation: late_side and late_type say which. */
static void play(struct ctx *c, struct shogi_move m, bool allow_late, int *late_side,
                 int *late_type)
{
    *late_side = -1;
    shogi_do_move(&c->phys, m);
    if (m.captured && shogi_piece_type(m.captured) != SHOGI_KING && allow_late &&
        sgen_rng_unit(&c->rng) < c->nz->late_capture) {
        *late_side = shogi_piece_color(m.piece);
        *late_type = shogi_type_base(shogi_piece_type(m.captured));
        c->phys.hand[*late_side][*late_type]--;
    }
}

static int pick_ply(struct ctx *c, int nmoves)
{
    return 1 + sgen_rng_int(&c->rng, nmoves);
}

bool sgen_stream_make(const struct shogi_position *start, const struct shogi_move *moves,
                      int nmoves, enum sgen_fault f, uint64_t seed, const struct sgen_noise *noise,
                      bool sente_bottom, struct sgen_stream *out)
{
    memset(out, 0, sizeof *out);
    struct sgen_noise def;
    if (!noise) {
        sgen_noise_default(&def);
        noise = &def;
    }
    out->hdr.game = OBS_GAME_SHOGI;
    out->hdr.w = out->hdr.h = 9;
    out->hdr.sente_bottom = sente_bottom;
    out->hdr.to_move = GO_EMPTY;
    out->start = *start;
    shogi_sfen_format(start, out->hdr.start_sfen, sizeof out->hdr.start_sfen);
    out->moves = malloc((size_t)(nmoves ? nmoves : 1) * sizeof *out->moves);
    if (!out->moves) return false;
    memcpy(out->moves, moves, (size_t)nmoves * sizeof *moves);
    out->nmoves = nmoves;
    out->fault = f;

    struct ctx c = {.s = out, .nz = noise, .phys = *start, .t = 0, .frame = 0, .face_up_side = -1};
    sgen_rng_seed(&c.rng, seed);
    for (int i = 0; i < nmoves; i++) { /* every move must be playable */
        if (!shogi_move_is_playable(&c.phys, moves[i])) {
            sgen_stream_free(out);
            return false;
        }
        shogi_do_move(&c.phys, moves[i]);
    }
    c.phys = *start;

    /* Where the fault goes: the first ply from a random one on where it fits. */
    int fault_ply = 0;
    struct shogi_move fm = {0, 0, 0, 0, false};
    int gone_side = -1, gone_type = 0;
    int any_capture = 0; /* SF_PROMOTED_HAND without a promoted piece captured: any that can be */
    if (f != SF_NONE) {
        if (!nmoves) goto nofit;
        int from = pick_ply(&c, nmoves);
        struct shogi_position p = *start;
        struct shogi_position *at = malloc((size_t)(nmoves + 1) * sizeof *at);
        if (!at) goto nofit;
        at[0] = p;
        for (int i = 0; i < nmoves; i++) {
            shogi_do_move(&p, moves[i]);
            at[i + 1] = p;
        }
        /* a fault after the game's end would be AFTER_END, not its own kind */
        struct shogi_game game;
        shogi_game_init(&game, start, &shogi_rules_tournament);
        for (int i = 0; i < nmoves; i++) shogi_game_play(&game, moves[i]);
        int last = game.outcome_ply ? game.outcome_ply : nmoves;
        shogi_game_free(&game);
        for (int k0 = 0; k0 < nmoves && !fault_ply; k0++) {
            int k = 1 + (from - 1 + k0) % nmoves; /* ply k: moves[k-1] from at[k-1] */
            if (k > last) continue;
            const struct shogi_position *before = &at[k - 1];
            switch (f) {
            case SF_TAKEBACK:
                if (shogi_check_move(before, moves[k - 1]).rule == SHOGI_LEGAL) fault_ply = k;
                break;
            case SF_HIDDEN_LATE:
                if (k < nmoves && moves[k - 1].captured &&
                    shogi_piece_type(moves[k - 1].captured) != SHOGI_KING)
                    fault_ply = k;
                break;
            case SF_PROMOTED_HAND: {
                /* the natural slip: a promoted piece captured, put down as it lay on the board */
                int cap = moves[k - 1].captured;
                if (!cap || !shogi_type_can_promote(shogi_type_base(shogi_piece_type(cap)))) break;
                if (shogi_type_is_promoted(shogi_piece_type(cap)))
                    fault_ply = k;
                else if (!any_capture)
                    any_capture = k;
                break;
            }
            case SF_HIDDEN_GONE:
                for (int sd = 0; sd < 2 && !fault_ply; sd++)
                    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD && !fault_ply; t++)
                        if (at[k].hand[sd][t]) {
                            fault_ply = k;
                            gone_side = sd;
                            gone_type = t;
                        }
                break;
            default:
                if (before->side == shogi_piece_color(moves[k - 1].piece) &&
                    fault_move(&c, before, k >= 2 ? &at[k - 2] : NULL, f, &fm))
                    fault_ply = k;
                break;
            }
        }
        free(at);
        if (!fault_ply) fault_ply = any_capture;
        if (!fault_ply) goto nofit;
    }
    out->fault_ply = fault_ply;

    observe_state(&c, 2); /* the start, settled */
    int hidden_side = -1, hidden_type = 0;
    for (int k = 1; k <= nmoves; k++) {
        struct shogi_move m = moves[k - 1];
        if (k == fault_ply && f != SF_TAKEBACK && f != SF_HIDDEN_LATE && f != SF_HIDDEN_GONE &&
            f != SF_PROMOTED_HAND) {
            /* the illegal move, seen, then the board put back by the referee */
            struct shogi_position keep = c.phys;
            char usi[6];
            shogi_move_to_usi(fm, usi);
            snprintf(out->fault_text, sizeof out->fault_text, "%s: %s at ply %d",
                     sgen_fault_name(f), usi, k);
            shogi_do_move(&c.phys, fm);
            observe_state(&c, 4); /* until the referee steps in: seconds, not a glance */
            c.phys = keep;
            observe_state(&c, 2);
            struct shogi_verdict v = shogi_check_move(&keep, fm);
            /* a move claimed by the side to move is what the guard records for 7) */
            if (f == SF_OPPONENT_PIECE) v.rule = SHOGI_ILLEGAL_OPPONENT_PIECE;
            expect(out, k, f == SF_TWO_MOVES ? GUARD_TWO_MOVES : GUARD_ILLEGAL_MOVE, (int)v.rule);
        }
        int late_side, late_type;
        bool hide_late = k == fault_ply && f == SF_HIDDEN_LATE;
        bool face_up = k == fault_ply && f == SF_PROMOTED_HAND;
        play(&c, m, !hide_late && !face_up, &late_side, &late_type);
        if (face_up) { /* seen by the referee a while, then turned */
            c.face_up_side = shogi_piece_color(m.piece);
            c.face_up_type = shogi_type_base(shogi_piece_type(m.captured));
            snprintf(out->fault_text, sizeof out->fault_text,
                     "promoted hand: the %s captured at ply %d put down promoted side up",
                     shogi_type_csa(shogi_piece_type(m.captured)), k);
            expect(out, k, GUARD_REFEREE_CALL, GUARD_REASON_PROMOTED_IN_HAND);
            observe(&c);
            c.keep_hands_visible = true;
            observe_state(&c, 3);
            c.keep_hands_visible = false;
            c.face_up_side = -1;
        }
        if (hide_late) { /* the piece is kept off until the opponent has moved and more */
            hidden_side = shogi_piece_color(m.piece);
            hidden_type = shogi_type_base(shogi_piece_type(m.captured));
            c.phys.hand[hidden_side][hidden_type]--;
            snprintf(out->fault_text, sizeof out->fault_text,
                     "hidden late: the piece captured at ply %d kept off the komadai", k);
            expect(out, k, GUARD_HIDDEN_PIECE, 0);
        }
        observe(&c);
        if (late_side >= 0) c.phys.hand[late_side][late_type]++;
        observe_state(&c, late_side >= 0 ? 2 : 1);
        if (k == fault_ply && f == SF_TAKEBACK) {
            /* the move stands a while (finished: the opponent's time runs), then goes back */
            observe_state(&c, 2);
            shogi_undo_move(&c.phys, m);
            snprintf(out->fault_text, sizeof out->fault_text, "takeback of ply %d", k);
            expect(out, k, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_TAKEBACK);
            observe_state(&c, 3);
            shogi_do_move(&c.phys, m);
            observe_state(&c, 2);
        }
        if (k == fault_ply && f == SF_HIDDEN_GONE) {
            observe_state(&c, 1); /* the move settles first */
            c.phys.hand[gone_side][gone_type]--;
            snprintf(out->fault_text, sizeof out->fault_text,
                     "hidden gone: a piece off %s's komadai after ply %d",
                     gone_side ? "gote" : "sente", k);
            expect(out, k, GUARD_HIDDEN_PIECE, 0);
            c.keep_hands_visible = true;
            observe_state(&c, 5);
            c.keep_hands_visible = false;
            c.phys.hand[gone_side][gone_type]++;
            observe_state(&c, 2);
        }
        if (hidden_side >= 0 && k == fault_ply + 1) {
            c.keep_hands_visible = true;
            observe_state(&c, 5);
            c.keep_hands_visible = false;
            c.phys.hand[hidden_side][hidden_type]++;
            observe_state(&c, 2);
            hidden_side = -1;
        }
    }
    /* the last position stands while the players bow and sign the score sheet: seconds */
    observe_state(&c, 3);
    record_flags(out);
    return true;
nofit:
    sgen_stream_free(out);
    return false;
}

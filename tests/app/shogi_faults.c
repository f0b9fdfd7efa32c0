/* tests/app/shogi_faults.c — see shogi_faults.h. The generator replays the real game to know the
 * position at every ply, walks the plies from one chosen by the seed, and takes the first ply with
 * a place for the fault: the record is then the real moves up to there plus the appended ones. */
#include "tests/app/shogi_faults.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CANDS 256

const char *sfault_name(enum sfault_kind f)
{
    static const char *const names[SFAULT_COUNT] = {
        "nifu",      "uchifuzume",  "dead-move",   "dead-drop", "into-check",  "ignore-check",
        "two-moves", "not-in-hand", "promote-out", "unpromote", "own-capture", "perpetual"};
    return (unsigned)f < SFAULT_COUNT ? names[f] : "?";
}

/* ---- looking at the board ------------------------------------------------------------------- */

static struct shogi_move mv(int from, int to, int piece, int captured, bool promote)
{
    struct shogi_move m = {(uint8_t)from, (uint8_t)to, (uint8_t)piece, (uint8_t)captured, promote};
    return m;
}

static struct shogi_move drop(enum shogi_color c, enum shogi_type t, int to)
{
    return mv(SHOGI_HAND, to, shogi_piece(c, t), SHOGI_EMPTY, false);
}

/* Rank counted from c's far edge: 1 is the last rank c's pieces move towards. */
static int rank_ahead(enum shogi_color c, int sq)
{
    int r = shogi_sq_rank(sq);
    return c == SHOGI_SENTE ? r : 10 - r;
}

/* A pawn or lance on the last rank, a knight on the last two, can never move again. */
static bool dead_square(enum shogi_color c, enum shogi_type t, int sq)
{
    int d = rank_ahead(c, sq);
    if (t == SHOGI_PAWN || t == SHOGI_LANCE) return d == 1;
    if (t == SHOGI_KNIGHT) return d <= 2;
    return false;
}

static bool own_pawn_on_file(const struct shogi_position *pos, enum shogi_color c, int file)
{
    for (int rank = 1; rank <= 9; rank++)
        if (pos->board[shogi_sq(file, rank)] == shogi_piece(c, SHOGI_PAWN)) return true;
    return false;
}

static bool king_attacked(const struct shogi_position *pos, enum shogi_color c)
{
    int k = pos->king_sq[c];
    return k != SHOGI_NO_SQUARE && shogi_attacked(pos, k, (enum shogi_color)(c ^ 1));
}

static bool attacked_after(const struct shogi_position *pos, struct shogi_move m,
                           enum shogi_color c)
{
    struct shogi_position p = *pos;
    shogi_do_move(&p, m);
    return king_attacked(&p, c);
}

/* The squares a king on sq steps to. */
static int king_steps(int sq, int out[8])
{
    int n = 0, f = shogi_sq_file(sq), r = shogi_sq_rank(sq);
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++)
            if ((df || dr) && f + df >= 1 && f + df <= 9 && r + dr >= 1 && r + dr <= 9)
                out[n++] = shogi_sq(f + df, r + dr);
    return n;
}

/* The square in front of sq for c's pawn (towards c's last rank), -1 off the board. */
static int ahead(enum shogi_color c, int sq)
{
    if (rank_ahead(c, sq) == 1) return -1;
    return c == SHOGI_SENTE ? sq - 1 : sq + 1;
}

struct cands {
    struct shogi_move m[MAX_CANDS];
    int n;
};

static void add(struct cands *c, struct shogi_move m)
{
    if (c->n < MAX_CANDS) c->m[c->n++] = m;
}

/* ---- one finder per fault: the faulty moves possible in pos ---------------------------------- */

static void find_nifu(const struct shogi_position *pos, struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    if (!pos->hand[s][SHOGI_PAWN] || king_attacked(pos, s)) return;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (pos->board[sq] || dead_square(s, SHOGI_PAWN, sq)) continue;
        if (!own_pawn_on_file(pos, s, shogi_sq_file(sq))) continue;
        struct shogi_move m = drop(s, SHOGI_PAWN, sq);
        if (!attacked_after(pos, m, (enum shogi_color)(s ^ 1))) add(c, m); /* no check: one fault */
    }
}

/* A pawn dropped in front of the enemy king that leaves it no legal move. */
static void find_uchifuzume(const struct shogi_position *pos, struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side, o = (enum shogi_color)(s ^ 1);
    int k = pos->king_sq[o];
    if (!pos->hand[s][SHOGI_PAWN] || k == SHOGI_NO_SQUARE || king_attacked(pos, s)) return;
    /* the pawn attacks the king from the square behind it, seen from s */
    int f = ahead(o, k);
    if (f < 0 || pos->board[f] || dead_square(s, SHOGI_PAWN, f)) return;
    if (own_pawn_on_file(pos, s, shogi_sq_file(f))) return;
    struct shogi_move m = drop(s, SHOGI_PAWN, f);
    struct shogi_position p = *pos;
    shogi_do_move(&p, m);
    if (king_attacked(&p, o) && shogi_is_mate(&p)) add(c, m);
}

/* ---- uchifuzume by a short cooperative sequence ----------------------------------------------
 * Real games rarely offer a pawn-drop mate, so both sides play legal moves chosen to get one:
 * s tightens the net around the enemy king (checks allowed, never mate), the defender helps
 * (never a check, so s is not in check when it drops). The measure is how many legal replies the
 * defender would have after s dropped a pawn in front of its king; 0 is the place. */

#define UFZ_NONE 100000

static int ufz_score(const struct shogi_position *pos)
{
    enum shogi_color s = (enum shogi_color)pos->side, o = (enum shogi_color)(s ^ 1);
    int k = pos->king_sq[o];
    if (!pos->hand[s][SHOGI_PAWN] || k == SHOGI_NO_SQUARE || king_attacked(pos, s)) return UFZ_NONE;
    int f = ahead(o, k);
    if (f < 0 || pos->board[f] || dead_square(s, SHOGI_PAWN, f)) return UFZ_NONE;
    if (own_pawn_on_file(pos, s, shogi_sq_file(f))) return UFZ_NONE;
    struct shogi_position p = *pos;
    shogi_do_move(&p, drop(s, SHOGI_PAWN, f));
    struct shogi_move l[SHOGI_MAX_MOVES];
    return shogi_legal_moves(&p, l);
}

/* The score of pos as if side c were to move. */
static int ufz_score_for(const struct shogi_position *pos, enum shogi_color c)
{
    if (pos->side == c) return ufz_score(pos);
    struct shogi_position q = *pos;
    q.side = (uint8_t)c;
    shogi_position_refresh(&q);
    return ufz_score(&q);
}

/* Plays m on p if the sequence may use it: s may check (the defender must still have a reply),
 * the defender may not (s must not be in check when it drops the pawn). */
static bool ufz_allowed(struct shogi_position *p, enum shogi_color s, struct shogi_move m)
{
    bool check = shogi_gives_check(p, m);
    if (check && p->side != s) return false;
    shogi_do_move(p, m);
    return !check || !shogi_is_mate(p);
}

/* Of the legal moves of pos allowed in the sequence, the one whose result scores least for s. */
static bool ufz_best(const struct shogi_position *pos, enum shogi_color s, unsigned pick,
                     struct shogi_move *best, int *best_score)
{
    struct shogi_move l[SHOGI_MAX_MOVES];
    int n = shogi_legal_moves(pos, l);
    *best_score = UFZ_NONE;
    for (int i = 0; i < n; i++) {
        struct shogi_move m = l[(i + (int)(pick % (unsigned)(n ? n : 1))) % n];
        struct shogi_position p = *pos;
        if (!ufz_allowed(&p, s, m)) continue;
        int sc = ufz_score_for(&p, s);
        if (sc < *best_score) {
            *best_score = sc;
            *best = m;
        }
    }
    return *best_score < UFZ_NONE;
}

static void find_dead_move(const struct shogi_position *pos, const struct shogi_move *legal, int n,
                           struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    for (int i = 0; i < n; i++) {
        struct shogi_move m = legal[i];
        enum shogi_type t = shogi_piece_type(m.piece);
        if (shogi_move_is_drop(m) || !m.promote || !dead_square(s, t, m.to)) continue;
        m.promote = false; /* the forced promotion left out */
        add(c, m);
    }
}

static void find_dead_drop(const struct shogi_position *pos, struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    if (king_attacked(pos, s)) return;
    static const enum shogi_type types[] = {SHOGI_PAWN, SHOGI_LANCE, SHOGI_KNIGHT};
    for (int i = 0; i < 3; i++) {
        enum shogi_type t = types[i];
        if (!pos->hand[s][t]) continue;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            if (pos->board[sq] || !dead_square(s, t, sq)) continue;
            if (t == SHOGI_PAWN && own_pawn_on_file(pos, s, shogi_sq_file(sq))) continue;
            add(c, drop(s, t, sq));
        }
    }
}

static void find_into_check(const struct shogi_position *pos, struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    int k = pos->king_sq[s], to[8];
    if (k == SHOGI_NO_SQUARE || king_attacked(pos, s)) return;
    int n = king_steps(k, to);
    for (int i = 0; i < n; i++) {
        int q = pos->board[to[i]];
        if (q && (shogi_piece_color(q) == s || shogi_piece_type(q) == SHOGI_KING)) continue;
        struct shogi_move m = mv(k, to[i], pos->board[k], q, false);
        if (attacked_after(pos, m, s)) add(c, m);
    }
}

/* In check: a drop far away or a pawn push that does nothing about it. */
static void find_ignore_check(const struct shogi_position *pos, struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    if (!king_attacked(pos, s)) return;
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        if (!pos->hand[s][t]) continue;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            if (pos->board[sq] || dead_square(s, (enum shogi_type)t, sq)) continue;
            if (t == SHOGI_PAWN && own_pawn_on_file(pos, s, shogi_sq_file(sq))) continue;
            struct shogi_move m = drop(s, (enum shogi_type)t, sq);
            if (attacked_after(pos, m, s)) add(c, m);
        }
    }
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (pos->board[sq] != shogi_piece(s, SHOGI_PAWN)) continue;
        int to = ahead(s, sq);
        if (to < 0 || dead_square(s, SHOGI_PAWN, to)) continue;
        int q = pos->board[to];
        if (q && (shogi_piece_color(q) == s || shogi_piece_type(q) == SHOGI_KING)) continue;
        struct shogi_move m = mv(sq, to, pos->board[sq], q, false);
        if (attacked_after(pos, m, s)) add(c, m);
    }
}

/* The side that just moved plays again: one of the quiet moves it would have if it were its turn.
 */
static void find_two_moves(const struct shogi_position *pos, struct cands *c)
{
    struct shogi_position q = *pos;
    q.side ^= 1;
    shogi_position_refresh(&q);
    struct shogi_move legal[SHOGI_MAX_MOVES];
    int n = shogi_legal_moves(&q, legal);
    for (int i = 0; i < n; i++)
        if (!shogi_move_is_drop(legal[i]) && !legal[i].captured && !legal[i].promote)
            add(c, legal[i]);
}

static void find_not_in_hand(const struct shogi_position *pos, struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    if (king_attacked(pos, s)) return;
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        if (pos->hand[s][t]) continue;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            if (pos->board[sq] || dead_square(s, (enum shogi_type)t, sq)) continue;
            if (t == SHOGI_PAWN && own_pawn_on_file(pos, s, shogi_sq_file(sq))) continue;
            add(c, drop(s, (enum shogi_type)t, sq));
        }
    }
}

static void find_promote_zone(const struct shogi_position *pos, const struct shogi_move *legal,
                              int n, struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    for (int i = 0; i < n; i++) {
        struct shogi_move m = legal[i];
        if (shogi_move_is_drop(m) || m.promote) continue;
        if (!shogi_type_can_promote(shogi_piece_type(m.piece))) continue;
        if (shogi_in_zone(s, m.from) || shogi_in_zone(s, m.to)) continue;
        m.promote = true;
        add(c, m);
    }
}

/* A promoted piece's legal move written as the record would write it turned back: the piece
 * named is the unpromoted one (CSA "+4455GI" with 成銀 on 4四, KIF "5五銀(44)"). */
static void find_unpromote(const struct shogi_position *pos, const struct shogi_move *legal, int n,
                           struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    for (int i = 0; i < n; i++) {
        struct shogi_move m = legal[i];
        enum shogi_type t = shogi_piece_type(m.piece);
        if (shogi_move_is_drop(m) || !shogi_type_is_promoted(t)) continue;
        m.piece = (uint8_t)shogi_piece(s, shogi_type_base(t));
        add(c, m);
    }
}

static void find_own_capture(const struct shogi_position *pos, struct cands *c)
{
    enum shogi_color s = (enum shogi_color)pos->side;
    int k = pos->king_sq[s], to[8];
    if (k == SHOGI_NO_SQUARE || king_attacked(pos, s)) return;
    int n = king_steps(k, to);
    for (int i = 0; i < n; i++) {
        int q = pos->board[to[i]];
        if (q && shogi_piece_color(q) == s) add(c, mv(k, to[i], pos->board[k], q, false));
    }
}

/* ---- sequences and repetition -------------------------------------------------------------- */

/* The real game replayed: positions[i] after i plies, and whether it had ended there. */
struct replay {
    struct shogi_position *pos;
    bool *ended;
    int n; /* plies */
};

static bool replay_game(const struct shogi_record *r, struct replay *rp)
{
    rp->n = r->nmoves;
    rp->pos = malloc((size_t)(rp->n + 1) * sizeof *rp->pos);
    rp->ended = calloc((size_t)(rp->n + 1), sizeof *rp->ended);
    if (!rp->pos || !rp->ended) return false;
    struct shogi_game g;
    shogi_game_init(&g, &r->start, &shogi_rules_jsa);
    rp->pos[0] = g.pos;
    for (int i = 0; i < r->nmoves; i++) {
        struct shogi_verdict v = shogi_game_play(&g, r->moves[i].move);
        if (v.rule != SHOGI_LEGAL || !r->moves[i].played) {
            rp->n = i; /* only the clean part is usable */
            break;
        }
        rp->pos[i + 1] = g.pos;
        rp->ended[i + 1] = g.outcome.end != SHOGI_END_NONE;
    }
    shogi_game_free(&g);
    return true;
}

static void replay_free(struct replay *rp)
{
    free(rp->pos);
    free(rp->ended);
}

/* The first ply at which some position stands on the board for the 4th time, over the real
 * plies 0..k and then seq; 0 when none. Compared square by square (shogi_position_same), not by
 * the core's hash. */
static int first_fourfold(const struct replay *rp, int k, const struct shogi_move *seq, int n)
{
    struct shogi_position *all = malloc((size_t)(k + n + 1) * sizeof *all);
    if (!all) return 0;
    memcpy(all, rp->pos, (size_t)(k + 1) * sizeof *all);
    for (int i = 0; i < n; i++) {
        all[k + 1 + i] = all[k + i];
        shogi_do_move(&all[k + 1 + i], seq[i]);
    }
    int found = 0;
    for (int j = 1; j <= k + n && !found; j++) {
        int count = 1;
        for (int i = 0; i < j; i++) count += shogi_position_same(&all[i], &all[j]);
        if (count >= 4) found = j;
    }
    free(all);
    return found;
}

static bool is_quiet_board_move(struct shogi_move m)
{
    return !shogi_move_is_drop(m) && !m.captured && !m.promote;
}

/* A perpetual check from pos: a check m0 puts a piece on A; then the king steps K1->K2, the piece
 * checks again from B, the king steps back, the piece returns to A (check): the position after m0
 * is back. seq gets m0 followed by that cycle three times (13 moves). want_defender selects the
 * cycle where the position before m0 recurs too (m0 came from B), so that the defender's step
 * completes the 4th occurrence; otherwise it must not. */
static bool find_perpetual(const struct replay *rp, int k, unsigned pick, bool want_defender,
                           struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq)
{
    const struct shogi_position *pos = &rp->pos[k];
    enum shogi_color s = (enum shogi_color)pos->side, o = (enum shogi_color)(s ^ 1);
    if (king_attacked(pos, s) || pos->king_sq[o] == SHOGI_NO_SQUARE) return false;
    struct shogi_move l0[SHOGI_MAX_MOVES], l1[SHOGI_MAX_MOVES], l2[SHOGI_MAX_MOVES];
    int n0 = shogi_legal_moves(pos, l0);
    for (int i0 = 0; i0 < n0; i0++) {
        struct shogi_move m0 = l0[(i0 + (int)(pick % (unsigned)n0)) % n0];
        if (!shogi_gives_check(pos, m0)) continue;
        struct shogi_position p1 = *pos;
        shogi_do_move(&p1, m0);
        int a = m0.to, x = p1.board[a], k1 = p1.king_sq[o];
        int n1 = shogi_legal_moves(&p1, l1);
        for (int i1 = 0; i1 < n1; i1++) {
            struct shogi_move r1 = l1[i1];
            if (r1.from != k1 || !is_quiet_board_move(r1)) continue;
            struct shogi_position p2 = p1;
            shogi_do_move(&p2, r1);
            int n2 = shogi_legal_moves(&p2, l2);
            for (int i2 = 0; i2 < n2; i2++) {
                struct shogi_move m2 = l2[i2];
                if (m2.from != a || !is_quiet_board_move(m2) || !shogi_gives_check(&p2, m2))
                    continue;
                bool from_b = !shogi_move_is_drop(m0) && m0.from == m2.to && m0.piece == x &&
                              !m0.promote && !m0.captured;
                if (from_b != want_defender) continue;
                struct shogi_position p3 = p2;
                shogi_do_move(&p3, m2);
                struct shogi_move r2 = mv(r1.to, r1.from, r1.piece, SHOGI_EMPTY, false);
                if (!shogi_is_legal(&p3, r2)) continue;
                struct shogi_position p4 = p3;
                shogi_do_move(&p4, r2);
                struct shogi_move m3 = mv(m2.to, a, x, SHOGI_EMPTY, false);
                if (!shogi_is_legal(&p4, m3) || !shogi_gives_check(&p4, m3)) continue;
                struct shogi_position p5 = p4;
                shogi_do_move(&p5, m3);
                if (!shogi_position_same(&p5, &p1)) continue;
                int n = 0;
                seq[n++] = m0;
                for (int rep = 0; rep < 3; rep++) {
                    seq[n++] = r1;
                    seq[n++] = m2;
                    seq[n++] = r2;
                    seq[n++] = m3;
                }
                int j = first_fourfold(rp, k, seq, n);
                int want = want_defender ? k + 12 : k + 13;
                if (j != want) continue;
                *nseq = j - k;
                return true;
            }
        }
    }
    return false;
}

/* Two pieces shuttle: s plays a->b, o plays c->d, both back, no move a check, no capture. */
static bool find_shuttle(const struct replay *rp, int k, unsigned pick,
                         struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq)
{
    const struct shogi_position *pos = &rp->pos[k];
    enum shogi_color s = (enum shogi_color)pos->side;
    if (king_attacked(pos, s)) return false;
    struct shogi_move l0[SHOGI_MAX_MOVES], l1[SHOGI_MAX_MOVES];
    int n0 = shogi_legal_moves(pos, l0), tried = 0;
    for (int i0 = 0; i0 < n0 && tried < 12; i0++) {
        struct shogi_move m = l0[(i0 + (int)(pick % (unsigned)n0)) % n0];
        if (!is_quiet_board_move(m) || shogi_gives_check(pos, m)) continue;
        tried++;
        struct shogi_position p1 = *pos;
        shogi_do_move(&p1, m);
        int n1 = shogi_legal_moves(&p1, l1), tried1 = 0;
        for (int i1 = 0; i1 < n1 && tried1 < 12; i1++) {
            struct shogi_move n = l1[i1];
            if (!is_quiet_board_move(n) || shogi_gives_check(&p1, n)) continue;
            tried1++;
            struct shogi_position p2 = p1;
            shogi_do_move(&p2, n);
            struct shogi_move mr = mv(m.to, m.from, m.piece, SHOGI_EMPTY, false);
            if (!shogi_is_legal(&p2, mr) || shogi_gives_check(&p2, mr)) continue;
            struct shogi_position p3 = p2;
            shogi_do_move(&p3, mr);
            struct shogi_move nr = mv(n.to, n.from, n.piece, SHOGI_EMPTY, false);
            if (!shogi_is_legal(&p3, nr) || shogi_gives_check(&p3, nr)) continue;
            int len = 0;
            for (int rep = 0; rep < 3; rep++) {
                seq[len++] = m;
                seq[len++] = n;
                seq[len++] = mr;
                seq[len++] = nr;
            }
            int j = first_fourfold(rp, k, seq, len);
            if (j <= k) continue;
            *nseq = j - k;
            return true;
        }
    }
    return false;
}

/* The pair (s's move, the defender's reply) that scores least. */
static bool ufz_best_pair(const struct shogi_position *pos, enum shogi_color s,
                          struct shogi_move *bm, struct shogi_move *br)
{
    struct shogi_move l[SHOGI_MAX_MOVES];
    int n = shogi_legal_moves(pos, l), best = UFZ_NONE;
    for (int i = 0; i < n && best > 0; i++) {
        struct shogi_position p = *pos;
        if (!ufz_allowed(&p, s, l[i])) continue;
        struct shogi_move r;
        int sc;
        if (ufz_best(&p, s, 0, &r, &sc) && sc < best) {
            best = sc;
            *bm = l[i];
            *br = r;
        }
    }
    return best < UFZ_NONE;
}

static bool find_uchifuzume_sequence(const struct replay *rp, int k, unsigned pick,
                                     struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq)
{
    struct shogi_position pos = rp->pos[k];
    enum shogi_color s = (enum shogi_color)pos.side;
    if (ufz_score(&pos) >= UFZ_NONE) return false;
    int n = 0;
    for (int pair = 0; pair < (SFAULT_MAX_SEQ - 1) / 2; pair++) {
        struct cands c;
        c.n = 0;
        find_uchifuzume(&pos, &c);
        if (c.n) {
            seq[n++] = c.m[0];
            /* no 4-fold repetition on the way: the game must still be on */
            if (first_fourfold(rp, k, seq, n)) return false;
            *nseq = n;
            return true;
        }
        struct shogi_move m, r;
        int sm, sr;
        if (ufz_score(&pos) <= 2) {
            /* close: one side's best step alone no longer helps, look at both moves together */
            if (!ufz_best_pair(&pos, s, &m, &r)) return false;
            shogi_do_move(&pos, m);
            shogi_do_move(&pos, r);
        } else {
            if (!ufz_best(&pos, s, pick + (unsigned)pair, &m, &sm)) return false;
            shogi_do_move(&pos, m);
            if (!ufz_best(&pos, s, pick * 3u + (unsigned)pair, &r, &sr)) return false;
            shogi_do_move(&pos, r);
        }
        seq[n++] = m;
        seq[n++] = r;
    }
    return false;
}

/* ---- building the record -------------------------------------------------------------------- */

/* The real game's first `prefix` moves (copied as read, all legal) and then seq, each appended
 * through shogi_record_append. *last gets the verdict on the last one; *ok whether all the others
 * were legal. */
static struct shogi_record *build(const struct shogi_record *r, int prefix,
                                  const struct shogi_move *seq, int n, struct shogi_verdict *last,
                                  bool *ok)
{
    struct shogi_record *c = shogi_record_new(r->handicap, &r->start);
    if (!c) return NULL;
    if (prefix) {
        c->moves = malloc((size_t)prefix * sizeof *c->moves);
        if (!c->moves) {
            shogi_record_free(c);
            return NULL;
        }
        memcpy(c->moves, r->moves, (size_t)prefix * sizeof *c->moves);
        for (int i = 0; i < prefix; i++) c->moves[i].comment = NULL;
        c->nmoves = c->cap = prefix;
    }
    *ok = true;
    for (int i = 0; i < n; i++) {
        struct shogi_verdict v = shogi_record_append(c, seq[i], -1, -1);
        if (i < n - 1 && v.rule != SHOGI_LEGAL) *ok = false;
        if (i == n - 1) *last = v;
    }
    return c;
}

static void expect(struct sfault_result *out, enum guard_kind kind, enum shogi_illegal reason,
                   enum shogi_fault detail)
{
    out->kind = kind;
    out->reason = reason;
    out->detail = detail;
}

static void expected_flag(enum sfault_kind f, struct sfault_result *out)
{
    switch (f) {
    case SFAULT_NIFU: expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_NIFU, SHOGI_FAULT_NIFU); break;
    case SFAULT_UCHIFUZUME:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_UCHIFUZUME, SHOGI_FAULT_UCHIFUZUME);
        break;
    case SFAULT_DEAD_MOVE:
    case SFAULT_DEAD_DROP:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_DEAD_PIECE, SHOGI_FAULT_DEAD_PIECE);
        break;
    case SFAULT_INTO_CHECK:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_KING_IN_CHECK, SHOGI_FAULT_INTO_CHECK);
        break;
    case SFAULT_IGNORE_CHECK:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_KING_IN_CHECK, SHOGI_FAULT_LEFT_IN_CHECK);
        break;
    case SFAULT_TWO_MOVES:
        expect(out, GUARD_TWO_MOVES, SHOGI_ILLEGAL_OUT_OF_TURN, SHOGI_FAULT_OUT_OF_TURN);
        break;
    case SFAULT_NOT_IN_HAND:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_IMPOSSIBLE, SHOGI_FAULT_NOT_IN_HAND);
        break;
    case SFAULT_PROMOTE_ZONE:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_IMPOSSIBLE, SHOGI_FAULT_PROMOTE_ZONE);
        break;
    case SFAULT_UNPROMOTE:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_IMPOSSIBLE, SHOGI_FAULT_UNPROMOTE);
        break;
    case SFAULT_OWN_CAPTURE:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_IMPOSSIBLE, SHOGI_FAULT_OWN_CAPTURE);
        break;
    case SFAULT_PERPETUAL:
    default:
        expect(out, GUARD_ILLEGAL_MOVE, SHOGI_ILLEGAL_PERPETUAL_CHECK, SHOGI_FAULT_PERPETUAL_CHECK);
        break;
    }
}

/* The faulty moves for f at ply k (single-move faults), or the sequence (perpetual check). */
static bool place_at(const struct replay *rp, int k, enum sfault_kind f, unsigned pick,
                     struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq)
{
    const struct shogi_position *pos = &rp->pos[k];
    if (f == SFAULT_PERPETUAL) return find_perpetual(rp, k, pick, false, seq, nseq);
    if (f == SFAULT_TWO_MOVES && k == 0) return false; /* nobody has moved yet */
    static struct cands c;                             /* large: kept off the stack */
    c.n = 0;
    struct shogi_move legal[SHOGI_MAX_MOVES];
    int n = 0;
    if (f == SFAULT_DEAD_MOVE || f == SFAULT_PROMOTE_ZONE || f == SFAULT_UNPROMOTE)
        n = shogi_legal_moves(pos, legal);
    switch (f) {
    case SFAULT_NIFU: find_nifu(pos, &c); break;
    case SFAULT_UCHIFUZUME:
        find_uchifuzume(pos, &c);
        if (!c.n) return find_uchifuzume_sequence(rp, k, pick, seq, nseq);
        break;
    case SFAULT_DEAD_MOVE: find_dead_move(pos, legal, n, &c); break;
    case SFAULT_DEAD_DROP: find_dead_drop(pos, &c); break;
    case SFAULT_INTO_CHECK: find_into_check(pos, &c); break;
    case SFAULT_IGNORE_CHECK: find_ignore_check(pos, &c); break;
    case SFAULT_TWO_MOVES: find_two_moves(pos, &c); break;
    case SFAULT_NOT_IN_HAND: find_not_in_hand(pos, &c); break;
    case SFAULT_PROMOTE_ZONE: find_promote_zone(pos, legal, n, &c); break;
    case SFAULT_UNPROMOTE: find_unpromote(pos, legal, n, &c); break;
    case SFAULT_OWN_CAPTURE: find_own_capture(pos, &c); break;
    default: return false;
    }
    if (!c.n) return false;
    seq[0] = c.m[pick % (unsigned)c.n];
    *nseq = 1;
    return true;
}

/* Walk the usable plies from one chosen by seed; call place() until it finds a place. */
typedef bool (*place_fn)(const struct replay *rp, int k, unsigned pick, void *arg,
                         struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq);

static int walk(const struct replay *rp, unsigned seed, place_fn place, void *arg,
                struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq)
{
    int plies = rp->n + 1;
    unsigned h = seed * 2654435761u;
    int start = (int)(h % (unsigned)plies);
    for (int i = 0; i < plies; i++) {
        int k = (start + i) % plies;
        if (rp->ended[k]) continue;
        if (place(rp, k, h >> 7, arg, seq, nseq)) return k;
    }
    return -1;
}

static bool place_fault(const struct replay *rp, int k, unsigned pick, void *arg,
                        struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq)
{
    return place_at(rp, k, *(const enum sfault_kind *)arg, pick, seq, nseq);
}

bool sfault_inject(const struct shogi_record *r, enum sfault_kind f, unsigned seed,
                   struct sfault_result *out)
{
    memset(out, 0, sizeof *out);
    struct replay rp;
    if (!replay_game(r, &rp)) {
        replay_free(&rp);
        return false;
    }
    struct shogi_move seq[SFAULT_MAX_SEQ];
    int nseq = 0;
    int k = walk(&rp, seed, place_fault, &f, seq, &nseq);
    replay_free(&rp);
    if (k < 0) return false;
    out->record = build(r, k, seq, nseq, &out->appended, &out->constructed_ok);
    if (!out->record) return false;
    out->prefix = k;
    out->ply = k + nseq;
    expected_flag(f, out);
    return true;
}

static bool place_shuttle(const struct replay *rp, int k, unsigned pick, void *arg,
                          struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq)
{
    (void)arg;
    return find_shuttle(rp, k, pick, seq, nseq);
}

bool sfault_sennichite(const struct shogi_record *r, unsigned seed, struct shogi_record **out,
                       int *end_ply)
{
    struct replay rp;
    *out = NULL;
    if (!replay_game(r, &rp)) {
        replay_free(&rp);
        return false;
    }
    struct shogi_move seq[SFAULT_MAX_SEQ];
    int nseq = 0;
    int k = walk(&rp, seed, place_shuttle, NULL, seq, &nseq);
    replay_free(&rp);
    if (k < 0) return false;
    struct shogi_verdict last;
    bool ok;
    *out = build(r, k, seq, nseq, &last, &ok);
    *end_ply = k + nseq;
    return *out && ok && last.rule == SHOGI_LEGAL;
}

static bool place_defender(const struct replay *rp, int k, unsigned pick, void *arg,
                           struct shogi_move seq[SFAULT_MAX_SEQ], int *nseq)
{
    (void)arg;
    return find_perpetual(rp, k, pick, true, seq, nseq);
}

bool sfault_perpetual_by_defender(const struct shogi_record *r, unsigned seed,
                                  struct shogi_record **out, int *ply, enum shogi_color *checker)
{
    struct replay rp;
    *out = NULL;
    if (!replay_game(r, &rp)) {
        replay_free(&rp);
        return false;
    }
    struct shogi_move seq[SFAULT_MAX_SEQ];
    int nseq = 0;
    int k = walk(&rp, seed, place_defender, NULL, seq, &nseq);
    if (k >= 0) *checker = (enum shogi_color)rp.pos[k].side;
    replay_free(&rp);
    if (k < 0) return false;
    struct shogi_verdict last;
    bool ok;
    *out = build(r, k, seq, nseq, &last, &ok);
    *ply = k + nseq;
    return *out != NULL && ok;
}

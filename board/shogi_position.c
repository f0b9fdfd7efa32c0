/* board/shogi_position.c — position set-up, derived state, make/unmake, attacks and pins. */
#include <stdio.h>
#include <string.h>

#include "board/shogi_internal.h"

static inline uint64_t zhand(int c, int t, int n)
{
    return shogi_t.z_hand[c][t][n & 31];
}

void shogi_position_clear(struct shogi_position *pos)
{
    memset(pos, 0, sizeof *pos);
    pos->ply = 1;
    shogi_position_refresh(pos);
}

void shogi_position_refresh(struct shogi_position *pos)
{
    memset(pos->by_color, 0, sizeof pos->by_color);
    memset(pos->by_type, 0, sizeof pos->by_type);
    pos->king_sq[0] = pos->king_sq[1] = SHOGI_NO_SQUARE;
    pos->side &= 1;
    uint64_t key = pos->side ? shogi_t.z_side : 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = pos->board[sq];
        int t = shogi_piece_type(p);
        if (!p) continue;
        if (t == SHOGI_NO_TYPE || t >= SHOGI_TYPES || (p & ~31)) { /* not a piece code: drop it */
            pos->board[sq] = SHOGI_EMPTY;
            continue;
        }
        int c = shogi_piece_color(p);
        bb_set(&pos->by_color[c], sq);
        bb_set(&pos->by_type[t], sq);
        if (t == SHOGI_KING && pos->king_sq[c] == SHOGI_NO_SQUARE) pos->king_sq[c] = (uint8_t)sq;
        key ^= shogi_t.z_board[sq][p];
    }
    for (int c = 0; c < 2; c++) {
        pos->hand[c][0] = 0;
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) key ^= zhand(c, t, pos->hand[c][t]);
    }
    pos->key = key;
}

void shogi_position_startpos(struct shogi_position *pos)
{
    shogi_sfen_parse(pos, SHOGI_SFEN_STARTPOS, NULL, NULL, 0);
}

bool shogi_position_same(const struct shogi_position *a, const struct shogi_position *b)
{
    return a->side == b->side && !memcmp(a->board, b->board, sizeof a->board) &&
           !memcmp(a->hand, b->hand, sizeof a->hand);
}

/* ---- attacks -------------------------------------------------------------------------------- */

bb_t shogi_attackers(const struct shogi_position *pos, int sq, enum shogi_color by, bb_t occ)
{
    enum shogi_color them = (enum shogi_color)(by ^ 1); /* a piece of `them` on sq sees back */
    const bb_t *T = pos->by_type;
    bb_t golds = bb_or(bb_or(T[SHOGI_GOLD], T[SHOGI_TOKIN]),
                       bb_or(bb_or(T[SHOGI_PRO_LANCE], T[SHOGI_PRO_KNIGHT]), T[SHOGI_PRO_SILVER]));
    bb_t kings = bb_or(T[SHOGI_KING], bb_or(T[SHOGI_HORSE], T[SHOGI_DRAGON]));
    bb_t a = bb_and(shogi_t.step[them][SHOGI_PAWN][sq], T[SHOGI_PAWN]);
    a = bb_or(a, bb_and(shogi_t.step[them][SHOGI_KNIGHT][sq], T[SHOGI_KNIGHT]));
    a = bb_or(a, bb_and(shogi_t.step[them][SHOGI_SILVER][sq], T[SHOGI_SILVER]));
    a = bb_or(a, bb_and(shogi_t.step[them][SHOGI_GOLD][sq], golds));
    a = bb_or(a, bb_and(shogi_t.step[them][SHOGI_KING][sq], kings));
    a = bb_or(a, bb_and(lance_attack(them, sq, occ), T[SHOGI_LANCE]));
    bb_t rq = bb_or(T[SHOGI_ROOK], T[SHOGI_DRAGON]), bq = bb_or(T[SHOGI_BISHOP], T[SHOGI_HORSE]);
    if (bb_any(bb_and(rq, pos->by_color[by]))) a = bb_or(a, bb_and(rook_attack(sq, occ), rq));
    if (bb_any(bb_and(bq, pos->by_color[by]))) a = bb_or(a, bb_and(bishop_attack(sq, occ), bq));
    return bb_and(a, pos->by_color[by]);
}

bool shogi_attacked(const struct shogi_position *pos, int sq, enum shogi_color by)
{
    if (sq < 0 || sq >= SHOGI_SQUARES) return false;
    return bb_any(shogi_attackers(pos, sq, by, occupied(pos)));
}

bool shogi_in_check(const struct shogi_position *pos)
{
    int k = pos->king_sq[pos->side];
    return k != SHOGI_NO_SQUARE && shogi_attacked(pos, k, (enum shogi_color)(pos->side ^ 1));
}

bb_t shogi_pinned(const struct shogi_position *pos, enum shogi_color c)
{
    bb_t pinned = {0, 0};
    int k = pos->king_sq[c];
    if (k == SHOGI_NO_SQUARE) return pinned;
    enum shogi_color them = (enum shogi_color)(c ^ 1);
    const bb_t *T = pos->by_type;
    bb_t rq = bb_or(T[SHOGI_ROOK], T[SHOGI_DRAGON]), bq = bb_or(T[SHOGI_BISHOP], T[SHOGI_HORSE]);
    const bb_t *ray = shogi_t.ray[k];
    bb_t lines = bb_and(bb_or(bb_or(ray[DIR_N], ray[DIR_S]), bb_or(ray[DIR_W], ray[DIR_E])), rq);
    lines = bb_or(
        lines, bb_and(bb_or(bb_or(ray[DIR_NW], ray[DIR_SW]), bb_or(ray[DIR_NE], ray[DIR_SE])), bq));
    /* an enemy lance pins along the file it runs down: it stands behind c's king's front */
    lines = bb_or(lines, bb_and(ray[c == SHOGI_SENTE ? DIR_N : DIR_S], T[SHOGI_LANCE]));
    bb_t snipers = bb_and(lines, pos->by_color[them]);
    bb_t occ = occupied(pos);
    while (bb_any(snipers)) {
        int s = bb_pop(&snipers);
        bb_t b = bb_and(between(k, s), occ);
        if (bb_any(b) && !bb_more_than_one(b)) pinned = bb_or(pinned, bb_and(b, pos->by_color[c]));
    }
    return pinned;
}

/* ---- make / unmake -----------------------------------------------------------------------------
 */

static inline void put(struct shogi_position *pos, int sq, int p)
{
    pos->board[sq] = (uint8_t)p;
    bb_set(&pos->by_color[shogi_piece_color(p)], sq);
    bb_set(&pos->by_type[shogi_piece_type(p)], sq);
    pos->key ^= shogi_t.z_board[sq][p];
    if (shogi_piece_type(p) == SHOGI_KING) pos->king_sq[shogi_piece_color(p)] = (uint8_t)sq;
}

static inline void take(struct shogi_position *pos, int sq)
{
    int p = pos->board[sq];
    pos->board[sq] = SHOGI_EMPTY;
    bb_clear(&pos->by_color[shogi_piece_color(p)], sq);
    bb_clear(&pos->by_type[shogi_piece_type(p)], sq);
    pos->key ^= shogi_t.z_board[sq][p];
    if (shogi_piece_type(p) == SHOGI_KING && pos->king_sq[shogi_piece_color(p)] == sq)
        pos->king_sq[shogi_piece_color(p)] = SHOGI_NO_SQUARE;
}

static inline void hand_add(struct shogi_position *pos, int c, int t, int delta)
{
    int n = pos->hand[c][t];
    pos->key ^= zhand(c, t, n) ^ zhand(c, t, n + delta);
    pos->hand[c][t] = (uint8_t)(n + delta);
}

bool shogi_move_is_playable(const struct shogi_position *pos, struct shogi_move m)
{
    if (m.to >= SHOGI_SQUARES) return false;
    if (m.from == SHOGI_HAND) {
        int t = shogi_type_base(shogi_piece_type(m.piece));
        return (m.piece & ~31) == 0 && t >= SHOGI_PAWN && t <= SHOGI_GOLD &&
               pos->hand[shogi_piece_color(m.piece)][t] > 0 && pos->board[m.to] == SHOGI_EMPTY;
    }
    return m.from < SHOGI_SQUARES && m.from != m.to && pos->board[m.from] != SHOGI_EMPTY &&
           m.piece == pos->board[m.from] && m.captured == pos->board[m.to];
}

void shogi_do_move(struct shogi_position *pos, struct shogi_move m)
{
    int c = shogi_piece_color(m.piece);
    if (m.from == SHOGI_HAND) {
        hand_add(pos, c, shogi_type_base(shogi_piece_type(m.piece)), -1);
        put(pos, m.to, m.piece);
    } else {
        int t = shogi_piece_type(m.piece);
        if (m.captured) {
            int ct = shogi_piece_type(m.captured);
            take(pos, m.to);
            if (ct != SHOGI_KING) hand_add(pos, c, shogi_type_base((enum shogi_type)ct), +1);
        }
        take(pos, m.from);
        put(pos, m.to, m.promote && shogi_type_can_promote(t) ? m.piece + SHOGI_PROMOTED : m.piece);
    }
    pos->side ^= 1;
    pos->key ^= shogi_t.z_side;
    pos->ply++;
}

void shogi_undo_move(struct shogi_position *pos, struct shogi_move m)
{
    int c = shogi_piece_color(m.piece);
    pos->side ^= 1;
    pos->key ^= shogi_t.z_side;
    pos->ply--;
    take(pos, m.to);
    if (m.from == SHOGI_HAND) {
        hand_add(pos, c, shogi_type_base(shogi_piece_type(m.piece)), +1);
        return;
    }
    put(pos, m.from, m.piece);
    if (m.captured) {
        int ct = shogi_piece_type(m.captured);
        if (ct != SHOGI_KING) hand_add(pos, c, shogi_type_base((enum shogi_type)ct), -1);
        put(pos, m.to, m.captured);
    }
}

bool shogi_gives_check(const struct shogi_position *pos, struct shogi_move m)
{
    if (!shogi_move_is_playable(pos, m)) return false;
    struct shogi_position p = *pos;
    int them = shogi_piece_color(m.piece) ^ 1;
    shogi_do_move(&p, m);
    int k = p.king_sq[them];
    return k != SHOGI_NO_SQUARE && shogi_attacked(&p, k, (enum shogi_color)(them ^ 1));
}

/* ---- validity ------------------------------------------------------------------------------ */

static const int set_count[SHOGI_HAND_TYPES + 1] = {0, 18, 4, 4, 4, 2, 2, 4, 2};
static const char *const type_word[SHOGI_TYPES] = {
    "",      "pawn", "lance", "knight",         "silver",          "bishop",          "rook",
    "gold",  "king", "tokin", "promoted lance", "promoted knight", "promoted silver", "horse",
    "dragon"};

bool shogi_position_valid(const struct shogi_position *pos, char *err, size_t errlen)
{
    char dummy[8];
    if (!err) {
        err = dummy;
        errlen = sizeof dummy;
    }
    int total[SHOGI_HAND_TYPES + 1] = {0}, kings[2] = {0, 0};
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = pos->board[sq];
        if (!p) continue;
        int t = shogi_piece_type(p), c = shogi_piece_color(p);
        if (t == SHOGI_NO_TYPE || t >= SHOGI_TYPES || (p & ~31)) {
            snprintf(err, errlen, "square %d%c holds no piece code (%d)", shogi_sq_file(sq),
                     'a' + shogi_sq_rank(sq) - 1, p);
            return false;
        }
        total[shogi_type_base((enum shogi_type)t)]++;
        if (t == SHOGI_KING) kings[c]++;
        if (!shogi_piece_can_stand((enum shogi_color)c, t, sq)) {
            snprintf(err, errlen, "%s %s on %d%c can never move (行き所のない駒)",
                     c ? "gote's" : "sente's", type_word[t], shogi_sq_file(sq),
                     'a' + shogi_sq_rank(sq) - 1);
            return false;
        }
    }
    for (int c = 0; c < 2; c++) {
        if (kings[c] > 1) {
            snprintf(err, errlen, "%s has %d kings", c ? "gote" : "sente", kings[c]);
            return false;
        }
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) total[t] += pos->hand[c][t];
        for (int f = 1; f <= 9; f++) {
            int n = bb_count(
                bb_and(pieces_of(pos, (enum shogi_color)c, SHOGI_PAWN), shogi_t.file_bb[f]));
            if (n > 1) {
                snprintf(err, errlen, "%s has %d pawns on file %d (二歩)", c ? "gote" : "sente", n,
                         f);
                return false;
            }
        }
    }
    for (int t = SHOGI_PAWN; t <= SHOGI_KING; t++)
        if (total[t] > set_count[t]) {
            snprintf(err, errlen, "%d %ss (a set has %d)", total[t], type_word[t], set_count[t]);
            return false;
        }
    int k = pos->king_sq[pos->side ^ 1];
    if (k != SHOGI_NO_SQUARE && shogi_attacked(pos, k, (enum shogi_color)pos->side)) {
        snprintf(err, errlen, "%s, not to move, is in check", pos->side ? "sente" : "gote");
        return false;
    }
    return true;
}

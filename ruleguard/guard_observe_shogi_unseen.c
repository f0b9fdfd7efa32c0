/* ruleguard/guard_observe_shogi_unseen.c — a move made where the camera cannot look. A camera that
 * sees part of the board misses a move made wholly outside the picture: the other side then seems
 * to move twice (9). When legal moves of the side to move stay wholly on squares unread since the
 * last move, or leave a square read empty for one unread (no capture: its komadai would show it;
 * no drop; but a capture from an unread square onto the square where the moves seen then take a
 * piece of their own side: the capturer read with the old owner), that is no TWO_MOVES: the move is
 * recorded as made but not seen (GUARD_REASON_UNSEEN), as the likeliest of those moves (a record
 * holds no unknown move), its text naming the others; the guard follows the game on. Once the
 * board shows that another of them was made (its squares come into view, or the piece moves on
 * from where it really went), the move is amended and the later moves played again. */
#include <stdio.h>
#include <string.h>

#include "ruleguard/guard_observe_shogi_internal.h"

/* Unread since the last move: not in the picture (nor uncovered) in any observation after the
 * view that showed it (a square covered for good since then is as unread as one out of view). */
static bool dark(const struct shogi_obs_guard *g, int sq)
{
    return g->sq[sq].lit_obs <= g->move_obs && !g->sq[sq].cand.active;
}

/* Left since the last move: read empty (and believed so) where the game has a piece of the side
 * to move. Its move may end on a square unread since: seen half, it is the move not seen (a pawn
 * stepped onto a square a false cover has hidden since). */
static bool left(const struct shogi_obs_guard *g, const struct shogi_position *pos, int sq)
{
    const struct sobs_square *s = &g->sq[sq];
    return pos->board[sq] && (int)shogi_piece_color(pos->board[sq]) == pos->side &&
           s->belief == SHOGI_EMPTY && !s->cand.active && s->lit_obs > g->move_obs;
}

/* The order of likelihood: a pawn's step first, then the lighter pieces; promotion last. */
static int weight(struct shogi_move m)
{
    /* a capture in the zone: promoted first (what players do, a bishop or rook always) */
    return (int)shogi_type_base(shogi_piece_type(m.piece)) * 2 +
           (m.captured != SHOGI_EMPTY ? !m.promote : m.promote);
}

/* Does a move of seq[0..n) take on sq a piece of its own side in pos (as read: a capture of one's
 * own piece)? Then an unseen capture there by the side to move may have come first: the piece
 * taken was the capturer's, read with the owner of the piece it took (its face in doubt, or read
 * but briefly). */
static bool own_capture_on(const struct shogi_position *pos, const struct shogi_move *seq, int n,
                           int sq)
{
    for (int k = 0; k < n; k++)
        if (seq[k].to == sq && pos->board[sq] &&
            shogi_piece_color(pos->board[sq]) == shogi_piece_color(seq[k].piece))
            return true;
    return false;
}

/* Inserts m into alt[0..*nalt) by weight, keeping the first SOBS_UNSEEN_ALTS; returns its place,
 * or -1 when it falls beyond them. */
static int insert_by_weight(struct shogi_move alt[SOBS_UNSEEN_ALTS], int *nalt, struct shogi_move m)
{
    int at = *nalt;
    while (at > 0 && weight(alt[at - 1]) > weight(m)) at--;
    if (at >= SOBS_UNSEEN_ALTS) return -1;
    int last = *nalt < SOBS_UNSEEN_ALTS ? *nalt : SOBS_UNSEEN_ALTS - 1;
    memmove(alt + at + 1, alt + at, (size_t)(last - at) * sizeof alt[0]);
    alt[at] = m;
    if (*nalt < SOBS_UNSEEN_ALTS) (*nalt)++;
    return at;
}

int sobs_unseen_moves(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                      const struct shogi_move *seq, int n, struct shogi_move alt[SOBS_UNSEEN_ALTS],
                      int *total)
{
    *total = 0;
    if (n <= 0 || (int)shogi_piece_color(seq[0].piece) == pos->side || g->move_obs <= 0) return 0;
    struct shogi_move all[SHOGI_MAX_MOVES]; /* on the stack, as the search's: a guard per board */
    int nall = shogi_legal_moves(pos, all), nalt = 0;
    for (int i = 0; i < nall; i++) {
        struct shogi_move m = all[i];
        /* a capture only from a square unread since, onto the square the moves seen then take
           one of their own pieces on (the capturer read with the old owner) */
        bool capture =
            m.captured != SHOGI_EMPTY && dark(g, m.from) && own_capture_on(pos, seq, n, m.to);
        if (shogi_move_is_drop(m) || (m.captured != SHOGI_EMPTY && !capture) ||
            (!capture && !dark(g, m.to)) || !(dark(g, m.from) || left(g, pos, m.from)))
            continue;
        struct shogi_position p = *pos;
        shogi_do_move(&p, m);
        bool ok = true;
        for (int k = 0; k < n && ok; k++) {
            struct shogi_move q = seq[k];
            if (!shogi_move_is_drop(q)) q.captured = p.board[q.to];
            ok = (int)shogi_piece_color(q.piece) == p.side && shogi_is_legal(&p, q);
            if (ok) shogi_do_move(&p, q);
        }
        if (!ok) continue;
        (*total)++;
        insert_by_weight(alt, &nalt, m);
    }
    return nalt;
}

/* Where b2 differs from p (the game after an unseen move), the opponent's moves that explain it,
 * beginning with the side to move in p: their number in seq, 0 when nothing differs, -1 when no
 * such story explains the board. */
static int opponent_story(const struct shogi_obs_guard *g, const struct shogi_position *p,
                          const uint8_t *b2, struct shogi_move seq[SOBS_SEQ_MAX])
{
    int d[SHOGI_SQUARES], nd = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (b2[sq] != p->board[sq]) d[nd++] = sq;
    if (nd == 0) return 0;
    /* the moves may pass through squares read differently of late (as sobs_explain's) */
    int na = nd;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        bool in = false;
        for (int i = 0; i < nd; i++) in |= d[i] == sq;
        if (!in && g->sq[sq].touched_obs && g->nobs - g->sq[sq].touched_obs <= SOBS_TOUCHED_OBS)
            d[na++] = sq;
    }
    int dist, n = sobs_find_moves(g, p, b2, d, na, nd, seq, &dist);
    if (n == 0 || dist >= 1 << 20 || (int)shogi_piece_color(seq[0].piece) != p->side) return -1;
    return n;
}

/* One more unseen move m that explains the board, kept among alt by its weight; the story after
 * the heaviest one in rest. */
static void keep_alt(struct shogi_move alt[SOBS_UNSEEN_ALTS], int *nalt, int *total,
                     struct shogi_move m, const struct shogi_move *seq, int n,
                     struct shogi_move rest[SOBS_SEQ_MAX], int *nrest)
{
    (*total)++;
    if (insert_by_weight(alt, nalt, m) == 0) {
        memcpy(rest, seq, (size_t)n * sizeof seq[0]);
        *nrest = n;
    }
}

int sobs_half_seen(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                   const uint8_t *board, struct shogi_move alt[SOBS_UNSEEN_ALTS], int *total,
                   struct shogi_move rest[SOBS_SEQ_MAX], int *nrest)
{
    *total = *nrest = 0;
    if (g->move_obs <= 0) return 0;
    struct shogi_move all[SHOGI_MAX_MOVES];
    int nall = shogi_legal_moves(pos, all), nalt = 0;
    for (int i = 0; i < nall; i++) {
        struct shogi_move m = all[i];
        if (shogi_move_is_drop(m) || m.captured != SHOGI_EMPTY || !left(g, pos, m.from) ||
            !dark(g, m.to))
            continue;
        struct shogi_position p = *pos;
        shogi_do_move(&p, m);
        /* the unread square as the game has it; the rest the opponent's legal moves */
        uint8_t b2[SHOGI_SQUARES];
        memcpy(b2, board, sizeof b2);
        b2[m.to] = p.board[m.to];
        struct shogi_move seq[SOBS_SEQ_MAX];
        int n = opponent_story(g, &p, b2, seq);
        if (n <= 0) continue; /* no move after it (nothing says it was made yet), or no story */
        keep_alt(alt, &nalt, total, m, seq, n, rest, nrest);
    }
    return nalt;
}

int sobs_arrived_from_dark(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                           const uint8_t *board, struct shogi_move alt[SOBS_UNSEEN_ALTS],
                           int *total, struct shogi_move rest[SOBS_SEQ_MAX], int *nrest)
{
    *total = *nrest = 0;
    if (g->move_obs <= 0) return 0;
    struct shogi_move all[SHOGI_MAX_MOVES];
    int nall = shogi_legal_moves(pos, all), nalt = 0;
    for (int i = 0; i < nall; i++) {
        struct shogi_move m = all[i];
        int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece, got = board[m.to];
        if (shogi_move_is_drop(m) || !dark(g, m.from) || dark(g, m.to)) continue;
        /* or onto an empty square read empty now, the piece gone on from there in the moves
           after (a first step out of the picture seen only as the piece arriving further on) */
        bool moved_on = !got && !pos->board[m.to];
        /* from a square unread since, onto one read now with a piece of the mover's that was
           not there: the piece as the game has it, or a face read in doubt */
        if (!moved_on && (!got || got == pos->board[m.to] ||
                          shogi_piece_color(got) != shogi_piece_color(m.piece) ||
                          (got != placed && !sobs_read_in_doubt(g, m.to))))
            continue;
        struct shogi_position p = *pos;
        shogi_do_move(&p, m);
        /* the origin as the game has it (and the square it arrived on, unless it moved on);
           the rest the opponent's legal moves */
        uint8_t b2[SHOGI_SQUARES];
        memcpy(b2, board, sizeof b2);
        b2[m.from] = p.board[m.from];
        if (!moved_on) b2[m.to] = p.board[m.to];
        struct shogi_move seq[SOBS_SEQ_MAX];
        int n = opponent_story(g, &p, b2, seq);
        if (n < 0) continue;
        bool went_on = false;
        for (int k = 0; k < n; k++) went_on |= !shogi_move_is_drop(seq[k]) && seq[k].from == m.to;
        if (moved_on && !went_on) continue;
        keep_alt(alt, &nalt, total, m, seq, n, rest, nrest);
    }
    return nalt;
}

/* The board now shows the game's position on the squares of m (they are unread: no evidence). */
static void believe_game(struct shogi_obs_guard *g, struct shogi_move m)
{
    const struct shogi_position *pos = &sobs_game(g)->pos;
    int sqs[2] = {m.from, m.to};
    for (int i = 0; i < 2; i++) {
        struct sobs_square *s = &g->sq[sqs[i]];
        if (s->lit_obs == g->nobs) continue; /* read now: the readings say */
        s->belief = pos->board[sqs[i]];
        s->last_read = s->belief;
        s->cand.active = false;
        s->doubt = s->weak = false;
    }
}

static void unseen_text(const struct shogi_obs_guard *g, int side, const struct shogi_move *alt,
                        int nalt, int total, char *text, size_t len)
{
    (void)g;
    char usi[6];
    int used = snprintf(text, len, "%s's move not seen: one of %d move%s on unread squares",
                        sobs_side_name(side), total, total == 1 ? "" : "s");
    for (int i = 1; i < nalt && i < 6 && used < (int)len - 8; i++)
        used += snprintf(text + used, len - (size_t)used, "%s%s", i == 1 ? " (also " : " ",
                         shogi_move_to_usi(alt[i], usi));
    if (nalt > 1 && used < (int)len - 3)
        used += snprintf(text + used, len - (size_t)used, "%s)", total > 6 ? " ..." : "");
    if (used < (int)len - 24)
        snprintf(text + used, len - (size_t)used, "; recorded as %s until seen",
                 shogi_move_to_usi(alt[0], usi));
}

/* Keep alt[0..nalt) (alt[0] just recorded as the game's last ply) for sobs_unseen_amend. */
static void remember_alternatives(struct shogi_obs_guard *g, const struct shogi_move *alt, int nalt,
                                  bool arrival)
{
    if (g->nunseen == SOBS_UNSEEN_MAX) {
        memmove(g->unseen, g->unseen + 1, (SOBS_UNSEEN_MAX - 1) * sizeof g->unseen[0]);
        g->nunseen--;
    }
    struct sobs_unseen *u = &g->unseen[g->nunseen++];
    u->k = sobs_game(g)->n - 1;
    memcpy(u->alt, alt, (size_t)nalt * sizeof alt[0]);
    u->nalt = nalt;
    u->arrival = arrival;
}

bool sobs_unseen_commit(struct shogi_obs_guard *g, const struct shogi_move *alt, int nalt,
                        int total, int64_t t, uint64_t frame, struct sobs_evbuf *b)
{
    int n0 = b->n, side = sobs_game(g)->pos.side;
    if (!sobs_commit(g, alt[0], t, frame, NULL, b)) return false;
    const struct shogi_game *game = sobs_game(g);
    sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
    for (int e = n0; e < b->n; e++)
        if (b->ev[e].kind == GUARD_MOVE) {
            b->ev[e].reason = GUARD_REASON_UNSEEN;
            unseen_text(g, side, alt, nalt, total, b->ev[e].text, sizeof b->ev[e].text);
        }
    believe_game(g, alt[0]);
    remember_alternatives(g, alt, nalt, false);
    return true;
}

bool sobs_arrived_commit(struct shogi_obs_guard *g, const struct shogi_move *alt, int nalt,
                         int64_t t, uint64_t frame, struct sobs_evbuf *b)
{
    struct shogi_move m = alt[0];
    char note[120], usi[6];
    int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece, got = g->sq[m.to].belief;
    int len = snprintf(note, sizeof note, "from out of the picture");
    if (got && got != placed)
        len += snprintf(note + len, sizeof note - (size_t)len, ", its face read as %s",
                        shogi_type_csa(shogi_piece_type(got)));
    for (int i = 1; i < nalt && i < 4 && len < (int)sizeof note - 12; i++)
        len += snprintf(note + len, sizeof note - (size_t)len, "%s%s", i == 1 ? "; or " : " ",
                        shogi_move_to_usi(alt[i], usi));
    if (!sobs_commit(g, m, t, frame, note, b)) return false;
    const struct shogi_game *game = sobs_game(g);
    sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
    believe_game(g, m);
    /* the face misread where it arrived: tolerated until the square reads otherwise */
    if (got && g->sq[m.to].belief != game->pos.board[m.to]) g->mask[m.to] = g->sq[m.to].belief;
    if (nalt > 1) remember_alternatives(g, alt, nalt, true);
    return true;
}

void sobs_unseen_truncate(struct shogi_obs_guard *g, int n)
{
    int j = 0;
    for (int i = 0; i < g->nunseen; i++)
        if (g->unseen[i].k < n) g->unseen[j++] = g->unseen[i];
    g->nunseen = j;
}

/* A square whose reading says nothing of which piece arrived: unread since the last move, or
 * its face tolerated as misread (an arrival's face read in doubt). */
static bool no_evidence(const struct shogi_obs_guard *g, int sq)
{
    return dark(g, sq) || (g->mask[sq] >= 0 && g->sq[sq].belief == (uint8_t)g->mask[sq]);
}

bool sobs_unseen_amend(struct shogi_obs_guard *g, const uint8_t *board, int nd, bool legal,
                       int64_t t, uint64_t frame, struct sobs_evbuf *b)
{
    const struct shogi_game *game = sobs_game(g);
    if (g->nmoves != game->n || nd == 0) return false;
    for (int i = g->nunseen - 1; i >= 0; i--) {
        struct sobs_unseen *u = &g->unseen[i];
        int window = u->arrival ? SOBS_ARRIVAL_PLY : SOBS_UNSEEN_PLY;
        if (u->k >= game->n || game->n - u->k > window + 1) continue;
        for (int j = 1; j < u->nalt; j++) {
            struct shogi_position p;
            if (!sobs_replay_with(game, u->k, u->alt[j], &p)) continue;
            /* an arrival's squares that say nothing of which piece came are as the amended
               game has them */
            uint8_t seen[SHOGI_SQUARES];
            int d[SHOGI_SQUARES], nd2 = 0;
            for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
                seen[sq] = u->arrival && no_evidence(g, sq) ? p.board[sq] : board[sq];
                if (p.board[sq] != seen[sq]) d[nd2++] = sq;
            }
            bool better = nd2 == 0;
            if (!better && !legal && nd2 < nd) {
                struct shogi_move seq[SOBS_SEQ_MAX];
                int dist;
                better =
                    sobs_find_moves(g, &p, seen, d, nd2, nd2, seq, &dist) > 0 && dist < 1 << 20;
            }
            if (!better) continue;
            /* the take-back and every move again, one move's events to spare (the explanation
               after it waits for the next observation when they leave too few) */
            int reserve = u->arrival ? GUARD_MAX_EVENTS : GUARD_MAX_EVENTS * 3;
            if (b->n + 2 + (game->n - u->k) > GUARD_OBS_MAX_EVENTS - reserve) break;
            struct shogi_move redo[SOBS_ARRIVAL_PLY + 1], was = u->alt[0];
            int nredo = 0, k = u->k;
            for (int x = k; x < game->n && nredo < window + 1; x++)
                redo[nredo++] = game->plies[x].move;
            redo[0] = u->alt[j];
            char usi[6], why[64];
            snprintf(why, sizeof why, "the move not seen was %s",
                     shogi_move_to_usi(u->alt[j], usi));
            sobs_truncate(g, k, t, frame, why, b); /* drops this entry and the later ones */
            for (int x = 0; x < nredo; x++) {
                if (!sobs_commit(g, redo[x], t, frame, x ? "" : "not seen when made: found later",
                                 b))
                    return true;
                game = sobs_game(g);
                sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
            }
            believe_game(g, was);
            believe_game(g, redo[0]);
            return true;
        }
    }
    return false;
}

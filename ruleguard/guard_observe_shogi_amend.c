/* ruleguard/guard_observe_shogi_amend.c — a move recorded with the wrong face. Whether a piece
 * promoted is read from its face alone, and a face turned over is read in doubt more than any
 * other change: a move may be confirmed on two doubtful readings of the unpromoted face (or the
 * promoted one) before the sure readings come. When the board then differs from the game only in
 * that face, and the move played the other way explains the board exactly, the move is amended
 * (taken back and played again) rather than explained by moves nobody made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard_observe_shogi_internal.h"

/* How many of the last moves may still be amended: the mover's piece and the reply. */
#define AMEND_PLIES 2

bool sobs_replay_with(const struct shogi_game *game, int k, struct shogi_move m,
                      struct shogi_position *out)
{
    struct shogi_position p = game->pos;
    for (int i = game->n - 1; i >= k; i--) shogi_undo_move(&p, game->plies[i].move);
    if (!shogi_is_legal(&p, m)) return false;
    shogi_do_move(&p, m);
    for (int i = k + 1; i < game->n; i++) {
        if (!shogi_is_legal(&p, game->plies[i].move)) return false;
        shogi_do_move(&p, game->plies[i].move);
    }
    *out = p;
    return true;
}

/* The board when move k of the game is played the other way (promoted or not) and the later
 * moves as they were; false when any of them is then illegal. */
static bool replay_turned(const struct shogi_game *game, int k, struct shogi_position *out)
{
    struct shogi_move alt = game->plies[k].move;
    alt.promote = !alt.promote;
    return sobs_replay_with(game, k, alt, out);
}

/* The squares where p differs from board, and after them those read differently of late (as
 * sobs_explain gives them to the search); how many differ. */
static int changed_squares(const struct shogi_obs_guard *g, const struct shogi_position *p,
                           const uint8_t *board, int out[SHOGI_SQUARES], int *nall)
{
    int nd = 0, na;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (p->board[sq] != board[sq]) out[nd++] = sq;
    na = nd;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (p->board[sq] == board[sq] && g->sq[sq].touched_obs &&
            g->nobs - g->sq[sq].touched_obs <= SOBS_TOUCHED_OBS)
            out[na++] = sq;
    *nall = na;
    return nd;
}

bool sobs_try_amend_promotion(struct shogi_obs_guard *g, const uint8_t *board, int nmoves,
                              bool legal, int64_t t, uint64_t frame, struct sobs_evbuf *b)
{
    const struct shogi_game *game = sobs_game(g);
    if (g->nmoves != game->n) return false; /* moves before an accepted position: not ours */
    for (int k = game->n - 1; k >= 0 && k >= game->n - AMEND_PLIES; k--) {
        struct shogi_move m = game->plies[k].move;
        if (shogi_move_is_drop(m)) continue;
        /* the face must be read surely and settled, and the piece still stand where it went */
        const struct sobs_square *s = &g->sq[m.to];
        if (s->cand.active || s->doubt || board[m.to] == game->pos.board[m.to]) continue;
        struct shogi_position p;
        if (!replay_turned(game, k, &p) || p.board[m.to] != board[m.to]) continue;
        /* what else changed must be fewer legal moves than the game's face allows, or none */
        int d[SHOGI_SQUARES], na, nd = changed_squares(g, &p, board, d, &na);
        if (nd > 0) {
            struct shogi_move seq[SOBS_SEQ_MAX];
            int dist;
            int n = sobs_find_moves(g, &p, board, d, na, nd, seq, &dist);
            if (n == 0 || dist >= 1 << 20 || (legal && nmoves > 0 && n >= nmoves)) continue;
        }
        struct shogi_move redo[AMEND_PLIES];
        int nredo = 0;
        for (int i = k; i < game->n && nredo < AMEND_PLIES; i++)
            redo[nredo++] = game->plies[i].move;
        redo[0].promote = !m.promote;
        sobs_truncate(g, k, t, frame,
                      redo[0].promote ? "the piece was promoted" : "the piece was not promoted", b);
        for (int i = 0; i < nredo; i++) {
            if (!sobs_commit(g, redo[i], t, frame, i ? "" : "face read again", b)) return true;
            game = sobs_game(g);
            sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
        }
        return true;
    }
    return false;
}

/* ---- a foul the game went on from --------------------------------------------------------------
 * A foul flagged (ILLEGAL_MOVE, TWO_MOVES) and recorded, then more moves: the board is the truth.
 * When the board then shows what nothing legal explains from the game as recorded, but does from
 * the game with the foul read otherwise (not made at all: a misread that came and went; the drop
 * made by the side to move: a fresh piece's orientation misread; a drop of another kind; another
 * legal move of the side to move ending on the foul's square or leaving its origin), the foul was
 * a misread: the move is amended (taken back and the moves after it played again). A real foul
 * leaves a board its game explains, or one the referee restores (try_restore). */

/* Plies after a foul it may still be amended (the moves recorded since are played again). */
#define FOUL_AMEND_PLIES 8
#define FOUL_ALTS        64

/* The game's position after its plies with ply k made as alt (skip: not made) and the later plies
 * as they were (their captures read from the board they are then played on); false when one of
 * them is then not legal. */
static bool replay_foul(const struct shogi_game *game, int k, const struct shogi_move *alt,
                        struct shogi_move *later, struct shogi_position *out)
{
    struct shogi_position p = game->pos;
    for (int i = game->n - 1; i >= k; i--) {
        shogi_undo_move(&p, game->plies[i].move);
        if (p.side != game->plies[i].side_before) { /* out of turn: the side to move stayed */
            p.side = game->plies[i].side_before;
            shogi_position_refresh(&p);
        }
    }
    if (alt) {
        if (!shogi_is_legal(&p, *alt)) return false;
        shogi_do_move(&p, *alt);
    }
    for (int i = k + 1; i < game->n; i++) {
        struct shogi_move m = game->plies[i].move;
        if (!shogi_move_is_drop(m)) {
            if (p.board[m.from] != m.piece) return false;
            m.captured = p.board[m.to];
        }
        if (!shogi_is_legal(&p, m)) return false;
        shogi_do_move(&p, m);
        later[i - k - 1] = m;
    }
    *out = p;
    return true;
}

/* The moves the foul may have been (see above), legal in pos (the position before it). */
static int foul_alternatives(const struct shogi_position *pos, struct shogi_move foul,
                             struct shogi_move alt[FOUL_ALTS])
{
    int n = 0;
    if (shogi_move_is_drop(foul)) {
        int t = shogi_type_base(shogi_piece_type(foul.piece));
        /* the side to move's drop of the kind read, then of the other kinds it holds */
        for (int pass = 0; pass < 2; pass++)
            for (int u = SHOGI_PAWN; u <= SHOGI_GOLD && n < FOUL_ALTS; u++) {
                if ((pass == 0) != (u == t) || !pos->hand[pos->side][u]) continue;
                struct shogi_move m = foul;
                m.piece = (uint8_t)shogi_piece((enum shogi_color)pos->side, (enum shogi_type)u);
                m.captured = SHOGI_EMPTY;
                m.promote = false;
                if (m.piece != foul.piece && shogi_is_legal(pos, m)) alt[n++] = m;
            }
        for (int u = SHOGI_PAWN; u <= SHOGI_GOLD && n < FOUL_ALTS; u++) {
            if (u == t || !pos->hand[shogi_piece_color(foul.piece)][u]) continue;
            struct shogi_move m = foul;
            m.piece = (uint8_t)shogi_piece((enum shogi_color)shogi_piece_color(foul.piece),
                                           (enum shogi_type)u);
            if (shogi_is_legal(pos, m)) alt[n++] = m;
        }
    }
    struct shogi_move all[SHOGI_MAX_MOVES];
    int na = shogi_legal_moves(pos, all);
    for (int i = 0; i < na && n < FOUL_ALTS; i++) {
        struct shogi_move m = all[i];
        bool same_to = m.to == foul.to;
        bool same_from = !shogi_move_is_drop(foul) && !shogi_move_is_drop(m) && m.from == foul.from;
        if (!same_to && !same_from) continue;
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= alt[j].from == m.from && alt[j].to == m.to && alt[j].piece == m.piece &&
                   alt[j].promote == m.promote;
        if (!dup) alt[n++] = m;
    }
    return n;
}

/* Does a move of later[0..n) take the piece of alt straight back (a move there and back is a
 * story made up to fit, no reading)? */
static bool goes_back(struct shogi_move alt, const struct shogi_move *later, int n)
{
    if (shogi_move_is_drop(alt)) return false;
    for (int i = 0; i < n; i++)
        if (!shogi_move_is_drop(later[i]) && later[i].from == alt.to && later[i].to == alt.from)
            return true;
    return false;
}

/* Does a move of later[0..n) make the foul again (a foul not made, then made after all, is the
 * same foul in another order)? */
static bool made_again(struct shogi_move foul, const struct shogi_move *later, int n)
{
    for (int i = 0; i < n; i++)
        if (later[i].from == foul.from && later[i].to == foul.to) return true;
    return false;
}

/* How well the board is explained from p: 0 exactly, else the number of legal moves that do;
 * -1 when nothing legal does, or when one of them takes alt's piece straight back (alt NULL:
 * makes the foul again). */
static int explained(const struct shogi_obs_guard *g, const struct shogi_position *p,
                     const uint8_t *board, const struct shogi_move *alt, struct shogi_move foul)
{
    int d[SHOGI_SQUARES], nd = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (p->board[sq] != board[sq]) d[nd++] = sq;
    if (nd == 0) return 0;
    struct shogi_move seq[SOBS_SEQ_MAX];
    int dist, n = sobs_find_moves(g, p, board, d, nd, nd, seq, &dist);
    if (n == 0 || dist >= 1 << 20 || (alt && goes_back(*alt, seq, n)) ||
        (!alt && made_again(foul, seq, n)))
        return -1;
    return n;
}

/* The foul at ply k amended, as above (0, 1 or 2). */
static int amend_foul_at(struct shogi_obs_guard *g, int k, const uint8_t *board, bool settled,
                         int64_t t, uint64_t frame, struct sobs_evbuf *b)
{
    const struct shogi_game *game = sobs_game(g);
    struct shogi_move foul = game->plies[k].move;
    struct shogi_position before = game->pos;
    for (int i = game->n - 1; i >= k; i--) {
        shogi_undo_move(&before, game->plies[i].move);
        if (before.side != game->plies[i].side_before) {
            before.side = game->plies[i].side_before;
            shogi_position_refresh(&before);
        }
    }
    struct shogi_move alt[FOUL_ALTS], later[FOUL_AMEND_PLIES], best_later[FOUL_AMEND_PLIES];
    int nalt = foul_alternatives(&before, foul, alt);
    int best = -1, best_score = 1 << 20;
    struct shogi_position p;
    /* i == -1: the foul not made at all */
    for (int i = -1; i < nalt; i++) {
        if (!replay_foul(game, k, i < 0 ? NULL : &alt[i], later, &p)) continue;
        if (i >= 0 ? goes_back(alt[i], later, game->n - 1 - k)
                   : made_again(foul, later, game->n - 1 - k))
            continue;
        int score = explained(g, &p, board, i < 0 ? NULL : &alt[i], foul);
        if (score < 0 || score >= best_score) continue;
        best_score = score;
        best = i;
        memcpy(best_later, later, sizeof later);
    }
    if (best_score == 1 << 20) return 0;
    if (!settled) return 1; /* a story, on a view not settled yet: wait for it */
    int nlater = game->n - 1 - k;
    if (b->n + 2 + nlater > GUARD_OBS_MAX_EVENTS - GUARD_MAX_EVENTS) return 1;
    char usi[6], why[96];
    shogi_move_to_usi(foul, usi);
    if (best < 0) {
        snprintf(why, sizeof why, "%s was not made (a misread): the game went on without it", usi);
    } else {
        char usi2[6];
        snprintf(why, sizeof why, "%s was %s (a misread): the game went on from there", usi,
                 shogi_move_to_usi(alt[best], usi2));
    }
    struct shogi_move chosen = best < 0 ? foul : alt[best];
    sobs_truncate(g, k, t, frame, why, b);
    if (best >= 0) {
        if (!sobs_commit(g, chosen, t, frame, "the flagged move read again", b)) return 2;
        game = sobs_game(g);
        sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
    }
    for (int i = 0; i < nlater; i++) {
        if (!sobs_commit(g, best_later[i], t, frame, "", b)) return 2;
        game = sobs_game(g);
        sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
    }
    return 2;
}

int sobs_amend_foul(struct shogi_obs_guard *g, const uint8_t *board, bool settled, int64_t t,
                    uint64_t frame, struct sobs_evbuf *b)
{
    const struct shogi_game *game = sobs_game(g);
    if (!g->open_ply || g->nmoves != game->n) return 0;
    /* the fouls recorded since the first open one, the latest first, each with at least one
       move after it (a foul put right at once is try_restore's) */
    for (int k = game->n - 2; k >= g->open_ply - 1 && game->n - 1 - k <= FOUL_AMEND_PLIES; k--) {
        if (game->plies[k].verdict.rule == SHOGI_LEGAL) continue;
        int r = amend_foul_at(g, k, board, settled, t, frame, b);
        if (r) return r;
    }
    return 0;
}

/* ---- a piece's kind shown by its later move
 * ------------------------------------------------------ A promotion the reader missed (a grey
 * frame shows a promoted face poorly) or read in doubt, a drop read as another kind: the move is
 * recorded as read and nothing flags it. When the piece later moves as only the other kind can (a
 * silver stepping like a gold, a bishop that went promoted, a knight going where only a bishop
 * goes), the board nothing legal explains is explained by the game with that move made the other
 * way: it is amended (taken back and played again with its later moves, said in its comment), and
 * the reader's face where it stood is tolerated as the misread it was, so that the move that proved
 * it is then found. */

/* Plies back a piece's kind may be amended by its later move. */
#define KIND_AMEND_PLIES 8
#define KIND_ALTS        8

/* The moves ply k (the piece's arrival on its square) may have been: promoted instead of not, a
 * drop of another kind its mover held. */
static int kind_alternatives(const struct shogi_position *before, struct shogi_move m,
                             struct shogi_move alt[KIND_ALTS])
{
    int n = 0;
    if (!shogi_move_is_drop(m)) {
        if (m.promote) return 0;
        struct shogi_move q = m;
        q.promote = true;
        if (shogi_is_legal(before, q)) alt[n++] = q;
        return n;
    }
    int c = shogi_piece_color(m.piece), t = shogi_type_base(shogi_piece_type(m.piece));
    for (int u = SHOGI_PAWN; u <= SHOGI_GOLD && n < KIND_ALTS; u++) {
        if (u == t || !before->hand[c][u]) continue;
        struct shogi_move q = m;
        q.piece = (uint8_t)shogi_piece((enum shogi_color)c, (enum shogi_type)u);
        if (shogi_is_legal(before, q)) alt[n++] = q;
    }
    return n;
}

bool sobs_amend_kind_by_move(struct shogi_obs_guard *g, const uint8_t *board, bool settled,
                             int64_t t, uint64_t frame, struct sobs_evbuf *b)
{
    const struct shogi_game *game = sobs_game(g);
    if (g->nmoves != game->n) return false; /* moves before an accepted position: not ours */
    for (int k = game->n - 1; k >= 0 && k >= game->n - KIND_AMEND_PLIES; k--) {
        struct shogi_move m = game->plies[k].move;
        if (game->plies[k].verdict.rule != SHOGI_LEGAL) continue; /* the foul amend's */
        /* the piece still stands where it arrived in the game, and the board shows it gone */
        int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece;
        bool touched = false;
        for (int i = k + 1; i < game->n; i++)
            touched |=
                game->plies[i].move.to == m.to ||
                (!shogi_move_is_drop(game->plies[i].move) && game->plies[i].move.from == m.to);
        if (touched || game->pos.board[m.to] != placed || board[m.to] == placed) continue;
        struct shogi_position before = game->pos;
        for (int i = game->n - 1; i >= k; i--) shogi_undo_move(&before, game->plies[i].move);
        struct shogi_move alt[KIND_ALTS];
        int nalt = kind_alternatives(&before, m, alt);
        for (int a = 0; a < nalt; a++) {
            struct shogi_position p;
            /* the komadai must agree with it as well as with the game as recorded (a pawn
               seen leaving its stand was a pawn, however it moves: a real foul) */
            if (!sobs_replay_with(game, k, alt[a], &p) ||
                sobs_hand_distance(g, &p) > sobs_hand_distance(g, &game->pos))
                continue;
            /* the board from there, the reader's face on the piece's square tolerated: legal
               moves, one of them the piece leaving its square */
            struct shogi_obs_guard *probe = malloc(sizeof *probe);
            if (!probe) return false;
            *probe = *g;
            probe->mask[m.to] = (int16_t)placed;
            int d[SHOGI_SQUARES], na, nd = changed_squares(probe, &p, board, d, &na);
            struct shogi_move seq[SOBS_SEQ_MAX];
            int dist, n = nd ? sobs_find_moves(probe, &p, board, d, na, nd, seq, &dist) : 0;
            free(probe);
            bool leaves = false;
            for (int i = 0; i < n; i++)
                leaves |= !shogi_move_is_drop(seq[i]) && seq[i].from == m.to;
            if (n == 0 || dist >= 1 << 20 || !leaves) continue;
            if (!settled) return true; /* a story, on a view not settled yet: wait for it */
            int nlater = game->n - 1 - k;
            if (b->n + 2 + nlater > GUARD_OBS_MAX_EVENTS - GUARD_MAX_EVENTS) return true;
            struct shogi_move later[KIND_AMEND_PLIES];
            for (int i = 0; i < nlater; i++) later[i] = game->plies[k + 1 + i].move;
            char usi[6], usi2[6], why[120], note[120];
            shogi_move_to_usi(m, usi);
            shogi_move_to_usi(alt[a], usi2);
            snprintf(why, sizeof why, "%s was %s: the piece moved later as only a %s can", usi,
                     usi2,
                     shogi_type_csa(alt[a].promote ? shogi_piece_type(alt[a].piece) + SHOGI_PROMOTED
                                                   : shogi_piece_type(alt[a].piece)));
            snprintf(note, sizeof note, "%s, read as %s: its later move shows it",
                     alt[a].promote ? "promoted" : "the kind dropped", usi);
            sobs_truncate(g, k, t, frame, why, b);
            if (!sobs_commit(g, alt[a], t, frame, note, b)) return true;
            game = sobs_game(g);
            sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
            for (int i = 0; i < nlater; i++) {
                if (!sobs_commit(g, later[i], t, frame, "", b)) return true;
                game = sobs_game(g);
                sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
            }
            /* the face read where it stood: a misread, tolerated (the move that left it is
               then found as the game's piece: sobs_tolerated_move) */
            g->mask[m.to] = (int16_t)placed;
            return true;
        }
    }
    return false;
}

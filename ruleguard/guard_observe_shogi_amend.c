/* ruleguard/guard_observe_shogi_amend.c — a move recorded with the wrong face. Whether a piece
 * promoted is read from its face alone, and a face turned over is read in doubt more than any
 * other change: a move may be confirmed on two doubtful readings of the unpromoted face (or the
 * promoted one) before the sure readings come. When the board then differs from the game only in
 * that face, and the move played the other way explains the board exactly, the move is amended
 * (taken back and played again) rather than explained by moves nobody made. */
#include <stdio.h>
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

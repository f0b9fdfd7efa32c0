/* ruleguard/guard_observe_shogi_explain.c — the believed board against the game's position: a
 * board put back (after a flag, or a finished move taken back: 6), or the moves that explain it
 * (found by _search.c) committed once the readings are sure enough; what nothing explains waits
 * a little, then is flagged and tolerated until it is restored. */
#include <stdio.h>
#include <string.h>

#include "ruleguard/guard_observe_shogi_internal.h"

static int diff(const uint8_t *a, const uint8_t *b, int out[SHOGI_SQUARES])
{
    int n = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (a[sq] != b[sq]) out[n++] = sq;
    return n;
}

static bool in_set(const int *set, int n, int sq)
{
    for (int i = 0; i < n; i++)
        if (set[i] == sq) return true;
    return false;
}

/* The board after the first k plies of the game, replayed as they were played. */
static void board_after(const struct shogi_game *game, int k, struct shogi_position *out)
{
    *out = game->pos;
    for (int i = game->n - 1; i >= k; i--) shogi_undo_move(out, game->plies[i].move);
}

/* The board put back to an earlier position: after an open flag, a restoration (the referee's
 * correction); else, the last move taken back after it was finished: 6). Only when the komadai
 * agree with it at least as well as with the moves that explain the board otherwise (their
 * score, 8 a piece, less what was seen on the squares they pass through): a piece that went away
 * and came back over three moves is no take-back, nor is a drop seen and captured at once. */
static bool try_restore(struct shogi_obs_guard *g, const uint8_t *board, int max_score, int64_t t,
                        uint64_t frame, struct sobs_evbuf *b)
{
    const struct shogi_game *game = sobs_game(g);
    int lowest = g->open_ply ? g->open_ply - 1 : game->n - 1;
    if (lowest < 0) return false;
    struct shogi_position p;
    for (int k = game->n - 1; k >= lowest; k--) {
        board_after(game, k, &p);
        if (memcmp(p.board, board, SHOGI_SQUARES) || sobs_hand_distance(g, &p) * 8 > max_score)
            continue;
        if (g->open_ply && k >= g->open_ply - 1) {
            sobs_truncate(g, k, t, frame, "the board was restored after the flag", b);
            return true;
        }
        int ply = sobs_ply(g);
        if (g->cfg.flag_takeback) {
            struct guard_event *e = sobs_event(b, GUARD_ILLEGAL_MOVE, ply, t, frame);
            if (e) {
                char usi[6];
                struct shogi_move m = game->plies[k].move;
                shogi_move_to_usi(m, usi);
                e->shogi = m;
                e->reason = SHOGI_ILLEGAL_TAKEBACK;
                e->rule_ref = shogi_illegal_name(SHOGI_ILLEGAL_TAKEBACK);
                snprintf(e->text, sizeof e->text, "%s takes %s back after it was finished",
                         sobs_side_name(game->plies[k].mover), usi);
            }
        }
        sobs_truncate(g, k, t, frame, "a finished move taken back", b);
        return true;
    }
    return false;
}

/* After an open flag, the board put back and the game already going on from there (the right
 * move made at once, both seen together): legal moves from the restored position explain the
 * board. The game goes back to it; the moves are then explained as any others. */
static bool restored_and_moved_on(struct shogi_obs_guard *g, const uint8_t *board, int64_t t,
                                  uint64_t frame, struct sobs_evbuf *b)
{
    const struct shogi_game *game = sobs_game(g);
    if (!g->open_ply || g->open_ply - 1 >= game->n) return false;
    struct shogi_position p;
    board_after(game, g->open_ply - 1, &p);
    int d[SHOGI_SQUARES], nd = diff(board, p.board, d);
    if (nd == 0) return false; /* put back exactly: try_restore's */
    struct shogi_move seq[SOBS_SEQ_MAX];
    int dist;
    if (!sobs_find_moves(g, &p, board, d, nd, nd, seq, &dist) || dist >= 1 << 20) return false;
    sobs_truncate(g, g->open_ply - 1, t, frame, "the board was restored after the flag", b);
    return true;
}

/* A piece of the side not to move, moved in a way its owner's piece cannot but the side to
 * move's piece of that type can: the side to move moved the opponent's piece (7), not its
 * opponent twice (9). */
static struct shogi_move who_moved(const struct shogi_position *pos, struct shogi_move m)
{
    if (shogi_move_is_drop(m) || shogi_piece_color(m.piece) == pos->side) return m;
    enum shogi_type t = shogi_piece_type(m.piece);
    struct shogi_position q = *pos;
    q.side ^= 1;
    struct shogi_verdict as_owner = shogi_check_move(&q, m);
    if (as_owner.fault != SHOGI_FAULT_CANNOT_REACH) return m;
    struct shogi_position r = *pos;
    struct shogi_move own = m;
    own.piece = (uint8_t)shogi_piece((enum shogi_color)pos->side, t);
    r.board[m.from] = own.piece;
    if (m.captured && shogi_piece_color(m.captured) == pos->side) return m;
    shogi_position_refresh(&r);
    if (shogi_check_move(&r, own).fault == SHOGI_FAULT_CANNOT_REACH) return m;
    struct shogi_move claimed = m;
    claimed.piece = own.piece; /* the rules core reads this as 7) */
    return claimed;
}

/* Could the square a piece just appeared on have been reached from a square still being
 * confirmed empty (its origin, read once)? Then it is no drop yet. */
static bool origin_pending(const struct shogi_obs_guard *g, struct shogi_move m)
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        const struct sobs_square *s = &g->sq[sq];
        if (!s->cand.active || !s->belief) continue;
        bool read_empty =
            s->cand.value == SHOGI_EMPTY || (s->cand.alt_n && s->cand.alt == SHOGI_EMPTY);
        if ((read_empty && shogi_piece_color(s->belief) == shogi_piece_color(m.piece)) ||
            s->belief == m.piece)
            return true;
    }
    return false;
}

/* Is a piece of color being read on an empty square, not yet confirmed? A move out of turn (a
 * piece gone, read as taken by a second move of the other side) may be the reply of the side to
 * move, still arriving. */
static bool arrival_pending(const struct shogi_obs_guard *g, int color)
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        const struct sobs_square *s = &g->sq[sq];
        if (s->cand.active && s->belief == SHOGI_EMPTY && s->cand.value != SHOGI_EMPTY &&
            (int)shogi_piece_color((int)s->cand.value) == color)
            return true;
    }
    return false;
}

/* Is the explanation sure enough to commit now? The squares the moves stand on must be settled.
 * A legal board move is then. A drop needs its komadai to show the piece gone, or else no square
 * still being read empty that the piece might have come from, and a clean view with a sure
 * reading of the piece, or the change to have lasted long (two doubtful misreads of an empty
 * square in a row look like a drop, and so does a move from a square hidden by a hand). An illegal
 * move needs a sure reading of its squares and no square of the mover's still being read empty (the
 * move may be another), or the change to have lasted. Waiting has a limit. */
static bool ready(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                  const struct shogi_move *seq, int n, bool flushing)
{
    int limit = g->cfg.max_wait_obs;
    /* at the end nothing more will come: no waiting, but a square still read empty where the
       piece may have come from still says it was no drop */
    bool waited = flushing || g->wait >= limit, waited_long = flushing || g->wait >= 3 * limit;
    struct shogi_position p = *pos;
    for (int i = 0; i < n; i++) {
        struct shogi_move m = seq[i];
        bool drop = shogi_move_is_drop(m);
        if (!waited_long && (g->sq[m.to].cand.active || (!drop && g->sq[m.from].cand.active)))
            return false;
        bool weak = g->sq[m.to].weak || (!drop && g->sq[m.from].weak);
        bool legal = shogi_is_legal(&p, m);
        if (!legal && !waited &&
            (weak || !shogi_move_is_playable(&p, m) || origin_pending(g, m) ||
             ((int)shogi_piece_color(m.piece) != p.side && arrival_pending(g, p.side))))
            return false;
        if (drop) {
            int c = shogi_piece_color(m.piece), t = shogi_type_base(shogi_piece_type(m.piece));
            bool hand_shows = t >= SHOGI_PAWN && t <= SHOGI_GOLD &&
                              g->hand[c].belief[t] + sobs_pending_count(g, c, t) < p.hand[c][t];
            bool seen_well = g->last_clean && !g->sq[m.to].weak;
            /* read weakly, but answered by a move of the opponent read well (a misread of an
               empty square is answered by nothing): once the change has lasted a little */
            bool answered = false;
            for (int j = i + 1; j < n && waited; j++)
                answered |= (int)shogi_piece_color(seq[j].piece) != c && !g->sq[seq[j].to].weak &&
                            (shogi_move_is_drop(seq[j]) || !g->sq[seq[j].from].weak);
            if (!hand_shows && (origin_pending(g, m) || !(seen_well || waited_long || answered)))
                return false;
            /* its komadai seen just now still holding the piece, and the square read in doubt:
               a misread of an empty square, read twice, looks just like it; wait for the change
               to last */
            bool hand_holds = t >= SHOGI_PAWN && t <= SHOGI_GOLD &&
                              g->hand[c].read_obs == g->nobs &&
                              g->hand[c].last_read[t] >= p.hand[c][t];
            if (hand_holds && g->sq[m.to].doubt && !waited_long) return false;
            /* a drop that breaks a rule, its komadai still showing the piece: a misread of an
               empty square read twice looks just like it; a flag waits for the change to last.
               A piece captured and dropped straight from the hand that took it never showed on
               the komadai: read surely, it is there. */
            bool from_capture = g->hand[c].belief[t] < p.hand[c][t] && !g->sq[m.to].doubt;
            if (!hand_shows && !from_capture && !legal && !waited_long) return false;
        }
        shogi_do_move(&p, m);
    }
    return true;
}

/* ---- an illegal drop taken back before it was judged ----
 * An illegal drop of the side to move waits for its komadai to show the piece gone, or for the
 * change to last (ready): a misread of an empty square looks just like it. A player who takes it
 * back at once (within about 1.5 s) still made it: a drop is finished when the piece is let go, and
 * taking it back is no way out of its foul. Such a drop is flagged (not recorded) when the board
 * is put back to the game's position, or the game goes on from there with legal moves that leave
 * its square alone, once it was read surely in every reading of at least two settled views (clean
 * views, the square read surely empty again), and its komadai was never read still holding the
 * piece. Read in one view only, or in doubt, it is taken for the misread it may be. */

/* Keep (or count) the one illegal drop of the side to move that explains the board, waiting. */
static void hold_drop(struct shogi_obs_guard *g, const struct shogi_position *pos,
                      const struct shogi_move *seq, int n, int64_t t, uint64_t frame)
{
    struct sobs_held_drop *h = &g->held;
    struct shogi_move m = seq[0];
    if (n != 1 || !shogi_move_is_drop(m) || (int)shogi_piece_color(m.piece) != pos->side ||
        !shogi_move_is_playable(pos, m) || shogi_is_legal(pos, m)) {
        h->on = false;
        return;
    }
    int ply = sobs_game(g)->n;
    if (!h->on || h->n != ply || h->m.to != m.to || h->m.piece != m.piece) {
        memset(h, 0, sizeof *h);
        h->on = true;
        h->m = m;
        h->n = ply;
        h->t = t;
        h->frame = frame;
    }
    const struct sobs_square *s = &g->sq[m.to];
    if (s->doubt || s->weak || s->kind_doubt) h->doubted = true;
    /* only what this reading shows with the piece on its square (the first reading of the
       board put back still has it believed there, its komadai full again) */
    if (s->belief != m.piece || s->cand.active || s->last_read != m.piece) return;
    int c = shogi_piece_color(m.piece), ty = shogi_type_base(shogi_piece_type(m.piece));
    if (ty >= SHOGI_PAWN && ty <= SHOGI_GOLD && g->hand[c].read_obs == g->nobs &&
        g->hand[c].last_read[ty] >= pos->hand[c][ty])
        h->hand_holds = true;
    if (g->view_held && g->last_clean && s->last_sure) h->views++;
}

/* The drop held is gone from the board (put back, perhaps with the game's next moves seq[0..n),
 * legal, already made): flagged when it was read surely long enough (see above). */
static void judge_held_drop(struct shogi_obs_guard *g, const uint8_t *board,
                            const struct shogi_move *seq, int n, bool legal, struct sobs_evbuf *b)
{
    struct sobs_held_drop *h = &g->held;
    if (!h->on) return;
    const struct shogi_game *game = sobs_game(g);
    if (h->n == game->n && board[h->m.to] == h->m.piece) return; /* still there: waiting */
    h->on = false;
    const struct sobs_square *s = &g->sq[h->m.to];
    if (h->n != game->n || h->views < 2 || h->doubted || h->hand_holds || !legal ||
        board[h->m.to] != SHOGI_EMPTY || s->belief != SHOGI_EMPTY || s->doubt || !s->last_sure ||
        !g->last_clean)
        return;
    for (int i = 0; i < n; i++)
        if (seq[i].to == h->m.to || (!shogi_move_is_drop(seq[i]) && seq[i].from == h->m.to)) return;
    struct shogi_verdict v = shogi_check_move(&game->pos, h->m);
    if (v.rule == SHOGI_LEGAL || v.rule == SHOGI_ILLEGAL_OUT_OF_TURN) return;
    struct guard_event *e = sobs_event(b, GUARD_ILLEGAL_MOVE, sobs_ply(g) + 1, h->t, h->frame);
    if (!e) return;
    char usi[6];
    shogi_move_to_usi(h->m, usi);
    const char *detail = shogi_fault_text(v.fault);
    e->shogi = h->m;
    e->reason = (int)v.rule;
    e->rule_ref = shogi_illegal_name(v.rule);
    snprintf(e->text, sizeof e->text,
             "%s %s: %.60s; taken back before it was judged (not recorded)",
             sobs_side_name(shogi_piece_color(h->m.piece)), usi,
             detail[0] ? detail : shogi_illegal_name(v.rule));
}

static uint64_t signature(const int *d, int nd, const uint8_t *board)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < nd; i++) h = (h ^ (uint64_t)(d[i] * 64 + board[d[i]])) * 1099511628211ull;
    return h;
}

static void doubt_note(const struct shogi_obs_guard *g, struct shogi_move m, bool flushing,
                       char *out, size_t len)
{
    out[0] = '\0';
    bool doubt = g->sq[m.to].doubt || (!shogi_move_is_drop(m) && g->sq[m.from].doubt);
    if (flushing)
        snprintf(out, len, "judged at the end of the observations%s",
                 doubt ? ", read in doubt" : "");
    else if (doubt)
        snprintf(out, len, "read in doubt");
}

/* A piece that moved and changed into another (a silver become a gold, a promoted piece turned
 * back): 5), flagged as seen; no move the rules core could play, so tolerated until put right. */
static bool changed_face(struct shogi_obs_guard *g, const struct shogi_game *game,
                         struct shogi_move m, int64_t t, uint64_t frame, struct sobs_evbuf *b)
{
    uint8_t board[SHOGI_SQUARES];
    sobs_belief_board(g, board);
    struct shogi_move inferred;
    struct shogi_verdict v;
    if (shogi_move_is_drop(m) || !shogi_infer_move(&game->pos, board, &inferred, &v) ||
        (v.fault != SHOGI_FAULT_WRONG_PIECE && v.fault != SHOGI_FAULT_UNPROMOTE))
        return false;
    /* its face on the square it left already tolerated as misread: the face it arrived with is
       named after that one, no evidence of a change (search.c) */
    struct shogi_move as_game;
    if (sobs_tolerated_move(g, &game->pos, inferred, board[inferred.to], &as_game)) return false;
    struct guard_event *e = sobs_event(b, GUARD_ILLEGAL_MOVE, sobs_ply(g) + 1, t, frame);
    if (e) {
        char from[4], to[4];
        sobs_square_name(m.from, from);
        sobs_square_name(m.to, to);
        e->shogi = m;
        e->reason = SHOGI_ILLEGAL_IMPOSSIBLE;
        e->rule_ref = shogi_illegal_name(SHOGI_ILLEGAL_IMPOSSIBLE);
        snprintf(e->text, sizeof e->text, "%s's %s moved %s-%s and became a %s: %s",
                 sobs_side_name(shogi_piece_color(m.piece)),
                 shogi_type_csa(shogi_piece_type(m.piece)), from, to,
                 shogi_type_csa(shogi_piece_type(board[m.to])), shogi_fault_text(v.fault));
    }
    g->mask[m.from] = g->sq[m.from].belief;
    g->mask[m.to] = g->sq[m.to].belief;
    return true;
}

static void commit_all(struct shogi_obs_guard *g, const struct shogi_move *seq, int n, int64_t t,
                       uint64_t frame, bool flushing, struct sobs_evbuf *b)
{
    for (int i = 0; i < n; i++) {
        const struct shogi_game *game = sobs_game(g);
        struct shogi_move m = who_moved(&game->pos, seq[i]);
        if (n == 1 && changed_face(g, game, m, t, frame, b)) return;
        char note[128];
        doubt_note(g, m, flushing, note, sizeof note);
        /* a drop of another kind than the square reads (the kind its komadai show gone, or the
           one its hand holds that fits: search.c), no later move on its square: the square's
           reading tolerated until the piece moves on */
        bool later = false; /* a later move of seq leaves or takes the square */
        for (int j = i + 1; j < n; j++)
            later |= seq[j].to == m.to || (!shogi_move_is_drop(seq[j]) && seq[j].from == m.to);
        bool retyped =
            !later && shogi_move_is_drop(m) && g->sq[m.to].belief && g->sq[m.to].belief != m.piece;
        /* a piece whose face was tolerated as misread, moved on: the face it arrived with is
           tolerated too (search.c, sobs_tolerated_move) */
        int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece;
        bool carried = !later && !shogi_move_is_drop(m) && g->mask[m.from] >= 0 &&
                       g->sq[m.to].belief && g->sq[m.to].belief != placed &&
                       shogi_piece_color(g->sq[m.to].belief) == shogi_piece_color(placed);
        if (retyped) {
            size_t len = strlen(note);
            snprintf(note + len, sizeof note - len, "%sits face read as %s", len ? ", " : "",
                     shogi_type_csa(shogi_piece_type(g->sq[m.to].belief)));
        }
        if (!sobs_commit(g, m, t, frame, note, b)) {
            /* not even playable (a drop of a piece not in hand): flagged, tolerated until the
             * board is put right */
            g->mask[m.to] = g->sq[m.to].belief;
            if (!shogi_move_is_drop(m)) g->mask[m.from] = g->sq[m.from].belief;
            return;
        }
        if (retyped || carried) g->mask[m.to] = g->sq[m.to].belief;
        game = sobs_game(g);
        const struct shogi_ply *ply = &game->plies[game->n - 1];
        sobs_capture_made(g, ply->move, game->n, t, frame);
    }
}

/* A move not seen (the likeliest of alt, the others in its note), then seq after it, once seq's
 * readings are settled on the position that move leaves. */
static void commit_after_unseen(struct shogi_obs_guard *g, const struct shogi_position *pos,
                                const struct shogi_move *alt, int nalt, int total,
                                const struct shogi_move *seq, int n, int64_t t, uint64_t frame,
                                bool flushing, struct sobs_evbuf *b)
{
    struct shogi_position after = *pos;
    shogi_do_move(&after, alt[0]);
    /* the moves seen, their captures as the unseen move leaves the board (it may have taken
       the piece they take: sobs_unseen_moves) */
    struct shogi_move seen[SOBS_SEQ_MAX];
    struct shogi_position q = after;
    for (int i = 0; i < n && i < SOBS_SEQ_MAX; i++) {
        seen[i] = seq[i];
        if (!shogi_move_is_drop(seen[i])) seen[i].captured = q.board[seen[i].to];
        if (shogi_move_is_playable(&q, seen[i])) shogi_do_move(&q, seen[i]);
    }
    if (ready(g, &after, seen, n, flushing) && sobs_unseen_commit(g, alt, nalt, total, t, frame, b))
        commit_all(g, seen, n, t, frame, flushing, b);
}

/* Legal moves that explain the board once readings in doubt are taken for misreads
 * (sobs_find_moves_doubt): only on a settled board seen again, committed when ready, noted as
 * read in doubt; the readings overruled then tolerated (masked) until the square reads
 * otherwise (a later sure reading of another piece there is evidence again). */
static bool commit_doubted(struct shogi_obs_guard *g, const struct shogi_position *pos,
                           const uint8_t *board, const int *d, int nd, int64_t t, uint64_t frame,
                           bool flushing, struct sobs_evbuf *b)
{
    /* only on a settled board seen again (nothing still being read: a move half seen is no
       story to guess), and not at the end's last readings */
    if (sobs_any_candidate(g) || !g->last_clean || (!flushing && g->wait < g->cfg.max_wait_obs))
        return false;
    struct shogi_move seq[SOBS_SEQ_MAX];
    int n = sobs_find_moves_doubt(g, pos, board, d, nd, seq);
    if (n == 0) return false;
    if (!ready(g, pos, seq, n, flushing)) return true; /* wait, flag nothing yet */
    int n0 = b->n;
    commit_all(g, seq, n, t, frame, flushing, b);
    for (int e = n0; e < b->n; e++)
        if (b->ev[e].kind == GUARD_MOVE && !strstr(b->ev[e].text, "in doubt")) {
            size_t len = strlen(b->ev[e].text);
            snprintf(b->ev[e].text + len, sizeof b->ev[e].text - len, " (read in doubt)");
        }
    /* the readings overruled: tolerated as misreads until the square reads otherwise */
    const struct shogi_position *now = &sobs_game(g)->pos;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (g->sq[sq].belief != now->board[sq] && sobs_read_in_doubt(g, sq))
            g->mask[sq] = g->sq[sq].belief;
    return true;
}

static void flag_disturbed(struct shogi_obs_guard *g, const int *d, int nd, int64_t t,
                           uint64_t frame, struct sobs_evbuf *b)
{
    struct guard_event *e = sobs_event(b, GUARD_BOARD_DISTURBED, sobs_ply(g), t, frame);
    if (e) {
        e->rule_ref = "no move explains the change";
        int len = snprintf(e->text, sizeof e->text, "%d square%s changed without a move:", nd,
                           nd == 1 ? "" : "s");
        for (int i = 0; i < nd && len < (int)sizeof e->text - 8; i++) {
            char name[4];
            sobs_square_name(d[i], name);
            len += snprintf(e->text + len, sizeof e->text - (size_t)len, " %s", name);
        }
    }
    for (int i = 0; i < nd; i++) g->mask[d[i]] = g->sq[d[i]].belief;
}

/* The piece of the other owner that the same piece is (its face turned round). */
static int turned(int piece)
{
    return piece ? shogi_piece((enum shogi_color)(shogi_piece_color(piece) ^ 1),
                               shogi_piece_type(piece))
                 : SHOGI_EMPTY;
}

/* After m (its piece lying turned on m.to in q), legal moves of the opponent first (up to
 * SOBS_SEQ_MAX, none touching m.to) explain the rest of the board: the turned piece was seen for
 * too short a while before the game went on. */
static bool answered_after(const struct shogi_obs_guard *g, const struct shogi_position *q,
                           struct shogi_move m, const uint8_t *board)
{
    struct shogi_position r = *q;
    shogi_position_refresh(&r);
    int d[SHOGI_SQUARES], nd = diff(board, r.board, d);
    if (nd == 0 || in_set(d, nd, m.to)) return false;
    struct shogi_move seq[SOBS_SEQ_MAX];
    int dist;
    int n = sobs_find_moves(g, &r, board, d, nd, nd, seq, &dist);
    return n > 0 && dist < 1 << 20 && (int)shogi_piece_color(seq[0].piece) == r.side;
}

/* A legal move of the side to move whose piece lies turned where it went (it points at its
 * owner's side, read as the opponent's piece): the move is made (recorded), the piece put down
 * turned is a foul of 5) (Turnierregeln: a piece set down the wrong way) and flagged, and its
 * reading tolerated until it is turned right (a drop only when the mover's komadai show the
 * piece gone). A piece already lying turned (its reading
 * tolerated so) that moves on turned is no new foul. Waits (true, nothing done) while the view
 * is not settled. */
static bool put_down_turned(struct shogi_obs_guard *g, const struct shogi_position *pos,
                            const uint8_t *board, bool settled, int64_t t, uint64_t frame,
                            struct sobs_evbuf *b)
{
    struct shogi_move all[SHOGI_MAX_MOVES];
    int na = shogi_legal_moves(pos, all), found = -1;
    for (int i = 0; i < na; i++) {
        struct shogi_move m = all[i];
        int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece;
        /* a capture whose square reads as before (the piece taken, of the type that took it):
           the capturer read with the old owner, no evidence it lies turned */
        if (board[m.to] != turned(placed) || board[m.to] == pos->board[m.to]) continue;
        struct shogi_position q = *pos;
        shogi_do_move(&q, m);
        q.board[m.to] = (uint8_t)turned(placed);
        if (memcmp(q.board, board, SHOGI_SQUARES) && !answered_after(g, &q, m, board)) continue;
        /* a drop: the opponent's piece dropped out of turn looks the same on the board; only
           the mover's komadai, seen without the piece, tell it was the mover's */
        if (shogi_move_is_drop(m) && sobs_hand_distance(g, &q) >= sobs_hand_distance(g, pos))
            continue;
        if (found >= 0) return false; /* two moves end so: no story */
        found = i;
    }
    if (found < 0) return false;
    if (!settled) return true;
    struct shogi_move m = all[found];
    int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece;
    bool already = !shogi_move_is_drop(m) && g->mask[m.from] == turned(pos->board[m.from]);
    if (!sobs_commit(g, m, t, frame, already ? "its piece lies turned" : "", b)) return true;
    const struct shogi_game *game = sobs_game(g);
    sobs_capture_made(g, game->plies[game->n - 1].move, game->n, t, frame);
    g->mask[m.to] = (int16_t)turned(placed);
    if (already) return true;
    struct guard_event *e = sobs_event(b, GUARD_ILLEGAL_MOVE, sobs_ply(g), t, frame);
    if (e) {
        char usi[6], to[4];
        shogi_move_to_usi(m, usi);
        sobs_square_name(m.to, to);
        e->shogi = m;
        e->reason = SHOGI_ILLEGAL_IMPOSSIBLE;
        e->rule_ref = shogi_illegal_name(SHOGI_ILLEGAL_IMPOSSIBLE);
        snprintf(e->text, sizeof e->text, "%s %s: the %s is put down on %s turned (pointing at %s)",
                 sobs_side_name(shogi_piece_color(m.piece)), usi,
                 shogi_type_csa(shogi_piece_type(placed)), to,
                 sobs_side_name(shogi_piece_color(m.piece)));
    }
    return true;
}

/* The moves from squares out of the picture that explain the board (sobs_arrived_from_dark) are
 * one arrival: every one of them ends on the same square, whose face is read in doubt (a piece
 * surely there, which one not). Which unread piece came is no foul to flag: the likeliest is
 * recorded, the others kept to amend it. The one whose face was read (promoted alike) first. */
static bool one_arrival_in_doubt(const struct shogi_obs_guard *g, const uint8_t *board,
                                 struct shogi_move *alt, int nalt, int total)
{
    int to = alt[0].to;
    if (nalt != total || !sobs_read_in_doubt(g, to)) return false;
    for (int i = 1; i < nalt; i++)
        if (alt[i].to != to) return false;
    for (int i = 1; i < nalt; i++) {
        int placed = alt[i].promote ? alt[i].piece + SHOGI_PROMOTED : alt[i].piece;
        if (placed != board[to]) continue;
        struct shogi_move read = alt[i];
        memmove(alt + 1, alt, (size_t)i * sizeof alt[0]);
        alt[0] = read;
        break;
    }
    return true;
}

/* The side to move's legal move seen whole (its origin read empty, its piece read where it went,
 * both changed), then a piece of the other side arrived from the dark (sobs_arrived_from_dark,
 * one such arrival or one_arrival_in_doubt): the reply came before the view settled. The one such
 * move into *first, the arrival's alternatives into alt; false when none, or two moves do. */
static bool seen_before_arrival(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                                const uint8_t *board, const int *d, int nd,
                                struct shogi_move *first, struct shogi_move alt[SOBS_UNSEEN_ALTS],
                                int *nalt, int *total, struct shogi_move rest[SOBS_SEQ_MAX],
                                int *nrest)
{
    struct shogi_move all[SHOGI_MAX_MOVES];
    int na = shogi_legal_moves(pos, all), found = 0;
    for (int i = 0; i < na && found < 2; i++) {
        struct shogi_move m = all[i];
        int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece;
        if (shogi_move_is_drop(m) || board[m.to] != placed || board[m.from] != SHOGI_EMPTY ||
            !in_set(d, nd, m.to) || !in_set(d, nd, m.from))
            continue;
        struct shogi_position q = *pos;
        shogi_do_move(&q, m);
        struct shogi_move a[SOBS_UNSEEN_ALTS], r[SOBS_SEQ_MAX];
        int tot = 0, nr = 0, k = sobs_arrived_from_dark(g, &q, board, a, &tot, r, &nr);
        if (k == 0 || (tot > 1 && !one_arrival_in_doubt(g, board, a, k, tot))) continue;
        if (found++) return false;
        *first = m;
        memcpy(alt, a, (size_t)k * sizeof a[0]);
        memcpy(rest, r, (size_t)nr * sizeof r[0]);
        *nalt = k, *total = tot, *nrest = nr;
    }
    return found == 1;
}

void sobs_explain(struct shogi_obs_guard *g, int64_t t, uint64_t frame, enum sobs_mode mode,
                  struct sobs_evbuf *b)
{
    bool flushing = mode != SOBS_OBSERVING;
    if (b->n + GUARD_MAX_EVENTS * SOBS_SEQ_MAX + 2 > GUARD_OBS_MAX_EVENTS) return;
    const struct shogi_position *pos = &sobs_game(g)->pos;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (g->mask[sq] >= 0 && g->sq[sq].belief == pos->board[sq]) g->mask[sq] = -1;
    uint8_t board[SHOGI_SQUARES];
    sobs_belief_board(g, board);
    int d[SHOGI_SQUARES];
    int nd = diff(board, pos->board, d);
    if (nd == 0) {
        if (mode != SOBS_FLUSH_SEEN) judge_held_drop(g, board, NULL, 0, true, b);
        g->wait = 0;
        g->wait_sig = 0;
        return;
    }
    uint64_t sig = signature(d, nd, board);
    if (sig != g->wait_sig) {
        g->wait_sig = sig;
        g->wait = 0;
    } else {
        g->wait++;
    }
    /* the moves may pass through squares read differently of late that are back as they were
     * (a piece that went and came back, each state seen too briefly to be believed) */
    int a[SHOGI_SQUARES];
    int na = nd;
    memcpy(a, d, (size_t)nd * sizeof d[0]);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (g->sq[sq].touched_obs && g->nobs - g->sq[sq].touched_obs <= SOBS_TOUCHED_OBS &&
            !in_set(d, nd, sq))
            a[na++] = sq;
    struct shogi_move seq[SOBS_SEQ_MAX];
    int legal_dist;
    int n = sobs_find_moves(g, pos, board, a, na, nd, seq, &legal_dist);
    if (mode != SOBS_FLUSH_SEEN)
        judge_held_drop(g, board, seq, n, n > 0 && legal_dist < 1 << 20, b);
    if (mode != SOBS_FLUSH_SEEN && try_restore(g, board, legal_dist, t, frame, b)) return;
    if (mode != SOBS_FLUSH_SEEN && (n == 0 || legal_dist >= 1 << 20) &&
        restored_and_moved_on(g, board, t, frame, b)) {
        sobs_explain(g, t, frame, mode, b); /* the moves, from the restored game */
        return;
    }
    if (mode != SOBS_FLUSH_SEEN &&
        sobs_try_amend_promotion(g, board, n, legal_dist < 1 << 20, t, frame, b)) {
        sobs_explain(g, t, frame, mode, b); /* the rest, from the amended game */
        return;
    }
    if (mode != SOBS_FLUSH_SEEN &&
        sobs_unseen_amend(g, board, nd, n > 0 && legal_dist < 1 << 20, t, frame, b)) {
        sobs_explain(g, t, frame, mode, b); /* the rest, from the amended game */
        return;
    }
    /* nothing legal explains the board as read, but a legal move does with its piece lying
       turned where it went: the move, and a foul of 5) */
    if ((n == 0 || legal_dist >= 1 << 20) && mode != SOBS_FLUSH_SEEN) {
        bool settled = flushing || (g->wait >= g->cfg.max_wait_obs &&
                                    (!sobs_any_candidate(g) || g->wait >= 3 * g->cfg.max_wait_obs));
        int before = sobs_game(g)->n;
        if (put_down_turned(g, pos, board, settled, t, frame, b)) {
            if (sobs_game(g)->n != before)
                sobs_explain(g, t, frame, mode, b); /* the moves that answered it */
            return;
        }
    }
    /* nothing legal explains the board from the game, but does once a move recorded unpromoted
       (or a drop's kind) is made the other way: the piece moved as only that kind can */
    if ((n == 0 || legal_dist >= 1 << 20) && mode != SOBS_FLUSH_SEEN) {
        bool settled = flushing || (g->wait >= g->cfg.max_wait_obs &&
                                    (!sobs_any_candidate(g) || g->wait >= 3 * g->cfg.max_wait_obs));
        int before = b->n;
        if (sobs_amend_kind_by_move(g, board, settled, t, frame, b)) {
            if (b->n != before) sobs_explain(g, t, frame, mode, b); /* the move that showed it */
            return;
        }
    }
    /* nothing legal explains the board from the game, but does once a foul recorded a few
       moves ago is read as the misread it was: the foul amended, on a settled view */
    if ((n == 0 || legal_dist >= 1 << 20) && mode != SOBS_FLUSH_SEEN) {
        bool settled =
            flushing || (!sobs_any_candidate(g) && g->last_clean && g->wait >= g->cfg.max_wait_obs);
        int amended = sobs_amend_foul(g, board, settled, t, frame, b);
        if (amended == 2) sobs_explain(g, t, frame, mode, b); /* the rest, from the amended game */
        if (amended) return;
    }
    if (n > 0 && mode == SOBS_FLUSH_SEEN) { /* legal moves only, a drop shown by its komadai */
        struct shogi_move one;
        struct shogi_verdict v;
        if (n == 1 && shogi_infer_move(pos, board, &one, &v) && v.rule != SHOGI_LEGAL) return;
        struct shogi_position p = *pos;
        for (int i = 0; i < n; i++) {
            struct shogi_move m = seq[i];
            if (!shogi_is_legal(&p, m)) return;
            int c = shogi_piece_color(m.piece), ty = shogi_type_base(shogi_piece_type(m.piece));
            if (shogi_move_is_drop(m) &&
                (ty < SHOGI_PAWN || ty > SHOGI_GOLD ||
                 g->hand[c].belief[ty] + sobs_pending_count(g, c, ty) >= p.hand[c][ty]))
                return;
            shogi_do_move(&p, m);
        }
    }
    /* nothing legal explains the board as read, but legal moves do when readings in doubt are
       misreads: those moves (a piece that arrived read as the one it took, a drop's face) */
    if ((n == 0 || legal_dist >= 1 << 20) && mode != SOBS_FLUSH_SEEN &&
        commit_doubted(g, pos, board, d, nd, t, frame, flushing, b))
        return;
    /* nothing legal explains it: a move seen leaving only (its end unread since), then the
       opponent's, is no foul (the reader hid where the piece went) */
    if ((n == 0 || legal_dist >= 1 << 20) && mode != SOBS_FLUSH_SEEN) {
        struct shogi_move alt[SOBS_UNSEEN_ALTS], rest[SOBS_SEQ_MAX];
        int total = 0, nrest = 0, nalt = sobs_half_seen(g, pos, board, alt, &total, rest, &nrest);
        if (nalt > 0) {
            commit_after_unseen(g, pos, alt, nalt, total, rest, nrest, t, frame, flushing, b);
            return;
        }
    }
    /* nothing legal explains it: a piece of the side to move arrived from a square out of the
       picture (its face perhaps misread: the reader never saw it leave), then the opponent's
       moves: the one such move, on a settled view */
    if ((n == 0 || legal_dist >= 1 << 20) && mode != SOBS_FLUSH_SEEN) {
        struct shogi_move alt[SOBS_UNSEEN_ALTS], rest[SOBS_SEQ_MAX];
        int total = 0, nrest = 0;
        struct shogi_move first;
        struct shogi_position from = *pos;
        int nalt = sobs_arrived_from_dark(g, pos, board, alt, &total, rest, &nrest);
        bool one = nalt > 0 && (total == 1 || one_arrival_in_doubt(g, board, alt, nalt, total));
        bool after_seen =
            !one && nalt == 0 &&
            seen_before_arrival(g, pos, board, d, nd, &first, alt, &nalt, &total, rest, &nrest);
        if (one || after_seen) {
            /* settled: read again and again, or the last reading of a view the settler held
               still (a view per move: the next one shows the next move) */
            bool settled = flushing || (!sobs_any_candidate(g) && g->last_clean &&
                                        (g->wait >= g->cfg.max_wait_obs || g->view_held));
            if (!settled) return;
            if (after_seen) {
                if (!ready(g, pos, &first, 1, flushing)) return;
                shogi_do_move(&from, first);
            }
            struct shogi_position after = from;
            shogi_do_move(&after, alt[0]);
            if (!ready(g, &after, rest, nrest, flushing)) return;
            if (after_seen) {
                int before = sobs_game(g)->n;
                commit_all(g, &first, 1, t, frame, flushing, b);
                if (sobs_game(g)->n == before) return;
            }
            if (sobs_arrived_commit(g, alt, nalt, t, frame, b))
                commit_all(g, rest, nrest, t, frame, flushing, b);
            return;
        }
    }
    if (n > 0) {
        /* at the end, an illegal move needs every reading settled */
        bool reading_here = false;
        for (int i = 0; i < n; i++)
            reading_here |= g->sq[seq[i].to].cand.active ||
                            (!shogi_move_is_drop(seq[i]) && g->sq[seq[i].from].cand.active);
        if (mode == SOBS_FLUSH_CONFIRMED && legal_dist >= 1 << 20 && reading_here) return;
        /* out of turn, while a move of the side to move may lie wholly out of the picture: that
           move not seen, then these */
        struct shogi_move alt[SOBS_UNSEEN_ALTS];
        int total = 0, nalt = sobs_unseen_moves(g, pos, seq, n, alt, &total);
        if (nalt > 0) {
            commit_after_unseen(g, pos, alt, nalt, total, seq, n, t, frame, flushing, b);
            return;
        }
        /* a foul, while legal board moves explain the board once readings in doubt are
           misreads (a piece that took read as the one it took): that story is judged on a
           settled board (commit_doubted, once the change has lasted); the foul waits for it. A
           story with a drop in it is none (a drop read nowhere, made up to fit) */
        struct shogi_move dseq[SOBS_SEQ_MAX];
        int ndseq = 0;
        if (!flushing && legal_dist >= 1 << 20 && g->wait < g->cfg.max_wait_obs)
            ndseq = sobs_find_moves_doubt(g, pos, board, d, nd, dseq);
        bool board_moves = ndseq > 0;
        for (int i = 0; i < ndseq; i++) board_moves &= !shogi_move_is_drop(dseq[i]);
        if (board_moves) return;
        if (ready(g, pos, seq, n, flushing))
            commit_all(g, seq, n, t, frame, flushing, b);
        else if (!flushing)
            hold_drop(g, pos, seq, n, t, frame);
        return;
    }
    /* at the end, what is still being read is judged with the readings seen, not flagged */
    if (mode == SOBS_FLUSH_SEEN || (mode == SOBS_FLUSH_CONFIRMED && sobs_any_candidate(g))) return;
    /* a reading still being confirmed may complete a move: wait for it (within reason) */
    bool reading = sobs_any_candidate(g) && g->wait < 3 * g->cfg.max_wait_obs;
    if (!flushing && (!g->last_clean || g->wait < g->cfg.max_wait_obs || reading)) return;
    flag_disturbed(g, d, nd, t, frame, b);
}

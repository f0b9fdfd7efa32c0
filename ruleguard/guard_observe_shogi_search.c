/* ruleguard/guard_observe_shogi_search.c — which moves explain a change of the believed board:
 * one legal move, a few legal moves each seen too briefly to be believed (through squares read
 * differently of late), an illegal move alone or before or after legal ones; among equals the
 * komadai decide, then the faces seen on the way (ruleguard/guard_observe_shogi_internal.h). */
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

/* The search for moves that explain a change: the squares that changed, and the best sequence so
 * far (the one whose komadai agree best with the ones seen: which piece was dropped, which one
 * captured). */
struct search {
    const struct shogi_obs_guard *g;
    const uint8_t *board;
    const int *d;
    int nd;
    int nchanged; /* d[0..nchanged) changed; the rest were read differently of late */
    bool last_any;
    struct shogi_move cur[SOBS_SEQ_MAX], best[SOBS_SEQ_MAX];
    int nbest, best_score;
    int best_hand;  /* the best story's komadai distance */
    bool best_sure; /* ... and every state it passes through was read surely */
    int hidden;     /* a square a piece may have passed through unseen, or -1 */
};

/* How far the komadai of p are from the ones believed (captures on their way count as there). A
 * komadai never read (out of the picture, or not read at all) is no evidence: its belief is still
 * the start's, and would count every capture and drop since as a piece off. */
int sobs_hand_distance(const struct shogi_obs_guard *g, const struct shogi_position *p)
{
    int dist = 0;
    for (int c = 0; c < 2; c++)
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD && g->hand[c].read_obs; t++) {
            int seen = g->hand[c].belief[t] + g->hand[c].tolerated[t] + sobs_pending_count(g, c, t);
            int k = p->hand[c][t] - seen;
            dist += k < 0 ? -k : k;
        }
    return dist;
}

/* A drop read as one kind, another kind dropped (a fresh piece's face is read poorly, its kind
 * chosen among all the kinds off the board): the komadai, when read, tell which kind left (the
 * one piece they miss, of another kind than the one read, which may be dropped there); else the
 * rules do: a kind the mover does not hold, when exactly one kind in the mover's hand may
 * legally be dropped there. */
static int drop_kind_by_komadai(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                                int c, int t)
{
    const struct sobs_hand *h = &g->hand[c];
    if (!h->read_obs || h->cand.active) return 0;
    int missing = 0, kind = 0;
    for (int u = SHOGI_PAWN; u <= SHOGI_GOLD; u++) {
        int seen = h->belief[u] + h->tolerated[u] + sobs_pending_count(g, c, u);
        int k = pos->hand[c][u] - seen;
        if (k == 0) continue;
        if (k < 0 || u == t) return 0; /* more than it had, or the kind read is gone */
        missing += k;
        kind = u;
    }
    return missing == 1 ? kind : 0;
}

struct shogi_move sobs_drop_kind(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                                 struct shogi_move m)
{
    if (!shogi_move_is_drop(m)) return m;
    int c = shogi_piece_color(m.piece), t = shogi_type_base(shogi_piece_type(m.piece));
    if (t < SHOGI_PAWN || t > SHOGI_GOLD) return m;
    struct shogi_move r = m;
    int kind = drop_kind_by_komadai(g, pos, c, t);
    if (kind) {
        r.piece = (uint8_t)shogi_piece((enum shogi_color)c, (enum shogi_type)kind);
        if (shogi_is_legal(pos, r)) return r;
        /* the kind they show gone may not go there (a pawn dropped as a second on its file),
           but the kind read is not held at all, or was read in doubt (another kind fit its
           fresh face about as well) while its komadai still hold it: the komadai's kind was
           dropped, a foul of the drop rules (1-3), not the impossible drop read. Not after an
           open foul (the game's komadai may then hold what no komadai shows) */
        if (!g->open_ply && shogi_move_is_playable(pos, r) &&
            (!pos->hand[c][t] || g->sq[m.to].kind_doubt)) {
            int rule = shogi_check_move(pos, r).rule;
            if (rule == SHOGI_ILLEGAL_DEAD_PIECE || rule == SHOGI_ILLEGAL_NIFU ||
                rule == SHOGI_ILLEGAL_UCHIFUZUME)
                return r;
        }
        return m;
    }
    /* a drop that breaks a rule of where pieces may go (nifu, a dead piece, mate by a pawn) is
       judged as read: those are fouls players make; unless the reader said the kind was in doubt
       (another kind fit its fresh face about as well: SOBS_CONF_SEEN), or read it in doubt at
       all while the mover's komadai were never read (nothing but the rules to tell the kind),
       then the one other kind in hand that may go there is likelier; a kind the mover does not
       hold is no drop as read */
    bool in_doubt = g->sq[m.to].kind_doubt || (g->sq[m.to].doubt && !g->hand[c].read_obs);
    if (pos->hand[c][t] && (!in_doubt || shogi_is_legal(pos, m))) return m;
    int n = 0;
    for (int u = SHOGI_PAWN; u <= SHOGI_GOLD; u++) {
        if (u == t || !pos->hand[c][u]) continue;
        struct shogi_move q = m;
        q.piece = (uint8_t)shogi_piece((enum shogi_color)c, (enum shogi_type)u);
        if (!shogi_is_legal(pos, q)) continue;
        r = q;
        n++;
    }
    return n == 1 ? r : m;
}

/* A move whose piece changed on the way (m as the board shows it: the piece that left, the face
 * that arrived) from a square whose face the game already tolerated as misread (a drop read as
 * another kind, a board flag put right): the reader named the arrival from that wrong face, which
 * is no evidence that the piece changed. The move as the game's piece into *out, promoted as the
 * face says when it may, else as it may; false when no such move is legal. */
bool sobs_tolerated_move(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                         struct shogi_move m, int arrived, struct shogi_move *out)
{
    if (shogi_move_is_drop(m) || g->mask[m.from] < 0) return false;
    int piece = pos->board[m.from];
    if (!piece || !arrived || shogi_piece_color(arrived) != shogi_piece_color(piece)) return false;
    bool face_promoted = shogi_type_is_promoted(shogi_piece_type(arrived));
    for (int k = 0; k < 2; k++) {
        struct shogi_move q = m;
        q.piece = (uint8_t)piece;
        q.captured = pos->board[m.to];
        q.promote = k == 0 ? face_promoted : !face_promoted;
        if (shogi_is_legal(pos, q)) {
            *out = q;
            return true;
        }
    }
    return false;
}

/* Was value read on sq of late, while something else was believed there? 2 when surely, 1 when
 * only in doubt, else 0. */
static int seen_lately(const struct shogi_obs_guard *g, int sq, int value)
{
    const struct sobs_square *q = &g->sq[sq];
    if (q->touched_obs && g->nobs - q->touched_obs <= SOBS_TOUCHED_OBS && q->touched_value == value)
        return q->touched_sure ? 2 : 1;
    if (q->touched_obs2 && g->nobs - q->touched_obs2 <= SOBS_TOUCHED_OBS &&
        q->touched_value2 == value)
        return q->touched_sure2 ? 2 : 1;
    return 0;
}

static void found(struct search *s, const struct shogi_position *end, int len)
{
    /* the komadai first; then the faces seen briefly on the squares the moves passed through
       (a rook that promoted or not before it was captured at once), a sure reading above a
       doubtful one */
    int hand = sobs_hand_distance(s->g, end), score = hand * 8;
    /* sure: some state the board no longer shows (a square a later move leaves or takes), and
       every such state read surely */
    int overwritten = 0;
    bool sure = true;
    for (int i = 0; i + 1 < len; i++) {
        struct shogi_move m = s->cur[i];
        int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece;
        int seen = seen_lately(s->g, m.to, placed);
        score -= seen;
        bool gone = false;
        for (int j = i + 1; j < len; j++)
            gone |=
                s->cur[j].to == m.to || (!shogi_move_is_drop(s->cur[j]) && s->cur[j].from == m.to);
        if (!gone) continue;
        overwritten++;
        sure &= seen == 2;
        /* a drop taken at once, its komadai never read (no evidence either way): only when the
           piece was seen there (with either owner: a piece put down turned); else no story (a
           drop nothing shows) */
        int c = shogi_piece_color(m.piece);
        int other = shogi_piece((enum shogi_color)(c ^ 1), shogi_piece_type((uint8_t)placed));
        if (shogi_move_is_drop(m) && !s->g->hand[c].read_obs && !seen &&
            !seen_lately(s->g, m.to, other))
            return;
    }
    sure &= overwritten > 0;
    if (s->nbest && score >= s->best_score) return;
    memcpy(s->best, s->cur, (size_t)len * sizeof s->cur[0]);
    s->nbest = len;
    s->best_score = score;
    s->best_hand = hand;
    s->best_sure = sure;
}

/* Legal moves, touching only changed squares, that turn pos into the board in exactly `depth`
 * moves (the last may be illegal when last_any: it is judged as played). */
/* The illegal move that put on `to` the piece the board shows there: dropped by the side to
 * move, or come from a changed square as that piece (or its unpromoted self). */
static bool first_move_as_seen(const struct shogi_position *pos, const uint8_t *board, const int *d,
                               int nd, int to, struct shogi_move *out)
{
    int p = board[to];
    if (!p || p == pos->board[to]) return false;
    struct shogi_move m = {SHOGI_HAND, (uint8_t)to, (uint8_t)p, 0, false};
    if (!pos->board[to] && shogi_move_is_playable(pos, m) &&
        shogi_check_move(pos, m).rule != SHOGI_LEGAL) {
        *out = m;
        return true;
    }
    for (int i = 0; i < nd; i++) {
        int from = d[i], q = pos->board[from];
        if (from == to || !q || shogi_piece_color(q) != shogi_piece_color(p)) continue;
        bool promote = shogi_piece_type(q) != shogi_piece_type(p);
        if (promote && shogi_piece_type(p) != shogi_piece_type(q) + SHOGI_PROMOTED) continue;
        struct shogi_move b = {(uint8_t)from, (uint8_t)to, (uint8_t)q, pos->board[to], promote};
        if (shogi_check_move(pos, b).rule != SHOGI_LEGAL) {
            *out = b;
            return true;
        }
    }
    return false;
}

/* A move through a square that is back as it was must have been seen there: the square read
 * empty of late when the move leaves it, read with the moved piece when it arrives. */
static bool seen_passing(const struct search *s, struct shogi_move m)
{
    int placed = m.promote ? m.piece + SHOGI_PROMOTED : m.piece;
    if (!in_set(s->d, s->nchanged, m.to) && m.to != s->hidden && !seen_lately(s->g, m.to, placed))
        return false;
    if (shogi_move_is_drop(m) || in_set(s->d, s->nchanged, m.from) || m.from == s->hidden)
        return true;
    return seen_lately(s->g, m.from, SHOGI_EMPTY) > 0;
}

static void search_seq(struct search *s, const struct shogi_position *pos, int at, int depth)
{
    struct shogi_verdict v;
    if (depth == 1) {
        struct shogi_move m;
        if (!shogi_infer_move(pos, s->board, &m, &v)) return;
        struct shogi_move as_hand = sobs_drop_kind(s->g, pos, m);
        if (as_hand.piece != m.piece) {
            m = as_hand;
            v = shogi_check_move(pos, m);
        }
        if (v.fault == SHOGI_FAULT_WRONG_PIECE || v.fault == SHOGI_FAULT_UNPROMOTE) {
            struct shogi_move t;
            if (sobs_tolerated_move(s->g, pos, m, s->board[m.to], &t)) {
                m = t;
                v = shogi_check_move(pos, m);
            }
        }
        if (v.rule != SHOGI_LEGAL && !s->last_any) return;
        /* a king appearing is no drop: its move is still being read */
        if (shogi_move_is_drop(m) && shogi_piece_type(m.piece) == SHOGI_KING) return;
        bool changed_face = v.fault == SHOGI_FAULT_WRONG_PIECE || v.fault == SHOGI_FAULT_UNPROMOTE;
        if (changed_face && at > 0) return; /* after other moves: rather a misread face */
        if (changed_face || !shogi_move_is_playable(pos, m)) {
            if (!s->nbest) { /* judged as it is (e.g. a drop of a piece not in hand) */
                s->cur[at] = m;
                memcpy(s->best, s->cur, (size_t)(at + 1) * sizeof s->cur[0]);
                s->nbest = at + 1;
                s->best_score = 1 << 20;
            }
            return;
        }
        struct shogi_position end = *pos;
        shogi_do_move(&end, m);
        s->cur[at] = m;
        found(s, &end, at + 1);
        return;
    }
    struct shogi_move local[SHOGI_MAX_MOVES];
    int n = shogi_legal_moves(pos, local);
    /* an illegal move first and legal ones after it (a foul the opponent answered before the
       view settled): the first move as the board shows it, the rest legal */
    if (s->last_any && at == 0 && n < SHOGI_MAX_MOVES) {
        bool saved = s->last_any;
        s->last_any = false;
        for (int i = 0; i < s->nd; i++) {
            struct shogi_move m1;
            if (!first_move_as_seen(pos, s->board, s->d, s->nd, s->d[i], &m1)) continue;
            struct shogi_position p1 = *pos;
            shogi_do_move(&p1, m1);
            s->cur[at] = m1;
            search_seq(s, &p1, at + 1, depth - 1);
        }
        s->last_any = saved;
    }
    const uint8_t *as_read = s->board;
    uint8_t retyped[SHOGI_SQUARES];
    for (int i = 0; i < n; i++) {
        struct shogi_move m1 = local[i];
        s->board = as_read;
        if (!in_set(s->d, s->nd, m1.to) ||
            (!shogi_move_is_drop(m1) && !in_set(s->d, s->nd, m1.from)))
            continue;
        /* a drop read as another (unpromoted, fresh) kind, read in doubt, that cannot be
           dropped there as read, answered before the view settled: the moves after it see it as
           the kind dropped */
        int read = as_read[m1.to];
        if (shogi_move_is_drop(m1) && read && read != m1.piece &&
            shogi_piece_color(read) == shogi_piece_color(m1.piece) &&
            !shogi_type_is_promoted(shogi_piece_type(read)) && s->g->sq[m1.to].doubt &&
            sobs_drop_kind(s->g, pos,
                           (struct shogi_move){SHOGI_HAND, m1.to, (uint8_t)read, 0, false})
                    .piece == m1.piece) {
            memcpy(retyped, as_read, sizeof retyped);
            retyped[m1.to] = m1.piece;
            s->board = retyped;
        }
        if (!seen_passing(s, m1)) continue;
        struct shogi_position p1 = *pos;
        shogi_do_move(&p1, m1);
        int d2[SHOGI_SQUARES];
        int n2 = diff(p1.board, s->board, d2);
        if (n2 == 0) continue; /* a move and nothing after: the shorter search has it */
        bool inside = true;
        for (int j = 0; j < n2; j++) inside &= in_set(s->d, s->nd, d2[j]);
        if (!inside || n2 > 2 * (depth - 1)) continue;
        s->cur[at] = m1;
        search_seq(s, &p1, at + 1, depth - 1);
    }
    s->board = as_read;
}

/* Moves that explain the change, the likeliest first: one legal move, a few legal moves, one
 * illegal move, legal moves and an illegal one; among equals, the komadai decide. */
static int find_moves(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                      const uint8_t *board, const int *d, int nd, int nchanged,
                      struct shogi_move seq[SOBS_SEQ_MAX], int *legal_dist)
{
    struct search s = {
        .g = g, .board = board, .d = d, .nd = nd, .nchanged = nchanged, .hidden = -1};
    *legal_dist = 1 << 20;
    int n = 0, score = 1 << 20, hand = 1 << 20;
    for (int pass = 0; pass < 2; pass++)
        for (int depth = 1; depth <= SOBS_SEQ_MAX; depth++) {
            if (nchanged > 2 * depth) continue;
            s.last_any = pass == 1;
            /* an illegal move only among the squares that changed, not through those read
               differently of late: those make up any story */
            s.nd = pass == 1 ? nchanged : nd;
            s.nbest = 0;
            search_seq(&s, pos, 0, depth);
            if (!s.nbest) continue;
            /* a legal story the komadai contradict (a drop nobody's stand shows, a capture
               whose piece went nowhere) gives way to a longer one they agree with better, or as
               well when every state it passes through was read surely (a drop captured at once:
               the king seems to step back); or else to an illegal one they agree with */
            if (pass == 0) {
                if (n && !(s.best_hand < hand ||
                           (s.best_hand == hand && s.best_sure && s.best_score < score)))
                    continue;
                memcpy(seq, s.best, (size_t)s.nbest * sizeof seq[0]);
                n = s.nbest;
                hand = s.best_hand;
                score = *legal_dist = s.best_score;
                if (score >= 8) continue;
                /* the komadai agree: one move more only when the board passed through states
                   read surely that this story never shows (a drop, answered, and the dropped
                   piece moved on before the view settled) */
                if (depth < SOBS_SEQ_MAX) {
                    s.nbest = 0;
                    search_seq(&s, pos, 0, depth + 1);
                    if (s.nbest && s.best_sure && s.best_hand <= hand && s.best_score < score) {
                        memcpy(seq, s.best, (size_t)s.nbest * sizeof seq[0]);
                        n = s.nbest;
                        *legal_dist = s.best_score;
                    }
                }
                return n;
            }
            /* the legal story itself, found again (its komadai no better): still legal */
            if (n == s.nbest && !memcmp(seq, s.best, (size_t)n * sizeof seq[0])) return n;
            if (!n || s.best_score / 8 < (score + 7) / 8) {
                memcpy(seq, s.best, (size_t)s.nbest * sizeof seq[0]);
                *legal_dist = 1 << 20;
                return s.nbest;
            }
            return n;
        }
    return n;
}

/* A piece moved twice, the opponent's move between, before the view settled (a hand over the
 * board all the while): its one move as seen is no move it can make, but two legal moves through
 * a square empty before and after are (the one illegal move seen, from where it left to where it
 * arrived, its two halves). Only when the opponent's move shows too (three or four
 * squares changed), the three moves are legal, and the komadai agree with them at least as well
 * as with the illegal story: a foul shown alone, or before any answer, is still one. */
static int through_unseen(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                          const uint8_t *board, const int *d, int nd, int nchanged, int bad_hand,
                          struct shogi_move seq[SOBS_SEQ_MAX], int *legal_dist)
{
    if (nchanged < 3 || nchanged > 4 || nd + 1 > SHOGI_SQUARES) return 0;
    int a[SHOGI_SQUARES];
    memcpy(a, d, (size_t)nd * sizeof d[0]);
    struct search best = {0};
    int found_at = -1;
    for (int e = 0; e < SHOGI_SQUARES; e++) {
        if (pos->board[e] || board[e] || in_set(d, nd, e)) continue;
        a[nd] = e;
        struct search s = {
            .g = g, .board = board, .d = a, .nd = nd + 1, .nchanged = nchanged, .hidden = e};
        search_seq(&s, pos, 0, SOBS_SEQ_MAX);
        if (!s.nbest || s.nbest != SOBS_SEQ_MAX || s.best_hand > bad_hand) continue;
        if (shogi_move_is_drop(s.best[0]) || s.best[0].to != e || s.best[2].from != e) continue;
        if (found_at < 0 || s.best_score < best.best_score) {
            best = s;
            found_at = e;
        }
    }
    if (found_at < 0) return 0;
    memcpy(seq, best.best, (size_t)best.nbest * sizeof seq[0]);
    *legal_dist = best.best_score;
    return best.nbest;
}

int sobs_find_moves(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                    const uint8_t *board, const int *d, int nd, int nchanged,
                    struct shogi_move seq[SOBS_SEQ_MAX], int *legal_dist)
{
    int n = find_moves(g, pos, board, d, nd, nchanged, seq, legal_dist);
    if (n == 0 || *legal_dist < 1 << 20) return n;
    /* the illegal story's komadai distance */
    struct shogi_position end = *pos;
    for (int i = 0; i < n; i++) {
        if (!shogi_move_is_playable(&end, seq[i])) return n;
        shogi_do_move(&end, seq[i]);
    }
    struct shogi_move alt[SOBS_SEQ_MAX];
    int dist,
        k = through_unseen(g, pos, board, d, nd, nchanged, sobs_hand_distance(g, &end), alt, &dist);
    /* the illegal story has that piece's one move as seen */
    bool same = false;
    for (int i = 0; i < n && k; i++)
        same |= !shogi_move_is_drop(seq[i]) && seq[i].from == alt[0].from && seq[i].to == alt[2].to;
    if (!k || !same) return n;
    memcpy(seq, alt, (size_t)k * sizeof alt[0]);
    *legal_dist = dist;
    return k;
}

bool sobs_read_in_doubt(const struct shogi_obs_guard *g, int sq)
{
    const struct sobs_square *s = &g->sq[sq];
    return !s->last_sure && !s->cand.active && g->mask[sq] < 0;
}

struct doubt_search {
    const struct shogi_obs_guard *g;
    const uint8_t *board;
    bool in_set[SHOGI_SQUARES], wild[SHOGI_SQUARES];
    const int *set;
    int nset;
    struct shogi_move cur[SOBS_SEQ_MAX], best[SOBS_SEQ_MAX];
    int nbest, best_key;
    uint64_t best_end; /* the best story's position (its key) */
    bool ambiguous;    /* another story as good ends elsewhere */
};

static void doubt_dfs(struct doubt_search *s, const struct shogi_position *pos, int at, int depth)
{
    if (at == depth) {
        int misread = 0;
        for (int i = 0; i < s->nset; i++) {
            int sq = s->set[i];
            if (pos->board[sq] == s->board[sq]) continue;
            if (!s->wild[sq] || !pos->board[sq]) return; /* a piece replaced, not gone */
            misread++;
        }
        int key = misread * 64 + sobs_hand_distance(s->g, pos);
        if (s->nbest && key > s->best_key) return;
        if (s->nbest && key == s->best_key) {
            if (pos->key == s->best_end) return;
            /* the same moves but for one promotion (a piece that entered the zone, its face
               misread where it went): promoted, the likelier; a later sure face amends it */
            int other = -1;
            for (int i = 0; i < depth && other != -2; i++) {
                struct shogi_move x = s->cur[i], y = s->best[i];
                if (x.from != y.from || x.to != y.to || x.piece != y.piece)
                    other = -2;
                else if (x.promote != y.promote)
                    other = other < 0 ? i : -2;
            }
            if (other < 0 || s->nbest != depth) {
                s->ambiguous = true;
                return;
            }
            if (!s->cur[other].promote) return;
        }
        memcpy(s->best, s->cur, (size_t)depth * sizeof s->cur[0]);
        s->nbest = depth;
        s->best_key = key;
        s->best_end = pos->key;
        s->ambiguous = false;
        return;
    }
    struct shogi_move local[SHOGI_MAX_MOVES];
    int n = shogi_legal_moves(pos, local);
    for (int i = 0; i < n; i++) {
        struct shogi_move m = local[i];
        if (!s->in_set[m.to] || (!shogi_move_is_drop(m) && !s->in_set[m.from])) continue;
        struct shogi_position p = *pos;
        shogi_do_move(&p, m);
        s->cur[at] = m;
        doubt_dfs(s, &p, at + 1, depth);
    }
}

int sobs_find_moves_doubt(const struct shogi_obs_guard *g, const struct shogi_position *pos,
                          const uint8_t *board, const int *d, int nd,
                          struct shogi_move seq[SOBS_SEQ_MAX])
{
    struct doubt_search s = {.g = g, .board = board};
    /* the squares that changed as read; the doubtful ones that did not (read in doubt as the
       piece the game has there, since the last move) may be misreads of a piece that took it */
    int set[SHOGI_SQUARES], nset = 0, nwild = 0;
    for (int i = 0; i < nd; i++) {
        set[nset++] = d[i];
        s.in_set[d[i]] = true;
        /* a piece read there in doubt that changed: surely a piece, its face perhaps another's
           (a king that stepped there named a silver) */
        if (board[d[i]] && sobs_read_in_doubt(g, d[i])) {
            s.wild[d[i]] = true;
            nwild++;
        }
    }
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (s.in_set[sq] || !sobs_read_in_doubt(g, sq) || g->sq[sq].lit_obs <= g->move_obs ||
            !pos->board[sq] || g->sq[sq].last_read != pos->board[sq])
            continue;
        set[nset++] = sq;
        s.in_set[sq] = s.wild[sq] = true;
        nwild++;
    }
    if (nwild == 0 || nwild > SOBS_DOUBT_MAX) return 0;
    s.set = set;
    s.nset = nset;
    for (int depth = 1; depth <= SOBS_SEQ_MAX; depth++) {
        if (nd > 2 * depth) continue;
        doubt_dfs(&s, pos, 0, depth);
        if (!s.nbest) continue;
        if (s.ambiguous) return 0;
        memcpy(seq, s.best, (size_t)s.nbest * sizeof seq[0]);
        return s.nbest;
    }
    return 0;
}

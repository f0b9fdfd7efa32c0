/* vision/shogi_arrivals.c — naming the pieces on the cells that changed since the last settled
 * view by where pieces left. A small patch tells owner well and type poorly (gold, silver and
 * king look alike), but a piece cannot change in transit: the one that arrived is the one that
 * left a cell it can reach from (by how the piece moves, not by whether the move was legal:
 * that is the guard's to judge), promoted when its face says so. */
#include <stdlib.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"

/* A promoted face not seen yet: the piece's own face fits less than this share of how well the
 * pieces that stayed fit theirs (measured: a horse on the bishop's face 0.53-0.59 against 0.88;
 * pieces that stayed 0.85-0.89). */
#define PROMOTED_FIT 0.72
/* ... and the plain face is read surely only when it fits at least this share of it; in between
 * the piece is surely there, its face (promoted or not) in doubt */
#define PROMOTED_SURE 0.95

/* When several cells a piece left reach an arrival, the arrival is the piece of the one whose
 * face it fits by this much better than the others' (a gold's face on a gold 0.69, a rook's
 * 0.04; kinds that look alike, gold, silver and king, fit within 0.1 of each other). */
#define REACHER_MARGIN 0.2

/* Steps for sente (df files, dk ranks; forward is dk = -1). */
struct steps {
    int n;
    int d[6][2];
};
static const struct steps GOLD_STEPS = {6, {{0, -1}, {-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}}};
static const struct steps DIAG = {4, {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}}};
static const struct steps ORTHO = {4, {{0, -1}, {0, 1}, {-1, 0}, {1, 0}}};

/* Can the piece on from reach to in one move, over the pieces on board (what stands on to does
 * not matter)? */
static bool reaches(const uint8_t *board, int piece, int from, int to);

bool shogi_piece_reaches(const uint8_t *board, int piece, int from, int to)
{
    return reaches(board, piece, from, to);
}

static bool reaches(const uint8_t *board, int piece, int from, int to)
{
    int t = shogi_piece_type(piece), dir = shogi_piece_color(piece) == SHOGI_SENTE ? 1 : -1;
    int f0 = shogi_sq_file(from), k0 = shogi_sq_rank(from);
    int df = shogi_sq_file(to) - f0, dk = (shogi_sq_rank(to) - k0) * dir;
    switch (t) {
    case SHOGI_PAWN: return df == 0 && dk == -1;
    case SHOGI_KNIGHT: return abs(df) == 1 && dk == -2;
    case SHOGI_SILVER: return (abs(df) <= 1 && dk == -1) || (abs(df) == 1 && dk == 1);
    case SHOGI_KING: return abs(df) <= 1 && abs(dk) <= 1 && (df || dk);
    case SHOGI_GOLD:
    case SHOGI_TOKIN:
    case SHOGI_PRO_LANCE:
    case SHOGI_PRO_KNIGHT:
    case SHOGI_PRO_SILVER:
        for (int i = 0; i < GOLD_STEPS.n; i++)
            if (GOLD_STEPS.d[i][0] == df && GOLD_STEPS.d[i][1] == dk) return true;
        return false;
    default: break;
    }
    /* sliders: the lance forward, bishop and horse diagonally, rook and dragon straight; the
     * horse and the dragon also step one the other way */
    if ((t == SHOGI_HORSE || t == SHOGI_DRAGON) && abs(df) <= 1 && abs(dk) <= 1) return df || dk;
    const struct steps *s = t == SHOGI_BISHOP || t == SHOGI_HORSE ? &DIAG : &ORTHO;
    for (int i = 0; i < s->n; i++) {
        int sf = s->d[i][0], sk = s->d[i][1];
        if (t == SHOGI_LANCE && !(sf == 0 && sk == -1)) continue;
        for (int m = 1; m < 9; m++) {
            int f = f0 + sf * m, k = k0 + sk * dir * m;
            if (f < 1 || f > 9 || k < 1 || k > 9) break;
            int sq = shogi_sq(f, k);
            if (sq == to) return true;
            if (board[sq]) break;
        }
    }
    return false;
}

/* The moving piece, promoted when its face says so: by its ink's colour when the frame has colour
 * and the set's promoted faces are coloured (the grey face of a rook and of a dragon may fit each
 * other), else by the book when the promoted face was seen, else when its own face fits far
 * worse than the pieces that stayed fit theirs. */
static int name_moved(const struct shogi_reader *r, int piece, int from, int to, double fits_med,
                      float *conf)
{
    int t = shogi_piece_type(piece), c = shogi_piece_color(piece);
    double s = shogi_book_match(&r->book, piece, r->patch[to]);
    bool zone = shogi_in_zone((enum shogi_color)c, from) || shogi_in_zone((enum shogi_color)c, to);
    if (zone && shogi_type_can_promote((enum shogi_type)t)) {
        int prom = shogi_piece((enum shogi_color)c, (enum shogi_type)(t + SHOGI_PROMOTED));
        double sp = shogi_book_match(&r->book, prom, r->patch[to]);
        int vote = shogi_red_vote(r, to);
        bool promoted = vote ? vote > 0 : sp > -2 ? sp > s : s < PROMOTED_FIT * fits_med;
        /* neither the ink's colour nor a promoted face seen: the plain face fitting a little
           worse than the pieces that stayed is no proof that it did not turn over (grey frames,
           footage games 300-336: missed promotions' own faces fit 0.79-0.92 of the others') */
        bool unsure = !vote && sp <= -2 && !promoted && s < PROMOTED_SURE * fits_med;
        if (promoted) {
            piece = prom;
            s = sp > -2 ? sp : 0.6;
        }
        if (unsure && s > 0.4) {
            *conf = SHOGI_FACE_DOUBT;
            return piece;
        }
    }
    *conf = (float)(s > 0.4 ? 0.95 : 0.75);
    return piece;
}

/* How many of each kind a set holds (by base type): a piece can only be dropped while one of its
 * kind is off the board. */
static const int SET_COUNT[SHOGI_HAND_TYPES] = {
    [SHOGI_PAWN] = 18,  [SHOGI_LANCE] = 4, [SHOGI_KNIGHT] = 4, [SHOGI_SILVER] = 4,
    [SHOGI_BISHOP] = 2, [SHOGI_ROOK] = 2,  [SHOGI_GOLD] = 4};

/* The kinds a drop can be: some of the kind are in a hand, by the last settled board (both
 * bishops on the board: a new piece is no bishop, whatever its face looks like in dim light). */
static void droppable_kinds(const uint8_t *expect, bool can[SHOGI_HAND_TYPES])
{
    int on_board[SHOGI_HAND_TYPES] = {0};
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int t = expect[sq] ? shogi_type_base(shogi_piece_type(expect[sq])) : 0;
        if (t >= SHOGI_PAWN && t <= SHOGI_GOLD) on_board[t]++;
    }
    for (int t = 0; t < SHOGI_HAND_TYPES; t++)
        can[t] = t >= SHOGI_PAWN && on_board[t] < SET_COUNT[t];
}

/* A drop's kind is told surely only when its face fits by this much better than any other kind
 * that can be dropped (side view, a bishop's fresh face: a pawn's 0.751, its own 0.746, read as
 * a pawn surely and flagged as nifu before this margin). */
#define DROP_KIND_MARGIN 0.03
/* ... and then its confidence: a piece surely, its kind in doubt (below the guard's sure 0.9, at
 * or above its SOBS_CONF_SEEN 0.85: ruleguard/guard_observe_shogi_internal.h) */
#define DROP_KIND_DOUBT 0.87

/* A pawn dropped beside its side's own pawn on the file (nifu), or a piece dropped where it could
 * never move, is read as another kind the side holds when its face fits that kind within this of
 * the kind read, or when the face does not say that kind plainly: it fits some other kind, held
 * or not, within this (dim film 82, B*3c: a pawn's 0.438, a gold's 0.429, the bishop's 0.278). */
#define NIFU_DOUBT 0.1

/* Whether side c has an unpromoted pawn on file f. */
static bool pawn_on_file(const uint8_t *board, int c, int f)
{
    for (int k = 1; k <= 9; k++) {
        int p = board[shogi_sq(f, k)];
        if (p && shogi_piece_type(p) == SHOGI_PAWN && (int)shogi_piece_color(p) == c) return true;
    }
    return false;
}

/* Whether an unpromoted piece of kind t of side c may be dropped on sq: it could move on from
 * there, and a pawn not on a file where its side has one (nifu). */
static bool drop_legal(const uint8_t *board, int c, int t, int sq)
{
    int r = c == SHOGI_SENTE ? shogi_sq_rank(sq) : 10 - shogi_sq_rank(sq);
    if ((t == SHOGI_PAWN || t == SHOGI_LANCE) && r <= 1) return false;
    if (t == SHOGI_KNIGHT && r <= 2) return false;
    return t != SHOGI_PAWN || !pawn_on_file(board, c, shogi_sq_file(sq));
}

/* By how much the face on patch fits piece p of owner c better than any other unpromoted kind,
 * whether the side holds it or not: how plainly the face says that kind. */
static double plain_margin(const struct shogi_book *b, int c, int p, const uint8_t *patch)
{
    double own = shogi_book_match(b, p, patch), other = -2;
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        if (t == (int)shogi_piece_type(p)) continue;
        double s = shogi_book_match(b, shogi_piece((enum shogi_color)c, (enum shogi_type)t), patch);
        if (s > other) other = s;
    }
    return own - other;
}

/* The unpromoted piece of owner c whose face fits patch best (a drop), among the kinds that can
 * be dropped (all of them when the board says none can: it was misread); *margin: by how much
 * it fits better than the next kind. */
static int best_drop(const struct shogi_book *b, const bool can[SHOGI_HAND_TYPES], int c,
                     const uint8_t *patch, double *score, double *margin)
{
    bool any = false;
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) any |= can[t];
    int best = 0;
    double second = -2;
    *score = -2;
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
        if (any && !can[t]) continue;
        double s = shogi_book_match(b, shogi_piece((enum shogi_color)c, (enum shogi_type)t), patch);
        if (s > *score) {
            second = *score;
            *score = s;
            best = shogi_piece((enum shogi_color)c, (enum shogi_type)t);
        } else if (s > second) {
            second = s;
        }
    }
    *margin = *score - second;
    return best;
}

/* Could the piece that left v have arrived on a cell other than k that now shows a piece of
 * its colour (and held none of its side)? */
static bool arrives_elsewhere(const struct shogi_reader *r, const struct shogi_changes *ch,
                              const struct observation *o, int v, int k)
{
    int piece = r->expect[v], c = shogi_piece_color(piece);
    for (int i = 0; i < ch->narrived; i++) {
        int a = ch->arrived[i], p = shogi_obs_point(a);
        if (a == k || !o->point[p] || (int)shogi_piece_color(o->point[p]) != c) continue;
        if (r->expect[a] && (int)shogi_piece_color(r->expect[a]) == c) continue;
        if (reaches(r->expect, piece, v, a)) return true;
    }
    return false;
}

/* The one vacated cell not yet used, of colour c, whose piece reaches k over board and no other
 * arrival of its colour; -1 when none or several. */
static int sole_reacher(const struct shogi_reader *r, const struct shogi_changes *ch,
                        const struct observation *o, const uint8_t *board, const bool *used, int c,
                        int k)
{
    int from = -1, n = 0;
    for (int j = 0; j < ch->nvacated; j++) {
        int v = ch->vacated[j];
        if (used[v] || (int)shogi_piece_color(r->expect[v]) != c) continue;
        if (!reaches(board, r->expect[v], v, k) || arrives_elsewhere(r, ch, o, v, k)) continue;
        from = v;
        n++;
    }
    return n == 1 ? from : -1;
}

/* A capture and the recapture on the same cell between two settled views: a piece of the other
 * side took the one that stood on k, and a piece of the first one's side took it back. Both
 * cells left are then explained by k alone, whatever owner k's patch shows (the recapturer stands
 * where a piece of its own colour stood; the patch may show either). */
static void name_recaptures(const struct shogi_reader *r, struct shogi_changes *ch,
                            struct observation *o, bool *used, bool *named)
{
    if (ch->nvacated < 2) return;
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? ch->nkept : ch->narrived;
        for (int i = 0; i < n; i++) {
            int k = pass ? ch->kept[i] : ch->arrived[i], p = shogi_obs_point(k);
            if (named[k] || !r->expect[k] || !o->point[p]) continue;
            int c = shogi_piece_color(r->expect[k]);
            int v2 = sole_reacher(r, ch, o, r->expect, used, !c, k);
            if (v2 < 0) continue;
            /* the recapturer's way, the first capturer gone from it */
            uint8_t after[SHOGI_SQUARES];
            memcpy(after, r->expect, sizeof after);
            after[v2] = 0;
            int v1 = sole_reacher(r, ch, o, after, used, c, k);
            if (v1 < 0) continue;
            used[v1] = used[v2] = named[k] = true;
            o->point[p] =
                (uint8_t)name_moved(r, r->expect[v1], v1, k, ch->fits_median, &o->conf[p]);
        }
    }
}

/* A piece put down turned round (its apex toward its owner: the renderer's wrong-way fault)
 * is reported with the owner its pentagon shows when the face of the piece turned fits at
 * least this well and by this much better than its face the right way round (wrong-way films:
 * 0.67-0.74 turned, by 0.17-0.66; a patch that shows the other owner by a hair is the mover's
 * piece, its owner misread in an oblique view). */
#define TURNED_FIT    0.6
#define TURNED_MARGIN 0.15

/* Whether the piece named on a, whose patch showed the other owner (shown: the book's piece
 * for the patch), surely lies turned round. */
static bool shown_turned(const struct shogi_reader *r, int named, int shown, int a)
{
    if (!named || !shown || shogi_piece_color(named) == shogi_piece_color(shown)) return false;
    double own = shogi_book_match(&r->book, named, r->patch[a]);
    double turned = shogi_book_match(&r->book, named ^ (1 << 4), r->patch[a]);
    return own > -2 && turned >= TURNED_FIT && turned - own >= TURNED_MARGIN;
}

/* The board a piece out of the picture moves over: what the last settled view showed, the
 * cells out of the picture empty (a piece there may have left unseen: footage game 34, the pawn
 * that went 1g-1f-1e still stood on 1g, out of the picture, for the reader, and the lance that
 * took on 1e from 1i could not pass it). */
static void unseen_ways(const struct shogi_reader *r, uint8_t board[SHOGI_SQUARES])
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) board[sq] = r->seen[sq] ? r->expect[sq] : 0;
}

/* Whether the piece on cell u, out of the picture and not already named elsewhere, is of
 * colour c and reaches a over the board ways. */
static bool unseen_reaches(const struct shogi_reader *r, const struct shogi_changes *ch,
                           const uint8_t ways[SHOGI_SQUARES], int c, int u, int a)
{
    int piece = r->expect[u];
    if (r->seen[u] || !piece || ch->left_unseen[u] || (int)shogi_piece_color(piece) != c)
        return false;
    return reaches(ways, piece, u, a);
}

/* The one piece of colour c on a cell out of the picture (not already named elsewhere) that
 * reaches a; -1 when none or several. */
static int unseen_reacher(const struct shogi_reader *r, const struct shogi_changes *ch, int c,
                          int a)
{
    int from = -1, n = 0;
    uint8_t ways[SHOGI_SQUARES];
    unseen_ways(r, ways);
    for (int u = 0; u < SHOGI_SQUARES; u++) {
        if (unseen_reaches(r, ch, ways, c, u, a)) {
            from = u;
            n++;
        }
    }
    return n == 1 ? from : -1;
}

/* Of the pieces of colour c on cells out of the picture (not already named elsewhere) that
 * reach a, the one whose face fits a's patch best, when it fits better than the piece that
 * stood on a; -1 when none (several reach it: kinds that look alike, its kind stays in doubt). */
static int unseen_fitter(const struct shogi_reader *r, const struct shogi_changes *ch, int c, int a)
{
    int from = -1;
    double best = shogi_book_match(&r->book, r->expect[a], r->patch[a]);
    uint8_t ways[SHOGI_SQUARES];
    unseen_ways(r, ways);
    for (int u = 0; u < SHOGI_SQUARES; u++) {
        if (!unseen_reaches(r, ch, ways, c, u, a)) continue;
        double f = shogi_book_match(&r->book, r->expect[u], r->patch[a]);
        if (f > best) {
            best = f;
            from = u;
        }
    }
    return from;
}

void shogi_name_arrivals(const struct shogi_reader *r, struct shogi_changes *ch,
                         struct observation *o)
{
    bool used[SHOGI_SQUARES] = {false};
    bool named[SHOGI_SQUARES] = {false};
    name_recaptures(r, ch, o, used, named);
    /* each arrival from the one cell of its side that can reach it; failing that, from the one
     * cell of either side (an emptied cell tells who moved far more surely than a far piece's
     * owner in the patch) */
    /* (one piece that could have gone to two cells went to the one its face fits best: a rook
       that reaches an arrival beyond the one it took, first in the list, left that one a piece
       from nowhere read surely as another kind) */
    for (int pass = 0; pass < 2; pass++) {
        int cand_a[SHOGI_SQUARES], cand_from[SHOGI_SQUARES], ncand = 0;
        double cand_fit[SHOGI_SQUARES];
        for (int i = 0; i < ch->narrived; i++) {
            int a = ch->arrived[i], p = shogi_obs_point(a);
            if (named[a] || !o->point[p]) continue;
            int c = shogi_piece_color(o->point[p]), from = -1, n = 0;
            double fit1 = -2, fit2 = -2;
            for (int j = 0; j < ch->nvacated; j++) {
                int v = ch->vacated[j], piece = r->expect[v];
                if (used[v] || (pass == 0 && (int)shogi_piece_color(piece) != c)) continue;
                /* a piece does not take one of its own side */
                if (r->expect[a] && shogi_piece_color(r->expect[a]) == shogi_piece_color(piece))
                    continue;
                if (reaches(r->expect, piece, v, a)) {
                    /* (its promoted face too, when the book has seen it) */
                    double f = shogi_book_match(&r->book, piece, r->patch[a]);
                    int t = shogi_piece_type(piece);
                    if (shogi_type_can_promote((enum shogi_type)t)) {
                        double fp = shogi_book_match(&r->book, piece + SHOGI_PROMOTED, r->patch[a]);
                        if (fp > f) f = fp;
                    }
                    if (f > fit1) {
                        fit2 = fit1;
                        fit1 = f;
                        from = v;
                    } else if (f > fit2) {
                        fit2 = f;
                    }
                    n++;
                }
            }
            /* several reach it: the one whose face the arrival shows plainly (footage game 6:
               the gold from 6i and the rook from 5e both reach 5h; the face fits the gold 0.69,
               the rook 0.04 — read as a drop of a held pawn, surely, before) */
            if (n > 1 && !(fit1 > 0.4 && fit1 - fit2 >= REACHER_MARGIN)) continue;
            if (n < 1) continue;
            cand_a[ncand] = a;
            cand_from[ncand] = from;
            cand_fit[ncand++] = shogi_book_match(&r->book, r->expect[from], r->patch[a]);
        }
        for (;;) {
            int bi = -1;
            for (int i = 0; i < ncand; i++)
                if (cand_a[i] >= 0 && !used[cand_from[i]] && (bi < 0 || cand_fit[i] > cand_fit[bi]))
                    bi = i;
            if (bi < 0) break;
            int a = cand_a[bi], from = cand_from[bi], p = shogi_obs_point(a);
            cand_a[bi] = -1;
            used[from] = named[a] = true;
            int shown = o->point[p];
            o->point[p] =
                (uint8_t)name_moved(r, r->expect[from], from, a, ch->fits_median, &o->conf[p]);
            if (pass == 1 && shown_turned(r, o->point[p], shown, a)) {
                o->point[p] ^= (uint8_t)(1 << 4);
                o->conf[p] = 0.9f;
            }
        }
    }
    /* a piece that left and arrived nowhere took on a cell it can reach that still shows a piece:
     * one of its own side's colour (a capture and the recapture between two settled views) or
     * the other side's (a capture whose new owner the patch did not show) — the one its face
     * fits best; none: it was captured (or lifted off) */
    for (int j = 0; j < ch->nvacated; j++) {
        int v = ch->vacated[j], piece = r->expect[v], c = shogi_piece_color(piece);
        if (used[v]) continue;
        bool arrived_somewhere = false;
        /* (only where it can go: a far piece whose owner the patch misread is not it) */
        for (int i = 0; i < ch->narrived; i++) {
            int a = ch->arrived[i], p = shogi_obs_point(a);
            arrived_somewhere |= !named[a] && o->point[p] &&
                                 (int)shogi_piece_color(o->point[p]) == c &&
                                 reaches(r->expect, piece, v, a);
        }
        if (arrived_somewhere) continue;
        int at = -1, reachable = 0;
        double best = -1e9;
        for (int i = 0; i < ch->nkept; i++) {
            int k = ch->kept[i];
            /* a cell that shows the very picture it showed took no piece */
            if (r->have_ref && !ch->replaced[k]) continue;
            if (!reaches(r->expect, piece, v, k)) continue;
            reachable++;
            double g = shogi_book_match(&r->book, piece, r->patch[k]) -
                       shogi_book_match(&r->book, r->expect[k], r->patch[k]);
            if (g > best) {
                best = g;
                at = k;
            }
        }
        if (at < 0) continue;
        /* its own side's colour: only when the face agrees a little (a kept piece is kept
         * otherwise); the other side's: a capture whose new owner the patch did not show,
         * taken when the face does not disagree much or no other cell was in reach */
        bool own = (int)shogi_piece_color(r->expect[at]) == c;
        if (own ? best < 0 : best < -0.2 && reachable > 1) continue;
        int p = shogi_obs_point(at);
        used[v] = named[at] = true;
        /* the other side's cell still shows that side's owner: the piece that took there was
           taken back by the one piece of that side out of the picture that reaches it, when its
           face fits better than the old piece's (footage game 6: R5e5b+ and G6ax5b between two
           settled views, 6a out of the picture; 5b read as the old rook, then as the dragon,
           surely) — named from there, in doubt (the cell it left is not seen) */
        int back = own ? -1 : unseen_fitter(r, ch, (int)shogi_piece_color(r->expect[at]), at);
        if (back >= 0) {
            ch->left_unseen[back] = true;
            o->point[p] =
                (uint8_t)name_moved(r, r->expect[back], back, at, ch->fits_median, &o->conf[p]);
            if (o->conf[p] > DROP_KIND_DOUBT) o->conf[p] = (float)DROP_KIND_DOUBT;
            continue;
        }
        o->point[p] = (uint8_t)name_moved(r, piece, v, at, ch->fits_median, &o->conf[p]);
        /* its owner not shown: a piece surely, which one in doubt */
        if (!own && o->conf[p] > SHOGI_FACE_DOUBT) o->conf[p] = SHOGI_FACE_DOUBT;
    }
    /* a piece of the other side where no piece of that side in view could come from, on a cell
     * whose picture changed, reached by the one piece of that side on a cell out of the
     * picture: a capture by that piece (a partial view, footage game 12: the bishop took on 2b
     * from 8h, out of the picture, and promoted; read as the gote bishop that stood there, the
     * game lost its moves) — named from there, in doubt (the cell it left is not seen) */
    for (int i = 0; i < ch->narrived; i++) {
        int a = ch->arrived[i], p = shogi_obs_point(a);
        if (named[a] || !r->expect[a] || !o->point[p] || !r->have_ref) continue;
        int c = shogi_piece_color(o->point[p]);
        if ((int)shogi_piece_color(r->expect[a]) == c) continue;
        if (shogi_patch_ncc(r->patch[a], r->ref_patch[a]) >= SHOGI_REPLACED_NCC) continue;
        int from = unseen_reacher(r, ch, c, a);
        if (from < 0) continue;
        named[a] = ch->left_unseen[from] = true;
        o->point[p] =
            (uint8_t)name_moved(r, r->expect[from], from, a, ch->fits_median, &o->conf[p]);
        if (o->conf[p] > DROP_KIND_DOUBT) o->conf[p] = (float)DROP_KIND_DOUBT;
    }
    /* a piece of the other side where no piece of that side could come from: the owner was
     * misread (an oblique view), not a capture — the piece that stood there, unsure */
    for (int i = 0; i < ch->narrived; i++) {
        int a = ch->arrived[i], p = shogi_obs_point(a);
        if (named[a] || !r->expect[a]) continue;
        o->point[p] = r->expect[a];
        o->conf[p] = 0.6f;
        named[a] = true;
    }
    /* a cell that still shows a piece of its owner but not the picture it showed at the last
       settled view, named by nothing above: another piece of that owner may stand there (a
       capture and the recapture from out of the picture, footage game 6's 5b; a capture by a
       piece of the same owner as the one taken, read by its owner alone, game 34's 1e): a
       piece surely, the old piece's face in doubt */
    for (int i = 0; r->have_ref && i < ch->nkept; i++) {
        int k = ch->kept[i], p = shogi_obs_point(k);
        if (named[k] || o->conf[p] < 0.9f || !r->moved_since[k]) continue;
        if (shogi_patch_ncc(r->patch[k], r->ref_patch[k]) >= SHOGI_REPLACED_NCC) continue;
        o->conf[p] = SHOGI_FACE_DOUBT;
    }
    bool can[SHOGI_HAND_TYPES];
    droppable_kinds(r->expect, can);
    /* a new piece on an empty cell that no cell in view explains, reached by the one piece of
       its colour on a cell out of the picture whose face it fits about as well as any kind its
       side holds: that piece came into view (a partial view: a silver stepped from 3a, out of
       the picture, to 3b was read as a drop of a gold) — its kind told by where it came from,
       in doubt (the cell it left is not seen) */
    for (int i = 0; i < ch->narrived; i++) {
        int a = ch->arrived[i], p = shogi_obs_point(a);
        if (named[a] || r->expect[a] || !o->point[p]) continue;
        int c = shogi_piece_color(o->point[p]), from = unseen_reacher(r, ch, c, a);
        if (from < 0) continue;
        bool held[SHOGI_HAND_TYPES];
        for (int t = 0; t < SHOGI_HAND_TYPES; t++) held[t] = can[t] && r->hand_est[c][t] > 0;
        bool any_held = false;
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) any_held |= held[t];
        double hs = -2, hm;
        if (any_held) best_drop(&r->book, held, c, r->patch[a], &hs, &hm);
        double fs = shogi_book_match(&r->book, r->expect[from], r->patch[a]);
        if (fs < 0.4 || fs < hs - DROP_KIND_MARGIN) continue;
        named[a] = ch->left_unseen[from] = true;
        o->point[p] =
            (uint8_t)name_moved(r, r->expect[from], from, a, ch->fits_median, &o->conf[p]);
        if (o->conf[p] > DROP_KIND_DOUBT) o->conf[p] = (float)DROP_KIND_DOUBT;
    }
    /* a new piece on an empty cell that no cell explains: a drop from the komadai */
    for (int i = 0; i < ch->narrived; i++) {
        int a = ch->arrived[i], p = shogi_obs_point(a);
        if (named[a] || r->expect[a] || !o->point[p]) continue;
        double s, margin;
        int c = shogi_piece_color(o->point[p]);
        int piece = best_drop(&r->book, can, c, r->patch[a], &s, &margin);
        if (!piece) continue;
        /* among the kinds its side holds, as the settled views told them (overhead film 102:
           without it the guard flagged the gold dropped on 2c as taken back when it moved on): its
           face must still fit as a piece, and the kind stays in doubt when the face alone says
           another */
        bool held[SHOGI_HAND_TYPES];
        for (int t = 0; t < SHOGI_HAND_TYPES; t++) held[t] = can[t] && r->hand_est[c][t] > 0;
        double hs, hmargin;
        int hp = best_drop(&r->book, held, c, r->patch[a], &hs, &hmargin);
        /* a kind that may not be dropped there (a pawn on a file where its side has a pawn:
           nifu; a pawn, lance or knight where it could never move) read by a face that fits
           another held kind nearly as well, or that does not say the kind read plainly, is the
           best held kind that may be dropped there, in doubt: a small patch tells a pawn from a
           bishop poorly (side film 106: B*5e read as a pawn; player film 104: B*5f; dim film 82:
           B*3c), and a pawn dropped there plainly still reaches the guard as a pawn */
        if (hp && hs > 0.4 && !drop_legal(r->expect, c, shogi_piece_type(hp), a)) {
            bool legal[SHOGI_HAND_TYPES], other = false;
            for (int t = 0; t < SHOGI_HAND_TYPES; t++) {
                legal[t] = held[t] && t >= SHOGI_PAWN && drop_legal(r->expect, c, t, a);
                other |= legal[t];
            }
            double ns = -2, nm;
            int np = other ? best_drop(&r->book, legal, c, r->patch[a], &ns, &nm) : 0;
            if (np &&
                (ns > hs - NIFU_DOUBT || plain_margin(&r->book, c, hp, r->patch[a]) < NIFU_DOUBT)) {
                o->point[p] = (uint8_t)np;
                o->conf[p] = (float)DROP_KIND_DOUBT;
                continue;
            }
        }
        bool any_held = false;
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) any_held |= held[t];
        /* sure of the kind only when the face says it plainly: it fits that kind better than
           any other unpromoted kind of its owner, held or not, by DROP_KIND_MARGIN (footage game
           6, G6i5h with the rook also in reach: read as the held pawn at 0.63, surely, while
           the gold's face fit 0.69) */
        if (any_held && hp && hs > 0.4) {
            o->point[p] = (uint8_t)hp;
            o->conf[p] =
                (float)(hp != piece || hmargin < DROP_KIND_MARGIN ||
                                plain_margin(&r->book, c, hp, r->patch[a]) < DROP_KIND_MARGIN
                            ? DROP_KIND_DOUBT
                            : 0.9);
            continue;
        }
        o->point[p] = (uint8_t)piece;
        /* a piece surely, its kind in doubt when another kind fits about as well: the guard
           may then take the kind the hands and the rules allow */
        o->conf[p] =
            (float)(s <= 0.4 ? 0.7
                    : margin >= DROP_KIND_MARGIN &&
                            plain_margin(&r->book, c, piece, r->patch[a]) >= DROP_KIND_MARGIN
                        ? 0.9
                        : DROP_KIND_DOUBT);
        /* nor is its kind sure when its side holds nothing, as the settled views tell: no cell
           and no hand explains it (a piece missed under a cover, a cell read before it settled),
           so its face alone names it */
        if (!any_held && o->conf[p] > DROP_KIND_DOUBT) o->conf[p] = (float)DROP_KIND_DOUBT;
    }
}

/* vision/shogi_observe.c — the shogi reader's per-frame observation for the rule guard: every cell
 * read against what the last settled view showed, with the cells a hand covers marked, so that
 * the settler and the guard (not the reader) decide what was played. The reader does not apply
 * the rules here: an illegal move must reach the guard as the board shows it. */
#include <math.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

/* A cell border whose line shows less than this share of the uncovered contrast is hidden. */
#define LINE_HIDDEN 0.35
/* A piece that stood still keeps its name unless the book likes another face of its owner this
 * much better: it cannot change in place, and gold, silver and king faces look alike to a
 * 24-pixel patch. */
#define KEEP_MARGIN 0.3
/* A book correlation at which a patch is surely a piece's face (not a hand's back). */
#define PIECE_LIKE 0.5
/* Suspect cells (lines hidden, nothing known seen) this many together are a hand. */
#define COVER_GROUP 2
/* A suspect cell whose coarse look has not moved for this long is under no hand (as a rim piece
 * that changed and stayed so, shogi_arm.c's RIM_ADOPT_NS). */
#define COVER_STILL_NS 2000000000LL
/* Share of the occupancy threshold a cell's texture must clear to change state. */
#define OCC_HYSTERESIS 0.15

static double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

void shogi_reader_expect_position(struct shogi_reader *r, const struct shogi_position *pos)
{
    memcpy(r->ref_patch, r->patch, sizeof r->ref_patch);
    memcpy(r->ref_tex, r->tex, sizeof r->ref_tex);
    r->have_ref = true;
    memcpy(r->expect, pos->board, sizeof r->expect);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) r->named_conf[sq] = 1.0f;
    memset(r->left_unseen, 0, sizeof r->left_unseen);
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < SHOGI_HAND_TYPES; t++) r->hand_est[c][t] = pos->hand[c][t];
    r->first_mover = pos->side;
    memcpy(r->start_board, pos->board, sizeof r->start_board);
    r->line_ref = 0;   /* learned on the next frame */
    r->follow_ref = 0; /* as well */
    r->clear.valid = false;
}

/* Keeps the frame just read as the last one read whole and clear, when it is: no cell covered,
 * every cell in the picture read at least 0.5 sure, the rim as its reference (an arm over it
 * covers no cell yet on its first frames). */
static void keep_clear(struct shogi_reader *r, const struct observation *o)
{
    if (o->noccluded || r->rim_nchanged) return;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (r->seen[sq] && o->conf[shogi_obs_point(sq)] < 0.5f) return;
    r->clear.valid = true;
    memcpy(r->clear.H, r->grid.H, sizeof r->clear.H);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = shogi_obs_point(sq);
        r->clear.point[sq] = o->point[p];
        r->clear.conf[sq] = o->conf[p];
    }
    memcpy(r->clear.sig, r->sig_now, sizeof r->clear.sig);
    memcpy(r->clear.rim, r->rim_now, sizeof r->clear.rim);
    memcpy(r->clear.patch, r->patch, sizeof r->clear.patch);
    memcpy(r->clear.tex, r->tex, sizeof r->clear.tex);
    memcpy(r->clear.ev, r->last_ev, sizeof r->clear.ev);
    r->clear.follow = r->follow_now;
}

/* Which cells take their references from the last clear frame when the view o is said: every
 * cell that frame shows as o does (the same reading, or one of the two under 0.5 sure), when it
 * was read through the same grid; false when none can. A cell whose reading no clear frame shows
 * yet takes them from the frame said. */
static bool clear_shows(const struct shogi_reader *r, const struct observation *o,
                        bool use[SHOGI_SQUARES])
{
    bool any = r->clear.valid && !memcmp(r->clear.H, r->grid.H, sizeof r->clear.H);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = shogi_obs_point(sq);
        use[sq] = any && (!r->seen[sq] || o->occluded[p] || o->conf[p] < 0.5f ||
                          r->clear.conf[sq] < 0.5f || o->point[p] == r->clear.point[sq]);
    }
    return any;
}

/* The uncovered line contrast, from the frame the reader started on (no hand then: the start
 * position was recognised in it). */
static void learn_line_ref(struct shogi_reader *r, const double ev[SHOGI_SQUARES])
{
    double v[SHOGI_SQUARES];
    int n = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (ev[sq] > 0) v[n++] = ev[sq];
    double m = shogi_median(v, n);
    r->line_ref = m > 0.02 ? m : 0.02;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) r->line_cell[sq] = ev[sq];
}

/* A cell's picture against the one at the last settled view: the same piece standing still
 * correlates above 0.8 (a change of light included), another piece in its place about 0.4
 * (measured on rendered games, a horse taking a bishop), and up to 0.63 in an oblique view
 * (footage game 27, a horse on the bishop it took: their pentagons' owners barely show). A
 * piece standing still in a settled frame on the 30 footage games: 0.865 at the 1st
 * percentile, 0.982 at the 5th (frames of a bump below). */

/* Normalised cross-correlation of two patches (1: the same picture up to light and contrast). */
double shogi_patch_ncc(const uint8_t *a, const uint8_t *b)
{
    double ma = 0, mb = 0;
    for (int i = 0; i < SHOGI_PATCH_AREA; i++) {
        ma += a[i];
        mb += b[i];
    }
    ma /= SHOGI_PATCH_AREA;
    mb /= SHOGI_PATCH_AREA;
    double sab = 0, saa = 0, sbb = 0;
    for (int i = 0; i < SHOGI_PATCH_AREA; i++) {
        double x = a[i] - ma, y = b[i] - mb;
        sab += x * y;
        saa += x * x;
        sbb += y * y;
    }
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

/* A book correlation as a confidence: 0.3 is a poor fit, 0.8 a clear one. */
static float fit_conf(double s)
{
    return (float)(0.5 + 0.5 * clamp01((s - 0.3) / 0.5));
}

/* Read every cell; occluded ones keep no reading. */
/* A cell's coarse samples moved from their look at the last settled view past the change
 * threshold: it changed; back under this share of it: it looks as it did again. In between it
 * stays as it was (a small change, a pawn gone in dim light, sits about the threshold, and a
 * reading that flickers with it never settles). */
#define UNCHANGED_BACK 0.7

/* Whether each cell looks as it did at the last settled view (or the start), through the same
 * grid: into r->moved_since. */
static void note_moved(struct shogi_reader *r)
{
    bool same_grid = !memcmp(r->settled_H, r->grid.H, sizeof r->settled_H);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (!same_grid || !r->have_settled_sig[sq]) {
            r->moved_since[sq] = true;
            continue;
        }
        double d = shogi_sig_change(r->sig_now[sq], r->sig_settled[sq]);
        if (d > r->sig_thr) r->moved_since[sq] = true;
        if (d <= UNCHANGED_BACK * r->sig_thr) r->moved_since[sq] = false;
    }
}

static bool unchanged(const struct shogi_reader *r, int sq)
{
    return !r->moved_since[sq];
}

/* Occupied, with some hysteresis around the texture threshold: an empty cell must gain clearly
 * to hold a piece, an occupied one lose clearly to be empty (the top of a tall piece leans into
 * the cell behind it in an oblique view, and noise would make it flicker). */
static bool occupied(const struct shogi_reader *r, int sq)
{
    double thr = r->book.occ_threshold, tex = r->tex[sq];
    int want = r->expect[sq];
    /* a cell that looks as it did when the view last settled holds what it held: one threshold
       for the whole board does not fit every cell (a tall piece leaning into the empty cell
       behind it in an oblique view gives it a piece's texture; a far piece in dim light or
       soft focus has little) */
    /* below the threshold and under half of what the piece showed when the view settled: it
       left (an empty cell at the board's edge keeps some texture: the border, a neighbour) */
    if (want && r->have_ref && tex < thr && tex < 0.5 * r->ref_tex[sq]) return false;
    /* in a glare spot an empty cell shows about the threshold's texture: a piece that left
       (under half of its texture) is gone too inside the hysteresis band (a silver left 3i in
       glare: 176 -> 46 with the threshold at 42; a gold left 4a: 180 -> 45) */
    if (want && r->have_ref && tex < (1 + OCC_HYSTERESIS) * thr && tex < 0.5 * r->ref_tex[sq])
        return false;
    /* and the mirror: an empty cell whose texture more than doubled over its own at the last
       settled view, clearing the lower threshold, got a piece (a far piece in dim light shows
       about the threshold's texture, an empty far cell half of it). Both before the cell's
       coarse look: a pawn put down in a glare spot is as bright as the wood there, its coarse
       look barely moves while its texture grows fourfold (measured on the glare films) */
    if (!want && r->have_ref && tex > (1 - OCC_HYSTERESIS) * thr && tex > 2 * r->ref_tex[sq])
        return true;
    if (unchanged(r, sq)) return want != 0;
    return tex > (want ? 1 - OCC_HYSTERESIS : 1 + OCC_HYSTERESIS) * thr;
}

/* Cells of set that lie in a group of at least min_size (touching, diagonals too). */
static void keep_groups(const bool set[SHOGI_SQUARES], int min_size, bool out[SHOGI_SQUARES])
{
    int label[SHOGI_SQUARES], stack[SHOGI_SQUARES], members[SHOGI_SQUARES];
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        label[sq] = -1;
        out[sq] = false;
    }
    for (int s0 = 0; s0 < SHOGI_SQUARES; s0++) {
        if (!set[s0] || label[s0] >= 0) continue;
        int top = 0, n = 0;
        stack[top++] = s0;
        label[s0] = s0;
        while (top) {
            int sq = stack[--top], f = shogi_sq_file(sq), k = shogi_sq_rank(sq);
            members[n++] = sq;
            for (int df = -1; df <= 1; df++)
                for (int dk = -1; dk <= 1; dk++) {
                    int ff = f + df, kk = k + dk;
                    if (ff < 1 || ff > 9 || kk < 1 || kk > 9) continue;
                    int q = shogi_sq(ff, kk);
                    if (set[q] && label[q] < 0) {
                        label[q] = s0;
                        stack[top++] = q;
                    }
                }
        }
        if (n >= min_size)
            for (int i = 0; i < n; i++) out[members[i]] = true;
    }
}

/* Read every cell; covered ones keep no reading. */
static void read_cells(struct shogi_reader *r, const double *ev, struct observation *o)
{
    struct shogi_changes ch = {.nvacated = 0};
    int nfit = 0;
    double fits[SHOGI_SQUARES]; /* how well the pieces that stayed fit their faces */
    double thr = r->book.occ_threshold, best_s[SHOGI_SQUARES];
    int best[SHOGI_SQUARES];
    /* Lines hidden all round: a hand, or a big piece (a rook fills its cell, a tall one hides
     * the lines behind it in an oblique view). A cell that still shows what it showed (an
     * empty cell without texture, a piece of the same owner) or a face the book knows well is
     * read all the same; the others are suspect, and covered when they make a group (a hand
     * hides a region, a piece's shadow one cell). */
    bool suspect[SHOGI_SQUARES], covered[SHOGI_SQUARES];
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int want = r->expect[sq];
        best[sq] = 0;
        best_s[sq] = -2;
        if (r->seen[sq] && occupied(r, sq)) best[sq] = shogi_cell_best(r, sq, &best_s[sq]);
        /* a cell whose lines barely showed when the view last settled (pieces in front of
         * them) says nothing by its lines */
        double ref = r->line_cell[sq] < r->line_ref ? r->line_cell[sq] : r->line_ref;
        bool hidden = r->seen[sq] && ref >= LINE_HIDDEN * r->line_ref && ev[sq] < LINE_HIDDEN * ref;
        bool still_empty = !want && r->tex[sq] < 0.5 * thr;
        bool same_owner =
            want && best[sq] && shogi_piece_color(best[sq]) == shogi_piece_color(want);
        /* a hand does not hold still: a cell whose look has not moved for COVER_STILL_NS is
           read (a pawn's step in dim light hides the line between its two cells, and both
           looked like a resting hand for good) */
        bool still = o->t_ns - r->cell_moved_ns[sq] > COVER_STILL_NS;
        suspect[sq] =
            hidden && !still_empty && !same_owner && !(best_s[sq] >= PIECE_LIKE) && !still;
    }
    keep_groups(suspect, COVER_GROUP, covered);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = shogi_obs_point(sq), want = r->expect[sq];
        if (!r->seen[sq]) {
            /* out of the picture: read empty (vision/observation.h), no evidence (below the
             * guard's conf_min), and nothing that keeps the view from settling; what the cell
             * held stays expected (shogi_reader_settled takes no reading below 0.5) */
            o->point[p] = 0;
            o->conf[p] = SHOGI_OUT_OF_VIEW_CONF;
            continue;
        }
        if (covered[sq]) {
            o->occluded[p] = true;
            o->point[p] = 0;
            o->conf[p] = 0;
            continue;
        }
        double tex = r->tex[sq];
        if (!occupied(r, sq)) {
            o->point[p] = 0;
            o->conf[p] = (float)(0.5 + 0.5 * clamp01((thr - tex) / (0.3 * thr + 1e-9)));
            if (want) ch.vacated[ch.nvacated++] = sq;
            continue;
        }
        int b = best[sq];
        if (want && b && shogi_piece_color(b) == shogi_piece_color(want)) {
            /* the piece that stood here, its owner still seen: it cannot have changed in place
             * (and gold, silver and king faces look alike to a small patch) */
            double want_s = shogi_cell_fit(r, sq, want);
            o->point[p] = (uint8_t)want;
            o->conf[p] = best_s[sq] >= PIECE_LIKE || want_s >= best_s[sq] - KEEP_MARGIN
                             ? 0.95f
                             : fit_conf(want_s + 0.25);
            /* named in doubt when it came, and nothing since has told what it is */
            if (o->conf[p] > r->named_conf[sq]) o->conf[p] = r->named_conf[sq];
            fits[nfit++] = want_s;
            ch.kept[ch.nkept++] = sq;
            continue;
        }
        o->point[p] = (uint8_t)b;
        o->conf[p] = b ? fit_conf(best_s[sq]) : 0;
        if (b != want) ch.arrived[ch.narrived++] = sq;
    }
    /* a piece left: another piece of a kept cell's colour may stand there now (a capture whose
       new owner the patch did not show) when its picture is not the one of the last settled
       view (only then: the correlation is the dearest part of a quiet frame) */
    for (int i = 0; ch.nvacated && i < ch.nkept; i++) {
        int sq = ch.kept[i];
        ch.replaced[sq] =
            r->have_ref && shogi_patch_ncc(r->patch[sq], r->ref_patch[sq]) < SHOGI_REPLACED_NCC;
    }
    ch.fits_median = shogi_median(fits, nfit);
    shogi_name_arrivals(r, &ch, o);
    memcpy(r->left_unseen, ch.left_unseen, sizeof r->left_unseen);
}

bool shogi_reader_observe(struct shogi_reader *r, const struct vision_image *img,
                          struct observation *o)
{
    double t0 = vision_now_ms();
    memset(o, 0, sizeof *o);
    o->t_ns = img->t_ns;
    o->frame_seq = img->seq;
    o->w = o->h = 9;
    if (!r->oriented) return false;
    const struct vision_image *gray = shogi_reader_frame(r, img);
    if (!gray) return false;
    shogi_follow_board(r, gray);
    shogi_sample_changed(r, gray);
    if (r->line_ref <= 0) learn_line_ref(r, r->ev);
    memcpy(r->last_ev, r->ev, sizeof r->ev);
    note_moved(r);
    read_cells(r, r->ev, o);
    shogi_cover_arm(r, gray, o);
    shogi_grow_covered(o);
    keep_clear(r, o);
    r->last_noccluded = o->noccluded;
    o->board_found = true;
    o->tracked = true;
    memcpy(o->corners, r->grid.corners, sizeof o->corners);
    r->stats.found = true;
    r->stats.ms = vision_now_ms() - t0;
    return true;
}

/* The observation turned half round: the far side's view. */
static void turn_observation(struct observation *o)
{
    struct observation t = *o;
    for (int y = 0; y < 9; y++)
        for (int x = 0; x < 9; x++) {
            int p = y * OBS_MAX + x, q = (8 - y) * OBS_MAX + (8 - x);
            uint8_t v = t.point[q];
            o->point[p] = v ? (uint8_t)(v ^ (1 << 4)) : 0;
            o->conf[p] = t.conf[q];
            o->occluded[p] = t.occluded[q];
        }
    o->hands[0] = t.hands[1];
    o->hands[1] = t.hands[0];
}

/* Pieces on board per side and kind (promoted pieces by their base kind). */
static void board_counts(const uint8_t *board, int n[2][SHOGI_HAND_TYPES])
{
    memset(n, 0, 2 * sizeof n[0]);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (!board[sq]) continue;
        int t = shogi_type_base(shogi_piece_type(board[sq]));
        if (t >= SHOGI_PAWN && t <= SHOGI_GOLD) n[shogi_piece_color(board[sq])][t]++;
    }
}

/* The hands after a settled view: a side's pieces fewer on the board went to the other side's
 * hand, a side's pieces more on it came from its own (never below none). */
static void update_hands(struct shogi_reader *r, const uint8_t *before)
{
    int a[2][SHOGI_HAND_TYPES], b[2][SHOGI_HAND_TYPES];
    board_counts(before, b);
    board_counts(r->expect, a);
    for (int c = 0; c < 2; c++)
        for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
            int lost = b[!c][t] - a[!c][t], put = a[c][t] - b[c][t];
            int h = r->hand_est[c][t] + (lost > 0 ? lost : 0) - (put > 0 ? put : 0);
            r->hand_est[c][t] = h > 0 ? h : 0;
        }
}

/* The cells whose piece left for a cell the view does not show (a cover that held still while
 * the view settled): it went to no cell read, and a covered cell lies in its reach. Their piece
 * stays expected, so that the next view that shows where it went names it by the cell it left
 * (a silver stepped under a false cover was named from nowhere, as a drop of another kind). */
static void left_for_cover(const struct shogi_reader *r, const struct observation *o,
                           bool pending[SHOGI_SQUARES])
{
    for (int v = 0; v < SHOGI_SQUARES; v++) {
        int pv = shogi_obs_point(v), piece = r->expect[v];
        pending[v] = false;
        if (!piece || o->occluded[pv] || o->conf[pv] < 0.5f || o->point[pv]) continue;
        bool seen_there = false, covered_in_reach = false;
        for (int a = 0; a < SHOGI_SQUARES && !seen_there; a++) {
            int pa = shogi_obs_point(a), q = o->point[pa];
            if (a == v || !shogi_piece_reaches(r->expect, piece, v, a)) continue;
            if (o->occluded[pa]) {
                covered_in_reach = true;
                continue;
            }
            /* a piece of its side new on a cell it reaches: it went there */
            seen_there = q && q != r->expect[a] && o->conf[pa] >= 0.5f &&
                         shogi_piece_color(q) == shogi_piece_color(piece);
        }
        pending[v] = covered_in_reach && !seen_there;
    }
}

/* The fewest moves each side can have made from the start position to the view o shows, by
 * the cells read (in the picture, uncovered, surely enough): its pieces gone from their start
 * cells, its pieces on cells its side did not hold at the start, and a pawn advanced further
 * than one step (two steps are two moves). A cell out of the picture says nothing: a partial
 * view that does not show the cell a pawn left still shows where it arrived. */
static void least_moves(const struct shogi_reader *r, const struct observation *o, int least[2])
{
    int left[2] = {0, 0}, came[2] = {0, 0}, steps[2] = {0, 0};
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = shogi_obs_point(sq), s = r->start_board[sq], q = o->point[p];
        if (!r->seen[sq] || o->occluded[p] || o->conf[p] < 0.5f) continue;
        if (s && (!q || shogi_piece_color(q) != shogi_piece_color(s))) left[shogi_piece_color(s)]++;
        if (!q || (s && shogi_piece_color(s) == shogi_piece_color(q))) continue;
        int c = shogi_piece_color(q);
        came[c]++;
        /* a pawn's start rank is its side's third (rank g for sente, c for gote) */
        int k = shogi_sq_rank(sq), adv = c == SHOGI_SENTE ? 7 - k : k - 3;
        if (shogi_piece_type(q) == SHOGI_PAWN && adv > 1) steps[c] += adv - 1;
    }
    for (int c = 0; c < 2; c++) {
        int a = came[c] + steps[c];
        least[c] = left[c] > a ? left[c] : a;
    }
}

/* How many moves the view must hide for the first mover to have made first_n of them and the
 * other side other_n at least (the first mover has made as many as the other or one more). */
static int hidden_moves(int first_n, int other_n)
{
    if (first_n < other_n) return other_n - first_n;
    return first_n - 1 > other_n ? first_n - 1 - other_n : 0;
}

void shogi_reader_settled(struct shogi_reader *r, struct observation *o)
{
    if (!r->oriented || !o->board_found) return;
    bool turned = false;
    if (!r->sided) {
        /* Sente moved first: the side that made more moves since the start is sente, whose
         * moves are told from the start position, not from the last settled view (a first view
         * that showed a move of each side waited, and the next showed only the side to move
         * then: taken for the first mover, the board was turned wrong). */
        int least[2];
        least_moves(r, o, least);
        int mine = least[r->first_mover], theirs = least[!r->first_mover];
        int keep = hidden_moves(mine, theirs), turn = hidden_moves(theirs, mine);
        if (turn < keep) {
            shogi_reader_turn(r);
            uint8_t e[SHOGI_SQUARES];
            for (int i = 0; i < SHOGI_SQUARES; i++) {
                int w = r->expect[SHOGI_SQUARES - 1 - i];
                e[i] = w ? (uint8_t)(w ^ (1 << 4)) : 0;
            }
            memcpy(r->expect, e, sizeof e);
            for (int sq = 0; sq < SHOGI_SQUARES; sq++) r->named_conf[sq] = 1.0f;
            memset(r->left_unseen, 0, sizeof r->left_unseen);
            double lc[SHOGI_SQUARES];
            for (int i = 0; i < SHOGI_SQUARES; i++) lc[i] = r->line_cell[SHOGI_SQUARES - 1 - i];
            memcpy(r->line_cell, lc, sizeof lc);
            turn_observation(o);
            turned = true;
        }
        r->sided = turn != keep;
    }
    /* what the cells and the rim look like is what the next frames are compared with, and the
     * cells' pictures what a capture is told by (after a turn the samples are of the old view:
     * taken again on the next frame, the pictures at the next settled view): taken from the last
     * frame read whole and clear where it shows this view, else from this one */
    bool use[SHOGI_SQUARES] = {false};
    bool from_clear = !turned && clear_shows(r, o, use);
    if (turned) {
        r->ref_valid = false;
        r->have_ref = false;
        r->clear.valid = false;
        memset(r->have_settled_sig, 0, sizeof r->have_settled_sig);
    } else {
        for (int sq = 0; sq < SHOGI_SQUARES; sq++)
            memcpy(r->sig_ref[sq], use[sq] ? r->clear.sig[sq] : r->sig_now[sq],
                   sizeof r->sig_ref[sq]);
        /* (each cell's look is taken below with its reading; those of another grid are void) */
        if (memcmp(r->settled_H, r->grid.H, sizeof r->settled_H)) {
            memset(r->have_settled_sig, 0, sizeof r->have_settled_sig);
            memcpy(r->settled_H, r->grid.H, sizeof r->settled_H);
        }
        memcpy(r->rim_ref, from_clear ? r->clear.rim : r->rim_now, sizeof r->rim_ref);
        double follow = from_clear ? r->clear.follow : r->follow_now;
        if (follow > 0) r->follow_ref = follow;
        if (!r->have_ref) {
            for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
                memcpy(r->ref_patch[sq], use[sq] ? r->clear.patch[sq] : r->patch[sq],
                       SHOGI_PATCH_AREA);
                r->ref_tex[sq] = use[sq] ? r->clear.tex[sq] : r->tex[sq];
            }
            r->have_ref = true;
        }
    }
    uint8_t before[SHOGI_SQUARES];
    memcpy(before, r->expect, sizeof before);
    bool pending[SHOGI_SQUARES];
    left_for_cover(r, o, pending);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = shogi_obs_point(sq);
        /* out of the picture, its piece seen arrived in view (shogi_arrivals.c) */
        if (!turned && r->left_unseen[sq] && !r->seen[sq] && !o->occluded[p] && !o->point[p]) {
            r->expect[sq] = 0;
            r->named_conf[sq] = 1.0f;
            continue;
        }
        if (o->occluded[p] || o->conf[p] < 0.5f || pending[sq]) continue;
        /* a face seen surely where it arrived teaches the book (promoted faces above all); the
         * patches are of the old view after a turn */
        if (!turned && o->point[p] && o->point[p] != r->expect[sq] && o->conf[p] >= 0.9f) {
            shogi_book_add(&r->book, o->point[p], r->patch[sq]);
            shogi_red_learn(r, o->point[p], sq);
        }
        /* a piece named in doubt stays in doubt while it stays (read so, kept so) */
        if (o->point[p] != r->expect[sq] || !o->point[p])
            r->named_conf[sq] = o->point[p] && o->conf[p] < 0.9f ? o->conf[p] : 1.0f;
        r->expect[sq] = o->point[p];
        if (!turned) r->line_cell[sq] = use[sq] ? r->clear.ev[sq] : r->last_ev[sq];
        if (!turned) {
            memcpy(r->ref_patch[sq], use[sq] ? r->clear.patch[sq] : r->patch[sq], SHOGI_PATCH_AREA);
            r->ref_tex[sq] = use[sq] ? r->clear.tex[sq] : r->tex[sq];
            memcpy(r->sig_settled[sq], use[sq] ? r->clear.sig[sq] : r->sig_now[sq],
                   sizeof r->sig_settled[sq]);
            r->have_settled_sig[sq] = true;
            r->moved_since[sq] = false;
        }
    }
    update_hands(r, before);
}

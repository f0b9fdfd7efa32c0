/* vision/shogi_track.c — the shogi reader: recognise the initial position (and so which side is
 * sente), learn the piece book from it, then follow the game on settled frames by the legal move
 * whose result best explains the cells (occupancy, owner, and the book for type and promotion). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vision/shogi_reader_internal.h"
#include "vision/vision_internal.h"

struct shogi_reader *shogi_reader_new(void)
{
    struct shogi_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->finder = shogi_finder_new();
    if (!r->finder) {
        free(r);
        return NULL;
    }
    return r;
}

void shogi_reader_free(struct shogi_reader *r)
{
    if (!r) return;
    shogi_finder_free(r->finder);
    free(r->gray_buf);
    free(r);
}

const struct shogi_grid *shogi_reader_grid(const struct shogi_reader *r)
{
    return &r->grid;
}

const struct shogi_reader_stats *shogi_reader_stats(const struct shogi_reader *r)
{
    return &r->stats;
}

static double dist2(const double a[2], const double b[2])
{
    return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]);
}

/* Every cell's patch and texture (and its redness, when red and the frame has colour). */
static void sample_cells(struct shogi_reader *r, const struct vision_image *gray, bool red)
{
    memset(r->cached, 0, sizeof r->cached); /* patches of another frame or grid */
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        r->seen[sq] = shogi_grid_patch(&r->grid, gray, sq, r->patch[sq]);
        r->tex[sq] = shogi_cell_texture(r->patch[sq]);
        if (red) shogi_cell_measure_red(r, sq);
    }
}

void shogi_reader_sample(struct shogi_reader *r, const struct vision_image *gray)
{
    sample_cells(r, gray, true);
}

/* Find the grid again and take it when it is the same board moved a little (a bump): the turn of
 * the new corners that lies nearest the old ones keeps sente's side. */
bool shogi_reader_regrid(struct shogi_reader *r, const struct vision_image *gray)
{
    struct shogi_grid g;
    r->stats.refound = false;
    if (!shogi_grid_find(r->finder, gray, &g)) return r->have_grid;
    if (!r->have_grid) {
        r->grid = g;
        r->have_grid = r->stats.refound = true;
        return true;
    }
    double cell2 = dist2(r->grid.corners[0], r->grid.corners[1]) / 81.0;
    int bestk = 0;
    double best = 1e300;
    for (int k = 0; k < 4; k++) {
        double worst = 0;
        for (int i = 0; i < 4; i++) {
            double d = dist2(g.corners[(i + k) & 3], r->grid.corners[i]);
            if (d > worst) worst = d;
        }
        if (worst < best) {
            best = worst;
            bestk = k;
        }
    }
    if (best > 0.25 * cell2) return true; /* another lattice (or a wrong one): keep ours */
    /* the same board where it was: ours sits on the lines (refined) and the book's patches were
     * taken through it, the finder's is a little off */
    if (best < 0.15 * 0.15 * cell2) return true;
    shogi_grid_rotate(&g, bestk);
    r->grid = g;
    r->stats.refound = true;
    return true;
}

/* How well the textures split into the initial position's occupied and empty cells: the gap
 * between the classes in pooled standard deviations. */
static double startpos_split(const double *tex, const bool *seen,
                             const struct shogi_position *start, double *thr)
{
    double s[2] = {0, 0}, ss[2] = {0, 0}, lo = 1e300, hi = -1e300;
    *thr = 0;
    int n[2] = {0, 0};
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        if (!seen[sq]) continue;
        int o = start->board[sq] != 0;
        s[o] += tex[sq];
        ss[o] += tex[sq] * tex[sq];
        n[o]++;
        if (o && tex[sq] < lo) lo = tex[sq];
        if (!o && tex[sq] > hi) hi = tex[sq];
    }
    if (n[0] < 10 || n[1] < 10) return -1e300; /* too little of the board in view */
    double m0 = s[0] / n[0], m1 = s[1] / n[1];
    double v = (ss[0] - n[0] * m0 * m0 + ss[1] - n[1] * m1 * m1) / (n[0] + n[1]);
    *thr = lo > hi ? 0.5 * (lo + hi) : 0.5 * (m0 + m1);
    return (m1 - m0) / sqrt(v > 1e-9 ? v : 1e-9);
}

/* Sente's pieces of the initial position upright, gote's turned: whose apexes point up? */
static double start_apex(const struct shogi_reader *r, const struct shogi_position *start)
{
    float mag[SHOGI_PATCH_AREA] = {0};
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        if (start->board[sq] && r->seen[sq])
            shogi_cell_edges(r->patch[sq], shogi_piece_color(start->board[sq]) == SHOGI_GOTE, mag);
    return shogi_outline_apex(mag);
}

/* The finder's 10-line window may sit a line or two off (pieces hide the lines) and its corners
 * may start anywhere: the occupancy pattern of the known position picks the window and tells
 * ranks from files (and, for a position that is not symmetric, which side is which). Leaves the
 * best in r->grid; returns its split (see startpos_split). */
static double fit_start(struct shogi_reader *r, const struct vision_image *gray,
                        const struct shogi_grid *found, const struct shogi_position *start,
                        int turns, double *thr)
{
    struct shogi_grid best_grid = *found;
    double best = -1e300;
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
            for (int k = 0; k < turns; k++) {
                r->grid = *found;
                shogi_grid_shift(&r->grid, dx, dy);
                shogi_grid_rotate(&r->grid, k);
                sample_cells(r, gray, false); /* the start's windows: grey is enough */
                double t = 0, split = startpos_split(r->tex, r->seen, start, &t);
                if (split > best) {
                    best = split;
                    best_grid = r->grid;
                    *thr = t;
                }
            }
    r->grid = best_grid;
    return best;
}

/* A start whose grid shows this share of its bare borders' lines is taken at once (see
 * shogi_grid_line_share); a lower one only when no other setting of the finder does better. */
#define START_LINES_GOOD 0.9

bool shogi_reader_start(struct shogi_reader *r, const struct vision_image *gray)
{
    struct shogi_position start;
    shogi_position_startpos(&start);
    return shogi_reader_start_from(r, gray, &start);
}

/* A position that looks the same turned half round (the initial one): which side is sente waits
 * for the first move. */
static bool half_turn_symmetric(const struct shogi_position *pos)
{
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int p = pos->board[sq], q = pos->board[SHOGI_SQUARES - 1 - sq];
        if ((p == 0) != (q == 0)) return false;
        if (p && (shogi_piece_type(p) != shogi_piece_type(q) ||
                  shogi_piece_color(p) == shogi_piece_color(q)))
            return false;
    }
    return true;
}

bool shogi_reader_start_from(struct shogi_reader *r, const struct vision_image *img,
                             const struct shogi_position *known)
{
    const struct vision_image *gray = shogi_reader_frame(r, img);
    if (!gray) return false;
    /* the finder's tunings tried in turn: the table's grain and the komadai's stripes can lure
     * one setting onto the wrong lattice (measured on rendered starts; the default first) */
    static const struct {
        double line_c;
        int votes;
    } tunings[] = {{8, 30}, {4, 30}, {8, 50}, {8, 15}, {4, 50}, {12, 30}};
    double t0 = vision_now_ms();
    memset(&r->stats, 0, sizeof r->stats);
    r->have_grid = r->oriented = false;
    shogi_book_clear(&r->book);
    memset(r->red_cls, 0, sizeof r->red_cls);
    struct shogi_position start = *known;
    bool symmetric = half_turn_symmetric(&start);
    bool ok = false;
    /* each tuning at the finder's working size (640 px), then at twice that (the frame enlarged
     * when smaller): the thin lines of a shogiban seen at a slant are a pixel wide or less at 640
     * and the finder's line mask loses them (first frames of 24 seeds a scenario, 640 x 480:
     * started right 101 -> 132 of 144, the side view 12 -> 20, the player view 15 -> 23);
     * then all of it again on thin lines (the median erases lines a pixel wide; first frames of
     * 12 seeds a scenario: started 65 -> 72 of 72). Last, so that a start the median finds is
     * the median's: thin lines placed some grids worse (a partial view's film lost half its
     * moves with thin lines first, side views 10 of 60 with thin lines second per tuning) */
    const size_t nt = sizeof tunings / sizeof tunings[0];
    /* a start the occupancy accepts may still sit a third of a cell off the lines (a lattice of
     * the wrong pitch that refining does not pull back: the daemon's overhead film, read from
     * a colour JPEG's grey, started on one and missed a gold's move); take a start whose lines
     * show at once, else the one whose lines show best of all the finder's settings */
    struct shogi_grid best_grid;
    double best_share = -2;
    for (size_t i = 0; i < 4 * nt && best_share < START_LINES_GOOD; i++) {
        struct shogi_grid found;
        shogi_finder_filter(r->finder, i < 2 * nt ? FIND_MEDIAN : FIND_THIN_LINES);
        size_t t = i % (2 * nt);
        bool got = shogi_grid_find_at(r->finder, gray, t < nt ? 1 : 2, tunings[t % nt].line_c,
                                      tunings[t % nt].votes, &found);
        shogi_finder_filter(r->finder, FIND_MEDIAN);
        if (!got) continue;
        r->have_grid = true;
        double thr = 0;
        fit_start(r, gray, &found, &start, symmetric ? 2 : 4, &thr);
        /* the finder's grid can sit a third of a cell off (slanted views): onto the lines of the
         * start's bare cells, and the occupancy threshold taken again through it */
        shogi_grid_refine(&r->grid, gray, start.board);
        shogi_reader_sample(r, gray);
        startpos_split(r->tex, r->seen, &start, &thr);
        int wrong = 0;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++)
            wrong += r->seen[sq] && (r->tex[sq] > thr) != (start.board[sq] != 0);
        /* each player's pieces point away from them: the near ones up. The initial position
         * looks the same from either player's side, so which side is sente waits for the first
         * move (sente moves first). */
        if (wrong > 2 || start_apex(r, &start) <= 0) continue;
        double share = shogi_grid_line_share(gray, &r->grid, start.board);
        if (share > best_share) {
            best_share = share;
            best_grid = r->grid;
        }
    }
    ok = best_share > -2;
    if (ok) {
        double thr = 0;
        r->grid = best_grid;
        shogi_reader_sample(r, gray);
        startpos_split(r->tex, r->seen, &start, &thr);
        r->book.occ_threshold = thr;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            if (start.board[sq] && r->seen[sq]) {
                shogi_book_add(&r->book, start.board[sq], r->patch[sq]);
                shogi_red_learn(r, start.board[sq], sq);
            }
        }
        r->pos = start;
        r->oriented = true;
        r->sided = !symmetric;
        shogi_reader_expect_position(r, &start);
        /* the start's cells as they look: a cell that still looks so holds what it held */
        shogi_cells_sig(r, gray, r->sig_settled);
        memcpy(r->settled_H, r->grid.H, sizeof r->settled_H);
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            r->have_settled_sig[sq] = r->seen[sq];
            r->moved_since[sq] = false;
        }
    }
    r->stats.found = r->have_grid;
    r->stats.oriented = r->oriented;
    r->stats.ms = vision_now_ms() - t0;
    return ok;
}

/* The owner the book prefers for an occupied cell. */
int shogi_reader_cell_owner(const struct shogi_book *b, const uint8_t *patch)
{
    int p = shogi_book_classify(b, patch, NULL);
    return p ? (int)shogi_piece_color(p) : -1;
}

/* How well piece fits the patch: the book's entry, or for a face not yet seen (a promotion) how
 * little the unpromoted face fits. */
double shogi_reader_piece_fit(const struct shogi_book *b, int piece, const uint8_t *patch)
{
    double s = shogi_book_match(b, piece, patch);
    if (s > -2) return s;
    int t = shogi_piece_type(piece);
    if (!shogi_type_is_promoted(t)) return -1;
    int base = shogi_piece(shogi_piece_color(piece), shogi_type_base(t));
    double sb = shogi_book_match(b, base, patch);
    return sb > -2 ? 0.5 - sb : -1;
}

/* Occupancy and owner of every cell as the book sees them; how many disagree with the position. */
static int read_cells(struct shogi_reader *r, bool occ[SHOGI_SQUARES], int owner[SHOGI_SQUARES])
{
    int changed = 0;
    for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
        int want = r->pos.board[sq];
        if (!r->seen[sq]) { /* out of view: no evidence either way (best_move skips it) */
            occ[sq] = false;
            owner[sq] = -2;
            continue;
        }
        occ[sq] = r->tex[sq] > r->book.occ_threshold;
        owner[sq] = occ[sq] ? shogi_reader_cell_owner(&r->book, r->patch[sq]) : -1;
        changed += occ[sq] != (want != 0) ||
                   (occ[sq] && want && owner[sq] != (int)shogi_piece_color(want));
    }
    return changed;
}

/* The legal move whose result disagrees with the fewest cells (ties: the book's fit of the piece
 * that lands); -1 when none. *mis: its disagreeing cells. */
static int best_move(const struct shogi_reader *r, const bool *occ, const int *owner,
                     const struct shogi_move *moves, int n, double *mis_out)
{
    int best = -1;
    double best_mis = 1e300, best_fit = -1e300;
    for (int i = 0; i < n; i++) {
        struct shogi_position after = r->pos;
        shogi_do_move(&after, moves[i]);
        double mis = 0;
        for (int sq = 0; sq < SHOGI_SQUARES; sq++) {
            int p = after.board[sq];
            if (owner[sq] == -2) continue;
            mis += occ[sq] != (p != 0);
            if (occ[sq] && p && owner[sq] != (int)shogi_piece_color(p)) mis += 1;
        }
        int to = moves[i].to;
        double fit = shogi_reader_piece_fit(&r->book, after.board[to], r->patch[to]);
        /* the ink's colour, when it speaks, decides between promoting and not */
        int vote = shogi_red_vote(r, to);
        if (vote) fit += shogi_type_is_promoted(shogi_piece_type(after.board[to])) ? vote : -vote;
        if (mis < best_mis || (mis == best_mis && fit > best_fit)) {
            best_mis = mis;
            best_fit = fit;
            best = i;
        }
    }
    *mis_out = best_mis;
    return best;
}

/* The view turned half round: the far player becomes the near one, so the book's owners swap and
 * its patches turn with the view (reversing a patch turns it half round). */
void shogi_reader_turn(struct shogi_reader *r)
{
    shogi_grid_rotate(&r->grid, 2);
    for (int t = 1; t < SHOGI_TYPES; t++) {
        int c = r->book.count[t][0];
        r->book.count[t][0] = r->book.count[t][1];
        r->book.count[t][1] = c;
        bool only = r->book.turned_only[t][0];
        r->book.turned_only[t][0] = r->book.turned_only[t][1];
        r->book.turned_only[t][1] = only;
        float nn = r->book.norm[t][0];
        r->book.norm[t][0] = r->book.norm[t][1];
        r->book.norm[t][1] = nn;
        for (int i = 0; i < SHOGI_PATCH_AREA; i++) {
            float v = r->book.tpl[t][0][i];
            r->book.tpl[t][0][i] = r->book.tpl[t][1][SHOGI_PATCH_AREA - 1 - i];
            r->book.tpl[t][1][SHOGI_PATCH_AREA - 1 - i] = v;
        }
    }
    r->book.generation++;
}

bool shogi_reader_track(struct shogi_reader *r, const struct vision_image *img,
                        struct shogi_position *pos)
{
    double t0 = vision_now_ms();
    const struct vision_image *gray = shogi_reader_frame(r, img);
    if (!gray) return false;
    r->stats.changed = 0;
    r->stats.move_fit = 0;
    r->stats.refound = false;
    if (!r->oriented) {
        r->stats.found = false;
        r->stats.ms = vision_now_ms() - t0;
        return false;
    }
    r->stats.found = true;
    bool occ[SHOGI_SQUARES];
    int owner[SHOGI_SQUARES];
    shogi_reader_sample(r, gray);
    r->stats.changed = read_cells(r, occ, owner);
    /* More cells changed than one move explains (a capture and a promotion touch two): the board
     * may have been bumped. Search it again; the finder's grid replaces ours only when it
     * explains the cells better. Otherwise the finder is not run at all (it costs most). */
    if (r->stats.changed > 3) {
        struct shogi_grid old = r->grid;
        shogi_reader_regrid(r, gray);
        if (r->stats.refound) {
            shogi_reader_sample(r, gray);
            bool occ2[SHOGI_SQUARES];
            int owner2[SHOGI_SQUARES];
            int changed2 = read_cells(r, occ2, owner2);
            if (changed2 < r->stats.changed) {
                memcpy(occ, occ2, sizeof occ2);
                memcpy(owner, owner2, sizeof owner2);
                r->stats.changed = changed2;
            } else {
                r->grid = old;
                r->stats.refound = false;
                shogi_reader_sample(r, gray);
            }
        }
    }
    if (r->stats.changed > 0) {
        struct shogi_move moves[SHOGI_MAX_MOVES];
        int n = shogi_legal_moves(&r->pos, moves);
        double mis;
        int best = best_move(r, occ, owner, moves, n, &mis);
        if (!r->sided) {
            /* the first move says which side is sente: try the view turned round too */
            shogi_reader_turn(r);
            shogi_reader_sample(r, gray);
            bool occ2[SHOGI_SQUARES];
            int owner2[SHOGI_SQUARES];
            int changed2 = read_cells(r, occ2, owner2);
            double mis2;
            int best2 = best_move(r, occ2, owner2, moves, n, &mis2);
            if (best2 >= 0 && mis2 < mis && mis2 < changed2) {
                memcpy(occ, occ2, sizeof occ2);
                memcpy(owner, owner2, sizeof owner2);
                best = best2;
                mis = mis2;
                r->stats.changed = changed2;
            } else {
                shogi_reader_turn(r);
                shogi_reader_sample(r, gray);
            }
        }
        /* take the move only when it explains the board better than no move at all */
        if (best >= 0 && mis < r->stats.changed) {
            shogi_do_move(&r->pos, moves[best]);
            int to = moves[best].to;
            shogi_book_add(&r->book, r->pos.board[to], r->patch[to]);
            shogi_red_learn(r, r->pos.board[to], to);
            r->stats.move_fit = mis;
            r->sided = true;
        }
    }
    r->stats.oriented = r->sided;
    if (pos) *pos = r->pos;
    r->stats.ms = vision_now_ms() - t0;
    return true;
}

/* A cell read cold: the book's best face, among the promoted or the plain faces when the ink's
 * colour says which (a promoted face the book has not seen: the promoted piece of the best plain
 * face that can promote). */
static int cold_piece(const struct shogi_reader *r, int sq)
{
    int vote = shogi_red_vote(r, sq);
    if (!vote) return shogi_book_classify(&r->book, r->patch[sq], NULL);
    float sc[SHOGI_TYPES][2];
    shogi_book_scores(&r->book, r->patch[sq], sc);
    int best = 0;
    double bs = -2;
    for (int t = 1; t < SHOGI_TYPES; t++)
        for (int c = 0; c < 2; c++) {
            bool prom = shogi_type_is_promoted((enum shogi_type)t);
            int as = t; /* the type the face reads as */
            if (vote > 0 && !prom) {
                if (!shogi_type_can_promote((enum shogi_type)t) ||
                    r->book.count[t + SHOGI_PROMOTED][c])
                    continue;
                as = t + SHOGI_PROMOTED;
            } else if (vote < 0 && prom) {
                continue;
            }
            if (sc[t][c] > -2 && sc[t][c] > bs) {
                bs = sc[t][c];
                best = shogi_piece((enum shogi_color)c, (enum shogi_type)as);
            }
        }
    return best ? best : shogi_book_classify(&r->book, r->patch[sq], NULL);
}

bool shogi_reader_cold(struct shogi_reader *r, const struct vision_image *img,
                       uint8_t board[SHOGI_SQUARES])
{
    double t0 = vision_now_ms();
    const struct vision_image *gray = shogi_reader_frame(r, img);
    if (!gray) return false;
    if (!r->oriented || !shogi_reader_regrid(r, gray)) {
        r->stats.ms = vision_now_ms() - t0;
        return false;
    }
    shogi_reader_sample(r, gray);
    for (int sq = 0; sq < SHOGI_SQUARES; sq++)
        board[sq] = r->tex[sq] > r->book.occ_threshold ? (uint8_t)cold_piece(r, sq) : 0;
    r->stats.ms = vision_now_ms() - t0;
    return true;
}

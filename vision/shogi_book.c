/* vision/shogi_book.c — the piece book: one mean patch per piece type and owner, learned from the
 * pieces seen where the position says they are, and classification by correlation with it. */
#include <math.h>
#include <string.h>

#include "vision/shogi_read.h"

#define N (SHOGI_PATCH * SHOGI_PATCH)
_Static_assert(N % 8 == 0, "match_entry sums eight at a time");

void shogi_book_clear(struct shogi_book *b)
{
    memset(b, 0, sizeof *b);
}

/* zero mean, unit norm: correlation is then a dot product, robust to light and contrast */
static void normalise(const uint8_t *patch, float *out)
{
    double mean = 0, ss = 0;
    for (int i = 0; i < N; i++) mean += patch[i];
    mean /= N;
    for (int i = 0; i < N; i++) ss += (patch[i] - mean) * (patch[i] - mean);
    double k = ss > 0 ? 1.0 / sqrt(ss) : 0;
    for (int i = 0; i < N; i++) out[i] = (float)((patch[i] - mean) * k);
}

static void add_entry(struct shogi_book *b, int t, int c, const float *v)
{
    /* running mean; renormalised when matched */
    if (b->turned_only[t][c]) {
        b->count[t][c] = 0;
        b->turned_only[t][c] = false;
    }
    int n = ++b->count[t][c];
    double nn = 0;
    for (int i = 0; i < N; i++) {
        b->tpl[t][c][i] += (v[i] - b->tpl[t][c][i]) / n;
        nn += (double)b->tpl[t][c][i] * b->tpl[t][c][i];
    }
    b->norm[t][c] = nn > 0 ? (float)sqrt(nn) : 0;
    b->generation++;
}

void shogi_book_add(struct shogi_book *b, int piece, const uint8_t *patch)
{
    int t = shogi_piece_type(piece), c = shogi_piece_color(piece);
    if (t <= 0 || t >= SHOGI_TYPES) return;
    float v[N];
    normalise(patch, v);
    add_entry(b, t, c, v);
    if (!shogi_type_is_promoted((enum shogi_type)t) || b->count[t][!c]) return;
    /* the patch is the cell's, in the view: the other owner's piece shows it turned half round
       (index i -> N - 1 - i) */
    float w[N];
    for (int i = 0; i < N; i++) w[i] = v[N - 1 - i];
    add_entry(b, t, !c, w);
    b->turned_only[t][!c] = true;
}

/* Eight partial sums in float: the compiler can vectorise them (a single double sum it may not
 * reorder); 576 products of unit-norm vectors lose nothing that matters to a correlation. */
static double match_entry(const float *tpl, float norm, const float *v)
{
    float acc[8] = {0};
    for (int i = 0; i < N; i += 8)
        for (int k = 0; k < 8; k++) acc[k] += tpl[i + k] * v[i + k];
    double dot = 0;
    for (int k = 0; k < 8; k++) dot += acc[k];
    return norm > 0 ? dot / norm : -2;
}

double shogi_book_match(const struct shogi_book *b, int piece, const uint8_t *patch)
{
    int t = shogi_piece_type(piece), c = shogi_piece_color(piece);
    if (t <= 0 || t >= SHOGI_TYPES || !b->count[t][c]) return -2;
    float v[N];
    normalise(patch, v);
    return match_entry(b->tpl[t][c], b->norm[t][c], v);
}

void shogi_book_scores(const struct shogi_book *b, const uint8_t *patch,
                       float scores[SHOGI_TYPES][2])
{
    float v[N];
    normalise(patch, v);
    for (int t = 0; t < SHOGI_TYPES; t++)
        for (int c = 0; c < 2; c++)
            scores[t][c] =
                t > 0 && b->count[t][c] ? (float)match_entry(b->tpl[t][c], b->norm[t][c], v) : -2;
}

int shogi_book_classify(const struct shogi_book *b, const uint8_t *patch, double *score)
{
    float v[N];
    normalise(patch, v);
    int best = 0;
    double bs = -2;
    for (int t = 1; t < SHOGI_TYPES; t++)
        for (int c = 0; c < 2; c++) {
            if (!b->count[t][c]) continue;
            double s = match_entry(b->tpl[t][c], b->norm[t][c], v);
            if (s > bs) {
                bs = s;
                best = shogi_piece(c, t);
            }
        }
    if (score) *score = bs;
    return best;
}

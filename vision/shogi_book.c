/* vision/shogi_book.c — the piece book: one mean patch per piece type and owner, learned from the
 * pieces seen where the position says they are, and classification by correlation with it. */
#include <math.h>
#include <string.h>

#include "vision/shogi_read.h"

#define N (SHOGI_PATCH * SHOGI_PATCH)

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

void shogi_book_add(struct shogi_book *b, int piece, const uint8_t *patch)
{
    int t = shogi_piece_type(piece), c = shogi_piece_color(piece);
    if (t <= 0 || t >= SHOGI_TYPES) return;
    float v[N];
    normalise(patch, v);
    /* running mean; renormalised when matched */
    int n = ++b->count[t][c];
    for (int i = 0; i < N; i++) b->tpl[t][c][i] += (v[i] - b->tpl[t][c][i]) / n;
}

static double match_entry(const float *tpl, const float *v)
{
    double dot = 0, nn = 0;
    for (int i = 0; i < N; i++) {
        dot += tpl[i] * v[i];
        nn += tpl[i] * tpl[i];
    }
    return nn > 0 ? dot / sqrt(nn) : -2;
}

double shogi_book_match(const struct shogi_book *b, int piece, const uint8_t *patch)
{
    int t = shogi_piece_type(piece), c = shogi_piece_color(piece);
    if (t <= 0 || t >= SHOGI_TYPES || !b->count[t][c]) return -2;
    float v[N];
    normalise(patch, v);
    return match_entry(b->tpl[t][c], v);
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
            double s = match_entry(b->tpl[t][c], v);
            if (s > bs) {
                bs = s;
                best = shogi_piece(c, t);
            }
        }
    if (score) *score = bs;
    return best;
}

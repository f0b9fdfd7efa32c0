/* render/photo.c — what a small camera does to the picture: uneven light (vignette, a gradient
 * from the window), warm or cool white balance, auto-exposure and white-balance drift over time,
 * a lamp's glare spot, focus blur and sensor noise. JPEG artefacts come from the encoder's
 * quality (jpeg_out.c). */
#include <stdlib.h>
#include <string.h>

#include "render/render_internal.h"

void lighting_choose(struct lighting *l, enum render_scenario sc, int w, int h, struct rng *r)
{
    double res = w / 1280.0;
    double el = (sc == RENDER_SCENE_DIM ? rng_range(r, 35, 60) : rng_range(r, 48, 78)) *
                3.14159265358979 / 180;
    double az = rng_range(r, 0, 6.283185307179586);
    l->dir = v3_norm(v3(cos(el) * cos(az), cos(el) * sin(az), sin(el)));
    double temp = sc == RENDER_SCENE_DIM ? rng_range(r, 0.5, 1.0) : rng_range(r, -1, 1);
    l->tint[0] = 1 + 0.07 * temp;
    l->tint[1] = 1 + 0.01 * temp;
    l->tint[2] = 1 - 0.12 * temp;
    l->exposure = sc == RENDER_SCENE_DIM ? rng_range(r, 0.55, 0.72) : rng_range(r, 0.9, 1.08);
    l->drift_amp = rng_range(r, 0.01, 0.05);
    l->drift_period = rng_range(r, 3, 12);
    l->vignette = rng_range(r, 0.1, 0.35);
    double g = sc == RENDER_SCENE_GLARE ? 0.35 : 0.15;
    l->grad_x = rng_range(r, -g, g);
    l->grad_y = rng_range(r, -g, g);
    bool glare = sc == RENDER_SCENE_GLARE || rng_unit(r) < 0.25;
    l->glare_u = rng_range(r, 0.2, 0.8) * w;
    l->glare_v = rng_range(r, 0.2, 0.8) * h;
    l->glare_r = rng_range(r, 0.04, 0.12) * w;
    l->glare_i = glare ? rng_range(r, 50, sc == RENDER_SCENE_GLARE ? 150 : 90) : 0;
    l->blur_sigma =
        (sc == RENDER_SCENE_DIM ? rng_range(r, 0.9, 1.8) : rng_range(r, 0.35, 0.9)) * res;
    l->noise = sc == RENDER_SCENE_DIM ? rng_range(r, 5, 9) : rng_range(r, 1.5, 3.5);
}

float *photo_gain_field(const struct lighting *l, int w, int h)
{
    float *f = malloc(sizeof *f * (size_t)w * h * 2);
    if (!f) return NULL;
    double diag2 = (w * w + h * h) / 4.0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double dx = x - w / 2.0, dy = y - h / 2.0, r2 = (dx * dx + dy * dy) / diag2;
            double gain = (1 - l->vignette * r2 * r2 * 0.9 - l->vignette * 0.1 * r2) *
                          (1 + l->grad_x * dx / w * 2) * (1 + l->grad_y * dy / h * 2);
            double gx = x - l->glare_u, gy = y - l->glare_v;
            double glare =
                l->glare_i > 0
                    ? l->glare_i * exp(-(gx * gx + gy * gy) / (2 * l->glare_r * l->glare_r))
                    : 0;
            f[(size_t)y * w + x] = (float)gain;
            f[(size_t)w * h + (size_t)y * w + x] = (float)glare;
        }
    return f;
}

typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));
typedef float f32x4 __attribute__((vector_size(16)));

static inline u32x4 xs32x4(u32x4 *s)
{
    u32x4 x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* The noise's generator is xorshift32 (the PRNG streams are too slow per pixel), four rows at a
 * time below. It is linear over GF(2): n steps are a 32x32 bit matrix (column i is the image of bit
 * i). With it each row's starting state is known, so several rows draw their noise side by side
 * (independent chains the processor overlaps) and the picture stays bit for bit the same. */
struct gf2_matrix {
    uint32_t col[32];
};

static uint32_t gf2_apply(const struct gf2_matrix *m, uint32_t v)
{
    uint32_t out = 0;
    for (int i = 0; i < 32; i++)
        if (v >> i & 1) out ^= m->col[i];
    return out;
}

static struct gf2_matrix gf2_compose(const struct gf2_matrix *a, const struct gf2_matrix *b)
{
    struct gf2_matrix c;
    for (int i = 0; i < 32; i++) c.col[i] = gf2_apply(a, b->col[i]);
    return c;
}

/* The matrix of n xorshift steps. */
static struct gf2_matrix xs32_jump(uint64_t n)
{
    struct gf2_matrix step, acc;
    for (int i = 0; i < 32; i++) {
        u32x4 v = {1u << i, 0, 0, 0};
        step.col[i] = xs32x4(&v)[0];
        acc.col[i] = 1u << i;
    }
    for (; n; n >>= 1) {
        if (n & 1) acc = gf2_compose(&step, &acc);
        step = gf2_compose(&step, &step);
    }
    return acc;
}

/* Sensor noise, four rows side by side in vector registers (GCC's generic vectors: SSE2 here,
 * NEON on the Pi). Per pixel six draws: a roughly Gaussian sum of three uniforms, brighter
 * pixels a bit more (shot noise), and a little per channel. to_u8's rounding is done exactly in
 * float: v + 0.5 rounds up exactly when v's fraction is at least one half. */
enum { NOISE_LANES = 4 };

static inline f32x4 low_bits(u32x4 v, uint32_t mask)
{
    return __builtin_convertvector((i32x4)(v & mask), f32x4);
}

static inline i32x4 to_u8x4(f32x4 v)
{
    i32x4 t = __builtin_convertvector(v, i32x4);
    f32x4 frac = v - __builtin_convertvector(t, f32x4);
    t -= (i32x4)(frac >= 0.5f); /* a true comparison is -1 */
    t &= (i32x4)(t > 0);
    i32x4 over = (i32x4)(t > 255);
    return (t & ~over) | (255 & over);
}

static void noise_lanes(uint8_t *const rows[NOISE_LANES], u32x4 *s, int w, float sigma)
{
    for (int x = 0; x < w; x++) {
        f32x4 n = (low_bits(xs32x4(s), 0xffff) + low_bits(xs32x4(s), 0xffff) +
                   low_bits(xs32x4(s), 0xffff)) /
                      65536.0f -
                  1.5f;
        i32x4 ch[3]; /* built whole: lane by lane, -O3 takes them for used uninitialised */
        for (int k = 0; k < 3; k++)
            ch[k] = (i32x4){rows[0][x * 3 + k], rows[1][x * 3 + k], rows[2][x * 3 + k],
                            rows[3][x * 3 + k]};
        i32x4 sum = ch[0] + ch[1] + ch[2];
        f32x4 lum = __builtin_convertvector(sum, f32x4) / 765.0f;
        f32x4 amp = sigma * 2.0f * (0.6f + 0.6f * lum);
        for (int k = 0; k < 3; k++) {
            f32x4 c = (low_bits(xs32x4(s), 0xff) / 255.0f - 0.5f) * 0.35f;
            i32x4 out = to_u8x4(__builtin_convertvector(ch[k], f32x4) + amp * (n + c));
            rows[0][x * 3 + k] = (uint8_t)out[0]; /* written out: GCC -O2 keeps a loop here */
            rows[1][x * 3 + k] = (uint8_t)out[1];
            rows[2][x * 3 + k] = (uint8_t)out[2];
            rows[3][x * 3 + k] = (uint8_t)out[3];
        }
    }
}

static bool photo_noise(cv_image *img, uint32_t s, float sigma)
{
    int w = img->width, h = img->height;
    struct gf2_matrix row_jump = xs32_jump(6 * (uint64_t)w);
    /* rows past the bottom (a height not a multiple of four) draw into a spare row */
    uint8_t *spare = calloc((size_t)w * 3, 1);
    if (!spare) return false;
    for (int y = 0; y < h; y += NOISE_LANES) {
        u32x4 st;
        uint8_t *rows[NOISE_LANES];
        for (int j = 0; j < NOISE_LANES; j++) {
            st[j] = j ? gf2_apply(&row_jump, st[j - 1]) : s;
            rows[j] = y + j < h ? img->data + (size_t)(y + j) * img->stride : spare;
        }
        noise_lanes(rows, &st, w, sigma);
        s = st[NOISE_LANES - 1];
    }
    free(spare);
    return true;
}

/* Exposure, white balance and glare four pixels (twelve bytes) at a time. Each byte gets the same
 * float operations in the same order as pixel by pixel, p * g * mul + a * share (a * 1.0f is a,
 * exactly), rounded by to_u8x4; the vectors hold bytes in memory order, so the gain, glare,
 * multiplier and glare share of each lane come from shuffles: lanes of twelve bytes belong to
 * pixels 0 0 0 1 | 1 1 2 2 | 2 3 3 3 and channels 0 1 2 0 | 1 2 0 1 | 2 0 1 2. */
typedef uint8_t u8x4 __attribute__((vector_size(4)));

struct expose {
    f32x4 mul[3], share[3]; /* per lane, for the three groups of four bytes */
};

static struct expose expose_init(const float mul[3])
{
    const float share[3] = {1.0f, 0.98f, 0.92f};
    struct expose e;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 4; j++) {
            e.mul[k][j] = mul[(4 * k + j) % 3];
            e.share[k][j] = share[(4 * k + j) % 3];
        }
    return e;
}

static inline void expose_bytes(uint8_t *q, f32x4 g, f32x4 a, f32x4 mul, f32x4 share)
{
    u8x4 b;
    memcpy(&b, q, sizeof b);
    f32x4 v = __builtin_convertvector(b, f32x4);
    u8x4 out = __builtin_convertvector(to_u8x4(v * g * mul + a * share), u8x4);
    memcpy(q, &out, sizeof out);
}

static inline void expose4(uint8_t *p, const float *gain, const float *glare,
                           const struct expose *e)
{
    f32x4 g, a;
    memcpy(&g, gain, sizeof g);
    memcpy(&a, glare, sizeof a);
    const i32x4 m0 = {0, 0, 0, 1}, m1 = {1, 1, 2, 2}, m2 = {2, 3, 3, 3};
    expose_bytes(p, __builtin_shuffle(g, m0), __builtin_shuffle(a, m0), e->mul[0], e->share[0]);
    expose_bytes(p + 4, __builtin_shuffle(g, m1), __builtin_shuffle(a, m1), e->mul[1], e->share[1]);
    expose_bytes(p + 8, __builtin_shuffle(g, m2), __builtin_shuffle(a, m2), e->mul[2], e->share[2]);
}

/* One row; the last pixels (a width not a multiple of four) go through a padded copy. */
static void expose_row(uint8_t *row, const float *gain, const float *glare, int w,
                       const struct expose *e)
{
    int x = 0;
    for (; x + 4 <= w; x += 4) expose4(row + x * 3, gain + x, glare + x, e);
    if (x == w) return;
    uint8_t p[12] = {0};
    float g[4] = {0}, a[4] = {0};
    int n = w - x;
    memcpy(p, row + x * 3, (size_t)n * 3);
    memcpy(g, gain + x, sizeof *g * n);
    memcpy(a, glare + x, sizeof *a * n);
    expose4(p, g, a, e);
    memcpy(row + x * 3, p, (size_t)n * 3);
}

bool photo_finish(const struct lighting *l, cv_image *img, int frame, uint64_t seed,
                  const float *field)
{
    int w = img->width, h = img->height;
    struct rng r = rng_stream(seed, RS_FRAME, (uint64_t)frame);
    double t = frame / 30.0, ph = rng_range(&r, 0, 0.3);
    double drift = sin(6.283185307179586 * t / l->drift_period + ph);
    double drift2 = sin(6.283185307179586 * t / (l->drift_period * 1.7) + 1.3);
    double expo = l->exposure * (1 + l->drift_amp * drift);
    float mul[3] = {(float)(expo * l->tint[0] * (1 + 0.4 * l->drift_amp * drift2)),
                    (float)(expo * l->tint[1]),
                    (float)(expo * l->tint[2] * (1 - 0.4 * l->drift_amp * drift2))};
    const float *glare = field + (size_t)w * h;
    struct expose e = expose_init(mul);
    for (int y = 0; y < h; y++)
        expose_row(img->data + (size_t)y * img->stride, field + (size_t)y * w,
                   glare + (size_t)y * w, w, &e);
    if (cv_gaussian_blur(img, l->blur_sigma) != CV_OK) return false;
    return photo_noise(img, (uint32_t)(rng_next(&r) | 1), (float)l->noise);
}

/* tests/vision/shogi_film.c — see shogi_film.h. */
#include "tests/vision/shogi_film.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/testutil.h"
#include "tests/vision/settle_knobs.h"
#include "vision/shogi_read.h"

struct shogi_record **sf_load_games(int *n)
{
    struct shogi_record **games = NULL;
    struct shogi_record_error err = {0};
    const char *shared = tu_shared_data_dir();
    char path[1024];
    if (shared)
        snprintf(path, sizeof path, "%s", tu_path(shared, "shogi-games/lishogi-400.usi"));
    else
        snprintf(path, sizeof path, "%s", tu_path(tu_fixtures_dir(), "shogi-rules/lishogi-20.usi"));
    *n = shogi_record_read_file(path, &games, &err);
    if (*n < 1) fail_msg("%s: %s", path, err.message);
    tu_note("games from %s (%d)", path, *n);
    return games;
}

struct render_shogi *sf_open(const struct shogi_record *rec, enum render_scenario sc, uint64_t seed,
                             int moves, unsigned signals)
{
    return sf_open_bumped(rec, sc, seed, moves, signals, -1);
}

struct render_shogi *sf_open_bumped(const struct shogi_record *rec, enum render_scenario sc,
                                    uint64_t seed, int moves, unsigned signals, double bump_rate)
{
    struct render_opts o;
    render_opts_default(&o);
    o.width = SF_WIDTH;
    o.height = SF_HEIGHT;
    o.seed = seed;
    o.scenario = sc;
    o.max_moves = moves;
    o.signals = signals;
    if (bump_rate >= 0) o.bump_rate = bump_rate;
    char err[300] = "";
    struct render_shogi *r = render_shogi_open(rec, &o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    return r;
}

void sf_gray(const struct render_shogi_frame *f, uint8_t *g, struct vision_image *img)
{
    for (int i = 0; i < f->width * f->height; i++) {
        const uint8_t *p = f->rgb + 3 * i;
        g[i] = (uint8_t)((77 * p[0] + 150 * p[1] + 29 * p[2]) >> 8);
    }
    *img = (struct vision_image){f->width,
                                 f->height,
                                 f->width,
                                 VISION_GRAY8,
                                 g,
                                 (int64_t)(f->t * 1e9),
                                 (uint64_t)f->index + 1};
}

void sf_settle_params(struct settle_params *sp)
{
    settle_params_default(sp);
    sp->min_conf = SHOGI_SETTLE_MIN_CONF;
    film_settle_knobs(sp);
}

void sf_frame(const struct render_shogi_frame *f, uint8_t *g, struct vision_image *img)
{
    if (getenv("SHOGI_FILM_GRAY")) {
        sf_gray(f, g, img);
        return;
    }
    *img = (struct vision_image){f->width,
                                 f->height,
                                 3 * f->width,
                                 VISION_RGB24,
                                 f->rgb,
                                 (int64_t)(f->t * 1e9),
                                 (uint64_t)f->index + 1};
}

double sf_pct(long a, long b)
{
    return b ? 100.0 * a / b : 0;
}

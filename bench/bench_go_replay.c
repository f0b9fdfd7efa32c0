/* bench/bench_go_replay.c — moves per second replaying every Go game through the rules core with
 * superko checks (positional, situational) and with simple ko. Prints figures; asserts nothing.
 *
 * usage: bench_go_replay [DIR|FILE...]   the first that holds games is used
 *        (default: ../shared/data/go-games, else tests/fixtures) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "board/go.h"
#include "record/sgf.h"

struct games {
    struct go_record **v;
    int n, cap;
    long moves;
};

static void add_file(struct games *gs, const char *path)
{
    struct go_record **recs = NULL;
    struct sgf_error err = {0};
    int n = sgf_read_file(path, &recs, &err);
    for (int i = 0; i < n; i++) {
        if (gs->n == gs->cap)
            gs->v =
                realloc(gs->v, (size_t)(gs->cap = gs->cap ? gs->cap * 2 : 1024) * sizeof *gs->v);
        gs->v[gs->n++] = recs[i];
        for (int k = 0; k < recs[i]->nnodes; k++) gs->moves += recs[i]->nodes[k].has_move;
    }
    free(recs);
}

static void walk(struct games *gs, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        size_t l = strlen(path);
        if (l > 4 && !strcasecmp(path + l - 4, ".sgf")) add_file(gs, path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        walk(gs, sub);
    }
    closedir(d);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long replay_all(const struct games *gs, const struct go_rules *rules)
{
    long played = 0;
    for (int i = 0; i < gs->n; i++) {
        const struct go_record *r = gs->v[i];
        struct go_game *g = go_game_new(r->width, r->height, rules);
        if (!g) continue;
        for (int k = 0; k < r->nnodes; k++) {
            const struct go_record_node *nd = &r->nodes[k];
            for (int s = 0; s < nd->nsetup; s++)
                go_game_setup(g, nd->setup[s].color, nd->setup[s].point);
            if (nd->has_move) {
                go_game_play(g, nd->move);
                played++;
            }
        }
        go_game_free(g);
    }
    return played;
}

int main(int argc, char **argv)
{
    struct games gs = {0};
    double t0 = now();
    /* The first path that holds games: the shared corpora when present, else the fixtures. */
    if (argc > 1)
        for (int i = 1; i < argc && gs.n == 0; i++) walk(&gs, argv[i]);
    else {
        walk(&gs, "../shared/data/go-games");
        if (gs.n == 0) walk(&gs, "tests/fixtures");
    }
    double t_read = now() - t0;
    printf("read %d games, %ld moves in %.2f s (SGF reading: %.0f games/s)\n", gs.n, gs.moves,
           t_read, gs.n / (t_read > 0 ? t_read : 1e-9));
    if (gs.n == 0) return 1;
    static const char *const presets[] = {"Tromp-Taylor", "AGA", "Japanese 1989"};
    static const char *const what[] = {"positional superko", "situational superko",
                                       "simple ko + no-result"};
    for (int p = 0; p < 3; p++) {
        const struct go_rules *rules = go_rules_find(presets[p]);
        int reps = 0;
        long played = 0;
        double t = now(), el;
        do {
            played += replay_all(&gs, rules);
            reps++;
            el = now() - t;
        } while (el < 1.0);
        printf("%-14s (%s): %.2f M moves/s (%d passes over %ld moves, %.2f s)\n", presets[p],
               what[p], played / el / 1e6, reps, gs.moves, el);
    }
    for (int i = 0; i < gs.n; i++) go_record_free(gs.v[i]);
    free(gs.v);
    return 0;
}

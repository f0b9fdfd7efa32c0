/* tests/vision/go_film.c — a Go game filmed end to end (tests/vision/go_film.h). */
#include "tests/vision/go_film.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/vision/go_align.h"
#include "tests/vision/settle_knobs.h"
#include "vision/vision.h"

/* The guard's events: moves kept (in the reader's grid), flags kept with their ply and frame. */
static void take(struct go_film *out, const struct guard_event *ev, int m, int frame, double t,
                 struct go_move *raw, bool debug)
{
    for (int k = 0; k < m; k++) {
        if (debug) fprintf(stderr, " %s %s", guard_kind_name(ev[k].kind), ev[k].text);
        if (ev[k].kind == GUARD_MOVE && ev[k].move.point != GO_PASS && out->ngot < GO_FILM_MAX) {
            out->got_t[out->ngot] = t;
            raw[out->ngot++] = ev[k].move;
        }
        if (guard_is_flag(ev[k].kind) && out->nflags < GO_FILM_MAX) {
            struct go_film_flag *f = &out->flag[out->nflags++];
            f->kind = ev[k].kind;
            f->ply = ev[k].ply;
            f->frame = frame;
            snprintf(f->text, sizeof f->text, "%s", ev[k].text);
        }
    }
}

static void grey_of(const struct render_frame *f, uint8_t *grey)
{
    for (int p = 0; p < f->width * f->height; p++) {
        const uint8_t *c = f->rgb + 3 * p;
        grey[p] = (uint8_t)((77 * c[0] + 150 * c[1] + 29 * c[2]) >> 8);
    }
}

/* Debug (go_film_run's debug): every 15th frame, the points the reader holds occluded with what
 * lies there; GO_FILM_DUMP=N writes frame N as /tmp/go_film_frame.ppm. */
static void debug_frame(const struct render_frame *f, const struct observation *obs, bool found,
                        int i, int sym, int n)
{
    const char *dump = getenv("GO_FILM_DUMP");
    if (dump && atoi(dump) == i) {
        FILE *fp = fopen("/tmp/go_film_frame.ppm", "wb");
        if (fp) {
            fprintf(fp, "P6 %d %d 255\n", f->width, f->height);
            fwrite(f->rgb, 3, (size_t)f->width * f->height, fp);
            fclose(fp);
        }
    }
    if (!found || i % 15) return;
    int occ = 0, low = 0;
    for (int p = 0; p < OBS_MAX * OBS_MAX; p++) {
        occ += obs->occluded[p];
        low += !obs->occluded[p] && obs->conf[p] > 0 && obs->conf[p] < 0.5f;
    }
    fprintf(stderr, "  frame %d: %d occluded, %d below 0.5%s:", i, occ, low,
            f->hand_in_view ? " (hand in view)" : "");
    for (int p = 0; p < OBS_MAX * OBS_MAX; p++)
        if (obs->occluded[p]) {
            int x, y;
            go_sym_apply(sym < 0 ? 0 : sym, n, p % OBS_MAX, p / OBS_MAX, &x, &y);
            uint8_t c = f->stone[go_point(x, y)];
            fprintf(stderr, " %d,%d(%s)", x, y, c == GO_BLACK ? "B" : c == GO_WHITE ? "W" : ".");
        }
    fprintf(stderr, "\n");
}

void go_film_run(const struct go_record *rec, const struct render_opts *o, bool colour, bool debug,
                 struct go_film *out)
{
    memset(out, 0, sizeof *out);
    out->sym = -1;
    char err[300] = "";
    struct render_go *r = render_go_open(rec, o, err, sizeof err);
    if (!r) fail_msg("%s", err);
    struct render_summary sum;
    render_go_summary(r, &sum);
    if (o->faults & sum.faults_unplaced) { /* no place for it in this game: nothing to film */
        out->unplaced = true;
        render_go_close(r);
        return;
    }
    if (debug)
        fprintf(stderr, "seed %llu: %s\n", (unsigned long long)o->seed, render_go_describe(r));
    const struct go_rules *rules = go_rules_find(rec->rules ? rec->rules : "chinese");
    if (!rules) rules = go_rules_find("chinese");
    struct vision_detector *det = vision_detector_new();
    det->board_size = rec->width;
    struct settle_params sp;
    settle_params_default(&sp);
    film_settle_knobs(&sp);
    struct settler *st = settle_new(&sp);
    struct go_obs_guard *guard = go_obs_guard_new(rec->width, rec->height, rules, NULL);
    struct render_frame *f = malloc(sizeof *f);
    struct observation *obs = malloc(sizeof *obs);
    struct stable_obs *so = malloc(sizeof *so);
    uint8_t *grey = malloc((size_t)o->width * o->height);
    assert_true(det && st && guard && f && obs && so && grey);
    struct guard_event ev[GUARD_OBS_MAX_EVENTS];
    struct go_move raw[GO_FILM_MAX];
    bool last_found = false;
    /* the record's moves, as far as the footage goes (a fault's stones are none of them) */
    for (int n = 0, ply = 0; n < rec->nnodes && (!o->max_moves || ply < o->max_moves); n++) {
        if (!rec->nodes[n].has_move) continue;
        ply++;
        if (rec->nodes[n].move.point != GO_PASS && out->nwant < GO_FILM_MAX)
            out->want[out->nwant++] = rec->nodes[n].move;
    }
    int want_ply[GO_FILM_MAX]; /* the ply of each stone wanted */
    for (int n = 0, ply = 0, k = 0; n < rec->nnodes && k < out->nwant; n++) {
        if (!rec->nodes[n].has_move) continue;
        ply++;
        if (rec->nodes[n].move.point != GO_PASS) want_ply[k++] = ply;
    }
    for (int k = 0; k < out->nwant; k++) out->want_t[k] = out->next_t[k] = -1;
    int nf = render_go_frame_count(r), i = 0;
    for (i = 0; i < nf; i++) {
        if (!render_go_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        for (int k = 0; k < out->nwant; k++) {
            if (out->want_t[k] < 0 && f->ply >= want_ply[k]) out->want_t[k] = f->t;
            if (out->next_t[k] < 0 && f->ply > want_ply[k]) out->next_t[k] = f->t;
        }
        for (int k = 0; k < f->nevents; k++) {
            const struct render_event *e = &f->events[k];
            if (!strcmp(e->kind, "fault") && out->nfaults < 8) {
                struct go_film_fault *ft = &out->fault[out->nfaults++];
                snprintf(ft->name, sizeof ft->name, "%s", e->name);
                ft->ply = e->ply;
                ft->frame = i;
                ft->point = e->point;
            }
        }
        struct vision_image img = {f->width, f->height, 3 * f->width, VISION_RGB24, f->rgb, 0, 0};
        if (!colour) {
            grey_of(f, grey);
            img = (struct vision_image){f->width, f->height, f->width, VISION_GRAY8, grey, 0, 0};
        }
        img.t_ns = (int64_t)llround(f->t * 1e9);
        img.seq = (uint64_t)i + 1;
        /* GO_FILM_DUMP=N with debug: the reader's stage images of frame N in /tmp/go_film_debug */
        det->debug = debug && getenv("GO_FILM_DUMP") && atoi(getenv("GO_FILM_DUMP")) == i;
        det->debug_dir = "/tmp/go_film_debug";
        bool found = vision_read_go(det, &img, obs);
        if (debug) debug_frame(f, obs, found, i, out->sym, rec->width);
        int s = -1;
        double off = found ? go_align(obs, f, &s) : -1;
        bool placed = found && off < 0.5 * go_spacing(f);
        if (debug && i % 15 == 0)
            fprintf(stderr, "  frame %d: %s%s, corners %.1f px off (spacing %.1f), track %.2f\n", i,
                    found ? "found" : "not found", det->stats.refound ? " afresh" : "", off,
                    go_spacing(f), det->stats.track_score);
        if (!f->hand_in_view) {
            out->nohand++;
            out->nohand_found += placed;
        }
        if (placed && out->sym < 0) out->sym = s; /* the camera stays: the first view fixes it */
        out->found_any |= found;
        last_found = found;
        if (!found || !settle_push(st, obs, so)) continue;
        int m = go_obs_guard_observe_stable(guard, so, ev);
        if (debug) {
            int stones = 0, low = 0;
            for (int p = 0; p < OBS_MAX * OBS_MAX; p++) {
                stones += so->obs.point[p] == OBS_BLACK || so->obs.point[p] == OBS_WHITE;
                low += so->obs.conf[p] > 0 && so->obs.conf[p] < 0.9f;
            }
            fprintf(stderr, "frame %d (truth ply %d%s): settled, %d stones, %d unsure;", i, f->ply,
                    f->settled ? "" : ", hand", stones, low);
        }
        take(out, ev, m, i, f->t, raw, debug);
        if (debug) fprintf(stderr, "\n");
    }
    /* as the daemon finishes: the last view counts even if it had no time to settle */
    int m = last_found ? go_obs_guard_observe(guard, obs, ev) : 0;
    take(out, ev, m, i, f->t, raw, debug);
    m = go_obs_guard_flush(guard, (int64_t)llround(f->t * 1e9), ev);
    take(out, ev, m, i, f->t, raw, debug);
    int n = rec->width;
    for (int k = 0; k < out->ngot && out->sym >= 0; k++) {
        int x, y;
        go_sym_apply(out->sym, n, go_x(raw[k].point), go_y(raw[k].point), &x, &y);
        out->got[k] = (struct go_move){raw[k].color, go_point(x, y)};
    }
    for (int k = 0; k < out->nwant && k < out->ngot && out->sym >= 0; k++)
        out->right +=
            out->got[k].color == out->want[k].color && out->got[k].point == out->want[k].point;
    if (debug) {
        fprintf(stderr, "sym %d; want:", out->sym);
        for (int k = 0; k < out->nwant; k++)
            fprintf(stderr, " %c%d,%d", out->want[k].color == GO_BLACK ? 'B' : 'W',
                    go_x(out->want[k].point), go_y(out->want[k].point));
        fprintf(stderr, "\ngot (board):");
        for (int k = 0; k < out->ngot && out->sym >= 0; k++)
            fprintf(stderr, " %c%d,%d", out->got[k].color == GO_BLACK ? 'B' : 'W',
                    go_x(out->got[k].point), go_y(out->got[k].point));
        fprintf(stderr, "\n");
    }
    free(grey);
    free(so);
    free(obs);
    free(f);
    go_obs_guard_free(guard);
    settle_free(st);
    vision_detector_free(det);
    render_go_close(r);
}

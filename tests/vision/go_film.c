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

/* The record as the guard's events make it: a move (one not seen included: the record keeps its
 * ply, GO_NOPOINT, never right) goes in at its ply; a take-back (the guard amending a move, a
 * restored board, a prisoner taken off late) cuts the record back to the ply it names, and the
 * moves then come again. The film is scored on the final record, as the daemon's files keep it.
 * Every move event is also kept as it came (ev), for the old count of moves right. */
struct film_record {
    int n, ply[GO_FILM_MAX];
    struct go_move m[GO_FILM_MAX];
    double t[GO_FILM_MAX];
    int nev;
    struct go_move ev[GO_FILM_MAX];
};

/* The guard's events: moves into the record (in the reader's grid), flags kept with their ply and
 * frame. */
static void take(struct go_film *out, const struct guard_event *ev, int m, int frame, double t,
                 struct film_record *rec, bool debug)
{
    for (int k = 0; k < m; k++) {
        if (debug) fprintf(stderr, " %s %s", guard_kind_name(ev[k].kind), ev[k].text);
        if (ev[k].kind == GUARD_MOVE && ev[k].reason == GUARD_REASON_TAKEBACK) {
            while (rec->n > 0 && rec->ply[rec->n - 1] > ev[k].ply) rec->n--;
            out->takebacks++;
        } else if (ev[k].kind == GUARD_MOVE && ev[k].reason != GUARD_REASON_SETUP &&
                   ev[k].move.point != GO_PASS && rec->n < GO_FILM_MAX) {
            rec->ply[rec->n] = ev[k].ply;
            rec->t[rec->n] = t;
            rec->m[rec->n++] = ev[k].move;
        }
        /* as counted before the record was: every move event but a pass, the take-back's too */
        if (ev[k].kind == GUARD_MOVE && ev[k].move.point != GO_PASS && rec->nev < GO_FILM_MAX)
            rec->ev[rec->nev++] = ev[k].move;
        if (guard_is_flag(ev[k].kind) && out->nflags < GO_FILM_MAX) {
            struct go_film_flag *f = &out->flag[out->nflags++];
            f->kind = ev[k].kind;
            f->ply = ev[k].ply;
            f->frame = frame;
            snprintf(f->text, sizeof f->text, "%s", ev[k].text);
        }
    }
}

/* A move in the reader's grid turned onto the board (a move not seen stays GO_NOPOINT). */
static struct go_move on_board(struct go_move m, int sym, int n)
{
    if (m.point < 0) return m;
    int x, y;
    go_sym_apply(sym, n, go_x(m.point), go_y(m.point), &x, &y);
    return (struct go_move){m.color, go_point(x, y)};
}

static void grey_of(const struct render_frame *f, uint8_t *grey)
{
    for (int p = 0; p < f->width * f->height; p++) {
        const uint8_t *c = f->rgb + 3 * p;
        grey[p] = (uint8_t)((77 * c[0] + 150 * c[1] + 29 * c[2]) >> 8);
    }
}

/* Debug (go_film_run's debug): every 15th frame, the points the reader holds occluded with what
 * lies there (GO_FILM_UNSURE=1: also the points read below 0.5, as read, truth and confidence);
 * GO_FILM_DUMP=N writes frame N as /tmp/go_film_frame.ppm. */
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
    if (found && getenv("GO_FILM_WRONG") && !f->hand_in_view && sym >= 0) {
        /* every point read wrong or held covered (#) on a frame without a hand: reader's x,y,
         * board's, read, truth, confidence */
        int nw = 0;
        for (int p = 0; p < OBS_MAX * OBS_MAX; p++) {
            if (p % OBS_MAX >= n || p / OBS_MAX >= n) continue;
            int x, y;
            go_sym_apply(sym, n, p % OBS_MAX, p / OBS_MAX, &x, &y);
            uint8_t c = f->stone[go_point(x, y)];
            int want = c == GO_BLACK ? OBS_BLACK : c == GO_WHITE ? OBS_WHITE : OBS_EMPTY;
            bool occ = obs->occluded[p];
            if (!occ && (obs->point[p] == want || obs->conf[p] < 0.5f)) continue;
            if (!nw++) fprintf(stderr, "  frame %d wrong:", i);
            fprintf(stderr, " r%d,%d=b%d,%d(%c%c %.2f)", p % OBS_MAX, p / OBS_MAX, x, y,
                    occ ? '#' : ".BW?"[obs->point[p] & 3], ".BW?"[want & 3], obs -> conf[p]);
        }
        if (nw) fprintf(stderr, "\n");
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
    if (getenv("GO_FILM_UNSURE")) { /* the points below 0.5: read value, truth, confidence */
        fprintf(stderr, "\n   unsure:");
        for (int p = 0; p < OBS_MAX * OBS_MAX; p++)
            if (!obs->occluded[p] && obs->conf[p] > 0 && obs->conf[p] < 0.5f) {
                int x, y;
                go_sym_apply(sym < 0 ? 0 : sym, n, p % OBS_MAX, p / OBS_MAX, &x, &y);
                uint8_t c = f->stone[go_point(x, y)];
                fprintf(stderr, " %d,%d(%c%c %.2f)", x, y, ".BW?"[obs->point[p] & 3],
                        c == GO_BLACK   ? 'B'
                        : c == GO_WHITE ? 'W'
                                        : '.',
                        obs->conf[p]);
            }
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
    static struct film_record fr;
    memset(&fr, 0, sizeof fr);
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
    bool seen[GO_FILM_MAX] = {false};
    int nf = render_go_frame_count(r), i = 0;
    for (i = 0; i < nf; i++) {
        if (!render_go_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        for (int k = 0; k < out->nwant; k++) {
            if (out->want_t[k] < 0 && f->ply >= want_ply[k]) {
                out->want_t[k] = f->t;
                const double *px = f->point_px[out->want[k].point];
                double m = 0.5 * go_spacing(f);
                seen[k] = px[0] >= m && px[1] >= m && px[0] < f->width - m && px[1] < f->height - m;
            }
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
        take(out, ev, m, i, f->t, &fr, debug);
        if (debug) fprintf(stderr, "\n");
    }
    /* as the daemon finishes: the last view counts even if it had no time to settle */
    int m = last_found ? go_obs_guard_observe(guard, obs, ev) : 0;
    take(out, ev, m, i, f->t, &fr, debug);
    m = go_obs_guard_flush(guard, (int64_t)llround(f->t * 1e9), ev);
    take(out, ev, m, i, f->t, &fr, debug);
    int n = rec->width;
    out->ngot = out->sym >= 0 ? fr.n : 0;
    for (int k = 0; k < out->ngot; k++) {
        out->got[k] = on_board(fr.m[k], out->sym, n);
        out->got_t[k] = fr.t[k];
    }
    for (int k = 0; k < out->nwant && k < out->ngot; k++)
        out->right +=
            out->got[k].color == out->want[k].color && out->got[k].point == out->want[k].point;
    for (int k = 0; k < out->nwant; k++) {
        out->inview += seen[k];
        out->right_inview += seen[k] && k < out->ngot && out->got[k].color == out->want[k].color &&
                             out->got[k].point == out->want[k].point;
    }
    out->nevents = out->sym >= 0 ? fr.nev : 0;
    for (int k = 0; k < out->nwant && k < out->nevents; k++) {
        struct go_move g = on_board(fr.ev[k], out->sym, n);
        out->right_events += g.color == out->want[k].color && g.point == out->want[k].point;
    }
    if (debug) {
        fprintf(stderr, "sym %d; want:", out->sym);
        for (int k = 0; k < out->nwant; k++)
            fprintf(stderr, " %c%d,%d", out->want[k].color == GO_BLACK ? 'B' : 'W',
                    go_x(out->want[k].point), go_y(out->want[k].point));
        fprintf(stderr, "\ngot (board):");
        for (int k = 0; k < out->ngot && out->sym >= 0; k++)
            if (out->got[k].point < 0)
                fprintf(stderr, " %c(unseen)", out->got[k].color == GO_BLACK ? 'B' : 'W');
            else
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

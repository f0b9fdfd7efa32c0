/* tests/render/truth_replay_go.c — the Go half of truth_replay.h. The rules core's game follows
 * the truth: at every settled frame the change since the last settled frame is judged (a move,
 * a fault, a signal, the counting); the frame of a change is the frame its point last changed. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/render/truth_replay.h"

#define MAX_MARKS 64

struct mark {
    char name[16];
    int frame, ply, point;
};

struct go_check {
    const struct go_record *rec;
    struct go_game *g;
    uint8_t settled[GO_POINTS], prev[GO_POINTS];
    int changed_at[GO_POINTS]; /* frame of the point's last change */
    int noff;
    bool counting;
    struct mark marks[MAX_MARKS], seen[MAX_MARKS];
    int nmarks, nseen;
    bool illegal; /* an illegal move stands on the board: the next change must put it back */
    struct tr_result *res;
};

static void flag(struct go_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void flag(struct go_check *c, const char *fmt, ...)
{
    c->res->flags++;
    if (c->res->nnotes >= TR_MAX_NOTES) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->res->notes[c->res->nnotes++], sizeof c->res->notes[0], fmt, ap);
    va_end(ap);
}

static void observe(struct go_check *c, const char *name, int frame, int point)
{
    if (c->nseen == MAX_MARKS) return;
    struct mark *m = &c->seen[c->nseen++];
    snprintf(m->name, sizeof m->name, "%s", name);
    m->frame = frame;
    m->ply = go_game_ply(c->g);
    m->point = point;
}

/* A game on rec's board and rules, with these stones, White to move after a handicap. */
static struct go_game *start_game(const struct go_record *rec, const uint8_t *stones)
{
    struct go_game *g = go_game_new(rec->width, rec->height, go_rules_find(rec->rules));
    if (!g) return NULL;
    for (int p = 0; stones && p < GO_POINTS; p++)
        if (stones[p]) go_game_setup(g, (enum go_color)stones[p], p);
    if (rec->handicap >= 2) go_game_set_handicap(g, rec->handicap);
    if (rec->nnodes > 0 && rec->nodes[0].player != GO_EMPTY)
        go_game_set_to_move(g, rec->nodes[0].player);
    return g;
}

bool tr_go_record_clean(const struct go_record *rec)
{
    struct go_game *g = go_game_new(rec->width, rec->height, go_rules_find(rec->rules));
    if (!g) return false;
    bool ok = true, started = false;
    for (int n = 0; n < rec->nnodes && ok; n++) {
        const struct go_record_node *node = &rec->nodes[n];
        for (int s = 0; s < node->nsetup; s++) {
            ok = ok && !started; /* stones set up during the game are no moves */
            go_game_setup(g, node->setup[s].color, node->setup[s].point);
        }
        if (!started && (node->has_move || n + 1 == rec->nnodes)) {
            started = true; /* the start position, as the render's first frame shows it */
            if (rec->handicap >= 2) go_game_set_handicap(g, rec->handicap);
            if (rec->nodes[0].player != GO_EMPTY) go_game_set_to_move(g, rec->nodes[0].player);
        }
        if (node->has_move) ok = ok && go_game_play(g, node->move).kind == GO_LEGAL;
    }
    go_game_free(g);
    return ok;
}

static bool board_is(const struct go_game *g, const uint8_t *pos)
{
    for (int p = 0; p < GO_POINTS; p++)
        if ((uint8_t)go_game_at(g, p) != pos[p]) return false;
    return true;
}

/* The change from the last settled position to cur, at settled frame f. */
static void judge(struct go_check *c, const struct render_frame *fr)
{
    const uint8_t *cur = fr->stone;
    int added[GO_POINTS], removed[GO_POINTS], na = 0, nr = 0, other = 0;
    for (int p = 0; p < GO_POINTS; p++) {
        if (cur[p] == c->settled[p]) continue;
        if (c->settled[p] == GO_EMPTY)
            added[na++] = p;
        else if (cur[p] == GO_EMPTY)
            removed[nr++] = p;
        else
            other++;
    }
    if (na + nr + other == 0) return;
    if (c->illegal) { /* the illegal move put back: the board is the game's again */
        c->illegal = false;
        if (!board_is(c->g, cur))
            flag(c, "frame %d ply %d: an illegal move not put back", fr->index, go_game_ply(c->g));
        memcpy(c->settled, cur, GO_POINTS);
        return;
    }
    if (c->counting) { /* the counting after the game: stones off, in and moved are no moves */
        memcpy(c->settled, cur, GO_POINTS);
        return;
    }
    enum go_color to_move = go_game_to_move(c->g);
    char name[8];
    if (other == 0 && na == 1 && cur[added[0]] == to_move) {
        struct go_move m = {.color = to_move, .point = added[0]};
        struct go_verdict v = go_game_check(c->g, m);
        if (v.kind == GO_ILLEGAL_KO || v.kind == GO_ILLEGAL_SUICIDE) {
            /* the board shows exactly the stone put (a ko: the stone it takes gone) */
            struct go_game *g2 = go_game_copy(c->g);
            if (v.kind == GO_ILLEGAL_KO) go_game_play(g2, m);
            bool fits = v.kind == GO_ILLEGAL_KO ? board_is(g2, cur) : na == 1 && nr == 0;
            go_game_free(g2);
            if (fits) {
                observe(c, v.kind == GO_ILLEGAL_KO ? "ko-retaken" : "suicide",
                        c->changed_at[m.point], m.point);
                c->illegal = true;
                memcpy(c->settled, cur, GO_POINTS);
                return;
            }
        }
        if (v.kind != GO_LEGAL) {
            flag(c, "frame %d ply %d: %s %s is %s", fr->index, go_game_ply(c->g),
                 to_move == GO_BLACK ? "B" : "W", go_point_name(m.point, fr->rows, name),
                 go_verdict_name(v.kind));
        } else {
            struct go_game *g2 = go_game_copy(c->g);
            go_game_play(g2, m);
            int left[GO_POINTS], nl = 0;
            bool fits = true;
            for (int p = 0; p < GO_POINTS && fits; p++) {
                if ((uint8_t)go_game_at(g2, p) == cur[p]) continue;
                /* a prisoner still lying where it lay */
                if (go_game_at(g2, p) == GO_EMPTY && cur[p] == c->settled[p])
                    left[nl++] = p;
                else
                    fits = false;
            }
            if (fits) {
                go_game_free(c->g);
                c->g = g2;
                c->res->moves++;
                if (nl) { /* the board keeps them: so does the game that follows the truth */
                    observe(c, "captures-left", c->changed_at[m.point], m.point);
                    for (int k = 0; k < nl; k++)
                        go_game_setup(c->g, (enum go_color)cur[left[k]], left[k]);
                }
                memcpy(c->settled, cur, GO_POINTS);
                return;
            }
            go_game_free(g2);
        }
    }
    const char *fault = NULL;
    int at = -1, point = GO_NOPOINT;
    if (other == 0 && na == 1 && nr == 0 && cur[added[0]] == go_other(to_move)) {
        fault = "same-color"; /* one more stone of the colour that just moved */
        at = c->changed_at[added[0]];
        point = added[0];
    } else if (other == 0 && na == 0 && nr == 1) {
        fault = "removed-stone";
        at = c->changed_at[removed[0]];
        point = removed[0];
    } else if (other == 0 && na == 1 && nr == 1 && cur[added[0]] == c->settled[removed[0]] &&
               abs(go_x(added[0]) - go_x(removed[0])) + abs(go_y(added[0]) - go_y(removed[0])) ==
                   1) {
        fault = "moved-stone"; /* slid to a neighbouring point: seen when it leaves */
        at = c->changed_at[removed[0]];
        point = removed[0];
    } else if (other == 0 && na == 2 && nr == 0 && cur[added[0]] == to_move &&
               cur[added[1]] == to_move && c->changed_at[added[0]] == c->changed_at[added[1]]) {
        observe(c, "resign", c->changed_at[added[0]], added[0]); /* two stones at once */
        memcpy(c->settled, cur, GO_POINTS);
        return;
    }
    if (!fault) {
        flag(c, "frame %d ply %d: %d stones added, %d removed, %d turned: no move, fault or signal",
             fr->index, go_game_ply(c->g), na, nr, other);
    } else {
        observe(c, fault, at, point);
        for (int p = 0; p < GO_POINTS; p++)
            if (cur[p] != c->settled[p]) go_game_setup(c->g, (enum go_color)cur[p], p);
    }
    memcpy(c->settled, cur, GO_POINTS);
    if (!board_is(c->g, cur)) flag(c, "frame %d: the game no longer follows the truth", fr->index);
}

/* Events of frame fr that are not stone changes: the time line's marks, bumps, passes. */
static void events(struct go_check *c, const struct render_frame *fr)
{
    for (int e = 0; e < fr->nevents; e++) {
        const struct render_event *ev = &fr->events[e];
        if (!strcmp(ev->kind, "fault") || !strcmp(ev->kind, "signal")) {
            if (c->nmarks == MAX_MARKS) continue;
            struct mark *m = &c->marks[c->nmarks++];
            snprintf(m->name, sizeof m->name, "%s", ev->name);
            m->frame = fr->index;
            m->ply = ev->ply;
            m->point = ev->point;
            bool signal = !strcmp(ev->kind, "signal");
            c->res->marks++;
            c->res->faults += !signal;
            c->res->signals += signal;
        } else if (!strcmp(ev->kind, "bump")) {
            /* ordinary bumps stay within 10 mm and 1.5 degrees (timeline.c); more is a knock */
            if (fabs(ev->dx_mm) > 10 || fabs(ev->dy_mm) > 10 || fabs(ev->rot_deg) > 1.5)
                observe(c, "knocked", fr->index, GO_NOPOINT);
        } else if (!strcmp(ev->kind, "pass")) {
            struct go_move m = {.color = ev->color, .point = GO_PASS};
            struct go_verdict v = go_game_check(c->g, m);
            if (v.kind != GO_LEGAL)
                flag(c, "frame %d: pass by %s is %s", fr->index, ev->color == GO_BLACK ? "B" : "W",
                     go_verdict_name(v.kind));
            go_game_play(c->g, m);
            c->res->moves++;
        }
    }
    for (int k = c->noff; k < fr->noff; k++) { /* a stone put off the grid */
        enum go_color to_move = go_game_to_move(c->g);
        if (fr->off_color[k] == to_move) {
            observe(c, "pass", fr->index, GO_NOPOINT);
            continue;
        }
        int near = -1; /* the end: beyond the grid's lower right corner */
        double best = 1e30;
        for (int q = 0; q < 4; q++) {
            double dx = fr->off_px[k][0] - fr->corners[q][0],
                   dy = fr->off_px[k][1] - fr->corners[q][1];
            if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, near = q;
        }
        if (near == 2)
            observe(c, "end", fr->index, GO_NOPOINT);
        else
            flag(c, "frame %d: a stone of the side not to move off the grid near corner %d",
                 fr->index, near);
    }
    c->noff = fr->noff;
    if (fr->counting && !c->counting) {
        observe(c, "counting", fr->index, GO_NOPOINT);
        c->counting = true;
    }
}

/* Every mark seen as it says, and nothing seen that no mark names. */
static void match_marks(struct go_check *c)
{
    bool used[MAX_MARKS] = {false};
    for (int i = 0; i < c->nmarks; i++) {
        const struct mark *m = &c->marks[i];
        bool found = false;
        for (int j = 0; j < c->nseen && !found; j++) {
            const struct mark *s = &c->seen[j];
            if (used[j] || strcmp(m->name, s->name) != 0 || m->frame != s->frame ||
                m->ply != s->ply || (m->point != GO_NOPOINT && m->point != s->point))
                continue;
            used[j] = found = true;
        }
        if (found) {
            c->res->marks_found++;
            bool signal = !strcmp(m->name, "pass") || !strcmp(m->name, "end") ||
                          !strcmp(m->name, "resign") || !strcmp(m->name, "counting");
            c->res->signals_found += signal;
            c->res->faults_found += !signal;
        } else {
            flag(c, "%s at frame %d ply %d: not seen there", m->name, m->frame, m->ply);
        }
    }
    for (int j = 0; j < c->nseen; j++)
        if (!used[j])
            flag(c, "%s seen at frame %d ply %d: no event says so", c->seen[j].name,
                 c->seen[j].frame, c->seen[j].ply);
}

bool tr_replay_go(const struct go_record *rec, const struct render_opts *o, struct tr_result *res,
                  char *err, size_t errlen)
{
    struct render_opts to = *o;
    to.truth_only = true;
    memset(res, 0, sizeof *res);
    struct render_go *r = render_go_open(rec, &to, err, errlen);
    if (!r) return false;
    struct render_frame *f = malloc(sizeof *f);
    struct go_check *c = calloc(1, sizeof *c);
    bool ok = f && c;
    int nf = render_go_frame_count(r);
    for (int i = 0; ok && i < nf; i++) {
        if (!render_go_frame(r, i, f, err, errlen)) {
            ok = false;
            break;
        }
        if (i == 0) {
            c->rec = rec;
            c->res = res;
            c->g = start_game(rec, f->stone);
            memcpy(c->settled, f->stone, GO_POINTS);
            memcpy(c->prev, f->stone, GO_POINTS);
            if (!c->g) {
                snprintf(err, errlen, "no game for %dx%d", rec->width, rec->height);
                ok = false;
                break;
            }
        }
        for (int p = 0; p < GO_POINTS; p++)
            if (f->stone[p] != c->prev[p]) c->changed_at[p] = i;
        memcpy(c->prev, f->stone, GO_POINTS);
        if (f->settled) judge(c, f);
        events(c, f);
        if (f->settled && !c->counting && f->ply != go_game_ply(c->g))
            flag(c, "frame %d: the truth says ply %d, the rules core has played %d", i, f->ply,
                 go_game_ply(c->g));
        res->frames++;
    }
    if (ok) {
        if (!f->settled) flag(c, "the last frame is not settled");
        match_marks(c);
    }
    if (c) go_game_free(c->g);
    free(c);
    free(f);
    render_go_close(r);
    if (!ok && !err[0]) snprintf(err, errlen, "out of memory");
    return ok;
}

/* record/event_record.c — see event_record.h. */
#include "record/event_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool go_event_record_init(struct go_event_record *r, int size, const struct go_rules *rules)
{
    memset(r, 0, sizeof *r);
    r->size = size;
    r->rules = rules;
    r->position = go_game_new(size, size, rules);
    return r->position != NULL;
}

/* The position before the first move: empty, or the handicap stones with White to move. */
static struct go_game *start_position(const struct go_event_record *r)
{
    struct go_game *g = go_game_new(r->size, r->size, r->rules);
    if (!g || !r->nsetup) return g;
    for (int i = 0; i < r->nsetup; i++) go_game_setup(g, GO_BLACK, r->setup[i]);
    go_game_set_handicap(g, r->handicap); /* White moves next; the stones count in scoring */
    return g;
}

void go_event_record_handicap(struct go_event_record *r, int n, const int *points)
{
    r->handicap = n;
    r->nsetup = 0;
    for (int i = 0; points && i < n && i < 9; i++) r->setup[r->nsetup++] = points[i];
    go_game_free(r->position);
    r->position = start_position(r);
}

void go_event_record_free(struct go_event_record *r)
{
    go_game_free(r->position);
    for (int i = 0; r->notes && i <= r->cap; i++) free(r->notes[i]);
    free(r->notes);
    free(r->moves);
    memset(r, 0, sizeof *r);
}

static bool grow(struct go_event_record *r)
{
    if (r->nmoves + 1 < r->cap) return true;
    int cap = r->cap ? r->cap * 2 : 64;
    struct go_move *m = realloc(r->moves, (size_t)cap * sizeof *m);
    if (!m) return false;
    r->moves = m;
    char **n = realloc(r->notes, (size_t)(cap + 1) * sizeof *n);
    if (!n) return false;
    for (int i = r->cap ? r->cap + 1 : 0; i <= cap; i++) n[i] = NULL;
    r->notes = n;
    r->cap = cap;
    return true;
}

void go_event_record_note(struct go_event_record *r, int ply, const char *text)
{
    if (!grow(r)) return;
    if (ply < 0) ply = 0;
    if (ply > r->nmoves) ply = r->nmoves;
    char *old = r->notes[ply];
    size_t len = (old ? strlen(old) + 1 : 0) + strlen(text) + 1;
    char *s = malloc(len);
    if (!s) return;
    snprintf(s, len, "%s%s%s", old ? old : "", old ? "\n" : "", text);
    free(old);
    r->notes[ply] = s;
}

/* Cut the record back to ply moves and replay the position. */
static void truncate_to(struct go_event_record *r, int ply)
{
    if (ply < 0 || ply >= r->nmoves) return;
    for (int i = ply + 1; i <= r->nmoves; i++) {
        free(r->notes[i]);
        r->notes[i] = NULL;
    }
    r->nmoves = ply;
    go_game_free(r->position);
    r->position = start_position(r);
    for (int i = 0; r->position && i < r->nmoves; i++) go_game_play(r->position, r->moves[i]);
}

bool go_event_record_apply(struct go_event_record *r, const struct guard_event *ev)
{
    char text[512];
    if (ev->kind == GUARD_MOVE && ev->reason == GUARD_REASON_TAKEBACK) {
        truncate_to(r, ev->ply);
        return false;
    }
    if (ev->kind == GUARD_MOVE && ev->reason == GUARD_REASON_SETUP) {
        snprintf(text, sizeof text, "Referee: position accepted as set up. %s", ev->text);
        go_event_record_note(r, r->nmoves, text);
        return false;
    }
    if (ev->kind == GUARD_MOVE || ev->kind == GUARD_PASS) {
        if (!grow(r)) return false;
        struct go_move m = ev->move;
        /* a move not seen: a pass node, the text (where it may be) as its comment */
        bool unseen = ev->kind == GUARD_MOVE && ev->reason == GUARD_REASON_UNSEEN;
        if (ev->kind == GUARD_PASS || unseen) m.point = GO_PASS;
        r->moves[r->nmoves++] = m;
        if (r->position) go_game_play(r->position, m);
        if (unseen) go_event_record_note(r, r->nmoves, ev->text);
        /* a move accepted under doubt says why in its comment: the player checks it first */
        if (!unseen && ev->doubt[0]) {
            snprintf(text, sizeof text, "kifucam: %.*s", (int)sizeof ev->doubt, ev->doubt);
            go_event_record_note(r, r->nmoves, text);
        }
        return false;
    }
    if (ev->kind == GUARD_GAME_END) {
        go_event_record_note(r, r->nmoves, ev->text);
        return false;
    }
    if (!guard_is_flag(ev->kind)) return false;
    snprintf(text, sizeof text, "%s: %s%s%s%s", guard_kind_name(ev->kind), ev->text,
             ev->rule_ref ? " (" : "", ev->rule_ref ? ev->rule_ref : "", ev->rule_ref ? ")" : "");
    go_event_record_note(r, ev->ply <= r->nmoves ? ev->ply : r->nmoves, text);
    return true;
}

char *go_event_record_sgf(const struct go_event_record *r, const struct go_record *info)
{
    struct go_record rec = *info;
    rec.width = rec.height = r->size;
    rec.handicap = r->handicap;
    rec.nnodes = r->nmoves + 1;
    rec.nodes = calloc((size_t)rec.nnodes, sizeof *rec.nodes);
    if (!rec.nodes) return NULL;
    struct go_move ab[9];
    for (int i = 0; i < r->nsetup; i++) ab[i] = (struct go_move){GO_BLACK, r->setup[i]};
    for (int i = 0; i < rec.nnodes; i++) {
        struct go_record_node *n = &rec.nodes[i];
        n->time_left = -1;
        n->periods_left = -1;
        n->player = GO_EMPTY;
        n->comment = r->notes ? r->notes[i] : NULL;
        if (i == 0 && r->nsetup) {
            n->setup = ab;
            n->nsetup = r->nsetup;
            n->player = GO_WHITE;
        }
        if (i > 0) {
            n->has_move = true;
            n->move = r->moves[i - 1];
        }
    }
    char *s = sgf_write_go_record(&rec);
    free(rec.nodes);
    return s;
}

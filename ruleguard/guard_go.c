/* ruleguard/guard_go.c — the Go rule guard: each move goes through the rules core; its verdict
 * becomes a move event plus, when a rule is broken, a flag naming that rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard.h"

struct go_guard {
    struct go_game *game;
    int handicap_pending; /* Black stones still to be placed as handicap, by moves */
    bool ended_reported;
};

struct go_guard *go_guard_new(int width, int height, const struct go_rules *rules)
{
    struct go_guard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->game = go_game_new(width, height, rules);
    if (!g->game) {
        free(g);
        return NULL;
    }
    return g;
}

void go_guard_free(struct go_guard *g)
{
    if (!g) return;
    go_game_free(g->game);
    free(g);
}

const struct go_game *go_guard_game(const struct go_guard *g)
{
    return g->game;
}

void go_guard_setup(struct go_guard *g, enum go_color c, int point)
{
    go_game_setup(g->game, c, point);
    /* The last handicap stone placed: White moves next. */
    if (c == GO_BLACK && g->handicap_pending > 0 && --g->handicap_pending == 0)
        go_game_set_to_move(g->game, GO_WHITE);
}

void go_guard_set_handicap(struct go_guard *g, int n)
{
    int black = 0;
    int w = go_game_width(g->game), h = go_game_height(g->game);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) black += go_game_at(g->game, go_point(x, y)) == GO_BLACK;
    go_game_set_handicap(g->game, n);
    /* Stones already set up count; the rest will come as Black moves at the start. */
    g->handicap_pending = n > black && go_game_ply(g->game) == 0 ? n - black : 0;
    if (n >= 2) go_game_set_to_move(g->game, g->handicap_pending > 0 ? GO_BLACK : GO_WHITE);
}

void go_guard_set_to_move(struct go_guard *g, enum go_color c)
{
    go_game_set_to_move(g->game, c);
}

static enum guard_kind flag_kind(enum go_verdict_kind v)
{
    switch (v) {
    case GO_ILLEGAL_OFF_BOARD:
    case GO_ILLEGAL_OCCUPIED:
    case GO_ILLEGAL_SUICIDE:
    case GO_ILLEGAL_KO:
    case GO_ILLEGAL_SUPERKO: return GUARD_ILLEGAL_MOVE;
    case GO_WRONG_TURN: return GUARD_TWO_MOVES;
    case GO_AFTER_END: return GUARD_AFTER_END;
    case GO_REPETITION_NO_RESULT:
    case GO_REPETITION_REFEREE: return GUARD_REPETITION;
    case GO_LEGAL: break;
    }
    return GUARD_MOVE;
}

static struct guard_event *event(struct guard_event *e, enum guard_kind kind,
                                 const struct go_guard *g, struct go_move m, int64_t t_ns,
                                 uint64_t frame_seq)
{
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->t_ns = t_ns;
    e->ply = go_game_ply(g->game);
    e->frame_seq = frame_seq;
    e->move = m;
    return e;
}

static void describe_move(char *buf, size_t len, const struct go_game *game, struct go_move m)
{
    char name[8];
    const char *who = m.color == GO_BLACK ? "Black" : "White";
    if (m.point == GO_PASS)
        snprintf(buf, len, "%s passes", who);
    else
        snprintf(buf, len, "%s %s", who, go_point_name(m.point, go_game_height(game), name));
}

static int game_end_event(struct go_guard *g, struct go_move m, int64_t t_ns, uint64_t frame_seq,
                          struct guard_event *e)
{
    enum go_game_state st = go_game_state(g->game);
    if (st == GO_PLAYING) {
        g->ended_reported = false;
        return 0;
    }
    if (g->ended_reported) return 0;
    g->ended_reported = true;
    event(e, GUARD_GAME_END, g, m, t_ns, frame_seq);
    switch (st) {
    case GO_ENDED_PASSES: snprintf(e->text, sizeof e->text, "the game ends by passes"); break;
    case GO_ENDED_NO_RESULT:
        snprintf(e->text, sizeof e->text, "the game ends without result (repetition)");
        e->rule_ref = go_game_rules(g->game)->ref.repetition;
        break;
    default: snprintf(e->text, sizeof e->text, "the game is over"); break;
    }
    return 1;
}

int go_guard_move(struct go_guard *g, struct go_move m, int64_t t_ns, uint64_t frame_seq,
                  struct guard_event ev[GUARD_MAX_EVENTS])
{
    int n = 0;
    char what[40];
    describe_move(what, sizeof what, g->game, m);

    /* Handicap given as the first Black moves (free placement recorded as moves). */
    if (g->handicap_pending > 0 && m.color == GO_BLACK && m.point != GO_PASS &&
        go_game_at(g->game, m.point) == GO_EMPTY) {
        go_guard_setup(g, GO_BLACK, m.point);
        struct guard_event *e = event(&ev[n++], GUARD_MOVE, g, m, t_ns, frame_seq);
        snprintf(e->text, sizeof e->text, "%s (handicap stone)", what);
        return n;
    }
    /* White moving first in a handicap game whose stones were never shown (a record with HA[]
     * and no AB[]): the stones are missing, not White's turn. Later moves will tell. */
    if (g->handicap_pending > 0 && m.color == GO_WHITE && go_game_ply(g->game) == 0)
        go_game_set_to_move(g->game, GO_WHITE);
    g->handicap_pending = 0;

    /* After two passes, a move resumes play where the rules allow it (a dispute settled by
     * playing on); where they do not, the rules core calls it a move after the end. A no-result
     * by repetition waits for the referee's word: until then the game goes on as played. */
    enum go_game_state st = go_game_state(g->game);
    if ((st == GO_ENDED_PASSES && !go_game_rules(g->game)->no_resumption) ||
        st == GO_ENDED_NO_RESULT)
        go_game_resume(g->game);

    struct go_verdict v = go_game_play(g->game, m);
    struct guard_event *e =
        event(&ev[n++], m.point == GO_PASS ? GUARD_PASS : GUARD_MOVE, g, m, t_ns, frame_seq);
    snprintf(e->text, sizeof e->text, "%s", what);
    if (v.kind != GO_LEGAL) {
        e = event(&ev[n++], flag_kind(v.kind), g, m, t_ns, frame_seq);
        e->rule_ref = v.rule_ref;
        e->reason = (int)v.kind;
        snprintf(e->text, sizeof e->text, "%s", v.text);
    }
    n += game_end_event(g, m, t_ns, frame_seq, &ev[n]);
    return n;
}

int go_guard_resign(struct go_guard *g, enum go_color loser, int64_t t_ns, struct guard_event ev[1])
{
    go_game_resign(g->game, loser);
    struct go_move none = {loser, GO_NOPOINT};
    struct guard_event *e = event(&ev[0], GUARD_GAME_END, g, none, t_ns, 0);
    snprintf(e->text, sizeof e->text, "%s resigns", loser == GO_BLACK ? "Black" : "White");
    g->ended_reported = true;
    return 1;
}

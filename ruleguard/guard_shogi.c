/* ruleguard/guard_shogi.c — the shogi rule guard: each move goes through the rules core's game
 * (history, repetition, outcome); an illegal move becomes a flag named after the tournament rule
 * it breaks (Turnierregeln 1–9), a move in the opponent's time a TWO_MOVES flag.
 *
 * Moves after the end: a game that ended off the board (resignation, the referee's result) flags
 * every move made after it (AFTER_END). A game that ended on the board (a foul, mate, a
 * repetition) and goes on is a game the players did not stop: nobody confirmed the end, and
 * the end may be a misread (a foul read where there was none). The board is the truth then: the
 * moves are recorded as moves, the end is flagged once (the foul itself, or AFTER_END on the
 * first move after a mate or a repetition) for the referee to rule on, and a later move is
 * flagged only when it breaks a rule itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleguard/guard.h"

struct shogi_guard {
    struct shogi_game game;
    bool referee_reported, end_reported;
    bool ended_off_board; /* shogi_guard_end: every move after it is flagged */
    bool played_on;       /* a move came after an end on the board (flagged once) */
};

struct shogi_guard *shogi_guard_new(const struct shogi_position *start,
                                    const struct shogi_rules *rules)
{
    struct shogi_guard *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    shogi_game_init(&g->game, start, rules);
    return g;
}

void shogi_guard_free(struct shogi_guard *g)
{
    if (!g) return;
    shogi_game_free(&g->game);
    free(g);
}

const struct shogi_game *shogi_guard_game(const struct shogi_guard *g)
{
    return &g->game;
}

static struct guard_event *event(struct guard_event *e, enum guard_kind kind,
                                 const struct shogi_guard *g, struct shogi_move m, int64_t t_ns,
                                 uint64_t frame_seq)
{
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->t_ns = t_ns;
    e->ply = g->game.n;
    e->frame_seq = frame_seq;
    e->shogi = m;
    e->move.point = GO_NOPOINT;
    return e;
}

static const char *side_name(int piece)
{
    return shogi_piece_color(piece) == SHOGI_SENTE ? "Sente" : "Gote";
}

static int end_event(struct shogi_guard *g, struct shogi_move m, int64_t t_ns, uint64_t frame_seq,
                     struct guard_event *e)
{
    if (g->end_reported || g->game.outcome.end == SHOGI_END_NONE) return 0;
    g->end_reported = true;
    event(e, GUARD_GAME_END, g, m, t_ns, frame_seq);
    snprintf(e->text, sizeof e->text, "%s: %s", shogi_end_name(g->game.outcome.end),
             shogi_result_name(g->game.outcome.result));
    return 1;
}

int shogi_guard_move(struct shogi_guard *g, struct shogi_move m, int64_t t_ns, uint64_t frame_seq,
                     struct guard_event ev[GUARD_MAX_EVENTS])
{
    int n = 0;
    char usi[6];
    shogi_move_to_usi(m, usi);
    bool ended = g->game.outcome.end != SHOGI_END_NONE;
    /* after an end on the board the game goes on: flagged once (a foul was flagged already) */
    bool after_end = ended && (g->ended_off_board ||
                               (!g->played_on && g->game.outcome.end != SHOGI_END_ILLEGAL &&
                                g->game.outcome.end != SHOGI_END_PERPETUAL_CHECK));
    int before = g->game.n;
    struct shogi_verdict v = shogi_game_play(&g->game, m);
    if (ended && g->game.n > before) g->played_on = true;
    struct guard_event *e = event(&ev[n++], GUARD_MOVE, g, m, t_ns, frame_seq);
    snprintf(e->text, sizeof e->text, "%s %s", side_name(m.piece), usi);
    if (after_end) {
        e = event(&ev[n++], GUARD_AFTER_END, g, m, t_ns, frame_seq);
        snprintf(e->text, sizeof e->text, "%s plays %s after the game ended (%s)",
                 side_name(m.piece), usi, shogi_end_name(g->game.outcome.end));
    } else if (v.rule != SHOGI_LEGAL) {
        enum guard_kind k =
            v.rule == SHOGI_ILLEGAL_OUT_OF_TURN ? GUARD_TWO_MOVES : GUARD_ILLEGAL_MOVE;
        e = event(&ev[n++], k, g, m, t_ns, frame_seq);
        e->reason = (int)v.rule;
        e->rule_ref = shogi_illegal_name(v.rule);
        const char *detail = shogi_fault_text(v.fault);
        snprintf(e->text, sizeof e->text, "%s %s: %s", side_name(m.piece), usi,
                 detail[0] ? detail : shogi_illegal_name(v.rule));
    }
    /* JSA 第8条: a perpetual check is a foul of the checking side also when the defender's move
     * brings the position back the 4th time; the core ends the game, the referee sees a flag. */
    if (!ended && v.rule != SHOGI_ILLEGAL_PERPETUAL_CHECK &&
        g->game.outcome.end == SHOGI_END_PERPETUAL_CHECK && g->game.outcome_ply == g->game.n) {
        e = event(&ev[n++], GUARD_ILLEGAL_MOVE, g, m, t_ns, frame_seq);
        e->reason = SHOGI_ILLEGAL_PERPETUAL_CHECK;
        e->rule_ref = shogi_illegal_name(SHOGI_ILLEGAL_PERPETUAL_CHECK);
        bool sente_loses = g->game.outcome.result == SHOGI_RESULT_GOTE_WINS;
        snprintf(
            e->text, sizeof e->text,
            "%s: the position occurs a 4th time and all of %s's moves in the cycle were checks",
            usi, sente_loses ? "Sente" : "Gote");
    }
    if (g->game.referee_ply && !g->referee_reported) {
        g->referee_reported = true;
        e = event(&ev[n++], GUARD_REFEREE_CALL, g, m, t_ns, frame_seq);
        e->ply = g->game.referee_ply;
        snprintf(e->text, sizeof e->text, "both kings are in the enemy camps: the referee decides");
        e->rule_ref = "tournament practice (entering king)";
    }
    n += end_event(g, m, t_ns, frame_seq, &ev[n]);
    return n;
}

int shogi_guard_end(struct shogi_guard *g, struct shogi_outcome o, int64_t t_ns,
                    struct guard_event ev[1])
{
    struct shogi_move none;
    memset(&none, 0, sizeof none);
    if (!shogi_game_end(&g->game, o)) return 0;
    g->ended_off_board = true;
    return end_event(g, none, t_ns, 0, &ev[0]);
}

/* board/shogi_game.c — a game as a start position plus moves: repetition (千日手, 連続王手の千日手
 * as JSA 対局規定 第8条 words it), game ends, and the entering-king (入玉) rules. */
#include <stdlib.h>
#include <string.h>

#include "board/shogi_internal.h"

const struct shogi_rules shogi_rules_jsa = {SHOGI_ENTERING_24, 4, true};
const struct shogi_rules shogi_rules_tournament = {SHOGI_ENTERING_REFEREE, 4, true};

/* ---- entering king ------------------------------------------------------------------------- */

static int points_of(int t)
{
    t = shogi_type_base((enum shogi_type)t);
    return t == SHOGI_KING ? 0 : (t == SHOGI_ROOK || t == SHOGI_BISHOP) ? 5 : 1;
}

static int hand_points(const struct shogi_position *pos, enum shogi_color c)
{
    int n = 0;
    for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) n += pos->hand[c][t] * points_of(t);
    return n;
}

static int board_points(const struct shogi_position *pos, enum shogi_color c, bb_t where,
                        int *pieces)
{
    int n = 0, k = 0;
    bb_t b = bb_and(pos->by_color[c], where);
    while (bb_any(b)) {
        int t = shogi_piece_type(pos->board[bb_pop(&b)]);
        if (t == SHOGI_KING) continue;
        n += points_of(t);
        k++;
    }
    if (pieces) *pieces = k;
    return n;
}

bool shogi_king_entered(const struct shogi_position *pos, enum shogi_color c)
{
    int k = pos->king_sq[c];
    return k != SHOGI_NO_SQUARE && shogi_in_zone(c, k);
}

int shogi_points_total(const struct shogi_position *pos, enum shogi_color c)
{
    return board_points(pos, c, shogi_t.all, NULL) + hand_points(pos, c);
}

int shogi_points_in_camp(const struct shogi_position *pos, enum shogi_color c)
{
    return board_points(pos, c, shogi_t.zone[c], NULL) + hand_points(pos, c);
}

struct shogi_outcome shogi_declare(const struct shogi_position *pos, enum shogi_color c)
{
    int pieces = 0;
    int pts = board_points(pos, c, shogi_t.zone[c], &pieces) + hand_points(pos, c);
    int k = pos->king_sq[c];
    bool ok = pos->side == c && shogi_king_entered(pos, c) &&
              !shogi_attacked(pos, k, (enum shogi_color)(c ^ 1)) && pieces >= 10 &&
              pts >= (c == SHOGI_SENTE ? 28 : 27);
    struct shogi_outcome o = {SHOGI_END_DECLARATION,
                              shogi_win_for(ok ? c : (enum shogi_color)(c ^ 1))};
    return o;
}

struct shogi_outcome shogi_jishogi_24(const struct shogi_position *pos)
{
    int s = shogi_points_total(pos, SHOGI_SENTE), g = shogi_points_total(pos, SHOGI_GOTE);
    struct shogi_outcome o = {SHOGI_END_JISHOGI, SHOGI_RESULT_NO_RESULT};
    if (s < 24 && g >= 24) o.result = SHOGI_RESULT_GOTE_WINS;
    if (g < 24 && s >= 24) o.result = SHOGI_RESULT_SENTE_WINS;
    return o;
}

/* ---- game --------------------------------------------------------------------------------- */

void shogi_game_init(struct shogi_game *g, const struct shogi_position *start,
                     const struct shogi_rules *rules)
{
    memset(g, 0, sizeof *g);
    g->rules = rules ? *rules : shogi_rules_jsa;
    if (g->rules.repetition_count < 2) g->rules.repetition_count = 4;
    if (start)
        g->start = *start;
    else
        shogi_position_startpos(&g->start);
    g->pos = g->start;
}

void shogi_game_free(struct shogi_game *g)
{
    free(g->plies);
    g->plies = NULL;
    g->n = g->cap = 0;
}

static uint64_t key_at(const struct shogi_game *g, int i) /* position after i moves */
{
    return i == 0 ? g->start.key : g->plies[i - 1].key;
}

/* The repetition verdict if the game so far were followed by a move to a position with key `key`
 * that gave check (`check`) by `mover`. extra = 0 evaluates the current position as it is. */
static struct shogi_outcome repetition(const struct shogi_game *g, int extra, uint64_t key,
                                       bool check, int mover)
{
    struct shogi_outcome o = {SHOGI_END_NONE, SHOGI_RESULT_NONE};
    int n = g->n, count = extra, first = extra ? n + 1 : n;
    for (int i = n; i >= 0; i--)
        if (key_at(g, i) == key) {
            count++;
            first = i;
        }
    if (count < g->rules.repetition_count) return o;
    /* 「同一局面が4回出現した一連の手順中、片方の手がすべて王手だった場合」: the moves from the
     * first occurrence on */
    bool all[2] = {true, true}, has[2] = {false, false};
    for (int j = first; j < n; j++) {
        int c = g->plies[j].mover;
        has[c] = true;
        all[c] = all[c] && g->plies[j].check;
    }
    if (extra) {
        has[mover] = true;
        all[mover] = all[mover] && check;
    }
    bool perp[2] = {has[0] && all[0], has[1] && all[1]};
    if (g->rules.perpetual_check_loses && perp[0] != perp[1]) {
        o.end = SHOGI_END_PERPETUAL_CHECK;
        o.result = perp[0] ? SHOGI_RESULT_GOTE_WINS : SHOGI_RESULT_SENTE_WINS;
        return o;
    }
    o.end = SHOGI_END_SENNICHITE; /* both or neither checked throughout: 無勝負 */
    o.result = SHOGI_RESULT_NO_RESULT;
    return o;
}

int shogi_game_repetitions(const struct shogi_game *g)
{
    int count = 0;
    uint64_t key = g->pos.key;
    for (int i = 0; i <= g->n; i++) count += key_at(g, i) == key;
    return count;
}

struct shogi_outcome shogi_game_repetition(const struct shogi_game *g)
{
    return repetition(g, 0, g->pos.key, false, 0);
}

static bool king_attacked_after(const struct shogi_position *p, int victim)
{
    int k = p->king_sq[victim];
    return k != SHOGI_NO_SQUARE && shogi_attacked(p, k, (enum shogi_color)(victim ^ 1));
}

/* m with piece (when left 0) and captured filled in from the board */
static struct shogi_move complete(const struct shogi_position *pos, struct shogi_move m)
{
    if (m.from < SHOGI_SQUARES && m.to < SHOGI_SQUARES) {
        if (!m.piece) m.piece = pos->board[m.from];
        m.captured = pos->board[m.to];
    } else if (m.from == SHOGI_HAND) {
        m.captured = SHOGI_EMPTY;
    }
    return m;
}

struct shogi_verdict shogi_game_check(const struct shogi_game *g, struct shogi_move m)
{
    m = complete(&g->pos, m);
    struct shogi_verdict v = shogi_check_move(&g->pos, m);
    if (v.rule != SHOGI_LEGAL || !g->rules.perpetual_check_loses) return v;
    struct shogi_position p = g->pos;
    int mover = shogi_piece_color(m.piece);
    shogi_do_move(&p, m);
    struct shogi_outcome o = repetition(g, 1, p.key, king_attacked_after(&p, mover ^ 1), mover);
    if (o.end == SHOGI_END_PERPETUAL_CHECK && o.result != shogi_win_for((enum shogi_color)mover)) {
        v.rule = SHOGI_ILLEGAL_PERPETUAL_CHECK;
        v.fault = SHOGI_FAULT_PERPETUAL_CHECK;
    }
    return v;
}

static bool both_kings_entered(const struct shogi_position *p)
{
    return shogi_king_entered(p, SHOGI_SENTE) && shogi_king_entered(p, SHOGI_GOTE);
}

static void set_outcome(struct shogi_game *g, enum shogi_end end, enum shogi_result res)
{
    if (g->outcome.end != SHOGI_END_NONE) return;
    g->outcome.end = end;
    g->outcome.result = res;
    g->outcome_ply = g->n;
}

struct shogi_verdict shogi_game_play(struct shogi_game *g, struct shogi_move m)
{
    m = complete(&g->pos, m);
    struct shogi_verdict v = shogi_game_check(g, m);
    /* 7) the side to move moved the opponent's piece: play the piece that is there, the turn
     * passes as usual */
    int mover = v.rule == SHOGI_ILLEGAL_OPPONENT_PIECE ? g->pos.side : shogi_piece_color(m.piece);
    if (m.from < SHOGI_SQUARES && g->pos.board[m.from]) m.piece = g->pos.board[m.from];
    if (!shogi_move_is_playable(&g->pos, m)) {
        if (v.rule == SHOGI_LEGAL) v.rule = SHOGI_ILLEGAL_IMPOSSIBLE;
        return v;
    }
    if (g->n == g->cap) {
        int cap = g->cap ? g->cap * 2 : 256;
        struct shogi_ply *p = realloc(g->plies, (size_t)cap * sizeof *p);
        if (!p) {
            v.rule = SHOGI_ILLEGAL_IMPOSSIBLE;
            v.fault = SHOGI_FAULT_NONE;
            return v;
        }
        g->plies = p;
        g->cap = cap;
    }
    uint8_t side_before = g->pos.side;
    shogi_do_move(&g->pos, m);
    if (g->pos.side != (mover ^ 1)) { /* out of turn: the turn stays with the one who missed it */
        g->pos.side ^= 1;
        g->pos.key ^= shogi_t.z_side;
    }
    struct shogi_ply *ply = &g->plies[g->n++];
    ply->move = m;
    ply->key = g->pos.key;
    ply->check = king_attacked_after(&g->pos, mover ^ 1);
    ply->side_before = side_before;
    ply->mover = (uint8_t)mover;
    ply->verdict = v;

    enum shogi_color loser = (enum shogi_color)mover;
    if (v.rule == SHOGI_ILLEGAL_PERPETUAL_CHECK)
        set_outcome(g, SHOGI_END_PERPETUAL_CHECK, shogi_win_for((enum shogi_color)(loser ^ 1)));
    else if (v.rule != SHOGI_LEGAL)
        set_outcome(g, SHOGI_END_ILLEGAL, shogi_win_for((enum shogi_color)(loser ^ 1)));
    struct shogi_outcome rep = shogi_game_repetition(g);
    if (rep.end != SHOGI_END_NONE) set_outcome(g, rep.end, rep.result);
    if (shogi_is_mate(&g->pos))
        set_outcome(g, SHOGI_END_MATE, shogi_win_for((enum shogi_color)(g->pos.side ^ 1)));
    if (g->rules.entering == SHOGI_ENTERING_REFEREE && !g->referee_ply &&
        both_kings_entered(&g->pos))
        g->referee_ply = g->n;
    return v;
}

bool shogi_game_undo(struct shogi_game *g)
{
    if (g->n == 0) return false;
    struct shogi_ply *ply = &g->plies[g->n - 1];
    shogi_undo_move(&g->pos, ply->move);
    if (g->pos.side != ply->side_before) { /* it was a move out of turn */
        g->pos.side ^= 1;
        g->pos.key ^= shogi_t.z_side;
    }
    g->n--;
    if (g->outcome_ply > g->n) {
        g->outcome.end = SHOGI_END_NONE;
        g->outcome.result = SHOGI_RESULT_NONE;
        g->outcome_ply = 0;
    }
    if (g->referee_ply > g->n) g->referee_ply = 0;
    return true;
}

bool shogi_game_end(struct shogi_game *g, struct shogi_outcome o)
{
    if (g->outcome.end != SHOGI_END_NONE || o.end == SHOGI_END_NONE) return false;
    set_outcome(g, o.end, o.result);
    return true;
}

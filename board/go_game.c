/* board/go_game.c — a Go game: the position plus whose turn, passes, prisoners, simple ko, the
 * history of positions every repetition rule needs, and the end state; play, check and verdicts.
 *
 * History: one entry per position the game has been in — the start (or the setup before the first
 * move), every move that changed the board, every setup between moves, and every pass (kept only
 * to start the no-result count afresh; a pass creates no position for the superko rules). Hashes
 * sit in their own array so the superko scan is a tight loop over 8-byte words (measured: a
 * linear scan over a few hundred entries costs less than the move itself, so no hash set).
 *
 * One verdict per move, the first that applies of: off-board, after-end, occupied, wrong-turn,
 * suicide, ko, superko, repetition. A move by the wrong colour is judged as that colour's move
 * (the referee sees two moves in a row; whether the second would also be a suicide or a ko is
 * said in the text after "also"). A move with a verdict other than no-result never ends the game
 * by repetition, and a repetition the referee must rule on never stops play. */
#include "board/go_internal.h"

#include <stdlib.h>
#include <string.h>

enum hist_kind { H_START, H_MOVE, H_SETUP, H_PASS };

struct go_game {
    struct go_rules rules; /* a copy, so callers may pass a rules row of their own */
    struct go_board board;
    enum go_color to_move;
    int ply, handicap;
    int prisoners[3], passes[3];
    int consecutive_passes;
    enum go_game_state state;
    enum go_color winner;
    int ko_point; /* simple ko: the point ko_color may not retake on the next move */
    enum go_color ko_color;
    /* history, one entry per position (see above) */
    uint64_t *h_hash;
    int *h_ply;
    uint8_t *h_to_move, *h_kind;
    int h_n, h_cap;
    int rep_start; /* first entry counted by the no-result rule: the last pass or resumption */
};

static bool history_push(struct go_game *g, enum hist_kind kind)
{
    if (g->h_n == g->h_cap) {
        int cap = g->h_cap ? g->h_cap * 2 : 256;
        uint64_t *hh = realloc(g->h_hash, (size_t)cap * sizeof *hh);
        if (hh) g->h_hash = hh;
        int *hp = realloc(g->h_ply, (size_t)cap * sizeof *hp);
        if (hp) g->h_ply = hp;
        uint8_t *ht = realloc(g->h_to_move, (size_t)cap);
        if (ht) g->h_to_move = ht;
        uint8_t *hk = realloc(g->h_kind, (size_t)cap);
        if (hk) g->h_kind = hk;
        /* Out of memory: the game goes on without remembering this position. */
        if (!hh || !hp || !ht || !hk) return false;
        g->h_cap = cap;
    }
    g->h_hash[g->h_n] = g->board.hash;
    g->h_ply[g->h_n] = g->ply;
    g->h_to_move[g->h_n] = (uint8_t)g->to_move;
    g->h_kind[g->h_n] = (uint8_t)kind;
    g->h_n++;
    return true;
}

struct go_game *go_game_new(int width, int height, const struct go_rules *rules)
{
    if (width < GO_MIN || width > GO_MAX || height < GO_MIN || height > GO_MAX) return NULL;
    if (!rules) rules = go_rules_presets(NULL);
    struct go_game *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->rules = *rules;
    go_board_init(&g->board, width, height);
    g->to_move = GO_BLACK;
    g->state = GO_PLAYING;
    g->winner = GO_EMPTY;
    g->ko_point = GO_NOPOINT;
    g->ko_color = GO_EMPTY;
    if (!history_push(g, H_START)) {
        go_game_free(g);
        return NULL;
    }
    return g;
}

static void *dup_array(const void *src, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p && bytes) memcpy(p, src, bytes);
    return p;
}

struct go_game *go_game_copy(const struct go_game *g)
{
    if (!g) return NULL;
    struct go_game *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *g;
    size_t n = (size_t)g->h_cap;
    c->h_hash = dup_array(g->h_hash, n * sizeof *g->h_hash);
    c->h_ply = dup_array(g->h_ply, n * sizeof *g->h_ply);
    c->h_to_move = dup_array(g->h_to_move, n);
    c->h_kind = dup_array(g->h_kind, n);
    if (!c->h_hash || !c->h_ply || !c->h_to_move || !c->h_kind) {
        go_game_free(c);
        return NULL;
    }
    return c;
}

void go_game_free(struct go_game *g)
{
    if (!g) return;
    free(g->h_hash);
    free(g->h_ply);
    free(g->h_to_move);
    free(g->h_kind);
    free(g);
}

/* ---- setup ---------------------------------------------------------------------------- */

/* The current position replaces the last history entry when that entry is a setup (or the start)
 * at this same ply: a run of AB/AW stones makes one position, not one per stone. */
static void history_note_setup(struct go_game *g)
{
    int last = g->h_n - 1;
    if (last >= 0 && g->h_ply[last] == g->ply &&
        (g->h_kind[last] == H_START || g->h_kind[last] == H_SETUP)) {
        g->h_hash[last] = g->board.hash;
        g->h_to_move[last] = (uint8_t)g->to_move;
        return;
    }
    history_push(g, H_SETUP);
}

void go_game_setup(struct go_game *g, enum go_color c, int point)
{
    if (!g || !go_board_on(&g->board, point)) return;
    if (c != GO_EMPTY && c != GO_BLACK && c != GO_WHITE) return;
    go_board_set(&g->board, point, c);
    g->ko_point = GO_NOPOINT; /* a changed board is no longer the ko shape */
    history_note_setup(g);
}

bool go_game_place_handicap(struct go_game *g, int n)
{
    int pts[9];
    if (!g) return false;
    int k = go_handicap_points(g->board.w, g->board.h, n, pts);
    if (k == 0) return false;
    for (int i = 0; i < k; i++) go_game_setup(g, GO_BLACK, pts[i]);
    go_game_set_handicap(g, n);
    return true;
}

void go_game_set_handicap(struct go_game *g, int n)
{
    if (!g) return;
    g->handicap = n < 0 ? 0 : n;
    /* Before the first move, a handicap of two or more hands the first move to White. */
    if (n >= 2 && g->ply == 0) go_game_set_to_move(g, GO_WHITE);
}

void go_game_set_to_move(struct go_game *g, enum go_color c)
{
    if (!g || (c != GO_BLACK && c != GO_WHITE)) return;
    g->to_move = c;
    /* The current position now has c to move; that is what the situational rules remember. */
    int last = g->h_n - 1;
    if (last >= 0 && g->h_ply[last] == g->ply) g->h_to_move[last] = (uint8_t)c;
}

/* ---- judging a move ------------------------------------------------------------------- */

/* The most recent earlier position with this hash (and, for SSK, this player to move); passes
 * are skipped: they create no position. Returns the entry's ply, or -1. */
static int find_repeat(const struct go_game *g, uint64_t hash, bool situational, enum go_color next)
{
    for (int i = g->h_n - 1; i >= 0; i--) {
        if (g->h_hash[i] != hash || g->h_kind[i] == H_PASS) continue;
        if (situational && g->h_to_move[i] != next) continue;
        return g->h_ply[i];
    }
    return -1;
}

/* Occurrences of (hash, next to move) since the last pass or resumption, and the latest ply. */
static int count_since_pass(const struct go_game *g, uint64_t hash, enum go_color next,
                            int *latest_ply)
{
    int n = 0;
    for (int i = g->rep_start; i < g->h_n; i++) {
        if (g->h_hash[i] == hash && g->h_to_move[i] == next) {
            n++;
            *latest_ply = g->h_ply[i];
        }
    }
    return n;
}

struct judgement {
    struct go_verdict v;
    struct go_trial t;
    bool pass, placeable; /* placeable: a stone can physically go there */
};

static const char *ref_for(const struct go_rules *r, enum go_verdict_kind k)
{
    switch (k) {
    case GO_LEGAL: return NULL;
    case GO_ILLEGAL_OFF_BOARD:
    case GO_ILLEGAL_OCCUPIED: return r->ref.occupied;
    case GO_ILLEGAL_SUICIDE: return r->ref.suicide;
    case GO_ILLEGAL_KO: return r->ref.ko;
    case GO_ILLEGAL_SUPERKO: return r->ref.superko;
    case GO_WRONG_TURN: return r->ref.two_moves;
    case GO_AFTER_END: return r->ref.after_end;
    case GO_REPETITION_NO_RESULT:
    case GO_REPETITION_REFEREE: return r->ref.repetition;
    }
    return NULL;
}

static void judge(const struct go_game *g, struct go_move m, struct judgement *j)
{
    const struct go_rules *r = &g->rules;
    const struct go_board *b = &g->board;
    memset(j, 0, sizeof *j);
    j->v.repeats_ply = -1;
    j->pass = m.point == GO_PASS;
    bool colour_ok = m.color == GO_BLACK || m.color == GO_WHITE;
    bool off = !colour_ok || (!j->pass && !go_board_on(b, m.point));
    bool occupied = !off && !j->pass && b->color[m.point] != GO_EMPTY;
    j->placeable = !off && !j->pass && !occupied;

    /* Every rule the move breaks, in order of precedence; the first is the verdict. */
    enum go_verdict_kind broken[8];
    int nb = 0, repeat_ply = -1, super_ply = -1, occurrences = 0;
    if (off) broken[nb++] = GO_ILLEGAL_OFF_BOARD;
    if (g->state != GO_PLAYING) broken[nb++] = GO_AFTER_END;
    if (occupied) broken[nb++] = GO_ILLEGAL_OCCUPIED;
    if (colour_ok && m.color != g->to_move) broken[nb++] = GO_WRONG_TURN;
    if (j->placeable) {
        enum go_color next = go_other(m.color);
        j->t = go_board_trial(b, m.point, m.color);
        j->v.captured = j->t.suicide ? -j->t.suicide : j->t.captured;
        if (j->t.suicide > 0 && (r->suicide == GO_SUICIDE_NONE ||
                                 (r->suicide == GO_SUICIDE_MULTI && j->t.suicide == 1)))
            broken[nb++] = GO_ILLEGAL_SUICIDE;
        if (r->ko == GO_KO_SIMPLE && m.point == g->ko_point && m.color == g->ko_color &&
            j->t.captured == 1)
            broken[nb++] = GO_ILLEGAL_KO;
        if (r->ko != GO_KO_SIMPLE) {
            super_ply = find_repeat(g, j->t.hash, r->ko == GO_KO_SITUATIONAL, next);
            if (super_ply >= 0) broken[nb++] = GO_ILLEGAL_SUPERKO;
        }
        if (r->repetition == GO_REPEAT_REFEREE) {
            repeat_ply = find_repeat(g, j->t.hash, false, next);
            if (repeat_ply >= 0) broken[nb++] = GO_REPETITION_REFEREE;
        } else if (r->repetition == GO_REPEAT_NO_RESULT) {
            occurrences = 1 + count_since_pass(g, j->t.hash, next, &repeat_ply);
            if (occurrences >= 3) broken[nb++] = GO_REPETITION_NO_RESULT;
        }
    }

    j->v.kind = nb > 0 ? broken[0] : GO_LEGAL;
    if (j->v.kind == GO_ILLEGAL_SUPERKO) j->v.repeats_ply = super_ply;
    if (j->v.kind == GO_REPETITION_REFEREE || j->v.kind == GO_REPETITION_NO_RESULT)
        j->v.repeats_ply = repeat_ply;
    j->v.rule_ref = ref_for(r, j->v.kind);

    struct go_verdict_facts f = {
        .height = b->h,
        .to_move = g->to_move,
        .state = g->state,
        .ko = r->ko,
        .suicide = j->t.suicide,
        .occurrences = occurrences,
        .also = GO_LEGAL,
    };
    /* The second broken rule is worth a word only when it is about the stone itself. */
    if (nb > 1 && (broken[0] == GO_WRONG_TURN || broken[0] == GO_AFTER_END) &&
        broken[1] != GO_WRONG_TURN)
        f.also = broken[1];
    go_verdict_describe(&j->v, m, &f);
}

struct go_verdict go_game_check(const struct go_game *g, struct go_move m)
{
    struct judgement j;
    if (!g) {
        struct go_verdict v = {.kind = GO_ILLEGAL_OFF_BOARD, .repeats_ply = -1};
        return v;
    }
    judge(g, m, &j);
    return j.v;
}

/* ---- playing -------------------------------------------------------------------------- */

static void play_pass(struct go_game *g, enum go_color c)
{
    g->passes[c]++;
    if (g->rules.pass_stones) g->prisoners[go_other(c)]++;
    g->consecutive_passes++;
    g->ko_point = GO_NOPOINT;
    g->ply++;
    g->to_move = go_other(c);
    if (history_push(g, H_PASS)) g->rep_start = g->h_n - 1;
    if (g->state == GO_PLAYING && g->consecutive_passes >= 2 &&
        (!g->rules.white_passes_last || c == GO_WHITE))
        g->state = GO_ENDED_PASSES;
}

struct go_verdict go_game_play(struct go_game *g, struct go_move m)
{
    struct judgement j;
    if (!g) return go_game_check(g, m);
    judge(g, m, &j);
    if (m.color != GO_BLACK && m.color != GO_WHITE) return j.v; /* nothing to play */

    if (j.pass) {
        play_pass(g, m.color);
        return j.v;
    }
    /* A stone after the end by passes resumes play; other ends stand. */
    if (g->state == GO_ENDED_PASSES) g->state = GO_PLAYING;
    g->consecutive_passes = 0;
    g->ply++;
    g->to_move = go_other(m.color);
    g->ko_point = GO_NOPOINT;
    if (!j.placeable) return j.v; /* off the board or occupied: the board stays as it was */

    struct go_trial t;
    go_board_play(&g->board, m.point, m.color, &t);
    g->prisoners[m.color] += t.captured;
    g->prisoners[go_other(m.color)] += t.suicide;
    if (t.ko_shape) {
        g->ko_point = t.ko_point;
        g->ko_color = go_other(m.color);
    }
    history_push(g, H_MOVE);
    if (j.v.kind == GO_REPETITION_NO_RESULT) g->state = GO_ENDED_NO_RESULT;
    return j.v;
}

void go_game_resign(struct go_game *g, enum go_color loser)
{
    if (!g || (loser != GO_BLACK && loser != GO_WHITE)) return;
    g->state = GO_ENDED_RESIGN;
    g->winner = go_other(loser);
}

void go_game_timeout(struct go_game *g, enum go_color loser)
{
    if (!g || (loser != GO_BLACK && loser != GO_WHITE)) return;
    g->state = GO_ENDED_TIME;
    g->winner = go_other(loser);
}

void go_game_resume(struct go_game *g)
{
    if (!g) return;
    /* After passes (Japanese 1989 Art. 9), or when the referee overrules a no-result: the
     * repetition count starts again from the current position. */
    if (g->state != GO_ENDED_PASSES && g->state != GO_ENDED_NO_RESULT) return;
    g->state = GO_PLAYING;
    g->consecutive_passes = 0;
    g->rep_start = g->h_n - 1;
}

/* ---- accessors ------------------------------------------------------------------------ */

int go_game_width(const struct go_game *g)
{
    return g->board.w;
}
int go_game_height(const struct go_game *g)
{
    return g->board.h;
}
const struct go_rules *go_game_rules(const struct go_game *g)
{
    return &g->rules;
}
enum go_color go_game_at(const struct go_game *g, int point)
{
    return go_board_on(&g->board, point) ? (enum go_color)g->board.color[point] : GO_EMPTY;
}
enum go_color go_game_to_move(const struct go_game *g)
{
    return g->to_move;
}
int go_game_ply(const struct go_game *g)
{
    return g->ply;
}
int go_game_prisoners(const struct go_game *g, enum go_color taker)
{
    return taker == GO_BLACK || taker == GO_WHITE ? g->prisoners[taker] : 0;
}
int go_game_passes(const struct go_game *g, enum go_color c)
{
    return c == GO_BLACK || c == GO_WHITE ? g->passes[c] : 0;
}
int go_game_handicap(const struct go_game *g)
{
    return g->handicap;
}
enum go_game_state go_game_state(const struct go_game *g)
{
    return g->state;
}
enum go_color go_game_winner_by_default(const struct go_game *g)
{
    return g->state == GO_ENDED_RESIGN || g->state == GO_ENDED_TIME ? g->winner : GO_EMPTY;
}
uint64_t go_game_hash(const struct go_game *g)
{
    return g->board.hash;
}
int go_game_liberties(const struct go_game *g, int point)
{
    return go_board_liberties(&g->board, point);
}
int go_game_chain(const struct go_game *g, int point, int out[GO_POINTS])
{
    return go_board_chain(&g->board, point, out);
}
const struct go_board *go_game_board(const struct go_game *g)
{
    return &g->board;
}

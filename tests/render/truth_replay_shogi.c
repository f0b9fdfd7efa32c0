/* tests/render/truth_replay_shogi.c — the shogi half of truth_replay.h. The rules core's
 * position follows the truth (board and both komadai): at every settled frame the change since
 * the last one must be a legal move of the side to move, or a fault the time line names (a
 * captured piece not put on the komadai, a komadai piece hidden, a piece put down turned round,
 * an opponent's piece moved and put back by its owner), found at the frame its squares or komadai
 * changed. Whose hand lifted a piece comes from the truth's events. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/render/truth_replay.h"

#define MAX_MARKS 64
#define MAX_LIFTS 16

struct smark {
    char name[24];
    int frame, ply, sq;
    int lo, hi; /* seen: the frames the mark may name (one frame: lo == hi) */
};

struct shogi_check {
    struct shogi_position pos; /* the rules core's, following the truth */
    int ply;
    uint8_t board[SHOGI_SQUARES], hand[2][SHOGI_HAND_TYPES]; /* last settled truth */
    uint8_t prev_board[SHOGI_SQUARES], prev_hand[2][SHOGI_HAND_TYPES];
    int first_at[SHOGI_SQUARES], last_at[SHOGI_SQUARES]; /* changes since the last settled */
    int hand_at[2][SHOGI_HAND_TYPES];
    struct {
        int frame, sq, piece, color;
    } lifts[MAX_LIFTS]; /* since the last settled frame */
    int nlifts;
    int moved_from, moved_to; /* an opponent's piece out of place (-1: none) */
    struct smark marks[MAX_MARKS], seen[MAX_MARKS];
    int nmarks, nseen, resign_side;
    struct tr_result *res;
};

static void flag(struct shogi_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void flag(struct shogi_check *c, const char *fmt, ...)
{
    c->res->flags++;
    if (c->res->nnotes >= TR_MAX_NOTES) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->res->notes[c->res->nnotes++], sizeof c->res->notes[0], fmt, ap);
    va_end(ap);
}

static void observe(struct shogi_check *c, const char *name, int lo, int hi, int sq)
{
    if (c->nseen == MAX_MARKS) return;
    struct smark *m = &c->seen[c->nseen++];
    snprintf(m->name, sizeof m->name, "%s", name);
    m->frame = m->lo = lo;
    m->hi = hi;
    m->ply = c->ply;
    m->sq = sq;
}

bool tr_shogi_record_clean(const struct shogi_record *rec)
{
    for (int k = 0; k < rec->nmoves; k++)
        if (!rec->moves[k].played || rec->moves[k].verdict.rule != SHOGI_LEGAL ||
            rec->moves[k].verdict.fault != SHOGI_FAULT_NONE)
            return false;
    return true;
}

/* Squares where a and b differ: how many, the first max of them in sq. */
static int board_diff(const uint8_t *a, const uint8_t *b, int *sq, int max)
{
    int n = 0;
    for (int s = 0; s < SHOGI_SQUARES; s++)
        if (a[s] != b[s]) {
            if (n < max) sq[n] = s;
            n++;
        }
    return n;
}

static bool hands_equal(const uint8_t a[2][SHOGI_HAND_TYPES], const uint8_t b[2][SHOGI_HAND_TYPES])
{
    return !memcmp(a, b, 2 * SHOGI_HAND_TYPES);
}

static void accept(struct shogi_check *c, const struct render_shogi_frame *f)
{
    memcpy(c->pos.board, f->board, sizeof c->pos.board);
    memcpy(c->pos.hand, f->hand, sizeof c->pos.hand);
    shogi_position_refresh(&c->pos);
}

/* A legal move of the side to move, as it is, with its captured piece not put on the komadai,
 * or put down turned round; true when one fits. */
static bool try_move(struct shogi_check *c, const struct render_shogi_frame *f)
{
    struct shogi_move mv[SHOGI_MAX_MOVES];
    int n = shogi_legal_moves(&c->pos, mv);
    for (int i = 0; i < n; i++) {
        struct shogi_position p2 = c->pos;
        shogi_do_move(&p2, mv[i]);
        int sq[4], nd = board_diff(p2.board, f->board, sq, 4);
        int mover = shogi_piece_color(mv[i].piece), to = mv[i].to;
        const char *fault = NULL;
        int lo = 0, hi = 0;
        if (nd == 0 && !hands_equal(p2.hand, f->hand)) {
            uint8_t h[2][SHOGI_HAND_TYPES];
            memcpy(h, p2.hand, sizeof h);
            int ty = mv[i].captured ? shogi_type_base(shogi_piece_type(mv[i].captured)) : 0;
            if (!ty || ty == SHOGI_KING || !h[mover][ty]) continue;
            h[mover][ty]--;
            if (!hands_equal(h, f->hand)) continue;
            /* between the captured piece leaving its square and the move's piece landing */
            fault = "not-in-hand";
            lo = c->first_at[to];
            hi = c->last_at[to];
        } else if (nd == 1 && sq[0] == to && f->board[to] == (p2.board[to] ^ 16) &&
                   hands_equal(p2.hand, f->hand)) {
            fault = "wrong-way"; /* the piece points at its owner's side */
            lo = hi = c->last_at[to];
        } else if (nd != 0 || !hands_equal(p2.hand, f->hand)) {
            continue;
        }
        c->pos = p2;
        c->ply++;
        c->res->moves++;
        if (fault) {
            observe(c, fault, lo, hi, to);
            accept(c, f);
        }
        return true;
    }
    return false;
}

/* The change from the last settled truth to f. */
static void judge(struct shogi_check *c, const struct render_shogi_frame *f)
{
    int sq[4], nd = board_diff(c->board, f->board, sq, 4);
    bool same_hands = hands_equal(c->hand, f->hand);
    if (nd == 0 && same_hands) return;
    /* the owner puts the opponent-moved piece back */
    if (c->moved_from >= 0 && nd == 2 && same_hands && f->board[c->moved_from] &&
        !f->board[c->moved_to] && f->board[c->moved_from] == c->board[c->moved_to]) {
        observe(c, "put-back", c->last_at[c->moved_from], c->last_at[c->moved_from], c->moved_from);
        c->moved_from = c->moved_to = -1;
        accept(c, f);
        goto done;
    }
    /* a piece of the player who just moved stepped one square by the hand of the player to move */
    if (nd == 2 && same_hands) {
        int from = f->board[sq[0]] ? sq[1] : sq[0], to = f->board[sq[0]] ? sq[0] : sq[1];
        int pc = c->board[from];
        bool by_other = false;
        for (int k = 0; k < c->nlifts; k++)
            by_other |= c->lifts[k].sq == from && c->lifts[k].piece == pc &&
                        c->lifts[k].color != (int)shogi_piece_color(pc);
        int dist = abs(shogi_sq_file(from) - shogi_sq_file(to)) +
                   abs(shogi_sq_rank(from) - shogi_sq_rank(to));
        if (pc && !c->board[to] && f->board[to] == pc && by_other && dist == 1 &&
            (int)shogi_piece_color(pc) != c->pos.side) {
            observe(c, "opponent-piece", c->first_at[from], c->first_at[from], from);
            c->moved_from = from;
            c->moved_to = to;
            accept(c, f);
            goto done;
        }
    }
    if (try_move(c, f)) goto done;
    /* a komadai piece taken away, the board as it was */
    if (nd == 0) {
        int diffs = 0, dc = -1, dt = -1;
        for (int col = 0; col < 2; col++)
            for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++)
                if (c->hand[col][t] != f->hand[col][t]) {
                    diffs++;
                    dc = col;
                    dt = t;
                }
        if (diffs == 1 && f->hand[dc][dt] + 1 == c->hand[dc][dt]) {
            observe(c, "hidden", c->hand_at[dc][dt], c->hand_at[dc][dt], -1);
            accept(c, f);
            goto done;
        }
    }
    flag(c, "frame %d ply %d: %d squares and the komadai changed: no legal move, fault or signal",
         f->index, c->ply, nd);
    accept(c, f);
done:
    memcpy(c->board, f->board, sizeof c->board);
    memcpy(c->hand, f->hand, sizeof c->hand);
}

/* The frame's events: before judging (after: false) the marks and whose hand lifts what, after
 * it the bumps (a knock belongs to the ply just judged). */
static void events(struct shogi_check *c, const struct render_shogi_frame *f, bool after)
{
    for (int e = 0; e < f->nevents; e++) {
        const struct render_shogi_event *ev = &f->events[e];
        if (after != !strcmp(ev->kind, "bump")) continue;
        if (!strcmp(ev->kind, "fault") || !strcmp(ev->kind, "signal")) {
            if (c->nmarks == MAX_MARKS) continue;
            struct smark *m = &c->marks[c->nmarks++];
            snprintf(m->name, sizeof m->name, "%s", ev->name);
            m->frame = f->index;
            m->ply = ev->ply;
            m->sq = ev->sq;
            bool signal = !strcmp(ev->kind, "signal");
            c->res->marks++;
            c->res->faults += !signal;
            c->res->signals += signal;
            if (signal && !strcmp(ev->name, "resign")) c->resign_side = ev->color;
        } else if (!strcmp(ev->kind, "lift") && c->nlifts < MAX_LIFTS) {
            c->lifts[c->nlifts].frame = f->index;
            c->lifts[c->nlifts].sq = ev->sq;
            c->lifts[c->nlifts].piece = ev->piece;
            c->lifts[c->nlifts++].color = ev->color;
        } else if (!strcmp(ev->kind, "bump")) {
            if (fabs(ev->dx_mm) > 10 || fabs(ev->dy_mm) > 10 || fabs(ev->rot_deg) > 1.5)
                observe(c, "knocked", f->index, f->index, -1);
        }
    }
}

static void match_marks(struct shogi_check *c)
{
    bool used[MAX_MARKS] = {false};
    for (int i = 0; i < c->nmarks; i++) {
        const struct smark *m = &c->marks[i];
        bool found = false;
        if (!m->name[0]) continue; /* out of view */
        for (int j = 0; j < c->nseen && !found; j++) {
            const struct smark *s = &c->seen[j];
            if (used[j] || strcmp(m->name, s->name) != 0 || m->frame < s->lo || m->frame > s->hi ||
                m->ply != s->ply || (m->sq >= 0 && s->sq >= 0 && m->sq != s->sq))
                continue;
            used[j] = found = true;
        }
        if (found) {
            bool signal = !strcmp(m->name, "resign");
            c->res->marks_found++;
            c->res->signals_found += signal;
            c->res->faults_found += !signal;
        } else {
            flag(c, "%s at frame %d ply %d: not seen there", m->name, m->frame, m->ply);
        }
    }
    for (int j = 0; j < c->nseen; j++)
        if (!used[j])
            flag(c, "%s seen at frames %d..%d ply %d: no event says so", c->seen[j].name,
                 c->seen[j].lo, c->seen[j].hi, c->seen[j].ply);
}

/* The resignation: drawn frames of the same render (every 10th of the hand's rest) show the
 * hand over the komadai of the side to move, nothing moving. A komadai the camera does not frame
 * (partial views) cannot show it: counted apart, not flagged. */
static void see_resign(struct shogi_check *c, const struct shogi_record *rec,
                       const struct render_opts *o)
{
    for (int i = 0; i < c->nmarks; i++) {
        if (strcmp(c->marks[i].name, "resign") != 0) continue;
        struct render_opts d = *o;
        d.truth_only = false;
        d.width = 160;
        d.height = 120;
        char err[200];
        struct render_shogi *r = render_shogi_open(rec, &d, err, sizeof err);
        struct render_shogi_frame *f = malloc(sizeof *f);
        bool over = false, moved = false, framed = true;
        int side = c->resign_side;
        for (int k = 0; r && f && k <= 40 && !over; k += 10) {
            if (!render_shogi_frame(r, c->marks[i].frame + k, f, err, sizeof err)) break;
            over = f->komadai_covered[side] && !f->komadai_covered[!side];
            moved |= memcmp(f->board, c->board, sizeof c->board) != 0;
            framed = f->komadai_px[side][0] >= 0 && f->komadai_px[side][0] < d.width &&
                     f->komadai_px[side][1] >= 0 && f->komadai_px[side][1] < d.height;
        }
        if (over && !moved && side == c->pos.side) {
            observe(c, "resign", c->marks[i].frame, c->marks[i].frame, -1);
        } else if (!framed && r && f) {
            c->res->out_of_view++;
            c->res->marks--;
            c->res->signals--;
            c->marks[i].name[0] = '\0'; /* matched by nothing, flagged by nothing */
        }
        free(f);
        render_shogi_close(r);
    }
}

bool tr_replay_shogi(const struct shogi_record *rec, const struct render_opts *o,
                     struct tr_result *res, char *err, size_t errlen)
{
    struct render_opts to = *o;
    to.truth_only = true;
    memset(res, 0, sizeof *res);
    struct render_shogi *r = render_shogi_open(rec, &to, err, errlen);
    if (!r) return false;
    struct render_shogi_frame *f = malloc(sizeof *f);
    struct shogi_check *c = calloc(1, sizeof *c);
    bool ok = f && c;
    int nf = render_shogi_frame_count(r);
    for (int i = 0; ok && i < nf; i++) {
        if (!render_shogi_frame(r, i, f, err, errlen)) {
            ok = false;
            break;
        }
        if (i == 0) {
            c->res = res;
            c->moved_from = c->moved_to = -1;
            shogi_position_clear(&c->pos);
            c->pos.side = (uint8_t)f->side;
            accept(c, f);
            memcpy(c->board, f->board, sizeof c->board);
            memcpy(c->hand, f->hand, sizeof c->hand);
            memcpy(c->prev_board, f->board, sizeof c->board);
            memcpy(c->prev_hand, f->hand, sizeof c->hand);
            for (int s = 0; s < SHOGI_SQUARES; s++) c->first_at[s] = -1;
            if (memcmp(f->board, rec->start.board, sizeof f->board) != 0 ||
                !hands_equal(f->hand, rec->start.hand) || f->side != rec->start.side)
                flag(c, "the first frame is not the record's start");
        }
        for (int s = 0; s < SHOGI_SQUARES; s++)
            if (f->board[s] != c->prev_board[s]) {
                if (c->first_at[s] < 0) c->first_at[s] = i;
                c->last_at[s] = i;
            }
        for (int col = 0; col < 2; col++)
            for (int t = 0; t < SHOGI_HAND_TYPES; t++)
                if (f->hand[col][t] != c->prev_hand[col][t]) c->hand_at[col][t] = i;
        memcpy(c->prev_board, f->board, sizeof c->board);
        memcpy(c->prev_hand, f->hand, sizeof c->hand);
        events(c, f, false);
        if (f->settled) {
            judge(c, f);
            if (f->ply != c->ply || f->side != c->pos.side)
                flag(c, "frame %d: the truth says ply %d, %s to move; the rules core: %d, %s", i,
                     f->ply, f->side ? "gote" : "sente", c->ply, c->pos.side ? "gote" : "sente");
            for (int s = 0; s < SHOGI_SQUARES; s++) c->first_at[s] = -1;
            c->nlifts = 0;
        }
        events(c, f, true);
        res->frames++;
    }
    if (ok) {
        if (!f->settled) flag(c, "the last frame is not settled");
        see_resign(c, rec, o);
        match_marks(c);
    }
    free(c);
    free(f);
    render_shogi_close(r);
    if (!ok && !err[0]) snprintf(err, errlen, "out of memory");
    return ok;
}

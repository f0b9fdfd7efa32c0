/* ruleguard/guard_observe_shogi_hand.c — the komadai: a captured piece must reach the capturer's
 * stand while the opponent thinks (it may come a little after the move: wait for it), and must
 * stay in view (隠し駒: HIDDEN_PIECE for a piece that never came or that disappears later); a
 * piece in hand lying promoted side up (a REFEREE_CALL: it must be turned); and the resignation
 * signal, a hand kept over one's own komadai (covered, not merely out of the picture). */
#include <stdio.h>
#include <string.h>

#include "ruleguard/guard_observe_shogi_internal.h"

void sobs_capture_made(struct shogi_obs_guard *g, struct shogi_move m, int ply, int64_t t,
                       uint64_t frame)
{
    (void)frame;
    if (!m.captured || shogi_piece_type(m.captured) == SHOGI_KING) return;
    if (g->npend == SOBS_MAX_PENDING) { /* the oldest gives way: it had every chance */
        memmove(g->pend, g->pend + 1, (SOBS_MAX_PENDING - 1) * sizeof g->pend[0]);
        g->npend--;
    }
    struct sobs_pending *p = &g->pend[g->npend++];
    p->ply = ply;
    p->side = (uint8_t)shogi_piece_color(m.piece); /* played as is: the piece's owner captured */
    p->type = (uint8_t)shogi_type_base(shogi_piece_type(m.captured));
    p->t_ns = t;
    p->reads_after = 0;
}

void sobs_drop_pending_after(struct shogi_obs_guard *g, int ply)
{
    int k = 0;
    for (int i = 0; i < g->npend; i++)
        if (g->pend[i].ply <= ply) g->pend[k++] = g->pend[i];
    g->npend = k;
}

static void pending_remove(struct shogi_obs_guard *g, int i)
{
    memmove(g->pend + i, g->pend + i + 1, (size_t)(g->npend - i - 1) * sizeof g->pend[0]);
    g->npend--;
}

int sobs_pending_count(const struct shogi_obs_guard *g, int c, int t)
{
    int n = 0;
    for (int i = 0; i < g->npend; i++) n += g->pend[i].side == c && g->pend[i].type == t;
    return n;
}

static void hidden_event(struct shogi_obs_guard *g, int ply, int c, int t, int64_t now,
                         uint64_t frame, const char *what, struct sobs_evbuf *b)
{
    struct guard_event *e = sobs_event(b, GUARD_HIDDEN_PIECE, ply, now, frame);
    if (!e) return;
    e->rule_ref = "hidden piece (隠し駒): pieces in hand stay on the komadai in view";
    snprintf(e->text, sizeof e->text, "%s's %s (%s) %s", sobs_side_name(c),
             shogi_type_kanji((enum shogi_type)t), shogi_type_csa((enum shogi_type)t), what);
}

/* Pieces of c's komadai, as the game has them less those already flagged missing (and those on
 * their way unless `arriving`: one may arrive read as another kind), that the komadai read short
 * (short < 0: read over), counted over the kinds but `except`. */
static int short_of(const struct shogi_obs_guard *g, int c, int except, bool arriving)
{
    const struct sobs_hand *h = &g->hand[c];
    const struct shogi_position *pos = &sobs_game(g)->pos;
    int n = 0;
    for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++)
        if (ty != except)
            n += pos->hand[c][ty] - h->tolerated[ty] - sobs_pending_count(g, c, ty) - h->belief[ty];
    return n;
}

void sobs_check_hands(struct shogi_obs_guard *g, int64_t t, uint64_t frame, bool board_settled,
                      struct sobs_evbuf *b)
{
    const struct shogi_game *game = sobs_game(g);
    const struct shogi_position *pos = &game->pos;
    for (int c = 0; c < 2; c++) {
        struct sobs_hand *h = &g->hand[c];
        bool read_now = h->read_obs == g->nobs;
        /* as many pieces read as there should be: a kind read short is another kind misread
           (a pawn read as a bishop), no piece gone */
        bool all_there = short_of(g, c, 0, false) <= 0;
        for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) {
            int missing = pos->hand[c][ty] - h->belief[ty];
            if (missing < 0) missing = 0;
            /* came back, unless another kind (perhaps a piece arriving) is read short by as many:
               it was misread as this; judged on a settled board (the capture bringing a piece
               may not be read yet) */
            int back = h->tolerated[ty] - missing;
            if (back > 0 && board_settled && short_of(g, c, ty, true) < back)
                h->tolerated[ty] = (uint8_t)missing;
            int unexplained = missing - h->tolerated[ty] - sobs_pending_count(g, c, ty);
            /* pieces that arrived settle the oldest captures of their type */
            for (int i = 0; i < g->npend && unexplained < 0; i++)
                if (g->pend[i].side == c && g->pend[i].type == ty) {
                    pending_remove(g, i--);
                    unexplained++;
                }
            if (unexplained > 0 && read_now && board_settled && !all_there) {
                if (++h->gone_reads[ty] >= g->cfg.hidden_wait_obs) {
                    char what[80];
                    snprintf(what, sizeof what, "left the komadai without a drop (%d missing)",
                             unexplained);
                    hidden_event(g, sobs_ply(g), c, ty, t, frame, what, b);
                    h->tolerated[ty] = (uint8_t)(h->tolerated[ty] + unexplained);
                    h->gone_reads[ty] = 0;
                }
            } else if (unexplained <= 0) {
                h->gone_reads[ty] = 0;
            }
        }
    }
    /* captures still on their way */
    for (int i = 0; i < g->npend; i++) {
        struct sobs_pending *p = &g->pend[i];
        struct sobs_hand *h = &g->hand[p->side];
        if (h->read_obs != g->nobs) continue;
        if (game->n > p->ply) p->reads_after++;
        bool late = p->reads_after >= g->cfg.hidden_wait_obs ||
                    (g->cfg.hidden_max_ns > 0 && t - p->t_ns > g->cfg.hidden_max_ns);
        if (!late || !board_settled) continue;
        char what[100];
        snprintf(what, sizeof what, "captured at ply %d is not on %s's komadai",
                 g->ply_base + p->ply, sobs_side_name(p->side));
        hidden_event(g, g->ply_base + p->ply, p->side, p->type, t, frame, what, b);
        h->tolerated[p->type]++;
        pending_remove(g, i--);
    }
}

void sobs_check_promoted_in_hand(struct shogi_obs_guard *g, int64_t t, uint64_t frame,
                                 bool board_settled, struct sobs_evbuf *b)
{
    if (!board_settled) return; /* the move that brought the piece may not be read yet */
    const struct shogi_position *pos = &sobs_game(g)->pos;
    for (int c = 0; c < 2; c++) {
        struct sobs_hand *h = &g->hand[c];
        for (int ty = SHOGI_PAWN; ty <= SHOGI_GOLD; ty++) {
            if (h->promoted[ty] < h->promoted_flagged[ty]) /* turned back: a later one is new */
                h->promoted_flagged[ty] = h->promoted[ty];
            /* nor before the komadai agrees with the game: the capture is then counted too */
            if (h->promoted[ty] <= h->promoted_flagged[ty] || h->belief[ty] != pos->hand[c][ty])
                continue;
            int n = h->promoted[ty] - h->promoted_flagged[ty];
            h->promoted_flagged[ty] = h->promoted[ty];
            struct guard_event *e = sobs_event(b, GUARD_REFEREE_CALL, sobs_ply(g), t, frame);
            if (!e) continue;
            e->reason = GUARD_REASON_PROMOTED_IN_HAND;
            e->rule_ref = "pieces in hand are unpromoted (持ち駒は生駒): a captured piece goes to "
                          "the komadai turned back to its unpromoted side";
            enum shogi_type up = (enum shogi_type)(ty + SHOGI_PROMOTED);
            snprintf(e->text, sizeof e->text,
                     "%d %s (%s) on %s's komadai promoted side up (%s): must be turned", n,
                     shogi_type_kanji((enum shogi_type)ty), shogi_type_csa((enum shogi_type)ty),
                     sobs_side_name(c), shogi_type_kanji(up));
        }
    }
}

void sobs_check_resign(struct shogi_obs_guard *g, const struct observation *o, bool board_settled,
                       struct sobs_evbuf *b)
{
    for (int c = 0; c < 2; c++) {
        struct sobs_hand *h = &g->hand[c];
        /* a hand resting over the stand, not a stand out of the picture */
        bool covered = o->board_found && !o->hands[c].visible && o->hands[c].covered;
        if (!covered) {
            h->covered_since = -1;
            continue;
        }
        if (h->covered_since < 0) h->covered_since = o->t_ns;
        if (g->cfg.resign_hand_ns <= 0 || g->resigned || !board_settled ||
            o->t_ns - h->covered_since < g->cfg.resign_hand_ns)
            continue;
        if (sobs_game(g)->outcome.end != SHOGI_END_NONE) continue;
        struct guard_event one[1];
        struct shogi_outcome out = {SHOGI_END_RESIGN, shogi_win_for((enum shogi_color)(c ^ 1))};
        if (!shogi_guard_end(g->guard, out, o->t_ns, one)) continue;
        g->resigned = true;
        struct guard_event *e = sobs_event(b, GUARD_GAME_END, sobs_ply(g), o->t_ns, o->frame_seq);
        if (!e) continue;
        e->reason = GUARD_REASON_SIGNAL;
        e->rule_ref = "Turnierregeln: the hand kept over the komadai is a sign of resignation";
        snprintf(e->text, sizeof e->text, "%s's hand over the own komadai for %lld s: %s resigns",
                 sobs_side_name(c), (long long)((o->t_ns - h->covered_since) / 1000000000),
                 sobs_side_name(c));
    }
}

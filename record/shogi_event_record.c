/* record/shogi_event_record.c — see shogi_event_record.h. */
#include "record/shogi_event_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool shogi_event_record_init(struct shogi_event_record *r, const struct shogi_position *start)
{
    memset(r, 0, sizeof *r);
    r->rec = shogi_record_new(SHOGI_HC_EVEN, start);
    r->at_ns = calloc(64, sizeof *r->at_ns);
    r->at_cap = 64;
    if (r->rec && r->at_ns) return true;
    shogi_event_record_free(r);
    return false;
}

void shogi_event_record_free(struct shogi_event_record *r)
{
    shogi_record_free(r->rec);
    free(r->at_ns);
    free(r->setups);
    memset(r, 0, sizeof *r);
}

/* Room for at_ns[ply]. */
static bool grow_clock(struct shogi_event_record *r, int ply)
{
    if (ply < r->at_cap) return true;
    int cap = r->at_cap * 2 > ply ? r->at_cap * 2 : ply + 64;
    int64_t *a = realloc(r->at_ns, (size_t)cap * sizeof *a);
    if (!a) return false;
    r->at_ns = a;
    r->at_cap = cap;
    return true;
}

void shogi_event_record_start_clock(struct shogi_event_record *r, int64_t t_ns)
{
    r->at_ns[0] = t_ns;
    r->clock_started = true;
}

int shogi_event_record_moves(const struct shogi_event_record *r)
{
    return r->rec->nmoves;
}

void shogi_event_record_note(struct shogi_event_record *r, int ply, const char *text)
{
    struct shogi_record *rec = r->rec;
    if (ply < 0) ply = 0;
    if (ply > rec->nmoves) ply = rec->nmoves;
    shogi_comment_add(ply ? &rec->moves[ply - 1].comment : &rec->head_comment, text);
}

void shogi_event_record_position(const struct shogi_event_record *r, struct shogi_position *pos)
{
    const struct shogi_record *rec = r->rec;
    const struct shogi_event_setup *s = NULL;
    for (int i = 0; i < r->nsetups; i++)
        if (r->setups[i].ply <= rec->nmoves) s = &r->setups[i];
    if (!s) {
        shogi_record_position(rec, rec->nmoves, pos);
        return;
    }
    /* The board went on from the accepted position, whatever the record's replay says. */
    struct shogi_game g;
    shogi_game_init(&g, &s->pos, &shogi_rules_jsa);
    for (int k = s->ply; k < rec->nmoves; k++) shogi_game_play(&g, rec->moves[k].move);
    *pos = g.pos;
    shogi_game_free(&g);
}

static void clear_end(struct shogi_record *rec)
{
    free(rec->end.comment);
    rec->end.comment = NULL;
    rec->end.kind = SHOGI_REC_END_NONE;
    rec->end.time_ms = rec->end.total_ms = -1;
}

/* The first illegal ply among the moves kept. */
static int first_illegal(const struct shogi_record *rec)
{
    for (int i = 0; i < rec->nmoves; i++)
        if (rec->moves[i].verdict.rule != SHOGI_LEGAL) return i + 1;
    return 0;
}

/* Cut back to `ply` moves. What was cut (the moves, their comments, an end) is said in a comment on
 * that ply: the record is what happened at the board, and a move taken back happened. */
static void truncate_to(struct shogi_event_record *r, int ply, const char *why)
{
    struct shogi_record *rec = r->rec;
    if (ply < 0 || ply >= rec->nmoves) return;
    struct shogi_buf b = {0};
    char usi[6];
    if (rec->nmoves - ply == 1)
        shogi_buf_printf(&b, "TAKEBACK: ply %d removed:", ply + 1);
    else
        shogi_buf_printf(&b, "TAKEBACK: plies %d-%d removed:", ply + 1, rec->nmoves);
    for (int i = ply; i < rec->nmoves; i++)
        shogi_buf_printf(&b, " %s", shogi_move_to_usi(rec->moves[i].move, usi));
    if (why && why[0]) shogi_buf_printf(&b, " (%s)", why);
    for (int i = ply; i < rec->nmoves; i++) {
        if (rec->moves[i].comment) shogi_buf_printf(&b, "\n%s", rec->moves[i].comment);
        free(rec->moves[i].comment);
        rec->moves[i].comment = NULL;
    }
    if (rec->end.kind != SHOGI_REC_END_NONE && rec->end.comment)
        shogi_buf_printf(&b, "\n%s", rec->end.comment);
    char *note = shogi_buf_take(&b);
    clear_end(rec);
    rec->nmoves = ply;
    rec->first_illegal = first_illegal(rec);
    while (r->nsetups && r->setups[r->nsetups - 1].ply > ply) r->nsetups--;
    if (note) shogi_event_record_note(r, ply, note);
    free(note);
}

/* The first event (of any kind) starts the clock unless the caller did. */
static void clock_seen(struct shogi_event_record *r, int64_t t_ns)
{
    if (r->clock_started) return;
    r->at_ns[0] = t_ns;
    r->clock_started = true;
}

static void append(struct shogi_event_record *r, const struct guard_event *ev)
{
    struct shogi_record *rec = r->rec;
    /* The game went on after its end (a referee's call, a resignation taken back): the end is a
     * comment on its ply now, and the record no longer ends there. */
    if (rec->end.kind != SHOGI_REC_END_NONE) {
        char text[256];
        snprintf(text, sizeof text, "GAME_END: %s, the game went on: %s",
                 shogi_record_end_kif(rec->end.kind), rec->end.comment ? rec->end.comment : "");
        shogi_event_record_note(r, r->end_ply, text);
        clear_end(rec);
    }
    int ply = rec->nmoves;
    if (!grow_clock(r, ply + 1)) return;
    int64_t dt = ev->t_ns - r->at_ns[ply];
    shogi_record_append(rec, ev->shogi, dt > 0 ? dt / 1000000 : 0, -1);
    if (rec->nmoves > ply) r->at_ns[ply + 1] = ev->t_ns;
}

/* The SFEN at the end of the set-up event's text ("the referee accepts the position: SFEN"). */
static bool setup_position(const struct guard_event *ev, struct shogi_position *pos)
{
    const char *colon = strrchr(ev->text, ':');
    char err[128];
    return colon &&
           shogi_sfen_parse(pos, colon + 1 + strspn(colon + 1, " "), NULL, err, sizeof err);
}

static void setup(struct shogi_event_record *r, const struct guard_event *ev)
{
    struct shogi_record *rec = r->rec;
    struct shogi_position pos, now;
    if (setup_position(ev, &pos)) {
        if (rec->nmoves == 0 && r->nsetups == 0) {
            /* Before the first move the accepted position is the record's start (a handicap
             * is recognised and written as 手合割). */
            pos.ply = 1;
            rec->start = pos;
            shogi_position_refresh(&rec->start);
            rec->handicap = shogi_handicap_of(&rec->start);
        } else {
            shogi_event_record_position(r, &now);
            if (!shogi_position_same(&now, &pos)) {
                if (r->nsetups && r->setups[r->nsetups - 1].ply == rec->nmoves) r->nsetups--;
                if (r->nsetups == r->setup_cap) {
                    int cap = r->setup_cap ? r->setup_cap * 2 : 4;
                    struct shogi_event_setup *s = realloc(r->setups, (size_t)cap * sizeof *s);
                    if (s) r->setups = s, r->setup_cap = cap;
                }
                if (r->nsetups < r->setup_cap) {
                    r->setups[r->nsetups].ply = rec->nmoves;
                    r->setups[r->nsetups].pos = pos;
                    shogi_position_refresh(&r->setups[r->nsetups++].pos);
                }
            }
        }
    }
    char text[300];
    snprintf(text, sizeof text, "Referee: position accepted as set up. %s", ev->text);
    shogi_event_record_note(r, rec->nmoves, text);
}

/* The outcome the event's text names: the shogi guard writes "END: RESULT" with shogi_end_name
 * and shogi_result_name, the resignation sign "... Sente resigns". */
static bool event_outcome(const struct guard_event *ev, struct shogi_outcome *o)
{
    memset(o, 0, sizeof *o);
    for (int e = SHOGI_END_MATE; e <= SHOGI_END_REFEREE; e++) {
        const char *name = shogi_end_name((enum shogi_end)e);
        size_t n = strlen(name);
        if (strncmp(ev->text, name, n) != 0 || ev->text[n] != ':') continue;
        o->end = (enum shogi_end)e;
        const char *rest = ev->text + n + 1 + strspn(ev->text + n + 1, " ");
        for (int res = SHOGI_RESULT_NONE; res <= SHOGI_RESULT_REFEREE; res++)
            if (strcmp(rest, shogi_result_name((enum shogi_result)res)) == 0)
                o->result = (enum shogi_result)res;
        return true;
    }
    bool sente = strstr(ev->text, "Sente resigns") != NULL;
    if (!sente && !strstr(ev->text, "Gote resigns")) return false;
    o->end = SHOGI_END_RESIGN;
    o->result = shogi_win_for(sente ? SHOGI_GOTE : SHOGI_SENTE);
    return true;
}

/* The record's terminal word for an outcome; the formats speak of the side to move. */
static enum shogi_record_end record_end(struct shogi_outcome o, enum shogi_color to_move)
{
    bool mover_lost = (o.result == SHOGI_RESULT_SENTE_WINS && to_move == SHOGI_GOTE) ||
                      (o.result == SHOGI_RESULT_GOTE_WINS && to_move == SHOGI_SENTE);
    switch (o.end) {
    case SHOGI_END_NONE: return SHOGI_REC_END_NONE;
    case SHOGI_END_MATE: return SHOGI_REC_END_MATE;
    case SHOGI_END_RESIGN: return SHOGI_REC_END_RESIGN;
    case SHOGI_END_SENNICHITE: return SHOGI_REC_END_SENNICHITE;
    case SHOGI_END_JISHOGI: return SHOGI_REC_END_JISHOGI;
    case SHOGI_END_TIME: return SHOGI_REC_END_TIME_UP;
    case SHOGI_END_PERPETUAL_CHECK: /* fouls: the side that fouled loses */
    case SHOGI_END_ILLEGAL:
        return mover_lost ? SHOGI_REC_END_ILLEGAL_LOSS : SHOGI_REC_END_ILLEGAL_WIN;
    case SHOGI_END_DECLARATION: /* a wrong declaration loses */
        return mover_lost ? SHOGI_REC_END_ILLEGAL_LOSS : SHOGI_REC_END_DECLARE_WIN;
    case SHOGI_END_REFEREE:
        return o.result == SHOGI_RESULT_DRAW ? SHOGI_REC_END_DRAW : SHOGI_REC_END_INTERRUPT;
    }
    return SHOGI_REC_END_NONE;
}

static void game_end(struct shogi_event_record *r, const struct guard_event *ev)
{
    struct shogi_record *rec = r->rec;
    char text[512];
    snprintf(text, sizeof text, "%s%s%s%s", ev->text, ev->rule_ref ? " (" : "",
             ev->rule_ref ? ev->rule_ref : "", ev->rule_ref ? ")" : "");
    struct shogi_outcome o;
    struct shogi_position pos;
    shogi_event_record_position(r, &pos);
    enum shogi_record_end kind =
        event_outcome(ev, &o) ? record_end(o, (enum shogi_color)pos.side) : SHOGI_REC_END_NONE;
    if (kind == SHOGI_REC_END_NONE) {
        shogi_event_record_note(r, rec->nmoves, text);
        return;
    }
    clear_end(rec);
    rec->end.kind = kind;
    shogi_comment_add(&rec->end.comment, text);
    int64_t dt = ev->t_ns - r->at_ns[rec->nmoves];
    rec->end.time_ms = dt > 0 ? dt / 1000000 : 0;
    r->end_ply = rec->nmoves;
}

static bool carries_move(const struct guard_event *ev)
{
    return ev->shogi.piece || ev->shogi.from || ev->shogi.to;
}

/* A move the guard accepted in doubt ("read in doubt", "its face read as KY") says why in its
 * comment: the player checks those moves first. */
static void note_doubt(struct shogi_event_record *r, const struct guard_event *ev)
{
    if (!ev->doubt[0]) return;
    char note[sizeof ev->doubt + 16];
    snprintf(note, sizeof note, "kifucam: %.*s", (int)sizeof ev->doubt, ev->doubt);
    shogi_event_record_note(r, r->rec->nmoves, note);
}

bool shogi_event_record_apply(struct shogi_event_record *r, const struct guard_event *ev)
{
    clock_seen(r, ev->t_ns);
    if (ev->kind == GUARD_MOVE && ev->reason == GUARD_REASON_TAKEBACK) {
        truncate_to(r, ev->ply, ev->text);
        return false;
    }
    if (ev->kind == GUARD_MOVE && ev->reason == GUARD_REASON_SETUP) {
        setup(r, ev);
        return false;
    }
    if (ev->kind == GUARD_MOVE) {
        if (carries_move(ev)) append(r, ev);
        /* a move not seen: recorded as its likeliest, the text (what else it may be) with it */
        if (carries_move(ev) && ev->reason == GUARD_REASON_UNSEEN)
            shogi_event_record_note(r, r->rec->nmoves, ev->text);
        else if (carries_move(ev))
            note_doubt(r, ev);
        return false;
    }
    if (ev->kind == GUARD_GAME_END) {
        game_end(r, ev);
        return false;
    }
    if (!guard_is_flag(ev->kind)) return false; /* a pass: shogi has none */
    char text[512];
    snprintf(text, sizeof text, "%s: %s%s%s%s", guard_kind_name(ev->kind), ev->text,
             ev->rule_ref ? " (" : "", ev->rule_ref ? ev->rule_ref : "", ev->rule_ref ? ")" : "");
    shogi_event_record_note(r, ev->ply, text);
    return true;
}

/* ---- writing ---------------------------------------------------------------------------------
 * A shallow copy of the record with the game information put in; the writers only read it. */

static char *write_record(const struct shogi_event_record *r, const struct shogi_event_info *info,
                          bool csa)
{
    struct shogi_record w = *r->rec;
    struct shogi_record_tag *tags = NULL;
    char *head = NULL;
    if (info) {
        if (info->black) w.black = (char *)info->black;
        if (info->white) w.white = (char *)info->white;
        if (info->event) w.event = (char *)info->event;
        if (info->start_time) w.start_time = (char *)info->start_time;
        if (info->time_control) w.time_control = (char *)info->time_control;
    }
    if (info && info->result && info->result[0] && !csa) {
        tags = malloc((size_t)(w.ntags + 1) * sizeof *tags);
        if (!tags) return NULL;
        if (w.ntags) memcpy(tags, w.tags, (size_t)w.ntags * sizeof *tags);
        tags[w.ntags].key = (char *)SHOGI_EVENT_RESULT_KEY;
        tags[w.ntags].value = (char *)info->result;
        w.tags = tags;
        w.ntags++;
    } else if (info && info->result && info->result[0]) {
        /* CSA has no result line: a comment before the position, where readers keep it. */
        if (w.head_comment) shogi_comment_add(&head, w.head_comment);
        size_t n = strlen(SHOGI_EVENT_RESULT_KEY "：") + strlen(info->result) + 1;
        char *line = malloc(n);
        if (line) {
            snprintf(line, n, "%s：%s", SHOGI_EVENT_RESULT_KEY, info->result);
            shogi_comment_add(&head, line);
            free(line);
        }
        if (!head) return NULL;
        w.head_comment = head;
    }
    char *s = csa ? shogi_csa_write(&w) : shogi_kif_write(&w, NULL);
    free(tags);
    free(head);
    return s;
}

char *shogi_event_record_kif(const struct shogi_event_record *r,
                             const struct shogi_event_info *info)
{
    return write_record(r, info, false);
}

char *shogi_event_record_csa(const struct shogi_event_record *r,
                             const struct shogi_event_info *info)
{
    return write_record(r, info, true);
}

/* app/daemon_shogi.c — shogi for the recording daemon: the shogi reader (started on the initial
 * position, or on the record's position after a restart), the shogi observation guard, and the
 * KIF and CSA records kept from the events (see app/daemon_game.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/daemon_game.h"
#include "record/shogi_event_record.h"
#include "record/shogi_record.h"
#include "vision/shogi_read.h"

/* Time between two start attempts while the reader looks for the board: a start tries several
 * finder settings and costs many frames' time (on a busy Pi, hundreds of milliseconds). */
#define START_EVERY_NS 500000000LL

struct daemon_game {
    const struct shogi_rules *rules;
    const char *rules_name;
    struct shogi_position start; /* where the reader starts: the initial or a resumed position */
    struct shogi_reader *reader;
    bool started;
    int64_t last_try_ns;
    bool tried;
    bool clock_set; /* the first move's time counts from the first frame */
    bool komadai;   /* hand the komadai readings to the guard */
    /* with the komadai read: the last frame read, for the view settled at the source's end
       (daemon_game_ops.end_settle: settled() then has no frame of its own) */
    uint8_t *last_px;
    size_t last_cap;
    struct vision_image last_img;
    bool have_last;
    struct shogi_obs_guard *guard;
    struct shogi_event_record rec;
    /* the live page's strings, kept until the next state */
    char sfen[SHOGI_SFEN_MAX];
    char (*names)[32];
    const char **list;
};

static void shogi_close(struct daemon_game *g)
{
    if (!g) return;
    shogi_reader_free(g->reader);
    shogi_obs_guard_free(g->guard);
    shogi_event_record_free(&g->rec);
    free(g->last_px);
    free(g->names);
    free((void *)g->list);
    free(g);
}

static struct daemon_game *shogi_open(const struct kc_config *cfg, char *err, size_t errlen)
{
    struct daemon_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    bool jsa = !strcasecmp(cfg->rules, "jsa");
    g->rules = jsa ? &shogi_rules_jsa : &shogi_rules_tournament;
    g->rules_name = jsa ? "jsa" : "tournament";
    g->komadai = cfg->komadai;
    /* an even game, a handicap (上手, gote, moves first) or a set-up position */
    if (!kc_shogi_start(cfg->start, &g->start, err, errlen)) {
        shogi_close(g);
        return NULL;
    }
    g->reader = shogi_reader_new();
    /* the reader gives its readings in sente's view (point (x, y) = square 9-x, y+1) */
    g->guard = shogi_obs_guard_new(&g->start, g->rules, true, NULL);
    if (!g->reader || !g->guard || !shogi_event_record_init(&g->rec, &g->start)) {
        snprintf(err, errlen, "out of memory");
        shogi_close(g);
        return NULL;
    }
    return g;
}

static void shogi_header(const struct daemon_game *g, char size[16], char rules[64],
                         char extra[128])
{
    snprintf(size, 16, "9");
    snprintf(rules, 64, "%s", g->rules_name);
    /* the start position: a journal of another start is another game */
    struct shogi_position even;
    shogi_position_startpos(&even);
    if (shogi_position_same(&even, &g->start))
        snprintf(extra, 128, "startpos");
    else
        shogi_sfen_format(&g->start, extra, 128);
}

/* The frame just read, copied (the source reuses its buffer): the komadai of the view settled at
 * the source's end are read on it. */
static void keep_frame(struct daemon_game *g, const struct vision_image *img)
{
    size_t row = (size_t)img->width * (img->fmt == VISION_BGR24 ? 3 : 1);
    size_t need = row * (size_t)img->height;
    if (img->stride < 0 || (size_t)img->stride < row) return;
    if (need > g->last_cap) {
        uint8_t *px = realloc(g->last_px, need);
        if (!px) {
            g->have_last = false;
            return;
        }
        g->last_px = px;
        g->last_cap = need;
    }
    for (int y = 0; y < img->height; y++)
        memcpy(g->last_px + (size_t)y * row, img->data + (size_t)y * (size_t)img->stride, row);
    g->last_img = *img;
    g->last_img.stride = (int)row;
    g->last_img.data = g->last_px;
    g->have_last = true;
}

static bool shogi_read(struct daemon_game *g, const struct vision_image *img, struct observation *o)
{
    if (!g->clock_set) {
        if (!shogi_event_record_moves(&g->rec)) shogi_event_record_start_clock(&g->rec, img->t_ns);
        g->clock_set = true;
    }
    if (!g->started) {
        memset(o, 0, sizeof *o);
        if (g->tried && img->t_ns - g->last_try_ns < START_EVERY_NS && img->t_ns >= g->last_try_ns)
            return false;
        g->tried = true;
        g->last_try_ns = img->t_ns;
        g->started = shogi_reader_start_from(g->reader, img, &g->start);
        if (!g->started) return false;
        kc_log(KC_LOG_DEBUG, "shogi: the board and its position recognised on frame %llu",
               (unsigned long long)img->seq);
    }
    bool seen = shogi_reader_observe(g->reader, img, o);
    if (g->komadai) keep_frame(g, img);
    return seen;
}

static int shogi_settled(struct daemon_game *g, const struct vision_image *img,
                         struct stable_obs *s, struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    shogi_reader_settled(g->reader, &s->obs);
    /* the view settled at the source's end comes without its frame: its stands are read on the
       last frame read (the view held still over the last frames) */
    if (!img && g->have_last) img = &g->last_img;
    /* the stands are read on settled views only (they cost several frames' time), bounded by
       the pieces the game has off its board (a row of a kind with none left is another kind) */
    if (g->komadai && img)
        shogi_reader_hands_within(g->reader, img, &shogi_obs_guard_game(g->guard)->pos,
                                  s->obs.hands);
    else if (g->komadai) /* no frame at all: the stands are no evidence */
        memset(s->obs.hands, 0, sizeof s->obs.hands);
    return shogi_obs_guard_observe_stable(g->guard, s, ev);
}

static int shogi_last_view(struct daemon_game *g, struct observation *o,
                           struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    return shogi_obs_guard_observe(g->guard, o, ev);
}

static int shogi_flush(struct daemon_game *g, int64_t t_ns,
                       struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    return shogi_obs_guard_flush(g->guard, t_ns, ev);
}

static int shogi_action(struct daemon_game *g, const struct referee_action *a, int base,
                        struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    (void)base;
    switch (a->kind) {
    case REFEREE_ACCEPT_POSITION: return shogi_obs_guard_accept_position(g->guard, a->t_ns, ev);
    case REFEREE_TAKE_BACK: return shogi_obs_guard_take_back(g->guard, a->t_ns, ev);
    case REFEREE_CONFIRM_PASS: /* no passes in shogi */
    case REFEREE_ADD_NOTE:
    case REFEREE_SET_RESULT:
    case REFEREE_ACTION_COUNT: break;
    }
    return 0;
}

static bool shogi_apply(struct daemon_game *g, const struct guard_event *ev)
{
    return shogi_event_record_apply(&g->rec, ev);
}

static void shogi_note(struct daemon_game *g, int ply, const char *text)
{
    shogi_event_record_note(&g->rec, ply, text);
}

static int shogi_moves(const struct daemon_game *g)
{
    return shogi_event_record_moves(&g->rec);
}

/* The guard and the reader go on from the record's position: a new guard started there, and the
 * reader starts on that position (which, unlike the initial one, also shows whose side is
 * whose). */
static void shogi_resume(struct daemon_game *g)
{
    struct shogi_position pos;
    shogi_event_record_position(&g->rec, &pos);
    struct shogi_obs_guard *guard = shogi_obs_guard_new(&pos, g->rules, true, NULL);
    if (!guard) return;
    shogi_obs_guard_free(g->guard);
    g->guard = guard;
    g->start = pos;
    g->started = g->tried = false;
}

static char *shogi_record_text(const struct daemon_game *g, enum live_record_format fmt,
                               const struct daemon_game_info *in)
{
    struct shogi_event_info si = {in->black, in->white,        in->event,
                                  NULL,      in->time_control, in->result};
    if (fmt == LIVE_RECORD_KIF) return shogi_event_record_kif(&g->rec, &si);
    if (fmt == LIVE_RECORD_CSA) return shogi_event_record_csa(&g->rec, &si);
    return NULL;
}

/* "▲7六歩", "△同　銀" is left to the record files: the live list names the square. The mark
 * is the mover's (gote moves first in a handicap game). */
static void move_text(const struct shogi_move *m, char *buf, size_t len)
{
    const char *who = shogi_piece_color(m->piece) == SHOGI_SENTE ? "▲" : "△";
    if (m->to >= SHOGI_SQUARES) {
        snprintf(buf, len, "%s?", who);
        return;
    }
    int t = shogi_piece_type(m->piece);
    snprintf(buf, len, "%s%d%s%s%s%s", who, shogi_sq_file(m->to),
             shogi_kanji_numeral(shogi_sq_rank(m->to)), shogi_type_kanji((enum shogi_type)t),
             m->promote ? "成" : "", shogi_move_is_drop(*m) ? "打" : "");
}

static void shogi_state(struct daemon_game *g, struct live_state *st)
{
    struct shogi_position pos;
    shogi_event_record_position(&g->rec, &pos);
    shogi_sfen_format(&pos, g->sfen, sizeof g->sfen);
    const struct shogi_record *r = g->rec.rec;
    free(g->names);
    free((void *)g->list);
    g->names = calloc((size_t)r->nmoves + 1, sizeof *g->names);
    g->list = calloc((size_t)r->nmoves + 1, sizeof *g->list);
    int n = g->names && g->list ? r->nmoves : 0;
    for (int i = 0; i < n; i++) {
        move_text(&r->moves[i].move, g->names[i], sizeof g->names[i]);
        g->list[i] = g->names[i];
    }
    st->game = "shogi";
    st->width = st->height = 9;
    st->board = g->sfen;
    st->ply = r->nmoves;
    st->last_x = st->last_y = -1;
    if (r->nmoves && r->moves[r->nmoves - 1].move.to < SHOGI_SQUARES) {
        int to = r->moves[r->nmoves - 1].move.to;
        st->last_x = 9 - shogi_sq_file(to);
        st->last_y = shogi_sq_rank(to) - 1;
    }
    st->to_move = pos.side == SHOGI_SENTE ? "black" : "white";
    st->moves = g->list;
    st->n_moves = n;
}

static int shogi_height(const struct daemon_game *g)
{
    (void)g;
    return 9;
}

static void shogi_move_name(const struct daemon_game *g, const struct guard_event *ev, char *buf,
                            size_t len)
{
    char usi[6];
    if (ev->reason == GUARD_REASON_TAKEBACK || ev->reason == GUARD_REASON_SETUP) {
        snprintf(buf, len, "%s", ev->text);
        return;
    }
    char kanji[32];
    move_text(&ev->shogi, kanji, sizeof kanji);
    snprintf(buf, len, "%s (%s)", kanji, shogi_move_to_usi(ev->shogi, usi));
}

static void shogi_obs_header(const struct daemon_game *g, struct obs_stream_header *h)
{
    memset(h, 0, sizeof *h);
    h->game = OBS_GAME_SHOGI;
    h->w = h->h = 9;
    h->to_move = GO_EMPTY;
    h->sente_bottom = true;
    struct shogi_position start;
    shogi_position_startpos(&start);
    if (!shogi_position_same(&start, &g->start))
        shogi_sfen_format(&g->start, h->start_sfen, sizeof h->start_sfen);
}

static void shogi_result(const struct daemon_game *g, struct daemon_result *res)
{
    (void)g;
    res->move = NULL; /* the moves are in game.kif / game.csa */
}

static const struct daemon_record_file shogi_files[] = {{LIVE_RECORD_KIF, "game.kif"},
                                                        {LIVE_RECORD_CSA, "game.csa"}};

const struct daemon_game_ops daemon_shogi_ops = {
    .name = "shogi",
    .files = shogi_files,
    .nfiles = 2,
    .extra_must_match = true,
    .settle_min_conf = SHOGI_SETTLE_MIN_CONF, /* a board partly out of the picture settles */
    /* colour: the reader tells a promoted face by its red ink only in colour. Measured on main
     * 7a76ce5 (session 20), grey against colour: the 30 footage games (/tmp/foot30s) 806/900
     * moves, 9 exact, 38 flags against 815/900, 13 exact, 33 flags (better in every scene but the
     * one side view, 29 -> 26); the 39 shogi fault films (other games) 911/1100 moves, 122 flags
     * against 946/1100, 95 flags, faults at their move 21 against 19 (two side films missed).
     * Until session 20 a dim game collapsed in colour (a passing arm's edge left a cell's cached
     * picture looking like a piece: the reader now samples a cell again while its look settles). */
    .colour = true,
    /* a film that ends a second after its last move settled no view of it: the move was judged
       on the last unsettled view alone (or lost) */
    .end_settle = true,
    .open = shogi_open,
    .close = shogi_close,
    .header = shogi_header,
    .read = shogi_read,
    .settled = shogi_settled,
    .last_view = shogi_last_view,
    .flush = shogi_flush,
    .action = shogi_action,
    .apply = shogi_apply,
    .note = shogi_note,
    .moves = shogi_moves,
    .resume = shogi_resume,
    .record = shogi_record_text,
    .state = shogi_state,
    .height = shogi_height,
    .move_name = shogi_move_name,
    .obs_header = shogi_obs_header,
    .result = shogi_result,
};

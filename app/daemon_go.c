/* app/daemon_go.c — Go for the recording daemon: the Go reader, the Go observation guard and the
 * SGF kept from the events (see app/daemon_game.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/daemon_game.h"
#include "record/event_record.h"
#include "record/sgf.h"

struct daemon_game {
    int size, rotate;
    double komi;
    char rules_name[64];
    const struct go_rules *rules;
    struct vision_detector *det;
    struct go_obs_guard *guard;
    struct go_event_record rec;
    /* the live page's strings, kept until the next state */
    char board[GO_POINTS + 1];
    char (*names)[8];
    const char **list;
};

static void go_close(struct daemon_game *g)
{
    if (!g) return;
    vision_detector_free(g->det);
    go_obs_guard_free(g->guard);
    go_event_record_free(&g->rec);
    free(g->names);
    free((void *)g->list);
    free(g);
}

static struct daemon_game *go_open(const struct kc_config *cfg, char *err, size_t errlen)
{
    const struct go_rules *rules = go_rules_find(cfg->rules);
    if (!rules) {
        snprintf(err, errlen, "unknown rules '%s'", cfg->rules);
        return NULL;
    }
    struct daemon_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->size = cfg->board_size;
    g->rotate = cfg->rotate;
    g->komi = cfg->komi;
    g->rules = rules;
    snprintf(g->rules_name, sizeof g->rules_name, "%s", cfg->rules);
    g->det = vision_detector_new();
    g->guard = go_obs_guard_new(g->size, g->size, rules, NULL);
    go_event_record_init(&g->rec, g->size, rules);
    if (!g->det || !g->guard || !g->rec.position) {
        snprintf(err, errlen, "out of memory");
        go_close(g);
        return NULL;
    }
    g->det->board_size = g->size;
    if (cfg->handicap >= 2) {
        /* fixed: the stones stand from the start and White moves first; free: Black's first
           moves are the stones */
        enum go_handicap_placement how = cfg->handicap_free ? GO_HANDICAP_FREE : GO_HANDICAP_FIXED;
        int pts[9];
        if ((!cfg->handicap_free &&
             go_handicap_points(g->size, g->size, cfg->handicap, pts) != cfg->handicap) ||
            !go_obs_guard_set_handicap(g->guard, cfg->handicap, how)) {
            snprintf(err, errlen, "no fixed placement of %d handicap stones on %dx%d",
                     cfg->handicap, g->size, g->size);
            go_close(g);
            return NULL;
        }
        go_event_record_handicap(&g->rec, cfg->handicap, cfg->handicap_free ? NULL : pts);
    }
    return g;
}

static void go_header(const struct daemon_game *g, char size[16], char rules[64], char extra[128])
{
    snprintf(size, 16, "%d", g->size);
    snprintf(rules, 64, "%s", g->rules_name);
    snprintf(extra, 128, "%g", g->komi);
}

static bool go_read(struct daemon_game *g, const struct vision_image *img, struct observation *o)
{
    vision_read_go(g->det, img, o);
    return o->board_found;
}

static int go_settled(struct daemon_game *g, const struct vision_image *img, struct stable_obs *s,
                      struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    stable_obs_rotate(s, g->rotate);
    return go_obs_guard_observe_stable(g->guard, s, ev);
}

static int go_last_view(struct daemon_game *g, struct observation *o,
                        struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    observation_rotate(o, NULL, g->rotate);
    return go_obs_guard_observe(g->guard, o, ev);
}

static int go_flush(struct daemon_game *g, int64_t t_ns,
                    struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    return go_obs_guard_flush(g->guard, t_ns, ev);
}

static int go_action(struct daemon_game *g, const struct referee_action *a, int base,
                     struct guard_event ev[GUARD_OBS_MAX_EVENTS])
{
    switch (a->kind) {
    case REFEREE_ACCEPT_POSITION: return go_obs_guard_accept_position(g->guard, a->t_ns, ev);
    case REFEREE_CONFIRM_PASS:
        return go_obs_guard_confirm_pass(g->guard, a->ply - base, a->t_ns, ev);
    case REFEREE_TAKE_BACK: return go_obs_guard_take_back(g->guard, a->t_ns, ev);
    case REFEREE_ADD_NOTE:
    case REFEREE_SET_RESULT:
    case REFEREE_ACTION_COUNT: break;
    }
    return 0;
}

static bool go_apply(struct daemon_game *g, const struct guard_event *ev)
{
    return go_event_record_apply(&g->rec, ev);
}

static void go_note(struct daemon_game *g, int ply, const char *text)
{
    go_event_record_note(&g->rec, ply, text);
}

static int go_moves(const struct daemon_game *g)
{
    return g->rec.nmoves;
}

/* The guard starts from the record's position (stones as set-up, side to move). */
static void go_resume(struct daemon_game *g)
{
    if (!g->rec.nmoves || !g->rec.position) return;
    for (int p = 0; p < GO_POINTS; p++) {
        if (go_x(p) >= g->size || go_y(p) >= g->size) continue;
        enum go_color c = go_game_at(g->rec.position, p);
        if (c != GO_EMPTY) go_obs_guard_setup(g->guard, c, p);
    }
    go_obs_guard_set_to_move(g->guard, go_game_to_move(g->rec.position));
}

static char *go_record(const struct daemon_game *g, enum live_record_format fmt,
                       const struct daemon_game_info *in)
{
    if (fmt != LIVE_RECORD_SGF) return NULL;
    struct go_record info;
    memset(&info, 0, sizeof info);
    info.black = (char *)in->black;
    info.white = (char *)in->white;
    info.event = (char *)in->event;
    info.rules = (char *)g->rules_name;
    info.result = (char *)in->result;
    info.time_control = (char *)in->time_control;
    info.application = (char *)"kifucam";
    info.komi = info.komi_raw = g->komi;
    info.main_time = -1;
    info.charset = "UTF-8";
    return go_event_record_sgf(&g->rec, &info);
}

static void go_state(struct daemon_game *g, struct live_state *st)
{
    int k = 0;
    for (int y = 0; y < g->size; y++)
        for (int x = 0; x < g->size; x++) {
            enum go_color c =
                g->rec.position ? go_game_at(g->rec.position, go_point(x, y)) : GO_EMPTY;
            g->board[k++] = c == GO_BLACK ? 'X' : c == GO_WHITE ? 'O' : '.';
        }
    g->board[k] = '\0';
    free(g->names);
    free((void *)g->list);
    g->names = calloc((size_t)g->rec.nmoves + 1, sizeof *g->names);
    g->list = calloc((size_t)g->rec.nmoves + 1, sizeof *g->list);
    int n = g->names && g->list ? g->rec.nmoves : 0;
    for (int i = 0; i < n; i++) {
        go_point_name(g->rec.moves[i].point, g->size, g->names[i]);
        g->list[i] = g->names[i];
    }
    st->game = "go";
    st->width = st->height = g->size;
    st->board = g->board;
    st->ply = g->rec.nmoves;
    st->last_x = st->last_y = -1;
    if (g->rec.nmoves && g->rec.moves[g->rec.nmoves - 1].point != GO_PASS) {
        st->last_x = go_x(g->rec.moves[g->rec.nmoves - 1].point);
        st->last_y = go_y(g->rec.moves[g->rec.nmoves - 1].point);
    }
    if (g->rec.position) {
        st->black.prisoners = go_game_prisoners(g->rec.position, GO_BLACK);
        st->white.prisoners = go_game_prisoners(g->rec.position, GO_WHITE);
        st->to_move = go_game_to_move(g->rec.position) == GO_BLACK ? "black" : "white";
    }
    st->moves = g->list;
    st->n_moves = n;
}

static int go_height(const struct daemon_game *g)
{
    return g->size;
}

static void go_move_name(const struct daemon_game *g, const struct guard_event *ev, char *buf,
                         size_t len)
{
    char name[8] = "";
    if (ev->reason < GUARD_REASON_TAKEBACK) go_point_name(ev->move.point, g->size, name);
    snprintf(buf, len, "%s %s", ev->move.color == GO_BLACK ? "B" : "W", name[0] ? name : ev->text);
}

static void go_obs_header(const struct daemon_game *g, struct obs_stream_header *h)
{
    memset(h, 0, sizeof *h);
    h->game = OBS_GAME_GO;
    h->w = h->h = g->size;
    snprintf(h->rules, sizeof h->rules, "%s", g->rules->name);
    h->to_move = GO_EMPTY;
}

static void go_result(const struct daemon_game *g, struct daemon_result *res)
{
    res->move = NULL;
    if (!g->rec.nmoves) return;
    res->move = malloc((size_t)g->rec.nmoves * sizeof *res->move);
    if (res->move) memcpy(res->move, g->rec.moves, (size_t)g->rec.nmoves * sizeof *res->move);
}

static const struct daemon_record_file go_files[] = {{LIVE_RECORD_SGF, "game.sgf"}};

const struct daemon_game_ops daemon_go_ops = {
    .name = "go",
    .files = go_files,
    .nfiles = 1,
    /* the Go reader tells hands from stones by colour: on grey frames it read 92 and 202 stones
     * on hand-covered points of rendered footage (seeds 100, 500) where colour frames read 1
     * and 0 */
    .colour = true,
    /* a film that ends a second after its last stone (under a false cover the hand lifted and
     * laid again, or flickering points) settled no view of it: the stone was lost */
    .end_settle = true,
    .open = go_open,
    .close = go_close,
    .header = go_header,
    .read = go_read,
    .settled = go_settled,
    .last_view = go_last_view,
    .flush = go_flush,
    .action = go_action,
    .apply = go_apply,
    .note = go_note,
    .moves = go_moves,
    .resume = go_resume,
    .record = go_record,
    .state = go_state,
    .height = go_height,
    .move_name = go_move_name,
    .obs_header = go_obs_header,
    .result = go_result,
};

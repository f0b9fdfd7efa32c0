/* tests/daemon/test_daemon_faults.c — the referee's faults end to end through the recorder
 * itself: real games (foxwq Go games, lishogi shogi games; the fixtures' games when ../shared is
 * absent) filmed by the renderer with one fault injected each (`kifucam render --faults`), then
 * daemon_run on a dir: source as `kifucam record` runs it, and the flags it wrote to its journal
 * read back and set against the fault the truth names (its kind, its ply). Go: the same colour
 * twice (TWO_MOVES), a stone slid to the next point (MOVED_STONE), a stone taken off
 * (STONE_REMOVED), prisoners left (CAPTURE_NOT_REMOVED), the board knocked (no flag), a ko the
 * game took retaken at once and a stone put where it has no liberty (ILLEGAL_MOVE under the
 * recorder's default rules, Japanese 1989; both put back before the next move); shogi: a
 * captured piece never put on the komadai and a komadai piece hidden later (HIDDEN_PIECE), a piece
 * put down the wrong way round, an opponent's piece moved and a pawn dropped on a file holding the
 * dropper's own unpromoted pawn, 二歩, taken back before the game's move (ILLEGAL_MOVE), the board
 * knocked (no flag). A fault is flagged "at its move" when a flag of its kind names a ply from one
 * before the fault's to two after it, or was raised between the fault's frame and the end of the
 * two moves after it (the record's plies drift from the game's when moves were lost before); a flag
 * raised on a frame before the fault is a false one. Moves recorded as made but not seen (a
 * comment, no flag) are counted apart. Prints per film its flags, then per game type a confusion
 * table (fault injected x flag raised, at its move or elsewhere) and a table per kind and camera
 * scene.
 *
 * Films: 640x480 JPEG frames (the size the vision fault films use), the camera scene turned by the
 * game (overhead, player, side, partial, dim, glare), board style, lens, JPEG quality and bumps by
 * the seed; the fewest moves from 20 on, in steps of 10 up to 60, that put the fault at least
 * TAIL moves before the film's end; a game where none does is passed over. Shogi is recorded with
 * komadai = true (the HIDDEN_PIECE flags need the komadai readings; KIFUCAM_FAULTS_KOMADAI=0
 * records as the default configuration does); a film whose stand lies out of the picture says so.
 *
 * CI's run (no KIFUCAM_FAULTS_GAMES): five films, one of each kind with a ci_game, each flagged at
 * its move today, none with a flag before its fault (about 45 s of CPU; the ko and the suicide
 * come late, 30 to 60 moves into a film, and are left out: game 45 films a ko retaken, flagged,
 * in 1759 frames, 37% more than the five together); ASan: the first of each
 * game type. Knobs: KIFUCAM_FAULTS_GAMES (films per fault kind; with 5 or more each kind's share
 * flagged must stay at its floor_pct), KIFUCAM_FAULTS_FIRST (the first game's index),
 * KIFUCAM_FAULTS_KIND=name (one kind), KIFUCAM_FAULTS_ONLY=go|shogi, KIFUCAM_FAULTS_SCENE=name
 * (every film in one scene), KIFUCAM_FAULTS_DIR (keep the renders there and reuse them: a render
 * takes half a minute, a recording ten seconds; the records go to the scratch folder, kept with
 * KIFUCAM_KEEP_TMP), KIFUCAM_FAULTS_VERBOSE=1 (the recorder's warnings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/daemon.h"
#include "record/journal.h"
#include "record/sgf.h"
#include "record/shogi_record.h"
#include "render/render.h"
#include "ruleguard/guard.h"
#include "tests/daemon/daemon_testutil.h"
#include "tests/daemon/footage_games.h"
#include "tests/daemon/replay_check.h"
#include "tests/testutil.h"

#define MAX_MOVES 80
#define MAX_FLAGS 48
#define WIDTH     640
#define HEIGHT    480

enum game_type { GO, SHOGI };

struct kind {
    unsigned bit;
    const char *name;
    enum guard_kind want; /* GUARD_MOVE: no flag wanted (a knock breaks no rule) */
    int ci_game;          /* CI's default run films this game (index as KIFUCAM_FAULTS_FIRST);
                             -1: none. Each one is flagged at its move today. */
    int floor_pct;        /* KIFUCAM_FAULTS_GAMES >= 5: the share of films flagged at their move
                             (knocked: with no flag) that must hold, under today's figure */
    int false_per5;       /* Go: false flags before the fault allowed per five films (a ko or a
                             suicide comes late: 30 to 56 moves filmed before it, twice as many
                             as before the others); shogi: not bounded (0) */
};

static const struct kind go_kinds[] = {
    {RENDER_FAULT_SAME_COLOR, "same-color", GUARD_TWO_MOVES, 2, 40, 1},
    {RENDER_FAULT_MOVED_STONE, "moved-stone", GUARD_MOVED_STONE, 3, 80, 1},
    {RENDER_FAULT_REMOVED_STONE, "removed-stone", GUARD_STONE_REMOVED, 39, 80, 1},
    {RENDER_FAULT_CAPTURES_LEFT, "captures-left", GUARD_CAPTURE_NOT_REMOVED, -1, 80, 1},
    {RENDER_FAULT_KNOCKED, "knocked", GUARD_MOVE, -1, 40, 1},
    {RENDER_FAULT_KO_RETAKEN, "ko-retaken", GUARD_ILLEGAL_MOVE, -1, 70, 2},
    {RENDER_FAULT_SUICIDE, "suicide", GUARD_ILLEGAL_MOVE, -1, 50, 2},
};
static const struct kind shogi_kinds[] = {
    {RENDER_FAULT_NOT_IN_HAND, "not-in-hand", GUARD_HIDDEN_PIECE, 5, 60, 0},
    {RENDER_FAULT_HIDDEN, "hidden", GUARD_HIDDEN_PIECE, 3, 40, 0},
    {RENDER_FAULT_WRONG_WAY, "wrong-way", GUARD_ILLEGAL_MOVE, -1, 0, 0},
    {RENDER_FAULT_OPPONENT_PIECE, "opponent-piece", GUARD_ILLEGAL_MOVE, -1, 60, 0},
    {RENDER_FAULT_KNOCKED, "knocked", GUARD_MOVE, -1, 20, 0},
    /* nifu: 8 of 12 films flagged at their move today (partial 1/4: films lost before it) */
    {RENDER_FAULT_NIFU, "nifu", GUARD_ILLEGAL_MOVE, -1, 60, 0},
};
#define NGO_KINDS    (int)(sizeof go_kinds / sizeof go_kinds[0])
#define NSHOGI_KINDS (int)(sizeof shogi_kinds / sizeof shogi_kinds[0])
#define MAX_KINDS    7 /* the most kinds a game type has */

static const enum render_scenario scenes[] = {RENDER_SCENE_OVERHEAD, RENDER_SCENE_PLAYER,
                                              RENDER_SCENE_SIDE,     RENDER_SCENE_PARTIAL,
                                              RENDER_SCENE_DIM,      RENDER_SCENE_GLARE};
#define NSCENES 6

/* The flag kinds of the confusion table's columns (the last counts every other flag). */
static const enum guard_kind columns[] = {
    GUARD_TWO_MOVES,           GUARD_MOVED_STONE,  GUARD_STONE_REMOVED,
    GUARD_CAPTURE_NOT_REMOVED, GUARD_ILLEGAL_MOVE, GUARD_HIDDEN_PIECE,
    GUARD_BOARD_DISTURBED,     GUARD_UNREADABLE,   GUARD_KIND_COUNT};
#define NCOLUMNS 9
static const char *const column_names[NCOLUMNS] = {"TWO_MOVES", "MOVED",     "REMOVED",
                                                   "CAPT_LEFT", "ILLEGAL",   "HIDDEN",
                                                   "DISTURBED", "UNREADABL", "other"};

static int column_of(enum guard_kind k)
{
    for (int c = 0; c < NCOLUMNS - 1; c++)
        if (columns[c] == k) return c;
    return NCOLUMNS - 1;
}

/* What one film gave. */
struct film {
    int fault_ply, fault_frame;
    int until_frame; /* the end of the fault's moves: AFTER_MOVES moves later, and a settle */
    int scene;
    int nflags;
    struct {
        enum guard_kind kind;
        int ply;
        long frame; /* the frame that shows it (the dir: source's image number) */
        char text[200];
    } flag[MAX_FLAGS];
    int right, total, recorded; /* the source's moves recorded right (in order), filmed, in all */
    int nunseen;                /* moves recorded as made but not seen (no flag: a comment) */
    int unseen_ply[MAX_FLAGS];
    int end_ply; /* the game's end the recorder saw (none in these films), or -1 */
    char end_text[200];
};

/* What one kind gave over its films: outcomes, and per scene. */
struct tally {
    int films, at_ply, elsewhere, missed, false_before, other_after;
    int scene_films[NSCENES], scene_at[NSCENES];
    int confusion[NCOLUMNS][2]; /* flags raised: [column][0] at the fault's ply, [1] elsewhere */
    int unseen[2];              /* moves recorded as not seen, at the fault's ply / elsewhere */
    int right, total;
};

/* --------------------------------------------------------------------------- knobs ---- */

static bool skipped(const char *type)
{
    const char *only = getenv("KIFUCAM_FAULTS_ONLY");
    if (!only || !*only || !strcmp(only, type)) return false;
    tu_note("%s faults: not filmed (KIFUCAM_FAULTS_ONLY=%s)", type, only);
    return true;
}

/* CI's default run: no KIFUCAM_FAULTS_GAMES, one film of each kind with a ci_game (ASan: the
 * first of them only). */
static bool ci_run(void)
{
    return dt_env_long("KIFUCAM_FAULTS_GAMES", -1) < 0;
}

/* Films wanted for kind kd from game index *first on: KIFUCAM_FAULTS_GAMES each from
 * KIFUCAM_FAULTS_FIRST, else CI's film. */
static int films_wanted(const struct kind *kd, int *first)
{
    *first = (int)dt_env_long("KIFUCAM_FAULTS_FIRST", 0);
    const char *only = getenv("KIFUCAM_FAULTS_KIND");
    if (only && *only && strcmp(only, kd->name)) return 0;
    if (!ci_run()) return (int)dt_env_long("KIFUCAM_FAULTS_GAMES", 1);
    if (kd->ci_game < 0) return 0;
    *first = kd->ci_game;
    return TU_UNDER_ASAN && kd != &go_kinds[0] && kd != &shogi_kinds[0] ? 0 : 1;
}

/* The floors: in CI's run (with ../shared: its games) every film flagged at its move and no flag
 * before a fault; with KIFUCAM_FAULTS_GAMES >= 5, each kind's share (floor_pct). */
static void floors(const struct kind *kinds, int nkinds, const struct tally *t, bool shared,
                   bool go)
{
    for (int f = 0; f < nkinds; f++) {
        if (!t[f].films) continue;
        if (ci_run() && shared) {
            assert_int_equal(t[f].at_ply, t[f].films);
            assert_int_equal(t[f].false_before, 0);
        } else if (t[f].films >= 5) {
            if (t[f].at_ply * 100 < t[f].films * kinds[f].floor_pct)
                fail_msg("%s: %d of %d films flagged at their move, under the floor %d%%",
                         kinds[f].name, t[f].at_ply, t[f].films, kinds[f].floor_pct);
            /* Go: today one false flag before a fault in 24 films (a glare view); shogi's one
               false foul ends the game and flags every move after it: counted, not bounded */
            if (go && t[f].false_before * 5 > t[f].films * kinds[f].false_per5)
                fail_msg("%s: %d false flags before the fault in %d films", kinds[f].name,
                         t[f].false_before, t[f].films);
        }
    }
}

static int scene_for(int kind, int gi)
{
    const char *s = getenv("KIFUCAM_FAULTS_SCENE");
    if (s && *s) {
        for (int i = 0; i < NSCENES; i++)
            if (!strcmp(s, render_scenario_name(scenes[i]))) return i;
        fail_msg("KIFUCAM_FAULTS_SCENE=%s: not one of the six camera scenes", s);
    }
    return (kind + gi) % NSCENES; /* by the game: a kept render keeps its scene */
}

static void render_options(struct render_opts *o, uint64_t seed, int scene, unsigned bit, int moves)
{
    render_opts_default(o);
    o->width = WIDTH, o->height = HEIGHT;
    o->seed = seed;
    o->scenario = scenes[scene];
    o->faults = bit;
    o->max_moves = moves;
}

/* ------------------------------------------------------------------------ results ---- */

/* A flag is the fault's when it names the fault's move (a ply before to AFTER_MOVES after it)
 * or when the recorder raised it between the fault's frame and the end of those moves with a
 * settle after them (SETTLE_FRAMES): the record's plies drift from the game's when moves were lost
 * or recorded as not seen before the fault. */
#define AFTER_MOVES   2
#define SETTLE_FRAMES 45

/* The fault's ply and frame from the render's truth.jsonl (its first "fault" event), and the
 * frame where the fault's moves end. */
static void fault_of(const char *dir, struct film *fm)
{
    char truth[1200];
    snprintf(truth, sizeof truth, "%.1000s/truth.jsonl", dir);
    FILE *f = fopen(truth, "r");
    if (!f) fail_msg("%s: %s", truth, strerror(errno));
    fm->fault_ply = fm->fault_frame = fm->until_frame = -1;
    static char line[1 << 17];
    int last = 0;
    while (fm->until_frame < 0 && fgets(line, sizeof line, f)) {
        const char *fr = strstr(line, "{\"kind\":\"frame\",\"frame\":");
        if (!fr) continue;
        last = atoi(fr + strlen("{\"kind\":\"frame\",\"frame\":"));
        const char *pl = strstr(line, "\"ply\":");
        const char *e = strstr(line, "{\"type\":\"fault\",\"ply\":");
        if (e && fm->fault_ply < 0) {
            fm->fault_ply = atoi(e + strlen("{\"type\":\"fault\",\"ply\":"));
            fm->fault_frame = last;
        }
        if (fm->fault_ply >= 0 && pl && atoi(pl + 6) > fm->fault_ply + AFTER_MOVES)
            fm->until_frame = last + SETTLE_FRAMES;
    }
    fclose(f);
    if (fm->fault_ply < 0) fail_msg("%s: no fault event", truth);
    if (fm->until_frame < 0) fm->until_frame = last + SETTLE_FRAMES;
}

/* The flags in the journal the recorder wrote (its whole account: the records' comments and the
 * live feed come from the same events). */
static void journal_flags(const char *path, struct film *fm)
{
    struct journal_log log = {0};
    struct journal_error err;
    assert_int_equal(journal_read(path, &log, &err), 0);
    if (log.damaged) fail_msg("%s", log.damage.message);
    fm->nflags = 0;
    fm->end_ply = -1;
    for (size_t i = 0; i < log.count; i++) {
        struct guard_event ev;
        char rule[256];
        if (!journal_decode_event(&log.entries[i], &ev, rule, sizeof rule)) continue;
        if (ev.kind == GUARD_GAME_END && fm->end_ply < 0) {
            fm->end_ply = ev.ply;
            snprintf(fm->end_text, sizeof fm->end_text, "%s", ev.text);
        }
        if (ev.kind == GUARD_MOVE && ev.reason == GUARD_REASON_UNSEEN && fm->nunseen < MAX_FLAGS)
            fm->unseen_ply[fm->nunseen++] = ev.ply;
        if (!guard_is_flag(ev.kind) || fm->nflags >= MAX_FLAGS) continue;
        fm->flag[fm->nflags].kind = ev.kind;
        fm->flag[fm->nflags].ply = ev.ply;
        fm->flag[fm->nflags].frame = (long)ev.frame_seq;
        snprintf(fm->flag[fm->nflags].text, sizeof fm->flag[0].text, "%s", ev.text);
        fm->nflags++;
    }
    journal_log_free(&log);
}

/* Score a film into its kind's tally and say what it gave. */
static void score(const struct kind *kd, enum game_type type, int k, const char *base,
                  const struct film *fm, struct tally *t)
{
    int lo = fm->fault_ply - 1, hi = fm->fault_ply + AFTER_MOVES;
    bool near[MAX_FLAGS];
    for (int j = 0; j < fm->nflags; j++)
        near[j] = (fm->flag[j].ply >= lo && fm->flag[j].ply <= hi) ||
                  (fm->flag[j].frame >= fm->fault_frame && fm->flag[j].frame <= fm->until_frame);
    /* the fault's own flag: one of its kind near it, else the one of its kind nearest by ply */
    int best = -1;
    for (int j = 0; j < fm->nflags; j++) {
        if (fm->flag[j].kind != kd->want) continue;
        int dj = abs(fm->flag[j].ply - fm->fault_ply);
        if (best < 0 || (near[j] && !near[best]) ||
            (near[j] == near[best] && dj < abs(fm->flag[best].ply - fm->fault_ply)))
            best = j;
    }
    bool at = best >= 0 && near[best];
    if (kd->want == GUARD_MOVE) at = fm->nflags == 0; /* a knock: clean, or flagged falsely */
    int before = 0, other = 0;
    for (int j = 0; j < fm->nflags; j++) {
        t->confusion[column_of(fm->flag[j].kind)][near[j] ? 0 : 1]++;
        if (j == best && at) continue;           /* the fault's own flag */
        if (fm->flag[j].frame < fm->fault_frame) /* raised before the fault happened */
            before++;
        else
            other++;
    }
    for (int j = 0; j < fm->nunseen; j++)
        t->unseen[fm->unseen_ply[j] >= lo && fm->unseen_ply[j] <= hi ? 0 : 1]++;
    t->films++;
    t->at_ply += at;
    t->elsewhere += !at && best >= 0 && kd->want != GUARD_MOVE;
    t->missed += !at && best < 0 && kd->want != GUARD_MOVE;
    t->false_before += before;
    t->other_after += other;
    t->scene_films[fm->scene]++;
    t->scene_at[fm->scene] += at;
    t->right += fm->right;
    t->total += fm->total;
    tu_note("%s %-14s %3d %-30.30s %-8s fault ply %2d frame %4d: %s; %d flag(s), %d before; "
            "moves %d/%d right, %d recorded",
            type == GO ? "go" : "shogi", kd->name, k, base, render_scenario_name(scenes[fm->scene]),
            fm->fault_ply, fm->fault_frame,
            kd->want == GUARD_MOVE ? (at ? "clean" : "flagged")
            : at                   ? "FLAGGED at its move"
            : best >= 0            ? "flagged elsewhere"
                                   : "MISSED",
            fm->nflags, before, fm->right, fm->total, fm->recorded);
    for (int j = 0; j < fm->nflags; j++)
        tu_note("      ply %2d frame %4ld %-20s %.140s", fm->flag[j].ply, fm->flag[j].frame,
                guard_kind_name(fm->flag[j].kind), fm->flag[j].text);
    for (int j = 0; j < fm->nunseen; j++)
        tu_note("      ply %2d a move not seen (no flag)", fm->unseen_ply[j]);
    if (fm->end_ply >= 0)
        tu_note("      ply %2d the game's end: %.150s", fm->end_ply, fm->end_text);
}

static void print_tables(const char *type, const struct kind *kinds, int nkinds,
                         const struct tally *t)
{
    char head[256] = "";
    size_t off = 0;
    for (int c = 0; c < NCOLUMNS; c++)
        off += (size_t)snprintf(head + off, sizeof head - off, " %9.9s", column_names[c]);
    tu_note("%s: fault injected x flag raised (at the fault's move / elsewhere); unseen: moves "
            "recorded as made but not seen (no flag)",
            type);
    tu_note("%-14s films at-move elsewh missed before |%s    unseen", "fault", head);
    for (int f = 0; f < nkinds; f++) {
        if (!t[f].films) continue;
        char row[256] = "";
        off = 0;
        for (int c = 0; c < NCOLUMNS; c++)
            off += (size_t)snprintf(row + off, sizeof row - off, " %4d/%-4d", t[f].confusion[c][0],
                                    t[f].confusion[c][1]);
        tu_note("%-14s %5d  %6d %6d %6d %6d |%s %4d/%-4d", kinds[f].name, t[f].films, t[f].at_ply,
                t[f].elsewhere, t[f].missed, t[f].false_before, row, t[f].unseen[0],
                t[f].unseen[1]);
    }
    tu_note("%s: flagged at its move (knocked: no flag) / films, per camera scene", type);
    off = 0;
    for (int s = 0; s < NSCENES; s++)
        off += (size_t)snprintf(head + off, sizeof head - off, " %8s",
                                render_scenario_name(scenes[s]));
    tu_note("%-14s|%s   moves right", "fault", head);
    for (int f = 0; f < nkinds; f++) {
        if (!t[f].films) continue;
        char row[256] = "";
        off = 0;
        for (int s = 0; s < NSCENES; s++) {
            char cell[16] = "-";
            if (t[f].scene_films[s])
                snprintf(cell, sizeof cell, "%d/%d", t[f].scene_at[s], t[f].scene_films[s]);
            off += (size_t)snprintf(row + off, sizeof row - off, " %8s", cell);
        }
        tu_note("%-14s|%s   %d/%d", kinds[f].name, row, t[f].right, t[f].total);
    }
}

static void record_config(struct kc_config *c, const char *game, const char *frames,
                          const char *out)
{
    kc_config_default(c);
    char err[256];
    assert_int_equal(kc_config_set(c, "game", "game", game, err, sizeof err), 0);
    if (!strcmp(game, "shogi")) c->komadai = dt_env_long("KIFUCAM_FAULTS_KOMADAI", 1) != 0;
    snprintf(c->source, sizeof c->source, "dir:%.500s", frames);
    snprintf(c->out_dir, sizeof c->out_dir, "%.500s", out);
    c->fps = 30;
    c->progress = false;
    c->log_level = getenv("KIFUCAM_FAULTS_VERBOSE") ? KC_LOG_WARN : KC_LOG_ERROR;
    c->observations = true;
}

/* Record FRAMES with the daemon into a fresh folder OUT; the flags into fm; its result. */
static void record(const char *game, const char *frames, const char *name, struct film *fm,
                   char *out, size_t n)
{
    dt_make_tmp(out, n, name); /* fresh: a journal there would be resumed */
    struct kc_config c;
    record_config(&c, game, frames, out);
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    free(r.move);
    journal_flags(r.journal_path, fm);
    /* every flag the recorder counted is in its journal */
    assert_int_equal(fm->nflags, r.flags < MAX_FLAGS ? r.flags : MAX_FLAGS);
    /* and the observation log, replayed as `kifucam check` does, gives the journal's events */
    char why[300];
    int events = 0;
    if (!rc_replay_same(out, &events, why, sizeof why)) fail_msg("%s: replay: %s", name, why);
}

/* -------------------------------------------------------------------------------- Go ---- */

struct go_list {
    int n;
    char (*path)[1024];
};

static void collect_sgf(const char *path, void *ctx)
{
    struct go_list *l = ctx;
    void *grown = realloc(l->path, (size_t)(l->n + 1) * sizeof *l->path);
    assert_non_null(grown);
    l->path = grown;
    snprintf(l->path[l->n++], sizeof *l->path, "%s", path);
}

static const char *go_games(struct go_list *l)
{
    static const char *const sgf[] = {".sgf", NULL};
    const char *shared = tu_shared_data_dir();
    if (shared) {
        tu_walk(tu_path(shared, "go-games/foxwq-pro/clean"), sgf, collect_sgf, l);
        if (l->n > 0) return "../shared/data go-games/foxwq-pro/clean";
    }
    tu_walk(tu_path(tu_fixtures_dir(), "sgf/foxwq-pro/clean"), sgf, collect_sgf, l);
    return "tests/fixtures sgf/foxwq-pro/clean";
}

/* The fault's ply in a truth-only render of rec with o (-1: it found no place). */
static int go_fault_ply(const struct go_record *rec, const struct render_opts *base)
{
    struct render_opts o = *base;
    o.truth_only = true;
    char err[300];
    struct render_go *r = render_go_open(rec, &o, err, sizeof err);
    if (!r) return -1;
    struct render_summary sum;
    render_go_summary(r, &sum);
    int ply = -1, frames = render_go_frame_count(r);
    struct render_frame *f = malloc(sizeof *f);
    assert_non_null(f);
    for (int i = 0; i < frames && ply < 0 && !(sum.faults_unplaced & o.faults); i++) {
        if (!render_go_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        for (int e = 0; e < f->nevents && ply < 0; e++)
            if (!strcmp(f->events[e].kind, "fault")) ply = f->events[e].ply;
    }
    free(f);
    render_go_close(r);
    return ply;
}

/* The moves filmed (20, 30 ... 60): the fewest that give the fault a place TAIL moves or more
 * before the film ends (a fault has a game after it; the guard needs views after it), 0 when
 * none does. */
#define TAIL 4
static int go_moves_for(const struct go_record *rec, const struct render_opts *base)
{
    for (int moves = 20; moves <= 60; moves += 10) {
        struct render_opts o = *base;
        o.max_moves = moves;
        int ply = go_fault_ply(rec, &o);
        if (ply >= 0 && ply <= moves - TAIL) return moves;
    }
    return 0;
}

/* Film game gi of the list with kd's fault, record it, score it; false when the game does not
 * qualify or the fault finds no place in it. */
static bool film_go(const char *path, int f, int gi, struct tally *t)
{
    const struct kind *kd = &go_kinds[f];
    struct go_record **recs = NULL;
    struct sgf_error err;
    int nr = sgf_read_file(path, &recs, &err);
    if (nr < 1) fail_msg("%s", err.message);
    struct go_record *rec = recs[0];
    bool setup = rec->nnodes > 0 && rec->nodes[0].nsetup > 0;
    int scene = scene_for(f, gi);
    struct render_opts o;
    uint64_t seed = 7000 + 100 * (uint64_t)f + (uint64_t)gi;
    render_options(&o, seed, scene, kd->bit, 0);
    int moves = 0;
    if (rec->width == 19 && rec->height == 19 && !rec->handicap && !setup)
        moves = go_moves_for(rec, &o);
    struct go_move src[MAX_MOVES];
    int ns = 0;
    for (int i = 1; i < rec->nnodes && ns < moves; i++)
        if (rec->nodes[i].has_move) src[ns++] = rec->nodes[i].move;
    bool ok = moves > 0 && ns == moves;
    if (ok) {
        o.max_moves = moves;
        char name[128], frames[1100], out[1100];
        snprintf(name, sizeof name, "go-%s-%03d-%s-%dm", kd->name, gi,
                 render_scenario_name(scenes[scene]), moves);
        fg_kept_path(frames, sizeof frames, "KIFUCAM_FAULTS_DIR", name);
        if (!fg_render_kept("KIFUCAM_FAULTS_DIR", frames)) {
            char msg[300] = "", part[1200];
            fg_part_path(part, sizeof part, frames);
            if (render_go_to_dir(rec, path, &o, part, msg, sizeof msg) < 0)
                fail_msg("render %s: %s", path, msg);
            fg_render_done(part, frames);
        }
        struct film *fm = calloc(1, sizeof *fm);
        assert_non_null(fm);
        fm->scene = scene;
        fault_of(frames, fm);
        snprintf(name, sizeof name, "go-%s-%03d-out", kd->name, gi);
        record("go19", frames, name, fm, out, sizeof out);
        char sgf_path[1200];
        snprintf(sgf_path, sizeof sgf_path, "%.1100s/game.sgf", out);
        struct go_move got[MAX_MOVES];
        int ng = dt_sgf_moves(sgf_path, got, MAX_MOVES);
        uint32_t a[MAX_MOVES], b[MAX_MOVES];
        for (int i = 0; i < ns; i++) a[i] = fg_go_key(src[i], 0, 19);
        for (int s = 0; s < 8; s++) {
            for (int i = 0; i < ng; i++) b[i] = fg_go_key(got[i], s, 19);
            int right = fg_lcs(a, ns, b, ng);
            if (right > fm->right) fm->right = right;
        }
        fm->total = ns;
        fm->recorded = ng;
        const char *base = strrchr(path, '/');
        score(kd, GO, gi, base ? base + 1 : path, fm, t);
        free(fm);
    }
    for (int i = 0; i < nr; i++) go_record_free(recs[i]);
    free(recs);
    return ok;
}

static void test_go_faults(void **state)
{
    (void)state;
    if (skipped("go")) TU_SKIP();
    struct go_list list = {0};
    const char *which = go_games(&list);
    assert_true(list.n > 0);
    tu_note("Go faults: games from %s (%d), %dx%d", which, list.n, WIDTH, HEIGHT);
    int stride = list.n / 97 > 0 ? list.n / 97 : 1;
    struct tally t[MAX_KINDS] = {0};
    for (int f = 0; f < NGO_KINDS; f++) {
        int first, want = films_wanted(&go_kinds[f], &first);
        /* each kind its own games, spread over the corpus (its folders are ranks); past the
           first list.n / stride games the next round of places is one game on (a rare fault,
           a ko, would film the same games again) */
        int round = list.n / stride;
        for (int gi = first, tried = 0; t[f].films < want && tried < list.n; gi++, tried++) {
            size_t at =
                ((size_t)(gi + 31 * f) * (size_t)stride + (size_t)(gi / round)) % (size_t)list.n;
            film_go(list.path[at], f, gi, &t[f]);
        }
        if (t[f].films < want) tu_note("%s: only %d film(s)", go_kinds[f].name, t[f].films);
    }
    free(list.path);
    print_tables("Go", go_kinds, NGO_KINDS, t);
    floors(go_kinds, NGO_KINDS, t, !strncmp(which, "../shared", 9), true);
}

/* ----------------------------------------------------------------------------- shogi ---- */

/* The fault's ply in a truth-only render (-1: it found no place); in *komadai which stands lie
 * inside the picture at the fault (bit 0 sente's, bit 1 gote's; their centres a twentieth of the
 * width inside its edges). */
static int shogi_fault_ply(const struct shogi_record *rec, const struct render_opts *base,
                           int *komadai)
{
    struct render_opts o = *base;
    o.truth_only = true;
    char err[300];
    struct render_shogi *r = render_shogi_open(rec, &o, err, sizeof err);
    if (!r) return -1;
    struct render_summary sum;
    render_shogi_summary(r, &sum);
    int ply = -1, frames = render_shogi_frame_count(r);
    struct render_shogi_frame *f = malloc(sizeof *f);
    assert_non_null(f);
    for (int i = 0; i < frames && ply < 0 && !(sum.faults_unplaced & o.faults); i++) {
        if (!render_shogi_frame(r, i, f, err, sizeof err)) fail_msg("%s", err);
        for (int e = 0; e < f->nevents && ply < 0; e++)
            if (!strcmp(f->events[e].kind, "fault")) ply = f->events[e].ply;
        if (ply < 0) continue;
        double m = 0.05 * f->width;
        *komadai = 0;
        for (int c = 0; c < 2; c++)
            if (f->komadai_px[c][0] >= m && f->komadai_px[c][0] <= f->width - m &&
                f->komadai_px[c][1] >= m && f->komadai_px[c][1] <= f->height - m)
                *komadai |= 1 << c;
    }
    free(f);
    render_shogi_close(r);
    return ply;
}

static int shogi_moves_for(const struct shogi_record *rec, const struct render_opts *base,
                           int *komadai)
{
    for (int moves = 20; moves <= 60 && moves <= rec->nmoves; moves += 10) {
        struct render_opts o = *base;
        o.max_moves = moves;
        int ply = shogi_fault_ply(rec, &o, komadai);
        if (ply >= 0 && ply <= moves - TAIL) return moves;
    }
    return 0;
}

static bool film_shogi(const struct shogi_record *rec, int line, int f, int gi, struct tally *t)
{
    const struct kind *kd = &shogi_kinds[f];
    if (rec->handicap != SHOGI_HC_EVEN) return false;
    int scene = scene_for(f, gi);
    struct render_opts o;
    uint64_t seed = 8000 + 100 * (uint64_t)f + (uint64_t)gi;
    render_options(&o, seed, scene, kd->bit, 0);
    int komadai = 0;
    int moves = shogi_moves_for(rec, &o, &komadai);
    if (!moves) return false;
    o.max_moves = moves;
    char name[128], frames[1100], out[1100];
    snprintf(name, sizeof name, "shogi-%s-%03d-%s-%dm", kd->name, gi,
             render_scenario_name(scenes[scene]), moves);
    fg_kept_path(frames, sizeof frames, "KIFUCAM_FAULTS_DIR", name);
    if (!fg_render_kept("KIFUCAM_FAULTS_DIR", frames)) {
        char msg[300] = "", part[1200];
        fg_part_path(part, sizeof part, frames);
        if (render_shogi_to_dir(rec, "faults.usi", &o, part, msg, sizeof msg) < 0)
            fail_msg("render shogi game %d: %s", gi, msg);
        fg_render_done(part, frames);
    }
    struct film *fm = calloc(1, sizeof *fm);
    assert_non_null(fm);
    fm->scene = scene;
    fault_of(frames, fm);
    snprintf(name, sizeof name, "shogi-%s-%03d-out", kd->name, gi);
    record("shogi", frames, name, fm, out, sizeof out);
    char csa[1200];
    snprintf(csa, sizeof csa, "%.1100s/game.csa", out);
    struct shogi_record **got = NULL;
    struct shogi_record_error err = {0};
    int ng = shogi_record_read_file(csa, &got, &err);
    if (ng != 1) fail_msg("%s: %s", csa, ng < 0 ? err.message : "not one game");
    uint32_t a[MAX_MOVES], b[MAX_MOVES];
    int nb = got[0]->nmoves < MAX_MOVES ? got[0]->nmoves : MAX_MOVES;
    for (int i = 0; i < moves; i++) a[i] = fg_shogi_key(rec->moves[i].move);
    for (int i = 0; i < nb; i++) b[i] = fg_shogi_key(got[0]->moves[i].move);
    fm->right = fg_lcs(a, moves, b, nb);
    fm->total = moves;
    fm->recorded = nb;
    shogi_records_free(got, ng);
    char base[40];
    snprintf(base, sizeof base, "game %d%s", line,
             komadai == 3 ? ""
             : komadai    ? (komadai & 1 ? " (gote's stand out)" : " (sente's stand out)")
                          : " (stands out)");
    score(kd, SHOGI, gi, base, fm, t);
    free(fm);
    return true;
}

static void test_shogi_faults(void **state)
{
    (void)state;
    if (skipped("shogi")) TU_SKIP();
    int n;
    const char *which = "";
    struct shogi_record **games = fg_shogi_games(&n, &which);
    assert_true(n > 0);
    tu_note("shogi faults: games from %s (%d), %dx%d, komadai %s", which, n, WIDTH, HEIGHT,
            dt_env_long("KIFUCAM_FAULTS_KOMADAI", 1) ? "read" : "not read");
    /* games 100.. of the corpus (past measurements used 200-225, test_daemon_footage 300..) */
    int base = n > 300 ? 100 : 0;
    struct tally t[MAX_KINDS] = {0};
    for (int f = 0; f < NSHOGI_KINDS; f++) {
        int first, want = films_wanted(&shogi_kinds[f], &first);
        for (int gi = first, tried = 0; t[f].films < want && tried < n; gi++, tried++)
            film_shogi(games[(base + gi + 37 * f) % n], (base + gi + 37 * f) % n + 1, f, gi, &t[f]);
        if (t[f].films < want) tu_note("%s: only %d film(s)", shogi_kinds[f].name, t[f].films);
    }
    shogi_records_free(games, n);
    print_tables("shogi", shogi_kinds, NSHOGI_KINDS, t);
    floors(shogi_kinds, NSHOGI_KINDS, t, !strncmp(which, "../shared", 9), false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_go_faults),
        cmocka_unit_test(test_shogi_faults),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

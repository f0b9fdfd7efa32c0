/* app/cmd_check.c — `kifucam check FILE|DIR...`: replay records through the rule guard and print
 * one line per flag, `FILE:PLY: KIND: text (rule)`, then a summary line.
 * Exit status: 0 clean, 1 something flagged, 2 something unreadable. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/check_go.h"
#include "app/check_obs.h"
#include "app/check_shogi.h"
#include "app/commands.h"
#include "app/json_out.h"

struct file_list {
    char **paths;
    size_t n, cap;
};

struct totals {
    int files, games, moves, flags, flagged_files, unreadable;
    int by_kind[GUARD_KIND_COUNT];
    int rules_fallback;
    int scored, winner_agree, margin_agree;
};

struct check_ctx {
    bool json;
    const char *label; /* "FILE" or "FILE#2" for the 2nd game of a file */
    int flags_printed;
    struct totals *t;
};

static const char *const record_suffixes[] = {".sgf", ".kif", ".kifu", ".ki2", ".ki2u", ".csa",
                                              ".jkf", ".usi", ".sfen", ".obs", NULL};

static bool has_suffix(const char *path, const char *sfx)
{
    size_t l = strlen(path), n = strlen(sfx);
    return l >= n && !strcasecmp(path + l - n, sfx);
}

static bool is_record_name(const char *name)
{
    size_t ln = strlen(name);
    for (int i = 0; record_suffixes[i]; i++) {
        size_t ls = strlen(record_suffixes[i]);
        if (ln >= ls && !strcasecmp(name + ln - ls, record_suffixes[i])) return true;
    }
    return false;
}

static void list_add(struct file_list *l, const char *path)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->paths = realloc(l->paths, l->cap * sizeof *l->paths);
    }
    l->paths[l->n++] = strdup(path);
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect record files under a directory, recursively, in name order. */
static void walk(const char *dir, struct file_list *l)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct file_list here = {0};
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        list_add(&here, path);
    }
    closedir(d);
    qsort(here.paths, here.n, sizeof *here.paths, cmp_path);
    for (size_t i = 0; i < here.n; i++) {
        struct stat st;
        if (stat(here.paths[i], &st) == 0 && S_ISDIR(st.st_mode))
            walk(here.paths[i], l);
        else if (is_record_name(here.paths[i]))
            list_add(l, here.paths[i]);
        free(here.paths[i]);
    }
    free(here.paths);
}

static void print_flag(const struct guard_event *e, void *arg)
{
    struct check_ctx *c = arg;
    c->t->by_kind[e->kind]++;
    if (c->json) {
        printf("%s\n    {\"file\": ", c->flags_printed ? "," : "");
        json_string(stdout, c->label);
        printf(", \"ply\": %d, \"kind\": \"%s\", \"text\": ", e->ply, guard_kind_name(e->kind));
        json_string(stdout, e->text);
        printf(", \"rule\": ");
        if (e->rule_ref)
            json_string(stdout, e->rule_ref);
        else
            printf("null");
        printf("}");
    } else {
        printf("%s:%d: %s: %s", c->label, e->ply, guard_kind_name(e->kind), e->text);
        if (e->rule_ref) printf(" (%s)", e->rule_ref);
        printf("\n");
    }
    c->flags_printed++;
}

/* How flags name a game: the file, and "#N" for the N-th game of a file that holds several. */
static const char *game_label(char *buf, size_t len, const char *path, int game)
{
    if (game == 0)
        snprintf(buf, len, "%s", path);
    else
        snprintf(buf, len, "%s#%d", path, game + 1);
    return buf;
}

static void check_shogi_file(const char *path, const struct shogi_rules *rules, struct check_ctx *c)
{
    struct totals *t = c->t;
    struct shogi_record **games = NULL;
    struct shogi_record_error err = {0};
    t->files++;
    int n = shogi_record_read_file(path, &games, &err);
    if (n < 1) {
        t->unreadable++;
        if (err.line)
            fprintf(stderr, "%s:%d: %s\n", path, err.line, err.message);
        else
            fprintf(stderr, "%s: %s\n", path, err.message[0] ? err.message : "no game found");
        return;
    }
    int flags_before = t->flags;
    for (int g = 0; g < n; g++) {
        char label[4200];
        c->label = game_label(label, sizeof label, path, g);
        struct check_shogi_result res;
        check_shogi_record(games[g], rules, print_flag, c, &res);
        t->games++;
        t->moves += res.moves;
        t->flags += res.flags;
    }
    shogi_records_free(games, n);
    if (t->flags > flags_before) t->flagged_files++;
}

/* An observation stream (what the camera's vision stage saw, as text): through the observation
 * guard. */
static void check_obs_file(const char *path, const struct go_rules *forced, struct check_ctx *c)
{
    struct totals *t = c->t;
    t->files++;
    FILE *f = fopen(path, "rb");
    if (!f) {
        t->unreadable++;
        fprintf(stderr, "%s: cannot open\n", path);
        return;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (size_t r; text && (r = fread(text + len, 1, cap - len - 1, f)) > 0;) {
        len += r;
        if (len + 1 == cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger) {
                free(text);
                text = NULL;
            } else
                text = bigger;
        }
    }
    fclose(f);
    if (!text) {
        t->unreadable++;
        fprintf(stderr, "%s: out of memory\n", path);
        return;
    }
    text[len] = '\0';
    c->label = path;
    struct check_obs_result res;
    int flags_before = t->flags;
    check_obs_stream(text, forced, print_flag, NULL, c, &res);
    free(text);
    if (!res.readable) {
        t->unreadable++;
        fprintf(stderr, "%s:%s\n", path, res.error);
        return;
    }
    t->games++;
    t->moves += res.moves;
    t->flags += res.flags;
    if (t->flags > flags_before) t->flagged_files++;
}

static void check_file(const char *path, const struct go_rules *forced, struct check_ctx *c)
{
    struct totals *t = c->t;
    struct go_record **games = NULL;
    struct sgf_error err = {0};
    t->files++;
    int n = sgf_read_file(path, &games, &err);
    if (n < 0) {
        t->unreadable++;
        fprintf(stderr, "%s\n", err.message);
        return;
    }
    if (n == 0) {
        t->unreadable++;
        fprintf(stderr, "%s: no game found\n", path);
    }
    int flags_before = t->flags;
    for (int g = 0; g < n; g++) {
        char label[4200];
        c->label = game_label(label, sizeof label, path, g);
        struct check_go_result res;
        check_go_record(games[g], forced, print_flag, c, &res);
        t->games++;
        t->moves += res.moves;
        t->flags += res.flags;
        if (!forced && !res.rules_from_record) t->rules_fallback++;
        if (res.scored) {
            t->scored++;
            t->winner_agree += res.winner_agrees;
            t->margin_agree += res.margin_agrees;
        }
        go_record_free(games[g]);
    }
    free(games);
    if (t->flags > flags_before) t->flagged_files++;
}

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: kifucam check FILE|DIR... [--rules NAME] [--json]\n"
        "\n"
        "Replays every game record (SGF) through the rule guard under the rules its RU[] names\n"
        "(or --rules NAME) and prints one line per flag:\n"
        "  FILE:PLY: KIND: text (rule)\n"
        "then a summary line. Directories are walked. Exit status: 0 clean, 1 flagged,\n"
        "2 unreadable input.\n"
        "\n"
        "rules: ");
    size_t n;
    const struct go_rules *p = go_rules_presets(&n);
    for (size_t i = 0; i < n; i++) fprintf(out, "%s\"%s\"", i ? ", " : "", p[i].name);
    fprintf(
        out,
        "\n"
        "Shogi records (.kif .kifu .ki2 .csa .jkf .usi .sfen) under the JSA rules, or\n"
        "--rules tournament (entering king: both kings in the enemy camps call the referee).\n"
        "Observation streams (.obs: what the vision stage saw, as text) through the observation\n"
        "guard, under the rules their header names or --rules.\n");
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {{"rules", required_argument, NULL, 'r'},
                                         {"json", no_argument, NULL, 'j'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const struct go_rules *forced = NULL;
    const struct shogi_rules *shogi_rules = &shogi_rules_jsa;
    bool json = false;
    optind = 0; /* argv here starts at the first argument, not the program name */
    int c;
    /* getopt expects argv[0] to be the program: shift back by one. */
    char **args = calloc((size_t)argc + 2, sizeof *args);
    args[0] = "kifucam check";
    for (int i = 0; i < argc; i++) args[i + 1] = argv[i];
    int nargs = argc + 1;
    while ((c = getopt_long(nargs, args, "r:jh", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (!strcasecmp(optarg, "jsa")) {
                shogi_rules = &shogi_rules_jsa;
                break;
            }
            if (!strcasecmp(optarg, "tournament")) {
                shogi_rules = &shogi_rules_tournament;
                break;
            }
            forced = go_rules_find(optarg);
            if (!forced) {
                fprintf(stderr, "kifucam check: unknown rules '%s'\n", optarg);
                usage(stderr);
                free(args);
                return 2;
            }
            break;
        case 'j': json = true; break;
        case 'h':
            usage(stdout);
            free(args);
            return 0;
        default:
            usage(stderr);
            free(args);
            return 2;
        }
    }
    if (optind >= nargs) {
        usage(stderr);
        free(args);
        return 2;
    }

    struct file_list files = {0};
    struct totals t = {0};
    for (int i = optind; i < nargs; i++) {
        struct stat st;
        if (stat(args[i], &st) != 0) {
            fprintf(stderr, "%s: cannot open: no such file or directory\n", args[i]);
            t.unreadable++;
            continue;
        }
        if (S_ISDIR(st.st_mode))
            walk(args[i], &files);
        else
            list_add(&files, args[i]);
    }
    free(args);

    bool progress = isatty(STDERR_FILENO) && files.n > 20;
    struct check_ctx ctx = {.json = json, .t = &t};
    if (json) printf("{\n  \"flags\": [");
    for (size_t i = 0; i < files.n; i++) {
        if (progress && (i % 16 == 0 || i + 1 == files.n)) {
            fprintf(stderr, "\r[%zu/%zu] %d flags  ", i + 1, files.n, t.flags);
            fflush(stderr);
        }
        if (has_suffix(files.paths[i], ".sgf"))
            check_file(files.paths[i], forced, &ctx);
        else if (has_suffix(files.paths[i], ".obs"))
            check_obs_file(files.paths[i], forced, &ctx);
        else
            check_shogi_file(files.paths[i], shogi_rules, &ctx);
        free(files.paths[i]);
    }
    free(files.paths);
    if (progress) fprintf(stderr, "\r%60s\r", "");

    if (json) {
        printf(
            "\n  ],\n  \"summary\": {\"files\": %d, \"games\": %d, \"moves\": %d, \"flags\": %d, "
            "\"flagged_files\": %d, \"unreadable\": %d, \"rules_fallback\": %d, \"scored\": %d, "
            "\"winner_agrees\": %d, \"margin_agrees\": %d, \"by_kind\": {",
            t.files, t.games, t.moves, t.flags, t.flagged_files, t.unreadable, t.rules_fallback,
            t.scored, t.winner_agree, t.margin_agree);
        bool first = true;
        for (int k = 0; k < GUARD_KIND_COUNT; k++)
            if (t.by_kind[k]) {
                printf("%s\"%s\": %d", first ? "" : ", ", guard_kind_name(k), t.by_kind[k]);
                first = false;
            }
        printf("}}\n}\n");
    } else {
        printf("checked %d files, %d games, %d moves: %d flags in %d files, %d unreadable", t.files,
               t.games, t.moves, t.flags, t.flagged_files, t.unreadable);
        if (t.rules_fallback)
            printf("; %d games without known RU[] replayed under "
                   "Japanese 1989",
                   t.rules_fallback);
        if (t.scored)
            printf(
                "; counted %d games ended by passes: winner agrees with RE[] in %d, margin in %d",
                t.scored, t.winner_agree, t.margin_agree);
        printf("\n");
    }
    if (t.unreadable) return 2;
    return t.flags ? 1 : 0;
}

/* app/cmd_perft.c — `kifucam perft SFEN|startpos DEPTH [--divide]`: count the leaves of the legal
 * move tree, the standard check of a shogi move generator against published figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/commands.h"
#include "board/shogi.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: kifucam perft SFEN|startpos DEPTH [--divide]\n"
            "\n"
            "Counts the positions DEPTH moves (plies) deep from the given shogi position, the way\n"
            "engines do (perft). SFEN is one argument (quote it) or its words in order, e.g.\n"
            "  kifucam perft startpos 4\n"
            "  kifucam perft 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1' 3\n"
            "  --divide   also print the count below each legal first move (USI notation)\n");
}

static void print_divide(struct shogi_move m, uint64_t nodes, void *ctx)
{
    (void)ctx;
    char usi[6];
    printf("%s: %llu\n", shogi_move_to_usi(m, usi), (unsigned long long)nodes);
}

static bool is_depth(const char *s)
{
    if (!*s) return false;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return strlen(s) <= 3;
}

int cmd_perft(int argc, char **argv)
{
    bool divide = false;
    char sfen[512] = "";
    const char *depth_arg = NULL;
    /* the last plain number is the depth; every other word belongs to the SFEN */
    int last_number = -1;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--divide")) continue;
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "kifucam perft: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
        if (is_depth(argv[i])) last_number = i;
    }
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--divide")) {
            divide = true;
            continue;
        }
        if (i == last_number) {
            depth_arg = argv[i];
            continue;
        }
        size_t len = strlen(sfen);
        if (len + strlen(argv[i]) + 2 > sizeof sfen) {
            fprintf(stderr, "kifucam perft: SFEN too long\n");
            return 2;
        }
        snprintf(sfen + len, sizeof sfen - len, "%s%s", len ? " " : "", argv[i]);
    }
    if (!sfen[0] || !depth_arg) {
        fprintf(stderr, "kifucam perft: need a position (SFEN or 'startpos') and a depth\n");
        usage(stderr);
        return 2;
    }
    int depth = atoi(depth_arg);
    if (depth < 0 || depth > 12) {
        fprintf(stderr, "kifucam perft: depth %d out of range (0..12)\n", depth);
        return 2;
    }
    struct shogi_position pos;
    char err[200];
    const char *end = NULL;
    if (!shogi_sfen_parse(&pos, sfen, &end, err, sizeof err)) {
        fprintf(stderr, "kifucam perft: bad position '%s': %s\n", sfen, err);
        return 2;
    }
    while (end && *end == ' ') end++;
    if (end && *end) {
        fprintf(stderr, "kifucam perft: bad position '%s': unexpected '%s' after the SFEN\n", sfen,
                end);
        return 2;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t nodes =
        divide ? shogi_perft_divide(&pos, depth, print_divide, NULL) : shogi_perft(&pos, depth);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (divide) printf("\n");
    printf("perft(%d) = %llu\n", depth, (unsigned long long)nodes);
    fprintf(stderr, "%.3f s, %.0f nodes/s\n", secs, secs > 0 ? (double)nodes / secs : 0.0);
    return 0;
}

/* app/main.c — the kifucam command: dispatch to subcommands. */
#include <stdio.h>
#include <string.h>

#include "app/commands.h"

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
};

static const struct command commands[] = {
    {"check", cmd_check, "check FILE|DIR... [--rules NAME] [--json]   replay records, print flags"},
    {"read", cmd_read, "read IMAGE... --game go19|go13|go9 [--json]  one photo -> position"},
    {"render", cmd_render,
     "render RECORD.sgf --out DIR [--seed N] [--style S] [--scenario S]\n"
     "                                                synthetic camera frames + truth.jsonl"},
    {"record", cmd_record,
     "record --source SRC --game go19|go13|go9|shogi [--rules NAME] [--out DIR] [--serve ADDR]\n"
     "               [--mqtt URL] [--config FILE]   record a game: SGF, journal, live page"},
    {"demo", cmd_demo,
     "demo [--out DIR] [--realtime] [--serve ADDR]  replay the bundled sample clip"},
    {"perft", cmd_perft, "perft SFEN|startpos DEPTH                   shogi move-generator count"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: kifucam COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  kifucam %s\n", commands[i].usage);
    fprintf(out, "\n'kifucam COMMAND --help' tells more about one command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("kifucam %s\n", KIFUCAM_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr, "kifucam: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}

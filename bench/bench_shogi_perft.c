/* bench/bench_shogi_perft.c — speed of the shogi move generator: perft(5) from the start position
 * and perft(4) of "matsuri" (shared/research/shogi.md §4.2), in nodes per second; and, when
 * fairy-stockfish is installed, its `go perft` on the same positions in the same run, as a ratio.
 * Prints only; never fails on speed (it fails only when a count is wrong).
 *
 * usage: bench_shogi_perft [--no-oracle] [--quick]   (--quick: one depth less each)
 * The oracle is $FAIRY_STOCKFISH, /usr/games/fairy-stockfish or /usr/bin/fairy-stockfish. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board/shogi.h"

struct bench_case {
    const char *name;
    const char *sfen;
    int depth;
    uint64_t nodes[6]; /* expected, by depth 1..6 (0 = unknown) */
};

static const struct bench_case cases[] = {
    {"startpos", SHOGI_SFEN_STARTPOS, 5, {30, 900, 25470, 719731, 19861490, 547581517}},
    {"matsuri",
     "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
     4,
     {207, 28684, 4809015, 516925165, 0, 0}},
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const char *find_oracle(void)
{
    const char *env = getenv("FAIRY_STOCKFISH");
    if (env && access(env, X_OK) == 0) return env;
    static const char *const paths[] = {"/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish",
                                        "/usr/local/bin/fairy-stockfish"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (access(paths[i], X_OK) == 0) return paths[i];
    return NULL;
}

/* A running fairy-stockfish, talked to over pipes (USI). */
struct oracle {
    pid_t pid;
    FILE *in, *out;
};

static bool oracle_start(struct oracle *o, const char *path)
{
    int to_child[2], from_child[2];
    if (pipe(to_child) || pipe(from_child)) return false;
    o->pid = fork();
    if (o->pid < 0) return false;
    if (o->pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[1]);
        close(from_child[0]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    o->in = fdopen(to_child[1], "w");
    o->out = fdopen(from_child[0], "r");
    return o->in && o->out;
}

/* Send a command and read lines until one starts with `until`; returns that line's number. */
static bool oracle_ask(struct oracle *o, const char *cmd, const char *until, uint64_t *value)
{
    fprintf(o->in, "%s\n", cmd);
    fflush(o->in);
    char line[512];
    while (fgets(line, sizeof line, o->out))
        if (!strncmp(line, until, strlen(until))) {
            if (value) *value = strtoull(line + strlen(until), NULL, 10);
            return true;
        }
    return false;
}

static void oracle_stop(struct oracle *o)
{
    fprintf(o->in, "quit\n");
    fclose(o->in);
    fclose(o->out);
    int status;
    waitpid(o->pid, &status, 0);
}

int main(int argc, char **argv)
{
    bool use_oracle = true, quick = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--no-oracle")) {
            use_oracle = false;
        } else if (!strcmp(argv[i], "--quick")) {
            quick = true;
        } else {
            fprintf(stderr, "usage: %s [--no-oracle] [--quick]\n", argv[0]);
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    const char *oracle_path = use_oracle ? find_oracle() : NULL;
    struct oracle o = {0, NULL, NULL};
    bool have_oracle = false;
    if (oracle_path && oracle_start(&o, oracle_path)) {
        have_oracle = oracle_ask(&o, "usi", "usiok", NULL);
        if (have_oracle) {
            fprintf(o.in, "setoption name UCI_Variant value shogi\n");
            have_oracle = oracle_ask(&o, "isready", "readyok", NULL);
        }
    }
    printf("shogi perft benchmark (kifucam board/shogi_movegen.c)%s%s\n",
           have_oracle  ? ", oracle: "
           : use_oracle ? ", no fairy-stockfish found"
                        : ", oracle off",
           have_oracle ? oracle_path : "");
    int wrong = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct bench_case *c = &cases[i];
        int depth = quick ? c->depth - 1 : c->depth;
        struct shogi_position pos;
        char err[200];
        if (!shogi_sfen_parse(&pos, c->sfen, NULL, err, sizeof err)) {
            fprintf(stderr, "%s: %s\n", c->name, err);
            return 1;
        }
        double t0 = now();
        uint64_t nodes = shogi_perft(&pos, depth);
        double secs = now() - t0;
        uint64_t expect = c->nodes[depth - 1];
        bool ok = !expect || nodes == expect;
        wrong += !ok;
        printf("  %-8s perft(%d) = %llu%s  %.3f s  %.1f M nodes/s\n", c->name, depth,
               (unsigned long long)nodes, ok ? "" : "  WRONG", secs, (double)nodes / secs / 1e6);
        if (!have_oracle) continue;
        char cmd[256];
        snprintf(cmd, sizeof cmd, "position sfen %s", c->sfen);
        fprintf(o.in, "%s\n", cmd);
        oracle_ask(&o, "isready", "readyok", NULL);
        snprintf(cmd, sizeof cmd, "go perft %d", depth);
        uint64_t fsf_nodes = 0;
        t0 = now();
        bool got = oracle_ask(&o, cmd, "Nodes searched: ", &fsf_nodes);
        double fsf_secs = now() - t0;
        if (!got) {
            printf("  %-8s fairy-stockfish gave no answer\n", "");
            have_oracle = false;
            continue;
        }
        printf("  %-8s fairy-stockfish perft(%d) = %llu  %.3f s  %.1f M nodes/s  -> kifucam is "
               "%.1fx %s\n",
               "", depth, (unsigned long long)fsf_nodes, fsf_secs,
               (double)fsf_nodes / fsf_secs / 1e6,
               secs < fsf_secs ? fsf_secs / secs : secs / fsf_secs,
               secs < fsf_secs ? "faster" : "slower");
    }
    if (o.in && o.out) oracle_stop(&o);
    return wrong ? 1 : 0;
}

/* tests/live/live_demo.c — serves the live page with a game that plays itself, for the browser
 * check and screenshots: live_demo PORT go|shogi INTERVAL_MS SECONDS.
 *
 * Go: 40 made-up opening moves, played through board/go.h so stones, captures and the move list
 * are what the rules core says; a flag (a moved stone) is raised at move 12 for the referee view,
 * and move 7 was accepted under doubt (the referee's moves to check).
 * Shogi: a fixed made-up position after 14 moves, sent as one state. Players and events are
 * fictional. The referee token is "demo". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board/go.h"
#include "record/live.h"

static const char *const demo_moves[] = {
    "qd", "dc", "pq", "oc", "cp", "qo", "pe", "eq", "od", "jp", "pc", "dn", "cn", "cm",
    "dm", "cl", "em", "bn", "co", "bm", "fp", "ep", "fq", "fo", "go", "fn", "gn", "fm",
    "gp", "fr", "gr", "fs", "lq", "nq", "np", "mq", "mp", "lp", "kq", "kp",
};

static volatile sig_atomic_t stop;
static void on_term(int sig)
{
    (void)sig;
    stop = 1;
}

static void sleep_ms(int ms)
{
    struct timespec d = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
}

static void *snapshot_cb(void *ctx, uint64_t seq, size_t *len)
{
    (void)ctx;
    (void)seq;
    (void)len;
    return NULL;
}

static void run_go(struct live_server *s, int interval_ms, long long end_ms)
{
    struct go_game *g = go_game_new(19, 19, go_rules_find("japanese"));
    char names[64][8];
    const char *moves[64];
    int n = (int)(sizeof demo_moves / sizeof *demo_moves);
    for (int i = 0; i < n && !stop && (long long)time(NULL) * 1000 < end_ms; i++) {
        int x = demo_moves[i][0] - 'a', y = demo_moves[i][1] - 'a';
        struct go_move m = {i % 2 ? GO_WHITE : GO_BLACK, go_point(x, y)};
        go_game_play(g, m);
        go_point_name(m.point, 19, names[i]);
        moves[i] = names[i];
        struct guard_event ev = {
            .kind = GUARD_MOVE, .ply = i + 1, .move = m, .t_ns = (int64_t)(i + 1) * 30000000000};
        if (i + 1 == 7) guard_event_add_doubt(&ev, "accepted under doubt: low-confidence reading");
        char *j = live_event_json(&ev, (uint64_t)(i + 1), "go", 19);
        live_publish(s, "move", j, false);
        free(j);
        if (i + 1 == 12) {
            struct guard_event fl = {.kind = GUARD_MOVED_STONE,
                                     .ply = 12,
                                     .frame_seq = 3600,
                                     .move = m,
                                     .rule_ref = "Japanese 1989 Art. 5"};
            snprintf(fl.text, sizeof fl.text, "a stone moved from C14 to D14 after the move");
            j = live_event_json(&fl, 100, "go", 19);
            live_publish(s, "flag", j, true);
            free(j);
        }
        char board[19 * 19 + 1];
        for (int yy = 0; yy < 19; yy++)
            for (int xx = 0; xx < 19; xx++) {
                enum go_color c = go_game_at(g, go_point(xx, yy));
                board[yy * 19 + xx] = c == GO_BLACK ? 'X' : c == GO_WHITE ? 'O' : '.';
            }
        board[19 * 19] = '\0';
        struct live_state st = {
            .game = "go",
            .event = "kifucam demo: Go",
            .board_name = "Board 1",
            .width = 19,
            .height = 19,
            .board = board,
            .ply = i + 1,
            .last_x = x,
            .last_y = y,
            .black = {"Sato Kenji", 5400000 - (i + 1) * 61000, go_game_prisoners(g, GO_BLACK)},
            .white = {"Tanaka Yui", 5400000 - i * 75000, go_game_prisoners(g, GO_WHITE)},
            .moves = moves,
            .n_moves = i + 1,
            .to_move = i % 2 ? "black" : "white",
            .status = "board stable"};
        j = live_state_json(&st);
        live_set_state(s, j);
        free(j);
        sleep_ms(interval_ms);
    }
    go_game_free(g);
    while (!stop && 0 < end_ms - (long long)time(NULL) * 1000) sleep_ms(100);
}

static void run_shogi(struct live_server *s, long long end_ms)
{
    static const char *const moves[] = {"▲7六歩",   "△8四歩", "▲6八銀", "△3四歩", "▲6六歩",
                                        "△6二銀",   "▲5六歩", "△5四歩", "▲4八銀", "△4二銀",
                                        "▲5八金右", "△3二金", "▲7八金", "△4一玉"};
    struct live_state st = {
        .game = "shogi",
        .event = "kifucam demo: shogi",
        .board_name = "Board 2",
        .width = 9,
        .height = 9,
        .board = "ln1g1k1nl/1r1s2gb1/p1pppsppp/1p7/9/2P1P4/PPSP1PPPP/1BG1S2R1/LN2KG1NL b P 15",
        .ply = 14,
        .last_x = 5,
        .last_y = 1,
        .black = {"Kobayashi Ren", 7140000, 0},
        .white = {"Mori Aoi", 6900000, 0},
        .moves = moves,
        .n_moves = 14,
        .to_move = "black",
        .status = "board stable"};
    char *j = live_state_json(&st);
    live_set_state(s, j);
    free(j);
    while (!stop && 0 < end_ms - (long long)time(NULL) * 1000) sleep_ms(100);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: live_demo PORT go|shogi INTERVAL_MS SECONDS\n");
        return 2;
    }
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    signal(SIGPIPE, SIG_IGN);
    struct live_config cfg = {.port = (uint16_t)atoi(argv[1]), .referee_token = "demo"};
    struct live_callbacks cb = {.snapshot = snapshot_cb};
    char err[256];
    struct live_server *s = live_server_start(&cfg, &cb, err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("%u\n", live_server_port(s));
    fflush(stdout);
    long long end_ms = (long long)time(NULL) * 1000 + atoi(argv[4]) * 1000LL;
    if (strcmp(argv[2], "shogi") == 0)
        run_shogi(s, end_ms);
    else
        run_go(s, atoi(argv[3]), end_ms);
    live_server_stop(s);
    return 0;
}

/* tests/live/hall_feed.c — several boards of one hall publishing through the real MQTT feed
 * (record/mqtt.c), for the hall-page browser check and its screenshot:
 *
 *   hall_feed MQTT_PORT HALL BOARDS FROM TO [LINGER_S [PAUSE_AFTER]]
 *
 * Boards b01..bNN; every third one (b03, b06...) plays shogi, the others Go on 19x19. Each board
 * plays a deterministic game of legal moves (the rules cores choose among legal moves with a
 * per-board generator) and publishes, for plies FROM..TO, each move at QoS 1 and the retained
 * state after it, as a daemon does. b01 raises a flag (a moved stone) at plies 8, 28...; b02
 * resigns at ply 25 (so it stops there). Once the broker has acknowledged everything it prints one
 * line per board, "BOARD PLY LASTMOVE RESULT" (result "-" while the game runs), which the test
 * compares with the page, stays connected LINGER_S seconds (default 0) and says goodbye. Exits 1
 * when messages are still unacknowledged after 15 s. With PAUSE_AFTER it stops after that ply,
 * once the broker has it all, prints "paused" and waits for SIGUSR1 before playing on (the test
 * takes the broker away meanwhile). The players are fictional. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board/go.h"
#include "board/shogi.h"
#include "record/live.h"
#include "record/mqtt.h"

#define MAX_PLY      200
#define RESIGN_BOARD 1 /* b02 */
#define RESIGN_PLY   25
#define FLAG_EVERY   20 /* b01 raises a flag at plies 8, 28, 48... */
#define FLAG_PLY     8

struct board_game {
    bool shogi;
    struct go_game *go;
    struct shogi_position pos;
    uint32_t rng;
    char names[MAX_PLY][8];
    const char *moves[MAX_PLY];
    int ply, last_x, last_y;
    struct guard_event ev; /* the last move's event */
};

static void sleep_ms(int ms)
{
    struct timespec d = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
}

static uint32_t next_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* One legal move on a Go board: random points until one is legal (passes never: the test wants a
 * point to show). */
static void play_go(struct board_game *b)
{
    for (int tries = 0; tries < 1000; tries++) {
        int x = (int)(next_rand(&b->rng) % 19), y = (int)(next_rand(&b->rng) % 19);
        struct go_move m = {go_game_to_move(b->go), go_point(x, y)};
        if (go_game_check(b->go, m).kind != GO_LEGAL) continue;
        go_game_play(b->go, m);
        go_point_name(m.point, 19, b->names[b->ply]);
        b->last_x = x;
        b->last_y = y;
        b->ev = (struct guard_event){.kind = GUARD_MOVE, .ply = b->ply + 1, .move = m};
        return;
    }
    fprintf(stderr, "hall_feed: no legal Go move found\n");
    exit(1);
}

static void play_shogi(struct board_game *b)
{
    static struct shogi_move legal[SHOGI_MAX_MOVES];
    int n = shogi_legal_moves(&b->pos, legal);
    if (n <= 0) {
        fprintf(stderr, "hall_feed: no legal shogi move\n");
        exit(1);
    }
    struct shogi_move m = legal[next_rand(&b->rng) % (uint32_t)n];
    shogi_do_move(&b->pos, m);
    char usi[6];
    snprintf(b->names[b->ply], sizeof b->names[b->ply], "%s", shogi_move_to_usi(m, usi));
    /* The page's convention: x from the left (file 9) and y from the top (rank 1). */
    b->last_x = 9 - shogi_sq_file(m.to);
    b->last_y = shogi_sq_rank(m.to) - 1;
    b->ev = (struct guard_event){.kind = GUARD_MOVE, .ply = b->ply + 1, .shogi = m};
}

static char *state_json(struct board_game *b, int index, const char *result)
{
    char board[19 * 19 + 1], sfen[160], name[32], black[32], white[32];
    snprintf(name, sizeof name, "Board %d", index + 1);
    snprintf(black, sizeof black, "Player %c%d", 'A' + index % 26, 1);
    snprintf(white, sizeof white, "Player %c%d", 'A' + index % 26, 2);
    if (!b->shogi) {
        for (int y = 0; y < 19; y++)
            for (int x = 0; x < 19; x++) {
                enum go_color c = go_game_at(b->go, go_point(x, y));
                board[y * 19 + x] = c == GO_BLACK ? 'X' : c == GO_WHITE ? 'O' : '.';
            }
        board[19 * 19] = '\0';
    } else {
        shogi_sfen_format(&b->pos, sfen, sizeof sfen);
    }
    bool black_next = b->shogi ? b->pos.side == SHOGI_SENTE : b->ply % 2 == 0;
    struct live_state st = {.game = b->shogi ? "shogi" : "go",
                            .event = "kifucam hall test",
                            .board_name = name,
                            .width = b->shogi ? 9 : 19,
                            .height = b->shogi ? 9 : 19,
                            .board = b->shogi ? sfen : board,
                            .ply = b->ply,
                            .last_x = b->ply ? b->last_x : -1,
                            .last_y = b->ply ? b->last_y : -1,
                            .black = {black, -1, b->shogi ? 0 : go_game_prisoners(b->go, GO_BLACK)},
                            .white = {white, -1, b->shogi ? 0 : go_game_prisoners(b->go, GO_WHITE)},
                            .moves = b->moves,
                            .n_moves = b->ply,
                            .to_move = result       ? NULL
                                       : black_next ? "black"
                                                    : "white",
                            .result = result,
                            .status = "board stable"};
    return live_state_json(&st);
}

/* Waits up to 15 s for the broker to acknowledge everything; returns what is still pending. */
static int drain(struct mqtt_feed **feeds, int nb)
{
    int left = 0;
    for (int waited = 0; waited < 15000; waited += 10) {
        left = 0;
        for (int i = 0; i < nb; i++) left += mqtt_feed_pending(feeds[i]);
        if (!left) break;
        sleep_ms(10);
    }
    return left;
}

static int publish(struct mqtt_feed *f, const char *what, char *json)
{
    int rc = json ? (what ? mqtt_feed_event(f, what, json) : mqtt_feed_state(f, json)) : -1;
    free(json);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 8) {
        fprintf(stderr,
                "usage: hall_feed MQTT_PORT HALL BOARDS FROM TO [LINGER_S [PAUSE_AFTER]]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    /* Blocked before the client threads start, so only sigwait below takes it. */
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL);
    int pause_after = argc == 8 ? atoi(argv[7]) : 0;
    int port = atoi(argv[1]), nb = atoi(argv[3]), from = atoi(argv[4]), to = atoi(argv[5]);
    const char *hall = argv[2];
    if (nb < 1 || nb > 99 || from < 1 || to < from || to >= MAX_PLY) {
        fprintf(stderr, "hall_feed: bad numbers\n");
        return 2;
    }
    struct board_game *games = calloc((size_t)nb, sizeof *games);
    struct mqtt_feed **feeds = calloc((size_t)nb, sizeof *feeds);
    if (!games || !feeds) return 1;
    for (int i = 0; i < nb; i++) {
        char board[16], err[256];
        snprintf(board, sizeof board, "b%02d", i + 1);
        struct mqtt_feed_config cfg = {.port = port, .hall = hall, .board = board};
        feeds[i] = mqtt_feed_open(&cfg, err, sizeof err);
        if (!feeds[i]) {
            fprintf(stderr, "hall_feed: %s\n", err);
            return 1;
        }
        games[i].shogi = i % 3 == 2;
        games[i].rng = 12345u + 7919u * (uint32_t)i;
        if (games[i].shogi)
            shogi_position_startpos(&games[i].pos);
        else
            games[i].go = go_game_new(19, 19, go_rules_find("japanese"));
    }
    int rc = 0;
    for (int ply = 1; ply <= to; ply++) {
        for (int i = 0; i < nb; i++) {
            struct board_game *b = &games[i];
            if (i == RESIGN_BOARD && ply > RESIGN_PLY) continue;
            if (b->shogi)
                play_shogi(b);
            else
                play_go(b);
            b->moves[b->ply] = b->names[b->ply];
            b->ply++;
            if (ply < from) continue;
            const char *game = b->shogi ? "shogi" : "go";
            /* seq as the journal gives it: two numbers per ply, the flag taking the second. */
            rc |= publish(feeds[i], "move", live_event_json(&b->ev, (uint64_t)ply * 2, game, 19));
            if (i == 0 && ply % FLAG_EVERY == FLAG_PLY) {
                struct guard_event fl = b->ev;
                fl.kind = GUARD_MOVED_STONE;
                fl.rule_ref = "Japanese 1989 Art. 5";
                snprintf(fl.text, sizeof fl.text, "a stone moved after move %d", ply);
                rc |= publish(feeds[i], "flag",
                              live_event_json(&fl, (uint64_t)ply * 2 + 1, game, 19));
            }
            const char *result = i == RESIGN_BOARD && ply == RESIGN_PLY ? "W+R" : NULL;
            rc |= publish(feeds[i], NULL, state_json(b, i, result));
        }
        if (ply == pause_after) {
            drain(feeds, nb);
            printf("paused\n");
            fflush(stdout);
            int sig;
            sigwait(&usr1, &sig);
        }
    }
    drain(feeds, nb);
    for (int i = 0; i < nb; i++) {
        struct board_game *b = &games[i];
        bool ended = i == RESIGN_BOARD && b->ply == RESIGN_PLY;
        printf("b%02d %d %s %s\n", i + 1, b->ply, b->names[b->ply - 1], ended ? "W+R" : "-");
    }
    fflush(stdout);
    if (argc >= 7) sleep_ms(atoi(argv[6]) * 1000);
    int left = 0;
    for (int i = 0; i < nb; i++) {
        left += mqtt_feed_close(feeds[i], 15000);
        if (games[i].go) go_game_free(games[i].go);
    }
    free(games);
    free(feeds);
    if (rc) fprintf(stderr, "hall_feed: a publish failed\n");
    if (left) fprintf(stderr, "hall_feed: %d messages unacknowledged\n", left);
    return rc || left ? 1 : 0;
}

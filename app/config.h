/* app/config.h — the daemon's settings: defaults, an INI file (inih), then command-line options.
 * Every key is documented with its default in docs/kifucam.conf.example. */
#ifndef KIFUCAM_APP_CONFIG_H
#define KIFUCAM_APP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct kc_config {
    /* [game] */
    int board_size; /* 19, 13 or 9; 9 for shogi */
    bool shogi;     /* game = shogi */
    char rules[64]; /* Go: a preset name of board/go.h, e.g. "Japanese 1989"; shogi: "tournament"
                       (the referee decides repetitions, the default) or "jsa" (24-point rule) */
    double komi;
    char black[128], white[128], event[128], board_name[64];
    char time_control[64];
    int handicap;       /* Go: handicap stones (0 = none, 2..9) */
    bool handicap_free; /* Go: placed anywhere as Black's first moves, not on the star points */
    bool komadai;       /* shogi: hand the komadai readings to the rule guard (experimental) */
    char start[128];    /* shogi: "" (an even game), a handicap name ("lance", "two-piece",
                           "香落ち"...) or an SFEN: the position the game starts from */
    /* [camera] */
    char source[512];
    int width, height; /* 0 = the source's own */
    double fps;        /* 0 = the source's own */
    bool realtime;     /* files and folders at their timestamps */
    double speed;      /* with realtime: replay pace (1 = as recorded) */
    bool loop;         /* files and folders start again at their end (soak runs, a shop window) */
    int rotate;        /* 0, 90, 180, 270: the board turned clockwise in the image */
    double settle_s;   /* the view must hold still this long */
    double repeat_s;   /* and is said again this often while it holds (0: never) */
    double still_cover_s; /* a point covered this long without a break is no hand (0: never) */
    int retry_min_ms, retry_max_ms;
    /* [output] */
    char out_dir[512];
    bool snapshots;
    bool observations; /* every stable observation appended to DIR/observations.obs */
    /* [network] */
    char serve[128]; /* "" = no live page; "127.0.0.1:8080", ":8080" */
    char referee_token[128];
    char mqtt[256]; /* "" = none; mqtt://HOST[:PORT] */
    char hall[64];
    /* [log] */
    int log_level; /* 0 error, 1 warn, 2 info, 3 debug */
    bool progress; /* a progress line on a terminal */
};

void kc_config_default(struct kc_config *c);
/* Read an INI file over c. Returns 0, or -1 with err ("FILE:LINE: unknown key 'x'"). */
int kc_config_load(struct kc_config *c, const char *path, char *err, size_t errlen);
/* Set one key ("section.key" or bare key); used by the INI reader and for overrides. */
int kc_config_set(struct kc_config *c, const char *section, const char *key, const char *value,
                  char *err, size_t errlen);
/* "go19" -> 19 ... , "shogi" -> 9; 0 when unknown. */
int kc_game_size(const char *game);
/* The shogi start position a `start` value names (a handicap or an SFEN; "" = even). false with
 * the reason in err when it names none. */
struct shogi_position;
bool kc_shogi_start(const char *value, struct shogi_position *pos, char *err, size_t errlen);

#endif

/* app/config.c — INI settings through inih; unknown keys and bad values are errors naming the line.
 */
#include "app/config.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board/shogi.h"

void kc_config_default(struct kc_config *c)
{
    memset(c, 0, sizeof *c);
    c->board_size = 19;
    snprintf(c->rules, sizeof c->rules, "Japanese 1989");
    c->komi = 6.5;
    snprintf(c->board_name, sizeof c->board_name, "board-1");
    c->settle_s = 0.5;
    c->repeat_s = 0.5;
    c->still_cover_s = 2;
    c->speed = 1;
    c->retry_min_ms = 200;
    c->retry_max_ms = 5000;
    snprintf(c->out_dir, sizeof c->out_dir, "kifucam-records");
    c->snapshots = true;
    snprintf(c->hall, sizeof c->hall, "hall");
    c->log_level = 2;
    c->progress = true;
}

int kc_game_size(const char *game)
{
    if (!strcmp(game, "go19")) return 19;
    if (!strcmp(game, "go13")) return 13;
    if (!strcmp(game, "go9")) return 9;
    if (!strcmp(game, "shogi")) return 9;
    return 0;
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1") || !strcasecmp(v, "on"))
        *out = true;
    else if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcmp(v, "0") ||
             !strcasecmp(v, "off"))
        *out = false;
    else
        return -1;
    return 0;
}

static int parse_double(const char *v, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (errno || end == v || *end || d < lo || d > hi) return -1;
    *out = d;
    return 0;
}

static int parse_int(const char *v, int lo, int hi, int *out)
{
    double d;
    if (parse_double(v, lo, hi, &d) || d != (int)d) return -1;
    *out = (int)d;
    return 0;
}

static int set_str(char *dst, size_t n, const char *v)
{
    if (strlen(v) >= n) return -1;
    snprintf(dst, n, "%s", v);
    return 0;
}

#define STR(field) set_str(c->field, sizeof c->field, value)

int kc_config_set(struct kc_config *c, const char *section, const char *key, const char *value,
                  char *err, size_t errlen)
{
    int rc = -2; /* unknown key */
    bool b;
    if (!strcmp(section, "game")) {
        if (!strcmp(key, "game")) {
            int n = kc_game_size(value);
            rc = n ? 0 : -1;
            if (n) {
                c->board_size = n;
                c->shogi = !strcmp(value, "shogi");
            }
        } else if (!strcmp(key, "rules"))
            rc = STR(rules);
        else if (!strcmp(key, "komi"))
            rc = parse_double(value, -1000, 1000, &c->komi);
        else if (!strcmp(key, "black"))
            rc = STR(black);
        else if (!strcmp(key, "white"))
            rc = STR(white);
        else if (!strcmp(key, "event"))
            rc = STR(event);
        else if (!strcmp(key, "board"))
            rc = STR(board_name);
        else if (!strcmp(key, "time_control"))
            rc = STR(time_control);
        else if (!strcmp(key, "handicap")) {
            rc = parse_int(value, 0, 9, &c->handicap);
            if (!rc && c->handicap == 1) rc = -1; /* one stone is no handicap: komi 0 instead */
        } else if (!strcmp(key, "handicap_placement")) {
            rc = strcmp(value, "fixed") && strcmp(value, "free") ? -1 : 0;
            if (!rc) c->handicap_free = !strcmp(value, "free");
        } else if (!strcmp(key, "komadai"))
            rc = parse_bool(value, &c->komadai);
        else if (!strcmp(key, "start")) {
            struct shogi_position pos;
            if (!kc_shogi_start(value, &pos, err, errlen)) return -1;
            rc = STR(start);
        }
    } else if (!strcmp(section, "camera")) {
        if (!strcmp(key, "source"))
            rc = STR(source);
        else if (!strcmp(key, "width"))
            rc = parse_int(value, 0, 16384, &c->width);
        else if (!strcmp(key, "height"))
            rc = parse_int(value, 0, 16384, &c->height);
        else if (!strcmp(key, "fps"))
            rc = parse_double(value, 0, 1000, &c->fps);
        else if (!strcmp(key, "loop")) {
            rc = parse_bool(value, &b);
            if (!rc) c->loop = b;
        } else if (!strcmp(key, "speed"))
            rc = parse_double(value, 0.01, 1000, &c->speed);
        else if (!strcmp(key, "realtime")) {
            rc = parse_bool(value, &b);
            if (!rc) c->realtime = b;
        } else if (!strcmp(key, "rotate")) {
            rc = parse_int(value, 0, 270, &c->rotate);
            if (!rc && c->rotate % 90) rc = -1;
        } else if (!strcmp(key, "settle_s"))
            rc = parse_double(value, 0, 60, &c->settle_s);
        else if (!strcmp(key, "repeat_s"))
            rc = parse_double(value, 0, 60, &c->repeat_s);
        else if (!strcmp(key, "still_cover_s"))
            rc = parse_double(value, 0, 600, &c->still_cover_s);
        else if (!strcmp(key, "retry_min_ms"))
            rc = parse_int(value, 1, 600000, &c->retry_min_ms);
        else if (!strcmp(key, "retry_max_ms"))
            rc = parse_int(value, 1, 600000, &c->retry_max_ms);
    } else if (!strcmp(section, "output")) {
        if (!strcmp(key, "dir"))
            rc = STR(out_dir);
        else if (!strcmp(key, "snapshots")) {
            rc = parse_bool(value, &b);
            if (!rc) c->snapshots = b;
        } else if (!strcmp(key, "observations")) {
            rc = parse_bool(value, &b);
            if (!rc) c->observations = b;
        }
    } else if (!strcmp(section, "network")) {
        if (!strcmp(key, "serve"))
            rc = STR(serve);
        else if (!strcmp(key, "referee_token"))
            rc = STR(referee_token);
        else if (!strcmp(key, "mqtt"))
            rc = STR(mqtt);
        else if (!strcmp(key, "hall"))
            rc = STR(hall);
    } else if (!strcmp(section, "log")) {
        if (!strcmp(key, "level")) {
            static const char *const names[] = {"error", "warn", "info", "debug"};
            for (int i = 0; i < 4; i++)
                if (!strcmp(value, names[i])) {
                    c->log_level = i;
                    rc = 0;
                }
            if (rc) rc = -1;
        } else if (!strcmp(key, "progress")) {
            rc = parse_bool(value, &b);
            if (!rc) c->progress = b;
        }
    }
    if (rc == -2)
        snprintf(err, errlen, "unknown key '%s' in [%s]", key, section);
    else if (rc)
        snprintf(err, errlen, "bad value '%s' for %s.%s", value, section, key);
    return rc ? -1 : 0;
}

bool kc_shogi_start(const char *value, struct shogi_position *pos, char *err, size_t errlen)
{
    const struct shogi_handicap_info *h = shogi_handicap_find(*value ? value : "even");
    char why[128] = "";
    if (h) return shogi_sfen_parse(pos, h->sfen, NULL, why, sizeof why);
    if (shogi_sfen_parse(pos, value, NULL, why, sizeof why)) return true;
    snprintf(err, errlen,
             "bad value '%s' for game.start: neither a handicap (lance, right lance, bishop, "
             "rook, rook-lance, two-piece ... ten-piece, or 香落ち ...) nor an SFEN (%s)",
             value, why);
    return false;
}

struct load_ctx {
    struct kc_config *c;
    const char *path;
    char *err;
    size_t errlen;
    bool failed;
};

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    struct load_ctx *l = user;
    if (l->failed) return 0;
    char msg[256];
    if (kc_config_set(l->c, section, key, value, msg, sizeof msg)) {
        snprintf(l->err, l->errlen, "%s: %s", l->path, msg);
        l->failed = true;
        return 0;
    }
    return 1;
}

int kc_config_load(struct kc_config *c, const char *path, char *err, size_t errlen)
{
    struct load_ctx l = {c, path, err, errlen, false};
    int rc = ini_parse(path, on_key, &l);
    if (rc < 0) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    if (l.failed) {
        /* inih reports the first failing line in rc */
        if (rc > 0) {
            char tmp[512];
            snprintf(tmp, sizeof tmp, "%s", err);
            const char *msg = tmp + strlen(path) + 2;
            snprintf(err, errlen, "%s:%d: %s", path, rc, msg);
        }
        return -1;
    }
    if (rc > 0) {
        snprintf(err, errlen, "%s:%d: not a key = value line", path, rc);
        return -1;
    }
    return 0;
}

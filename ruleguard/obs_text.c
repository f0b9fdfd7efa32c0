/* ruleguard/obs_text.c — observation streams as text (format in ruleguard/obs_text.h). */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ruleguard/guard.h"
#include "ruleguard/obs_text.h"

#define LINE_MAX_LEN 1024 /* a 'since' row of 25 times in ns */

static bool fail(struct obs_text_error *err, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail(struct obs_text_error *err, int line, const char *fmt, ...)
{
    if (!err) return false;
    err->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return false;
}

/* Copy the next line (without its end) into buf; false at the end of the text. A line longer
 * than the buffer is cut (and then fails to parse). */
static bool next_line(const char **cursor, int *line, char buf[LINE_MAX_LEN])
{
    const char *s = *cursor;
    if (!s || !*s) return false;
    const char *e = s;
    while (*e && *e != '\n') e++;
    size_t n = (size_t)(e - s);
    if (n && s[n - 1] == '\r') n--;
    if (n >= LINE_MAX_LEN) n = LINE_MAX_LEN - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    *cursor = *e ? e + 1 : e;
    (*line)++;
    return true;
}

static bool blank_or_comment(const char *l)
{
    while (*l == ' ' || *l == '\t') l++;
    return *l == '\0' || *l == '#';
}

/* Skip blank and comment lines; the next meaningful line into buf. */
static bool next_content(const char **cursor, int *line, char buf[LINE_MAX_LEN])
{
    while (next_line(cursor, line, buf))
        if (!blank_or_comment(buf)) return true;
    return false;
}

static bool parse_color(const char *s, enum go_color *c)
{
    if (!strcmp(s, "B") || !strcasecmp(s, "black"))
        *c = GO_BLACK;
    else if (!strcmp(s, "W") || !strcasecmp(s, "white"))
        *c = GO_WHITE;
    else if (!strcmp(s, "E"))
        *c = GO_EMPTY;
    else
        return false;
    return true;
}

void obs_text_sgf_point(int point, char out[3])
{
    out[0] = (char)('a' + go_x(point));
    out[1] = (char)('a' + go_y(point));
    out[2] = '\0';
}

/* "key=value" tokens after the first word: t= and frame=; on an obs line also noboard and
 * 'stable frames=N' (it: NULL elsewhere). */
static bool parse_time_frame(char *rest, int lineno, int64_t *t, uint64_t *frame, bool *noboard,
                             struct obs_item *it, struct obs_text_error *err)
{
    char *sp = NULL;
    for (char *tok = strtok_r(rest, " \t", &sp); tok; tok = strtok_r(NULL, " \t", &sp)) {
        char *end;
        if (!strncmp(tok, "t=", 2)) {
            *t = strtoll(tok + 2, &end, 10);
            if (end == tok + 2 || *end) return fail(err, lineno, "bad time '%s'", tok);
        } else if (!strncmp(tok, "frame=", 6) && frame) {
            *frame = strtoull(tok + 6, &end, 10);
            if (end == tok + 6 || *end) return fail(err, lineno, "bad frame '%s'", tok);
        } else if (!strcmp(tok, "noboard") && noboard) {
            *noboard = true;
        } else if (!strcmp(tok, "stable") && it) {
            it->stable = true;
        } else if (!strncmp(tok, "frames=", 7) && it) {
            long n = strtol(tok + 7, &end, 10);
            if (end == tok + 7 || *end || n < 1 || n > 1000000)
                return fail(err, lineno, "bad frames '%s'", tok);
            it->frames = (int)n;
        } else {
            return fail(err, lineno, "unexpected '%s'", tok);
        }
    }
    return true;
}

/* A header value, cut to fit and without trailing blanks or carriage returns (which a line
 * end would swallow when the value is written back). */
static void copy_value(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src);
    size_t n = strlen(dst);
    while (n && (dst[n - 1] == ' ' || dst[n - 1] == '\t' || dst[n - 1] == '\r')) dst[--n] = '\0';
}

bool obs_text_header(const char **cursor, int *line, struct obs_stream_header *out,
                     struct obs_text_error *err)
{
    memset(out, 0, sizeof *out);
    out->sente_bottom = true;
    char buf[LINE_MAX_LEN];
    if (!next_content(cursor, line, buf)) return fail(err, *line, "empty stream");
    char game[16];
    int version, w, h;
    if (sscanf(buf, "kifucam-obs %d %15s %dx%d", &version, game, &w, &h) != 4 || version != 1)
        return fail(err, *line, "not a kifucam-obs 1 stream (first line: '%.60s')", buf);
    if (!strcmp(game, "go"))
        out->game = OBS_GAME_GO;
    else if (!strcmp(game, "shogi"))
        out->game = OBS_GAME_SHOGI;
    else
        return fail(err, *line, "unknown game '%s' (go or shogi)", game);
    if (w < GO_MIN || h < GO_MIN || w > OBS_MAX || h > OBS_MAX)
        return fail(err, *line, "bad size %dx%d", w, h);
    if (out->game == OBS_GAME_SHOGI && (w != 9 || h != 9))
        return fail(err, *line, "a shogi board is 9x9, not %dx%d", w, h);
    out->w = w;
    out->h = h;
    /* Header lines until the first item. */
    for (;;) {
        const char *save = *cursor;
        int save_line = *line;
        if (!next_content(cursor, line, buf)) return true;
        char word[16] = "";
        sscanf(buf, "%15s", word);
        const char *arg = buf + strlen(word);
        while (*arg == ' ' || *arg == '\t') arg++;
        if (!strcmp(word, "rules")) {
            copy_value(out->rules, sizeof out->rules, arg);
        } else if (!strcmp(word, "handicap")) {
            char how[16] = "fixed";
            if (sscanf(arg, "%d %15s", &out->handicap, how) < 1 || out->handicap < 0 ||
                out->handicap > 9 || (strcmp(how, "fixed") && strcmp(how, "free")))
                return fail(err, *line, "bad handicap '%s' (N fixed|free)", arg);
            out->handicap_free = !strcmp(how, "free");
        } else if (!strcmp(word, "setup")) {
            char tmp[LINE_MAX_LEN], *sp = NULL;
            snprintf(tmp, sizeof tmp, "%s", arg);
            char *tok = strtok_r(tmp, " \t", &sp);
            enum go_color c;
            if (!tok || !parse_color(tok, &c))
                return fail(err, *line, "setup needs B, W or E then points");
            for (tok = strtok_r(NULL, " \t", &sp); tok; tok = strtok_r(NULL, " \t", &sp)) {
                if (strlen(tok) != 2 || tok[0] < 'a' || tok[1] < 'a' || tok[0] - 'a' >= w ||
                    tok[1] - 'a' >= h)
                    return fail(err, *line, "bad point '%s'", tok);
                if (out->nsetup >= GO_POINTS) return fail(err, *line, "too many setup points");
                out->setup[out->nsetup++] =
                    (struct go_move){c, go_point(tok[0] - 'a', tok[1] - 'a')};
            }
        } else if (!strcmp(word, "to_move")) {
            if (!parse_color(arg, &out->to_move) || out->to_move == GO_EMPTY)
                return fail(err, *line, "to_move needs B or W");
        } else if (!strcmp(word, "start")) {
            copy_value(out->start_sfen, sizeof out->start_sfen, arg);
        } else if (!strcmp(word, "view")) {
            if (!strcmp(arg, "sente"))
                out->sente_bottom = true;
            else if (!strcmp(arg, "gote"))
                out->sente_bottom = false;
            else
                return fail(err, *line, "view needs sente or gote");
        } else {
            *cursor = save; /* the first item */
            *line = save_line;
            return true;
        }
    }
}

/* ---- board rows ----------------------------------------------------------------------------- */

static bool parse_go_row(const char *row, int y, const struct obs_stream_header *hdr,
                         struct observation *o, int lineno, struct obs_text_error *err)
{
    if ((int)strlen(row) != hdr->w)
        return fail(err, lineno, "row %d has %zu cells, expected %d", y + 1, strlen(row), hdr->w);
    for (int x = 0; x < hdr->w; x++) {
        int p = y * OBS_MAX + x;
        char ch = row[x];
        float conf = OBS_TEXT_CONF_SURE;
        uint8_t v = OBS_EMPTY;
        switch (ch) {
        case '.': break;
        case 'X': v = OBS_BLACK; break;
        case 'O': v = OBS_WHITE; break;
        case ',': conf = OBS_TEXT_CONF_DOUBT; break;
        case 'x': v = OBS_BLACK, conf = OBS_TEXT_CONF_DOUBT; break;
        case 'o': v = OBS_WHITE, conf = OBS_TEXT_CONF_DOUBT; break;
        case '?': conf = OBS_TEXT_CONF_NONE; break;
        case '~': conf = OBS_OUT_OF_VIEW_CONF; break;
        case '#':
            o->occluded[p] = true;
            o->noccluded++;
            conf = 0;
            break;
        default: return fail(err, lineno, "bad cell '%c' (. X O , x o ? ~ #)", ch);
        }
        o->point[p] = v;
        o->conf[p] = conf;
    }
    return true;
}

static int sfen_type(char c)
{
    switch (toupper((unsigned char)c)) {
    case 'P': return SHOGI_PAWN;
    case 'L': return SHOGI_LANCE;
    case 'N': return SHOGI_KNIGHT;
    case 'S': return SHOGI_SILVER;
    case 'G': return SHOGI_GOLD;
    case 'B': return SHOGI_BISHOP;
    case 'R': return SHOGI_ROOK;
    case 'K': return SHOGI_KING;
    default: return SHOGI_NO_TYPE;
    }
}

static bool parse_shogi_row(char *row, int y, struct observation *o, int lineno,
                            struct obs_text_error *err)
{
    char *sp = NULL;
    int x = 0;
    for (char *tok = strtok_r(row, " \t", &sp); tok; tok = strtok_r(NULL, " \t", &sp), x++) {
        if (x >= 9) return fail(err, lineno, "row %d has more than 9 cells", y + 1);
        int p = y * OBS_MAX + x;
        o->conf[p] = OBS_TEXT_CONF_SURE;
        o->point[p] = SHOGI_EMPTY;
        size_t n = strlen(tok);
        if (!strcmp(tok, "#")) {
            o->occluded[p] = true;
            o->noccluded++;
            o->conf[p] = 0;
            continue;
        }
        if (!strcmp(tok, "?")) {
            o->conf[p] = OBS_TEXT_CONF_NONE;
            continue;
        }
        if (!strcmp(tok, "~")) {
            o->conf[p] = OBS_OUT_OF_VIEW_CONF;
            continue;
        }
        if (n > 1 && tok[n - 1] == '?') {
            o->conf[p] = OBS_TEXT_CONF_DOUBT;
            tok[--n] = '\0';
        }
        if (!strcmp(tok, ".")) continue;
        bool promoted = tok[0] == '+';
        const char *letter = tok + promoted;
        int t = strlen(letter) == 1 ? sfen_type(letter[0]) : SHOGI_NO_TYPE;
        if (t == SHOGI_NO_TYPE || (promoted && !shogi_type_can_promote((enum shogi_type)t)))
            return fail(err, lineno, "bad cell '%s'", tok);
        if (promoted) t += SHOGI_PROMOTED;
        enum shogi_color c = isupper((unsigned char)letter[0]) ? SHOGI_SENTE : SHOGI_GOTE;
        o->point[p] = (uint8_t)shogi_piece(c, (enum shogi_type)t);
    }
    if (x != 9) return fail(err, lineno, "row %d has %d cells, expected 9", y + 1, x);
    return true;
}

/* "hand b P2 +P1 L1 conf=0.9" | "hand w -" | "hand b hidden" | "hand b covered": a '+' before
 * the letter counts the pieces of that type lying promoted side up (they count in count[] too). */
static bool parse_hand(char *rest, struct observation *o, int lineno, struct obs_text_error *err)
{
    char *sp = NULL;
    char *tok = strtok_r(rest, " \t", &sp);
    int side;
    if (tok && !strcmp(tok, "b"))
        side = SHOGI_SENTE;
    else if (tok && !strcmp(tok, "w"))
        side = SHOGI_GOTE;
    else
        return fail(err, lineno, "hand needs b or w");
    struct hand_obs *h = &o->hands[side];
    memset(h, 0, sizeof *h);
    h->visible = true;
    h->conf = OBS_TEXT_CONF_SURE;
    uint8_t plain[7] = {0}, face_up[7] = {0};
    for (tok = strtok_r(NULL, " \t", &sp); tok; tok = strtok_r(NULL, " \t", &sp)) {
        char *end;
        if (!strcmp(tok, "-")) continue;
        if (!strcmp(tok, "hidden") || !strcmp(tok, "covered")) {
            h->visible = false;
            h->covered = tok[0] == 'c';
            continue;
        }
        if (!strncmp(tok, "conf=", 5)) {
            h->conf = strtof(tok + 5, &end);
            if (end == tok + 5 || *end || h->conf < 0 || h->conf > 1)
                return fail(err, lineno, "bad conf '%s'", tok);
            continue;
        }
        bool promoted = tok[0] == '+';
        const char *piece = tok + promoted;
        int t = sfen_type(piece[0]);
        if (t == SHOGI_NO_TYPE || t == SHOGI_KING || !isupper((unsigned char)piece[0]) ||
            (promoted && !shogi_type_can_promote((enum shogi_type)t)))
            return fail(err, lineno, "bad hand piece '%s' ([+]P L N S B R, G + count)", tok);
        long n = piece[1] ? strtol(piece + 1, &end, 10) : 1;
        if (piece[1] && (*end || n < 0 || n > 18)) return fail(err, lineno, "bad count '%s'", tok);
        if (promoted)
            face_up[t - 1] = (uint8_t)n;
        else
            plain[t - 1] = (uint8_t)n;
    }
    for (int i = 0; i < 7; i++) {
        h->count[i] = (uint8_t)(plain[i] + face_up[i]);
        h->promoted[i] = face_up[i];
    }
    return true;
}

static bool parse_signal(char *rest, int lineno, struct obs_item *it, struct obs_text_error *err)
{
    char name[16] = "", color[8] = "";
    int used = 0;
    if (sscanf(rest, "%15s %7s %n", name, color, &used) < 2)
        return fail(err, lineno, "signal needs a name and a colour");
    if (!strcmp(name, "pass"))
        it->signal = GO_SIGNAL_PASS_STONE;
    else if (!strcmp(name, "end"))
        it->signal = GO_SIGNAL_END_CONFIRMED;
    else if (!strcmp(name, "resign"))
        it->signal = GO_SIGNAL_RESIGN_TWO_STONES;
    else
        return fail(err, lineno, "unknown signal '%s' (pass, end, resign)", name);
    if (!parse_color(color, &it->color) || it->color == GO_EMPTY)
        return fail(err, lineno, "signal colour must be B or W");
    return parse_time_frame(rest + used, lineno, &it->t_ns, NULL, NULL, NULL, err);
}

static bool parse_referee(char *rest, int lineno, struct obs_item *it, struct obs_text_error *err)
{
    char name[16] = "";
    int used = 0;
    if (sscanf(rest, "%15s %n", name, &used) < 1)
        return fail(err, lineno, "referee needs a command");
    rest += used;
    bool needs_color = false;
    if (!strcmp(name, "pass"))
        it->referee = OBS_REF_PASS, needs_color = true;
    else if (!strcmp(name, "accept"))
        it->referee = OBS_REF_ACCEPT;
    else if (!strcmp(name, "takeback"))
        it->referee = OBS_REF_TAKEBACK;
    else if (!strcmp(name, "resign"))
        it->referee = OBS_REF_RESIGN, needs_color = true;
    else if (!strcmp(name, "count"))
        it->referee = OBS_REF_COUNT;
    else
        return fail(err, lineno, "unknown referee command '%s'", name);
    if (needs_color) {
        char color[8] = "";
        if (sscanf(rest, "%7s %n", color, &used) < 1 || !parse_color(color, &it->color) ||
            it->color == GO_EMPTY)
            return fail(err, lineno, "referee %s needs B or W", name);
        rest += used;
    }
    return parse_time_frame(rest, lineno, &it->t_ns, NULL, NULL, NULL, err);
}

/* "conf Y v..." (exact confidences) or "since Y d..." (ns before t each point has read what it
 * says; a settled view only): w values for row Y, 1 the top row. */
static bool parse_row_values(char *buf, const struct obs_stream_header *hdr, struct obs_item *it,
                             int lineno, struct obs_text_error *err)
{
    bool conf = buf[0] == 'c';
    if (!conf && !it->stable) return fail(err, lineno, "since in an observation not stable");
    char *sp = NULL, *end;
    strtok_r(buf, " \t", &sp);
    char *tok = strtok_r(NULL, " \t", &sp);
    long y = tok ? strtol(tok, &end, 10) : 0;
    if (!tok || *end || y < 1 || y > hdr->h) return fail(err, lineno, "bad row number");
    int x = 0;
    for (tok = strtok_r(NULL, " \t", &sp); tok; tok = strtok_r(NULL, " \t", &sp), x++) {
        if (x >= hdr->w) return fail(err, lineno, "more than %d values", hdr->w);
        int p = (int)(y - 1) * OBS_MAX + x;
        if (conf) {
            float c = strtof(tok, &end);
            if (end == tok || *end || !(c >= 0 && c <= 1))
                return fail(err, lineno, "bad confidence '%s'", tok);
            it->obs.conf[p] = c;
        } else {
            long long d = strtoll(tok, &end, 10);
            if (end == tok || *end || d < 0 || d > INT64_C(1) << 50)
                return fail(err, lineno, "bad time before t '%s'", tok);
            it->read_since_ns[p] = it->obs.t_ns - d;
        }
    }
    if (x != hdr->w) return fail(err, lineno, "%d values, expected %d", x, hdr->w);
    return true;
}

void obs_item_stable(const struct obs_item *it, struct stable_obs *out)
{
    memset(out, 0, sizeof *out);
    out->obs = it->obs;
    out->frames = it->stable ? it->frames : 1;
    out->since_ns = it->obs.t_ns;
    memcpy(out->read_since_ns, it->read_since_ns, sizeof out->read_since_ns);
}

int obs_text_next(const char **cursor, int *line, const struct obs_stream_header *hdr,
                  struct obs_item *out, struct obs_text_error *err)
{
    char buf[LINE_MAX_LEN];
    memset(out, 0, sizeof *out);
    if (!next_content(cursor, line, buf)) return 0;
    char word[16] = "";
    sscanf(buf, "%15s", word);
    char *rest = buf + strlen(word);
    if (!strcmp(word, "signal")) {
        out->kind = OBS_ITEM_SIGNAL;
        return parse_signal(rest, *line, out, err) ? 1 : -1;
    }
    if (!strcmp(word, "referee")) {
        out->kind = OBS_ITEM_REFEREE;
        return parse_referee(rest, *line, out, err) ? 1 : -1;
    }
    if (strcmp(word, "obs")) return fail(err, *line, "expected obs, signal or referee"), -1;
    out->kind = OBS_ITEM_OBS;
    struct observation *o = &out->obs;
    bool noboard = false;
    if (!parse_time_frame(rest, *line, &o->t_ns, &o->frame_seq, &noboard, out, err)) return -1;
    if (out->frames && !out->stable) return fail(err, *line, "frames= without stable"), -1;
    if (out->stable && !out->frames) out->frames = 1;
    for (int p = 0; p < OBS_POINTS; p++) out->read_since_ns[p] = o->t_ns;
    o->w = hdr->w;
    o->h = hdr->h;
    o->board_found = !noboard;
    int rows = 0;
    int start = *line;
    for (;;) {
        /* inside a block '#' is an occluded cell, not a comment */
        bool got;
        while ((got = next_line(cursor, line, buf)) && buf[strspn(buf, " \t")] == '\0') continue;
        if (!got) return fail(err, *line, "observation from line %d has no 'end'", start), -1;
        if (!strcmp(buf, "end")) break;
        if (!strncmp(buf, "conf ", 5) || !strncmp(buf, "since ", 6)) {
            if (noboard || rows != hdr->h)
                return fail(err, *line, "%.5s before the board's rows", buf), -1;
            if (!parse_row_values(buf, hdr, out, *line, err)) return -1;
            continue;
        }
        if (!strncmp(buf, "hand ", 5)) {
            if (hdr->game != OBS_GAME_SHOGI) return fail(err, *line, "hand in a Go stream"), -1;
            if (!parse_hand(buf + 5, o, *line, err)) return -1;
            continue;
        }
        if (noboard) return fail(err, *line, "rows after noboard"), -1;
        if (rows >= hdr->h) return fail(err, *line, "more than %d rows", hdr->h), -1;
        bool ok = hdr->game == OBS_GAME_GO ? parse_go_row(buf, rows, hdr, o, *line, err)
                                           : parse_shogi_row(buf, rows, o, *line, err);
        if (!ok) return -1;
        rows++;
    }
    if (!noboard && rows != hdr->h)
        return fail(err, *line, "observation has %d rows, expected %d", rows, hdr->h), -1;
    return 1;
}

/* ---- formatting ----------------------------------------------------------------------------- */

struct out {
    char *buf;
    size_t len, used;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->used < o->len ? o->len - o->used : 0;
    int n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0) o->used += (size_t)n;
}

static const char *color_letter(enum go_color c)
{
    return c == GO_BLACK ? "B" : c == GO_WHITE ? "W" : "E";
}

size_t obs_text_format_header(const struct obs_stream_header *hdr, char *buf, size_t len)
{
    struct out o = {buf, len, 0};
    if (len) buf[0] = '\0';
    put(&o, "kifucam-obs 1 %s %dx%d\n", hdr->game == OBS_GAME_GO ? "go" : "shogi", hdr->w, hdr->h);
    if (hdr->rules[0]) put(&o, "rules %s\n", hdr->rules);
    if (hdr->handicap)
        put(&o, "handicap %d %s\n", hdr->handicap, hdr->handicap_free ? "free" : "fixed");
    for (int c = GO_EMPTY; c <= GO_WHITE; c++) {
        int k = 0;
        for (int i = 0; i < hdr->nsetup; i++) {
            if (hdr->setup[i].color != (enum go_color)c) continue;
            char pt[3];
            obs_text_sgf_point(hdr->setup[i].point, pt);
            if (k % 20 == 0) put(&o, "%ssetup %s", k ? "\n" : "", color_letter((enum go_color)c));
            put(&o, " %s", pt);
            k++;
        }
        if (k) put(&o, "\n");
    }
    if (hdr->to_move != GO_EMPTY) put(&o, "to_move %s\n", color_letter(hdr->to_move));
    if (hdr->start_sfen[0]) put(&o, "start %s\n", hdr->start_sfen);
    if (hdr->game == OBS_GAME_SHOGI && !hdr->sente_bottom) put(&o, "view gote\n");
    return o.used;
}

/* The confidence a cell's written class reads back as (go_cell, shogi_cell, the row parsers). */
static float class_conf(float conf, bool occluded)
{
    if (occluded) return 0;
    if (conf == OBS_OUT_OF_VIEW_CONF) return OBS_OUT_OF_VIEW_CONF;
    if (conf < 0.5f) return OBS_TEXT_CONF_NONE;
    return conf >= 0.9f ? OBS_TEXT_CONF_SURE : OBS_TEXT_CONF_DOUBT;
}

/* A confidence as short as it can be written and still read back as the same float. */
static void put_conf(struct out *o, float c)
{
    char b[32];
    for (int digits = 2; digits <= 3; digits++) {
        snprintf(b, sizeof b, "%.*f", digits, (double)c);
        if (strtof(b, NULL) == c) {
            put(o, "%s", b);
            return;
        }
    }
    put(o, "%.9g", (double)c);
}

/* The rows whose confidences the classes do not carry, exactly; for a settled view, since when
 * each point has read what it says. */
static void put_row_values(struct out *o, const struct obs_stream_header *hdr,
                           const struct obs_item *it)
{
    const struct observation *ob = &it->obs;
    for (int y = 0; y < hdr->h; y++) {
        bool exact = true;
        for (int x = 0; x < hdr->w && exact; x++) {
            int p = y * OBS_MAX + x;
            exact = class_conf(ob->conf[p], ob->occluded[p]) == ob->conf[p];
        }
        if (exact) continue;
        put(o, "conf %d", y + 1);
        for (int x = 0; x < hdr->w; x++) {
            put(o, " ");
            put_conf(o, ob->conf[y * OBS_MAX + x]);
        }
        put(o, "\n");
    }
    if (!it->stable) return;
    for (int y = 0; y < hdr->h; y++) {
        bool now = true;
        for (int x = 0; x < hdr->w && now; x++)
            now = it->read_since_ns[y * OBS_MAX + x] == ob->t_ns;
        if (now) continue;
        put(o, "since %d", y + 1);
        for (int x = 0; x < hdr->w; x++) {
            int64_t d = ob->t_ns - it->read_since_ns[y * OBS_MAX + x];
            put(o, " %" PRId64, d > 0 ? d : 0);
        }
        put(o, "\n");
    }
}

static char go_cell(uint8_t v, float conf, bool occluded)
{
    if (occluded) return '#';
    if (conf == OBS_OUT_OF_VIEW_CONF) return '~';
    if (conf < 0.5f) return '?';
    bool sure = conf >= 0.9f;
    if (v == OBS_BLACK) return sure ? 'X' : 'x';
    if (v == OBS_WHITE) return sure ? 'O' : 'o';
    return sure ? '.' : ',';
}

static void shogi_cell(struct out *o, uint8_t piece, float conf, bool occluded)
{
    if (occluded) {
        put(o, "#");
        return;
    }
    if (conf == OBS_OUT_OF_VIEW_CONF) {
        put(o, "~");
        return;
    }
    if (conf < 0.5f) {
        put(o, "?");
        return;
    }
    const char *doubt = conf >= 0.9f ? "" : "?";
    enum shogi_type t = shogi_piece_type(piece);
    if (piece == SHOGI_EMPTY || t == SHOGI_NO_TYPE || t >= SHOGI_TYPES) {
        put(o, ".%s", doubt);
        return;
    }
    char c = shogi_type_sfen(shogi_type_base(t));
    if (shogi_piece_color(piece) == SHOGI_GOTE) c = (char)tolower((unsigned char)c);
    put(o, "%s%c%s", shogi_type_is_promoted(t) ? "+" : "", c, doubt);
}

size_t obs_text_format_item(const struct obs_stream_header *hdr, const struct obs_item *it,
                            char *buf, size_t len)
{
    struct out o = {buf, len, 0};
    if (len) buf[0] = '\0';
    static const char *const signal_names[] = {"pass", "end", "resign"};
    static const char *const referee_names[] = {"pass", "accept", "takeback", "resign", "count"};
    if (it->kind == OBS_ITEM_SIGNAL) {
        put(&o, "signal %s %s t=%" PRId64 "\n",
            it->signal >= 0 && it->signal < 3 ? signal_names[it->signal] : "?",
            color_letter(it->color), it->t_ns);
        return o.used;
    }
    if (it->kind == OBS_ITEM_REFEREE) {
        bool with_color = it->referee == OBS_REF_PASS || it->referee == OBS_REF_RESIGN;
        put(&o, "referee %s%s%s t=%" PRId64 "\n", referee_names[it->referee], with_color ? " " : "",
            with_color ? color_letter(it->color) : "", it->t_ns);
        return o.used;
    }
    const struct observation *ob = &it->obs;
    put(&o, "obs t=%" PRId64 " frame=%" PRIu64 "%s", ob->t_ns, ob->frame_seq,
        ob->board_found ? "" : " noboard");
    if (it->stable) put(&o, " stable frames=%d", it->frames > 0 ? it->frames : 1);
    put(&o, "\n");
    if (ob->board_found) {
        for (int y = 0; y < hdr->h; y++) {
            for (int x = 0; x < hdr->w; x++) {
                int p = y * OBS_MAX + x;
                if (hdr->game == OBS_GAME_GO) {
                    put(&o, "%c", go_cell(ob->point[p], ob->conf[p], ob->occluded[p]));
                } else {
                    if (x) put(&o, " ");
                    shogi_cell(&o, ob->point[p], ob->conf[p], ob->occluded[p]);
                }
            }
            put(&o, "\n");
        }
        put_row_values(&o, hdr, it);
    }
    if (hdr->game == OBS_GAME_SHOGI) {
        for (int side = 0; side < 2; side++) {
            const struct hand_obs *h = &ob->hands[side];
            put(&o, "hand %c", side == SHOGI_SENTE ? 'b' : 'w');
            if (!h->visible) {
                put(&o, h->covered ? " covered\n" : " hidden\n");
                continue;
            }
            int any = 0;
            for (int t = SHOGI_PAWN; t <= SHOGI_GOLD; t++) {
                int n = h->count[t - 1];
                int up = shogi_type_can_promote((enum shogi_type)t) ? h->promoted[t - 1] : 0;
                if (up > n) up = n; /* promoted[] counts among count[] */
                char letter = shogi_type_sfen((enum shogi_type)t);
                if (n - up) put(&o, " %c%d", letter, n - up);
                if (up) put(&o, " +%c%d", letter, up);
                any += n > 0;
            }
            if (!any) put(&o, " -");
            if (h->conf != OBS_TEXT_CONF_SURE) {
                put(&o, " conf=");
                put_conf(&o, h->conf);
            }
            put(&o, "\n");
        }
    }
    put(&o, "end\n");
    return o.used;
}

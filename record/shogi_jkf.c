/* record/shogi_jkf.c — JKF (JSON Kifu Format 1.0, Kifu for JS / ShogiHome): reading and writing.
 *
 * {"header": {KIF keys}, "initial": {"preset": "HIRATE" | "KY" … | "OTHER", "data": {"color",
 * "board"[x-1][y-1] {color, kind}, "hands"[2] {"FU": n …}}}, "moves": [{comments}, {move: {color,
 * from{x,y}, to{x,y}, piece, same, promote, capture}, time: {now{m,s}, total{h,m,s}}, comments,
 * special, forks}]}. moves[0] holds only the comments before the first move; forks are skipped. */
#include "record/shogi_record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int jint(const struct shogi_json *o, const char *key, int def)
{
    const struct shogi_json *v = shogi_json_get(o, key);
    if (!v || v->type != SHOGI_JSON_NUMBER || !isfinite(v->number) || fabs(v->number) > 1e9)
        return def;
    return (int)v->number;
}

static const char *jstr(const struct shogi_json *o, const char *key)
{
    const struct shogi_json *v = shogi_json_get(o, key);
    return v && v->type == SHOGI_JSON_STRING ? v->string : NULL;
}

static bool jbool(const struct shogi_json *o, const char *key)
{
    const struct shogi_json *v = shogi_json_get(o, key);
    return v && v->type == SHOGI_JSON_BOOL && v->boolean;
}

static void add_comments(char **dst, const struct shogi_json *c)
{
    if (!c || c->type != SHOGI_JSON_ARRAY) return;
    for (int i = 0; i < c->n; i++)
        if (c->items[i].type == SHOGI_JSON_STRING) shogi_comment_add(dst, c->items[i].string);
}

static bool jkf_square(const struct shogi_json *o, int *sq)
{
    if (!o || o->type != SHOGI_JSON_OBJECT) return false;
    int x = jint(o, "x", 0), y = jint(o, "y", 0);
    if (x < 1 || x > 9 || y < 1 || y > 9) return false;
    *sq = shogi_sq(x, y);
    return true;
}

static bool jkf_initial(struct shogi_parser *rd, const struct shogi_json *init)
{
    const char *preset = jstr(init, "preset");
    if (!preset || strcmp(preset, "HIRATE") == 0) return true;
    if (strcmp(preset, "OTHER") != 0) {
        const struct shogi_handicap_info *h = shogi_handicap_find(preset);
        if (!h) return shogi_parser_fail(rd, 0, "unknown initial.preset \"%s\"", preset);
        shogi_parser_set_start(rd, (int)h->id, NULL);
        return true;
    }
    const struct shogi_json *data = shogi_json_get(init, "data");
    const struct shogi_json *board = shogi_json_get(data, "board");
    if (!board || board->type != SHOGI_JSON_ARRAY || board->n != 9)
        return shogi_parser_fail(rd, 0, "initial.data.board is not 9 files");
    struct shogi_position pos;
    shogi_position_clear(&pos);
    for (int x = 0; x < 9; x++) {
        const struct shogi_json *col = &board->items[x];
        if (col->type != SHOGI_JSON_ARRAY || col->n != 9)
            return shogi_parser_fail(rd, 0, "initial.data.board[%d] is not 9 ranks", x);
        for (int y = 0; y < 9; y++) {
            const struct shogi_json *cell = &col->items[y];
            const char *kind = jstr(cell, "kind");
            if (!kind) continue;
            enum shogi_type t = shogi_type_from_csa(kind);
            if (t == SHOGI_NO_TYPE)
                return shogi_parser_fail(rd, 0, "unknown piece kind \"%s\"", kind);
            int color = jint(cell, "color", 0) ? SHOGI_GOTE : SHOGI_SENTE;
            pos.board[shogi_sq(x + 1, y + 1)] = (uint8_t)shogi_piece((enum shogi_color)color, t);
        }
    }
    const struct shogi_json *hands = shogi_json_get(data, "hands");
    for (int c = 0; hands && hands->type == SHOGI_JSON_ARRAY && c < 2 && c < hands->n; c++) {
        const struct shogi_json *h = &hands->items[c];
        if (h->type != SHOGI_JSON_OBJECT) continue;
        for (int i = 0; i < h->n; i++) {
            enum shogi_type t = shogi_type_from_csa(h->keys[i]);
            int k = h->items[i].type == SHOGI_JSON_NUMBER && h->items[i].number >= 0 &&
                            h->items[i].number <= 38
                        ? (int)h->items[i].number
                        : -1;
            if (t < SHOGI_PAWN || t > SHOGI_GOLD || k < 0)
                return shogi_parser_fail(rd, 0, "bad hand entry \"%s\"", h->keys[i]);
            pos.hand[c][t] = (uint8_t)k;
        }
    }
    pos.side = jint(data, "color", 0) ? SHOGI_GOTE : SHOGI_SENTE;
    shogi_position_refresh(&pos);
    shogi_parser_set_start(rd, -1, &pos);
    return true;
}

static const struct {
    const char *w;
    enum shogi_record_end e;
} jkf_specials[] = {
    {"TORYO", SHOGI_REC_END_RESIGN},
    {"CHUDAN", SHOGI_REC_END_INTERRUPT},
    {"SENNICHITE", SHOGI_REC_END_SENNICHITE},
    {"TIME_UP", SHOGI_REC_END_TIME_UP},
    {"ILLEGAL_MOVE", SHOGI_REC_END_ILLEGAL_LOSS},
    {"JISHOGI", SHOGI_REC_END_JISHOGI},
    {"KACHI", SHOGI_REC_END_DECLARE_WIN},
    {"HIKIWAKE", SHOGI_REC_END_DRAW},
    {"MAX_MOVES", SHOGI_REC_END_MAX_MOVES},
    {"TSUMI", SHOGI_REC_END_MATE},
    {"FUZUMI", SHOGI_REC_END_NO_MATE},
    {"MATTA", SHOGI_REC_END_TAKEBACK},
    {"ERROR", SHOGI_REC_END_ERROR},
};

static int64_t jkf_time(const struct shogi_json *t, const char *key, bool hours)
{
    const struct shogi_json *o = shogi_json_get(t, key);
    if (!o || o->type != SHOGI_JSON_OBJECT) return -1;
    int64_t s = (int64_t)(hours ? jint(o, "h", 0) : 0) * 3600 + (int64_t)jint(o, "m", 0) * 60 +
                jint(o, "s", 0);
    return s < 0 || s > 1000000000000LL ? -1 : s * 1000; /* what CSA's T can carry back */
}

static bool jkf_move(struct shogi_parser *rd, const struct shogi_json *mo, int index)
{
    const struct shogi_position *pos = &rd->game.pos;
    int to;
    if (jbool(mo, "same") && !shogi_json_get(mo, "to") && rd->last_to >= 0)
        to = rd->last_to;
    else if (!jkf_square(shogi_json_get(mo, "to"), &to))
        return shogi_parser_fail(rd, 0, "moves[%d].move.to is not a square", index);
    const char *code = jstr(mo, "piece");
    enum shogi_type t = code ? shogi_type_from_csa(code) : SHOGI_NO_TYPE;
    if (t == SHOGI_NO_TYPE)
        return shogi_parser_fail(rd, 0, "moves[%d].move.piece is missing", index);
    int color =
        shogi_json_get(mo, "color") ? (jint(mo, "color", 0) ? SHOGI_GOTE : SHOGI_SENTE) : pos->side;
    struct shogi_move m = {0};
    m.to = (uint8_t)to;
    m.promote = jbool(mo, "promote");
    const struct shogi_json *from = shogi_json_get(mo, "from");
    int fsq;
    if (from && from->type == SHOGI_JSON_OBJECT) {
        if (!jkf_square(from, &fsq))
            return shogi_parser_fail(rd, 0, "moves[%d].move.from is not a square", index);
        m.from = (uint8_t)fsq;
        int on = pos->board[fsq];
        if (on && shogi_piece_type(on) == t && (int)shogi_piece_color(on) == color)
            m.piece = (uint8_t)on;
        else
            m.piece = (uint8_t)shogi_piece((enum shogi_color)color, t);
        m.captured = pos->board[to];
    } else {
        m.from = SHOGI_HAND;
        m.piece = (uint8_t)shogi_piece((enum shogi_color)color, t);
    }
    return shogi_parser_play(rd, m, 0) != NULL || shogi_parser_fail(rd, 0, "out of memory");
}

struct shogi_record *shogi_jkf_read(const char *data, size_t len, const char *name,
                                    struct shogi_record_error *err)
{
    struct shogi_parser rd;
    if (!shogi_parser_init(&rd, name, err, SHOGI_FORMAT_JKF)) return NULL;
    char msg[160];
    const char *charset;
    char *text = shogi_text_to_utf8(data, len, &charset);
    struct shogi_json *root = text ? shogi_json_parse(text, strlen(text), msg, sizeof msg) : NULL;
    free(text);
    bool ok = root != NULL;
    if (!ok) {
        /* The JSON reader's message starts with "line N: ". */
        int line = 0;
        sscanf(msg, "line %d", &line);
        const char *colon = strchr(msg, ':');
        shogi_parser_fail(&rd, line, "%s", colon ? colon + 2 : "not JSON");
    } else if (root->type != SHOGI_JSON_OBJECT) {
        ok = shogi_parser_fail(&rd, 1, "JKF must be a JSON object");
    }
    const struct shogi_json *header = ok ? shogi_json_get(root, "header") : NULL;
    for (int i = 0; header && header->type == SHOGI_JSON_OBJECT && i < header->n; i++) {
        if (header->items[i].type != SHOGI_JSON_STRING) continue;
        if (strcmp(header->keys[i], "手合割") == 0) continue; /* initial.preset says it */
        shogi_record_set(rd.rec, header->keys[i], header->items[i].string);
    }
    const struct shogi_json *init = ok ? shogi_json_get(root, "initial") : NULL;
    if (ok && init && init->type == SHOGI_JSON_OBJECT) ok = jkf_initial(&rd, init);
    const struct shogi_json *moves = ok ? shogi_json_get(root, "moves") : NULL;
    if (ok && (!moves || moves->type != SHOGI_JSON_ARRAY))
        ok = shogi_parser_fail(&rd, 0, "no \"moves\" array");
    bool ended = false;
    for (int i = 0; ok && i < moves->n; i++) {
        const struct shogi_json *e = &moves->items[i];
        if (e->type != SHOGI_JSON_OBJECT) {
            ok = shogi_parser_fail(&rd, 0, "moves[%d] is not an object", i);
            break;
        }
        if (ended) continue;
        const struct shogi_json *mo = shogi_json_get(e, "move");
        const char *special = jstr(e, "special");
        struct shogi_record *r = rd.rec;
        const struct shogi_json *time = shogi_json_get(e, "time");
        if (mo && mo->type == SHOGI_JSON_OBJECT) {
            ok = jkf_move(&rd, mo, i);
            if (!ok) break;
            struct shogi_record_move *rm = &r->moves[r->nmoves - 1];
            rm->time_ms = jkf_time(time, "now", false);
            rm->total_ms = jkf_time(time, "total", true);
            add_comments(&rm->comment, shogi_json_get(e, "comments"));
        } else if (special) {
            enum shogi_record_end k = SHOGI_REC_END_NONE;
            if (strcmp(special, "+ILLEGAL_ACTION") == 0 ||
                strcmp(special, "-ILLEGAL_ACTION") == 0) {
                int fouler = special[0] == '+' ? SHOGI_SENTE : SHOGI_GOTE;
                k = fouler == rd.game.pos.side ? SHOGI_REC_END_ILLEGAL_LOSS
                                               : SHOGI_REC_END_ILLEGAL_WIN;
            }
            for (size_t j = 0; j < sizeof jkf_specials / sizeof jkf_specials[0]; j++)
                if (strcmp(special, jkf_specials[j].w) == 0) k = jkf_specials[j].e;
            if (k == SHOGI_REC_END_NONE)
                shogi_parser_note(&rd, 0, r->nmoves, "unknown special \"%.40s\"", special);
            r->end.kind = k;
            r->end.time_ms = jkf_time(time, "now", false);
            r->end.total_ms = jkf_time(time, "total", true);
            add_comments(&r->end.comment, shogi_json_get(e, "comments"));
            ended = true;
        } else if (i == 0 || r->nmoves == 0) {
            add_comments(&r->head_comment, shogi_json_get(e, "comments"));
        } else {
            add_comments(&r->moves[r->nmoves - 1].comment, shogi_json_get(e, "comments"));
        }
        if (shogi_json_get(e, "forks")) r->branches_skipped++;
    }
    shogi_json_free(root);
    if (!ok) {
        shogi_parser_abort(&rd);
        return NULL;
    }
    rd.rec->charset = charset;
    return shogi_parser_finish(&rd);
}

/* ---- writing --------------------------------------------------------------------------------- */

static void put_comments(struct shogi_buf *b, const char *text)
{
    shogi_buf_puts(b, "\"comments\": [");
    const char *p = text;
    bool first = true;
    while (p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, n);
        if (!first) shogi_buf_puts(b, ", ");
        shogi_json_put_string(b, line ? line : "");
        free(line);
        first = false;
        p = nl ? nl + 1 : NULL;
    }
    shogi_buf_puts(b, "]");
}

static void put_time(struct shogi_buf *b, int64_t now, int64_t total)
{
    if (now < 0 && total < 0) return;
    int64_t s = now < 0 ? 0 : now / 1000, t = total < 0 ? 0 : total / 1000;
    shogi_buf_printf(b,
                     ", \"time\": {\"now\": {\"m\": %lld, \"s\": %lld}, \"total\": {\"h\": %lld, "
                     "\"m\": %lld, \"s\": %lld}}",
                     (long long)(s / 60), (long long)(s % 60), (long long)(t / 3600),
                     (long long)(t / 60 % 60), (long long)(t % 60));
}

static void put_initial(struct shogi_buf *b, const struct shogi_record *r)
{
    int hc = shogi_handicap_of(&r->start);
    if (hc >= 0) {
        shogi_buf_printf(b, "  \"initial\": {\"preset\": \"%s\"},\n",
                         shogi_handicap_info((enum shogi_handicap)hc)->jkf);
        return;
    }
    const struct shogi_position *pos = &r->start;
    shogi_buf_printf(
        b, "  \"initial\": {\"preset\": \"OTHER\", \"data\": {\"color\": %d, \"board\": [",
        pos->side);
    for (int x = 1; x <= 9; x++) {
        shogi_buf_puts(b, x > 1 ? ", [" : "[");
        for (int y = 1; y <= 9; y++) {
            int pc = pos->board[shogi_sq(x, y)];
            if (y > 1) shogi_buf_puts(b, ", ");
            if (!pc)
                shogi_buf_puts(b, "{}");
            else
                shogi_buf_printf(b, "{\"color\": %d, \"kind\": \"%s\"}", shogi_piece_color(pc),
                                 shogi_type_csa(shogi_piece_type(pc)));
        }
        shogi_buf_puts(b, "]");
    }
    shogi_buf_puts(b, "], \"hands\": [");
    static const char *const codes[] = {"FU", "KY", "KE", "GI", "KI", "KA", "HI"};
    static const int types[] = {SHOGI_PAWN, SHOGI_LANCE,  SHOGI_KNIGHT, SHOGI_SILVER,
                                SHOGI_GOLD, SHOGI_BISHOP, SHOGI_ROOK};
    for (int c = 0; c < 2; c++) {
        shogi_buf_puts(b, c ? ", {" : "{");
        for (int i = 0; i < 7; i++)
            shogi_buf_printf(b, "%s\"%s\": %d", i ? ", " : "", codes[i], pos->hand[c][types[i]]);
        shogi_buf_puts(b, "}");
    }
    shogi_buf_puts(b, "]}},\n");
}

char *shogi_jkf_write(const struct shogi_record *r)
{
    struct shogi_buf b = {0};
    shogi_buf_puts(&b, "{\n  \"header\": {");
    static const char *const keys[] = {"開始日時",   "終了日時",   "棋戦",     "表題",
                                       "場所",       "戦型",       "持ち時間", "秒読み",
                                       "先手省略名", "後手省略名", "備考"};
    bool first = true;
    int hc = shogi_handicap_of(&r->start);
    const char *black_key = hc > 0 ? "下手" : "先手", *white_key = hc > 0 ? "上手" : "後手";
    for (size_t i = 0; i < sizeof keys / sizeof keys[0] + 2; i++) {
        const char *k = i < 2 ? (i == 0 ? black_key : white_key) : keys[i - 2];
        const char *v = i == 0 ? r->black : i == 1 ? r->white : shogi_record_get(r, k);
        if (!v) continue;
        shogi_buf_puts(&b, first ? "\n    " : ",\n    ");
        shogi_json_put_string(&b, k);
        shogi_buf_puts(&b, ": ");
        shogi_json_put_string(&b, v);
        first = false;
    }
    for (int i = 0; i < r->ntags; i++) {
        shogi_buf_puts(&b, first ? "\n    " : ",\n    ");
        shogi_json_put_string(&b, r->tags[i].key);
        shogi_buf_puts(&b, ": ");
        shogi_json_put_string(&b, r->tags[i].value);
        first = false;
    }
    shogi_buf_puts(&b, first ? "},\n" : "\n  },\n");
    put_initial(&b, r);
    shogi_buf_puts(&b, "  \"moves\": [\n    {");
    if (r->head_comment) put_comments(&b, r->head_comment);
    shogi_buf_puts(&b, "}");
    struct shogi_game g;
    shogi_game_init(&g, &r->start, &shogi_rules_jsa);
    int last_to = -1;
    for (int i = 0; i < r->nmoves; i++) {
        const struct shogi_record_move *rm = &r->moves[i];
        struct shogi_move m = rm->move;
        int color = shogi_piece_color(m.piece);
        enum shogi_type t = shogi_piece_type(m.piece);
        shogi_buf_printf(&b, ",\n    {\"move\": {\"color\": %d, ", color);
        if (m.from != SHOGI_HAND)
            shogi_buf_printf(&b, "\"from\": {\"x\": %d, \"y\": %d}, ", shogi_sq_file(m.from),
                             shogi_sq_rank(m.from));
        shogi_buf_printf(&b, "\"to\": {\"x\": %d, \"y\": %d}, \"piece\": \"%s\"",
                         shogi_sq_file(m.to), shogi_sq_rank(m.to),
                         shogi_type_csa(t) ? shogi_type_csa(t) : "FU");
        if (m.to == last_to) shogi_buf_puts(&b, ", \"same\": true");
        if (m.from != SHOGI_HAND && shogi_type_can_promote(t) &&
            (m.promote || shogi_in_zone((enum shogi_color)color, m.from) ||
             shogi_in_zone((enum shogi_color)color, m.to)))
            shogi_buf_printf(&b, ", \"promote\": %s", m.promote ? "true" : "false");
        if (m.captured)
            shogi_buf_printf(&b, ", \"capture\": \"%s\"",
                             shogi_type_csa(shogi_piece_type(m.captured)));
        shogi_buf_puts(&b, "}");
        put_time(&b, rm->time_ms, rm->total_ms);
        if (rm->comment) {
            shogi_buf_puts(&b, ", ");
            put_comments(&b, rm->comment);
        }
        shogi_buf_puts(&b, "}");
        last_to = m.to;
        if (rm->played) shogi_game_play(&g, m);
    }
    if (r->end.kind != SHOGI_REC_END_NONE || r->end.comment) {
        const char *w = shogi_record_end_jkf(r->end.kind);
        if (r->end.kind == SHOGI_REC_END_ILLEGAL_WIN)
            w = g.pos.side == SHOGI_SENTE ? "-ILLEGAL_ACTION" : "+ILLEGAL_ACTION";
        shogi_buf_puts(&b, ",\n    {");
        if (w)
            shogi_buf_printf(&b, "\"special\": \"%s\"", w);
        else
            shogi_buf_printf(&b, "\"special\": \"%s\"", r->end.kind ? "CHUDAN" : "");
        put_time(&b, r->end.time_ms, r->end.total_ms);
        if (r->end.comment) {
            shogi_buf_puts(&b, ", ");
            put_comments(&b, r->end.comment);
        }
        shogi_buf_puts(&b, "}");
    }
    shogi_buf_puts(&b, "\n  ]\n}\n");
    shogi_game_free(&g);
    return shogi_buf_take(&b);
}

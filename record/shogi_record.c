/* record/shogi_record.c — the format-neutral shogi record: building, freeing, headers, replaying
 * moves through board/shogi.h, and reading a file of any format. */
#include "record/shogi_record.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *shogi_format_name(enum shogi_format f)
{
    switch (f) {
    case SHOGI_FORMAT_KIF: return "KIF";
    case SHOGI_FORMAT_KI2: return "KI2";
    case SHOGI_FORMAT_CSA: return "CSA";
    case SHOGI_FORMAT_USI: return "USI";
    case SHOGI_FORMAT_JKF: return "JKF";
    default: return "unknown";
    }
}

/* ---- building and freeing ------------------------------------------------------------------ */

struct shogi_record *shogi_record_new(int handicap, const struct shogi_position *start)
{
    struct shogi_record *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->end.time_ms = r->end.total_ms = -1;
    r->charset = "UTF-8";
    if (start) {
        r->start = *start;
        shogi_position_refresh(&r->start);
        r->handicap = shogi_handicap_of(&r->start);
    } else {
        if (handicap < 0 || handicap >= SHOGI_HC_COUNT) handicap = SHOGI_HC_EVEN;
        r->handicap = handicap;
        shogi_handicap_position((enum shogi_handicap)handicap, &r->start);
    }
    return r;
}

static char **named_field(struct shogi_record *r, const char *key)
{
    static const struct {
        const char *key;
        size_t off;
    } fields[] = {
        {"開始日時", offsetof(struct shogi_record, start_time)},
        {"終了日時", offsetof(struct shogi_record, end_time)},
        {"棋戦", offsetof(struct shogi_record, event)},
        {"表題", offsetof(struct shogi_record, title)},
        {"場所", offsetof(struct shogi_record, site)},
        {"戦型", offsetof(struct shogi_record, opening)},
        {"持ち時間", offsetof(struct shogi_record, time_control)},
        {"秒読み", offsetof(struct shogi_record, byoyomi)},
        {"先手", offsetof(struct shogi_record, black)},
        {"下手", offsetof(struct shogi_record, black)},
        {"後手", offsetof(struct shogi_record, white)},
        {"上手", offsetof(struct shogi_record, white)},
        {"先手省略名", offsetof(struct shogi_record, black_short)},
        {"後手省略名", offsetof(struct shogi_record, white_short)},
        {"備考", offsetof(struct shogi_record, note)},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(fields[i].key, key) == 0) return (char **)((char *)r + fields[i].off);
    return NULL;
}

bool shogi_record_set(struct shogi_record *r, const char *key, const char *value)
{
    char *v = strdup(value ? value : "");
    if (!v) return false;
    char **f = named_field(r, key);
    if (f) {
        free(*f);
        *f = v;
        return true;
    }
    for (int i = 0; i < r->ntags; i++) {
        if (strcmp(r->tags[i].key, key) == 0) {
            free(r->tags[i].value);
            r->tags[i].value = v;
            return true;
        }
    }
    struct shogi_record_tag *t = realloc(r->tags, (size_t)(r->ntags + 1) * sizeof *t);
    char *k = strdup(key);
    if (!t || !k) {
        free(v);
        free(k);
        if (t) r->tags = t;
        return false;
    }
    r->tags = t;
    r->tags[r->ntags].key = k;
    r->tags[r->ntags].value = v;
    r->ntags++;
    return true;
}

const char *shogi_record_get(const struct shogi_record *r, const char *key)
{
    char **f = named_field((struct shogi_record *)r, key);
    if (f) return *f;
    for (int i = 0; i < r->ntags; i++)
        if (strcmp(r->tags[i].key, key) == 0) return r->tags[i].value;
    return NULL;
}

void shogi_record_free(struct shogi_record *r)
{
    if (!r) return;
    char **fields[] = {&r->start_time, &r->end_time,     &r->event,        &r->title,
                       &r->site,       &r->opening,      &r->time_control, &r->byoyomi,
                       &r->black,      &r->white,        &r->black_short,  &r->white_short,
                       &r->note,       &r->head_comment, &r->end.comment};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) free(*fields[i]);
    for (int i = 0; i < r->ntags; i++) {
        free(r->tags[i].key);
        free(r->tags[i].value);
    }
    free(r->tags);
    for (int i = 0; i < r->nmoves; i++) free(r->moves[i].comment);
    free(r->moves);
    free(r->notes);
    free(r);
}

void shogi_records_free(struct shogi_record **v, int n)
{
    if (!v) return;
    for (int i = 0; i < n; i++) shogi_record_free(v[i]);
    free(v);
}

void shogi_comment_add(char **comment, const char *text)
{
    size_t old = *comment ? strlen(*comment) : 0, n = strlen(text);
    char *c = realloc(*comment, old + n + 2);
    if (!c) return;
    if (old) c[old++] = '\n';
    memcpy(c + old, text, n + 1);
    /* Lines end in '\n' only: a CR (from a JKF string) would start a new line in KIF or CSA. */
    for (char *q = c + old; *q; q++)
        if (*q == '\r') *q = '\n';
    *comment = c;
}

static struct shogi_record_move *push_move(struct shogi_record *r)
{
    if (r->nmoves == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        struct shogi_record_move *m = realloc(r->moves, (size_t)cap * sizeof *m);
        if (!m) return NULL;
        r->moves = m;
        r->cap = cap;
    }
    struct shogi_record_move *m = &r->moves[r->nmoves++];
    memset(m, 0, sizeof *m);
    m->time_ms = m->total_ms = -1;
    return m;
}

/* Fill piece/captured from the position when the caller left them 0. */
static struct shogi_move complete_move(const struct shogi_position *pos, struct shogi_move m)
{
    if (m.to < SHOGI_SQUARES) {
        if (!m.piece && m.from < SHOGI_SQUARES) m.piece = pos->board[m.from];
        if (!m.captured) m.captured = pos->board[m.to];
    }
    return m;
}

/* Judge, append and (if playable) play. The game keeps its own history for repetition. */
static struct shogi_record_move *play_into(struct shogi_record *r, struct shogi_game *g,
                                           struct shogi_move m, int line)
{
    m = complete_move(&g->pos, m);
    /* One way to say "a promoted piece was dropped" (the board core's): the promoted piece. */
    if (m.from == SHOGI_HAND && m.promote) {
        /* A gold or king cannot be promoted at all: that is a plain drop. */
        if (shogi_type_can_promote(shogi_piece_type(m.piece)))
            m.piece = (uint8_t)(m.piece + SHOGI_PROMOTED);
        m.promote = false;
    }
    struct shogi_record_move *rm = push_move(r);
    if (!rm) return NULL;
    rm->move = m;
    rm->line = line;
    int ply = r->nmoves;
    int before = g->n;
    rm->verdict = shogi_game_play(g, m);
    rm->played = g->n > before;
    /* Keep what the board saw: a wrongly named piece (KIF "角" for the knight on 8九) is
     * recorded as the piece that stood there, with the verdict on what was written. */
    if (rm->played) rm->move = g->plies[g->n - 1].move;
    /* "Promoting" a piece that cannot promote (a horse, a gold) changes nothing on the board and no
     * format but KIF can write it: the verdict keeps the fault, the move drops the flag. */
    if (rm->move.from != SHOGI_HAND && !shogi_type_can_promote(shogi_piece_type(rm->move.piece)))
        rm->move.promote = false;
    if (rm->verdict.rule != SHOGI_LEGAL && !r->first_illegal) r->first_illegal = ply;
    return rm;
}

struct shogi_verdict shogi_record_append(struct shogi_record *r, struct shogi_move m,
                                         int64_t time_ms, int64_t total_ms)
{
    struct shogi_game g;
    shogi_game_init(&g, &r->start, &shogi_rules_jsa);
    for (int i = 0; i < r->nmoves; i++)
        if (r->moves[i].played) shogi_game_play(&g, r->moves[i].move);
    struct shogi_record_move *rm = play_into(r, &g, m, 0);
    shogi_game_free(&g);
    if (!rm) return (struct shogi_verdict){SHOGI_ILLEGAL_IMPOSSIBLE, SHOGI_FAULT_NONE};
    rm->time_ms = time_ms;
    rm->total_ms = total_ms;
    return rm->verdict;
}

void shogi_record_position(const struct shogi_record *r, int ply, struct shogi_position *pos)
{
    /* Through the game, which handles moves out of turn the way the readers did. */
    struct shogi_game g;
    shogi_game_init(&g, &r->start, &shogi_rules_jsa);
    for (int i = 0; i < ply && i < r->nmoves; i++)
        if (r->moves[i].played) shogi_game_play(&g, r->moves[i].move);
    *pos = g.pos;
    shogi_game_free(&g);
}

bool shogi_record_same_moves(const struct shogi_record *a, const struct shogi_record *b)
{
    if (!shogi_position_same(&a->start, &b->start) || a->nmoves != b->nmoves) return false;
    for (int i = 0; i < a->nmoves; i++)
        if (!shogi_move_equal(a->moves[i].move, b->moves[i].move)) return false;
    return true;
}

/* ---- the reader state ------------------------------------------------------------------------ */

bool shogi_parser_init(struct shogi_parser *rd, const char *name, struct shogi_record_error *err,
                       enum shogi_format format)
{
    memset(rd, 0, sizeof *rd);
    rd->name = name ? name : "<memory>";
    rd->err = err;
    rd->last_to = -1;
    rd->rec = shogi_record_new(SHOGI_HC_EVEN, NULL);
    if (!rd->rec) return shogi_parser_fail(rd, 0, "out of memory");
    rd->rec->format = format;
    shogi_game_init(&rd->game, &rd->rec->start, &shogi_rules_jsa);
    return true;
}

void shogi_parser_set_start(struct shogi_parser *rd, int handicap, const struct shogi_position *pos)
{
    struct shogi_record *r = rd->rec;
    if (pos) {
        r->start = *pos;
        shogi_position_refresh(&r->start);
        r->handicap = shogi_handicap_of(&r->start);
    } else {
        r->handicap = handicap;
        shogi_handicap_position((enum shogi_handicap)handicap, &r->start);
    }
    shogi_game_free(&rd->game);
    shogi_game_init(&rd->game, &r->start, &shogi_rules_jsa);
}

struct shogi_record_move *shogi_parser_play(struct shogi_parser *rd, struct shogi_move m, int line)
{
    struct shogi_record_move *rm = play_into(rd->rec, &rd->game, m, line);
    if (!rm) return NULL;
    rd->last_to = m.to;
    if (rm->verdict.rule != SHOGI_LEGAL) {
        shogi_parser_note(rd, line, rd->rec->nmoves, "illegal move: %s%s%s%s",
                          shogi_illegal_name(rm->verdict.rule), rm->verdict.fault ? " (" : "",
                          rm->verdict.fault ? shogi_fault_text(rm->verdict.fault) : "",
                          rm->verdict.fault ? ")" : "");
    }
    return rm;
}

struct shogi_record *shogi_parser_finish(struct shogi_parser *rd)
{
    struct shogi_record *r = rd->rec;
    shogi_game_free(&rd->game);
    rd->rec = NULL;
    return r;
}

void shogi_parser_abort(struct shogi_parser *rd)
{
    shogi_game_free(&rd->game);
    shogi_record_free(rd->rec);
    rd->rec = NULL;
}

bool shogi_parser_fail(struct shogi_parser *rd, int line, const char *fmt, ...)
{
    if (!rd->err) return false;
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rd->err->line = line;
    if (line > 0)
        snprintf(rd->err->message, sizeof rd->err->message, "%s:%d: %s", rd->name, line, msg);
    else
        snprintf(rd->err->message, sizeof rd->err->message, "%s: %s", rd->name, msg);
    return false;
}

void shogi_parser_note(struct shogi_parser *rd, int line, int ply, const char *fmt, ...)
{
    struct shogi_record *r = rd->rec;
    if (r->nnotes >= 1000) return; /* a garbage file must not grow this without bound */
    struct shogi_record_note *n = realloc(r->notes, (size_t)(r->nnotes + 1) * sizeof *n);
    if (!n) return;
    r->notes = n;
    n = &r->notes[r->nnotes++];
    n->line = line;
    n->ply = ply;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->text, sizeof n->text, fmt, ap);
    va_end(ap);
}

/* ---- any format ------------------------------------------------------------------------------ */

static bool ends_with(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    return n >= e && strcasecmp(name + n - e, ext) == 0;
}

enum shogi_format shogi_format_detect(const char *name, const char *data, size_t len)
{
    if (name) {
        if (ends_with(name, ".kif") || ends_with(name, ".kifu")) return SHOGI_FORMAT_KIF;
        if (ends_with(name, ".ki2") || ends_with(name, ".ki2u")) return SHOGI_FORMAT_KI2;
        if (ends_with(name, ".csa")) return SHOGI_FORMAT_CSA;
        if (ends_with(name, ".jkf") || ends_with(name, ".json")) return SHOGI_FORMAT_JKF;
        if (ends_with(name, ".usi") || ends_with(name, ".sfen")) return SHOGI_FORMAT_USI;
    }
    /* By content: look at the first bytes only. */
    size_t n = len < 4096 ? len : 4096;
    char head[4097];
    memcpy(head, data, n);
    head[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (head[i] == '\0') head[i] = ' ';
    const char *p = head;
    if (shogi_starts_with(p, "\xEF\xBB\xBF")) p += 3;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (*p == '{') return SHOGI_FORMAT_JKF;
    if (shogi_starts_with(p, "position ") || shogi_starts_with(p, "startpos") ||
        shogi_starts_with(p, "sfen "))
        return SHOGI_FORMAT_USI;
    if (strstr(p, "\nV2") || shogi_starts_with(p, "V2") || strstr(p, "\nPI") || strstr(p, "\nP1") ||
        shogi_starts_with(p, "'CSA") || strstr(p, "\n+77") || strstr(p, "\nN+"))
        return SHOGI_FORMAT_CSA;
    /* KIF move lines carry a source square "(77)" or 打 after a move number; KI2 has ▲△. */
    if (strstr(p, "手数----") || strstr(p, "(77)") || strstr(p, "(27)")) return SHOGI_FORMAT_KIF;
    if (strstr(p, "▲") || strstr(p, "△") || strstr(p, "\x81\xA3")) return SHOGI_FORMAT_KI2;
    if (strstr(p, "\x8E\xE8\x90\x94")) return SHOGI_FORMAT_KIF; /* 手数 in Shift-JIS */
    return SHOGI_FORMAT_UNKNOWN;
}

int shogi_record_read(const char *data, size_t len, const char *name, struct shogi_record ***out,
                      struct shogi_record_error *err)
{
    enum shogi_format f = shogi_format_detect(name, data, len);
    struct shogi_record *one = NULL;
    switch (f) {
    case SHOGI_FORMAT_CSA: return shogi_csa_read(data, len, name, out, err);
    case SHOGI_FORMAT_USI: return shogi_usi_read(data, len, name, out, err);
    case SHOGI_FORMAT_KIF: one = shogi_kif_read(data, len, name, err); break;
    case SHOGI_FORMAT_KI2: one = shogi_ki2_read(data, len, name, err); break;
    case SHOGI_FORMAT_JKF: one = shogi_jkf_read(data, len, name, err); break;
    default:
        if (err) {
            err->line = 0;
            snprintf(err->message, sizeof err->message,
                     "%s: not a shogi record (KIF, KI2, CSA, USI or JKF)",
                     name ? name : "<memory>");
        }
        return -1;
    }
    if (!one) return -1;
    *out = malloc(sizeof **out);
    if (!*out) {
        shogi_record_free(one);
        return -1;
    }
    (*out)[0] = one;
    return 1;
}

int shogi_record_read_file(const char *path, struct shogi_record ***out,
                           struct shogi_record_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err) {
            err->line = 0;
            snprintf(err->message, sizeof err->message, "%s: cannot open", path);
        }
        return -1;
    }
    struct shogi_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) shogi_buf_putn(&b, chunk, n);
    bool bad = ferror(f);
    fclose(f);
    size_t len = b.len;
    char *data = shogi_buf_take(&b);
    if (bad || !data) {
        free(data);
        if (err) {
            err->line = 0;
            snprintf(err->message, sizeof err->message, "%s: read error", path);
        }
        return -1;
    }
    int k = shogi_record_read(data, len, path, out, err);
    free(data);
    return k;
}

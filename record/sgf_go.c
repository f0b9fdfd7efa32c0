/* record/sgf_go.c — an SGF game tree to a Go record (the main line), quirks normalised.
 *
 * Each SGF node becomes one record node, except that setup and moves are kept apart: a node with
 * setup stones and a move becomes a setup node followed by a move node (PL beside a move becomes
 * a node after it: it names who plays next), and a node with
 * two moves (B and W, or B[aa][bb]) becomes one node per move, so no move is lost. The writer
 * makes the same split, so write -> read gives back the same nodes. */
#include "record/sgf_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void sgf_format_double(char *buf, size_t size, double v)
{
    /* SGF's Real has no exponent: plain decimals, at most three of them, trailing zeros cut */
    snprintf(buf, size, "%.3f", v);
    char *dot = strchr(buf, '.');
    if (!dot) return;
    char *end = buf + strlen(buf);
    while (end > dot + 1 && end[-1] == '0') *--end = '\0';
    if (end == dot + 1) *dot = '\0';
    if (strcmp(buf, "-0") == 0) snprintf(buf, size, "0");
}

/* Numbers the record keeps are multiples of 0.001, so that writing them as plain decimals and
 * reading them back gives the same double. */
static double round_milli(double v)
{
    return round(v * 1000) / 1000;
}

static void warn(struct go_record *r, const char *fmt, const char *arg)
{
    if (r->nwarnings >= (int)(sizeof r->warnings / sizeof r->warnings[0])) return;
    snprintf(r->warnings[r->nwarnings], sizeof r->warnings[0], fmt, arg ? arg : "");
    r->nwarnings++;
}

static void set_error(struct sgf_error *err, const char *msg, const char *arg)
{
    if (!err) return;
    memset(err, 0, sizeof *err);
    snprintf(err->message, sizeof err->message, msg, arg ? arg : "");
}

/* A number with optional spaces around it, "6,5" accepted; false when not a finite number. */
static bool parse_number(const char *s, double *out)
{
    char buf[64];
    size_t n = 0;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    for (; *s && n + 1 < sizeof buf; s++) buf[n++] = *s == ',' ? '.' : *s;
    while (n > 0 &&
           (buf[n - 1] == ' ' || buf[n - 1] == '\t' || buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    buf[n] = '\0';
    if (*s || n == 0) return false;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (*end || errno == ERANGE || !isfinite(v)) return false;
    *out = v;
    return true;
}

static bool parse_int(const char *s, int lo, int hi, int *out)
{
    double v;
    if (!parse_number(s, &v) || v != floor(v) || v < lo || v > hi) return false;
    *out = (int)v;
    return true;
}

/* SGF letters: a-z = 0..25, A-Z = 26..51. */
static int coord(char ch)
{
    if (ch >= 'a' && ch <= 'z') return ch - 'a';
    if (ch >= 'A' && ch <= 'Z') return ch - 'A' + 26;
    return -1;
}

/* A point "pd"; false when not a point on this board. */
static bool decode_point(const char *s, int w, int h, int *x, int *y)
{
    if (!s[0] || !s[1] || s[2]) return false;
    *x = coord(s[0]);
    *y = coord(s[1]);
    return *x >= 0 && *x < w && *y >= 0 && *y < h;
}

/* Move value: point, or pass as "" or (on boards up to 19x19) "tt". GO_NOPOINT when invalid. */
static int decode_move(const char *s, int w, int h)
{
    int x, y;
    if (!s[0]) return GO_PASS;
    if (strcmp(s, "tt") == 0 && w <= 19 && h <= 19) return GO_PASS;
    if (!decode_point(s, w, h, &x, &y)) return GO_NOPOINT;
    return go_point(x, y);
}

struct setup_buf {
    struct go_move *v;
    int n, cap;
};

static bool setup_add(struct setup_buf *b, enum go_color c, int point)
{
    if (b->n == b->cap) {
        int ncap = b->cap ? b->cap * 2 : 16;
        struct go_move *nv = realloc(b->v, sizeof *nv * (size_t)ncap);
        if (!nv) return false;
        b->v = nv;
        b->cap = ncap;
    }
    b->v[b->n].color = c;
    b->v[b->n].point = point;
    b->n++;
    return true;
}

struct conv {
    struct go_record *r;
    struct sgf_decoder dec;
    struct go_record_node *nodes;
    int cap_nodes;
    long total_setup;
    bool oom;
};

static struct go_record_node *new_node(struct conv *cv)
{
    struct go_record *r = cv->r;
    if (r->nnodes == cv->cap_nodes) {
        int ncap = cv->cap_nodes ? cv->cap_nodes * 2 : 64;
        struct go_record_node *nn = realloc(r->nodes, sizeof *nn * (size_t)ncap);
        if (!nn) {
            cv->oom = true;
            return NULL;
        }
        r->nodes = nn;
        cv->cap_nodes = ncap;
    }
    struct go_record_node *n = &r->nodes[r->nnodes++];
    memset(n, 0, sizeof *n);
    n->time_left = -1;
    n->periods_left = -1;
    n->player = GO_EMPTY;
    return n;
}

/* Setup values of AB/AW/AE: points and rectangles "aa:cc". */
static void add_setup_values(struct conv *cv, struct setup_buf *b, const struct sgf_prop *p,
                             enum go_color c)
{
    struct go_record *r = cv->r;
    for (int i = 0; i < p->nvalues; i++) {
        const char *v = p->values[i];
        int x0, y0, x1, y1;
        const char *colon = strchr(v, ':');
        bool ok;
        if (colon && colon - v == 2) {
            char a[3] = {v[0], v[1], 0};
            ok = decode_point(a, r->width, r->height, &x0, &y0) &&
                 decode_point(colon + 1, r->width, r->height, &x1, &y1);
        } else {
            ok = decode_point(v, r->width, r->height, &x0, &y0);
            x1 = x0;
            y1 = y0;
        }
        if (!ok) {
            warn(r, "setup point %.40s is not on the board: ignored", v);
            continue;
        }
        if (x0 > x1) {
            int t = x0;
            x0 = x1;
            x1 = t;
        }
        if (y0 > y1) {
            int t = y0;
            y0 = y1;
            y1 = t;
        }
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                if (cv->total_setup >= SGF_MAX_SETUP) {
                    warn(r, "too many setup stones%s: the rest ignored", NULL);
                    return;
                }
                if (!setup_add(b, c, go_point(x, y))) {
                    cv->oom = true;
                    return;
                }
                cv->total_setup++;
            }
    }
}

static enum go_color parse_player(const char *v)
{
    if (!v) return GO_EMPTY;
    if (v[0] == 'B' || v[0] == 'b' || v[0] == '1') return GO_BLACK;
    if (v[0] == 'W' || v[0] == 'w' || v[0] == '2') return GO_WHITE;
    return GO_EMPTY;
}

static char *decode(struct conv *cv, const char *v)
{
    if (!v) return NULL;
    char *s = sgf_decoder_run(&cv->dec, v);
    if (!s) cv->oom = true;
    return s;
}

static void convert_node(struct conv *cv, const struct sgf_node *sn, bool is_root)
{
    struct go_record *r = cv->r;
    struct setup_buf setup = {0};
    const char *pl = NULL;
    for (int i = 0; i < sn->nprops; i++) {
        const struct sgf_prop *p = &sn->props[i];
        if (strcmp(p->id, "AB") == 0)
            add_setup_values(cv, &setup, p, GO_BLACK);
        else if (strcmp(p->id, "AW") == 0)
            add_setup_values(cv, &setup, p, GO_WHITE);
        else if (strcmp(p->id, "AE") == 0)
            add_setup_values(cv, &setup, p, GO_EMPTY);
        else if (strcmp(p->id, "PL") == 0 && p->nvalues > 0)
            pl = p->values[0];
    }
    const char *comment = sgf_node_get(sn, "C");
    const char *mn = sgf_node_get(sn, "MN");

    int nmoves = 0;
    for (int i = 0; i < sn->nprops; i++)
        if (strcmp(sn->props[i].id, "B") == 0 || strcmp(sn->props[i].id, "W") == 0)
            nmoves += sn->props[i].nvalues;

    /* PL beside a move says who plays after it (CGoban writes `;W[kq]PL[B]`, GNU Go reads it so):
     * it goes into a node of its own after the move. Alone, or with setup stones, it counts from
     * the node on. */
    const char *pl_after = nmoves > 0 && !is_root ? pl : NULL;
    if (pl_after) pl = NULL;
    struct go_record_node *base = NULL;
    if (is_root || setup.n > 0 || pl || nmoves == 0) {
        base = new_node(cv);
        if (!base) goto out;
        base->setup = setup.v;
        base->nsetup = setup.n;
        setup.v = NULL;
        base->player = parse_player(pl);
        if (comment) base->comment = decode(cv, comment);
    }
    bool first = true;
    for (int i = 0; i < sn->nprops; i++) {
        const struct sgf_prop *p = &sn->props[i];
        enum go_color c;
        if (strcmp(p->id, "B") == 0)
            c = GO_BLACK;
        else if (strcmp(p->id, "W") == 0)
            c = GO_WHITE;
        else
            continue;
        for (int k = 0; k < p->nvalues; k++) {
            int pt = decode_move(p->values[k], r->width, r->height);
            if (pt == GO_NOPOINT) {
                warn(r, "move %.40s is not on the board: ignored", p->values[k]);
                continue;
            }
            struct go_record_node *n = new_node(cv);
            if (!n) goto out;
            n->has_move = true;
            n->move.color = c;
            n->move.point = pt;
            double t;
            const char *tl = sgf_node_get(sn, c == GO_BLACK ? "BL" : "WL");
            if (tl && parse_number(tl, &t) && t >= 0 && t <= SGF_MAX_SECONDS)
                n->time_left = round_milli(t);
            int periods;
            const char *ot = sgf_node_get(sn, c == GO_BLACK ? "OB" : "OW");
            if (ot && parse_int(ot, 0, INT32_MAX, &periods)) n->periods_left = periods;
            if (first) {
                int num;
                if (mn && parse_int(mn, 1, INT32_MAX, &num)) n->move_number = num;
                if (!base && comment) n->comment = decode(cv, comment);
                first = false;
            }
        }
    }
    if (pl_after && parse_player(pl_after) != GO_EMPTY) {
        struct go_record_node *after = new_node(cv);
        if (!after) goto out;
        after->player = parse_player(pl_after);
    }
out:
    free(setup.v);
}

/* Komi in points from what files write: Fox x100 (KM[650]; any Fox KM from 10 up, KM[50] = 0.5),
 * Fox Chinese stones x100 (KM[375] = 3.75 stones = 7.5 points), GoGoD Chinese komi in stones
 * (KM[3.75]). The result is a fixed point: reading it back as written gives the same komi. */
static double normalise_komi(struct go_record *r, double k, bool chinese, bool fox)
{
    double a = fabs(k);
    if (a > 100 || (fox && a >= 10)) {
        static const double per_50[] = {275, 325, 350, 375};
        bool stones = false;
        for (size_t i = 0; i < sizeof per_50 / sizeof per_50[0]; i++)
            if (a == per_50[i]) stones = true;
        k = stones ? k / 50 : k / 100;
        a = fabs(k);
    }
    if (chinese && a < 10 && a * 4 == floor(a * 4) && a * 2 != floor(a * 2)) k *= 2;
    if (fabs(k) > 100) {
        warn(r, "komi out of range%s: set to 0", NULL);
        k = 0;
    }
    return round_milli(k) + 0.0; /* + 0.0 turns -0 into 0 */
}

static bool any_value_contains(const struct sgf_node *n, const char *id, const char *needle)
{
    for (int i = 0; i < n->nprops; i++) {
        if (strcmp(n->props[i].id, id) != 0) continue;
        for (int k = 0; k < n->props[i].nvalues; k++)
            if (strcasestr(n->props[i].values[k], needle)) return true;
    }
    return false;
}

/* Root properties decoded as text, with where they go. */
struct info_field {
    const char *id;
    size_t offset;
};
#define INFO(id, field)                                                                            \
    {                                                                                              \
        id, offsetof(struct go_record, field)                                                      \
    }
static const struct info_field info_fields[] = {
    INFO("PB", black),        INFO("PW", white),        INFO("BR", black_rank),
    INFO("WR", white_rank),   INFO("EV", event),        INFO("RO", round),
    INFO("DT", date),         INFO("PC", place),        INFO("RE", result),
    INFO("RU", rules),        INFO("TM", time_control), INFO("OT", overtime),
    INFO("GC", game_comment), INFO("AP", application),  INFO("GN", game_name),
    INFO("SO", source),
};

static void collect_texts(const struct sgf_node *root, const char ***texts, int *n, int *cap)
{
    for (const struct sgf_node *sn = root; sn; sn = sn->child) {
        for (int i = 0; i < sn->nprops; i++) {
            const struct sgf_prop *p = &sn->props[i];
            bool wanted = strcmp(p->id, "C") == 0;
            for (size_t f = 0;
                 !wanted && sn == root && f < sizeof info_fields / sizeof info_fields[0]; f++)
                wanted = strcmp(p->id, info_fields[f].id) == 0;
            if (!wanted || p->nvalues == 0) continue;
            if (*n == *cap) {
                int ncap = *cap ? *cap * 2 : 32;
                const char **nt = realloc(*texts, sizeof *nt * (size_t)ncap);
                if (!nt) return;
                *texts = nt;
                *cap = ncap;
            }
            (*texts)[(*n)++] = p->values[0];
        }
    }
}

struct go_record *sgf_to_go_record(const struct sgf_node *root, struct sgf_error *err)
{
    if (err) memset(err, 0, sizeof *err);
    if (!root) {
        set_error(err, "empty game%s", NULL);
        return NULL;
    }
    const char *gm = sgf_node_get(root, "GM");
    int game;
    if (gm && (!parse_int(gm, 0, 1000, &game) || game != 1)) {
        set_error(err, "not a Go game (GM[%.40s])", gm);
        return NULL;
    }
    struct go_record *r = calloc(1, sizeof *r);
    if (!r) {
        set_error(err, "out of memory%s", NULL);
        return NULL;
    }
    r->width = r->height = 19;
    const char *sz = sgf_node_get(root, "SZ");
    if (sz) {
        int w, h;
        const char *colon = strchr(sz, ':');
        bool ok;
        if (colon) {
            char wbuf[32];
            size_t l = (size_t)(colon - sz);
            ok = l < sizeof wbuf;
            if (ok) {
                memcpy(wbuf, sz, l);
                wbuf[l] = '\0';
                ok = parse_int(wbuf, 1, 52, &w) && parse_int(colon + 1, 1, 52, &h);
            }
        } else {
            ok = parse_int(sz, 1, 52, &w);
            h = w;
        }
        if (!ok || w < GO_MIN || h < GO_MIN || w > GO_MAX || h > GO_MAX) {
            set_error(err, "board size SZ[%.40s] not supported (2..25)", sz);
            free(r);
            return NULL;
        }
        r->width = w;
        r->height = h;
    }

    struct conv cv = {.r = r};
    const char **texts = NULL;
    int ntexts = 0, cap_texts = 0;
    collect_texts(root, &texts, &ntexts, &cap_texts);
    char cawarn[160];
    sgf_decoder_open(&cv.dec, sgf_node_get(root, "CA"), texts, ntexts, cawarn, sizeof cawarn);
    free(texts);
    r->charset = cv.dec.name;
    if (cawarn[0]) warn(r, "%s", cawarn);

    for (size_t f = 0; f < sizeof info_fields / sizeof info_fields[0]; f++) {
        char **dst = (char **)((char *)r + info_fields[f].offset);
        *dst = decode(&cv, sgf_node_get(root, info_fields[f].id));
    }

    r->komi = r->komi_raw = 0;
    const char *km = sgf_node_get(root, "KM");
    if (km) {
        double k;
        if (parse_number(km, &k)) {
            r->komi_raw = k;
            const char *ru = sgf_node_get(root, "RU");
            bool chinese = ru && strcasestr(ru, "chinese");
            bool fox = any_value_contains(root, "AP", "foxwq");
            r->komi = normalise_komi(r, k, chinese, fox);
        } else {
            warn(r, "komi KM[%.40s] is not a number: 0 used", km);
        }
    }

    r->handicap = 0;
    const char *ha = sgf_node_get(root, "HA");
    if (ha && !parse_int(ha, 0, GO_POINTS, &r->handicap))
        warn(r, "handicap HA[%.40s] is not a number of stones: ignored", ha);

    r->main_time = -1;
    const char *tm = sgf_node_get(root, "TM");
    double t;
    if (tm && parse_number(tm, &t) && t >= 0 && t <= SGF_MAX_SECONDS) r->main_time = round_milli(t);

    bool root_done = false;
    for (const struct sgf_node *sn = root; sn && !cv.oom; sn = sn->child) {
        convert_node(&cv, sn, !root_done);
        root_done = true;
    }
    sgf_decoder_close(&cv.dec);
    if (cv.oom) {
        go_record_free(r);
        set_error(err, "out of memory%s", NULL);
        return NULL;
    }

    /* HA[n] needs n black stones before White's first move; say so when they are not there
     * (the rule guard decides what that means; no stones are invented here) */
    if (r->handicap >= 2) {
        int black_setup = 0;
        for (int i = 0; i < r->nnodes; i++) {
            if (r->nodes[i].has_move && r->nodes[i].move.color == GO_WHITE) break;
            for (int k = 0; k < r->nodes[i].nsetup; k++)
                if (r->nodes[i].setup[k].color == GO_BLACK) black_setup++;
        }
        if (black_setup == 0) {
            char num[16];
            snprintf(num, sizeof num, "%d", r->handicap);
            warn(r, "HA[%s] but no handicap stones (AB) in the record", num);
        }
    }
    return r;
}

void go_record_free(struct go_record *r)
{
    if (!r) return;
    for (size_t f = 0; f < sizeof info_fields / sizeof info_fields[0]; f++)
        free(*(char **)((char *)r + info_fields[f].offset));
    for (int i = 0; i < r->nnodes; i++) {
        free(r->nodes[i].setup);
        free(r->nodes[i].comment);
    }
    free(r->nodes);
    free(r);
}

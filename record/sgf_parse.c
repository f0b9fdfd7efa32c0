/* record/sgf_parse.c — SGF text to a tree of nodes and properties.
 *
 * Tolerant of what real files contain (junk around games, FF[3] identifiers such as "AddBlack",
 * repeated properties, a missing final ')', whitespace anywhere, a UTF-8 BOM) and safe on hostile
 * input: one pass over the bytes, no recursion (nesting is an explicit stack with a limit), and
 * hard caps on nodes, games and input size. Everything a collection owns lives in one arena, so
 * freeing is one walk over a list of blocks, whatever the shape of the tree. */
#include "record/sgf_internal.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ---------------------------------------------------------------------------------- */

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    alignas(max_align_t) unsigned char data[];
};

struct arena {
    struct arena_block *head;
};

static void *arena_alloc(struct arena *a, size_t size)
{
    const size_t align = alignof(max_align_t);
    size = (size + align - 1) & ~(align - 1);
    struct arena_block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > 60000 ? size : 60000;
        b = malloc(sizeof *b + cap);
        if (!b) return NULL;
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

static void arena_free(struct arena *a)
{
    for (struct arena_block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    a->head = NULL;
}

/* ---- collection with its private parts ------------------------------------------------------ */

/* A node as the parser makes it: the public node plus what appending variations needs. */
struct pnode {
    struct sgf_node pub; /* first member: a struct sgf_node * points here */
    struct pnode *last_child;
};

struct collection_impl {
    struct sgf_collection pub; /* first member */
    struct arena arena;
    size_t *game_offsets; /* byte offset of each game's '(' or first node */
    int *game_lines, *game_columns;
    int cap_games;
};

void sgf_collection_free(struct sgf_collection *c)
{
    if (!c) return;
    struct collection_impl *ci = (struct collection_impl *)c;
    arena_free(&ci->arena);
    free(ci->pub.games);
    free(ci->game_offsets);
    free(ci->game_lines);
    free(ci->game_columns);
    free(ci);
}

void sgf_game_position(const struct sgf_collection *c, int i, int *line, int *column)
{
    const struct collection_impl *ci = (const struct collection_impl *)c;
    *line = *column = 0;
    if (i < 0 || i >= c->ngames || !ci->game_lines) return;
    *line = ci->game_lines[i];
    *column = ci->game_columns[i];
}

void sgf_offset_position(const char *data, size_t offset, int *line, int *column)
{
    int l = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < offset; i++) {
        if (data[i] == '\n' || (data[i] == '\r' && (i + 1 >= offset || data[i + 1] != '\n'))) {
            if (l < INT32_MAX) l++;
            line_start = i + 1;
        }
    }
    *line = l;
    size_t col = offset - line_start + 1;
    *column = col > INT32_MAX ? INT32_MAX : (int)col;
}

const char *sgf_node_get(const struct sgf_node *n, const char *id)
{
    if (!n) return NULL;
    for (int i = 0; i < n->nprops; i++)
        if (strcmp(n->props[i].id, id) == 0 && n->props[i].nvalues > 0)
            return n->props[i].values[0];
    return NULL;
}

/* ---- parser state --------------------------------------------------------------------------- */

struct tmp_prop {
    char id[8];
    int nvalues;
};

struct tmp_value {
    int prop;      /* index into props */
    size_t offset; /* into vbuf, NUL-terminated there */
};

struct parser {
    const char *text;
    size_t len, pos;
    struct collection_impl *c;
    struct sgf_error *err;
    size_t err_offset;
    bool have_err, fatal;

    /* the node being filled */
    struct pnode *node;
    struct tmp_prop *props;
    int nprops, cap_props;
    struct tmp_value *vals;
    size_t nvals, cap_vals;
    char *vbuf;
    size_t vlen, vcap;
    int last_prop; /* property the next bare '[' value belongs to, -1 when none */

    /* nesting */
    struct pnode **stack;
    int depth, cap_stack;
    struct pnode *cur; /* node the next node follows; NULL = the next node starts a game */
    size_t nnodes;
};

/* Record a problem; the first one is what the caller sees. */
static void note(struct parser *p, size_t offset, const char *msg)
{
    if (p->have_err) return;
    p->have_err = true;
    p->err_offset = offset;
    snprintf(p->err->message, sizeof p->err->message, "%s", msg);
}

static void fail(struct parser *p, size_t offset, const char *msg)
{
    note(p, offset, msg);
    p->fatal = true;
}

static bool is_space(unsigned char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

static bool grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) ncap *= 2;
    void *nb = realloc(*buf, ncap * elem);
    if (!nb) return false;
    *buf = nb;
    *cap = ncap;
    return true;
}

/* Copy the collected properties of the current node into the arena. */
static void finish_node(struct parser *p)
{
    struct pnode *n = p->node;
    if (!n) return;
    p->node = NULL;
    p->last_prop = -1;
    if (p->nprops == 0) return;
    struct arena *a = &p->c->arena;
    struct sgf_prop *props = arena_alloc(a, sizeof *props * (size_t)p->nprops);
    if (!props) {
        fail(p, p->pos, "out of memory");
        goto reset;
    }
    for (int i = 0; i < p->nprops; i++) {
        memcpy(props[i].id, p->props[i].id, sizeof props[i].id);
        props[i].nvalues = 0;
        props[i].values = arena_alloc(a, sizeof(char *) * (size_t)(p->props[i].nvalues + 1));
        if (!props[i].values) {
            fail(p, p->pos, "out of memory");
            goto reset;
        }
    }
    for (size_t i = 0; i < p->nvals; i++) {
        const char *src = p->vbuf + p->vals[i].offset;
        size_t l = strlen(src);
        char *dst = arena_alloc(a, l + 1);
        if (!dst) {
            fail(p, p->pos, "out of memory");
            goto reset;
        }
        memcpy(dst, src, l + 1);
        struct sgf_prop *pr = &props[p->vals[i].prop];
        pr->values[pr->nvalues++] = dst;
    }
    n->pub.props = props;
    n->pub.nprops = p->nprops;
reset:
    p->nprops = 0;
    p->nvals = 0;
    p->vlen = 0;
}

static bool add_game(struct parser *p, struct pnode *root, size_t offset)
{
    struct collection_impl *c = p->c;
    if (c->pub.ngames >= SGF_MAX_GAMES) {
        fail(p, offset, "too many games in one file");
        return false;
    }
    if (c->pub.ngames == c->cap_games) {
        int ncap = c->cap_games ? c->cap_games * 2 : 4;
        struct sgf_node **g = realloc(c->pub.games, sizeof *g * (size_t)ncap);
        if (g) c->pub.games = g;
        size_t *o = realloc(c->game_offsets, sizeof *o * (size_t)ncap);
        if (o) c->game_offsets = o;
        if (!g || !o) {
            fail(p, offset, "out of memory");
            return false;
        }
        c->cap_games = ncap;
    }
    c->pub.games[c->pub.ngames] = &root->pub;
    c->game_offsets[c->pub.ngames] = offset;
    c->pub.ngames++;
    return true;
}

/* Start a node (at ';', or implicitly when properties appear where a node should be). */
static bool start_node(struct parser *p, size_t offset)
{
    finish_node(p);
    if (p->nnodes >= SGF_MAX_NODES) {
        fail(p, offset, "too many nodes in one file");
        return false;
    }
    struct pnode *n = arena_alloc(&p->c->arena, sizeof *n);
    if (!n) {
        fail(p, offset, "out of memory");
        return false;
    }
    memset(n, 0, sizeof *n);
    p->nnodes++;
    if (!p->cur) {
        if (!add_game(p, n, offset)) return false;
    } else if (!p->cur->pub.child) {
        p->cur->pub.child = &n->pub;
        p->cur->last_child = n;
    } else {
        p->cur->last_child->pub.sibling = &n->pub;
        p->cur->last_child = n;
    }
    p->cur = n;
    p->node = n;
    return true;
}

/* Find or add the property id in the current node; merging a repeated one (AB[aa]...AB[bb]).
 * -2 when the node already has SGF_MAX_PROPS different properties, -1 when out of memory. */
static int node_prop(struct parser *p, const char *id)
{
    for (int i = 0; i < p->nprops; i++)
        if (strcmp(p->props[i].id, id) == 0) return i;
    if (p->nprops >= SGF_MAX_PROPS) return -2;
    size_t cap = (size_t)p->cap_props;
    if (!grow((void **)&p->props, &cap, (size_t)p->nprops + 1, sizeof *p->props)) return -1;
    p->cap_props = (int)cap;
    struct tmp_prop *pr = &p->props[p->nprops];
    memset(pr, 0, sizeof *pr);
    memcpy(pr->id, id, strlen(id) + 1);
    return p->nprops++;
}

static bool vbuf_put(struct parser *p, char ch)
{
    if (p->vlen == p->vcap && !grow((void **)&p->vbuf, &p->vcap, p->vlen + 1, 1)) return false;
    p->vbuf[p->vlen++] = ch;
    return true;
}

/* Read one "[...]" value at p->pos (which is '['), unescaping, into the value buffer. prop < 0
 * means the value is read and dropped. */
static void read_value(struct parser *p, int prop)
{
    size_t start = p->pos++;
    size_t off = p->vlen;
    const char *t = p->text;
    for (;;) {
        if (p->pos >= p->len) {
            note(p, start, "unterminated property value (missing ']')");
            break;
        }
        char ch = t[p->pos++];
        if (ch == ']') break;
        if (ch == '\\') {
            if (p->pos >= p->len) continue; /* loop reports the missing ']' */
            ch = t[p->pos++];
            if (ch == '\n' || ch == '\r') { /* soft line break: removed with its pair */
                char other = ch == '\n' ? '\r' : '\n';
                if (p->pos < p->len && t[p->pos] == other) p->pos++;
                continue;
            }
        }
        if (prop >= 0 && !vbuf_put(p, ch)) {
            fail(p, start, "out of memory");
            return;
        }
    }
    if (prop < 0) return;
    if (!vbuf_put(p, '\0') ||
        !grow((void **)&p->vals, &p->cap_vals, p->nvals + 1, sizeof *p->vals)) {
        fail(p, start, "out of memory");
        return;
    }
    p->vals[p->nvals].prop = prop;
    p->vals[p->nvals].offset = off;
    p->nvals++;
    p->props[prop].nvalues++;
}

/* An identifier at p->pos: upper-case letters kept, FF[3] lower-case letters dropped. */
static void read_property(struct parser *p)
{
    size_t start = p->pos;
    char id[8];
    size_t n = 0;
    bool too_long = false;
    while (p->pos < p->len) {
        char ch = p->text[p->pos];
        if (ch >= 'A' && ch <= 'Z') {
            if (n < sizeof id - 1)
                id[n++] = ch;
            else
                too_long = true;
        } else if (!(ch >= 'a' && ch <= 'z')) {
            break;
        }
        p->pos++;
    }
    id[n] = '\0';
    while (p->pos < p->len && is_space((unsigned char)p->text[p->pos])) p->pos++;
    if (p->pos >= p->len || p->text[p->pos] != '[') {
        note(p, start, "property without a value");
        p->last_prop = -1;
        return;
    }
    if (n == 0 || too_long) {
        note(p, start,
             n == 0 ? "property identifier without capital letters"
                    : "property identifier too long");
        p->last_prop = -2; /* drop its values */
        return;
    }
    if (!p->node) {
        note(p, start, "property outside a node (a node was started for it)");
        if (!start_node(p, start)) return;
    }
    int prop = node_prop(p, id);
    if (prop == -2) {
        note(p, start, "too many different properties in one node: the rest ignored");
        p->last_prop = -2;
        return;
    }
    if (prop < 0) {
        fail(p, start, "out of memory");
        return;
    }
    p->last_prop = prop;
}

/* True when the '(' at pos starts a game tree: next non-space is ';' or '('. Lets "(c) 2004" in
 * a header pass as junk. */
static bool starts_tree(const struct parser *p, size_t pos)
{
    for (size_t i = pos + 1; i < p->len; i++) {
        unsigned char ch = (unsigned char)p->text[i];
        if (is_space(ch)) continue;
        return ch == ';' || ch == '(';
    }
    return false;
}

/* True when the ';' at pos starts a node: next non-space is a letter, and a '[' follows the
 * identifier. */
static bool starts_node(const struct parser *p, size_t pos)
{
    size_t i = pos + 1;
    while (i < p->len && is_space((unsigned char)p->text[i])) i++;
    size_t letters = i;
    while (i < p->len &&
           ((p->text[i] >= 'A' && p->text[i] <= 'Z') || (p->text[i] >= 'a' && p->text[i] <= 'z')))
        i++;
    if (i == letters) return false;
    while (i < p->len && is_space((unsigned char)p->text[i])) i++;
    return i < p->len && p->text[i] == '[';
}

/* Open a level of nesting ('(' or the implied one of a game without it). */
static bool push(struct parser *p, size_t at)
{
    if (p->depth >= SGF_MAX_DEPTH) {
        fail(p, at, "variations nested too deeply");
        return false;
    }
    size_t cap = (size_t)p->cap_stack;
    if (!grow((void **)&p->stack, &cap, (size_t)p->depth + 1, sizeof *p->stack)) {
        fail(p, at, "out of memory");
        return false;
    }
    p->cap_stack = (int)cap;
    p->stack[p->depth++] = p->cur;
    return true;
}

static void parse(struct parser *p)
{
    const char *t = p->text;
    if (p->len >= 3 && memcmp(t, "\xEF\xBB\xBF", 3) == 0) p->pos = 3;
    while (p->pos < p->len && !p->fatal) {
        size_t at = p->pos;
        unsigned char ch = (unsigned char)t[at];
        if (p->depth == 0) { /* between games: skip anything until a game tree starts */
            if (ch == '(' && starts_tree(p, at)) {
                p->cur = NULL;
            } else if (ch == ';' && starts_node(p, at)) {
                /* Fox Pro2 files start ";GM[1]..." with no '(' at all: open the tree here */
                note(p, at, "game without '(' before its first node");
                p->cur = NULL;
                if (!push(p, at)) break;
                continue;
            } else {
                if (!is_space(ch) && p->c->pub.ngames > 0 && ch != ')')
                    note(p, at, "junk between games ignored");
                p->pos++;
                continue;
            }
        }
        if (is_space(ch)) {
            p->pos++;
        } else if (ch == '(') {
            finish_node(p);
            if (!push(p, at)) break;
            p->pos++;
        } else if (ch == ')') {
            finish_node(p);
            p->cur = p->stack[--p->depth];
            p->pos++;
        } else if (ch == ';') {
            p->pos++;
            start_node(p, at);
        } else if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) {
            read_property(p);
        } else if (ch == '[') {
            if (p->last_prop < 0) note(p, at, "value without a property ignored");
            read_value(p, p->last_prop >= 0 && p->node ? p->last_prop : -1);
        } else {
            note(p, at, "unexpected character ignored");
            p->pos++;
        }
    }
    finish_node(p);
    if (!p->fatal && p->depth > 0) note(p, p->len, "missing ')' at end of game");
}

struct sgf_collection *sgf_parse(const char *data, size_t len, struct sgf_error *err)
{
    struct sgf_error dummy;
    if (!err) err = &dummy;
    memset(err, 0, sizeof *err);
    if (len > SGF_MAX_INPUT) {
        snprintf(err->message, sizeof err->message, "file too large (%zu bytes, limit %u)", len,
                 SGF_MAX_INPUT);
        return NULL;
    }
    struct collection_impl *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err->message, sizeof err->message, "out of memory");
        return NULL;
    }
    struct parser p = {.text = data, .len = len, .c = c, .err = err, .last_prop = -1};
    parse(&p);
    free(p.props);
    free(p.vals);
    free(p.vbuf);
    free(p.stack);

    /* positions of the games, for messages about a whole game */
    int n = c->pub.ngames;
    if (n > 0) {
        c->game_lines = malloc(sizeof(int) * (size_t)n);
        c->game_columns = malloc(sizeof(int) * (size_t)n);
        if (c->game_lines && c->game_columns) {
            int line = 1;
            size_t line_start = 0, scanned = 0;
            for (int i = 0; i < n; i++) { /* offsets are increasing: one pass */
                size_t off = c->game_offsets[i];
                for (; scanned < off; scanned++) {
                    char ch = data[scanned];
                    if (ch == '\n' ||
                        (ch == '\r' && (scanned + 1 >= len || data[scanned + 1] != '\n'))) {
                        line++;
                        line_start = scanned + 1;
                    }
                }
                c->game_lines[i] = line;
                c->game_columns[i] = (int)(off - line_start + 1);
            }
        } else {
            free(c->game_lines);
            free(c->game_columns);
            c->game_lines = c->game_columns = NULL;
        }
    }

    if (p.have_err && err->message[0]) {
        sgf_offset_position(data, p.err_offset, &err->line, &err->column);
    } else {
        memset(err, 0, sizeof *err);
    }
    if (n == 0) {
        if (!p.have_err || !err->message[0] || !p.fatal) {
            memset(err, 0, sizeof *err);
            snprintf(err->message, sizeof err->message, "no game found (no \"(;\" in the text)");
        }
        sgf_collection_free(&c->pub);
        return NULL;
    }
    return &c->pub;
}

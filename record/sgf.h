/* record/sgf.h — Go game records in SGF (FF[4], and the FF[3] habits of real files).
 *
 * Reading is two steps: the text becomes a tree of nodes and properties (sgf_parse, tolerant of
 * real-world damage), and a tree becomes a Go record (sgf_to_go_record: the main line, quirks
 * normalised: Fox komi x100, GoGoD stone komi, `tt` passes, HA[] without AB[]). Writing goes
 * from a Go record to FF[4] text that Sabaki, CGoban and KaTrain open. */
#ifndef KIFUCAM_RECORD_SGF_H
#define KIFUCAM_RECORD_SGF_H

#include <stdbool.h>
#include <stddef.h>

#include "board/go.h"

/* ---- the generic tree ---------------------------------------------------------------------- */

struct sgf_prop {
    char id[8];     /* upper-case identifier, e.g. "AB" (lower-case letters of FF[3] dropped) */
    char **values;  /* raw bytes after unescaping, NUL-terminated; charset not yet decoded */
    int nvalues;
};

struct sgf_node {
    struct sgf_prop *props;
    int nprops;
    struct sgf_node *child;   /* first variation: the main line follows child */
    struct sgf_node *sibling; /* next variation */
};

struct sgf_collection {
    struct sgf_node **games; /* one root per game in the file */
    int ngames;
};

/* Errors name the place: "game.sgf:12:7: unterminated property value". */
struct sgf_error {
    int line, column;
    char message[200];
};

/* Parse bytes into a collection. Returns NULL (and fills err) only when nothing usable was found;
 * recoverable damage (junk between games, a missing closing parenthesis) is repaired and reported
 * through err->message with err->line > 0 while a collection is still returned. */
struct sgf_collection *sgf_parse(const char *data, size_t len, struct sgf_error *err);
void sgf_collection_free(struct sgf_collection *c);
/* First value of a property in a node, or NULL. */
const char *sgf_node_get(const struct sgf_node *n, const char *id);

/* ---- Go records ---------------------------------------------------------------------------- */

/* One node of the main line: setup stones (AB/AW/AE), then at most one move. */
struct go_record_node {
    struct go_move *setup; /* color GO_EMPTY = AE */
    int nsetup;
    bool has_move;
    struct go_move move;
    double time_left;     /* BL/WL in seconds, < 0 when absent */
    int periods_left;     /* OB/OW, < 0 when absent */
    int move_number;      /* MN, 0 when absent */
    enum go_color player; /* PL, GO_EMPTY when absent */
    char *comment;        /* C, UTF-8, NULL when absent */
};

struct go_record {
    int width, height;
    /* Game information, decoded to UTF-8 (NULL when absent). */
    char *black, *white, *black_rank, *white_rank, *event, *round, *date, *place, *result,
        *rules, *time_control, *overtime, *game_comment, *application, *game_name, *source;
    double komi;          /* in points, normalised (Fox 650 -> 6.5, GoGoD Chinese 3.75 -> 7.5) */
    double komi_raw;      /* as written */
    int handicap;         /* HA, 0 when absent */
    double main_time;     /* TM in seconds, < 0 when absent */
    const char *charset;  /* the charset the text was decoded from, e.g. "UTF-8", "GBK" */
    struct go_record_node *nodes; /* nodes[0] is the root (its setup = AB/AW/AE of the root) */
    int nnodes;
    char warnings[4][160]; /* quirks met while converting, for the user */
    int nwarnings;
};

/* Convert the main line of one game tree. NULL with err filled if the tree is not a Go game
 * (GM other than 1) or is unusable (size outside 2..25). */
struct go_record *sgf_to_go_record(const struct sgf_node *root, struct sgf_error *err);
void go_record_free(struct go_record *r);

/* Read every game of a file: returns the count, fills *out (free each with go_record_free, then
 * free(*out)). -1 with err filled (err->message starts with the path) when unreadable. */
int sgf_read_file(const char *path, struct go_record ***out, struct sgf_error *err);

/* Write one record as FF[4], CA[UTF-8]. Returns a malloc'd NUL-terminated string. */
char *sgf_write_go_record(const struct go_record *r);

#endif

/* tests/ruleguard/go_corpus.h — the clean Go games the observation tests replay: the fixtures'
 * clean manifest rows, and a sample of ../shared/data's when present. */
#ifndef KIFUCAM_TESTS_GO_CORPUS_H
#define KIFUCAM_TESTS_GO_CORPUS_H

#include "record/sgf.h"

struct go_corpus {
    char **paths;
    char **rules; /* RU from the manifest ("" when absent) */
    int n, cap;
    int fixtures, shared, shared_available;
};

/* Fixtures always; shared games sampled evenly, at most max_shared. */
void go_corpus_load(struct go_corpus *c, int max_shared);
void go_corpus_free(struct go_corpus *c);
/* The first game of a file, or NULL. */
struct go_record *go_corpus_read(const char *path);
/* The preset the game is replayed under (RU, else Japanese 1989). */
const struct go_rules *go_corpus_rules(const char *ru);

#endif

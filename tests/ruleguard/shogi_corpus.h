/* tests/ruleguard/shogi_corpus.h — the shogi games the observation tests replay: the project's
 * fixtures (tests/fixtures/shogi-rules/lishogi-20.usi, tests/fixtures/shogi-records) always,
 * and ../shared/data (shogi-games/lishogi-400.usi, shogi-records/) when present. Each game is cut
 * before its first move that could not be played (a record's broken move has no board picture). */
#ifndef KIFUCAM_TESTS_SHOGI_CORPUS_H
#define KIFUCAM_TESTS_SHOGI_CORPUS_H

#include "board/shogi.h"

struct shogi_corpus_game {
    char name[96]; /* file name and game number */
    struct shogi_position start;
    struct shogi_move *moves;
    int nmoves;
    bool fixture;
};

struct shogi_corpus {
    struct shogi_corpus_game *games;
    int n, cap;
    int fixtures, shared; /* games from each */
    bool shared_available;
    int unreadable;    /* files that did not read */
    int invalid_start; /* games from a position no game reaches (tsume diagrams): left out */
};

void shogi_corpus_load(struct shogi_corpus *c, bool with_shared);
void shogi_corpus_free(struct shogi_corpus *c);

#endif

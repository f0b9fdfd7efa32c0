/* tests/app/shogi_faults.h — inject one known fault into a real shogi game.
 *
 * A shogi record cannot hold a set-up correction, so a faulty record is the real game up to some
 * ply k (a clean prefix), then — for faults that need one — a short sequence of legal moves found
 * with the rules core (a perpetual check cycle; for a pawn-drop mate, which real games rarely
 * offer, moves by both sides that close the net), then the faulty move. Exactly one flag is then
 * expected: at the faulty move's ply, of its kind. The faulty moves are made here from the board
 * (king steps, pawn files, hands) or by altering a legal move (dropping a forced promotion, adding
 * one outside the zone, naming a promoted piece by its base), never by asking shogi_check_move
 * which moves it rejects, so the check under test is not its own oracle. */
#ifndef KIFUCAM_TESTS_SHOGI_FAULTS_H
#define KIFUCAM_TESTS_SHOGI_FAULTS_H

#include <stdbool.h>

#include "record/shogi_record.h"
#include "ruleguard/guard.h"

enum sfault_kind {
    SFAULT_NIFU,         /* a pawn dropped on a file holding one's own unpromoted pawn */
    SFAULT_UCHIFUZUME,   /* mate by a dropped pawn */
    SFAULT_DEAD_MOVE,    /* a pawn, lance or knight moved to where it can never move, unpromoted */
    SFAULT_DEAD_DROP,    /* the same by a drop */
    SFAULT_INTO_CHECK,   /* the king steps onto an attacked square */
    SFAULT_IGNORE_CHECK, /* in check, a move that leaves the king attacked */
    SFAULT_TWO_MOVES,    /* the side that just moved moves again */
    SFAULT_NOT_IN_HAND,  /* dropping a piece one does not have */
    SFAULT_PROMOTE_ZONE, /* promoting with neither square in the zone */
    SFAULT_UNPROMOTE, /* a promoted piece moved as its unpromoted self (CSA "+4455GI" on 成銀) */
    SFAULT_OWN_CAPTURE, /* the king steps onto one of its own pieces */
    SFAULT_PERPETUAL,   /* the checker's move completes a 4-fold repetition, all its moves checks */
    SFAULT_COUNT
};

const char *sfault_name(enum sfault_kind f);

#define SFAULT_MAX_SEQ 24

struct sfault_result {
    struct shogi_record *record;   /* the faulty game; free with shogi_record_free */
    int prefix;                    /* real plies kept */
    int ply;                       /* ply of the faulty move (prefix + appended moves) */
    enum guard_kind kind;          /* the flag expected there */
    enum shogi_illegal reason;     /* and its rule */
    enum shogi_fault detail;       /* and its detail */
    struct shogi_verdict appended; /* what shogi_record_append said of the faulty move */
    bool constructed_ok;           /* every appended move before the fault was legal */
};

/* Inject fault f into the real game r (which must replay legally) at a place chosen from seed.
 * false when the game has no place for this fault. */
bool sfault_inject(const struct shogi_record *r, enum sfault_kind f, unsigned seed,
                   struct sfault_result *out);

/* Plain 千日手: from a place in r, two pieces shuttle (no move a check) until the position is on
 * the board for the 4th time. *end_ply gets the ply that completes the 4th occurrence (counted
 * here by comparing positions, not by the core's hash). false when no place was found. */
bool sfault_sennichite(const struct shogi_record *r, unsigned seed, struct shogi_record **out,
                       int *end_ply);

/* A perpetual check whose 4th occurrence is completed by the defender's king step (the position
 * before the first check recurs): the checking side loses all the same (JSA 第8条). *ply gets the
 * defender's completing ply, *checker the checking colour. */
bool sfault_perpetual_by_defender(const struct shogi_record *r, unsigned seed,
                                  struct shogi_record **out, int *ply, enum shogi_color *checker);

#endif

/* tests/app/go_faults.h — inject one known fault into a real Go record.
 *
 * Each fault is an illegal or out-of-turn move inserted at a chosen ply, followed (where the move
 * changed the board or the turn) by a setup node that restores the real position and the player to
 * move, the way a referee restores a board. The rest of the real game then replays as played, so
 * exactly one flag is expected: at the inserted ply, of the fault's kind. */
#ifndef KIFUCAM_TESTS_GO_FAULTS_H
#define KIFUCAM_TESTS_GO_FAULTS_H

#include <stdbool.h>

#include "record/sgf.h"
#include "ruleguard/guard.h"

enum go_fault {
    FAULT_OCCUPIED,  /* a stone on an occupied point */
    FAULT_SUICIDE,   /* a forbidden single-stone suicide */
    FAULT_KO,        /* the immediate recapture of a ko */
    FAULT_TWO_MOVES, /* the same colour twice */
    FAULT_AFTER_END, /* two passes, then a move */
    FAULT_COUNT
};

const char *go_fault_name(enum go_fault f);

struct go_fault_result {
    struct go_record *record; /* the faulty copy; free with go_record_free */
    int ply;                  /* ply of the faulty move */
    enum guard_kind kind;     /* the flag expected there */
};

/* Inject fault f into a copy of r at a place chosen from seed, using rules to know what is a fault.
 * false when the game has no place for this fault. */
bool go_fault_inject(const struct go_record *r, const struct go_rules *rules, enum go_fault f,
                     unsigned seed, struct go_fault_result *out);

#endif

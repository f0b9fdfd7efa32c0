/* app/check_shogi.c — feed a shogi record's moves to the rule guard and collect its flags. A move
 * the record names but no board allows (no such piece there, not in hand) is flagged and skipped,
 * as the reader did. */
#include <stdio.h>
#include <string.h>

#include "app/check_shogi.h"

void check_shogi_record(const struct shogi_record *r, const struct shogi_rules *rules,
                        check_flag_fn on_flag, void *ctx, struct check_shogi_result *out)
{
    memset(out, 0, sizeof *out);
    struct shogi_guard *guard = shogi_guard_new(&r->start, rules);
    if (!guard) return;
    struct guard_event ev[GUARD_MAX_EVENTS];
    for (int k = 0; k < r->nmoves; k++) {
        const struct shogi_record_move *rm = &r->moves[k];
        out->moves++;
        if (!rm->played) {
            struct guard_event e;
            memset(&e, 0, sizeof e);
            e.kind = GUARD_ILLEGAL_MOVE;
            e.ply = k + 1;
            e.shogi = rm->move;
            e.move.point = GO_NOPOINT;
            e.reason = (int)rm->verdict.rule;
            e.rule_ref = shogi_illegal_name(rm->verdict.rule);
            char usi[6];
            snprintf(e.text, sizeof e.text, "%s cannot be played here: %s",
                     shogi_move_to_usi(rm->move, usi), shogi_fault_text(rm->verdict.fault));
            out->flags++;
            if (on_flag) on_flag(&e, ctx);
            continue;
        }
        int n =
            shogi_guard_move(guard, rm->move, rm->time_ms >= 0 ? rm->time_ms * 1000000 : 0, 0, ev);
        int flagged = 0;
        for (int i = 0; i < n; i++)
            if (guard_is_flag(ev[i].kind)) {
                /* The guard numbers plies by moves played; the record by moves written. */
                ev[i].ply = k + 1;
                out->flags++;
                flagged++;
                if (on_flag) on_flag(&ev[i], ctx);
            }
        /* What the record wrote may break a rule the board's piece does not show (a dragon
         * written as a rook: turned back). The reader's verdict then speaks. */
        if (!flagged && rm->verdict.rule != SHOGI_LEGAL) {
            struct guard_event e;
            memset(&e, 0, sizeof e);
            e.kind = rm->verdict.rule == SHOGI_ILLEGAL_OUT_OF_TURN ? GUARD_TWO_MOVES
                                                                   : GUARD_ILLEGAL_MOVE;
            e.ply = k + 1;
            e.shogi = rm->move;
            e.move.point = GO_NOPOINT;
            e.reason = (int)rm->verdict.rule;
            e.rule_ref = shogi_illegal_name(rm->verdict.rule);
            char usi[6];
            snprintf(e.text, sizeof e.text, "%s as written: %s", shogi_move_to_usi(rm->move, usi),
                     shogi_fault_text(rm->verdict.fault));
            out->flags++;
            if (on_flag) on_flag(&e, ctx);
        }
    }
    shogi_guard_free(guard);
}

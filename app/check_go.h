/* app/check_go.h — replay one Go record through the rule guard (wiring for `kifucam check`). */
#ifndef KIFUCAM_APP_CHECK_GO_H
#define KIFUCAM_APP_CHECK_GO_H

#include <stdbool.h>

#include "record/sgf.h"
#include "ruleguard/guard.h"

struct check_go_result {
    const char *rules_name; /* the preset the record was replayed under */
    bool rules_from_record; /* RU[] named a known preset */
    int moves, flags;
    bool ended_by_passes;
    bool counted;       /* RE[] is a counted result (B+x, W+x, 0) */
    bool scored;        /* ended by passes and counted: our score was computed */
    bool winner_agrees; /* our winner equals RE[]'s */
    bool margin_agrees; /* ... and the margin too (when RE gives one) */
    char our_result[16];
};

/* Called for every flag, in order. */
typedef void (*check_flag_fn)(const struct guard_event *e, void *ctx);

/* forced_rules: a preset from --rules, or NULL to follow RU[]. */
void check_go_record(const struct go_record *r, const struct go_rules *forced_rules,
                     check_flag_fn on_flag, void *ctx, struct check_go_result *out);

#endif

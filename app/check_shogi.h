/* app/check_shogi.h — replay one shogi record through the rule guard (wiring for `kifucam check`).
 */
#ifndef KIFUCAM_APP_CHECK_SHOGI_H
#define KIFUCAM_APP_CHECK_SHOGI_H

#include "app/check_go.h"
#include "record/shogi_record.h"

struct check_shogi_result {
    int moves, flags;
};

void check_shogi_record(const struct shogi_record *r, const struct shogi_rules *rules,
                        check_flag_fn on_flag, void *ctx, struct check_shogi_result *out);

#endif

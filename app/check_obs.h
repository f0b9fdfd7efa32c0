/* app/check_obs.h — replay an observation stream (ruleguard/obs_text.h, suffix ".obs") through
 * the observation rule guard for `kifucam check`: signals and referee commands in the stream are
 * applied as they come, the stream's end flushes the guard. */
#ifndef KIFUCAM_APP_CHECK_OBS_H
#define KIFUCAM_APP_CHECK_OBS_H

#include <stddef.h>

#include "app/check_go.h"
#include "ruleguard/obs_text.h"

struct check_obs_result {
    int observations, moves, flags;
    bool readable;
    char error[200]; /* "LINE: message" when not readable */
};

/* text: the whole stream (NUL-terminated). forced_rules: --rules, or NULL for the stream's
 * `rules` line (else Japanese 1989). on_flag gets every flag; on_event (may be NULL) every event.
 */
void check_obs_stream(const char *text, const struct go_rules *forced_rules, check_flag_fn on_flag,
                      check_flag_fn on_event, void *ctx, struct check_obs_result *out);

#endif

/* tests/vision/settle_knobs.c — the settler's knobs of the filmed tests (settle_knobs.h). */
#include "tests/vision/settle_knobs.h"

#include <stdlib.h>

void film_settle_knobs(struct settle_params *sp)
{
    const char *repeat = getenv("KIFUCAM_SETTLE_REPEAT"), *still = getenv("KIFUCAM_SETTLE_STILL");
    if (repeat) sp->repeat_s = atof(repeat);
    if (still) sp->still_occlusion_s = atof(still);
}

/* tests/app/manifest.h — the corpora's manifest.csv rows (file, SZ, HA, KM, RU, RE, result_class,
 * moves, passes, trailing_passes, events, tt_area_B, tt_area_W). */
#ifndef KIFUCAM_TESTS_MANIFEST_H
#define KIFUCAM_TESTS_MANIFEST_H

struct manifest_row {
    char file[512], ru[64], re[128], result_class[16], events[256];
    int moves, passes;
};

/* Read a manifest; returns the number of rows (malloc'd in *rows), -1 if it cannot be read. */
int manifest_read(const char *path, struct manifest_row **rows);
/* The count of event `name` in a row's events ("same_colour_twice=2;occupied=1"), 0 if absent. */
int manifest_event(const struct manifest_row *r, const char *name);

#endif

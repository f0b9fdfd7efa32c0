/* tests/live/live_testutil.h — scratch directories and small helpers for the live-feed tests. */
#ifndef KIFUCAM_TESTS_LIVE_TESTUTIL_H
#define KIFUCAM_TESTS_LIVE_TESTUTIL_H

#include <stddef.h>

/* A fresh directory under $TMPDIR (or /tmp); removed with everything in it by lt_rmtree. */
char *lt_mkdtemp(const char *tag);
void lt_rmtree(const char *dir);
/* dir + "/" + name in a malloc'd string. */
char *lt_join(const char *dir, const char *name);
/* Write bytes to a file (plain write, for setting up damaged journals). */
void lt_write_file(const char *path, const void *data, size_t len);
/* Monotonic milliseconds. */
long long lt_now_ms(void);

#endif

/* tests/testutil.h — shared helpers for the tests: where the data is, reading files, walking trees.
 */
#ifndef KIFUCAM_TESTS_TESTUTIL_H
#define KIFUCAM_TESTS_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>

/* tests/fixtures (always present) and ../shared/data (present in CI, may be absent). The shared
 * path is NULL when the folder does not exist; tests then say so in their output. */
const char *tu_fixtures_dir(void);
const char *tu_shared_data_dir(void);

/* Join a directory and a relative path into a static buffer (valid until the next call). */
const char *tu_path(const char *dir, const char *rel);

/* Read a whole file; returns malloc'd bytes (NUL-terminated) and sets *len, or NULL. */
char *tu_read_file(const char *path, size_t *len);

/* Call fn for every regular file under dir whose name ends with one of the suffixes
 * (case-insensitive, e.g. ".sgf"), in sorted order. Returns the number of files visited, or -1 if
 * dir cannot be opened. */
int tu_walk(const char *dir, const char *const *suffixes, void (*fn)(const char *path, void *ctx),
            void *ctx);

/* Print a line into the TAP output as a comment ("# ..."), for figures and "which corpus ran". */
void tu_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A test whose data is absent says so with tu_note and ends here. (cmocka 1.1.5's skip() prints
 * "not ok N # SKIP", which meson's TAP reader counts as a failure.) */
#define TU_SKIP() return

/* CI's second stage builds with AddressSanitizer: it looks for memory errors, not figures, so the
 * tests that film or replay whole corpora take a lighter share there: TU_ASAN_LIGHT(full, light).
 */
#if defined(__SANITIZE_ADDRESS__)
#define TU_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TU_UNDER_ASAN 1
#endif
#endif
#ifndef TU_UNDER_ASAN
#define TU_UNDER_ASAN 0
#endif
#define TU_ASAN_LIGHT(full, light) (TU_UNDER_ASAN ? (light) : (full))

#endif

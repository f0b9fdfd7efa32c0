/* record/atomic_file.h — replace a file whole, so a reader (or a power cut) sees the old content or
 * the new, never a mix: write a temporary file in the same directory, fsync it, rename it over the
 * target, fsync the directory (rename is atomic, but only durable once the directory is synced). */
#ifndef KIFUCAM_RECORD_ATOMIC_FILE_H
#define KIFUCAM_RECORD_ATOMIC_FILE_H

#include <stddef.h>

/* Returns 0, or -1 with errno set and msg filled ("PATH: write failed: No space left on device");
 * on failure the target is untouched and the temporary file removed. msg may be NULL. The new
 * file gets mode 0644. */
int atomic_write_file(const char *path, const void *data, size_t len, char *msg, size_t msglen);

/* fsync the directory holding path (after creating or renaming a file in it). */
int fsync_parent_dir(const char *path);

#endif

/* tests/record/test_sgf_util.h — helpers shared by the SGF tests. */
#ifndef KIFUCAM_TESTS_RECORD_TEST_SGF_UTIL_H
#define KIFUCAM_TESTS_RECORD_TEST_SGF_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "record/sgf.h"

/* Nodes of the main line that carry a move (passes included). */
int sgf_test_count_moves(const struct go_record *r);

/* Compare two records field by field, except what writing changes on purpose: application (the
 * writer says AP[kifucam]), charset (always UTF-8 once written), komi_raw (written normalised)
 * and warnings. On a difference returns false and says which field in why. */
bool sgf_test_records_equal(const struct go_record *a, const struct go_record *b, char *why,
                            size_t why_size);

/* Write r, read the text back, and compare. */
bool sgf_test_roundtrip(const struct go_record *r, char *why, size_t why_size);

/* Parse text and convert its first game (NULL on failure; err may be NULL). */
struct go_record *sgf_test_read(const char *text, struct sgf_error *err);

#endif

/* tests/render/render_fixture.h — the Go game of a fixture file the render tests film. */
#ifndef KIFUCAM_TESTS_RENDER_FIXTURE_H
#define KIFUCAM_TESTS_RENDER_FIXTURE_H

#include "record/sgf.h"

/* The first game of tests/fixtures/REL (the caller frees it); fails the test when unreadable. */
struct go_record *rf_load_go(const char *rel);

#endif

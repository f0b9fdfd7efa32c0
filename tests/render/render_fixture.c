/* tests/render/render_fixture.c — see render_fixture.h. */
#include "tests/render/render_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>

#include "tests/testutil.h"

struct go_record *rf_load_go(const char *rel)
{
    struct go_record **games = NULL;
    struct sgf_error err = {0};
    const char *path = tu_path(tu_fixtures_dir(), rel);
    int n = sgf_read_file(path, &games, &err);
    if (n < 1) fail_msg("%s: %s", path, err.message);
    for (int i = 1; i < n; i++) go_record_free(games[i]);
    struct go_record *r = games[0];
    free(games);
    return r;
}

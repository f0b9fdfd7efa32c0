/* tests/daemon/test_daemon_shogi.c — the daemon records shogi: a real game (the fixture 竜王戦
 * KIF) rendered as camera frames with hands bringing every piece, replayed through
 * `kifucam record --game shogi`; game.kif and game.csa on disk must hold the game's moves and
 * read back with the project's own readers; a restart on the same folder, the camera showing the
 * board as it is, resumes the game from the journal's position without doubling it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/daemon.h"
#include "tests/daemon/daemon_testutil.h"
#include "tests/daemon/shogi_testutil.h"
#include "tests/testutil.h"

#define MOVES 10

static void test_records_shogi(void **state)
{
    (void)state;
    struct shogi_record *rec = st_load_game("ryuou201409020101.kif");
    char frames[1024], out[1024], kif[1100], csa[1100];
    dt_make_tmp(frames, sizeof frames, "shogi-frames");
    dt_make_tmp(out, sizeof out, "shogi-out");
    st_render_game(rec, MOVES, frames);
    struct kc_config c;
    st_config(&c, frames, out);
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    free(r.move);
    tu_note("shogi daemon: %d moves, %d flags, %llu frames at %.1f fps", r.moves, r.flags,
            (unsigned long long)r.frames, r.fps);
    snprintf(kif, sizeof kif, "%s/game.kif", out);
    snprintf(csa, sizeof csa, "%s/game.csa", out);
    int nk, nc;
    int same_kif = st_record_matching(kif, rec, &nk), same_csa = st_record_matching(csa, rec, &nc);
    tu_note("game.kif: %d moves, %d as the record; game.csa: %d, %d", nk, same_kif, nc, same_csa);
    assert_int_equal(r.moves, MOVES);
    assert_int_equal(r.flags, 0);
    assert_int_equal(same_kif, MOVES);
    assert_int_equal(nk, MOVES);
    assert_int_equal(same_csa, MOVES);
    assert_int_equal(nc, MOVES);

    /* restarted on the same folder while the camera shows the board as it is now (the last
     * second of the footage): the journal's game goes on from its position, nothing doubles */
    char tail[1024];
    dt_make_tmp(tail, sizeof tail, "shogi-tail");
    mkdir(tail, 0755);
    int nframes = st_frame_count(frames);
    for (int i = nframes - 30; i < nframes; i++) {
        char from[1200], to[1200];
        snprintf(from, sizeof from, "%s/frame_%06d.jpg", frames, i);
        snprintf(to, sizeof to, "%s/frame_%06d.jpg", tail, i);
        if (symlink(from, to)) fail_msg("%s: %s", to, strerror(errno));
    }
    snprintf(c.source, sizeof c.source, "dir:%.500s", tail);
    struct daemon_result r2;
    assert_int_equal(daemon_run(&c, NULL, &r2), 0);
    free(r2.move);
    tu_note("restart: resumed %d moves, %d at the end, %d flags", r2.resumed_moves, r2.moves,
            r2.flags);
    assert_int_equal(r2.resumed_moves, MOVES);
    assert_int_equal(st_record_matching(kif, rec, &nk), MOVES);
    assert_int_equal(nk, MOVES);
    shogi_record_free(rec);
}

/* A handicap game (八枚落ち: 上手, gote, moves first from a position the reader has to find as it
 * is): `start = 八枚落ち` records it whole, the KIF says 手合割, the journal keeps the start, and
 * a restart on that folder that asks for an even game is refused, not mixed into it. */
static void test_handicap(void **state)
{
    (void)state;
    struct shogi_record *rec = st_load_game("8mai.kif");
    assert_int_equal(rec->handicap, SHOGI_HC_8);
    char frames[1024], out[1024], kif[1100], csa[1100];
    dt_make_tmp(frames, sizeof frames, "handicap-frames");
    dt_make_tmp(out, sizeof out, "handicap-out");
    st_render_game(rec, MOVES, frames);
    struct kc_config c;
    st_config(&c, frames, out);
    char err[256];
    assert_int_equal(kc_config_set(&c, "game", "start", "八枚落ち", err, sizeof err), 0);
    struct daemon_result r;
    assert_int_equal(daemon_run(&c, NULL, &r), 0);
    free(r.move);
    snprintf(kif, sizeof kif, "%s/game.kif", out);
    snprintf(csa, sizeof csa, "%s/game.csa", out);
    int nk, nc;
    int same_kif = st_record_matching(kif, rec, &nk), same_csa = st_record_matching(csa, rec, &nc);
    tu_note("eight-piece handicap: %d moves, %d flags; game.kif %d moves (%d the record's), "
            "game.csa %d (%d)",
            r.moves, r.flags, nk, same_kif, nc, same_csa);
    assert_int_equal(r.moves, MOVES);
    assert_int_equal(r.flags, 0);
    assert_int_equal(same_kif, MOVES);
    assert_int_equal(nk, MOVES);
    assert_int_equal(same_csa, MOVES);
    assert_int_equal(nc, MOVES);
    size_t len;
    char *text = tu_read_file(kif, &len);
    assert_non_null(text);
    bool says_handicap = strstr(text, "手合割：八枚落ち") != NULL;
    free(text);
    assert_true(says_handicap);

    /* the same folder, an even game asked for: another game, refused with a message */
    assert_int_equal(kc_config_set(&c, "game", "start", "", err, sizeof err), 0);
    assert_int_equal(daemon_run(&c, NULL, &r), 1);
    assert_int_equal(st_record_matching(kif, rec, &nk), MOVES);
    assert_int_equal(nk, MOVES);
    shogi_record_free(rec);
}

/* A start that names no position is a clear configuration error. */
static void test_bad_start(void **state)
{
    (void)state;
    struct kc_config c;
    kc_config_default(&c);
    char err[256] = "";
    assert_int_equal(kc_config_set(&c, "game", "start", "nine-piece", err, sizeof err), -1);
    tu_note("start = nine-piece: %s", err);
    assert_non_null(strstr(err, "nine-piece"));
    assert_int_equal(kc_config_set(&c, "game", "start", "lance", err, sizeof err), 0);
    assert_int_equal(kc_config_set(&c, "game", "start", SHOGI_SFEN_STARTPOS, err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_records_shogi),
                                       cmocka_unit_test(test_handicap),
                                       cmocka_unit_test(test_bad_start)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    dt_cleanup();
    return rc;
}

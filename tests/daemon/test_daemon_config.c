/* tests/daemon/test_daemon_config.c — the configuration file (the documented example must load
 * and give the defaults), its errors, and the sd_notify datagram. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "app/config.h"
#include "app/daemon.h"
#include "tests/testutil.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_example_is_defaults(void **state)
{
    (void)state;
    struct kc_config def, c;
    kc_config_default(&def);
    kc_config_default(&c);
    char err[512];
    int rc =
        kc_config_load(&c, KIFUCAM_CLIP_DIR "/../../../docs/kifucam.conf.example", err, sizeof err);
    if (rc) fail_msg("%s", err);
    assert_memory_equal(&c, &def, sizeof c);
}

static void test_values_and_errors(void **state)
{
    (void)state;
    char path[] = "/tmp/kifucam-conf-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    struct kc_config c;
    char err[512];
    write_file(path, "[game]\ngame = go9\nkomi = 7\nblack = Honinbo Shusaku\n[camera]\n"
                     "source = dir:/x\nrotate = 180\nrepeat_s = 0\nstill_cover_s = "
                     "4\n[network]\nserve = :8080\n");
    kc_config_default(&c);
    assert_int_equal(kc_config_load(&c, path, err, sizeof err), 0);
    assert_int_equal(c.board_size, 9);
    assert_true(c.komi == 7.0);
    assert_string_equal(c.black, "Honinbo Shusaku");
    assert_string_equal(c.source, "dir:/x");
    assert_int_equal(c.rotate, 180);
    assert_true(c.repeat_s == 0); /* the settler's repeat off */
    assert_true(c.still_cover_s == 4.0);
    assert_string_equal(c.serve, ":8080");

    write_file(path, "[game]\nkomi = 6.5\n\n[camera]\nfocus = near\n");
    kc_config_default(&c);
    assert_int_equal(kc_config_load(&c, path, err, sizeof err), -1);
    assert_non_null(strstr(err, ":5: unknown key 'focus'"));

    write_file(path, "[camera]\nrotate = 45\n");
    assert_int_equal(kc_config_load(&c, path, err, sizeof err), -1);
    assert_non_null(strstr(err, ":2: bad value '45'"));

    write_file(path, "[game]\ngame = chess\n");
    assert_int_equal(kc_config_load(&c, path, err, sizeof err), -1);

    assert_int_equal(kc_config_load(&c, "/nonexistent/kifucam.conf", err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent/kifucam.conf"));
    unlink(path);
}

static void test_sd_notify(void **state)
{
    (void)state;
    unsetenv("NOTIFY_SOCKET");
    assert_int_equal(kc_sd_notify("READY=1"), 0);
    char path[108];
    snprintf(path, sizeof path, "/tmp/kifucam-notify-%d", (int)getpid());
    unlink(path);
    int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    assert_true(s >= 0);
    struct sockaddr_un sa = {0};
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    assert_int_equal(bind(s, (struct sockaddr *)&sa, sizeof sa), 0);
    setenv("NOTIFY_SOCKET", path, 1);
    assert_int_equal(kc_sd_notify("READY=1\nSTATUS=recording"), 1);
    char buf[64] = {0};
    assert_int_equal(recv(s, buf, sizeof buf - 1, 0), 24);
    assert_string_equal(buf, "READY=1\nSTATUS=recording");
    setenv("WATCHDOG_USEC", "30000000", 1);
    unsetenv("WATCHDOG_PID");
    assert_int_equal(kc_sd_watchdog_usec(), 30000000);
    unsetenv("NOTIFY_SOCKET");
    unsetenv("WATCHDOG_USEC");
    close(s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example_is_defaults),
        cmocka_unit_test(test_values_and_errors),
        cmocka_unit_test(test_sd_notify),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

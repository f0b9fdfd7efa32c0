/* app/daemon.h — the recording daemon: capture -> vision -> settle -> rule guard -> journal,
 * records, live page, MQTT. Wiring only; the stages do the work. */
#ifndef KIFUCAM_APP_DAEMON_H
#define KIFUCAM_APP_DAEMON_H

#include <stdbool.h>
#include <stdint.h>

#include "app/config.h"
#include "board/go.h"

/* ---- logging (app/log.c): levels to stderr ---- */
enum kc_log_level { KC_LOG_ERROR, KC_LOG_WARN, KC_LOG_INFO, KC_LOG_DEBUG };
void kc_log_set_level(int level);
void kc_log(enum kc_log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- systemd notification (app/sd_notify.c): a datagram to $NOTIFY_SOCKET, nothing when the
 * variable is unset. Returns 1 sent, 0 not under systemd, -1 on error. */
int kc_sd_notify(const char *state);
/* The watchdog interval in microseconds from $WATCHDOG_USEC (0 when none). */
uint64_t kc_sd_watchdog_usec(void);

/* ---- the daemon ---- */
struct daemon_result {
    int moves;            /* moves and passes in the record at the end */
    struct go_move *move; /* malloc'd list of them (the caller frees) */
    int flags;
    uint64_t frames, frames_dropped, source_errors;
    int resumed_moves; /* moves read back from the journal at start */
    double seconds, fps;
    double stage_ms[4]; /* capture, vision, settle+guard, record: totals */
    int reconnects;
    uint64_t disk_errors; /* journal writes refused (a full disk), retried until they succeed */
    int unwritten;        /* events never written (named in the log); 0 when all are on disk */
    bool interrupted;     /* stopped by a signal */
    int out_of_view_max;  /* most points (cells) of a stable view out of the picture */
    int washed_out_max;   /* most points of a stable view washed out by glare (Go) */
    /* shogi with the komadai read: settled views on which sente's [0] and gote's [1] stand could
       not be read because it lies out of the picture (or no stand was found beside the board),
       and whether the operator was warned (a run of STAND_UNSEEN_VIEWS such views) */
    int stand_unseen_views[2];
    bool stand_unseen_warned[2];
    char sgf_path[2048], journal_path[2048];
    int live_port;
};

/* Run until the source ends or SIGINT/SIGTERM. 0 when the record was finished cleanly, 1 on a
 * startup failure (message logged). */
int daemon_run(const struct kc_config *cfg, const char *config_path, struct daemon_result *res);

/* ---- command-line pieces shared by `record` and `demo` (app/cmd_record.c) ---- */
/* Returns 1 when argv[*i] (and its value) was taken, -1 on a bad value, 0 when unknown. */
int record_common_option(struct kc_config *c, int argc, char **argv, int *i);
/* The value of --config, or NULL. */
const char *record_config_path(int argc, char **argv);
/* Frames, drops, fps and per-stage time on stdout. */
void record_print_figures(const struct daemon_result *r);

#endif

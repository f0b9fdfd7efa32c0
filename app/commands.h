/* app/commands.h — the kifucam subcommands. Each takes the arguments after its name and returns
 * the process exit status. */
#ifndef KIFUCAM_APP_COMMANDS_H
#define KIFUCAM_APP_COMMANDS_H

int cmd_check(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_read(int argc, char **argv);
/* `read --game shogi`: photos of one game in order, the first the initial position. */
#include <stdbool.h>
int cmd_read_shogi(int nimg, const char *const *imgs, bool json, const char *start);
int cmd_record(int argc, char **argv);
int cmd_demo(int argc, char **argv);

#endif

/* app/commands.h — the kifucam subcommands. Each takes the arguments after its name and returns
 * the process exit status. */
#ifndef KIFUCAM_APP_COMMANDS_H
#define KIFUCAM_APP_COMMANDS_H

int cmd_check(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_demo(int argc, char **argv);

#endif

/*
 * commands.h — the subcommands of the tengen program, one entry point each.
 */
#ifndef TG_COMMANDS_H
#define TG_COMMANDS_H

#include "cli.h"

int cmd_forbidden(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_brain(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_ladder(int argc, char **argv);
int cmd_play_game(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_opening(int argc, char **argv);
int cmd_zero(int argc, char **argv);
int cmd_datagen(int argc, char **argv);
int cmd_tune(int argc, char **argv);

extern const char USAGE_FORBIDDEN[], USAGE_SHOW[], USAGE_CONVERT[], USAGE_BENCH[];
extern const char USAGE_SOLVE[];
extern const char USAGE_BRAIN[];
extern const char USAGE_ANALYZE[], USAGE_SELFPLAY[], USAGE_LADDER[];
extern const char USAGE_PLAY[];
extern const char USAGE_SERVE[];
extern const char USAGE_OPENING[];
extern const char USAGE_ZERO[];
extern const char USAGE_DATAGEN[];
extern const char USAGE_TUNE[];

#endif

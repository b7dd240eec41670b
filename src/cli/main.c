/*
 * main.c — the tengen program: one binary, one subcommand per task.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"

#ifndef TG_BUILD_VERSION
#define TG_BUILD_VERSION "unknown"
#endif

static int cmd_version(int argc, char **argv) {
    (void)argc;
    (void)argv;
    printf("tengen %s (%s)\n", TG_VERSION, TG_BUILD_VERSION);
    return 0;
}

static const char USAGE_VERSION[] = "usage: tengen version\n\nPrints the version.\n";

static const CliCommand COMMANDS[] = {
    {"show", "draw a position and state the result", USAGE_SHOW, cmd_show},
    {"forbidden", "list Black's forbidden points (renju)", USAGE_FORBIDDEN, cmd_forbidden},
    {"convert", "convert a record between PSQ, SGF, .pos and move lists", USAGE_CONVERT,
     cmd_convert},
    {"bench",
     "benchmark the search: fixed positions, a deterministic node count (--moves: make/undo)",
     USAGE_BENCH, cmd_bench},
    {"solve", "find a forced win by fours (VCF) or threats (VCT)", USAGE_SOLVE, cmd_solve},
    {"analyze", "search a position and show the engine's lines", USAGE_ANALYZE, cmd_analyze},
    {"selfplay", "play a match between two engine levels", USAGE_SELFPLAY, cmd_selfplay},
    {"ladder", "rate every level on one Elo scale by matches", USAGE_LADDER, cmd_ladder},
    {"opening", "opening rules: the engine's decisions, balanced openings", USAGE_OPENING,
     cmd_opening},
    {"zero", "self-play training records, models and speed of the zero level", USAGE_ZERO,
     cmd_zero},
    {"datagen", "self-play training data (scored positions) for the evaluation tuner",
     USAGE_DATAGEN, cmd_datagen},
    {"tune", "learns the evaluation's weight table from training data", USAGE_TUNE, cmd_tune},
    {"play", "play a game in the terminal (ncurses, or --plain lines)", USAGE_PLAY, cmd_play_game},
    {"serve", "play in the browser: the web game and its JSON API", USAGE_SERVE, cmd_serve},
    {"brain", "run the Gomocup brain on stdin/stdout", USAGE_BRAIN, cmd_brain},
    {"version", "print the version", USAGE_VERSION, cmd_version},
};
enum { COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0] };

static void print_usage(FILE *f) {
    fprintf(f, "usage: tengen <command> [options]\n\n"
               "tengen is a Gomoku/Renju engine and game. Commands:\n");
    for (int i = 0; i < COMMAND_COUNT; i++)
        fprintf(f, "  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(f, "\n`tengen <command> --help` tells more. Points are written h8-style: the letter\n"
               "is the column from the left, the number the row from the bottom.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) return cmd_version(0, NULL);
    for (int i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(argv[1], COMMANDS[i].name) != 0) continue;
        if (cli_wants_help(argc - 1, argv + 1)) {
            fputs(COMMANDS[i].usage, stdout);
            return 0;
        }
        return COMMANDS[i].run(argc - 1, argv + 1);
    }
    cli_error("unknown command '%s'", argv[1]);
    print_usage(stderr);
    return 2;
}

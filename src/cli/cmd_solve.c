/*
 * cmd_solve.c — `tengen solve`: is there a forced win by fours (VCF) or threats (VCT) for the
 * side to move?
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"

const char USAGE_SOLVE[] =
    "usage: tengen solve [--rule R] [--size N|WxH] [--moves \"h8 i9 ...\" | --file RECORD]\n"
    "                    [--vct] [--shortest] [--time MS] [--nodes N] [--depth N] [--stats]\n"
    "\n"
    "Looks for a forced win of the side to move: by continuous fours (VCF), or with --vct by\n"
    "fours and open threes. The moves are placed as a diagram (`--` is a pass). Prints\n"
    "`win` and the attacker's moves ending with the five (defender replies left out; for VCT\n"
    "one line of the tree), `none` when there is provably no such win, or `unknown` when a\n"
    "limit ran out first. --time and --nodes limit the search, --depth the attacker moves\n"
    "(for VCT the open threes; fours are free). VCT deepens on threes until a limit stops it.\n"
    "--shortest finds a shortest line (deepening one move at a time; slower).\n"
    "--stats adds nodes and milliseconds on stderr. Renju: Black never plays a foul.\n";

/// Reads the solver's own options; 1 if consumed, 0 if not ours, -1 on a bad value.
static int solve_option(int argc, char **argv, int *i, TgSolveLimits *limits, bool *stats) {
    const char *v;
    long n;
    if (cli_flag(argv, *i, "--vct")) return limits->vct = true, 1;
    if (cli_flag(argv, *i, "--stats")) return *stats = true, 1;
    if (cli_flag(argv, *i, "--shortest")) return limits->shortest = true, 1;
    if (cli_option(argc, argv, i, "--time", &v)) {
        if (!cli_int("--time", v, 1, 100000000L, &n)) return -1;
        limits->time_ms = n;
        return 1;
    }
    if (cli_option(argc, argv, i, "--nodes", &v)) {
        if (!cli_int("--nodes", v, 1, 1000000000000L, &n)) return -1;
        limits->nodes = (uint64_t)n;
        return 1;
    }
    if (cli_option(argc, argv, i, "--depth", &v)) {
        if (!cli_int("--depth", v, 1, TG_SOLVE_MAX_LINE - 1, &n)) return -1;
        limits->max_depth = (int)n;
        return 1;
    }
    return 0;
}

static void print_result(const TgSolveResult *r, int width, int height) {
    if (r->status != TG_SOLVE_WIN) {
        puts(r->status == TG_SOLVE_NONE ? "none" : "unknown");
        return;
    }
    printf("win");
    for (int i = 0; i < r->length; i++) {
        char pt[8];
        tg_point_to_text(r->line[i], width, height, pt, sizeof pt);
        printf(" %s", pt);
    }
    printf("\n");
}

int cmd_solve(int argc, char **argv) {
    PositionOptions o;
    TgSolveLimits limits = {0};
    bool stats = false;
    position_defaults(&o);
    for (int i = 1; i < argc; i++) {
        int used = position_option(argc, argv, &i, &o);
        if (!used) used = solve_option(argc, argv, &i, &limits, &stats);
        if (used < 0) return 2;
        if (!used) return cli_error("solve: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    TgGame *g = position_game(&o, true);
    if (!g) return 1;
    TgSolveResult *r = malloc(sizeof *r);
    TgError e = r ? tg_solve(g, &limits, r) : TG_ERR_MEMORY;
    if (e == TG_OK) {
        print_result(r, tg_game_width(g), tg_game_height(g));
        if (stats) fprintf(stderr, "nodes %" PRIu64 " time %" PRId64 " ms\n", r->nodes, r->time_ms);
    }
    free(r);
    tg_game_free(g);
    return e == TG_OK ? 0 : cli_error("solve: %s", tg_error_text(e));
}

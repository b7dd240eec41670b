/*
 * cmd_position.c — `tengen forbidden` and `tengen show`: rule questions about one position.
 */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"

const char USAGE_FORBIDDEN[] =
    "usage: tengen forbidden [--size N] [--moves \"h8 i9 ...\" | --file RECORD] [--kinds]\n"
    "\n"
    "Prints the points forbidden for Black (renju) in the position, on one line, sorted\n"
    "left to right and then bottom to top; an empty line when there are none. The moves\n"
    "are placed as a diagram (`--` is a pass), so any position can be asked about.\n"
    "With --kinds each point carries its foul: :6 overline, :44 double-four, :33 double-three.\n"
    "The answer is for Black to move; after an odd number of moves append `--`.\n";

const char USAGE_SHOW[] =
    "usage: tengen show [--rule R] [--size N|WxH] [--moves \"h8 i9 ...\" | --file RECORD]\n"
    "\n"
    "Plays the moves by the rule (freestyle, standard, renju, caro8, caro9; default\n"
    "freestyle), draws the board (X Black, O White, last move in parentheses, ! Black's\n"
    "forbidden points in renju) and states whose move it is or the result.\n";

int cmd_forbidden(int argc, char **argv) {
    PositionOptions o;
    bool kinds = false;
    position_defaults(&o);
    o.rule = TG_RENJU;
    for (int i = 1; i < argc; i++) {
        int used = position_option(argc, argv, &i, &o);
        if (used < 0) return 2;
        if (used) continue;
        if (cli_flag(argv, i, "--kinds"))
            kinds = true;
        else
            return cli_error("forbidden: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    o.rule = TG_RENJU;
    TgGame *g = position_game(&o, true);
    if (!g) return 1;
    TgForbidden points[TG_MAX_SIZE * TG_MAX_SIZE];
    int n = tg_game_forbidden(g, points, TG_MAX_SIZE * TG_MAX_SIZE);
    for (int i = 0; i < n; i++) {
        char pt[8];
        tg_point_to_text(points[i].point, o.width, o.height, pt, sizeof pt);
        printf("%s%s%s%s", i ? " " : "", pt, kinds ? ":" : "",
               kinds ? tg_foul_code(points[i].foul) : "");
    }
    printf("\n");
    tg_game_free(g);
    return 0;
}

static void print_result(const TgGame *g) {
    TgResult r = tg_game_result(g);
    char a[8], b[8];
    int w = tg_game_width(g), h = tg_game_height(g);
    switch (r.reason) {
    case TG_REASON_NONE:
        printf("%s to move (move %d)\n", tg_color_name(tg_game_to_move(g)), tg_game_ply(g) + 1);
        break;
    case TG_REASON_FIVE:
        tg_point_to_text(r.line.from, w, h, a, sizeof a);
        tg_point_to_text(r.line.to, w, h, b, sizeof b);
        printf("%s wins: five from %s to %s\n", tg_color_name(r.winner), a, b);
        break;
    case TG_REASON_FOUL:
        tg_point_to_text(r.foul_point, w, h, a, sizeof a);
        printf("white wins: black played a forbidden %s at %s (%s)\n", cli_foul_name(r.foul), a,
               tg_foul_code(r.foul));
        break;
    default:
        if (r.winner == TG_NOBODY)
            printf("draw (%s)\n", tg_reason_name(r.reason));
        else
            printf("%s wins (%s)\n", tg_color_name(r.winner), tg_reason_name(r.reason));
    }
}

int cmd_show(int argc, char **argv) {
    PositionOptions o;
    position_defaults(&o);
    for (int i = 1; i < argc; i++) {
        int used = position_option(argc, argv, &i, &o);
        if (used < 0) return 2;
        if (!used) return cli_error("show: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    TgGame *g = position_game(&o, false);
    if (!g) return 1;
    char *text = tg_game_render(g, true);
    printf("%s rule, %dx%d\n%s", tg_rule_name(tg_game_rule(g)), tg_game_width(g), tg_game_height(g),
           text ? text : "");
    print_result(g);
    free(text);
    tg_game_free(g);
    return 0;
}

/*
 * main.c — `tengen play`: reads the options, builds the session and hands it to the
 * ncurses view, or to the line-based view with --plain or when stdin/stdout is no terminal.
 */
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../cli/commands.h"
#include "play.h"

const char USAGE_PLAY[] =
    "usage: tengen play [--rule R] [--size N|WxH] [--black WHO] [--white WHO] [--time MS]\n"
    "                   [--clock S[+I]] [--hint-time MS] [--threads T] [--seed S]\n"
    "                   [--lang en|zh] [--moves LIST] [--load FILE] [--plain] [--ascii] [--mono]\n"
    "                   [--opening RULE] [--renju-opening CODE|NAME|random] [--balanced]\n"
    "                   [--model FILE]\n"
    "       tengen play --list-openings\n"
    "\n"
    "Plays Gomoku or Renju in the terminal. WHO is `human` or a computer level: beginner, easy,\n"
    "medium, hard, max, mcts (Monte Carlo tree search) or zero (a network taught by self-play;\n"
    "built in for 8x8 freestyle) (default: Black human, White hard); human against human, against "
    "the\n"
    "computer with either colour, or computer against computer to watch. Rules: freestyle\n"
    "(default), standard, renju, caro8, caro9; sizes 5 to 22 (default 15).\n"
    "\n"
    "  --time MS       the computer's time a move (max level: 3000 unless given)\n"
    "  --clock S[+I]   a clock per side: S seconds for the game, I added after each move;\n"
    "                  the side whose time runs out loses\n"
    "  --hint-time MS  how long a hint searches (1000)\n"
    "  --model FILE    the zero level's network: a model file (tengen zero, docs/zero.md) for\n"
    "                  the game's rule and size instead of the built-in one\n"
    "  --moves LIST    start from this position (h8i9j10 or \"h8 i9 j10\")\n"
    "  --load FILE     open a record (.psq .sgf .txt .pos) and replay it; under its opening\n"
    "                  line --black/--white name players 1 and 2, and a phase saved unfinished\n"
    "                  goes on at once\n"
    "  --lang en|zh    English or Simplified Chinese (default: from the locale)\n"
    "  --opening RULE  an opening rule: swap1, swap, swap2, rif, yamaguchi, soosorv8,\n"
    "                  taraguchi10 (--black then names player 1, who starts as Black, and\n"
    "                  --white player 2; swaps trade colours, the players stay)\n"
    "  --renju-opening CODE|NAME|random  start from one of the 26 renju openings (2I, Kagetsu,\n"
    "                  花月), or one at random in a random orientation\n"
    "  --balanced      start from three stones the engine judges close to even\n"
    "  --list-openings the 26 renju openings: code, name, Chinese name, stones\n"
    "  --plain         a line-based game for scripts and screen readers (also whenever stdin\n"
    "                  or stdout is not a terminal): moves and commands on stdin, one a line\n"
    "  --ascii, --mono X/O stones instead of the Unicode ones; no colours\n"
    "\n"
    "Keys (? shows them all): arrows or hjkl move, Enter or space places (or a mouse click),\n"
    ": types a point (h8) or a command, u/r undo/redo (against the computer, a pair), t hint,\n"
    "m move now, d offer a draw, R resign, p/. pause/step, n new game, s/o save/load, q quit.\n"
    "Plain commands: a point, pass, undo, redo, hint, now, resign, draw, y/n, pause, step,\n"
    "save FILE, load FILE, first/prev/next/last/goto N/play (replay), new [options], board,\n"
    "moves, help, quit. Openings: choose stay|swap|place-two|offer, take black|white,\n"
    "declare N, offer POINT, select POINT (or just the point); undo takes actions back.\n";

typedef struct PlayOptions {
    PlayConfig cfg;
    PlayViewOptions view;
    bool plain, list;
    const char *moves, *load, *model;
} PlayOptions;

/// The view's own flags and the start position; 1 if consumed, 0 if not one of them.
static int view_option(int argc, char **argv, int *i, PlayOptions *o) {
    if (cli_flag(argv, *i, "--plain")) return o->plain = true, 1;
    if (cli_flag(argv, *i, "--list-openings")) return o->list = true, 1;
    if (cli_flag(argv, *i, "--ascii")) return o->view.ascii = true, 1;
    if (cli_flag(argv, *i, "--mono")) return o->view.mono = true, 1;
    if (cli_option(argc, argv, i, "--moves", &o->moves)) return 1;
    if (cli_option(argc, argv, i, "--load", &o->load)) return 1;
    if (cli_option(argc, argv, i, "--model", &o->model)) return 1;
    return 0;
}

static int parse_options(int argc, char **argv, PlayOptions *o) {
    char err[256];
    for (int i = 1; i < argc; i++) {
        int used = play_config_option(argc, argv, &i, &o->cfg, err, sizeof err);
        if (used < 0) return cli_error("play: %s", err) + 1;
        if (!used) used = view_option(argc, argv, &i, o);
        if (!used) return cli_error("play: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    return 0;
}

/// The curses view needs a UTF-8 locale for the stones and Chinese; when the environment
/// asks for UTF-8 but names a locale that is not installed, C.UTF-8 does as well.
static bool setup_locale(void) {
    setlocale(LC_ALL, "");
    if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0) return true;
    const char *env[] = {getenv("LC_ALL"), getenv("LC_CTYPE"), getenv("LANG")};
    for (int i = 0; i < 3; i++)
        if (env[i] && (strstr(env[i], "UTF-8") || strstr(env[i], "utf8")))
            return setlocale(LC_CTYPE, "C.UTF-8") != NULL;
    return false;
}

/// Builds the session and the start position; NULL after printing why.
static PlaySession *start_session(const PlayOptions *o) {
    char err[256];
    PlaySession *s = play_session_new(&o->cfg, err, sizeof err);
    if (!s) {
        cli_error("play: %s", err);
        return NULL;
    }
    bool ok = true;
    if (o->moves) ok = play_set_moves(s, o->moves);
    if (ok && o->load) ok = play_load(s, o->load);
    if (!ok) {
        cli_error("play: %s", s->status);
        play_session_free(s);
        return NULL;
    }
    return s;
}

int cmd_play_game(int argc, char **argv) {
    const bool utf8 = setup_locale();
    PlayOptions o = {.plain = false};
    play_config_defaults(&o.cfg);
    o.cfg.lang = play_lang_from_env();
    o.cfg.seed = (uint64_t)time(NULL);
    int status = parse_options(argc, argv, &o);
    if (status) return status;
    if (o.list) return play_list_openings(stdout), 0;
    o.plain = o.plain || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO);
    if (!o.plain && !utf8) o.view.ascii = true;
    TgModel *model = o.model ? cli_load_model(o.model) : NULL; /* a bad file: refused now */
    if (o.model && !model) return 1;
    o.cfg.model = model;
    PlaySession *s = start_session(&o);
    if (s) {
        status = o.plain ? play_plain_run(s) : play_curses_run(s, &o.view);
        play_session_free(s);
    }
    tg_model_free(model);
    return s ? status : 1;
}

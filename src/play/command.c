/*
 * command.c — the words of `tengen play`: its game options (read at start and by `new`
 * during a game) and the typed commands both views share: a point such as h8 plays it, and
 * English command words (undo, save FILE, new --rule renju, ...) do the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "play.h"

enum { MAX_WORDS = 32 };

/* ---- Options ---- */

void play_config_defaults(PlayConfig *c) {
    *c = (PlayConfig){
        .rule = TG_FREESTYLE,
        .width = 15,
        .height = 15,
        .side = {[TG_BLACK] = {false, TG_LEVEL_HARD}, [TG_WHITE] = {true, TG_LEVEL_HARD}},
        .hint_ms = 1000,
        .threads = 1,
        .seed = 1,
        .lang = LANG_EN,
        .opening = TG_OPENING_NONE,
        .start = START_EMPTY};
}

static bool parse_long(const char *text, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    const long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/// "human", "computer" (the hard level) or a level name.
static bool parse_side(const char *text, PlaySide *side) {
    if (strcmp(text, "human") == 0) return side->computer = false, true;
    TgLevel level = TG_LEVEL_HARD;
    if (strcmp(text, "computer") != 0 && !tg_level_from_name(text, &level)) return false;
    *side = (PlaySide){true, level};
    return true;
}

/// What --black and --white accept: "human, computer, max, hard, ..." (every level).
static const char *player_names(char *buf, size_t size) {
    int n = snprintf(buf, size, "human, computer");
    for (int l = 0; l < TG_LEVEL_COUNT && n > 0 && (size_t)n < size; l++)
        n += snprintf(buf + n, size - (size_t)n, ", %s", tg_level_name((TgLevel)l));
    return buf;
}

/// Seconds with an optional fraction, as milliseconds.
static bool parse_seconds(const char *text, char **end, int64_t *ms) {
    errno = 0;
    const double v = strtod(text, end);
    if (errno || *end == text || v < 0 || v > 1e7) return false;
    *ms = (int64_t)(v * 1000 + 0.5);
    return true;
}

bool play_parse_clock(const char *text, TgClock *clock) {
    char *end;
    TgClock c = {0};
    if (!parse_seconds(text, &end, &c.game_ms) || c.game_ms <= 0) return false;
    if (*end == '+' && !parse_seconds(end + 1, &end, &c.increment_ms)) return false;
    if (*end) return false;
    *clock = c;
    return true;
}

/// A renju opening by code, romanised or Chinese name, "random", or "none".
static bool parse_start(const char *v, PlayConfig *c) {
    const int index = tg_renju_opening_by_name(v);
    if (index >= 0)
        c->start = index;
    else if (!strcasecmp(v, "random"))
        c->start = START_RANDOM;
    else if (!strcasecmp(v, "none"))
        c->start = START_EMPTY;
    else
        return false;
    c->balanced = false;
    return true;
}

/// One option's value; false if it is bad.
static bool option_value(const char *opt, const char *v, PlayConfig *c) {
    long n;
    if (!strcmp(opt, "--opening")) return tg_opening_rule_from_name(v, &c->opening);
    if (!strcmp(opt, "--renju-opening")) return parse_start(v, c);
    if (!strcmp(opt, "--rule")) return tg_rule_from_name(v, &c->rule);
    if (!strcmp(opt, "--size")) return cli_parse_size(v, &c->width, &c->height);
    if (!strcmp(opt, "--black")) return parse_side(v, &c->side[TG_BLACK]);
    if (!strcmp(opt, "--white")) return parse_side(v, &c->side[TG_WHITE]);
    if (!strcmp(opt, "--clock")) return play_parse_clock(v, &c->clock);
    if (!strcmp(opt, "--lang")) return play_lang_from_name(v, &c->lang);
    if (!strcmp(opt, "--time") && parse_long(v, 1, 100000000L, &n)) return c->move_ms = n, true;
    if (!strcmp(opt, "--hint-time") && parse_long(v, 1, 100000000L, &n))
        return c->hint_ms = n, true;
    if (!strcmp(opt, "--threads") && parse_long(v, 1, TG_MAX_THREADS, &n))
        return c->threads = (int)n, true;
    if (!strcmp(opt, "--seed") && parse_long(v, 0, 2147483647L, &n))
        return c->seed = (uint64_t)n, true;
    return false;
}

int play_config_option(int argc, char **argv, int *i, PlayConfig *c, char *err, size_t size) {
    static const char *const NAMES[] = {"--rule", "--size",    "--black",   "--white",
                                        "--time", "--clock",   "--lang",    "--hint-time",
                                        "--seed", "--threads", "--opening", "--renju-opening"};
    const char *opt = argv[*i];
    if (!strcmp(opt, "--balanced")) return c->balanced = true, 1; /* a flag: no value */
    bool known = false;
    for (size_t k = 0; k < sizeof NAMES / sizeof NAMES[0]; k++) known |= !strcmp(opt, NAMES[k]);
    if (!known) return 0;
    if (*i + 1 >= argc) {
        play_fill(err, size, play_text(c->lang, T_ERR_NEEDS_ARG), opt,
                  play_text(c->lang, T_A_VALUE), (const char *)NULL);
        return -1;
    }
    const char *v = argv[++*i];
    if (option_value(opt, v, c)) return 1;
    if (!strcmp(opt, "--black") || !strcmp(opt, "--white")) {
        char players[96];
        play_fill(err, size, play_text(c->lang, T_ERR_PLAYER_VALUE), opt, v,
                  player_names(players, sizeof players), (const char *)NULL);
        return -1;
    }
    play_fill(err, size, play_text(c->lang, T_ERR_OPTION_VALUE), opt, v, (const char *)NULL);
    return -1;
}

/* ---- Typed commands ---- */

typedef enum CommandId {
    C_UNDO,
    C_REDO,
    C_PASS,
    C_RESIGN,
    C_DRAW,
    C_ACCEPT,
    C_DECLINE,
    C_HINT,
    C_NOW,
    C_PAUSE,
    C_RESUME,
    C_STEP,
    C_SAVE,
    C_LOAD,
    C_FIRST,
    C_PREV,
    C_NEXT,
    C_LAST,
    C_GOTO,
    C_PLAY,
    C_NEW,
    C_BOARD,
    C_MOVES,
    C_HELP,
    C_QUIT,
    C_CHOOSE,
    C_STAY,
    C_SWAP,
    C_PLACE_TWO,
    C_TAKE,
    C_DECLARE,
    C_OFFER,
    C_SELECT,
    C_NONE
} CommandId;

static const struct {
    const char *name;
    CommandId id;
} COMMANDS[] = {
    {"undo", C_UNDO},     {"u", C_UNDO},          {"redo", C_REDO},
    {"r", C_REDO},        {"pass", C_PASS},       {"resign", C_RESIGN},
    {"draw", C_DRAW},     {"accept", C_ACCEPT},   {"y", C_ACCEPT},
    {"yes", C_ACCEPT},    {"decline", C_DECLINE}, {"n", C_DECLINE},
    {"no", C_DECLINE},    {"hint", C_HINT},       {"now", C_NOW},
    {"stop", C_NOW},      {"pause", C_PAUSE},     {"resume", C_RESUME},
    {"step", C_STEP},     {"save", C_SAVE},       {"load", C_LOAD},
    {"open", C_LOAD},     {"first", C_FIRST},     {"prev", C_PREV},
    {"back", C_PREV},     {"next", C_NEXT},       {"last", C_LAST},
    {"goto", C_GOTO},     {"play", C_PLAY},       {"continue", C_PLAY},
    {"new", C_NEW},       {"board", C_BOARD},     {"moves", C_MOVES},
    {"help", C_HELP},     {"?", C_HELP},          {"quit", C_QUIT},
    {"exit", C_QUIT},     {"q", C_QUIT},          {"choose", C_CHOOSE},
    {"stay", C_STAY},     {"swap", C_SWAP},       {"place-two", C_PLACE_TWO},
    {"take", C_TAKE},     {"declare", C_DECLARE}, {"offer", C_OFFER},
    {"select", C_SELECT},
};

static CommandId command_id(const char *word) {
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (strcasecmp(word, COMMANDS[i].name) == 0) return COMMANDS[i].id;
    return C_NONE;
}

/// Splits `line` in place into words; returns how many.
static int split(char *line, char **words, int max) {
    int n = 0;
    for (char *w = strtok(line, " \t\r\n"); w && n < max; w = strtok(NULL, " \t\r\n"))
        words[n++] = w;
    return n;
}

static bool command_new(PlaySession *s, char *rest) {
    char *argv[MAX_WORDS + 1], err[256], name[] = "new";
    argv[0] = name;
    const int argc = 1 + split(rest, argv + 1, MAX_WORDS);
    PlayConfig c = s->cfg;
    for (int i = 1; i < argc; i++) {
        const int used = play_config_option(argc, argv, &i, &c, err, sizeof err);
        if (used < 0) return play_report(s, EV_ERROR, err);
        if (used == 0) {
            play_fill(err, sizeof err, play_text(s->cfg.lang, T_ERR_OPTION_UNKNOWN), argv[i],
                      (const char *)NULL);
            return play_report(s, EV_ERROR, err);
        }
    }
    return play_new_game(s, &c);
}

static bool command_moves(PlaySession *s) {
    const int ply = tg_game_ply(s->game);
    if (ply == 0) return play_report_text(s, EV_INFO, T_NO_MOVES);
    TgPoint *moves = malloc(sizeof *moves * (size_t)ply);
    char *text = malloc((size_t)ply * 6 + 1);
    if (!moves || !text) {
        free(moves);
        free(text);
        return play_report_text(s, EV_ERROR, T_ERR_MEMORY);
    }
    for (int i = 0; i < ply; i++) moves[i] = tg_game_move(s->game, i);
    play_line_text(s, moves, ply, text, (size_t)ply * 6 + 1);
    play_report(s, EV_INFO, text);
    free(moves);
    free(text);
    return true;
}

static bool needs(PlaySession *s, const char *word, const char *what) {
    char text[200];
    play_fill(text, sizeof text, play_text(s->cfg.lang, T_ERR_NEEDS_ARG), word, what,
              (const char *)NULL);
    return play_report(s, EV_ERROR, text);
}

static bool command_goto(PlaySession *s, const char *rest) {
    long n;
    if (!parse_long(rest, 0, 100000, &n)) return needs(s, "goto", "N");
    return play_replay_goto(s, (int)n);
}

static bool command_save(PlaySession *s, const char *rest) {
    char name[256];
    if (!*rest)
        play_default_save_name(name, sizeof name);
    else if (!strchr(rest, '.'))
        snprintf(name, sizeof name, "%s.psq", rest);
    else
        snprintf(name, sizeof name, "%s", rest);
    return play_save(s, name);
}

/// `choose WORD` and `take black|white`: the swap choices by name or by the colour wanted.
static bool command_choose(PlaySession *s, const char *word) {
    if (!strcasecmp(word, "stay")) return play_opening_choose(s, TG_CHOICE_STAY);
    if (!strcasecmp(word, "swap")) return play_opening_choose(s, TG_CHOICE_SWAP);
    if (!strcasecmp(word, "place-two")) return play_opening_choose(s, TG_CHOICE_PLACE_TWO);
    if (!strcasecmp(word, "offer")) return play_opening_choose(s, TG_CHOICE_OFFER);
    if (!strcasecmp(word, "black")) return play_opening_take(s, TG_BLACK);
    if (!strcasecmp(word, "white")) return play_opening_take(s, TG_WHITE);
    return needs(s, "choose", "stay|swap|place-two|offer|black|white");
}

static bool command_declare(PlaySession *s, const char *rest) {
    long n;
    if (!parse_long(rest, 0, 1000, &n)) return needs(s, "declare", "N");
    return play_opening_declare(s, (int)n);
}

/// `offer POINT` and `select POINT` (a bare `offer` is Taraguchi-10's choice to offer).
static bool command_point(PlaySession *s, TgStepKind kind, const char *word, const char *rest) {
    if (!*rest && kind == TG_STEP_OFFER) return play_opening_choose(s, TG_CHOICE_OFFER);
    const int w = tg_game_width(s->game), h = tg_game_height(s->game);
    TgPoint p;
    if (tg_point_from_text(rest, w, h, &p) != TG_OK || tg_point_is_pass(p)) {
        char size[16], text[200];
        snprintf(size, sizeof size, "%dx%d", w, h);
        if (!*rest) return needs(s, word, "POINT");
        play_fill(text, sizeof text, play_text(s->cfg.lang, T_ERR_OFF_BOARD), rest, size,
                  (const char *)NULL);
        return play_report(s, EV_ERROR, text);
    }
    return play_opening_point(s, kind, p);
}

/// The opening's commands.
static bool run_opening(PlaySession *s, CommandId id, const char *rest) {
    switch (id) {
    case C_CHOOSE: return command_choose(s, rest);
    case C_STAY: return play_opening_choose(s, TG_CHOICE_STAY);
    case C_SWAP: return play_opening_choose(s, TG_CHOICE_SWAP);
    case C_PLACE_TWO: return play_opening_choose(s, TG_CHOICE_PLACE_TWO);
    case C_TAKE: return *rest ? command_choose(s, rest) : needs(s, "take", "black|white");
    case C_DECLARE: return command_declare(s, rest);
    case C_OFFER: return command_point(s, TG_STEP_OFFER, "offer", rest);
    case C_SELECT: return command_point(s, TG_STEP_SELECT, "select", rest);
    default: return false;
    }
}

/// The commands that take the rest of the line.
static bool run_with_rest(PlaySession *s, CommandId id, char *rest) {
    if (id >= C_CHOOSE) return run_opening(s, id, rest);
    switch (id) {
    case C_SAVE: return command_save(s, rest);
    case C_LOAD: return *rest ? play_load(s, rest) : needs(s, "load", "FILE");
    case C_GOTO: return command_goto(s, rest);
    case C_NEW: return command_new(s, rest);
    default: return false;
    }
}

static bool run_command(PlaySession *s, CommandId id, char *rest) {
    const int ply = tg_game_ply(s->game);
    switch (id) {
    case C_UNDO: return play_undo(s);
    case C_REDO: return play_redo(s);
    case C_PASS: return play_pass(s);
    case C_RESIGN: return play_resign(s);
    case C_DRAW: return play_offer_draw(s);
    case C_ACCEPT: return play_answer_draw(s, true);
    case C_DECLINE: return play_answer_draw(s, false);
    case C_HINT: return play_hint(s);
    case C_NOW: return play_move_now(s);
    case C_PAUSE: return s->paused ? true : play_toggle_pause(s);
    case C_RESUME: return s->paused ? play_toggle_pause(s) : true;
    case C_STEP: return play_step(s);
    case C_FIRST: return play_replay_goto(s, 0);
    case C_PREV: return play_replay_goto(s, ply - 1);
    case C_NEXT: return play_replay_goto(s, ply + 1);
    case C_LAST: return play_replay_goto(s, tg_game_length(s->game));
    case C_PLAY: return play_replay_leave(s);
    case C_BOARD: return play_report(s, EV_POSITION, "");
    case C_MOVES: return command_moves(s);
    case C_HELP: return play_report_text(s, EV_INFO, T_PLAIN_HELP);
    case C_QUIT: return s->quit = true;
    default: return run_with_rest(s, id, rest);
    }
}

/// A word that reads as a point: plays it. False when it is no point at all.
static bool try_point(PlaySession *s, const char *word, bool *played) {
    const int w = tg_game_width(s->game), h = tg_game_height(s->game);
    TgPoint p;
    TgError e = tg_point_from_text(word, w, h, &p);
    if (e == TG_OK && tg_point_is_pass(p)) e = TG_ERR_OFF_BOARD; /* "a0": no row 0 here */
    if (e == TG_ERR_OFF_BOARD) {
        char size[16], text[200];
        snprintf(size, sizeof size, "%dx%d", w, h);
        play_fill(text, sizeof text, play_text(s->cfg.lang, T_ERR_OFF_BOARD), word, size,
                  (const char *)NULL);
        *played = play_report(s, EV_ERROR, text);
        return true;
    }
    if (e != TG_OK) return false;
    *played = play_place(s, p);
    return true;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        *--end = '\0';
    return s;
}

bool play_command(PlaySession *s, const char *line) {
    char buf[512], text[300];
    snprintf(buf, sizeof buf, "%s", line);
    char *word = trim(buf);
    if (!*word) return true;
    char *rest = word + strcspn(word, " \t");
    if (*rest) *rest++ = '\0';
    rest = trim(rest);
    const CommandId id = command_id(word);
    if (id != C_NONE) return run_command(s, id, rest);
    bool played = false;
    if (!*rest && try_point(s, word, &played)) return played;
    const bool letters =
        strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == strlen(word);
    const TextId msg = letters ? T_ERR_UNKNOWN_CMD : T_ERR_BAD_INPUT;
    play_fill(text, sizeof text, play_text(s->cfg.lang, msg), word, (const char *)NULL);
    return play_report(s, EV_ERROR, text);
}

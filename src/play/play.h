/*
 * play.h — `tengen play`: the game session (players, the computer's background search, undo
 * pairs, clocks, draw offers, hints, records, replay), shared by the ncurses view
 * (screen.c) and the line-based view (plain.c), and the English/Chinese texts.
 *
 * The session is driven from one thread, the UI thread. Only the search runs elsewhere, on
 * its own copy of the game, and hands back its progress and result through the Thinker.
 */
#ifndef TG_PLAY_H
#define TG_PLAY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "../cli/cli.h"

/* ---- Texts (text.c) ----------------------------------------------------------------- */

typedef enum PlayLang { LANG_EN, LANG_ZH, LANG_COUNT } PlayLang;

/// Every text the game shows. Templates take string arguments as {1}, {2}, ... so that each
/// language may order them as it needs (printf formats cannot be checked when translated).
typedef enum TextId {
    T_BLACK,
    T_WHITE,
    T_BLACK_STONE,
    T_WHITE_STONE,
    T_HUMAN,
    T_COMPUTER,
    T_LEVEL_MAX,
    T_LEVEL_HARD,
    T_LEVEL_MEDIUM,
    T_LEVEL_EASY,
    T_LEVEL_BEGINNER,
    T_LEVEL_RATING,
    T_LEVEL_RATING_BELOW,
    T_LEVEL_MCTS,
    T_LEVEL_ZERO,
    T_RULE_FREESTYLE,
    T_RULE_STANDARD,
    T_RULE_RENJU,
    T_RULE_CARO8,
    T_RULE_CARO9,
    T_FOUL_OVERLINE,
    T_FOUL_DOUBLE_FOUR,
    T_FOUL_DOUBLE_THREE,
    T_HEADER,
    T_MOVE_LINE,
    T_GAME_OVER,
    T_TO_MOVE,
    T_THINKING,
    T_PAUSED_LINE,
    T_WIN_FIVE,
    T_WIN_LONG,
    T_WIN_FOUL,
    T_WIN_RESIGN,
    T_WIN_TIME,
    T_DRAW_FULL,
    T_DRAW_AGREED,
    T_DRAW_PASSES,
    T_ERR_OFF_BOARD,
    T_ERR_BAD_INPUT,
    T_ERR_OCCUPIED,
    T_ERR_FORBIDDEN,
    T_ERR_GAME_OVER,
    T_ERR_NOT_HUMAN,
    T_ERR_REPLAY,
    T_ERR_NOTHING_UNDO,
    T_ERR_NOTHING_REDO,
    T_ERR_UNKNOWN_KEY,
    T_ERR_UNKNOWN_CMD,
    T_ERR_NOT_THINKING,
    T_ERR_LOAD,
    T_ERR_SAVE,
    T_ERR_FORMAT,
    T_ERR_DRAW_BUSY,
    T_ERR_NO_HUMAN,
    T_ERR_NEEDS_ARG,
    T_ERR_OPTION_VALUE,
    T_ERR_PLAYER_VALUE,
    T_A_VALUE,
    T_ERR_OPTION_UNKNOWN,
    T_ERR_ENGINE,
    T_ERR_MEMORY,
    T_ERR_NOT_REPLAY,
    T_ERR_PASS,
    T_ERR_NO_OFFER,
    T_ERR_NOT_PAUSED,
    T_ERR_NOT_COMPUTER,
    T_ERR_PREFIX,
    T_UNDONE,
    T_UNDONE_RESULT,
    T_REDONE,
    T_HINT,
    T_HINT_WAIT,
    T_DRAW_OFFER,
    T_DRAW_DECLINED,
    T_DRAW_THINKING,
    T_SAVED,
    T_LOADED,
    T_REPLAY_AT,
    T_REPLAY_LEFT,
    T_PAUSED,
    T_RESUMED,
    T_NEW_GAME,
    T_MOVE_NOW,
    T_RESIGN_CONFIRM,
    T_QUIT_CONFIRM,
    T_TOO_SMALL,
    T_MOVE_NO,
    T_LAST,
    T_DEPTH,
    T_NODES,
    T_LINE,
    T_NO_MOVES,
    T_REPLAY_TITLE,
    T_HELP_LINE,
    T_HELP_LINE_WATCH,
    T_HELP_LINE_REPLAY,
    T_HELP_SCREEN,
    T_PLAIN_HELP,
    T_MENU_TITLE,
    T_MENU_RULE,
    T_MENU_SIZE,
    T_MENU_CLOCK,
    T_MENU_NO_CLOCK,
    T_MENU_START,
    T_MENU_KEYS,
    T_PROMPT,
    T_ANY_KEY,
    T_PLAYER,
    T_YOU,
    T_PLAYER_COLOR,
    T_HEADER_OPENING,
    T_HEADER_PLAIN,
    T_LIST_SEP,
    T_STEP_PLACE,
    T_STEP_PLACE_MANY,
    T_STEP_CENTRE,
    T_STEP_SQUARE,
    T_STEP_CHOOSE,
    T_CHOICE_STAY,
    T_CHOICE_SWAP,
    T_CHOICE_PLACE_TWO,
    T_CHOICE_OFFER,
    T_STEP_DECLARE,
    T_STEP_OFFER,
    T_STEP_SELECT,
    T_OP_PLACED,
    T_OP_CHOSE,
    T_OP_DECLARED,
    T_OP_OFFERED,
    T_OP_SELECTED,
    T_OP_WHY,
    T_OP_COLOURS,
    T_OP_DONE,
    T_OP_START,
    T_OP_BALANCED,
    T_OP_UNDONE,
    T_OP_THINKING,
    T_OP_LOADED,
    T_LOADED_PHASE,
    T_OP_PLAYERS,
    T_OP_NOT_RESTORED,
    T_OP_MISMATCH,
    T_ERR_OPENING,
    T_ERR_IN_OPENING,
    T_ERR_NOT_OPENING,
    T_ERR_START_STONES,
    T_ERR_SQUARE,
    T_ERR_ZERO_MODEL,
    T_ERR_ZERO_NONE,
    T_MENU_OPENING,
    T_MENU_FROM,
    T_MENU_FROM_EMPTY,
    T_MENU_FROM_RANDOM,
    T_MENU_FROM_BALANCED,
    T_MENU_NO_OPENING,
    T_MENU_PLAYER1,
    T_MENU_PLAYER2,
    T_HELP_LINE_OPENING,
    T_NEW_GAME_OPENING,
    T_COUNT
} TextId;

const char *play_text(PlayLang lang, TextId id);
/// Fills a template's {1}..{9} with the string arguments (NULL-terminated); returns buf.
char *play_fill(char *buf, size_t size, const char *tmpl, ...) __attribute__((sentinel));
/// The language of the environment: Chinese when LANGUAGE/LC_ALL/LC_MESSAGES/LANG says zh.
PlayLang play_lang_from_env(void);
bool play_lang_from_name(const char *name, PlayLang *lang);
const char *play_rule_text(PlayLang lang, TgRule rule);
const char *play_level_text(PlayLang lang, TgLevel level);
/// "about 812 above beginner" or "about 90 below beginner" (the level's measured rating,
/// Elo), or "" for beginner itself and for a level not measured.
const char *play_rating_text(PlayLang lang, TgLevel level, char *buf, size_t size);
const char *play_color_text(PlayLang lang, TgColor color);
const char *play_foul_text(PlayLang lang, TgFoul foul);

/* ---- Configuration (model.c) -------------------------------------------------------- */

/// Who plays one colour.
typedef struct PlaySide {
    bool computer;
    TgLevel level; ///< when computer
} PlaySide;

/// Everything a new game is made from; `tengen play` options and the new-game menu fill it.
typedef struct PlayConfig {
    TgRule rule;
    int width, height;
    PlaySide side[2]; ///< [TG_BLACK], [TG_WHITE]
    TgClock clock;    ///< zero: no clocks
    int64_t move_ms;  ///< the computer's time a move; 0: the level's default
    int64_t hint_ms;  ///< time for a hint
    int threads;      ///< search threads
    uint64_t seed;    ///< the randomness of the easy and beginner levels
    PlayLang lang;
    TgOpeningRule opening; ///< under a rule, side[0] and side[1] are players 1 and 2
    int start;             ///< START_* or the index of a renju opening to start from
    bool balanced;         ///< start from tg_opening_balanced's stones
    const TgModel *model;  ///< the zero level's network (--model; borrowed); NULL: built-in
} PlayConfig;

enum { START_EMPTY = -1, START_RANDOM = -2 };

void play_config_defaults(PlayConfig *c);
/// Consumes one game option at argv[*i] (--rule, --size, --black, --white, --time, --clock,
/// --hint-time, --threads, --seed, --lang): 1 if consumed, 0 if not a game option, -1 on a
/// bad value with the message in err.
int play_config_option(int argc, char **argv, int *i, PlayConfig *c, char *err, size_t size);
/// Prints the 26 renju openings (`--list-openings`).
void play_list_openings(FILE *out);
/// Reads `S` or `S+I` (seconds, fractions allowed) into a clock; false if malformed.
bool play_parse_clock(const char *text, TgClock *clock);
/// "human" or the level's name, in the session's language (text.c).
const char *play_side_text(PlayLang lang, PlaySide side, char *buf, size_t size);

/* ---- The computer's background search (think.c) ------------------------------------ */

typedef enum ThinkKind { THINK_NONE, THINK_MOVE, THINK_HINT, THINK_DRAW, THINK_OPENING } ThinkKind;

/// What the search reported last: a copy, so the UI never reads the engine's own memory.
typedef struct ThinkInfo {
    bool valid;
    int depth, seldepth, score;
    uint64_t nodes, nps;
    int64_t time_ms;
    int pv_length;
    TgPoint pv[TG_MAX_PV];
} ThinkInfo;

/// One search at a time on a thread of its own. The fields marked (ui) belong to the UI
/// thread; `live` is shared under `lock`; the search thread writes `result` and `error` and
/// then sets `done`, after which the UI thread joins it and reads them.
typedef struct Thinker {
    TgEngine *engine; ///< used by the search thread only while `active`
    pthread_t thread;
    bool active;      ///< (ui) a thread was started and not joined yet
    ThinkKind kind;   ///< (ui) what the running search is for
    unsigned version; ///< (ui) the session version it started from
    atomic_bool stop; ///< set by the UI: "move now", undo, quit
    atomic_bool done; ///< set by the search thread when it has finished
    pthread_mutex_t lock;
    ThinkInfo live; ///< under lock: the last depth reported
    TgGame *game;   ///< the search's own copy of the position
    TgSearchLimits limits;
    TgSearchResult result;
    TgOpening *opening;          ///< THINK_OPENING: the search's own copy of the phase
    TgOpeningLimits open_limits; ///< THINK_OPENING
    TgOpeningDecision decision;  ///< THINK_OPENING: the answer
    TgError error;
} Thinker;

bool think_init(Thinker *t, int threads);
void think_free(Thinker *t);
/// Starts searching a copy of `game`; false when out of memory or a thread cannot start.
bool think_start(Thinker *t, const TgGame *game, ThinkKind kind, const TgSearchLimits *limits,
                 unsigned version);
/// Starts deciding the current step of a copy of `op` (tg_opening_decide).
bool think_start_opening(Thinker *t, const TgOpening *op, const TgOpeningLimits *limits,
                         unsigned version);
bool think_finished(Thinker *t); ///< the search is over (or none runs): join it and return true
void think_cancel(Thinker *t);   ///< stops the search, waits for it and forgets it
void think_hurry(Thinker *t);    ///< asks the search to answer now with what it has
ThinkInfo think_live(Thinker *t);
/// The report of a finished search, as the live info.
ThinkInfo think_result_info(const Thinker *t);

/* ---- The session (model.c) ---------------------------------------------------------- */

typedef enum PlayEventKind {
    EV_INFO,     ///< a message
    EV_ERROR,    ///< bad input or a failure; nothing changed
    EV_MOVE,     ///< a stone was played: text is the move line
    EV_RESULT,   ///< the game ended: text says how
    EV_HINT,     ///< a hint is ready (PlaySession.hint)
    EV_POSITION, ///< the position changed other than by one move (undo, load, new game, ...)
} PlayEventKind;

typedef struct PlayEvent {
    PlayEventKind kind;
    char text[600];
} PlayEvent;

enum { PLAY_EVENTS = 64 };

typedef struct PlaySession {
    PlayConfig cfg;
    TgGame *game;       ///< during an opening phase: its stones so far (tg_opening_game)
    TgOpening *opening; ///< the opening phase (kept when done: it says who holds which colour)
    Thinker think;
    bool paused;        ///< the computer holds its moves (watching mode; clocks paused)
    int steps;          ///< moves the computer may still make while paused
    bool replay;        ///< stepping through a record: nothing is played
    TgColor draw_offer; ///< human vs human: the side whose draw offer awaits an answer
    bool quit;
    unsigned version; ///< changes with every change of the position or players
    ThinkInfo last;   ///< the search behind the computer's last move
    bool has_hint;
    TgPoint hint;
    ThinkInfo hint_info;
    char status[240]; ///< the latest message, for a status line
    bool status_error;
    PlayEvent events[PLAY_EVENTS]; ///< a ring the views drain
    int event_first, event_count;
} PlaySession;

/// A session with a fresh game; NULL (with a message in err) when the config is bad.
PlaySession *play_session_new(const PlayConfig *cfg, char *err, size_t size);
void play_session_free(PlaySession *s);
/// Starts over with `cfg` (after stopping any search).
bool play_new_game(PlaySession *s, const PlayConfig *cfg);
/// Sets up a start position from a move list (the --moves option); false with an event.
bool play_set_moves(PlaySession *s, const char *moves);

/// The heartbeat, called often by the view: collects a finished search, checks the clocks and
/// starts the computer's search when it is to move.
void play_tick(PlaySession *s);
bool play_next_event(PlaySession *s, PlayEvent *ev);
/// Reports a message of the view's (an unknown key, ...); false for errors.
bool play_report(PlaySession *s, PlayEventKind kind, const char *text);
/// The same for a text of the table, in the session's language.
bool play_report_text(PlaySession *s, PlayEventKind kind, TextId id);

bool play_human_to_move(const PlaySession *s);
bool play_computer_to_move(const PlaySession *s);
bool play_thinking(const PlaySession *s);   ///< a search for a move runs
bool play_watching(const PlaySession *s);   ///< computer against computer
bool play_in_opening(const PlaySession *s); ///< an opening phase is under way
/// Who plays colour `c`: after the swaps of an opening, the player holding it.
PlaySide play_side_of(const PlaySession *s, TgColor c);
/// "Player 1 (you)", "Player 2 (computer (easy))".
void play_player_text(const PlaySession *s, TgPlayer p, char *buf, size_t size);
/// What the opening asks now, as a sentence in the session's language ("" when none).
void play_step_text(const PlaySession *s, char *buf, size_t size);
/// The human who would resign or offer a draw now: the side to move between humans, the
/// human against the computer; TG_NOBODY when none may (watching, replay, game over).
TgColor play_acting_human(const PlaySession *s);

/* Actions. Each one checks that it makes sense now; when not, it reports an error event and
 * changes nothing. */
bool play_place(PlaySession *s, TgPoint p);
bool play_pass(PlaySession *s);
bool play_undo(PlaySession *s);
bool play_redo(PlaySession *s);
bool play_resign(PlaySession *s);
bool play_offer_draw(PlaySession *s);
bool play_answer_draw(PlaySession *s, bool accept);
bool play_hint(PlaySession *s);
bool play_move_now(PlaySession *s);
bool play_toggle_pause(PlaySession *s);
bool play_step(PlaySession *s);
bool play_save(PlaySession *s, const char *path);
bool play_load(PlaySession *s, const char *path);
bool play_replay_goto(PlaySession *s, int ply);
bool play_replay_leave(PlaySession *s);
/// The opening's choices and declaration; points go through play_place (a stone, an offer or
/// a selection, whatever the step asks).
bool play_opening_choose(PlaySession *s, TgChoice choice);
/// Swap-style choices by the colour wanted: keeping one's colour is "stay".
bool play_opening_take(PlaySession *s, TgColor color);
bool play_opening_declare(PlaySession *s, int n);
/// A point for the opening as a stone (TG_STEP_PLACE), an offer or a selection.
bool play_opening_point(PlaySession *s, TgStepKind kind, TgPoint p);
/// A typed line: a point (h8) or a command (undo, save FILE, new --rule renju, ...). Commands
/// are English words in every language. Returns false when the line was not understood.
bool play_command(PlaySession *s, const char *line);

/// Texts built from the session, in its language.
void play_result_text(const PlaySession *s, char *buf, size_t size);
/// "depth 8-14  +35" style lines of a search report, for panels and hint messages.
void play_info_text(const PlaySession *s, const ThinkInfo *info, char *buf, size_t size);
/// The default file name for `save`: tengen-YYYYMMDD-HHMMSS.psq.
void play_default_save_name(char *buf, size_t size);

/* ---- What the session and its opening phase share (session.c) --------------------------- */

/// Reports a text of the table filled with up to four arguments; false for errors, so
/// `return play_tell(...)` works.
bool play_tell(PlaySession *s, PlayEventKind kind, TextId id, const char *a, const char *b,
               const char *c, const char *d);
/// Reports a text of the table filled with up to two arguments; false for errors.
bool play_say(PlaySession *s, PlayEventKind kind, TextId id, const char *a, const char *b);
void play_point_text(const PlaySession *s, TgPoint p, char *buf, size_t size);
void play_line_text(const PlaySession *s, const TgPoint *moves, int count, char *buf, size_t size);
void play_changed(PlaySession *s);      ///< the position or the players changed
void play_name_players(PlaySession *s); ///< the record's player names, by colour
void play_sync_clock(PlaySession *s);   ///< runs the clock when it should run now, else holds it
void play_start_clock(PlaySession *s);  ///< sets and runs the configured clock, if any

/* ---- Between the session and its opening phase (model.c, opening.c) ---------- */
/// The header line of a game with an opening rule.
void play_opening_header(const PlaySession *s, char *buf, size_t size);
/// Starts the computer's decision when the phase asks it.
void play_opening_think(PlaySession *s);
/// Takes in the computer's finished decision.
bool play_opening_decided(PlaySession *s);
/// Takes back the last opening action (against the computer, back to the human's last).
bool play_opening_undo(PlaySession *s);
/// The opening phase a loaded record's "opening" line describes, when its stones are the
/// record's first moves (and a phase still under way is all the record holds); NULL when the
/// record has none, or with the reason in `why` ("" otherwise) when it cannot be used.
TgOpening *play_opening_of_record(const PlaySession *s, const TgGame *g, char *why, size_t size);
/// Goes on with the phase from the record's move `ply`: takes back the actions after the
/// stone placed there (none when the phase is under way) and rebuilds the game from it.
bool play_opening_resume(PlaySession *s, int ply);
/// "players: Player 1 (you) — White, Player 2 (computer (easy)) — Black".
void play_opening_players(PlaySession *s);
/// The game and opening phase a config starts with (its start stones placed), and a line on
/// the start position ("" when none); false after reporting why not.
bool play_opening_prepare(PlaySession *s, const PlayConfig *c, TgGame **game, TgOpening **op,
                          char *note, size_t size);

/* ---- Views ------------------------------------------------------------------------------- */

typedef struct PlayViewOptions {
    bool ascii; ///< X/O instead of the Unicode stones
    bool mono;  ///< no colours
} PlayViewOptions;

int play_plain_run(PlaySession *s);
int play_curses_run(PlaySession *s, const PlayViewOptions *options);

#endif

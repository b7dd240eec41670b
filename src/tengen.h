/*
 * tengen.h — the one public header of libtengen, the Gomoku/Renju core.
 * Front ends (the tengen program, pbrain-tengen, tests of the API) include this and nothing else.
 */
#ifndef TENGEN_H
#define TENGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The stop flags of searches are atomic booleans: C11's atomic_bool, which is C++'s
 * std::atomic<bool> (the same object), so the header serves C and C++ alike. */
#ifdef __cplusplus
#include <atomic>
typedef std::atomic<bool> TgStopFlag;
extern "C" {
#else
#include <stdatomic.h>
typedef atomic_bool TgStopFlag;
#endif

#define TG_VERSION "0.1.0"
#define TG_MAX_THREADS 64 ///< most search threads of one engine

/// Monotonic milliseconds (for timing moves and searches; not the wall clock).
int64_t tg_now_ms(void);

/* ------------------------------------------------------------------------------------------ */
/* Rules, colours, points                                                                      */
/* ------------------------------------------------------------------------------------------ */

/// Win conditions, as in docs/rules.md §1.
typedef enum TgRule {
    TG_FREESTYLE, ///< five or more wins, both colours
    TG_STANDARD,  ///< exactly five wins, both colours; an overline is neither win nor loss
    TG_RENJU,     ///< Black: exactly five, fouls forbidden; White: five or more
    TG_CARO8,     ///< piskvork rule 8: five or more, except an exact five blocked at both ends
    TG_CARO9,     ///< piskvork rule 9: exactly five, not blocked at both ends
    TG_RULE_COUNT
} TgRule;

typedef enum TgColor { TG_BLACK = 0, TG_WHITE = 1, TG_NOBODY = 2 } TgColor;

/// A point in protocol coordinates: x = column from the left, y = row from the top, both from 0.
/// {-1, -1} is a pass.
typedef struct TgPoint {
    int x, y;
} TgPoint;

#define TG_MIN_SIZE 5
#define TG_MAX_SIZE 22

/// Kinds of Black fouls in renju, ordered as they are reported (overline first).
typedef enum TgFoul {
    TG_FOUL_NONE = 0,
    TG_FOUL_OVERLINE,     ///< "6"
    TG_FOUL_DOUBLE_FOUR,  ///< "44"
    TG_FOUL_DOUBLE_THREE, ///< "33"
} TgFoul;

const char *tg_rule_name(TgRule rule); ///< "freestyle", "standard", "renju", ...
bool tg_rule_from_name(const char *name, TgRule *rule);
/// piskvork's rule code (INFO rule; c-gomoku-cli's SGF RU): 0 freestyle, 1 exactly five, 4 renju,
/// 8 caro, 9 caro with exactly five, and Yixin's 2 and 3 for renju.
bool tg_rule_from_code(int64_t code, TgRule *rule);
const char *tg_foul_code(TgFoul foul);    ///< "6", "44", "33" or ""
const char *tg_color_name(TgColor color); ///< "black", "white", "nobody"
bool tg_point_is_pass(TgPoint p);

/* ------------------------------------------------------------------------------------------ */
/* Errors                                                                                      */
/* ------------------------------------------------------------------------------------------ */

typedef enum TgError {
    TG_OK = 0,
    TG_ERR_OFF_BOARD, ///< the point is not on the board
    TG_ERR_OCCUPIED,  ///< a stone is already there
    TG_ERR_FORBIDDEN, ///< a renju foul refused because the game does not let fouls be played
    TG_ERR_GAME_OVER, ///< the game has a result; undo first
    TG_ERR_PASS,      ///< a pass is not allowed here
    TG_ERR_NOTHING,   ///< nothing to undo or redo
    TG_ERR_ARGUMENT,  ///< a bad argument (size, rule, clock setting, ...)
    TG_ERR_PARSE,     ///< malformed input; the message says where
    TG_ERR_IO,        ///< a file could not be read or written
    TG_ERR_MEMORY,
    TG_ERR_MODEL, ///< the zero level has no network model for this board and rule
} TgError;

const char *tg_error_text(TgError err);

/* ------------------------------------------------------------------------------------------ */
/* Notation (docs/formats.md): h8 for people, x,y for machines                     */
/* ------------------------------------------------------------------------------------------ */

/// Writes "h8" (lower case; rows counted from the bottom of a board `height` tall), or "pass".
/// Columns past 'z' cannot be written in letters: such a board yields an error. buf >= 8 bytes.
TgError tg_point_to_text(TgPoint p, int width, int height, char *buf, size_t size);

/// Reads one point in h8 notation (either case). "pass" and "--" read as a pass. Checks the
/// point lies on a width x height board.
TgError tg_point_from_text(const char *text, int width, int height, TgPoint *p);

/// Reads a move list: position strings ("h8i9j10"), or points separated by spaces and/or
/// commas ("h8 i9, j10"). `--` and `pass` are passes in the separated form; "a0" is a pass in
/// both forms (the lfz084 filler). On error, writes a message naming the offending token.
TgError tg_parse_moves(const char *text, int width, int height, TgPoint *moves, int max_moves,
                       int *count, char *err, size_t err_size);

/// Writes moves as h8 points separated by `sep` (e.g. " " or ""); returns bytes needed.
size_t tg_format_moves(const TgPoint *moves, int count, int width, int height, const char *sep,
                       char *buf, size_t size);

/* ------------------------------------------------------------------------------------------ */
/* Position: stones only, for rule questions without a game around them                        */
/* ------------------------------------------------------------------------------------------ */

typedef struct TgForbidden {
    TgPoint point;
    TgFoul foul;
} TgForbidden;

/// The five (or longer row) that ended a game.
typedef struct TgWinLine {
    TgPoint from, to; ///< both ends, inclusive; `from` is the upper end (a row's left)
    int length;       ///< stones in the row (5, or more for an overline that wins)
} TgWinLine;

/* ------------------------------------------------------------------------------------------ */
/* Game: rule, size, move list with undo/redo, result and clocks                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct TgGame TgGame;

typedef enum TgReason {
    TG_REASON_NONE = 0,   ///< the game goes on
    TG_REASON_FIVE,       ///< the winner made five (or an overline where that wins)
    TG_REASON_FOUL,       ///< Black played a renju foul (only when fouls may be played)
    TG_REASON_RESIGN,     ///< the loser resigned
    TG_REASON_TIME,       ///< the loser ran out of time
    TG_REASON_FULL_BOARD, ///< draw: no empty point is left
    TG_REASON_AGREEMENT,  ///< draw by agreement
    TG_REASON_PASSES,     ///< draw: two passes in a row (RIF article 10)
} TgReason;

typedef struct TgResult {
    TgReason reason; ///< TG_REASON_NONE while the game goes on
    TgColor winner;  ///< TG_NOBODY for a draw or while the game goes on
    TgWinLine line;  ///< the five, when reason is TG_REASON_FIVE
    TgFoul foul;     ///< the foul, when reason is TG_REASON_FOUL
    TgPoint foul_point;
} TgResult;

const char *tg_reason_name(TgReason reason); ///< "five", "foul", "resign", "time", ...

/// A time control; 0 in a field means "no limit" of that kind. Milliseconds.
typedef struct TgClock {
    int64_t game_ms;      ///< time per side for the whole game
    int64_t increment_ms; ///< added to a side's time after each of its moves (Fischer)
    int64_t move_ms;      ///< most time one move may take
} TgClock;

TgGame *tg_game_new(TgRule rule, int width, int height); ///< NULL on a bad size or rule
void tg_game_free(TgGame *game);
TgGame *tg_game_clone(const TgGame *game);

TgRule tg_game_rule(const TgGame *game);
int tg_game_width(const TgGame *game);
int tg_game_height(const TgGame *game);

/// Renju only: when set, a Black foul is played and loses; when clear (default), refused.
void tg_game_set_fouls_playable(TgGame *game, bool playable);

/// Stones: TG_BLACK, TG_WHITE or TG_NOBODY (empty or off the board).
TgColor tg_game_stone(const TgGame *game, TgPoint p);
TgColor tg_game_to_move(const TgGame *game);
int tg_game_ply(const TgGame *game);                 ///< moves played up to the current point
int tg_game_length(const TgGame *game);              ///< moves in the record, redo branch included
TgPoint tg_game_move(const TgGame *game, int index); ///< index < tg_game_length
TgResult tg_game_result(const TgGame *game);
bool tg_game_over(const TgGame *game);

/// Is it a legal move for the side to move? Says why not. Does not change the game.
TgError tg_game_check(const TgGame *game, TgPoint p, TgFoul *foul);
/// Plays a move (or a pass) for the side to move; cuts the redo branch. Refused moves change
/// nothing. `now_ms` is a monotonic clock reading, used only when a clock is running.
TgError tg_game_play(TgGame *game, TgPoint p, int64_t now_ms);
TgError tg_game_undo(TgGame *game);
TgError tg_game_redo(TgGame *game);
TgError tg_game_goto(TgGame *game, int ply); ///< undo/redo to any ply of the record
/// Replaces the whole record; plays each move by the rules. On error, the game is unchanged.
TgError tg_game_set_moves(TgGame *game, const TgPoint *moves, int count, int *bad_index);
/// Replaces the record with a diagram: stones placed in turn (passes allowed) with no rule
/// judged, for positions that are not real games (test boards, puzzles). No result is set.
TgError tg_game_setup(TgGame *game, const TgPoint *moves, int count, int *bad_index);

TgError tg_game_resign(TgGame *game, TgColor loser);
TgError tg_game_agree_draw(TgGame *game);
/// Sets a result without a move (e.g. from a record file or a time forfeit told by a server).
void tg_game_set_result(TgGame *game, TgResult result);

/// Black's forbidden points for the current position (renju, Black to move; else none).
/// The foul questions try stones on the game's own board and lift them again, so, although
/// the game is const, they must not run concurrently with other calls on the same game.
/// Returns the count, sorted left to right, then bottom to top.
int tg_game_forbidden(const TgGame *game, TgForbidden *out, int max_out);
/// Would this empty point be a foul for Black now (whoever is to move)?
TgFoul tg_game_foul_at(const TgGame *game, TgPoint p);

/* Clocks. The game never reads a clock itself: callers pass monotonic milliseconds. */
TgError tg_game_set_clock(TgGame *game, TgClock clock);
TgClock tg_game_clock(const TgGame *game);
void tg_game_clock_start(TgGame *game, int64_t now_ms); ///< also resumes after a pause
void tg_game_clock_pause(TgGame *game, int64_t now_ms);
bool tg_game_clock_running(const TgGame *game);
/// Time left for `color` in its game budget at `now_ms` (INT64_MAX when there is none).
int64_t tg_game_time_left(const TgGame *game, TgColor color, int64_t now_ms);
/// Time left for the move being thought on (the smaller of move and game limits).
int64_t tg_game_move_time_left(const TgGame *game, int64_t now_ms);
/// Ends the game on time if the side to move has run out; returns true if it did.
bool tg_game_check_time(TgGame *game, int64_t now_ms);
/// Sets `color`'s game time left to `ms`, as of the start of the move being thought on (to
/// restore a saved game; call it while the clock is stopped). TG_ERR_ARGUMENT without a game
/// time (game_ms 0) or for a colour other than Black or White.
TgError tg_game_set_time_left(TgGame *game, TgColor color, int64_t ms);

/* Player names and other record fields; NULL clears. Strings are copied. */
void tg_game_set_info(TgGame *game, const char *key, const char *value);
const char *tg_game_info(const TgGame *game, const char *key); ///< NULL when unset
/* Keys used by the records: "black", "white", "date", "event", "comment". */

/// Board drawing for text front ends: letters along the bottom, rows from the bottom.
/// Returns a malloc'd string; with `mark_forbidden`, Black's forbidden points show as '!'.
char *tg_game_render(const TgGame *game, bool mark_forbidden);

/* ------------------------------------------------------------------------------------------ */
/* Records (docs/formats.md)                                                       */
/* ------------------------------------------------------------------------------------------ */

typedef enum TgFormat {
    TG_FORMAT_UNKNOWN = 0,
    TG_FORMAT_PSQ,   ///< Piskvork .psq
    TG_FORMAT_SGF,   ///< SGF FF[4] GM[4]
    TG_FORMAT_POS,   ///< RenLib-era binary .pos (15x15 only; read and write)
    TG_FORMAT_MOVES, ///< h8 move list, one line (.txt)
} TgFormat;

TgFormat tg_format_from_path(const char *path); ///< by extension; UNKNOWN when not known
const char *tg_format_name(TgFormat format);    ///< the file extension: "psq", "sgf", ...

/// Reads a record. `rule` is used where the format does not say (PSQ, .pos, moves); SGF's
/// RU[] overrides it. `size` (0 = format default) sizes a move list or .pos. On error returns
/// NULL and writes a one-line message naming the line or field.
TgGame *tg_record_read(TgFormat format, const char *data, size_t len, TgRule rule, int size,
                       char *err, size_t err_size);
/// Writes the game's record (the whole move list up to the current ply). Returns a malloc'd
/// buffer (also NUL-terminated) and its length in *len, or NULL with a message. Move lists and
/// .pos files hold square boards only, .pos 15x15 without passes; a record may end with the
/// renju foul that lost the game.
char *tg_record_write(const TgGame *game, TgFormat format, size_t *len, char *err, size_t err_size);

/* ------------------------------------------------------------------------------------------ */
/* Benchmarks                                                                                  */
/* ------------------------------------------------------------------------------------------ */

typedef struct TgMoveBench {
    uint64_t operations; ///< make+undo pairs
    uint64_t checksum;   ///< a hash of all positions seen, so the work cannot be skipped
} TgMoveBench;

/// Plays random games (seeded, deterministic) with make+undo at every node; for throughput.
TgMoveBench tg_bench_moves(TgRule rule, int size, uint64_t operations, uint64_t seed);

/* ------------------------------------------------------------------------------------------ */
/* Solver: threat-space search for the side to move (VCF, VCT)                                 */
/* ------------------------------------------------------------------------------------------ */

#define TG_SOLVE_MAX_LINE 256 ///< attacker moves a solved line may hold

typedef struct TgSolveLimits {
    bool vct;               ///< fours and open threes (VCT); fours only (VCF) when false
    int64_t time_ms;        ///< 0: no limit
    uint64_t nodes;         ///< 0: no limit
    int max_depth;          ///< most attacker moves (VCT: most open threes); 0: no limit
    bool shortest;          ///< VCF: a shortest line (deepening move by move; slower)
    size_t table_bytes;     ///< transposition table; 0: 2 MiB for VCF, 32 MiB for VCT
    const TgStopFlag *stop; ///< may be NULL; the search ends soon after it turns true
} TgSolveLimits;

typedef enum TgSolveStatus {
    TG_SOLVE_NONE,    ///< proven: no such win exists (within max_depth when one is set)
    TG_SOLVE_WIN,     ///< `line` wins
    TG_SOLVE_UNKNOWN, ///< stopped by a limit first
} TgSolveStatus;

typedef struct TgSolveResult {
    TgSolveStatus status;
    int length;                      ///< moves in `line`
    TgPoint line[TG_SOLVE_MAX_LINE]; ///< the attacker's moves, defender's replies left out;
                                     ///< ends with the five (VCT: one line of the tree)
    uint64_t nodes;
    int64_t time_ms;
} TgSolveResult;

/// Looks for a forced win of the side to move in the game's current position, playing by the
/// game's rule (renju: Black never plays a foul, as attacker or defender). Errors:
/// TG_ERR_GAME_OVER when a five already stands, TG_ERR_MEMORY. The game is not changed.
TgError tg_solve(const TgGame *game, const TgSolveLimits *limits, TgSolveResult *out);

/* ------------------------------------------------------------------------------------------ */
/* Engine: alpha-beta search with levels, limits, multi-PV and callbacks                       */
/* ------------------------------------------------------------------------------------------ */

/// Scores are from the side to move's view. |score| >= TG_SCORE_WIN_MIN is a forced result:
/// TG_SCORE_WIN - n means the side to move makes five n plies from now (n odd), and
/// -(TG_SCORE_WIN - n) that the opponent does. tg_score_text() writes either kind.
#define TG_SCORE_WIN 30000
#define TG_SCORE_WIN_MIN (TG_SCORE_WIN - 1000)
#define TG_MAX_PV 64      ///< moves a reported principal variation may hold
#define TG_MAX_MULTIPV 32 ///< lines a search may report at once

/// Writes "+35", "-120", "win in 3" (the side to move's moves, the five included) or
/// "loss in 2" (the opponent's moves). buf >= 16 bytes.
void tg_score_text(int score, char *buf, size_t size);
/// Moves to the five of a forced result (as in tg_score_text), 0 for an ordinary score.
int tg_score_moves_to_five(int score);

/// Playing strength, strongest first so that a zeroed TgSearchLimits means the full engine.
typedef enum TgLevel {
    TG_LEVEL_MAX,      ///< the full engine with the time it is given
    TG_LEVEL_HARD,     ///< the full engine with a short budget (at most 100 000 nodes a move)
    TG_LEVEL_MEDIUM,   ///< a 4-ply alpha-beta over the 5 best attacking and defending points
    TG_LEVEL_EASY,     ///< one ply: the best point by a weight table, with a little randomness
    TG_LEVEL_BEGINNER, ///< the classic win-lines player: cells scored by the open rows of five
                       ///< through them, with a little randomness
    TG_LEVEL_MCTS,     ///< Monte Carlo tree search with random playouts (5,000 a move unless
                       ///< limited by nodes or time)
    TG_LEVEL_ZERO,     ///< tree search guided by a policy-value network (tg_engine_set_model;
                       ///< the built-in model for its board otherwise)
    TG_LEVEL_COUNT
} TgLevel;

/// "max", "hard", "medium", "easy", "beginner", "mcts", "zero"
const char *tg_level_name(TgLevel level);
bool tg_level_from_name(const char *name, TgLevel *level);

/// The level's measured strength: Elo above beginner in the rating ladder (`tengen ladder`,
/// docs/ladder.txt) and half its 95% interval (`error` may be NULL). False for a level that has
/// not been measured. The max level is measured at tg_level_rating_nodes() nodes a move; with
/// more time it plays stronger.
bool tg_level_rating(TgLevel level, int *elo, int *error);
/// Every level, weakest first: the measured ones by rating, then the others in TgLevel order.
/// Returns TG_LEVEL_COUNT.
int tg_levels_weakest_first(TgLevel out[TG_LEVEL_COUNT]);
/// The node budget a move a level's rating was measured at (0: the level's own limits).
uint64_t tg_level_rating_nodes(TgLevel level);
/// The level whose rating is nearest `elo`. Between the hard level and the max level, the max
/// level with a node budget (in *nodes; 0 otherwise) interpolated in log(nodes) between the
/// budgets of the two, whose search differs only in its budget.
TgLevel tg_level_for_rating(int elo, uint64_t *nodes);

typedef struct TgEngine TgEngine;
typedef struct TgModel TgModel;

/// An engine with `threads` search threads (Lazy SMP; 1 when 0) and a transposition table of
/// at most `hash_bytes` (16 MiB when 0). NULL when out of memory.
TgEngine *tg_engine_new(int threads, size_t hash_bytes);
void tg_engine_free(TgEngine *engine);
/// Resizes the table (rounded down to a power of two, at least 64 KiB); clears it.
TgError tg_engine_set_hash(TgEngine *engine, size_t hash_bytes);
size_t tg_engine_hash_bytes(const TgEngine *engine);
TgError tg_engine_set_threads(TgEngine *engine, int threads); ///< 1..TG_MAX_THREADS
/// Forgets everything learned (table, move-ordering statistics, the mcts/zero tree): for a
/// new game.
void tg_engine_clear(TgEngine *engine);
/// The most memory the mcts and zero levels' search tree may hold (its nodes, and the copy a
/// subtree kept for the next move is made in); 0: its own limit (8M nodes, 450 MB with the copy).
/// A full tree stops growing and searches on; one too small for the root's moves still answers.
/// A new limit gives back the tree's memory and forgets it. Not during a search.
void tg_engine_set_tree_memory(TgEngine *engine, size_t bytes);
/// The most bytes the tree may hold under the current limit (slightly under what was asked).
size_t tg_engine_tree_memory(const TgEngine *engine);
/// The network of the zero level (borrowed: it must outlive its use). NULL: the built-in model
/// for the board, when there is one (tg_model_builtin).
void tg_engine_set_model(TgEngine *engine, const TgModel *model);
/// Random playouts each leaf of the zero level's search runs beside the network; their mean
/// is half the leaf's value (docs/zero.md). 0: the network alone; negative: the default, 4.
void tg_engine_set_zero_rollouts(TgEngine *engine, int rollouts);
/// What a draw is worth to the zero level's side, from -1 (as much as a loss) to 1 (a win),
/// counted on the draw probability of every leaf its network (format 2) and playouts give.
/// Below 0 it steers away from drawn positions, to beat a weaker opponent (docs/zero.md).
/// NaN: the default.
void tg_engine_set_zero_draw_score(TgEngine *engine, float score);

/// What one search may do. Zero means "no limit" in every field except where noted; with no
/// limit at all the search runs until `stop` turns true (or to its greatest depth).
typedef struct TgSearchLimits {
    TgLevel level;          ///< TG_LEVEL_MAX (0) unless set
    int64_t turn_ms;        ///< most time for this move (Gomocup timeout_turn); 0: none
    int64_t game_left_ms;   ///< time left for the rest of the game (time_left); 0: none
    int64_t increment_ms;   ///< added to the game time after each move
    bool instant;           ///< no time at all (timeout_turn 0): answer at once
    int depth;              ///< most plies of iterative deepening
    uint64_t nodes;         ///< most nodes (checked exactly with one thread); mcts and zero:
                            ///< most playouts (0: the level's default)
    int multipv;            ///< root lines to score exactly, best first (0 or 1: one)
    const TgStopFlag *stop; ///< may be NULL; the search returns soon after it turns true
    const TgPoint *exclude; ///< root moves not to consider (Yixin's YXBLOCK); may be NULL; the
                            ///< mcts and zero levels refuse them (TG_ERR_ARGUMENT)
    int exclude_count;
    uint64_t seed; ///< randomness of the easy and beginner levels (same seed, same move)
} TgSearchLimits;

/// One principal variation: the moves from the root, its score and the depth it comes from.
typedef struct TgPvLine {
    int score;
    int depth;
    int length;
    TgPoint moves[TG_MAX_PV];
} TgPvLine;

/// What the search reports after each completed depth (and with the final answer).
typedef struct TgSearchInfo {
    int depth, seldepth;
    uint64_t nodes;
    int64_t time_ms;
    uint64_t nps;
    int line_count; ///< lines[0] is the best
    const TgPvLine *lines;
    bool final; ///< the last report of this search
} TgSearchInfo;

/// Called from the thread that runs tg_engine_search(); must not call back into the engine.
typedef void (*TgSearchCallback)(const TgSearchInfo *info, void *user);

#define TG_TREE_DEPTHS 32 ///< rows of TgTreeStats: plies left 0 .. 31 (the last also deeper)

/// The shape of an alpha-beta search's tree, by the depth left at a node in whole plies (row 0:
/// less than a ply left), for tuning its selectivity (`tengen analyze --tree`). Counted are the
/// nodes that reach their static evaluation: not the leaves, the forced blocks of a four or the
/// nodes settled by the table or by a five, a four or a mate found without a search.
typedef struct TgTreeStats {
    uint64_t evaluated[TG_TREE_DEPTHS]; ///< nodes that reached their static evaluation
    uint64_t futile[TG_TREE_DEPTHS];    ///< ... and failed high on it (reverse futility)
    uint64_t razored[TG_TREE_DEPTHS];   ///< ... failed low after a search of fours alone
    uint64_t looped[TG_TREE_DEPTHS];    ///< ... were searched move by move
    uint64_t generated[TG_TREE_DEPTHS]; ///< moves generated at the looped nodes
    uint64_t searched[TG_TREE_DEPTHS];  ///< moves searched there
    uint64_t cut[TG_TREE_DEPTHS];       ///< looped nodes that failed high on some move
    uint64_t first_cut[TG_TREE_DEPTHS]; ///< ... on their first move (the ordering was right)
    uint64_t answering[TG_TREE_DEPTHS]; ///< looped nodes where the opponent had an open three
    uint64_t spared[TG_TREE_DEPTHS];    ///< moves step 13 spared from its pruning (fours, builders)
} TgTreeStats;

typedef struct TgSearchResult {
    TgPoint best; ///< a pass ({-1,-1}) only when no legal move exists
    int score;
    int depth, seldepth;
    uint64_t nodes;
    int64_t time_ms;
    int line_count;
    TgPvLine lines[TG_MAX_MULTIPV];
    TgTreeStats tree; ///< all threads together; zeros for the mcts and zero levels
} TgSearchResult;

/// Finds a move for the side to move of `game` (which is not changed). `callback` may be
/// NULL. Errors: TG_ERR_GAME_OVER when the game has a result or a five stands,
/// TG_ERR_ARGUMENT for bad limits, TG_ERR_MEMORY.
TgError tg_engine_search(TgEngine *engine, const TgGame *game, const TgSearchLimits *limits,
                         TgSearchCallback callback, void *user, TgSearchResult *out);

/// Deterministic search benchmark: fixed positions (freestyle 15x15 and 20x20, standard,
/// renju), one thread, `hash_bytes` table cleared between positions, each searched to
/// `depth` (0: the built-in depth of each position). `callback` gets each position's result.
typedef struct TgBenchPosition {
    const char *name;
    TgRule rule;
    int size;
    const char *moves;
    int depth;
} TgBenchPosition;
int tg_bench_position_count(void);
const TgBenchPosition *tg_bench_position(int index);

/* ------------------------------------------------------------------------------------------ */
/* Evaluation training (docs/eval.md)                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct TgTuneSettings {
    TgRule rule;
    const char *const *data; ///< training data files (tengen datagen); other rules' games skipped
    int data_count;
    const char *start_text; ///< a weight table to start from (text); NULL: see from_seed
    bool from_seed;         ///< with no start_text: the seed weights, else the built-in table
    int epochs;             ///< passes over the data; 0 writes the starting table
    double rate;            ///< Adam's step in evaluation units (0: 1)
    double lambda;          ///< the results' share of the target, the search scores' the rest
    /// the pull of each weight towards its start, per unit of difference (0: 1e-6, which
    /// keeps codes that seldom occur where they were, but against the small gradients of
    /// search scores at 200-340 units a logit holds every value within a few units: 1e-10
    /// lets the values follow such data)
    double pull;
    int batch;           ///< positions a step (0: 4096)
    uint64_t seed;       ///< the order of the positions
    const char *comment; ///< the table's comment lines; NULL: a summary of the run
    /// tree samples (tengen datagen --tree): with any, only the move ordering is learnt, from
    /// them and from `data`'s moves, and the evaluation's values are the start's
    const char *const *tree;
    int tree_count;
    int tree_min_plies; ///< tree positions searched fewer plies from the leaves are left out
                        ///< (0 or 1: none)
    /// only the evaluation's values are learnt from `data`; the move ordering stays the
    /// start's (a tree-trained ordering kept while the values follow a newer search)
    bool values_only;
} TgTuneSettings;

typedef struct TgTuneProgress {
    int epoch, epochs; ///< epoch 0: before training
    uint64_t games, samples, valid_samples;
    uint64_t choices, valid_choices; ///< the ordering's: moves chosen (tree nodes and moves)
    bool ordering_only;              ///< tree samples given: the evaluation is not trained
    bool values_only;                ///< settings.values_only: the ordering is not trained
    int scale;                       ///< evaluation units a logit (fitted on the search scores)
    double train_loss, valid_loss;   ///< the evaluation's mean cross-entropy (training: as the
                                     ///< epoch went; at epoch 0, of the starting table)
    double order_temperature;        ///< the move ordering's softmax temperature (fitted)
    double order_train_loss, order_valid_loss; ///< its mean cross-entropy
    double seconds;
} TgTuneProgress;
typedef void (*TgTuneCallback)(const TgTuneProgress *progress, void *user);

/// Learns a weight table from self-play data; the table as text (malloc'd), or NULL with a
/// message (a missing or malformed data file names the file and the offset).
char *tg_tune(const TgTuneSettings *settings, TgTuneCallback progress, void *user, char *err,
              size_t err_size);

/* ------------------------------------------------------------------------------------------ */
/* Zero: policy-value network models and self-play (docs/zero.md)                              */
/* ------------------------------------------------------------------------------------------ */

/// Reads a model file's bytes. NULL with a message on a bad file: not a model, another format
/// version, an unsupported shape, truncated, or a checksum mismatch.
TgModel *tg_model_read(const void *data, size_t len, char *err, size_t err_size);
/// The model file's bytes (malloc'd; *len gets the length), or NULL when out of memory.
void *tg_model_write(const TgModel *model, size_t *len);
/// A model with small random weights (a start for training; tests).
TgModel *tg_model_random(TgRule rule, int size, int channels, int blocks, uint64_t seed);
void tg_model_free(TgModel *model);
/// The model shipped inside tengen for this rule and board side, or NULL when none.
const TgModel *tg_model_builtin(TgRule rule, int size);
/// The network the zero level plays with on a width x height board under `rule`: `model` when
/// it was made for that board and rule, the built-in one when `model` is NULL, otherwise NULL
/// (a user's model never gives way to the built-in one; the zero level refuses with
/// TG_ERR_MODEL). Front ends check it before a game starts.
const TgModel *tg_model_for(const TgModel *model, TgRule rule, int width, int height);
int tg_model_size(const TgModel *model);
TgRule tg_model_rule(const TgModel *model);
int tg_model_channels(const TgModel *model);
int tg_model_blocks(const TgModel *model);
/// The model file format: 2 (a win-draw-loss value head) or 1 (one value through tanh).
int tg_model_format(const TgModel *model);
/// The fast (AVX2/FMA) inference path: on when the CPU has it. Returns whether it is on now.
bool tg_model_set_fast(TgModel *model, bool fast);
bool tg_model_fast(const TgModel *model);
/// Evaluates `count` positions at once: policy gets count x size^2 move probabilities (row by
/// row from the top; 0 on occupied points), value the expected result for the side to move
/// (-1 loss .. +1 win), draw (NULL: not wanted) the probability of a draw (0 from a model of
/// format 1, whose value head does not tell). The games must be size x size. TG_ERR_MODEL on a
/// size mismatch.
TgError tg_model_evaluate(const TgModel *model, const TgGame *const *games, int count,
                          float *policy, float *value, float *draw);

/// Self-play settings: the search of each move and the randomness that makes games differ.
typedef struct TgZeroSettings {
    int playouts;          ///< per move (0: 400)
    int threads;           ///< search threads (0: 1)
    int batch;             ///< leaves evaluated at once (0: 8; at most 32)
    float noise_alpha;     ///< Dirichlet noise at the root (0: 0.3)
    float noise_eps;       ///< its weight (0: 0.25; negative: none)
    int temperature_moves; ///< moves drawn by visit counts before playing the most visited
                           ///< (0: an eighth of the board's points)
    uint64_t seed;
} TgZeroSettings;

/// One self-play game on an empty board of the model's size and rule, as a training record
/// (docs/zero.md): malloc'd bytes, *len their length. NULL when out of memory.
/// `moves` and `winner` (may be NULL) get the game's length and result.
void *tg_zero_selfplay(const TgModel *model, const TgZeroSettings *settings, size_t *len,
                       int *moves, TgColor *winner);

/// Pure random playouts a second from an empty size x size board (a benchmark).
double tg_mcts_playout_rate(TgRule rule, int size, int64_t ms, uint64_t seed);

/* ------------------------------------------------------------------------------------------ */
/* Training data for the evaluation tuner (docs/formats.md, "Training data (.tgd)")            */
/* ------------------------------------------------------------------------------------------ */

/// Self-play data generation: the full engine at a fixed node budget a move plays both colours
/// from random openings. Zero in a field means its default.
typedef struct TgDatagenSettings {
    TgRule rule;
    int size;                   ///< board side (0: 15)
    int games;                  ///< games to write, at least 1
    uint64_t nodes;             ///< search nodes a move (0: 3000)
    int threads;                ///< games played at once, one search thread each (0: 1)
    uint64_t seed;              ///< the randomness of the openings
    int random_min, random_max; ///< random opening stones (random_max 0: 2..6)
    const TgStopFlag *stop;     ///< may be NULL; games unfinished when it turns true are dropped
    /// NULL, or a file to append tree samples to: nodes inside every search of the run where a
    /// move proved best, as training data for the move ordering (`tg_tune`'s `tree`; the format
    /// is docs/formats.md's)
    const char *tree_path;
} TgDatagenSettings;

/// Called after each game is written (from the thread that played it, under the run's lock):
/// games written, positions (moves with a search score) written, seconds since the start.
typedef void (*TgDatagenProgress)(int games, uint64_t positions, double seconds, void *user);

/// Plays settings->games games and appends them to the data file `path` (created when missing,
/// one write per game). Each opening is 2..6 random stones near the centre (never a renju foul
/// nor a five), drawn again while another game of the run or of the file had it (up to
/// symmetry) or a short search scores it beyond +-400; its moves carry no score. Every engine
/// move carries its root score; a game ends at a five, a full board or the first forced result
/// the search announces (|score| >= TG_SCORE_WIN_MIN), which decides it. Deterministic for a
/// seed, one thread and the file's games. Errors: TG_ERR_ARGUMENT (bad settings), TG_ERR_IO
/// (the file), TG_ERR_PARSE (the file is not sound data: nothing is appended to it),
/// TG_ERR_MEMORY; err gets a message. Games written before an error stay written.
TgError tg_datagen(const TgDatagenSettings *settings, const char *path, TgDatagenProgress progress,
                   void *user, char *err, size_t err_size);

/// Tree samples (tg_datagen's tree_path) to be labelled again for the ordering's tuner.
typedef struct TgTreeRelabel {
    const char *const *inputs; ///< tree sample files, read in turn
    int input_count;           ///< at least 1
    uint64_t nodes;            ///< search nodes a position (0: 3000)
    int threads;               ///< positions searched at once, one search thread each (0: 1)
    const TgStopFlag *stop;    ///< may be NULL; the run ends soon after it turns true
    /// Write training data for the evaluation's values (.tgd) instead of tree lines: each
    /// position as a game of its stones and the search's best move, that move scored by the
    /// search (no result: read it with lambda 0)
    bool scores;
} TgTreeRelabel;

/// Appends to `path` each position of the samples once (its first line), with the best move
/// replaced by that of a fresh root search of `nodes` nodes: near the leaves a sample's move
/// is mostly the one the ordering tried first, where the root search looks at every move.
/// A position the rules refuse, or whose new move is not on its list, is left out. progress
/// gets the positions read and written. Deterministic with one thread (the lines keep their
/// order). Errors: TG_ERR_ARGUMENT, TG_ERR_IO (a file), TG_ERR_PARSE (a line that is not a
/// sample: the message names the file and line), TG_ERR_MEMORY; lines written before an error
/// stay written.
TgError tg_tree_relabel(const TgTreeRelabel *settings, const char *path, TgDatagenProgress progress,
                        void *user, char *err, size_t err_size);

/// Games played elsewhere (a stronger engine's, masters') to be scored as training data.
typedef struct TgDataImport {
    TgGame *const *games; ///< each ended at a five or in a draw (full board, agreement)
    const int *book;      ///< per game: opening moves that carry no score (NULL: none)
    /// per game (NULL: none): the scores of the moves after the book as another engine gave
    /// them, on tengen's scale (the side to move's view, |score| <= TG_SCORE_WIN); a game
    /// with scores is not searched
    const int *const *scores;
    int count;              ///< games, at least 1
    uint64_t nodes;         ///< search nodes a position (0: 3000, as tg_datagen)
    int threads;            ///< games scored at once, one search thread each (0: 1)
    const TgStopFlag *stop; ///< may be NULL; games unfinished when it turns true are dropped
} TgDataImport;

/// Appends the games to the data file `path` as tg_datagen would have written them, but with
/// their own moves and results: every move after a game's book carries the root score of a
/// search of `nodes` nodes of the position before it (the same search as tg_datagen's), so
/// the tuner learns the values from the games' results and the ordering from their moves.
/// A game with its own scores keeps them instead. Every game is checked before the first
/// search: TG_ERR_ARGUMENT names the first that did not end at a five or in a draw, holds a
/// pass, has a book longer than itself or a score beyond the scale. Other
/// errors as tg_datagen's; games written before an error stay written.
TgError tg_data_import(const TgDataImport *settings, const char *path, TgDatagenProgress progress,
                       void *user, char *err, size_t err_size);

/// Reads one line of a games file for tg_data_import: "BOOK | MOVES" or "MOVES" in h8 notation
/// on a size x size board, each move after the book with or without ":SCORE" (on all of them
/// or none; tengen's scale). Returns the game played by the rules (finished or not), its book
/// in *book and, when the line gives scores, a malloc'd array of them in *scores, one per move
/// after the book (else NULL). NULL with a one-line message when the line does not read.
TgGame *tg_data_import_line(const char *line, TgRule rule, int size, int *book, int **scores,
                            char *err, size_t err_size);

/// What a data file holds (tg_data_summary).
typedef struct TgDataSummary {
    int64_t games;
    int64_t moves;                ///< all moves, random opening stones included
    int64_t positions;            ///< moves with a search score: the training samples
    int64_t results[3];           ///< games by winner (TgColor): Black, White, draws (TG_NOBODY)
    int64_t adjudicated;          ///< games decided by a forced-result score, not a five
    int64_t rules[TG_RULE_COUNT]; ///< games by rule
} TgDataSummary;

/// Reads a whole data file (files joined with cat included) and replays every game by its
/// rule: a move after a five, a renju foul, or a result that neither a five nor the last
/// score explains is refused like a malformed record, with the file offset and the fault.
TgError tg_data_summary(const char *path, TgDataSummary *out, char *err, size_t err_size);

/* ------------------------------------------------------------------------------------------ */
/* Opening rules (docs/rules.md §4) and the 26 renju openings (§5)                            */
/* ------------------------------------------------------------------------------------------ */

/// The 26 canonical renju openings: move 1 at the centre, move 2 next to it (direct: h9,
/// indirect: i9), move 3 in the central 5x5. Index 0..12 are 1D..13D, 13..25 are 1I..13I.
#define TG_RENJU_OPENINGS 26

typedef struct TgRenjuOpening {
    const char *code;    ///< "1D" .. "13D", "1I" .. "13I"
    const char *name;    ///< romanised Japanese: "Kansei"
    const char *chinese; ///< simplified Chinese: "寒星"
    const char *kanji;   ///< the Japanese form where it differs ("長星"), else the Chinese
    bool direct;         ///< move 2 orthogonal to move 1 (直指), else diagonal (斜指)
    const char *moves;   ///< the canonical placement on 15x15: "h8 h9 h10"
} TgRenjuOpening;

const TgRenjuOpening *tg_renju_opening(int index); ///< NULL when out of range
/// The index of an opening named by code ("2I", either case), romanised name (either case),
/// Chinese or kanji; -1 when none.
int tg_renju_opening_by_name(const char *name);
/// The three stones (black, white, black) of opening `index` centred on a size x size board
/// (odd size >= 5), turned by board symmetry `symmetry` (0..7, 0 = as in the table).
TgError tg_renju_opening_stones(int index, int size, int symmetry, TgPoint stones[3]);
/// Which opening three stones (black, white, black) are, in any of the 8 orientations; -1 when
/// they are none (move 1 off the centre, move 2 not next to it, move 3 outside the 5x5).
/// `symmetry` (may be NULL) gets one symmetry that maps the table's placement onto them.
int tg_renju_opening_index(const TgPoint stones[3], int size, int *symmetry);
/// Board symmetry k (0..7) of a point on a size x size board: k & 4 transposes, then k & 1
/// mirrors left-right and k & 2 top-bottom.
TgPoint tg_point_transform(TgPoint p, int size, int symmetry);

typedef enum TgOpeningRule {
    TG_OPENING_NONE,        ///< no opening rule: Black simply moves first
    TG_OPENING_SWAP1,       ///< one black stone, then the other player picks a colour
    TG_OPENING_SWAP,        ///< classic swap: three stones (B, W, B), then the colour pick
    TG_OPENING_SWAP2,       ///< three stones; take Black, take White or place two more
    TG_OPENING_RIF,         ///< one of the 26 openings, swap, move 4, two 5th offers
    TG_OPENING_YAMAGUCHI,   ///< as RIF, with N declared 5th offers
    TG_OPENING_SOOSORV8,    ///< swap, move 4 with N <= 8 declared, swap, N offers
    TG_OPENING_TARAGUCHI10, ///< swaps after moves 1-4, then move 5 in the 9x9 or 10 offers
    TG_OPENING_RULE_COUNT
} TgOpeningRule;

/// "none", "swap1", "swap", "swap2", "rif", "yamaguchi", "soosorv8", "taraguchi10".
const char *tg_opening_rule_name(TgOpeningRule rule);
/// Also accepts "soosorv-8", "taraguchi-10", "taraguchi" and upper case.
bool tg_opening_rule_from_name(const char *name, TgOpeningRule *rule);

/// The two people of an opening. Player 1 starts as (tentative) Black; swaps trade colours.
typedef enum TgPlayer { TG_PLAYER_1 = 0, TG_PLAYER_2 = 1 } TgPlayer;

typedef enum TgStepKind {
    TG_STEP_PLACE,   ///< place the next stone (its colour follows the stone count)
    TG_STEP_CHOOSE,  ///< pick one of `choices`
    TG_STEP_DECLARE, ///< declare the number of 5th-move offers, min..max
    TG_STEP_OFFER,   ///< offer one more 5th move (black), not symmetric to the earlier ones
    TG_STEP_SELECT,  ///< pick one of the offered 5th moves (then play move 6 as White)
    TG_STEP_DONE,    ///< the opening is over: play on by the game rule
} TgStepKind;

/// Choices, as bits of TgOpeningStep.choices. STAY keeps the chooser's colour and SWAP trades
/// colours with the other player (in swap2 after three stones: STAY = take White, SWAP = take
/// Black).
typedef enum TgChoice {
    TG_CHOICE_STAY = 1,
    TG_CHOICE_SWAP = 2,
    TG_CHOICE_PLACE_TWO = 4, ///< swap2: place moves 4 and 5, then the other player picks
    TG_CHOICE_OFFER = 8,     ///< Taraguchi-10: offer ten 5th moves instead of playing one
} TgChoice;

/// What the opening asks now, and of whom.
typedef struct TgOpeningStep {
    TgStepKind kind;
    TgPlayer player;  ///< who is asked (DONE: who moves next, by the game rule)
    TgColor color;    ///< that player's colour now (PLACE: the colour of the next stone)
    int count;        ///< PLACE: stones this player places in a row from here (this one
                      ///< included); OFFER: offers still to make
    int area;         ///< PLACE: the side of the central square the stone must be in (1 = the
                      ///< centre point); 0: anywhere
    unsigned choices; ///< CHOOSE: TgChoice bits allowed
    int min, max;     ///< DECLARE: the range of N
} TgOpeningStep;

#define TG_OPENING_MAX_OFFERS 10
#define TG_OPENING_MAX_STONES 5 ///< stones the opening itself places (moves 1-5)

typedef struct TgOpening TgOpening;

/// A new opening phase on a size x size board under the game rule. The renju-style rules
/// (RIF, Yamaguchi, Soosõrv-8, Taraguchi-10) need an odd size with their squares on it. NULL on
/// bad arguments or out of memory.
TgOpening *tg_opening_new(TgOpeningRule orule, TgRule rule, int size);
void tg_opening_free(TgOpening *op);
TgOpening *tg_opening_clone(const TgOpening *op);
TgOpeningRule tg_opening_rule(const TgOpening *op);
TgRule tg_opening_game_rule(const TgOpening *op);
int tg_opening_size(const TgOpening *op);

TgOpeningStep tg_opening_step(const TgOpening *op);
bool tg_opening_done(const TgOpening *op);

/* The actions. Each answers the current step; a refused action changes nothing and returns
 * TG_ERR_OFF_BOARD, TG_ERR_OCCUPIED, TG_ERR_PASS or TG_ERR_ARGUMENT (wrong step, outside the
 * square, symmetric or repeated offer, number out of range, choice not allowed, point not
 * offered), with the reason in tg_opening_why(). (No renju foul is possible with the at most
 * four black stones of an opening, so none is checked.) */
TgError tg_opening_place(TgOpening *op, TgPoint p);
TgError tg_opening_choose(TgOpening *op, TgChoice choice);
TgError tg_opening_declare(TgOpening *op, int n);
TgError tg_opening_offer(TgOpening *op, TgPoint p);
TgError tg_opening_select(TgOpening *op, TgPoint p);
/// Takes back the last action (TG_ERR_NOTHING at the start).
TgError tg_opening_undo(TgOpening *op);
/// Why the last action was refused ("j11 is outside the central 5x5 square"); "" after one
/// that was accepted.
const char *tg_opening_why(const TgOpening *op);

/// The stones placed so far, in move order (black first, colours alternate). Returns the count.
int tg_opening_stones(const TgOpening *op, TgPoint *out, int max);
/// The 5th moves offered so far (they stay listed after the selection). Returns the count.
int tg_opening_offers(const TgOpening *op, TgPoint *out, int max);
int tg_opening_declared(const TgOpening *op); ///< the declared N (0 before any declaration)
TgColor tg_opening_color_of(const TgOpening *op, TgPlayer player);
TgPlayer tg_opening_player_of(const TgOpening *op, TgColor color);
/// The renju opening the first three stones make (tg_renju_opening_index), or -1.
int tg_opening_renju_index(const TgOpening *op);

/// A new game holding the stones placed so far (the whole opening when done), played by the
/// game rule, with the record field "opening" set to tg_opening_text(). NULL out of memory.
TgGame *tg_opening_game(const TgOpening *op);
/// The actions so far as one line: the rule name, then per action a point (place, offer,
/// select), a choice word ("stay", "swap", "place-two", "offer") or a number (declare):
/// "swap2 h8 i9 j10 place-two h7 g6 swap". Returns the bytes needed (as snprintf).
size_t tg_opening_text(const TgOpening *op, char *buf, size_t size);
/// Replays such a line onto a new opening phase (whose rule it names). NULL with a message
/// on a bad line.
TgOpening *tg_opening_from_text(const char *text, TgRule rule, int size, char *err,
                                size_t err_size);
/// A sentence for a front end: what the step asks ("Player 2 (white): take Black, take White
/// or place two more stones"). Returns the bytes needed.
size_t tg_opening_step_text(const TgOpening *op, char *buf, size_t size);
const char *tg_choice_name(TgChoice choice); ///< "stay", "swap", "place-two", "offer"

/* ---- The engine's opening decisions (searches with the given limits) ---- */

typedef struct TgOpeningLimits {
    uint64_t nodes;         ///< most nodes per search (0: none)
    int64_t time_ms;        ///< most time per search (0: none)
    int depth;              ///< most depth per search (0: none)
    int margin;             ///< scores this close count as equal (0: 30)
    int candidates;         ///< random positions tried where there is free choice (0: 8)
    uint64_t seed;          ///< the randomness among near-equal choices
    const TgStopFlag *stop; ///< may be NULL
} TgOpeningLimits;

/// An answer to the current step; tg_opening_apply() performs it.
typedef struct TgOpeningDecision {
    TgStepKind kind;
    TgChoice choice;                       ///< CHOOSE
    int number;                            ///< DECLARE
    int count;                             ///< PLACE/OFFER: points; SELECT: 1
    TgPoint points[TG_OPENING_MAX_OFFERS]; ///< PLACE, OFFER, SELECT
    int score;      ///< the search score behind it, + = good for the decider's colour after
                    ///< it (PLACE: the first stone's colour); 0 where no score applies
    uint64_t nodes; ///< nodes searched for it
    char why[160];  ///< a sentence on how it was decided
} TgOpeningDecision;

/// Decides the current step for the player asked: stones close to balance where the other
/// player may swap next (the best move otherwise), the better colour, the best offer for the
/// selector, the offers worst for the selector, the N that balances the position. Errors:
/// TG_ERR_GAME_OVER when the opening is done, TG_ERR_MEMORY.
TgError tg_opening_decide(TgEngine *engine, const TgOpening *op, const TgOpeningLimits *limits,
                          TgOpeningDecision *out);
/// The nodes an opening decision searches for a computer of this level (a front end's
/// TgOpeningLimits.nodes): more for the stronger levels, a modest budget for the others.
uint64_t tg_opening_level_nodes(TgLevel level);
/// Performs a decision (all its points) on the opening.
TgError tg_opening_apply(TgOpening *op, const TgOpeningDecision *decision);

/// A starting position the engine judges close to even: among the 26 openings (renju 15x15
/// and up) or random central three-stone positions, the one whose search score is nearest 0.
typedef struct TgBalanced {
    TgPoint stones[3]; ///< black, white, black
    int opening;       ///< the renju opening they are (-1: none)
    int score;         ///< for White, to move
    uint64_t nodes;
} TgBalanced;
TgError tg_opening_balanced(TgEngine *engine, TgRule rule, int size, const TgOpeningLimits *limits,
                            TgBalanced *out);

#ifdef __cplusplus
}
#endif

#endif /* TENGEN_H */

/*
 * internal.h — what the brain's own files share and nothing else sees: the settings, the
 * search job and the Brain itself, and the few functions the protocol (protocol.c), the
 * searches (think.c) and the swap2 decisions (swap2.c) call across files.
 */
#ifndef TG_BRAIN_INTERNAL_H
#define TG_BRAIN_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "brain.h"

enum {
    DEFAULT_TURN_MS = 5000,
    UNLIMITED_MS = 2147483647, ///< the protocol's "no limit" for time_left and timeout_turn
    MAX_BODY = 2 * TG_MAX_SIZE * TG_MAX_SIZE + 4, ///< lines of a BOARD body (passes included)
    MAX_BLOCK = TG_MAX_SIZE * TG_MAX_SIZE,
    MAX_HASH_EXPONENT = 22,    ///< YXSHOWINFO: hash_size up to 2^22 KiB (4 GiB)
    OUT_SIZE = 8192,           ///< longest output line
    DRAW_ACCEPT = -400,        ///< YXDRAW: accept when the last eval is this bad or worse
    SWAP2_UNLIMITED_MS = 2000, ///< a SWAP2BOARD search's budget when no time limit is set
};

/// Memory (bytes) kept outside the hash: program, pattern tables, the search's scratch tables
/// (the root solver's 8 MiB table), stacks, plus each search thread's state and stack.
enum {
    MEMORY_BASE = 28 << 20,
    MEMORY_PER_THREAD = 3 << 20,
    MIN_HASH = 1 << 20,
    DEFAULT_HASH = 64 << 20,
    MEMORY_MIN = MEMORY_BASE + MEMORY_PER_THREAD + MIN_HASH, ///< the least max_memory honoured
};

/* ------------------------------------------------------------------------------------------ */
/* State                                                                                       */
/* ------------------------------------------------------------------------------------------ */

/// Everything INFO can set. A search works from a copy taken when it was asked for.
typedef struct Settings {
    int64_t timeout_turn;  ///< ms; 0: move at once; UNLIMITED_MS: none
    int64_t timeout_match; ///< ms; 0: none
    int64_t time_left;     ///< ms, may be negative; INT64_MAX: none
    int64_t increment;     ///< ms added after each move
    int64_t max_memory;    ///< bytes; 0: none
    int64_t max_node;      ///< <= 0: none
    int max_depth;         ///< <= 0: none
    int game_type;
    int rule_value; ///< as sent
    bool rule_ok;   ///< false: rule_value cannot be played (ERROR on the next command)
    TgRule rule;
    int threads;
    int64_t hash_kb; ///< Yixin's hash_size; 0: sized from max_memory
    int caution_factor, pondering, nbestsym;
    int detail;      ///< bit 0: REALTIME stream, bit 1: a MESSAGE line per depth
    TgLevel level;   ///< INFO level (a tengen key): max unless set
    bool detail_set; ///< show_detail was sent (YXSHOWINFO does not override it)
    char folder[256];
} Settings;

typedef enum Body {
    BODY_NONE,
    BODY_BOARD,
    BODY_YXBOARD,
    BODY_SWAP2,
    BODY_BLOCK,
    BODY_UNBLOCK
} Body;

static const char *const BODY_NAMES[] = {"",           "BOARD",   "YXBOARD",
                                         "SWAP2BOARD", "YXBLOCK", "YXBLOCKUNDO"};

typedef enum Task { TASK_MOVE, TASK_NBEST, TASK_DEFEND, TASK_SWAP2 } Task;

/// A search asked for, with the settings of that moment.
typedef struct Job {
    Task task;
    int64_t received_ms;
    int multipv;
    int stones; ///< SWAP2BOARD: stones in the body (0, 3 or 5)
    bool yixin; ///< swap2 asked by YXSWAP2STEPn: answers are MESSAGE SWAP2 lines
    Settings s;
    int time_serial;  ///< time_left's version when the job began
    int64_t spent_ms; ///< filled by brain_think
    const atomic_bool *stop;
} Job;

struct Brain {
    BrainConfig cfg;
    Settings s;
    int time_serial; ///< bumped whenever time_left is set from outside
    TgGame *game;    ///< NULL before START
    TgEngine *engine;
    size_t hash_applied; ///< the table size last asked for (the engine may hold less)
    int threads_applied;

    Body body;
    int64_t body_ms;
    int body_count;
    char body_error[128];
    TgPoint body_point[MAX_BODY];
    signed char body_field[MAX_BODY];

    TgPoint block[MAX_BLOCK];
    int block_count;

    bool thinking;
    Job job;
    int last_score; ///< the last search's eval for the side that moved
    bool have_score;
};

/* ---- Shared by the brain's files ------------------------------------------------------- */

/// Writes one output line through the write callback (printf-style; think.c).
void brain_out(Brain *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline int64_t brain_min64(int64_t a, int64_t b) { return a < b ? a : b; }

/// Limits for one search of the current job (think.c); `searches_left` shares out the turn.
void brain_limits(const Brain *b, TgSearchLimits *l, int searches_left);
/// Runs one search of the game's position; false (with ERROR written) when it cannot.
bool brain_search(Brain *b, int searches_left, bool use_blocks, TgSearchResult *r);
/// Plays the engine's move on the game and writes it (with its summary).
void brain_answer_move(Brain *b, const TgSearchResult *r);
/// YXSEARCHDEFEND: writes the root moves that do not lose by force, as far as the search saw.
void brain_answer_defend(Brain *b, const TgSearchResult *r);

/// SWAP2BOARD / YXSWAP2STEPn with `b->job.stones` stones on the board (swap2.c).
void brain_swap2(Brain *b);

#endif

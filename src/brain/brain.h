/*
 * brain.h — the Gomocup brain protocol (piskvork) with the Yixin-Board extensions, as a state
 * machine fed one input line at a time. It owns the game, the engine and the settings and
 * writes its answers through a callback, one line per call, so the protocol can be driven
 * without threads (tests, the fuzzer) or by the reader and search threads of loop.c.
 *
 * Threading contract (loop.c):
 *   - brain_command() and brain_settle() are called with one lock held (never concurrently);
 *   - when brain_command() returns BRAIN_THINK, brain_think() runs without that lock; meanwhile
 *     only INFO lines may be passed to brain_command() (they change settings, never the game
 *     or the engine: engine changes wait for brain_settle()), and the stop flag may be set;
 *   - brain_settle() then applies what waited and ends the thinking state.
 * The write callback may be called from brain_think() (search progress), so it must be safe to
 * call from that thread while the lock holder writes too (loop.c uses an output mutex).
 */
#ifndef TG_BRAIN_H
#define TG_BRAIN_H

#include <stdatomic.h>
#include <stdio.h>

#include "../tengen.h"

/// Longest input line honoured; a longer one is answered with ERROR (its start is passed in).
#define BRAIN_MAX_LINE 4096

typedef struct Brain Brain;

/// Writes one output line (no line end) and flushes it.
typedef void (*BrainWrite)(void *user, const char *line);

typedef struct BrainConfig {
    BrainWrite write;
    void *user;
    /* Caps for tests and fuzzers; 0 = none. */
    uint64_t node_cap;       ///< most nodes one search may visit
    size_t hash_cap;         ///< most bytes of transposition table
    int thread_cap;          ///< most search threads
    int64_t default_turn_ms; ///< turn time when no INFO says otherwise (0: 5000)
} BrainConfig;

typedef enum BrainStatus {
    BRAIN_IDLE,  ///< the line was handled (any answer written)
    BRAIN_THINK, ///< a search is prepared: call brain_think(), then brain_settle()
    BRAIN_QUIT,  ///< END (or end of input): quit without writing anything more
} BrainStatus;

Brain *brain_new(const BrainConfig *config); ///< NULL when out of memory
void brain_free(Brain *b);

/// Handles one input line (without its line end). `received_ms` is the tg_now_ms() reading
/// when the line arrived: time limits count from it.
BrainStatus brain_command(Brain *b, const char *line, int64_t received_ms);

/// Runs the prepared search and writes its answer. `stop` ends it early (YXSTOP, END).
void brain_think(Brain *b, const atomic_bool *stop);
/// After brain_think(): applies settings that waited for the search (hash, threads).
void brain_settle(Brain *b);
/// True between BRAIN_THINK and brain_settle().
bool brain_thinking(const Brain *b);

/// One line, synchronously: brain_command() plus brain_think() and brain_settle() when needed.
BrainStatus brain_feed(Brain *b, const char *line, const atomic_bool *stop);

/// The input ended: tells (ERROR) about a body left without DONE.
void brain_eof(Brain *b);

/// The whole brain process: reads `in` in this thread, searches in another, writes `out`
/// (every line flushed). Returns at END or when the input ends; the exit status.
int brain_run(FILE *in, FILE *out);

/// The upper-cased first word of `line` (at most size - 1 characters), for dispatching.
void brain_keyword(const char *line, char *word, size_t size);

#endif

/*
 * timeman.h — turns a time control (Gomocup limits, a game clock) into a plan for one move: an
 * optimum to aim at and a hard maximum the search must never pass. Pure arithmetic, but for the
 * core's one clock (tm_now_ns), which the search reads to compare against the plan.
 */
#ifndef TG_TIMEMAN_H
#define TG_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#define TM_UNLIMITED INT64_MAX

/// Monotonic nanoseconds: the one clock of the core (tg_now_ms reads it too).
int64_t tm_now_ns(void);

/// Limits for one move, in milliseconds. TM_UNLIMITED where there is no limit of that kind.
typedef struct TimeControl {
    int64_t turn_ms;      ///< most time for this move; 0 = move at once
    int64_t left_ms;      ///< time left for the rest of the game; may be negative
    int64_t increment_ms; ///< added after each move
    int empty_cells;      ///< empty points on the board, to guess how many moves are left
} TimeControl;

typedef struct TimePlan {
    int64_t optimum_ms; ///< stop starting new iterations past this
    int64_t maximum_ms; ///< abort the search here, whatever it is doing
    bool instant;       ///< no time to think: answer with the quickest sound move
} TimePlan;

/// The plan for one move. maximum_ms keeps a reserve below every limit, so a search that stops
/// at maximum_ms and then answers still finishes inside the limit.
TimePlan tm_plan(const TimeControl *tc);

/// Milliseconds kept back from every limit for answering and for the gap between clock checks.
int64_t tm_reserve_ms(const TimeControl *tc);

#endif

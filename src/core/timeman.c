/*
 * timeman.c — the time plan. A move may use a share of the game time left (the moves still to
 * come are guessed from the empty cells, because Gomoku games end long before the board fills),
 * plus most of the increment, and never more than the turn limit. Every limit is reduced by a
 * reserve, so the answer is on time even when the manager allows no tolerance.
 */
#include "timeman.h"

#include <time.h>

/// Tunables, in one place.
static const struct {
    int64_t reserve_ms;   ///< kept back from every limit
    int reserve_permille; ///< ... or this share of the limit, when larger
    int moves_left_min;   ///< the game is guessed to last at least this many more moves
    int moves_left_max;
    int cells_per_move;     ///< one own move per this many empty cells, within the bounds
    int max_share_divisor;  ///< one move takes at most left / this
    int increment_permille; ///< share of the increment spent on a move
} PARAMS = {30, 20, 12, 35, 6, 5, 800};

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

int64_t tm_reserve_ms(const TimeControl *tc) {
    int64_t limit = min64(tc->turn_ms, tc->left_ms);
    if (limit == TM_UNLIMITED || limit <= 0) return PARAMS.reserve_ms;
    return max64(PARAMS.reserve_ms, limit / 1000 * PARAMS.reserve_permille);
}

static int moves_left(int empty_cells) {
    int n = empty_cells / PARAMS.cells_per_move;
    return n < PARAMS.moves_left_min   ? PARAMS.moves_left_min
           : n > PARAMS.moves_left_max ? PARAMS.moves_left_max
                                       : n;
}

/// Optimum and maximum from the game time alone.
static TimePlan plan_from_game_time(const TimeControl *tc, int64_t reserve) {
    TimePlan p = {TM_UNLIMITED, TM_UNLIMITED, false};
    if (tc->left_ms == TM_UNLIMITED) return p;
    const int64_t usable = tc->left_ms - reserve;
    const int64_t inc = tc->increment_ms == TM_UNLIMITED ? 0 : tc->increment_ms;
    const int64_t inc_share = inc / 1000 * PARAMS.increment_permille;
    p.optimum_ms = usable / moves_left(tc->empty_cells) + inc_share;
    p.maximum_ms = min64(usable / PARAMS.max_share_divisor + inc_share, usable);
    return p;
}

TimePlan tm_plan(const TimeControl *tc) {
    const int64_t reserve = tm_reserve_ms(tc);
    TimePlan p = plan_from_game_time(tc, reserve);
    if (tc->turn_ms != TM_UNLIMITED) {
        const int64_t turn_cap = tc->turn_ms - reserve;
        p.maximum_ms = min64(p.maximum_ms, turn_cap);
        p.optimum_ms = min64(p.optimum_ms, turn_cap);
    }
    p.optimum_ms = min64(p.optimum_ms, p.maximum_ms);
    if (p.maximum_ms <= 0 || tc->turn_ms == 0) {
        p.optimum_ms = p.maximum_ms = 0;
        p.instant = true;
    }
    return p;
}

int64_t tm_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

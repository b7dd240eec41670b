/*
 * test_timeman.c — the time plan: the hard maximum is inside every limit with its reserve, for
 * a sweep of limits including zero, negative and unlimited ones; the optimum's stretch follows
 * the search's doubts within its bounds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/core/timeman.h"

static TimeControl tc_make(int64_t turn, int64_t left, int64_t inc, int empty) {
    return (TimeControl){turn, left, inc, empty};
}

static void test_unlimited(void **state) {
    (void)state;
    TimeControl tc = tc_make(TM_UNLIMITED, TM_UNLIMITED, 0, 200);
    TimePlan p = tm_plan(&tc);
    assert_false(p.instant);
    assert_true(p.maximum_ms == TM_UNLIMITED);
}

static void test_turn_zero_is_instant(void **state) {
    (void)state;
    TimeControl tc = tc_make(0, 100000, 0, 200);
    TimePlan p = tm_plan(&tc);
    assert_true(p.instant);
    assert_int_equal(p.maximum_ms, 0);
}

static void test_no_time_left_is_instant(void **state) {
    (void)state;
    TimeControl tc = tc_make(5000, -20, 0, 200);
    assert_true(tm_plan(&tc).instant);
    tc.left_ms = 10; /* less than the reserve */
    assert_true(tm_plan(&tc).instant);
}

static void test_turn_limit_only(void **state) {
    (void)state;
    TimeControl tc = tc_make(5000, TM_UNLIMITED, 0, 200);
    TimePlan p = tm_plan(&tc);
    assert_int_equal(p.maximum_ms, 5000 - tm_reserve_ms(&tc));
    assert_true(p.optimum_ms <= p.maximum_ms);
    assert_true(p.maximum_ms < 5000);
}

static void test_game_time_is_shared_out(void **state) {
    (void)state;
    /* Gomocup fastgame: 5 s a move, 120 s a game, at the start of the game. */
    TimeControl tc = tc_make(5000, 120000, 0, 220);
    TimePlan p = tm_plan(&tc);
    assert_true(p.optimum_ms > 1000 && p.optimum_ms < 5000);
    assert_true(p.maximum_ms <= 5000 - tm_reserve_ms(&tc));
    /* Late and short of time: the plan shrinks with the time left. */
    tc.left_ms = 3000;
    p = tm_plan(&tc);
    assert_true(p.maximum_ms <= 3000 / 5);
    assert_true(p.optimum_ms <= 3000 / 12);
}

static void test_increment_is_spent(void **state) {
    (void)state;
    TimeControl a = tc_make(TM_UNLIMITED, 60000, 0, 150), b = a;
    b.increment_ms = 2000;
    assert_true(tm_plan(&b).optimum_ms > tm_plan(&a).optimum_ms);
}

/// The promise: for every limit, maximum + reserve stays within the turn limit and the time
/// left, and optimum <= maximum.
static void test_sweep_never_exceeds(void **state) {
    (void)state;
    const int64_t limits[] = {-1000, -1,    0,      1,      5,       29,         30,
                              31,    50,    100,    200,    500,     1000,       3000,
                              5000,  30000, 120000, 300000, 1000000, 2147483647, TM_UNLIMITED};
    const int n = (int)(sizeof limits / sizeof limits[0]);
    for (int t = 0; t < n; t++) {
        for (int l = 0; l < n; l++) {
            for (int empty = 0; empty <= 484; empty += 121) {
                TimeControl tc = tc_make(limits[t], limits[l], 1000, empty);
                TimePlan p = tm_plan(&tc);
                assert_true(p.optimum_ms <= p.maximum_ms);
                assert_true(p.maximum_ms >= 0);
                if (p.instant) continue;
                const int64_t reserve = tm_reserve_ms(&tc);
                if (limits[t] != TM_UNLIMITED) assert_true(p.maximum_ms + reserve <= limits[t]);
                if (limits[l] != TM_UNLIMITED) assert_true(p.maximum_ms + reserve <= limits[l]);
            }
        }
    }
}

static double scale_of(double changes, int last_score, int score) {
    const TimeStability st = {changes, last_score, score};
    return tm_optimum_scale(&st);
}

static void test_settled_search_is_neutral(void **state) {
    (void)state;
    assert_true(scale_of(0, 40, 40) == 1.0);
}

static void test_best_move_changes_stretch(void **state) {
    (void)state;
    double changes = tm_stability(0, true);
    assert_true(changes == 1.0);
    assert_true(scale_of(changes, 40, 40) > 1.5);
    /* A change long ago counts for less at each depth. */
    for (int d = 0; d < 4; d++) changes = tm_stability(changes, false);
    assert_true(changes < 0.1);
    assert_true(scale_of(changes, 40, 40) < 1.1);
}

static void test_score_direction(void **state) {
    (void)state;
    assert_true(scale_of(0, 100, 0) > 1.2);   /* falling: more time */
    assert_true(scale_of(0, 0, 100) < 0.8);   /* rising: less */
    assert_true(scale_of(0, 0, 5000) >= 0.5); /* bounded */
}

static void test_scale_bounds(void **state) {
    (void)state;
    for (int changes = 0; changes <= 8; changes++)
        for (int drop = -2000; drop <= 2000; drop += 50) {
            const double s = scale_of(changes, drop, 0);
            assert_true(s >= 0.5 && s <= 2.5);
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unlimited),
        cmocka_unit_test(test_turn_zero_is_instant),
        cmocka_unit_test(test_no_time_left_is_instant),
        cmocka_unit_test(test_turn_limit_only),
        cmocka_unit_test(test_game_time_is_shared_out),
        cmocka_unit_test(test_increment_is_spent),
        cmocka_unit_test(test_sweep_never_exceeds),
        cmocka_unit_test(test_settled_search_is_neutral),
        cmocka_unit_test(test_best_move_changes_stretch),
        cmocka_unit_test(test_score_direction),
        cmocka_unit_test(test_scale_bounds),
    };
    return cmocka_run_group_tests_name("timeman", tests, NULL, NULL);
}

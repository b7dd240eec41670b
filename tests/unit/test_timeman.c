/*
 * test_timeman.c — the time plan: the hard maximum is inside every limit with its reserve, for
 * a sweep of limits including zero, negative and unlimited ones.
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unlimited),
        cmocka_unit_test(test_turn_zero_is_instant),
        cmocka_unit_test(test_no_time_left_is_instant),
        cmocka_unit_test(test_turn_limit_only),
        cmocka_unit_test(test_game_time_is_shared_out),
        cmocka_unit_test(test_increment_is_spent),
        cmocka_unit_test(test_sweep_never_exceeds),
    };
    return cmocka_run_group_tests_name("timeman", tests, NULL, NULL);
}

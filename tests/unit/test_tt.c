/*
 * test_tt.c — the transposition table: every field of an entry read back as stored (negative
 * scores and depths, the PV flag), the same key overwritten in place with its best move kept,
 * a full cluster giving up its least valuable entry, clearing (a table no search has used is
 * left as it is), and using only part of the table (tt_use).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/core/tt.h"

static Tt table(void) {
    Tt tt = {0};
    assert_true(tt_resize(&tt, 1 << 16));
    return tt;
}

static void test_fields_read_back(void **state) {
    (void)state;
    Tt tt = table();
    const struct {
        uint64_t key;
        Pos move;
        int score, depth;
        Bound bound;
        bool pv;
    } cases[] = {
        {0x1234567890abcdefULL, 100, 2500, 12 * DEPTH_UNIT + 5, BOUND_EXACT, true},
        {0x0fedcba987654321ULL, 7, -31000, -3 * DEPTH_UNIT, BOUND_UPPER, false},
        {0x1111222233334444ULL, POS_NONE, 0, 0, BOUND_LOWER, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        tt_store(&tt, cases[i].key, cases[i].move, cases[i].score, cases[i].depth, cases[i].bound,
                 cases[i].pv);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TtHit hit;
        assert_true(tt_probe(&tt, cases[i].key, &hit));
        assert_int_equal(hit.move, cases[i].move);
        assert_int_equal(hit.score, cases[i].score);
        assert_int_equal(hit.depth, cases[i].depth);
        assert_int_equal(hit.bound, cases[i].bound);
        assert_int_equal(hit.pv, cases[i].pv);
    }
    TtHit hit;
    assert_false(tt_probe(&tt, 0x5555666677778888ULL, &hit));
    tt_free(&tt);
}

static void test_same_key_overwritten(void **state) {
    (void)state;
    Tt tt = table();
    const uint64_t key = 0xabcdef0123456789ULL;
    tt_store(&tt, key, 42, 10, 5 * DEPTH_UNIT, BOUND_LOWER, true);
    tt_store(&tt, key, POS_NONE, -20, 6 * DEPTH_UNIT, BOUND_UPPER, false);
    TtHit hit;
    assert_true(tt_probe(&tt, key, &hit));
    assert_int_equal(hit.move, 42); /* a result with no move keeps the old one */
    assert_int_equal(hit.score, -20);
    assert_int_equal(hit.depth, 6 * DEPTH_UNIT);
    assert_int_equal(hit.bound, BOUND_UPPER);
    assert_false(hit.pv);
    tt_free(&tt);
}

static void test_full_cluster_replaces_shallowest(void **state) {
    (void)state;
    Tt tt = table();
    /* Keys that differ only above the mask share one cluster. */
    const uint64_t step = (uint64_t)(tt.mask + 1);
    const int depths[TT_WAYS] = {8, 3, 9, 6};
    for (int i = 0; i < TT_WAYS; i++)
        tt_store(&tt, 5 + step * (uint64_t)(i + 1), 1, 0, depths[i] * DEPTH_UNIT, BOUND_EXACT,
                 false);
    tt_store(&tt, 5 + step * 99, 2, 0, 4 * DEPTH_UNIT, BOUND_EXACT, true);
    TtHit hit;
    assert_true(tt_probe(&tt, 5 + step * 99, &hit));
    assert_false(tt_probe(&tt, 5 + step * 2, &hit)); /* the 3-ply entry went */
    for (int i = 0; i < TT_WAYS; i++)
        if (i != 1) assert_true(tt_probe(&tt, 5 + step * (uint64_t)(i + 1), &hit));
    tt_free(&tt);
}

static void test_clear(void **state) {
    (void)state;
    Tt tt = table();
    TtHit hit;
    tt_clear(&tt); /* no search yet: nothing to do, and the table reads empty */
    assert_false(tt_probe(&tt, 77, &hit));
    tt_new_search(&tt);
    tt_store(&tt, 77, 9, 1, DEPTH_UNIT, BOUND_EXACT, false);
    assert_true(tt_probe(&tt, 77, &hit));
    tt_clear(&tt);
    assert_false(tt_probe(&tt, 77, &hit));
    /* A second search after the clear is cleared again. */
    tt_new_search(&tt);
    tt_store(&tt, 78, 9, 1, DEPTH_UNIT, BOUND_EXACT, false);
    tt_clear(&tt);
    assert_false(tt_probe(&tt, 78, &hit));
    /* A resized table is new: empty, whatever the old one held. */
    tt_new_search(&tt);
    tt_store(&tt, 79, 9, 1, DEPTH_UNIT, BOUND_EXACT, false);
    assert_true(tt_resize(&tt, 1 << 17));
    assert_false(tt_probe(&tt, 79, &hit));
    tt_free(&tt);
}

static void test_use_part(void **state) {
    (void)state;
    Tt tt = {0};
    assert_true(tt_resize(&tt, 1 << 20)); /* 16,384 clusters of 64 bytes */
    const size_t all = tt.mask;
    assert_int_equal(all + 1, 16384);
    tt_use(&tt, 1 << 16);
    assert_int_equal(tt.mask + 1, 1024);
    assert_int_equal(tt_bytes(&tt), 1 << 20); /* the allocation stays whole */
    tt_use(&tt, 100);                         /* never below the least table */
    assert_int_equal(tt.mask + 1, 1024);
    tt_use(&tt, (size_t)1 << 30); /* never above the allocation */
    assert_int_equal(tt.mask, all);

    /* An entry stored with the whole table lies outside a smaller part: it misses, never
     * answers for another key, and is found again when the whole table is back. */
    TtHit hit;
    tt_new_search(&tt);
    const uint64_t far = 5 + 1024 * 7;
    tt_store(&tt, far, 3, 40, 2 * DEPTH_UNIT, BOUND_EXACT, false);
    tt_use(&tt, 1 << 16);
    assert_false(tt_probe(&tt, far, &hit));
    assert_false(tt_probe(&tt, 5, &hit));
    tt_store(&tt, far, 4, 50, 3 * DEPTH_UNIT, BOUND_LOWER, false); /* lands in cluster 5 */
    assert_true(tt_probe(&tt, far, &hit));
    assert_int_equal(hit.move, 4);
    tt_use(&tt, 0);
    assert_true(tt_probe(&tt, far, &hit));
    assert_int_equal(hit.move, 3);

    /* Clearing empties every part a search has used, not only the part in use now. */
    tt_use(&tt, 1 << 16);
    tt_clear(&tt);
    tt_use(&tt, 0);
    assert_false(tt_probe(&tt, far, &hit));
    tt_free(&tt);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields_read_back),
        cmocka_unit_test(test_same_key_overwritten),
        cmocka_unit_test(test_full_cluster_replaces_shallowest),
        cmocka_unit_test(test_clear),
        cmocka_unit_test(test_use_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

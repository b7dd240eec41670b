/*
 * test_board.c — the board's incremental state: 10^5 random moves played and undone, with the
 * hash, line keys and counts compared against a from-scratch recomputation at every step.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "../../src/core/board.h"
#include "../../src/core/line.h"
#include "../../src/core/zobrist.h"

/// Plays random games on a w x h board for `steps` steps: each step either plays a random
/// empty point (or sometimes passes) or undoes, checking consistency every time.
static void random_walk(int w, int h, int steps, uint64_t seed) {
    Board b;
    uint64_t rng = seed;
    uint64_t hashes[MAX_PLY];
    board_init(&b, TG_FREESTYLE, w, h);
    assert_true(board_is_consistent(&b));
    const uint64_t empty_hash = b.hash;
    for (int i = 0; i < steps; i++) {
        uint64_t r = splitmix64(&rng);
        bool undo = b.ply > 0 && (r % 3 == 0 || b.stone_count == w * h || b.ply >= MAX_PLY - 2);
        if (undo) {
            board_undo(&b);
            /* The hash after an undo is the one the position had before. */
            if (b.ply > 0)
                assert_int_equal(b.hash, hashes[b.ply - 1]);
            else
                assert_int_equal(b.hash, empty_hash);
        } else {
            Pos p;
            if (r % 50 == 1) {
                p = POS_PASS;
            } else {
                do {
                    uint64_t s = splitmix64(&rng);
                    p = pos_make((int)(s % (uint64_t)w), (int)((s >> 32) % (uint64_t)h));
                } while (!board_empty(&b, p));
            }
            board_play(&b, p);
            hashes[b.ply - 1] = b.hash;
        }
        assert_true(board_is_consistent(&b));
    }
    while (b.ply) board_undo(&b);
    assert_int_equal(b.hash, empty_hash);
    assert_int_equal(b.stone_count, 0);
    assert_true(board_is_consistent(&b));
}

static void test_round_trip_15(void **state) {
    (void)state;
    random_walk(15, 15, 50000, 1);
}

static void test_round_trip_sizes(void **state) {
    (void)state;
    random_walk(5, 5, 10000, 2);
    random_walk(22, 22, 20000, 3);
    random_walk(7, 15, 10000, 4);
    random_walk(22, 5, 10000, 5);
}

static void test_padding_is_wall(void **state) {
    (void)state;
    Board b;
    board_init(&b, TG_RENJU, 22, 22);
    /* Every cell within 5 steps of the board is in the array, and off-board cells are walls. */
    for (int y = 0; y < 22; y++) {
        for (int x = 0; x < 22; x++) {
            for (int d = 0; d < 4; d++) {
                for (int k = -LINE_HALF; k <= LINE_HALF; k++) {
                    int n = pos_make(x, y) + k * DIR[d];
                    assert_true(n >= 0 && n < BOARD_CELLS);
                    int nx = x + k * (d == 0 || d == 2 ? 1 : d == 3 ? -1 : 0);
                    int ny = y + k * (d == 0 ? 0 : 1);
                    bool on = nx >= 0 && ny >= 0 && nx < 22 && ny < 22;
                    assert_int_equal(b.cell[n] != WALL, on);
                }
            }
        }
    }
    assert_int_equal(b.cell[POS_NONE], WALL);
    assert_int_equal(b.cell[POS_PASS], WALL);
}

static void test_line_keys(void **state) {
    (void)state;
    Board b;
    Color line[LINE_LEN];
    board_init(&b, TG_FREESTYLE, 15, 15);
    /* a15 is the top-left corner: along the row, the left half is wall, the right half empty. */
    line_from_key(b.key[pos_make(0, 0)][0], BLACK, line);
    for (int i = 0; i < LINE_HALF; i++) assert_int_equal(line[i], WALL);
    assert_int_equal(line[LINE_HALF], BLACK);
    for (int i = LINE_HALF + 1; i < LINE_LEN; i++) assert_int_equal(line[i], EMPTY);
    /* h8 then i8 (White): i8 is at +1 from h8 and h8 at -1 from i8 along the row. */
    board_play(&b, pos_make(7, 7));
    board_play(&b, pos_make(8, 7));
    line_from_key(b.key[pos_make(7, 7)][0], EMPTY, line);
    assert_int_equal(line[LINE_HALF + 1], WHITE);
    line_from_key(b.key[pos_make(8, 7)][0], EMPTY, line);
    assert_int_equal(line[LINE_HALF - 1], BLACK);
    /* Diagonal (\, +33): g7 is the cell up-left of h8 on screen, so h8 sits at +1 from it. */
    line_from_key(b.key[pos_make(6, 6)][2], EMPTY, line);
    assert_int_equal(line[LINE_HALF + 1], BLACK);
}

static void test_hash_is_position_not_path(void **state) {
    (void)state;
    Board a, b;
    board_init(&a, TG_FREESTYLE, 15, 15);
    board_init(&b, TG_FREESTYLE, 15, 15);
    Pos m[4] = {pos_make(7, 7), pos_make(8, 8), pos_make(6, 6), pos_make(9, 9)};
    for (int i = 0; i < 4; i++) board_play(&a, m[i]);
    board_play(&b, m[2]);
    board_play(&b, m[3]);
    board_play(&b, m[0]);
    board_play(&b, m[1]);
    assert_int_equal(a.hash, b.hash);
    /* Same stones with the other side to move hash differently. */
    board_play(&b, POS_PASS);
    assert_int_not_equal(a.hash, b.hash);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_15),
        cmocka_unit_test(test_round_trip_sizes),
        cmocka_unit_test(test_padding_is_wall),
        cmocka_unit_test(test_line_keys),
        cmocka_unit_test(test_hash_is_position_not_path),
    };
    return cmocka_run_group_tests_name("board", tests, NULL, NULL);
}

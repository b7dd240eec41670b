/*
 * test_winlines.c — the beginner level's win-lines player on hand-made positions: the count of
 * rows of five on boards of every shape, the scores of an empty board, rows blocked by the
 * opponent, the overline rows that do not count under standard and renju, renju fouls never
 * played, and the level through the public API (seeded randomness, excluded points).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "../../src/core/board.h"
#include "../../src/core/rules.h"
#include "../../src/core/winlines.h"

enum { BIG = 1000000 }; ///< a five to make earns at least this much (OWN_POINTS[4])

static Pos at(const char *text) {
    TgPoint p;
    assert_int_equal(tg_point_from_text(text, 15, 15, &p), TG_OK);
    return pos_make(p.x, p.y);
}

/// A 15x15 diagram: the listed stones, then `to_move` to play (a pass makes it White's turn).
static void setup(Board *b, Rule rule, const char *black, const char *white, Color to_move) {
    board_init(b, rule, 15, 15);
    char buf[256];
    const char *lists[2] = {black, white};
    for (int c = 0; c < 2; c++) {
        snprintf(buf, sizeof buf, "%s", lists[c]);
        for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
            board_put(b, at(t), (Color)c);
    }
    if (to_move == WHITE) board_play(b, POS_PASS);
}

static int best_score(const int score[BOARD_CELLS]) {
    int best = 0;
    for (int i = 0; i < BOARD_CELLS; i++)
        if (score[i] > best) best = score[i];
    return best;
}

static void test_line_count(void **state) {
    (void)state;
    assert_int_equal(winlines_count(15, 15), 572);
    assert_int_equal(winlines_count(5, 5), 12);      /* 5 rows, 5 columns, 2 diagonals */
    assert_int_equal(winlines_count(20, 20), 1152);  /* 2 * 16 * 20 + 2 * 16 * 16 */
    assert_int_equal(winlines_count(15, 10), 332);   /* 11 * 10 + 15 * 6 + 2 * 11 * 6 */
    assert_int_equal(winlines_count(4, 15), 11 * 4); /* columns only */
}

static void test_empty_board(void **state) {
    (void)state;
    Board b;
    setup(&b, TG_FREESTYLE, "", "", BLACK);
    int score[BOARD_CELLS];
    winlines_score(&b, score);
    /* Every one of the 572 rows gives each of its 5 cells 1 point per colour. */
    long total = 0;
    for (int i = 0; i < BOARD_CELLS; i++) total += score[i];
    assert_int_equal(total, 572 * 5 * 2);
    assert_int_equal(score[at("h8")], 20 * 2); /* 4 directions x 5 rows */
    assert_int_equal(score[at("a1")], 3 * 2);  /* one row each way */
    const Pos p = winlines_pick(&b, 7, NULL, 0);
    assert_int_equal(score[p], 40); /* a cell with all 20 rows: the middle of the board */
}

static void test_blocked_row(void **state) {
    (void)state;
    Board b;
    int n, score[BOARD_CELLS];
    /* Black's open four d8-g8: both ends make five. */
    setup(&b, TG_FREESTYLE, "d8 e8 f8 g8", "a1", BLACK);
    assert_true(winlines_live(&b, at("d8"), 0, BLACK, &n));
    assert_int_equal(n, 4);
    winlines_score(&b, score);
    assert_true(score[at("c8")] >= BIG && score[at("h8")] >= BIG);
    /* White at c8 blocks the rows through it: only h8 makes five. */
    setup(&b, TG_FREESTYLE, "d8 e8 f8 g8", "c8", BLACK);
    assert_false(winlines_live(&b, at("c8"), 0, BLACK, &n));
    winlines_score(&b, score);
    assert_true(score[at("h8")] >= BIG);
    assert_int_equal(winlines_pick(&b, 1, NULL, 0), at("h8"));
    /* Blocked at both ends: no five left, and no row holds four. */
    setup(&b, TG_FREESTYLE, "d8 e8 f8 g8", "c8 h8", BLACK);
    assert_false(winlines_live(&b, at("d8"), 0, BLACK, &n));
    winlines_score(&b, score);
    assert_true(best_score(score) < BIG);
    /* The rows are White's to block: White (to move) takes h8, whatever the seed. */
    setup(&b, TG_FREESTYLE, "d8 e8 f8 g8", "c8 a1 a2", WHITE);
    for (uint64_t seed = 0; seed < 8; seed++)
        assert_int_equal(winlines_pick(&b, seed, NULL, 0), at("h8"));
    /* ... unless White has a five of its own to make. */
    setup(&b, TG_FREESTYLE, "d8 e8 f8 g8", "c8 b2 b3 b4 b5", WHITE);
    const Pos p = winlines_pick(&b, 3, NULL, 0);
    assert_true(p == at("b1") || p == at("b6"));
}

static void test_overline_rows(void **state) {
    (void)state;
    Board b;
    int n, score[BOARD_CELLS];
    /* c8 d8 e8 f8 . h8: g8 makes six. The rows c8-g8 and d8-h8 hold four Black stones. */
    for (Rule rule = TG_FREESTYLE; rule <= TG_RENJU; rule++) {
        setup(&b, rule, "c8 d8 e8 f8 h8", "a1 a2 a3 a4 a15", BLACK);
        const bool exact = rule != TG_FREESTYLE;
        assert_int_equal(winlines_live(&b, at("d8"), 0, BLACK, &n), !exact);
        assert_int_equal(winlines_live(&b, at("c8"), 0, BLACK, &n), !exact);
        winlines_score(&b, score);
        assert_int_equal(score[at("g8")] >= BIG, !exact);
        /* b8 makes the exact five b8-f8 under every rule (g8 stays empty). */
        assert_true(score[at("b8")] >= BIG);
    }
    /* Renju: White's overline wins, so White's rows next to its own stones count. */
    setup(&b, TG_RENJU, "a1 a2 a3 a4", "c8 d8 e8 f8 h8", WHITE);
    assert_true(winlines_live(&b, at("d8"), 0, WHITE, &n));
    winlines_score(&b, score);
    assert_true(score[at("g8")] >= BIG);
}

static void test_renju_foul_never_played(void **state) {
    (void)state;
    Board b;
    int score[BOARD_CELLS];
    /* g8 is Black's best cell by far: a four across (d8 e8 f8) and one down (g5 g6 g7). Under
     * renju it is a double four, a foul. */
    const char *black = "d8 e8 f8 g5 g6 g7", *white = "a1 a15 o1 o15 a8 o8";
    setup(&b, TG_FREESTYLE, black, white, BLACK);
    winlines_score(&b, score);
    assert_int_equal(score[at("g8")], best_score(score));
    for (uint64_t seed = 0; seed < 8; seed++)
        assert_int_equal(winlines_pick(&b, seed, NULL, 0), at("g8"));
    setup(&b, TG_RENJU, black, white, BLACK);
    assert_int_equal(renju_foul(&b, at("g8")), TG_FOUL_DOUBLE_FOUR);
    for (uint64_t seed = 0; seed < 8; seed++) {
        const Pos p = winlines_pick(&b, seed, NULL, 0);
        assert_int_not_equal(p, at("g8"));
        assert_int_equal(renju_foul(&b, p), TG_FOUL_NONE);
    }
    /* White may take the point. */
    setup(&b, TG_RENJU, white, black, WHITE);
    assert_int_equal(winlines_pick(&b, 1, NULL, 0), at("g8"));
}

static void test_excluded_and_full(void **state) {
    (void)state;
    Board b;
    setup(&b, TG_FREESTYLE, "d8 e8 f8 g8", "c8", BLACK);
    const Pos no[1] = {at("h8")};
    assert_int_not_equal(winlines_pick(&b, 1, no, 1), at("h8"));
    /* A full 5x5 board: nothing to play. */
    board_init(&b, TG_FREESTYLE, 5, 5);
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 5; x++)
            board_put(&b, pos_make(x, y), (Color)((x + 2 * y) % 2 ? WHITE : BLACK));
    assert_int_equal(winlines_pick(&b, 1, NULL, 0), POS_NONE);
}

/// The level through the public API: legal moves, the same move for the same seed, different
/// moves for some seeds, on boards of other sizes too.
static void test_level_api(void **state) {
    (void)state;
    TgEngine *e = tg_engine_new(1, 1 << 20);
    TgLevel level;
    assert_true(tg_level_from_name("beginner", &level));
    assert_int_equal(level, TG_LEVEL_BEGINNER);
    assert_string_equal(tg_level_name(TG_LEVEL_BEGINNER), "beginner");
    TgGame *g = tg_game_new(TG_RENJU, 15, 15);
    TgPoint m[3] = {{7, 7}, {7, 6}, {8, 8}};
    assert_int_equal(tg_game_set_moves(g, m, 3, NULL), TG_OK);
    TgSearchResult r1, r2;
    bool differ = false;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        TgSearchLimits l = {.level = TG_LEVEL_BEGINNER, .seed = seed};
        assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r1), TG_OK);
        assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r2), TG_OK);
        assert_memory_equal(&r1.best, &r2.best, sizeof r1.best);
        assert_int_equal(tg_game_check(g, r1.best, NULL), TG_OK);
        l.seed = seed + 1000;
        assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r2), TG_OK);
        differ |= r1.best.x != r2.best.x || r1.best.y != r2.best.y;
    }
    assert_true(differ);
    tg_game_free(g);
    /* A whole game on a 7x9 board, both sides beginner: every move legal. */
    g = tg_game_new(TG_STANDARD, 7, 9);
    TgSearchLimits l = {.level = TG_LEVEL_BEGINNER, .seed = 5};
    while (!tg_game_over(g) && tg_game_ply(g) < 63) {
        assert_int_equal(tg_engine_search(e, g, &l, NULL, NULL, &r1), TG_OK);
        assert_int_equal(tg_game_play(g, r1.best, 0), TG_OK);
    }
    tg_game_free(g);
    tg_engine_free(e);
}

/// The measured ratings: every level rated, the ladder strictly ordered, and a target rating
/// mapped to the nearest level or to max with a node budget between hard's and max's.
static void test_ratings(void **state) {
    (void)state;
    TgLevel order[TG_LEVEL_COUNT];
    assert_int_equal(tg_levels_weakest_first(order), TG_LEVEL_COUNT);
    const TgLevel weakest_first[] = {TG_LEVEL_MCTS,   TG_LEVEL_BEGINNER, TG_LEVEL_EASY,
                                     TG_LEVEL_MEDIUM, TG_LEVEL_HARD,     TG_LEVEL_MAX};
    int prev = -1000000;
    for (size_t i = 0; i < sizeof weakest_first / sizeof weakest_first[0]; i++) {
        assert_int_equal(order[i], weakest_first[i]);
        int elo, err;
        assert_true(tg_level_rating(weakest_first[i], &elo, &err));
        assert_true(elo > prev && err >= 0);
        prev = elo;
        uint64_t nodes;
        assert_int_equal(tg_level_for_rating(elo, &nodes), weakest_first[i]);
        assert_int_equal(nodes, 0);
    }
    int beginner, hard, max;
    tg_level_rating(TG_LEVEL_BEGINNER, &beginner, NULL);
    tg_level_rating(TG_LEVEL_HARD, &hard, NULL);
    tg_level_rating(TG_LEVEL_MAX, &max, NULL);
    assert_int_equal(beginner, 0);
    uint64_t nodes;
    assert_int_equal(tg_level_for_rating(-5000, &nodes), TG_LEVEL_MCTS);
    assert_int_equal(tg_level_for_rating(-10, &nodes), TG_LEVEL_BEGINNER);
    assert_int_equal(tg_level_for_rating(max + 500, &nodes), TG_LEVEL_MAX);
    assert_int_equal(nodes, 0);
    assert_int_equal(tg_level_for_rating((hard + max) / 2, &nodes), TG_LEVEL_MAX);
    assert_true(nodes > tg_level_rating_nodes(TG_LEVEL_HARD) &&
                nodes < tg_level_rating_nodes(TG_LEVEL_MAX));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_count),
        cmocka_unit_test(test_empty_board),
        cmocka_unit_test(test_blocked_row),
        cmocka_unit_test(test_overline_rows),
        cmocka_unit_test(test_renju_foul_never_played),
        cmocka_unit_test(test_excluded_and_full),
        cmocka_unit_test(test_level_api),
        cmocka_unit_test(test_ratings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

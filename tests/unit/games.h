/*
 * games.h — positions for the engine tests: a game from a move list, played by the rules or
 * placed as a diagram.
 */
#ifndef TG_TEST_GAMES_H
#define TG_TEST_GAMES_H

#include "../../src/tengen.h"

/// The game after `moves` (h8 notation) on a size x size board: played by the rule, or placed
/// as a diagram (nothing judged while placing). Fails the test on a bad list.
static inline TgGame *game_from(TgRule rule, int size, const char *moves, bool diagram) {
    enum { MAX_MOVES = TG_MAX_SIZE * TG_MAX_SIZE + 2 };
    TgPoint m[MAX_MOVES];
    int n;
    char err[128];
    assert_int_equal(tg_parse_moves(moves, size, size, m, MAX_MOVES, &n, err, sizeof err), TG_OK);
    TgGame *g = tg_game_new(rule, size, size);
    assert_non_null(g);
    assert_int_equal(diagram ? tg_game_setup(g, m, n, NULL) : tg_game_set_moves(g, m, n, NULL),
                     TG_OK);
    return g;
}

#endif

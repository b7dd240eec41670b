/*
 * board.h — the board: stones in a padded array, a move stack, a Zobrist hash and per-cell line
 * keys, all kept incrementally by board_play / board_undo in O(1).
 *
 * Line keys: key[q][d] packs the cells on both sides of q along direction d, in the layout of
 * line.h; the pattern tables key on them directly.
 */
#ifndef TG_BOARD_H
#define TG_BOARD_H

#include "types.h"

enum { MAX_PLY = 1024 }; ///< moves and passes one game may hold

typedef struct Board {
    int width, height;
    Rule rule;
    int ply;         ///< entries on the move stack (passes included)
    int stone_count; ///< stones on the board
    uint64_t hash;
    uint8_t cell[BOARD_CELLS];    ///< Color
    uint32_t key[BOARD_CELLS][4]; ///< line keys, see above
    Pos moves[MAX_PLY];           ///< the move stack; POS_PASS for a pass
    /* Patterns (pattern.h), kept with the keys for every empty cell (0 on walls). They
     * describe a stone of each colour put at the cell, so only empty cells need them: a
     * stone's are left stale and derived again when it is lifted. */
    const struct PatternTables *tables; ///< the rule's immutable lookup tables
    uint8_t pattern[BOARD_CELLS][4];    ///< per direction: Black's Pattern | White's Pattern << 4
    uint32_t kinds[BOARD_CELLS];        ///< the LineKinds of the four patterns (pattern.h)
    uint8_t threat[BOARD_CELLS][2];     ///< per colour: Threat (renju Black: + THREAT_MAYBE_33)
    const struct EvalWeights *weights;  ///< the evaluation's (weights.h): the rule's built-in ones
} Board;

/// An empty width x height board (sizes must be checked by the caller: 5..22).
void board_init(Board *b, Rule rule, int width, int height);

static inline bool board_on(const Board *b, Pos p) { return b->cell[p] != WALL; }
static inline bool board_empty(const Board *b, Pos p) { return b->cell[p] == EMPTY; }
/// Black moves at even plies, White at odd ones (passes count as plies).
static inline Color board_to_move(const Board *b) { return (Color)(b->ply & 1); }
static inline Pos board_last_move(const Board *b) {
    return b->ply ? b->moves[b->ply - 1] : POS_NONE;
}
/// Is (x, y) on this board?
bool board_contains(const Board *b, int x, int y);

/// Plays the side to move at empty p (or passes with POS_PASS). No rule checks: see rules.h.
void board_play(Board *b, Pos p);
void board_undo(Board *b);

/// Puts or lifts a stone of either colour without touching the move stack; for rule probes that
/// try a stone and take it back. Hash and keys stay exact.
void board_put(Board *b, Pos p, Color c);
void board_lift(Board *b, Pos p);

/// The Pattern a `c` stone at p makes along direction d (p on the board).
static inline int board_pattern(const Board *b, Pos p, int d, Color c) {
    return (b->pattern[p][d] >> (4 * c)) & 15;
}

/// Self-check for tests: recomputes keys, patterns, threats, hash and counts from the stones
/// and compares.
bool board_is_consistent(const Board *b);

#endif

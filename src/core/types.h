/*
 * types.h — base types of the core: colours, the padded board index (Pos), directions, rules.
 * Every core file includes this; nothing here is mutable.
 */
#ifndef TG_TYPES_H
#define TG_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "../tengen.h"

/// Cell contents. BLACK ^ 1 == WHITE and WALL ^ 1 == EMPTY, so one XOR flips either pair.
/// The same 2-bit codes are packed into the line keys (board.h).
typedef enum Color { BLACK = 0, WHITE = 1, WALL = 2, EMPTY = 3 } Color;

typedef TgRule Rule;

/*
 * The padded board index. Cells live in a 32 x 32 array; an on-board point (x, y) sits at
 * (y + PAD) * 32 + (x + PAD). PAD = 5 wall cells surround the largest (22 x 22) board on every
 * side, so stepping up to 5 cells from any on-board point in any direction stays in the array
 * and lands on a wall instead of needing a bounds check.
 */
enum {
    BOARD_MAX = TG_MAX_SIZE,
    BOARD_PAD = 5,
    BOARD_STRIDE = 32,
    BOARD_CELLS = BOARD_STRIDE * BOARD_STRIDE,
    LINE_HALF = 5, ///< cells looked at on each side of a point along a line
    LINE_LEN = 2 * LINE_HALF + 1,
};

typedef uint16_t Pos;

/// Sentinels: cells 0 and 1 are always walls, so they never name a real point.
#define POS_NONE ((Pos)0)
#define POS_PASS ((Pos)1)

/// Steps along the four lines: horizontal, vertical, diagonal (\), anti-diagonal (/).
static const int DIR[4] = {1, BOARD_STRIDE, BOARD_STRIDE + 1, BOARD_STRIDE - 1};

static inline Pos pos_make(int x, int y) {
    return (Pos)((y + BOARD_PAD) * BOARD_STRIDE + x + BOARD_PAD);
}
static inline int pos_x(Pos p) { return p % BOARD_STRIDE - BOARD_PAD; }
static inline int pos_y(Pos p) { return p / BOARD_STRIDE - BOARD_PAD; }
/// Moves a king needs from a to b: the larger of the x and y distances.
static inline int pos_distance(Pos a, Pos b) {
    const int dx = pos_x(a) - pos_x(b), dy = pos_y(a) - pos_y(b);
    const int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    return ax > ay ? ax : ay;
}

#endif

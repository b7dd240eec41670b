/*
 * line.h — one line through a point, the layer below the patterns and the rules: the layout of
 * the board's line keys, their unpacking into an 11-cell window, and what a window decides on
 * its own (a five under a rule, renju Black's fours and the eyes of a three).
 *
 * Line keys: for a cell q and direction d, a key packs the 2-bit Color codes of the LINE_HALF
 * cells on each side of q along d (q itself left out), nearest last on the negative side and
 * nearest first on the positive side:
 *
 *     offsets  -5 -4 -3 -2 -1 | +1 +2 +3 +4 +5
 *     slots     0  1  2  3  4 |  5  6  7  8  9     (bits 2*slot .. 2*slot+1)
 *
 * An empty neighbour is EMPTY (3), a wall WALL (2). The pattern tables key on these 20 bits.
 */
#ifndef TG_LINE_H
#define TG_LINE_H

#include "types.h"

/// The key slot of the cell `offset` (-LINE_HALF..LINE_HALF, not 0) cells along the line.
static inline int key_slot(int offset) {
    return offset < 0 ? offset + LINE_HALF : offset + LINE_HALF - 1;
}

/// Unpacks a line key into a line of LINE_LEN cells, centre (index LINE_HALF) set to `centre`.
void line_from_key(uint32_t key, Color centre, Color line[LINE_LEN]);

/* `line` is LINE_LEN cells with the stone under judgement at the centre (index LINE_HALF). */

/// Length of the unbroken row of the centre's colour through the centre; *lo, *hi its ends.
int line_run(const Color line[LINE_LEN], int *lo, int *hi);
/// Is the centre's unbroken row a winning five under `rule` for the centre's colour?
bool line_is_five(const Color line[LINE_LEN], Rule rule);
/* Renju Black's fours and threes on a window: the definitions that the pattern tables, and
 * renju_foul() which reads them, are tested against (test_rules, test_pattern). */

/// Fours the centre stone (Black, renju) is part of on this line: 0, 1 or 2 (same-line 4-4).
int line_black_fours(const Color line[LINE_LEN]);
/// Eyes of a Black three through the centre: empty indices that make a straight four.
int line_black_three_eyes(const Color line[LINE_LEN], int eyes[LINE_LEN]);

#endif

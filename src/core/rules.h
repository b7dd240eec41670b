/*
 * rules.h — win conditions for every rule and Black's renju fouls (docs/rules.md).
 * All questions are asked of a point p and a colour; the board is left exactly as it was.
 */
#ifndef TG_RULES_H
#define TG_RULES_H

#include "board.h"

/// Does a `c` stone at empty p make five under the board's rule (for renju Black: exactly
/// five)? The point must be empty; nothing is placed.
bool rules_makes_five(const Board *b, Pos p, Color c);

/// The five made by the stone already standing at p, if it wins: both ends and the length.
bool rules_five_at(const Board *b, Pos p, Pos *from, Pos *to, int *length);

/// Does some stone already stand in a winning row (a diagram can hold one)?
bool rules_five_on_board(const Board *b);

/// Renju: the foul a Black stone at empty p would commit, or TG_FOUL_NONE (also for any point
/// that makes an exact five, which always wins). Uses the recursive rule 9.3 for double-threes;
/// tries stones on the board and takes them back.
TgFoul renju_foul(Board *b, Pos p);

/* Line-level classification, exposed for tests and for the pattern code that builds on it.
 * `line` is LINE_LEN cells with the stone under judgement at the centre (index LINE_HALF). */

/// Length of the unbroken row of the centre's colour through the centre; *lo, *hi its ends.
int line_run(const Color line[LINE_LEN], int *lo, int *hi);
/// Is the centre's unbroken row a winning five under `rule` for the centre's colour?
bool line_is_five(const Color line[LINE_LEN], Rule rule);
/// Fours the centre stone (Black, renju) is part of on this line: 0, 1 or 2 (same-line 4-4).
int line_black_fours(const Color line[LINE_LEN]);
/// Eyes of a Black three through the centre: empty indices that make a straight four.
int line_black_three_eyes(const Color line[LINE_LEN], int eyes[LINE_LEN]);

#endif

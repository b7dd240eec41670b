/*
 * rules.h — win conditions for every rule and Black's renju fouls (docs/rules.md).
 * All questions are asked of a point p and a colour; the board is left exactly as it was.
 */
#ifndef TG_RULES_H
#define TG_RULES_H

#include "board.h"
#include "line.h"
#include "pattern.h"

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

/// Renju: is p one of Black's points with two open threes (THREAT_MAYBE_33) that the recursive
/// test finds a real foul? Such a point is worth nothing to Black (the evaluation's features).
bool rules_black_false_threat(Board *b, Pos p);

/// The threat class a `c` stone at p makes, with renju Black's possible double-threes settled
/// (THREAT_FORBID when the stone would be a foul); tries stones and takes them back.
Threat rules_threat_at(Board *b, Pos p, Color c);

#endif

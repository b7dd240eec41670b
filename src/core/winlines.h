/*
 * winlines.h — the beginner level: the classic "win-lines" player.
 *
 * A win line is a row of five cells (across, down or along a diagonal) in which a side can still
 * make five: the other side has no stone in it and, where the rule wants exactly five, no stone
 * of the side's own lies just beyond either end (five there would be an overline). A 15x15 board
 * has 572 such rows. Each empty cell is scored by the live rows through it, the mover's and the
 * opponent's weighed separately, more stones in a row earning more points, and the best cell is
 * played, with a little seeded randomness among cells that score nearly the same.
 */
#ifndef TG_WINLINES_H
#define TG_WINLINES_H

#include "board.h"

/// Rows of five cells on a width x height board (572 on 15x15).
int winlines_count(int width, int height);

/// Is the row of five cells from `start` along direction d (start on the board, the row inside
/// it) still a win line for colour c? *stones gets c's stones in it.
bool winlines_live(const Board *b, Pos start, int d, Color c, int *stones);

/// Scores every empty cell for the side to move (score[p] for Pos p; 0 elsewhere).
void winlines_score(const Board *b, int score[BOARD_CELLS]);

/// The beginner's move: the best-scoring empty cell, never a renju foul nor one of the
/// `exclude_count` points in `exclude`; the seed varies the choice among near-equal cells.
/// POS_NONE when no cell may be played. The board is left as it was.
Pos winlines_pick(Board *b, uint64_t seed, const Pos *exclude, int exclude_count);

#endif

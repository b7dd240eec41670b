/*
 * opening.h — what opening_engine.c shares with opening.c: the symmetry test of 5th-move
 * offers and the look-ahead over a rule's stages.
 */
#ifndef TG_OPENING_H
#define TG_OPENING_H

#include "types.h"

/// Are `a` and `b` the same point or images of each other under a board symmetry that maps
/// the stones (black, white, black, ... in move order) onto themselves, colour by colour?
bool opening_symmetric(const TgPoint *stones, int count, int size, TgPoint a, TgPoint b);

/// After the current PLACE run: does a stage follow in which the other player may swap
/// (before any offer)? Then the placer wants balance rather than the best move.
bool opening_swap_follows(const TgOpening *op);

#endif

/*
 * treeline.h — one line of the move ordering's tree samples (docs/formats.md §15), read by the
 * tuner (tune.c) and by the relabelling of the samples (relabel.c).
 */
#ifndef TENGEN_TREELINE_H
#define TENGEN_TREELINE_H

#include "types.h"

/// One tree sample line: "RULE SIZE PLIES STONES BEST MOVES".
typedef struct TreeLine {
    Rule rule;
    int size, plies, stones, moves;
    TgPoint stone[BOARD_CELLS], move[BOARD_CELLS], best;
} TreeLine;

/// Reads a tree sample line (tokenised in place) into *t; false when it does not read: a
/// field missing or extra, a bad rule or size, plies below 1, a pass, fewer than two moves.
bool tree_line_parse(char *text, TreeLine *t);

#endif

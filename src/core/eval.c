/*
 * eval.c — the parameter table and the position sum. See eval.h for the idea.
 *
 * Scale: an open three of the side to move's opponent (two points where it would make a
 * straight four, two where it would make a four) costs about 250; forced results (fives, open
 * fours, double fours) never reach the evaluation: the search scores them as wins.
 */
#include "eval.h"

#include <string.h>

/* The weights stand in columns under their names. */
// clang-format off
const EvalParams EVAL_PARAMS = {
    /*                dead ovl  dbl4 blk1 free1 blk2 free2 blk3 free3 blk4 free4 five */
    .line_mine =     {0,   0,   0,   0,   0,    2,   6,    8,   30,   30,  100,  300},
    .line_theirs =   {0,   0,   0,   0,   0,    2,   5,    6,   24,   20,  80,   250},
    /*                none forbid flex3 flex3x2 blk4 blk4+3 blk4x2 flex4 five */
    .threat_mine =   {0,   0,     10,   250,    20,  400,   800,   800,  1000},
    .threat_theirs = {0,   0,     8,    60,     15,  150,   200,   80,   300},
    .order_attack =  {0,   0,     50,   300,    60,  500,   1000,  1000,  5000},
    .order_defend =  {0,   0,     20,   150,    25,  250,   400,   400,  3000},
};
// clang-format on

int eval_position(const Board *b, const Pos *points, int count) {
    const Color me = board_to_move(b), them = (Color)(me ^ 1);
    int score = 0;
    for (int i = 0; i < count; i++)
        score += eval_point(b, points[i], me, true) - eval_point(b, points[i], them, false);
    return score;
}

int eval_trained(const Board *b, const Pos *points, int count, int mask, const Pos *fouls,
                 int foul_count) {
    enum { LIMIT = TG_SCORE_WIN_MIN - 1 };
    const EvalWeights *w = b->weights;
    const PcodeTables *t = b->tables->pcodes;
    const Color me = board_to_move(b), them = (Color)(me ^ 1);
    const int16_t *mine = w->code[me][ROLE_MOVER], *theirs = w->code[them][ROLE_WAITER];
    int v = w->mask[mask];
    for (int i = 0; i < count; i++) {
        uint32_t word;
        memcpy(&word, b->pattern[points[i]], 4);
        v += mine[pcode_of_word(t, word, me)] - theirs[pcode_of_word(t, word, them)];
    }
    for (int i = 0; i < foul_count; i++) { /* Black's value there is void */
        uint32_t word;
        memcpy(&word, b->pattern[fouls[i]], 4);
        const int code = pcode_of_word(t, word, BLACK);
        v -= me == BLACK ? mine[code] : -theirs[code];
    }
    return v > LIMIT ? LIMIT : v < -LIMIT ? -LIMIT : v;
}

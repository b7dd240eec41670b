/*
 * eval.h — static evaluation and move-ordering values, computed from the board's cached line
 * patterns and threat classes (pattern.h). Every weight lives in one parameter table (eval.c)
 * so that matches can tune it.
 *
 * The idea, kept from the seed programs' weight tables: an empty point is worth what a stone
 * there would make. A point where Black would make an open three shows that Black has two
 * stones in an open line nearby; summing over the empty points near the stones measures each
 * side's shape. The side to move counts its points with its own weights: its threats are one
 * move nearer than the opponent's.
 *
 * These seed weights are the medium level's evaluation and move ordering; the hard and max
 * levels evaluate with the trained tables of weights.h, the same idea per pattern code.
 */
#ifndef TG_EVAL_H
#define TG_EVAL_H

#include <string.h>

#include "board.h"
#include "pattern.h"
#include "weights.h"

typedef struct EvalParams {
    int16_t line_mine[PAT_COUNT];      ///< a point's line pattern for the side to move
    int16_t line_theirs[PAT_COUNT];    ///< ... for the opponent
    int16_t threat_mine[THREAT_COUNT]; ///< bonus of a point's four-line threat class
    int16_t threat_theirs[THREAT_COUNT];
    int16_t order_attack[THREAT_COUNT]; ///< move ordering: a point's own threat
    int16_t order_defend[THREAT_COUNT]; ///< ... the opponent's threat it takes away
} EvalParams;

/// The weights in use (immutable).
extern const EvalParams EVAL_PARAMS;

/// Value of a `c` stone at empty p, from c's view, with the side-to-move (mine) or opponent
/// (theirs) weights. The threat class is taken as cached (a renju double-three suspicion counts
/// as threes: the evaluation does not settle fouls).
static inline int eval_point(const Board *b, Pos p, Color c, bool mine) {
    const EvalParams *e = &EVAL_PARAMS;
    const int16_t *line = mine ? e->line_mine : e->line_theirs;
    const int threat = b->threat[p][c] & THREAT_CLASS_MASK;
    if (threat == THREAT_FORBID) return 0; /* renju Black may not play there */
    int v = (mine ? e->threat_mine : e->threat_theirs)[threat];
    for (int d = 0; d < 4; d++) v += line[(b->pattern[p][d] >> (4 * c)) & 15];
    return v;
}

/// Ordering value of playing p for `me`: what it makes plus what it takes from the opponent.
static inline int eval_move_order(const Board *b, Pos p, Color me) {
    const EvalParams *e = &EVAL_PARAMS;
    const int mine = b->threat[p][me] & THREAT_CLASS_MASK;
    const int theirs = b->threat[p][me ^ 1] & THREAT_CLASS_MASK;
    return e->order_attack[mine] + e->order_defend[theirs] + eval_point(b, p, me, true) +
           eval_point(b, p, (Color)(me ^ 1), false);
}

/// The position from the side to move's view, summed over the given empty points (the
/// candidates near the stones; points far away are worth nothing anyway).
int eval_position(const Board *b, const Pos *points, int count);

/// The trained evaluation (weights.h) from the side to move's view: the code values of the
/// given empty points (the candidates near the stones) plus the value of the threat mask
/// (weights_mask_bit over the same points, the mover's bits low). Kept clear of the
/// forced-result scores. Renju Black's real fouls among them (fouls) count nothing for Black.
int eval_trained(const Board *b, const Pos *points, int count, int mask, const Pos *fouls,
                 int foul_count);

/// The trained move ordering (weights.h): what playing p makes of `me`'s code there, and what
/// it takes of the opponent's.
static inline int eval_order_trained(const Board *b, Pos p, Color me) {
    const EvalWeights *w = b->weights;
    const PcodeTables *t = b->tables->pcodes;
    uint32_t word;
    memcpy(&word, b->pattern[p], 4);
    return w->order[me][ORDER_ATTACK][pcode_of_word(t, word, me)] +
           w->order[me ^ 1][ORDER_DEFEND][pcode_of_word(t, word, (Color)(me ^ 1))];
}

/// Where p lies from one of the last four moves (weights.h: NEAR_THEIRS is the opponent's
/// last, NEAR_OWN_BEFORE the side's own three moves back): its near bucket.
static inline int eval_near_bucket(const Board *b, Pos p, int side) {
    const Pos last = b->ply > side ? b->moves[b->ply - 1 - side] : POS_NONE;
    if (last == POS_NONE || last == POS_PASS) return NEAR_FAR;
    return near_bucket(pos_x(p) - pos_x(last), pos_y(p) - pos_y(last));
}

/// The trained ordering's term for where p lies from the last two moves (weights.h, near).
static inline int eval_order_near(const Board *b, Pos p) {
    const EvalWeights *w = b->weights;
    return w->near[NEAR_THEIRS][eval_near_bucket(b, p, NEAR_THEIRS)] +
           w->near[NEAR_OWN][eval_near_bucket(b, p, NEAR_OWN)];
}

/// The trained ordering's further terms (weights_order_more): where p lies from the two moves
/// before the last two (near), what it makes and stops together (pair: the side to move's
/// threat class there and the opponent's), and those classes against what else the node offers
/// (context; `mask` is the threat mask of the node's candidates, the side to move's bits low).
static inline int eval_order_more(const Board *b, Pos p, Color me, int mask) {
    const EvalWeights *w = b->weights;
    const int mine = b->threat[p][me] & THREAT_CLASS_MASK;
    const int theirs = b->threat[p][me ^ 1] & THREAT_CLASS_MASK;
    const int side_bits = (1 << MASK_SIDE_BITS) - 1;
    return w->pair[mine][theirs] + w->context[ORDER_ATTACK][mask >> MASK_SIDE_BITS][mine] +
           w->context[ORDER_DEFEND][mask & side_bits][theirs] +
           w->near[NEAR_THEIRS_BEFORE][eval_near_bucket(b, p, NEAR_THEIRS_BEFORE)] +
           w->near[NEAR_OWN_BEFORE][eval_near_bucket(b, p, NEAR_OWN_BEFORE)];
}

#endif

/*
 * weights.h — the trained evaluation's weight tables (docs/eval.md).
 *
 * A position's evaluation is a sum over its empty cells. Every cell has, for each colour, a
 * pattern code (pattern.h: its four line patterns as one unordered combination), and every code
 * has two values: one counted when that colour is to move ("mover"), one when it waits
 * ("waiter"). The side to move's sum minus the waiting side's, plus one value for the position's
 * threat mask (which threat classes each side has a point of), is the evaluation. The search
 * sums it over the candidate points its scan lists anyway (eval_trained); sums kept up to date
 * on every move were slower (docs/eval.md, "Why a sum over the candidates").
 *
 * The same tables hold the move ordering's values: what a move makes of its own code and what it
 * takes of the opponent's.
 *
 * Weights are text tables under weights/ (one per rule, compiled into libtengen); `tengen tune`
 * writes them. A rule without a table uses the seed weights of eval.c expressed as codes.
 */
#ifndef TG_WEIGHTS_H
#define TG_WEIGHTS_H

#include <stddef.h>

#include "pattern.h"

enum { ROLE_MOVER, ROLE_WAITER };
enum { ORDER_ATTACK, ORDER_DEFEND }; ///< a code of the mover's colour, of the waiter's

/// Threat-mask bits of one side: it has at least one point of the class.
enum {
    MASK_FLEX3 = 1 << 0,      ///< makes an open three
    MASK_FLEX3_2X = 1 << 1,   ///< makes two open threes
    MASK_BLOCK4 = 1 << 2,     ///< makes a four
    MASK_FOUR_THREE = 1 << 3, ///< makes a four and an open three, or two fours
    MASK_FLEX4 = 1 << 4,      ///< makes a straight four (the side has an open three)
    MASK_FIVE = 1 << 5,       ///< makes five
    MASK_SIDE_BITS = 6,
    MASK_COUNT = 1 << (2 * MASK_SIDE_BITS), ///< mover's bits, then the waiter's above them
};

/// Where a move lies from one of the last four moves (the opponent's last, the side's own last,
/// and the two before them), for the move ordering: by the larger and the smaller of its column
/// and row distances up to NEAR_REACH cells (14 buckets, near_bucket); farther, or with no such
/// move, NEAR_FAR.
enum {
    NEAR_THEIRS,
    NEAR_OWN,
    NEAR_THEIRS_BEFORE,
    NEAR_OWN_BEFORE,
    NEAR_SIDES,
    NEAR_REACH = 4,
    NEAR_BUCKETS = 15,
    NEAR_FAR = NEAR_BUCKETS - 1,
};

/// The bucket of a move dx columns and dy rows from a last move (either sign; not both 0).
static inline int near_bucket(int dx, int dy) {
    if (dx < 0) dx = -dx;
    if (dy < 0) dy = -dy;
    const int far = dx > dy ? dx : dy, close = dx > dy ? dy : dx;
    if (far > NEAR_REACH || far == 0) return NEAR_FAR;
    return far * (far + 1) / 2 - 1 + close; /* 1,0 1,1 | 2,0 2,1 2,2 | 3,0 ... 4,4 */
}

typedef struct EvalWeights {
    int16_t code[2][2][PCODE_COUNT]; ///< [colour][role][pattern code]
    int16_t mask[MASK_COUNT];        ///< [mover bits | waiter bits << MASK_SIDE_BITS]
    /// Move ordering: playing p scores order[me][ATTACK][my code at p] +
    /// order[them][DEFEND][their code at p] + near[side][bucket from that side's move] for the
    /// last four moves + pair[my threat class at p][theirs] +
    /// context[ATTACK][the opponent's threat mask][my class at p] +
    /// context[DEFEND][my threat mask][their class at p] (the masks of the node's candidates).
    int16_t order[2][2][PCODE_COUNT];
    int16_t near[NEAR_SIDES][NEAR_BUCKETS];
    int16_t pair[THREAT_COUNT][THREAT_COUNT];
    int16_t context[2][1 << MASK_SIDE_BITS][THREAT_COUNT];
    int scale; ///< evaluation units per logit: P(win) = 1 / (1 + exp(-eval / scale))
} EvalWeights;

/// The weights tengen plays with under `rule`: weights/<rule>.txt, else the seed weights.
/// Parsed once on first use (thread-safe), immutable afterwards.
const EvalWeights *weights_builtin(Rule rule);

/// Does the table have ordering values beyond the codes and the last two moves' near values
/// (the earlier moves' near values, pair, context)? Tables without them skip those terms.
bool weights_order_more(const EvalWeights *w);

/// The seed weights (eval.c's EVAL_PARAMS) as pattern-code tables: generation 0.
void weights_from_seed(Rule rule, EvalWeights *out);

/// Reads a weight table (the text format of docs/eval.md) for `rule`. False with a message
/// naming the line on any error; *out is then undefined.
bool weights_parse(const char *text, Rule rule, EvalWeights *out, char *err, size_t err_size);

/// Writes a weight table as text (malloc'd, NUL-terminated); `comment` lines go on top.
char *weights_format(const EvalWeights *w, Rule rule, const char *comment);

/// The threat-mask bit of a point's threat class (THREAT_CLASS_MASK applied), 0 for none. Every
/// point of an open three or more lies within two cells of a stone, so the search's candidates
/// see them all.
static inline int weights_mask_bit(int threat) {
    static const uint8_t bit[THREAT_COUNT] = {[THREAT_FLEX3] = MASK_FLEX3,
                                              [THREAT_FLEX3_2X] = MASK_FLEX3_2X,
                                              [THREAT_BLOCK4] = MASK_BLOCK4,
                                              [THREAT_BLOCK4_FLEX3] = MASK_FOUR_THREE,
                                              [THREAT_BLOCK4_2X] = MASK_FOUR_THREE,
                                              [THREAT_FLEX4] = MASK_FLEX4,
                                              [THREAT_FIVE] = MASK_FIVE};
    return bit[threat];
}

#endif

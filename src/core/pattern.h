/*
 * pattern.h — line patterns and per-cell threat classes, looked up from tables built once per
 * rule at first use (pthread_once) by a short recursive classifier in pattern.c.
 *
 * A Pattern answers, for one cell, one line and one colour: "what shape would a stone of this
 * colour at this cell make on this line?" It is read from the cell's 20-bit line key (board.h):
 * the 5 cells each side, the cell itself left out. A Threat combines the four lines of a cell.
 */
#ifndef TG_PATTERN_H
#define TG_PATTERN_H

#include "types.h"

/*
 * Line patterns, weakest first. Diagrams: X the stone judged (at the marked cell, written as
 * the capital), x its colour's other stones, o opponent stones, | a wall, . empty.
 * "Five" means the rule's five for that colour (board.h rule; renju Black: exactly five).
 * Every five counted below passes through the judged stone.
 */
typedef enum Pattern {
    PAT_DEAD,     ///< no five can ever pass through here:          o.xX.o
    PAT_OVERLINE, ///< a row of 6+ that does not win (standard, caro9, renju Black): xxXxxx
    PAT_DOUBLE4,  ///< renju Black only: two fours on one line (a foul): x.xXx.x, xx.Xx.xx
    PAT_BLOCKED1, ///< one stone, room for a five only on one side:    |X....
    PAT_FREE1,    ///< one stone that can grow into a free two:        ...X...
    PAT_BLOCKED2, ///< two stones, can become a blocked three at best: oxX...
    PAT_FREE2,    ///< two stones that can become a free three:        ..xX...
    PAT_BLOCKED3, ///< three stones, can become a four but no straight four: oxxX..
    PAT_FREE3,    ///< an open three: one more stone makes a straight four: ..xxX..
    PAT_BLOCKED4, ///< a four with one five point:                     oxxxX.
    PAT_FREE4,    ///< two or more five points (straight four .xxxX.; elsewhere also x.xXx.x)
    PAT_FIVE,     ///< the stone completes a five:                     xxXxx
    PAT_COUNT
} Pattern;

/*
 * Threat classes of a cell for one colour: the four line patterns combined, weakest first.
 * "three" means an open three (PAT_FREE3), "four" a blocked four (PAT_BLOCKED4).
 */
typedef enum Threat {
    THREAT_NONE,         ///< nothing forcing
    THREAT_FORBID,       ///< renju Black: a foul (overline, double four, real double three)
    THREAT_FLEX3,        ///< one open three
    THREAT_FLEX3_2X,     ///< two or more open threes (not for renju Black: a possible foul)
    THREAT_BLOCK4,       ///< one four
    THREAT_BLOCK4_FLEX3, ///< a four and an open three
    THREAT_BLOCK4_2X,    ///< two fours (on two lines, or one line for rules that allow it)
    THREAT_FLEX4,        ///< a straight four
    THREAT_FIVE,         ///< makes five
    THREAT_COUNT
} Threat;

/// Stored with a renju Black threat when the stone would make two or more open threes: only
/// the recursive renju_foul() can tell a real double three from a false one, so the verdict is
/// left to pattern_threat() (lazy), keeping board_play() cheap.
enum { THREAT_MAYBE_33 = 0x80, THREAT_CLASS_MASK = 0x7f };

/// What one line adds to a cell's Threat: the few pattern kinds that Threat counts (3 bits).
typedef enum LineKind {
    KIND_OTHER,    ///< nothing forcing
    KIND_FOUL,     ///< OVERLINE or DOUBLE4 (a foul for renju Black, nothing for others)
    KIND_THREE,    ///< FREE3
    KIND_FOUR,     ///< BLOCKED4
    KIND_STRAIGHT, ///< FREE4
    KIND_FIVE,     ///< FIVE
} LineKind;

/*
 * The tables of one rule.
 * - line[key]: the patterns of both colours at a cell with that line key, packed in a byte:
 *   Black's Pattern in the low nibble, White's in the high nibble (1 MiB).
 * - kinds[packed]: the LineKinds of both colours for a packed pattern byte: Black's in bits
 *   0-2, White's in bits 16-18, ready to be shifted by 3 * direction into a cell's kind word.
 * - threat[c][w]: the Threat of colour c for a 12-bit word w of four LineKinds (direction d in
 *   bits 3d..3d+2), with THREAT_MAYBE_33 where renju Black needs the recursive foul test.
 * The last two are small enough to stay in L1, which keeps board_play() fast.
 */
typedef struct PcodeTables PcodeTables;

typedef struct PatternTables {
    const PcodeTables *pcodes; ///< pcode_tables(), at hand for board_play
    uint8_t line[1u << 20];
    uint32_t kinds[256];
    uint8_t threat[2][1u << 12];
} PatternTables;

enum { KIND_BITS = 3, KIND_MASK = 7 | 7 << 16, KIND_WHITE_SHIFT = 16 };

/// The tables for `rule`, built on first use (thread-safe) and never changed afterwards.
const PatternTables *pattern_tables(Rule rule);

/// Pattern of colour c from a packed line-table byte.
static inline Pattern pattern_of(uint8_t packed, Color c) {
    return (Pattern)((packed >> (4 * c)) & 15);
}

/// The kind word of a cell (both colours) from its four packed pattern bytes.
static inline uint32_t pattern_kind_word(const PatternTables *t, const uint8_t packed[4]) {
    uint32_t w = 0;
    for (int d = 0; d < 4; d++) w |= t->kinds[packed[d]] << (KIND_BITS * d);
    return w;
}

/// Threat byte of colour c from a cell's kind word.
static inline uint8_t pattern_threat_of(const PatternTables *t, uint32_t kind_word, Color c) {
    return t->threat[c][(kind_word >> (KIND_WHITE_SHIFT * c)) & 0xfff];
}

/*
 * Pattern codes: the four line patterns of one cell and colour as an unordered combination,
 * the evaluation's feature (weights.h). Direction does not matter to a shape's worth, so the
 * 12^4 ordered quadruples fold into C(15, 4) = 1365 codes; code 0 is four DEAD lines. Two small
 * tables that stay in L1 give the code: the unordered pair of directions 0 and 1, the pair of
 * 2 and 3, then the code of the two pairs.
 */
enum { PCODE_COUNT = 1365, PCODE_PAIRS = 78 };

struct PcodeTables {
    uint8_t pair[256];                       ///< by two nibbles a | b << 4: 0..77
    uint16_t code[PCODE_PAIRS][PCODE_PAIRS]; ///< by two pairs
    uint8_t patterns[PCODE_COUNT][4];        ///< the patterns of a code, weakest first
};

/// The pattern-code tables (rule-independent), built on first use (thread-safe).
const PcodeTables *pcode_tables(void);

/// The pattern code of colour c at a cell from its four packed pattern bytes as one word
/// (direction 0 in the low byte; board.h).
static inline uint16_t pcode_of_word(const PcodeTables *t, uint32_t word, Color c) {
    const uint32_t x = (word >> (4 * c)) & 0x0f0f0f0fu;
    const uint32_t low = (x & 0xf) | (x >> 4 & 0xf0), high = (x >> 16 & 0xf) | (x >> 20 & 0xf0);
    return t->code[t->pair[low]][t->pair[high]];
}

/// The same from the four bytes.
static inline uint16_t pcode_of(const PcodeTables *t, const uint8_t packed[4], Color c) {
    const uint32_t word = (uint32_t)packed[0] | (uint32_t)packed[1] << 8 |
                          (uint32_t)packed[2] << 16 | (uint32_t)packed[3] << 24;
    return pcode_of_word(t, word, c);
}

/// One-word names for tests and debugging: "dead", "free3", "block4-flex3", ...
const char *pattern_name(Pattern p);
const char *threat_name(Threat t);

#endif

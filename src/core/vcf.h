/*
 * vcf.h — threat-space search for the side to move: VCF (victory by continuous fours) and VCT
 * (victory by continuous threats: fours and open threes). The solver owns its transposition
 * table; nothing is global, so several solvers may run at once on different boards.
 */
#ifndef TG_VCF_H
#define TG_VCF_H

#include <stdatomic.h>

#include "board.h"

enum { VCF_MAX_LINE = 256 }; ///< attacker moves in a line: more than half a 22x22 board

typedef enum VcfStatus {
    VCF_NONE,    ///< proven: no win of the kind asked for (within the depth asked for)
    VCF_WIN,     ///< a win; the line is in Vcf.line
    VCF_UNKNOWN, ///< a node or time limit, or the abort flag, stopped the search
} VcfStatus;

typedef struct VcfLimits {
    uint64_t max_nodes;       ///< 0: no limit
    int64_t max_ms;           ///< 0: no limit
    int max_depth;            ///< most attacker moves (VCT: open threes) in a line; 0: none
    bool shortest;            ///< VCF: deepen one attacker move at a time (shortest line)
    bool vct;                 ///< also open threes (VCT); fours only (VCF) when false
    const atomic_bool *abort; ///< may be NULL; the search stops soon after it turns true
} VcfLimits;

typedef struct Vcf {
    uint64_t *table;   ///< positions without a win: hash with the depth proven in the low byte
    size_t table_mask; ///< entries - 1 (a power of two)
    /* The last search. */
    uint64_t nodes; ///< attacker nodes visited
    int line_len;
    Pos line[VCF_MAX_LINE]; ///< attacker moves, ending with the five
    /* Search state, private to vcf.c. */
    struct VcfMoves *lists; ///< one candidate list per ply of a line
    VcfLimits limits;
    Color attacker;
    int64_t deadline_ns;
    bool stopped, cut;
} Vcf;

/// Sets the solver up with a table of about `table_bytes` (rounded down to a power of two, at
/// least 4 KiB). Returns false when out of memory.
bool vcf_init(Vcf *v, size_t table_bytes);
void vcf_free(Vcf *v);
/// Forgets everything the table learned (positions proven lost depend on the rule only, so a
/// table may be kept between searches on one rule).
void vcf_clear(Vcf *v);

/// Searches for a win by the side to move. The board is used for probes and is left exactly as
/// it was. No five may stand on the board.
VcfStatus vcf_search(Vcf *v, Board *b, const VcfLimits *limits);

#endif

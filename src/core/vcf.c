/*
 * vcf.c — threat-space search: VCF, and VCT when asked.
 *
 * Two kinds of node alternate. At an attack node the attacker (the side to move at the root)
 * plays: the single block when the defender has a four, else a four (VCF) or a four or open
 * three (VCT). At a defence node the defender answers: a four is blocked at its five point (a
 * renju Black defender whose five point is forbidden has lost), two five points cannot be
 * blocked, and an open three may be met by any stone on the lines of its straight-four points
 * or by any counter-four (VCT). A defence node with no threat standing is a failure.
 *
 * Invariants that keep the scans local: at an attack node the attacker has no five point and
 * every five point of the defender passes through the defender's last stone (it had none
 * before, or the attacker blocked it); at a defence node every five point of the attacker
 * passes through the attacker's last stone. Only the root, and the open threes of VCT, scan the
 * whole board.
 *
 * By default the search goes depth-first to the depth limit and returns the first win: that
 * is many times faster than a shortest line (the search's use). With `shortest` it deepens one
 * attacker move at a time, so the line found is a shortest one. The table remembers attack
 * nodes without a win, with the depth searched; a node whose subtree met no depth cut is
 * proven lost at any depth.
 */
#include "vcf.h"

#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "rules.h"
#include "timeman.h"

enum {
    CHECK_EVERY = 1024,    ///< nodes between clock and abort checks
    DEPTH_PROVEN = 0x7fff, ///< table depth of a position lost at any depth
    ENTRY_VCT = 0x8000,    ///< table flag: proven for VCT (else VCF)
    ENTRY_INFO = 0xffff,   ///< low bits of an entry: depth and flag; the rest is the hash
    MAX_MOVES = 512,       ///< candidates at one node (more than the largest board's cells)
};

typedef enum Outcome { FAIL, WIN } Outcome;

/* ---- Set-up and the table ---- */

typedef struct VcfMoves {
    Pos move[MAX_MOVES];
    uint8_t rank[MAX_MOVES]; ///< lower is tried first
    int count;
} VcfMoves;

bool vcf_init(Vcf *v, size_t table_bytes) {
    memset(v, 0, sizeof *v);
    size_t entries = 512;
    while (entries * 2 * sizeof(uint64_t) <= table_bytes) entries *= 2;
    v->table = calloc(entries, sizeof(uint64_t));
    v->table_mask = entries - 1;
    v->lists = malloc(sizeof(VcfMoves) * 2 * VCF_MAX_LINE);
    if (v->table && v->lists) return true;
    vcf_free(v);
    return false;
}

void vcf_free(Vcf *v) {
    free(v->table);
    free(v->lists);
    v->table = NULL;
    v->lists = NULL;
}

void vcf_clear(Vcf *v) { memset(v->table, 0, (v->table_mask + 1) * sizeof(uint64_t)); }

static uint64_t entry_info(const Vcf *v, int depth) {
    return (uint64_t)depth | (v->limits.vct ? ENTRY_VCT : 0);
}

/// Was this position (attacker to move) already searched without a win at >= depth? An
/// answer found only to a depth is a cut, as the search that found it was: a node that uses it
/// is not lost at any depth either.
static bool table_says_lost(Vcf *v, uint64_t hash, int depth) {
    const uint64_t e = v->table[hash & v->table_mask];
    if ((e & ~(uint64_t)ENTRY_INFO) != (hash & ~(uint64_t)ENTRY_INFO)) return false;
    const int proven = (int)(e & DEPTH_PROVEN);
    if ((e & ENTRY_VCT) != (v->limits.vct ? ENTRY_VCT : 0) || proven < depth) return false;
    if (proven != DEPTH_PROVEN) v->cut = true;
    return true;
}

static void table_store_lost(Vcf *v, uint64_t hash, int depth) {
    v->table[hash & v->table_mask] = (hash & ~(uint64_t)ENTRY_INFO) | entry_info(v, depth);
}

/* ---- Board questions ---- */

static bool renju_black(const Board *b, Color c) { return b->rule == TG_RENJU && c == BLACK; }

/// May c play at empty p? Only renju Black has points it may not play.
static bool legal(Board *b, Pos p, Color c) {
    return !renju_black(b, c) || rules_threat_at(b, p, c) != THREAT_FORBID;
}

/// Empty cells where c makes five: along the lines through `around` (the stone that made
/// them), or over the whole board when `around` is POS_NONE. Returns the count (out: <= 2).
static int five_points(const Board *b, Pos around, Color c, Pos out[2]) {
    int n = 0;
    if (around == POS_NONE) {
        for (int y = 0; y < b->height; y++)
            for (int x = 0; x < b->width; x++) {
                const Pos q = pos_make(x, y);
                if (board_empty(b, q) && b->threat[q][c] == THREAT_FIVE && n++ < 2) out[n - 1] = q;
            }
        return n;
    }
    for (int d = 0; d < 4; d++)
        for (int k = -4; k <= 4; k++) {
            const Pos q = (Pos)(around + k * DIR[d]);
            if (k && board_empty(b, q) && b->threat[q][c] == THREAT_FIVE && n++ < 2) out[n - 1] = q;
        }
    return n;
}

/* ---- Limits ---- */

/// Counts a node; true when the search must stop.
static bool out_of_budget(Vcf *v) {
    if (v->stopped) return true;
    v->nodes++;
    if (v->limits.max_nodes && v->nodes >= v->limits.max_nodes) v->stopped = true;
    if (v->nodes % CHECK_EVERY == 0) {
        if (v->limits.abort && atomic_load_explicit(v->limits.abort, memory_order_relaxed))
            v->stopped = true;
        if (v->deadline_ns && tm_now_ns() >= v->deadline_ns) v->stopped = true;
    }
    return v->stopped;
}

/* ---- Move lists ---- */

/// Adds p, ranked by threat (winning shapes first) and then by nearness to `near`.
static void add_move(VcfMoves *l, Pos p, Threat t, Pos near) {
    static const uint8_t BY_THREAT[THREAT_COUNT] = {
        [THREAT_FLEX4] = 0,  [THREAT_BLOCK4_2X] = 0, [THREAT_BLOCK4_FLEX3] = 1,
        [THREAT_BLOCK4] = 2, [THREAT_FLEX3_2X] = 3,  [THREAT_FLEX3] = 4,
        [THREAT_NONE] = 5,   [THREAT_FORBID] = 5,    [THREAT_FIVE] = 0};
    const int d = near == POS_NONE ? 0 : pos_distance(p, near);
    l->move[l->count] = p;
    l->rank[l->count++] = (uint8_t)(BY_THREAT[t] * 32 + (d < 31 ? d : 31));
}

/// Insertion sort by rank, ties by position, so the order is the same on every run.
static void sort_moves(VcfMoves *l) {
    for (int i = 1; i < l->count; i++) {
        const Pos m = l->move[i];
        const uint8_t r = l->rank[i];
        int j = i;
        for (; j > 0 && (l->rank[j - 1] > r || (l->rank[j - 1] == r && l->move[j - 1] > m)); j--) {
            l->move[j] = l->move[j - 1];
            l->rank[j] = l->rank[j - 1];
        }
        l->move[j] = m;
        l->rank[j] = r;
    }
}

/// The attacker's threats: fours, and open threes too when `threes` (legality is checked
/// later). Returns whether some open three was left out.
static bool attacker_threats(const Board *b, Color a, bool threes, Pos near, VcfMoves *l) {
    bool left_out = false;
    l->count = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos q = pos_make(x, y);
            if (!board_empty(b, q)) continue;
            const Threat t = (Threat)(b->threat[q][a] & THREAT_CLASS_MASK);
            if (t >= THREAT_BLOCK4 || (threes && t >= THREAT_FLEX3))
                add_move(l, q, t, near);
            else if (t >= THREAT_FLEX3)
                left_out = true;
        }
    sort_moves(l);
    return left_out;
}

/* ---- The search ---- */

static Outcome attack(Vcf *v, Board *b, int depth, int k, Pos last_defence);

/// Records a finished line: the attacker's move at index k and then the five at f.
static Outcome win_with(Vcf *v, int k, Pos m, Pos f) {
    v->line[k] = m;
    v->line[k + 1] = f;
    v->line_len = k + 2;
    return WIN;
}

/// VCT: cells that stop every straight four the attacker could make now, plus the defender's
/// counter-fours. An empty list with a threat standing means the defender has lost.
static bool defences_to_threes(Board *b, Color a, Pos near, VcfMoves *l) {
    const Color d = (Color)(a ^ 1);
    bool threat = false;
    uint8_t mark[BOARD_CELLS] = {0};
    l->count = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos q = pos_make(x, y);
            if (!board_empty(b, q)) continue;
            if ((b->threat[q][d] & THREAT_CLASS_MASK) >= THREAT_BLOCK4) mark[q] = 1;
            if ((b->threat[q][a] & THREAT_CLASS_MASK) != THREAT_FLEX4 || !legal(b, q, a)) continue;
            threat = true;
            for (int dir = 0; dir < 4; dir++) {
                if (board_pattern(b, q, dir, a) != PAT_FREE4) continue;
                for (int s = -LINE_HALF; s <= LINE_HALF; s++) mark[q + s * DIR[dir]] = 1;
            }
        }
    if (!threat) return false;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos q = pos_make(x, y);
            if (mark[q] && board_empty(b, q))
                add_move(l, q, (Threat)(b->threat[q][d] & THREAT_CLASS_MASK), near);
        }
    sort_moves(l);
    return true;
}

/// The defender must stop open threes: every legal defence has to lose. The line kept is
/// the one against the last defence tried.
static Outcome defend_threes(Vcf *v, Board *b, int depth, int k, Pos m) {
    const Color d = (Color)(v->attacker ^ 1);
    VcfMoves *l = &v->lists[2 * k + 1];
    if (!defences_to_threes(b, v->attacker, m, l)) return FAIL;
    if (depth <= 0) { /* a three costs a unit of depth, and none is left */
        v->cut = true;
        return FAIL;
    }
    int tried = 0;
    for (int i = 0; i < l->count; i++) {
        if (!legal(b, l->move[i], d)) continue;
        tried++;
        board_play(b, l->move[i]);
        const Outcome r = attack(v, b, depth - 1, k + 1, l->move[i]);
        board_undo(b);
        if (r == FAIL) return FAIL;
    }
    if (!tried) v->line_len = k + 1; /* no legal defence: the line ends with the threat */
    return WIN;
}

/// Depth an attacker four costs: one in VCF; none in VCT, whose depth counts open threes
/// (fours are cheap to search, so a VCT of depth 0 is a full VCF).
static int four_cost(const Vcf *v) { return v->limits.vct ? 0 : 1; }

/// The defender to move, after the attacker's move m (attacker's move index k).
static Outcome defend(Vcf *v, Board *b, int depth, int k, Pos m) {
    const Color a = v->attacker, d = (Color)(a ^ 1);
    Pos five[2];
    const int n = five_points(b, m, a, five);
    v->line[k] = m;
    if (n >= 2) return win_with(v, k, m, five[0]);
    if (n == 1) {
        if (!legal(b, five[0], d)) return win_with(v, k, m, five[0]);
        board_play(b, five[0]);
        const Outcome r = attack(v, b, depth - four_cost(v), k + 1, five[0]);
        board_undo(b);
        return r;
    }
    return v->limits.vct ? defend_threes(v, b, depth, k, m) : FAIL;
}

/// Tries the attacker's candidate moves in order; WIN at the first that wins.
static Outcome try_attacks(Vcf *v, Board *b, int depth, int k, const VcfMoves *l) {
    for (int i = 0; i < l->count && !v->stopped; i++) {
        const Pos m = l->move[i];
        if (!legal(b, m, v->attacker)) continue;
        board_play(b, m);
        const Outcome r = defend(v, b, depth, k, m);
        board_undo(b);
        if (r == WIN) return WIN;
    }
    return FAIL;
}

/// The attacker to move (its k-th move), `depth` attacker moves left; `last_defence` is the
/// defender's last stone (POS_NONE at the root, where the whole board is scanned).
static Outcome attack(Vcf *v, Board *b, int depth, int k, Pos last_defence) {
    const Color d = (Color)(v->attacker ^ 1);
    if (out_of_budget(v)) return FAIL;
    Pos five[2];
    const int n = five_points(b, last_defence, d, five);
    if (n >= 2) return FAIL; /* two fives to stop and none of our own: lost at any depth */
    if ((depth <= 0 && !v->limits.vct) || k + 2 > VCF_MAX_LINE) {
        v->cut = true;
        return FAIL;
    }
    if (table_says_lost(v, b->hash, depth)) return FAIL;

    VcfMoves *l = &v->lists[2 * k];
    const Pos near = k > 0 ? v->line[k - 1] : POS_NONE;
    const bool outer_cut = v->cut;
    v->cut = false;
    if (n == 1) {
        l->count = 0;
        add_move(l, five[0], THREAT_NONE, near); /* the block is forced */
    } else {
        const bool threes = v->limits.vct && depth > 0;
        if (attacker_threats(b, v->attacker, threes, near, l) && v->limits.vct)
            v->cut = true; /* open threes were left out for want of depth */
    }
    const Outcome r = try_attacks(v, b, depth, k, l);
    if (r == FAIL && !v->stopped) table_store_lost(v, b->hash, v->cut ? depth : DEPTH_PROVEN);
    v->cut = v->cut || outer_cut;
    return r;
}

/// The root: a five of our own ends it at once.
static bool immediate_five(Vcf *v, const Board *b) {
    Pos five[2];
    if (five_points(b, POS_NONE, v->attacker, five) == 0) return false;
    v->line[0] = five[0];
    v->line_len = 1;
    return true;
}

VcfStatus vcf_search(Vcf *v, Board *b, const VcfLimits *limits) {
    v->limits = *limits;
    v->attacker = board_to_move(b);
    v->nodes = 0;
    v->line_len = 0;
    v->stopped = false;
    v->deadline_ns = limits->max_ms > 0 ? tm_now_ns() + limits->max_ms * 1000000 : 0;
    if (immediate_five(v, b)) return VCF_WIN;
    const int max_depth = limits->max_depth > 0 && limits->max_depth < VCF_MAX_LINE - 1
                              ? limits->max_depth
                              : VCF_MAX_LINE - 1;
    /* VCT deepens on open threes from 0 (a VCF); VCF goes straight to the limit. */
    const int first = limits->vct ? 0 : limits->shortest ? 1 : max_depth;
    for (int depth = first; depth <= max_depth; depth++) {
        v->cut = false;
        if (attack(v, b, depth, 0, POS_NONE) == WIN) return VCF_WIN;
        if (v->stopped) return VCF_UNKNOWN;
        if (!v->cut) break; /* nothing was cut off: no win at any depth */
    }
    v->line_len = 0;
    return VCF_NONE;
}

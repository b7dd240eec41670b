/*
 * search.c — the alpha-beta search of search.h.
 *
 * Every node starts with a scan of the candidate points (empty, within two cells of a stone),
 * which settles the forced cases before any search: a five to make wins; two fives of the
 * opponent lose; one must be blocked (a renju Black that may not block there loses); an open
 * four or a double four to make wins. When the opponent has an open three, only the moves
 * that stop it or make a four are searched; against its four-threes and double fours, only
 * the points on their lines and own fours. Leaves try own fours near the side's last stone.
 * The scan also gives the points the evaluation sums over.
 */
#include "search.h"
#include "timeman.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "pattern.h"
#include "rules.h"
#include "vcf.h"

enum {
    CHECK_EVERY = 256,         ///< nodes between clock checks (main thread)
    QUIESCENCE_FOURS = 20,     ///< most fours in a row at a leaf
    ASPIRATION_DEPTH = 5,      ///< aspiration windows from this depth on
    ASPIRATION_DELTA = 16,     ///< this far either side of the last score at first
    ASPIRATION_FAIL_HIGHS = 3, ///< a ply shallower after each this many fail highs in a row
    ROOT_SOLVER_NODES = 30000, ///< VCF nodes before the search (deterministic)
    ORDER_TT = 1 << 28,
    /// History counts this much less than the ordering tables: it breaks ties among moves of
    /// one kind and never lifts a quiet move above a three (which orders at 80 to 120). As
    /// the leading term (and with killers) it put quiet moves first, which refuted a shallow
    /// node only one time in five.
    ORDER_HISTORY_DIV = 32,
    HISTORY_MAX = 8000,
    GREEDY_NOISE = 24,     ///< the easy level's randomness, in ordering points
    FUTILITY_MARGIN = 150, ///< per ply of depth
    ONE_PLY = DEPTH_UNIT,  ///< search depths are fractional: 1/ONE_PLY of a ply is the step
};
/// A completed depth ends at about this multiple of the time the previous ones took: the
/// effective branching factor of the selective search is near 2 on the bench positions
/// (tengen bench --time), lower on some depths; a bit below it keeps a depth that may finish.
static const double NEXT_DEPTH_COST = 1.6;
/// Table keys of searches that leave a move out: hash ^ move * this.
static const uint64_t EXCLUSION_KEY = 0x9e3779b97f4a7c15u;

/// Selectivity of the hard and max levels (style.reductions), in one place. Evaluation units:
/// an open three of the opponent costs about 250 (eval.c).
static const struct {
    int rfp_margin;  ///< reverse futility: eval - this per ply of depth >= beta fails high
    int razor_depth; ///< razoring below this many plies
    int razor_base;  ///< razoring: eval + base + margin per ply < alpha tries fours only
    int razor_margin;
    double mcp_base;      ///< move-count pruning: mcp_base + depth^mcp_power moves at most,
    double mcp_power;     ///< halved when the position is not improving
    double lmr_scale;     ///< reduction = scale ln(depth) ln(move number), in plies
    int lmr_min_depth;    ///< no reductions below this many plies
    double lmr_pv;        ///< plies less at PV nodes
    double lmr_was_pv;    ///< plies less at other nodes that have been on the PV (table flag)
    double lmr_threat;    ///< plies less for a move that makes or blocks an open three or more
    double lmr_builder;   ///< plies less for a quiet move that builds two lines (builds_two_lines)
    double lmr_four;      ///< plies less again for a move that makes a four
    double lmr_history;   ///< one ply less per this much history
    double lmr_order;     ///< plies more per 100 ordering points below the node's best move
    double lmr_order_top; ///< ... less this (the best move is reduced this much less)
    double lmr_order_min; ///< the ordering's term kept between -lmr_order_min
    double lmr_order_max; ///< and +lmr_order_max plies
    int lmr_deeper;       ///< a reduced move that beats alpha by this + lmr_deeper_r a ply of
    int lmr_deeper_r;     ///< its reduction is re-searched a ply deeper than unreduced,
    int lmr_deeper2;      ///< and one more ply when by this + lmr_deeper2_r a ply
    int lmr_deeper2_r;    ///< (step 15a)
    int futility_margin;  ///< shallow futility of quiet moves: eval + this per ply <= alpha
    int se_depth;         ///< singular extension from this many plies
    int se_margin;        ///< ... when the other moves stay this much per ply below the table
    int far_depth;        ///< a distracting four (step 13a) is not searched below this depth
    int far_reach;        ///< ... far: this many cells from a last move (renju, own: one more)
    double far_lmr_their; ///< plies more LMR for a move far from the opponent's last move
    double far_lmr_mine;  ///< plies more LMR for a move far from our own last move
    int iir_depth;        ///< a node this deep with no table move is searched a ply shallower
} SEL = {
    .rfp_margin = 50,
    .razor_depth = 3,
    .razor_base = 40,
    .razor_margin = 40,
    .mcp_base = 3,
    .mcp_power = 1.3,
    .lmr_scale = 1.0,
    .lmr_min_depth = 2,
    .lmr_pv = 1.0,
    .lmr_was_pv = 1.0,
    .lmr_threat = 1.0,
    .lmr_builder = 1.0,
    .lmr_four = 0.5,
    .lmr_history = 4000,
    .lmr_order = 0.41,
    .lmr_order_top = 0.4,
    .lmr_order_min = 0.5,
    .lmr_order_max = 2.0,
    .lmr_deeper = 34,
    .lmr_deeper_r = 11,
    .lmr_deeper2 = 320,
    .lmr_deeper2_r = 26,
    .futility_margin = FUTILITY_MARGIN,
    .se_depth = 7,
    .se_margin = 3,
    .far_depth = 4,
    .far_reach = 4,
    .far_lmr_their = 1.9,
    .far_lmr_mine = 1.0,
    .iir_depth = 4,
};

/// Plies more (or fewer) than unreduced for a reduced move that beat alpha (step 15a): one when
/// it beat alpha clearly, two when by far, the margins growing with the reduction `r`; one fewer
/// when it is less than a point a ply above the best move so far.
static int research_plies(int v, int alpha, int best, int r, int new_depth) {
    const int plies = r / ONE_PLY;
    return (v > alpha + SEL.lmr_deeper + SEL.lmr_deeper_r * plies) +
           (v > alpha + SEL.lmr_deeper2 + SEL.lmr_deeper2_r * plies) -
           (v < best + new_depth / ONE_PLY);
}

/// Moves searched at most at a node of `depth` (fractional plies).
static int move_count_limit(int depth, bool improving) {
    const int n = (int)(SEL.mcp_base + pow((double)depth / ONE_PLY, SEL.mcp_power));
    return improving ? n : (n + 1) / 2;
}

static int static_eval_margin(int eval, int depth) {
    return eval + SEL.futility_margin * depth / ONE_PLY;
}

static int win_in(int ply) { return SCORE_WIN - ply; }
static int loss_in(int ply) { return -SCORE_WIN + ply; }
static bool is_decisive(int score) { return score >= SCORE_WIN_MIN || score <= -SCORE_WIN_MIN; }

/* Win scores are stored relative to the node, read back relative to the root. */
static int score_to_tt(int s, int ply) {
    return s >= SCORE_WIN_MIN ? s + ply : s <= -SCORE_WIN_MIN ? s - ply : s;
}
static int score_from_tt(int s, int ply) {
    return s >= SCORE_WIN_MIN ? s - ply : s <= -SCORE_WIN_MIN ? s + ply : s;
}

/* ---- The worker's board ---- */

/// The rows of board ply `to`: those of ply `from` with a stone added at p.
static void rows_add(Worker *w, int from, int to, Pos p) {
    const int x = pos_x(p), y = pos_y(p), height = w->board.height;
    const uint32_t board_mask = (1u << w->board.width) - 1;
    const uint32_t square = ((0x1fu << x) >> 2) & board_mask; /* columns x-2 .. x+2 */
    if (from != to) {
        memcpy(w->near_rows[to], w->near_rows[from], sizeof(uint32_t) * (size_t)height);
        memcpy(w->stone_rows[to], w->stone_rows[from], sizeof(uint32_t) * (size_t)height);
    }
    for (int r = y - 2; r <= y + 2; r++)
        if (r >= 0 && r < height) w->near_rows[to][r] |= square;
    w->stone_rows[to][y] |= 1u << x;
}

void worker_reset(Worker *w, const Board *root) {
    w->board = *root;
    w->order_more = weights_order_more(root->weights);
    w->cell_count = 0;
    const int ply = root->ply;
    memset(w->near_rows[ply], 0, sizeof w->near_rows[ply]);
    memset(w->stone_rows[ply], 0, sizeof w->stone_rows[ply]);
    for (int y = 0; y < root->height; y++)
        for (int x = 0; x < root->width; x++) {
            const Pos p = pos_make(x, y);
            w->cells[w->cell_count++] = p;
            if (!board_empty(root, p)) rows_add(w, ply, ply, p);
        }
    memset(w->excluded, 0, sizeof w->excluded);
    w->nodes = 0;
    w->seldepth = 0;
    w->completed_depth = 0;
    w->done_count = 0;
    memset(&w->tree, 0, sizeof w->tree);
}

static void make_move(Worker *w, Pos p) {
    board_play(&w->board, p);
    tt_prefetch(w->job->tt, w->board.hash); /* probed after the child's scan */
    rows_add(w, w->board.ply - 1, w->board.ply, p);
}

static void unmake_move(Worker *w) { board_undo(&w->board); }

/// May the side to move play at empty p? Only renju Black has forbidden points.
static bool legal(Board *b, Pos p) {
    const Color me = board_to_move(b);
    return b->rule != TG_RENJU || me != BLACK || rules_threat_at(b, p, BLACK) != THREAT_FORBID;
}

/* ---- The scan ---- */

typedef struct Scan {
    Pos cand[MAX_CANDIDATES]; ///< empty points near stones (renju Black fouls included)
    int count;
    Pos my_five; ///< a point where the side to move makes five, or POS_NONE
    Pos my_win;  ///< a legal open four or double four (renju White: or a four on a foul), or
                 ///< POS_NONE
    Pos their_five[2];
    int their_fives;
    bool their_three;  ///< the opponent can make an open four (a legal one)
    bool their_threat; ///< ... or a four-three, a double four, a double three (renju
                       ///< White: or a four whose five point is Black's foul)
    bool their_four;   ///< the opponent can make a four (or more)
    Pos my_43;         ///< a point where the side to move makes a four and an open three
    Pos my_33;         ///< ... two open threes (never for renju Black: a possible foul)
    int mask;          ///< threat mask of the candidates (weights.h): mine, theirs << 6
    Pos fouls[8];      ///< renju Black's real double-three fouls among the candidates (more
    int foul_count;    ///< are rare: they count as no threat, but their codes stay)
} Scan;

/// The threat class of the opponent's point p as the search must take it. Renju Black's points
/// with two open threes (THREAT_MAYBE_33) are settled: with no four or straight four beside
/// them they are never a double-three threat (either a foul, or at most one three is real), and
/// a four-three or straight four that comes with two threes is a foul when both are real (the
/// recursive test decides; such points are rare). Unsettled, a foul 4-3-3 made the exact
/// defences (step 11) leave out the winning move.
static int their_threat_at(Board *b, Pos p, Color them) {
    const uint8_t t = b->threat[p][them];
    const int kind = t & THREAT_CLASS_MASK;
    if (!(t & THREAT_MAYBE_33)) return kind;
    if (kind == THREAT_FLEX3_2X) return THREAT_FLEX3;
    return rules_threat_at(b, p, them);
}

/// Is renju Black's point p, which has two open threes, a real foul? Such a point is worth
/// nothing to Black: it counts neither in the threat mask nor in the code sum.
static bool black_foul(Scan *s, Board *b, Pos p) {
    if (!rules_black_false_threat(b, p)) return false;
    if (s->foul_count < (int)(sizeof s->fouls / sizeof s->fouls[0])) s->fouls[s->foul_count++] = p;
    return true;
}

/// The points where `them`, after playing p, would make five on line d: an empty cell that
/// completes a window of five with p and three stones of theirs (under exactly-five rules an
/// overline window may count too, which only adds points). Returns how many, at most 2.
static int five_points(const Board *b, Pos p, int d, Color them, Pos *out) {
    int n = 0;
    for (int start = -4; start <= 0 && n < 2; start++) {
        int stones = 0;
        Pos gap = POS_NONE;
        for (int k = start; k < start + 5; k++) {
            const Pos q = (Pos)(p + k * DIR[d]);
            if (k == 0) continue;
            if (b->cell[q] == them)
                stones++;
            else if (b->cell[q] == EMPTY)
                gap = q;
        }
        if (stones == 3 && gap != POS_NONE && (n == 0 || out[0] != gap)) out[n++] = gap;
    }
    return n;
}

/// The points that block the fours `them` would make by playing p (five_points on each line
/// where p makes a four). Returns how many, at most 8.
static int four_blocks(const Board *b, Pos p, Color them, Pos *out) {
    int n = 0;
    for (int d = 0; d < 4; d++)
        if (board_pattern(b, p, d, them) == PAT_BLOCKED4) n += five_points(b, p, d, them, out + n);
    return n;
}

/// Renju: does a White stone at p, where White makes one four, make a four whose five point
/// Black may not take? Black cannot block it, so it wins like an open four (the commonest
/// renju finish). The foul is judged with the stone at p on the board, which blocks one of
/// Black's lines through the five point.
static bool white_four_on_foul(Board *b, Pos p) {
    Pos q[8];
    if (four_blocks(b, p, WHITE, q) != 1) return false;
    const uint8_t t = b->threat[q[0]][BLACK];
    if ((t & THREAT_CLASS_MASK) != THREAT_FORBID && !(t & THREAT_MAYBE_33)) return false;
    board_put(b, p, WHITE);
    const bool foul = rules_threat_at(b, q[0], BLACK) == THREAT_FORBID;
    board_lift(b, p);
    return foul;
}

static void scan(Worker *w, Scan *s) {
    Board *b = &w->board;
    const Color me = board_to_move(b), them = (Color)(me ^ 1);
    s->foul_count = 0;
    s->my_five = s->my_win = POS_NONE;
    s->their_fives = 0;
    s->their_three = s->their_threat = s->their_four = false;
    s->my_43 = s->my_33 = POS_NONE;
    int my_bits = 0, their_bits = 0;
    const uint32_t *near = w->near_rows[b->ply], *stones = w->stone_rows[b->ply];
    int count = 0;
    for (int y = 0; y < b->height; y++)
        for (uint32_t row = near[y] & ~stones[y]; row; row &= row - 1) {
            const Pos p = pos_make(__builtin_ctz(row), y);
            s->cand[count++] = p;
            int mine = b->threat[p][me] & THREAT_CLASS_MASK;
            int theirs = b->threat[p][them] & THREAT_CLASS_MASK;
            if (mine < THREAT_FLEX3 && theirs < THREAT_FLEX3) continue; /* most points */
            /* A foul is no threat: its open four is no win, its double three none. */
            if (black_foul(s, b, p)) *(me == BLACK ? &mine : &theirs) = THREAT_NONE;
            my_bits |= weights_mask_bit(mine);
            their_bits |= weights_mask_bit(theirs);
            /* Settled above: a double three of Black's that is no foul is one real three at
             * most (their_threat_at, without a second foul test). */
            if (theirs == THREAT_FLEX3_2X && (b->threat[p][them] & THREAT_MAYBE_33))
                theirs = THREAT_FLEX3;
            if (mine == THREAT_FIVE) s->my_five = p;
            if (theirs == THREAT_FIVE && s->their_fives < 2) s->their_five[s->their_fives++] = p;
            if ((mine == THREAT_FLEX4 || mine == THREAT_BLOCK4_2X) && s->my_win == POS_NONE)
                s->my_win = p;
            if (theirs == THREAT_FLEX4) s->their_three = true;
            if (theirs >= THREAT_FLEX3_2X && theirs != THREAT_BLOCK4) s->their_threat = true;
            if (theirs >= THREAT_BLOCK4) s->their_four = true;
            /* Renju's foul traps: White's four that Black may not block wins at once; facing
             * one, Black's node is not quiet (no reverse futility, no razoring). */
            if (b->rule == TG_RENJU && me == WHITE && mine == THREAT_BLOCK4 &&
                s->my_win == POS_NONE && white_four_on_foul(b, p))
                s->my_win = p;
            if (b->rule == TG_RENJU && me == BLACK && theirs == THREAT_BLOCK4 && !s->their_threat &&
                white_four_on_foul(b, p))
                s->their_threat = true;
            if (mine == THREAT_BLOCK4_FLEX3) s->my_43 = p;
            if (mine == THREAT_FLEX3_2X && !(b->threat[p][me] & THREAT_MAYBE_33)) s->my_33 = p;
        }
    s->count = count;
    s->mask = my_bits | their_bits << MASK_SIDE_BITS;
    /* No stone near any empty point (a crowded board): every empty point is a candidate. */
    if (s->count == 0 && b->stone_count < w->cell_count)
        for (int i = 0; i < w->cell_count; i++)
            if (board_empty(b, w->cells[i])) s->cand[s->count++] = w->cells[i];
}

/// The static evaluation of the scanned node: the trained tables, or the seed weights over
/// its candidates.
static int scan_eval(const Worker *w, const Scan *s) {
    if (w->job->style.seed_eval) return eval_position(&w->board, s->cand, s->count);
    return eval_trained(&w->board, s->cand, s->count, s->mask, s->fouls, s->foul_count);
}

/// The ordering value of playing p for `me`: the trained tables, or the seed weights.
static int move_order(const Worker *w, Pos p, Color me) {
    if (w->job->style.seed_eval) return eval_move_order(&w->board, p, me);
    return eval_order_trained(&w->board, p, me);
}

/// The ordering value of p in a node's move list: move_order, and with the trained tables
/// where p lies from the last four moves and what it makes and stops, alone and against the
/// node's threat mask (learnt from the search's own best moves).
static int list_order(const Worker *w, Pos p, Color me, int mask) {
    const Board *b = &w->board;
    if (w->job->style.seed_eval) return eval_move_order(b, p, me);
    const int v = eval_order_trained(b, p, me) + eval_order_near(b, p);
    return w->order_more ? v + eval_order_more(b, p, me, mask) : v;
}

/// The forced outcomes a scan settles, or 0 when the node must be searched. *forced is set to
/// the single block when the opponent has one five point.
static int forced_score(Worker *w, const Scan *s, int ply, Pos *forced) {
    *forced = POS_NONE;
    if (s->my_five != POS_NONE) return win_in(ply + 1);
    if (s->their_fives >= 2) return loss_in(ply + 2);
    if (s->their_fives == 1) {
        if (!legal(&w->board, s->their_five[0])) return loss_in(ply + 2);
        *forced = s->their_five[0];
        return 0;
    }
    if (s->my_win != POS_NONE) return win_in(ply + 3);
    return 0;
}

/// A static mate in 5 (own move, reply, straight four, reply, five), or 0. With no four the
/// opponent could make, a four-three or a double three wins: the four's block lies on another
/// line than the three, one stone cannot stop two threes on two lines, and no reply can make
/// five. Renju Black is left to the search (its straight-four points may be fouls).
static int static_mate(const Worker *w, const Scan *s, int ply) {
    if (s->their_four || s->their_fives ||
        (w->board.rule == TG_RENJU && board_to_move(&w->board) == BLACK))
        return 0;
    return s->my_43 != POS_NONE || s->my_33 != POS_NONE ? win_in(ply + 5) : 0;
}

/// Does a stone of `c` at q make a four or more on line d, or a row renju Black may not make
/// (two fours on the line, an overline)? Such a point is one of the line's five points or the
/// straight four's own point, so the defender may take it: a renju Black three whose five
/// point is also a second four on the line (a double four) is stopped there too.
static bool four_or_foul_point(const Board *b, Pos q, int d, Color c) {
    const int pat = board_pattern(b, q, d, c);
    return pat >= PAT_BLOCKED4 || pat == PAT_DOUBLE4 || pat == PAT_OVERLINE;
}

/// Marks the points that stop the opponent's open threes: on the line of each of its
/// straight-four points, every point where it would make a four (or a foul row of fours).
static void mark_three_defences(Board *b, const Scan *s, Color them, uint8_t *mark) {
    for (int i = 0; i < s->count; i++) {
        const Pos p = s->cand[i];
        if (their_threat_at(b, p, them) != THREAT_FLEX4) continue;
        for (int d = 0; d < 4; d++) {
            if (board_pattern(b, p, d, them) != PAT_FREE4) continue;
            for (int k = -LINE_HALF; k <= LINE_HALF; k++) {
                const Pos q = (Pos)(p + k * DIR[d]);
                if (board_empty(b, q) && four_or_foul_point(b, q, d, them)) mark[q] = 1;
            }
        }
    }
}

/// Adds 1 to count[q] for each cell q that may stop the four-three or double four of `them`
/// at p, each cell once: p, the cells of its lines of three or more, and the lines through
/// `blocks`, where a stone of ours may make a block of its four a four, which gains the tempo a
/// counter-attack needs. `seen` holds `id` for cells counted.
static void count_43_defences(const Board *b, Pos p, Color them, const Pos *blocks, int nblocks,
                              uint8_t id, uint8_t *seen, uint8_t *count) {
    seen[p] = id, count[p]++;
    for (int d = 0; d < 4; d++) {
        if (board_pattern(b, p, d, them) < PAT_FREE3) continue;
        for (int k = -LINE_HALF; k <= LINE_HALF; k++) {
            const Pos q = (Pos)(p + k * DIR[d]);
            if (board_empty(b, q) && seen[q] != id) seen[q] = id, count[q]++;
        }
    }
    for (int i = 0; i < nblocks; i++)
        for (int d = 0; d < 4; d++)
            for (int k = -4; k <= 4; k++) {
                const Pos q = (Pos)(blocks[i] + k * DIR[d]);
                if (board_empty(b, q) && seen[q] != id) seen[q] = id, count[q]++;
            }
}

/// Counts, at each point, the opponent's four-threes and double fours it may stop
/// (count_43_defences). One stone must stop them all, so only points counted for every one of
/// them (the count returned) defend. A four-three is no sure threat when a block of its four is
/// already a four of ours (the block gains a tempo): it restricts nothing.
static int mark_43_defences(Board *b, const Scan *s, Color them, uint8_t *count) {
    const Color me = (Color)(them ^ 1);
    uint8_t seen[BOARD_CELLS];
    memset(seen, 0, sizeof seen);
    int threats = 0;
    for (int i = 0; i < s->count && threats < 255; i++) {
        const Pos p = s->cand[i];
        const int t = their_threat_at(b, p, them);
        if (t != THREAT_BLOCK4_FLEX3 && t != THREAT_BLOCK4_2X) continue;
        Pos blocks[8];
        int nblocks = 0;
        if (t == THREAT_BLOCK4_FLEX3) {
            nblocks = four_blocks(b, p, them, blocks);
            bool sure = true;
            for (int j = 0; j < nblocks; j++)
                sure &= (b->threat[blocks[j]][me] & THREAT_CLASS_MASK) < THREAT_BLOCK4;
            if (!sure) continue;
        }
        count_43_defences(b, p, them, blocks, nblocks, (uint8_t)++threats, seen, count);
    }
    return threats;
}

/* ---- Limits ---- */

static bool stopped(const Worker *w) {
    return atomic_load_explicit(&w->job->stop, memory_order_relaxed);
}

static uint64_t total_nodes(const SearchJob *job) {
    uint64_t n = 0;
    for (int i = 0; i < job->thread_count; i++) n += job->workers[i].nodes;
    return n;
}

/// Counts a node; the main thread checks the clock, the node limit and the caller's flag.
static void count_node(Worker *w) {
    SearchJob *job = w->job;
    const uint64_t n = atomic_load_explicit(&w->nodes, memory_order_relaxed) + 1;
    atomic_store_explicit(&w->nodes, n, memory_order_relaxed);
    if (w->id != 0) return;
    if ((job->max_nodes && job->thread_count == 1 && n >= job->max_nodes) ||
        (job->external_stop && atomic_load_explicit(job->external_stop, memory_order_relaxed)))
        job->stop = true;
    if (n % CHECK_EVERY) return;
    if ((job->max_nodes && total_nodes(job) >= job->max_nodes) ||
        tm_now_ns() - job->start_ns >= job->maximum_ns)
        job->stop = true;
}

/* ---- Move lists ---- */

typedef struct MoveList {
    Pos move[MAX_CANDIDATES];
    int score[MAX_CANDIDATES];
    int count;
    bool unscored; ///< past index 0, the scores lack the ordering tables' term (add_order_scores)
} MoveList;

static void list_add(MoveList *l, Pos p, int score) {
    l->move[l->count] = p;
    l->score[l->count++] = score;
}

/// Moves the best remaining move (ties: the lower point) to index i and returns it.
static Pos pick_next(MoveList *l, int i) {
    int best = i;
    for (int j = i + 1; j < l->count; j++)
        if (l->score[j] > l->score[best] ||
            (l->score[j] == l->score[best] && l->move[j] < l->move[best]))
            best = j;
    const Pos m = l->move[best];
    const int sc = l->score[best];
    l->move[best] = l->move[i], l->score[best] = l->score[i];
    l->move[i] = m, l->score[i] = sc;
    return m;
}

/// Does playing p make or stop no open three (or more)?
static bool quiet_move(const Board *b, Pos p, Color me) {
    return (b->threat[p][me] & THREAT_CLASS_MASK) < THREAT_FLEX3 &&
           (b->threat[p][me ^ 1] & THREAT_CLASS_MASK) < THREAT_FLEX3;
}

/// Does a stone of `me` at p build two lines that can each grow into a three or a four (two
/// free twos, or a free two and a blocked three)? Such a quiet move is the seed of a double
/// three or a four-three one move later: the start of most wins by threats.
static bool builds_two_lines(const Board *b, Pos p, Color me) {
    int lines = 0;
    for (int d = 0; d < 4; d++) {
        const int pat = board_pattern(b, p, d, me);
        lines += pat == PAT_FREE2 || pat == PAT_BLOCKED3;
    }
    return lines >= 2;
}

/// Plies more (or fewer) LMR for a move the ordering scores `gap` points below the best move of
/// its node other than the table move: the trained ordering's confidence, used as Rapfi uses a
/// policy. A move it rates far below the best is seldom the one that changes the result.
static double lmr_by_order(int gap) {
    const double r = SEL.lmr_order * gap / 100.0 - SEL.lmr_order_top;
    return r < -SEL.lmr_order_min  ? -SEL.lmr_order_min
           : r > SEL.lmr_order_max ? SEL.lmr_order_max
                                   : r;
}

/// A late-move reduction `rd` (plies) made less for what the move is: a threat, a quiet move
/// that builds two lines, a four of ours.
static double lmr_by_kind(const Board *b, Pos m, Color me, bool quiet, int mine, double rd) {
    if (!quiet)
        rd -= SEL.lmr_threat;
    else if (builds_two_lines(b, m, me))
        rd -= SEL.lmr_builder;
    if (mine >= THREAT_BLOCK4) rd -= SEL.lmr_four;
    return rd;
}

/// Whether p lies more than `reach` cells (in x or y) from the stone played `back` moves ago;
/// true when there is no such stone.
static bool far_from_move(const Board *b, Pos p, int back, int reach) {
    if (b->ply < back) return true;
    const Pos q = b->moves[b->ply - back];
    if (q == POS_PASS) return true;
    return pos_distance(p, q) > reach;
}

/// Drops the moves from index `from` on that move-count pruning leaves out: all but our fours
/// and the quiet moves that build two lines. Picking the rest in order then costs a pass over
/// the few kept, not over every candidate.
static void drop_counted_moves(const Board *b, MoveList *l, int from) {
    const Color me = board_to_move(b);
    int kept = from;
    for (int j = from; j < l->count; j++)
        if ((b->threat[l->move[j]][me] & THREAT_CLASS_MASK) >= THREAT_BLOCK4 ||
            builds_two_lines(b, l->move[j], me))
            l->move[kept] = l->move[j], l->score[kept++] = l->score[j];
    l->count = kept;
}

/// Keeps the `n` best points by attack and the `n` best by defence (the medium level).
static void keep_top_per_side(const Board *b, MoveList *l, int n) {
    const Color me = board_to_move(b), them = (Color)(me ^ 1);
    bool keep[MAX_CANDIDATES] = {false};
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < n; k++) {
            int best = -1, best_value = -1;
            for (int i = 0; i < l->count; i++) {
                const int v = side ? eval_point(b, l->move[i], them, false)
                                   : eval_point(b, l->move[i], me, true);
                if (!keep[i] && v > best_value) best = i, best_value = v;
            }
            if (best >= 0) keep[best] = true;
        }
    }
    int kept = 0;
    for (int i = 0; i < l->count; i++)
        if (keep[i]) l->move[kept] = l->move[i], l->score[kept++] = l->score[i];
    l->count = kept;
}

/// Adds the candidates the side to move may play, scored by history and the table move; with
/// `defence`, only its fours and the points `defence` counts at least `needed` times. Returns
/// whether the table move is among them.
static bool add_moves(Worker *w, const Scan *s, Pos tt_move, const uint8_t *defence, int needed,
                      MoveList *l) {
    const Board *b = &w->board;
    const Color me = board_to_move(b);
    bool has_tt = false;
    for (int i = 0; i < s->count; i++) {
        const Pos p = s->cand[i];
        const int mine = b->threat[p][me] & THREAT_CLASS_MASK;
        if (mine == THREAT_FORBID) continue;
        if (defence && mine < THREAT_BLOCK4 && defence[p] < needed) continue;
        has_tt |= p == tt_move;
        list_add(l, p, w->history[me][p] / ORDER_HISTORY_DIV + (p == tt_move ? ORDER_TT : 0));
    }
    return has_tt;
}

/// Adds the ordering tables' term to the scores from index `from` on. It depends on the
/// position alone, so it may come after a search of the table move; the history term, which
/// that search changes, was read before it (add_moves).
static void add_order_scores(const Worker *w, const Scan *s, MoveList *l, int from) {
    const Color me = board_to_move(&w->board);
    for (int i = from; i < l->count; i++) l->score[i] += list_order(w, l->move[i], me, s->mask);
    l->unscored = false;
}

/// The moves of a node that is not forced by a four. When the opponent has an open three, only
/// its defences (the points where it would make a four, or a renju foul row of fours) and own
/// fours; when it has a four-three or a double four, only the points on its lines and own
/// fours. When the table move is among them, the ordering tables' scores wait (l->unscored):
/// the table move comes first on any scores (ORDER_TT outweighs them), and it often cuts the
/// node alone.
static void generate(Worker *w, const Scan *s, Pos tt_move, MoveList *l) {
    Board *b = &w->board;
    const Color them = (Color)(board_to_move(b) ^ 1);
    l->count = 0;
    uint8_t defence[BOARD_CELLS];
    int needed = 0;
    if (s->their_three || s->their_threat) {
        memset(defence, 0, sizeof defence);
        if (s->their_three)
            mark_three_defences(b, s, them, defence), needed = 1;
        else
            needed = mark_43_defences(b, s, them, defence);
    }
    bool has_tt = add_moves(w, s, tt_move, needed ? defence : NULL, needed, l);
    /* Nothing stops every threat: the node is lost, and all moves show how soon. */
    if (l->count == 0 && needed) has_tt = add_moves(w, s, tt_move, NULL, 0, l);
    if (w->job->style.top_per_side) keep_top_per_side(b, l, w->job->style.top_per_side);
    l->unscored = true;
    if (!has_tt || w->job->style.top_per_side) add_order_scores(w, s, l, 0);
}

static void update_pv(Worker *w, int ply, Pos m) {
    w->pv[ply][0] = m;
    const int n = w->pv_len[ply + 1];
    memcpy(&w->pv[ply][1], w->pv[ply + 1], sizeof(Pos) * (size_t)n);
    w->pv_len[ply] = n + 1;
}

static void reward_cutoff(Worker *w, Pos m, int depth) {
    const Color me = board_to_move(&w->board);
    int16_t *h = &w->history[me][m];
    const int bonus = depth * depth;
    *h = (int16_t)(*h + bonus - *h * bonus / HISTORY_MAX);
}

/* ---- Quiescence: fours only ---- */

/// Is p where a continuous-four attack from `last` (the side's own last stone) goes on: within
/// the 5x5 square around it, or on one of its four lines at most four cells away? Fours far
/// from the side's last stone rarely start a winning chain at a leaf; the root solver and the
/// static mates look at the whole board.
static bool near_own_attack(Pos last, Pos p) {
    if (last == POS_NONE || last == POS_PASS) return true;
    const int dx = pos_x(p) - pos_x(last), dy = pos_y(p) - pos_y(last);
    const int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    if (ax <= 2 && ay <= 2) return true;
    return (dx == 0 || dy == 0 || ax == ay) && ax <= 4 && ay <= 4;
}

static int search(Worker *w, int alpha, int beta, int depth, int ply, bool pv_node);

/// The row of TgTreeStats that counts a node with `depth` left.
static int tree_row(int depth) {
    const int plies = depth / ONE_PLY;
    return plies < TG_TREE_DEPTHS ? plies : TG_TREE_DEPTHS - 1;
}

/// A leaf: the evaluation, unless continuous fours of the side to move, near its last stone, do
/// better. The scan of the node is given; forced blocks were played by the caller.
static int quiescence(Worker *w, const Scan *s, int alpha, int beta, int ply, int fours) {
    Board *b = &w->board;
    const int stand = scan_eval(w, s);
    if (!w->job->style.quiescence || stand >= beta || fours >= QUIESCENCE_FOURS ||
        ply >= SEARCH_MAX_PLY - 4)
        return stand;
    const Color me = board_to_move(b);
    int best = stand;
    if (stand > alpha) alpha = stand;
    MoveList l;
    l.count = 0;
    const Pos own_last = b->ply >= 2 ? b->moves[b->ply - 2] : POS_NONE;
    for (int i = 0; i < s->count; i++) {
        const Pos p = s->cand[i];
        const int t = b->threat[p][me] & THREAT_CLASS_MASK;
        if ((t == THREAT_BLOCK4 || t == THREAT_BLOCK4_FLEX3) && near_own_attack(own_last, p))
            list_add(&l, p, move_order(w, p, me));
    }
    for (int i = 0; i < l.count; i++) {
        const Pos m = pick_next(&l, i);
        if ((b->threat[m][me] & THREAT_MAYBE_33) && !legal(b, m)) continue;
        make_move(w, m);
        /* The opponent must block; search() plays the block without using depth. */
        const int v = -search(w, -beta, -alpha, -(fours + 1) * ONE_PLY, ply + 1, false);
        unmake_move(w);
        if (stopped(w)) return best;
        if (v > best) {
            best = v;
            if (v > alpha) alpha = v;
            if (v >= beta) break;
        }
    }
    return best;
}

/* ---- The search ---- */

/// Negamax alpha-beta with principal variation search. depth is in 1/ONE_PLY plies; depth <= 0
/// is the quiescence, and its negative part counts (in plies) the fours played so far at the
/// leaf.
static int search(Worker *w, int alpha, int beta, int depth, int ply, bool pv_node) {
    Board *b = &w->board;
    w->pv_len[ply] = 0;

    /* Step 1. Count the node; a stopped search returns at once (its value is not used). */
    if (stopped(w)) return 0;
    count_node(w);
    if (ply > w->seldepth) w->seldepth = ply;

    /* Step 2. Forced outcomes from the threat scan. */
    Scan s;
    scan(w, &s);
    Pos forced;
    const int decided = forced_score(w, &s, ply, &forced);
    if (decided) return decided;
    if (s.count == 0) return 0; /* a full board: draw */
    if (ply >= SEARCH_MAX_PLY - 2) return scan_eval(w, &s);

    /* Step 3. A four must be blocked: one move, no depth used (an extension). */
    if (forced != POS_NONE) {
        w->eval_stack[ply] = ply ? -w->eval_stack[ply - 1] : 0;
        make_move(w, forced);
        const int v = -search(w, -beta, -alpha, depth, ply + 1, pv_node);
        unmake_move(w);
        if (!stopped(w)) update_pv(w, ply, forced);
        return v;
    }

    /* Step 4. A four-three or double three the opponent cannot answer with a four wins. */
    if (w->job->style.reductions && !w->excluded[ply]) {
        const int mate = static_mate(w, &s, ply);
        if (mate) return mate;
    }

    /* Step 5. Mate distance pruning: no result can beat a five already found nearer. */
    alpha = alpha > loss_in(ply) ? alpha : loss_in(ply);
    beta = beta < win_in(ply + 1) ? beta : win_in(ply + 1);
    if (alpha >= beta) return alpha;

    /* Step 6. Transposition table (leaves too: their fours transpose a lot). */
    TtHit hit = {POS_NONE, 0, 0, BOUND_NONE, false};
    const Pos skip = w->excluded[ply]; /* the singular-extension test leaves this move out */
    const uint64_t key = skip ? b->hash ^ (uint64_t)skip * EXCLUSION_KEY : b->hash;
    const bool found = tt_probe(w->job->tt, key, &hit);
    const int tt_score = found ? score_from_tt(hit.score, ply) : 0;
    if (found && !pv_node && hit.depth >= depth &&
        (hit.bound == BOUND_EXACT || (hit.bound == BOUND_LOWER && tt_score >= beta) ||
         (hit.bound == BOUND_UPPER && tt_score <= alpha)))
        return tt_score;
    const Pos tt_move =
        found && hit.move != POS_NONE && board_empty(b, hit.move) ? hit.move : POS_NONE;
    /* A node on the PV, or one the table says was on it, keeps the flag in the table; its
     * late moves are reduced less (step 15): the lines near the PV are the likeliest to
     * become it. */
    const bool was_pv = pv_node || (found && hit.pv);
    const int alpha0 = alpha;

    /* Step 6a. Internal iterative reduction: with no table move to start from, the ordering
     * is poor and a deep search mostly wasted; a ply less, and the next visit has a move. */
    if (w->job->style.reductions && tt_move == POS_NONE && !skip &&
        depth >= SEL.iir_depth * ONE_PLY)
        depth -= ONE_PLY;

    /* Step 7. Leaves: the evaluation, or better by continuous fours. */
    if (depth <= 0) {
        const int v = quiescence(w, &s, alpha, beta, ply, -depth / ONE_PLY);
        if (!stopped(w)) {
            const Bound bound = v >= beta ? BOUND_LOWER : v > alpha0 ? BOUND_EXACT : BOUND_UPPER;
            tt_store(w->job->tt, key, POS_NONE, score_to_tt(v, ply), depth, bound, was_pv);
        }
        return v;
    }

    /* Step 8. The static evaluation, and whether it improved on two plies ago (a node after
     * a forced block takes its parent's, negated). */
    const bool selective = w->job->style.reductions;
    const int eval = scan_eval(w, &s);
    w->eval_stack[ply] = eval;
    const bool improving = ply < 2 || eval > w->eval_stack[ply - 2];
    const bool quiet_node = !s.their_three && !s.their_threat; /* no threat of theirs to meet */
    TgTreeStats *tree = &w->tree;
    const int row = tree_row(depth);
    tree->evaluated[row]++;

    /* Step 9. Reverse futility: far enough above beta, with nothing of theirs to meet, the
     * node fails high without a search. */
    if (selective && !pv_node && quiet_node && !skip && !is_decisive(beta) &&
        eval - SEL.rfp_margin * (depth - improving * ONE_PLY) / ONE_PLY >= beta) {
        tree->futile[row]++;
        return eval;
    }

    /* Step 10. Razoring: far below alpha near the leaves, only fours can still lift the node. */
    if (selective && !pv_node && quiet_node && !skip && depth < SEL.razor_depth * ONE_PLY &&
        !is_decisive(alpha) && eval + SEL.razor_base + SEL.razor_margin * depth / ONE_PLY < alpha) {
        const int v = quiescence(w, &s, alpha, alpha + 1, ply, 0);
        if (stopped(w)) return 0;
        if (v <= alpha) {
            tree->razored[row]++;
            return v;
        }
    }

    /* Step 11. Moves: the table move, then by the ordering tables, history breaking ties. */
    MoveList l;
    generate(w, &s, tt_move, &l);
    if (l.count == 0) return loss_in(ply + 2); /* renju Black with only fouls near: lost */
    tree->looped[row]++;
    tree->generated[row] += (uint64_t)l.count;
    tree->answering[row] += s.their_three;

    /* Step 12. The move loop: the first move with a full window, the rest with a null window
     * (late ones reduced), re-searched when they beat alpha. */
    const Color me = board_to_move(b);
    const int plies = depth / ONE_PLY;
    const bool prune = selective && !pv_node && !s.their_three && depth <= 4 * ONE_PLY;
    const int move_limit = selective ? move_count_limit(depth, improving) : MAX_CANDIDATES;
    int best = -SCORE_INF, searched = 0;
    int top_order = INT_MIN; /* the ordering score of the best move other than the table's */
    Pos best_move = POS_NONE;
    bool counted_out = false;
    for (int i = 0; i < l.count; i++) {
        /* Step 13. Move-count pruning: once a move that does not lose is in hand, the moves
         * past the count are not searched, threes and blocks of threes included: the ordering
         * puts the one that refutes first (step 11). Shallow futility: nor are they when the
         * evaluation is far below alpha. Both spare our fours and the quiet moves that build
         * two lines toward threes of ours, and both conditions stay true once true (alpha,
         * best and the count only grow). Less than a ply from the leaves the count is one and
         * nothing is spared: the children are leaves, which see only fours, and the first
         * move is the best the node can tell apart (Rapfi's count at zero plies). */
        if (selective && depth < ONE_PLY && searched && best > -SCORE_WIN_MIN) break;
        if (!counted_out && best > -SCORE_WIN_MIN &&
            (searched >= move_limit || (prune && searched && depth <= 2 * ONE_PLY &&
                                        static_eval_margin(eval, depth) <= alpha))) {
            drop_counted_moves(b, &l, i);
            counted_out = true;
            if (i >= l.count) break;
        }
        if (l.unscored && i > 0) add_order_scores(w, &s, &l, i);
        const Pos m = pick_next(&l, i);
        const int order = l.score[i];
        const bool table_move = m == tt_move;
        if (!table_move && top_order == INT_MIN) top_order = order;
        if (m == skip || ((b->threat[m][me] & THREAT_MAYBE_33) && !legal(b, m))) continue;
        const int mine = b->threat[m][me] & THREAT_CLASS_MASK;
        const bool quiet = quiet_move(b, m, me);
        /* Step 13a. Distracting fours: against an open three, a move that does not stop it
         * (a four of ours) far from both last moves mostly just delays; it is left out near
         * the leaves and reduced more above them. */
        bool far_their = false, far_mine = false;
        if (selective && s.their_three &&
            (b->threat[m][me ^ 1] & THREAT_CLASS_MASK) < THREAT_BLOCK4) {
            far_their = far_from_move(b, m, 1, SEL.far_reach);
            far_mine = far_from_move(b, m, 2, SEL.far_reach + (b->rule == TG_RENJU));
            if (far_their && far_mine && ply && depth < SEL.far_depth * ONE_PLY &&
                best > -SCORE_WIN_MIN)
                continue;
        }
        /* Step 14. Singular extension: when every other move falls well short of the table's
         * score, the table move is extended; when even they reach beta, the node is cut. */
        int ext = 0;
        if (selective && m == tt_move && !skip && ply && depth >= SEL.se_depth * ONE_PLY &&
            (hit.bound == BOUND_LOWER || hit.bound == BOUND_EXACT) &&
            hit.depth >= depth - 3 * ONE_PLY && !is_decisive(tt_score)) {
            const int singular_beta = tt_score - SEL.se_margin * depth / ONE_PLY;
            w->excluded[ply] = m;
            const int v = search(w, singular_beta - 1, singular_beta, depth / 2, ply, false);
            w->excluded[ply] = POS_NONE;
            if (stopped(w)) return 0;
            if (v < singular_beta)
                ext = ONE_PLY;
            else if (singular_beta >= beta)
                return singular_beta;
        }
        int new_depth = depth - ONE_PLY + ext;
        tree->searched[row]++;
        tree->spared[row] += counted_out;
        make_move(w, m);
        int v;
        if (searched == 0) {
            v = -search(w, -beta, -alpha, new_depth, ply + 1, pv_node);
        } else {
            /* Step 15. Late-move reductions: ln(depth) ln(move number), less at nodes that are
             * or were on the PV, for threats, for moves that build two lines and for moves with
             * a good history, more where the position is not improving and the further the
             * ordering puts the move below the node's best. */
            int r = 0;
            if (selective && depth >= SEL.lmr_min_depth * ONE_PLY) {
                double rd =
                    SEL.lmr_scale * log((double)depth / ONE_PLY) * log((double)searched + 1);
                if (!pv_node && !improving && rd > 1) rd += 1;
                if (pv_node)
                    rd -= SEL.lmr_pv;
                else if (was_pv)
                    rd -= SEL.lmr_was_pv;
                rd = lmr_by_kind(b, m, me, quiet, mine, rd);
                rd += far_their * SEL.far_lmr_their + far_mine * SEL.far_lmr_mine;
                rd -= (double)w->history[me][m] / SEL.lmr_history;
                if (!table_move) rd += lmr_by_order(top_order - order);
                r = rd > 0 ? (int)(rd * ONE_PLY) : 0;
                const int floor = new_depth < ONE_PLY ? new_depth : ONE_PLY;
                if (new_depth - r < floor) r = new_depth - floor > 0 ? new_depth - floor : 0;
            }
            const int reduced = new_depth - r;
            v = -search(w, -alpha - 1, -alpha, reduced, ply + 1, false);
            /* Step 15a. A reduced move that beat alpha is searched again, deeper the more it
             * beat alpha by, a ply shallower when it is barely above the best move so far.
             * A reduction leaves at least a ply (above), so the depth stays at 0 or more. */
            if (v > alpha && r) {
                new_depth += research_plies(v, alpha, best, r, new_depth) * ONE_PLY;
                if (new_depth > reduced)
                    v = -search(w, -alpha - 1, -alpha, new_depth, ply + 1, false);
            }
            if (v > alpha && v < beta && pv_node)
                v = -search(w, -beta, -alpha, new_depth, ply + 1, true);
        }
        unmake_move(w);
        searched++;
        if (stopped(w)) return best > -SCORE_INF ? best : 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                alpha = v;
                update_pv(w, ply, m);
                if (v >= beta) {
                    tree->cut[row]++;
                    if (searched == 1) tree->first_cut[row]++;
                    if (quiet) reward_cutoff(w, m, plies);
                    break;
                }
            }
        }
    }
    if (searched == 0) return skip ? alpha : loss_in(ply + 2);

    /* Step 16. Remember the result (and offer the node to the ordering's training data). */
    if (w->job->sampler && best_move != POS_NONE && depth >= ONE_PLY)
        w->job->sampler(w->job->sampler_user, b, l.move, l.count, best_move, plies);
    const Bound bound = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
    tt_store(w->job->tt, key, best_move, score_to_tt(best, ply), depth, bound, was_pv);
    return best;
}

/* ---- The root ---- */

static bool excluded(const SearchJob *job, Pos p) {
    for (int i = 0; i < job->exclude_count; i++)
        if (job->exclude[i] == p) return true;
    return false;
}

/// The legal root moves, ordered; the forced cases narrow them as in the search.
static void root_moves(Worker *w) {
    Board *b = &w->board;
    Scan s;
    scan(w, &s);
    w->eval_stack[0] = scan_eval(w, &s);
    MoveList l;
    if (s.my_five != POS_NONE) {
        l.count = 0;
        list_add(&l, s.my_five, 0);
    } else if (s.their_fives && legal(b, s.their_five[0])) {
        l.count = 0;
        list_add(&l, s.their_five[0], 0); /* lost anyway when there are two: block one */
    } else if (s.their_fives) {
        l.count = 0; /* the block is a foul: lost, but a legal move must still be played */
        for (int i = 0; i < s.count; i++)
            list_add(&l, s.cand[i], move_order(w, s.cand[i], board_to_move(b)));
    } else {
        generate(w, &s, POS_NONE, &l);
    }
    if (b->stone_count == 0) { /* an empty board: the centre, or next to it */
        l.count = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                list_add(&l, pos_make(b->width / 2 + dx, b->height / 2 + dy), -(dx * dx + dy * dy));
    }
    w->root_count = 0;
    for (int i = 0; i < l.count; i++) {
        const Pos m = pick_next(&l, i);
        if (excluded(w->job, m) || !legal(b, m)) continue;
        w->root[w->root_count++] =
            (RootMove){.move = m, .score = -SCORE_INF, .prev_score = -SCORE_INF};
    }
    /* The forced point was excluded (YXBLOCK): every other candidate, hopeless or not. */
    if (w->root_count == 0 && l.count < s.count) {
        for (int i = 0; i < s.count; i++) {
            const Pos m = s.cand[i];
            if (!excluded(w->job, m) && legal(b, m))
                w->root[w->root_count++] =
                    (RootMove){.move = m, .score = -SCORE_INF, .prev_score = -SCORE_INF};
        }
    }
}

/// Stable sort of root moves [from, to) by score, then by the last iteration's score.
static void sort_root(Worker *w, int from, int to) {
    for (int i = from + 1; i < to; i++) {
        const RootMove r = w->root[i];
        int j = i;
        while (j > from &&
               (w->root[j - 1].score < r.score ||
                (w->root[j - 1].score == r.score && w->root[j - 1].prev_score < r.prev_score))) {
            w->root[j] = w->root[j - 1];
            j--;
        }
        w->root[j] = r;
    }
}

/// The reduction (fractional plies) of root move number `n` (1 for the first searched) at
/// `depth`: from the third move on, a PV node's late-move reduction, leaving at least a ply.
static int root_reduction(const Worker *w, Pos m, int n, int depth) {
    if (!w->job->style.reductions || n <= 2 || depth < SEL.lmr_min_depth) return 0;
    const Board *b = &w->board;
    const Color me = board_to_move(b);
    double rd = SEL.lmr_scale * log((double)depth) * log((double)n) - SEL.lmr_pv;
    rd = lmr_by_kind(b, m, me, quiet_move(b, m, me), b->threat[m][me] & THREAT_CLASS_MASK, rd);
    rd -= (double)w->history[me][m] / SEL.lmr_history;
    const int r = rd > 0 ? (int)(rd * ONE_PLY) : 0;
    return r < (depth - 2) * ONE_PLY ? r : (depth - 2) * ONE_PLY;
}

static int root_search(Worker *w, int alpha, int beta, int depth) {
    int best = -SCORE_INF;
    for (int i = w->pv_index; i < w->root_count; i++) {
        RootMove *rm = &w->root[i];
        const bool five = (w->board.threat[rm->move][board_to_move(&w->board)] &
                           THREAT_CLASS_MASK) == THREAT_FIVE;
        const int r = root_reduction(w, rm->move, i - w->pv_index + 1, depth);
        make_move(w, rm->move);
        w->pv_len[1] = 0;
        int v;
        if (five) { /* the game ends here; nothing to search */
            v = win_in(1);
        } else if (i == w->pv_index) {
            v = -search(w, -beta, -alpha, (depth - 1) * ONE_PLY, 1, true);
        } else {
            /* Late root moves are reduced like a PV node's, and searched again at the full
             * depth when one beats alpha, then with the full window when inside it. */
            v = -search(w, -alpha - 1, -alpha, (depth - 1) * ONE_PLY - r, 1, false);
            if (r && v > alpha) v = -search(w, -alpha - 1, -alpha, (depth - 1) * ONE_PLY, 1, false);
            if (v > alpha && v < beta)
                v = -search(w, -beta, -alpha, (depth - 1) * ONE_PLY, 1, true);
        }
        unmake_move(w);
        if (stopped(w)) break;
        if (v > best) best = v;
        if (v > alpha || i == w->pv_index) {
            rm->score = v;
            rm->pv[0] = rm->move;
            rm->pv_len = 1;
            for (int k = 0; k < w->pv_len[1] && rm->pv_len < TG_MAX_PV; k++)
                rm->pv[rm->pv_len++] = w->pv[1][k];
            if (v > alpha) alpha = v;
            if (v >= beta) break;
        } else {
            rm->score = -SCORE_INF;
        }
    }
    return best;
}

/// The half-width of the next aspiration window after a score v fell outside this one. Near
/// an even score it stays between 16 and 21 while the window follows the score; far from it,
/// it grows (by 6 a try from 1,024 points, by a quarter and 6 from 2,048).
static int next_aspiration_delta(int delta, int v) { return delta * (3 + abs(v) / 1024) / 4 + 6; }

/// One depth for the current pv_index, with an aspiration window around the last score. The
/// window is narrow and moves with the score; a run of fail highs searches a ply shallower
/// for each ASPIRATION_FAIL_HIGHS of them, so that a rising score is confirmed sooner.
static void aspiration(Worker *w, int depth) {
    const int prev = w->root[w->pv_index].prev_score;
    int delta = ASPIRATION_DELTA, alpha = -SCORE_INF, beta = SCORE_INF, fail_highs = 0;
    if (depth >= ASPIRATION_DEPTH && prev > -SCORE_INF && !is_decisive(prev))
        alpha = prev - delta, beta = prev + delta;
    for (;;) {
        const int shallower = fail_highs / ASPIRATION_FAIL_HIGHS;
        const int v = root_search(w, alpha, beta, depth - shallower > 1 ? depth - shallower : 1);
        sort_root(w, w->pv_index, w->root_count);
        if (stopped(w)) return;
        if (v <= alpha && alpha > -SCORE_INF) {
            beta = (alpha + beta) / 2;
            alpha = v - delta > -SCORE_INF ? v - delta : -SCORE_INF;
            fail_highs = 0;
        } else if (v >= beta && beta < SCORE_INF) {
            beta = v + delta < SCORE_INF ? v + delta : SCORE_INF;
            fail_highs++;
        } else {
            return;
        }
        if (is_decisive(v)) alpha = -SCORE_INF, beta = SCORE_INF;
        delta = next_aspiration_delta(delta, v);
    }
}

static TgPoint point_of(Pos p) {
    return p == POS_NONE || p == POS_PASS ? (TgPoint){-1, -1} : (TgPoint){pos_x(p), pos_y(p)};
}

/// The reported lines: those of the last completed depth (a stopped depth may hold bounds
/// and cut lines), or the root moves in order when not even depth 1 finished.
static int lines_of(const Worker *w, TgPvLine *lines) {
    const bool done = w->done_count > 0;
    const RootMove *from = done ? w->done : w->root;
    const int wanted = w->job->multipv < w->root_count ? w->job->multipv : w->root_count;
    const int n = done ? w->done_count : wanted;
    for (int i = 0; i < n; i++) {
        const RootMove *rm = &from[i];
        TgPvLine *l = &lines[i];
        l->score = done ? rm->score : 0;
        l->depth = w->completed_depth;
        l->length = done && rm->pv_len ? rm->pv_len : 1;
        l->moves[0] = point_of(rm->move);
        for (int k = 1; k < l->length; k++) l->moves[k] = point_of(rm->pv[k]);
    }
    return n;
}

/// Keeps the lines of a completed depth.
static void save_lines(Worker *w) {
    const int n = w->job->multipv < w->root_count ? w->job->multipv : w->root_count;
    memcpy(w->done, w->root, sizeof(RootMove) * (size_t)n);
    w->done_count = n;
}

static void report(Worker *w, bool final) {
    SearchJob *job = w->job;
    if (!job->callback) return;
    TgPvLine lines[TG_MAX_MULTIPV];
    const int64_t ns = tm_now_ns() - job->start_ns;
    const uint64_t nodes = total_nodes(job);
    const TgSearchInfo info = {
        .depth = w->completed_depth,
        .seldepth = w->seldepth,
        .nodes = nodes,
        .time_ms = ns / 1000000,
        .nps = ns > 0 ? (uint64_t)((double)nodes * 1e9 / (double)ns) : 0,
        .line_count = lines_of(w, lines),
        .lines = lines,
        .final = final,
    };
    job->callback(&info, job->user);
}

/// Should the main thread stop deepening after this depth?
static bool enough(const Worker *w, int depth) {
    const SearchJob *job = w->job;
    const int best = w->done[0].score;
    if (depth >= job->max_depth) return true;
    if (w->root_count == 1 && job->maximum_ns != INT64_MAX) return true;
    if (is_decisive(best) && depth >= SCORE_WIN - (best > 0 ? best : -best) + 2) return true;
    const int64_t spent = tm_now_ns() - job->start_ns;
    /* The next depth ends near NEXT_DEPTH_COST times the time spent so far. When the game clock
     * would keep the time saved, a depth the hard limit would cut off is not started; when only
     * the turn limit binds (optimum = maximum) nothing is saved, and a cut depth still plays a
     * move that beat the last depth's best (adopt_partial_depth). */
    if (job->maximum_ns != INT64_MAX && job->optimum_ns < job->maximum_ns &&
        (double)spent * NEXT_DEPTH_COST >= (double)job->maximum_ns)
        return true;
    return spent >= job->optimum_ns;
}

/// A depth cut off by the clock: when a root move other than the last depth's best finished
/// it with a score above the window (it beat that move at the deeper depth), it is played. The
/// root list of a cut depth is sorted by what finished, so that move stands first.
static void adopt_partial_depth(Worker *w) {
    const RootMove *first = &w->root[0];
    if (w->id || w->job->multipv != 1 || !w->done_count || first->score == -SCORE_INF ||
        first->move == w->done[0].move)
        return;
    w->done[0] = *first;
}

static void iterate(Worker *w) {
    SearchJob *job = w->job;
    for (int i = 0; i < w->root_count; i++) w->root[i].prev_score = w->root[i].score = -SCORE_INF;
    for (int depth = 1; depth <= job->max_depth && !stopped(w); depth++) {
        /* Helpers search odd and even depths out of step, so they fill the table ahead. */
        if (w->id && (depth + w->id) % 3 == 0) continue;
        for (int i = 0; i < w->root_count; i++) {
            w->root[i].prev_score =
                w->root[i].score > -SCORE_INF ? w->root[i].score : w->root[i].prev_score;
            w->root[i].score = -SCORE_INF;
        }
        const int lines = job->multipv < w->root_count ? job->multipv : w->root_count;
        for (w->pv_index = 0; w->pv_index < lines && !stopped(w); w->pv_index++)
            aspiration(w, depth);
        if (stopped(w)) {
            adopt_partial_depth(w);
            break;
        }
        /* A selective search may score a later line above an earlier one: best first. */
        sort_root(w, 0, lines);
        w->completed_depth = depth;
        save_lines(w);
        if (w->id == 0) {
            report(w, false);
            if (enough(w, depth)) break;
        }
    }
    if (w->id == 0) job->stop = true;
}

static void *helper_main(void *arg) {
    iterate(arg);
    return NULL;
}

/* ---- The root solver ---- */

/// A short VCF before the search: when one exists, its line is the answer. The defender's
/// replies (each the block of the four just made) are put back into the principal variation.
static bool solve_at_root(Worker *w, TgSearchResult *out) {
    SearchJob *job = w->job;
    Vcf v;
    if (!vcf_init(&v, 1 << 20)) return false;
    const int64_t left_ms = job->maximum_ns == INT64_MAX ? 0 : job->maximum_ns / 1000000 / 4 + 1;
    const VcfLimits limits = {
        .max_nodes = ROOT_SOLVER_NODES, .max_ms = left_ms, .abort = &job->stop};
    Board *b = &w->board;
    const bool win = vcf_search(&v, b, &limits) == VCF_WIN && !excluded(job, v.line[0]);
    if (win) {
        TgPvLine *l = &out->lines[0];
        l->length = 0;
        const Color me = board_to_move(b);
        for (int i = 0; i < v.line_len && l->length < TG_MAX_PV; i++) {
            l->moves[l->length++] = point_of(v.line[i]);
            if (i + 1 == v.line_len || l->length == TG_MAX_PV) break;
            board_play(b, v.line[i]);
            /* The block: a five point of the four just made, not the one played next. */
            Pos block = POS_NONE;
            for (int k = 0; k < w->cell_count && block == POS_NONE; k++) {
                const Pos q = w->cells[k];
                if (board_empty(b, q) && q != v.line[i + 1] &&
                    (b->threat[q][me] & THREAT_CLASS_MASK) == THREAT_FIVE)
                    block = q;
            }
            if (block == POS_NONE) break; /* a renju Black defender whose block is a foul */
            l->moves[l->length++] = point_of(block);
            board_play(b, block);
        }
        l->score = win_in(2 * v.line_len - 1);
        l->depth = 2 * v.line_len - 1;
        out->line_count = 1;
        out->best = l->moves[0];
        out->score = l->score;
        out->depth = out->seldepth = l->depth;
        out->nodes = v.nodes;
    }
    vcf_free(&v);
    return win;
}

/* ---- The easy level ---- */

Pos search_greedy(Worker *w, uint64_t seed) {
    Board *b = &w->board;
    Scan s;
    scan(w, &s);
    if (b->stone_count == 0) return pos_make(b->width / 2, b->height / 2);
    const Color me = board_to_move(b);
    Pos best = POS_NONE;
    int best_score = -SCORE_INF;
    for (int i = 0; i < s.count; i++) {
        const Pos p = s.cand[i];
        if (excluded(w->job, p) || !legal(b, p)) continue;
        uint64_t noise = seed ^ b->hash ^ (uint64_t)p * 0x9e3779b97f4a7c15u;
        noise ^= noise >> 31;
        noise *= 0xbf58476d1ce4e5b9u;
        const int score = eval_move_order(b, p, me) + (int)((noise >> 40) % GREEDY_NOISE);
        if (score > best_score) best = p, best_score = score;
    }
    return best;
}

/* ---- Entry ---- */

static void add_rows(uint64_t *to, const uint64_t *from) {
    for (int d = 0; d < TG_TREE_DEPTHS; d++) to[d] += from[d];
}

/// Sums the tree shape of every thread into `sum`.
static void add_tree_stats(const SearchJob *job, TgTreeStats *sum) {
    for (int i = 0; i < job->thread_count; i++) {
        const TgTreeStats *t = &job->workers[i].tree;
        add_rows(sum->evaluated, t->evaluated);
        add_rows(sum->futile, t->futile);
        add_rows(sum->razored, t->razored);
        add_rows(sum->looped, t->looped);
        add_rows(sum->generated, t->generated);
        add_rows(sum->searched, t->searched);
        add_rows(sum->cut, t->cut);
        add_rows(sum->first_cut, t->first_cut);
        add_rows(sum->answering, t->answering);
        add_rows(sum->spared, t->spared);
    }
}

void search_run(SearchJob *job, TgSearchResult *out) {
    Worker *main_worker = &job->workers[0];
    memset(out, 0, sizeof *out);
    out->best = (TgPoint){-1, -1};
    tt_new_search(job->tt);
    root_moves(main_worker);
    if (main_worker->root_count == 0) return; /* nothing legal: the caller passes */
    if (job->style.root_solver && job->multipv == 1 && job->maximum_ns > 0) {
        Board saved = main_worker->board;
        const bool won = solve_at_root(main_worker, out);
        main_worker->board = saved;
        if (won) {
            out->time_ms = (tm_now_ns() - job->start_ns) / 1000000;
            if (job->callback) {
                const TgSearchInfo info = {out->depth,
                                           out->seldepth,
                                           out->nodes,
                                           out->time_ms,
                                           out->time_ms ? out->nodes * 1000 / (uint64_t)out->time_ms
                                                        : out->nodes,
                                           1,
                                           out->lines,
                                           true};
                job->callback(&info, job->user);
            }
            return;
        }
    }
    for (int i = 1; i < job->thread_count; i++) {
        Worker *h = &job->workers[i];
        h->root_count = main_worker->root_count;
        h->eval_stack[0] = main_worker->eval_stack[0];
        memcpy(h->root, main_worker->root, sizeof(RootMove) * (size_t)main_worker->root_count);
    }
    pthread_t threads[TG_MAX_THREADS];
    int started = 0;
    for (int i = 1; i < job->thread_count; i++)
        if (pthread_create(&threads[started], NULL, helper_main, &job->workers[i]) == 0) started++;
    iterate(main_worker);
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);

    out->line_count = lines_of(main_worker, out->lines);
    out->best = out->lines[0].moves[0];
    out->score = out->lines[0].score;
    out->depth = main_worker->completed_depth;
    out->seldepth = main_worker->seldepth;
    out->nodes = total_nodes(job);
    out->time_ms = (tm_now_ns() - job->start_ns) / 1000000;
    add_tree_stats(job, &out->tree);
    report(main_worker, true);
}

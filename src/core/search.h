/*
 * search.h — the alpha-beta search: iterative deepening, principal variation search with
 * aspiration windows, a shared transposition table, threat-aware move generation, ordering by
 * the trained tables with history, late-move reductions, fours at the leaves (a VCF
 * quiescence) and the threat-space solver at the root. Lazy SMP: every thread runs the same
 * search on its own board and shares only the table and the stop flag.
 *
 * The search never prints; the main thread reports each completed depth through a callback.
 */
#ifndef TG_SEARCH_H
#define TG_SEARCH_H

#include <stdatomic.h>

#include "board.h"
#include "tt.h"

enum {
    SEARCH_MAX_PLY = 120, ///< deepest ply the search reaches (quiescence included)
    MAX_CANDIDATES = BOARD_MAX * BOARD_MAX,
};

/// Scores. WIN - n: the side to move makes five n plies from the node.
enum { SCORE_WIN = TG_SCORE_WIN, SCORE_WIN_MIN = TG_SCORE_WIN_MIN, SCORE_INF = TG_SCORE_WIN + 1 };

/// What distinguishes the levels that search (engine.c).
typedef struct SearchStyle {
    bool quiescence;  ///< fours at the leaves; without it a leaf is its evaluation
    bool root_solver; ///< a short VCF solve before the search
    bool reductions;  ///< late-move reductions
    int top_per_side; ///< 0: every candidate; else the best N attacking and N defending points
    int max_depth;    ///< 0: none beyond the limits
    bool seed_eval;   ///< the seed weights over the candidates (eval.h), not the trained tables
} SearchStyle;

typedef struct RootMove {
    Pos move;
    int score;      ///< this iteration's score; -SCORE_INF until it raised alpha
    int prev_score; ///< the last completed iteration's
    int pv_len;
    Pos pv[TG_MAX_PV];
} RootMove;

struct SearchJob;

/// Receives interior nodes the search resolved (a move proved best at a ply or more from the
/// leaves): the board, the node's move list as generated, the best move and the whole plies
/// left. Training data for the move ordering (tg_datagen's tree samples); called from the
/// searching thread.
typedef void (*TreeSampler)(void *user, const Board *b, const Pos *moves, int count, Pos best,
                            int plies);

/// One search thread. Lives in the engine between searches, so its history table carries
/// over from move to move (cleared with the engine).
typedef struct Worker {
    Board board;
    struct SearchJob *job;
    int id;
    _Atomic uint64_t nodes;
    int seldepth;
    int completed_depth;
    /* Per board ply and row, bit x: a stone within two cells (a 5x5 square), and a stone.
     * A ply's rows are its parent's plus one stone, so undoing a move costs nothing. */
    uint32_t near_rows[MAX_PLY + 1][BOARD_MAX];
    uint32_t stone_rows[MAX_PLY + 1][BOARD_MAX];
    Pos cells[MAX_CANDIDATES]; ///< every on-board point, for scans
    int cell_count;
    bool order_more; ///< the board's tables have ordering terms beyond the last two moves
    int16_t history[2][BOARD_CELLS];
    int eval_stack[SEARCH_MAX_PLY + 1]; ///< static evaluation per ply (improving)
    Pos excluded[SEARCH_MAX_PLY + 1];   ///< a move left out at that ply (singular extension)
    Pos pv[SEARCH_MAX_PLY + 1][SEARCH_MAX_PLY + 1];
    int pv_len[SEARCH_MAX_PLY + 1];
    RootMove root[MAX_CANDIDATES];
    int root_count;
    int pv_index;
    RootMove done[TG_MAX_MULTIPV]; ///< the best lines of the last completed depth
    int done_count;
    TgTreeStats tree; ///< this thread's share of the search's tree shape
} Worker;

/// One call of search_run: limits and shared state of every thread.
typedef struct SearchJob {
    Tt *tt;
    SearchStyle style;
    int max_depth;
    uint64_t max_nodes;
    int multipv;
    int64_t start_ns, optimum_ns, maximum_ns; ///< INT64_MAX: no limit
    atomic_bool stop;
    const atomic_bool *external_stop;
    const Pos *exclude;
    int exclude_count;
    Worker *workers;
    int thread_count;
    TgSearchCallback callback;
    void *user;
    TreeSampler sampler; ///< NULL in play
    void *sampler_user;
} SearchJob;

/// Datagen's hook: every later search of the engine reports its resolved nodes to `fn` (NULL:
/// none). engine.c.
void engine_set_tree_sampler(TgEngine *e, TreeSampler fn, void *user);

/// Sets a worker to search from `root`.
void worker_reset(Worker *w, const Board *root);

/// Runs the search of job (its workers reset to the root) and fills `out`, including the
/// root solver's shortcut. Reports through job->callback from the calling thread.
void search_run(SearchJob *job, TgSearchResult *out);

/// The easy level: the point with the best attack-plus-defence weight, plus a little noise
/// drawn from `seed` and the position. POS_NONE when no legal point is left.
Pos search_greedy(Worker *w, uint64_t seed);

#endif

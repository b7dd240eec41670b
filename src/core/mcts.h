/*
 * mcts.h — Monte Carlo tree search for the mcts and zero levels: one tree shared by the search
 * threads (a lock around selection and backup, virtual loss to spread the threads), leaves
 * judged by random playouts (UCT) or by the policy-value network in batches (PUCT). The tree
 * is kept between searches and reused when the new position follows from the old root.
 *
 * Both kinds know the rules exactly where it is cheap: a leaf whose side to move can make five
 * is a win, one where the opponent has two fives to make is a loss, and where the opponent has
 * one five to make only the moves that stop it are children. Renju Black's fouls are never
 * children and never played in a playout.
 */
#ifndef TG_MCTS_H
#define TG_MCTS_H

#include <pthread.h>
#include <stdatomic.h>

#include "board.h"

typedef struct MctsNode {
    int32_t child; ///< first child's index, -1 while not expanded
    uint16_t nchild;
    Pos move;      ///< the move that leads here
    uint8_t state; ///< NodeState
    float prior;   ///< policy probability (zero), 1/n (mcts)
    int32_t visits;
    int32_t vloss; ///< searches passing through now (each counts as a visit that lost)
    float value;   ///< sum of results from the view of the player who made `move`
} MctsNode;

enum {
    MCTS_BLOCK_BITS = 16,
    MCTS_BLOCK_NODES = 1 << MCTS_BLOCK_BITS,
    MCTS_MAX_BLOCKS = 128, ///< the tree stops growing at 8M nodes (224 MB a pool)
    MCTS_MAX_NODES = MCTS_MAX_BLOCKS * MCTS_BLOCK_NODES,
};

/// Nodes in fixed blocks, allocated as the tree grows and kept for the next search. The last
/// block is cut short where the pool's limit ends inside it.
typedef struct NodePool {
    MctsNode *block[MCTS_MAX_BLOCKS];
    int32_t count; ///< indices in use (with gaps at block ends)
    int32_t limit; ///< most nodes (1..MCTS_MAX_NODES)
} NodePool;

typedef struct Mcts {
    pthread_mutex_t lock;
    NodePool pool;
    NodePool spare; ///< where a kept subtree is copied
    int32_t root;
    /* The position at the root, to recognise a later position that follows from it. */
    bool zero;
    const TgModel *model;
    Rule rule;
    int width, height, ply;
    Pos history[MAX_PLY];
} Mcts;

typedef struct MctsParams {
    bool zero;            ///< PUCT with the network; UCT with playouts when false
    const TgModel *model; ///< zero only
    uint64_t playouts;    ///< most playouts (0: none)
    int64_t start_ns, optimum_ns, maximum_ns; ///< time plan, from tm_now_ns()
    const atomic_bool *stop;
    int threads;
    int batch;                    ///< leaves evaluated at once (zero; within 1..32)
    float c;                      ///< exploration constant
    float noise_alpha, noise_eps; ///< Dirichlet noise at the root (eps 0: none)
    int rollouts;                 ///< zero: random playouts a leaf also runs (0: network alone)
    float rollout_weight;         ///< zero: their mean's share of the leaf value (0..1)
    float draw_score;             ///< a draw to the root's side: -1 (a loss) .. 1 (a win)
    uint64_t seed;
    bool keep_tree; ///< reuse the tree of the last search when it fits
} MctsParams;

typedef struct MctsChild {
    Pos move;
    int visits;
    float q; ///< mean result for the side to move at the root
    float prior;
} MctsChild;

typedef struct MctsResult {
    Pos best;
    float q;           ///< the best move's mean result, side to move's view
    bool proven_win;   ///< the side to move makes five at once
    uint64_t playouts; ///< this search's
    int64_t time_ns;
    int depth; ///< deepest path
    int child_count;
    MctsChild *children; ///< malloc'd, most visited first (free it)
    int pv_length;
    Pos pv[64];
    bool no_memory; ///< the search could not even start (best is POS_NONE)
} MctsResult;

Mcts *mcts_new(void);
void mcts_free(Mcts *t);
void mcts_clear(Mcts *t);
/// The most memory the tree may hold: both pools (the tree and the copy a kept subtree goes
/// to), 0 for MCTS_MAX_NODES each. A new limit gives back every block and forgets the tree.
void mcts_set_memory(Mcts *t, size_t bytes);
/// The memory that mcts_set_memory(t, bytes) lets the tree use at most.
size_t mcts_memory_limit(size_t bytes);

/// Searches board b (not changed). Returns false when out of memory (out->no_memory) or when
/// no move exists. A tree too small for the root's children still answers (a move the search
/// could not compare: the network's favourite, or a random candidate).
bool mcts_search(Mcts *t, const Board *b, const MctsParams *p, MctsResult *out);

/// Random playouts a second from board b (benchmark).
double mcts_playout_rate(const Board *b, int64_t ms, uint64_t seed);

/// The tree searches' random numbers (xorshift64*): the next one of the sequence in *state.
uint64_t mcts_rng_next(uint64_t *state);

#endif

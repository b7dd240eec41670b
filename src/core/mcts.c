/*
 * mcts.c — the tree search of the mcts and zero levels (see mcts.h).
 *
 * One search step: (1) under the lock, walk from the root to a leaf by UCT or PUCT, adding a
 * virtual loss to every node passed; (2) outside the lock, judge the leaf on the thread's own
 * board: its legal moves and the immediate fives, then a random playout or (zero) the
 * network, several leaves at a time, its value blended with a few random playouts when asked
 * (as AlphaGo blended its value network with rollouts); (3) under the lock, expand the leaf
 * and back the result up, taking the virtual losses back.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcts.h"
#include "nn.h"
#include "pattern.h"
#include "rules.h"
#include "search.h"
#include "timeman.h"

enum {
    NODE_OPEN = 0, ///< not judged as over
    NODE_WON = 1,  ///< the side to move here makes five at once
    NODE_LOST = 2, ///< the opponent has two fives to make, or none of our blocks is legal
    NODE_DRAW = 3, ///< no legal move left
    MAX_CELLS = TG_MAX_SIZE * TG_MAX_SIZE,
    MAX_DEPTH = MAX_CELLS + 2,
    MAX_BATCH = 32,
    MAX_THREADS = TG_MAX_THREADS,
};

static const float FPU_REDUCTION =
    0.2f; ///< an unvisited child is judged this much below its parent

/// The leaves a zero search evaluates at once: the caller's batch within 1..MAX_BATCH, the
/// size of the per-batch arrays.
static int batch_size(const MctsParams *p) {
    return p->batch < 1 ? 1 : p->batch > MAX_BATCH ? MAX_BATCH : p->batch;
}

/* ---- Random numbers (xorshift64*) ---- */

uint64_t mcts_rng_next(uint64_t *s) {
    *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

static uint32_t rng_below(uint64_t *s, uint32_t n) {
    return (uint32_t)((mcts_rng_next(s) >> 32) * n >> 32);
}

static double rng_unit(uint64_t *s) {
    return (double)(mcts_rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/// Gamma(alpha, 1) by Marsaglia and Tsang (alpha < 1 through the boost U^(1/alpha)).
static double rng_gamma(uint64_t *s, double alpha) {
    if (alpha < 1) return rng_gamma(s, alpha + 1) * pow(rng_unit(s) + 1e-300, 1 / alpha);
    const double d = alpha - 1.0 / 3, c = 1 / sqrt(9 * d);
    for (;;) {
        double x, v;
        do {
            const double u1 = rng_unit(s) + 1e-300, u2 = rng_unit(s);
            x = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2);
            v = 1 + c * x;
        } while (v <= 0);
        v = v * v * v;
        const double u = rng_unit(s);
        if (log(u + 1e-300) < 0.5 * x * x + d - d * v + d * log(v)) return d * v;
    }
}

/* ---- The tree ---- */

Mcts *mcts_new(void) {
    Mcts *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    pthread_mutex_init(&t->lock, NULL);
    t->root = -1;
    t->pool.limit = t->spare.limit = MCTS_MAX_NODES;
    return t;
}

static void pool_free(NodePool *p) {
    for (int i = 0; i < MCTS_MAX_BLOCKS; i++) free(p->block[i]);
}

/// Nodes a pool may hold when the tree may use `bytes` (two pools); at least one, the root.
static int32_t pool_limit(size_t bytes) {
    if (bytes == 0) return MCTS_MAX_NODES;
    const size_t nodes = bytes / (2 * sizeof(MctsNode));
    return nodes < 1 ? 1 : nodes > MCTS_MAX_NODES ? MCTS_MAX_NODES : (int32_t)nodes;
}

size_t mcts_memory_limit(size_t bytes) { return 2 * sizeof(MctsNode) * (size_t)pool_limit(bytes); }

void mcts_set_memory(Mcts *t, size_t bytes) {
    const int32_t limit = pool_limit(bytes);
    if (limit == t->pool.limit) return;
    pool_free(&t->pool);
    pool_free(&t->spare);
    memset(&t->pool, 0, sizeof t->pool);
    memset(&t->spare, 0, sizeof t->spare);
    t->pool.limit = t->spare.limit = limit;
    t->root = -1;
}

void mcts_free(Mcts *t) {
    if (!t) return;
    pthread_mutex_destroy(&t->lock);
    pool_free(&t->pool);
    pool_free(&t->spare);
    free(t);
}

void mcts_clear(Mcts *t) {
    t->pool.count = 0;
    t->root = -1;
}

/// The index of room for `n` consecutive nodes (a block is never split, so children stay
/// together), or -1 when the tree is full. Blocks are allocated once and kept, and nodes never
/// move: a growing tree copies nothing.
static int32_t pool_take(NodePool *p, int32_t n) {
    int32_t at = p->count;
    if ((at & (MCTS_BLOCK_NODES - 1)) + n > MCTS_BLOCK_NODES)
        at = (at | (MCTS_BLOCK_NODES - 1)) + 1;
    const int block = at >> MCTS_BLOCK_BITS;
    if (block >= MCTS_MAX_BLOCKS || at + n > p->limit) return -1;
    const int32_t size = p->limit - (block << MCTS_BLOCK_BITS); /* the last block: cut short */
    if (!p->block[block] &&
        !(p->block[block] = malloc(sizeof(MctsNode) *
                                   (size_t)(size < MCTS_BLOCK_NODES ? size : MCTS_BLOCK_NODES))))
        return -1;
    p->count = at + n;
    return at;
}

static MctsNode *pool_at(const NodePool *p, int32_t i) {
    return &p->block[i >> MCTS_BLOCK_BITS][i & (MCTS_BLOCK_NODES - 1)];
}

static MctsNode *node_at(const Mcts *t, int32_t i) { return pool_at(&t->pool, i); }

/// Copies the children of t's node `from` under dst's node `to`, and theirs, depth first.
static void copy_children(const Mcts *t, int32_t from, NodePool *dst, int32_t to) {
    const MctsNode *src = node_at(t, from);
    MctsNode *n = pool_at(dst, to);
    const int32_t first = src->child >= 0 ? pool_take(dst, src->nchild) : -1;
    n->child = first; // no room: the copy ends here
    if (first < 0) return;
    for (int k = 0; k < src->nchild; k++) *pool_at(dst, first + k) = *node_at(t, src->child + k);
    for (int k = 0; k < src->nchild; k++) copy_children(t, src->child + k, dst, first + k);
}

/// Makes the subtree under `from` the whole tree (copied to the spare pool, which then swaps
/// with the tree's); returns its root, or -1 when out of memory.
static int32_t keep_subtree(Mcts *t, int32_t from) {
    NodePool *dst = &t->spare;
    dst->count = 0;
    const int32_t root = pool_take(dst, 1);
    if (root < 0) return -1;
    *pool_at(dst, root) = *node_at(t, from);
    copy_children(t, from, dst, root);
    const NodePool swap = t->pool;
    t->pool = *dst;
    *dst = swap;
    return root;
}

static int32_t find_child(const Mcts *t, int32_t parent, Pos move) {
    const MctsNode *p = node_at(t, parent);
    for (int k = 0; p->child >= 0 && k < p->nchild; k++)
        if (node_at(t, p->child + k)->move == move) return p->child + k;
    return -1;
}

/// Keeps the part of the old tree under board b's position, or starts a new one.
static bool tree_prepare(Mcts *t, const Board *b, const MctsParams *p) {
    int32_t at = -1;
    if (p->keep_tree && t->root >= 0 && t->zero == p->zero && t->model == p->model &&
        t->rule == b->rule && t->width == b->width && t->height == b->height && t->ply <= b->ply &&
        memcmp(t->history, b->moves, sizeof(Pos) * (size_t)t->ply) == 0 &&
        (p->draw_score == 0 || (b->ply - t->ply) % 2 == 0)) { // draws were valued for one side
        at = t->root;
        for (int i = t->ply; i < b->ply && at >= 0; i++) at = find_child(t, at, b->moves[i]);
    }
    if (at >= 0 && at != t->root) at = keep_subtree(t, at);
    if (at < 0) {
        t->pool.count = 0;
        if ((at = pool_take(&t->pool, 1)) < 0) return t->root = -1, false;
        *node_at(t, at) = (MctsNode){.child = -1, .move = POS_NONE, .prior = 1};
    }
    t->root = at;
    t->zero = p->zero;
    t->model = p->model;
    t->rule = b->rule;
    t->width = b->width;
    t->height = b->height;
    t->ply = b->ply;
    memcpy(t->history, b->moves, sizeof(Pos) * (size_t)b->ply);
    return true;
}

/* ---- Judging a leaf ---- */

typedef struct Leaf {
    int32_t path[MAX_DEPTH];
    int depth;   ///< nodes on the path, the root included
    int state;   ///< NodeState as judged here; NODE_OPEN: expand with `moves`
    float value; ///< for the side to move at the leaf
    float draw;  ///< how likely the game from the leaf ends in a draw (network, playouts)
    int nmoves;
    Pos moves[MAX_CELLS];
    float prior[MAX_CELLS];
} Leaf;

static bool makes_five(const Board *b, Pos p, Color c) {
    return (b->threat[p][c] & THREAT_CLASS_MASK) == THREAT_FIVE;
}

static bool is_foul(Board *b, Pos p, Color c) {
    return b->rule == TG_RENJU && c == BLACK && rules_threat_at(b, p, BLACK) == THREAT_FORBID;
}

/// The leaf's state and, when open, its candidate moves: every legal move, or only the blocks
/// of the opponent's five. At the root a lost position still lists moves to play.
static void judge_leaf(Board *b, Leaf *leaf, bool root) {
    const Color me = board_to_move(b), you = me ^ 1;
    Pos legal[MAX_CELLS], blocks[MAX_CELLS];
    int nlegal = 0, nblocks = 0, their_fives = 0;
    leaf->nmoves = 0;
    leaf->draw = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos q = pos_make(x, y);
            if (!board_empty(b, q)) continue;
            if (makes_five(b, q, me) && !is_foul(b, q, me)) {
                leaf->state = NODE_WON;
                leaf->value = 1;
                leaf->moves[0] = q;
                leaf->nmoves = 1;
                return;
            }
            const bool foul = is_foul(b, q, me);
            if (makes_five(b, q, you)) {
                their_fives++;
                if (!foul) blocks[nblocks++] = q;
            }
            if (!foul) legal[nlegal++] = q;
        }
    leaf->state = NODE_OPEN;
    leaf->value = 0;
    if (their_fives > 0 && nblocks > 0) {
        memcpy(leaf->moves, blocks, sizeof(Pos) * (size_t)nblocks);
        leaf->nmoves = nblocks;
    } else {
        memcpy(leaf->moves, legal, sizeof(Pos) * (size_t)nlegal);
        leaf->nmoves = nlegal;
    }
    if (their_fives >= 2 || (their_fives == 1 && nblocks == 0)) {
        leaf->state = NODE_LOST;
        leaf->value = -1;
        if (!root) leaf->nmoves = 0;
    } else if (nlegal == 0) {
        leaf->state = NODE_DRAW;
        leaf->draw = 1;
    }
}

/// A random game from b to its end; the result for the side to move at b. b is restored.
static float playout(Board *b, uint64_t *rng) {
    Pos empty[MAX_CELLS];
    int n = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++)
            if (board_empty(b, pos_make(x, y))) empty[n++] = pos_make(x, y);
    const Color start = board_to_move(b);
    const int base = b->ply;
    float result = 0;
    while (n > 0) {
        const Color me = board_to_move(b);
        int live = n, i = -1;
        while (live > 0) { // fouls are set aside (to the end) for this move only
            const int k = (int)rng_below(rng, (uint32_t)live);
            if (!is_foul(b, empty[k], me)) {
                i = k;
                break;
            }
            const Pos swap = empty[k];
            empty[k] = empty[live - 1], empty[live - 1] = swap;
            live--;
        }
        if (i < 0) break; // renju Black with only fouls left: a draw
        const Pos q = empty[i];
        if (makes_five(b, q, me)) {
            result = me == start ? 1.0f : -1.0f;
            break;
        }
        empty[i] = empty[--n];
        board_play(b, q);
    }
    while (b->ply > base) board_undo(b);
    return result;
}

/* ---- Selection and backup ---- */

typedef struct TreeSearch {
    Mcts *t;
    const MctsParams *p;
    const Board *root_board;
    atomic_ullong started; ///< playouts begun
    atomic_bool done;
    atomic_int max_depth;
    atomic_llong eval_ns; ///< what one network evaluation cost lately, per position (zero)
} TreeSearch;

/// Would evaluating `n` more positions end past the hard time limit? A batch is cut short, and
/// the search ends, rather than let the network run over the time the caller gave.
static bool net_would_overrun(TreeSearch *s, int n) {
    const MctsParams *p = s->p;
    if (p->maximum_ns == INT64_MAX) return false;
    return tm_now_ns() - p->start_ns + n * atomic_load(&s->eval_ns) >= p->maximum_ns;
}

static bool search_over(TreeSearch *s) {
    if (atomic_load(&s->done)) return true;
    const MctsParams *p = s->p;
    bool over = (p->stop && atomic_load(p->stop)) ||
                (p->playouts && atomic_load(&s->started) >= p->playouts) ||
                (p->optimum_ns != INT64_MAX && tm_now_ns() - p->start_ns >= p->optimum_ns);
    if (over) atomic_store(&s->done, true);
    return over;
}

static float node_q(const MctsNode *n) {
    return (n->value - (float)n->vloss) / (float)(n->visits + n->vloss);
}

static int32_t select_child(const Mcts *t, const MctsNode *parent, const MctsParams *p) {
    const int32_t np = parent->visits + parent->vloss;
    int32_t best = parent->child;
    float best_score = -INFINITY;
    if (p->zero) {
        const float fpu =
            (parent->visits > 0 ? -parent->value / (float)parent->visits : 0) - FPU_REDUCTION;
        const float scale = p->c * sqrtf((float)(np > 1 ? np : 1));
        for (int k = 0; k < parent->nchild; k++) {
            const MctsNode *c = node_at(t, parent->child + k);
            const int32_t n = c->visits + c->vloss;
            const float q = n > 0 ? node_q(c) : fpu;
            const float score = q + scale * c->prior / (float)(1 + n);
            if (score > best_score) best_score = score, best = parent->child + k;
        }
        return best;
    }
    const float log_np = logf((float)(np > 1 ? np : 1));
    for (int k = 0; k < parent->nchild; k++) {
        const MctsNode *c = node_at(t, parent->child + k);
        const int32_t n = c->visits + c->vloss;
        if (n == 0) return parent->child + k; // children are in random order
        const float score = node_q(c) + p->c * sqrtf(log_np / (float)n);
        if (score > best_score) best_score = score, best = parent->child + k;
    }
    return best;
}

/// Step 1: from the root to a leaf, playing the moves on b. Holds the lock.
static void descend(TreeSearch *s, Board *b, Leaf *leaf) {
    Mcts *t = s->t;
    int32_t at = t->root;
    leaf->depth = 0;
    for (;;) {
        leaf->path[leaf->depth++] = at;
        node_at(t, at)->vloss++;
        const MctsNode *n = node_at(t, at);
        if (n->state != NODE_OPEN || n->child < 0 || n->nchild == 0) break;
        at = select_child(t, n, s->p);
        board_play(b, node_at(t, at)->move);
    }
    if (leaf->depth > atomic_load(&s->max_depth)) atomic_store(&s->max_depth, leaf->depth);
}

/// Step 3: expands the leaf (if still unexpanded) and backs its value up. Holds the lock.
static void backup(TreeSearch *s, Leaf *leaf) {
    Mcts *t = s->t;
    const int32_t at = leaf->path[leaf->depth - 1];
    MctsNode *n = node_at(t, at);
    if (n->state == NODE_OPEN && leaf->state != NODE_OPEN) n->state = (uint8_t)leaf->state;
    const bool grow = leaf->state == NODE_OPEN && n->child < 0 && leaf->nmoves > 0;
    const int32_t first = grow ? pool_take(&t->pool, leaf->nmoves) : -1;
    if (first >= 0) { // a full tree leaves the leaf unexpanded
        for (int k = 0; k < leaf->nmoves; k++)
            *node_at(t, first + k) =
                (MctsNode){.child = -1, .move = leaf->moves[k], .prior = leaf->prior[k]};
        n->child = first;
        n->nchild = (uint16_t)leaf->nmoves;
    }
    /* A draw is worth draw_score to the root's side, and the opposite to the other side: the
     * leaf's side to move is the root's when an even number of plies lies between them. */
    const float draw_score = (leaf->depth - 1) % 2 == 0 ? s->p->draw_score : -s->p->draw_score;
    float v = leaf->value + draw_score * leaf->draw; // side to move at the leaf
    for (int d = leaf->depth - 1; d >= 0; d--) {
        MctsNode *m = node_at(t, leaf->path[d]);
        m->vloss--;
        m->visits++;
        m->value -= v; // the mover's view is the opposite of the side to move's
        v = -v;
    }
}

static void undo_to(Board *b, int ply) {
    while (b->ply > ply) board_undo(b);
}

/* ---- Leaf evaluation ---- */

typedef struct TreeWorker {
    TreeSearch *s;
    Board board;
    uint64_t rng;
    Leaf *leaf; ///< MAX_BATCH of them
    float *planes, *policy, *value, *draw, *scratch;
} TreeWorker;

static void shuffle_moves(Leaf *leaf, uint64_t *rng) {
    for (int k = leaf->nmoves - 1; k > 0; k--) {
        const int j = (int)rng_below(rng, (uint32_t)k + 1);
        const Pos swap = leaf->moves[k];
        leaf->moves[k] = leaf->moves[j], leaf->moves[j] = swap;
    }
}

/// The mean result of `count` random playouts from the board, for the side to move, and the
/// share of them drawn (0 and 0: none).
static float mean_playout(Board *b, int count, uint64_t *rng, float *drawn) {
    float sum = 0;
    int draws = 0;
    for (int k = 0; k < count; k++) {
        const float r = playout(b, rng);
        sum += r;
        draws += r == 0;
    }
    *drawn = count > 0 ? (float)draws / (float)count : 0;
    return count > 0 ? sum / (float)count : 0;
}

/// A leaf's value (or draw probability): the network's, blended with its playouts' when the
/// search runs them.
static float leaf_blend(const MctsParams *p, float net, float playouts) {
    return p->rollouts > 0 ? (1 - p->rollout_weight) * net + p->rollout_weight * playouts : net;
}

/// Softmax of the policy logits over the leaf's moves.
static void set_priors(Leaf *leaf, const float *logits, int width) {
    float top = -INFINITY, sum = 0;
    for (int k = 0; k < leaf->nmoves; k++) {
        const float l = logits[pos_y(leaf->moves[k]) * width + pos_x(leaf->moves[k])];
        leaf->prior[k] = l;
        if (l > top) top = l;
    }
    for (int k = 0; k < leaf->nmoves; k++) sum += leaf->prior[k] = expf(leaf->prior[k] - top);
    for (int k = 0; k < leaf->nmoves; k++) leaf->prior[k] /= sum;
}

/// Runs the network on `n` positions and keeps its cost per position for net_would_overrun
/// (the latest cost, or half the one before when that is more: costs vary with the load).
static void net_forward(TreeSearch *s, TreeWorker *w, int n) {
    const int64_t t0 = tm_now_ns();
    nn_forward(s->p->model, w->planes, n, w->policy, w->value, w->draw, w->scratch);
    const int64_t each = (tm_now_ns() - t0) / n, before = atomic_load(&s->eval_ns);
    atomic_store(&s->eval_ns, each > before / 2 ? each : before / 2);
}

/// One batch of leaves: select them all, judge them, evaluate, back up.
static void search_batch(TreeWorker *w) {
    TreeSearch *s = w->s;
    const bool zero = s->p->zero;
    const int want = zero ? batch_size(s->p) : 1;
    const int root_ply = w->board.ply;
    const int cells = w->board.width * w->board.height;
    int count = 0, net = 0;
    int net_index[MAX_BATCH];
    for (; count < want; count++) {
        if (search_over(s)) break;
        if (zero && net_would_overrun(s, net + 1)) {
            atomic_store(&s->done, true);
            break;
        }
        Leaf *leaf = &w->leaf[count];
        pthread_mutex_lock(&s->t->lock);
        atomic_fetch_add(&s->started, 1);
        descend(s, &w->board, leaf);
        const MctsNode n = (*node_at(s->t, leaf->path[leaf->depth - 1]));
        pthread_mutex_unlock(&s->t->lock);
        if (n.state != NODE_OPEN) {
            leaf->state = n.state;
            leaf->value = n.state == NODE_WON ? 1 : n.state == NODE_LOST ? -1 : 0;
            leaf->draw = n.state == NODE_DRAW;
            leaf->nmoves = 0;
        } else {
            judge_leaf(&w->board, leaf, false);
            if (leaf->state == NODE_OPEN && !zero) {
                for (int k = 0; k < leaf->nmoves; k++) leaf->prior[k] = 1.0f / (float)leaf->nmoves;
                shuffle_moves(leaf, &w->rng);
                leaf->value = playout(&w->board, &w->rng);
                leaf->draw = leaf->value == 0;
            } else if (leaf->state == NODE_OPEN) {
                nn_features(&w->board, w->planes + (size_t)net * NN_PLANES * cells);
                net_index[net++] = count;
                /* The playouts need the leaf's board, gone once the batch is evaluated: their
                 * mean waits in `value` until the network's is blended in (leaf_blend). */
                leaf->value = mean_playout(&w->board, s->p->rollouts, &w->rng, &leaf->draw);
            }
        }
        undo_to(&w->board, root_ply);
    }
    if (net > 0) {
        net_forward(s, w, net);
        for (int k = 0; k < net; k++) {
            Leaf *leaf = &w->leaf[net_index[k]];
            set_priors(leaf, w->policy + (size_t)k * cells, w->board.width);
            leaf->value = leaf_blend(s->p, w->value[k], leaf->value);
            leaf->draw = leaf_blend(s->p, w->draw[k], leaf->draw);
        }
    }
    if (count == 0) return;
    pthread_mutex_lock(&s->t->lock);
    for (int k = 0; k < count; k++) backup(s, &w->leaf[k]);
    pthread_mutex_unlock(&s->t->lock);
}

static void *tree_worker_main(void *arg) {
    TreeWorker *w = arg;
    while (!search_over(w->s)) search_batch(w);
    return NULL;
}

static void tree_worker_free(TreeWorker *w) {
    free(w->leaf);
    free(w->planes);
    free(w->policy);
    free(w->value);
    free(w->draw);
    free(w->scratch);
}

static bool tree_worker_init(TreeWorker *w, TreeSearch *s, const Board *b, uint64_t seed) {
    memset(w, 0, sizeof *w);
    w->s = s;
    w->board = *b;
    w->rng = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
    const int batch = s->p->zero ? batch_size(s->p) : 1;
    w->leaf = malloc(sizeof *w->leaf * (size_t)batch);
    if (!w->leaf) return false;
    if (!s->p->zero) return true;
    const size_t cells = (size_t)b->width * b->height;
    w->planes = malloc(sizeof(float) * NN_PLANES * cells * (size_t)batch);
    w->policy = malloc(sizeof(float) * cells * (size_t)batch);
    w->value = malloc(sizeof(float) * (size_t)batch);
    w->draw = malloc(sizeof(float) * (size_t)batch);
    w->scratch = malloc(sizeof(float) * nn_scratch_floats(s->p->model));
    return w->planes && w->policy && w->value && w->draw && w->scratch;
}

/* ---- The root ---- */

/// Expands an unexpanded root at once (so that noise can be added to its priors) and mixes
/// Dirichlet noise into them.
static void prepare_root(TreeWorker *w, const MctsParams *p) {
    Mcts *t = w->s->t;
    Leaf *leaf = &w->leaf[0];
    if (node_at(t, t->root)->child < 0) {
        judge_leaf(&w->board, leaf, true);
        leaf->depth = 1;
        leaf->path[0] = t->root;
        node_at(t, t->root)->vloss++;
        const int cells = w->board.width * w->board.height;
        if (p->zero && leaf->nmoves > 0) {
            nn_features(&w->board, w->planes);
            net_forward(w->s, w, 1);
            set_priors(leaf, w->policy, w->board.width);
            if (leaf->state == NODE_OPEN) leaf->value = w->value[0], leaf->draw = w->draw[0];
        } else {
            for (int k = 0; k < leaf->nmoves; k++) leaf->prior[k] = 1.0f / (float)leaf->nmoves;
            shuffle_moves(leaf, &w->rng);
        }
        (void)cells;
        const int state = leaf->state;
        leaf->state = NODE_OPEN; // the root always gets its children
        backup(w->s, leaf);
        node_at(t, t->root)->state = NODE_OPEN;
        (void)state;
    }
    MctsNode *r = node_at(t, t->root);
    if (p->noise_eps <= 0 || r->nchild < 2) return;
    double g[MAX_CELLS], sum = 0;
    for (int k = 0; k < r->nchild; k++) sum += g[k] = rng_gamma(&w->rng, p->noise_alpha);
    for (int k = 0; k < r->nchild; k++) {
        MctsNode *c = node_at(t, r->child + k);
        c->prior =
            (1 - p->noise_eps) * c->prior + p->noise_eps * (float)(g[k] / (sum > 0 ? sum : 1));
    }
}

static bool root_expanded(const Mcts *t) {
    const MctsNode *r = node_at(t, t->root);
    return r->child >= 0 && r->nchild > 0;
}

static int compare_children(const void *a, const void *b) {
    const MctsChild *x = a, *y = b;
    if (x->visits != y->visits) return y->visits - x->visits;
    if (x->q != y->q) return (y->q > x->q) - (y->q < x->q);
    return (y->prior > x->prior) - (y->prior < x->prior);
}

static void collect_result(const Mcts *t, MctsResult *out) {
    const MctsNode *r = node_at(t, t->root);
    out->child_count = r->nchild;
    out->children = malloc(sizeof *out->children * (size_t)(r->nchild ? r->nchild : 1));
    if (!out->children) out->child_count = 0;
    for (int k = 0; k < out->child_count; k++) {
        const MctsNode *c = node_at(t, r->child + k);
        out->children[k] = (MctsChild){.move = c->move,
                                       .visits = c->visits,
                                       .prior = c->prior,
                                       .q = c->visits ? c->value / (float)c->visits : 0};
    }
    qsort(out->children, (size_t)out->child_count, sizeof *out->children, compare_children);
    out->best = out->child_count ? out->children[0].move : POS_NONE;
    out->q = out->child_count ? out->children[0].q : 0;
    int32_t at = t->root;
    out->pv_length = 0;
    while (out->pv_length < 64 && node_at(t, at)->child >= 0 && node_at(t, at)->nchild > 0) {
        const MctsNode *n = node_at(t, at);
        int32_t best = n->child;
        for (int k = 1; k < n->nchild; k++)
            if (node_at(t, n->child + k)->visits > node_at(t, best)->visits) best = n->child + k;
        if (node_at(t, best)->visits == 0) break;
        out->pv[out->pv_length++] = node_at(t, best)->move;
        at = best;
    }
}

/// The answer when the tree cannot hold even the root's children (out of memory, or a node
/// limit below them): the move the network rates highest (zero), a random one of the root's
/// candidates (mcts); both play a five, or stop the opponent's, as the rules demand.
static void answer_without_tree(TreeWorker *w, const MctsParams *p, MctsResult *out) {
    Leaf *leaf = &w->leaf[0];
    judge_leaf(&w->board, leaf, true);
    if (p->zero && leaf->nmoves > 1) {
        nn_features(&w->board, w->planes);
        net_forward(w->s, w, 1);
        set_priors(leaf, w->policy, w->board.width);
    } else {
        for (int k = 0; k < leaf->nmoves; k++) leaf->prior[k] = 1.0f / (float)leaf->nmoves;
        shuffle_moves(leaf, &w->rng);
    }
    int best = 0;
    for (int k = 1; k < leaf->nmoves; k++)
        if (leaf->prior[k] > leaf->prior[best]) best = k;
    out->best = leaf->moves[best];
    out->q = leaf->state == NODE_LOST ? -1 : 0;
    out->pv[0] = out->best;
    out->pv_length = 1;
    out->playouts = 1;
    out->depth = 1;
    out->children = malloc(sizeof *out->children);
    if (!out->children) return;
    out->children[0] = (MctsChild){.move = out->best, .prior = leaf->prior[best]};
    out->child_count = 1;
}

/// The search proper: every worker on the shared tree until the limits stop it.
static void run_workers(TreeSearch *s, TreeWorker *w, int threads, MctsResult *out) {
    pthread_t tid[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, tree_worker_main, &w[i]) == 0;
    tree_worker_main(&w[0]);
    for (int i = 1; i < threads; i++)
        if (started[i]) pthread_join(tid[i], NULL);
    collect_result(s->t, out);
    out->playouts = atomic_load(&s->started);
    out->depth = atomic_load(&s->max_depth);
}

bool mcts_search(Mcts *t, const Board *b, const MctsParams *p, MctsResult *out) {
    memset(out, 0, sizeof *out);
    out->best = POS_NONE;
    const int threads = p->threads < 1 ? 1 : p->threads > MAX_THREADS ? MAX_THREADS : p->threads;
    TreeSearch s = {.t = t, .p = p, .root_board = b};
    TreeWorker *w = calloc((size_t)threads, sizeof *w);
    bool ok = w != NULL;
    for (int i = 0; ok && i < threads; i++)
        ok = tree_worker_init(&w[i], &s, b, p->seed + (uint64_t)i);
    const bool tree = ok && tree_prepare(t, b, p);
    const Leaf *root = ok ? &w[0].leaf[0] : NULL;
    if (ok) judge_leaf(&w[0].board, &w[0].leaf[0], true);
    if (ok && root->state == NODE_WON) { /* a five to make is played at once */
        out->best = root->moves[0];
        out->proven_win = true;
        out->q = 1;
        out->pv[0] = out->best;
        out->pv_length = 1;
        out->playouts = 1;
    } else if (ok && root->nmoves > 0) {
        if (tree) prepare_root(&w[0], p);
        if (tree && root_expanded(t))
            run_workers(&s, w, threads, out);
        else
            answer_without_tree(&w[0], p, out);
    }
    for (int i = 0; w && i < threads; i++) tree_worker_free(&w[i]);
    free(w);
    out->time_ns = tm_now_ns() - p->start_ns;
    out->no_memory = !ok;
    return ok && out->best != POS_NONE;
}

double mcts_playout_rate(const Board *b, int64_t ms, uint64_t seed) {
    Board copy = *b;
    uint64_t rng = seed | 1, n = 0;
    const int64_t start = tm_now_ns(), end = start + ms * 1000000;
    int64_t now = start;
    while (now < end) {
        for (int i = 0; i < 64; i++) playout(&copy, &rng);
        n += 64;
        now = tm_now_ns();
    }
    return (double)n * 1e9 / (double)(now - start > 0 ? now - start : 1);
}

/*
 * engine.c — TgEngine, the public face of the search: the table, the threads, the levels and
 * the time plan. A search works on copies of the game's board, so the game is never touched.
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "mcts.h"
#include "rules.h"
#include "search.h"
#include "timeman.h"
#include "winlines.h"

/// The hard level's budget a move: nodes, not time, so that its strength (and its rating) is the
/// same on any machine and under any load (about 0.1 s a move at 1 M nodes/s).
#define HARD_NODES 100000u

enum {
    DEFAULT_HASH = 16 << 20,
    MEDIUM_DEPTH = 4,
    MEDIUM_TOP = 5,
    MCTS_PLAYOUTS =
        5000, ///< the mcts level's playouts a move (AlphaZero_Gomoku's strongest yardstick)
    ZERO_PLAYOUTS = 1600, ///< the zero level's (about 0.2 s a move on one core at 8x8)
    ZERO_BATCH = 8,       ///< leaves a zero search thread sends to the network at once
    ZERO_ROLLOUTS = 4,    ///< random playouts a zero leaf runs beside the network (docs/zero.md)
    /// A timed search uses no more of the table than this a millisecond of its maximum, a
    /// thread: about four times the entries it can store at 1 M nodes/s (16 bytes each). A
    /// table far larger than a search fills costs it cache and TLB misses on every probe: at
    /// 500 ms a turn 32 MiB of it searched 6-14% more nodes than 256 MiB (docs/strength.md).
    TABLE_PER_MS = 64 << 10,
};

static const float MCTS_C = 1.0f; ///< UCT exploration, results in [-1, 1]
static const float ZERO_C = 1.5f; ///< PUCT exploration
/// The playouts' share of a zero leaf's value: half, as AlphaGo's rollouts had; 8x8 matches
/// against pure MCTS in docs/zero.md.
static const float ZERO_ROLLOUT_WEIGHT = 0.5f;
/// What a draw is worth to the zero level's side (tg_engine_set_zero_draw_score).
static const float ZERO_DRAW_SCORE = 0.0f;

struct TgEngine {
    Tt tt;
    int threads;
    Worker *workers;       ///< threads of them; history survives between searches
    Mcts *mcts;            ///< the mcts and zero levels' tree, kept between moves
    size_t tree_bytes;     ///< the tree's memory limit (tg_engine_set_tree_memory); 0: none
    int zero_rollouts;     ///< tg_engine_set_zero_rollouts
    float zero_draw_score; ///< tg_engine_set_zero_draw_score
    const TgModel *model;
    TreeSampler sampler; ///< engine_set_tree_sampler
    void *sampler_user;
};

static const char *const LEVEL_NAMES[TG_LEVEL_COUNT] = {"max",      "hard", "medium", "easy",
                                                        "beginner", "mcts", "zero"};

const char *tg_level_name(TgLevel level) {
    return (unsigned)level < TG_LEVEL_COUNT ? LEVEL_NAMES[level] : "?";
}

bool tg_level_from_name(const char *name, TgLevel *level) {
    for (int i = 0; i < TG_LEVEL_COUNT; i++)
        if (strcmp(name, LEVEL_NAMES[i]) == 0) return *level = (TgLevel)i, true;
    return false;
}

/* ---- Ratings ---- */

/// The levels' ratings from the ladder (docs/ladder.txt, made by scripts/ladder.sh): Elo above
/// beginner, half the 95% interval, and the nodes a move the level had (0: its own limits).
/// Weakest first.
static const struct LevelRating {
    TgLevel level;
    int elo, error;
    uint64_t nodes;
} RATINGS[] = {
    /* one level a line, as in the ladder's table */
    // clang-format off
    {TG_LEVEL_MCTS, -412, 190, 0},
    {TG_LEVEL_BEGINNER, 0, 0, 0},
    {TG_LEVEL_EASY, 233, 131, 0},
    {TG_LEVEL_MEDIUM, 801, 312, 0},
    {TG_LEVEL_HARD, 1369, 421, HARD_NODES},
    {TG_LEVEL_MAX, 1676, 448, 1000000},
    // clang-format on
};
enum { RATING_COUNT = sizeof RATINGS / sizeof RATINGS[0] };

static const struct LevelRating *rating_of(TgLevel level) {
    for (int i = 0; i < RATING_COUNT; i++)
        if (RATINGS[i].level == level) return &RATINGS[i];
    return NULL;
}

bool tg_level_rating(TgLevel level, int *elo, int *error) {
    const struct LevelRating *r = rating_of(level);
    if (!r) return false;
    if (elo) *elo = r->elo;
    if (error) *error = r->error;
    return true;
}

int tg_levels_weakest_first(TgLevel out[TG_LEVEL_COUNT]) {
    int n = 0;
    for (int i = 0; i < RATING_COUNT; i++) out[n++] = RATINGS[i].level; /* kept in order */
    for (int l = 0; l < TG_LEVEL_COUNT; l++)
        if (!rating_of((TgLevel)l)) out[n++] = (TgLevel)l;
    return n;
}

uint64_t tg_level_rating_nodes(TgLevel level) {
    const struct LevelRating *r = rating_of(level);
    return r ? r->nodes : 0;
}

TgLevel tg_level_for_rating(int elo, uint64_t *nodes) {
    const struct LevelRating *hard = rating_of(TG_LEVEL_HARD), *max = rating_of(TG_LEVEL_MAX);
    *nodes = 0;
    if (hard && max && elo > hard->elo && elo < max->elo && max->elo > hard->elo) {
        const double t = (double)(elo - hard->elo) / (max->elo - hard->elo);
        *nodes = (uint64_t)(hard->nodes * pow((double)max->nodes / hard->nodes, t));
        return TG_LEVEL_MAX;
    }
    const struct LevelRating *best = &RATINGS[0];
    for (int i = 1; i < RATING_COUNT; i++)
        if (abs(RATINGS[i].elo - elo) < abs(best->elo - elo)) best = &RATINGS[i];
    return best->level;
}

int tg_score_moves_to_five(int score) {
    if (score >= TG_SCORE_WIN_MIN) return (TG_SCORE_WIN - score + 1) / 2;
    if (score <= -TG_SCORE_WIN_MIN) return (TG_SCORE_WIN + score) / 2;
    return 0;
}

void tg_score_text(int score, char *buf, size_t size) {
    const int n = tg_score_moves_to_five(score);
    if (n && score > 0)
        snprintf(buf, size, "win in %d", n);
    else if (n)
        snprintf(buf, size, "loss in %d", n);
    else
        snprintf(buf, size, "%+d", score);
}

/* ---- Life cycle ---- */

TgEngine *tg_engine_new(int threads, size_t hash_bytes) {
    TgEngine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->zero_rollouts = ZERO_ROLLOUTS;
    e->zero_draw_score = ZERO_DRAW_SCORE;
    if (!tt_resize(&e->tt, hash_bytes ? hash_bytes : DEFAULT_HASH) ||
        tg_engine_set_threads(e, threads ? threads : 1) != TG_OK) {
        tg_engine_free(e);
        return NULL;
    }
    return e;
}

void tg_engine_free(TgEngine *e) {
    if (!e) return;
    tt_free(&e->tt);
    mcts_free(e->mcts);
    free(e->workers);
    free(e);
}

TgError tg_engine_set_hash(TgEngine *e, size_t hash_bytes) {
    return tt_resize(&e->tt, hash_bytes) ? TG_OK : TG_ERR_MEMORY;
}

size_t tg_engine_hash_bytes(const TgEngine *e) { return tt_bytes(&e->tt); }

TgError tg_engine_set_threads(TgEngine *e, int threads) {
    if (threads < 1 || threads > TG_MAX_THREADS) return TG_ERR_ARGUMENT;
    Worker *w = calloc((size_t)threads, sizeof *w);
    if (!w) return TG_ERR_MEMORY;
    free(e->workers);
    e->workers = w;
    e->threads = threads;
    return TG_OK;
}

void engine_set_tree_sampler(TgEngine *e, TreeSampler fn, void *user) {
    e->sampler = fn;
    e->sampler_user = user;
}

void tg_engine_set_tree_memory(TgEngine *e, size_t bytes) {
    e->tree_bytes = bytes;
    if (e->mcts) mcts_set_memory(e->mcts, bytes);
}

size_t tg_engine_tree_memory(const TgEngine *e) { return mcts_memory_limit(e->tree_bytes); }

void tg_engine_set_model(TgEngine *e, const TgModel *model) {
    e->model = model;
    if (e->mcts) mcts_clear(e->mcts);
}

void tg_engine_set_zero_rollouts(TgEngine *e, int rollouts) {
    e->zero_rollouts = rollouts < 0 ? ZERO_ROLLOUTS : rollouts;
    if (e->mcts) mcts_clear(e->mcts); /* the tree's values were made the other way */
}

void tg_engine_set_zero_draw_score(TgEngine *e, float score) {
    e->zero_draw_score = isnan(score) ? ZERO_DRAW_SCORE : score < -1 ? -1 : score > 1 ? 1 : score;
    if (e->mcts) mcts_clear(e->mcts); /* the tree's values were made with another */
}

void tg_engine_clear(TgEngine *e) {
    tt_clear(&e->tt);
    if (e->mcts) mcts_clear(e->mcts);
    for (int i = 0; i < e->threads; i++)
        memset(e->workers[i].history, 0, sizeof e->workers[i].history);
}

/* ---- One search ---- */

static int64_t or_unlimited(int64_t ms) { return ms > 0 ? ms : TM_UNLIMITED; }

static int64_t ms_to_ns(int64_t ms) { return ms >= INT64_MAX / 1000000 ? INT64_MAX : ms * 1000000; }

/// The time plan of a search: the level's budget within the caller's limits.
static TimePlan plan_time(const TgSearchLimits *l, const Board *b) {
    TimeControl tc = {.turn_ms = or_unlimited(l->turn_ms),
                      .left_ms = or_unlimited(l->game_left_ms),
                      .increment_ms = l->increment_ms > 0 ? l->increment_ms : 0,
                      .empty_cells = b->width * b->height - b->stone_count};
    if (l->instant) tc.turn_ms = 0;
    return tm_plan(&tc);
}

static SearchStyle style_of(TgLevel level) {
    if (level == TG_LEVEL_MEDIUM)
        return (SearchStyle){
            .top_per_side = MEDIUM_TOP, .max_depth = MEDIUM_DEPTH, .seed_eval = true};
    return (SearchStyle){.quiescence = true, .root_solver = true, .reductions = true};
}

/// The table a search of this plan uses (tt_use): a share of it by the time, all of it untimed.
static size_t table_for(TimePlan plan, int threads) {
    if (plan.maximum_ms == TM_UNLIMITED || plan.maximum_ms <= 0) return 0;
    /* 17 minutes already call for 64 GiB a thread: no table is larger, and no product overflows. */
    const int64_t ms = plan.maximum_ms < (1 << 20) ? plan.maximum_ms : (1 << 20);
    return (size_t)(ms * TABLE_PER_MS * threads);
}

static void prepare_job(TgEngine *e, const TgGame *g, const TgSearchLimits *l, SearchJob *job,
                        Pos *exclude) {
    const TimePlan plan = plan_time(l, &g->board);
    memset(job, 0, sizeof *job);
    job->tt = &e->tt;
    job->style = style_of(l->level);
    job->max_depth =
        l->depth > 0 && l->depth < SEARCH_MAX_PLY - 20 ? l->depth : SEARCH_MAX_PLY - 20;
    if (job->style.max_depth && job->style.max_depth < job->max_depth)
        job->max_depth = job->style.max_depth;
    job->max_nodes = l->nodes;
    if (l->level == TG_LEVEL_HARD && (!job->max_nodes || job->max_nodes > HARD_NODES))
        job->max_nodes = HARD_NODES;
    job->multipv = l->multipv < 1 ? 1 : l->multipv > TG_MAX_MULTIPV ? TG_MAX_MULTIPV : l->multipv;
    job->start_ns = tm_now_ns();
    job->optimum_ns = plan.optimum_ms == TM_UNLIMITED ? INT64_MAX : ms_to_ns(plan.optimum_ms);
    job->maximum_ns = plan.maximum_ms == TM_UNLIMITED ? INT64_MAX : ms_to_ns(plan.maximum_ms);
    job->external_stop = l->stop;
    job->exclude = exclude;
    for (int i = 0; i < l->exclude_count; i++) {
        const Pos p = game_pos(g, l->exclude[i]);
        if (p != POS_NONE) exclude[job->exclude_count++] = p;
    }
    job->sampler = e->sampler;
    job->sampler_user = e->sampler_user;
    job->workers = e->workers;
    job->thread_count = l->level == TG_LEVEL_MAX || l->level == TG_LEVEL_HARD ? e->threads : 1;
    tt_use(&e->tt, table_for(plan, job->thread_count));
    for (int i = 0; i < job->thread_count; i++) {
        e->workers[i].job = job;
        e->workers[i].id = i;
        worker_reset(&e->workers[i], &g->board);
    }
}

/// The answer of a one-ply level (easy, beginner): its move as a one-move line.
static void one_ply_result(Pos p, TgSearchResult *out) {
    memset(out, 0, sizeof *out);
    out->best = p == POS_NONE ? (TgPoint){-1, -1} : game_point(p);
    out->line_count = p != POS_NONE;
    out->depth = out->lines[0].depth = 1;
    out->lines[0].length = 1;
    out->lines[0].moves[0] = out->best;
}

/* ---- The mcts and zero levels ---- */

/// The model the zero level uses on this game's board, or NULL when none fits.
static const TgModel *model_for(const TgEngine *e, const TgGame *g) {
    const Board *b = &g->board;
    return tg_model_for(e->model, b->rule, b->width, b->height);
}

static void tree_result(const MctsResult *r, TgSearchResult *out) {
    memset(out, 0, sizeof *out);
    out->best = game_point(r->best);
    out->score = r->proven_win ? TG_SCORE_WIN - 1 : (int)(r->q * 1000);
    out->depth = out->seldepth = r->depth;
    out->nodes = r->playouts;
    out->time_ms = r->time_ns / 1000000;
    out->line_count = 1;
    TgPvLine *line = &out->lines[0];
    line->score = out->score;
    line->depth = out->depth;
    line->length = r->pv_length < TG_MAX_PV ? r->pv_length : TG_MAX_PV;
    for (int i = 0; i < line->length; i++) line->moves[i] = game_point(r->pv[i]);
}

static TgError tree_search(TgEngine *e, const TgGame *g, const TgSearchLimits *l,
                           TgSearchCallback callback, void *user, TgSearchResult *out) {
    const bool zero = l->level == TG_LEVEL_ZERO;
    /* The tree searches have no way to leave root moves out: refuse rather than play one. */
    if (l->exclude_count > 0) return TG_ERR_ARGUMENT;
    const TgModel *model = zero ? model_for(e, g) : NULL;
    if (zero && !model) return TG_ERR_MODEL;
    if (!e->mcts) {
        if (!(e->mcts = mcts_new())) return TG_ERR_MEMORY;
        mcts_set_memory(e->mcts, e->tree_bytes);
    }
    const TimePlan plan = plan_time(l, &g->board);
    const MctsParams p = {
        .zero = zero,
        .model = model,
        .playouts = l->nodes ? l->nodes
                    : zero   ? ZERO_PLAYOUTS
                             : MCTS_PLAYOUTS,
        .start_ns = tm_now_ns(),
        .optimum_ns = plan.optimum_ms == TM_UNLIMITED ? INT64_MAX : ms_to_ns(plan.optimum_ms),
        .maximum_ns = plan.maximum_ms == TM_UNLIMITED ? INT64_MAX : ms_to_ns(plan.maximum_ms),
        .stop = l->stop,
        .threads = e->threads,
        .batch = ZERO_BATCH,
        .c = zero ? ZERO_C : MCTS_C,
        .rollouts = zero ? e->zero_rollouts : 0,
        .rollout_weight = ZERO_ROLLOUT_WEIGHT,
        .draw_score = zero ? e->zero_draw_score : 0,
        .seed = l->seed,
        .keep_tree = true,
    };
    MctsResult r;
    const bool found = mcts_search(e->mcts, &g->board, &p, &r);
    free(r.children);
    if (!found) {
        memset(out, 0, sizeof *out);
        out->best = (TgPoint){-1, -1};
        return r.no_memory ? TG_ERR_MEMORY : TG_OK; /* else no move exists: a pass */
    }
    tree_result(&r, out);
    if (callback) {
        const TgSearchInfo info = {
            .depth = out->depth,
            .seldepth = out->seldepth,
            .nodes = out->nodes,
            .time_ms = out->time_ms,
            .nps = out->time_ms > 0 ? out->nodes * 1000 / (uint64_t)out->time_ms : 0,
            .line_count = 1,
            .lines = out->lines,
            .final = true};
        callback(&info, user);
    }
    return TG_OK;
}

TgError tg_engine_search(TgEngine *e, const TgGame *g, const TgSearchLimits *l,
                         TgSearchCallback callback, void *user, TgSearchResult *out) {
    if (tg_game_over(g) || rules_five_on_board(&g->board)) return TG_ERR_GAME_OVER;
    if ((unsigned)l->level >= TG_LEVEL_COUNT || l->multipv < 0 || l->exclude_count < 0 ||
        (l->exclude_count && !l->exclude))
        return TG_ERR_ARGUMENT;
    if (l->level == TG_LEVEL_MCTS || l->level == TG_LEVEL_ZERO)
        return tree_search(e, g, l, callback, user, out);
    Pos *exclude = malloc(sizeof(Pos) * (size_t)(l->exclude_count + 1));
    SearchJob *job = malloc(sizeof *job);
    if (!exclude || !job) {
        free(exclude);
        free(job);
        return TG_ERR_MEMORY;
    }
    prepare_job(e, g, l, job, exclude);
    job->callback = callback;
    job->user = user;
    if (l->level == TG_LEVEL_EASY)
        one_ply_result(search_greedy(&e->workers[0], l->seed), out);
    else if (l->level == TG_LEVEL_BEGINNER)
        one_ply_result(winlines_pick(&e->workers[0].board, l->seed, exclude, job->exclude_count),
                       out);
    else
        search_run(job, out);
    for (int i = 0; i < e->threads; i++) e->workers[i].job = NULL;
    free(exclude);
    free(job);
    return TG_OK;
}

int64_t tg_now_ms(void) { return tm_now_ns() / 1000000; }

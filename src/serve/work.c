/*
 * work.c — the engine workers and the clock timer of `tengen serve`. What a finished search or a
 * tick of the timer changes is the controller's to decide (control.c, through the pool's hooks).
 *
 * A job searches its own copy of the game, taken under the game's lock, with no lock held.
 * Its result is used only if the game still points at the job and has the version the job
 * started from: any change meanwhile (an undo, a move, a result) forgets the job, so a stale
 * answer is never played. HTTP threads only queue jobs and set flags; they never wait.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve.h"

enum {
    QUEUE_CAP = 1024,
    ENGINE_HASH = 32 << 20,
    MEDIUM_CAP_MS = 1000,   ///< the medium level's time a move: its fixed depth may run long
    BRIEF_MS = 150,         ///< move-now when nothing was searched yet: think this long
    TIMER_MS = 100,         ///< how often the clocks are looked at
    BRIEF_NODES = 5000,     ///< move-now before an opening decision began: search this much
    BALANCED_NODES = 30000, ///< per candidate of the balanced start: well under a second
};

typedef struct WorkerArg {
    Server *server;
    int index;
} WorkerArg;

/* ---- Limits ---- */

/// The computer's limits: its level, the max level's time a move, and the clocks. The level
/// belongs to the player who holds the colour to move now (the swaps of an opening rule trade
/// colours between players).
static TgSearchLimits move_limits(const LiveGame *g, bool brief) {
    const TgGame *game = g->game;
    const TgColor c = tg_game_to_move(game);
    const TgLevel level = (TgLevel)g->player[game_seat(g, c)];
    const int64_t now = tg_now_ms();
    TgSearchLimits l = {.level = level,
                        .nodes = g->nodes[game_seat(g, c)],
                        .seed = (uint64_t)tg_game_ply(game) * 7919u + g->id[0]};
    int64_t turn = level == TG_LEVEL_MAX      ? g->computer_ms
                   : level == TG_LEVEL_MEDIUM ? MEDIUM_CAP_MS
                                              : 0;
    const TgClock clock = tg_game_clock(game);
    if (clock.game_ms) {
        const int64_t left = tg_game_time_left(game, c, now);
        l.game_left_ms = left > 1 ? left : 1;
        l.increment_ms = clock.increment_ms;
    }
    if (clock.move_ms) {
        const int64_t left = tg_game_move_time_left(game, now);
        if (!turn || left < turn) turn = left > 1 ? left : 1;
    }
    if (brief && (!turn || turn > BRIEF_MS)) turn = BRIEF_MS;
    l.turn_ms = turn;
    return l;
}

/// The opening decision's limits: nodes by level (the max level also by its time a move),
/// a seed from the game and its step, and the job's stop flag.
static TgOpeningLimits opening_limits(const LiveGame *g, Job *job, bool brief) {
    const TgOpeningStep st = tg_opening_step(g->opening);
    const int level = g->player[st.player];
    TgOpeningLimits l = {.stop = &job->stop};
    l.nodes = tg_opening_level_nodes((TgLevel)level);
    if (g->nodes[st.player] && g->nodes[st.player] < l.nodes) l.nodes = g->nodes[st.player];
    if (level == TG_LEVEL_MAX) l.time_ms = g->computer_ms;
    if (brief) l.nodes = BRIEF_NODES, l.time_ms = 0;
    char line[512];
    tg_opening_text(g->opening, line, sizeof line);
    l.seed = (uint64_t)g->created_ms ^ ((uint64_t)strlen(line) << 32) ^ (uint64_t)g->id[1];
    return l;
}

/* ---- Queue ---- */

static Job *job_new(LiveGame *g, JobKind kind, const TgSearchLimits *limits) {
    Job *job = calloc(1, sizeof *job);
    if (!job) return NULL;
    job->kind = kind;
    job->g = g;
    atomic_fetch_add(&g->refs, 1);
    job->version = g->version;
    job->limits = *limits;
    job->limits.stop = &job->stop;
    job->ply = tg_game_ply(g->game);
    job->color = tg_game_to_move(g->game);
    job->last_depth = -1;
    return job;
}

static void job_free(Job *job) {
    registry_release(job->g);
    tg_game_free(job->position);
    tg_opening_free(job->opening);
    free(job);
}

/// Queues the job; false when the queue is full or the server stops.
static bool enqueue(Pool *p, Job *job) {
    pthread_mutex_lock(&p->lock);
    const bool ok = !p->quit && p->count < p->cap;
    if (ok) {
        p->queue[(p->head + p->count++) % p->cap] = job;
        pthread_cond_signal(&p->cond);
    }
    pthread_mutex_unlock(&p->lock);
    return ok;
}

bool pool_has_room(Server *s) {
    pthread_mutex_lock(&s->pool.lock);
    const bool room = s->pool.count < s->pool.cap;
    pthread_mutex_unlock(&s->pool.lock);
    return room;
}

static bool start_job(LiveGame *g, Server *s, JobKind kind, const TgSearchLimits *l, bool brief) {
    Job *job = job_new(g, kind, l);
    if (!job) return false;
    job->brief = brief;
    if (!enqueue(&s->pool, job)) {
        job_free(job);
        return false;
    }
    g->job = job;
    return true;
}

bool work_start_move(Server *s, LiveGame *g, bool brief) {
    const TgSearchLimits l = {.level = TG_LEVEL_EASY}; /* set when the search begins */
    if (g->balancing && !g->job && !atomic_load(&s->quit))
        return start_job(g, s, JOB_BALANCED, &l, false);
    if (!game_computer_to_move(g) || g->paused || g->job) return true;
    if (atomic_load(&s->quit)) return true;
    const JobKind kind = game_in_opening(g) ? JOB_OPENING : JOB_MOVE;
    g->search_error[0] = '\0';
    if (start_job(g, s, kind, &l, brief)) return true;
    g->paused = true; /* `go` tries again */
    game_sync_clock(g);
    return false;
}

bool work_start_analysis(Server *s, LiveGame *g, int64_t time_ms, int multipv) {
    game_cancel_search(g);
    const TgSearchLimits l = {.level = TG_LEVEL_MAX, .turn_ms = time_ms, .multipv = multipv};
    return start_job(g, s, JOB_ANALYSIS, &l, false);
}

/* ---- Search reports ---- */

static json_t *line_json(const TgGame *game, const TgPvLine *l) {
    json_t *moves = json_array();
    for (int k = 0; k < l->length; k++) json_array_append_new(moves, json_point(game, l->moves[k]));
    char text[24];
    tg_score_text(l->score, text, sizeof text);
    return json_pack("{s:o, s:i, s:s, s:f, s:i}", "moves", moves, "score", l->score, "text", text,
                     "winrate", serve_winrate(l->score), "depth", l->depth);
}

/// An analysis keeps the position's evaluation at each completed depth, so one stopped by a
/// change (browsing with undo, redo or goto) still leaves its latest word in `evals`.
static void keep_analysis_eval(Job *job, const TgSearchInfo *info) {
    if (job->kind != JOB_ANALYSIS || info->line_count == 0 || info->depth <= 0) return;
    pthread_mutex_lock(&job->g->lock);
    if (!atomic_load(&job->cancelled))
        game_set_eval(job->g, job->ply, job->color, info->lines[0].score, info->depth);
    pthread_mutex_unlock(&job->g->lock);
}

/// A `search` event for each completed depth, and one for the final answer.
static void on_info(const TgSearchInfo *info, void *user) {
    Job *job = user;
    if (atomic_load(&job->cancelled)) return;
    if (!info->final && info->depth == job->last_depth) return;
    job->last_depth = info->depth;
    keep_analysis_eval(job, info);
    json_t *lines = json_array();
    for (int i = 0; i < info->line_count; i++)
        json_array_append_new(lines, line_json(job->position, &info->lines[i]));
    json_t *o =
        json_pack("{s:s, s:i, s:s, s:i, s:i, s:I, s:I, s:I, s:b, s:o}", "kind",
                  job->kind == JOB_MOVE ? "move" : "analysis", "ply", job->ply, "color",
                  tg_color_name(job->color), "depth", info->depth, "seldepth", info->seldepth,
                  "nodes", (json_int_t)info->nodes, "nps", (json_int_t)info->nps, "time_ms",
                  (json_int_t)info->time_ms, "final", info->final, "lines", lines);
    char *data = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (data) feed_push(&job->g->feed, "search", data);
    free(data);
    json_decref(o);
}

/* ---- Running a job ---- */

/// Takes in a finished job, if the game still wants it: the controller applies the result.
static void finish(Server *s, Job *job, const JobResult *res) {
    LiveGame *g = job->g;
    pthread_mutex_lock(&g->lock);
    if (g->job == job) {
        g->job = NULL;
        s->pool.hooks.done(s, g, job, res);
    }
    pthread_mutex_unlock(&g->lock);
}

/// Takes the job's copy of the position (and a move's time limits, from the clocks as they
/// are now) under the game's lock: so a search begins only after the change that asked for it
/// was saved and announced, and its reports never come before that `game` event.
static bool begin(Job *job) {
    LiveGame *g = job->g;
    pthread_mutex_lock(&g->lock);
    bool ok = g->job == job && !atomic_load(&job->cancelled);
    if (ok && job->kind == JOB_OPENING) {
        const bool hurry = atomic_exchange(&job->hurry, false);
        if (hurry) atomic_store(&job->stop, false);
        job->olimits = opening_limits(g, job, job->brief || hurry);
        job->opening = tg_opening_clone(g->opening);
    } else if (ok && job->kind == JOB_BALANCED) {
        job->olimits = (TgOpeningLimits){.nodes = BALANCED_NODES, .stop = &job->stop};
        serve_random(&job->olimits.seed, sizeof job->olimits.seed); /* a new start each game */
    }
    if (ok && job->kind == JOB_MOVE) {
        const bool hurry = atomic_exchange(&job->hurry, false);
        if (hurry) atomic_store(&job->stop, false); /* move-now before the start: think briefly */
        job->limits = move_limits(g, job->brief || hurry);
        job->limits.stop = &job->stop;
    }
    if (ok) job->position = tg_game_clone(g->game);
    pthread_mutex_unlock(&g->lock);
    return ok;
}

static void run(Server *s, TgEngine *engine, Job *job, TgSearchResult *r) {
    if (!begin(job)) return;
    JobResult res = {.err = TG_ERR_MEMORY, .search = r};
    const TgGame *pos = job->position;
    if (job->kind == JOB_OPENING && job->opening)
        res.err = tg_opening_decide(engine, job->opening, &job->olimits, &res.decision);
    else if (job->kind == JOB_BALANCED && pos)
        res.err = tg_opening_balanced(engine, tg_game_rule(pos), tg_game_width(pos), &job->olimits,
                                      &res.balanced);
    else if ((job->kind == JOB_MOVE || job->kind == JOB_ANALYSIS) && pos)
        res.err = tg_engine_search(engine, job->position, &job->limits, on_info, job, r);
    finish(s, job, &res); /* under the lock even when cancelled: the canceller may still be
                             writing to the job until it lets go of the lock */
}

static Job *pop(Pool *p, int index) {
    pthread_mutex_lock(&p->lock);
    while (!p->quit && p->count == 0) pthread_cond_wait(&p->cond, &p->lock);
    Job *job = NULL;
    if (!p->quit) {
        job = p->queue[p->head];
        p->head = (p->head + 1) % p->cap;
        p->count--;
        p->running[index] = job;
    }
    pthread_mutex_unlock(&p->lock);
    return job;
}

static void *worker_main(void *arg) {
    const WorkerArg *a = arg;
    Pool *p = &a->server->pool;
    TgEngine *engine = tg_engine_new(1, ENGINE_HASH);
    if (engine) tg_engine_set_model(engine, a->server->cfg.model);
    TgSearchResult *r = malloc(sizeof *r);
    Job *job;
    while ((job = pop(p, a->index))) {
        if (engine && r) {
            memset(r, 0, sizeof *r);
            run(a->server, engine, job, r);
        } else {
            const JobResult res = {.err = TG_ERR_MEMORY};
            finish(a->server, job, &res);
        }
        pthread_mutex_lock(&p->lock);
        p->running[a->index] = NULL; /* before the free: pool_stop may look at it */
        pthread_mutex_unlock(&p->lock);
        job_free(job);
    }
    free(r);
    tg_engine_free(engine);
    return NULL;
}

/* ---- The clock timer ---- */

static void *timer_main(void *arg) {
    Server *s = arg;
    Pool *p = &s->pool;
    pthread_mutex_lock(&p->lock);
    while (!p->quit) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += TIMER_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&p->timer_cond, &p->lock, &ts);
        if (p->quit) break;
        pthread_mutex_unlock(&p->lock);
        if (p->hooks.tick) p->hooks.tick(s);
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* ---- Start and stop ---- */

static bool start_workers(Server *s, int workers) {
    Pool *p = &s->pool;
    WorkerArg *args = calloc((size_t)workers + 1, sizeof *args);
    p->threads = calloc((size_t)workers + 1, sizeof *p->threads);
    p->running = calloc((size_t)workers + 1, sizeof *p->running);
    p->args = args;
    if (!args || !p->threads || !p->running) return false;
    for (int i = 0; i < workers; i++) {
        args[i] = (WorkerArg){s, i};
        if (pthread_create(&p->threads[i], NULL, worker_main, &args[i]) != 0) return false;
        p->thread_count++;
    }
    return true;
}

bool pool_start(Server *s, int workers, const PoolHooks *hooks, bool timer) {
    Pool *p = &s->pool;
    memset(p, 0, sizeof *p);
    p->hooks = *hooks;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&p->timer_cond, &attr);
    pthread_condattr_destroy(&attr);
    p->cap = QUEUE_CAP;
    p->queue = calloc(QUEUE_CAP, sizeof *p->queue);
    if (!p->queue || !start_workers(s, workers)) return false;
    if (timer) p->timer_started = pthread_create(&p->timer, NULL, timer_main, s) == 0;
    return !timer || p->timer_started;
}

void pool_stop(Server *s) {
    Pool *p = &s->pool;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    for (int i = 0; i < p->thread_count; i++)
        if (p->running[i]) atomic_store(&p->running[i]->stop, true);
    pthread_cond_broadcast(&p->cond);
    pthread_cond_broadcast(&p->timer_cond);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->thread_count; i++) pthread_join(p->threads[i], NULL);
    if (p->timer_started) pthread_join(p->timer, NULL);
    for (; p->queue && p->count > 0; p->count--) { /* never run: dropped */
        Job *job = p->queue[p->head];
        p->head = (p->head + 1) % p->cap;
        job->g->job = job->g->job == job ? NULL : job->g->job;
        job_free(job);
    }
    free(p->queue);
    free(p->threads);
    free(p->running);
    free(p->args);
    pthread_cond_destroy(&p->cond);
    pthread_cond_destroy(&p->timer_cond);
    pthread_mutex_destroy(&p->lock);
}

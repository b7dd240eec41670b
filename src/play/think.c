/*
 * think.c — the computer's search on a background thread, so that the interface stays
 * live while it thinks. tg_engine_search is synchronous: a thread runs it on a private copy
 * of the game, its callback copies each depth's report under a mutex, and the `stop` flag ends
 * it early ("move now", undo, quit). The UI thread polls `done` and joins; nothing else is
 * shared, so the UI may change its own game freely meanwhile.
 */
#include <stdlib.h>
#include <string.h>

#include "play.h"

enum { ENGINE_HASH = 32 << 20 };

bool think_init(Thinker *t, int threads) {
    memset(t, 0, sizeof *t);
    atomic_init(&t->stop, false);
    atomic_init(&t->done, false);
    t->engine = tg_engine_new(threads > 0 ? threads : 1, ENGINE_HASH);
    if (!t->engine) return false;
    if (pthread_mutex_init(&t->lock, NULL) != 0) {
        tg_engine_free(t->engine);
        t->engine = NULL;
        return false;
    }
    return true;
}

void think_free(Thinker *t) {
    if (!t->engine) return;
    think_cancel(t);
    tg_engine_free(t->engine);
    pthread_mutex_destroy(&t->lock);
    t->engine = NULL;
}

/// Copies a search report; called on the search thread, so only `live` is touched.
static void copy_report(const TgSearchInfo *info, ThinkInfo *out) {
    memset(out, 0, sizeof *out);
    out->valid = true;
    out->depth = info->depth;
    out->seldepth = info->seldepth;
    out->nodes = info->nodes;
    out->nps = info->nps;
    out->time_ms = info->time_ms;
    if (info->line_count > 0) {
        const TgPvLine *l = &info->lines[0];
        out->score = l->score;
        out->pv_length = l->length < TG_MAX_PV ? l->length : TG_MAX_PV;
        memcpy(out->pv, l->moves, sizeof out->pv[0] * (size_t)out->pv_length);
    }
}

static void on_report(const TgSearchInfo *info, void *user) {
    Thinker *t = user;
    ThinkInfo copy;
    copy_report(info, &copy);
    pthread_mutex_lock(&t->lock);
    t->live = copy;
    pthread_mutex_unlock(&t->lock);
}

/// The thread: a move search, or an opening decision when it was given an opening.
static void *search_main(void *arg) {
    Thinker *t = arg;
    if (t->opening)
        t->error = tg_opening_decide(t->engine, t->opening, &t->open_limits, &t->decision);
    else
        t->error = tg_engine_search(t->engine, t->game, &t->limits, on_report, t, &t->result);
    atomic_store(&t->done, true);
    return NULL;
}

static void forget_copies(Thinker *t) {
    tg_game_free(t->game);
    t->game = NULL;
    tg_opening_free(t->opening);
    t->opening = NULL;
}

/// Starts the thread on what think_start* copied in; false (and all forgotten) if it cannot.
static bool launch(Thinker *t, ThinkKind kind, unsigned version) {
    t->kind = kind;
    t->version = version;
    t->error = TG_OK;
    memset(&t->result, 0, sizeof t->result);
    memset(&t->decision, 0, sizeof t->decision);
    memset(&t->live, 0, sizeof t->live); /* no thread runs now: no lock needed */
    atomic_store(&t->stop, false);
    atomic_store(&t->done, false);
    if (pthread_create(&t->thread, NULL, search_main, t) != 0) {
        forget_copies(t);
        t->kind = THINK_NONE;
        return false;
    }
    t->active = true;
    return true;
}

bool think_start(Thinker *t, const TgGame *game, ThinkKind kind, const TgSearchLimits *limits,
                 unsigned version) {
    think_cancel(t);
    t->game = tg_game_clone(game);
    if (!t->game) return false;
    t->limits = *limits;
    t->limits.stop = &t->stop;
    return launch(t, kind, version);
}

bool think_start_opening(Thinker *t, const TgOpening *op, const TgOpeningLimits *limits,
                         unsigned version) {
    think_cancel(t);
    t->opening = tg_opening_clone(op);
    if (!t->opening) return false;
    t->open_limits = *limits;
    t->open_limits.stop = &t->stop;
    return launch(t, THINK_OPENING, version);
}

static void join(Thinker *t) {
    pthread_join(t->thread, NULL);
    t->active = false;
    forget_copies(t);
}

bool think_finished(Thinker *t) {
    if (!t->active) return true;
    if (!atomic_load(&t->done)) return false;
    join(t);
    return true;
}

void think_cancel(Thinker *t) {
    if (!t->active) return;
    atomic_store(&t->stop, true);
    join(t);
    t->kind = THINK_NONE;
}

void think_hurry(Thinker *t) {
    if (t->active) atomic_store(&t->stop, true);
}

ThinkInfo think_live(Thinker *t) {
    pthread_mutex_lock(&t->lock);
    ThinkInfo copy = t->live;
    pthread_mutex_unlock(&t->lock);
    return copy;
}

ThinkInfo think_result_info(const Thinker *t) {
    const TgSearchResult *r = &t->result;
    ThinkInfo info = {.valid = true,
                      .depth = r->depth,
                      .seldepth = r->seldepth,
                      .score = r->score,
                      .nodes = r->nodes,
                      .time_ms = r->time_ms};
    info.nps = r->time_ms > 0 ? r->nodes * 1000 / (uint64_t)r->time_ms : 0;
    if (r->line_count > 0) {
        const TgPvLine *l = &r->lines[0];
        info.pv_length = l->length < TG_MAX_PV ? l->length : TG_MAX_PV;
        memcpy(info.pv, l->moves, sizeof info.pv[0] * (size_t)info.pv_length);
    }
    if (info.pv_length == 0 && !tg_point_is_pass(r->best)) {
        info.pv[0] = r->best;
        info.pv_length = 1;
    }
    return info;
}

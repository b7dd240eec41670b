/*
 * control.c — what happens after a change to a live game, decided in one place: a new version
 * (so searches of the old position are void), the computer started when it is to act, the
 * clocks run or held, the row saved and a `game` event sent. The live games (game.c), the
 * opening phases (opening.c) and the workers (work.c) only change state and report; the
 * actions, the workers' results (through the pool's hooks) and the clock timer come here.
 */
#include <stdio.h>
#include <stdlib.h>

#include "serve.h"

void game_changed(Server *s, LiveGame *g) {
    g->version++;
    game_publish(s, g);
}

void game_publish(Server *s, LiveGame *g) {
    g->updated_ms = serve_wall_ms();
    work_start_move(s, g, false);
    game_sync_clock(g);
    game_save(s, g);
    json_t *j = game_json(g);
    char *data = j ? json_dumps(j, JSON_COMPACT) : NULL;
    if (data) feed_push(&g->feed, "game", data);
    free(data);
    json_decref(j);
}

LiveGame *control_get(Server *s, const char *id) {
    bool loaded;
    LiveGame *g = registry_get(s, id, &loaded);
    if (g && loaded) { /* back from the archive: its clock and computer carry on */
        pthread_mutex_lock(&g->lock);
        game_sync_clock(g);
        work_start_move(s, g, false);
        pthread_mutex_unlock(&g->lock);
    }
    return g;
}

bool control_check_time(Server *s, LiveGame *g) {
    if (!tg_game_check_time(g->game, tg_now_ms())) return false;
    game_cancel_search(g);
    g->draw_offer = g->undo_offer = TG_NOBODY;
    game_changed(s, g);
    return true;
}

/* ---- The workers' results ---- */

static void computer_moves(Server *s, LiveGame *g, const Job *job, const TgSearchResult *r) {
    const bool one_ply =
        job->limits.level == TG_LEVEL_EASY || job->limits.level == TG_LEVEL_BEGINNER;
    if (!one_ply && r->depth > 0) game_set_eval(g, job->ply, job->color, r->score, r->depth);
    game_cut_evals(g, job->ply);
    const TgError e = tg_game_play(g->game, r->best, tg_now_ms());
    g->draw_offer = g->undo_offer = TG_NOBODY;
    if (e != TG_OK && !tg_game_over(g->game)) {
        fprintf(stderr, "tengen: game %s: the computer's move failed: %s\n", g->id,
                tg_error_text(e));
        g->paused = true;
        game_sync_clock(g);
    }
    game_changed(s, g); /* which starts its next move when it plays both colours */
}

static void analysis_done(Server *s, LiveGame *g, const Job *job, const TgSearchResult *r) {
    if (r->depth <= 0 || r->line_count == 0) return;
    game_set_eval(g, job->ply, job->color, r->score, r->depth);
    game_publish(s, g); /* the position is the same: no new version */
}

/// The balanced start position arrived: the game begins from it. A failed search leaves the
/// board empty rather than the game waiting for ever.
static void balanced_done(Server *s, LiveGame *g, TgError err, const TgBalanced *b) {
    g->balancing = false;
    if (err != TG_OK || !opening_start_stones(g, b->stones))
        fprintf(stderr, "tengen: game %s: no balanced start position: %s\n", g->id,
                tg_error_text(err != TG_OK ? err : TG_ERR_ARGUMENT));
    game_changed(s, g);
}

void control_job_done(Server *s, LiveGame *g, const Job *job, const JobResult *res) {
    const bool current = g->version == job->version && !atomic_load(&s->quit);
    if (job->kind == JOB_BALANCED && !atomic_load(&s->quit)) { /* nothing else changes meanwhile */
        balanced_done(s, g, res->err, &res->balanced);
    } else if (current && res->err != TG_OK) {
        fprintf(stderr, "tengen: game %s: search failed: %s\n", g->id, tg_error_text(res->err));
        if (job->kind != JOB_ANALYSIS) { /* the game says why the computer waits */
            g->paused = true;
            snprintf(g->search_error, sizeof g->search_error, "%s", tg_error_text(res->err));
        }
        game_changed(s, g);
    } else if (current && job->kind == JOB_MOVE) {
        computer_moves(s, g, job, res->search);
    } else if (current && job->kind == JOB_OPENING) {
        opening_decided(g, &res->decision);
        game_changed(s, g);
    } else if (current) {
        analysis_done(s, g, job, res->search);
    }
}

/* ---- The clock timer ---- */

/// Ends on time every game whose side to move ran out, even when nobody asks about it.
static void tick(Server *s) {
    int n;
    LiveGame **all = registry_snapshot(s, &n);
    for (int i = 0; all && i < n; i++) {
        LiveGame *g = all[i];
        pthread_mutex_lock(&g->lock);
        control_check_time(s, g);
        pthread_mutex_unlock(&g->lock);
        registry_release(g);
    }
    free(all);
}

const PoolHooks CONTROL_HOOKS = {control_job_done, tick};

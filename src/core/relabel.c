/*
 * relabel.c — honest labels for the move ordering's training data. A tree sample (datagen.c)
 * names the move that proved best at a node of a search, but near the leaves the search tries
 * a move or two before one holds, so that move is mostly the one the ordering put first: data
 * that reward the ordering for agreeing with itself. Here each sampled position gets the best
 * move of a fresh root search of its own, which looks at every move, and the tuner learns from
 * that instead. With `scores` the same searches label the evaluation's values: each position
 * is written as training data with the search's score, so that the values learn what the
 * search finds in the positions it meets rather than in the games' own. Threads each take the
 * next line; one lock orders the reads and the writes.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tengen.h"
#include "dataset.h"
#include "keyset.h"
#include "treeline.h"

enum {
    RELABEL_NODES = 3000,   ///< a position: about 2-3 ms; 86% of its moves agree with 10,000's
    RELABEL_HASH = 4 << 20, ///< table bytes per engine
    RELABEL_LINE = 16384,   ///< the longest sample line (a 22x22 board's is under 4,000)
};

/// What the threads share; every field after `lock` is guarded by it.
typedef struct Relabel {
    const TgTreeRelabel *s;
    uint64_t nodes;
    TgDatagenProgress progress;
    void *user;
    int64_t start_ms;
    pthread_mutex_t lock;
    FILE *in, *out;
    int input;       ///< the file being read
    int line_number; ///< ... and its line
    const char *out_path;
    KeySet seen; ///< positions met so far
    int read;    ///< fresh positions handed out
    uint64_t written;
    TgError error;
    char message[320];
} Relabel;

static void fail(Relabel *r, TgError e, const char *what, const char *detail) {
    if (r->error != TG_OK) return;
    r->error = e;
    snprintf(r->message, sizeof r->message, "%s%s%s", what, detail ? ": " : "",
             detail ? detail : "");
}

static bool stopped(const Relabel *r) { return r->s->stop && atomic_load(r->s->stop); }

/// A position's key: its stones in the order played (the tuner needs the last moves too).
static uint64_t stones_key(const TreeLine *t) {
    uint64_t h = 0xcbf29ce484222325u;
    for (int i = 0; i < t->stones; i++)
        h = (h ^ (uint64_t)(t->stone[i].y * TG_MAX_SIZE + t->stone[i].x)) * 0x100000001b3u;
    return h ? h : 1;
}

/// Records a line that is not a sample, naming the file and line.
static void fail_line(Relabel *r, const char *line) {
    char where[256];
    snprintf(where, sizeof where, "%.200s line %d", r->s->inputs[r->input], r->line_number);
    fail(r, TG_ERR_PARSE, where,
         strlen(line) + 1 >= RELABEL_LINE ? "line too long" : "not a tree sample");
}

/// Reads the next sample of a position not met before into *t; false at the end of the inputs
/// or on an error (recorded). Under the lock.
static bool next_line(Relabel *r, char *line, TreeLine *t) {
    while (r->error == TG_OK && !stopped(r)) {
        if (!r->in) {
            if (r->input == r->s->input_count) return false;
            const char *path = r->s->inputs[r->input];
            if (!(r->in = fopen(path, "r")))
                return fail(r, TG_ERR_IO, path, strerror(errno)), false;
            r->line_number = 0;
        }
        if (!fgets(line, RELABEL_LINE, r->in)) {
            if (ferror(r->in)) fail(r, TG_ERR_IO, r->s->inputs[r->input], strerror(errno));
            fclose(r->in);
            r->in = NULL;
            r->input++;
            continue;
        }
        r->line_number++;
        if (strlen(line) + 1 >= RELABEL_LINE || !tree_line_parse(line, t))
            return fail_line(r, line), false;
        if (keyset_add(&r->seen, stones_key(t))) return r->read++, true;
    }
    return false;
}

/// The position of a sample, by the rules; NULL when it is not a legal one.
static TgGame *sample_game(const TreeLine *t) {
    TgGame *g = tg_game_new(t->rule, t->size, t->size);
    int bad;
    if (g && tg_game_set_moves(g, t->stone, t->stones, &bad) == TG_OK) return g;
    tg_game_free(g);
    return NULL;
}

static bool in_list(const TreeLine *t, TgPoint p) {
    for (int i = 0; i < t->moves; i++)
        if (t->move[i].x == p.x && t->move[i].y == p.y) return true;
    return false;
}

/// Writes a sample with its new best move, in the form it was read.
static bool write_sample(FILE *f, const TreeLine *t, TgPoint best) {
    char stones[4 * BOARD_CELLS + 1] = "-", moves[4 * BOARD_CELLS + 1], top[8];
    if (t->stones)
        tg_format_moves(t->stone, t->stones, t->size, t->size, "", stones, sizeof stones);
    tg_format_moves(t->move, t->moves, t->size, t->size, "", moves, sizeof moves);
    tg_point_to_text(best, t->size, t->size, top, sizeof top);
    return fprintf(f, "%s %d %d %s %s %s\n", tg_rule_name(t->rule), t->size, t->plies, stones, top,
                   moves) >= 0;
}

/// Writes a sample's position as a data game: its stones, then the best move with the search's
/// score (from the side to move's view); the stones carry no score. No result is known: a
/// draw stands in, and the tuner reads such data with lambda 0.
static bool write_scored(FILE *f, const TreeLine *t, TgPoint best, int score) {
    DataGame g = {.rule = (Rule)t->rule, .width = t->size, .height = t->size, .result = 2};
    for (int i = 0; i < t->stones; i++) {
        g.moves[i] = pos_make(t->stone[i].x, t->stone[i].y);
        g.score[i] = DATA_NO_SCORE;
    }
    g.moves[t->stones] = pos_make(best.x, best.y);
    g.score[t->stones] = dataset_score(score);
    g.count = t->stones + 1;
    return dataset_write(f, &g);
}

/// Searches one sample's position and writes it with the search's best move; a sample whose
/// position is not legal or whose best move is not on its list is left out.
static void relabel_line(Relabel *r, TgEngine *engine, const TreeLine *t) {
    TgGame *g = sample_game(t);
    if (!g) return;
    const TgSearchLimits limits = {.level = TG_LEVEL_MAX, .nodes = r->nodes, .stop = r->s->stop};
    TgSearchResult res;
    tg_engine_clear(engine);
    const bool found =
        tg_engine_search(engine, g, &limits, NULL, NULL, &res) == TG_OK && !stopped(r);
    tg_game_free(g);
    if (!found || !in_list(t, res.best)) return;
    pthread_mutex_lock(&r->lock);
    if (r->error == TG_OK) {
        if (!(r->s->scores ? write_scored(r->out, t, res.best, res.score)
                           : write_sample(r->out, t, res.best)))
            fail(r, TG_ERR_IO, r->out_path, strerror(errno));
        else if (++r->written, r->progress)
            r->progress(r->read, r->written, (double)(tg_now_ms() - r->start_ms) / 1000.0, r->user);
    }
    pthread_mutex_unlock(&r->lock);
}

typedef struct Labeller {
    Relabel *run;
    TgEngine *engine;
    char *line;
    TreeLine *sample;
} Labeller;

static void *labeller_main(void *arg) {
    Labeller *lb = arg;
    Relabel *r = lb->run;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        const bool more = next_line(r, lb->line, lb->sample);
        pthread_mutex_unlock(&r->lock);
        if (!more) return NULL;
        relabel_line(r, lb->engine, lb->sample);
    }
}

static void run_labellers(Relabel *r, int threads) {
    Labeller *lb = calloc((size_t)threads, sizeof *lb);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    int started = 0;
    bool ready = lb && tid;
    for (int i = 0; ready && i < threads; i++) {
        lb[i] = (Labeller){.run = r,
                           .engine = tg_engine_new(1, RELABEL_HASH),
                           .line = malloc(RELABEL_LINE),
                           .sample = malloc(sizeof(TreeLine))};
        ready = lb[i].engine && lb[i].line && lb[i].sample;
    }
    for (int i = 0; ready && i < threads; i++)
        started += pthread_create(&tid[i], NULL, labeller_main, &lb[i]) == 0;
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
    if (!ready || !started) fail(r, TG_ERR_MEMORY, "out of memory or threads", NULL);
    for (int i = 0; lb && i < threads; i++)
        tg_engine_free(lb[i].engine), free(lb[i].line), free(lb[i].sample);
    free(lb);
    free(tid);
}

TgError tg_tree_relabel(const TgTreeRelabel *s, const char *path, TgDatagenProgress progress,
                        void *user, char *err, size_t err_size) {
    if (!s || s->input_count < 1 || !s->inputs || s->threads < 0 || s->threads > TG_MAX_THREADS) {
        snprintf(err, err_size, "relabel: name one tree file or more, and 0..%d threads",
                 TG_MAX_THREADS);
        return TG_ERR_ARGUMENT;
    }
    Relabel r = {.s = s,
                 .nodes = s->nodes ? s->nodes : RELABEL_NODES,
                 .progress = progress,
                 .user = user,
                 .start_ms = tg_now_ms(),
                 .out_path = path};
    if (!(r.out = fopen(path, s->scores ? "ab" : "a"))) {
        snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return TG_ERR_IO;
    }
    pthread_mutex_init(&r.lock, NULL);
    run_labellers(&r, s->threads ? s->threads : 1);
    pthread_mutex_destroy(&r.lock);
    if (r.in) fclose(r.in);
    keyset_free(&r.seen);
    if (fclose(r.out) != 0) fail(&r, TG_ERR_IO, path, strerror(errno));
    if (r.error != TG_OK) snprintf(err, err_size, "%s", r.message);
    return r.error;
}

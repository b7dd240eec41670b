/*
 * datagen.c — training data for the evaluation tuner, written as .tgd records (dataset.h):
 * self-play games of the full engine at a fixed node budget a move from varied random
 * openings, or games played elsewhere with each position scored by the same search.
 * Threads each take whole games; one lock orders the appends and the counts.
 */
#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "game.h"
#include "keyset.h"
#include "rules.h"
#include "search.h"
#include "zobrist.h"

enum {
    DATAGEN_SIZE = 15,
    DATAGEN_NODES = 3000,   ///< a move: about 2-4 ms, deep enough to score positions well
    DATAGEN_RANDOM_MIN = 2, ///< random opening stones, both colours together
    DATAGEN_RANDOM_MAX = 6,
    DATAGEN_CHECK_NODES = 1000,  ///< the search that judges an opening's balance
    DATAGEN_BALANCE = 400,       ///< an opening scored beyond this is lopsided: drawn again
    DATAGEN_OPENING_TRIES = 100, ///< redraws before a lopsided opening is kept anyway
    DATAGEN_FIRST_RADIUS = 3,    ///< the first random stone: this near the centre
    DATAGEN_NEAR_RADIUS = 2,     ///< every later one: this near a stone already placed
    DATAGEN_HASH = 4 << 20,      ///< table bytes per engine (a few thousand nodes a search)
    /// A tree sample is kept for one node position in this many (by its hash, so that every
    /// visit of a kept position is kept): about one line per 400 nodes searched.
    DATAGEN_TREE_EVERY = 32,
};

/// What the threads share; every field after `lock` is guarded by it.
typedef struct Run {
    const TgDatagenSettings *s;
    const TgDataImport *import; ///< games to score instead of playing (tg_data_import)
    int width, height, random_min, random_max;
    uint64_t nodes;
    FILE *f;
    FILE *tree; ///< tree samples (settings' tree_path), or NULL
    const char *path;
    TgDatagenProgress progress;
    void *user;
    int64_t start_ms;
    pthread_mutex_t lock;
    int next_game; ///< games handed out
    int done;      ///< games written
    uint64_t positions;
    KeySet openings; ///< openings played in this run or found in its file (opening_key)
    TgError error;
    char message[256];
} Run;

typedef struct Player {
    Run *run;
    TgEngine *engine;
    DataGame *data;
} Player;

static void fail(Run *run, TgError e, const char *what) {
    pthread_mutex_lock(&run->lock);
    if (run->error == TG_OK) {
        run->error = e;
        snprintf(run->message, sizeof run->message, "%s", what);
    }
    pthread_mutex_unlock(&run->lock);
}

static bool stopped(const Run *run) { return run->s->stop && atomic_load(run->s->stop); }

/* ---- The random opening ---- */

static bool near(TgPoint a, TgPoint b, int radius) {
    return abs(a.x - b.x) <= radius && abs(a.y - b.y) <= radius;
}

/// Empty points where the next random stone may go: near the centre for the first, near a
/// stone already placed for the others.
static int opening_candidates(const TgGame *g, TgPoint *out) {
    const int w = tg_game_width(g), h = tg_game_height(g), ply = tg_game_ply(g);
    const TgPoint centre = {w / 2, h / 2};
    int n = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const TgPoint p = {x, y};
            if (tg_game_stone(g, p) != TG_NOBODY) continue;
            bool ok = ply == 0 && near(p, centre, DATAGEN_FIRST_RADIUS);
            for (int i = 0; i < ply && !ok; i++)
                ok = near(p, tg_game_move(g, i), DATAGEN_NEAR_RADIUS);
            if (ok) out[n++] = p;
        }
    return n;
}

/// Is p a fair random stone: no renju foul for Black, no five?
static bool fair_stone(TgGame *g, TgPoint p) {
    const Color me = board_to_move(&g->board);
    if (rules_makes_five(&g->board, game_pos(g, p), me)) return false;
    if (me == BLACK && tg_game_foul_at(g, p) != TG_FOUL_NONE) return false;
    return tg_game_check(g, p, NULL) == TG_OK;
}

/// Plays `count` random stones on the empty game. False when no fair point is left.
static bool random_stones(TgGame *g, int count, uint64_t *rng) {
    TgPoint cand[TG_MAX_SIZE * TG_MAX_SIZE];
    for (int k = 0; k < count; k++) {
        int n = opening_candidates(g, cand);
        for (;;) {
            if (n == 0) return false;
            const int i = (int)(splitmix64(rng) % (uint64_t)n);
            if (fair_stone(g, cand[i])) {
                if (tg_game_play(g, cand[i], 0) != TG_OK) return false;
                break;
            }
            cand[i] = cand[--n];
        }
    }
    return !tg_game_over(g);
}

/// An opening's stones (moves in turn, Black first) as a key, the same for their eight
/// symmetric images (a game from one plays as from the other, so it would add little).
static uint64_t opening_key(const Pos *moves, int count, int size) {
    uint64_t best = UINT64_MAX;
    for (int k = 0; k < 8; k++) {
        uint64_t key = 0;
        for (int i = 0; i < count; i++) {
            const TgPoint p = tg_point_transform(game_point(moves[i]), size, k);
            uint64_t stone = (uint64_t)((p.y * TG_MAX_SIZE + p.x) * 2 + (i & 1)) + 1;
            key += splitmix64(&stone); // a sum: the order of the stones does not matter
        }
        if (key < best) best = key;
    }
    return best ? best : 1;
}

/// Claims the opening of g for this game; false when another game of the run had it.
static bool claim_opening(Run *run, const TgGame *g) {
    const uint64_t key = opening_key(g->board.moves, g->board.ply, g->board.width);
    pthread_mutex_lock(&run->lock);
    const bool fresh = keyset_add(&run->openings, key);
    pthread_mutex_unlock(&run->lock);
    return fresh;
}

/// Draws random openings until one that no other game of the run had (up to symmetry) and
/// that a short search finds near balance (the last try is kept as it is). Leaves it in *g;
/// returns NULL, or why no opening was found.
static const char *balanced_opening(Player *pl, TgGame *g, uint64_t *rng) {
    Run *run = pl->run;
    const int span = run->random_max - run->random_min + 1;
    const TgSearchLimits check = {
        .level = TG_LEVEL_MAX, .nodes = DATAGEN_CHECK_NODES, .stop = run->s->stop};
    for (int tries = 1; tries <= DATAGEN_OPENING_TRIES; tries++) {
        const int count = run->random_min + (int)(splitmix64(rng) % (uint64_t)span);
        tg_game_goto(g, 0); // the next play cuts the old opening off
        if (!random_stones(g, count, rng)) continue;
        if (tries == DATAGEN_OPENING_TRIES) return NULL;
        if (!claim_opening(run, g)) continue;
        TgSearchResult r;
        const TgError e = tg_engine_search(pl->engine, g, &check, NULL, NULL, &r);
        if (e != TG_OK) return tg_error_text(e);
        if (abs(r.score) <= DATAGEN_BALANCE) return NULL;
    }
    return "no fair random opening fits this board";
}

/* ---- One game ---- */

/// Starts the record of game g (its opening played): the random stones, with no score.
static void record_opening(const Run *run, const TgGame *g, DataGame *d) {
    *d = (DataGame){.rule = run->s->rule,
                    .width = run->width,
                    .height = run->height,
                    .result = TG_NOBODY,
                    .count = tg_game_ply(g)};
    for (int i = 0; i < d->count; i++) {
        d->moves[i] = game_pos(g, tg_game_move(g, i));
        d->score[i] = DATA_NO_SCORE;
    }
}

/// Plays the game on to its end, recording each engine move with its score and the result.
/// Returns NULL, or what went wrong.
static const char *play_out(Player *pl, TgGame *g, DataGame *d) {
    const Run *run = pl->run;
    const TgSearchLimits limits = {
        .level = TG_LEVEL_MAX, .nodes = run->nodes, .stop = run->s->stop};
    while (!stopped(run)) {
        if (d->count == run->width * run->height) return NULL; // a full board: a draw
        TgSearchResult r;
        const TgError e = tg_engine_search(pl->engine, g, &limits, NULL, NULL, &r);
        if (e != TG_OK) return tg_error_text(e);
        if (tg_point_is_pass(r.best)) return NULL; // no legal move: a draw
        const TgColor me = tg_game_to_move(g);
        if (tg_game_play(g, r.best, 0) != TG_OK) return "the engine chose an illegal move";
        d->moves[d->count] = game_pos(g, r.best);
        d->score[d->count++] = dataset_score(r.score);
        if (tg_game_over(g)) {
            d->result = tg_game_result(g).winner;
            return NULL;
        }
        /* A forced result: the rest of the game teaches nothing new (adjudicated). */
        if (abs(r.score) >= TG_SCORE_WIN_MIN) {
            d->result = r.score > 0 ? me : (TgColor)(me ^ 1);
            return NULL;
        }
    }
    return NULL;
}

/// The end of game `index`: false when it was not finished, stopped or failed (the fault,
/// when there is one, reported to the run).
static bool game_done(Run *run, int index, const char *fault) {
    if (stopped(run)) return false;
    if (fault) {
        char what[200];
        snprintf(what, sizeof what, "game %d: %s", index + 1, fault);
        fail(run, TG_ERR_MEMORY, what);
    }
    return !fault;
}

/// Plays game `index` into pl->data. False when it was not finished: stopped, or a failure
/// (reported to the run).
static bool play_game(Player *pl, int index) {
    Run *run = pl->run;
    /* Game i's stream follows from the seed, the rule and i, so that runs of other rules with
     * one seed differ (with threads, which openings are taken first also counts). */
    uint64_t rng =
        (run->s->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)index * 0xd1b54a32d192ed03ULL) ^
        ((uint64_t)run->s->rule + 1) * 0xbf58476d1ce4e5b9ULL;
    TgGame *g = tg_game_new(run->s->rule, run->width, run->height);
    if (!g) return fail(run, TG_ERR_MEMORY, "out of memory"), false;
    tg_engine_clear(pl->engine);
    const char *fault = balanced_opening(pl, g, &rng);
    if (!fault) {
        record_opening(run, g, pl->data);
        tg_engine_clear(pl->engine); // the game's searches do not see the opening check's
        fault = play_out(pl, g, pl->data);
    }
    tg_game_free(g);
    return game_done(run, index, fault);
}

/* ---- Threads ---- */

static int scored_moves(const DataGame *d) {
    int n = 0;
    for (int i = 0; i < d->count; i++) n += d->score[i] != DATA_NO_SCORE;
    return n;
}

/// Takes the next game number; -1 when all are handed out or the run is over.
static int next_game(Run *run) {
    pthread_mutex_lock(&run->lock);
    const int index = run->error == TG_OK && !stopped(run) && run->next_game < run->s->games
                          ? run->next_game++
                          : -1;
    pthread_mutex_unlock(&run->lock);
    return index;
}

static void save_game(Run *run, const DataGame *d) {
    pthread_mutex_lock(&run->lock);
    if (run->error == TG_OK) {
        if (!dataset_write(run->f, d)) {
            run->error = TG_ERR_IO;
            snprintf(run->message, sizeof run->message, "%s: cannot write: %s", run->path,
                     strerror(errno));
        } else {
            run->done++;
            run->positions += (uint64_t)scored_moves(d);
            if (run->progress)
                run->progress(run->done, run->positions,
                              (double)(tg_now_ms() - run->start_ms) / 1000.0, run->user);
        }
    }
    pthread_mutex_unlock(&run->lock);
}

/// Replays src, writing into d the search score of each position after the book. NULL, or
/// what went wrong.
static const char *search_scores(Player *pl, const TgGame *src, int book, DataGame *d) {
    const Run *run = pl->run;
    const TgSearchLimits limits = {
        .level = TG_LEVEL_MAX, .nodes = run->nodes, .stop = run->s->stop};
    TgGame *g = tg_game_new(d->rule, d->width, d->height);
    if (!g) return "out of memory";
    tg_engine_clear(pl->engine);
    const char *fault = NULL;
    for (int i = 0; i < d->count && !fault && !stopped(run); i++) {
        TgSearchResult r;
        if (i >= book) {
            const TgError e = tg_engine_search(pl->engine, g, &limits, NULL, NULL, &r);
            if (e != TG_OK)
                fault = tg_error_text(e);
            else
                d->score[i] = dataset_score(r.score);
        }
        if (!fault && tg_game_play(g, tg_game_move(src, i), 0) != TG_OK)
            fault = "a move the rules refuse";
    }
    tg_game_free(g);
    return fault;
}

/// Scores game `index` of the import into pl->data: its own moves and result, each move after
/// the book with its given score or the search score of the position before it. False when
/// it was not finished.
static bool score_game(Player *pl, int index) {
    Run *run = pl->run;
    const TgGame *src = run->import->games[index];
    const int book = run->import->book ? run->import->book[index] : 0;
    const int *given = run->import->scores ? run->import->scores[index] : NULL;
    DataGame *d = pl->data;
    *d = (DataGame){.rule = tg_game_rule(src),
                    .width = tg_game_width(src),
                    .height = tg_game_height(src),
                    .result = tg_game_result(src).winner,
                    .count = tg_game_ply(src)};
    for (int i = 0; i < d->count; i++) {
        d->moves[i] = game_pos(src, tg_game_move(src, i));
        d->score[i] = i >= book && given ? dataset_score(given[i - book]) : DATA_NO_SCORE;
    }
    return game_done(run, index, given ? NULL : search_scores(pl, src, book, d));
}

static void *player_main(void *arg) {
    Player *pl = arg;
    for (int index; (index = next_game(pl->run)) >= 0;)
        if (pl->run->import ? score_game(pl, index) : play_game(pl, index))
            save_game(pl->run, pl->data);
    return NULL;
}

static TgError check_settings(const TgDatagenSettings *s, const char **why) {
    const int size = s->size ? s->size : DATAGEN_SIZE;
    const int rmax = s->random_max ? s->random_max : DATAGEN_RANDOM_MAX;
    const int rmin = s->random_max ? s->random_min : DATAGEN_RANDOM_MIN;
    *why = (unsigned)s->rule >= TG_RULE_COUNT              ? "unknown rule"
           : size < TG_MIN_SIZE || size > TG_MAX_SIZE      ? "board size out of range"
           : s->games < 1                                  ? "games must be at least 1"
           : s->threads < 0 || s->threads > TG_MAX_THREADS ? "threads out of range"
           : rmin < 0 || rmin > rmax || rmax > size * size / 4
               ? "random stones out of range (at most a quarter of the board)"
               : NULL;
    return *why ? TG_ERR_ARGUMENT : TG_OK;
}

/// Puts the openings of the games already in the run's file (of its rule and size) into the
/// run's set, so that a run appending to a file plays new ones. A malformed file is refused.
static TgError known_openings(Run *run, char *err, size_t err_size) {
    FILE *f = fopen(run->path, "rb");
    if (!f) return TG_OK; // a new file
    const bool empty = fseek(f, 0, SEEK_END) != 0 || ftell(f) <= 0;
    fclose(f);
    if (empty) return TG_OK;
    DataReader *r = dataset_open(run->path, err, err_size);
    DataGame *d = malloc(sizeof *d);
    int got = r && d ? 1 : -1;
    while (got == 1 && (got = dataset_next(r, d, err, err_size)) == 1) {
        if (d->rule != run->s->rule || d->width != run->width || d->height != run->height) continue;
        int n = 0;
        while (n < d->count && d->score[n] == DATA_NO_SCORE) n++;
        keyset_add(&run->openings, opening_key(d->moves, n, run->width));
    }
    free(d);
    dataset_close(r);
    if (got < 0 && r && !d) snprintf(err, err_size, "out of memory");
    return got < 0 ? TG_ERR_PARSE : TG_OK;
}

/// A tree sample (TreeSampler): "RULE SIZE PLIES STONES BEST MOVES", the stones in the order
/// played and the node's move list as the search generated it, in h8 notation without spaces.
static void sample_node(void *user, const Board *b, const Pos *moves, int count, Pos best,
                        int plies) {
    Run *run = user;
    if ((b->hash >> 17) % DATAGEN_TREE_EVERY || count < 2) return;
    TgPoint pts[BOARD_CELLS];
    for (int i = 0; i < b->ply; i++) {
        if (b->moves[i] == POS_PASS) return; /* not a position the tuner replays */
        pts[i] = game_point(b->moves[i]);
    }
    char stones[4 * BOARD_CELLS + 1], list[4 * BOARD_CELLS + 1], top[8];
    const TgPoint best_point = game_point(best);
    tg_format_moves(pts, b->ply, b->width, b->height, "", stones, sizeof stones);
    for (int i = 0; i < count; i++) pts[i] = game_point(moves[i]);
    tg_format_moves(pts, count, b->width, b->height, "", list, sizeof list);
    tg_point_to_text(best_point, b->width, b->height, top, sizeof top);
    pthread_mutex_lock(&run->lock);
    fprintf(run->tree, "%s %d %d %s %s %s\n", tg_rule_name(b->rule), b->width, plies,
            b->ply ? stones : "-", top, list);
    pthread_mutex_unlock(&run->lock);
}

/// Plays the run's games on `threads` threads, one engine each.
static void run_players(Run *run, int threads) {
    Player *pl = calloc((size_t)threads, sizeof *pl);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    bool *started = calloc((size_t)threads, sizeof *started);
    bool ready = pl && tid && started;
    for (int i = 0; ready && i < threads; i++) {
        pl[i].run = run;
        pl[i].engine = tg_engine_new(1, DATAGEN_HASH);
        pl[i].data = malloc(sizeof *pl[i].data);
        ready = pl[i].engine && pl[i].data;
        if (ready && run->tree) engine_set_tree_sampler(pl[i].engine, sample_node, run);
    }
    if (!ready) fail(run, TG_ERR_MEMORY, "out of memory");
    for (int i = 0; ready && i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, player_main, &pl[i]) == 0;
    for (int i = 0; ready && i < threads; i++)
        if (started[i]) pthread_join(tid[i], NULL);
    if (ready && !started[0]) fail(run, TG_ERR_MEMORY, "cannot start a thread");
    for (int i = 0; pl && i < threads; i++) {
        tg_engine_free(pl[i].engine);
        free(pl[i].data);
    }
    free(pl);
    free(tid);
    free(started);
}

static TgError run_into_file(Run *run, char *err, size_t err_size);

TgError tg_datagen(const TgDatagenSettings *s, const char *path, TgDatagenProgress progress,
                   void *user, char *err, size_t err_size) {
    const char *why;
    if (check_settings(s, &why) != TG_OK) {
        snprintf(err, err_size, "%s", why);
        return TG_ERR_ARGUMENT;
    }
    Run run = {.s = s,
               .width = s->size ? s->size : DATAGEN_SIZE,
               .random_min = s->random_max ? s->random_min : DATAGEN_RANDOM_MIN,
               .random_max = s->random_max ? s->random_max : DATAGEN_RANDOM_MAX,
               .nodes = s->nodes ? s->nodes : DATAGEN_NODES,
               .path = path,
               .progress = progress,
               .user = user,
               .start_ms = tg_now_ms()};
    run.height = run.width;
    const TgError e = known_openings(&run, err, err_size);
    if (e != TG_OK) {
        keyset_free(&run.openings);
        return e;
    }
    return run_into_file(&run, err, err_size);
}

/// Runs the players with their games appended to run->path; frees the run's opening set.
static TgError run_into_file(Run *run, char *err, size_t err_size) {
    if (!(run->f = fopen(run->path, "ab"))) {
        snprintf(err, err_size, "%s: %s", run->path, strerror(errno));
        keyset_free(&run->openings);
        return TG_ERR_IO;
    }
    const char *tree_path = run->s->tree_path;
    if (tree_path && !(run->tree = fopen(tree_path, "a"))) {
        snprintf(err, err_size, "%s: %s", tree_path, strerror(errno));
        fclose(run->f);
        keyset_free(&run->openings);
        return TG_ERR_IO;
    }
    pthread_mutex_init(&run->lock, NULL);
    run_players(run, run->s->threads > 0 ? run->s->threads : 1);
    pthread_mutex_destroy(&run->lock);
    keyset_free(&run->openings);
    if (fclose(run->f) != 0 && run->error == TG_OK) {
        run->error = TG_ERR_IO;
        snprintf(run->message, sizeof run->message, "%s: cannot write: %s", run->path,
                 strerror(errno));
    }
    if (run->tree && fclose(run->tree) != 0 && run->error == TG_OK) {
        run->error = TG_ERR_IO;
        snprintf(run->message, sizeof run->message, "%s: cannot write: %s", tree_path,
                 strerror(errno));
    }
    if (run->error != TG_OK) snprintf(err, err_size, "%s", run->message);
    return run->error;
}

/* ---- Games played elsewhere ---- */

/// Why game g cannot be data, or NULL: it must have ended at a five or in a draw, with no pass,
/// its book must lie within it and its given scores (if any) within the scale.
static const char *import_fault(const TgGame *g, int book, const int *scores) {
    const TgReason why = tg_game_result(g).reason;
    const int length = tg_game_ply(g);
    if (why != TG_REASON_FIVE && why != TG_REASON_FULL_BOARD && why != TG_REASON_AGREEMENT)
        return "the game did not end at a five or in a draw";
    for (int i = 0; i < length; i++)
        if (tg_point_is_pass(tg_game_move(g, i))) return "a pass, which data cannot hold";
    if (book < 0 || book > length) return "the book is longer than the game";
    for (int i = book; scores && i < length; i++)
        if (abs(scores[i - book]) > TG_SCORE_WIN) return "a score beyond the scale";
    return NULL;
}

/// Takes the scores off "MOVE:SCORE" words in place (blanking them), into a malloc'd array in
/// *scores (*count of them); NULL there when no word has one. NULL, or why not: only some words
/// have one, or a score is not a number within the scale.
static const char *take_scores(char *moves, int **scores, int *count, char *err, size_t err_size) {
    *scores = NULL;
    *count = 0;
    if (!strchr(moves, ':')) return NULL;
    int *out = malloc(sizeof *out * MAX_PLY), n = 0, words = 0;
    if (!out) return "out of memory";
    for (char *w = moves + strspn(moves, " \t\r,"); *w; w += strspn(w, " \t\r,")) {
        const size_t len = strcspn(w, " \t\r,");
        char *colon = memchr(w, ':', len), *end = NULL;
        words++;
        if (colon && n < MAX_PLY) {
            const long v = strtol(colon + 1, &end, 10);
            if (end == colon + 1 || end != w + len || v < -TG_SCORE_WIN || v > TG_SCORE_WIN) {
                snprintf(err, err_size,
                         "a bad score in '%.*s' (a whole number, at most %d either way)",
                         (int)(len > 40 ? 40 : len), w, TG_SCORE_WIN);
                return free(out), err;
            }
            out[n++] = (int)v;
            memset(colon, ' ', (size_t)(end - colon));
        }
        w += len;
    }
    if (n != words) {
        snprintf(err, err_size, "a score on %d of the %d moves after the book: all or none", n,
                 words);
        return free(out), err;
    }
    *scores = out;
    *count = n;
    return NULL;
}

/// Reads the book (the moves before the bar) to count it.
static const char *count_book(char *line, char *bar, int size, int *book, char *err,
                              size_t err_size) {
    TgPoint moves[MAX_PLY];
    char why[200];
    *bar = '\0';
    const TgError e = tg_parse_moves(line, size, size, moves, MAX_PLY, book, why, sizeof why);
    *bar = ' ';
    if (e == TG_OK) return NULL;
    snprintf(err, err_size, "the book: %s", why);
    return err;
}

TgGame *tg_data_import_line(const char *text, TgRule rule, int size, int *book, int **scores,
                            char *err, size_t err_size) {
    *book = 0;
    *scores = NULL;
    char *line = strdup(text);
    if (!line) return snprintf(err, err_size, "out of memory"), NULL;
    char *bar = strchr(line, '|');
    int scored = 0;
    const char *fault = take_scores(bar ? bar + 1 : line, scores, &scored, err, err_size);
    if (!fault && bar) fault = count_book(line, bar, size, book, err, err_size);
    TgGame *g = NULL;
    if (!fault && (g = tg_record_read(TG_FORMAT_MOVES, line, strlen(line), rule, size, err,
                                      err_size)) == NULL)
        fault = err;
    if (!fault && *scores && scored != tg_game_ply(g) - *book) {
        snprintf(err, err_size, "%d scores for %d moves after the book", scored,
                 tg_game_ply(g) - *book);
        fault = err;
    }
    free(line);
    if (fault) {
        tg_game_free(g);
        free(*scores);
        *scores = NULL;
        if (fault != err) snprintf(err, err_size, "%s", fault);
        return NULL;
    }
    return g;
}

TgError tg_data_import(const TgDataImport *im, const char *path, TgDatagenProgress progress,
                       void *user, char *err, size_t err_size) {
    const char *bad = im->count < 1 || !im->games                       ? "no games"
                      : im->threads < 0 || im->threads > TG_MAX_THREADS ? "threads out of range"
                                                                        : NULL;
    if (bad) {
        snprintf(err, err_size, "%s", bad);
        return TG_ERR_ARGUMENT;
    }
    for (int i = 0; i < im->count; i++) {
        const char *why = import_fault(im->games[i], im->book ? im->book[i] : 0,
                                       im->scores ? im->scores[i] : NULL);
        if (why) {
            snprintf(err, err_size, "game %d: %s", i + 1, why);
            return TG_ERR_ARGUMENT;
        }
    }
    const TgDatagenSettings s = {.games = im->count, .threads = im->threads, .stop = im->stop};
    Run run = {.s = &s,
               .import = im,
               .nodes = im->nodes ? im->nodes : DATAGEN_NODES,
               .path = path,
               .progress = progress,
               .user = user,
               .start_ms = tg_now_ms()};
    return run_into_file(&run, err, err_size);
}

/* ---- Checking a data file ---- */

/// Replays game d by its rule on b; NULL when it is sound, else the fault and, in *bad, the
/// move (-1: the result).
static const char *replay_fault(Board *b, const DataGame *d, bool *adjudicated, int *bad) {
    board_init(b, d->rule, d->width, d->height);
    bool five = false;
    *adjudicated = false;
    for (int i = 0; i < d->count; i++) {
        *bad = i;
        if (five) return "a move after a five";
        const Pos p = d->moves[i];
        const Color me = board_to_move(b);
        if (d->rule == TG_RENJU && me == BLACK && renju_foul(b, p) != TG_FOUL_NONE)
            return "a renju foul";
        five = rules_makes_five(b, p, me);
        board_play(b, p);
    }
    *bad = -1;
    const int last = d->count - 1;
    if (five) return d->result == last % 2 ? NULL : "the result is not the five's winner";
    if (d->result == TG_NOBODY) return NULL;
    const int s = last >= 0 ? d->score[last] : 0;
    *adjudicated = s != DATA_NO_SCORE && abs(s) >= TG_SCORE_WIN_MIN &&
                   d->result == (s > 0 ? last % 2 : 1 - last % 2);
    return *adjudicated ? NULL : "a result that neither a five nor the last score explains";
}

TgError tg_data_summary(const char *path, TgDataSummary *out, char *err, size_t err_size) {
    memset(out, 0, sizeof *out);
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return TG_ERR_IO;
    }
    fclose(probe);
    DataReader *r = dataset_open(path, err, err_size);
    if (!r) return TG_ERR_PARSE;
    DataGame *d = malloc(sizeof *d);
    Board *b = malloc(sizeof *b);
    TgError e = d && b ? TG_OK : TG_ERR_MEMORY;
    int got;
    while (e == TG_OK && (got = dataset_next(r, d, err, err_size)) != 0) {
        if (got < 0) {
            e = TG_ERR_PARSE;
            break;
        }
        bool adjudicated;
        int bad;
        const char *fault = replay_fault(b, d, &adjudicated, &bad);
        if (fault) {
            if (bad >= 0)
                snprintf(err, err_size, "%s: offset %lld: game %lld, move %d: %s", path,
                         dataset_game_offset(r), (long long)out->games + 1, bad + 1, fault);
            else
                snprintf(err, err_size, "%s: offset %lld: game %lld: %s", path,
                         dataset_game_offset(r), (long long)out->games + 1, fault);
            e = TG_ERR_PARSE;
            break;
        }
        out->games++;
        out->moves += d->count;
        for (int i = 0; i < d->count; i++) out->positions += d->score[i] != DATA_NO_SCORE;
        out->results[d->result]++;
        out->adjudicated += adjudicated;
        out->rules[d->rule]++;
    }
    if (e == TG_ERR_MEMORY) snprintf(err, err_size, "out of memory");
    free(d);
    free(b);
    dataset_close(r);
    return e;
}

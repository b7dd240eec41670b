/*
 * zero.c — the zero level's public pieces outside the search: the built-in model, batch
 * evaluation for tools and tests, and self-play games written as training records
 * (docs/zero.md).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"
#include "game.h"
#include "mcts.h"
#include "nn.h"
#include "pattern.h"
#include "search.h"
#include "timeman.h"

enum {
    SELFPLAY_PLAYOUTS = 400,
    SELFPLAY_BATCH = 8,
    RECORD_VERSION = 1,
    RECORD_MAGIC = 0x50534754, ///< "TGSP" read as a little-endian word
};

static const float SELFPLAY_C = 1.5f;
static const float SELFPLAY_ALPHA = 0.3f;
static const float SELFPLAY_EPS = 0.25f;

/* ---- The built-in model ---- */

enum { MAX_EMBEDDED = 8 };

typedef struct Builtin {
    pthread_once_t once;
    TgModel *model[MAX_EMBEDDED]; ///< parsed once, immutable afterwards
} Builtin;

static Builtin builtin = {.once = PTHREAD_ONCE_INIT};

static void load_builtin(void) {
    char err[160];
    for (int i = 0; i < TG_EMBEDDED_MODELS_COUNT && i < MAX_EMBEDDED; i++)
        builtin.model[i] =
            tg_model_read(TG_EMBEDDED_MODELS[i].data, TG_EMBEDDED_MODELS[i].len, err, sizeof err);
}

const TgModel *tg_model_builtin(TgRule rule, int size) {
    pthread_once(&builtin.once, load_builtin);
    for (int i = 0; i < TG_EMBEDDED_MODELS_COUNT && i < MAX_EMBEDDED; i++) {
        const TgModel *m = builtin.model[i];
        if (m && m->rule == rule && m->size == size) return m;
    }
    return NULL;
}

const TgModel *tg_model_for(const TgModel *model, TgRule rule, int width, int height) {
    if (width != height) return NULL;
    const TgModel *m = model ? model : tg_model_builtin(rule, width);
    return m && m->size == width && m->rule == rule ? m : NULL;
}

/* ---- Evaluation for tools ---- */

TgError tg_model_evaluate(const TgModel *m, const TgGame *const *games, int count, float *policy,
                          float *value, float *draw) {
    const int cells = m->size * m->size;
    for (int k = 0; k < count; k++)
        if (games[k]->board.width != m->size || games[k]->board.height != m->size)
            return TG_ERR_MODEL;
    float *planes = malloc(sizeof(float) * NN_PLANES * (size_t)cells * (size_t)(count ? count : 1));
    float *scratch = malloc(sizeof(float) * nn_scratch_floats(m));
    if (!planes || !scratch) {
        free(planes);
        free(scratch);
        return TG_ERR_MEMORY;
    }
    for (int k = 0; k < count; k++)
        nn_features(&games[k]->board, planes + (size_t)k * NN_PLANES * cells);
    nn_forward(m, planes, count, policy, value, draw, scratch);
    for (int k = 0; k < count; k++) { // softmax over the empty points
        const Board *b = &games[k]->board;
        float *p = policy + (size_t)k * cells, top = -1e30f, sum = 0;
        for (int q = 0; q < cells; q++)
            if (board_empty(b, pos_make(q % m->size, q / m->size)) && p[q] > top) top = p[q];
        for (int q = 0; q < cells; q++) {
            p[q] = board_empty(b, pos_make(q % m->size, q / m->size)) ? expf(p[q] - top) : 0;
            sum += p[q];
        }
        for (int q = 0; q < cells && sum > 0; q++) p[q] /= sum;
    }
    free(planes);
    free(scratch);
    return TG_OK;
}

double tg_mcts_playout_rate(TgRule rule, int size, int64_t ms, uint64_t seed) {
    Board *b = malloc(sizeof *b);
    if (!b) return 0;
    board_init(b, rule, size, size);
    const double rate = mcts_playout_rate(b, ms, seed);
    free(b);
    return rate;
}

/* ---- Self-play records ---- */

typedef struct Buffer {
    unsigned char *data;
    size_t len, cap;
    bool failed;
} Buffer;

static void put_bytes(Buffer *b, const void *p, size_t n) {
    if (b->failed) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n) cap *= 2;
        unsigned char *grown = realloc(b->data, cap);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->data = grown, b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put16(Buffer *b, unsigned v) {
    const unsigned char p[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    put_bytes(b, p, 2);
}

static void put32le(Buffer *b, uint32_t v) {
    const unsigned char p[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                                (unsigned char)(v >> 24)};
    put_bytes(b, p, 4);
}

static unsigned point_index(Pos p, int size) { return (unsigned)(pos_y(p) * size + pos_x(p)); }

/// One move of the record: the move, then the root's visit counts (children with visits).
static void record_move(Buffer *out, const MctsResult *r, Pos move, int size) {
    int k = 0;
    for (int i = 0; i < r->child_count; i++) k += r->children[i].visits > 0;
    put16(out, point_index(move, size));
    if (r->proven_win) {
        put16(out, 1);
        put16(out, point_index(move, size));
        put16(out, 1);
        return;
    }
    put16(out, (unsigned)k);
    for (int i = 0; i < r->child_count; i++) {
        if (r->children[i].visits <= 0) continue;
        put16(out, point_index(r->children[i].move, size));
        put16(out, r->children[i].visits > 65535 ? 65535u : (unsigned)r->children[i].visits);
    }
}

/// The move to play: drawn in proportion to the visits while `draw`, else the most visited.
static Pos pick_move(const MctsResult *r, bool draw, uint64_t *rng) {
    if (!draw || r->proven_win || r->child_count == 0) return r->best;
    long total = 0;
    for (int i = 0; i < r->child_count; i++) total += r->children[i].visits;
    long x = (long)((mcts_rng_next(rng) >> 11) % (uint64_t)(total > 0 ? total : 1));
    for (int i = 0; i < r->child_count; i++) {
        x -= r->children[i].visits;
        if (x < 0) return r->children[i].move;
    }
    return r->best;
}

void *tg_zero_selfplay(const TgModel *m, const TgZeroSettings *s, size_t *len, int *moves,
                       TgColor *winner) {
    const int size = m->size;
    Board *b = malloc(sizeof *b);
    Mcts *t = mcts_new();
    Buffer out = {0};
    Buffer body = {0};
    if (!b || !t) goto fail;
    board_init(b, m->rule, size, size);
    uint64_t rng = s->seed * 0x9e3779b97f4a7c15ULL + 77;
    const int temp_moves = s->temperature_moves > 0 ? s->temperature_moves : size * size / 8;
    MctsParams p = {.zero = true,
                    .model = m,
                    .playouts = (uint64_t)(s->playouts > 0 ? s->playouts : SELFPLAY_PLAYOUTS),
                    .optimum_ns = INT64_MAX,
                    .maximum_ns = INT64_MAX,
                    .threads = s->threads > 0 ? s->threads : 1,
                    .batch = s->batch > 0 ? s->batch : SELFPLAY_BATCH,
                    .c = SELFPLAY_C,
                    .noise_alpha = s->noise_alpha > 0 ? s->noise_alpha : SELFPLAY_ALPHA,
                    .noise_eps = s->noise_eps < 0   ? 0
                                 : s->noise_eps > 0 ? s->noise_eps
                                                    : SELFPLAY_EPS,
                    .keep_tree = true};
    TgColor win = TG_NOBODY;
    int count = 0;
    for (;;) {
        p.start_ns = tm_now_ns();
        p.seed = rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        MctsResult r;
        if (!mcts_search(t, b, &p, &r)) { // no legal move: a draw
            free(r.children);
            break;
        }
        const Pos q = pick_move(&r, b->stone_count < temp_moves, &rng);
        record_move(&body, &r, q, size);
        free(r.children);
        count++;
        const Color me = board_to_move(b);
        if ((b->threat[q][me] & THREAT_CLASS_MASK) == THREAT_FIVE) {
            win = (TgColor)me;
            break;
        }
        board_play(b, q);
        if (b->stone_count == size * size) break;
    }
    put32le(&out, RECORD_MAGIC);
    const unsigned char head[4] = {RECORD_VERSION, (unsigned char)size, (unsigned char)m->rule,
                                   (unsigned char)win};
    put_bytes(&out, head, 4);
    put16(&out, (unsigned)count);
    put_bytes(&out, body.data, body.len);
    put32le(&out, nn_crc32(out.data, out.len));
    if (out.failed || body.failed) goto fail;
    free(body.data);
    free(b);
    mcts_free(t);
    if (moves) *moves = count;
    if (winner) *winner = win;
    *len = out.len;
    return out.data;
fail:
    free(out.data);
    free(body.data);
    free(b);
    mcts_free(t);
    return NULL;
}

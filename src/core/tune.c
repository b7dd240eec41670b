/*
 * tune.c — `tengen tune`: learns the evaluation's weight tables (weights.h) from self-play
 * data (dataset.h), by logistic regression (docs/eval.md).
 *
 * Every scored position of the data is one sample. Its features are what eval_trained()
 * reads: the pattern codes of the candidate points (empty, within two cells of a stone), the
 * side to move's with its mover values and the opponent's with its waiter values, and the
 * threat mask. The evaluation is linear in the weights, so the model is
 *   P(side to move wins) = sigmoid(eval / scale)
 * and the tuner
 *   1. fits the scale: the K for which sigmoid(search score / K) best predicts the results;
 *   2. minimises the cross-entropy of sigmoid(eval / K) against the target
 *      lambda * result + (1 - lambda) * sigmoid(search score / K), with Adam on mini-batches and
 *      a small pull towards the starting weights (codes that seldom occur keep them).
 * Codes whose patterns are all at most FREE1 (no shape at all) stay 0. Rules that treat both
 * colours alike (all but renju) train one table for both. Positions the search settles
 * without evaluating (a five on the board for either side) and decided scores are left out.
 *
 * In C, inside tengen: the features come from the very code the engine evaluates with (no
 * second pattern classifier to keep in step), and a linear model needs nothing more.
 */
#include "../tengen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "dataset.h"
#include "eval.h"
#include "timeman.h"
#include "weights.h"

enum {
    CODE_PARAMS = 2 * 2 * PCODE_COUNT, ///< [colour][role][code]; colour 0 only when shared
    PARAMS = CODE_PARAMS + MASK_COUNT,
    MINUS = 0x8000, ///< a feature counted negatively (the waiting side's)
};

typedef struct Sample {
    size_t start;  ///< its first feature; the next sample's start ends them
    float score;   ///< the search score
    float result;  ///< 1 win, 0.5 draw, 0 loss for the side to move
    bool held_out; ///< for validation
} Sample;

typedef struct Samples {
    Sample *sample;
    uint16_t *feature; ///< parameter index, | MINUS for the waiting side's codes
    size_t count, cap, feature_count, feature_cap;
} Samples;

static bool grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 1024;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * size);
    if (!q) return false;
    *p = q, *cap = n;
    return true;
}

static size_t features_end(const Samples *s, size_t i) {
    return i + 1 < s->count ? s->sample[i + 1].start : s->feature_count;
}

static bool shares_colours(Rule rule) { return rule != TG_RENJU; }

static int param_of(Rule rule, Color c, int role, int code) {
    return ((shares_colours(rule) ? 0 : c) * 2 + role) * PCODE_COUNT + code;
}

/// No shape at all: every pattern at most FREE1. Such codes are not trained.
static bool is_shapeless(const PcodeTables *t, int code) {
    return t->patterns[code][3] <= PAT_FREE1;
}

static bool near_a_stone(const Board *b, Pos p) {
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            const uint8_t c = b->cell[p + dy * BOARD_STRIDE + dx];
            if (c == BLACK || c == WHITE) return true;
        }
    return false;
}

/// The features of b's position into f (returns how many), or -1 when it is not a sample:
/// a five on the board for either side, which the search settles without evaluating.
static int features_of(const Board *b, uint16_t *f) {
    const Color me = board_to_move(b), them = (Color)(me ^ 1);
    const PcodeTables *t = b->tables->pcodes;
    int n = 0, mine = 0, theirs = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos p = pos_make(x, y);
            if (!board_empty(b, p) || !near_a_stone(b, p)) continue;
            const int tm = b->threat[p][me] & THREAT_CLASS_MASK;
            const int tt = b->threat[p][them] & THREAT_CLASS_MASK;
            if (tm == THREAT_FIVE || tt == THREAT_FIVE) return -1;
            mine |= weights_mask_bit(tm), theirs |= weights_mask_bit(tt);
            const int cm = pcode_of(t, b->pattern[p], me), ct = pcode_of(t, b->pattern[p], them);
            if (!is_shapeless(t, cm)) f[n++] = (uint16_t)param_of(b->rule, me, ROLE_MOVER, cm);
            if (!is_shapeless(t, ct))
                f[n++] = (uint16_t)(param_of(b->rule, them, ROLE_WAITER, ct) | MINUS);
        }
    f[n++] = (uint16_t)(CODE_PARAMS + (mine | theirs << MASK_SIDE_BITS));
    return n;
}

/// Adds b's position as a sample when it is one; false when out of memory.
static bool add_sample(Samples *s, const Board *b, float score, float result, bool held_out) {
    uint16_t f[2 * BOARD_CELLS + 1];
    const int n = features_of(b, f);
    if (n < 0) return true;
    if (!grow((void **)&s->feature, &s->feature_cap, s->feature_count + (size_t)n, sizeof *f) ||
        !grow((void **)&s->sample, &s->cap, s->count + 1, sizeof *s->sample))
        return false;
    memcpy(s->feature + s->feature_count, f, sizeof *f * (size_t)n);
    s->sample[s->count++] = (Sample){s->feature_count, score, result, held_out};
    s->feature_count += (size_t)n;
    return true;
}

/// The games of one file under `rule`, replayed: each scored, undecided position is a sample
/// (every 20th game held out for validation).
static bool read_file(Samples *s, const char *path, Rule rule, uint64_t *games, char *err,
                      size_t err_size) {
    DataReader *r = dataset_open(path, err, err_size);
    if (!r) return false;
    DataGame *g = malloc(sizeof *g);
    Board *b = malloc(sizeof *b);
    bool ok = g && b;
    int got = 0;
    while (ok && (got = dataset_next(r, g, err, err_size)) == 1) {
        if (g->rule != rule) continue;
        board_init(b, rule, g->width, g->height);
        const bool held_out = (*games)++ % 20 == 19;
        for (int i = 0; ok && i < g->count; i++) {
            const int score = g->score[i];
            if (score != DATA_NO_SCORE && abs(score) < TG_SCORE_WIN_MIN) {
                const int me = board_to_move(b);
                const float result = g->result == 2 ? 0.5f : g->result == me ? 1.0f : 0.0f;
                ok = add_sample(s, b, (float)score, result, held_out);
            }
            board_play(b, g->moves[i]);
        }
    }
    if (!ok) snprintf(err, err_size, "out of memory");
    free(g);
    free(b);
    dataset_close(r);
    return ok && got == 0;
}

/* ---- The model ---- */

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double cross_entropy(double p, double t) {
    const double e = 1e-9;
    p = p < e ? e : p > 1 - e ? 1 - e : p;
    return -(t * log(p) + (1 - t) * log(1 - p));
}

static double eval_of(const Samples *s, size_t i, const float *w) {
    double v = 0;
    for (size_t k = s->sample[i].start, end = features_end(s, i); k < end; k++) {
        const uint16_t f = s->feature[k];
        if (f & MINUS)
            v -= w[f & ~MINUS];
        else
            v += w[f];
    }
    return v;
}

static double target_of(const Sample *x, double scale, double lambda) {
    return lambda * x->result + (1 - lambda) * sigmoid(x->score / scale);
}

/// Mean cross-entropy over the held-out (or training) samples.
static double mean_loss(const Samples *s, const float *w, double scale, double lambda,
                        bool held_out) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++) {
        if (s->sample[i].held_out != held_out) continue;
        sum += cross_entropy(sigmoid(eval_of(s, i, w) / scale),
                             target_of(&s->sample[i], scale, lambda));
        n++;
    }
    return n ? sum / (double)n : 0;
}

/// 1. The K for which sigmoid(score / K) best predicts the results (golden-section search).
static double fit_scale(const Samples *s) {
    double lo = 20, hi = 3000;
    const double phi = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; it++) {
        const double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
        double la = 0, lb = 0;
        for (size_t i = 0; i < s->count; i++) {
            la += cross_entropy(sigmoid(s->sample[i].score / a), s->sample[i].result);
            lb += cross_entropy(sigmoid(s->sample[i].score / b), s->sample[i].result);
        }
        if (la < lb)
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

typedef struct Adam {
    float *w, *start, *grad, *m, *v;
    long step;
} Adam;

enum { ADAM_ARRAYS = 5 };
static const double ADAM_BETA1 = 0.9, ADAM_BETA2 = 0.999, ADAM_EPS = 1e-8;
/// Pull towards the starting weights, per unit of weight: codes seen a few times keep theirs.
static const double PULL = 1e-6;

static void adam_step(Adam *a, double rate) {
    a->step++;
    const double c1 = 1 - pow(ADAM_BETA1, (double)a->step),
                 c2 = 1 - pow(ADAM_BETA2, (double)a->step);
    for (int j = 0; j < PARAMS; j++) {
        const double g = a->grad[j] + PULL * (a->w[j] - a->start[j]);
        a->m[j] = (float)(ADAM_BETA1 * a->m[j] + (1 - ADAM_BETA1) * g);
        a->v[j] = (float)(ADAM_BETA2 * a->v[j] + (1 - ADAM_BETA2) * g * g);
        a->w[j] -= (float)(rate * (a->m[j] / c1) / (sqrt(a->v[j] / c2) + ADAM_EPS));
        a->grad[j] = 0;
    }
}

/// 2. One pass over the training samples in a random order; returns their mean loss.
static double train_epoch(const Samples *s, Adam *a, size_t *order, size_t n, double scale,
                          double lambda, double rate, int batch, uint64_t *rng) {
    for (size_t i = n; i > 1; i--) {
        const size_t j = next_random(rng) % i, t = order[i - 1];
        order[i - 1] = order[j], order[j] = t;
    }
    double loss = 0;
    for (size_t first = 0; first < n; first += (size_t)batch) {
        const size_t last = first + (size_t)batch < n ? first + (size_t)batch : n;
        for (size_t k = first; k < last; k++) {
            const size_t i = order[k];
            const double p = sigmoid(eval_of(s, i, a->w) / scale);
            const double t = target_of(&s->sample[i], scale, lambda);
            loss += cross_entropy(p, t);
            const float d = (float)((p - t) / scale / (double)(last - first));
            for (size_t f = s->sample[i].start, end = features_end(s, i); f < end; f++) {
                const uint16_t x = s->feature[f];
                if (x & MINUS)
                    a->grad[x & ~MINUS] -= d;
                else
                    a->grad[x] += d;
            }
        }
        adam_step(a, rate);
    }
    return n ? loss / (double)n : 0;
}

/* ---- Weights in and out ---- */

static void weights_to_params(const EvalWeights *w, float *p) {
    for (int c = 0; c < 2; c++)
        for (int role = 0; role < 2; role++)
            for (int code = 0; code < PCODE_COUNT; code++)
                p[(c * 2 + role) * PCODE_COUNT + code] = w->code[c][role][code];
    for (int m = 0; m < MASK_COUNT; m++) p[CODE_PARAMS + m] = w->mask[m];
}

static int16_t to_int16(double v) {
    v = round(v);
    return (int16_t)(v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : v);
}

static void params_to_weights(const float *p, Rule rule, int scale, EvalWeights *w) {
    for (int c = 0; c < 2; c++)
        for (int role = 0; role < 2; role++)
            for (int code = 0; code < PCODE_COUNT; code++)
                w->code[c][role][code] = to_int16(p[param_of(rule, (Color)c, role, code)]);
    for (int m = 0; m < MASK_COUNT; m++) w->mask[m] = to_int16(p[CODE_PARAMS + m]);
    w->scale = scale;
}

static bool start_weights(const TgTuneSettings *s, EvalWeights *w, char *err, size_t err_size) {
    if (s->start_text) return weights_parse(s->start_text, s->rule, w, err, err_size);
    if (s->from_seed)
        weights_from_seed(s->rule, w);
    else
        *w = *weights_builtin(s->rule);
    return true;
}

/* ---- The whole run ---- */

char *tg_tune(const TgTuneSettings *s, TgTuneCallback progress, void *user, char *err,
              size_t err_size) {
    const int batch = s->batch > 0 ? s->batch : 4096;
    const double rate = s->rate > 0 ? s->rate : 1.0;
    if (s->rule < 0 || s->rule >= TG_RULE_COUNT || s->epochs < 0 || s->lambda < 0 ||
        s->lambda > 1) {
        snprintf(err, err_size, "bad tuning settings");
        return NULL;
    }
    const int64_t t0 = tm_now_ns();
    Samples samples = {0};
    EvalWeights *w = malloc(sizeof *w);
    float *arrays = calloc((size_t)ADAM_ARRAYS * PARAMS, sizeof *arrays);
    size_t *order = NULL;
    char *text = NULL;
    bool ok = w && arrays && start_weights(s, w, err, err_size);
    if (!w || !arrays) snprintf(err, err_size, "out of memory");
    uint64_t games = 0;
    for (int i = 0; ok && i < s->data_count; i++) {
        char why[200];
        ok = read_file(&samples, s->data[i], s->rule, &games, why, sizeof why);
        if (!ok) snprintf(err, err_size, "%s", why);
    }
    if (ok && samples.count == 0 && s->epochs > 0) {
        snprintf(err, err_size, "no %s positions in the data", tg_rule_name(s->rule));
        ok = false;
    }
    size_t train = 0, held_out = 0;
    if (ok) {
        order = malloc(sizeof *order * (samples.count + 1));
        ok = order != NULL;
        for (size_t i = 0; ok && i < samples.count; i++)
            if (samples.sample[i].held_out)
                held_out++;
            else
                order[train++] = i;
    }
    if (ok) {
        Adam a = {
            arrays, arrays + PARAMS, arrays + 2 * PARAMS, arrays + 3 * PARAMS, arrays + 4 * PARAMS,
            0};
        weights_to_params(w, a.w);
        memcpy(a.start, a.w, sizeof(float) * PARAMS);
        const double scale = s->epochs ? fit_scale(&samples) : w->scale;
        uint64_t rng = s->seed;
        TgTuneProgress p = {.epochs = s->epochs,
                            .samples = train,
                            .valid_samples = held_out,
                            .games = games,
                            .scale = (int)lround(scale)};
        p.train_loss = mean_loss(&samples, a.w, scale, s->lambda, false);
        p.valid_loss = mean_loss(&samples, a.w, scale, s->lambda, true);
        p.seconds = (double)(tm_now_ns() - t0) / 1e9;
        if (progress) progress(&p, user);
        for (int e = 1; e <= s->epochs; e++) {
            /* A third of the step for the last third of the epochs: settle. */
            const double r = e > s->epochs * 2 / 3 ? rate / 3 : rate;
            p.epoch = e;
            p.train_loss =
                train_epoch(&samples, &a, order, train, scale, s->lambda, r, batch, &rng);
            p.valid_loss = mean_loss(&samples, a.w, scale, s->lambda, true);
            p.seconds = (double)(tm_now_ns() - t0) / 1e9;
            if (progress) progress(&p, user);
        }
        params_to_weights(a.w, s->rule, p.scale, w);
        char comment[400];
        snprintf(comment, sizeof comment,
                 "tengen tune: %llu games, %zu positions (%zu held out), lambda %.2f, %d epochs\n"
                 "validation loss %.5f",
                 (unsigned long long)games, train, held_out, s->lambda, s->epochs, p.valid_loss);
        text = weights_format(w, s->rule, s->comment ? s->comment : comment);
        if (!text) snprintf(err, err_size, "out of memory");
    }
    free(order);
    free(arrays);
    free(w);
    free(samples.sample);
    free(samples.feature);
    return text;
}

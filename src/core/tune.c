/*
 * tune.c — `tengen tune`: learns the evaluation's weight tables (weights.h) from self-play
 * data (dataset.h), by logistic regression (docs/eval.md).
 *
 * Every scored position of the data is one sample for the evaluation and one for the move
 * ordering. Its features are what eval_trained()
 * reads: the pattern codes of the candidate points (empty, within two cells of a stone), the
 * side to move's with its mover values and the opponent's with its waiter values, and the
 * threat mask. The evaluation is linear in the weights, so the model is
 *   P(side to move wins) = sigmoid(eval / scale)
 * and the tuner
 *   1. fits the scale: the K for which sigmoid(search score / K) best predicts the results;
 *   2. minimises the cross-entropy of sigmoid(eval / K) against the target
 *      lambda * result + (1 - lambda) * sigmoid(search score / K), with Adam on mini-batches and
 *      a small pull towards the starting weights (codes that seldom occur keep them).
 *   3. likewise fits the move ordering's tables (weights.h: a move's attack value of its own code
 *      plus the defence value of the opponent's, plus the values of where it lies from the last
 *      four moves, of the pair of threat classes it makes and takes, and of each against the
 *      other side's threat mask) by the cross-entropy of a softmax over the legal candidates
 *      against the move the search played, its temperature fitted first.
 * With tree samples (datagen --tree: nodes inside searches, each with the move list the search
 * generated and the move that proved best) only the ordering is fitted, on those choices too;
 * a position met more than once counts once, at its deepest.
 * Codes whose patterns are all at most FREE1 (no shape at all) stay 0. Rules that treat both
 * colours alike (all but renju) train one table for both. Positions the search settles
 * without evaluating (a five on the board for either side) and decided scores are left out.
 *
 * In C, inside tengen: the features come from the very code the engine evaluates with (no
 * second pattern classifier to keep in step), and a linear model needs nothing more.
 */
#include "../tengen.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "dataset.h"
#include "eval.h"
#include "rules.h"
#include "timeman.h"
#include "treeline.h"
#include "weights.h"

enum {
    CODE_PARAMS = 2 * 2 * PCODE_COUNT, ///< [colour][role][code]; colour 0 only when shared
    PARAMS = CODE_PARAMS + MASK_COUNT,
    NEAR_PARAMS = 2 * 2 * PCODE_COUNT, ///< the ordering's [colour][attack/defence][code], then
    PAIR_PARAMS = NEAR_PARAMS + NEAR_SIDES * NEAR_BUCKETS,      ///< [side][near bucket], then
    CONTEXT_PARAMS = PAIR_PARAMS + THREAT_COUNT * THREAT_COUNT, ///< [my class][their class]
    ORDER_PARAMS =
        CONTEXT_PARAMS + 2 * (1 << MASK_SIDE_BITS) * THREAT_COUNT, ///< [role][mask][class]
    MINUS = 0x8000, ///< a feature counted negatively (the waiting side's)
};

typedef struct Sample {
    size_t start;  ///< its first feature; the next sample's start ends them
    float score;   ///< the search score
    float result;  ///< 1 win, 0.5 draw, 0 loss for the side to move
    bool held_out; ///< for validation
} Sample;

/// A position for the move ordering: its legal candidates' ordering parameters and the move
/// the search played.
typedef struct Choice {
    size_t start;  ///< its first candidate; the next choice's start ends them
    int chosen;    ///< the played move's index among them
    bool held_out; ///< for validation
} Choice;

typedef struct Candidate {
    uint16_t attack, defend;  ///< ordering parameters: the mover's code, the waiter's
    uint8_t near[NEAR_SIDES]; ///< near buckets from the last four moves
    uint8_t pair;             ///< the mover's threat class · THREAT_COUNT + the waiter's
    uint16_t context[2];      ///< [attack, defend]: offsets from CONTEXT_PARAMS
} Candidate;

typedef struct Samples {
    Sample *sample;
    uint16_t *feature; ///< parameter index, | MINUS for the waiting side's codes
    size_t count, cap, feature_count, feature_cap;
    Choice *choice;
    Candidate *cand;
    size_t choice_count, choice_cap, cand_count, cand_cap;
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

static size_t candidates_end(const Samples *s, size_t i) {
    return i + 1 < s->choice_count ? s->choice[i + 1].start : s->cand_count;
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

/// The empty points within two cells of a stone (the search's candidates), once a position
/// for both models.
static int candidate_points(const Board *b, Pos *out) {
    int n = 0;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            const Pos p = pos_make(x, y);
            if (board_empty(b, p) && near_a_stone(b, p)) out[n++] = p;
        }
    return n;
}

/// Is p a real double-three foul of renju Black's, which the search's scan counts as no threat
/// and no shape? The foul test puts stones down and lifts them again; b is unchanged after.
static bool black_foul(const Board *b, Pos p) { return rules_black_false_threat((Board *)b, p); }

/// The threat class of colour c at p as the search's scan counts it.
static int scan_class(const Board *b, Pos p, Color c, bool foul) {
    return c == BLACK && foul ? THREAT_NONE : b->threat[p][c] & THREAT_CLASS_MASK;
}

/// The features of b's position into f (returns how many), or -1 when it is not a sample:
/// a five on the board for either side, which the search settles without evaluating.
static int features_of(const Board *b, const Pos *cand, int count, uint16_t *f) {
    const Color me = board_to_move(b), them = (Color)(me ^ 1);
    const PcodeTables *t = b->tables->pcodes;
    int n = 0, mine = 0, theirs = 0;
    for (int i = 0; i < count; i++) {
        const Pos p = cand[i];
        const bool foul = black_foul(b, p);
        const int tm = scan_class(b, p, me, foul), tt = scan_class(b, p, them, foul);
        if (tm == THREAT_FIVE || tt == THREAT_FIVE) return -1;
        mine |= weights_mask_bit(tm), theirs |= weights_mask_bit(tt);
        const int cm = pcode_of(t, b->pattern[p], me), ct = pcode_of(t, b->pattern[p], them);
        if (!is_shapeless(t, cm) && !(foul && me == BLACK))
            f[n++] = (uint16_t)param_of(b->rule, me, ROLE_MOVER, cm);
        if (!is_shapeless(t, ct) && !(foul && them == BLACK))
            f[n++] = (uint16_t)(param_of(b->rule, them, ROLE_WAITER, ct) | MINUS);
    }
    f[n++] = (uint16_t)(CODE_PARAMS + (mine | theirs << MASK_SIDE_BITS));
    return n;
}

/// Adds b's position as a sample when it is one; false when out of memory.
static bool add_sample(Samples *s, const Board *b, const Pos *cand, int count, float score,
                       float result, bool held_out) {
    uint16_t f[2 * BOARD_CELLS + 1];
    const int n = features_of(b, cand, count, f);
    if (n < 0) return true;
    if (!grow((void **)&s->feature, &s->feature_cap, s->feature_count + (size_t)n, sizeof *f) ||
        !grow((void **)&s->sample, &s->cap, s->count + 1, sizeof *s->sample))
        return false;
    memcpy(s->feature + s->feature_count, f, sizeof *f * (size_t)n);
    s->sample[s->count++] = (Sample){s->feature_count, score, result, held_out};
    s->feature_count += (size_t)n;
    return true;
}

/// The threat mask of b's candidate points, the side to move's bits low, as the search's node
/// sees it (weights.h).
static int threat_mask(const Board *b) {
    const Color me = board_to_move(b), them = (Color)(me ^ 1);
    Pos cand[BOARD_CELLS];
    int mine = 0, theirs = 0;
    for (int i = 0, n = candidate_points(b, cand); i < n; i++) {
        const bool foul = black_foul(b, cand[i]);
        mine |= weights_mask_bit(scan_class(b, cand[i], me, foul));
        theirs |= weights_mask_bit(scan_class(b, cand[i], them, foul));
    }
    return mine | theirs << MASK_SIDE_BITS;
}

/// Adds b's position as a choice of `played` among the legal candidates (skipped when the move
/// is not one of them); false when out of memory.
static bool add_choice(Samples *s, const Board *b, const Pos *cand, int count, Pos played,
                       bool held_out) {
    const Color me = board_to_move(b), them = (Color)(me ^ 1);
    const PcodeTables *t = b->tables->pcodes;
    Candidate c[BOARD_CELLS];
    int n = 0, chosen = -1;
    const int mask = threat_mask(b), side_bits = (1 << MASK_SIDE_BITS) - 1;
    for (int i = 0; i < count; i++) {
        const Pos p = cand[i];
        if ((b->threat[p][me] & THREAT_CLASS_MASK) == THREAT_FORBID) continue;
        if (p == played) chosen = n;
        Candidate *x = &c[n++];
        x->attack = (uint16_t)param_of(b->rule, me, ORDER_ATTACK, pcode_of(t, b->pattern[p], me));
        x->defend =
            (uint16_t)param_of(b->rule, them, ORDER_DEFEND, pcode_of(t, b->pattern[p], them));
        for (int side = 0; side < NEAR_SIDES; side++)
            x->near[side] = (uint8_t)eval_near_bucket(b, p, side);
        const int mine = b->threat[p][me] & THREAT_CLASS_MASK;
        const int theirs = b->threat[p][them] & THREAT_CLASS_MASK;
        x->pair = (uint8_t)(mine * THREAT_COUNT + theirs);
        x->context[ORDER_ATTACK] = (uint16_t)(((mask >> MASK_SIDE_BITS) * THREAT_COUNT) + mine);
        x->context[ORDER_DEFEND] =
            (uint16_t)((((1 << MASK_SIDE_BITS) + (mask & side_bits)) * THREAT_COUNT) + theirs);
    }
    if (chosen < 0 || n < 2) return true;
    if (!grow((void **)&s->cand, &s->cand_cap, s->cand_count + (size_t)n, sizeof *c) ||
        !grow((void **)&s->choice, &s->choice_cap, s->choice_count + 1, sizeof *s->choice))
        return false;
    memcpy(s->cand + s->cand_count, c, sizeof *c * (size_t)n);
    s->choice[s->choice_count++] = (Choice){s->cand_count, chosen, held_out};
    s->cand_count += (size_t)n;
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
                Pos cand[BOARD_CELLS];
                const int n = candidate_points(b, cand);
                ok = add_sample(s, b, cand, n, (float)score, result, held_out) &&
                     add_choice(s, b, cand, n, g->moves[i], held_out);
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

/* ---- Tree samples ---- */

/// Plays a sample's stones on b; false when one is not empty.
static bool replay_stones(Board *b, const TreeLine *t) {
    board_init(b, t->rule, t->size, t->size);
    for (int i = 0; i < t->stones; i++) {
        const Pos p = pos_make(t->stone[i].x, t->stone[i].y);
        if (!board_empty(b, p)) return false;
        board_play(b, p);
    }
    return true;
}

typedef struct TreeKey {
    uint64_t hash;
    int plies;
    size_t line;
} TreeKey;

static int deepest_first(const void *a, const void *b) {
    const TreeKey *x = a, *y = b;
    if (x->hash != y->hash) return x->hash < y->hash ? -1 : 1;
    if (x->plies != y->plies) return y->plies - x->plies;
    return x->line < y->line ? -1 : x->line > y->line;
}

/// Reads a tree file's lines under `rule`, replaying each position. With `keys`, appends each
/// line's position key; with `keep`, adds the lines it marks as ordering choices (a
/// position's hash picks the held-out twentieth).
static bool tree_pass(Samples *s, const char *path, Rule rule, TreeKey **keys, size_t *nkeys,
                      size_t *cap, const bool *keep, char *err, size_t err_size) {
    FILE *f = fopen(path, "r");
    if (!f) return snprintf(err, err_size, "%s: %s", path, strerror(errno)), false;
    char *line = NULL;
    size_t len = 0, number = 0;
    TreeLine *t = malloc(sizeof *t);
    Board *b = malloc(sizeof *b);
    bool ok = t && b;
    if (!ok) snprintf(err, err_size, "out of memory");
    while (ok && getline(&line, &len, f) > 0) {
        number++;
        if (!tree_line_parse(line, t) || (t->rule == rule && !replay_stones(b, t))) {
            snprintf(err, err_size, "%s line %zu: not a tree sample", path, number);
            ok = false;
        } else if (t->rule != rule) {
            continue;
        } else if (keys) {
            ok = grow((void **)keys, cap, *nkeys + 1, sizeof **keys);
            if (ok) {
                const size_t at = (*nkeys)++;
                (*keys)[at] = (TreeKey){b->hash, t->plies, at};
            }
            if (!ok) snprintf(err, err_size, "out of memory");
        } else if (keep[(*nkeys)++]) {
            Pos cand[BOARD_CELLS];
            for (int i = 0; i < t->moves; i++) cand[i] = pos_make(t->move[i].x, t->move[i].y);
            ok = add_choice(s, b, cand, t->moves, pos_make(t->best.x, t->best.y),
                            b->hash % 20 == 19);
            if (!ok) snprintf(err, err_size, "out of memory");
        }
    }
    free(line);
    free(t);
    free(b);
    fclose(f);
    return ok;
}

/// The tree samples of every file: each position once, at its deepest (the first line of
/// those), when that is at least tree_min_plies from the leaves.
static bool read_trees(Samples *s, const TgTuneSettings *st, char *err, size_t err_size) {
    TreeKey *keys = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (int i = 0; ok && i < st->tree_count; i++)
        ok = tree_pass(s, st->tree[i], st->rule, &keys, &n, &cap, NULL, err, err_size);
    bool *keep = ok ? calloc(n + 1, sizeof *keep) : NULL;
    if (ok && !keep) ok = false, snprintf(err, err_size, "out of memory");
    if (ok) {
        qsort(keys, n, sizeof *keys, deepest_first);
        for (size_t i = 0; i < n; i++)
            if ((i == 0 || keys[i].hash != keys[i - 1].hash) && keys[i].plies >= st->tree_min_plies)
                keep[keys[i].line] = true;
        size_t line = 0;
        for (int i = 0; ok && i < st->tree_count; i++)
            ok = tree_pass(s, st->tree[i], st->rule, NULL, &line, NULL, keep, err, err_size);
    }
    free(keys);
    free(keep);
    return ok;
}

/* ---- The evaluation model ---- */

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

static double eval_loss(const Samples *s, size_t i, const float *w, double scale, double lambda) {
    return cross_entropy(sigmoid(eval_of(s, i, w) / scale),
                         target_of(&s->sample[i], scale, lambda));
}

/// Golden-section search of the x in [lo, hi] that minimises f.
static double minimise(double (*f)(const Samples *, const float *, double), const Samples *s,
                       const float *w, double lo, double hi) {
    const double phi = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; it++) {
        const double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
        if (f(s, w, a) < f(s, w, b))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

/// How well sigmoid(score / k) predicts the results.
static double score_loss(const Samples *s, const float *w, double k) {
    (void)w;
    double loss = 0;
    for (size_t i = 0; i < s->count; i++)
        loss += cross_entropy(sigmoid(s->sample[i].score / k), s->sample[i].result);
    return loss;
}

/* ---- The ordering model ---- */

/// A candidate's ordering value: the sum of its parameters.
static double candidate_value(const Candidate *x, const float *w) {
    double v = w[x->attack] + w[x->defend] + w[PAIR_PARAMS + x->pair] +
               w[CONTEXT_PARAMS + x->context[0]] + w[CONTEXT_PARAMS + x->context[1]];
    for (int side = 0; side < NEAR_SIDES; side++)
        v += w[NEAR_PARAMS + side * NEAR_BUCKETS + x->near[side]];
    return v;
}

static void add_candidate_grad(const Candidate *x, float d, float *grad) {
    grad[x->attack] += d;
    grad[x->defend] += d;
    grad[PAIR_PARAMS + x->pair] += d;
    grad[CONTEXT_PARAMS + x->context[0]] += d;
    grad[CONTEXT_PARAMS + x->context[1]] += d;
    for (int side = 0; side < NEAR_SIDES; side++)
        grad[NEAR_PARAMS + side * NEAR_BUCKETS + x->near[side]] += d;
}

/// The softmax cross-entropy of choice i at temperature t; with grad, adds d loss / d weight.
static double choice_loss(const Samples *s, size_t i, const float *w, double t, float *grad,
                          double weight) {
    const Choice *c = &s->choice[i];
    const size_t first = c->start, n = candidates_end(s, i) - first;
    double z[BOARD_CELLS], top = -1e300, sum = 0;
    for (size_t j = 0; j < n; j++) {
        z[j] = candidate_value(&s->cand[first + j], w) / t;
        if (z[j] > top) top = z[j];
    }
    for (size_t j = 0; j < n; j++) sum += z[j] = exp(z[j] - top);
    if (grad)
        for (size_t j = 0; j < n; j++)
            add_candidate_grad(&s->cand[first + j],
                               (float)((z[j] / sum - (j == (size_t)c->chosen)) / t * weight), grad);
    return -log(z[c->chosen] / sum);
}

static double all_choices_loss(const Samples *s, const float *w, double t) {
    double loss = 0;
    for (size_t i = 0; i < s->choice_count; i++) loss += choice_loss(s, i, w, t, NULL, 0);
    return loss;
}

/* ---- Adam ---- */

static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

typedef struct Adam {
    int count;
    double pull;                     ///< towards the start, per unit of weight
    float *w, *start, *grad, *m, *v; ///< count each
    long step;
} Adam;

static const double ADAM_BETA1 = 0.9, ADAM_BETA2 = 0.999, ADAM_EPS = 1e-8;
/// Pull towards the starting weights, per unit of weight, unless the settings give another:
/// codes seen a few times keep theirs.
static const double DEFAULT_PULL = 1e-6;

static bool adam_init(Adam *a, const float *start, int count, double pull) {
    a->count = count, a->step = 0, a->pull = pull;
    a->w = calloc((size_t)count * 5, sizeof *a->w);
    if (!a->w) return false;
    a->start = a->w + count, a->grad = a->w + 2 * count, a->m = a->w + 3 * count;
    a->v = a->w + 4 * count;
    memcpy(a->w, start, sizeof *a->w * (size_t)count);
    memcpy(a->start, start, sizeof *a->w * (size_t)count);
    return true;
}

static void adam_step(Adam *a, double rate) {
    a->step++;
    const double c1 = 1 - pow(ADAM_BETA1, (double)a->step);
    const double c2 = 1 - pow(ADAM_BETA2, (double)a->step);
    for (int j = 0; j < a->count; j++) {
        const double g = a->grad[j] + a->pull * (a->w[j] - a->start[j]);
        a->m[j] = (float)(ADAM_BETA1 * a->m[j] + (1 - ADAM_BETA1) * g);
        a->v[j] = (float)(ADAM_BETA2 * a->v[j] + (1 - ADAM_BETA2) * g * g);
        a->w[j] -= (float)(rate * (a->m[j] / c1) / (sqrt(a->v[j] / c2) + ADAM_EPS));
        a->grad[j] = 0;
    }
}

/// The training indices (not held out) of n items, shuffled.
static size_t shuffled_training(size_t *order, size_t n, const Samples *s, bool choices,
                                uint64_t *rng) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!(choices ? s->choice[i].held_out : s->sample[i].held_out)) order[m++] = i;
    for (size_t i = m; i > 1; i--) {
        const size_t j = next_random(rng) % i, t = order[i - 1];
        order[i - 1] = order[j], order[j] = t;
    }
    return m;
}

/// One pass of the evaluation over its training samples; returns their mean loss.
static double eval_epoch(const Samples *s, Adam *a, size_t *order, double scale, double lambda,
                         double rate, int batch, uint64_t *rng) {
    const size_t n = shuffled_training(order, s->count, s, false, rng);
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

/// One pass of the ordering over its training choices; returns their mean loss.
static double order_epoch(const Samples *s, Adam *a, size_t *order, double temp, double rate,
                          int batch, uint64_t *rng) {
    const size_t n = shuffled_training(order, s->choice_count, s, true, rng);
    double loss = 0;
    for (size_t first = 0; first < n; first += (size_t)batch) {
        const size_t last = first + (size_t)batch < n ? first + (size_t)batch : n;
        for (size_t k = first; k < last; k++)
            loss += choice_loss(s, order[k], a->w, temp, a->grad, 1.0 / (double)(last - first));
        adam_step(a, rate);
    }
    return n ? loss / (double)n : 0;
}

/// Mean losses of both models over the held-out samples (or the training ones).
static void mean_losses(const Samples *s, const float *ew, double scale, double lambda,
                        const float *ow, double temp, bool held_out, double *eval, double *order) {
    double e = 0, o = 0;
    size_t ne = 0, no = 0;
    for (size_t i = 0; i < s->count; i++)
        if (s->sample[i].held_out == held_out) e += eval_loss(s, i, ew, scale, lambda), ne++;
    for (size_t i = 0; i < s->choice_count; i++)
        if (s->choice[i].held_out == held_out) o += choice_loss(s, i, ow, temp, NULL, 0), no++;
    *eval = ne ? e / (double)ne : 0;
    *order = no ? o / (double)no : 0;
}

/* ---- Weights in and out ---- */

/// The evaluation's parameters: codes [colour][role][code], then the mask; the ordering's:
/// [colour][side][code].
static void weights_to_params(const EvalWeights *w, float *eval, float *order) {
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 2; r++)
            for (int code = 0; code < PCODE_COUNT; code++) {
                eval[(c * 2 + r) * PCODE_COUNT + code] = w->code[c][r][code];
                order[(c * 2 + r) * PCODE_COUNT + code] = w->order[c][r][code];
            }
    for (int m = 0; m < MASK_COUNT; m++) eval[CODE_PARAMS + m] = w->mask[m];
    for (int side = 0; side < NEAR_SIDES; side++)
        for (int k = 0; k < NEAR_BUCKETS; k++)
            order[NEAR_PARAMS + side * NEAR_BUCKETS + k] = w->near[side][k];
    for (int k = 0; k < THREAT_COUNT * THREAT_COUNT; k++)
        order[PAIR_PARAMS + k] = w->pair[k / THREAT_COUNT][k % THREAT_COUNT];
    const int16_t *context = &w->context[0][0][0];
    for (int k = 0; k < ORDER_PARAMS - CONTEXT_PARAMS; k++) order[CONTEXT_PARAMS + k] = context[k];
}

static int16_t to_int16(double v) {
    v = round(v);
    return (int16_t)(v > INT16_MAX ? INT16_MAX : v < INT16_MIN ? INT16_MIN : v);
}

static void params_to_weights(const float *eval, const float *order, Rule rule, int scale,
                              EvalWeights *w) {
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 2; r++)
            for (int code = 0; code < PCODE_COUNT; code++) {
                w->code[c][r][code] = to_int16(eval[param_of(rule, (Color)c, r, code)]);
                w->order[c][r][code] = to_int16(order[param_of(rule, (Color)c, r, code)]);
            }
    for (int m = 0; m < MASK_COUNT; m++) w->mask[m] = to_int16(eval[CODE_PARAMS + m]);
    for (int side = 0; side < NEAR_SIDES; side++)
        for (int k = 0; k < NEAR_BUCKETS; k++)
            w->near[side][k] = to_int16(order[NEAR_PARAMS + side * NEAR_BUCKETS + k]);
    for (int k = 0; k < THREAT_COUNT * THREAT_COUNT; k++)
        w->pair[k / THREAT_COUNT][k % THREAT_COUNT] = to_int16(order[PAIR_PARAMS + k]);
    int16_t *context = &w->context[0][0][0];
    for (int k = 0; k < ORDER_PARAMS - CONTEXT_PARAMS; k++)
        context[k] = to_int16(order[CONTEXT_PARAMS + k]);
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

static bool read_all(const TgTuneSettings *s, Samples *samples, uint64_t *games, char *err,
                     size_t err_size) {
    for (int i = 0; i < s->data_count; i++)
        if (!read_file(samples, s->data[i], s->rule, games, err, err_size)) return false;
    if (s->tree_count && !read_trees(samples, s, err, err_size)) return false;
    if ((s->tree_count ? samples->choice_count : samples->count) == 0 && s->epochs > 0) {
        snprintf(err, err_size, "no %s positions in the data", tg_rule_name(s->rule));
        return false;
    }
    return true;
}

/// Trains both models from the samples, starting from *w, and writes the result into *w.
static bool train(const TgTuneSettings *s, const Samples *samples, uint64_t games, EvalWeights *w,
                  TgTuneCallback progress, void *user, int64_t t0) {
    static_assert(ORDER_PARAMS <= PARAMS, "one scratch array serves both");
    static_assert(ORDER_PARAMS - CONTEXT_PARAMS == sizeof w->context / sizeof ***w->context,
                  "the context table, flat");
    float *start = calloc(2 * (size_t)PARAMS, sizeof *start);
    size_t *order = malloc(sizeof *order * (samples->count + samples->choice_count + 1));
    Adam ea = {0}, oa = {0};
    bool ok = start && order;
    if (ok) {
        weights_to_params(w, start, start + PARAMS);
        const double pull = s->pull > 0 ? s->pull : DEFAULT_PULL;
        ok = adam_init(&ea, start, PARAMS, pull) &&
             adam_init(&oa, start + PARAMS, ORDER_PARAMS, pull);
    }
    if (ok) {
        const int batch = s->batch > 0 ? s->batch : 4096;
        const double rate = s->rate > 0 ? s->rate : 1.0;
        /* With tree samples the evaluation stays as it started: only the ordering learns. */
        const bool eval_too = s->tree_count == 0;
        /* With lambda 0 the results carry no weight (scored positions without games, such as
         * relabelled tree samples): the scores keep the start table's scale. */
        const double scale = s->epochs && eval_too && s->lambda > 0
                                 ? minimise(score_loss, samples, NULL, 20, 3000)
                                 : w->scale;
        const double temp = s->epochs ? minimise(all_choices_loss, samples, oa.w, 5, 5000) : 100;
        uint64_t rng = s->seed;
        TgTuneProgress p = {.epochs = s->epochs,
                            .games = games,
                            .scale = (int)lround(scale),
                            .order_temperature = temp};
        for (size_t i = 0; i < samples->count; i++) p.valid_samples += samples->sample[i].held_out;
        p.samples = samples->count - p.valid_samples;
        for (size_t i = 0; i < samples->choice_count; i++)
            p.valid_choices += samples->choice[i].held_out;
        p.choices = samples->choice_count - p.valid_choices;
        p.ordering_only = !eval_too;
        p.values_only = eval_too && s->values_only;
        for (int e = 0; e <= s->epochs; e++) {
            /* A third of the step for the last third of the epochs: settle. */
            const double r = e > s->epochs * 2 / 3 ? rate / 3 : rate;
            p.epoch = e;
            if (e) {
                if (eval_too)
                    p.train_loss =
                        eval_epoch(samples, &ea, order, scale, s->lambda, r, batch, &rng);
                /* Values only: the ordering, and its training loss, stay epoch 0's. */
                if (!p.values_only)
                    p.order_train_loss = order_epoch(samples, &oa, order, temp, r, batch, &rng);
            } else {
                mean_losses(samples, ea.w, scale, s->lambda, oa.w, temp, false, &p.train_loss,
                            &p.order_train_loss);
            }
            mean_losses(samples, ea.w, scale, s->lambda, oa.w, temp, true, &p.valid_loss,
                        &p.order_valid_loss);
            p.seconds = (double)(tm_now_ns() - t0) / 1e9;
            if (progress) progress(&p, user);
        }
        params_to_weights(ea.w, oa.w, s->rule, p.scale, w);
    }
    free(ea.w);
    free(oa.w);
    free(start);
    free(order);
    return ok;
}

char *tg_tune(const TgTuneSettings *s, TgTuneCallback progress, void *user, char *err,
              size_t err_size) {
    if (s->rule < 0 || s->rule >= TG_RULE_COUNT || s->epochs < 0 || s->lambda < 0 ||
        s->lambda > 1) {
        snprintf(err, err_size, "bad tuning settings");
        return NULL;
    }
    const int64_t t0 = tm_now_ns();
    Samples samples = {0};
    uint64_t games = 0;
    char *text = NULL;
    EvalWeights *w = malloc(sizeof *w);
    bool ok =
        w && start_weights(s, w, err, err_size) && read_all(s, &samples, &games, err, err_size);
    if (ok && !train(s, &samples, games, w, progress, user, t0)) {
        snprintf(err, err_size, "out of memory");
        ok = false;
    }
    if (ok) {
        char comment[400];
        if (s->tree_count)
            snprintf(comment, sizeof comment,
                     "tengen tune --tree: the ordering from %zu tree nodes, %d epochs",
                     samples.choice_count, s->epochs);
        else
            snprintf(comment, sizeof comment,
                     "tengen tune: %llu games, %zu positions, lambda %.2f, %d epochs",
                     (unsigned long long)games, samples.count, s->lambda, s->epochs);
        text = weights_format(w, s->rule, s->comment ? s->comment : comment);
        if (!text) snprintf(err, err_size, "out of memory");
    }
    if (!w) snprintf(err, err_size, "out of memory");
    free(w);
    free(samples.sample);
    free(samples.feature);
    free(samples.choice);
    free(samples.cand);
    return text;
}

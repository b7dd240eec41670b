/*
 * opening_engine.c — the engine's decisions in an opening phase, all from search scores:
 * where the other player may swap next the placer looks for the candidate nearest 0, a chooser
 * takes the better side, the selector the offer best for White, the offerer the 5th moves best
 * for Black (the selector then gets the worst of them), and a declared N is the one whose N-th
 * best 5th move is nearest 0. Candidates within `margin` of the best count as equal and one of
 * them is drawn with the seeded generator, so a seed and a node limit give one answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opening.h"
#include "zobrist.h"

enum {
    DEFAULT_MARGIN = 30,
    DEFAULT_CANDIDATES = 8,
    SWAP2_CLEAR = 150, ///< swap2: a score this far from 0 is a clear edge (take a colour)
    FIFTH_LINES = 24,  ///< 5th moves scored by one multi-PV search (before symmetry)
    FOURTH_LINES = 3,  ///< swap2 place-two: White 4th moves tried
    MAX_CANDIDATES = 64,
};

/// One decision's working state.
typedef struct Ctx {
    TgEngine *engine;
    TgOpeningLimits lim;
    uint64_t rng;
    uint64_t nodes;
    TgSearchResult *r;
    int depth_scores[2]; ///< the best line's score at the last two completed depths
    int depths_seen;
} Ctx;

/// A scored candidate: up to five points (stones or a single point) and its value for the
/// deciding player.
typedef struct Cand {
    TgPoint p[TG_OPENING_MAX_STONES];
    int n;
    int value; ///< what the choice is ranked by (higher is better)
    int raw;   ///< the search score behind it, for the deciding player
} Cand;

/* ---- Searching ---- */

/// Keeps the scores of the last two completed depths (the search thread calls this).
static void on_depth(const TgSearchInfo *info, void *user) {
    Ctx *c = user;
    if (info->final || info->line_count < 1) return;
    c->depth_scores[0] = c->depth_scores[1];
    c->depth_scores[1] = info->lines[0].score;
    c->depths_seen++;
}

/// The score of the last search, its last two depths averaged: a short search's score swings
/// with the parity of its depth, and opening choices compare scores of different positions.
static int steady_score(const Ctx *c) {
    const int last = c->r->score;
    if (c->depths_seen < 2 || abs(last) >= TG_SCORE_WIN_MIN ||
        abs(c->depth_scores[0]) >= TG_SCORE_WIN_MIN)
        return last;
    return (c->depth_scores[0] + last) / 2;
}

static TgError search(Ctx *c, const TgGame *g, int multipv) {
    TgSearchLimits l = {.nodes = c->lim.nodes,
                        .turn_ms = c->lim.time_ms,
                        .depth = c->lim.depth,
                        .multipv = multipv,
                        .stop = c->lim.stop};
    c->depths_seen = 0;
    const TgError e = tg_engine_search(c->engine, g, &l, on_depth, c, c->r);
    if (e == TG_OK) c->nodes += c->r->nodes;
    return e;
}

/// The game of the opening's stones plus `extra` moves (NULL out of memory).
static TgGame *game_with(const TgOpening *op, const TgPoint *extra, int n) {
    TgGame *g = tg_opening_game(op);
    for (int i = 0; g && i < n; i++) tg_game_play(g, extra[i], 0);
    return g;
}

/// Score of the opening's stones plus `extra`, for colour `for_color`.
static TgError score_after(Ctx *c, const TgOpening *op, const TgPoint *extra, int n,
                           TgColor for_color, int *score) {
    TgGame *g = game_with(op, extra, n);
    if (!g) return TG_ERR_MEMORY;
    const TgColor to_move = tg_game_to_move(g);
    const TgError e = search(c, g, 1);
    tg_game_free(g);
    if (e == TG_OK) *score = to_move == for_color ? steady_score(c) : -steady_score(c);
    return e;
}

/* ---- Picking among near-equal candidates ---- */

/// Index of a candidate drawn among those within the margin of the best value.
static int pick(Ctx *c, const Cand *cand, int n) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (cand[i].value > cand[best].value) best = i;
    int near[MAX_CANDIDATES], k = 0;
    for (int i = 0; i < n; i++)
        if (cand[i].value >= cand[best].value - c->lim.margin) near[k++] = i;
    return near[splitmix64(&c->rng) % (uint64_t)k];
}

static void set_points(TgOpeningDecision *d, const Cand *cand) {
    d->count = cand->n;
    memcpy(d->points, cand->p, sizeof(TgPoint) * (size_t)cand->n);
}

/* ---- 5th moves: the best non-symmetric ones for Black ---- */

/// The 5th moves best for Black (to move after four stones) that the opening accepts as
/// offers, best first, with their scores for Black. Returns how many (at most `max`).
static int best_fifths(Ctx *c, const TgOpening *op4, const TgPoint *extra, int nextra, Cand *out,
                       int max, TgError *err) {
    TgGame *g = game_with(op4, extra, nextra);
    const int lines = 2 * max + 2 < 6 ? 6 : 2 * max + 2 > FIFTH_LINES ? FIFTH_LINES : 2 * max + 2;
    *err = g ? search(c, g, lines) : TG_ERR_MEMORY;
    tg_game_free(g);
    if (*err != TG_OK) return 0;
    TgPoint stones[TG_OPENING_MAX_STONES + 1];
    int ns = tg_opening_stones(op4, stones, TG_OPENING_MAX_STONES);
    for (int i = 0; i < nextra; i++) stones[ns++] = extra[i];
    int n = 0;
    for (int i = 0; i < c->r->line_count && n < max; i++) {
        const TgPoint p = c->r->lines[i].moves[0];
        bool twin = tg_point_is_pass(p);
        for (int j = 0; j < n && !twin; j++)
            twin = opening_symmetric(stones, ns, tg_opening_size(op4), p, out[j].p[0]);
        if (!twin)
            out[n++] = (Cand){
                .p = {p}, .n = 1, .value = c->r->lines[i].score, .raw = c->r->lines[i].score};
    }
    return n;
}

/// White's best 4th move after the stones and `extra` (Yamaguchi declares before it is played).
static TgError best_fourth(Ctx *c, const TgOpening *op, const TgPoint *extra, int nextra,
                           TgPoint *p) {
    TgGame *g = game_with(op, extra, nextra);
    if (!g) return TG_ERR_MEMORY;
    const TgError e = search(c, g, 1);
    tg_game_free(g);
    *p = c->r->best;
    return e;
}

/// Black's outlook under RIF and Yamaguchi after three stones (the opening's, or `extra`):
/// White plays its best 4th move, Black offers the n best 5th moves, White takes the worst.
static TgError offer_outlook(Ctx *c, const TgOpening *op, const TgPoint *extra, int nextra, int n,
                             int *value) {
    TgPoint four[TG_OPENING_MAX_STONES];
    if (nextra) memcpy(four, extra, sizeof(TgPoint) * (size_t)nextra);
    TgError e = best_fourth(c, op, extra, nextra, &four[nextra]);
    Cand fifth[FIFTH_LINES];
    const int k = e == TG_OK ? best_fifths(c, op, four, nextra + 1, fifth, n, &e) : 0;
    *value = k ? fifth[(k < n ? k : n) - 1].raw : 0;
    return e;
}

/// The 5th-move offers that follow the swap of a RIF or Yamaguchi opening (0 otherwise).
static int offers_after_swap(const TgOpening *op) {
    if (tg_opening_stones(op, NULL, 0) > 3) return 0;
    if (tg_opening_rule(op) == TG_OPENING_RIF) return 2;
    return tg_opening_rule(op) == TG_OPENING_YAMAGUCHI ? tg_opening_declared(op) : 0;
}

/* ---- PLACE ---- */

static int center_of(const TgOpening *op) { return (tg_opening_size(op) - 1) / 2; }

static bool taken(const TgPoint *s, int n, TgPoint p) {
    for (int i = 0; i < n; i++)
        if (s[i].x == p.x && s[i].y == p.y) return true;
    return false;
}

/// A random empty point within `radius` of the centre (the whole board for a large radius).
static TgPoint random_point(Ctx *c, const TgOpening *op, const TgPoint *s, int n, int radius) {
    const int size = tg_opening_size(op), mid = center_of(op);
    for (;;) {
        const int span = 2 * radius + 1;
        TgPoint p = {mid - radius + (int)(splitmix64(&c->rng) % (uint64_t)span),
                     mid - radius + (int)(splitmix64(&c->rng) % (uint64_t)span)};
        if (p.x >= 0 && p.y >= 0 && p.x < size && p.y < size && !taken(s, n, p)) return p;
    }
}

/// Candidate single stones: the empty points of the step's square, or a sample of them.
static int single_candidates(Ctx *c, const TgOpening *op, const TgOpeningStep *st, Cand *cand) {
    TgPoint s[TG_OPENING_MAX_STONES];
    const int ns = tg_opening_stones(op, s, TG_OPENING_MAX_STONES);
    const int size = tg_opening_size(op), mid = center_of(op);
    const int r = st->area ? st->area / 2 : size;
    int n = 0;
    if (st->area && st->area * st->area - ns <= c->lim.candidates) {
        for (int y = mid - r; y <= mid + r; y++)
            for (int x = mid - r; x <= mid + r; x++)
                if (!taken(s, ns, (TgPoint){x, y})) cand[n++] = (Cand){.p = {{x, y}}, .n = 1};
        return n;
    }
    while (n < c->lim.candidates) {
        const TgPoint p = random_point(c, op, s, ns, r);
        bool dup = false;
        for (int i = 0; i < n && !dup; i++) dup = cand[i].p[0].x == p.x && cand[i].p[0].y == p.y;
        if (!dup) cand[n++] = (Cand){.p = {p}, .n = 1};
    }
    return n;
}

static bool same_stones(const Cand *a, const Cand *b) {
    for (int i = 0; i < a->n; i++)
        if (a->p[i].x != b->p[i].x || a->p[i].y != b->p[i].y) return false;
    return true;
}

static bool same_point(TgPoint a, TgPoint b) { return a.x == b.x && a.y == b.y; }

/// One fitting orientation of renju opening `index` (drawn at random) that completes the
/// stones placed so far, holding only the stones still to place; false if none fits.
static bool renju_completion(Ctx *c, const TgOpening *op, int index, Cand *out) {
    TgPoint placed[TG_OPENING_MAX_STONES];
    const int np = tg_opening_stones(op, placed, TG_OPENING_MAX_STONES);
    Cand fit[8];
    int n = 0;
    for (int k = 0; k < 8; k++) {
        TgPoint t[3];
        tg_renju_opening_stones(index, tg_opening_size(op), k, t);
        bool fits = true;
        for (int j = 0; j < np && fits; j++) fits = same_point(t[j], placed[j]);
        if (fits) {
            fit[n] = (Cand){.n = 3 - np};
            memcpy(fit[n++].p, t + np, sizeof(TgPoint) * (size_t)(3 - np));
        }
    }
    if (n) *out = fit[splitmix64(&c->rng) % (uint64_t)n];
    return n > 0;
}

/// The renju openings that complete the stones placed so far, one orientation each, sampled
/// down to `candidates`.
static int renju_completions(Ctx *c, const TgOpening *op, Cand *cand) {
    Cand all[TG_RENJU_OPENINGS];
    int n = 0;
    for (int i = 0; i < TG_RENJU_OPENINGS; i++)
        if (renju_completion(c, op, i, &all[n])) n++;
    for (int i = n - 1; i > 0; i--) { /* a seeded shuffle, then the first ones */
        const int j = (int)(splitmix64(&c->rng) % (uint64_t)(i + 1));
        const Cand t = all[i];
        all[i] = all[j], all[j] = t;
    }
    const int k = n < c->lim.candidates ? n : c->lim.candidates;
    memcpy(cand, all, sizeof(Cand) * (size_t)k);
    return k;
}

/// Random compact shapes around the centre that complete the first three stones (black,
/// white, black); each candidate holds only the stones still to place.
static int shape_completions(Ctx *c, const TgOpening *op, Cand *cand) {
    TgPoint s[3];
    const int np = tg_opening_stones(op, s, 3), mid = center_of(op);
    int n = 0;
    for (int tries = 0; n < c->lim.candidates && tries < 8 * c->lim.candidates; tries++) {
        TgPoint t[3] = {s[0], s[1], s[2]};
        if (np < 1) t[0] = (TgPoint){mid, mid};
        if (np < 2) t[1] = random_point(c, op, t, 1, 2);
        if (np < 3) t[2] = random_point(c, op, t, 2, 3);
        Cand x = {.n = 3 - np};
        memcpy(x.p, t + np, sizeof(TgPoint) * (size_t)x.n);
        bool dup = false;
        for (int i = 0; i < n && !dup; i++) dup = same_stones(&cand[i], &x);
        if (!dup) cand[n++] = x;
    }
    return n;
}

/// Scores candidates for `color` after their stones: balanced (value = -|score|) or best.
/// With `offers`, a candidate is three opening stones scored by offer_outlook().
static TgError score_candidates(Ctx *c, const TgOpening *op, Cand *cand, int n, TgColor color,
                                bool balanced, int offers) {
    for (int i = 0; i < n; i++) {
        int s = 0;
        const TgError e = offers ? offer_outlook(c, op, cand[i].p, cand[i].n, offers, &s)
                                 : score_after(c, op, cand[i].p, cand[i].n, color, &s);
        if (offers && color == TG_WHITE) s = -s;
        if (e != TG_OK) return e;
        cand[i].raw = s;
        cand[i].value = balanced ? -abs(s) : s;
    }
    return TG_OK;
}

/// The best move(s) for the side to move, by one multi-PV search (no swap follows).
static TgError best_single(Ctx *c, const TgOpening *op, TgOpeningDecision *d) {
    TgGame *g = game_with(op, NULL, 0);
    if (!g) return TG_ERR_MEMORY;
    const TgError e = search(c, g, 3);
    tg_game_free(g);
    if (e != TG_OK) return e;
    Cand cand[3];
    int n = 0;
    for (int i = 0; i < c->r->line_count && i < 3; i++)
        cand[n++] = (Cand){.p = {c->r->lines[i].moves[0]}, .n = 1, .value = c->r->lines[i].score};
    if (n == 0) return TG_ERR_GAME_OVER;
    const int k = pick(c, cand, n);
    set_points(d, &cand[k]);
    d->score = cand[k].value;
    snprintf(d->why, sizeof d->why, "the best move among %d searched (%+d)", n, d->score);
    return TG_OK;
}

/// swap2 "place two": White 4th moves from a multi-PV search, then for each the Black 5th
/// moves; the pair whose score is nearest 0.
static TgError place_two(Ctx *c, const TgOpening *op, TgOpeningDecision *d) {
    TgGame *g = game_with(op, NULL, 0);
    if (!g) return TG_ERR_MEMORY;
    TgError e = search(c, g, FOURTH_LINES);
    tg_game_free(g);
    if (e != TG_OK) return e;
    TgPoint fourth[FOURTH_LINES];
    const int nf = c->r->line_count < FOURTH_LINES ? c->r->line_count : FOURTH_LINES;
    for (int i = 0; i < nf; i++) fourth[i] = c->r->lines[i].moves[0];
    Cand cand[MAX_CANDIDATES], fifth[FIFTH_LINES];
    int n = 0;
    for (int i = 0; i < nf; i++) {
        const int k = best_fifths(c, op, &fourth[i], 1, fifth, 8, &e);
        if (e != TG_OK) return e;
        for (int j = 0; j < k && n < MAX_CANDIDATES; j++)
            cand[n++] = (Cand){.p = {fourth[i], fifth[j].p[0]},
                               .n = 2,
                               .value = -abs(fifth[j].value),
                               .raw = -fifth[j].value};
    }
    if (n == 0) return TG_ERR_GAME_OVER;
    const int k = pick(c, cand, n);
    set_points(d, &cand[k]);
    d->score = cand[k].raw; /* for White, the placer */
    snprintf(d->why, sizeof d->why, "the pair nearest even among %d (%+d)", n, d->score);
    return TG_OK;
}

static TgError decide_place(Ctx *c, const TgOpening *op, const TgOpeningStep *st,
                            TgOpeningDecision *d) {
    const bool balanced = opening_swap_follows(op);
    const int placed = tg_opening_stones(op, NULL, 0);
    if (st->count == 2 && placed == 3) return place_two(c, op, d);
    if (st->count == 1 && st->area == 1) {
        const int mid = center_of(op);
        d->count = 1;
        d->points[0] = (TgPoint){mid, mid};
        snprintf(d->why, sizeof d->why, "move 1 goes on the centre point");
        return TG_OK;
    }
    if (st->count == 1 && !balanced) return best_single(c, op, d);
    Cand cand[MAX_CANDIDATES];
    const bool opening = placed < 3 && placed + st->count == 3; /* stones 1-3 in one go */
    const bool renju = tg_opening_rule(op) >= TG_OPENING_RIF;
    const int n = !opening ? single_candidates(c, op, st, cand)
                  : renju  ? renju_completions(c, op, cand)
                           : shape_completions(c, op, cand);
    const int offers = opening && tg_opening_rule(op) == TG_OPENING_RIF ? 2 : 0;
    const TgError e = score_candidates(c, op, cand, n, st->color, true, offers);
    if (e != TG_OK) return e;
    const int k = pick(c, cand, n);
    set_points(d, &cand[k]);
    d->score = cand[k].raw;
    snprintf(d->why, sizeof d->why, "the candidate nearest even among %d (%+d)", n, d->score);
    return TG_OK;
}

/* ---- DECLARE: the N whose N-th best 5th move is nearest 0 ---- */

static TgError decide_declare(Ctx *c, const TgOpening *op, const TgOpeningStep *st,
                              TgOpeningDecision *d) {
    TgPoint extra[1];
    int nextra = 0;
    TgError e = TG_OK;
    if (tg_opening_stones(op, NULL, 0) == 3) {
        e = best_fourth(c, op, NULL, 0, &extra[0]);
        nextra = 1;
    }
    Cand fifth[FIFTH_LINES], cand[TG_OPENING_MAX_OFFERS];
    const int k = e == TG_OK ? best_fifths(c, op, extra, nextra, fifth, st->max, &e) : 0;
    if (e != TG_OK) return e;
    int n = 0;
    for (int i = st->min; i <= st->max && i <= k; i++)
        cand[n++] = (Cand){.n = 0, .value = -abs(fifth[i - 1].value)};
    if (n == 0) cand[n++] = (Cand){.value = 0};
    const int pickd = pick(c, cand, n);
    d->number = st->min + pickd;
    d->score = cand[pickd].value;
    snprintf(d->why, sizeof d->why, "with %d offers the worst 5th move scores %d for Black",
             d->number, k >= d->number ? fifth[d->number - 1].value : 0);
    return TG_OK;
}

/* ---- CHOOSE ---- */

/// The N-th best non-symmetric 5th move's score for Black (to move after four stones).
static TgError nth_fifth(Ctx *c, const TgOpening *op, int n, int *score) {
    Cand fifth[FIFTH_LINES];
    TgError e;
    const int k = best_fifths(c, op, NULL, 0, fifth, n, &e);
    if (e == TG_OK) *score = k ? fifth[(k < n ? k : n) - 1].value : 0;
    return e;
}

static TgError decide_choose(Ctx *c, const TgOpening *op, const TgOpeningStep *st,
                             TgOpeningDecision *d) {
    int s = 0;
    TgError e;
    const bool soosorv_swap = tg_opening_declared(op) && tg_opening_stones(op, NULL, 0) == 4;
    const int offers = offers_after_swap(op);
    if (st->choices & TG_CHOICE_OFFER)
        e = nth_fifth(c, op, 10, &s);
    else if (soosorv_swap)
        e = nth_fifth(c, op, tg_opening_declared(op), &s);
    else if (offers)
        e = offer_outlook(c, op, NULL, 0, offers, &s);
    else
        e = score_after(c, op, NULL, 0, st->color, &s);
    if (e != TG_OK) return e;
    if (offers && st->color == TG_WHITE) s = -s; /* the outlook is Black's */
    Cand cand[3];
    int n = 0;
    if (st->choices & TG_CHOICE_PLACE_TWO) { /* swap2: a clear edge picks a colour */
        cand[n++] = (Cand){.n = TG_CHOICE_STAY, .value = s - SWAP2_CLEAR, .raw = s};
        cand[n++] = (Cand){.n = TG_CHOICE_SWAP, .value = -s - SWAP2_CLEAR, .raw = -s};
        cand[n++] = (Cand){.n = TG_CHOICE_PLACE_TWO, .value = -c->lim.margin - 1};
    } else if (st->choices & TG_CHOICE_OFFER) { /* Taraguchi-10 after move 4 */
        cand[n++] = (Cand){.n = TG_CHOICE_OFFER, .value = s, .raw = s};
        cand[n++] = (Cand){.n = TG_CHOICE_SWAP, .value = 0}; /* the other side plays 5, we swap */
        cand[n++] = (Cand){.n = TG_CHOICE_STAY, .value = -c->lim.margin - 1};
    } else {
        cand[n++] = (Cand){.n = TG_CHOICE_STAY, .value = s, .raw = s};
        cand[n++] = (Cand){.n = TG_CHOICE_SWAP, .value = -s, .raw = -s};
    }
    const int k = pick(c, cand, n);
    d->choice = (TgChoice)cand[k].n;
    d->score = cand[k].raw;
    snprintf(d->why, sizeof d->why, "%s: the position scores %+d for %s", tg_choice_name(d->choice),
             s,
             st->choices & TG_CHOICE_OFFER || soosorv_swap ? "Black's offers"
                                                           : tg_color_name(st->color));
    return TG_OK;
}

/* ---- OFFER and SELECT ---- */

/// Jitters scores by less than the margin, so near-equal 5th moves are drawn at random.
static void jitter(Ctx *c, Cand *cand, int n) {
    for (int i = 0; i < n; i++)
        cand[i].value += (int)(splitmix64(&c->rng) % (uint64_t)(c->lim.margin + 1));
    for (int i = 1; i < n; i++) /* insertion sort, best first */
        for (int j = i; j > 0 && cand[j].value > cand[j - 1].value; j--) {
            const Cand t = cand[j];
            cand[j] = cand[j - 1], cand[j - 1] = t;
        }
}

static TgError decide_offer(Ctx *c, const TgOpening *op, const TgOpeningStep *st,
                            TgOpeningDecision *d) {
    Cand fifth[FIFTH_LINES];
    TgError e;
    const int k = best_fifths(c, op, NULL, 0, fifth, st->count + 2, &e);
    if (e != TG_OK) return e;
    jitter(c, fifth, k);
    TgOpening *trial = tg_opening_clone(op);
    if (!trial) return TG_ERR_MEMORY;
    TgPoint s[TG_OPENING_MAX_STONES];
    const int ns = tg_opening_stones(op, s, TG_OPENING_MAX_STONES);
    d->score = TG_SCORE_WIN;
    for (int i = 0; i < k && d->count < st->count; i++)
        if (tg_opening_offer(trial, fifth[i].p[0]) == TG_OK) {
            d->points[d->count++] = fifth[i].p[0];
            if (fifth[i].raw < d->score) d->score = fifth[i].raw;
        }
    for (int radius = 2; d->count < st->count; radius++) { /* too few lines: fill nearby */
        const TgPoint p =
            random_point(c, op, s, ns, radius < center_of(op) ? radius : center_of(op));
        if (tg_opening_offer(trial, p) == TG_OK) d->points[d->count++] = p;
    }
    tg_opening_free(trial);
    snprintf(d->why, sizeof d->why, "the %d best 5th moves for Black; the worst scores about %+d",
             d->count, d->score);
    return TG_OK;
}

static TgError decide_select(Ctx *c, const TgOpening *op, TgOpeningDecision *d) {
    Cand cand[TG_OPENING_MAX_OFFERS];
    TgPoint offers[TG_OPENING_MAX_OFFERS];
    const int n = tg_opening_offers(op, offers, TG_OPENING_MAX_OFFERS);
    for (int i = 0; i < n; i++) cand[i] = (Cand){.p = {offers[i]}, .n = 1};
    const TgError e = score_candidates(c, op, cand, n, TG_WHITE, false, 0);
    if (e != TG_OK) return e;
    const int k = pick(c, cand, n);
    set_points(d, &cand[k]);
    d->score = cand[k].value;
    snprintf(d->why, sizeof d->why, "the offer best for White among %d (%+d)", n, d->score);
    return TG_OK;
}

/* ---- The public entry points ---- */

static TgOpeningLimits with_defaults(const TgOpeningLimits *l) {
    TgOpeningLimits r = l ? *l : (TgOpeningLimits){0};
    if (r.margin <= 0) r.margin = DEFAULT_MARGIN;
    if (r.candidates <= 0) r.candidates = DEFAULT_CANDIDATES;
    if (r.candidates > MAX_CANDIDATES) r.candidates = MAX_CANDIDATES;
    return r;
}

static TgError ctx_open(Ctx *c, TgEngine *engine, const TgOpeningLimits *limits, uint64_t salt) {
    memset(c, 0, sizeof *c);
    c->engine = engine;
    c->lim = with_defaults(limits);
    c->rng = c->lim.seed ^ (salt * 0x9E3779B97F4A7C15ull);
    c->r = malloc(sizeof *c->r);
    tg_engine_clear(engine); /* the same seed and node limit give the same answer */
    return c->r ? TG_OK : TG_ERR_MEMORY;
}

uint64_t tg_opening_level_nodes(TgLevel level) {
    switch (level) {
    case TG_LEVEL_MAX: return 1000000;
    case TG_LEVEL_HARD: return 300000;
    case TG_LEVEL_MEDIUM: /* the tree levels decide an opening with the alpha-beta engine */
    case TG_LEVEL_MCTS:
    case TG_LEVEL_ZERO: return 100000;
    default: return 20000; /* a start position, not a study */
    }
}

TgError tg_opening_decide(TgEngine *engine, const TgOpening *op, const TgOpeningLimits *limits,
                          TgOpeningDecision *out) {
    memset(out, 0, sizeof *out);
    const TgOpeningStep st = tg_opening_step(op);
    out->kind = st.kind;
    if (st.kind == TG_STEP_DONE) return TG_ERR_GAME_OVER;
    Ctx c;
    TgError e =
        ctx_open(&c, engine, limits, (uint64_t)tg_opening_stones(op, NULL, 0) * 16 + st.kind);
    if (e == TG_OK) {
        switch (st.kind) {
        case TG_STEP_PLACE: e = decide_place(&c, op, &st, out); break;
        case TG_STEP_CHOOSE: e = decide_choose(&c, op, &st, out); break;
        case TG_STEP_DECLARE: e = decide_declare(&c, op, &st, out); break;
        case TG_STEP_OFFER: e = decide_offer(&c, op, &st, out); break;
        default: e = decide_select(&c, op, out); break;
        }
    }
    out->nodes = c.nodes;
    free(c.r);
    return e;
}

TgError tg_opening_apply(TgOpening *op, const TgOpeningDecision *d) {
    switch (d->kind) {
    case TG_STEP_CHOOSE: return tg_opening_choose(op, d->choice);
    case TG_STEP_DECLARE: return tg_opening_declare(op, d->number);
    case TG_STEP_SELECT: return tg_opening_select(op, d->points[0]);
    case TG_STEP_PLACE:
    case TG_STEP_OFFER:
        for (int i = 0; i < d->count; i++) {
            const TgError e = d->kind == TG_STEP_PLACE ? tg_opening_place(op, d->points[i])
                                                       : tg_opening_offer(op, d->points[i]);
            if (e != TG_OK) return e;
        }
        return TG_OK;
    default: return TG_ERR_ARGUMENT;
    }
}

TgError tg_opening_balanced(TgEngine *engine, TgRule rule, int size, const TgOpeningLimits *limits,
                            TgBalanced *out) {
    memset(out, 0, sizeof *out);
    const bool renju = rule == TG_RENJU && size % 2 == 1 && size >= 15;
    TgOpening *op = tg_opening_new(renju ? TG_OPENING_RIF : TG_OPENING_SWAP, rule, size);
    if (!op) return TG_ERR_ARGUMENT;
    Ctx c;
    TgError e = ctx_open(&c, engine, limits, 0xBA1A);
    Cand cand[MAX_CANDIDATES];
    const int n = e != TG_OK ? 0
                  : renju    ? renju_completions(&c, op, cand)
                             : shape_completions(&c, op, cand);
    if (e == TG_OK) e = score_candidates(&c, op, cand, n, TG_WHITE, true, 0);
    if (e == TG_OK) {
        const int k = pick(&c, cand, n);
        memcpy(out->stones, cand[k].p, sizeof out->stones);
        out->score = cand[k].raw;
        out->opening = tg_renju_opening_index(out->stones, size, NULL);
    }
    out->nodes = c.nodes;
    free(c.r);
    tg_opening_free(op);
    return e;
}

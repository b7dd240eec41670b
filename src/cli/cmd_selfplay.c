/*
 * cmd_selfplay.c — `tengen selfplay`: a match between two engines (A and B, each at a level),
 * in pairs of games from the same opening with colours swapped, scored for A with an Elo
 * estimate. Strength changes are judged by matches like this, never by one game.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "match.h"

const char USAGE_SELFPLAY[] =
    "usage: tengen selfplay [--black LEVEL] [--white LEVEL] [--games N] [--rule R] [--size N|WxH]\n"
    "                       [--openings FILE] [--time MS] [--threads T] [--seed S] [--quiet]\n"
    "                       [--save PREFIX] [--model FILE] [--zero-rollouts N]\n"
    "                       [--zero-draw-score N]\n"
    "\n"
    "Plays a match between engine A (--black, default max) and engine B (--white, default max);\n"
    "levels are max, hard, medium, easy, beginner, mcts and zero (mcts:N and zero:N play N\n"
    "playouts a move; --model gives zero a network file, else the built-in one for the board;\n"
    "--zero-rollouts N: random playouts a zero leaf runs beside the network, default 4, 0 for\n"
    "the network alone; --zero-draw-score N: what a draw is worth to zero, in hundredths of a\n"
    "win from -100 to 100).\n"
    "Games go in pairs from the same opening: first A\n"
    "plays Black, then the colours are swapped. --openings reads one opening a line as a move\n"
    "list (`h8i9j10`; `#` comments and blank lines skipped); an opening that is illegal under\n"
    "the rule or does not fit the board is reported and skipped. The openings are used in\n"
    "order, cycling when there are more pairs than openings; without a file, games start from\n"
    "an empty board. --games (default 2), --time (ms a move, default 1000), --threads (each\n"
    "engine's, default 1), --seed (default 1; the randomness of the easy and beginner levels, "
    "varied per game).\n"
    "Each engine has a 16 MB table, cleared before each game. Prints one line per game and\n"
    "ends with `Score: W-L-D  Elo +E +/- M (LOS P%)` for A against B (95% error bar); --quiet\n"
    "prints only the last lines. --save writes each game to PREFIX-001.psq, PREFIX-002.psq, ...;\n"
    "a game with a pass, which PSQ cannot record, goes to PREFIX-NNN.sgf instead (said on\n"
    "stderr). A game that cannot be saved is reported and the exit status is 1.\n"
    "A search error or a refused move is reported as an engine bug and loses the game for that\n"
    "side; the exit status is then 1.\n";

enum { ENGINE_HASH = 16 << 20, PLAYER_A = 0, PLAYER_B = 1 };

typedef struct Match {
    TgRule rule;
    int width, height;
    TgLevel level[2];       ///< [PLAYER_A], [PLAYER_B]
    long playouts[2];       ///< mcts and zero: playouts a move (0: the level's default)
    const char *model_path; ///< zero: the network (the built-in one when NULL)
    TgModel *model;
    long zero_rollouts; ///< zero: playouts a leaf runs beside the network (-1: default)
    long zero_draw;     ///< zero: a draw's worth in hundredths of a win (LONG_MIN: default)
    TgEngine *engine[2];
    long games;
    long time_ms;
    long threads;
    uint64_t seed;
    bool quiet;
    const char *openings_path;
    const char *save;
    MatchOpenings openings;
    long unsaved; ///< games --save could not write
} Match;

/// Wins, losses and draws of A.
typedef struct Tally {
    long win, loss, draw, bugs;
} Tally;

/* ---- Options ---- */

/// LEVEL or, for mcts and zero, LEVEL:PLAYOUTS.
static int level_option(int argc, char **argv, int *i, const char *name, TgLevel *level,
                        long *playouts) {
    const char *v;
    if (!cli_option(argc, argv, i, name, &v)) return 0;
    char text[32];
    snprintf(text, sizeof text, "%s", v);
    char *colon = strchr(text, ':');
    if (colon) *colon = '\0';
    if (!tg_level_from_name(text, level)) {
        cli_error("%s: unknown level '%s' (max, hard, medium, easy, beginner, mcts, zero)", name,
                  v);
        return -1;
    }
    *playouts = 0;
    if (!colon) return 1;
    if (*level != TG_LEVEL_MCTS && *level != TG_LEVEL_ZERO) {
        cli_error("%s: only mcts and zero take a playout count ('%s')", name, v);
        return -1;
    }
    return cli_int(name, colon + 1, 1, 100000000L, playouts) ? 1 : -1;
}

/// Reads selfplay's own options; 1 if consumed, 0 if not ours, -1 on a bad value.
static int match_option(int argc, char **argv, int *i, Match *m) {
    long seed;
    int used;
    if (cli_flag(argv, *i, "--quiet")) return m->quiet = true, 1;
    if (cli_option(argc, argv, i, "--openings", &m->openings_path)) return 1;
    if (cli_option(argc, argv, i, "--save", &m->save)) return 1;
    if (cli_option(argc, argv, i, "--model", &m->model_path)) return 1;
    if ((used =
             level_option(argc, argv, i, "--black", &m->level[PLAYER_A], &m->playouts[PLAYER_A])))
        return used;
    if ((used =
             level_option(argc, argv, i, "--white", &m->level[PLAYER_B], &m->playouts[PLAYER_B])))
        return used;
    if ((used = cli_number_option(argc, argv, i, "--zero-rollouts", 0, 64, &m->zero_rollouts)))
        return used;
    if ((used = cli_number_option(argc, argv, i, "--zero-draw-score", -100, 100, &m->zero_draw)))
        return used;
    if ((used = cli_number_option(argc, argv, i, "--games", 1, 1000000, &m->games))) return used;
    if ((used = cli_number_option(argc, argv, i, "--time", 1, 100000000L, &m->time_ms)))
        return used;
    if ((used = cli_number_option(argc, argv, i, "--threads", 1, TG_MAX_THREADS, &m->threads)))
        return used;
    if ((used = cli_number_option(argc, argv, i, "--seed", 0, 2147483647L, &seed)) > 0)
        m->seed = (uint64_t)seed;
    return used;
}

static int parse_options(int argc, char **argv, Match *m) {
    PositionOptions pos;
    position_defaults(&pos);
    for (int i = 1; i < argc; i++) {
        int used = position_option(argc, argv, &i, &pos);
        if (!used) used = match_option(argc, argv, &i, m);
        if (used < 0) return 2;
        if (!used) return cli_error("selfplay: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    if (pos.moves || pos.file)
        return cli_error("selfplay: starting positions come from --openings, not --moves/--file") +
               1;
    m->rule = pos.rule;
    m->width = pos.width;
    m->height = pos.height;
    return 0;
}

/* ---- One game ---- */

/// Which player (A or B) has `color` in game `index`: A is Black in the first of each pair.
static int player_of(long index, TgColor color) {
    return (color == TG_BLACK) == (index % 2 == 0) ? PLAYER_A : PLAYER_B;
}

/// Writes game `index` to PREFIX-NNN.psq, or to PREFIX-NNN.sgf when PSQ cannot hold it (a
/// pass); false, with a message, when it cannot be saved.
static bool save_game(const Match *m, long index, TgGame *g) {
    char path[4096], name[2][32], why_not_psq[256], err[256];
    for (int c = 0; c < 2; c++)
        snprintf(name[c], sizeof name[c], "tengen-%s (%c)",
                 tg_level_name(m->level[player_of(index, (TgColor)c)]),
                 player_of(index, (TgColor)c) == PLAYER_A ? 'A' : 'B');
    tg_game_set_info(g, "black", name[TG_BLACK]);
    tg_game_set_info(g, "white", name[TG_WHITE]);
    size_t len;
    TgFormat format = TG_FORMAT_PSQ;
    char *data = tg_record_write(g, format, &len, why_not_psq, sizeof why_not_psq);
    if (!data) {
        format = TG_FORMAT_SGF;
        data = tg_record_write(g, format, &len, err, sizeof err);
        if (!data) return cli_error("selfplay: cannot save game %ld: %s", index + 1, err) == 0;
    }
    snprintf(path, sizeof path, "%s-%03ld.%s", m->save, index + 1, tg_format_name(format));
    if (format != TG_FORMAT_PSQ)
        fprintf(stderr, "tengen: selfplay: game %ld: %s; saved as %s\n", index + 1, why_not_psq,
                path);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) cli_error("selfplay: cannot write %s", path);
    free(data);
    return ok;
}

static const MatchOpening *opening_of(const Match *m, long index) {
    return m->openings.count ? &m->openings.list[(index / 2) % m->openings.count] : NULL;
}

/// Plays game `index` (from 0); false only when no game can even be set up.
static bool play_game(Match *m, long index, MatchOutcome *out) {
    MatchSide side[2];
    for (int c = 0; c < 2; c++) {
        const int p = player_of(index, (TgColor)c);
        side[c] = (MatchSide){
            m->engine[p],
            {.level = m->level[p], .turn_ms = m->time_ms, .nodes = (uint64_t)m->playouts[p]}};
    }
    TgGame *g = match_play(m->rule, m->width, m->height, opening_of(m, index), side,
                           match_game_seed(m->seed, index), out);
    if (!g) return false;
    if (m->save && !save_game(m, index, g)) m->unsaved++;
    tg_game_free(g);
    return true;
}

/* ---- Reporting ---- */

static const char *score_of(TgColor winner) {
    return winner == TG_BLACK ? "1-0" : winner == TG_WHITE ? "0-1" : "1/2-1/2";
}

static void print_game(const Match *m, long index, const MatchOutcome *out) {
    const int black = player_of(index, TG_BLACK), white = 1 - black;
    const MatchOpening *op = opening_of(m, index);
    printf("game %ld/%ld opening %s %c(%s)=black vs %c(%s)=white: %s %s in %d moves\n", index + 1,
           m->games, op ? op->text : "empty", black == PLAYER_A ? 'A' : 'B',
           tg_level_name(m->level[black]), white == PLAYER_A ? 'A' : 'B',
           tg_level_name(m->level[white]), score_of(out->winner), out->how, out->moves);
    fflush(stdout); /* a long match shows each game as it ends */
}

static void count(Tally *t, long index, const MatchOutcome *out) {
    if (out->engine_bug) t->bugs++;
    if (out->winner == TG_NOBODY)
        t->draw++;
    else if (player_of(index, out->winner) == PLAYER_A)
        t->win++;
    else
        t->loss++;
}

/// Elo difference for an expected score s in (0, 1), by the logistic model.
static double elo_of(double s) { return -400.0 * log10(1.0 / s - 1.0); }

/// Prints the score line. The error bar is 1.96 standard errors of the mean per-game score
/// (wins, draws and losses as a trinomial), carried through the Elo curve. A clean sweep has
/// no spread and an infinite Elo, so the score is then held half a game away from 0 or 1,
/// its spread taken as binomial, and every bound kept within 0.1% .. 99.9% (about +-1200).
static void print_score(const Tally *t) {
    const double n = (double)(t->win + t->loss + t->draw);
    const double raw = ((double)t->win + 0.5 * (double)t->draw) / n;
    const double lo_cap = 0.001, hi_cap = 0.999, half = 0.5 / n;
    double s = raw < half ? half : raw > 1 - half ? 1 - half : raw;
    double var = ((double)t->win * (1 - raw) * (1 - raw) +
                  (double)t->draw * (0.5 - raw) * (0.5 - raw) + (double)t->loss * raw * raw) /
                 n;
    if (var <= 0) var = s * (1 - s);
    const double margin = 1.96 * sqrt(var / n);
    s = s < lo_cap ? lo_cap : s > hi_cap ? hi_cap : s;
    const double lo = fmax(lo_cap, s - margin), hi = fmin(hi_cap, s + margin);
    const double decisive = (double)(t->win + t->loss);
    const double los =
        decisive > 0 ? 0.5 * (1 + erf((double)(t->win - t->loss) / sqrt(2 * decisive))) : 0.5;
    const double elo = round(elo_of(s)) + 0.0; /* an even score reads +0, not -0 */
    printf("Score: %ld-%ld-%ld  Elo %+.0f +/- %.0f (LOS %.1f%%)\n", t->win, t->loss, t->draw, elo,
           (elo_of(hi) - elo_of(lo)) / 2, 100 * los);
}

/* ---- The match ---- */

static int run_match(Match *m) {
    Tally t = {0};
    for (long i = 0; i < m->games; i++) {
        MatchOutcome out;
        if (!play_game(m, i, &out)) return cli_error("selfplay: out of memory");
        count(&t, i, &out);
        if (out.engine_bug) fprintf(stderr, "tengen: selfplay: game %ld: %s\n", i + 1, out.how);
        if (!m->quiet) print_game(m, i, &out);
    }
    printf("A(%s) vs B(%s): %ld games, %s %dx%d, %ld ms a move, %s\n",
           tg_level_name(m->level[PLAYER_A]), tg_level_name(m->level[PLAYER_B]), m->games,
           tg_rule_name(m->rule), m->width, m->height, m->time_ms,
           m->openings.count ? "openings in pairs" : "empty board");
    print_score(&t);
    if (t.bugs) return cli_error("selfplay: %ld game(s) ended by an engine bug (above)", t.bugs);
    if (m->unsaved)
        return cli_error("selfplay: %ld game(s) could not be saved (above)", m->unsaved);
    return 0;
}

/// A zero-level player needs a network for the board: refused before any game, not lost game
/// by game to an engine error. 0, or 1 after saying why.
static int check_zero_network(const Match *m) {
    if (m->level[PLAYER_A] != TG_LEVEL_ZERO && m->level[PLAYER_B] != TG_LEVEL_ZERO) return 0;
    if (tg_model_for(m->model, m->rule, m->width, m->height)) return 0;
    if (!m->model)
        return cli_error("selfplay: the zero level has no network model for %s %dx%d (--model "
                         "FILE brings one)",
                         tg_rule_name(m->rule), m->width, m->height);
    const int n = tg_model_size(m->model);
    return cli_error("selfplay: the zero level's network (%s) is for %s %dx%d, not %s %dx%d",
                     m->model_path, tg_rule_name(tg_model_rule(m->model)), n, n,
                     tg_rule_name(m->rule), m->width, m->height);
}

int cmd_selfplay(int argc, char **argv) {
    Match m = {.level = {TG_LEVEL_MAX, TG_LEVEL_MAX},
               .games = 2,
               .time_ms = 1000,
               .zero_rollouts = -1,
               .zero_draw = LONG_MIN,
               .threads = 1,
               .seed = 1};
    int status = parse_options(argc, argv, &m);
    if (status) return status;
    if (m.openings_path && (status = match_openings_load(m.openings_path, m.rule, m.width, m.height,
                                                         "selfplay", &m.openings))) {
        match_openings_free(&m.openings);
        return status;
    }
    if ((m.model_path && !(m.model = cli_load_model(m.model_path))) || check_zero_network(&m)) {
        tg_model_free(m.model);
        match_openings_free(&m.openings);
        return 1;
    }
    m.engine[PLAYER_A] = tg_engine_new((int)m.threads, ENGINE_HASH);
    m.engine[PLAYER_B] = tg_engine_new((int)m.threads, ENGINE_HASH);
    if (m.engine[PLAYER_A] && m.engine[PLAYER_B]) {
        tg_engine_set_model(m.engine[PLAYER_A], m.model);
        tg_engine_set_model(m.engine[PLAYER_B], m.model);
        for (int k = 0; k < 2; k++) {
            tg_engine_set_zero_rollouts(m.engine[k], (int)m.zero_rollouts);
            tg_engine_set_zero_draw_score(
                m.engine[k], m.zero_draw == LONG_MIN ? NAN : (float)m.zero_draw / 100.0f);
        }
        status = run_match(&m);
    } else
        status = cli_error("selfplay: out of memory");
    tg_engine_free(m.engine[PLAYER_A]);
    tg_engine_free(m.engine[PLAYER_B]);
    tg_model_free(m.model);
    match_openings_free(&m.openings);
    return status;
}

/*
 * cmd_ladder.c — `tengen ladder`: the rating ladder of the levels. Plays every pair of
 * neighbouring levels (or every pair) in colour-swapped games from an opening file, fits one
 * rating to each level from all the results at once (Bradley-Terry, the Elo logistic curve, by
 * maximum likelihood, beginner = 0) and writes the games, a text table and an SVG picture.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "ladder.h"
#include "match.h"

const char USAGE_LADDER[] =
    "usage: tengen ladder [--levels L1,L2,...] [--max-nodes N] [--games N] [--pairs adjacent|all]\n"
    "                     [--rule R] [--size N|WxH] [--openings FILE] [--jobs J] [--seed S]\n"
    "                     [--time MS] [--out PREFIX] [--quiet]\n"
    "       tengen ladder --fit FILE... [--out PREFIX]\n"
    "\n"
    "Measures the levels on one rating scale. A level is a name, optionally with a node budget a\n"
    "move: `max@250000`. The default list is every level, weakest first by the ratings tengen\n"
    "ships (levels without one last), with max at --max-nodes (default 1000000) nodes a move; a\n"
    "level that cannot play the board is skipped (one named in --levels is an error). Each pair\n"
    "of neighbours in the list (--pairs all: every pair) plays --games games (default 20, even)\n"
    "from the openings of --openings, in pairs with colours swapped (without a file, from an\n"
    "empty board). --jobs plays games in that many threads at once (default 1); node budgets\n"
    "make the results independent of the machine's load. --time (default 60000) is only a\n"
    "safety cap in ms a move. --seed (default 1) varies the one-ply levels' randomness. A game\n"
    "ended by an engine bug is reported, left out of the fit and makes the exit status 1.\n"
    "\n"
    "The ratings are fitted to all games at once by maximum likelihood (Bradley-Terry with the\n"
    "Elo curve; a draw is half a win; one virtual draw per pair keeps a clean sweep finite),\n"
    "anchored at beginner = 0 (or the first level), with 95% intervals from the curvature. The\n"
    "table goes to stdout and, with --out PREFIX, to PREFIX.txt, with the games in PREFIX.games\n"
    "and the picture in PREFIX.svg. --fit reads games files (of earlier runs) instead of "
    "playing.\n";

enum {
    ENGINE_HASH = 16 << 20,
    MAX_PLAYERS = 16,
    MAX_JOBS = 16,
    PROBE_NODES = 200, ///< a level's trial search on the empty board, to see it can play it
};

/// One game of the ladder: who played which colour, and the outcome.
typedef struct LadderGame {
    int black, white;   ///< player indices
    double black_score; ///< 1, 0.5 or 0
    int moves;
    bool bug;
    const MatchOpening *opening;
} LadderGame;

typedef struct Ladder {
    LadderPlayer player[MAX_PLAYERS];
    int player_count;
    TgRule rule;
    int width, height;
    long games_per_pair, max_nodes, jobs, time_ms;
    uint64_t seed;
    bool all_pairs, quiet;
    const char *levels, *openings_path, *out;
    MatchOpenings openings;
    LadderGame *games;
    long game_count;
    /* The work queue of the play threads. */
    pthread_mutex_t lock;
    long next_game, played, bugs;
    FILE *games_file;
} Ladder;

/* ---- Players ---- */

static int add_player(Ladder *l, TgLevel level, long nodes) {
    if (l->player_count == MAX_PLAYERS) return cli_error("ladder: at most %d levels", MAX_PLAYERS);
    LadderPlayer *p = &l->player[l->player_count++];
    *p = (LadderPlayer){.level = level, .nodes = (uint64_t)nodes};
    ladder_player_name(p, p->name, sizeof p->name);
    return 0;
}

/// Reads "name" or "name@nodes".
static int parse_player(Ladder *l, const char *spec) {
    LadderPlayer p;
    if (!ladder_player_parse(spec, &p))
        return cli_error("ladder: '%s' is not a level or LEVEL@NODES", spec);
    return add_player(l, p.level, (long)p.nodes);
}

static int parse_levels(Ladder *l) {
    char *copy = strdup(l->levels);
    if (!copy) return cli_error("ladder: out of memory");
    int status = 0;
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && !status;
         t = strtok_r(NULL, ",", &save))
        status = parse_player(l, t);
    free(copy);
    if (!status && l->player_count < 2)
        status = cli_error("ladder: --levels needs two levels or more");
    return status;
}

/// Can the level play this board at all? A level may be made for some boards only (the zero
/// level needs a network for the board and rule). TG_OK, or why not.
static TgError probe_level(const Ladder *l, TgLevel level) {
    TgEngine *e = tg_engine_new(1, 1 << 20);
    TgGame *g = tg_game_new(l->rule, l->width, l->height);
    TgSearchResult *r = malloc(sizeof *r);
    const TgSearchLimits limits = {.level = level, .nodes = PROBE_NODES, .turn_ms = 1000};
    const TgError err =
        e && g && r ? tg_engine_search(e, g, &limits, NULL, NULL, r) : TG_ERR_MEMORY;
    tg_engine_free(e);
    tg_game_free(g);
    free(r);
    return err;
}

/// Refuses a list that names a level that cannot play the board.
static int check_players(const Ladder *l) {
    for (int i = 0; i < l->player_count; i++) {
        const TgError err = probe_level(l, l->player[i].level);
        if (err != TG_OK)
            return cli_error("ladder: level %s cannot play %s %dx%d: %s", l->player[i].name,
                             tg_rule_name(l->rule), l->width, l->height, tg_error_text(err));
    }
    return 0;
}

/// Every level that can play the board, weakest first (tg_levels_weakest_first).
static int default_players(Ladder *l) {
    TgLevel order[TG_LEVEL_COUNT];
    const int n = tg_levels_weakest_first(order);
    int status = 0;
    for (int i = 0; i < n && !status; i++) {
        const TgError err = probe_level(l, order[i]);
        if (err != TG_OK) {
            fprintf(stderr, "tengen: ladder: level %s cannot play %s %dx%d (%s); skipped\n",
                    tg_level_name(order[i]), tg_rule_name(l->rule), l->width, l->height,
                    tg_error_text(err));
            continue;
        }
        status = add_player(l, order[i], order[i] == TG_LEVEL_MAX ? l->max_nodes : 0);
    }
    return status;
}

/* ---- Options ---- */

/// Reads the ladder's own options; 1 if consumed, 0 if not ours, -1 on a bad value.
static int ladder_option(int argc, char **argv, int *i, Ladder *l) {
    const char *v;
    long seed;
    int used;
    if (cli_flag(argv, *i, "--quiet")) return l->quiet = true, 1;
    if (cli_option(argc, argv, i, "--levels", &l->levels)) return 1;
    if (cli_option(argc, argv, i, "--openings", &l->openings_path)) return 1;
    if (cli_option(argc, argv, i, "--out", &l->out)) return 1;
    if (cli_option(argc, argv, i, "--pairs", &v)) {
        if (strcmp(v, "adjacent") == 0 || strcmp(v, "all") == 0)
            return l->all_pairs = v[0] == 'a' && v[1] == 'l', 1;
        cli_error("--pairs: 'adjacent' or 'all', not '%s'", v);
        return -1;
    }
    if ((used = cli_number_option(argc, argv, i, "--games", 2, 100000, &l->games_per_pair))) {
        if (used > 0 && l->games_per_pair % 2) return cli_error("--games wants an even number"), -1;
        return used;
    }
    if ((used = cli_number_option(argc, argv, i, "--max-nodes", 1, 1000000000000L, &l->max_nodes)))
        return used;
    if ((used = cli_number_option(argc, argv, i, "--jobs", 1, MAX_JOBS, &l->jobs))) return used;
    if ((used = cli_number_option(argc, argv, i, "--time", 1, 100000000L, &l->time_ms)))
        return used;
    if ((used = cli_number_option(argc, argv, i, "--seed", 0, 2147483647L, &seed)) > 0)
        l->seed = (uint64_t)seed;
    return used;
}

static int parse_options(int argc, char **argv, Ladder *l, int *first_fit) {
    PositionOptions pos;
    position_defaults(&pos);
    *first_fit = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--fit") == 0) {
            *first_fit = i + 1;
            for (i++; i < argc && strncmp(argv[i], "--", 2) != 0; i++) {
            }
            if (i == *first_fit) return cli_error("ladder: --fit wants one games file or more") + 1;
            i--;
            continue;
        }
        int used = position_option(argc, argv, &i, &pos);
        if (!used) used = ladder_option(argc, argv, &i, l);
        if (used < 0) return 2;
        if (!used) return cli_error("ladder: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    if (pos.moves || pos.file)
        return cli_error("ladder: starting positions come from --openings, not --moves/--file") + 1;
    l->rule = pos.rule;
    l->width = pos.width;
    l->height = pos.height;
    return 0;
}

/* ---- Playing ---- */

static void schedule(Ladder *l) {
    long n = 0;
    for (int a = 0; a < l->player_count; a++)
        for (int b = a + 1; b < l->player_count; b++) {
            if (!l->all_pairs && b != a + 1) continue;
            for (long g = 0; g < l->games_per_pair; g++, n++) {
                LadderGame *game = &l->games[n];
                game->black = g % 2 == 0 ? a : b;
                game->white = g % 2 == 0 ? b : a;
                game->opening =
                    l->openings.count ? &l->openings.list[(g / 2) % l->openings.count] : NULL;
            }
        }
    l->game_count = n;
}

static TgSearchLimits limits_of(const Ladder *l, const LadderPlayer *p) {
    return (TgSearchLimits){.level = p->level, .nodes = p->nodes, .turn_ms = l->time_ms};
}

static void record_game(Ladder *l, long index, const MatchOutcome *out) {
    LadderGame *g = &l->games[index];
    g->black_score = out->winner == TG_BLACK ? 1 : out->winner == TG_WHITE ? 0 : 0.5;
    g->moves = out->moves;
    g->bug = out->engine_bug;
    pthread_mutex_lock(&l->lock);
    l->played++;
    l->bugs += g->bug;
    const char *result = g->black_score == 1 ? "1-0" : g->black_score == 0 ? "0-1" : "1/2";
    if (l->games_file) {
        fprintf(l->games_file, "%s%s %s %s %d %s\n", g->bug ? "# engine bug, not rated: " : "",
                l->player[g->black].name, l->player[g->white].name, result, g->moves,
                g->opening ? g->opening->text : "-");
        fflush(l->games_file);
    }
    if (!l->quiet)
        printf("game %ld/%ld %s (black) - %s (white): %s %s in %d moves\n", l->played,
               l->game_count, l->player[g->black].name, l->player[g->white].name, result, out->how,
               out->moves);
    if (out->engine_bug) fprintf(stderr, "tengen: ladder: %s\n", out->how);
    fflush(stdout);
    pthread_mutex_unlock(&l->lock);
}

static long take_game(Ladder *l) {
    pthread_mutex_lock(&l->lock);
    const long i = l->next_game < l->game_count ? l->next_game++ : -1;
    pthread_mutex_unlock(&l->lock);
    return i;
}

/// One play thread: its own two engines, games from the queue until none is left.
static void *play_games(void *arg) {
    Ladder *l = arg;
    TgEngine *e[2] = {tg_engine_new(1, ENGINE_HASH), tg_engine_new(1, ENGINE_HASH)};
    for (long i; e[0] && e[1] && (i = take_game(l)) >= 0;) {
        const LadderGame *g = &l->games[i];
        const MatchSide side[2] = {{e[0], limits_of(l, &l->player[g->black])},
                                   {e[1], limits_of(l, &l->player[g->white])}};
        MatchOutcome out;
        TgGame *game = match_play(l->rule, l->width, l->height, g->opening, side,
                                  match_game_seed(l->seed, i), &out);
        if (!game) break;
        tg_game_free(game);
        record_game(l, i, &out);
    }
    tg_engine_free(e[0]);
    tg_engine_free(e[1]);
    return NULL;
}

static int play_all(Ladder *l) {
    pthread_t threads[MAX_JOBS];
    int started = 0;
    for (long j = 0; j < l->jobs; j++)
        if (pthread_create(&threads[started], NULL, play_games, l) == 0) started++;
    for (int j = 0; j < started; j++) pthread_join(threads[j], NULL);
    if (l->played < l->game_count)
        return cli_error("ladder: out of memory after %ld games", l->played);
    return 0;
}

/* ---- Fitting and reporting ---- */

static int fit_and_report(LadderResults *r, const char *settings, const char *out) {
    LadderFit fit;
    if (!ladder_fit(r, &fit))
        return cli_error("ladder: the results do not connect every level to %s", r->player[0].name);
    ladder_print_table(stdout, r, &fit, settings);
    if (!out) return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s.txt", out);
    FILE *f = fopen(path, "w");
    if (!f) return cli_error("ladder: cannot write %s", path);
    ladder_print_table(f, r, &fit, settings);
    fclose(f);
    snprintf(path, sizeof path, "%s.svg", out);
    if (!(f = fopen(path, "w"))) return cli_error("ladder: cannot write %s", path);
    ladder_write_svg(f, r, &fit, settings);
    fclose(f);
    return 0;
}

static int results_from_games(const Ladder *l, LadderResults *r) {
    ladder_results_init(r);
    for (int i = 0; i < l->player_count; i++) ladder_results_player(r, &l->player[i]);
    for (long i = 0; i < l->game_count; i++) {
        const LadderGame *g = &l->games[i];
        if (!g->bug) ladder_results_add(r, g->black, g->white, g->black_score);
    }
    return 0;
}

static void describe_settings(const Ladder *l, char *buf, size_t size) {
    const char *slash = l->openings_path ? strrchr(l->openings_path, '/') : NULL;
    snprintf(buf, size, "%s %dx%d, openings %s, %ld games a pair (colours swapped), %s",
             tg_rule_name(l->rule), l->width, l->height,
             l->openings_path ? (slash ? slash + 1 : l->openings_path) : "none (empty board)",
             l->games_per_pair, l->all_pairs ? "every pair" : "neighbouring levels");
}

static int run_ladder(Ladder *l) {
    int status = l->levels ? parse_levels(l) : default_players(l);
    if (!status && l->levels) status = check_players(l);
    if (status) return status;
    if (l->openings_path && (status = match_openings_load(l->openings_path, l->rule, l->width,
                                                          l->height, "ladder", &l->openings)))
        return status;
    const long pairs =
        l->all_pairs ? (long)l->player_count * (l->player_count - 1) / 2 : l->player_count - 1;
    l->games = calloc((size_t)(pairs * l->games_per_pair), sizeof *l->games);
    if (!l->games) return cli_error("ladder: out of memory");
    schedule(l);
    char settings[512];
    describe_settings(l, settings, sizeof settings);
    if (l->out) {
        char path[4096];
        snprintf(path, sizeof path, "%s.games", l->out);
        if (!(l->games_file = fopen(path, "w"))) return cli_error("ladder: cannot write %s", path);
        fprintf(l->games_file,
                "# tengen ladder games, seed %" PRIu64 "\n# settings: %s\n"
                "# black white result moves opening\n",
                l->seed, settings);
    }
    pthread_mutex_init(&l->lock, NULL);
    status = play_all(l);
    pthread_mutex_destroy(&l->lock);
    if (l->games_file) fclose(l->games_file);
    if (status) return status;
    LadderResults r;
    results_from_games(l, &r);
    if ((status = fit_and_report(&r, settings, l->out))) return status;
    if (l->bugs)
        return cli_error("ladder: %ld game(s) ended by an engine bug (above), left out of the fit",
                         l->bugs);
    return 0;
}

/// --fit: the results of games files, fitted again (e.g. several runs put together).
static int refit(int argc, char **argv, int first, const char *out) {
    LadderResults r;
    ladder_results_init(&r);
    char settings[512] = "";
    for (int i = first; i < argc && strncmp(argv[i], "--", 2) != 0; i++) {
        size_t len;
        char *data = cli_read_file(argv[i], &len);
        if (!data) return 1;
        char err[256];
        const bool ok = ladder_results_read(&r, data, settings, sizeof settings, err, sizeof err);
        free(data);
        if (!ok) return cli_error("ladder: %s: %s", argv[i], err);
    }
    if (r.player_count < 2) return cli_error("ladder: the games files hold fewer than two levels");
    return fit_and_report(&r, settings, out);
}

int cmd_ladder(int argc, char **argv) {
    Ladder l = {.games_per_pair = 20, .max_nodes = 1000000, .jobs = 1, .time_ms = 60000, .seed = 1};
    int first_fit;
    int status = parse_options(argc, argv, &l, &first_fit);
    if (status) return status;
    if (first_fit) return refit(argc, argv, first_fit, l.out);
    status = run_ladder(&l);
    match_openings_free(&l.openings);
    free(l.games);
    return status;
}

/*
 * cmd_bench.c — `tengen bench`: deterministic benchmarks. By default the search bench (fixed
 * positions, one thread, fixed table cleared between positions, fixed depths); `--moves` times
 * make+undo.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "commands.h"

const char USAGE_BENCH[] =
    "usage: tengen bench [--depth D] [--hash MB] | --time MS | --nodes N [--moves-of \"h8 i9 "
    "h9\"]\n"
    "       tengen bench --moves [--count N]\n"
    "\n"
    "Searches fixed positions (freestyle 15x15 and 20x20, standard, renju) with one thread and a\n"
    "16 MB table cleared between positions, each to its set depth (--depth overrides it). The\n"
    "node count is the same on every run and compiler; the last line reads\n"
    "`Bench: <nodes> nodes <nps> nps`. Commits that change the search end with that count.\n"
    "\n"
    "--time MS: searches each bench position (or only the position after --moves-of, a\n"
    "freestyle 15x15 game) for MS milliseconds and prints the nodes at the end of every\n"
    "completed depth and the effective branching factor: the geometric mean of\n"
    "nodes(d+1) / nodes(d) over the last four completed depths (timed: not deterministic).\n"
    "--nodes N: the same with N nodes a position instead of a time (deterministic).\n"
    "\n"
    "--moves: plays seeded random games on 15x15 under each rule, making and undoing a move\n"
    "at every step with the full incremental board state, and prints make+undo pairs per\n"
    "second. The checksum line is the same on every run and compiler. --count sets the\n"
    "pairs per rule (default 20000000).\n";

static double seconds_now(void) { return (double)tg_now_ms() / 1000.0; }

static int bench_moves(long count) {
    static const TgRule rules[] = {TG_FREESTYLE, TG_STANDARD, TG_RENJU};
    uint64_t total = 0, checksum = 0;
    double elapsed = 0;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        tg_bench_moves(rules[i], 15, 1, 1 + i); /* builds the rule's pattern tables untimed */
        double t0 = seconds_now();
        TgMoveBench r = tg_bench_moves(rules[i], 15, (uint64_t)count, 1 + i);
        double t = seconds_now() - t0;
        printf("%-10s %12" PRIu64 " make+undo  %8.1f M/s  checksum %016" PRIx64 "\n",
               tg_rule_name(rules[i]), r.operations, (double)r.operations / t / 1e6, r.checksum);
        total += r.operations;
        checksum ^= r.checksum;
        elapsed += t;
    }
    printf("Moves: %" PRIu64 " make+undo %.0f per second, checksum %016" PRIx64 "\n", total,
           (double)total / elapsed, checksum);
    return 0;
}

/// Builds a bench position's game: its moves played by the rules.
static TgGame *bench_game(const TgBenchPosition *p) {
    TgPoint moves[256];
    int count;
    char err[128];
    TgGame *g = tg_game_new(p->rule, p->size, p->size);
    if (!g) return NULL;
    if (tg_parse_moves(p->moves, p->size, p->size, moves, 256, &count, err, sizeof err) != TG_OK ||
        tg_game_set_moves(g, moves, count, NULL) != TG_OK) {
        cli_error("bench: position '%s' is broken: %s", p->name, err);
        tg_game_free(g);
        return NULL;
    }
    return g;
}

static int bench_search(int depth, long hash_mb) {
    TgEngine *e = tg_engine_new(1, (size_t)hash_mb << 20);
    if (!e) return cli_error("bench: out of memory");
    uint64_t nodes = 0;
    double elapsed = 0;
    for (int i = 0; i < tg_bench_position_count(); i++) {
        const TgBenchPosition *p = tg_bench_position(i);
        TgGame *g = bench_game(p);
        if (!g) {
            tg_engine_free(e);
            return 1;
        }
        TgSearchLimits limits = {.depth = depth ? depth : p->depth};
        TgSearchResult r;
        char move[8], score[24];
        tg_engine_clear(e);
        const double t0 = seconds_now();
        TgError err = tg_engine_search(e, g, &limits, NULL, NULL, &r);
        elapsed += seconds_now() - t0;
        tg_game_free(g);
        if (err != TG_OK) {
            tg_engine_free(e);
            return cli_error("bench: %s: %s", p->name, tg_error_text(err));
        }
        tg_point_to_text(r.best, p->size, p->size, move, sizeof move);
        tg_score_text(r.score, score, sizeof score);
        printf("%-20s %-9s %2dx%-2d depth %2d  best %-4s %-10s %10" PRIu64 " nodes\n", p->name,
               tg_rule_name(p->rule), p->size, p->size, r.depth, move, score, r.nodes);
        nodes += r.nodes;
    }
    tg_engine_free(e);
    printf("Bench: %" PRIu64 " nodes %.0f nps\n", nodes,
           elapsed > 0 ? (double)nodes / elapsed : 0.0);
    return 0;
}

/* ---- Depth profile (--time) ---- */

enum { PROFILE_MAX_DEPTH = 128, PROFILE_EBF_SPAN = 4 };

typedef struct DepthProfile {
    uint64_t nodes[PROFILE_MAX_DEPTH]; ///< nodes when each depth completed; 0: not reached
    int depth;
} DepthProfile;

static void profile_depth(const TgSearchInfo *info, void *user) {
    DepthProfile *p = user;
    if (info->final || info->depth <= 0 || info->depth >= PROFILE_MAX_DEPTH) return;
    p->nodes[info->depth] = info->nodes;
    p->depth = info->depth;
}

/// Geometric mean of nodes(d+1)/nodes(d) over the last PROFILE_EBF_SPAN completed depths.
static double profile_ebf(const DepthProfile *p) {
    int lo = p->depth - PROFILE_EBF_SPAN;
    while (lo < p->depth && (lo < 1 || !p->nodes[lo])) lo++;
    if (lo >= p->depth) return 0;
    return pow((double)p->nodes[p->depth] / (double)p->nodes[lo], 1.0 / (p->depth - lo));
}

static int profile_one(TgEngine *e, const char *name, TgRule rule, int size, const char *moves,
                       long ms, long nodes) {
    const TgBenchPosition p = {name, rule, size, moves, 0};
    TgGame *g = bench_game(&p);
    if (!g) return 1;
    TgSearchLimits limits = {.turn_ms = ms, .nodes = (uint64_t)nodes};
    TgSearchResult r;
    DepthProfile prof = {{0}, 0};
    tg_engine_clear(e);
    const TgError err = tg_engine_search(e, g, &limits, profile_depth, &prof, &r);
    tg_game_free(g);
    if (err != TG_OK) return cli_error("bench: %s: %s", name, tg_error_text(err));
    printf("%-20s depth %2d seldepth %2d %9" PRIu64 " nodes %7" PRIu64 " nps  ebf %.2f |", name,
           r.depth, r.seldepth, r.nodes, r.time_ms > 0 ? r.nodes * 1000 / (uint64_t)r.time_ms : 0,
           profile_ebf(&prof));
    for (int d = 1; d <= prof.depth; d++) printf(" %" PRIu64, prof.nodes[d]);
    printf("\n");
    return 0;
}

static int bench_profile(long ms, long nodes, const char *moves, long hash_mb) {
    TgEngine *e = tg_engine_new(1, (size_t)hash_mb << 20);
    if (!e) return cli_error("bench: out of memory");
    int bad = 0;
    if (moves) bad = profile_one(e, moves, TG_FREESTYLE, 15, moves, ms, nodes);
    for (int i = 0; !moves && !bad && i < tg_bench_position_count(); i++) {
        const TgBenchPosition *p = tg_bench_position(i);
        bad = profile_one(e, p->name, p->rule, p->size, p->moves, ms, nodes);
    }
    tg_engine_free(e);
    return bad;
}

int cmd_bench(int argc, char **argv) {
    long count = 20000000, depth = 0, hash_mb = 16, ms = 0, nodes = 0;
    bool moves = false;
    const char *moves_of = NULL;
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (cli_flag(argv, i, "--moves")) {
            moves = true;
        } else if (cli_option(argc, argv, &i, "--count", &v)) {
            if (!cli_int("--count", v, 1, 1000000000000L, &count)) return 2;
        } else if (cli_option(argc, argv, &i, "--depth", &v)) {
            if (!cli_int("--depth", v, 1, 90, &depth)) return 2;
        } else if (cli_option(argc, argv, &i, "--time", &v)) {
            if (!cli_int("--time", v, 1, 3600000, &ms)) return 2;
        } else if (cli_option(argc, argv, &i, "--nodes", &v)) {
            if (!cli_int("--nodes", v, 1, 1000000000000L, &nodes)) return 2;
        } else if (cli_option(argc, argv, &i, "--moves-of", &v)) {
            moves_of = v;
        } else if (cli_option(argc, argv, &i, "--hash", &v)) {
            if (!cli_int("--hash", v, 1, 65536, &hash_mb)) return 2;
        } else {
            return cli_error("bench: unknown option '%s' (see --help)", argv[i]) + 1;
        }
    }
    if (moves) return bench_moves(count);
    return ms || nodes ? bench_profile(ms, nodes, moves_of, hash_mb)
                       : bench_search((int)depth, hash_mb);
}

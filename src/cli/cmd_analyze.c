/*
 * cmd_analyze.c — `tengen analyze`: searches a position with the full engine and shows what it
 * thinks, depth by depth, ending with the best move and its lines (or one JSON object).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "commands.h"

const char USAGE_ANALYZE[] =
    "usage: tengen analyze [--rule R] [--size N|WxH] [--moves \"h8 i9 ...\" | --file RECORD]\n"
    "                      [--time MS | --depth D | --nodes N] [--multipv K] [--threads T]\n"
    "                      [--hash MB] [--json] [--tree]\n"
    "\n"
    "Searches the position after the moves (played by the rules) with the full engine and\n"
    "prints one line per completed depth:\n"
    "  depth 7 seldepth 15 score +35 nodes 123456 nps 1000000 time 120 pv h8 i9 j10\n"
    "(with --multipv K > 1, one line per root line, each with `multipv i`), then\n"
    "`bestmove h9` and the lines found, best first: `1. h9 +21 (depth 9) pv h9 i9 ...`.\n"
    "Scores are from the side to move's view; `win in 3` counts its moves to the five, the\n"
    "five included, `loss in 2` the opponent's. --time (default 1000 ms when no limit is\n"
    "given), --depth and --nodes limit the search and may be combined. --threads (default 1)\n"
    "and --hash (MB, default 16) size the engine. --json prints only one JSON object at the\n"
    "end: rule, size, width, height, to_move, best, score, score_text, depth, seldepth, nodes,\n"
    "time_ms, nps and lines (move, score, score_text, depth, pv). --tree ends the text with the\n"
    "shape of the search's tree by the plies left at a node: the nodes that reached their\n"
    "static evaluation, the shares cut by reverse futility and by razoring and searched move by\n"
    "move, the moves searched and generated at those, how often the first move cut, the\n"
    "share answering an open three and the moves spared from move-count and futility pruning.\n"
    "A finished game is an error.\n";

typedef struct AnalyzeOptions {
    PositionOptions pos;
    TgSearchLimits limits;
    int threads;
    long hash_mb;
    bool json;
    bool tree; ///< print the tree's shape (TgTreeStats)
} AnalyzeOptions;

/// What the depth-by-depth printer needs to know: the board, to write points.
typedef struct Printer {
    int width, height;
    int last_depth; ///< the depth printed last; the final report repeats it
} Printer;

/// Reads analyze's own options; 1 if consumed, 0 if not ours, -1 on a bad value.
static int analyze_option(int argc, char **argv, int *i, AnalyzeOptions *o) {
    long n = 0;
    int used;
    if (cli_flag(argv, *i, "--json")) return o->json = true, 1;
    if (cli_flag(argv, *i, "--tree")) return o->tree = true, 1;
    if ((used = cli_number_option(argc, argv, i, "--time", 1, 100000000L, &n)))
        return used > 0 ? (o->limits.turn_ms = n, 1) : -1;
    if ((used = cli_number_option(argc, argv, i, "--depth", 1, 200, &n)))
        return used > 0 ? (o->limits.depth = (int)n, 1) : -1;
    if ((used = cli_number_option(argc, argv, i, "--nodes", 1, 1000000000000L, &n)))
        return used > 0 ? (o->limits.nodes = (uint64_t)n, 1) : -1;
    if ((used = cli_number_option(argc, argv, i, "--multipv", 1, TG_MAX_MULTIPV, &n)))
        return used > 0 ? (o->limits.multipv = (int)n, 1) : -1;
    if ((used = cli_number_option(argc, argv, i, "--threads", 1, TG_MAX_THREADS, &n)))
        return used > 0 ? (o->threads = (int)n, 1) : -1;
    if ((used = cli_number_option(argc, argv, i, "--hash", 1, 65536, &n)))
        return used > 0 ? (o->hash_mb = n, 1) : -1;
    return 0;
}

static void print_pv(const TgPvLine *line, int width, int height) {
    for (int k = 0; k < line->length; k++) {
        char pt[8];
        tg_point_to_text(line->moves[k], width, height, pt, sizeof pt);
        printf(" %s", pt);
    }
}

/// One line per root line of a completed depth. The final report of a deepening search
/// repeats the last depth, so it is printed only when it is new (the root solver's answer).
static void on_depth(const TgSearchInfo *info, void *user) {
    Printer *p = user;
    if (info->final && info->depth == p->last_depth) return;
    p->last_depth = info->depth;
    for (int i = 0; i < info->line_count; i++) {
        char score[16];
        tg_score_text(info->lines[i].score, score, sizeof score);
        printf("depth %d seldepth %d", info->depth, info->seldepth);
        if (info->line_count > 1) printf(" multipv %d", i + 1);
        printf(" score %s nodes %" PRIu64 " nps %" PRIu64 " time %" PRId64 " pv", score,
               info->nodes, info->nps, info->time_ms);
        print_pv(&info->lines[i], p->width, p->height);
        printf("\n");
    }
    fflush(stdout); /* a long search shows its progress as it goes, even through a pipe */
}

static uint64_t nps_of(const TgSearchResult *r) {
    return r->time_ms > 0 ? r->nodes * 1000 / (uint64_t)r->time_ms : r->nodes * 1000;
}

static void print_text(const TgSearchResult *r, int width, int height) {
    char best[8];
    tg_point_to_text(r->best, width, height, best, sizeof best);
    printf("bestmove %s\n", best);
    for (int i = 0; i < r->line_count; i++) {
        const TgPvLine *l = &r->lines[i];
        char move[8], score[16];
        tg_point_to_text(l->moves[0], width, height, move, sizeof move);
        tg_score_text(l->score, score, sizeof score);
        printf("%d. %s %s (depth %d) pv", i + 1, move, score, l->depth);
        print_pv(l, width, height);
        printf("\n");
    }
}

static json_t *json_point(TgPoint p, int width, int height) {
    char pt[8];
    tg_point_to_text(p, width, height, pt, sizeof pt);
    return json_string(pt);
}

static json_t *json_line(const TgPvLine *l, int width, int height) {
    char score[16];
    tg_score_text(l->score, score, sizeof score);
    json_t *pv = json_array();
    for (int k = 0; k < l->length; k++)
        json_array_append_new(pv, json_point(l->moves[k], width, height));
    return json_pack("{s:o, s:i, s:s, s:i, s:o}", "move", json_point(l->moves[0], width, height),
                     "score", l->score, "score_text", score, "depth", l->depth, "pv", pv);
}

/// "size" is the side of a square board, or "WxH" for a rectangle; width and height always.
static json_t *json_size(int width, int height) {
    char text[16];
    if (width == height) return json_integer(width);
    snprintf(text, sizeof text, "%dx%d", width, height);
    return json_string(text);
}

static int print_json(const TgGame *g, const TgSearchResult *r) {
    const int w = tg_game_width(g), h = tg_game_height(g);
    char score[16];
    tg_score_text(r->score, score, sizeof score);
    json_t *lines = json_array();
    for (int i = 0; i < r->line_count; i++)
        json_array_append_new(lines, json_line(&r->lines[i], w, h));
    json_t *root =
        json_pack("{s:s, s:o, s:i, s:i, s:s, s:o, s:i, s:s, s:i, s:i, s:I, s:I, s:I, s:o}", "rule",
                  tg_rule_name(tg_game_rule(g)), "size", json_size(w, h), "width", w, "height", h,
                  "to_move", tg_color_name(tg_game_to_move(g)), "best", json_point(r->best, w, h),
                  "score", r->score, "score_text", score, "depth", r->depth, "seldepth",
                  r->seldepth, "nodes", (json_int_t)r->nodes, "time_ms", (json_int_t)r->time_ms,
                  "nps", (json_int_t)nps_of(r), "lines", lines);
    if (!root || json_dumpf(root, stdout, JSON_PRESERVE_ORDER) != 0) {
        json_decref(root);
        return cli_error("analyze: cannot write the JSON answer");
    }
    printf("\n");
    json_decref(root);
    return 0;
}

/// Says why there is nothing to search: the game's result when it has one.
static int game_over_error(const TgGame *g) {
    const TgResult res = tg_game_result(g);
    if (res.reason == TG_REASON_NONE)
        return cli_error("analyze: %s: a five stands on the board",
                         tg_error_text(TG_ERR_GAME_OVER));
    if (res.winner == TG_NOBODY)
        return cli_error("analyze: the game is over (draw by %s); nothing to analyze",
                         tg_reason_name(res.reason));
    return cli_error("analyze: the game is over (%s won by %s); nothing to analyze",
                     tg_color_name(res.winner), tg_reason_name(res.reason));
}

static double share(uint64_t part, uint64_t whole) {
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

static double per_node(uint64_t count, uint64_t nodes) {
    return nodes ? (double)count / (double)nodes : 0;
}

/// The tree's shape, one row per depth left with any node, deepest first.
static void print_tree(const TgTreeStats *t) {
    printf("tree: plies left, nodes evaluated; %% of them futile, razored, looped; at looped "
           "nodes moves searched / generated, %% that failed high, %% of those on the first move, "
           "%% answering an open three, moves spared from pruning\n");
    for (int d = TG_TREE_DEPTHS - 1; d >= 0; d--) {
        if (!t->evaluated[d]) continue;
        printf("%3d%s %10" PRIu64
               "  %5.1f%% %5.1f%% %5.1f%%  %5.2f / %5.1f  %5.1f%% %5.1f%%  %5.1f%% "
               "%5.2f\n",
               d, d == TG_TREE_DEPTHS - 1 ? "+" : " ", t->evaluated[d],
               share(t->futile[d], t->evaluated[d]), share(t->razored[d], t->evaluated[d]),
               share(t->looped[d], t->evaluated[d]), per_node(t->searched[d], t->looped[d]),
               per_node(t->generated[d], t->looped[d]), share(t->cut[d], t->looped[d]),
               share(t->first_cut[d], t->cut[d]), share(t->answering[d], t->looped[d]),
               per_node(t->spared[d], t->looped[d]));
    }
}

static int analyze(const AnalyzeOptions *o, const TgGame *g) {
    TgEngine *engine = tg_engine_new(o->threads, (size_t)o->hash_mb << 20);
    TgSearchResult *r = malloc(sizeof *r);
    Printer printer = {tg_game_width(g), tg_game_height(g), 0};
    TgError e = engine && r ? TG_OK : TG_ERR_MEMORY;
    if (e == TG_OK)
        e = tg_engine_search(engine, g, &o->limits, o->json ? NULL : on_depth, &printer, r);
    int status = 0;
    if (e == TG_ERR_GAME_OVER)
        status = game_over_error(g);
    else if (e != TG_OK)
        status = cli_error("analyze: %s", tg_error_text(e));
    else if (o->json)
        status = print_json(g, r);
    else
        print_text(r, printer.width, printer.height);
    if (e == TG_OK && o->tree && !o->json) print_tree(&r->tree);
    free(r);
    tg_engine_free(engine);
    return status;
}

int cmd_analyze(int argc, char **argv) {
    AnalyzeOptions o = {.limits = {.level = TG_LEVEL_MAX}, .threads = 1, .hash_mb = 16};
    position_defaults(&o.pos);
    for (int i = 1; i < argc; i++) {
        int used = position_option(argc, argv, &i, &o.pos);
        if (!used) used = analyze_option(argc, argv, &i, &o);
        if (used < 0) return 2;
        if (!used) return cli_error("analyze: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    if (!o.limits.turn_ms && !o.limits.depth && !o.limits.nodes) o.limits.turn_ms = 1000;
    TgGame *g = position_game(&o.pos, false);
    if (!g) return 1;
    const int status = analyze(&o, g);
    tg_game_free(g);
    return status;
}

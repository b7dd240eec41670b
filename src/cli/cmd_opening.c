/*
 * cmd_opening.c — `tengen opening`: the opening rules from the command line. Lists the 26
 * renju openings, shows what an opening phase asks next and what the engine decides there,
 * lets the engine play a whole opening phase, or proposes a balanced starting position.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

const char USAGE_OPENING[] =
    "usage: tengen opening [--rule R] [--size N] [--opening RULE] [--line \"RULE ACTIONS\"]\n"
    "                      [--auto | --balanced | --list] [--nodes N] [--time MS]\n"
    "                      [--seed S] [--margin M] [--candidates K] [--threads T]\n"
    "\n"
    "Opening rules (rules.md §4): none, swap1, swap, swap2, rif, yamaguchi, soosorv8,\n"
    "taraguchi10. Without --line the phase starts empty under --opening (default swap2, or rif\n"
    "when --rule is renju). A line is the rule, then one word per action: a point for a stone,\n"
    "an offer or a selection, stay/swap/place-two/offer for a choice, a number for a\n"
    "declaration, e.g. \"rif h8 i9 j10 swap h11\".\n"
    "\n"
    "Prints what the phase asks next and the engine's decision for it (score for the deciding\n"
    "player, nodes, why). --auto lets the engine take every step to the end and prints the\n"
    "resulting line. --balanced proposes a three-stone starting position the engine judges\n"
    "close to even (one of the 26 openings under renju). --list prints the 26 openings.\n"
    "Each search is limited by --nodes (default 200000) and/or --time; near-equal choices\n"
    "(within --margin, default 30) are drawn with --seed (default 1).\n";

typedef struct OpeningOptions {
    TgOpeningRule orule;
    bool orule_set;
    const char *line;
    bool autoplay, balanced, list;
    int threads;
    TgOpeningLimits limits;
} OpeningOptions;

static int limit_option(int argc, char **argv, int *i, OpeningOptions *o) {
    const char *v;
    long n;
    if (cli_option(argc, argv, i, "--nodes", &v)) {
        if (!cli_int("--nodes", v, 1, 1000000000000L, &n)) return -1;
        return o->limits.nodes = (uint64_t)n, 1;
    }
    if (cli_option(argc, argv, i, "--time", &v)) {
        if (!cli_int("--time", v, 1, 100000000L, &n)) return -1;
        return o->limits.time_ms = n, 1;
    }
    if (cli_option(argc, argv, i, "--seed", &v)) {
        if (!cli_int("--seed", v, 0, 2147483647L, &n)) return -1;
        return o->limits.seed = (uint64_t)n, 1;
    }
    if (cli_option(argc, argv, i, "--margin", &v)) {
        if (!cli_int("--margin", v, 1, 10000, &n)) return -1;
        return o->limits.margin = (int)n, 1;
    }
    if (cli_option(argc, argv, i, "--candidates", &v)) {
        if (!cli_int("--candidates", v, 1, 64, &n)) return -1;
        return o->limits.candidates = (int)n, 1;
    }
    if (cli_option(argc, argv, i, "--threads", &v)) {
        if (!cli_int("--threads", v, 1, TG_MAX_THREADS, &n)) return -1;
        return o->threads = (int)n, 1;
    }
    return 0;
}

static int opening_option(int argc, char **argv, int *i, OpeningOptions *o) {
    const char *v;
    if (cli_flag(argv, *i, "--auto")) return o->autoplay = true, 1;
    if (cli_flag(argv, *i, "--balanced")) return o->balanced = true, 1;
    if (cli_flag(argv, *i, "--list")) return o->list = true, 1;
    if (cli_option(argc, argv, i, "--line", &v)) return o->line = v, 1;
    if (cli_option(argc, argv, i, "--opening", &v)) {
        if (!tg_opening_rule_from_name(v, &o->orule))
            return cli_error("opening: unknown opening rule '%s'", v), -1;
        return o->orule_set = true, 1;
    }
    return limit_option(argc, argv, i, o);
}

static void list_openings(void) {
    for (int i = 0; i < TG_RENJU_OPENINGS; i++) {
        const TgRenjuOpening *r = tg_renju_opening(i);
        printf("%-4s %-10s %s %s  %s  %s\n", r->code, r->name, r->chinese, r->kanji,
               r->direct ? "direct  " : "indirect", r->moves);
    }
}

static void print_points(const TgPoint *p, int n, int size) {
    for (int i = 0; i < n; i++) {
        char pt[8];
        tg_point_to_text(p[i], size, size, pt, sizeof pt);
        printf(" %s", pt);
    }
}

static void print_decision(const TgOpening *op, const TgOpeningDecision *d) {
    printf("decision:");
    if (d->kind == TG_STEP_CHOOSE)
        printf(" %s", tg_choice_name(d->choice));
    else if (d->kind == TG_STEP_DECLARE)
        printf(" %d", d->number);
    else
        print_points(d->points, d->count, tg_opening_size(op));
    char score[16];
    tg_score_text(d->score, score, sizeof score);
    printf("  (score %s, %" PRIu64 " nodes: %s)\n", score, d->nodes, d->why);
}

/// Prints the step and the engine's decision; applies it. False on an error.
static bool decide_once(TgEngine *e, TgOpening *op, const TgOpeningLimits *lim) {
    char text[256];
    tg_opening_step_text(op, text, sizeof text);
    printf("step: %s\n", text);
    TgOpeningDecision d;
    const TgError err = tg_opening_decide(e, op, lim, &d);
    if (err != TG_OK) return cli_error("opening: %s", tg_error_text(err)), false;
    print_decision(op, &d);
    fflush(stdout);
    if (tg_opening_apply(op, &d) != TG_OK)
        return cli_error("opening: the decision was refused: %s", tg_opening_why(op)), false;
    return true;
}

static int run_phase(TgEngine *e, const PositionOptions *p, const OpeningOptions *o) {
    char err[256] = "", line[512];
    snprintf(line, sizeof line, "%s", o->line ? o->line : tg_opening_rule_name(o->orule));
    TgOpening *op = tg_opening_from_text(line, p->rule, p->width, err, sizeof err);
    if (!op) return cli_error("opening: %s", err);
    bool ok = true;
    if (tg_opening_done(op))
        printf("the opening is over\n");
    else
        ok = decide_once(e, op, &o->limits);
    while (ok && o->autoplay && !tg_opening_done(op)) ok = decide_once(e, op, &o->limits);
    tg_opening_text(op, line, sizeof line);
    const int index = tg_opening_renju_index(op);
    printf("line: %s", line);
    if (index >= 0)
        printf("  (%s %s %s)", tg_renju_opening(index)->code, tg_renju_opening(index)->name,
               tg_renju_opening(index)->chinese);
    printf("\n");
    tg_opening_free(op);
    return ok ? 0 : 1;
}

static int run_balanced(TgEngine *e, const PositionOptions *p, const OpeningOptions *o) {
    TgBalanced b;
    const TgError err = tg_opening_balanced(e, p->rule, p->width, &o->limits, &b);
    if (err != TG_OK) return cli_error("opening: %s", tg_error_text(err));
    printf("balanced:");
    print_points(b.stones, 3, p->width);
    if (b.opening >= 0)
        printf("  (%s %s %s)", tg_renju_opening(b.opening)->code, tg_renju_opening(b.opening)->name,
               tg_renju_opening(b.opening)->chinese);
    printf("  score %+d for White to move, %" PRIu64 " nodes\n", b.score, b.nodes);
    return 0;
}

int cmd_opening(int argc, char **argv) {
    PositionOptions p;
    OpeningOptions o = {.orule = TG_OPENING_SWAP2, .threads = 1, .limits = {.seed = 1}};
    position_defaults(&p);
    for (int i = 1; i < argc; i++) {
        int used = position_option(argc, argv, &i, &p);
        if (!used) used = opening_option(argc, argv, &i, &o);
        if (used < 0) return 2;
        if (!used) return cli_error("opening: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    if (o.list) return list_openings(), 0;
    if (p.width != p.height) return cli_error("opening: the board must be square");
    if (!o.orule_set && p.rule == TG_RENJU) o.orule = TG_OPENING_RIF;
    if (!o.limits.nodes && !o.limits.time_ms) o.limits.nodes = 200000;
    TgEngine *e = tg_engine_new(o.threads, 0);
    if (!e) return cli_error("opening: out of memory");
    const int rc = o.balanced ? run_balanced(e, &p, &o) : run_phase(e, &p, &o);
    tg_engine_free(e);
    return rc;
}

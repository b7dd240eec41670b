/*
 * cmd_tune.c — `tengen tune`: learns an evaluation weight table from training data
 * (docs/eval.md). The learning is tg_tune(); this file reads the options, prints the progress
 * and writes the table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

const char USAGE_TUNE[] =
    "usage: tengen tune --data FILE [--data FILE...] --rule R --out FILE [--epochs N]\n"
    "                   [--rate X] [--lambda X] [--pull X] [--batch N] [--from FILE|seed]\n"
    "                   [--seed S]\n"
    "       tengen tune --tree FILE [--tree FILE...] [--tree-plies N] --rule R --out FILE\n"
    "                   [options as above]\n"
    "       tengen tune --data FILE... --values-only --rule R --out FILE [options as above]\n"
    "\n"
    "Learns the evaluation's weight table for rule R (docs/eval.md) from training data made\n"
    "by `tengen datagen`: first the scale that turns search scores into win probabilities,\n"
    "then N epochs (default 12) of Adam (step X evaluation units, default 1) on the\n"
    "cross-entropy against a blend of the game results (share --lambda, default 0.5) and the\n"
    "search scores (with --lambda 0 the scores alone, on the start table's scale). A pull\n"
    "towards the start (--pull X a unit of weight, default 1e-6) keeps codes that seldom occur\n"
    "where they were. It starts from the rule's built-in table, the table in a file, or the\n"
    "seed weights (--from seed); with --epochs 0 it writes that start. Every 20th game is\n"
    "held out to measure the loss. One line per epoch: losses, positions/s. The table is\n"
    "written to FILE as text; copy it to weights/R.txt and rebuild to play with it.\n"
    "\n"
    "--tree learns only the move ordering, from the tree samples of `tengen datagen --tree`\n"
    "(nodes inside searches and the move that proved best there; a position met more than\n"
    "once counts once, at its deepest): the ordering's code values and its values for where\n"
    "a move lies from the last four moves, for the pair of threat classes it makes and takes,\n"
    "and for each against the node's threat mask. The evaluation's values stay the start's.\n"
    "--tree-plies N keeps only positions searched N plies or more from the leaves (default 1):\n"
    "nearer the leaves the search tries few moves, so the best one found is mostly the one it\n"
    "tried first.\n"
    "\n"
    "--values-only learns only the evaluation's values from the data: the move ordering stays\n"
    "the start's, so a tree-trained ordering is kept while the values follow a newer search.\n";

typedef struct TuneOptions {
    TgTuneSettings s;
    const char *data[64];
    const char *tree[64];
    const char *out, *from;
} TuneOptions;

static void report(const TgTuneProgress *p, void *user) {
    double *last_seconds = user; /* when the previous line was printed */
    if (p->epoch == 0) {
        printf("tune: %" PRIu64 " games, %" PRIu64 " positions (%" PRIu64 " held out), scale %d "
               "(%.1f s to read)\n",
               p->games, p->samples + p->valid_samples, p->valid_samples, p->scale, p->seconds);
        if (p->ordering_only)
            printf("tune: %" PRIu64 " ordering choices (%" PRIu64 " held out): the ordering only\n",
                   p->choices + p->valid_choices, p->valid_choices);
        if (p->values_only) printf("tune: the evaluation's values only, the ordering kept\n");
        printf("tune: start     train loss %.5f  validation loss %.5f  ordering %.4f %.4f "
               "(temperature %.0f)\n",
               p->train_loss, p->valid_loss, p->order_train_loss, p->order_valid_loss,
               p->order_temperature);
    } else {
        printf("tune: epoch %2d  train loss %.5f  validation loss %.5f  ordering %.4f %.4f  "
               "%.0f positions/s\n",
               p->epoch, p->train_loss, p->valid_loss, p->order_train_loss, p->order_valid_loss,
               (double)p->samples / (p->seconds > *last_seconds ? p->seconds - *last_seconds : 1));
    }
    *last_seconds = p->seconds;
    fflush(stdout);
}

static bool parse_fraction(const char *name, const char *v, double lo, double hi, double *out) {
    char *end;
    const double x = strtod(v, &end);
    if (end == v || *end || !(x >= lo && x <= hi)) {
        cli_error("%s wants a number from %g to %g, not '%s'", name, lo, hi, v);
        return false;
    }
    *out = x;
    return true;
}

static int tune_options(int argc, char **argv, TuneOptions *o) {
    bool has_rule = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        long n;
        if (cli_option(argc, argv, &i, "--out", &o->out)) continue;
        if (cli_option(argc, argv, &i, "--from", &o->from)) continue;
        if (cli_option(argc, argv, &i, "--data", &v)) {
            if (o->s.data_count == (int)(sizeof o->data / sizeof *o->data))
                return cli_error("tune: at most 64 data files") + 1;
            o->data[o->s.data_count++] = v;
        } else if (cli_option(argc, argv, &i, "--tree", &v)) {
            if (o->s.tree_count == (int)(sizeof o->tree / sizeof *o->tree))
                return cli_error("tune: at most 64 tree files") + 1;
            o->tree[o->s.tree_count++] = v;
        } else if (cli_option(argc, argv, &i, "--tree-plies", &v)) {
            if (!cli_int("--tree-plies", v, 1, 1000, &n)) return 2;
            o->s.tree_min_plies = (int)n;
        } else if (cli_flag(argv, i, "--values-only")) {
            o->s.values_only = true;
        } else if (cli_option(argc, argv, &i, "--rule", &v)) {
            if (!tg_rule_from_name(v, &o->s.rule))
                return cli_error("tune: unknown rule '%s'", v) + 1;
            has_rule = true;
        } else if (cli_option(argc, argv, &i, "--epochs", &v)) {
            if (!cli_int("--epochs", v, 0, 1000, &n)) return 2;
            o->s.epochs = (int)n;
        } else if (cli_option(argc, argv, &i, "--batch", &v)) {
            if (!cli_int("--batch", v, 1, 1 << 24, &n)) return 2;
            o->s.batch = (int)n;
        } else if (cli_option(argc, argv, &i, "--seed", &v)) {
            if (!cli_int("--seed", v, 0, 2147483647L, &n)) return 2;
            o->s.seed = (uint64_t)n;
        } else if (cli_option(argc, argv, &i, "--rate", &v)) {
            if (!parse_fraction("--rate", v, 1e-6, 1000, &o->s.rate)) return 2;
        } else if (cli_option(argc, argv, &i, "--lambda", &v)) {
            if (!parse_fraction("--lambda", v, 0, 1, &o->s.lambda)) return 2;
        } else if (cli_option(argc, argv, &i, "--pull", &v)) {
            if (!parse_fraction("--pull", v, 1e-12, 1, &o->s.pull)) return 2;
        } else
            return cli_error("tune: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    if (!o->out || !has_rule || (!o->s.data_count && !o->s.tree_count && o->s.epochs))
        return cli_error("tune: --data FILE, --rule R and --out FILE are needed (see --help)") + 1;
    if (o->s.values_only && o->s.tree_count)
        return cli_error("tune: --values-only learns from --data, not from --tree") + 1;
    o->s.data = o->data;
    o->s.tree = o->tree;
    return 0;
}

/// The starting table: "seed", a file, or (NULL) the built-in one.
static bool load_start(TuneOptions *o, char **text) {
    *text = NULL;
    if (!o->from) return true;
    if (!strcmp(o->from, "seed")) {
        o->s.from_seed = true;
        return true;
    }
    size_t len;
    *text = cli_read_file(o->from, &len); /* says why on failure */
    o->s.start_text = *text;
    return *text != NULL;
}

int cmd_tune(int argc, char **argv) {
    TuneOptions o = {.s = {.rule = TG_FREESTYLE, .epochs = 12, .lambda = 0.5}};
    const int status = tune_options(argc, argv, &o);
    if (status) return status;
    char *start;
    if (!load_start(&o, &start)) return 1;
    char err[300];
    double last_seconds = 0;
    char *table = tg_tune(&o.s, report, &last_seconds, err, sizeof err);
    free(start);
    if (!table) return cli_error("tune: %s", err);
    FILE *f = fopen(o.out, "w");
    const bool written = f && fputs(table, f) >= 0;
    if (f && fclose(f) != 0) f = NULL;
    free(table);
    if (!written || !f) return cli_error("tune: cannot write %s", o.out);
    printf("tune: wrote %s\n", o.out);
    return 0;
}

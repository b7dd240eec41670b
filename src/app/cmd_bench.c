/*
 * cmd_bench.c — `tengen bench`: deterministic benchmarks. `--moves` times make+undo; the search
 * bench joins it when the engine lands.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "commands.h"

const char USAGE_BENCH[] =
    "usage: tengen bench [--moves] [--count N]\n"
    "\n"
    "--moves: plays seeded random games on 15x15 under each rule, making and undoing a move\n"
    "at every step with the full incremental board state, and prints make+undo pairs per\n"
    "second. The checksum line is the same on every run and compiler. --count sets the\n"
    "pairs per rule (default 20000000).\n";

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

int cmd_bench(int argc, char **argv) {
    long count = 20000000;
    const char *v;
    for (int i = 1; i < argc; i++) {
        if (cli_flag(argv, i, "--moves")) continue;
        if (cli_option(argc, argv, &i, "--count", &v)) {
            if (!cli_int("--count", v, 1, 1000000000000L, &count)) return 2;
        } else {
            return cli_error("bench: unknown option '%s' (see --help)", argv[i]) + 1;
        }
    }
    return bench_moves(count);
}

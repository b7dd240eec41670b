/*
 * cmd_zero.c — `tengen zero`: the learning loop's C side. Self-play games into a directory of
 * training records, a random model to start from, a model's description, and the speed
 * figures (playouts, network evaluations, self-play games a second).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"

const char USAGE_ZERO[] =
    "usage: tengen zero selfplay --model FILE --games N --out DIR [--playouts P] [--threads T]\n"
    "                            [--temperature-moves M] [--seed S] [--quiet]\n"
    "       tengen zero init --out FILE [--size N] [--rule R] [--channels C] [--blocks B]\n"
    "                        [--seed S]\n"
    "       tengen zero info FILE\n"
    "       tengen zero bench [--model FILE] [--size N] [--rule R] [--ms MS]\n"
    "\n"
    "selfplay plays N games of the model against itself (Dirichlet noise at the root, moves\n"
    "drawn by visit counts for the first M stones, default an eighth of the board) and\n"
    "appends them as training records (docs/zero.md) to DIR/selfplay-HOST-PID.tgsp, one file\n"
    "per process, so that many processes (and machines sharing DIR) can write at once. P\n"
    "playouts a move (default 400), T search threads.\n"
    "init writes a model with small random weights (default 8x8 freestyle, 32 channels, 2\n"
    "residual blocks). info checks a model file and describes it. bench measures random\n"
    "playouts, network evaluations (scalar and fast paths, one position and batches of 8) and\n"
    "self-play games per CPU second or hour of its one thread (fair on a busy machine);\n"
    "--model defaults to a random 8x8 model.\n";

enum { DEFAULT_PLAYOUTS = 400, DEFAULT_CHANNELS = 32, DEFAULT_BLOCKS = 2, BENCH_BATCH = 8 };

/// CPU milliseconds of this process: on a shared machine the fair clock for a one-thread bench.
static int64_t cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) return cli_error("%s: %s", path, strerror(errno)), false;
    const bool ok = fwrite(data, 1, len, f) == len;
    if (fclose(f) != 0 || !ok) return cli_error("%s: cannot write it", path), false;
    return true;
}

/* ---- selfplay ---- */

typedef struct SelfplayOptions {
    const char *model, *out;
    long games, playouts, threads, temperature_moves, seed;
    bool quiet;
} SelfplayOptions;

static int selfplay_options(int argc, char **argv, SelfplayOptions *o) {
    for (int i = 2; i < argc; i++) {
        const char *v;
        if (cli_option(argc, argv, &i, "--model", &o->model) ||
            cli_option(argc, argv, &i, "--out", &o->out))
            continue;
        if (cli_flag(argv, i, "--quiet")) {
            o->quiet = true;
            continue;
        }
        if (cli_option(argc, argv, &i, "--games", &v)) {
            if (!cli_int("--games", v, 1, 100000000L, &o->games)) return 2;
        } else if (cli_option(argc, argv, &i, "--playouts", &v)) {
            if (!cli_int("--playouts", v, 1, 1000000L, &o->playouts)) return 2;
        } else if (cli_option(argc, argv, &i, "--threads", &v)) {
            if (!cli_int("--threads", v, 1, 64, &o->threads)) return 2;
        } else if (cli_option(argc, argv, &i, "--temperature-moves", &v)) {
            if (!cli_int("--temperature-moves", v, 1, 100000L, &o->temperature_moves)) return 2;
        } else if (cli_option(argc, argv, &i, "--seed", &v)) {
            if (!cli_int("--seed", v, 0, 2147483647L, &o->seed)) return 2;
        } else
            return cli_error("zero selfplay: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    if (!o->model || !o->out || !o->games)
        return cli_error("zero selfplay: --model, --games and --out are needed (see --help)") + 1;
    return 0;
}

/// The record file of this process in dir (created if missing), opened for appending.
static int open_records(const char *dir) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return cli_error("%s: %s", dir, strerror(errno)), -1;
    char host[64] = "host", path[4096];
    gethostname(host, sizeof host - 1);
    for (char *c = host; *c; c++)
        if (*c == '/' || *c == ' ') *c = '_';
    snprintf(path, sizeof path, "%s/selfplay-%s-%ld.tgsp", dir, host, (long)getpid());
    const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
    if (fd < 0) cli_error("%s: %s", path, strerror(errno));
    return fd;
}

static int zero_selfplay(int argc, char **argv) {
    SelfplayOptions o = {.playouts = DEFAULT_PLAYOUTS, .threads = 1, .seed = -1};
    int status = selfplay_options(argc, argv, &o);
    if (status) return status;
    TgModel *m = cli_load_model(o.model);
    if (!m) return 1;
    const int fd = open_records(o.out);
    if (fd < 0) {
        tg_model_free(m);
        return 1;
    }
    const uint64_t seed =
        o.seed >= 0 ? (uint64_t)o.seed : (uint64_t)getpid() * 1000003u + (uint64_t)time(NULL);
    const int64_t start = tg_now_ms();
    long moves_total = 0, wins[3] = {0};
    for (long g = 0; g < o.games && status == 0; g++) {
        const TgZeroSettings s = {.playouts = (int)o.playouts,
                                  .threads = (int)o.threads,
                                  .temperature_moves = (int)o.temperature_moves,
                                  .seed = seed + (uint64_t)g * 0x9e3779b97f4a7c15u};
        size_t len;
        int moves;
        TgColor winner;
        void *rec = tg_zero_selfplay(m, &s, &len, &moves, &winner);
        if (!rec) {
            status = cli_error("zero selfplay: out of memory");
            break;
        }
        if (write(fd, rec, len) != (ssize_t)len)
            status = cli_error("zero selfplay: %s: %s", o.out, strerror(errno));
        free(rec);
        moves_total += moves;
        wins[winner]++;
        if (!o.quiet)
            printf("game %ld/%ld: %d moves, %s\n", g + 1, o.games, moves,
                   winner == TG_NOBODY  ? "draw"
                   : winner == TG_BLACK ? "black wins"
                                        : "white wins");
        fflush(stdout);
    }
    const double hours = (double)(tg_now_ms() - start) / 3600000.0;
    printf("selfplay: %ld games, %ld moves, black %ld white %ld draws %ld, %.0f games/hour\n",
           o.games, moves_total, wins[TG_BLACK], wins[TG_WHITE], wins[TG_NOBODY],
           hours > 0 ? (double)o.games / hours : 0.0);
    close(fd);
    tg_model_free(m);
    return status;
}

/* ---- init and info ---- */

static int zero_init(int argc, char **argv) {
    PositionOptions pos;
    position_defaults(&pos);
    pos.width = pos.height = 8;
    pos.rule = TG_FREESTYLE;
    long channels = DEFAULT_CHANNELS, blocks = DEFAULT_BLOCKS, seed = 1;
    const char *out = NULL;
    for (int i = 2; i < argc; i++) {
        const char *v;
        int used = position_option(argc, argv, &i, &pos);
        if (used < 0) return 2;
        if (used || cli_option(argc, argv, &i, "--out", &out)) continue;
        if (cli_option(argc, argv, &i, "--channels", &v)) {
            if (!cli_int("--channels", v, 8, 256, &channels)) return 2;
        } else if (cli_option(argc, argv, &i, "--blocks", &v)) {
            if (!cli_int("--blocks", v, 0, 40, &blocks)) return 2;
        } else if (cli_option(argc, argv, &i, "--seed", &v)) {
            if (!cli_int("--seed", v, 0, 2147483647L, &seed)) return 2;
        } else
            return cli_error("zero init: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    if (!out) return cli_error("zero init: --out FILE is needed") + 1;
    if (pos.width != pos.height) return cli_error("zero init: the board must be square") + 1;
    TgModel *m = tg_model_random(pos.rule, pos.width, (int)channels, (int)blocks, (uint64_t)seed);
    size_t len;
    void *data = m ? tg_model_write(m, &len) : NULL;
    const bool ok = data && write_file(out, data, len);
    free(data);
    tg_model_free(m);
    return ok ? 0 : 1;
}

static int zero_info(int argc, char **argv) {
    if (argc != 3) return cli_error("zero info: one model file, please") + 1;
    TgModel *m = cli_load_model(argv[2]);
    if (!m) return 1;
    printf("%s: %s %dx%d, %d channels, %d residual blocks, value head %s (format %d), "
           "inference %s\n",
           argv[2], tg_rule_name(tg_model_rule(m)), tg_model_size(m), tg_model_size(m),
           tg_model_channels(m), tg_model_blocks(m),
           tg_model_format(m) == 1 ? "one value" : "win-draw-loss", tg_model_format(m),
           tg_model_fast(m) ? "AVX2/FMA" : "scalar");
    tg_model_free(m);
    return 0;
}

/* ---- bench ---- */

/// Network evaluations a CPU second, `batch` positions a call, for about `ms`.
static double evals_per_second(const TgModel *m, const TgGame *g, int batch, int64_t ms) {
    const int cells = tg_model_size(m) * tg_model_size(m);
    float *policy = malloc(sizeof(float) * (size_t)(cells * batch)), value[BENCH_BATCH];
    const TgGame *games[BENCH_BATCH];
    for (int k = 0; k < batch; k++) games[k] = g;
    long n = 0;
    const int64_t start = cpu_ms();
    int64_t t = start;
    while (policy && t - start < ms) {
        tg_model_evaluate(m, games, batch, policy, value, NULL);
        n += batch;
        t = cpu_ms();
    }
    free(policy);
    return t > start ? (double)n * 1000.0 / (double)(t - start) : 0;
}

static int zero_bench(int argc, char **argv) {
    PositionOptions pos;
    position_defaults(&pos);
    pos.width = pos.height = 8;
    pos.rule = TG_FREESTYLE;
    const char *model = NULL;
    long ms = 2000;
    for (int i = 2; i < argc; i++) {
        const char *v;
        int used = position_option(argc, argv, &i, &pos);
        if (used < 0) return 2;
        if (used || cli_option(argc, argv, &i, "--model", &model)) continue;
        if (cli_option(argc, argv, &i, "--ms", &v)) {
            if (!cli_int("--ms", v, 10, 600000, &ms)) return 2;
        } else
            return cli_error("zero bench: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    TgModel *m = model ? cli_load_model(model)
                       : tg_model_random(pos.rule, pos.width, DEFAULT_CHANNELS, DEFAULT_BLOCKS, 1);
    if (!m) return 1;
    const int size = tg_model_size(m);
    const int64_t wall0 = tg_now_ms(), cpu0 = cpu_ms();
    const double rate = tg_mcts_playout_rate(tg_model_rule(m), size, ms, 1);
    const int64_t wall = tg_now_ms() - wall0, cpu = cpu_ms() - cpu0;
    printf("(rates per CPU second of this process, one thread)\n");
    printf("random playouts/s from the empty board, %s %dx%d: %.0f\n",
           tg_rule_name(tg_model_rule(m)), size, size,
           cpu > 0 ? rate * (double)wall / (double)cpu : rate);
    TgGame *g = tg_game_new(tg_model_rule(m), size, size);
    TgEngine *e = tg_engine_new(1, 1 << 20);
    if (g && e) { /* the whole mcts level: tree, selection and playouts */
        const TgSearchLimits l = {.level = TG_LEVEL_MCTS, .nodes = 20000};
        TgSearchResult r;
        const int64_t c0 = cpu_ms();
        tg_engine_search(e, g, &l, NULL, NULL, &r);
        const int64_t c = cpu_ms() - c0;
        printf("mcts level, a 20000-playout search from the empty board: %.0f playouts/s\n",
               c > 0 ? (double)r.nodes * 1000.0 / (double)c : 0.0);
    }
    tg_engine_free(e);
    const TgPoint opening[3] = {
        {size / 2, size / 2}, {size / 2 + 1, size / 2}, {size / 2, size / 2 + 1}};
    for (int i = 0; g && i < 3; i++) tg_game_play(g, opening[i], 0);
    const bool fast = tg_model_fast(m);
    printf("network %d channels x %d blocks:\n", tg_model_channels(m), tg_model_blocks(m));
    for (int path = 0; g && path < 2; path++) {
        if (path == 1 && !tg_model_set_fast(m, true)) break;
        if (path == 0) tg_model_set_fast(m, false);
        printf("  %-8s evals/s batch 1: %.0f, batch %d: %.0f\n", path ? "AVX2/FMA" : "scalar",
               evals_per_second(m, g, 1, ms / 2), BENCH_BATCH,
               evals_per_second(m, g, BENCH_BATCH, ms / 2));
    }
    tg_model_set_fast(m, fast);
    const TgZeroSettings s = {.playouts = DEFAULT_PLAYOUTS, .seed = 1};
    const int64_t start = cpu_ms();
    int games = 0, moves = 0;
    while (games < 1 || cpu_ms() - start < ms) {
        size_t len;
        int n;
        free(tg_zero_selfplay(m, &s, &len, &n, NULL));
        games++, moves += n;
    }
    const double secs = (double)(cpu_ms() - start) / 1000.0;
    printf("self-play, %d playouts a move, 1 thread: %.0f games/hour (%.1f moves a game)\n",
           DEFAULT_PLAYOUTS, (double)games * 3600.0 / secs, (double)moves / games);
    tg_game_free(g);
    tg_model_free(m);
    return 0;
}

int cmd_zero(int argc, char **argv) {
    if (argc < 2) return cli_error("zero: selfplay, init, info or bench (see --help)") + 1;
    if (strcmp(argv[1], "selfplay") == 0) return zero_selfplay(argc, argv);
    if (strcmp(argv[1], "init") == 0) return zero_init(argc, argv);
    if (strcmp(argv[1], "info") == 0) return zero_info(argc, argv);
    if (strcmp(argv[1], "bench") == 0) return zero_bench(argc, argv);
    return cli_error("zero: unknown subcommand '%s' (selfplay, init, info, bench)", argv[1]) + 1;
}

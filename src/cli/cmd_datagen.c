/*
 * cmd_datagen.c — `tengen datagen`: self-play training data for the evaluation tuner
 * (docs/formats.md, "Training data (.tgd)"). The games are played by tg_datagen(); this file
 * reads the options and prints the progress.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"

const char USAGE_DATAGEN[] =
    "usage: tengen datagen --games N --out FILE [--rule R] [--size N] [--nodes N] [--threads T]\n"
    "                      [--seed S] [--random MIN-MAX] [--tree FILE] [--quiet]\n"
    "       tengen datagen --import FILE... --out FILE [--rule R] [--size N] [--nodes N]\n"
    "                      [--threads T] [--quiet]\n"
    "       tengen datagen --relabel FILE... --out FILE [--scores] [--nodes N] [--threads T]\n"
    "                      [--quiet]\n"
    "       tengen datagen --check FILE...\n"
    "\n"
    "Plays N self-play games of the full engine at a fixed node budget a move (default 3000)\n"
    "and appends them to FILE as training data (.tgd, docs/formats.md): every engine move with\n"
    "its search score, and the result. Each game starts from MIN-MAX random stones near the\n"
    "centre (default 2-6; never a renju foul; drawn again when another game of the run had\n"
    "them, up to symmetry, or a short search finds the position lopsided) and ends at a five,\n"
    "a full board or the first forced win the search announces. T threads play whole games\n"
    "at once (default 1). Rule: freestyle (default), standard, renju, caro8 or caro9; size\n"
    "15 unless given. The same seed with one thread gives the same file; without --seed one\n"
    "is drawn and printed. A run appending to a file plays openings its games do not have.\n"
    "Data files can be joined with cat. Progress goes to stderr every few seconds (--quiet:\n"
    "only the summary).\n"
    "\n"
    "--tree FILE also appends samples of the searches' trees to FILE: nodes where a move\n"
    "proved best, one line each (the position, the node's move list, the best move), for\n"
    "training the move ordering with `tengen tune --tree` (docs/eval.md).\n"
    "\n"
    "--relabel reads such tree files and appends each position to FILE once, with the move\n"
    "that proved best replaced by the best move of a fresh search of N nodes (default 3000):\n"
    "near the leaves the tree's move is mostly the one the ordering tried first, so the\n"
    "tuner would learn its own choices back. Positions whose new move is not on their list\n"
    "are left out. T threads search at once; one thread keeps the order of the lines.\n"
    "With --scores FILE gets training data for the evaluation's values instead: each\n"
    "position as a game of its stones and the best move, scored by the search, with no\n"
    "result (`tengen tune --values-only --lambda 0` learns from the scores alone).\n"
    "\n"
    "--import scores games played elsewhere (a stronger engine's, masters') instead of\n"
    "playing: each keeps its moves and result, and every move after its book gets the score of\n"
    "the same search. A .txt file holds one game a line in h8 notation, the book before a\n"
    "'|' (\"h8 i9 j7 | g8 f9 ...\"; none without one; # starts a comment); each move after\n"
    "the book may carry the score another engine gave it, on tengen's scale (\"g8:35\"; on\n"
    "all of a line's moves or none), which is kept instead of searching. .psq, .sgf and .pos\n"
    "files hold one game, with no book. --rule and --size apply where the record does not\n"
    "say. A game that did not end at a five or in a draw is skipped with a note; a line or\n"
    "file that does not read stops the run before anything is written.\n"
    "\n"
    "--check reads data files, replays every game by its rule and prints what each holds:\n"
    "games, positions (scored moves), results, games decided by a forced-win score; a\n"
    "malformed file is refused with the offset and the fault (exit status 1).\n";

enum {
    PROGRESS_MS = 5000,   ///< between progress lines
    DEFAULT_NODES = 3000, ///< tg_datagen's default, for the summary
};

typedef struct DatagenOptions {
    TgDatagenSettings s;
    const char *out;
    bool quiet;
    char **import; ///< --import's files (import_count of them), or NULL
    int import_count;
    char **relabel; ///< --relabel's files (relabel_count of them), or NULL
    int relabel_count;
    bool scores; ///< --scores: --relabel writes scored training data
} DatagenOptions;

/// Is argv[i] a value rather than an option? ("-" alone is standard input.)
static bool is_value(const char *arg) { return arg[0] != '-' || arg[1] == '\0'; }

typedef struct Progress {
    int64_t last_ms;
    int games;          ///< games asked for
    uint64_t positions; ///< written so far
    bool quiet;
} Progress;

static void report(int games, uint64_t positions, double seconds, void *user) {
    Progress *p = user;
    const int64_t now = tg_now_ms();
    p->positions = positions;
    if (p->quiet || (now - p->last_ms < PROGRESS_MS && games < p->games)) return;
    p->last_ms = now;
    fprintf(stderr, "datagen: %d/%d games, %" PRIu64 " positions, %.0f positions/s\n", games,
            p->games, positions, seconds > 0 ? (double)positions / seconds : 0.0);
}

/// Reads "MIN-MAX" (or one number for both).
static bool parse_range(const char *text, int *lo, int *hi) {
    char *end;
    const long a = strtol(text, &end, 10);
    long b = a;
    if (*end == '-') b = strtol(end + 1, &end, 10);
    if (end == text || *end || a < 0 || b < a || b < 1 || b > 200) {
        cli_error("--random wants MIN-MAX stones (0 <= MIN <= MAX, MAX >= 1), not '%s'", text);
        return false;
    }
    *lo = (int)a, *hi = (int)b;
    return true;
}

static int datagen_options(int argc, char **argv, DatagenOptions *o) {
    bool seeded = false;
    for (int i = 1; i < argc; i++) {
        const char *v;
        long n;
        if (cli_option(argc, argv, &i, "--out", &o->out)) continue;
        if (cli_flag(argv, i, "--quiet")) {
            o->quiet = true;
        } else if (cli_flag(argv, i, "--scores")) {
            o->scores = true;
        } else if (cli_flag(argv, i, "--import")) {
            o->import = argv + i + 1;
            while (i + 1 < argc && is_value(argv[i + 1])) i++, o->import_count++;
            if (!o->import_count) return cli_error("datagen: --import wants FILE...") + 1;
        } else if (cli_flag(argv, i, "--relabel")) {
            o->relabel = argv + i + 1;
            while (i + 1 < argc && is_value(argv[i + 1])) i++, o->relabel_count++;
            if (!o->relabel_count) return cli_error("datagen: --relabel wants FILE...") + 1;
        } else if (cli_option(argc, argv, &i, "--rule", &v)) {
            if (!tg_rule_from_name(v, &o->s.rule))
                return cli_error("datagen: unknown rule '%s'", v) + 1;
        } else if (cli_option(argc, argv, &i, "--size", &v)) {
            if (!cli_int("--size", v, TG_MIN_SIZE, TG_MAX_SIZE, &n)) return 2;
            o->s.size = (int)n;
        } else if (cli_option(argc, argv, &i, "--games", &v)) {
            if (!cli_int("--games", v, 1, 100000000L, &n)) return 2;
            o->s.games = (int)n;
        } else if (cli_option(argc, argv, &i, "--nodes", &v)) {
            if (!cli_int("--nodes", v, 1, 1000000000L, &n)) return 2;
            o->s.nodes = (uint64_t)n;
        } else if (cli_option(argc, argv, &i, "--threads", &v)) {
            if (!cli_int("--threads", v, 1, TG_MAX_THREADS, &n)) return 2;
            o->s.threads = (int)n;
        } else if (cli_option(argc, argv, &i, "--seed", &v)) {
            if (!cli_int("--seed", v, 0, 2147483647L, &n)) return 2;
            o->s.seed = (uint64_t)n;
            seeded = true;
        } else if (cli_option(argc, argv, &i, "--tree", &v)) {
            o->s.tree_path = v;
        } else if (cli_option(argc, argv, &i, "--random", &v)) {
            if (!parse_range(v, &o->s.random_min, &o->s.random_max)) return 2;
        } else
            return cli_error("datagen: unknown option '%s' (see --help)", argv[i]) + 1;
    }
    if (o->relabel && (o->import || o->s.tree_path || o->s.games || !o->out))
        return cli_error("datagen: --relabel FILE... wants --out FILE, and no --games, --import "
                         "or --tree") +
               1;
    if (o->scores && !o->relabel) return cli_error("datagen: --scores goes with --relabel") + 1;
    if (o->relabel) return 0;
    if (o->import && o->s.tree_path)
        return cli_error("datagen: --tree goes with self-play, not --import") + 1;
    if (o->import && (!o->out || o->s.games))
        return cli_error("datagen: --import FILE... wants --out FILE, and no --games") + 1;
    if (!o->import && (!o->out || !o->s.games))
        return cli_error("datagen: --games N and --out FILE are needed (see --help)") + 1;
    if (!seeded) o->s.seed = ((uint64_t)time(NULL) * 1000003u + (uint64_t)getpid()) % 2147483648u;
    return 0;
}

/* ---- --import ---- */

/// The games to import, with their books; the games are owned.
typedef struct GameList {
    TgGame **games;
    int *book;
    int **scores; ///< per game: the scores given after the book, or NULL
    int count, cap;
    int skipped; ///< unfinished games left out
} GameList;

static void game_list_free(GameList *l) {
    for (int i = 0; i < l->count; i++) tg_game_free(l->games[i]), free(l->scores[i]);
    free(l->games);
    free(l->book);
    free(l->scores);
}

static bool game_list_grow(GameList *l) {
    const int cap = l->cap ? 2 * l->cap : 256;
    TgGame **games = realloc(l->games, (size_t)cap * sizeof *games);
    if (games) l->games = games;
    int *books = games ? realloc(l->book, (size_t)cap * sizeof *books) : NULL;
    if (books) l->book = books;
    int **scores = books ? realloc(l->scores, (size_t)cap * sizeof *scores) : NULL;
    if (scores) l->scores = scores;
    if (scores) l->cap = cap;
    return scores != NULL;
}

/// Adds a game and its scores (NULL: none), which it takes over, or skips them (with a note
/// naming `where`) when the game is unfinished.
static bool game_list_add(GameList *l, TgGame *g, int book, int *scores, const char *where) {
    const TgReason why = tg_game_result(g).reason;
    bool ok = true;
    if (why != TG_REASON_FIVE && why != TG_REASON_FULL_BOARD && why != TG_REASON_AGREEMENT) {
        fprintf(stderr, "datagen: %s: not ended at a five or in a draw: skipped\n", where);
        l->skipped++;
    } else if (l->count < l->cap || game_list_grow(l)) {
        l->games[l->count] = g;
        l->scores[l->count] = scores;
        l->book[l->count++] = book;
        return true;
    } else {
        ok = cli_error("datagen: out of memory") == 0;
    }
    tg_game_free(g);
    free(scores);
    return ok;
}

/// One line of a move-list file (tg_data_import_line). False (with a message) when it does not
/// read.
static bool read_game_line(GameList *l, const char *line, const DatagenOptions *o,
                           const char *where) {
    char err[300];
    int book, *scores;
    TgGame *g = tg_data_import_line(line, o->s.rule, o->s.size, &book, &scores, err, sizeof err);
    if (!g) return cli_error("datagen: %s: %s", where, err), false;
    return game_list_add(l, g, book, scores, where);
}

/// Reads one file named on the command line into the list.
static bool read_import_file(GameList *l, const char *path, const DatagenOptions *o) {
    size_t len;
    char *text = cli_read_file(path, &len);
    if (!text) return false;
    bool ok = true;
    const TgFormat format = tg_format_from_path(path);
    if (format != TG_FORMAT_MOVES && format != TG_FORMAT_UNKNOWN) {
        char err[300];
        TgGame *g = tg_record_read(format, text, len, o->s.rule, o->s.size, err, sizeof err);
        ok = g ? game_list_add(l, g, 0, NULL, path)
               : (cli_error("datagen: %s: %s", path, err), false);
        free(text);
        return ok;
    }
    int number = 0;
    for (char *line = text, *next; ok && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        number++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        if (strspn(line, " \t\r|") == strlen(line)) continue;
        char where[300];
        snprintf(where, sizeof where, "%s:%d", path, number);
        ok = read_game_line(l, line, o, where);
    }
    free(text);
    return ok;
}

static int import_games(const DatagenOptions *o) {
    GameList l = {0};
    bool ok = true;
    for (int i = 0; ok && i < o->import_count; i++) ok = read_import_file(&l, o->import[i], o);
    if (ok && l.count == 0) ok = cli_error("datagen --import: no finished game to score") == 0;
    int status = 1;
    if (ok) {
        const TgDataImport im = {.games = l.games,
                                 .book = l.book,
                                 .scores = (const int *const *)l.scores,
                                 .count = l.count,
                                 .nodes = o->s.nodes,
                                 .threads = o->s.threads};
        Progress p = {.last_ms = tg_now_ms(), .games = l.count, .quiet = o->quiet};
        const int64_t start = tg_now_ms();
        char err[300];
        const TgError e = tg_data_import(&im, o->out, report, &p, err, sizeof err);
        const double seconds = (double)(tg_now_ms() - start) / 1000.0;
        if (e != TG_OK) {
            cli_error("datagen: %s", err);
        } else {
            printf("datagen: %d games (%d skipped), %" PRIu64 " positions scored at %" PRIu64
                   " nodes and appended to %s in %.1f s, %.0f positions/s\n",
                   l.count, l.skipped, p.positions, o->s.nodes ? o->s.nodes : DEFAULT_NODES, o->out,
                   seconds, seconds > 0 ? (double)p.positions / seconds : 0.0);
            status = 0;
        }
    }
    game_list_free(&l);
    return status;
}

/* ---- --relabel ---- */

static void report_relabel(int read, uint64_t written, double seconds, void *user) {
    Progress *p = user;
    const int64_t now = tg_now_ms();
    p->games = read;
    p->positions = written;
    if (p->quiet || now - p->last_ms < PROGRESS_MS) return;
    p->last_ms = now;
    fprintf(stderr, "datagen: %d positions searched, %" PRIu64 " written, %.0f positions/s\n", read,
            written, seconds > 0 ? (double)read / seconds : 0.0);
}

static int relabel_trees(const DatagenOptions *o) {
    const TgTreeRelabel r = {.inputs = (const char *const *)o->relabel,
                             .input_count = o->relabel_count,
                             .nodes = o->s.nodes,
                             .threads = o->s.threads,
                             .scores = o->scores};
    Progress p = {.last_ms = tg_now_ms(), .quiet = o->quiet};
    const int64_t start = tg_now_ms();
    char err[300];
    const TgError e = tg_tree_relabel(&r, o->out, report_relabel, &p, err, sizeof err);
    if (e != TG_OK) return cli_error("datagen: %s", err);
    const double seconds = (double)(tg_now_ms() - start) / 1000.0;
    printf("datagen: %d positions searched at %" PRIu64 " nodes, %" PRIu64
           " written with their new best move%s to %s in %.1f s\n",
           p.games, o->s.nodes ? o->s.nodes : DEFAULT_NODES, p.positions,
           o->scores ? " and its score" : "", o->out, seconds);
    return 0;
}

static int check_files(int argc, char **argv) {
    if (argc < 3) return cli_error("datagen --check: name one data file or more") + 1;
    int status = 0;
    for (int i = 2; i < argc; i++) {
        TgDataSummary sum;
        char err[300];
        if (tg_data_summary(argv[i], &sum, err, sizeof err) != TG_OK) {
            status = cli_error("%s", err);
            continue;
        }
        printf("%s: %" PRId64 " games, %" PRId64 " positions (%" PRId64 " moves); black %" PRId64
               ", white %" PRId64 ", draws %" PRId64 "; %" PRId64 " decided by a forced-win "
               "score;",
               argv[i], sum.games, sum.positions, sum.moves, sum.results[TG_BLACK],
               sum.results[TG_WHITE], sum.results[TG_NOBODY], sum.adjudicated);
        for (int r = 0; r < TG_RULE_COUNT; r++)
            if (sum.rules[r]) printf(" %s %" PRId64, tg_rule_name((TgRule)r), sum.rules[r]);
        printf("\n");
    }
    return status;
}

int cmd_datagen(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "--check") == 0) return check_files(argc, argv);
    DatagenOptions o = {.s = {.rule = TG_FREESTYLE, .size = 15, .threads = 1}};
    const int status = datagen_options(argc, argv, &o);
    if (status) return status;
    if (o.import) return import_games(&o);
    if (o.relabel) return relabel_trees(&o);
    Progress p = {.last_ms = tg_now_ms(), .games = o.s.games, .quiet = o.quiet};
    const int64_t start = tg_now_ms();
    char err[300];
    const TgError e = tg_datagen(&o.s, o.out, report, &p, err, sizeof err);
    if (e == TG_ERR_PARSE)
        return cli_error("datagen: %s (it appends only to a sound data file: truncate it to that "
                         "offset to keep the games before)",
                         err);
    if (e != TG_OK) return cli_error("datagen: %s", err);
    const double seconds = (double)(tg_now_ms() - start) / 1000.0;
    printf("datagen: %d games, %" PRIu64 " positions of %s %dx%d at %" PRIu64 " nodes a move "
           "(seed %" PRIu64 ") appended to %s in %.1f s, %.0f positions/s\n",
           o.s.games, p.positions, tg_rule_name(o.s.rule), o.s.size, o.s.size,
           o.s.nodes ? o.s.nodes : DEFAULT_NODES, o.s.seed, o.out, seconds,
           seconds > 0 ? (double)p.positions / seconds : 0.0);
    return 0;
}

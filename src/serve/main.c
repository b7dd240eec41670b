/*
 * main.c — `tengen serve`: reads the options, opens the archive, starts the workers and
 * the HTTP server, prints the address, and on SIGINT or SIGTERM shuts everything down in
 * order (streams and HTTP first, then the searches, then the archive).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../cli/commands.h"
#include "serve.h"

const char USAGE_SERVE[] =
    "usage: tengen serve [--host 127.0.0.1] [--port 8080] [--db PATH] [--workers N] [--rate N]\n"
    "                    [--model FILE]\n"
    "\n"
    "Serves the web game and its JSON API (docs/api.md) on http://HOST:PORT/ and prints that\n"
    "address once it listens. --port 0 lets the system choose. --db is the SQLite archive of\n"
    "every game (default $XDG_DATA_HOME/tengen/tengen.sqlite, that is\n"
    "~/.local/share/tengen/tengen.sqlite); a game can be continued after a restart. --workers\n"
    "is the number of engine threads (default: the processors). --rate is the requests a second\n"
    "each client address may make (default 50, bursts of twice that; 0: no limit). --model is\n"
    "the zero level's network (a model file, docs/zero.md) in place of the built-in ones: games\n"
    "against zero are then offered on its rule and size only. Stop it with Ctrl-C (SIGINT) or\n"
    "SIGTERM; every acknowledged move is already on disk.\n";

/// The one piece of global state: set by the signal handler, read by the main loop.
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

/// Creates every missing folder of the path's parent (like mkdir -p).
static bool make_parent_dirs(const char *path) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return true;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) return false;
        *p = '/';
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

static bool default_db_path(char *buf, size_t size) {
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (xdg && *xdg) return snprintf(buf, size, "%s/tengen/tengen.sqlite", xdg) < (int)size;
    if (home && *home)
        return snprintf(buf, size, "%s/.local/share/tengen/tengen.sqlite", home) < (int)size;
    return false;
}

static int parse_options(int argc, char **argv, ServeConfig *cfg, const char **model) {
    for (int i = 1; i < argc; i++) {
        const char *v;
        long n;
        if (cli_option(argc, argv, &i, "--host", &v)) {
            cfg->host = v;
        } else if (cli_option(argc, argv, &i, "--port", &v)) {
            if (!cli_int("--port", v, 0, 65535, &n)) return 2;
            cfg->port = (int)n;
        } else if (cli_option(argc, argv, &i, "--model", &v)) {
            *model = v;
        } else if (cli_option(argc, argv, &i, "--db", &v)) {
            cfg->db_path = v;
        } else if (cli_option(argc, argv, &i, "--workers", &v)) {
            if (!cli_int("--workers", v, 1, 256, &n)) return 2;
            cfg->workers = (int)n;
        } else if (cli_option(argc, argv, &i, "--rate", &v)) {
            if (!cli_int("--rate", v, 0, 1000000, &n)) return 2;
            cfg->rate = (int)n;
        } else {
            return cli_error("serve: unknown option '%s' (see --help)", argv[i]) + 1;
        }
    }
    return 0;
}

static void catch_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a client that leaves must not end the server */
}

static void wait_for_signal(void) {
    const struct timespec tick = {0, 100 * 1000000L};
    while (!stop_requested) nanosleep(&tick, NULL);
}

/// Serves until SIGINT or SIGTERM; everything it started is stopped in order.
static int serve(const ServeConfig *cfg) {
    char err[512];
    catch_signals();
    Server *s = server_new(cfg, true, err, sizeof err);
    if (!s) return cli_error("serve: %s", err);
    int port = 0;
    Http *h = http_start(s, &port, err, sizeof err);
    if (!h) {
        server_free(s);
        return cli_error("serve: %s", err);
    }
    printf("tengen: serving http://%s:%d/\n", http_host(h), port);
    fflush(stdout);
    wait_for_signal();
    atomic_store(&s->quit, true); /* event streams end, so the HTTP threads can be joined */
    http_stop(h);
    server_free(s);
    return 0;
}

int cmd_serve(int argc, char **argv) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    ServeConfig cfg = {
        .host = "127.0.0.1", .port = 8080, .workers = cpus > 0 ? (int)cpus : 1, .rate = 50};
    char db[4096];
    const char *model_path = NULL;
    const int status = parse_options(argc, argv, &cfg, &model_path);
    if (status) return status;
    if (!cfg.db_path) {
        if (!default_db_path(db, sizeof db))
            return cli_error("serve: no HOME or XDG_DATA_HOME for the archive; use --db PATH");
        cfg.db_path = db;
    }
    if (strcmp(cfg.db_path, ":memory:") != 0 && !make_parent_dirs(cfg.db_path))
        return cli_error("serve: cannot create the folder of %s: %s", cfg.db_path, strerror(errno));
    TgModel *model = NULL;
    if (model_path && !(model = cli_load_model(model_path))) return 1; /* refused at start */
    cfg.model = model;
    const int result = serve(&cfg);
    tg_model_free(model);
    return result;
}

/*
 * cli.c — option parsing and position loading shared by the command-line front ends.
 */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FILE = 16 << 20, MAX_MOVES = 1024 };

int cli_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tengen: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

bool cli_option(int argc, char **argv, int *i, const char *name, const char **value) {
    if (strcmp(argv[*i], name) != 0) return false;
    if (*i + 1 >= argc) {
        /* Named here: the caller would only see an option it does not know. */
        cli_error("'%s' needs a value (see --help)", name);
        exit(2);
    }
    *value = argv[++*i];
    return true;
}

const char *cli_foul_name(TgFoul foul) {
    return foul == TG_FOUL_OVERLINE      ? "overline"
           : foul == TG_FOUL_DOUBLE_FOUR ? "double four"
                                         : "double three";
}

bool cli_flag(char **argv, int i, const char *name) { return strcmp(argv[i], name) == 0; }

bool cli_int(const char *name, const char *text, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi) {
        cli_error("%s wants a whole number from %ld to %ld, not '%s'", name, lo, hi, text);
        return false;
    }
    *out = v;
    return true;
}

int cli_number_option(int argc, char **argv, int *i, const char *name, long lo, long hi,
                      long *out) {
    const char *v;
    if (!cli_option(argc, argv, i, name, &v)) return 0;
    return cli_int(name, v, lo, hi, out) ? 1 : -1;
}

bool cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
    return false;
}

void position_defaults(PositionOptions *o) {
    *o = (PositionOptions){.rule = TG_FREESTYLE, .width = 15, .height = 15};
}

bool cli_parse_size(const char *text, int *w, int *h) {
    int a, b;
    char tail;
    if (sscanf(text, "%dx%d%c", &a, &b, &tail) == 2 ||
        sscanf(text, "%dX%d%c", &a, &b, &tail) == 2) {
    } else if (sscanf(text, "%d%c", &a, &tail) == 1) {
        b = a;
    } else {
        return false;
    }
    if (a < TG_MIN_SIZE || a > TG_MAX_SIZE || b < TG_MIN_SIZE || b > TG_MAX_SIZE) return false;
    *w = a;
    *h = b;
    return true;
}

int position_option(int argc, char **argv, int *i, PositionOptions *o) {
    const char *v;
    if (cli_option(argc, argv, i, "--rule", &v)) {
        if (tg_rule_from_name(v, &o->rule)) return 1;
        cli_error("unknown rule '%s' (freestyle, standard, renju, caro8, caro9)", v);
        return -1;
    }
    if (cli_option(argc, argv, i, "--size", &v)) {
        if (cli_parse_size(v, &o->width, &o->height)) return 1;
        cli_error("--size wants N or WxH with sides from %d to %d, not '%s'", TG_MIN_SIZE,
                  TG_MAX_SIZE, v);
        return -1;
    }
    if (cli_option(argc, argv, i, "--moves", &o->moves)) return 1;
    if (cli_option(argc, argv, i, "--file", &o->file)) return 1;
    return 0;
}

static TgGame *game_from_file(const PositionOptions *o) {
    size_t len;
    char *data = cli_read_file(o->file, &len), err[256];
    if (!data) return NULL;
    TgGame *g = tg_record_read(tg_format_from_path(o->file), data, len, o->rule,
                               o->width == o->height ? o->width : 0, err, sizeof err);
    free(data);
    if (!g) cli_error("%s: %s", o->file, err);
    return g;
}

TgGame *position_game(const PositionOptions *o, bool diagram) {
    if (o->file) return game_from_file(o);
    TgGame *g = tg_game_new(o->rule, o->width, o->height);
    TgPoint *moves = malloc(sizeof *moves * MAX_MOVES);
    char err[256];
    int n = 0, bad = -1;
    if (!g || !moves) goto fail;
    if (o->moves && tg_parse_moves(o->moves, o->width, o->height, moves, MAX_MOVES, &n, err,
                                   sizeof err) != TG_OK) {
        cli_error("--moves: %s", err);
        goto fail;
    }
    TgError e = diagram ? tg_game_setup(g, moves, n, &bad) : tg_game_set_moves(g, moves, n, &bad);
    if (e != TG_OK) {
        char pt[8];
        tg_point_to_text(moves[bad], o->width, o->height, pt, sizeof pt);
        TgFoul foul = TG_FOUL_NONE;
        /* A renju foul is named, as the terminal and web games name it. */
        if (e == TG_ERR_FORBIDDEN && tg_game_set_moves(g, moves, bad, NULL) == TG_OK)
            tg_game_check(g, moves[bad], &foul);
        if (foul != TG_FOUL_NONE)
            cli_error("--moves: move %d (%s) is forbidden for Black: %s (%s)", bad + 1, pt,
                      cli_foul_name(foul), tg_foul_code(foul));
        else
            cli_error("--moves: move %d (%s): %s", bad + 1, pt, tg_error_text(e));
        goto fail;
    }
    free(moves);
    return g;
fail:
    free(moves);
    tg_game_free(g);
    return NULL;
}

char *cli_read_file(const char *path, size_t *len) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        cli_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(MAX_FILE + 1);
    size_t n = buf ? fread(buf, 1, MAX_FILE + 1, f) : 0;
    bool failed = !buf || ferror(f) || n > MAX_FILE;
    if (f != stdin) fclose(f);
    if (failed) {
        cli_error("%s: %s", path, buf ? "cannot read it, or it is over 16 MiB" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

TgModel *cli_load_model(const char *path) {
    size_t len;
    char *data = cli_read_file(path, &len);
    if (!data) return NULL;
    char err[200];
    TgModel *m = tg_model_read(data, len, err, sizeof err);
    free(data);
    if (!m) cli_error("%s: %s", path, err);
    return m;
}

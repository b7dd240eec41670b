/*
 * cmd_convert.c — `tengen convert IN OUT`: records between formats, chosen by file extension.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

const char USAGE_CONVERT[] =
    "usage: tengen convert [--rule R] [--size N] IN OUT\n"
    "\n"
    "Converts a game record; the formats come from the file extensions:\n"
    "  .psq  Piskvork      .sgf  SGF FF[4] GM[4]      .pos  RenLib-era binary (15x15)\n"
    "  .txt  a move list in h8 notation (\"h8 i9 j10\")\n"
    "IN or OUT may be `-` (stdin/stdout) when --from/--to name the format.\n"
    "--rule sets the rule where the record does not say (default freestyle); --size sizes\n"
    "move lists and .pos files (default 15). Every move is checked by the rule.\n";

static TgFormat format_option(const char *name) {
    char path[32];
    snprintf(path, sizeof path, "x.%s", name);
    return tg_format_from_path(path);
}

static int write_output(const char *path, const char *data, size_t len) {
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!f) return cli_error("%s: cannot open for writing", path);
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (f == stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
    return ok ? 0 : cli_error("%s: write failed", path);
}

int cmd_convert(int argc, char **argv) {
    PositionOptions o;
    const char *paths[2] = {NULL, NULL}, *v;
    TgFormat formats[2] = {TG_FORMAT_UNKNOWN, TG_FORMAT_UNKNOWN};
    int n = 0;
    position_defaults(&o);
    o.width = o.height = 0;
    for (int i = 1; i < argc; i++) {
        int used = position_option(argc, argv, &i, &o);
        if (used < 0) return 2;
        if (used) continue;
        if (cli_option(argc, argv, &i, "--from", &v))
            formats[0] = format_option(v);
        else if (cli_option(argc, argv, &i, "--to", &v))
            formats[1] = format_option(v);
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_error("convert: unknown option '%s'", argv[i]) + 1;
        else if (n < 2)
            paths[n++] = argv[i];
        else
            return cli_error("convert: too many arguments (see --help)") + 1;
    }
    if (n != 2) return cli_error("convert: wants IN and OUT (see --help)") + 1;
    for (int k = 0; k < 2; k++) {
        if (!formats[k]) formats[k] = tg_format_from_path(paths[k]);
        if (!formats[k])
            return cli_error("%s: unknown record format (use .psq, .sgf, .pos or .txt)", paths[k]);
    }
    size_t len;
    char *data = cli_read_file(paths[0], &len), err[256];
    if (!data) return 1;
    TgGame *g = tg_record_read(formats[0], data, len, o.rule, o.width, err, sizeof err);
    free(data);
    if (!g) return cli_error("%s: %s", paths[0], err);
    char *out = tg_record_write(g, formats[1], &len, err, sizeof err);
    tg_game_free(g);
    if (!out) return cli_error("%s: %s", paths[1], err);
    int status = write_output(paths[1], out, len);
    free(out);
    return status;
}

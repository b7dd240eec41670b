/*
 * cli.h — shared helpers of the command-line front ends: option parsing, positions from
 * options, reading files. Front ends include tengen.h and this, nothing from the core.
 */
#ifndef TG_CLI_H
#define TG_CLI_H

#include "../tengen.h"

/// One subcommand: its name, a one-line summary, its usage text and its entry point.
typedef struct CliCommand {
    const char *name;
    const char *summary;
    const char *usage;
    int (*run)(int argc, char **argv);
} CliCommand;

/// Options shared by commands that take a position.
typedef struct PositionOptions {
    TgRule rule;
    int width, height;
    const char *moves; ///< NULL when not given
    const char *file;  ///< a record to load instead of --moves
} PositionOptions;

/// Prints "tengen: <message>" to stderr; returns 1 (an exit status) or 2 for usage errors.
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/// True if argv[i] is `name`; advances *i past its value. A missing value is reported and
/// the program exits with status 2.
bool cli_option(int argc, char **argv, int *i, const char *name, const char **value);
bool cli_flag(char **argv, int i, const char *name);
/// A renju foul in words: "overline", "double four", "double three".
const char *cli_foul_name(TgFoul foul);
/// Parses an integer option value in [lo, hi]; false (with a message) otherwise.
bool cli_int(const char *name, const char *text, long lo, long hi, long *out);
/// A whole-number option `name` in [lo, hi] at argv[*i]: 1 if read into *out, 0 if argv[*i] is
/// another option, -1 on a bad value (message printed).
int cli_number_option(int argc, char **argv, int *i, const char *name, long lo, long hi, long *out);
bool cli_wants_help(int argc, char **argv);

/// Reads a board size, "N" or "WxH", each side TG_MIN_SIZE..TG_MAX_SIZE.
bool cli_parse_size(const char *text, int *w, int *h);

void position_defaults(PositionOptions *o);
/// Consumes --rule, --size (N or WxH) and --moves at argv[*i]; returns 1 if consumed, 0 if not
/// a position option, -1 on a bad value (message printed).
int position_option(int argc, char **argv, int *i, PositionOptions *o);
/// Builds the game: moves played by the rules (diagram=false) or placed as a diagram.
TgGame *position_game(const PositionOptions *o, bool diagram);

/// Reads a whole file (or "-" for stdin); NULL with a message on failure. Caps at 16 MiB.
char *cli_read_file(const char *path, size_t *len);
/// Reads a zero-level model file; NULL with a message naming the file and the fault.
TgModel *cli_load_model(const char *path);

#endif

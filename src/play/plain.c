/*
 * plain.c — `tengen play --plain`: the game as lines of text, for scripts and screen
 * readers. Moves and commands come one a line on stdin; moves, messages, the board and the
 * result go to stdout. While the computer thinks, only lines that must act at once (now,
 * pause, quit) are taken; the others wait their turn, so a script may send a game ahead.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "play.h"

enum { POLL_BUSY_MS = 20, POLL_CLOCK_MS = 100 };

/// Bytes read from stdin and not yet taken as lines.
typedef struct LineReader {
    char buf[8192];
    size_t len;
    bool eof;
} LineReader;

/// Waits up to timeout_ms (-1: for ever) for input and appends what came.
static void reader_fill(LineReader *r, int timeout_ms) {
    if (r->eof) {
        if (timeout_ms > 0) nanosleep(&(struct timespec){0, timeout_ms * 1000000L}, NULL);
        return;
    }
    struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
    if (poll(&p, 1, timeout_ms) <= 0) return;
    if (r->len == sizeof r->buf) r->len = 0; /* a line longer than the buffer: drop it */
    const ssize_t n = read(STDIN_FILENO, r->buf + r->len, sizeof r->buf - r->len);
    if (n <= 0)
        r->eof = true;
    else
        r->len += (size_t)n;
}

/// Length of the first complete line (with its newline), or 0 when there is none yet.
static size_t first_line_length(const LineReader *r) {
    const char *nl = memchr(r->buf, '\n', r->len);
    if (nl) return (size_t)(nl - r->buf) + 1;
    return r->eof ? r->len : 0;
}

static bool reader_take(LineReader *r, char *line, size_t size) {
    const size_t n = first_line_length(r);
    if (n == 0) return false;
    const size_t copy = n < size ? n : size - 1;
    memcpy(line, r->buf, copy);
    line[copy] = '\0';
    line[strcspn(line, "\r\n")] = '\0';
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
    return true;
}

/// Is the next line one that acts while the computer thinks?
static bool urgent_line_waiting(const LineReader *r) {
    static const char *const URGENT[] = {"now", "stop", "pause", "quit", "exit", "q"};
    const size_t n = first_line_length(r);
    if (n == 0) return false;
    char word[16] = "";
    sscanf(r->buf, "%15s", word);
    for (size_t i = 0; i < sizeof URGENT / sizeof URGENT[0]; i++)
        if (strcasecmp(word, URGENT[i]) == 0) return true;
    return false;
}

/* ---- Output ---- */

static void print_board(const PlaySession *s) {
    const bool marks = tg_game_rule(s->game) == TG_RENJU && tg_game_to_move(s->game) == TG_BLACK;
    char *board = tg_game_render(s->game, marks);
    if (board) fputs(board, stdout);
    free(board);
}

static void print_event(const PlaySession *s, const PlayEvent *ev) {
    char line[sizeof ev->text + 32];
    if (ev->kind == EV_ERROR) {
        play_fill(line, sizeof line, play_text(s->cfg.lang, T_ERR_PREFIX), ev->text,
                  (const char *)NULL);
        puts(line);
        return;
    }
    if (*ev->text) puts(ev->text);
    if (ev->kind == EV_POSITION || ev->kind == EV_RESULT) print_board(s);
}

static void print_header(const PlaySession *s) {
    const PlayLang L = s->cfg.lang;
    char size[16], black[64], white[64], line[400];
    if (s->opening) {
        char header[300];
        play_opening_header(s, header, sizeof header);
        puts(
            play_fill(line, sizeof line, play_text(L, T_HEADER_PLAIN), header, (const char *)NULL));
        return;
    }
    snprintf(size, sizeof size, "%dx%d", s->cfg.width, s->cfg.height);
    play_side_text(L, s->cfg.side[TG_BLACK], black, sizeof black);
    play_side_text(L, s->cfg.side[TG_WHITE], white, sizeof white);
    play_fill(line, sizeof line, play_text(L, T_HEADER), play_rule_text(L, s->cfg.rule), size,
              black, white, (const char *)NULL);
    puts(line);
}

/// What the output last showed, so that each position is shown once.
typedef struct Shown {
    unsigned board;  ///< the version whose board was printed
    unsigned prompt; ///< the version whose "to move" line was printed
} Shown;

/// When a human is to decide after a change, shows the board and whose move it is.
static void prompt(const PlaySession *s, Shown *shown) {
    if (shown->prompt == s->version || !play_human_to_move(s)) return;
    shown->prompt = s->version;
    if (shown->board != s->version) print_board(s);
    shown->board = s->version;
    char line[600];
    if (play_in_opening(s))
        play_step_text(s, line, sizeof line);
    else
        play_fill(line, sizeof line, play_text(s->cfg.lang, T_TO_MOVE),
                  play_color_text(s->cfg.lang, tg_game_to_move(s->game)), (const char *)NULL);
    puts(line);
}

static void flush_events(PlaySession *s, Shown *shown) {
    PlayEvent ev;
    while (play_next_event(s, &ev)) {
        print_event(s, &ev);
        if (ev.kind == EV_POSITION || ev.kind == EV_RESULT) shown->board = s->version;
    }
    prompt(s, shown);
    fflush(stdout);
}

/* ---- The loop ---- */

/// The computer is thinking, or will start on the next tick.
static bool busy(const PlaySession *s) {
    return s->think.active || (play_computer_to_move(s) && (!s->paused || s->steps > 0));
}

static bool clock_running(const PlaySession *s) { return tg_game_clock_running(s->game); }

int play_plain_run(PlaySession *s) {
    LineReader *r = calloc(1, sizeof *r);
    if (!r) return cli_error("play: out of memory");
    Shown shown = {s->version - 1, s->version - 1}; /* the first prompt shows the board */
    char line[1024];
    PlayEvent ev;
    print_header(s);
    while (play_next_event(s, &ev)) { /* the start-up messages: the header says the rest */
        if (ev.kind == EV_ERROR || ev.kind == EV_RESULT || ev.kind == EV_INFO) print_event(s, &ev);
    }
    while (!s->quit) {
        play_tick(s);
        flush_events(s, &shown);
        if (busy(s)) {
            if (urgent_line_waiting(r) && reader_take(r, line, sizeof line))
                play_command(s, line);
            else
                reader_fill(r, POLL_BUSY_MS);
        } else if (reader_take(r, line, sizeof line)) {
            play_command(s, line);
        } else if (r->eof) {
            break;
        } else {
            reader_fill(r, clock_running(s) ? POLL_CLOCK_MS : -1);
        }
    }
    flush_events(s, &shown);
    free(r);
    return 0;
}

/*
 * screen.c — `tengen play` in a terminal, with ncursesw: the board (letters along the
 * bottom, rows counted from the bottom), a side panel with the players, clocks and the
 * search, a status line and a help line. The loop wakes every TICK_MS to run the session and
 * redraw, so clocks and the live search stay current while keys are read.
 *
 * ncurses keeps its state in globals by nature; they stay in this file. The view's own state
 * lives in View, passed explicitly.
 *
 * Screen layout (board origin ox, oy): row oy + y holds board row y (0 at the top), labelled
 * h - y on both sides; cell x sits at column ox + 3 + 2x, with the columns between the cells
 * left for the cursor's brackets. The letters run along row oy + h.
 */
#include <curses.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "play.h"

enum {
    TICK_MS = 50,
    MESSAGE_MS = 2500, ///< how long a message holds the status line before the opening step
    PANEL_MIN = 28,    ///< columns the side panel needs
    KEY_ESC = 27,
    KEY_CTRL_C = 3,
    KEY_CTRL_L = 12,
    KEY_CTRL_U = 21,
    MAX_CELLS = TG_MAX_SIZE * TG_MAX_SIZE,
};

enum Pair {
    PAIR_BOARD = 1,
    PAIR_BLACK,
    PAIR_WHITE,
    PAIR_WIN_BLACK,
    PAIR_WIN_WHITE,
    PAIR_FORBID,
    PAIR_HINT,
    PAIR_ERROR,
    PAIR_TITLE,
    PAIR_AREA
};

typedef enum Mode { MODE_BOARD, MODE_HELP, MODE_PROMPT, MODE_MENU, MODE_RESIGN, MODE_QUIT } Mode;

/// Stones and marks, in Unicode or in ASCII.
typedef struct Glyphs {
    const char *black, *white, *empty, *star, *forbid, *hint, *offer;
} Glyphs;

static const Glyphs UNICODE_GLYPHS = {"●", "○", "·", "+", "×", "*", "◇"};
static const Glyphs ASCII_GLYPHS = {"X", "O", ".", "+", "x", "*", "5"};

enum {
    MENU_RULE,
    MENU_SIZE,
    MENU_OPENING,
    MENU_FROM,
    MENU_BLACK,
    MENU_WHITE,
    MENU_CLOCK,
    MENU_START,
    MENU_FIELDS
};
/// The menu's start positions: empty, random, balanced, then the 26 renju openings.
enum { FROM_EMPTY, FROM_RANDOM, FROM_BALANCED, FROM_OPENINGS, FROM_COUNT = 3 + TG_RENJU_OPENINGS };
enum { MENU_CLOCKS = 8 };

/// The new-game form: one value per field.
typedef struct Menu {
    int field;
    int rule, size;
    int opening; ///< a TgOpeningRule
    int from;    ///< FROM_*, or FROM_OPENINGS + the index of a renju opening
    int side[2]; ///< 0: human, else a level by menu_level()
    int clock;   ///< index in clocks
    int clock_count;
    TgClock clocks[MENU_CLOCKS];
} Menu;

typedef struct View {
    PlaySession *s;
    PlayViewOptions opt;
    const Glyphs *g;
    bool color;
    Mode mode;
    TgPoint cursor;
    bool numbers, show_forbidden;
    char input[256];
    size_t input_len;
    size_t proposed; ///< input[proposed..] is a proposal (a file name) that typing replaces
    Menu menu;
    int ox, oy;
    unsigned forbidden_version; ///< the session version the list below is for
    int forbidden_count;
    TgForbidden forbidden[MAX_CELLS];
    int number[TG_MAX_SIZE][TG_MAX_SIZE]; ///< move numbers of the stones (0: none)
    bool opening;                         ///< an opening phase is under way; then:
    TgOpeningStep step;                   ///< what it asks
    int offer_count;                      ///< the 5th moves offered so far
    TgPoint offers[TG_OPENING_MAX_OFFERS];
    char shown_status[240]; ///< the session's message when it was first drawn...
    int64_t status_since;   ///< ...and when
} View;

/* ---- Text output (UTF-8, measured in columns) ---- */

/// Decodes one character of s; returns its bytes (1 for an invalid byte, shown as '?').
static size_t next_char(const char *s, wchar_t *wc, int *cols) {
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t n = mbrtowc(wc, s, MB_CUR_MAX, &st);
    if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
        *wc = L'?';
        n = 1;
    }
    *cols = wcwidth(*wc);
    if (*cols < 0) *cols = 1;
    return n;
}

static int text_width(const char *s) {
    int total = 0, cols;
    wchar_t wc;
    while (*s) {
        s += next_char(s, &wc, &cols);
        total += cols;
    }
    return total;
}

/// Writes up to `bytes` of text at (y, x) within `width` columns; returns the columns used.
static int put_span(int y, int x, const char *s, size_t bytes, int width) {
    int used = 0, cols;
    wchar_t wc;
    move(y, x);
    for (const char *end = s + bytes; s < end && *s;) {
        s += next_char(s, &wc, &cols);
        if (used + cols > width) break;
        addnwstr(&wc, 1);
        used += cols;
    }
    return used;
}

static int put_text(int y, int x, const char *s, int width) {
    return put_span(y, x, s, strlen(s), width);
}

/// Bytes of s that fit in `width` columns, broken after a space where one is near the end.
static size_t wrap_point(const char *s, int width) {
    size_t i = 0, last_space = 0;
    int used = 0, cols;
    wchar_t wc;
    while (s[i] && s[i] != '\n') {
        size_t n = next_char(s + i, &wc, &cols);
        if (used + cols > width) return last_space ? last_space : i;
        if (wc == L' ') last_space = i + 1;
        used += cols;
        i += n;
    }
    return i;
}

/// Writes text over as many as max_lines lines of `width`; returns the lines used.
static int put_wrapped(int y, int x, const char *s, int width, int max_lines) {
    int lines = 0;
    while (*s && lines < max_lines) {
        size_t n = wrap_point(s, width);
        if (n == 0) n = 1;
        put_span(y + lines++, x, s, n, width);
        s += n;
        if (*s == '\n') s++;
        while (*s == ' ') s++;
    }
    return lines;
}

static void style_on(const View *v, int pair, attr_t extra) {
    attron(extra | (v->color && pair ? COLOR_PAIR(pair) : 0));
}

static void style_off(const View *v, int pair, attr_t extra) {
    attroff(extra | (v->color && pair ? COLOR_PAIR(pair) : 0));
}

static const char *text(const View *v, TextId id) { return play_text(v->s->cfg.lang, id); }

/* ---- The board ---- */

static int board_w(const View *v) { return tg_game_width(v->s->game); }
static int board_h(const View *v) { return tg_game_height(v->s->game); }
static int cell_col(const View *v, int x) { return v->ox + 3 + 2 * x; }

/// Star points as tengen's text board has them: the centre and the points 4 lines in from
/// each corner (3 on boards smaller than 13).
static bool is_star(int x, int y, int w, int h) {
    const int in = (w >= 13 && h >= 13) ? 3 : 2;
    const bool cx = w % 2 && x == w / 2, cy = h % 2 && y == h / 2;
    const bool ex = x == in || x == w - 1 - in, ey = y == in || y == h - 1 - in;
    return (cx && cy) || (ex && ey);
}

static bool on_win_line(const TgResult *r, int x, int y) {
    if (r->reason != TG_REASON_FIVE) return false;
    const TgPoint a = r->line.from, b = r->line.to;
    const int dx = (b.x > a.x) - (b.x < a.x), dy = (b.y > a.y) - (b.y < a.y);
    for (int i = 0; i < r->line.length; i++)
        if (a.x + i * dx == x && a.y + i * dy == y) return true;
    return false;
}

static bool forbidden_shown(const View *v) {
    const PlaySession *s = v->s;
    return v->show_forbidden && tg_game_rule(s->game) == TG_RENJU &&
           tg_game_to_move(s->game) == TG_BLACK && !tg_game_over(s->game) && !play_thinking(s);
}

/// Recomputes the forbidden points and move numbers when the position changed.
static void refresh_marks(View *v) {
    if (v->forbidden_version == v->s->version) return;
    v->forbidden_version = v->s->version;
    v->forbidden_count = tg_game_forbidden(v->s->game, v->forbidden, MAX_CELLS);
    if (v->forbidden_count > MAX_CELLS) v->forbidden_count = MAX_CELLS;
    memset(v->number, 0, sizeof v->number);
    for (int i = 0; i < tg_game_ply(v->s->game); i++) {
        const TgPoint p = tg_game_move(v->s->game, i);
        if (!tg_point_is_pass(p)) v->number[p.y][p.x] = i + 1;
    }
}

static bool is_forbidden(const View *v, int x, int y) {
    for (int i = 0; i < v->forbidden_count; i++)
        if (v->forbidden[i].point.x == x && v->forbidden[i].point.y == y) return true;
    return false;
}

static bool is_offer(const View *v, int x, int y) {
    for (int i = 0; i < v->offer_count; i++)
        if (v->offers[i].x == x && v->offers[i].y == y) return true;
    return false;
}

/// Inside the central square where the opening's next stone must go?
static bool in_step_area(const View *v, int x, int y) {
    if (!v->opening || v->step.kind != TG_STEP_PLACE || v->step.area <= 0) return false;
    const int cx = (board_w(v) - 1) / 2, cy = (board_h(v) - 1) / 2, r = v->step.area / 2;
    return abs(x - cx) <= r && abs(y - cy) <= r && v->step.area < board_w(v);
}

/// An empty point: forbidden mark, hint, offered 5th move, the opening's square, star or plain.
static void draw_empty(const View *v, int x, int y) {
    const PlaySession *s = v->s;
    const char *glyph = is_star(x, y, board_w(v), board_h(v)) ? v->g->star : v->g->empty;
    int pair = PAIR_BOARD;
    attr_t extra = 0;
    if (forbidden_shown(v) && is_forbidden(v, x, y)) {
        glyph = v->g->forbid;
        pair = PAIR_FORBID;
        extra = A_BOLD;
    } else if (s->has_hint && s->hint.x == x && s->hint.y == y) {
        glyph = v->g->hint;
        pair = PAIR_HINT;
        extra = A_BOLD | (v->color ? 0 : A_BLINK);
    } else if (v->opening && is_offer(v, x, y)) {
        glyph = v->g->offer;
        pair = PAIR_BLACK;
        extra = A_BOLD;
    } else if (in_step_area(v, x, y)) {
        pair = PAIR_AREA;
        extra = A_BOLD | (v->color ? 0 : A_UNDERLINE);
    }
    style_on(v, pair, extra);
    put_text(v->oy + y, cell_col(v, x), glyph, 1);
    style_off(v, pair, extra);
}

static void draw_stone(const View *v, int x, int y, TgColor c, const TgResult *r) {
    const int ply = tg_game_ply(v->s->game), n = v->number[y][x];
    const bool last = n == ply, win = on_win_line(r, x, y);
    int pair = c == TG_BLACK ? PAIR_BLACK : PAIR_WHITE;
    attr_t extra = c == TG_WHITE ? A_BOLD : 0;
    if (win) {
        pair = c == TG_BLACK ? PAIR_WIN_BLACK : PAIR_WIN_WHITE;
        extra |= A_BOLD | (v->color ? 0 : A_UNDERLINE);
    }
    if (last && !v->numbers) extra |= A_REVERSE;
    if (v->numbers && n) {
        char digits[8];
        snprintf(digits, sizeof digits, "%2d", n % 100);
        if (c == TG_BLACK) extra |= A_REVERSE; /* black numbers: light on dark */
        if (last) extra |= A_UNDERLINE;
        style_on(v, pair, extra);
        put_text(v->oy + y, cell_col(v, x) - 1, digits, 2);
    } else {
        style_on(v, pair, extra);
        put_text(v->oy + y, cell_col(v, x), c == TG_BLACK ? v->g->black : v->g->white, 1);
    }
    style_off(v, pair, extra);
}

static void draw_row(const View *v, int y, const TgResult *r) {
    const int w = board_w(v), h = board_h(v);
    char label[8];
    snprintf(label, sizeof label, "%2d", h - y);
    mvaddstr(v->oy + y, v->ox, label);
    mvaddstr(v->oy + y, cell_col(v, w - 1) + 2, label + (label[0] == ' '));
    style_on(v, PAIR_BOARD, 0);
    mvhline(v->oy + y, v->ox + 2, ' ', 2 * w + 1);
    style_off(v, PAIR_BOARD, 0);
    for (int x = 0; x < w; x++) {
        const TgColor c = tg_game_stone(v->s->game, (TgPoint){x, y});
        if (c == TG_NOBODY)
            draw_empty(v, x, y);
        else
            draw_stone(v, x, y, c, r);
    }
}

static bool cursor_shown(const View *v) { return v->mode == MODE_BOARD && !v->s->replay; }

/// What the opening asks now and the offers made, for the board's marks.
static void refresh_opening(View *v) {
    const PlaySession *s = v->s;
    v->opening = play_in_opening(s);
    v->offer_count = 0;
    if (!v->opening) return;
    v->step = tg_opening_step(s->opening);
    v->offer_count = tg_opening_offers(s->opening, v->offers, TG_OPENING_MAX_OFFERS);
}

static void draw_board(View *v) {
    const int w = board_w(v), h = board_h(v);
    const TgResult r = tg_game_result(v->s->game);
    refresh_marks(v);
    refresh_opening(v);
    for (int y = 0; y < h; y++) draw_row(v, y, &r);
    for (int x = 0; x < w; x++) mvaddch(v->oy + h, cell_col(v, x), (chtype)('a' + x));
    if (!cursor_shown(v)) return;
    style_on(v, PAIR_BOARD, A_BOLD);
    mvaddch(v->oy + v->cursor.y, cell_col(v, v->cursor.x) - 1, '[');
    mvaddch(v->oy + v->cursor.y, cell_col(v, v->cursor.x) + 1, ']');
    style_off(v, PAIR_BOARD, A_BOLD);
}

/* ---- The panel ---- */

static void clock_text(int64_t ms, char *buf, size_t size) {
    if (ms == INT64_MAX) return (void)snprintf(buf, size, "%s", "");
    if (ms < 0) ms = 0;
    const long s = (long)(ms / 1000);
    if (ms < 10000)
        snprintf(buf, size, "0:%02ld.%ld", s, (long)(ms / 100 % 10));
    else if (s >= 3600)
        snprintf(buf, size, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, size, "%ld:%02ld", s / 60, s % 60);
}

static void draw_player(const View *v, int row, int px, int width, TgColor c) {
    const PlaySession *s = v->s;
    const PlayLang L = s->cfg.lang;
    char who[120], line[200], clock[24];
    if (s->opening)
        play_player_text(s, tg_opening_player_of(s->opening, c), who, sizeof who);
    else
        play_side_text(L, s->cfg.side[c], who, sizeof who);
    const bool to_move = !tg_game_over(s->game) && tg_game_to_move(s->game) == c;
    snprintf(line, sizeof line, "%s %s %s: %s", to_move ? ">" : " ",
             c == TG_BLACK ? v->g->black : v->g->white, play_color_text(L, c), who);
    attr_t a = to_move ? A_BOLD : 0;
    attron(a);
    put_text(row, px, line, width);
    clock_text(tg_game_time_left(s->game, c, tg_now_ms()), clock, sizeof clock);
    const int cw = text_width(clock);
    if (*clock && width > cw + 1) put_text(row, px + width - cw, clock, cw);
    attroff(a);
}

/// What is happening now: whose move, the computer thinking, the result, the replay.
static void state_text(const View *v, char *buf, size_t size) {
    const PlaySession *s = v->s;
    const PlayLang L = s->cfg.lang;
    const char *side = play_color_text(L, tg_game_to_move(s->game));
    char at[16], of[16], how[300];
    if (s->replay) {
        snprintf(at, sizeof at, "%d", tg_game_ply(s->game));
        snprintf(of, sizeof of, "%d", tg_game_length(s->game));
        play_fill(buf, size, play_text(L, T_REPLAY_AT), at, of, (const char *)NULL);
    } else if (tg_game_over(s->game)) {
        play_result_text(s, how, sizeof how);
        play_fill(buf, size, play_text(L, T_GAME_OVER), how, (const char *)NULL);
    } else if (play_in_opening(s) && play_thinking(s)) {
        char who[96];
        play_player_text(s, tg_opening_step(s->opening).player, who, sizeof who);
        play_fill(buf, size, play_text(L, T_OP_THINKING), who, (const char *)NULL);
    } else if (play_in_opening(s)) {
        play_step_text(s, buf, size);
    } else {
        const TextId id = play_thinking(s) ? T_THINKING : s->paused ? T_PAUSED_LINE : T_TO_MOVE;
        play_fill(buf, size, play_text(L, id), side, (const char *)NULL);
    }
}

static void move_text(const View *v, char *buf, size_t size) {
    const PlaySession *s = v->s;
    const int ply = tg_game_ply(s->game);
    char number[16], pt[8], last[40];
    snprintf(number, sizeof number, "%d", ply + !tg_game_over(s->game));
    play_fill(buf, size, text(v, T_MOVE_NO), number, (const char *)NULL);
    if (ply == 0) return;
    play_point_text(s, tg_game_move(s->game, ply - 1), pt, sizeof pt);
    play_fill(last, sizeof last, text(v, T_LAST), pt, (const char *)NULL);
    snprintf(buf + strlen(buf), size - strlen(buf), "   %s", last);
}

/// Nodes and speed in k/M, to keep the panel narrow.
static void count_text(uint64_t n, char *buf, size_t size) {
    if (n >= 10000000)
        snprintf(buf, size, "%.1fM", (double)n / 1e6);
    else if (n >= 10000)
        snprintf(buf, size, "%.0fk", (double)n / 1e3);
    else
        snprintf(buf, size, "%llu", (unsigned long long)n);
}

/// The search: live while the computer thinks, else the one behind its last move.
static int draw_search(View *v, int row, int px, int width, int max_lines) {
    PlaySession *s = v->s;
    const ThinkInfo info = s->think.active ? think_live(&s->think) : s->last;
    if (!info.valid || info.nodes == 0 || max_lines < 3) return 0; /* easy: no search */
    char line[400], nodes[16], nps[16], secs[16], pv[360];
    play_info_text(s, &info, line, sizeof line);
    put_text(row, px, line, width);
    count_text(info.nodes, nodes, sizeof nodes);
    count_text(info.nps, nps, sizeof nps);
    snprintf(secs, sizeof secs, "%.1f", (double)info.time_ms / 1000);
    play_fill(line, sizeof line, text(v, T_NODES), nodes, nps, secs, (const char *)NULL);
    put_text(row + 1, px, line, width);
    play_line_text(s, info.pv, info.pv_length, pv, sizeof pv);
    play_fill(line, sizeof line, text(v, T_LINE), pv, (const char *)NULL);
    return 2 + put_wrapped(row + 2, px, line, width, max_lines - 2);
}

static void draw_panel(View *v) {
    const int px = cell_col(v, board_w(v) - 1) + 5, width = COLS - px - 1;
    const int bottom = LINES - 3;
    char line[400];
    int row = v->oy;
    draw_player(v, row++, px, width, TG_BLACK);
    draw_player(v, row++, px, width, TG_WHITE);
    row++;
    move_text(v, line, sizeof line);
    put_text(row++, px, line, width);
    state_text(v, line, sizeof line);
    attron(A_BOLD);
    row += put_wrapped(row, px, line, width, play_in_opening(v->s) ? 6 : 3);
    attroff(A_BOLD);
    row++;
    if (row < bottom) draw_search(v, row, px, width, bottom - row + 1);
}

/* ---- Title, status and help lines ---- */

/// The opening so far, as the record keeps it (a loaded record's too), or "".
static const char *opening_line(const PlaySession *s) {
    const char *line = tg_game_info(s->game, "opening");
    return line ? line : "";
}

static void draw_title(const View *v) {
    const PlaySession *s = v->s;
    char line[700];
    const char *opening = opening_line(s);
    snprintf(line, sizeof line, " tengen  %s %dx%d%s%s ", play_rule_text(s->cfg.lang, s->cfg.rule),
             board_w(v), board_h(v), *opening ? " " : "", opening);
    style_on(v, PAIR_TITLE, A_BOLD);
    put_text(0, 0, line, COLS);
    style_off(v, PAIR_TITLE, A_BOLD);
    const char *tag = s->replay ? text(v, T_REPLAY_TITLE) : s->paused ? text(v, T_PAUSED) : "";
    if (*tag) {
        attron(A_REVERSE);
        put_text(0, text_width(line) + 1, tag, COLS - text_width(line) - 1);
        attroff(A_REVERSE);
    }
}

static TextId help_line_id(const View *v) {
    if (v->s->replay) return T_HELP_LINE_REPLAY;
    if (play_in_opening(v->s)) return T_HELP_LINE_OPENING;
    return play_watching(v->s) ? T_HELP_LINE_WATCH : T_HELP_LINE;
}

/// The status line's message: the latest one while fresh (errors stay), else what the
/// opening asks, which a player should not have to look for.
static const char *status_message(View *v, char *buf, size_t size) {
    const PlaySession *s = v->s;
    const int64_t now = tg_now_ms();
    if (strcmp(v->shown_status, s->status) != 0) {
        snprintf(v->shown_status, sizeof v->shown_status, "%s", s->status);
        v->status_since = now;
    }
    if (!play_in_opening(s) || s->status_error || now - v->status_since < MESSAGE_MS)
        return s->status;
    play_step_text(s, buf, size);
    return buf;
}

static void draw_status(View *v) {
    const int row = LINES - 2;
    if (v->mode == MODE_PROMPT) {
        const int used = put_text(row, 0, text(v, T_PROMPT), COLS - 1);
        char typed[sizeof v->input];
        snprintf(typed, sizeof typed, "%.*s", (int)v->proposed, v->input);
        const int kept = put_text(row, used, typed, COLS - 1 - used);
        attron(A_REVERSE); /* the proposal, as a selection that typing replaces */
        put_text(row, used + kept, v->input + v->proposed, COLS - 1 - used - kept);
        attroff(A_REVERSE);
        return;
    }
    char line[600];
    const char *msg = status_message(v, line, sizeof line);
    if (v->mode == MODE_RESIGN) {
        play_fill(line, sizeof line, text(v, T_RESIGN_CONFIRM),
                  play_color_text(v->s->cfg.lang, play_acting_human(v->s)), (const char *)NULL);
        msg = line;
    }
    if (v->mode == MODE_QUIT) msg = text(v, T_QUIT_CONFIRM);
    const bool asking = v->mode == MODE_RESIGN || v->mode == MODE_QUIT;
    const attr_t a = A_BOLD | (v->s->status_error && !asking && !v->color ? A_UNDERLINE : 0);
    const int pair = v->s->status_error ? PAIR_ERROR : 0;
    /* a long message (an opening step) takes the row above too when the board leaves it free */
    const bool two = text_width(msg) > COLS - 1 && row - 1 > v->oy + board_h(v);
    style_on(v, pair, a);
    if (two)
        put_wrapped(row - 1, 0, msg, COLS - 1, 2);
    else
        put_text(row, 0, msg, COLS - 1);
    style_off(v, pair, a);
}

static void draw_help_line(const View *v) {
    attron(A_REVERSE);
    mvhline(LINES - 1, 0, ' ', COLS);
    put_text(LINES - 1, 0, text(v, help_line_id(v)), COLS);
    attroff(A_REVERSE);
}

/* ---- Overlays: help screen and new-game menu ---- */

/// A box of `rows` x `cols` centred on the screen; returns its top-left corner.
static void draw_box(int rows, int cols, int *top, int *left) {
    *top = (LINES - rows) / 2 > 0 ? (LINES - rows) / 2 : 0;
    *left = (COLS - cols) / 2 > 0 ? (COLS - cols) / 2 : 0;
    for (int r = 0; r < rows && *top + r < LINES; r++) mvhline(*top + r, *left, ' ', cols);
    attron(A_BOLD);
    mvhline(*top, *left, ACS_HLINE, cols);
    mvhline(*top + rows - 1, *left, ACS_HLINE, cols);
    mvvline(*top, *left, ACS_VLINE, rows);
    mvvline(*top, *left + cols - 1, ACS_VLINE, rows);
    mvaddch(*top, *left, ACS_ULCORNER);
    mvaddch(*top, *left + cols - 1, ACS_URCORNER);
    mvaddch(*top + rows - 1, *left, ACS_LLCORNER);
    mvaddch(*top + rows - 1, *left + cols - 1, ACS_LRCORNER);
    attroff(A_BOLD);
}

static void draw_help_screen(const View *v) {
    const char *help = text(v, T_HELP_SCREEN);
    int rows = 1, cols = text_width(text(v, T_ANY_KEY));
    for (const char *s = help; *s; rows++) {
        const size_t n = strcspn(s, "\n");
        char line[200];
        snprintf(line, sizeof line, "%.*s", (int)n, s);
        if (text_width(line) > cols) cols = text_width(line);
        s += n + (s[n] == '\n');
    }
    int top, left;
    rows += 2;
    cols = cols + 4 < COLS ? cols + 4 : COLS;
    draw_box(rows, cols, &top, &left);
    int r = top + 1;
    for (const char *s = help; *s; r++) {
        const size_t n = strcspn(s, "\n");
        put_span(r, left + 2, s, n, cols - 4);
        s += n + (s[n] == '\n');
    }
    put_text(r, left + 2, text(v, T_ANY_KEY), cols - 4);
}

/// The menu's player choice 1..TG_LEVEL_COUNT: the levels weakest first, the rated ones by
/// their rating (0, human, has no level).
static TgLevel menu_level(int choice) {
    TgLevel order[TG_LEVEL_COUNT];
    tg_levels_weakest_first(order);
    return order[choice > 0 ? choice - 1 : 0];
}
enum { MENU_LAST_LEVEL = TG_LEVEL_COUNT };

/// The menu choice of a player (0: human).
static int menu_choice_of(PlaySide side) {
    for (int i = 1; side.computer && i <= MENU_LAST_LEVEL; i++)
        if (menu_level(i) == side.level) return i;
    return side.computer ? MENU_LAST_LEVEL : 0;
}

static void menu_clock_text(const View *v, TgClock c, char *buf, size_t size) {
    if (!c.game_ms) return (void)snprintf(buf, size, "%s", text(v, T_MENU_NO_CLOCK));
    snprintf(buf, size, "%g min + %g s", (double)c.game_ms / 60000, (double)c.increment_ms / 1000);
}

static void menu_from_text(const View *v, int from, char *buf, size_t size) {
    static const TextId IDS[FROM_OPENINGS] = {T_MENU_FROM_EMPTY, T_MENU_FROM_RANDOM,
                                              T_MENU_FROM_BALANCED};
    if (from < FROM_OPENINGS) return (void)snprintf(buf, size, "%s", text(v, IDS[from]));
    const TgRenjuOpening *o = tg_renju_opening(from - FROM_OPENINGS);
    snprintf(buf, size, "%s %s %s", o->code, o->name, o->chinese);
}

static void menu_value(const View *v, int field, char *buf, size_t size) {
    const Menu *m = &v->menu;
    const PlayLang L = v->s->cfg.lang;
    switch (field) {
    case MENU_RULE: snprintf(buf, size, "%s", play_rule_text(L, (TgRule)m->rule)); break;
    case MENU_SIZE: snprintf(buf, size, "%dx%d", m->size, m->size); break;
    case MENU_OPENING:
        snprintf(buf, size, "%s",
                 m->opening == TG_OPENING_NONE ? text(v, T_MENU_NO_OPENING)
                                               : tg_opening_rule_name((TgOpeningRule)m->opening));
        break;
    case MENU_FROM: menu_from_text(v, m->from, buf, size); break;
    case MENU_BLACK:
    case MENU_WHITE: {
        const int who = m->side[field - MENU_BLACK];
        play_side_text(L, (PlaySide){who > 0, menu_level(who)}, buf, size);
        char rating[96];
        if (who > 0 && *play_rating_text(L, menu_level(who), rating, sizeof rating)) {
            const size_t used = strlen(buf);
            snprintf(buf + used, size - used, " \u2014 %s", rating);
        }
        break;
    }
    case MENU_CLOCK: menu_clock_text(v, m->clocks[m->clock], buf, size); break;
    default: *buf = '\0';
    }
}

static void draw_menu(const View *v) {
    static const TextId LABELS[MENU_FIELDS] = {T_MENU_RULE,  T_MENU_SIZE, T_MENU_OPENING,
                                               T_MENU_FROM,  T_BLACK,     T_WHITE,
                                               T_MENU_CLOCK, T_MENU_START};
    const int want = text_width(text(v, T_MENU_KEYS)) + 4;
    const int cols = want < 50 ? 50 : want < COLS ? want : COLS, rows = MENU_FIELDS + 5;
    int top, left;
    draw_box(rows, cols, &top, &left);
    put_text(top + 1, left + 2, text(v, T_MENU_TITLE), cols - 4);
    for (int f = 0; f < MENU_FIELDS; f++) {
        char value[120], line[200];
        menu_value(v, f, value, sizeof value);
        /* under an opening rule the colours are only where the players start */
        const bool players = v->menu.opening != TG_OPENING_NONE;
        if (f == MENU_START)
            snprintf(line, sizeof line, "[ %s ]", text(v, LABELS[f]));
        else if (players && (f == MENU_BLACK || f == MENU_WHITE))
            snprintf(line, sizeof line, "%s",
                     text(v, f == MENU_BLACK ? T_MENU_PLAYER1 : T_MENU_PLAYER2));
        else
            snprintf(line, sizeof line, "%s", text(v, LABELS[f]));
        const attr_t a = f == v->menu.field ? A_REVERSE : 0;
        attron(a);
        const int used = put_text(top + 3 + f, left + 2, line, cols - 4);
        attroff(a);
        if (f != MENU_START) {
            snprintf(line, sizeof line, "< %s >", value);
            put_text(top + 3 + f, left + 2 + (used > 10 ? used + 1 : 11), line, cols - 15);
        }
    }
    put_text(top + rows - 2, left + 2, text(v, T_MENU_KEYS), cols - 4);
}

/* ---- Drawing it all ---- */

/// The room the board and panel need: rows and columns.
static void needed_size(const View *v, int *rows, int *cols) {
    *rows = board_h(v) + 4;
    *cols = 2 * board_w(v) + 6 + PANEL_MIN;
}

static bool draw_too_small(const View *v) {
    int rows, cols;
    needed_size(v, &rows, &cols);
    if (LINES >= rows && COLS >= cols) return false;
    char a[16], b[16], board[16], c[16], d[16], line[400];
    snprintf(a, sizeof a, "%d", COLS);
    snprintf(b, sizeof b, "%d", LINES);
    snprintf(board, sizeof board, "%dx%d", board_w(v), board_h(v));
    snprintf(c, sizeof c, "%d", cols);
    snprintf(d, sizeof d, "%d", rows);
    play_fill(line, sizeof line, text(v, T_TOO_SMALL), a, b, board, c, d, (const char *)NULL);
    attron(A_BOLD);
    put_wrapped(0, 0, line, COLS, LINES);
    attroff(A_BOLD);
    return true;
}

static void draw(View *v) {
    erase();
    if (!draw_too_small(v)) {
        v->ox = 0;
        v->oy = 1;
        draw_title(v);
        draw_board(v);
        draw_panel(v);
        draw_status(v);
        draw_help_line(v);
        if (v->mode == MODE_HELP) draw_help_screen(v);
        if (v->mode == MODE_MENU) draw_menu(v);
    }
    refresh();
}

/* ---- Keys: the board ---- */

static void move_cursor(View *v, int dx, int dy) {
    const int x = v->cursor.x + dx, y = v->cursor.y + dy;
    if (x >= 0 && x < board_w(v)) v->cursor.x = x;
    if (y >= 0 && y < board_h(v)) v->cursor.y = y;
}

static void open_prompt(View *v, const char *text_start) {
    v->mode = MODE_PROMPT;
    snprintf(v->input, sizeof v->input, "%s", text_start);
    v->input_len = v->proposed = strlen(v->input);
}

/// A prompt with `proposal` after `text_start`: Enter takes it, typing replaces it.
static void open_prompt_proposing(View *v, const char *text_start, const char *proposal) {
    open_prompt(v, text_start);
    snprintf(v->input + v->input_len, sizeof v->input - v->input_len, "%s", proposal);
    v->input_len = strlen(v->input);
}

static void open_menu(View *v);

/// Keys while replaying a record; true if the key was one of them.
static bool replay_key(View *v, int key) {
    PlaySession *s = v->s;
    const int ply = tg_game_ply(s->game);
    switch (key) {
    case KEY_LEFT:
    case 'h':
    case 'u': play_replay_goto(s, ply - 1); return true;
    case KEY_RIGHT:
    case 'l':
    case 'r': play_replay_goto(s, ply + 1); return true;
    case KEY_HOME:
    case 'g':
    case KEY_PPAGE: play_replay_goto(s, 0); return true;
    case KEY_END:
    case 'G':
    case KEY_NPAGE: play_replay_goto(s, tg_game_length(s->game)); return true;
    case '\n':
    case '\r':
    case KEY_ENTER:
    case ' ': play_replay_leave(s); return true;
    default: return false;
    }
}

/// Keys that answer a pending draw offer.
static bool offer_key(View *v, int key) {
    if (v->s->draw_offer == TG_NOBODY) return false;
    if (key == 'y' || key == 'Y') return play_answer_draw(v->s, true) || true;
    if (key == 'n' || key == 'N') return play_answer_draw(v->s, false) || true;
    return false;
}

static bool cursor_key(View *v, int key) {
    switch (key) {
    case KEY_LEFT:
    case 'h': move_cursor(v, -1, 0); return true;
    case KEY_RIGHT:
    case 'l': move_cursor(v, 1, 0); return true;
    case KEY_UP:
    case 'k': move_cursor(v, 0, -1); return true;
    case KEY_DOWN:
    case 'j': move_cursor(v, 0, 1); return true;
    case '\n':
    case '\r':
    case KEY_ENTER:
    case ' ': play_place(v->s, v->cursor); return true;
    default: return false;
    }
}

/// The opening's keys: c types a choice, b/w take a colour, a digit starts a declaration.
static bool opening_key(View *v, int key) {
    if (!play_in_opening(v->s)) return false;
    char start[16];
    switch (key) {
    case 'c': open_prompt(v, "choose "); return true;
    case 'b': play_opening_take(v->s, TG_BLACK); return true;
    case 'w': play_opening_take(v->s, TG_WHITE); return true;
    default:
        if (key < '0' || key > '9') return false;
        snprintf(start, sizeof start, "declare %c", key);
        open_prompt(v, start);
        return true;
    }
}

static bool action_key(View *v, int key) {
    PlaySession *s = v->s;
    char name[200];
    switch (key) {
    case 'u': play_undo(s); return true;
    case 'r': play_redo(s); return true;
    case 't': play_hint(s); return true;
    case 'm': play_move_now(s); return true;
    case 'd': play_offer_draw(s); return true;
    case 'p': play_toggle_pause(s); return true;
    case '.': play_step(s); return true;
    case 'R': /* asks first; the errors (watching, game over) come at once */
        if (play_acting_human(s) == TG_NOBODY)
            play_resign(s);
        else
            v->mode = MODE_RESIGN;
        return true;
    case 'n': open_menu(v); return true;
    case 'o': open_prompt(v, "load "); return true;
    case 's':
        play_default_save_name(name, sizeof name);
        open_prompt_proposing(v, "save ", name);
        return true;
    default: return false;
    }
}

/// Moves (or opening actions) were made and the game has no result: quitting loses it.
static bool game_in_progress(const PlaySession *s) {
    if (s->replay || tg_game_over(s->game)) return false;
    return tg_game_length(s->game) > 0 || play_in_opening(s);
}

static bool view_key(View *v, int key) {
    switch (key) {
    case ':': open_prompt(v, ""); return true;
    case '?':
    case KEY_F(1): v->mode = MODE_HELP; return true;
    case '#': v->numbers = !v->numbers; return true;
    case 'f': v->show_forbidden = !v->show_forbidden; return true;
    case 'q': /* a game in progress is lost on quitting: ask first */
        if (game_in_progress(v->s))
            v->mode = MODE_QUIT;
        else
            v->s->quit = true;
        return true;
    case KEY_CTRL_C: v->s->quit = true; return true;
    case KEY_CTRL_L: clearok(curscr, TRUE); return true;
    case KEY_RESIZE: return true;
    default: return false;
    }
}

/// A click: the left button plays the point, the right one makes the computer move now.
static void mouse_key(View *v) {
    MEVENT ev;
    if (getmouse(&ev) != OK) return;
    if (ev.bstate & (BUTTON3_PRESSED | BUTTON3_CLICKED)) {
        play_move_now(v->s);
        return;
    }
    if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) || v->s->replay) return;
    const int dx = ev.x - cell_col(v, 0), y = ev.y - v->oy;
    const int x = dx >= -1 ? (dx + 1) / 2 : -1;
    if (x < 0 || x >= board_w(v) || y < 0 || y >= board_h(v)) return;
    v->cursor = (TgPoint){x, y};
    play_place(v->s, v->cursor);
}

static void board_key(View *v, int key) {
    if (key == KEY_MOUSE) return mouse_key(v);
    if (offer_key(v, key) || view_key(v, key)) return;
    if (v->s->replay && replay_key(v, key)) return;
    if (cursor_key(v, key) || opening_key(v, key) || action_key(v, key)) return;
    play_report_text(v->s, EV_ERROR, T_ERR_UNKNOWN_KEY);
}

/* ---- Keys: prompt, menu, confirmations ---- */

/// Commands of the view itself, typed at the prompt; true if it was one.
static bool view_command(View *v, const char *line) {
    if (strcmp(line, "numbers") == 0) return v->numbers = !v->numbers, true;
    if (strcmp(line, "forbidden") == 0) return v->show_forbidden = !v->show_forbidden, true;
    if (strcmp(line, "help") == 0 || strcmp(line, "?") == 0) return v->mode = MODE_HELP, true;
    return false;
}

static void prompt_key(View *v, int key, bool is_char, wint_t ch) {
    const bool printable = is_char && ch >= 32 && ch != 127;
    const bool backspace = key == KEY_BACKSPACE || key == 127 || key == 8;
    if (v->proposed < v->input_len && (printable || backspace)) {
        /* typing replaces the proposed name, and Backspace clears it */
        v->input[v->input_len = v->proposed] = '\0';
        if (backspace) return;
    }
    if (key == '\n' || key == '\r' || key == KEY_ENTER) {
        v->mode = MODE_BOARD;
        if (!view_command(v, v->input)) play_command(v->s, v->input);
    } else if (key == KEY_ESC) {
        v->mode = MODE_BOARD;
    } else if (backspace) {
        while (v->input_len > 0 && (v->input[--v->input_len] & 0xC0) == 0x80) {
        }
        v->input[v->input_len] = '\0';
    } else if (key == KEY_CTRL_U) {
        v->input[v->input_len = 0] = '\0';
    } else if (printable) {
        char mb[8];
        mbstate_t st;
        memset(&st, 0, sizeof st);
        const size_t n = wcrtomb(mb, (wchar_t)ch, &st);
        if (n != (size_t)-1 && v->input_len + n < sizeof v->input) {
            memcpy(v->input + v->input_len, mb, n);
            v->input[v->input_len += n] = '\0';
        }
    }
    v->proposed = v->input_len;
}

static int clock_index(const Menu *m, TgClock c) {
    for (int i = 0; i < m->clock_count; i++)
        if (m->clocks[i].game_ms == c.game_ms && m->clocks[i].increment_ms == c.increment_ms)
            return i;
    return -1;
}

static void open_menu(View *v) {
    static const TgClock PRESETS[] = {{0, 0, 0},         {60000, 0, 0},     {180000, 2000, 0},
                                      {300000, 3000, 0}, {600000, 5000, 0}, {900000, 10000, 0}};
    const PlayConfig *c = &v->s->cfg;
    Menu *m = &v->menu;
    memset(m, 0, sizeof *m);
    m->clock_count = (int)(sizeof PRESETS / sizeof PRESETS[0]);
    memcpy(m->clocks, PRESETS, sizeof PRESETS);
    m->rule = (int)c->rule;
    m->size = c->width;
    m->opening = (int)c->opening;
    m->from = c->balanced                ? FROM_BALANCED
              : c->start == START_RANDOM ? FROM_RANDOM
              : c->start >= 0            ? FROM_OPENINGS + c->start
                                         : FROM_EMPTY;
    for (int i = 0; i < 2; i++) m->side[i] = menu_choice_of(c->side[i]);
    m->clock = clock_index(m, c->clock);
    if (m->clock < 0) { /* a clock from the command line: offer it too */
        m->clocks[m->clock_count] = c->clock;
        m->clock = m->clock_count++;
    }
    m->field = MENU_START;
    v->mode = MODE_MENU;
}

static int wrap(int value, int delta, int lo, int hi) {
    value += delta;
    return value < lo ? hi : value > hi ? lo : value;
}

static void menu_change(Menu *m, int delta) {
    switch (m->field) {
    case MENU_RULE: m->rule = wrap(m->rule, delta, 0, TG_RULE_COUNT - 1); break;
    case MENU_SIZE: m->size = wrap(m->size, delta, TG_MIN_SIZE, TG_MAX_SIZE); break;
    case MENU_OPENING: m->opening = wrap(m->opening, delta, 0, TG_OPENING_RULE_COUNT - 1); break;
    case MENU_FROM: m->from = wrap(m->from, delta, 0, FROM_COUNT - 1); break;
    case MENU_BLACK:
    case MENU_WHITE:
        m->side[m->field - MENU_BLACK] =
            wrap(m->side[m->field - MENU_BLACK], delta, 0, MENU_LAST_LEVEL);
        break;
    case MENU_CLOCK: m->clock = wrap(m->clock, delta, 0, m->clock_count - 1); break;
    default: break;
    }
}

static void menu_start(View *v) {
    const Menu *m = &v->menu;
    PlayConfig c = v->s->cfg;
    c.rule = (TgRule)m->rule;
    c.width = c.height = m->size;
    for (int i = 0; i < 2; i++) c.side[i] = (PlaySide){m->side[i] > 0, menu_level(m->side[i])};
    c.clock = m->clocks[m->clock];
    c.opening = (TgOpeningRule)m->opening;
    c.balanced = m->from == FROM_BALANCED;
    c.start = m->from >= FROM_OPENINGS ? m->from - FROM_OPENINGS
              : m->from == FROM_RANDOM ? START_RANDOM
                                       : START_EMPTY;
    v->mode = MODE_BOARD;
    play_new_game(v->s, &c);
}

static void menu_key(View *v, int key) {
    Menu *m = &v->menu;
    switch (key) {
    case KEY_UP:
    case 'k': m->field = wrap(m->field, -1, 0, MENU_FIELDS - 1); break;
    case KEY_DOWN:
    case 'j':
    case '\t': m->field = wrap(m->field, 1, 0, MENU_FIELDS - 1); break;
    case KEY_LEFT:
    case 'h': menu_change(m, -1); break;
    case KEY_RIGHT:
    case 'l': menu_change(m, 1); break;
    case '\n':
    case '\r':
    case KEY_ENTER: menu_start(v); break;
    case KEY_ESC:
    case 'q': v->mode = MODE_BOARD; break;
    default: break;
    }
}

static void handle_key(View *v, int key, bool is_char, wint_t ch) {
    switch (v->mode) {
    case MODE_HELP: v->mode = MODE_BOARD; break;
    case MODE_PROMPT: prompt_key(v, key, is_char, ch); break;
    case MODE_MENU: menu_key(v, key); break;
    case MODE_RESIGN:
        v->mode = MODE_BOARD;
        if (key == 'y' || key == 'Y') play_resign(v->s);
        break;
    case MODE_QUIT:
        v->mode = MODE_BOARD;
        if (key == 'y' || key == 'Y') v->s->quit = true;
        break;
    default: board_key(v, key); break;
    }
}

/* ---- Life cycle ---- */

/// Events the board reacts to: a hint moves the cursor there; a new position keeps the
/// cursor on the board.
static void take_events(View *v) {
    PlayEvent ev;
    while (play_next_event(v->s, &ev)) {
        if (ev.kind == EV_HINT && v->s->has_hint) v->cursor = v->s->hint;
        if (ev.kind == EV_POSITION && (v->cursor.x >= board_w(v) || v->cursor.y >= board_h(v)))
            v->cursor = (TgPoint){board_w(v) / 2, board_h(v) / 2};
    }
}

static void init_colors(View *v) {
    v->color = !v->opt.mono && has_colors() && start_color() == OK;
    if (!v->color) return;
    use_default_colors();
    init_pair(PAIR_BOARD, COLOR_BLACK, COLOR_YELLOW);
    init_pair(PAIR_BLACK, COLOR_BLACK, COLOR_YELLOW);
    init_pair(PAIR_WHITE, COLOR_WHITE, COLOR_YELLOW);
    init_pair(PAIR_WIN_BLACK, COLOR_BLACK, COLOR_GREEN);
    init_pair(PAIR_WIN_WHITE, COLOR_WHITE, COLOR_GREEN);
    init_pair(PAIR_FORBID, COLOR_RED, COLOR_YELLOW);
    init_pair(PAIR_HINT, COLOR_BLUE, COLOR_YELLOW);
    init_pair(PAIR_ERROR, COLOR_RED, -1);
    init_pair(PAIR_TITLE, COLOR_CYAN, -1);
    init_pair(PAIR_AREA, COLOR_BLACK, COLOR_CYAN);
}

static void init_screen(View *v) {
    initscr();
    raw(); /* Ctrl-C arrives as a key, so the terminal is always restored */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(50);
    curs_set(0);
    timeout(TICK_MS);
    mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON3_PRESSED |
                  BUTTON3_RELEASED | BUTTON3_CLICKED,
              NULL);
    mouseinterval(0);
    init_colors(v);
}

int play_curses_run(PlaySession *s, const PlayViewOptions *options) {
    View *v = calloc(1, sizeof *v);
    if (!v) return cli_error("play: out of memory");
    v->s = s;
    v->opt = *options;
    v->g = options->ascii ? &ASCII_GLYPHS : &UNICODE_GLYPHS;
    v->show_forbidden = true;
    v->forbidden_version = s->version - 1;
    v->cursor = (TgPoint){tg_game_width(s->game) / 2, tg_game_height(s->game) / 2};
    if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0) s->cfg.lang = LANG_EN; /* no CJK glyphs */
    init_screen(v);
    while (!s->quit) {
        play_tick(s);
        take_events(v);
        draw(v);
        wint_t ch;
        const int r = get_wch(&ch);
        if (r == ERR) continue;
        handle_key(v, r == KEY_CODE_YES ? (int)ch : (ch < 128 ? (int)ch : -1), r == OK, ch);
    }
    endwin();
    free(v);
    return 0;
}

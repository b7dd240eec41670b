/*
 * notation.c — h8 points and move lists (formats.md §1, §2). Letter = column from the left,
 * number = row from the bottom; protocol y counts from the top, so y = height - number.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "types.h"

static const TgPoint PASS = {-1, -1};

TgError tg_point_to_text(TgPoint p, int width, int height, char *buf, size_t size) {
    if (tg_point_is_pass(p)) {
        snprintf(buf, size, "pass");
        return TG_OK;
    }
    if (p.x < 0 || p.y < 0 || p.x >= width || p.y >= height || p.x >= 26) {
        snprintf(buf, size, "?");
        return TG_ERR_OFF_BOARD;
    }
    snprintf(buf, size, "%c%d", 'a' + p.x, height - p.y);
    return TG_OK;
}

/// Reads letter + 1..2 digits at s; returns characters used, 0 if none. No range checks.
static int scan_point(const char *s, int height, TgPoint *p) {
    if (!isalpha((unsigned char)s[0]) || !isdigit((unsigned char)s[1])) return 0;
    int n = 1, number = 0;
    while (n < 3 && isdigit((unsigned char)s[n])) number = number * 10 + (s[n++] - '0');
    if (number == 0) { /* a0: the lfz084 filler, read as a pass */
        *p = PASS;
        return tolower((unsigned char)s[0]) == 'a' && n == 2 ? n : 0;
    }
    p->x = tolower((unsigned char)s[0]) - 'a';
    p->y = height - number;
    return n;
}

static bool on_board(TgPoint p, int width, int height) {
    return p.x >= 0 && p.y >= 0 && p.x < width && p.y < height;
}

TgError tg_point_from_text(const char *text, int width, int height, TgPoint *p) {
    if (strcmp(text, "pass") == 0 || strcmp(text, "--") == 0) {
        *p = PASS;
        return TG_OK;
    }
    TgPoint q;
    int n = scan_point(text, height, &q);
    if (n == 0 || text[n] != '\0') return TG_ERR_PARSE;
    if (!tg_point_is_pass(q) && !on_board(q, width, height)) return TG_ERR_OFF_BOARD;
    *p = q;
    return TG_OK;
}

static bool is_separator(char c) {
    return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r';
}

/// The length of the token starting at s (up to a separator or the end).
static size_t token_length(const char *s) {
    size_t n = 0;
    while (s[n] && !is_separator(s[n])) n++;
    return n;
}

/// One token of `len` characters: "pass", "--", or one or more glued points ("h8i9j10", of
/// any length).
static TgError parse_token(const char *tok, size_t len, int width, int height, TgPoint *moves,
                           int max_moves, int *count, char *err, size_t err_size) {
    if ((len == 4 && strncmp(tok, "pass", 4) == 0) || (len == 2 && strncmp(tok, "--", 2) == 0)) {
        if (*count >= max_moves) goto too_many;
        moves[(*count)++] = PASS;
        return TG_OK;
    }
    const int shown = len < 16 ? (int)len : 16;
    for (const char *s = tok; s < tok + len;) {
        TgPoint p;
        int n = scan_point(s, height, &p);
        /* In a glued string a 3-digit run means a 2-digit row followed by garbage. */
        if (n == 0) {
            const int rest = tok + len - s < 16 ? (int)(tok + len - s) : 16;
            snprintf(err, err_size, "bad move '%.*s' at \"%.*s\"", shown, tok, rest, s);
            return TG_ERR_PARSE;
        }
        if (!tg_point_is_pass(p) && !on_board(p, width, height)) {
            snprintf(err, err_size, "move '%.*s' is off the %dx%d board", n, s, width, height);
            return TG_ERR_OFF_BOARD;
        }
        if (*count >= max_moves) goto too_many;
        moves[(*count)++] = p;
        s += n;
    }
    return TG_OK;
too_many:
    snprintf(err, err_size, "more than %d moves", max_moves);
    return TG_ERR_ARGUMENT;
}

TgError tg_parse_moves(const char *text, int width, int height, TgPoint *moves, int max_moves,
                       int *count, char *err, size_t err_size) {
    bool after_move = false; /* a comma must follow a move: ",," or a leading comma is an error */
    *count = 0;
    for (const char *s = text; *s;) {
        if (*s == ',' && !after_move) {
            snprintf(err, err_size, "empty move before the comma at \"%.16s\"", s);
            return TG_ERR_PARSE;
        }
        if (is_separator(*s)) {
            if (*s == ',') after_move = false;
            s++;
            continue;
        }
        after_move = true;
        const size_t n = token_length(s);
        TgError e = parse_token(s, n, width, height, moves, max_moves, count, err, err_size);
        if (e != TG_OK) return e;
        s += n;
    }
    return TG_OK;
}

size_t tg_format_moves(const TgPoint *moves, int count, int width, int height, const char *sep,
                       char *buf, size_t size) {
    size_t used = 0;
    for (int i = 0; i < count; i++) {
        char pt[8];
        tg_point_to_text(moves[i], width, height, pt, sizeof pt);
        int n = snprintf(size > used ? buf + used : NULL, size > used ? size - used : 0, "%s%s",
                         i ? sep : "", pt);
        used += (size_t)n;
    }
    if (size > 0 && used >= size) buf[size - 1] = '\0';
    if (count == 0 && size > 0) buf[0] = '\0';
    return used;
}

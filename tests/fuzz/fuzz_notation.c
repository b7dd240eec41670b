/*
 * fuzz_notation.c — libFuzzer target for h8 notation. The first byte picks the board
 * (width 5..22 from bits 0-4; bit 7: square, else height 5, 10, 15 or 20); the rest is text
 * for tg_parse_moves and tg_point_from_text.
 * Whatever parses must lie on the board (or be a pass) and survive tg_format_moves and back;
 * whatever does not must come with a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tengen.h"

enum { MAX_MOVES = 64 };

static bool on_board_or_pass(TgPoint p, int w, int h) {
    return tg_point_is_pass(p) || (p.x >= 0 && p.y >= 0 && p.x < w && p.y < h);
}

static void check_list(const char *text, int w, int h) {
    TgPoint moves[MAX_MOVES], again[MAX_MOVES];
    int n = -1, m = -1;
    char err[128] = "";
    if (tg_parse_moves(text, w, h, moves, MAX_MOVES, &n, err, sizeof err) != TG_OK) {
        if (!err[0]) abort();
        return;
    }
    if (n < 0 || n > MAX_MOVES) abort();
    for (int i = 0; i < n; i++)
        if (!on_board_or_pass(moves[i], w, h)) abort();
    char buf[MAX_MOVES * 8];
    size_t need = tg_format_moves(moves, n, w, h, " ", buf, sizeof buf);
    if (need >= sizeof buf) abort();
    if (tg_parse_moves(buf, w, h, again, MAX_MOVES, &m, err, sizeof err) != TG_OK || m != n)
        abort();
    for (int i = 0; i < n; i++)
        if (moves[i].x != again[i].x || moves[i].y != again[i].y) abort();
}

static void check_point(const char *text, int w, int h) {
    TgPoint p, q;
    if (tg_point_from_text(text, w, h, &p) != TG_OK) return;
    if (!on_board_or_pass(p, w, h)) abort();
    char buf[8];
    if (tg_point_to_text(p, w, h, buf, sizeof buf) != TG_OK) abort();
    if (tg_point_from_text(buf, w, h, &q) != TG_OK || p.x != q.x || p.y != q.y) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int w = TG_MIN_SIZE + (data[0] & 31) % 18;
    int h = data[0] & 0x80 ? w : TG_MIN_SIZE + 5 * ((data[0] >> 5) & 3); /* 5, 10, 15, 20 */
    char *text = malloc(size);
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    check_list(text, w, h);
    check_point(text, w, h);
    free(text);
    return 0;
}

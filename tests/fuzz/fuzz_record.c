/*
 * fuzz_record.c — libFuzzer target for the record readers. The first byte picks the format
 * (bits 0-1), the rule (bits 2-6) and the board size for move lists and .pos (bit 7); the rest
 * is the file. A refused file must come with a one-line message. An accepted one is written in
 * every format that can hold it and read back, and must come back with the same moves (and,
 * in SGF, the same rule, result and info; in PSQ, the same names).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tengen.h"

static const TgFormat FORMATS[4] = {TG_FORMAT_PSQ, TG_FORMAT_SGF, TG_FORMAT_POS, TG_FORMAT_MOVES};
static const char *const INFO_KEYS[] = {"black", "white", "date", "event", "comment"};

static void fail(const char *what, TgFormat format, const char *err) {
    fprintf(stderr, "fuzz_record: %s (%s): %s\n", what, tg_format_name(format), err);
    abort();
}

static bool same_text(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/// Compares the first `keys` info fields.
static bool same_info(const TgGame *a, const TgGame *b, int keys) {
    for (int k = 0; k < keys; k++)
        if (!same_text(tg_game_info(a, INFO_KEYS[k]), tg_game_info(b, INFO_KEYS[k]))) return false;
    return true;
}

static bool same_moves(const TgGame *a, const TgGame *b) {
    if (tg_game_ply(a) != tg_game_ply(b) || tg_game_width(a) != tg_game_width(b) ||
        tg_game_height(a) != tg_game_height(b))
        return false;
    for (int i = 0; i < tg_game_ply(a); i++) {
        TgPoint p = tg_game_move(a, i), q = tg_game_move(b, i);
        if (p.x != q.x || p.y != q.y) return false;
    }
    return true;
}

static bool same_result(const TgGame *a, const TgGame *b) {
    TgResult ra = tg_game_result(a), rb = tg_game_result(b);
    return ra.reason == rb.reason && ra.winner == rb.winner;
}

static void check_round_trip(const TgGame *g, TgFormat format) {
    char err[256] = "";
    size_t len;
    char *out = tg_record_write(g, format, &len, err, sizeof err);
    if (!out) { /* some games do not fit some formats (passes in PSQ, sizes in .pos) */
        if (!err[0]) fail("write refused without a message", format, "");
        return;
    }
    int size = format == TG_FORMAT_POS || format == TG_FORMAT_MOVES ? tg_game_width(g) : 0;
    TgGame *back = tg_record_read(format, out, len, tg_game_rule(g), size, err, sizeof err);
    if (!back) fail("cannot read back what was written", format, err);
    if (!same_moves(g, back)) fail("moves differ after a round trip", format, "");
    if (format == TG_FORMAT_SGF &&
        (tg_game_rule(g) != tg_game_rule(back) || !same_result(g, back) || !same_info(g, back, 5)))
        fail("rule, result or info differ after a round trip", format, "");
    if (format == TG_FORMAT_PSQ && !same_info(g, back, 2))
        fail("names differ after a round trip", format, "");
    tg_game_free(back);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    TgFormat format = FORMATS[data[0] & 3];
    TgRule rule = (TgRule)(((data[0] >> 2) & 31) % TG_RULE_COUNT);
    int board = data[0] & 0x80 ? 20 : 0;
    char err[256] = "";
    TgGame *g =
        tg_record_read(format, (const char *)data + 1, size - 1, rule, board, err, sizeof err);
    if (!g) {
        if (!err[0] || strchr(err, '\n')) fail("refused without a one-line message", format, err);
        return 0;
    }
    for (int f = 0; f < 4; f++) check_round_trip(g, FORMATS[f]);
    tg_game_free(g);
    return 0;
}

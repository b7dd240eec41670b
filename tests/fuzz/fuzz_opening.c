/*
 * fuzz_opening.c — libFuzzer target for the opening rules: byte 0 picks the opening rule and
 * the game rule, then every two bytes are one action (place, choose, declare, offer, select,
 * undo) with its argument. Invariants: a refused action changes nothing and says why; an
 * accepted one is reflected in the text form, which replays to the same phase; the stones and
 * offers stay within their limits. Then the rest of the input, as text, goes to
 * tg_opening_from_text().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tengen.h"

static void fail(const char *what, const TgOpening *op) {
    char text[512];
    tg_opening_text(op, text, sizeof text);
    fprintf(stderr, "fuzz_opening: %s (%s; why: %s)\n", what, text, tg_opening_why(op));
    abort();
}

static TgError act(TgOpening *op, uint8_t kind, uint8_t arg) {
    const int size = tg_opening_size(op);
    const TgPoint p = {arg % (size + 1) - (arg % 7 == 0), arg / (size + 1) % (size + 1)};
    switch (kind % 6) {
    case 0: return tg_opening_place(op, p);
    case 1: return tg_opening_choose(op, (TgChoice)(arg % 17));
    case 2: return tg_opening_declare(op, arg % 13 - 1);
    case 3: return tg_opening_offer(op, p);
    case 4: return tg_opening_select(op, p);
    default: return tg_opening_undo(op);
    }
}

/// The text form replays to the same phase.
static void check_replay(const TgOpening *op) {
    char text[512], again[512], err[160];
    tg_opening_text(op, text, sizeof text);
    TgOpening *copy =
        tg_opening_from_text(text, tg_opening_game_rule(op), tg_opening_size(op), err, sizeof err);
    if (!copy) fail(err, op);
    tg_opening_text(copy, again, sizeof again);
    if (strcmp(text, again) != 0 || tg_opening_step(copy).kind != tg_opening_step(op).kind ||
        tg_opening_player_of(copy, TG_BLACK) != tg_opening_player_of(op, TG_BLACK))
        fail("the text does not replay", op);
    tg_opening_free(copy);
}

static void run_actions(TgOpening *op, const uint8_t *data, size_t n) {
    char before[512], after[512];
    for (size_t i = 0; i + 1 < n; i += 2) {
        tg_opening_text(op, before, sizeof before);
        const TgError e = act(op, data[i], data[i + 1]);
        tg_opening_text(op, after, sizeof after);
        if (e != TG_OK && (strcmp(before, after) != 0 || !tg_opening_why(op)[0]))
            fail("a refusal changed the phase or gave no reason", op);
        if (tg_opening_stones(op, NULL, 0) > TG_OPENING_MAX_STONES ||
            tg_opening_offers(op, NULL, 0) > TG_OPENING_MAX_OFFERS)
            fail("too many stones or offers", op);
        char step[256];
        tg_opening_step_text(op, step, sizeof step);
    }
    check_replay(op);
    TgGame *g = tg_opening_game(op);
    if (!g || tg_game_ply(g) != tg_opening_stones(op, NULL, 0)) fail("the game differs", op);
    tg_game_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const TgOpeningRule orule = (TgOpeningRule)(data[0] % TG_OPENING_RULE_COUNT);
    const TgRule rule = (TgRule)(data[0] / TG_OPENING_RULE_COUNT % TG_RULE_COUNT);
    const int board = data[0] & 0x80 ? 9 : 15;
    TgOpening *op = tg_opening_new(orule, rule, board);
    if (op) {
        run_actions(op, data + 1, size - 1 < 128 ? size - 1 : 128);
        tg_opening_free(op);
    }
    char text[600], err[160];
    const size_t n = size - 1 < sizeof text - 1 ? size - 1 : sizeof text - 1;
    memcpy(text, data + 1, n);
    text[n] = '\0';
    TgOpening *parsed = tg_opening_from_text(text, rule, board, err, sizeof err);
    if (parsed) check_replay(parsed);
    tg_opening_free(parsed);
    return 0;
}

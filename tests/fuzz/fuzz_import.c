/*
 * fuzz_import.c — libFuzzer target for the import lines of `tengen datagen --import`
 * (tg_data_import_line). The input is read as a line for freestyle and for renju on 15x15: a
 * refused line must come with a message; an accepted one must give a book within its game and
 * scores within the scale, one for each move after the book.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tengen.h"

static void check(const char *text, TgRule rule) {
    char err[300] = "";
    int book = -1, *scores = NULL;
    TgGame *g = tg_data_import_line(text, rule, 15, &book, &scores, err, sizeof err);
    if (!g) {
        if (!err[0] || scores) abort();
        return;
    }
    const int length = tg_game_ply(g);
    if (book < 0 || book > length) abort();
    for (int i = 0; scores && i < length - book; i++)
        if (scores[i] < -TG_SCORE_WIN || scores[i] > TG_SCORE_WIN) abort();
    free(scores);
    tg_game_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *line = strndup((const char *)data, size); // up to a NUL, as a file's line would be
    const TgRule rules[] = {TG_FREESTYLE, TG_RENJU};
    for (size_t k = 0; line && k < sizeof rules / sizeof rules[0]; k++) check(line, rules[k]);
    free(line);
    return 0;
}

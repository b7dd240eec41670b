/*
 * fuzz_weights.c — libFuzzer target for evaluation weight tables (docs/eval.md). The input is
 * read as a table for freestyle and for renju; a refused table must come with a message, and an
 * accepted one must write back to text that reads as the same table.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/weights.h"

static void check(const char *text, Rule rule) {
    static EvalWeights w, back; /* large: off the stack */
    char err[200] = "";
    if (!weights_parse(text, rule, &w, err, sizeof err)) {
        if (!err[0]) abort();
        return;
    }
    char *written = weights_format(&w, rule, "fuzz");
    if (!written || !weights_parse(written, rule, &back, err, sizeof err) ||
        memcmp(&w, &back, sizeof w))
        abort();
    free(written);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    check(text, TG_FREESTYLE);
    check(text, TG_RENJU);
    free(text);
    return 0;
}

/*
 * fuzz_model.c — libFuzzer target for model files (docs/zero.md). The input is read as is, and
 * again with its last four bytes replaced by the right CRC-32, so that the fields behind the
 * checksum are reached too. A refused file must come with a message; an accepted one must
 * write back to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/tengen.h"

static uint32_t crc32_of(const uint8_t *p, size_t n) {
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static void check(const uint8_t *data, size_t size) {
    char err[200] = "";
    TgModel *m = tg_model_read(data, size, err, sizeof err);
    if (!m) {
        if (!err[0]) abort();
        return;
    }
    size_t len;
    void *back = tg_model_write(m, &len);
    if (!back || len != size || memcmp(back, data, size) != 0) abort();
    free(back);
    tg_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    check(data, size);
    if (size < 8) return 0;
    uint8_t *copy = malloc(size);
    if (!copy) return 0;
    memcpy(copy, data, size);
    const uint32_t crc = crc32_of(copy, size - 4);
    for (int i = 0; i < 4; i++) copy[size - 4 + i] = (uint8_t)(crc >> (8 * i));
    check(copy, size);
    free(copy);
    return 0;
}

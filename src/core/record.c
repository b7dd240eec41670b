/*
 * record.c — game records (placeholder until the record readers and writers land).
 */
#include <stdio.h>
#include <string.h>

#include "game.h"

TgFormat tg_format_from_path(const char *path) { (void)path; return TG_FORMAT_UNKNOWN; }
const char *tg_format_name(TgFormat format) { (void)format; return "unknown"; }

TgGame *tg_record_read(TgFormat format, const char *data, size_t len, TgRule rule, int size,
                       char *err, size_t err_size) {
    (void)format; (void)data; (void)len; (void)rule; (void)size;
    snprintf(err, err_size, "records are not supported yet");
    return NULL;
}

char *tg_record_write(const TgGame *game, TgFormat format, size_t *len, char *err,
                      size_t err_size) {
    (void)game; (void)format; (void)len;
    snprintf(err, err_size, "records are not supported yet");
    return NULL;
}

/*
 * record_formats.h — the PSQ and SGF readers and writers, for the dispatch in record.c only.
 */
#ifndef TG_RECORD_FORMATS_H
#define TG_RECORD_FORMATS_H

#include "record.h"

TgGame *record_read_psq(const char *data, size_t len, TgRule rule, RecordError *e);
bool record_write_psq(const TgGame *g, RecordBuf *b, RecordError *e);
TgGame *record_read_sgf(const char *data, size_t len, TgRule rule, int size, RecordError *e);
bool record_write_sgf(const TgGame *g, RecordBuf *b, RecordError *e);

#endif

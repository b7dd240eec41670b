/*
 * dataset.h — training data files (.tgd, docs/formats.md "Training data"): whole games with
 * the search score of every engine move and the result, for tuning the evaluation. Files may
 * be concatenated with `cat`: a repeated file header between records is skipped.
 */
#ifndef TG_DATASET_H
#define TG_DATASET_H

#include <stdio.h>

#include "board.h"

enum { DATA_NO_SCORE = INT16_MIN }; ///< a move with no search score (random opening moves)

enum {
    DATA_VERSION = 1,
    DATA_HEADER_BYTES = 8, ///< "TGD1" and a u32 version
    DATA_RECORD_BYTES = 6, ///< rule, width, height, result, u16 move count
    DATA_MOVE_BYTES = 4,   ///< x, y, i16 score
};

/// One game of a data file.
typedef struct DataGame {
    Rule rule;
    int width, height;
    int result;         ///< 0 Black won, 1 White won, 2 draw (TgColor of the winner)
    int count;          ///< moves
    Pos moves[MAX_PLY]; ///< pos_make(x, y); no passes
    /// Search score of the position before moves[i], from the side to move's view there,
    /// clamped to int16 (a forced win is near +-TG_SCORE_WIN); DATA_NO_SCORE where none.
    int16_t score[MAX_PLY];
} DataGame;

/// A search score as a data file stores it: within +-TG_SCORE_WIN, which int16 holds.
static inline int16_t dataset_score(int score) {
    return (int16_t)(score > TG_SCORE_WIN    ? TG_SCORE_WIN
                     : score < -TG_SCORE_WIN ? -TG_SCORE_WIN
                                             : score);
}

typedef struct DataReader DataReader;

/// Opens a data file; NULL with a message in err (missing file, not a tengen data file,
/// unknown version).
DataReader *dataset_open(const char *path, char *err, size_t err_size);
/// 1: a game read into *g; 0: clean end of file; -1: a malformed record, with err naming the
/// file offset and the fault (bad rule, size, result, move off the board, a stone on an
/// occupied point, truncated record...). After -1 the reader stays at the fault.
int dataset_next(DataReader *r, DataGame *g, char *err, size_t err_size);
void dataset_close(DataReader *r);
/// The file offset where the last game read starts (for messages about its moves).
long long dataset_game_offset(const DataReader *r);
/// As dataset_open, over an open stream that the reader takes over (dataset_close closes it,
/// and so does a failure); `name` stands for the file in messages. For tests and fuzzing.
DataReader *dataset_open_stream(FILE *f, const char *name, char *err, size_t err_size);

/// Appends one game, writing the file header first when the file is empty (or when its
/// position cannot be told, as on a pipe: a repeated header is allowed). False on a write
/// error or a game that cannot be stored (bad fields, more moves than MAX_PLY).
bool dataset_write(FILE *f, const DataGame *g);

/// Checks a game's fields and moves as dataset_next() does; NULL when it is sound, else a
/// short description of the first fault. `bad_move` (may be NULL) gets the move's index, or
/// -1 for a fault in the record's head.
const char *dataset_check(const DataGame *g, int *bad_move);

#endif

/*
 * game.h — the TgGame behind the public API: a Board plus the record (with its redo branch),
 * the result, the clocks and the record fields. Shared with record.c, which builds games.
 */
#ifndef TG_GAME_H
#define TG_GAME_H

#include "board.h"

enum { GAME_INFO_MAX = 16 };

typedef struct GameInfo {
    char *key, *value;
} GameInfo;

struct TgGame {
    Board board;
    Pos record[MAX_PLY];       ///< moves played and, past board.ply, the redo branch
    int64_t spent_ms[MAX_PLY]; ///< time each move took (0 when unknown)
    int length;                ///< entries in record[]
    TgResult result;           ///< result at the current ply
    bool fouls_playable;
    TgClock clock;
    int64_t left_ms[2];    ///< game time left per side
    int64_t turn_spent_ms; ///< spent on the current move before the last resume
    int64_t turn_mark_ms;  ///< clock reading when the current move was (re)started
    bool clock_running;
    GameInfo info[GAME_INFO_MAX];
};

/// Protocol point <-> Pos for this game's board (POS_NONE when off the board).
Pos game_pos(const TgGame *g, TgPoint p);
TgPoint game_point(Pos p);

#endif

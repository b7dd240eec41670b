/*
 * match.h — engine-against-engine games for `tengen selfplay` and `tengen ladder`: the opening
 * files, one game played out from an opening, and its outcome.
 */
#ifndef TG_MATCH_H
#define TG_MATCH_H

#include "../tengen.h"

/// One starting position of an opening file.
typedef struct MatchOpening {
    char *text; ///< as written in the file
    TgPoint *moves;
    int count;
} MatchOpening;

typedef struct MatchOpenings {
    MatchOpening *list;
    int count;
} MatchOpenings;

/// Reads one opening a line (`h8i9j10`; `#` comments and blank lines skipped) for the rule and
/// board; an opening that is illegal or does not fit is reported on stderr and skipped. Returns
/// 0, or an exit status with a message (`command` names the caller in it) when the file cannot
/// be read or holds no usable opening.
int match_openings_load(const char *path, TgRule rule, int width, int height, const char *command,
                        MatchOpenings *out);
void match_openings_free(MatchOpenings *o);

/// One engine of a game: the engine and the limits of each of its moves.
typedef struct MatchSide {
    TgEngine *engine;
    TgSearchLimits limits; ///< .seed is replaced by the game's seed
} MatchSide;

/// One finished game, from the board's point of view.
typedef struct MatchOutcome {
    TgColor winner; ///< TG_NOBODY for a draw
    int moves;
    bool engine_bug; ///< a search failed or its move was refused: the other side won
    char how[200];   ///< "black wins by five", "draw by full-board", ...
} MatchOutcome;

/// A per-game seed, so that games from the same opening (and one-ply levels' games) differ.
uint64_t match_game_seed(uint64_t seed, long game);

/// Plays a game from `opening` (NULL: an empty board) with side[TG_BLACK] and side[TG_WHITE],
/// both engines cleared first, until it ends or passes the move limit. Returns the game (for
/// saving; the caller frees it), or NULL when out of memory.
TgGame *match_play(TgRule rule, int width, int height, const MatchOpening *opening,
                   const MatchSide side[2], uint64_t seed, MatchOutcome *out);

#endif

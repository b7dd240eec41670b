/*
 * ladder.h — the results of a rating ladder, the Bradley-Terry fit and the reports (a text
 * table and an SVG picture), for `tengen ladder`.
 */
#ifndef TG_LADDER_H
#define TG_LADDER_H

#include <stdio.h>

#include "../tengen.h"

enum {
    LADDER_MAX_PLAYERS = 16,
    LADDER_MAX_PAIRS = LADDER_MAX_PLAYERS * (LADDER_MAX_PLAYERS - 1) / 2
};

/// A level as it plays in the ladder: with a node budget a move, or (0) its own.
typedef struct LadderPlayer {
    TgLevel level;
    uint64_t nodes;
    char name[40]; ///< "medium", "max@1000000"
} LadderPlayer;

/// The games of two players, scored for the first (a < b, indices into the players).
typedef struct LadderPair {
    int a, b;
    long win, loss, draw;
} LadderPair;

typedef struct LadderResults {
    LadderPlayer player[LADDER_MAX_PLAYERS];
    int player_count;
    LadderPair pair[LADDER_MAX_PAIRS];
    int pair_count;
} LadderResults;

typedef struct LadderFit {
    int anchor;                        ///< the player held at 0 (beginner when present)
    double rating[LADDER_MAX_PLAYERS]; ///< Elo above the anchor
    double error[LADDER_MAX_PLAYERS];  ///< half the 95% interval (0 for the anchor)
} LadderFit;

/// "medium", or "max@1000000" with a node budget.
void ladder_player_name(const LadderPlayer *p, char *buf, size_t size);
/// Reads "name" or "name@nodes" (nodes > 0) into a player; false when it is neither.
bool ladder_player_parse(const char *name, LadderPlayer *p);

void ladder_results_init(LadderResults *r);
/// The index of the player of that name, added when new; -1 when the table is full.
int ladder_results_player(LadderResults *r, const LadderPlayer *p);
/// One game: black_score is 1, 0.5 or 0.
void ladder_results_add(LadderResults *r, int black, int white, double black_score);
/// Adds the games of a games file (`black white result moves opening` lines; `#` comments, the
/// first `# settings: ...` copied to `settings` when it is still empty). False with a message
/// naming the line on a malformed one.
bool ladder_results_read(LadderResults *r, const char *text, char *settings, size_t settings_size,
                         char *err, size_t err_size);

/// Fits the ratings to every game at once: Bradley-Terry with the Elo curve (a draw half a win,
/// one virtual draw per pair played), Newton's method on the log-likelihood, the errors from its
/// curvature. False when some player is not connected to the anchor by games.
bool ladder_fit(const LadderResults *r, LadderFit *fit);

/// The table: levels by rating with their 95% intervals and games, then every pair's score.
void ladder_print_table(FILE *f, const LadderResults *r, const LadderFit *fit,
                        const char *settings);
/// The picture: one row per level, its rating as a dot with its interval as a bar.
void ladder_write_svg(FILE *f, const LadderResults *r, const LadderFit *fit, const char *settings);

#endif

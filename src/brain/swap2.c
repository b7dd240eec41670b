/*
 * swap2.c — SWAP2BOARD and Yixin-Board's YXSWAP2STEP1..3 (opening rule swap2; protocol.md §3, §8)
 * The decisions come from the core's opening engine (tg_opening_decide), which searches and
 * picks among near-equal choices with a fixed seed:
 *   0 stones: three stones whose score is nearest even;
 *   3 stones: take Black (SWAP), take White and play move 4, or place moves 4 and 5 near even;
 *   5 stones: take Black (SWAP), or take White and play move 6.
 * Yixin-Board asks the same three questions after YXBOARD and wants MESSAGE lines: SWAP2
 * MOVEn with the point as "a b" in the order its boards use, SWAP2 SWAP1 YES/NO (take Black
 * after three stones), SWAP2 SWAP2 YES/NO (take Black after five); it then asks for a move.
 */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>

enum {
    SWAP2_SEED = 0x5eed,
    SWAP2_INSTANT_NODES = 3000, ///< per search when there is no time at all
    SWAP2_OPEN_SEARCHES = 9,    ///< the 8 candidate openings and a reserve
    SWAP2_CHOOSE_SEARCHES = 3,  ///< the choice takes a third of the turn
    SWAP2_TWO_SEARCHES = 5,     ///< then the 4 searches for two stones share the rest
};

/// Per-search limits of an opening decision that shares out the turn over `searches`.
static TgOpeningLimits opening_limits(const Brain *b, int searches) {
    TgSearchLimits l;
    brain_limits(b, &l, searches);
    TgOpeningLimits o = {
        .nodes = l.nodes, .time_ms = l.turn_ms, .depth = l.depth, .seed = SWAP2_SEED};
    o.stop = b->job.stop;
    if (l.instant) {
        o.time_ms = 0;
        if (!o.nodes || o.nodes > SWAP2_INSTANT_NODES) o.nodes = SWAP2_INSTANT_NODES;
    }
    return o;
}

/// The swap2 phase up to the stones on the board (black, white, black, ...): 3 stones wait
/// for player 2's choice, 5 (after "place two") for player 1's. NULL (ERROR written) if the
/// board cannot be such a phase.
static TgOpening *swap2_phase(Brain *b, int stones) {
    const int size = tg_game_width(b->game);
    TgOpening *op = size == tg_game_height(b->game)
                        ? tg_opening_new(TG_OPENING_SWAP2, tg_game_rule(b->game), size)
                        : NULL;
    if (!op) {
        brain_out(b, "ERROR swap2 needs a square board");
        return NULL;
    }
    TgError e = TG_OK;
    for (int i = 0; i < stones && e == TG_OK; i++) {
        if (i == 3) e = tg_opening_choose(op, TG_CHOICE_PLACE_TWO);
        if (e == TG_OK) e = tg_opening_place(op, tg_game_move(b->game, i));
    }
    if (e != TG_OK || tg_game_ply(b->game) != stones) {
        brain_out(b, "ERROR swap2: %s", e != TG_OK ? tg_opening_why(op) : "wrong number of stones");
        tg_opening_free(op);
        return NULL;
    }
    return op;
}

/// The engine's decision on the phase; false (ERROR written) when it failed.
static bool swap2_decide(Brain *b, const TgOpening *op, int searches, TgOpeningDecision *d) {
    const TgOpeningLimits lim = opening_limits(b, searches);
    const TgError e = tg_opening_decide(b->engine, op, &lim, d);
    if (e != TG_OK) {
        brain_out(b, "ERROR swap2: %s", tg_error_text(e));
        return false;
    }
    brain_out(b, "MESSAGE swap2: %s, %" PRIu64 " nodes", d->why, d->nodes);
    return true;
}

/// Writes points: "x1,y1 x2,y2" for SWAP2BOARD, or MESSAGE SWAP2 MOVEn lines for Yixin.
static void swap2_points(Brain *b, const TgPoint *p, int n, int first_index) {
    char line[64] = "";
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        if (b->job.yixin)
            brain_out(b, "MESSAGE SWAP2 MOVE%d %d %d", first_index + i, p[i].x, p[i].y);
        else
            len += (size_t)snprintf(line + len, sizeof line - len, "%s%d,%d", i ? " " : "", p[i].x,
                                    p[i].y);
    }
    if (!b->job.yixin) brain_out(b, "%s", line);
}

static void swap2_open(Brain *b) {
    TgOpening *op = swap2_phase(b, 0);
    TgOpeningDecision d;
    if (op && swap2_decide(b, op, SWAP2_OPEN_SEARCHES, &d)) {
        tg_game_setup(b->game, d.points, d.count, NULL);
        swap2_points(b, d.points, d.count, 1);
    }
    tg_opening_free(op);
}

/// Player 2 after three stones.
static void swap2_three(Brain *b) {
    TgOpening *op = swap2_phase(b, 3);
    TgOpeningDecision d;
    if (!op || !swap2_decide(b, op, SWAP2_CHOOSE_SEARCHES, &d)) {
        tg_opening_free(op);
        return;
    }
    if (d.choice == TG_CHOICE_PLACE_TWO) {
        tg_opening_apply(op, &d);
        if (swap2_decide(b, op, SWAP2_TWO_SEARCHES, &d)) {
            for (int i = 0; i < d.count; i++) tg_game_play(b->game, d.points[i], 0);
            swap2_points(b, d.points, d.count, 4);
        }
    } else if (b->job.yixin) {
        brain_out(b, "MESSAGE SWAP2 SWAP1 %s", d.choice == TG_CHOICE_SWAP ? "YES" : "NO");
    } else if (d.choice == TG_CHOICE_SWAP) {
        brain_out(b, "SWAP");
    } else {
        TgSearchResult r;
        if (brain_search(b, 1, false, &r)) brain_answer_move(b, &r); /* move 4 as White */
    }
    tg_opening_free(op);
}

/// Player 1 after five stones: STAY keeps Black (the protocol's SWAP), SWAP takes White.
static void swap2_five(Brain *b) {
    TgOpening *op = swap2_phase(b, 5);
    TgOpeningDecision d;
    if (op && swap2_decide(b, op, 2, &d)) {
        const bool black = d.choice == TG_CHOICE_STAY;
        if (b->job.yixin) {
            brain_out(b, "MESSAGE SWAP2 SWAP2 %s", black ? "YES" : "NO");
        } else if (black) {
            brain_out(b, "SWAP");
        } else {
            TgSearchResult r;
            if (brain_search(b, 1, false, &r)) brain_answer_move(b, &r); /* move 6 as White */
        }
    }
    tg_opening_free(op);
}

void brain_swap2(Brain *b) {
    if (b->job.stones == 0)
        swap2_open(b);
    else if (b->job.stones == 3)
        swap2_three(b);
    else
        swap2_five(b);
}

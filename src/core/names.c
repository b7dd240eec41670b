/*
 * names.c — names and texts of the public enums.
 */
#include <string.h>

#include "types.h"

static const char *const RULE_NAMES[TG_RULE_COUNT] = {"freestyle", "standard", "renju", "caro8",
                                                      "caro9"};

const char *tg_rule_name(TgRule rule) {
    return (unsigned)rule < TG_RULE_COUNT ? RULE_NAMES[rule] : "unknown";
}

bool tg_rule_from_name(const char *name, TgRule *rule) {
    for (int r = 0; r < TG_RULE_COUNT; r++) {
        if (strcmp(name, RULE_NAMES[r]) == 0) {
            *rule = (TgRule)r;
            return true;
        }
    }
    if (strcmp(name, "caro") == 0) { /* Gomocup's caro league plays rule 9 */
        *rule = TG_CARO9;
        return true;
    }
    return false;
}

bool tg_rule_from_code(int64_t code, TgRule *rule) {
    switch (code) {
    case 0: *rule = TG_FREESTYLE; return true;
    case 1: *rule = TG_STANDARD; return true;
    case 2: /* Yixin's renju, and with the exactly-five bit Yixin-Board may add */
    case 3:
    case 4: *rule = TG_RENJU; return true;
    case 8: *rule = TG_CARO8; return true;
    case 9: *rule = TG_CARO9; return true;
    default: return false;
    }
}

const char *tg_foul_code(TgFoul foul) {
    switch (foul) {
    case TG_FOUL_OVERLINE: return "6";
    case TG_FOUL_DOUBLE_FOUR: return "44";
    case TG_FOUL_DOUBLE_THREE: return "33";
    default: return "";
    }
}

const char *tg_color_name(TgColor color) {
    return color == TG_BLACK ? "black" : color == TG_WHITE ? "white" : "nobody";
}

bool tg_point_is_pass(TgPoint p) { return p.x == -1 && p.y == -1; }

const char *tg_reason_name(TgReason reason) {
    static const char *const names[] = {"none", "five",       "foul",      "resign",
                                        "time", "full-board", "agreement", "passes"};
    return (unsigned)reason < sizeof names / sizeof names[0] ? names[reason] : "unknown";
}

const char *tg_error_text(TgError err) {
    switch (err) {
    case TG_OK: return "ok";
    case TG_ERR_OFF_BOARD: return "the point is not on the board";
    case TG_ERR_OCCUPIED: return "the point is already taken";
    case TG_ERR_FORBIDDEN: return "the point is forbidden for Black (renju foul)";
    case TG_ERR_GAME_OVER: return "the game is over";
    case TG_ERR_PASS: return "a pass is not allowed here";
    case TG_ERR_NOTHING: return "nothing to undo or redo";
    case TG_ERR_ARGUMENT: return "bad argument";
    case TG_ERR_PARSE: return "malformed input";
    case TG_ERR_IO: return "input/output error";
    case TG_ERR_MEMORY: return "out of memory";
    case TG_ERR_MODEL: return "no network model for this board and rule (zero level)";
    }
    return "unknown error";
}

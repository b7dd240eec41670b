/*
 * tactics.h — reads one line of the shared tactics files (the .txt files in $TG_DATA/tactics):
 * "rule size move move ... | win: a b c" or "... | nowin" (format in shared/data/README.md).
 */
#ifndef TG_TEST_TACTICS_H
#define TG_TEST_TACTICS_H

#include <stdio.h>
#include <string.h>

#include "../../src/tengen.h"

/// Splits `line` in place: the rule, the board size, the moves (a diagram, attacker to move)
/// and the answer after '|'. False for a comment or a line that is not a puzzle.
static inline bool tactics_parse(char *line, TgRule *rule, int *size, char **moves, char **answer) {
    char rule_name[32], *bar = strchr(line, '|');
    int used;
    if (line[0] == '#' || !bar) return false;
    *bar = '\0';
    if (sscanf(line, "%31s %d %n", rule_name, size, &used) != 2 ||
        !tg_rule_from_name(rule_name, rule))
        return false;
    *moves = line + used;
    *answer = bar + 1;
    return true;
}

#endif

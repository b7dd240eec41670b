/*
 * cmd_brain.c — `tengen brain`: the Gomocup brain of pbrain-tengen, on stdin/stdout.
 */
#include <stdio.h>

#include "../brain/brain.h"
#include "commands.h"

const char USAGE_BRAIN[] =
    "usage: tengen brain\n"
    "\n"
    "Runs the Gomocup brain on stdin/stdout, the same as build/pbrain-tengen: the piskvork\n"
    "protocol (START, TURN, BEGIN, BOARD, INFO, END, ABOUT, RESTART, RECTSTART, TAKEBACK, PLAY,\n"
    "SWAP2BOARD) and the Yixin-Board extensions (YXBOARD, YXNBEST, YXSHOWFORBID, YXBLOCK, ...).\n"
    "Coordinates are x,y from 0, y counted from the top. See docs/protocol.md.\n"
    "`INFO level NAME` (any level of tengen --help) picks a level; max by default.\n";

int cmd_brain(int argc, char **argv) {
    (void)argc, (void)argv;
    return brain_run(stdin, stdout);
}

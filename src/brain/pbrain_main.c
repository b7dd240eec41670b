/*
 * pbrain_main.c — pbrain-tengen, the Gomocup brain: the protocol (protocol.c) on stdin/stdout,
 * with a reader thread and a search thread, so END, YXSTOP and INFO are heard while thinking.
 * `tengen brain` runs the same code.
 */
#include <stdio.h>

#include "brain.h"

int main(void) { return brain_run(stdin, stdout); }

#!/bin/sh
# check_layout.sh — the architecture rules that keep the layers apart (style.md §2):
#  - front ends (src/app) include only the public header tengen.h, never src/core/;
#  - the core prints nothing to stdout (it reports through return values and callbacks).
bad=0
if grep -nE '#include +"(\.\./)?core/' src/app/*.c src/app/*.h 2>/dev/null; then
    echo "layout: a front end includes a core header (above)" >&2; bad=1
fi
if grep -nE '\b(printf|puts|putchar)\s*\(|\bstdout\b' src/core/*.c 2>/dev/null; then
    echo "layout: the core prints (above); report through the API instead" >&2; bad=1
fi
[ $bad = 0 ] && echo "layout: 2 passed, 0 failed"
exit $bad

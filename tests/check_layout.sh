#!/bin/sh
# check_layout.sh [BUILD] — the architecture rules that keep the layers apart (docs: README
# "Layout"):
#  - the front ends (src/cli, src/brain, src/play, src/serve) include only the public header
#    tengen.h of the core, never src/core/;
#  - a front end uses another only through its header, and only in one direction: cli.h (option
#    parsing) is shared by all, and the tengen program's cli reaches the others' entry points;
#    brain, play and serve never include each other;
#  - the core prints nothing to stdout (it reports through return values and callbacks);
#  - libtengen.a exports only tg_ names;
#  - within the core and within each front end, no files call each other in a circle (from the
#    objects' symbol tables, tests/layout/cycles.py): each folder is a stack of layers;
#  - the core has no mutable file-scope state (BUILD's objects: nothing in .data or .bss) except
#    the immutable tables built once, listed below.
build=${1:-build}
bad=0; passed=0
rule() { # rule NAME STATUS
    if [ "$2" = 0 ]; then passed=$((passed + 1)); else bad=$((bad + 1)); echo "layout: $1 (above)" >&2; fi
}

grep -nE '#include +"(\.\./)*core/' src/cli/*.[ch] src/brain/*.[ch] src/play/*.[ch] src/serve/*.[ch]
rule "a front end includes a core header" $((1 - $?))

for fe in brain play serve; do
    others=$(echo brain play serve | tr ' ' '\n' | grep -v "^$fe$" | tr '\n' '|' | sed 's/|$//')
    grep -nE "#include +\"\.\./($others)/" src/$fe/*.[ch]
    rule "the $fe front end includes another front end's header" $((1 - $?))
done

grep -nE '\b(printf|puts|putchar)\s*\(|\bstdout\b' src/core/*.c
rule "the core prints; report through the API instead" $((1 - $?))

# Names the compiler makes (sections, sanitizer bookkeeping such as __odr_asan.*) are not ours.
# Tables built once (pthread_once) at first use, then only read: the pattern tables, the Zobrist
# keys, the built-in networks of the zero level.
allowed='pattern.o tables|pattern.o tables_once|pattern.o pcodes|pattern.o pcodes_once|weights.o builtin|weights.o builtin_once|zobrist.o table|zobrist.o table_once|zero.o builtin'
if ls "$build"/obj/core/*.o >/dev/null 2>&1; then
    state=$(for o in "$build"/obj/core/*.o; do
        objdump -t "$o" | awk -v f="$(basename "$o")" \
            '$0 ~ /[ \t](\.data|\.bss)([.][a-z.]*)?[ \t]/ && $0 !~ /\.data\.rel\.ro/ && $NF !~ /^(\.|__)/ {print f " " $NF}'
    done | grep -vxE "$allowed")
    [ -n "$state" ] && echo "$state"
    rule "the core has mutable file-scope state (objects of $build)" $([ -z "$state" ]; echo $?)
else
    echo "layout: no objects in $build/obj/core: build first" >&2; bad=$((bad + 1))
fi

if [ -f "$build/libtengen.a" ]; then
    exported=$(nm -g --defined-only "$build/libtengen.a" | awk 'NF == 3 && $3 !~ /^tg_/ {print $3}')
    [ -n "$exported" ] && echo "$exported"
    rule "libtengen.a exports names without the tg_ prefix" $([ -z "$exported" ]; echo $?)
fi

for part in core cli brain play serve; do
    if ls "$build"/obj/$part/*.o >/dev/null 2>&1; then
        python3 tests/layout/cycles.py "$build"/obj/$part/*.o
        rule "files of src/$part call each other in a circle" $?
    fi
done

echo "layout: $passed passed, $bad failed"
[ $bad = 0 ]

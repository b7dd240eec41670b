#!/usr/bin/env python3
"""cycles.py OBJ... — prints the circles in which object files call each other, one per line
("a.o -> b.o -> a.o"), from their symbol tables (nm): file A uses B when A refers to a function
or object that B defines. Exit status 1 when there is a circle."""
import subprocess
import sys


def symbols(obj):
    defined, used = set(), set()
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDRB":
            defined.add(parts[2])
    return defined, used


def main(objs):
    name = {o: o.split("/obj/")[-1] for o in objs}
    defs, uses = {}, {}
    for o in objs:
        defs[o], uses[o] = symbols(o)
    owner = {s: o for o in objs for s in defs[o]}
    edges = {o: sorted({owner[s] for s in uses[o] if s in owner and owner[s] != o}) for o in objs}
    # Tarjan's strongly connected components: each component of 2+ files is a circle.
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    sys.setrecursionlimit(10000)
    for o in objs:
        if o not in index:
            visit(o)
    for comp in comps:
        print("circle: " + " <-> ".join(sorted(name[o] for o in comp)))
    return 1 if comps else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

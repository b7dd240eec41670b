#!/bin/sh
# run.sh BRAIN — the scripted protocol sessions of tests/brain/brain_test.py against a brain
# binary (default build/pbrain-tengen). Prints "brain: N passed, M failed"; non-zero on failure.
sh scripts/deps.sh cmd:python3=python3 || exit 1
: "${TG_DATA:=data}"
export TG_DATA
exec python3 tests/brain/brain_test.py "${1:-build/pbrain-tengen}"

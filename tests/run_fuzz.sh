#!/bin/sh
# run_fuzz.sh SECONDS BIN... — runs each libFuzzer target for SECONDS from its seed corpus
# (tests/fuzz/corpus/NAME, copied to a scratch folder so the repository stays clean).
secs=$1; shift
passed=0; failed=0
for bin in "$@"; do
    name=$(basename "$bin")
    work=build/fuzz/corpus-$name
    mkdir -p "$work"
    [ -d "tests/fuzz/corpus/$name" ] && cp -n tests/fuzz/corpus/"$name"/* "$work"/ 2>/dev/null
    if "$bin" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=1024 \
        -print_final_stats=1 "$work" >"build/fuzz/$name.log" 2>&1; then
        echo "fuzz $name: ok ($(grep -o 'stat::number_of_executed_units: [0-9]*' "build/fuzz/$name.log" \
            | grep -o '[0-9]*$' || tail -n 1 "build/fuzz/$name.log" | grep -o 'exec/s: [0-9]*'))"
        passed=$((passed + 1))
    else
        echo "fuzz $name: FAILED, see build/fuzz/$name.log" >&2
        tail -n 30 "build/fuzz/$name.log" >&2
        failed=$((failed + 1))
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" = 0 ]

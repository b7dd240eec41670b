#!/bin/sh
# run.sh — the browser tests of the `tengen serve` page: starts the server on a free port with
# a throwaway archive, drives the page in headless Chromium (web_test.mjs, playwright-core),
# then stops the server. Screenshots go to build/artifacts/.
# usage: sh tests/web/run.sh path/to/tengen
bin=${1:?usage: $0 path/to/tengen}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
start=$(date +%s)

# Chromium comes from Debian (playwright's own download needs the network); node runs the test;
# a small CJK font lets the Chinese screenshots show their text.
sh "$root/scripts/deps.sh" cmd:node=nodejs cmd:npm=npm file:/usr/bin/chromium=chromium \
    file:/usr/bin/chromedriver=chromium-driver \
    file:/usr/share/fonts/truetype/wqy/wqy-microhei.ttc=fonts-wqy-microhei || exit 1

# playwright-core is pinned in package.json and package-lock.json; `npm ci` installs it when
# node_modules lacks it or holds another version.
want=$(sed -n 's/.*"playwright-core": *"\([^"]*\)".*/\1/p' "$here/package.json")
have=$(sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' "$here/node_modules/playwright-core/package.json" 2>/dev/null)
if [ -z "$have" ] || [ "$want" != "$have" ]; then
    npm ci --prefix "$here" --no-audit --no-fund --loglevel=error >&2 || {
        echo "web: npm ci failed" >&2
        exit 1
    }
fi

tmp=$(mktemp -d) || exit 1
pid=""
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

: >"$tmp/out"
: >"$tmp/err"
"$bin" serve --port 0 --db "$tmp/web.sqlite" >"$tmp/out" 2>"$tmp/err" &
pid=$!

# The server prints `tengen: serving http://HOST:PORT/` once it listens.
url=""
i=0
while [ $i -lt 100 ]; do
    url=$(sed -n 's|^tengen: serving \(http://[^ ]*\)$|\1|p' "$tmp/out" "$tmp/err" | head -n 1)
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
    i=$((i + 1))
done
if [ -z "$url" ]; then
    echo "web: tengen serve did not start" >&2
    cat "$tmp/out" "$tmp/err" >&2
    echo "web: 0 passed, 1 failed"
    exit 1
fi

node "$here/web_test.mjs" "$url" >"$tmp/log" 2>&1
status=$?
cat "$tmp/log"
if ! grep -q '^web: [0-9]* passed' "$tmp/log"; then
    echo "web: 0 passed, 1 failed (the test script stopped early)"
    status=1
fi
if [ $status -ne 0 ] && [ -s "$tmp/err" ]; then
    echo "--- server log:" >&2
    tail -n 30 "$tmp/err" >&2
fi
echo "web: took $(($(date +%s) - start)) s"
exit $status

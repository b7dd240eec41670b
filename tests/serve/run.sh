#!/bin/sh
# run.sh — `tengen serve` tested over HTTP: tests/serve/api_test.py starts real servers on free
# ports with a scratch archive and drives the JSON API as the web page and scripts do.
# usage: sh tests/serve/run.sh path/to/tengen
bin=${1:?usage: $0 path/to/tengen}
exec python3 "$(dirname "$0")/api_test.py" "$bin"

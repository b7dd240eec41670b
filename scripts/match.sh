#!/bin/sh
# match.sh — plays the working tree's pbrain-tengen against another brain through c-gomoku-cli:
# tengen at a given git revision (built outside the repository) or any Gomocup/piskvork brain.
# Every opening of the file is played twice with colours swapped. Prints W-L-D from the working
# tree's side, the Elo difference with its 95% interval, and the games lost to time forfeits,
# illegal or forbidden moves and crashes (the opponent's in parentheses). See docs/strength.md.
set -eu

usage() {
    cat <<'EOF'
usage: scripts/match.sh [--base REV | --engine CMD] [options]

opponent (one of):
  --base REV        tengen at git revision REV (default HEAD), built in a temporary folder
  --engine CMD      any piskvork brain, e.g. "/work/ext/rapfi-build/pbrain-rapfi"
options:
  --name NAME       the opponent's name in the results (default base-REV or the command's name)
  --rule R          freestyle | standard | renju (default freestyle)
  --nodes N         fixed nodes per move (the default, 20000, when no --time is given)
  --time MS         turn time per move in milliseconds (combine with --nodes for both limits)
  --tengen-time MS  the brain under test's own turn time, the opponent keeping --time (time
                    odds: what a faster tengen would score)
  --match-time S    game clock in seconds per side (default none: turn time only)
  --games N         games to play (default: every opening twice)
  --sprt E0,E1      stop at SPRT(elo0=E0, elo1=E1, alpha = beta = 0.05)
  --openings FILE   h8-notation openings (default data/openings/RULE-15.txt)
  --concurrency N   games at once (default 1)
  --out DIR         where the games, logs and summary go (default /tmp/tengen-match-TIME)
  --cli PATH        c-gomoku-cli (default $C_GOMOKU_CLI, else c-gomoku-cli in PATH)
  --no-build        use build/pbrain-tengen as it is (do not run make)
  --tengen PATH     the brain under test instead of the working tree's (implies --no-build)
  --tengen-name N   its name in the results (default tengen-REV for the working tree's brain,
                    tengen-FILE for --tengen PATH: a brain built elsewhere is not the tree's)
EOF
}

root=$(cd "$(dirname "$0")/.." && pwd)
base=HEAD engine="" name="" rule=freestyle nodes="" time_ms="" new_time_ms="" match_s=0 games=""
sprt="" new_name=""
openings="" concurrency=1 out="" cli=${C_GOMOKU_CLI:-} build=1 tengen=$root/build/pbrain-tengen
while [ $# -gt 0 ]; do
    case $1 in
    --base) base=$2; shift 2 ;;
    --engine) engine=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --rule) rule=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --time) time_ms=$2; shift 2 ;;
    --tengen-time) new_time_ms=$2; shift 2 ;;
    --match-time) match_s=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --sprt) sprt=$2; shift 2 ;;
    --openings) openings=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --cli) cli=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --tengen) tengen=$2; build=0; shift 2 ;;
    --tengen-name) new_name=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "match.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

die() { echo "match.sh: $*" >&2; exit 1; }

case $rule in
freestyle) rule_code=0 ;;
standard) rule_code=1 ;;
renju) rule_code=4 ;;
*) die "rule must be freestyle, standard or renju, not '$rule'" ;;
esac
[ -n "$cli" ] || cli=$(command -v c-gomoku-cli || true)
[ -n "$cli" ] && [ -x "$cli" ] || die "c-gomoku-cli not found: build it (docs/strength.md) and pass --cli or set C_GOMOKU_CLI"
[ -n "$openings" ] || openings=$root/data/openings/$rule-15.txt
[ -f "$openings" ] || die "no opening file $openings"
[ -n "$nodes$time_ms" ] || nodes=20000
[ -z "$new_time_ms" ] || [ -n "$time_ms" ] || die "--tengen-time needs --time for the opponent"
if [ -z "$new_name" ]; then
    if [ "$tengen" = "$root/build/pbrain-tengen" ]; then
        new_name=tengen-$(git -C "$root" describe --always --dirty 2>/dev/null || echo work)
    else
        new_name=tengen-$(basename "$tengen")
    fi
fi
case $new_name in *[!A-Za-z0-9._+-]*) die "the name '$new_name' may hold only letters, digits and . _ + -" ;; esac
[ -n "$out" ] || out=/tmp/tengen-match-$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$out"
out=$(cd "$out" && pwd)

# 1. The working tree's brain, copied so that a rebuild during the match changes nothing.
if [ $build = 1 ]; then make -C "$root" -j2 build/pbrain-tengen >"$out/build.log" 2>&1 || die "build failed: $out/build.log"; fi
mkdir -p "$out/new"
cp "$tengen" "$out/new/pbrain-tengen"

# 2. The opponent: a revision built from `git archive` outside the repository, or a command.
if [ -z "$engine" ]; then
    rev=$(git -C "$root" rev-parse --short "$base") || die "unknown revision '$base'"
    src=${TMPDIR:-/tmp}/tengen-base-$rev
    if [ ! -x "$src/build/pbrain-tengen" ]; then
        rm -rf "$src" && mkdir -p "$src"
        git -C "$root" archive "$rev" | tar -x -C "$src"
        make -C "$src" -j2 build/pbrain-tengen >"$out/build-base.log" 2>&1 ||
            die "building $rev failed: $out/build-base.log"
    fi
    mkdir -p "$out/base"
    cp "$src/build/pbrain-tengen" "$out/base/pbrain-tengen"
    engine=$out/base/pbrain-tengen
    [ -n "$name" ] || name=base-$rev
fi
[ -n "$name" ] || name=$(basename "${engine%% *}")
[ "$name" != "$new_name" ] || name=$name-opponent

# 3. Openings: h8 notation (row counted from the bottom) to c-gomoku-cli's "pos" notation
#    (row counted from the top, both 1-based).
awk -v n=15 '
    /^[a-z]/ {
        s = ""; line = $1
        while (match(line, /^[a-z][0-9]+/)) {
            col = substr(line, 1, 1); row = substr(line, 2, RLENGTH - 1) + 0
            s = s col (n + 1 - row); line = substr(line, RLENGTH + 1)
        }
        print s
    }' "$openings" >"$out/openings.txt"
count=$(wc -l <"$out/openings.txt")
[ "$count" -gt 0 ] || die "no openings read from $openings"
[ -n "$games" ] || games=$((2 * count))

# 4. Limits: fixed nodes, turn time, or both. With time odds each engine gets its own clock
#    (c-gomoku-cli's -each would override per-engine values, so the clock is set per engine).
tc_of() { echo "tc=$match_s/$(awk -v t="$1" 'BEGIN { printf "%g", t / 1000 }')"; }
limits="" new_tc="" their_tc=""
[ -z "$nodes" ] || limits="nodes=$nodes"
if [ -n "$new_time_ms" ]; then
    new_tc=$(tc_of "$new_time_ms") their_tc=$(tc_of "$time_ms")
elif [ -n "$time_ms" ]; then
    limits="$limits $(tc_of "$time_ms")"
fi
sprt_args=""
if [ -n "$sprt" ]; then
    sprt_args="-sprt elo0=${sprt%,*} elo1=${sprt#*,}"
fi

# 5. Play (-repeat: each opening twice, colours swapped; c-gomoku-cli waits for every answer).
echo "match: $new_name vs $name, $rule, $games games, ${nodes:+$nodes nodes }${time_ms:+${time_ms} ms }per move${new_time_ms:+ ($new_name ${new_time_ms} ms)}, openings $(basename "$openings"), out $out"
cd "$out"
# shellcheck disable=SC2086
"$cli" -each $limits tolerance=3 \
    -engine name="$new_name" cmd="$out/new/pbrain-tengen" $new_tc \
    -engine name="$name" "cmd=$engine" $their_tc \
    -rule $rule_code -boardsize 15 -games "$games" -repeat -concurrency "$concurrency" \
    -drawafter 225 -openings file="$out/openings.txt" type=pos order=sequential \
    -sgf "$out/games.sgf" -msg "$out/messages.txt" $sprt_args >"$out/cli.log" 2>&1 || true

# 6. Summary: W-L-D from each finished game's result, Elo from the score with a normal 95%
#    interval over the per-game trinomial variance. Faults (time, illegal and forbidden moves,
#    crashes) are counted against the side that lost the game. A failed START is the exception
#    that this cannot see: when c-gomoku-cli plays the engines in reversed order, it gives
#    the game to the engine that failed (docs/strength.md).
grep -q 'Finished game' "$out/cli.log" || die "no game finished: $out/cli.log"
grep -E '^SPRT' "$out/cli.log" | tail -n 1 || true
awk -v me="$new_name" -v them="$name" '
    function elo(s,  v) {
        if (s <= 0 || s >= 1) return s <= 0 ? "-inf" : "+inf"
        v = -400 * log(1 / s - 1) / log(10)
        return v > -0.5 && v < 0.5 ? "0" : sprintf("%+.0f", v)
    }
    function fault(reason) {
        if (reason ~ /time forfeit/) return "time"
        if (reason ~ /illegal move/) return "illegal"
        if (reason ~ /forbidden move/) return "forbidden"
        if (reason ~ /crash/) return "crash"
        return ""
    }
    / Finished game / {
        # [k] Finished game N (BLACK vs WHITE): RESULT {REASON}
        line = $0
        sub(/^[^(]*\(/, "", line)
        black = substr(line, 1, index(line, " vs ") - 1)
        line = substr(line, index(line, " vs ") + 4)
        white = substr(line, 1, index(line, "): ") - 1)
        line = substr(line, index(line, "): ") + 3)
        result = substr(line, 1, index(line, " ") - 1)
        reason = line; sub(/^[^{]*\{/, "", reason); sub(/\}.*$/, "", reason)
        if (result == "1-0") winner = black; else if (result == "0-1") winner = white; else winner = ""
        if (winner == "") d++; else if (winner == me) w++; else l++
        if (result == "1-0") black_wins++
        points = winner == me ? 1 : winner == "" ? 0.5 : 0
        if (black == me) { as_black++; black_points += points } else { as_white++; white_points += points }
        # Games 2k-1 and 2k play one opening with colours swapped (-repeat).
        match($0, /Finished game [0-9]+/)
        k = int((substr($0, RSTART + 14, RLENGTH - 14) - 1) / 2)
        pair_games[k]++
        pair_points[k] += points
        f = fault(reason)
        if (f != "" && winner != "") { if (winner == me) theirs[f]++; else mine[f]++ }
    }
    function pair(f) { return sprintf("%d%s", mine[f], theirs[f] ? sprintf(" (opponent %d)", theirs[f]) : "") }
    END {
        t = w + l + d
        s = (w + d / 2) / t
        var = (w * (1 - s) ^ 2 + l * s ^ 2 + d * (0.5 - s) ^ 2) / t
        e = 1.96 * sqrt(var / t)
        printf "Score of %s vs %s\n", me, them
        printf "W-L-D %d-%d-%d (%d games), score %.3f, Elo %s (95%%: %s .. %s)\n", w, l, d, t, s, elo(s), elo(s - e), elo(s + e)
        for (k in pair_games) if (pair_games[k] == 2) { pairs++; if (pair_points[k] != 1) decisive++ }
        printf "Black won %d of %d games; %d of %d colour-swapped pairs decisive (the others carry no information)\n", black_wins, t, decisive, pairs
        printf "%s scored %.1f of %d as Black, %.1f of %d as White", me, black_points, as_black, white_points, as_white
        if (as_black && as_white && black_points > 0 && black_points < as_black && white_points > 0 && white_points < as_white) {
            # Logistic model: score as Black = 1 / (1 + 10^(-(E - C) / 400)), as White with E + C.
            # E is the strength with the colours apart, C what these openings give White.
            lb = log(black_points / (as_black - black_points)) * 400 / log(10)
            lw = log(white_points / (as_white - white_points)) * 400 / log(10)
            printf "; colours apart: Elo %+.0f, White'"'"'s edge in these openings %+.0f", (lb + lw) / 2, (lw - lb) / 2
        }
        printf "\n"
        printf "time forfeits %s, illegal moves %s, forbidden moves %s, crashes %s\n", pair("time"), pair("illegal"), pair("forbidden"), pair("crash")
    }' "$out/cli.log" | tee "$out/summary.txt"

# 7. Search size: each engine's median nodes and depth over its moves of half its turn or more
#    (forced answers come back at once), and its longest move. At a fixed turn time the score
#    depends on the nodes the machine gives both engines (docs/strength.md).
half() { echo $((${1:-0} / 2)); }
sh "$root/scripts/search_size.sh" "$out/messages.txt" "$new_name" "$(half "${new_time_ms:-$time_ms}")" |
    tee -a "$out/summary.txt"
sh "$root/scripts/search_size.sh" "$out/messages.txt" "$name" "$(half "$time_ms")" | tee -a "$out/summary.txt"

#!/usr/bin/env bash
# Issue 35's acceptance 4: nodes per second, one thread, 3 s searches from the
# start position and a quiet middlegame, Squall against Zahak and Counter in
# the same run, interleaved rounds, medians; then `squall bench` twice (its
# node count must not change).
#
#   scripts/strength/nps.sh [ROUNDS]     # default 3
#
# Each search is `go movetime 3000` on a fresh engine; its speed is the last
# `info … nps` before `bestmove`. Engines as for match.sh: SQUALL (default
# `squall` on PATH, else built from this checkout into /tmp), SQUALL_OPTS
# (NAME=VALUE,… set as UCI options, e.g. EvalFile=net.sqnn), ZAHAK, COUNTER,
# or BUNDLE=DIR for a match.sh bundle.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-3}
if [ -n "${BUNDLE:-}" ]; then
  SQUALL=${SQUALL:-$BUNDLE/squall}
  ZAHAK=${ZAHAK:-$BUNDLE/zahak}
  COUNTER=${COUNTER:-$BUNDLE/counter}
fi
ZAHAK=${ZAHAK:-/tmp/engines/bin/zahak}
COUNTER=${COUNTER:-/tmp/engines/bin/counter}
if [ -z "${SQUALL:-}" ]; then
  SQUALL=/tmp/squall-nps
  (cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$SQUALL" ./cmd/squall)
fi

middlegame='r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 1'

# nps CMD POSITION: one 3 s search's speed.
nps() {
  local cmd=$1 pos=$2 opts=""
  if [ "$cmd" = "$SQUALL uci" ] && [ -n "${SQUALL_OPTS:-}" ]; then
    opts=$(tr ',' '\n' <<<"$SQUALL_OPTS" | sed 's/^\([^=]*\)=\(.*\)$/setoption name \1 value \2/')
  fi
  { echo uci; [ -n "$opts" ] && echo "$opts"; echo isready; echo "$pos"; echo "go movetime 3000"
    sleep 4; echo quit; } | $cmd 2>/dev/null |
    awk '/^info .* nps / { for (i = 1; i < NF; i++) if ($i == "nps") v = $(i + 1) } /^bestmove/ { print v; exit }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

declare -A got
for ((r = 1; r <= rounds; r++)); do
  for p in start middlegame; do
    pos="position startpos"
    [ "$p" = middlegame ] && pos="position fen $middlegame"
    for e in squall zahak counter; do
      case $e in
        squall) cmd="$SQUALL uci" ;;
        zahak) cmd=$ZAHAK ;;
        counter) cmd=$COUNTER ;;
      esac
      v=$(nps "$cmd" "$pos")
      got[$p.$e]="${got[$p.$e]:-} $v"
      echo "round $r $p $e $v" >&2
    done
  done
done

printf '%-12s %10s %10s %10s %15s %13s\n' position squall zahak counter squall/counter squall/zahak
for p in start middlegame; do
  s=$(tr ' ' '\n' <<<"${got[$p.squall]}" | grep . | median)
  z=$(tr ' ' '\n' <<<"${got[$p.zahak]}" | grep . | median)
  c=$(tr ' ' '\n' <<<"${got[$p.counter]}" | grep . | median)
  awk -v p="$p" -v s="$s" -v z="$z" -v c="$c" 'BEGIN { printf "%-12s %10d %10d %10d %15.2f %13.2f\n", p, s, z, c, s / c, s / z }'
done
for i in 1 2; do
  echo "bench $i: $("$SQUALL" bench 2>/dev/null | awk '/nodes .* nps/')"
done

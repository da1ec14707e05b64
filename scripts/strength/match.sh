#!/usr/bin/env bash
# Issue 35's acceptance matches, played in resumable 50-game chunks.
#
#   scripts/strength/match.sh engines            # build Zahak and Counter in /tmp/engines (fetched sources)
#   scripts/strength/match.sh bundle DIR [OUT...] # everything a bare machine needs, in DIR
#   scripts/strength/match.sh play OUT           # play the chunks not yet done in OUT
#   scripts/strength/match.sh summary OUT...     # each opponent's total over every chunk in OUT...
#
# Squall against Ethereal 12 on balanced openings 201-400 (400 games) and
# against Zahak and Counter on 201-300 (200 games each), 10+0.1, one thread
# each. The 800 games are 16 chunks of 25 openings, one `squall match` each
# with its own log and PGN in OUT, interleaved Ethereal, Zahak, Counter so that
# a run cut short has measured every opponent. A chunk is done when its log
# holds the match's final report, so a later `play` into the same OUT (copied
# to another machine, or after a crash) goes on with the chunks left; an
# unfinished chunk is played again from its start.
#
# Why a script and not a flag of `squall match`: what it adds is bookkeeping
# across machines and sessions (which openings are done, a time budget per
# call), not anything a single match needs.
#
# A chunk is known by opponent and openings, not by Squall's build: a new
# network or search starts from an empty OUT. `recorded.txt` in OUT adds totals
# whose logs were lost with their machine but whose reports are quoted in
# docs/ELO.md for the same build (one line per opponent:
# "NAME GAMES W L D LL LD DD WD WW TIMELOSSES ILLEGAL FAILURES CHUNK,CHUNK...").
#
# The device machine is bare and reaches nothing: `bundle DIR` puts Squall
# (static, from this checkout), Zahak, Counter and Ethereal (with its
# libfathom) in DIR, a folder of the checkout the device tool carries, and
# the finished chunks of the OUTs given into DIR/done; `BUNDLE=DIR play OUT`
# there takes its engines from DIR and starts from DIR/done.
#
# Environment: SQUALL (the Squall binary; default: built from this checkout
# into OUT/squall), ETHEREAL, ZAHAK, COUNTER (UCI commands), CONCURRENCY (2),
# BUDGET (seconds; no chunk starts that could not end inside it; default
# unlimited), SECONDS_PER_GAME (38: one 10+0.1 game's wall time at full load,
# measured 33-38 s).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -n "${BUNDLE:-}" ]; then
  BUNDLE=$(cd "$BUNDLE" && pwd)
  SQUALL=${SQUALL:-$BUNDLE/squall}
  ETHEREAL=${ETHEREAL:-$BUNDLE/ethereal}
  ZAHAK=${ZAHAK:-$BUNDLE/zahak}
  COUNTER=${COUNTER:-$BUNDLE/counter}
fi
ETHEREAL=${ETHEREAL:-/usr/games/ethereal-chess}
ZAHAK=${ZAHAK:-/tmp/engines/bin/zahak}
COUNTER=${COUNTER:-/tmp/engines/bin/counter}
CONCURRENCY=${CONCURRENCY:-2}
SECONDS_PER_GAME=${SECONDS_PER_GAME:-38}

# The 16 chunks in playing order: opponent and openings.
chunks() {
  local from
  for from in 201 226 251 276; do
    echo "ethereal $from-$((from + 24))"
    echo "zahak $from-$((from + 24))"
    echo "counter $from-$((from + 24))"
  done
  for from in 301 326 351 376; do
    echo "ethereal $from-$((from + 24))"
  done
}

done_chunk() { [ -f "$1" ] && grep -q '^Score of ' "$1" && grep -q '^Incidents:' "$1"; }

# recorded OUT NAME RANGE: is the chunk among recorded.txt's?
recorded() {
  [ -f "$1/recorded.txt" ] &&
    awk -v n="$2" -v r="$3" '!/^#/ && $1 == n { k = split($14, c, ","); for (i = 1; i <= k; i++) if (c[i] == r) f = 1 } END { exit !f }' "$1/recorded.txt"
}

engines() {
  # Sources come from the GitHub mirrors the session's fetch tool brings
  # (or any clone); they are built here and never enter the repository.
  local src=/tmp/engines/src bin=/tmp/engines/bin
  mkdir -p "$src" "$bin"
  local zahak_repo=${ZAHAK_REPO:-/work/.mirror/amanjpro+zahak/repo}
  local counter_repo=${COUNTER_REPO:-/work/.mirror/ChizhovVadim+CounterGo/repo}
  [ -d "$src/zahak" ] || git clone -q "$zahak_repo" "$src/zahak"
  [ -d "$src/counter" ] || git clone -q "$counter_repo" "$src/counter"
  # Zahak: its default.nn compiled in by its own netgen, statically linked.
  (cd "$src/zahak" && make netgen >/dev/null &&
    CC=cc CGO_ENABLED=1 go build -gcflags "-B" \
      --ldflags "-X 'main.Version=$(git rev-list -1 HEAD)' -linkmode external -extldflags -static" \
      -o "$bin/" ./...)
  # Counter: as its build.sh does, with the AVX evaluation and the embedded network.
  (cd "$src/counter" && go build -tags=avx,embed \
    -ldflags "-X 'main.gitRevision=$(git rev-list -1 HEAD)' -X 'main.versionName=5.5'" \
    -o "$bin/counter" ./cmd/counter)
  echo "zahak $(git -C "$src/zahak" rev-parse --short HEAD), counter $(git -C "$src/counter" rev-parse --short HEAD) in $bin"
}

bundle() {
  local dir=$1 o f
  shift
  mkdir -p "$dir/done"
  (cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$dir/squall" ./cmd/squall)
  cp /tmp/engines/bin/zahak /tmp/engines/bin/counter "$dir/"
  cp /usr/games/ethereal-chess "$dir/ethereal-chess"
  cp "$(ldd /usr/games/ethereal-chess | awk '/libfathom/ {print $3}')" "$dir/"
  printf '#!/bin/sh\nd=$(dirname "$0")\nLD_LIBRARY_PATH="$d" exec "$d/ethereal-chess" "$@"\n' >"$dir/ethereal"
  chmod +x "$dir/ethereal"
  for o in "$@"; do
    for f in "$o"/*.log; do
      done_chunk "$f" && cp "$f" "${f%.log}.pgn" "$dir/done/" 2>/dev/null || true
    done
    [ -f "$o/recorded.txt" ] && cp "$o/recorded.txt" "$dir/done/"
  done
  echo "$dir: squall bench $("$dir/squall" bench 2>/dev/null | awk '/nodes .* nps/ {print $1}'), $(ls "$dir/done" | grep -c '\.log$') chunks done"
}

play() {
  local out=$1 squall=${SQUALL:-}
  mkdir -p "$out"
  [ -n "${BUNDLE:-}" ] && [ -d "$BUNDLE/done" ] && cp -n "$BUNDLE"/done/* "$out/" 2>/dev/null
  if [ -z "$squall" ]; then
    squall=$out/squall
    (cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$squall" ./cmd/squall)
  fi
  local bench
  bench=$("$squall" bench 2>/dev/null | awk '/nodes .* nps/ {print $1}')
  echo "squall bench $bench" | tee -a "$out/bench.txt"
  local start=$SECONDS estimate=$(( (50 + CONCURRENCY - 1) / CONCURRENCY * SECONDS_PER_GAME ))
  local name range cmd log
  while read -r name range; do
    log=$out/$name-$range.log
    done_chunk "$log" && continue
    recorded "$out" "$name" "$range" && continue
    if [ -n "${BUDGET:-}" ] && [ $((SECONDS - start + estimate)) -gt "$BUDGET" ]; then
      echo "budget: $((BUDGET - SECONDS + start)) s left, a chunk takes about $estimate s; stopping"
      break
    fi
    case $name in
      ethereal) cmd=$ETHEREAL ;;
      zahak) cmd=$ZAHAK ;;
      counter) cmd=$COUNTER ;;
    esac
    echo "$(date -u +%H:%M:%S) $name $range"
    "$squall" match --engine squall --engine "$cmd" --n1 Squall --tc 10+0.1 --games 50 \
      --openings "balanced:$range" --concurrency "$CONCURRENCY" \
      --pgn "$out/$name-$range.pgn" >"$log" 2>&1 || true
    grep '^Score of ' "$log" || echo "$name $range: no final report (see $log)"
  done < <(chunks)
  summary "$out"
}

# summary sums each opponent's chunks (and recorded.txt lines) and computes
# the Elo and its 95 % interval from the summed pairs exactly as
# engine/match's Pentanomial.Elo does.
summary() {
  local dir f
  {
    for dir in "$@"; do
      for f in "$dir"/*.log; do
        [ -f "$f" ] || continue
        done_chunk "$f" || continue
        awk -v name="$(basename "$f" .log)" '
          /^Score of / { split($0, a, ": "); split(a[2], s, " "); w = s[1]; l = s[3]; d = s[5] }
          /^Pairs / { split($0, a, ": "); gsub(/ /, "", a[2]); split(a[2], p, ",") }
          /^Incidents:/ { t = $2; il = $5; fl = $8 }
          END { split(name, n, "-"); print n[1], w + l + d, w, l, d, p[1], p[2], p[3], p[4], p[5], t, il, fl, n[2] "-" n[3] }' "$f"
      done
      [ -f "$dir/recorded.txt" ] && grep -v '^#' "$dir/recorded.txt"
    done
  } | awk '
    { o = $1; g[o] += $2; w[o] += $3; l[o] += $4; d[o] += $5
      for (i = 0; i < 5; i++) p[o, i] += $(6 + i)
      t[o] += $11; il[o] += $12; fl[o] += $13; c[o] = c[o] (c[o] == "" ? "" : ",") $14 }
    function elo(s) { return s <= 0 ? -1e9 : s >= 1 ? 1e9 : -400 * log(1 / s - 1) / log(10) }
    END {
      for (o in g) {
        n = 0; m = 0; v = 0
        for (i = 0; i < 5; i++) { n += p[o, i]; m += p[o, i] * i / 4 }
        m /= n
        for (i = 0; i < 5; i++) v += p[o, i] * (i / 4 - m) ^ 2
        se = sqrt(v / n / n); lo = m - 1.959963984540054 * se; hi = m + 1.959963984540054 * se
        if (lo < 0) lo = 0; if (hi > 1) hi = 1
        printf "%-9s %d games (%s): %.1f %% (+%d =%d -%d), Elo %+.1f +/- %.1f, pairs (LL, LD, DD+WL, WD, WW) %d, %d, %d, %d, %d; %d time losses, %d illegal moves, %d engine failures\n",
          o, g[o], c[o], 100 * (w[o] + d[o] / 2) / g[o], w[o], d[o], l[o], elo(m), (elo(hi) - elo(lo)) / 2,
          p[o, 0], p[o, 1], p[o, 2], p[o, 3], p[o, 4], t[o], il[o], fl[o]
      }
    }' | sort
}

case ${1:-} in
  engines) engines ;;
  bundle) [ $# -ge 2 ] || { echo "usage: $0 bundle DIR [OUT...]" >&2; exit 2; }; shift; bundle "$@" ;;
  play) [ $# -eq 2 ] || { echo "usage: $0 play OUT" >&2; exit 2; }; play "$2" ;;
  summary) shift; [ $# -ge 1 ] || { echo "usage: $0 summary OUT..." >&2; exit 2; }; summary "$@" ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2 ;;
esac

#!/usr/bin/env bash
# Self-play data for the next network, in the background, resumable.
#
#   scripts/nnue/datagen.sh OUT.sqg SEED NET.sqnn [THREADS]
#
# The recipe of every round since round 5 (docs/NNUE.md): the newest
# network's own games, 5,000 nodes a move, balanced openings with 4 random
# plies, the compact format. `squall datagen` resumes from the game ids
# already in OUT.sqg, so the same command goes on after a stop; SIGSTOP and
# SIGCONT pause it around clock-timed measurements, SIGINT ends it cleanly.
# It runs in an autogroup of its own at nice 19, so builds, tests and the
# board take the cores first. OUT.sqg belongs outside the repository; the
# network trained from it is what is kept.
set -euo pipefail

[ $# -ge 3 ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2; }
out=$1 seed=$2 net=$3 threads=${4:-1}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${SQUALL:-/tmp/squall-datagen}
[ -n "${SQUALL:-}" ] || (cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$bin" ./cmd/squall)
net=$(cd "$(dirname "$net")" && pwd)/$(basename "$net")
# The autogroup, not only the nice value: Linux shares the CPU between
# autogroups first, so a niced process in the shell's group would still get
# half the machine against a test run from another terminal.
echo 19 >/proc/self/autogroup 2>/dev/null || true
exec nice -n 19 "$bin" datagen --openings balanced --out "$out" --games 200000 --nodes 5000 \
  --threads "$threads" --random-plies 4 --seed "$seed" --option UseNNUE=true --option "EvalFile=$net"

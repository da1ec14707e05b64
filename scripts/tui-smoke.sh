#!/usr/bin/env bash
# Real-terminal smoke test of the TUI: runs `squall` in tmux at 100×30 and
# 80×24, plays 1. e4, waits for the engine's reply, toggles analysis and
# checks that a depth line appears. The final screens are kept as artifacts
# in the directory given as $1 (else $SMOKE_OUT, else /tmp):
# tui-smoke-100x30.txt and tui-smoke-80x24.txt.
# Usage: scripts/tui-smoke.sh [ARTIFACT_DIR]
# Skips (exit 0) when tmux is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null 2>&1; then
  echo "tui-smoke: tmux not installed; skipped"
  exit 0
fi

out=${1:-${SMOKE_OUT:-/tmp}}
mkdir -p "$out"
work=$(mktemp -d)
bin="$work/squall"
go build -o "$bin" ./cmd/squall
session="squall-smoke-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT

# wait_for PATTERN SECONDS: poll the screen until an extended regex matches.
wait_for() {
  local pat=$1 secs=$2 i
  for ((i = 0; i < secs * 10; i++)); do
    if tmux capture-pane -p -t "$session" | grep -Eq -- "$pat"; then
      return 0
    fi
    sleep 0.1
  done
  return 1
}

run() {
  local w=$1 h=$2 cap="$out/tui-smoke-${1}x${2}.txt"
  tmux kill-session -t "$session" 2>/dev/null || true
  # Fresh config and data dirs: a new user's first start.
  tmux new-session -d -s "$session" -x "$w" -y "$h" \
    "env XDG_CONFIG_HOME=$work/config-$w XDG_DATA_HOME=$work/data-$w TERM=xterm-256color $bin"
  if ! wait_for 'move>' 10; then
    tmux capture-pane -p -t "$session" >"$cap"; cat "$cap"
    echo "tui-smoke ${w}x${h}: the board did not appear"; return 1
  fi
  tmux send-keys -t "$session" e 4 Enter
  # The engine's reply: a black move after 1. e4 in the move list.
  if ! wait_for '1\. e4 +[a-hKQRBNO][a-h1-8x=+#O-]*' 30; then
    tmux capture-pane -p -t "$session" >"$cap"; cat "$cap"
    echo "tui-smoke ${w}x${h}: no engine reply to 1. e4"; return 1
  fi
  # Board keys (esc), then analysis (a). A pause keeps esc+a from reading
  # as alt+a.
  tmux send-keys -t "$session" Escape
  sleep 0.5
  tmux send-keys -t "$session" a
  if ! wait_for 'depth [0-9]+' 15; then
    tmux capture-pane -p -t "$session" >"$cap"; cat "$cap"
    echo "tui-smoke ${w}x${h}: no depth line after toggling analysis"; return 1
  fi
  sleep 1
  tmux capture-pane -p -t "$session" >"$cap"
  # Quitting a game in progress asks first (one stray q must not end it).
  tmux send-keys -t "$session" q
  if ! wait_for 'Quit\?' 5; then
    tmux capture-pane -p -t "$session" >"$cap.quit"; cat "$cap.quit"
    echo "tui-smoke ${w}x${h}: q mid-game did not ask"; return 1
  fi
  tmux send-keys -t "$session" y
  sleep 0.5
  if tmux has-session -t "$session" 2>/dev/null; then
    tmux capture-pane -p -t "$session" >"$cap.quit"; cat "$cap.quit"
    echo "tui-smoke ${w}x${h}: y did not quit"; return 1
  fi
  # Quitting mid-game loses nothing: the game is in the autosave file.
  if ! grep -q '1\. e4' "$work/data-$w/squall/games.pgn"; then
    echo "tui-smoke ${w}x${h}: game not autosaved"; return 1
  fi
  echo "tui-smoke ${w}x${h}: ok"
  cat "$cap"
}

run 100 30
run 80 24
echo "tui-smoke: passed; screens in $out"

#!/usr/bin/env bash
# spvsim debug in a real terminal (tmux): the prompt appears, a command runs, the Up
# arrow recalls it from the history, and `quit` ends the session with status 0.
# Skips (passing, with a message) only when tmux is not installed.
set -euo pipefail

if ! command -v tmux >/dev/null 2>&1; then
  echo "SKIPPED: tmux is not installed (Debian package tmux); this terminal test needs it"
  exit 0
fi

spvsim="$PWD/tools/spvsim"
kernel="$PWD/testdata/debug/branch.cl"
# A private tmux server (never the user's), its socket in /tmp: a Unix socket path must be
# short, and Bazel's TEST_TMPDIR is too long.
work=$(mktemp -d /tmp/spvsim-tmux.XXXXXX)
socket="$work/sock"
unset TMUX
tmux_() { tmux -S "$socket" "$@"; }
cleanup() { tmux_ kill-server >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

fail() {
  echo "FAIL: $1" >&2
  echo "--- screen ---" >&2
  tmux_ capture-pane -p -t dbg >&2 || true
  exit 1
}

# Polls the screen until `grep -c PATTERN` reaches COUNT (default 1), for up to 30 s.
wait_for() {
  local pattern=$1 count=${2:-1} deadline=$((SECONDS + 30))
  while ((SECONDS < deadline)); do
    local seen
    seen=$(tmux_ capture-pane -p -t dbg 2>/dev/null | grep -cF -- "$pattern" || true)
    ((seen >= count)) && return 0
    sleep 0.1
  done
  fail "waited 30 s for $count x '$pattern'"
}

cat >"$work/run.sh" <<SCRIPT
#!/usr/bin/env bash
"$spvsim" debug "$kernel" --global 8 --local 8 --sub-group-size 4 \
  --arg 'buffer:uint[8]' --arg 'buffer:uint4[8]=range(0)'
echo "EXIT STATUS \$?"
sleep 60
SCRIPT
chmod +x "$work/run.sh"

tmux_ new-session -d -x 120 -y 40 -s dbg "$work/run.sh"

wait_for "(spvsim)"  # capture-pane drops trailing spaces
wait_for "lanes 0-3 active (4/4)  [####]"

tmux_ send-keys -t dbg "lanes" Enter
wait_for "sub-group 0: lanes 0-3 active (4/4)  [####]"

# Up arrow: readline recalls "lanes" from the history; Enter runs it again.
tmux_ send-keys -t dbg Up
wait_for "(spvsim) lanes" 2
tmux_ send-keys -t dbg Enter
wait_for "sub-group 0: lanes 0-3 active (4/4)  [####]" 2

# Line editing: type a typo, fix it with Backspace, run it.
tmux_ send-keys -t dbg "break 14x" BSpace Enter
wait_for "Breakpoint 1 at branch.cl:14"
tmux_ send-keys -t dbg "continue" Enter
wait_for "lanes 1,3 active (2/4)  [.#.#]"

tmux_ send-keys -t dbg "quit" Enter
wait_for "EXIT STATUS 0"
echo "PASS: prompt, command, history (Up), line editing and quit in a terminal"

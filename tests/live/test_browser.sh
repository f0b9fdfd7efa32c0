#!/bin/sh
# tests/live/test_browser.sh LIVE_DEMO — headless Chromium loads the live page while a game plays
# itself (one move every 150 ms) and must see moves arrive over SSE: the page it dumps after 4 s
# must have rendered several state events on one connection and show a later ply than the one
# the server had when the page was loaded. With KIFUCAM_SCREENSHOTS=DIR it also writes the
# public, referee and shogi views as PNG files there (docs/live-*.png).
set -eu
demo=$1
tmp=$(mktemp -d /tmp/kifucam-browser-XXXXXX)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
chrome() { # tag args...
  tag=$1
  shift
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile-$tag" --window-size=1600,1000 --hide-scrollbars "$@" 2>/dev/null
}
n=0
start_demo() { # game interval seconds; sets $port (no subshell, so $pids and $n stay right)
  n=$((n + 1))
  "$demo" 0 "$1" "$2" "$3" > "$tmp/port-$n" &
  pids="$pids $!"
  i=0
  while [ ! -s "$tmp/port-$n" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  port=$(cat "$tmp/port-$n")
}
# Headless Chromium dumps the page (or takes the screenshot) once the page stops loading, which
# an open SSE stream never does: each run gets its own demo server that stops after a few seconds.
load_page() { # tag seconds: a demo server living that long, the page dumped; sets ply0 dom ply
  start_demo go 150 "$2"
  echo "# demo server on port $port for $2 s"
  sleep 0.3
  # The ply the server is at as the browser starts.
  ply0=$(curl -s "http://127.0.0.1:$port/state.json" | sed -n 's/.*"ply":\([0-9]*\).*/\1/p')
  dom=$(chrome "$1" --dump-dom --virtual-time-budget=20000 "http://127.0.0.1:$port/")
  ply=$(echo "$dom" | sed -n 's/.*data-ply="\([0-9]*\)".*/\1/p' | head -1)
}
load_page a 9
# On a loaded machine Chromium can come up after the short-lived server has stopped: once more,
# with a server that lives longer.
[ -n "$ply" ] || { echo "# no state rendered: again with a longer-lived server"; load_page a2 20; }
states=$(echo "$dom" | sed -n 's/.*data-states="\([0-9]*\)".*/\1/p' | head -1)
stones=$(echo "$dom" | grep -o 'class="stone ' | wc -l)
echo "# server at ply ${ply0:-?} when the page loaded; page shows ply ${ply:-none} after ${states:-0} state events, $stones stones drawn"
fail=0
[ -n "$ply" ] || { echo "not ok 1 - the page rendered no state"; exit 1; }
if [ "${states:-0}" -ge 3 ] && [ "$ply" -gt "${ply0:-0}" ] && [ "$stones" -ge "$((ply - 2))" ]; then
  echo "ok 1 - moves arrive on the open page"
else
  echo "not ok 1 - moves did not arrive (states ${states:-0}, ply $ply, before ${ply0:-?})"; fail=1
fi
# The referee view shows the flag; the public one must not.
start_demo go 20 5
rdom=$(chrome b --dump-dom --virtual-time-budget=20000 "http://127.0.0.1:$port/referee?token=demo")
if echo "$rdom" | grep -q "MOVED_STONE" && ! echo "$dom" | grep -q "MOVED_STONE"; then
  echo "ok 2 - the flag shows in the referee view only"
else
  echo "not ok 2 - flag visibility"; fail=1
fi
# A move accepted under doubt is listed for the referee to check; the public page does not say it.
if echo "$rdom" | grep -q "low-confidence reading" && ! echo "$dom" | grep -q "low-confidence"; then
  echo "ok 3 - the move accepted under doubt is listed in the referee view only"
else
  echo "not ok 3 - moves to check"; fail=1
fi
if [ -n "${KIFUCAM_SCREENSHOTS:-}" ]; then
  start_demo go 10 5
  chrome c --screenshot="$KIFUCAM_SCREENSHOTS/live-go.png" --virtual-time-budget=20000 "http://127.0.0.1:$port/"
  start_demo go 10 5
  chrome d --screenshot="$KIFUCAM_SCREENSHOTS/live-referee.png" --virtual-time-budget=20000 "http://127.0.0.1:$port/referee?token=demo"
  start_demo shogi 0 5
  chrome e --screenshot="$KIFUCAM_SCREENSHOTS/live-shogi.png" --virtual-time-budget=20000 "http://127.0.0.1:$port/"
  echo "# screenshots in $KIFUCAM_SCREENSHOTS"
fi
echo "1..3"
exit $fail

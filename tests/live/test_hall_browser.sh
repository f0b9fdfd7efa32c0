#!/bin/sh
# tests/live/test_hall_browser.sh HALL_FEED LIVE_DEMO MOSQUITTO — the hall page in headless Chromium
# against a real mosquitto on loopback with a TCP and a WebSocket listener on free ports.
#  1. hall_feed publishes 6 boards (Go and shogi) through record/mqtt.c up to ply 20; the referee
#     desk page (served at /hall by live_demo's live server) must show every board at its last ply
#     and move.
#  2. With the page open, the broker is stopped (SIGTERM, so it keeps retained states and
#     sessions), the boards play on to ply 30 while it is away, b01 raises a flag, and the broker
#     is started again: the page must reconnect by itself and show every board's new last move,
#     and b01's flag (the desk's persistent session gets the flag it missed).
#  3. A public-view page opened then shows the same boards and no flag.
# The page is read with tests/live/cdp.py (DevTools protocol) while it stays open: --dump-dom would
# dump it on load, before the WebSocket has brought anything. With KIFUCAM_SCREENSHOTS=DIR it also
# writes DIR/hall.png (the referee desk with every daemon online).
set -eu
feed=$1
demo=$2
broker=$3
boards=6
tmp=$(mktemp -d /tmp/kifucam-hall-XXXXXX)
chmod 777 "$tmp" # a broker started as root drops to the mosquitto user and writes its persistence here
pids=""
bpid=""
cleanup() {
  for p in $pids $bpid; do kill "$p" 2>/dev/null || true; done
  for p in $pids $bpid; do wait "$p" 2>/dev/null || true; done # Chromium writes its profile as it goes
  rm -rf "$tmp" || true
}
trap cleanup EXIT
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_port() {
  python3 - "$1" <<'EOF'
import socket, sys, time
for _ in range(500):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.01)
sys.exit(1)
EOF
}
here=$(dirname "$0")
chrome() { # tag url: a headless Chromium left open, for cdp.py
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile-$1" --remote-debugging-port=0 --window-size=1600,1000 \
    --hide-scrollbars "$2" > /dev/null 2>&1 &
  pids="$pids $!"
}
mport=$(free_port)
wport=$(free_port)
while [ "$wport" = "$mport" ]; do wport=$(free_port); done
cat > "$tmp/mosquitto.conf" <<EOF
listener $mport 127.0.0.1
listener $wport 127.0.0.1
protocol websockets
allow_anonymous true
persistence true
persistence_location $tmp/
log_dest file $tmp/mosquitto.log
EOF
start_broker() {
  "$broker" -c "$tmp/mosquitto.conf" > /dev/null 2>&1 &
  bpid=$!
  wait_port "$mport" && wait_port "$wport" || { echo "Bail out! mosquitto did not start"; exit 1; }
}
stop_broker() {
  kill "$bpid"
  wait "$bpid" || true
  bpid=""
}
start_broker
echo "# mosquitto: TCP on $mport, WebSocket on $wport"

# The page's web server: live_demo serves /hall (and a still shogi game on /, not used here).
"$demo" 0 shogi 0 120 > "$tmp/http-port" &
pids="$pids $!"
i=0
while [ ! -s "$tmp/http-port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
hport=$(cat "$tmp/http-port")
url="http://127.0.0.1:$hport/hall?hall=hall1&ws=ws://127.0.0.1:$wport/"

"$feed" "$mport" hall1 $boards 1 20 > "$tmp/expect1" || { echo "Bail out! hall_feed failed"; exit 1; }

# check DOM EXPECT: every board of EXPECT ("BOARD PLY LASTMOVE RESULT") is on the page with that
# ply, last move and result; counts the boards that are not in $bad, describes them in $why.
check() {
  bad=0
  why=""
  while read -r b ply last result; do
    card=$(grep -o "<section [^>]*data-board=\"$b\"[^>]*>" "$1" | head -1)
    [ "$result" = "-" ] && result=""
    if ! echo "$card" | grep -q "data-ply=\"$ply\"" || ! echo "$card" | grep -q "data-last=\"$last\"" ||
      ! echo "$card" | grep -q "data-result=\"$result\""; then
      why="$why
# $b: want ply $ply, last $last, result '${result}'; page has: ${card:-no card}"
      bad=$((bad + 1))
    fi
  done < "$2"
}
# poll TAG EXPECT: reads the open page every 0.2 s until it shows EXPECT, 30 s at most (a bound
# for a broken page, not a speed requirement); leaves the DOM in $tmp/dom-TAG.
poll() {
  until=$(($(date +%s) + 30))
  while :; do
    python3 "$here/cdp.py" "$tmp/profile-$1" dom "$tmp/dom-$1" 2> "$tmp/cdp-err" || true
    check "$tmp/dom-$1" "$2"
    [ "$bad" -eq 0 ] || [ "$(date +%s)" -ge $until ] && break
    sleep 0.2
  done
  [ -z "$why" ] || echo "$why"
}
cards() { grep -o '<section class="card[^"]*" data-board=' "$1" | wc -l; }
fail=0

# 1. The retained states bring a fresh page up to date.
chrome desk "$url&view=referee"
poll desk "$tmp/expect1"
echo "# page 1: $(cards "$tmp/dom-desk") boards shown ($boards fed), $(grep -o 'class="stone"' "$tmp/dom-desk" | wc -l) stones, $(grep -o 'class="piece"' "$tmp/dom-desk" | wc -l) shogi pieces"
if [ "$bad" -eq 0 ] && [ "$(cards "$tmp/dom-desk")" -eq "$boards" ]; then
  echo "ok 1 - every board with its last ply and move"
else
  echo "not ok 1 - boards on the page"; fail=1
fi

# 2. The broker goes away under the open page, the boards play on, the broker comes back.
# The feed connects with the broker up (ply 21-25), the broker is stopped, plies 26-30 are queued
# by libmosquitto while it is away, and it comes back.
"$feed" "$mport" hall1 $boards 21 30 0 25 > "$tmp/expect2" &
fpid=$!
pids="$pids $fpid"
i=0
while ! grep -q paused "$tmp/expect2" && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
stop_broker
kill -USR1 "$fpid"
sleep 1
start_broker
t0=$(date +%s%3N)
wait "$fpid" || { echo "Bail out! hall_feed (across the restart) failed"; exit 1; }
sed -i '/^paused$/d' "$tmp/expect2"
poll desk "$tmp/expect2"
echo "# page 2 caught up $(($(date +%s%3N) - t0)) ms after the broker was back (polled every 0.2 s; the page retries 0.5-8 s apart)"
connects=$(sed -n 's/.*data-connects="\([0-9]*\)".*/\1/p' "$tmp/dom-desk" | head -1)
echo "# page 2: connected ${connects:-0} times; $bad boards behind"
if [ "${connects:-0}" -ge 2 ] && [ "$bad" -eq 0 ]; then
  echo "ok 2 - the page reconnects by itself and catches up after a broker restart"
else
  echo "not ok 2 - catching up after the broker restart"; fail=1
fi
flagged=$(grep -o 'class="card[^"]*flagged[^"]*" data-board="[^"]*"' "$tmp/dom-desk" || true)
if echo "$flagged" | grep -q 'data-board="b01"' && [ "$(echo "$flagged" | wc -l)" -eq 1 ] &&
  grep -q "MOVED_STONE at move 28" "$tmp/dom-desk"; then
  echo "ok 3 - the referee desk gets b01's flag raised while the broker was away, and only that"
else
  echo "not ok 3 - flag on the referee desk (flagged: ${flagged:-none})"; fail=1
fi

# 3. The public view: same boards, no flags.
chrome public "$url"
poll public "$tmp/expect2"
if [ "$bad" -eq 0 ] && ! grep -q "MOVED_STONE" "$tmp/dom-public"; then
  echo "ok 4 - the public view shows the boards and no flag"
else
  echo "not ok 4 - public view"; fail=1
fi

if [ -n "${KIFUCAM_SCREENSHOTS:-}" ]; then
  # A few more moves with the daemons kept online, so the cards are not shown as offline.
  "$feed" "$mport" hall1 $boards 31 36 8 > "$tmp/expect3" &
  fpid=$!
  i=0
  while [ "$(wc -l < "$tmp/expect3")" -lt $boards ] && [ $i -lt 150 ]; do sleep 0.2; i=$((i + 1)); done
  poll desk "$tmp/expect3"
  python3 "$here/cdp.py" "$tmp/profile-desk" shot "$KIFUCAM_SCREENSHOTS/hall.png"
  wait "$fpid" || true
  echo "# screenshot in $KIFUCAM_SCREENSHOTS/hall.png"
fi
echo "1..4"
exit $fail

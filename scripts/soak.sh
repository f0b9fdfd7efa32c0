#!/usr/bin/env bash
# Soak run: the recording daemon on the bundled clip, looped in real time for a long while, with its
# memory sampled, to show that a day at a tournament does not grow it.
#
#   scripts/soak.sh MINUTES [SPEED] [GAME]   e.g. scripts/soak.sh 120   (speed 1: real time)
#
# GAME is go (default: data/sample/clip, a folder of JPEG frames) or shogi (data/sample/shogi-clip,
# an H.264 video read through OpenCV's videoio).
# Each pass of the clip plays the game again on a board that was full a moment before, so the
# guard sees a disturbed board, flags it, and (Go) records the moves again: the journal and the
# record grow by design (about 12 events a pass), everything per frame must not. Prints VmRSS every minute
# and a summary: first and last RSS, the peak, and the growth per hour after the first 5 minutes
# (warm-up: caches, the first passes). Needs build/ (scripts/setup.sh), or the program in
# $KIFUCAM_BIN (a copy, so that the tree can be rebuilt during a long run).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:?usage: scripts/soak.sh MINUTES [SPEED]}
speed=${2:-1}
game=${3:-go}
case $game in
go) conf=data/sample/clip/kifucam.conf source=dir:data/sample/clip ;;
shogi) conf=data/sample/shogi-clip/kifucam.conf source=file:data/sample/shogi-clip/clip.mp4 ;;
*) echo "soak: GAME is go or shogi" >&2; exit 2 ;;
esac
out=$(mktemp -d /tmp/kifucam-soak-XXXXXX)
csv=$out/rss.csv

"${KIFUCAM_BIN:-build/app/kifucam}" record --config "$conf" --source "$source" \
    --out "$out/records" --realtime --speed "$speed" --loop --quiet --log warn 2>"$out/log" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
echo "minute,rss_kb,journal_lines" >"$csv"
start=$(date +%s)
while kill -0 $pid 2>/dev/null; do
    now=$(date +%s)
    el=$(((now - start) / 60))
    rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
    lines=0
    [ -f "$out/records/game.journal" ] && lines=$(wc -l <"$out/records/game.journal")
    echo "$el,$rss,$lines" >>"$csv"
    echo "soak: minute $el: VmRSS $rss kB, journal $lines lines"
    [ $((now - start)) -ge $((minutes * 60)) ] && break
    sleep 60
done
kill -INT $pid 2>/dev/null || true
wait $pid || true
python3 - "$csv" "$minutes" "$game" <<'PY'
import csv, sys
rows = [(int(r["minute"]), int(r["rss_kb"]), int(r["journal_lines"])) for r in csv.DictReader(open(sys.argv[1])) if int(r["rss_kb"]) > 0]
if not rows:
    sys.exit("soak: no samples")
warm = [r for r in rows if r[0] >= 5] or rows
first, last = warm[0], warm[-1]
hours = max((last[0] - first[0]) / 60, 1e-9)
print(f"soak ({sys.argv[3]}): {rows[-1][0]} minutes, VmRSS first {rows[0][1]} kB, after warm-up {first[1]} kB, "
      f"last {last[1]} kB, peak {max(r[1] for r in rows)} kB, growth {(last[1] - first[1]) / hours:.0f} kB/h "
      f"after warm-up; journal {last[2]} lines")
PY
echo "soak: samples in $csv, log in $out/log"

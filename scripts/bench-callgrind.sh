#!/usr/bin/env bash
# Instruction counts of the Go reader (callgrind): finding the board from scratch and the tracked
# path, per frame, at 1280x720 and 1920x1080. Unlike times they do not move with the machine's
# load, so they show what a change costs. Installs valgrind if it is missing (apt-get).
#
#   scripts/bench-callgrind.sh [RECORD.sgf] [REPEATS]   (the fixtures' 19x19 game, 3 repeats)
set -euo pipefail
cd "$(dirname "$0")/.."
record=${1:-tests/fixtures/sgf/gnugo-regression-games/dublin2.sgf}
reps=${2:-3}
if ! command -v valgrind >/dev/null; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get install -y --no-install-recommends valgrind
fi
[ -x build/bench/bench_vision ] || meson compile -C build bench/bench_vision
out=$(mktemp -d /tmp/kifucam-callgrind-XXXXXX)
trap 'rm -rf "$out"' EXIT
for size in 1280x720 1920x1080; do
    for path in find_from_scratch follow_tracked; do
        valgrind --tool=callgrind --toggle-collect="$path" --callgrind-out-file="$out/cg" \
            build/bench/bench_vision "$record" "$reps" "$size" >"$out/log" 2>"$out/err" ||
            { cat "$out/err" >&2; exit 1; }
        awk -v size="$size" -v path="$path" -v reps="$reps" '/^totals:/ {
            printf "%-9s %-17s %8.1f M instructions a frame\n", size, path, $2 / reps / 1e6 }' \
            "$out/cg"
    done
done

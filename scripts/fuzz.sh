#!/usr/bin/env bash
# Fuzz one target with libFuzzer for a while and keep what it learnt.
#
#   scripts/fuzz.sh TARGET SECONDS      e.g. scripts/fuzz.sh sgf 600
#
# Builds fuzz/fuzz_TARGET.c with clang (-Dfuzzers=true) in build-fuzz/ (or $FUZZ_BUILD_DIR), runs
# it on one core over fuzz/corpus/TARGET for SECONDS, then rebuilds the corpus's generated part as
# the smallest set of inputs that covers every edge reached (libFuzzer -merge=1, edges only), so
# the saved corpus stays small. Files with chosen names (seed-*, real-*, regress-*) are kept as
# they are; generated inputs are named by their SHA-1.
# Crashes are left in build-fuzz/artifacts/; each one must become a regression file in the corpus
# and a unit test. Exit status 1 when the run found a crash.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: scripts/fuzz.sh TARGET SECONDS}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
build=${FUZZ_BUILD_DIR:-build-fuzz}
corpus=fuzz/corpus/$target
dict=fuzz/$target.dict

if [ ! -f "$build/build.ninja" ]; then
    CC=clang CXX=clang++ meson setup "$build" -Dfuzzers=true -Dtests=false >/dev/null
fi
meson compile -C "$build" "fuzz_$target" >/dev/null

mkdir -p "$corpus" "$build/artifacts"
fresh=$(mktemp -d)
log=$build/fuzz-$target.log
trap 'rm -rf "$fresh"' EXIT
before=$(find "$corpus" -type f | wc -l)
touch "$log.start"
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096
      -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-")
[ -f "$dict" ] && args+=(-dict="$dict")

# new inputs go into $fresh (the first directory); the saved corpus is read as seeds
status=0
"$build/fuzz/fuzz_$target" "${args[@]}" "$fresh" "$corpus" >"$log" 2>&1 || status=$?

# stats of the run itself, before the merge appends its own lines
summary=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -1 || true)

minimal=$(mktemp -d)
trap 'rm -rf "$fresh" "$minimal"' EXIT
find "$corpus" -regextype posix-basic -type f ! -regex '.*/[0-9a-f]\{40\}' -exec cp {} "$minimal/" \;
if "$build/fuzz/fuzz_$target" -merge=1 -use_counters=0 -rss_limit_mb=2048 -max_len=4096 \
    "$minimal" "$corpus" "$fresh" >>"$log" 2>&1; then
    find "$corpus" -regextype posix-basic -type f -regex '.*/[0-9a-f]\{40\}' -delete
    find "$minimal" -regextype posix-basic -type f -regex '.*/[0-9a-f]\{40\}' -exec cp {} "$corpus/" \;
else
    echo "  merge failed (see $log): corpus left unchanged"
fi
after=$(find "$corpus" -type f | wc -l)

echo "fuzz_$target: $seconds s on one core"
echo "  last status: $summary"
grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb' "$log" |
    sed 's/^/  /' || true
echo "  corpus $corpus: $before -> $after files, $(du -sh "$corpus" | cut -f1)"
crashes=$(find "$build/artifacts" -name "$target-*" -newer "$log.start" -type f | wc -l)
echo "  new crash/timeout/oom artifacts: $crashes (in $build/artifacts)"
if [ "$status" -ne 0 ] || [ "$crashes" -gt 0 ]; then
    echo "  libFuzzer exited with status $status; see $log"
    exit 1
fi

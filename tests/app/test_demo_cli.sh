#!/usr/bin/env bash
# `kifucam demo` as a user runs it, for both games: the bundled clip through the whole pipeline;
# exit 0 only when the records on disk equal the sample game (Go: game.sgf; shogi: game.kif and
# game.csa, the latter read back here too).
set -u
kifucam="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"
"$kifucam" demo --out "$tmp/go" >"$tmp/go.out" 2>"$tmp/go.err"; rc=$?
if [ $rc -eq 0 ] && grep -q "the record equals the sample game" "$tmp/go.out"; then
    echo "ok 1 - Go demo: $(grep -o 'recorded [0-9]* moves' "$tmp/go.out")"
else
    echo "not ok 1 - Go demo exit $rc"; sed 's/^/# /' "$tmp/go.out" "$tmp/go.err"
fi
"$kifucam" demo --game shogi --out "$tmp/shogi" >"$tmp/sh.out" 2>"$tmp/sh.err"; rc=$?
if [ $rc -eq 0 ] && grep -q "the record equals the sample game" "$tmp/sh.out"; then
    echo "ok 2 - shogi demo: $(grep -o 'recorded [0-9]* moves' "$tmp/sh.out")"
else
    echo "not ok 2 - shogi demo exit $rc"; sed 's/^/# /' "$tmp/sh.out" "$tmp/sh.err"
fi
# the CSA file says the same moves (checked by the project's own reader, flags and all)
if "$kifucam" check "$tmp/shogi/game.csa" >"$tmp/check.out" 2>&1 &&
    grep -q "1 games, 10 moves: 0 flags" "$tmp/check.out"; then
    echo "ok 3 - game.csa reads back clean"
else
    echo "not ok 3 - game.csa"; sed 's/^/# /' "$tmp/check.out"
fi

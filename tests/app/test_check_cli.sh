#!/usr/bin/env bash
# `kifucam check` as a user runs it: output format, exit status, --json, bad input.
set -u
kifucam="$1"
# under a cross build meson runs tests through qemu: the binary needs it too
run_kifucam() { ${KIFUCAM_EXE_WRAPPER:-} "$kifucam" "$@"; }
src="$(cd "$(dirname "$0")/../.." && pwd)"
fx="${KIFUCAM_FIXTURES:-$src/tests/fixtures}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
check() { # name, condition
    n=$((n + 1))
    if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}

run_kifucam check "$src/data/sample" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "bundled sample is clean (exit 0)" '[ $rc -eq 0 ]'
check "summary line names files and flags" 'grep -q "^checked 5 files, 5 games, .* 0 flags" "$tmp/out"'

anomaly="$fx/go-check/foxwq-pro/anomalies"
run_kifucam check "$anomaly" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "anomalies flagged (exit 1)" '[ $rc -eq 1 ]'
check "flag lines are FILE:PLY: KIND: text (rule)" \
    'grep -Eq "^[^:]+\.sgf:[0-9]+: (ILLEGAL_MOVE|TWO_MOVES): .+ \(.+\)$" "$tmp/out"'
check "every line but the summary is a flag line" \
    '[ "$(grep -Evc "^[^:]+\.sgf:[0-9]+: [A-Z_]+: " "$tmp/out")" -eq 1 ]'

run_kifucam check --json "$anomaly" >"$tmp/json" 2>"$tmp/err"; rc=$?
check "--json exit 1" '[ $rc -eq 1 ]'
check "--json output parses, flags agree with text mode" \
    'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); n=sum(1 for l in open(sys.argv[2]) if \": \" in l and not l.startswith(\"checked\")); sys.exit(0 if len(d[\"flags\"])==n==d[\"summary\"][\"flags\"] else 1)" "$tmp/json" "$tmp/out"'

printf '(;GM[1]SZ[19];B[pd];W[dp' >"$tmp/cut.sgf"
printf 'this is not a game record\n' >"$tmp/junk.sgf"
run_kifucam check "$tmp/junk.sgf" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "unreadable file: exit 2" '[ $rc -eq 2 ]'
check "unreadable file: the error names the file" 'grep -q "junk.sgf" "$tmp/err"'
run_kifucam check "$tmp/cut.sgf" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "truncated file still replays what it holds" '[ $rc -ne 2 ] && grep -q "2 moves" "$tmp/out"'
run_kifucam check "$tmp/does-not-exist.sgf" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "missing file: exit 2 and named" '[ $rc -eq 2 ] && grep -q "does-not-exist.sgf" "$tmp/err"'
run_kifucam check --rules nonsense "$src/data/sample" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "unknown --rules: exit 2" '[ $rc -eq 2 ] && grep -q "unknown rules" "$tmp/err"'
run_kifucam check --help >"$tmp/out"; rc=$?
check "check --help lists the rule sets" '[ $rc -eq 0 ] && grep -q "Tromp-Taylor" "$tmp/out"'
run_kifucam --help >"$tmp/out"; rc=$?
check "kifucam --help lists commands" '[ $rc -eq 0 ] && grep -q "check" "$tmp/out"'
echo "1..$n"
exit $fail

#!/usr/bin/env bash
# `kifucam read --game shogi` as a user runs it: a rendered game's start and the still view after
# each move, in order; the SFEN printed for each photo must be the truth's board and side to move.
set -u
kifucam="$1"
run_kifucam() { ${KIFUCAM_EXE_WRAPPER:-} "$kifucam" "$@"; }
src="$(cd "$(dirname "$0")/../.." && pwd)"
fx="${KIFUCAM_FIXTURES:-$src/tests/fixtures}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "1..5"
run_kifucam render "$fx/shogi-records/ryuou201409020101.kif" --out "$tmp/r" --seed 3 \
    --scenario overhead --size 640x480 --moves 4 >/dev/null 2>&1
# the last still, hand-free frame of each ply, and the truth's SFEN (board and side) there
python3 - "$tmp/r/truth.jsonl" >"$tmp/want" <<'PY'
import json, sys
best = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("kind") == "frame" and d.get("settled") and not d.get("hand"):
        best[d["ply"]] = (d["frame"], " ".join(d["sfen"].split()[:2]))
for ply in sorted(best):
    print("frame_%06d.jpg %s" % best[ply])
PY
frames=$(awk '{print "'"$tmp"'/r/" $1}' "$tmp/want")
# shellcheck disable=SC2086
run_kifucam read $frames --game shogi >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && echo "ok 1 - exit 0" || { echo "not ok 1 - exit $rc"; cat "$tmp/err" | sed 's/^/# /'; }
n_want=$(wc -l <"$tmp/want")
n_out=$(wc -l <"$tmp/out")
[ "$n_want" -ge 4 ] && [ "$n_out" -eq "$n_want" ] && echo "ok 2 - one line per photo ($n_out)" ||
    echo "not ok 2 - $n_out lines for $n_want photos"
awk '{print $2, $3}' "$tmp/out" >"$tmp/got"
awk '{print $2, $3}' "$tmp/want" >"$tmp/exp"
if diff -q "$tmp/got" "$tmp/exp" >/dev/null; then
    echo "ok 3 - every position as the truth says"
else
    echo "not ok 3 - positions differ"
    diff "$tmp/exp" "$tmp/got" | sed 's/^/# /'
fi
sed 's/^/# /' "$tmp/out"

# --json: every cell of every photo, and its readings agree with the SFEN printed beside them
# shellcheck disable=SC2086
run_kifucam read $frames --game shogi --json >"$tmp/json" 2>/dev/null
if python3 - "$tmp/json" <<'PY'
import json, sys
bad = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    rows = []
    for rank in d["sfen"].split()[0].split("/"):
        row, prom = [], ""
        for ch in rank:
            if ch.isdigit():
                row += [""] * int(ch)
            elif ch == "+":
                prom = "+"
            else:
                row.append(prom + ch)
                prom = ""
        rows.append(row)
    board = [p for row in rows for p in row]
    cells = d["cells"]
    if len(cells) != 81 or any(not (0 <= c["conf"] <= 1) for c in cells):
        bad += 1
        continue
    # a cell not hidden and read surely shows what the SFEN says
    bad += sum(1 for c, want in zip(cells, board) if not c["hidden"] and c["conf"] >= 0.9
               and c["piece"] != want)
    for side in ("sente", "gote"):
        bad += not isinstance(d["komadai"][side]["pieces"], dict)
sys.exit(1 if bad else 0)
PY
then echo "ok 4 - --json: 81 cells per photo, the sure ones as the SFEN, both komadai"
else echo "not ok 4 - --json cells disagree with the SFEN"; head -c 600 "$tmp/json" | sed 's/^/# /'; fi

# --start: a handicap game's first photo read as that handicap's position
run_kifucam render "$fx/shogi-records/8mai.kif" --out "$tmp/h" --seed 3 --scenario overhead \
    --size 640x480 --moves 1 >/dev/null 2>&1
first=$(python3 - "$tmp/h/truth.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("kind") == "frame" and d.get("settled") and not d.get("hand") and d["frame"] >= 5:
        print("frame_%06d.jpg %s" % (d["frame"], " ".join(d["sfen"].split()[:2])))
        break
PY
)
got=$(run_kifucam read "$tmp/h/${first%% *}" --game shogi --start eight-piece 2>&1 | awk '{print $2, $3}')
if [ "$got" = "${first#* }" ]; then echo "ok 5 - --start eight-piece: $got"
else echo "not ok 5 - --start eight-piece read '$got', the truth '${first#* }'"; fi

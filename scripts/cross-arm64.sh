#!/usr/bin/env bash
# Cross-build kifucam for arm64 (Raspberry Pi 4/5, 64-bit OS) on a Debian 12 amd64 machine and run
# the unit tests under qemu-aarch64, where char signedness, alignment and timing assumptions show.
#
#   scripts/cross-arm64.sh            install (apt-get, idempotent), build, test
#   scripts/cross-arm64.sh --no-test  build only
#
# Two builds:
#   build-arm64/       the kifucam program, libcamera shim included: proves the Pi build links;
#   build-arm64-qemu/  the same without libcamera (-Dlibcamera=disabled), tests run under qemu-user:
#                      libcamera's tracing library (lttng-ust) hangs at load under qemu-user, so
#                      no test binary that links it can run there.
# The long corpus tests run natively in .ci/run; here each test of the list below runs whole.
set -euo pipefail
cd "$(dirname "$0")/.."

run_tests=1
[ "${1:-}" = "--no-test" ] && run_tests=0

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

arm_pkgs="libcmocka-dev:arm64 libopencv-core-dev:arm64 libopencv-imgproc-dev:arm64
  libturbojpeg0-dev:arm64 libpng-dev:arm64 libcamera-dev:arm64 libmicrohttpd-dev:arm64
  libinih-dev:arm64 libmosquitto-dev:arm64 libfreetype-dev:arm64 libavformat-dev:arm64
  libavcodec-dev:arm64 libswscale-dev:arm64 libavutil-dev:arm64"
host_pkgs="crossbuild-essential-arm64 qemu-user"
missing=""
for p in $host_pkgs $arm_pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "cross-arm64: installing$missing"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        sudo_if_needed dpkg --add-architecture arm64
    fi
    sudo_if_needed apt-get update -qq
    # shellcheck disable=SC2086
    sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $host_pkgs $arm_pkgs >/dev/null
fi

[ -f build-arm64/build.ninja ] || meson setup build-arm64 --cross-file cross/arm64.ini >/dev/null
[ -f build-arm64-qemu/build.ninja ] ||
    meson setup build-arm64-qemu --cross-file cross/arm64.ini -Dlibcamera=disabled >/dev/null
meson compile -C build-arm64 app/kifucam >/dev/null
echo "cross-arm64: build-arm64/app/kifucam (with the libcamera shim) compiled and linked"
if command -v file >/dev/null; then file build-arm64/app/kifucam | sed 's/^/cross-arm64: /'; fi
if [ "$run_tests" -eq 0 ]; then
    meson compile -C build-arm64-qemu >/dev/null
    exit 0
fi

# Every test but the long corpus replays, the rendering and vision runs (board_photos alone takes
# 12 minutes under qemu), the browser and daemon tests that start servers and Chromium, and the
# journal's kill test, whose 60 forked writers outlast its time limit under qemu (all of those run
# natively in .ci/run).
tests="go_board go_result go_anchors go_rules go_cgos go_corpus go_score go_score_corpus
  shogi_perft shogi_rules shogi_game shogi_replay
  capture_convert capture_jpeg capture_file capture_video capture_faulty capture_devices capture_v4l2_fake capture_dir
  sgf_parse sgf_go sgf_write sgf_corpus shogi_records
  go_observe_unit shogi_observe_unit check_corpus check_faults check_shogi_faults check_cli
  daemon_config
  fuzz_sgf_corpus fuzz_http_form_corpus fuzz_kif_corpus fuzz_ki2_corpus fuzz_csa_corpus fuzz_sfen_corpus
  fuzz_jkf_corpus fuzz_obs_text_corpus"
# Build only what those tests run (the vision and render tests, never run here, would double the
# cross-build's time): each test's executables and the targets it depends on.
# shellcheck disable=SC2086
outputs=$(meson introspect build-arm64-qemu --tests --targets | python3 -c '
import json, os, sys
want = set(sys.argv[1:])
info = json.load(sys.stdin)
files = {t["id"]: t["filename"] for t in info["targets"]}
out = set()
for t in info["tests"]:
    if t["name"] not in want:
        continue
    want.discard(t["name"])
    out.add(t["cmd"][0])
    for d in t.get("depends", []):
        out.update(files.get(d, []))
if want:
    sys.exit("cross-arm64: no such test: " + " ".join(sorted(want)))
root = os.path.abspath("build-arm64-qemu")
# a test run by a script from the source tree has its program among its dependencies
print(" ".join(sorted(os.path.relpath(f, root) for f in out if f.startswith(root + "/"))))
' $tests)
# shellcheck disable=SC2086
ninja -C build-arm64-qemu $outputs >/dev/null
# shellcheck disable=SC2086
meson test -C build-arm64-qemu --no-rebuild --num-processes 2 --timeout-multiplier 4 $tests

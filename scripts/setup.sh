#!/usr/bin/env bash
# Set up a fresh Debian 12 machine for kifucam: install every package the build and the tests need,
# then configure and build. Idempotent: run it again at any time. Needs root (or sudo) for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    build-essential pkg-config meson ninja-build   # the build
    libcmocka-dev                                  # unit tests
    libopencv-core-dev libopencv-imgproc-dev       # vision/ and render/ image operations (the one C++ shim)
    libturbojpeg0-dev                              # JPEG frames (libjpeg-turbo, TurboJPEG 2.1 API)
    libfreetype-dev fonts-noto-cjk                 # kanji on the rendered shogi pieces (render/)
    libpng-dev                                     # PNG frames in dir: sources
    libavformat-dev libavcodec-dev libswscale-dev libavutil-dev  # file: videos (MP4, MKV, ...) via FFmpeg
    libcamera-dev                                  # Pi cameras (Debian's 0.0.3 proves the shim compiles)
    libmicrohttpd-dev                              # the live page (HTTP + Server-Sent Events)
    libinih-dev                                    # the daemon's configuration file (INI)
    libmosquitto-dev mosquitto                     # MQTT for halls with many boards; the tests start a broker
    chromium                                       # headless browser check of the live page
    python3                                        # .ci/run's summary of meson's test log
    clang libclang-rt-14-dev                       # libFuzzer for scripts/fuzz.sh
    fairy-stockfish                                # independent perft oracle for bench/bench_shogi_perft
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ -f build/build.ninja ]; then
    meson setup --reconfigure build >/dev/null
else
    meson setup build --buildtype=debugoptimized
fi
meson compile -C build

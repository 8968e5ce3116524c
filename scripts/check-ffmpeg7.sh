#!/bin/sh
# Checks that FrameSeek's C shim and FFmpeg module compile against FFmpeg 7 headers
# (Debian 13 "trixie", FFmpeg 7.1), while the machine itself stays on Debian 12's FFmpeg 5.1.
#
# Nothing is installed and the system's apt configuration is not touched: a private apt
# configuration under .build/ffmpeg7/ fetches trixie's -dev packages with `apt-get download`,
# and `dpkg -x` unpacks them there. Not part of `make test`; run it by hand or in CI:
#
#   scripts/check-ffmpeg7.sh
#
# It then
#   1. compiles Sources/CFFmpeg/shim.h with gcc, deprecation warnings as errors;
#   2. typechecks the FrameSeekFFmpeg module with swiftc against those headers, and fails
#      on any "deprecated" warning in our code.
# Linking is not checked: the FFmpeg 7 libraries would need trixie's glibc.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=$ROOT/.build/ffmpeg7
SYSROOT=$CACHE/root
mkdir -p "$CACHE/apt/lists/partial" "$CACHE/apt/cache/archives/partial" "$CACHE/apt/empty" "$CACHE/debs" "$SYSROOT"

if [ ! -f "$SYSROOT/usr/include/x86_64-linux-gnu/libavutil/version.h" ] && [ ! -f "$SYSROOT/usr/include/libavutil/version.h" ]; then
    cat > "$CACHE/apt/sources.list" <<SOURCES
deb [signed-by=/usr/share/keyrings/debian-archive-trixie-stable.gpg,/usr/share/keyrings/debian-archive-trixie-automatic.gpg] http://deb.debian.org/debian trixie main
SOURCES
    : > "$CACHE/apt/status"
    set -- -o Dir::Etc::sourcelist="$CACHE/apt/sources.list" -o Dir::Etc::sourceparts="$CACHE/apt/empty" \
        -o Dir::State::Lists="$CACHE/apt/lists" -o Dir::State::status="$CACHE/apt/status" \
        -o Dir::Cache="$CACHE/apt/cache" -o Dir::Etc::preferencesparts="$CACHE/apt/empty" -o Dir::Etc::preferences="$CACHE/apt/empty/none" \
        -o APT::Architecture=amd64 -o Debug::NoLocking=1
    apt-get "$@" -qq update
    (cd "$CACHE/debs" && apt-get "$@" -qq download \
        libavutil-dev libavcodec-dev libavformat-dev libavfilter-dev libswscale-dev libswresample-dev)
    for deb in "$CACHE"/debs/*.deb; do dpkg -x "$deb" "$SYSROOT"; done
fi
INCLUDE=$SYSROOT/usr/include/x86_64-linux-gnu
[ -d "$INCLUDE/libavutil" ] || INCLUDE=$SYSROOT/usr/include
version() { sed -n "s/^#define LIB$1_VERSION_$2 *\([0-9]*\).*/\1/p" "$INCLUDE/lib$3/version$4.h"; }
LAVU_MAJOR=$(version AVUTIL MAJOR avutil "")
echo "FFmpeg headers: libavutil $LAVU_MAJOR, libavcodec $(version AVCODEC MAJOR avcodec _major), libavformat $(version AVFORMAT MAJOR avformat _major) in $INCLUDE"

if [ "${LAVU_MAJOR:-0}" -lt 59 ]; then echo "FAILED: expected FFmpeg 7 headers (libavutil 59), found libavutil $LAVU_MAJOR"; exit 1; fi

echo "1. gcc -fsyntax-only on Sources/CFFmpeg/shim.h"
gcc -std=c11 -fsyntax-only -Wall -Werror=deprecated-declarations -I"$INCLUDE" -x c Sources/CFFmpeg/shim.h

echo "2. swiftc -typecheck of FrameSeekFFmpeg against these headers"
# The module map links the system libraries; typechecking never links, so only the headers
# matter. FrameSeekCore is built from source into the cache so its module matches.
MODULES=$CACHE/modules
mkdir -p "$MODULES"
swiftc -module-cache-path "$CACHE/module-cache" -parse-as-library -swift-version 6 -package-name FrameSeek -module-name FrameSeekCore -emit-module \
    -emit-module-path "$MODULES/FrameSeekCore.swiftmodule" $(find Sources/FrameSeekCore -name '*.swift') 2>"$CACHE/core.log" \
    || { cat "$CACHE/core.log"; exit 1; }
swiftc -typecheck -module-cache-path "$CACHE/module-cache" -parse-as-library -swift-version 6 -package-name FrameSeek -module-name FrameSeekFFmpeg \
    -I "$MODULES" -I Sources/CFFmpeg -Xcc -I"$INCLUDE" \
    $(find Sources/FrameSeekFFmpeg -name '*.swift') 2>&1 | tee "$CACHE/typecheck.log"
if grep -q -E 'error:|deprecated' "$CACHE/typecheck.log"; then
    echo "FAILED: errors or deprecation warnings against FFmpeg 7 headers (see above)"
    exit 1
fi
echo "OK: the shim and FrameSeekFFmpeg compile against FFmpeg 7 headers without deprecations"

#!/usr/bin/env bash
# scripts/check-readme-example.sh: the documentation's Swift Testing example for landing
# manifests, copied into a fresh package that depends on FrameSeek, must compile and pass.
#
# The example is the ```swift block between <!-- landing-test-example --> and
# <!-- /landing-test-example --> in the DocC article LandingManifests.md (the README links
# there), taken as it is. The package is made in a
# temporary folder, as a user would make it (swift package init --type library), with
# FrameSeek as a path dependency; its manifest is recorded from a fixture by the frameseek
# built from this checkout, and its test is run with `swift test`.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/frameseek-user-package.XXXXXX)
trap 'rm -rf "$work"' EXIT

article="$repo/Sources/FrameSeek/FrameSeek.docc/LandingManifests.md"
example=$(awk '/<!-- landing-test-example -->/{on=1; next} /<!-- \/landing-test-example -->/{on=0} on' "$article" \
          | awk '/^```swift/{on=1; next} /^```/{on=0} on')
[[ -n "$example" ]] || { echo "check-readme-example: no example between the markers in $article" >&2; exit 1; }

cd "$work"
# Named FrameSeek as a user's checkout or URL dependency would be: SwiftPM names a path
# dependency after its folder.
ln -s "$repo" FrameSeek
mkdir MyEncodes && cd MyEncodes
swift package init --type library --name MyEncodes >/dev/null
cat > Package.swift <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "MyEncodes",
    dependencies: [.package(path: "../FrameSeek")],
    targets: [
        .target(name: "MyEncodes"),
        .testTarget(name: "MyEncodesTests",
                    dependencies: [.product(name: "FrameSeek", package: "FrameSeek")],
                    resources: [.copy("Landings")]),
    ]
)
SWIFT
mkdir -p Tests/MyEncodesTests/Landings
rm -f Tests/MyEncodesTests/*.swift
printf '%s\n' "$example" > Tests/MyEncodesTests/LandingTests.swift
# The user's manifest, recorded next to a copy of their media.
cp "$repo/Fixtures/media/h264_bframes_gop250.mp4" Tests/MyEncodesTests/Landings/clip.mp4
(cd "$repo" && swift build --product frameseek >/dev/null)
"$repo/.build/debug/frameseek" landing record Tests/MyEncodesTests/Landings/clip.mp4 -n 8 \
    --precision exact --precision previous-keyframe -o Tests/MyEncodesTests/Landings/clip.landing.json
swift test 2>&1 | tail -n 5
echo "check-readme-example: the documentation's example compiled and passed in a fresh package"

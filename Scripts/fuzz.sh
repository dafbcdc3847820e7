#!/usr/bin/env bash
# Builds a libFuzzer target over Kura's readers and mapper (Scripts/fuzz/FuzzTarget.swift) with
# -sanitize=fuzzer,address in a package of its own under .build/fuzz, then runs it on a corpus
# seeded from Samples/. Extra arguments go to libFuzzer, e.g.:
#   Scripts/fuzz.sh -max_total_time=1800 -jobs=2
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build/fuzz"
package="$work/package"
mkdir -p "$package/Sources/KuraFuzz" "$work/corpus" "$work/artifacts"
cp "$root/Scripts/fuzz/FuzzTarget.swift" "$package/Sources/KuraFuzz/FuzzTarget.swift"
# SwiftPM names a path dependency after its folder.
identity="$(basename "$root")"
cat > "$package/Package.swift" <<SWIFT
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "KuraFuzz",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(
            name: "KuraFuzz",
            dependencies: [.product(name: "Kura", package: "$identity")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ]
)
SWIFT
(cd "$package" && swift build -c release --sanitize=fuzzer --sanitize=address)
cp -n "$root"/Samples/*.json "$root"/Samples/*.jsonl "$root"/Samples/*.yaml "$work/corpus/" 2>/dev/null || true
export KURA_FUZZ_SCHEMA="$root/Samples/schema.yaml"
# LeakSanitizer reports the schema parsed once at start-up (Swift enum payload pointers it does
# not recognise as references), which libFuzzer would then count as a crash on an empty input.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
exec "$package/.build/release/KuraFuzz" "$work/corpus" -artifact_prefix="$work/artifacts/" -max_len=65536 -timeout=10 -rss_limit_mb=2048 "$@"

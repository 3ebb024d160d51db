#!/usr/bin/env bash
# `make fuzz`: runs one fuzz target (FUZZ_TARGET: lines or metadata) for FUZZ_SECONDS.
# Coverage-guided with libFuzzer when this Swift toolchain can link it (swiftc -sanitize=fuzzer),
# else BeaconFuzz's own seeded mutation run of the same properties (FUZZ_ENGINE=properties forces
# it; FUZZ_SEED replays one). libFuzzer grows its corpus in Fuzz/corpus/<target> (seeded from
# Fuzz/seeds and the samples); failing inputs land in Fuzz/artifacts.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${FUZZ_TARGET:-lines}
seconds=${FUZZ_SECONDS:-600}
engine=${FUZZ_ENGINE:-auto}
swift=${SWIFT:-swift}

case "$target" in lines | metadata) ;; *) echo "error: FUZZ_TARGET must be lines or metadata, not '$target'" >&2; exit 2 ;; esac

# Whether a one-line fuzz target compiles and links with libFuzzer.
libfuzzer_links() {
    local probe
    probe=$(mktemp -d)
    trap 'rm -rf "$probe"' RETURN
    printf '@_cdecl("LLVMFuzzerTestOneInput")\npublic func f(_ d: UnsafePointer<UInt8>?, _ n: Int) -> CInt { 0 }\n' > "$probe/probe.swift"
    "${swift}c" -sanitize=fuzzer -parse-as-library "$probe/probe.swift" -o "$probe/probe" > /dev/null 2>&1
}

if [ "$engine" = auto ]; then
    if libfuzzer_links; then engine=libfuzzer; else engine=properties; fi
fi
mkdir -p Fuzz/artifacts
case "$engine" in
libfuzzer)
    echo "fuzz $target for ${seconds}s with libFuzzer"
    "$swift" build -c release --scratch-path .build/fuzz --sanitize=fuzzer -Xswiftc -DBEACON_LIBFUZZER --product BeaconFuzz
    mkdir -p "Fuzz/corpus/$target"
    FUZZ_TARGET=$target .build/fuzz/release/BeaconFuzz -max_total_time="$seconds" -max_len=16384 -timeout=10 \
        -dict="Fuzz/$target.dict" -artifact_prefix="Fuzz/artifacts/$target-" -print_final_stats=1 "Fuzz/corpus/$target"
    ;;
properties)
    echo "fuzz $target for ${seconds}s with BeaconFuzz's mutation run (no libFuzzer)"
    "$swift" build -c release --scratch-path .build/fuzz-properties --product BeaconFuzz
    .build/fuzz-properties/release/BeaconFuzz "$target" --seconds "$seconds" ${FUZZ_SEED:+--seed "$FUZZ_SEED"}
    ;;
*) echo "error: FUZZ_ENGINE must be auto, libfuzzer or properties, not '$engine'" >&2; exit 2 ;;
esac

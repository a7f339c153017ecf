#!/usr/bin/env bash
# Builds LivePair's libFuzzer harness (Fuzz/FuzzIdentify.swift) and runs it.
#
#   scripts/fuzz.sh [SECONDS] [LIBFUZZER-ARGS...]
#
#   scripts/fuzz.sh                  # build, then fuzz for 60 seconds
#   scripts/fuzz.sh 300 -jobs=2      # fuzz for 5 minutes (libFuzzer flags pass through)
#   scripts/fuzz.sh replay FILE...   # run the harness once on each FILE (a crash input) and exit
#
# The harness runs the box parser, QuickTimeMovieParser, HEIFFile, JPEGSegmentReader,
# TIFFReader/ExifMetadata, AppleMakerNote, MotionPhotoXMP, the SEF trailer reader and the whole
# ResourceIdentifier on each input. Everything goes to fuzz-build/ (gitignored):
#   fuzz-build/fuzz-identify   the instrumented binary (swiftc -sanitize=fuzzer,address -O)
#   fuzz-build/seeds/          seed corpus made from SampleMedia (64 KiB prefixes, moov and meta
#                              boxes, Exif TIFF blocks, maker notes and XMP packets)
#   fuzz-build/corpus/         the growing corpus (kept between runs)
#   fuzz-build/artifacts/      crash-*, leak-*, oom-*, timeout-* inputs
# Tests/Fixtures/fuzz/ (past crash inputs, replayed by RobustnessTests) is read as a seed directory.
#
# Needs only the Swift toolchain: it ships libFuzzer and ASan (lib/clang/*/lib/linux/
# libclang_rt.fuzzer-x86_64.a, libclang_rt.asan-x86_64.a); no Debian package is required.
# python3 makes the seed corpus.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-60}
if [ $# -gt 0 ]; then shift; fi
case "$seconds" in
  replay) ;;
  ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [LIBFUZZER-ARGS...] | scripts/fuzz.sh replay FILE..." >&2; exit 64 ;;
esac
build="$root/fuzz-build"
mkdir -p "$build/modules" "$build/corpus" "$build/artifacts" "$build/seeds"

swift_flags=(-O -wmo -parse-as-library -swift-version 6
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
  -sanitize=fuzzer,address)

stamp="$build/.sources"
sources_now=$(find Sources/LivePairFormats Sources/LivePair/Identity Fuzz -name '*.swift' -newer "$stamp" 2>/dev/null | head -1 || true)
if [ ! -x "$build/fuzz-identify" ] || [ ! -e "$stamp" ] || [ -n "$sources_now" ]; then
  echo "fuzz.sh: compiling LivePairFormats (instrumented)..." >&2
  mapfile -t formats < <(find Sources/LivePairFormats -name '*.swift' | sort)
  swiftc "${swift_flags[@]}" -module-name LivePairFormats -emit-library -static \
    -emit-module -emit-module-path "$build/modules/LivePairFormats.swiftmodule" \
    -o "$build/libLivePairFormats.a" "${formats[@]}"
  echo "fuzz.sh: compiling LivePair identification (instrumented)..." >&2
  mapfile -t identity < <(find Sources/LivePair/Identity -name '*.swift' | sort)
  swiftc "${swift_flags[@]}" -module-name LivePair -emit-library -static -I "$build/modules" \
    -emit-module -emit-module-path "$build/modules/LivePair.swiftmodule" \
    -o "$build/libLivePair.a" "${identity[@]}"
  echo "fuzz.sh: linking the harness..." >&2
  swiftc "${swift_flags[@]}" -module-name FuzzIdentify -I "$build/modules" \
    -use-ld=lld Fuzz/FuzzIdentify.swift "$build/libLivePair.a" "$build/libLivePairFormats.a" -o "$build/fuzz-identify"
  touch "$stamp"
fi

if [ -z "$(ls -A "$build/seeds")" ]; then
  echo "fuzz.sh: making the seed corpus from SampleMedia..." >&2
  python3 - "$root/SampleMedia" "$build/seeds" <<'PY'
import hashlib, os, struct, sys
media, out = sys.argv[1], sys.argv[2]
def save(data):
    if data:
        with open(os.path.join(out, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
def boxes(data):
    offset = 0
    while len(data) - offset >= 8:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if size == 1 and len(data) - offset >= 16:
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
        elif size == 0:
            size = len(data) - offset
        if size < 8:
            return
        yield kind, data[offset:offset + size]
        offset += size
def find_all(data, needle, limit=4):
    start = 0
    for _ in range(limit):
        index = data.find(needle, start)
        if index < 0:
            return
        yield index
        start = index + 1
for folder, _, files in os.walk(media):
    for name in sorted(files):
        if name.endswith((".md", ".tsv")):
            continue
        data = open(os.path.join(folder, name), "rb").read()
        save(data[:64 << 10])
        save(data[:4 << 10])
        if data[4:8] == b"ftyp" or data[4:8] in (b"wide", b"mdat", b"moov", b"free"):
            ftyp = b""
            for kind, box in boxes(data):
                if kind == b"ftyp":
                    ftyp = box
                if kind in (b"moov", b"meta") and len(box) <= (1 << 20):
                    save(box)
                    save(ftyp + box)
        for index in find_all(data, b"Exif\0\0"):
            save(data[index + 6:index + 6 + (64 << 10)])
        for index in find_all(data, b"Apple iOS\0"):
            save(data[index:index + 4096])
        for index in find_all(data, b"<x:xmpmeta"):
            end = data.find(b"</x:xmpmeta>", index)
            if end > 0:
                save(data[index:end + 12])
        sef = data.rfind(b"SEFH")
        if sef > 0 and data.endswith(b"SEFT"):
            save(data[max(0, sef - 4096):])
PY
fi

# Swift's own crash backtracer fights ASan over the faulting thread; let libFuzzer report crashes.
export SWIFT_BACKTRACE=enable=no
if [ "$seconds" = "replay" ]; then
  exec "$build/fuzz-identify" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 "$@"
fi
time_args=()
if [ "$seconds" != "0" ]; then time_args=(-max_total_time="$seconds"); fi
exec "$build/fuzz-identify" "$build/corpus" "$build/seeds" "$root/Tests/Fixtures/fuzz" \
  "${time_args[@]}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536 \
  -artifact_prefix="$build/artifacts/" -print_final_stats=1 "$@"

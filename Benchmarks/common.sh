# shellcheck shell=bash disable=SC2034 # sourced; the variables it sets are read by the scripts
# Shared by parse-and-map.sh, memory-flat.sh and transfer.sh (sourced, not run): building the probe
# or kura, a temporary work directory, generating the people dataset, and running a command under a
# peak-RSS meter.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(dirname "$BENCH_DIR")
SCHEMA="$REPO_DIR/Samples/schema.yaml"

# How many times each measurement is repeated; tables show the median.
RUNS=${RUNS:-3}

# build_product PRODUCT: builds PRODUCT (kura-probe, kura) in release and sets BUILT_BIN to its path.
# KURA_SCRATCH_PATH, when set, is passed to swift build as --scratch-path (relative paths are
# relative to the repository).
build_product() {
    local args=(-c release --product "$1")
    if [[ -n "${KURA_SCRATCH_PATH:-}" ]]; then
        args+=(--scratch-path "$KURA_SCRATCH_PATH")
    fi
    echo "== building: swift build ${args[*]}"
    (cd "$REPO_DIR" && swift build "${args[@]}" 2>&1 | tail -n 3)
    local bin
    bin=$(cd "$REPO_DIR" && swift build "${args[@]}" --show-bin-path)
    BUILT_BIN="$bin/$1"
    [[ -x "$BUILT_BIN" ]] || { echo "error: no $1 at $BUILT_BIN" >&2; exit 1; }
}

# Builds kura-probe in release and sets PROBE to its path.
build_probe() {
    build_product kura-probe
    PROBE=$BUILT_BIN
}

# Makes WORK, a temporary directory (under TMPDIR or /tmp) removed when the script exits.
make_workdir() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/kura-bench.XXXXXX")
    trap 'rm -rf "$WORK"' EXIT
    trap 'exit 130' INT TERM
}

# generate N FORMAT FILE: writes N people in FORMAT (json, jsonl or yaml) to FILE.
generate() {
    python3 "$BENCH_DIR/gen_people.py" "$1" --format "$2" > "$3"
}

# The size of FILE in bytes.
file_bytes() {
    stat -c %s "$1"
}

# A wrapper used only when /usr/bin/time is missing: runs its arguments after the first and writes
# "WALL_SECONDS PEAK_RSS_KIB" to the first, like /usr/bin/time -f '%e %M' -o FILE.
RUSAGE_WRAPPER='
import resource, subprocess, sys, time
start = time.perf_counter()
status = subprocess.call(sys.argv[2:])
wall = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
with open(sys.argv[1], "w") as out:
    out.write(f"{wall:.2f} {peak}\n")
sys.exit(status)
'

# measure COMMAND...: runs COMMAND once and sets RUN_WALL (process wall seconds), RUN_RSS_KIB (peak
# resident set), and, from the command's "key=value ..." line, RUN_SECONDS, RUN_DOCUMENTS, RUN_ERRORS
# and RUN_BYTES. Stops the script if the command fails.
measure() {
    local timing="$WORK/timing.txt" output="$WORK/output.txt" errors="$WORK/stderr.txt"
    local status=0
    if [[ -x /usr/bin/time ]]; then
        /usr/bin/time -f '%e %M' -o "$timing" "$@" > "$output" 2> "$errors" || status=$?
    else
        python3 -c "$RUSAGE_WRAPPER" "$timing" "$@" > "$output" 2> "$errors" || status=$?
    fi
    if (( status != 0 )); then
        echo "error: '$*' failed with status $status:" >&2
        cat "$errors" >&2
        exit 1
    fi
    read -r RUN_WALL RUN_RSS_KIB < <(tail -n 1 "$timing")
    local line field
    line=$(tail -n 1 "$output")
    RUN_SECONDS="" RUN_DOCUMENTS="" RUN_ERRORS="" RUN_BYTES=""
    for field in $line; do
        case "$field" in
            seconds=*) RUN_SECONDS=${field#seconds=} ;;
            documents=*) RUN_DOCUMENTS=${field#documents=} ;;
            errors=*) RUN_ERRORS=${field#errors=} ;;
            bytes=*) RUN_BYTES=${field#bytes=} ;;
        esac
    done
    if [[ -z "$RUN_SECONDS" || -z "$RUN_DOCUMENTS" ]]; then
        echo "error: '$*' printed no result line (got: $line)" >&2
        exit 1
    fi
}

# Reads numbers, one a line, and prints their median.
median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

#!/usr/bin/env bash
# Parse-and-map throughput of Kura's document readers and mapper on the people dataset, against
# two anchors: Foundation's JSONSerialization and Python's json.load.
#
# usage: Benchmarks/parse-and-map.sh [PERSONS]      (default: $PERSONS, else 200000, about 96 MB of JSON)
# environment: RUNS (runs per measurement, default 3), KURA_SCRATCH_PATH (swift build --scratch-path),
#              TMPDIR (where the temporary data goes; about 3 x the JSON size is needed)
#
# Builds kura-probe in release, generates the dataset as a JSON array, JSON Lines and YAML (one
# flow-style document per person) in a temporary directory, compiles the JSONSerialization anchor
# with swiftc -O, runs every measurement RUNS times (in rounds, so drift hits all alike) and prints
# the medians. "seconds" is each program's own monotonic time around reading and parsing (and
# mapping); "wall" is the whole process, start-up included; peak RSS is the process's maximum.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PERSONS=${1:-${PERSONS:-200000}}
if ! [[ "$PERSONS" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [PERSONS]   (PERSONS a positive integer, got '$PERSONS')" >&2
    exit 64
fi

build_probe
make_workdir

echo "== generating $PERSONS people in $WORK"
for format in json jsonl yaml; do
    generate "$PERSONS" "$format" "$WORK/people.$format"
    printf '   people.%-5s %12d bytes\n' "$format" "$(file_bytes "$WORK/people.$format")"
done
echo "== compiling the anchor: swiftc -O Anchors/jsonserialization.swift"
swiftc -O "$BENCH_DIR/Anchors/jsonserialization.swift" -o "$WORK/jsonserialization"

BENCHES=(
    "Kura parse+map json"
    "Kura parse+map jsonl"
    "Kura parse+map yaml"
    "Kura parse json"
    "Kura parse jsonl"
    "Kura parse yaml"
    "JSONSerialization json"
    "Python json.load json"
)

# The input file of a measurement: its name ends with the format.
bench_input() {
    echo "$WORK/people.${1##* }"
}

# Runs one measurement once (see measure in common.sh).
bench_run() {
    local name=$1 input format=${1##* }
    input=$(bench_input "$name")
    case "$name" in
        "Kura parse+map "*) measure "$PROBE" map "$input" --schema "$SCHEMA" --type Person --format "$format" ;;
        "Kura parse "*) measure "$PROBE" map "$input" --schema "$SCHEMA" --type Person --format "$format" --parse-only ;;
        "JSONSerialization "*) measure "$WORK/jsonserialization" "$input" ;;
        "Python json.load "*) measure python3 "$BENCH_DIR/Anchors/json_load.py" "$input" ;;
        *) echo "error: unknown measurement '$name'" >&2; exit 1 ;;
    esac
    if [[ "$RUN_DOCUMENTS" != "$PERSONS" || "${RUN_ERRORS:-0}" != 0 ]]; then
        echo "error: $name: expected $PERSONS documents and no errors, got documents=$RUN_DOCUMENTS errors=$RUN_ERRORS" >&2
        exit 1
    fi
}

echo "== measuring: ${#BENCHES[@]} measurements x $RUNS runs ($(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'))"
for ((run = 1; run <= RUNS; run++)); do
    for index in "${!BENCHES[@]}"; do
        name=${BENCHES[$index]}
        bench_run "$name"
        echo "$RUN_SECONDS" >> "$WORK/seconds.$index"
        echo "$RUN_WALL" >> "$WORK/wall.$index"
        echo "$RUN_RSS_KIB" >> "$WORK/rss.$index"
        printf '   run %d/%d  %-24s %9.3f s  wall %7.2f s  peak RSS %7.1f MiB\n' \
            "$run" "$RUNS" "$name" "$RUN_SECONDS" "$RUN_WALL" "$(awk -v k="$RUN_RSS_KIB" 'BEGIN { print k / 1024 }')"
    done
done

anchor_seconds=""
for index in "${!BENCHES[@]}"; do
    if [[ "${BENCHES[$index]}" == "JSONSerialization json" ]]; then
        anchor_seconds=$(median < "$WORK/seconds.$index")
    fi
done

echo
echo "== results: $PERSONS people, median of $RUNS runs; MB = 10^6 bytes, RSS in MiB;"
echo "   x JSONSer = median seconds / JSONSerialization's median seconds (same people, that row's format)"
printf '%-24s %12s %10s %8s %8s %14s %10s\n' "name" "input bytes" "median s" "wall s" "MB/s" "peak RSS MiB" "x JSONSer"
for index in "${!BENCHES[@]}"; do
    name=${BENCHES[$index]}
    bytes=$(file_bytes "$(bench_input "$name")")
    seconds=$(median < "$WORK/seconds.$index")
    wall=$(median < "$WORK/wall.$index")
    rss=$(median < "$WORK/rss.$index")
    awk -v name="$name" -v bytes="$bytes" -v s="$seconds" -v w="$wall" -v rss="$rss" -v anchor="$anchor_seconds" 'BEGIN {
        printf "%-24s %12d %10.3f %8.2f %8.1f %14.1f %10.2f\n", name, bytes, s, w, bytes / s / 1e6, rss / 1024, s / anchor
    }'
done

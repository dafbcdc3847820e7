#!/usr/bin/env bash
# Flat-memory check: Kura's streaming readers and mapper should need the same peak memory for a
# small and a large input. Maps a ~SMALL_MB and a ~LARGE_MB people dataset (a JSON array, then
# JSON Lines) with kura-probe, prints the peak RSS of each and their ratio, and passes when the
# large input's peak RSS is within 10% of the small one's. Exits 1 on FAIL.
#
# usage: Benchmarks/memory-flat.sh
# environment: SMALL_MB (default 10), LARGE_MB (default 500), RUNS (runs per input, median peak RSS,
#              default 3), KURA_SCRATCH_PATH (swift build --scratch-path), TMPDIR (about LARGE_MB
#              of free space is needed; each large file is deleted once measured)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SMALL_MB=${SMALL_MB:-10}
LARGE_MB=${LARGE_MB:-500}
TOLERANCE=0.10

build_probe
make_workdir

# The number of people per MB, from a 10,000-person sample (the JSON Lines size is within 0.1%).
generate 10000 json "$WORK/sample.json"
per_mb=$(awk -v b="$(file_bytes "$WORK/sample.json")" 'BEGIN { print 10000 * 1e6 / b }')
rm -f "$WORK/sample.json"
small_n=$(awk -v p="$per_mb" -v mb="$SMALL_MB" 'BEGIN { printf "%d", p * mb + 0.5 }')
large_n=$(awk -v p="$per_mb" -v mb="$LARGE_MB" 'BEGIN { printf "%d", p * mb + 0.5 }')

# peak_rss FILE FORMAT N TIMES: runs kura-probe map over FILE (N people) TIMES times and writes the
# median peak RSS (KiB) to $WORK/rss.median.
peak_rss() {
    local file=$1 format=$2 n=$3 times=$4 run
    : > "$WORK/rss.txt"
    for ((run = 1; run <= times; run++)); do
        measure "$PROBE" map "$file" --schema "$SCHEMA" --type Person --format "$format"
        if [[ "$RUN_DOCUMENTS" != "$n" || "$RUN_ERRORS" != 0 ]]; then
            echo "error: expected $n documents and no errors, got documents=$RUN_DOCUMENTS errors=$RUN_ERRORS" >&2
            exit 1
        fi
        echo "$RUN_RSS_KIB" >> "$WORK/rss.txt"
        printf '   %-6s %9d people %12d bytes  run %d/%d  %8.3f s  peak RSS %7.1f MiB\n' "$format" "$n" \
            "$(file_bytes "$file")" "$run" "$times" "$RUN_SECONDS" "$(awk -v k="$RUN_RSS_KIB" 'BEGIN { print k / 1024 }')"
    done
    median < "$WORK/rss.txt" > "$WORK/rss.median"
}

# The probe's peak RSS on an empty array: the runtime and libraries, before any document.
printf '[]\n' > "$WORK/empty.json"
peak_rss "$WORK/empty.json" json 0 1 > /dev/null
baseline_rss=$(cat "$WORK/rss.median")

failed=0
declare -a summary
for format in json jsonl; do
    echo "== $format: ~$SMALL_MB MB ($small_n people) and ~$LARGE_MB MB ($large_n people)"
    generate "$small_n" "$format" "$WORK/small.$format"
    peak_rss "$WORK/small.$format" "$format" "$small_n" "$RUNS"
    small_rss=$(cat "$WORK/rss.median")
    rm -f "$WORK/small.$format"
    generate "$large_n" "$format" "$WORK/large.$format"
    peak_rss "$WORK/large.$format" "$format" "$large_n" "$RUNS"
    large_rss=$(cat "$WORK/rss.median")
    rm -f "$WORK/large.$format"
    line=$(awk -v f="$format" -v s="$small_rss" -v l="$large_rss" -v t="$TOLERANCE" -v sm="$SMALL_MB" -v lm="$LARGE_MB" 'BEGIN {
        r = l / s; ok = (r <= 1 + t && r >= 1 - t)
        printf "%-6s peak RSS ~%d MB: %7.1f MiB   ~%d MB: %7.1f MiB   ratio %.3f   %s\n", f, sm, s / 1024, lm, l / 1024, r, ok ? "PASS" : "FAIL"
    }')
    summary+=("$line")
    [[ "$line" == *PASS ]] || failed=1
done

echo
echo "== flat memory (median peak RSS of $RUNS runs; PASS when the ratio is within 10%)"
awk -v b="$baseline_rss" 'BEGIN { printf "baseline: peak RSS on an empty array %.1f MiB (runtime and libraries)\n", b / 1024 }'
printf '%s\n' "${summary[@]}"
if (( failed )); then
    echo "FAIL"
    exit 1
fi
echo "PASS"

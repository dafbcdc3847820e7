#!/usr/bin/env bash
# Growth benchmark: how the cost of `kura import`, `kura export` and `kura copy` grows with the input.
# Runs the Kura rows of transfer.sh (no anchors) on a SMALL and a LARGE people dataset and prints, per
# row, the median wall time at each size, the ratio of the two medians, the median of the per-round
# ratios, the ratio of the median CPU seconds (user + system; how the work grows, apart from waiting)
# and the median peak RSS at each size. Marks every row PASS or FAIL against the targets:
# the median at LARGE at most LARGE/SMALL x 1.1 times the median at SMALL (5.5 for 200,000 and
# 1,000,000 people: linear growth with a tenth of slack), and peak RSS <= 64 MiB at both sizes. A
# FAIL does not change the exit status; a failing command or a wrong count of stored objects stops
# the script with status 1.
#
# Why interleaved: this machine's speed drifts by 15-20% over minutes, so a SMALL time from one run
# of a script and a LARGE time from another compare mostly the drift. Here every round runs each
# measurement at both sizes straight after each other (SMALL first in odd rounds, LARGE first in even
# ones), so the two times of a ratio are taken close together, and the per-round ratios show how far
# the drift still moves them.
#
# usage: Benchmarks/growth.sh [SMALL [LARGE]]   (default: 200000 and 1000000; SMALL below LARGE)
# environment:
#   RUNS               rounds (default 3); each runs every measurement at both sizes; medians shown
#   ONLY               the parts to run, comma-separated: import,export,copy (default: all three)
#   KURA_BIN           a kura binary to measure instead of building one
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes; both sizes stay there for the whole run.
#                      About 2.5 GB at the peak for the defaults (measured at 20,000 people and
#                      scaled): per 1,000,000 people the JSON and JSONL inputs (0.96 GB) and the
#                      realm the export and copy rows read (0.41 GB), plus one run's output at a
#                      time, the largest an import's realm with its write-ahead log (0.82 GB; an
#                      export is 0.54 GB and deleted once checked); 200,000 people add a fifth of
#                      the inputs and realm (0.27 GB)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SMALL=${1:-200000}
LARGE=${2:-1000000}
for count in "$SMALL" "$LARGE"; do
    if ! [[ "$count" =~ ^[1-9][0-9]*$ ]]; then
        echo "usage: $0 [SMALL [LARGE]]   (SMALL and LARGE positive integers, got '$count')" >&2
        exit 64
    fi
done
if ((SMALL >= LARGE)); then
    echo "usage: $0 [SMALL [LARGE]]   (SMALL must be below LARGE, got $SMALL and $LARGE)" >&2
    exit 64
fi
check_only

find_kura
find_sqlite3

# --- data ------------------------------------------------------------------------------------------

# Each size has a folder of its own under WORK, named by the size's label; PEOPLE_AT and ROWS_AT give
# its number of people and the rows every import of them must store (see expected_rows).
make_workdir
SIZES=(small large)
declare -A PEOPLE_AT=([small]=$SMALL [large]=$LARGE) ROWS_AT=()
for size in "${SIZES[@]}"; do
    dir="$WORK/$size"
    mkdir "$dir"
    echo "== generating ${PEOPLE_AT[$size]} people ($size) in $dir"
    generate "${PEOPLE_AT[$size]}" json "$dir/people.json"
    generate "${PEOPLE_AT[$size]}" jsonl "$dir/people.jsonl"
    printf '   people.json  %12d bytes\n   people.jsonl %12d bytes\n' \
        "$(file_bytes "$dir/people.json")" "$(file_bytes "$dir/people.jsonl")"
    ROWS_AT[$size]=$(expected_rows "$dir/people.jsonl")
    echo "   expected rows: persons|addresses|dogs|toys|list entries|cities|parks = ${ROWS_AT[$size]}"
done

# --- the measurements ------------------------------------------------------------------------------

NAMES=()
if wants import; then
    NAMES+=("Kura import json" "Kura import jsonl")
fi
if wants export; then
    NAMES+=("Kura export")
fi
if wants copy; then
    NAMES+=("Kura copy" "Kura copy into empty")
fi

# bench_run NAME SIZE: prepares (not timed), runs NAME once under timed on the data of SIZE (small or
# large), and checks what it stored or wrote. The source of the export and copy runs is base.realm in
# the size's folder: the realm of the first JSON import, or, when ONLY leaves out import, one imported
# untimed before the first round (below); so each size is imported for them once.
bench_run() {
    local name=$1 size=$2
    local dir="$WORK/$size" rows=${ROWS_AT[$size]} what="$1 ($2)" db
    local json="$dir/people.json" base="$dir/base.realm"
    case "$name" in
        "Kura import json" | "Kura import jsonl")
            local input=$json
            [[ "$name" == *jsonl ]] && input="$dir/people.jsonl"
            db="$dir/kura-import.realm"
            new_kura_realm "$db"
            timed /dev/null "$KURA" import "$db" "$input" --type Person
            check_rows "$what" "$db" kura "$rows"
            keep_or_remove "$db" "$base" ;;
        "Kura export")
            ensure_kura_base "$base" "$json" "$rows"
            local output="$dir/kura-export.json"
            rm -f "$output"
            timed /dev/null "$KURA" export "$base" --output "$output"
            check_export "$what" "$output" "${PEOPLE_AT[$size]}"
            # Not kept: at the large size it is the biggest file, and nothing reads it again.
            rm -f "$output" ;;
        "Kura copy" | "Kura copy into empty")
            # Into a new file (written by VACUUM INTO), or into a realm made by `kura init` (the
            # set-based copy), as transfer.sh's rows.
            ensure_kura_base "$base" "$json" "$rows"
            db="$dir/kura-copy.realm"
            remove_db "$db"
            [[ "$name" == *empty ]] && new_kura_realm "$db"
            timed /dev/null "$KURA" copy "$base" "$db"
            check_rows "$what" "$db" kura "$rows"
            remove_db "$db" ;;
        *) echo "error: unknown measurement '$name'" >&2; exit 1 ;;
    esac
}

if ((${#NAMES[@]} == 0)); then
    echo "nothing to measure (ONLY=$ONLY)"
    exit 0
fi
# Without the import rows, the sources of the export and copy rows are made before the first round,
# not between its small and large runs.
if ! wants import; then
    for size in "${SIZES[@]}"; do
        ensure_kura_base "$WORK/$size/base.realm" "$WORK/$size/people.json" "${ROWS_AT[$size]}"
    done
fi
echo "== measuring: ${#NAMES[@]} measurements x 2 sizes x $RUNS rounds ($(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'))"
echo "   kura: $KURA; sqlite3 $("$SQLITE3" --version | cut -d' ' -f1) (for the checks)"
# Times, peak RSS and CPU seconds go to wall.INDEX.SIZE, rss.INDEX.SIZE and cpu.INDEX.SIZE, one line
# per round, so that line r of the two wall files is one round's pair.
# Odd rounds run the small size first and even rounds the large one, so that neither size always
# follows the other (each run finds the files, page cache and memory the run before it left).
for ((run = 1; run <= RUNS; run++)); do
    order=("${SIZES[@]}")
    ((run % 2 == 0)) && order=(large small)
    for index in "${!NAMES[@]}"; do
        for size in "${order[@]}"; do
            bench_run "${NAMES[$index]}" "$size"
            echo "$RUN_WALL" >> "$WORK/wall.$index.$size"
            echo "$RUN_RSS_KIB" >> "$WORK/rss.$index.$size"
            echo "$RUN_CPU" >> "$WORK/cpu.$index.$size"
            printf '   run %d/%d  %-22s %10d  %8.3f s  peak RSS %8.1f MiB\n' "$run" "$RUNS" "${NAMES[$index]}" \
                "${PEOPLE_AT[$size]}" "$RUN_WALL" "$(awk -v k="$RUN_RSS_KIB" 'BEGIN { print k / 1024 }')"
        done
    done
done

# --- the table -------------------------------------------------------------------------------------

# The time limit, LARGE / SMALL x 1.1, as integers over integers so that 200,000 -> 1,000,000 gives
# exactly 5.5 (the verdict below compares the same way).
LIMIT=$(awk -v small="$SMALL" -v large="$LARGE" 'BEGIN { printf "%.2f", large * 11 / (small * 10) }')

echo
echo "== results: small $SMALL, large $LARGE people, median of $RUNS rounds (process wall time; peak RSS in MiB)"
echo "   ratio: median s at large / median s at small; per round: the median of each round's large / small"
echo "   cpu: median user + system s at large / at small (the work, apart from waiting; no verdict)"
echo "   targets: ratio <= $LARGE / $SMALL x 1.1 = $LIMIT; peak RSS <= $RSS_TARGET_MIB MiB at both sizes"
printf '%-22s %9s %9s %7s %9s %6s %9s %9s %6s %6s\n' name "small s" "large s" ratio "per round" cpu "small RSS" "large RSS" time RSS
for index in "${!NAMES[@]}"; do
    small_s=$(median < "$WORK/wall.$index.small")
    large_s=$(median < "$WORK/wall.$index.large")
    round_ratio=$(paste -d ' ' "$WORK/wall.$index.small" "$WORK/wall.$index.large" | awk '$1 > 0 { print $2 / $1 }' | median)
    cpu_ratio=$(awk -v small="$(median < "$WORK/cpu.$index.small")" -v large="$(median < "$WORK/cpu.$index.large")" \
        'BEGIN { printf "%.2f", (small > 0 ? large / small : 0) }')
    line=$(awk -v name="${NAMES[$index]}" -v small_s="$small_s" -v large_s="$large_s" -v round="$round_ratio" -v cpu="$cpu_ratio" \
        -v small_rss="$(median < "$WORK/rss.$index.small")" -v large_rss="$(median < "$WORK/rss.$index.large")" \
        -v small="$SMALL" -v large="$LARGE" -v rss_target="$RSS_TARGET_MIB" 'BEGIN {
        ratio = small_s > 0 ? large_s / small_s : 0
        time_verdict = (small_s > 0 && large_s * small * 10 <= small_s * large * 11) ? "PASS" : "FAIL"
        rss_verdict = (small_rss / 1024 <= rss_target + 0 && large_rss / 1024 <= rss_target + 0) ? "PASS" : "FAIL"
        printf "%-22s %9.3f %9.3f %7.2f %9.2f %6.2f %9.1f %9.1f %6s %6s\n", name, small_s, large_s, ratio, round,
            cpu, small_rss / 1024, large_rss / 1024, time_verdict, rss_verdict
    }')
    echo "$line"
    count_verdicts "$line"
done
print_verdicts

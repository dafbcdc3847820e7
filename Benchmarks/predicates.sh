#!/usr/bin/env bash
# Predicate benchmark: how the time of a query grows with the length of its predicate. Times chains
# of N comparisons joined by OR (`id==0||id==1||…`, short enough for 80,000 of them to fit in the
# 1 MiB a /v1/copy body may hold) against the same N values as one list
# (`id IN {0, 1, …}`, the anchor, which SQLite reads as one lookup table), through `POST /v1/copy` of
# `kura serve` (the request that holds the destination's writer while it runs) and, for the chains
# short enough to be one command-line argument (Linux takes at most 128 KiB), `kura export --where`.
# Prints, per N, the median wall times, OR over IN, and what the chain costs beyond the list per
# term, which stays flat when the cost is linear. Marks each row PASS or FAIL: that cost grew from
# the row before at most 1.25 times as much as the terms did (linear growth with room for this
# machine's drift; a quadratic cost grows twice as much). A FAIL does not
# change the exit status; a failing command or request, or a copy or export of the wrong objects,
# stops the script with status 1.
#
# usage: Benchmarks/predicates.sh [TERMS...]   (default: 5000 10000 20000 40000 80000)
# environment:
#   RUNS               rounds (default 3); each runs every measurement once; the table shows medians
#   PERSONS            people in the source realm (default 500; ids 0 to PERSONS-1, so every chain of
#                      at least PERSONS terms selects them all and the copy does the same work)
#   KURA_BIN           a kura binary to measure instead of building one
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes (a few MB)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TERMS=("$@")
((${#TERMS[@]} > 0)) || TERMS=(5000 10000 20000 40000 80000)
PERSONS=${PERSONS:-500}
for setting in "${TERMS[@]}" "$PERSONS" "$RUNS"; do
    if ! [[ "$setting" =~ ^[1-9][0-9]*$ ]]; then
        echo "usage: $0 [TERMS...]   (TERMS, PERSONS and RUNS positive integers, got '$setting')" >&2
        exit 64
    fi
done
# The longest single argument Linux passes to a program (MAX_ARG_STRLEN), less a margin.
MAX_ARGUMENT=131000
SELECTED=$((PERSONS < ${TERMS[0]} ? PERSONS : ${TERMS[0]}))

find_kura
find_sqlite3
CURL=$(command -v curl || true)
[[ -n "$CURL" ]] || { echo "error: curl is needed (apt-get install curl)" >&2; exit 1; }

make_workdir
SERVER_PID=""
# Stops the server if it still runs, then removes WORK (the EXIT trap of make_workdir, extended).
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2> /dev/null || true
        wait "$SERVER_PID" 2> /dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

echo "== generating $PERSONS people in $WORK"
generate "$PERSONS" jsonl "$WORK/people.jsonl"
ensure_kura_base "$WORK/base.realm" "$WORK/people.jsonl" "$(expected_rows "$WORK/people.jsonl")"
new_kura_realm "$WORK/copy.realm"

# predicate or|in N: the chain of N comparisons, or the list of the same N values, written to
# WORK/where-or-N.txt or WORK/where-in-N.txt, and that file's JSON body for /v1/copy beside it.
write_predicates() {
    python3 - "$WORK" "$1" << 'EOF'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
predicates = {
    "or": "||".join(f"id=={i}" for i in range(n)),
    "in": "id IN {" + ", ".join(str(i) for i in range(n)) + "}",
}
for kind, text in predicates.items():
    with open(f"{work}/where-{kind}-{n}.txt", "w") as out:
        out.write(text)
    body = {"source": "base", "destination": "copy", "type": "Person", "where": text, "mode": "update"}
    with open(f"{work}/copy-{kind}-{n}.json", "w") as out:
        json.dump(body, out)
EOF
}


# copy_once KIND N: POSTs the copy body and stops the script unless it answered 200, having copied
# the selected people (inserted the first time, updated after).
copy_once() {
    timed "$WORK/copy.response" "$CURL" -sS -o "$WORK/copy.body" -w '%{http_code}' \
        -H 'Content-Type: application/json' --data-binary "@$WORK/copy-$1-$2.json" "$BASE_URL/v1/copy"
    local status
    status=$(cat "$WORK/copy.response")
    if [[ "$status" != 200 ]] || ! grep -Eq "\"Person\":\\{\"inserted\":[0-9]+,\"updated\":[0-9]+" "$WORK/copy.body"; then
        echo "error: /v1/copy with $1 of $2 terms answered $status: $(head -c 300 "$WORK/copy.body")" >&2
        exit 1
    fi
    local copied
    copied=$(python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["types"]["Person"]; print(p["inserted"] + p["updated"] + p["unchanged"])' "$WORK/copy.body")
    if [[ "$copied" != "$((PERSONS < $2 ? PERSONS : $2))" ]]; then
        echo "error: /v1/copy with $1 of $2 terms copied $copied people" >&2
        exit 1
    fi
}

# export_once KIND N: `kura export base.realm --type Person --where <predicate>`, checked for the
# selected people.
export_once() {
    timed "$WORK/export.json" "$KURA" export "$WORK/base.realm" --type Person --format jsonl --where "$(cat "$WORK/where-$1-$2.txt")"
    local documents
    documents=$(wc -l < "$WORK/export.json")
    if [[ "$documents" != "$((PERSONS < $2 ? PERSONS : $2))" ]]; then
        echo "error: kura export with $1 of $2 terms wrote $documents people" >&2
        exit 1
    fi
}

for n in "${TERMS[@]}"; do write_predicates "$n"; done
start_kura_server base.realm copy.realm
echo "== $RUNS rounds; each times every chain and list through /v1/copy, and kura export where it fits"
for ((run = 1; run <= RUNS; run++)); do
    for n in "${TERMS[@]}"; do
        for kind in or in; do
            copy_once "$kind" "$n"
            echo "$RUN_WALL" >> "$WORK/copy-$kind-$n.times"
            if (($(file_bytes "$WORK/where-or-$n.txt") <= MAX_ARGUMENT)); then
                export_once "$kind" "$n"
                echo "$RUN_WALL" >> "$WORK/export-$kind-$n.times"
            fi
        done
        printf '   run %d/%d  %6d terms  copy OR %7.3f s  IN %7.3f s\n' "$run" "$RUNS" "$n" \
            "$(tail -n 1 "$WORK/copy-or-$n.times")" "$(tail -n 1 "$WORK/copy-in-$n.times")"
    done
done
stop_kura_server

# table PATH: the rows of one path (copy or export): medians, OR over IN, the chain's cost beyond
# the list's (OR - IN) per term, and how that cost grew from the row before against how the terms
# grew; PASS when it grew at most 1.25 times as much (a quadratic cost grows twice as much), no
# verdict when the row before cost less than 0.25 s beyond the list (too little to tell from noise).
table() {
    local path=$1 n or in extra prev_n="" prev_extra="" growth verdict
    printf '\n%-7s %7s %9s %9s %7s %14s %8s\n' "$path" "terms" "OR (s)" "IN (s)" "OR/IN" "OR-IN µs/term" "growth"
    for n in "${TERMS[@]}"; do
        [[ -s "$WORK/$path-or-$n.times" ]] || { printf '%-7s %7d  (too long for one argument)\n' "" "$n"; continue; }
        or=$(median < "$WORK/$path-or-$n.times")
        in=$(median < "$WORK/$path-in-$n.times")
        extra=$(awk -v a="$or" -v b="$in" 'BEGIN { printf "%.3f", a - b }')
        growth="" verdict=""
        if [[ -n "$prev_extra" ]]; then
            read -r growth verdict < <(awk -v e="$extra" -v p="$prev_extra" -v n="$n" -v pn="$prev_n" 'BEGIN {
                if (p < 0.25) { print "-", "-"; exit }
                g = e / p; printf "%.2f %s\n", g, (g <= 1.25 * n / pn ? "PASS" : "FAIL") }')
        fi
        printf '%-7s %7d %9.3f %9.3f %7.2f %14.2f %8s  %s\n' "" "$n" "$or" "$in" \
            "$(awk -v a="$or" -v b="$in" 'BEGIN { printf "%.2f", a / b }')" \
            "$(awk -v e="$extra" -v n="$n" 'BEGIN { printf "%.2f", e * 1e6 / n }')" "$growth" "$verdict"
        prev_n=$n prev_extra=$extra
    done
}
echo
echo "== medians of $RUNS runs; $PERSONS people, $SELECTED or more selected by every predicate"
table copy
table export

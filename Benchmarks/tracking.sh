#!/usr/bin/env bash
# Change-tracking benchmark: what recording every commit in the change log costs the bulk import.
# Runs `kura import` of the people dataset with two binaries in alternating rounds on one dataset,
# the binary being measured and one built without change tracking, and prints each run, the
# medians of wall and CPU (user + system) time, their ratios, and PASS when the tracking binary's
# median takes at most 1.05x the other's (CPU time decides: on a shared machine the wall time also
# measures the other processes).
# A FAIL does not change the exit status; a failing command or a wrong count of people stops the
# script with status 1.
#
# usage: BEFORE_BIN=PATH Benchmarks/tracking.sh [PERSONS]    (default: $PERSONS, else 200000)
# environment:
#   BEFORE_BIN         a kura binary without change tracking (e.g. built from commit 451d7a4)
#   ROUNDS             alternating rounds (default 7); each round runs both binaries, in turn first
#   KURA_BIN           the kura binary to measure instead of building one
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes (about 500 MB for 200,000 people)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PERSONS=${1:-${PERSONS:-200000}}
ROUNDS=${ROUNDS:-7}
if ! [[ "$PERSONS" =~ ^[1-9][0-9]*$ && "$ROUNDS" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: BEFORE_BIN=PATH $0 [PERSONS]   (PERSONS and ROUNDS positive integers)" >&2
    exit 64
fi
if [[ -z "${BEFORE_BIN:-}" || ! -x "$BEFORE_BIN" ]]; then
    echo "error: BEFORE_BIN must name a kura binary without change tracking" >&2
    exit 64
fi
find_kura
find_sqlite3
make_workdir
JSON="$WORK/people.json"
echo "== generating $PERSONS people in $WORK"
generate "$PERSONS" json "$JSON"

# run_import BINARY: a fresh realm made by BINARY, then BINARY's import timed (into RUN_WALL).
run_import() {
    local db="$WORK/import.realm" people
    remove_db "$db"
    "$1" init "$db" --schema "$SCHEMA" > /dev/null
    timed /dev/null "$1" import "$db" "$JSON" --type Person
    people=$("$SQLITE3" "$db" 'SELECT count(*) FROM "Person"')
    if [[ "$people" != "$PERSONS" ]]; then
        echo "error: $1 stored $people people, expected $PERSONS" >&2
        exit 1
    fi
    remove_db "$db"
}

BEFORE_TIMES=() AFTER_TIMES=() BEFORE_CPU=() AFTER_CPU=()
for ((round = 1; round <= ROUNDS; round++)); do
    # The binary that goes first alternates, so that neither always meets a warm or a cold cache.
    if ((round % 2)); then order=(before after); else order=(after before); fi
    for which in "${order[@]}"; do
        if [[ "$which" == before ]]; then
            run_import "$BEFORE_BIN"
            BEFORE_TIMES+=("$RUN_WALL")
            BEFORE_CPU+=("$RUN_CPU")
        else
            run_import "$KURA"
            AFTER_TIMES+=("$RUN_WALL")
            AFTER_CPU+=("$RUN_CPU")
        fi
        printf '   round %d  %-7s wall %8s s  cpu %6s s\n' "$round" "$which" "$RUN_WALL" "$RUN_CPU"
    done
done
# report NAME BEFORE... -- AFTER...: the medians of one measure and their ratio.
report() {
    local name=$1 before after
    before=$(printf '%s\n' "${@:2:ROUNDS}" | median)
    after=$(printf '%s\n' "${@:ROUNDS+2}" | median)
    RATIO=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.3f", a / b }')
    printf '%-5s without tracking %7.3f s   with tracking %7.3f s   ratio %s\n' "$name" "$before" "$after" "$RATIO"
}
echo
report wall "${BEFORE_TIMES[@]}" "${AFTER_TIMES[@]}"
report cpu "${BEFORE_CPU[@]}" "${AFTER_CPU[@]}"
verdict=$(awk -v r="$RATIO" 'BEGIN { print (r <= 1.05 ? "PASS" : "FAIL") }')
echo "cpu ratio $RATIO (target <= 1.05): $verdict"

#!/usr/bin/env bash
# By hand: PROCESSES `kura import` processes write into one just-inited realm at once (odd ones as one
# transaction each, even ones with --on-error skip in batches of 100), while 4 `kura export` processes
# export the whole realm over and over until the imports end. Each importer brings DOCS people without
# a key (autoIncrement ids drawn concurrently), each with two dogs, their toys, an embedded address, a
# mixed companion and a $ref link to the previous person, plus a club per ten people.
# Checks: every process exits 0 with no "locked"/"busy" on stderr; the realm holds every document,
# with ids 1..PROCESSES*DOCS each once; `kura check` finds nothing; every export shows each writer's
# documents in a number its commits allow; the smallest, a middle and the largest export import into
# fresh realms that `kura check` passes.
# Usage: Scripts/concurrency.sh [PROCESSES] [DOCS]   (default 8 20000; needs bash, awk, sort)
set -euo pipefail

PROCESSES=${1:-8}
DOCS=${2:-20000}
EXPORTERS=4
BATCH=100
# shellcheck source=Scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_release kura
KURA="$BIN/kura"

enter_work concurrency
trap 'echo "FAIL: line $LINENO: $BASH_COMMAND" >&2' ERR

fail() { echo "FAIL: $*" >&2; exit 1; }
now() { date +%s.%N; }

# Documents per writer: its people and one club per ten of them.
PER_WRITER=$((DOCS + DOCS / 10))
echo "== $PROCESSES inputs of $DOCS people and $((DOCS / 10)) clubs each"
for w in $(seq 1 "$PROCESSES"); do
    awk -v w="$w" -v n="$DOCS" 'BEGIN { for (i = 0; i < n; i++) {
        friend = i > 0 ? sprintf(", \"bestFriend\": {\"$ref\": \"p%d\"}", i - 1) : ""
        dogs = ""
        for (d = 0; d < 2; d++) dogs = dogs (d ? ", " : "") sprintf("{\"name\": \"w%d-dog%d-%d\", \"age\": %d, \"citiesVisited\": [\"Oslo\", \"c%d\"], \"favoriteParksByCity\": {\"Oslo\": \"park%d\"}, \"companion\": {\"toy\": \"ball\", \"list\": [%d, %d]}, \"favoriteToy\": {\"name\": \"toy%d-%d\"}}", w, i, d, (i + d) % 15, i, i, i, d, i, d)
        printf "{\"$type\": \"Person\", \"$id\": \"p%d\", \"name\": \"w%d-p%d\", \"address\": {\"city\": \"City %d\", \"street\": \"Street %d\"}, \"dogs\": [%s]%s}\n", i, w, i, w, i, dogs, friend
        if (i % 10 == 9) printf "{\"$type\": \"DogClub\", \"name\": \"w%d-club%d\", \"members\": [{\"$ref\": \"p%d\"}, {\"$ref\": \"p%d\"}]}\n", w, i, i, i - 5
    } }' > "w$w.jsonl"
done

"$KURA" init shared.realm --schema "$REPO_DIR/Samples/schema.yaml" > /dev/null
echo "== $PROCESSES importers and $EXPORTERS looping exporters"
START=$(now)
pids=()
for w in $(seq 1 "$PROCESSES"); do
    options=()
    if (( w % 2 == 0 )); then options=(--on-error skip --batch-size "$BATCH" --rejects "rejects$w.jsonl"); fi
    "$KURA" import shared.realm "w$w.jsonl" "${options[@]}" > "import$w.out" 2> "import$w.err" &
    pids+=($!)
done
touch running
exporters=()
for e in $(seq 1 "$EXPORTERS"); do
    (
        round=0
        while [[ -e running ]]; do
            round=$((round + 1))
            "$KURA" export shared.realm --format jsonl --output "snapshot-$e-$round.jsonl" 2>> "export$e.err" \
                || echo "exit $?" >> "export$e.err"
        done
    ) &
    exporters+=($!)
done
status=0
for w in $(seq 1 "$PROCESSES"); do
    wait "${pids[$((w - 1))]}" || { echo "importer $w exited $?" >&2; status=1; }
done
IMPORTED=$(now)
rm running
for pid in "${exporters[@]}"; do wait "$pid"; done
(( status == 0 )) || fail "an importer failed: $(cat import*.err)"
if grep -qiE "locked|busy" import*.err export*.err; then fail "lock errors: $(grep -hiE "locked|busy" import*.err export*.err | head -n 3)"; fi
if grep -q "^exit" export*.err; then fail "an exporter failed: $(grep -hv '^Exported' export*.err | head -n 3)"; fi
for w in $(seq 1 "$PROCESSES"); do
    grep -q "^Person: $DOCS inserted" "import$w.out" || fail "importer $w: $(cat "import$w.out")"
done
SECONDS_TAKEN=$(awk -v a="$START" -v b="$IMPORTED" 'BEGIN { printf "%.1f", b - a }')
TOTAL=$((PROCESSES * PER_WRITER))
echo "imports: $TOTAL documents ($((PROCESSES * DOCS)) people) in $SECONDS_TAKEN s," \
    "$(awk -v n="$TOTAL" -v s="$SECONDS_TAKEN" 'BEGIN { printf "%d", n / s }') documents/s"

echo "== the realm"
"$KURA" check shared.realm
"$KURA" export shared.realm --type Person --format jsonl --output people.jsonl 2> /dev/null
read -r COUNT FIRST LAST < <(grep -o '^{"id":[0-9]*' people.jsonl | cut -d: -f2 | sort -n | uniq \
    | awk 'NR == 1 { first = $1 } { last = $1; n++ } END { print n, first, last }')
[[ "$COUNT" == $((PROCESSES * DOCS)) && "$FIRST" == 1 && "$LAST" == $((PROCESSES * DOCS)) ]] \
    || fail "$COUNT distinct ids from $FIRST to $LAST"
echo "people: $COUNT, ids 1..$LAST each once"
NAMES=$(grep -o '"name":"w[0-9]*-p[0-9]*"' people.jsonl | sort -u | wc -l)
[[ "$NAMES" == $((PROCESSES * DOCS)) ]] || fail "$NAMES distinct people names"

echo "== the exports taken during the imports"
# Per snapshot: documents per writer (the first name on each line is the top-level document's).
: > sizes
for snapshot in snapshot-*.jsonl; do
    awk -v file="$snapshot" -v per="$PER_WRITER" -v batch="$BATCH" '
        match($0, /"name":"w[0-9]+-/) { w = substr($0, RSTART + 9, RLENGTH - 10); count[w]++; total++ }
        END {
            for (w in count) {
                ok = count[w] == per || (w % 2 == 0 && count[w] % batch == 0)
                if (!ok) { print "FAIL: " file ": writer " w " shows " count[w] " documents" > "/dev/stderr"; exit 1 }
            }
            print total + 0, file
        }' "$snapshot" >> sizes
done
SNAPSHOTS=$(wc -l < sizes)
sort -n sizes -o sizes
echo "$SNAPSHOTS exports, from $(head -n 1 sizes | cut -d' ' -f1) to $(tail -n 1 sizes | cut -d' ' -f1) documents, each a state the writers' commits allow"
CHOSEN=$(awk '$1 > 0' sizes | awk '{ line[NR] = $2 } END { if (NR) print line[1] "\n" line[int((NR + 1) / 2)] "\n" line[NR] }' | sort -u)
for snapshot in $CHOSEN; do
    "$KURA" init "$snapshot.realm" --schema "$REPO_DIR/Samples/schema.yaml" > /dev/null
    "$KURA" import "$snapshot.realm" "$snapshot" > /dev/null || fail "$snapshot does not import"
    expected=$(grep -c '"name":"w' "$snapshot")
    people=$("$KURA" export "$snapshot.realm" --type Person --format jsonl 2> /dev/null | grep -c . || true)
    clubs=$("$KURA" export "$snapshot.realm" --type DogClub --format jsonl 2> /dev/null | grep -c . || true)
    (( people + clubs == expected )) || fail "$snapshot: $expected documents, $people people and $clubs clubs re-imported"
    echo "$snapshot ($expected documents) re-imported: $("$KURA" check "$snapshot.realm")"
done
echo "OK"

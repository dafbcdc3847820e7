#!/usr/bin/env bash
# Query benchmark on PEOPLE generated people (and their dogs), every query counted with
# `kura delete --dry-run` (which runs the query and counts its objects, and writes nothing):
#
# 1. Predicates the language took before aggregates, SUBQUERY and the rest, with this build and,
#    when KURA_BEFORE_BIN names one, an earlier build: after over before, which should stay near 1.
# 2. The newer forms (aggregates, SUBQUERY, key path against key path, map entries, @type, @links,
#    [cd], lists with ALL and NONE, DISTINCT), each against the same count written by hand in SQL for the sqlite3 command line
#    on the same file: kura over sqlite3, marked PASS at 2 or below.
#
# Every count is checked: both builds, and kura and sqlite3, must find the same number of objects,
# or the script stops with status 1. Prints median wall times of RUNS rounds (process start included).
#
# usage: Benchmarks/queries.sh [PEOPLE]   (default 200000)
# environment:
#   RUNS               rounds (default 3)
#   KURA_BIN           a kura binary to measure instead of building one
#   KURA_BEFORE_BIN    an earlier kura binary to compare the first table with
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes (about 1 GB for 200,000 people)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PEOPLE=${1:-200000}
for setting in "$PEOPLE" "$RUNS"; do
    if ! [[ "$setting" =~ ^[1-9][0-9]*$ ]]; then
        echo "usage: $0 [PEOPLE]   (PEOPLE and RUNS positive integers, got '$setting')" >&2
        exit 64
    fi
done

find_kura
find_sqlite3
BEFORE=${KURA_BEFORE_BIN:-}
[[ -z "$BEFORE" || -x "$BEFORE" ]] || { echo "error: KURA_BEFORE_BIN=$BEFORE is not an executable" >&2; exit 1; }
make_workdir

REALM="$WORK/people.realm"
echo "== generating $PEOPLE people in $WORK"
generate "$PEOPLE" jsonl "$WORK/people.jsonl"
ensure_kura_base "$REALM" "$WORK/people.jsonl" "$(expected_rows "$WORK/people.jsonl")"
# Best friends for the comparisons of two key paths: every person but each tenth links to another.
"$SQLITE3" "$REALM" "UPDATE \"Person\" SET \"bestFriend\" = ((\"#id\" * 7919) % $PEOPLE) + 1 WHERE \"#id\" % 10 != 0"

# kura_count BIN TYPE PREDICATE: prints the number of TYPE objects matching PREDICATE.
kura_count() {
    local line
    line=$("$1" delete "$REALM" --type "$2" --where "$3" --dry-run | tail -n 1)
    [[ "$line" =~ ^$2:\ ([0-9]+)\ would\ be\ deleted$ ]] || { echo "error: unexpected output '$line' for $2 where $3" >&2; exit 1; }
    echo "${BASH_REMATCH[1]}"
}

# sqlite_count SQL: prints the number of rows SQL selects.
sqlite_count() {
    "$SQLITE3" "$REALM" "SELECT count(*) FROM ($1)"
}

# seconds COMMAND...: runs COMMAND (its output discarded) and prints its wall time in seconds.
seconds() {
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.3f\n", ns / 1e9 }'
}

echo
echo "== 1. predicates of the earlier language: this build${BEFORE:+ against KURA_BEFORE_BIN}"
OLD=(
    "Dog|age > 10"
    "Dog|color == 'brown' AND age BETWEEN {3, 7}"
    "Dog|name BEGINSWITH[c] 'rex'"
    "Dog|ANY citiesVisited IN {'Tokyo', 'Paris'}"
    "Dog|companion == 2.5"
    "Dog|favoriteToy.name == 'Rope'"
    "Person|address.city == 'Tokyo'"
    "Person|ANY dogs.age > 15"
    "Person|ALL dogs.color == 'brown'"
    "Person|dogs.@count >= 3"
)
printf '%-48s %9s %9s %9s %7s\n' "query" "objects" "after s" "before s" "ratio"
for entry in "${OLD[@]}"; do
    type=${entry%%|*}
    predicate=${entry#*|}
    count=$(kura_count "$KURA" "$type" "$predicate")
    if [[ -n "$BEFORE" ]]; then
        before_count=$(kura_count "$BEFORE" "$type" "$predicate")
        [[ "$count" == "$before_count" ]] || { echo "error: $type where $predicate: $count objects, $before_count before" >&2; exit 1; }
    fi
    after_times=()
    before_times=()
    for _ in $(seq "$RUNS"); do
        after_times+=("$(seconds "$KURA" delete "$REALM" --type "$type" --where "$predicate" --dry-run)")
        [[ -z "$BEFORE" ]] || before_times+=("$(seconds "$BEFORE" delete "$REALM" --type "$type" --where "$predicate" --dry-run)")
    done
    after=$(printf '%s\n' "${after_times[@]}" | median)
    if [[ -n "$BEFORE" ]]; then
        before=$(printf '%s\n' "${before_times[@]}" | median)
        ratio=$(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f", a / b }')
    else
        before="-"
        ratio="-"
    fi
    printf '%-48s %9s %9s %9s %7s\n' "$type: $predicate" "$count" "$after" "$before" "$ratio"
done

echo
echo "== 2. the newer forms against the same count by hand in SQL (sqlite3)"
# Each entry: type | predicate | SQL selecting the same objects.
DOGS_OF='"Person.dogs" AS e JOIN "Dog" AS d ON d."#id" = e."#value" WHERE e."#owner" = p."#id"'
NEW=(
    "Person|dogs.@sum.age > 20|SELECT p.\"#id\" FROM \"Person\" AS p WHERE (SELECT coalesce(sum(d.\"age\"), 0) FROM $DOGS_OF) > 20"
    "Person|dogs.@avg.age >= 10|SELECT p.\"#id\" FROM \"Person\" AS p WHERE (SELECT avg(d.\"age\") FROM $DOGS_OF) >= 10"
    "Person|SUBQUERY(dogs, \$d, \$d.age > 10 AND \$d.color == 'brown').@count >= 1|SELECT p.\"#id\" FROM \"Person\" AS p WHERE (SELECT count(*) FROM $DOGS_OF AND d.\"age\" > 10 AND d.\"color\" = 'brown') >= 1"
    "Person|address.city == bestFriend.address.city|SELECT p.\"#id\" FROM \"Person\" AS p JOIN \"Address\" AS a ON a.\"#id\" = p.\"address\" JOIN \"Person\" AS f ON f.\"#id\" = p.\"bestFriend\" JOIN \"Address\" AS b ON b.\"#id\" = f.\"address\" WHERE a.\"city\" = b.\"city\""
    "Person|name ==[cd] 'person 4242'|SELECT \"#id\" FROM \"Person\" WHERE lower(\"name\") = 'person 4242'"
    "Dog|ANY citiesVisited == currentCity|SELECT d.\"#id\" FROM \"Dog\" AS d WHERE EXISTS (SELECT 1 FROM \"Dog.citiesVisited\" AS c WHERE c.\"#owner\" = d.\"#id\" AND c.\"#value\" = d.\"currentCity\")"
    "Dog|favoriteParksByCity['Tokyo'] BEGINSWITH 'Tokyo Park 1'|SELECT d.\"#id\" FROM \"Dog\" AS d WHERE (SELECT m.\"#value\" FROM \"Dog.favoriteParksByCity\" AS m WHERE m.\"#owner\" = d.\"#id\" AND m.\"#key\" = 'Tokyo') LIKE 'Tokyo Park 1%'"
    "Dog|companion.@type == 'string'|SELECT \"#id\" FROM \"Dog\" WHERE \"companion#type\" = 5"
    "Dog|@links.Person.dogs.@count == 0|SELECT d.\"#id\" FROM \"Dog\" AS d WHERE NOT EXISTS (SELECT 1 FROM \"Person.dogs\" AS e WHERE e.\"#value\" = d.\"#id\")"
    "Dog|ANY citiesVisited BEGINSWITH ANY {'To', 'Pa'}|SELECT d.\"#id\" FROM \"Dog\" AS d WHERE EXISTS (SELECT 1 FROM \"Dog.citiesVisited\" AS c WHERE c.\"#owner\" = d.\"#id\" AND (c.\"#value\" GLOB 'To*' OR c.\"#value\" GLOB 'Pa*'))"
    "Person|ALL dogs.age > ANY {5, 10}|SELECT p.\"#id\" FROM \"Person\" AS p WHERE NOT EXISTS (SELECT 1 FROM $DOGS_OF AND d.\"age\" <= 5)"
    "Person|ANY dogs.age == NONE {1, 2, 3}|SELECT p.\"#id\" FROM \"Person\" AS p WHERE EXISTS (SELECT 1 FROM $DOGS_OF AND d.\"age\" NOT IN (1, 2, 3))"
    "Dog|age > 10 SORT(age DESC) DISTINCT(color)|SELECT \"#id\" FROM (SELECT \"#id\", row_number() OVER (PARTITION BY \"color\" ORDER BY \"age\" DESC, \"#id\") AS n FROM \"Dog\" WHERE \"age\" > 10) WHERE n = 1"
)
printf '%-64s %9s %9s %9s %7s\n' "query" "objects" "kura s" "sqlite3 s" "ratio"
for entry in "${NEW[@]}"; do
    IFS='|' read -r type predicate sql <<< "$entry"
    count=$(kura_count "$KURA" "$type" "$predicate")
    expected=$(sqlite_count "$sql")
    [[ "$count" == "$expected" ]] || { echo "error: $type where $predicate: kura counts $count, the SQL $expected" >&2; exit 1; }
    kura_times=()
    sqlite_times=()
    for _ in $(seq "$RUNS"); do
        kura_times+=("$(seconds "$KURA" delete "$REALM" --type "$type" --where "$predicate" --dry-run)")
        sqlite_times+=("$(seconds sqlite_count "$sql")")
    done
    kura=$(printf '%s\n' "${kura_times[@]}" | median)
    anchor=$(printf '%s\n' "${sqlite_times[@]}" | median)
    ratio=$(awk -v a="$kura" -v b="$anchor" 'BEGIN { printf "%.2f", a / b }')
    verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 2 ? "PASS" : "FAIL") }')
    printf '%-64s %9s %9s %9s %7s %s\n' "$type: $predicate" "$count" "$kura" "$anchor" "$ratio" "$verdict"
done

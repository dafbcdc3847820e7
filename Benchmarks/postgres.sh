#!/usr/bin/env bash
# PostgreSQL benchmark: Kura on a PostgreSQL realm against PostgreSQL's own tools, on the people
# dataset, in one run. Times `kura import` into a realm made by `kura init` against `psql \copy` of
# the same rows already flattened into the realm's tables (dumped from Kura's import, untimed) and
# against pgloader moving the SQLite realm of the same people into PostgreSQL; times `kura export`
# against a `psql` `COPY (SELECT json_build_object(...)) TO STDOUT` of the same documents; measures
# keyed GETs through `kura serve` on the realm with one server and with two (wrk, random keys).
# Prints medians, ratios, peak RSS and PASS or FAIL against the targets: import <= 1.5 x psql \copy
# and faster than pgloader, export <= 1.5 x psql COPY. A FAIL does not change the exit status; a
# failing command or a wrong count of stored objects stops the script with status 1.
#
# usage: Benchmarks/postgres.sh [PERSONS]      (default: $PERSONS, else 200000)
# environment:
#   RUNS               runs per measurement (default 3); the table shows medians
#   KURA_POSTGRES_URL  a PostgreSQL server to use (a superuser's URL without a password; the
#                      password from PGPASSWORD or PGPASSFILE); when unset, a throwaway cluster is
#                      started with .ci/postgres and stopped at the end
#   WRK_SECONDS        how long each wrk measurement lasts (default 5)
#   WRK_CONNECTIONS    wrk's open connections in all (default 16)
#   KURA_BIN           a kura binary to measure instead of building one
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PERSONS=${1:-${PERSONS:-200000}}
WRK_SECONDS=${WRK_SECONDS:-5}
WRK_CONNECTIONS=${WRK_CONNECTIONS:-16}
require_counts "PERSONS=$PERSONS" "WRK_SECONDS=$WRK_SECONDS" "WRK_CONNECTIONS=$WRK_CONNECTIONS" "RUNS=$RUNS"
IMPORT_TARGET=1.5
EXPORT_TARGET=1.5

# --- tools and the server --------------------------------------------------------------------------

install_missing() {
    local command=$1 package=$2
    command -v "$command" > /dev/null && return 0
    echo "== $command is missing: apt-get install $package"
    (apt-get install -y -qq "$package" || { apt-get update -qq && apt-get install -y -qq "$package"; }) > /dev/null 2>&1 || true
    command -v "$command" > /dev/null || { echo "error: $command is needed (apt-get install $package)" >&2; exit 1; }
}
install_missing psql postgresql-client
install_missing pgloader pgloader
install_missing wrk wrk
find_kura
find_sqlite3

make_workdir
CLUSTER=""
if [[ -z "${KURA_POSTGRES_URL:-}" ]]; then
    echo "== starting a throwaway PostgreSQL cluster (.ci/postgres)"
    eval "$("$REPO_DIR/.ci/postgres" start)"
    CLUSTER=$KURA_POSTGRES_CLUSTER
fi
cleanup() {
    [[ -n "${SERVER_PIDS:-}" ]] && kill $SERVER_PIDS 2> /dev/null || true
    [[ -n "$CLUSTER" ]] && "$REPO_DIR/.ci/postgres" stop "$CLUSTER"
    rm -rf "$WORK"
}
trap cleanup EXIT
SERVER_URL=${KURA_POSTGRES_URL%%\?*}

# The password for pgloader, which reads neither PGPASSFILE nor ~/.pgpass: from PGPASSWORD, or
# from the password file's line for this server.
if [[ -z "${PGPASSWORD:-}" ]]; then
    host_port=${SERVER_URL#*@}
    host_port=${host_port%%/*}
    PGPASSWORD=$(awk -F: -v host="${host_port%%:*}" -v port="${host_port##*:}" \
        '($1 == host || $1 == "*") && ($2 == port || $2 == "*") { print $5; exit }' "${PGPASSFILE:-$HOME/.pgpass}" 2> /dev/null || true)
    export PGPASSWORD
fi

sql() {
    psql "$SERVER_URL" -X -q -A -t -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "$1"
}
realm_url() {
    echo "$SERVER_URL?schema=$1"
}
drop_schema() {
    sql "DROP SCHEMA IF EXISTS \"$1\" CASCADE" > /dev/null
}

# The objects a schema must hold after any import of the people: persons, dogs, list entries.
EXPECTED=""
count_stored() {
    sql "SELECT (SELECT count(*) FROM \"$1\".\"Person\") || '|' || (SELECT count(*) FROM \"$1\".\"Dog\") || '|' || (SELECT count(*) FROM \"$1\".\"Person.dogs\")"
}
check_stored() {
    local found
    found=$(count_stored "$2")
    [[ "$found" == "$EXPECTED" ]] || { echo "error: $1 stored persons|dogs|list entries = $found, expected $EXPECTED" >&2; exit 1; }
}

# --- data ------------------------------------------------------------------------------------------

JSON="$WORK/people.json"
echo "== generating $PERSONS people in $WORK"
generate "$PERSONS" json "$JSON"
printf '   people.json %12d bytes\n' "$(file_bytes "$JSON")"
EXPECTED=$(python3 -c '
import json, sys
people = json.load(open(sys.argv[1], encoding="utf-8"))
dogs = sum(len(p.get("dogs") or []) for p in people)
print(f"{len(people)}|{dogs}|{dogs}")' "$JSON")
echo "   expected persons|dogs|list entries: $EXPECTED"

# The base realm, imported once (untimed): the source of the export, the GETs and the flattened rows.
BASE=kura_bench_base
drop_schema "$BASE"
"$KURA" init "$(realm_url $BASE)" --schema "$SCHEMA" > /dev/null
"$KURA" import "$(realm_url $BASE)" "$JSON" --type Person > /dev/null
check_stored "the base import" "$BASE"

# The flattened rows: every object and collection table of the base realm as COPY text, without the
# sets' "#row" (which the table numbers itself), and the psql script that loads them in one
# transaction.
COPY_SCRIPT="$WORK/copy.psql"
echo "BEGIN;" > "$COPY_SCRIPT"
while IFS='|' read -r table columns; do
    file="$WORK/rows.$(printf '%s' "$table" | md5sum | cut -c1-12).txt"
    psql "$SERVER_URL" -X -q -v ON_ERROR_STOP=1 -c "\\copy \"$BASE\".\"$table\" ($columns) TO '$file'"
    echo "\\copy \"$table\" ($columns) FROM '$file'" >> "$COPY_SCRIPT"
done < <(sql "SELECT c.table_name, string_agg(quote_ident(c.column_name), ', ' ORDER BY c.ordinal_position)
    FROM information_schema.columns AS c WHERE c.table_schema = '$BASE' AND c.column_name <> '#row'
    AND (c.table_name NOT LIKE '#%' OR c.table_name = '#mixed') GROUP BY c.table_name ORDER BY c.table_name")
echo "COMMIT;" >> "$COPY_SCRIPT"

# The SQLite realm pgloader moves, imported by kura (untimed), and pgloader's command: data only
# (pgloader cannot quote the "#id" of Kura's primary keys in the indexes it makes), SQLite's
# untyped columns as text.
SQLITE_REALM="$WORK/people.realm"
"$KURA" init "$SQLITE_REALM" --schema "$SCHEMA" > /dev/null
"$KURA" import "$SQLITE_REALM" "$JSON" --type Person > /dev/null
cat > "$WORK/load.pgloader" << EOF
LOAD DATABASE
    FROM sqlite://$SQLITE_REALM
    INTO ${SERVER_URL/#postgres:\/\//postgresql://}
    WITH include drop, create tables, create no indexes, quote identifiers
    SET search_path to 'kura_bench_pgloader'
    CAST type any to text drop typemod;
EOF

# The export anchor: the same documents as `kura export` writes, built by PostgreSQL's JSON functions
# from the realm's tables (text is UTF-8 in bytea; the companion is a mixed value by its tag).
cat > "$WORK/export.sql" << 'EOF'
COPY (
SELECT json_build_object(
    '$type', 'Person',
    'id', p."id",
    'name', convert_from(p."name", 'UTF8'),
    'dogs', coalesce((
        SELECT json_agg(json_build_object(
            'name', convert_from(d."name", 'UTF8'),
            'age', d."age",
            'color', convert_from(d."color", 'UTF8'),
            'currentCity', convert_from(d."currentCity", 'UTF8'),
            'citiesVisited', coalesce((SELECT json_agg(convert_from(c."#value", 'UTF8') ORDER BY c."#row")
                FROM "Dog.citiesVisited" AS c WHERE c."#owner" = d."#id"), '[]'),
            'favoriteParksByCity', coalesce((SELECT json_object_agg(convert_from(m."#key", 'UTF8'), convert_from(m."#value", 'UTF8') ORDER BY m."#key")
                FROM "Dog.favoriteParksByCity" AS m WHERE m."#owner" = d."#id"), '{}'),
            'companion', CASE d."companion#type"
                WHEN 1 THEN to_json(convert_from(d."companion", 'UTF8') = '1')
                WHEN 2 THEN convert_from(d."companion", 'UTF8')::json
                WHEN 4 THEN convert_from(d."companion", 'UTF8')::json
                WHEN 5 THEN to_json(convert_from(d."companion", 'UTF8'))
                ELSE 'null'::json END,
            'favoriteToy', (SELECT json_build_object('name', convert_from(t."name", 'UTF8')) FROM "DogToy" AS t WHERE t."#id" = d."favoriteToy")
        ) ORDER BY l."#pos")
        FROM "Person.dogs" AS l JOIN "Dog" AS d ON d."#id" = l."#value" WHERE l."#owner" = p."#id"), '[]'),
    'address', (SELECT json_build_object('street', convert_from(a."street", 'UTF8'), 'city', convert_from(a."city", 'UTF8'),
        'country', convert_from(a."country", 'UTF8'), 'postalCode', convert_from(a."postalCode", 'UTF8'))
        FROM "Address" AS a WHERE a."#id" = p."address"),
    'bestFriend', (SELECT b."id" FROM "Person" AS b WHERE b."#id" = p."bestFriend"),
    'createdAt', json_build_object('$date', to_char(to_timestamp(p."createdAt" / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
) FROM "Person" AS p ORDER BY p."#id"
) TO STDOUT;
EOF

# --- the timed runs --------------------------------------------------------------------------------

NAMES=("Kura import" "psql \\copy flattened" "pgloader SQLite realm" "Kura export" "psql COPY json_build_object")
bench_run() {
    case "$1" in
        "Kura import")
            drop_schema kura_bench_import
            "$KURA" init "$(realm_url kura_bench_import)" --schema "$SCHEMA" > /dev/null
            timed /dev/null "$KURA" import "$(realm_url kura_bench_import)" "$JSON" --type Person
            check_stored "$1" kura_bench_import
            drop_schema kura_bench_import ;;
        "psql \\copy flattened")
            drop_schema kura_bench_copy
            "$KURA" init "$(realm_url kura_bench_copy)" --schema "$SCHEMA" > /dev/null
            timed /dev/null env PGOPTIONS="-c search_path=kura_bench_copy" psql "$SERVER_URL" -X -q -v ON_ERROR_STOP=1 -f "$COPY_SCRIPT"
            check_stored "$1" kura_bench_copy
            drop_schema kura_bench_copy ;;
        "pgloader SQLite realm")
            drop_schema kura_bench_pgloader
            sql 'CREATE SCHEMA kura_bench_pgloader'
            timed /dev/null pgloader --quiet --on-error-stop "$WORK/load.pgloader"
            check_stored "$1" kura_bench_pgloader
            drop_schema kura_bench_pgloader ;;
        "Kura export")
            rm -f "$WORK/kura-export.json"
            timed /dev/null "$KURA" export "$(realm_url $BASE)" --output "$WORK/kura-export.json"
            check_export "$1" "$WORK/kura-export.json" "$PERSONS" ;;
        "psql COPY json_build_object")
            timed "$WORK/anchor-export.json" env PGOPTIONS="-c search_path=$BASE" psql "$SERVER_URL" -X -q -v ON_ERROR_STOP=1 -f "$WORK/export.sql"
            local lines
            lines=$(wc -l < "$WORK/anchor-export.json")
            ((lines == PERSONS)) || { echo "error: $1 wrote $lines documents, expected $PERSONS" >&2; exit 1; } ;;
    esac
}

echo "== measuring: ${#NAMES[@]} measurements x $RUNS runs ($(nproc) cores), then keyed GETs"
echo "   kura: $KURA; $(psql --version); $(pgloader --version 2>&1 | sed -n 1p)"
for ((run = 1; run <= RUNS; run++)); do
    for index in "${!NAMES[@]}"; do
        bench_run "${NAMES[$index]}"
        echo "$RUN_WALL" >> "$WORK/wall.$index"
        echo "$RUN_RSS_KIB" >> "$WORK/rss.$index"
        printf '   run %d/%d  %-30s %8.3f s  peak RSS %8.1f MiB\n' \
            "$run" "$RUNS" "${NAMES[$index]}" "$RUN_WALL" "$(awk -v k="$RUN_RSS_KIB" 'BEGIN { print k / 1024 }')"
    done
done

# --- keyed GETs: one server, then two over the same realm ------------------------------------------

cat > "$WORK/keys.lua" << EOF
request = function()
    return wrk.format("GET", "/v1/realms/$BASE/objects/Person/" .. math.random(1, $PERSONS))
end
EOF
SERVER_PIDS=""
start_server() {
    start_kura_server "$(realm_url $BASE)"
    SERVER_PIDS="$SERVER_PIDS $SERVER_PID"
}
# wrk_rps CONNECTIONS URL OUTPUT: runs wrk, checks that no request failed, prints requests per second.
wrk_rps() {
    wrk -t 1 -c "$1" -d "${WRK_SECONDS}s" -s "$WORK/keys.lua" "$2" > "$3"
    if grep -q 'Non-2xx\|Socket errors' "$3"; then
        echo "error: wrk saw failed requests:" >&2
        cat "$3" >&2
        exit 1
    fi
    awk '/^Requests\/sec:/ { print $2 }' "$3"
}
start_server
FIRST_URL=$BASE_URL
start_server
SECOND_URL=$BASE_URL
half=$(((WRK_CONNECTIONS + 1) / 2))
for ((run = 1; run <= RUNS; run++)); do
    one=$(wrk_rps "$WRK_CONNECTIONS" "$FIRST_URL" "$WORK/wrk-one.txt")
    wrk_rps "$half" "$FIRST_URL" "$WORK/wrk-a.txt" > "$WORK/rps-a" &
    first_pid=$!
    wrk_rps "$half" "$SECOND_URL" "$WORK/wrk-b.txt" > "$WORK/rps-b"
    wait "$first_pid"
    two=$(awk -v a="$(cat "$WORK/rps-a")" -v b="$(cat "$WORK/rps-b")" 'BEGIN { printf "%.1f", a + b }')
    echo "$one" >> "$WORK/gets.one"
    echo "$two" >> "$WORK/gets.two"
    printf '   run %d/%d  keyed GETs  one server %9.0f/s   two servers %9.0f/s\n' "$run" "$RUNS" "$one" "$two"
done

# --- the table -------------------------------------------------------------------------------------

median_of() { median < "$WORK/wall.$1"; }
import_ref=$(median_of 1)
pgloader_s=$(median_of 2)
export_ref=$(median_of 4)
echo
echo "== results: $PERSONS people, median of $RUNS runs (process wall time; peak RSS in MiB)"
echo "   targets: import <= $IMPORT_TARGET x psql \\copy and below pgloader; export <= $EXPORT_TARGET x psql COPY json_build_object"
printf '%-30s %9s %9s %12s %8s\n' name "median s" "RSS MiB" "x anchor" verdict
for index in "${!NAMES[@]}"; do
    seconds=$(median_of "$index")
    rss=$(median < "$WORK/rss.$index")
    ratio="-" verdict="-"
    case $index in
        0)
            ratio=$(awk -v s="$seconds" -v r="$import_ref" 'BEGIN { printf "%.2f", s / r }')
            verdict=$(awk -v s="$seconds" -v r="$import_ref" -v p="$pgloader_s" -v t="$IMPORT_TARGET" \
                'BEGIN { print (s / r <= t && s < p) ? "PASS" : "FAIL" }') ;;
        2) ratio=$(awk -v s="$seconds" -v r="$import_ref" 'BEGIN { printf "%.2f", s / r }') ;;
        3)
            ratio=$(awk -v s="$seconds" -v r="$export_ref" 'BEGIN { printf "%.2f", s / r }')
            verdict=$(awk -v s="$seconds" -v r="$export_ref" -v t="$EXPORT_TARGET" 'BEGIN { print (s / r <= t) ? "PASS" : "FAIL" }') ;;
    esac
    line=$(printf '%-30s %9.3f %9.1f %12s %8s' "${NAMES[$index]}" "$seconds" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" "$ratio" "$verdict")
    echo "$line"
    count_verdicts "$line"
done
echo "   x anchor: Kura import and pgloader against psql \\copy; Kura export against psql COPY"
echo "   Kura import against pgloader: $(awk -v s="$(median_of 0)" -v p="$pgloader_s" 'BEGIN { printf "%.2f", s / p }') x"
one=$(median < "$WORK/gets.one")
two=$(median < "$WORK/gets.two")
printf '%-30s %9.0f/s\n%-30s %9.0f/s  (%.2f x one server)\n' "keyed GETs, one server" "$one" "keyed GETs, two servers" "$two" \
    "$(awk -v a="$two" -v b="$one" 'BEGIN { print a / b }')"
print_verdicts

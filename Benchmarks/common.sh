# shellcheck shell=bash disable=SC2034 # sourced; the variables it sets are read by the scripts
# Shared by parse-and-map.sh, memory-flat.sh, transfer.sh and growth.sh (sourced, not run): building
# the probe or kura, a temporary work directory, generating the people dataset, and running a command
# under a peak-RSS meter; for transfer.sh and growth.sh also the parts to run, timed runs of kura,
# and the checks of what a run stored or wrote.

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
# "WALL_SECONDS PEAK_RSS_KIB USER_SECONDS SYSTEM_SECONDS" to the first, like
# /usr/bin/time -f '%e %M %U %S' -o FILE.
RUSAGE_WRAPPER='
import resource, subprocess, sys, time
start = time.perf_counter()
status = subprocess.call(sys.argv[2:])
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # peak RSS in KiB on Linux
with open(sys.argv[1], "w") as out:
    out.write(f"{wall:.2f} {usage.ru_maxrss} {usage.ru_utime:.2f} {usage.ru_stime:.2f}\n")
sys.exit(status)
'

# measure COMMAND...: runs COMMAND once and sets RUN_WALL (process wall seconds), RUN_RSS_KIB (peak
# resident set), and, from the command's "key=value ..." line, RUN_SECONDS, RUN_DOCUMENTS, RUN_ERRORS
# and RUN_BYTES. Stops the script if the command fails.
measure() {
    local timing="$WORK/timing.txt" output="$WORK/output.txt" errors="$WORK/stderr.txt"
    local status=0
    if [[ -x /usr/bin/time ]]; then
        /usr/bin/time -f '%e %M %U %S' -o "$timing" "$@" > "$output" 2> "$errors" || status=$?
    else
        python3 -c "$RUSAGE_WRAPPER" "$timing" "$@" > "$output" 2> "$errors" || status=$?
    fi
    if (( status != 0 )); then
        echo "error: '$*' failed with status $status:" >&2
        cat "$errors" >&2
        exit 1
    fi
    read -r RUN_WALL RUN_RSS_KIB _ < <(tail -n 1 "$timing")
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

# --- for transfer.sh and growth.sh: kura's commands on real realm files -----------------------------

# The project's target for kura's peak resident set, at every size.
RSS_TARGET_MIB=64

# Sets ONLY to the parts to run (import, export, copy, comma-separated; all three when unset) and
# stops the script with status 64 if it names anything else.
check_only() {
    ONLY=${ONLY:-import,export,copy}
    local part
    for part in ${ONLY//,/ }; do
        case "$part" in
            import | export | copy) ;;
            *) echo "error: ONLY takes import, export and copy, comma-separated (got '$ONLY')" >&2; exit 64 ;;
        esac
    done
}

# wants PART: whether ONLY includes PART.
wants() {
    [[ ",$ONLY," == *",$1,"* ]]
}

# Sets KURA: KURA_BIN when given, else kura built in release (see build_product).
find_kura() {
    if [[ -n "${KURA_BIN:-}" ]]; then
        KURA=$KURA_BIN
        [[ -x "$KURA" ]] || { echo "error: KURA_BIN=$KURA is not an executable" >&2; exit 1; }
        # Made absolute: the server is started from inside the temporary folder.
        KURA=$(cd "$(dirname "$KURA")" && pwd)/$(basename "$KURA")
        echo "== using KURA_BIN=$KURA"
    else
        build_product kura
        KURA=$BUILT_BIN
    fi
}

# Sets SQLITE3 to the sqlite3 command line, which counts the rows of the realms, or stops the script.
find_sqlite3() {
    SQLITE3=/usr/bin/sqlite3
    [[ -x "$SQLITE3" ]] || SQLITE3=$(command -v sqlite3 || true)
    [[ -n "$SQLITE3" ]] || { echo "error: the sqlite3 command line is needed (apt-get install sqlite3)" >&2; exit 1; }
}

# expected_rows JSONL: what every normalized import of the people in the JSON Lines file JSONL must
# store, counted by python: persons, addresses, dogs, toys, list entries (Person.dogs), cities
# (Dog.citiesVisited) and parks (Dog.favoriteParksByCity), printed as count_rows prints them.
expected_rows() {
    python3 -c '
import json, sys
counts = [0] * 7
for line in open(sys.argv[1], encoding="utf-8"):
    person = json.loads(line)
    counts[0] += 1
    counts[1] += person.get("address") is not None
    for dog in person.get("dogs", []):
        counts[2] += 1
        counts[3] += dog.get("favoriteToy") is not None
        counts[4] += 1
        counts[5] += len(set(dog.get("citiesVisited", [])))
        counts[6] += len(dog.get("favoriteParksByCity", {}))
print("|".join(map(str, counts)))' "$1"
}

# count_rows DB kura|anchor: the same seven counts in a Kura realm or in normalized.sql's tables.
count_rows() {
    local tables
    if [[ "$2" == kura ]]; then
        tables=('"Person"' '"Address"' '"Dog"' '"DogToy"' '"Person.dogs"' '"Dog.citiesVisited"' '"Dog.favoriteParksByCity"')
    else
        tables=(person address dog dog_toy person_dogs dog_cities dog_parks)
    fi
    local sql="SELECT" separator=" " table
    for table in "${tables[@]}"; do
        sql+="$separator(SELECT count(*) FROM $table)"
        separator=", "
    done
    "$SQLITE3" "$1" "$sql"
}

# check_rows WHAT DB kura|anchor EXPECTED: stops the script unless DB holds the rows EXPECTED (as
# expected_rows prints them).
check_rows() {
    local got
    got=$(count_rows "$2" "$3")
    if [[ "$got" != "$4" ]]; then
        echo "error: $1: expected rows $4, found $got in $2" >&2
        exit 1
    fi
}

# check_export WHAT FILE PERSONS: stops the script unless FILE holds one Person document per person.
check_export() {
    local documents
    # shellcheck disable=SC2016 # a literal $type
    documents=$(grep -c -F '"$type":"Person"' "$2" || true)
    if [[ ! -s "$2" || "$documents" != "$3" ]]; then
        echo "error: $1: expected $3 Person documents in $2, found ${documents:-none}" >&2
        exit 1
    fi
}

# remove_db PATH: a SQLite file with its -wal and -shm.
remove_db() {
    rm -f "$1" "$1-wal" "$1-shm"
}

# keep_or_remove DB BASE: the first imported DB becomes BASE; later ones are deleted.
keep_or_remove() {
    if [[ -e "$2" ]]; then
        remove_db "$1"
    else
        local suffix
        for suffix in "" -wal -shm; do
            [[ -e "$1$suffix" ]] && mv "$1$suffix" "$2$suffix"
        done
        return 0
    fi
}

# new_kura_realm DB: an empty realm of the people schema, made by kura init.
new_kura_realm() {
    remove_db "$1"
    "$KURA" init "$1" --schema "$SCHEMA" > /dev/null
}

# ensure_kura_base BASE JSON EXPECTED: when no import run has left BASE (the source of the export and
# copy runs), imports JSON into it with kura (not timed) and checks it holds EXPECTED rows.
ensure_kura_base() {
    if [[ ! -e "$1" ]]; then
        echo "   (preparing $1: kura import, not timed)"
        new_kura_realm "$1"
        "$KURA" import "$1" "$2" --type Person > /dev/null
        check_rows "Kura base realm" "$1" kura "$3"
    fi
}

# timed OUTPUT COMMAND...: runs COMMAND once, its standard output to OUTPUT, and sets RUN_WALL
# (wall seconds, from the clock around it: /usr/bin/time only has hundredths), RUN_RSS_KIB (peak
# resident set, from /usr/bin/time) and RUN_CPU (user plus system seconds, in hundredths). Stops the
# script if the command fails. Dirty pages left by the runs before are written out first (untimed),
# so no run pays for another's writes to disk.
timed() {
    local output=$1 timing="$WORK/timing.txt" errors="$WORK/stderr.txt" status=0 start end
    shift
    sync
    start=$(date +%s%N)
    if [[ -x /usr/bin/time ]]; then
        /usr/bin/time -f '%e %M %U %S' -o "$timing" "$@" > "$output" 2> "$errors" || status=$?
    else
        python3 -c "$RUSAGE_WRAPPER" "$timing" "$@" > "$output" 2> "$errors" || status=$?
    fi
    end=$(date +%s%N)
    if ((status != 0)); then
        echo "error: '$*' failed with status $status:" >&2
        tail -n 20 "$errors" >&2
        exit 1
    fi
    local user system
    read -r _ RUN_RSS_KIB user system < <(tail -n 1 "$timing")
    RUN_CPU=$(awk -v user_s="$user" -v system_s="$system" 'BEGIN { printf "%.2f", user_s + system_s }')
    RUN_WALL=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.3f", ns / 1e9 }')
}

# The PASS and FAIL words of the table lines given to count_verdicts so far.
PASSES=0 FAILS=0

# count_verdicts LINE: adds the PASS and FAIL words of LINE to PASSES and FAILS.
count_verdicts() {
    local word
    for word in $1; do
        case "$word" in
            PASS) PASSES=$((PASSES + 1)) ;;
            FAIL) FAILS=$((FAILS + 1)) ;;
        esac
    done
}

# Prints the tally of the verdicts counted.
print_verdicts() {
    echo "Kura verdicts: $PASSES PASS, $FAILS FAIL (a FAIL does not change the exit status)"
}

# start_kura_server ARGUMENTS...: runs `kura serve ARGUMENTS --port 0` in WORK (its log appended to
# WORK/serve.log) and sets SERVER_PID and BASE_URL once it listens; stops the script if it does not.
start_kura_server() {
    local out="$WORK/serve-$RANDOM.out" waited
    (cd "$WORK" && exec "$KURA" serve "$@" --port 0 > "$out" 2>> "$WORK/serve.log") &
    SERVER_PID=$!
    for ((waited = 0; waited < 400; waited++)); do
        if grep -q 'on http://127.0.0.1:[0-9]*$' "$out" 2> /dev/null; then
            BASE_URL=$(grep -o 'http://127.0.0.1:[0-9]*' "$out" | head -n 1)
            return 0
        fi
        kill -0 "$SERVER_PID" 2> /dev/null || break
        sleep 0.05
    done
    echo "error: kura serve did not start:" >&2
    tail -n 20 "$WORK/serve.log" >&2
    exit 1
}

# stop_kura_server: SIGTERM to SERVER_PID, then clears it; stops the script unless the server exits 0.
stop_kura_server() {
    local status=0
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" || status=$?
    SERVER_PID=""
    ((status == 0)) || { echo "error: kura serve exited with status $status" >&2; exit 1; }
}

# --- for the scripts that serve: their settings, the server's memory and the verdicts ----------------

# require_counts NAME=VALUE...: stops the script with status 64 unless every VALUE is a positive
# integer.
require_counts() {
    local setting
    for setting in "$@"; do
        if ! [[ "${setting#*=}" =~ ^[1-9][0-9]*$ ]]; then
            echo "usage: $0 [PERSONS]   (${setting%%=*} must be a positive integer, got '${setting#*=}')" >&2
            exit 64
        fi
    done
}

# peak_kib PID: the process's peak resident set in KiB (VmHWM).
peak_kib() {
    awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"
}

# mib KIB: KIB in MiB, one decimal.
mib() {
    awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'
}

# verdict OK: PASS when OK is 1, else FAIL.
verdict() {
    if [[ "$1" == 1 ]]; then echo PASS; else echo FAIL; fi
}

# make_workdir_with_servers: make_workdir, and an EXIT trap that also stops every server that
# start_server started and did not stop.
make_workdir_with_servers() {
    make_workdir
    SERVER_PIDS=()
    trap stop_servers_and_clean EXIT
}

stop_servers_and_clean() {
    local pid
    for pid in "${SERVER_PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done
    for pid in "${SERVER_PIDS[@]}"; do wait "$pid" 2> /dev/null || true; done
    rm -rf "$WORK"
}

# start_server ARGUMENTS...: `start_kura_server`, the server stopped at exit.
start_server() {
    start_kura_server "$@"
    SERVER_PIDS+=("$SERVER_PID")
}

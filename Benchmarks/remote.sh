#!/usr/bin/env bash
# Realms on other machines: `kura copy` into and out of a served realm, and `kura import` of a large
# file through a server's URL, against `kura import` of the same documents on the server's machine.
#
# Copy: the whole people realm (PERSONS people with their dogs, toys and addresses) copied by
# `kura copy base.realm http://127.0.0.1:PORT/v1/realms/dest`, timed against `kura import` of the
# realm's export into a new realm file (what the server's machine would do with the export); both
# destinations must then export the same bytes. It runs in two layouts. Two machines (with two cores
# or more): the client on the lower half of the cores, the server and the anchor's import on the
# upper half, as a client and a server on machines of their own would run. One machine: client,
# server and anchor share every core, so the copy's export takes processor time from the server's
# import. Out of the server, `kura copy URL file.realm` is timed against the same import, on one
# machine. Upload: `kura import URL FILE` of a generated NDJSON file of about UPLOAD_MB MB, with the
# client's peak RSS (from /usr/bin/time) and the server's (VmHWM).
# Targets: copy into the server <= 1.3 x the import on the server's machine (the two-machine layout
# when there is one), client peak RSS <= 64 MiB and server peak RSS <= 96 MiB over the upload. A FAIL
# does not change the exit status; a failing command, a wrong count or exports that differ stop the
# script with status 1.
#
# usage: Benchmarks/remote.sh [PERSONS]      (default: $PERSONS, else 200000)
# environment:
#   RUNS               rounds of the copies (default 3); the tables show medians
#   UPLOAD_MB          size of the uploaded file in MB of 10^6 bytes (default 1000)
#   UPLOAD_RUNS        rounds of the upload (default 1)
#   KURA_BIN           a kura binary to measure instead of building one
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes (about UPLOAD_MB x 2.5 MB for the defaults)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PERSONS=${1:-${PERSONS:-200000}}
UPLOAD_MB=${UPLOAD_MB:-1000}
UPLOAD_RUNS=${UPLOAD_RUNS:-1}
require_counts "PERSONS=$PERSONS" "UPLOAD_MB=$UPLOAD_MB" "UPLOAD_RUNS=$UPLOAD_RUNS" "RUNS=$RUNS"

# The targets.
COPY_RATIO_TARGET=1.3
CLIENT_RSS_TARGET_MIB=64
SERVE_RSS_TARGET_MIB=96

find_kura
find_sqlite3
make_workdir_with_servers

# --- data ------------------------------------------------------------------------------------------

JSONL="$WORK/people.jsonl"
echo "== generating $PERSONS people in $WORK"
generate "$PERSONS" jsonl "$JSONL"
EXPECTED=$(expected_rows "$JSONL")
ensure_kura_base "$WORK/base.realm" "$JSONL" "$EXPECTED"
EXPORT="$WORK/base-export.jsonl"
"$KURA" export "$WORK/base.realm" --format jsonl --output "$EXPORT" 2> /dev/null
printf '   base.realm exported: %d bytes of NDJSON (the import anchor'"'"'s input)\n' "$(file_bytes "$EXPORT")"

UPLOAD="$WORK/upload.jsonl"
UPLOAD_PERSONS=$(awk -v mb="$UPLOAD_MB" -v bytes="$(file_bytes "$JSONL")" -v n="$PERSONS" \
    'BEGIN { printf "%d", mb * 1e6 / (bytes / n) + 1 }')
echo "== generating the upload: $UPLOAD_PERSONS people"
generate "$UPLOAD_PERSONS" jsonl "$UPLOAD"
printf '   upload.jsonl %d bytes\n' "$(file_bytes "$UPLOAD")"

# --- copies ----------------------------------------------------------------------------------------

# The two-machine layout: the client's cores and the server's, when there are at least two.
CORES=$(nproc)
if ((CORES >= 2)) && command -v taskset > /dev/null; then
    CLIENT_CPUS="0-$((CORES / 2 - 1))" SERVER_CPUS="$((CORES / 2))-$((CORES - 1))"
    CLIENT_CPUS=${CLIENT_CPUS/#0-0/0} SERVER_CPUS=${SERVER_CPUS/#1-1/1}
    LAYOUTS="two one"
else
    LAYOUTS="one"
fi

# pinned LAYOUT SIDE: sets PIN to the command prefix that runs a command on SIDE's cores (client or
# server) in the two-machine layout, to nothing in the one-machine layout.
pinned() {
    PIN=()
    [[ "$1" == two && "$2" == client ]] && PIN=(taskset -c "$CLIENT_CPUS")
    [[ "$1" == two && "$2" == server ]] && PIN=(taskset -c "$SERVER_CPUS")
    return 0
}

# copy_into LAYOUT RUN: the anchor's import and the copy into a served empty realm, in LAYOUT.
copy_into() {
    local layout=$1 run=$2
    new_kura_realm "$WORK/local.realm"
    pinned "$layout" server
    timed /dev/null "${PIN[@]}" "$KURA" import "$WORK/local.realm" "$EXPORT"
    check_rows "kura import of the export" "$WORK/local.realm" kura "$EXPECTED"
    echo "$RUN_WALL" >> "$WORK/$layout.import.seconds" && echo "$RUN_RSS_KIB" >> "$WORK/$layout.import.rss"
    "$KURA" export "$WORK/local.realm" --format jsonl --output "$WORK/local.jsonl" 2> /dev/null

    new_kura_realm "$WORK/dest.realm"
    start_server dest.realm
    # Every thread of the server, and those it starts later, on the server's cores.
    [[ "$layout" == two ]] && taskset -a -c -p "$SERVER_CPUS" "$SERVER_PID" > /dev/null
    pinned "$layout" client
    timed /dev/null "${PIN[@]}" "$KURA" copy "$WORK/base.realm" "$BASE_URL/v1/realms/dest"
    echo "$RUN_WALL" >> "$WORK/$layout.into.seconds" && echo "$RUN_RSS_KIB" >> "$WORK/$layout.into.rss"
    peak_kib "$SERVER_PID" >> "$WORK/$layout.into.server.rss"
    stop_kura_server
    check_rows "kura copy into the server" "$WORK/dest.realm" kura "$EXPECTED"
    "$KURA" export "$WORK/dest.realm" --format jsonl --output "$WORK/dest.jsonl" 2> /dev/null
    cmp -s "$WORK/local.jsonl" "$WORK/dest.jsonl" || { echo "error: the served copy exports other bytes than the import" >&2; exit 1; }
    printf '   run %d/%d  %-12s import %7.3f s   copy into the server %7.3f s\n' "$run" "$RUNS" "$layout machine$([[ $layout == two ]] && echo s)" \
        "$(tail -n 1 "$WORK/$layout.import.seconds")" "$RUN_WALL"
    remove_db "$WORK/local.realm" && remove_db "$WORK/dest.realm"
}

echo "== measuring: $RUNS rounds ($CORES cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'))"
[[ "$LAYOUTS" == "two one" ]] && echo "   two machines: the client on CPUs $CLIENT_CPUS, the server and the anchor on CPUs $SERVER_CPUS"
echo "   kura: $KURA"
for ((run = 1; run <= RUNS; run++)); do
    for layout in $LAYOUTS; do copy_into "$layout" "$run"; done

    # Out of a served realm into a new file, on one machine.
    start_server base.realm
    remove_db "$WORK/out.realm"
    timed /dev/null "$KURA" copy "$BASE_URL/v1/realms/base" "$WORK/out.realm"
    echo "$RUN_WALL" >> "$WORK/out.seconds" && echo "$RUN_RSS_KIB" >> "$WORK/out.rss"
    stop_kura_server
    check_rows "kura copy out of the server" "$WORK/out.realm" kura "$EXPECTED"
    "$KURA" export "$WORK/out.realm" --format jsonl --output "$WORK/out.jsonl" 2> /dev/null
    cmp -s "$WORK/local.jsonl" "$WORK/out.jsonl" || { echo "error: the copy out of the server exports other bytes" >&2; exit 1; }
    printf '   run %d/%d  one machine  copy out of the server %7.3f s\n' "$run" "$RUNS" "$RUN_WALL"
    remove_db "$WORK/out.realm"
done

# --- the upload ------------------------------------------------------------------------------------

for ((run = 1; run <= UPLOAD_RUNS; run++)); do
    new_kura_realm "$WORK/upload.realm"
    start_server upload.realm
    timed /dev/null "$KURA" import "$BASE_URL/v1/realms/upload" "$UPLOAD" --type Person
    echo "$RUN_WALL" >> "$WORK/upload.seconds" && echo "$RUN_RSS_KIB" >> "$WORK/upload.client.rss"
    peak_kib "$SERVER_PID" >> "$WORK/upload.server.rss"
    stop_kura_server
    stored=$(count_rows "$WORK/upload.realm" kura | cut -d'|' -f1)
    [[ "$stored" == "$UPLOAD_PERSONS" ]] || { echo "error: the upload stored $stored persons, not $UPLOAD_PERSONS" >&2; exit 1; }
    printf '   upload %d/%d  %7.1f s   client peak RSS %s MiB   server peak RSS %s MiB\n' "$run" "$UPLOAD_RUNS" "$RUN_WALL" \
        "$(mib "$RUN_RSS_KIB")" "$(mib "$(tail -n 1 "$WORK/upload.server.rss")")"
    remove_db "$WORK/upload.realm"
done

# --- the tables ------------------------------------------------------------------------------------

echo
echo "== results: $PERSONS people, the whole realm ($(file_bytes "$EXPORT") bytes as NDJSON), median of $RUNS rounds"
printf '%-34s %9s %8s %8s %8s %9s %9s\n' part seconds "x import" target verdict "kura RSS" "srv RSS"
# The target applies to the first layout measured: two machines when there are.
judged=${LAYOUTS%% *}
for layout in $LAYOUTS; do
    if [[ "$layout" == two ]]; then
        echo "two machines: the client on CPUs $CLIENT_CPUS, the server and the anchor on CPUs $SERVER_CPUS"
    else
        echo "one machine: the client, the server and the anchor on every CPU"
    fi
    import_s=$(median < "$WORK/$layout.import.seconds")
    printf '%-34s %9.3f %8s %8s %8s %9s %9s\n' "kura import of the export (anchor)" "$import_s" 1.00 "" "" \
        "$(mib "$(median < "$WORK/$layout.import.rss")")" ""
    into_s=$(median < "$WORK/$layout.into.seconds")
    ratio=$(awk -v a="$into_s" -v b="$import_s" 'BEGIN { printf "%.2f", a / b }')
    target="" result=""
    if [[ "$layout" == "$judged" ]]; then
        target="<=$COPY_RATIO_TARGET"
        result=$(verdict "$(awk -v r="$ratio" -v t="$COPY_RATIO_TARGET" 'BEGIN { print (r <= t) ? 1 : 0 }')")
    fi
    line=$(printf '%-34s %9.3f %8s %8s %8s %9s %9s' "kura copy FILE URL (into)" "$into_s" "$ratio" "$target" "$result" \
        "$(mib "$(median < "$WORK/$layout.into.rss")")" "$(mib "$(median < "$WORK/$layout.into.server.rss")")")
    echo "$line"
    count_verdicts "$line"
done
out_s=$(median < "$WORK/out.seconds") import_s=$(median < "$WORK/one.import.seconds")
printf '%-34s %9.3f %8s %8s %8s %9s %9s\n' "kura copy URL FILE (out of)" "$out_s" "$(awk -v a="$out_s" -v b="$import_s" 'BEGIN { printf "%.2f", a / b }')" \
    "" "" "$(mib "$(median < "$WORK/out.rss")")" ""

echo
echo "== upload: kura import URL FILE, $UPLOAD_PERSONS people, $(file_bytes "$UPLOAD") bytes, median of $UPLOAD_RUNS"
client=$(median < "$WORK/upload.client.rss") server=$(median < "$WORK/upload.server.rss")
ok=$(awk -v k="$client" -v t="$CLIENT_RSS_TARGET_MIB" 'BEGIN { print (k / 1024 <= t) ? 1 : 0 }')
line=$(printf 'client peak RSS %s MiB (target <= %d)  %s' "$(mib "$client")" "$CLIENT_RSS_TARGET_MIB" "$(verdict "$ok")")
echo "$line"
count_verdicts "$line"
ok=$(awk -v k="$server" -v t="$SERVE_RSS_TARGET_MIB" 'BEGIN { print (k / 1024 <= t) ? 1 : 0 }')
line=$(printf 'server peak RSS %s MiB (target <= %d)  %s' "$(mib "$server")" "$SERVE_RSS_TARGET_MIB" "$(verdict "$ok")")
echo "$line"
count_verdicts "$line"
printf 'upload time %.1f s\n' "$(median < "$WORK/upload.seconds")"
print_verdicts

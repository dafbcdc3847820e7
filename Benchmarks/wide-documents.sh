#!/usr/bin/env bash
# Wide-document benchmark: what one large document costs `kura import` and `kura serve`.
#
#   memory   peak RSS of importing one document that is a single wide container, at each size of
#            SIZES_MB: a JSON map<string> of short entries, a JSON list<string>, and the same map as a
#            YAML block mapping; with `kura import` (its peak, from /usr/bin/time) and over HTTP (the
#            server's VmHWM, a fresh server per import, its idle peak printed beside). Prints the
#            peak over the document's size, and the growth over the size above the smallest one's
#            ((peak - peak at the smallest size) / (size - smallest size)): the bytes each further
#            byte of document costs. Target: at most 5 × the document over the smallest size.
#   string   wall time of importing one document whose only large value is a string of each length
#            of STRING_MB, over HTTP (curl, a fresh server per import) and with `kura import` of the
#            same file; the ratio HTTP / command line, and seconds per MB, which stays flat when the
#            cost is linear. Target: HTTP at most 1.5 × the command line at every length.
#
# A FAIL does not change the exit status; a failing import or a wrong stored count stops the script.
#
# usage: Benchmarks/wide-documents.sh
# environment:
#   SIZES_MB           document sizes of the memory part (default "12.5 25 50"), in MB of 10^6 bytes
#   STRING_MB          string lengths of the string part (default "12.5 25 50 100")
#   RUNS               runs per measurement (default 3); the tables show medians
#   KURA_BIN           a kura binary to measure instead of building one
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes (about 3 × the largest size)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SIZES_MB=${SIZES_MB:-12.5 25 50}
STRING_MB=${STRING_MB:-12.5 25 50 100}
GROWTH_TARGET=5
STRING_RATIO_TARGET=1.5

find_kura
find_sqlite3
CURL=$(command -v curl || true)
[[ -n "$CURL" ]] || { echo "error: curl is needed (apt-get install curl)" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "error: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }

make_workdir
SERVER_PID=""
# Stops the server still running, then removes WORK (the EXIT trap of make_workdir, extended).
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2> /dev/null || true
        wait "$SERVER_PID" 2> /dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

cat > "$WORK/schema.yaml" << 'EOF'
schemaVersion: 1
types:
  Wide:
    properties:
      name: string
      entries: map<string>
      items: list<string>
EOF

# make_document SHAPE MB FILE: one Wide document of about MB × 10^6 bytes whose bulk is SHAPE: map
# (JSON entries), list (JSON items), yaml (the map as a YAML block mapping) or string (the name).
# Prints how many elements it holds (1 for string).
make_document() {
    python3 - "$1" "$2" "$3" << 'EOF'
import sys
shape, size, path = sys.argv[1], int(float(sys.argv[2]) * 1e6), sys.argv[3]
with open(path, "w") as out:
    if shape == "string":
        letters = "abcdefghij" * (size // 10 + 1)
        out.write('{"name":"%s"}\n' % letters[:size])
        print(1)
        sys.exit()
    head, element, separator, tail = {
        "map": ('{"name":"wide","entries":{', '"key%09d":"value of entry %09d"', ",", "}}\n"),
        "list": ('{"name":"wide","items":[', '"item %09d of the list %09d"', ",", "]}\n"),
        "yaml": ("name: wide\nentries:\n", "  key%09d: value of entry %09d", "\n", "\n"),
    }[shape]
    out.write(head)
    count = max(1, (size - len(head)) // (len(element % (0, 0)) + len(separator)))
    block = 100000
    for start in range(0, count, block):
        end = min(count, start + block)
        text = separator.join(element % (i, i) for i in range(start, end))
        out.write(text if start == 0 else separator + text)
    out.write(tail)
    print(count)
EOF
}

# fresh_realm DB: an empty realm of the benchmark's schema.
fresh_realm() {
    remove_db "$1"
    "$KURA" init "$1" --schema "$WORK/schema.yaml" > /dev/null
}

# stored_count DB SHAPE: the elements the realm holds for SHAPE (1 for string: the one object).
stored_count() {
    case "$2" in
        map | yaml) "$SQLITE3" "$1" 'SELECT count(*) FROM "Wide.entries"' ;;
        list) "$SQLITE3" "$1" 'SELECT count(*) FROM "Wide.items"' ;;
        string) "$SQLITE3" "$1" 'SELECT count(*) FROM "Wide" WHERE length(name) > 1000' ;;
    esac
}

# check_stored WHAT DB SHAPE N: stops the script unless DB holds the N elements of SHAPE.
check_stored() {
    local got
    got=$(stored_count "$2" "$3")
    [[ "$got" == "$4" ]] || { echo "error: $1: expected $4 stored, found $got in $2" >&2; exit 1; }
}


# http_import FILE FORMAT: imports FILE into a fresh realm through a fresh server; sets RUN_WALL (curl's
# wall seconds), RUN_RSS_KIB (the server's peak) and IDLE_KIB (its peak before the request).
http_import() {
    local media=application/json
    [[ "$2" == yaml ]] && media=application/yaml
    fresh_realm "$WORK/web.realm"
    start_kura_server web.realm
    IDLE_KIB=$(peak_kib "$SERVER_PID")
    timed "$WORK/status.txt" "$CURL" -sS -X POST -H "Content-Type: $media" -H 'Expect:' -T "$1" \
        -o "$WORK/response.txt" -w '%{http_code}\n' "$BASE_URL/v1/realms/web/import?type=Wide"
    RUN_RSS_KIB=$(peak_kib "$SERVER_PID")
    stop_kura_server
    if [[ "$(cat "$WORK/status.txt")" != 200 ]] || ! grep -q '^{"documents":1,' "$WORK/response.txt"; then
        echo "error: HTTP import of $1 answered $(cat "$WORK/status.txt"): $(head -c 500 "$WORK/response.txt")" >&2
        exit 1
    fi
}

# cli_import FILE: imports FILE into a fresh realm with kura import; sets RUN_WALL and RUN_RSS_KIB.
cli_import() {
    fresh_realm "$WORK/cli.realm"
    timed /dev/null "$KURA" import "$WORK/cli.realm" "$1" --type Wide
}

declare -A RESULTS
# record NAME VALUE: appends VALUE to the runs of NAME.
record() { RESULTS[$1]+="$2"$'\n'; }
result() { printf '%s' "${RESULTS[$1]}" | median; }

# --- memory ------------------------------------------------------------------------------------------

echo "== memory: one wide document of ${SIZES_MB// /, } MB, $RUNS runs each"
declare -A BYTES
for shape in map list yaml; do
    format=json
    [[ "$shape" == yaml ]] && format=yaml
    for mb in $SIZES_MB; do
        file="$WORK/wide-$shape-$mb.$format"
        count=$(make_document "$shape" "$mb" "$file")
        BYTES[$shape $mb]=$(file_bytes "$file")
        for ((run = 1; run <= RUNS; run++)); do
            cli_import "$file"
            check_stored "kura import" "$WORK/cli.realm" "$shape" "$count"
            record "cli $shape $mb" "$RUN_RSS_KIB"
            cli_kib=$RUN_RSS_KIB
            http_import "$file" "$format"
            check_stored "HTTP import" "$WORK/web.realm" "$shape" "$count"
            record "http $shape $mb" "$RUN_RSS_KIB"
            record "idle" "$IDLE_KIB"
            printf '   %-4s %5s MB  run %d/%d  kura import %8.1f MiB   HTTP %8.1f MiB (idle %5.1f MiB)\n' "$shape" "$mb" \
                "$run" "$RUNS" "$(mib "$cli_kib")" "$(mib "$RUN_RSS_KIB")" "$(mib "$IDLE_KIB")"
        done
        rm -f "$file"
    done
done

# --- string ------------------------------------------------------------------------------------------

echo "== string: one document with a string of ${STRING_MB// /, } MB, $RUNS runs each"
for mb in $STRING_MB; do
    file="$WORK/string-$mb.json"
    make_document string "$mb" "$file" > /dev/null
    for ((run = 1; run <= RUNS; run++)); do
        cli_import "$file"
        check_stored "kura import" "$WORK/cli.realm" string 1
        record "cli string $mb" "$RUN_WALL"
        cli_wall=$RUN_WALL
        http_import "$file" json
        check_stored "HTTP import" "$WORK/web.realm" string 1
        record "http string $mb" "$RUN_WALL"
        printf '   %5s MB  run %d/%d  kura import %7.3f s   HTTP %7.3f s\n' "$mb" "$run" "$RUNS" "$cli_wall" "$RUN_WALL"
    done
    rm -f "$file"
done

# --- results -----------------------------------------------------------------------------------------

echo
echo "== results: median of $RUNS runs; peak RSS in MiB, × = over the document's bytes"
awk -v k="$(result idle)" 'BEGIN { printf "kura serve idle peak RSS %.1f MiB\n", k / 1024 }'
read -r smallest _ <<< "$SIZES_MB"
printf '%-6s %7s %12s %13s %8s %13s %8s %15s %15s\n' shape MB bytes "import MiB" "×" "HTTP MiB" "×" "import growth" "HTTP growth"
for shape in map list yaml; do
    for mb in $SIZES_MB; do
        line=$(awk -v shape="$shape" -v mb="$mb" -v bytes="${BYTES[$shape $mb]}" -v base_bytes="${BYTES[$shape $smallest]}" \
            -v cli="$(result "cli $shape $mb")" -v http="$(result "http $shape $mb")" \
            -v cli0="$(result "cli $shape $smallest")" -v http0="$(result "http $shape $smallest")" -v target="$GROWTH_TARGET" 'BEGIN {
            line = sprintf("%-6s %7s %12d %13.1f %8.2f %13.1f %8.2f", shape, mb, bytes, cli / 1024, cli * 1024 / bytes,
                http / 1024, http * 1024 / bytes)
            if (bytes > base_bytes) {
                g1 = (cli - cli0) * 1024 / (bytes - base_bytes); g2 = (http - http0) * 1024 / (bytes - base_bytes)
                line = line sprintf(" %15.2f %15.2f  target <= %d  %s", g1, g2, target, (g1 <= target && g2 <= target) ? "PASS" : "FAIL")
            }
            print line
        }')
        echo "$line"
        count_verdicts "$line"
    done
done
echo
printf '%-8s %14s %10s %10s %12s %12s\n' "string" "kura import s" "HTTP s" "HTTP/kura" "import s/MB" "HTTP s/MB"
for mb in $STRING_MB; do
    line=$(awk -v mb="$mb" -v cli="$(result "cli string $mb")" -v http="$(result "http string $mb")" -v target="$STRING_RATIO_TARGET" 'BEGIN {
        ratio = http / cli
        printf "%5s MB %14.3f %10.3f %10.2f %12.4f %12.4f  target <= %.1f  %s", mb, cli, http, ratio, cli / mb, http / mb, target,
            ratio <= target ? "PASS" : "FAIL"
    }')
    echo "$line"
    count_verdicts "$line"
done
print_verdicts

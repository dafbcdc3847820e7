#!/usr/bin/env bash
# Transfer benchmark: `kura import`, `kura export` and `kura copy` on the people dataset against
# anchors that do the same work with SQLite itself (the sqlite3 command line with JSON1, ATTACH),
# sqlite-utils, and plain Python (json + sqlite3). Prints the median wall time and peak RSS of each,
# the ratio of each row to its part's sqlite3 anchor, and marks every Kura row PASS or FAIL against
# the targets: import <= 0.5 x sqlite3 json_each, export <= 1.0 x sqlite3 export, copy <= 1.5 x
# ATTACH copy, and peak RSS <= 64 MiB. A FAIL does not change the exit status; a failing command or
# a wrong count of stored objects stops the script with status 1.
#
# usage: Benchmarks/transfer.sh [PERSONS]      (default: $PERSONS, else 200000, about 96 MB of JSON)
# environment:
#   RUNS               runs per measurement (default 3); the table shows medians
#   ONLY               the parts to run, comma-separated: import,export,copy (default: all three)
#   SKIP_ANCHORS=1     run only the Kura rows (no ratios then, only the RSS verdicts)
#   KURA_BIN           a kura binary to measure instead of building one
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes (about 1 GB for 200,000 people)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PERSONS=${1:-${PERSONS:-200000}}
if ! [[ "$PERSONS" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [PERSONS]   (PERSONS a positive integer, got '$PERSONS')" >&2
    exit 64
fi
check_only
SKIP_ANCHORS=${SKIP_ANCHORS:-0}
ANCHORS="$BENCH_DIR/Anchors"

anchors() {
    [[ "$SKIP_ANCHORS" != 1 ]]
}

# --- tools -----------------------------------------------------------------------------------------

find_kura
find_sqlite3

# The sqlite-utils anchor: installed with pip when missing; skipped (with a note) if that fails.
SQLITE_UTILS=""
find_sqlite_utils() {
    SQLITE_UTILS=$(command -v sqlite-utils || true)
    if [[ -z "$SQLITE_UTILS" ]]; then
        local scripts
        scripts=$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))' 2> /dev/null || true)
        [[ -n "$scripts" && -x "$scripts/sqlite-utils" ]] && SQLITE_UTILS="$scripts/sqlite-utils"
    fi
    return 0
}
if anchors && wants import; then
    find_sqlite_utils
    if [[ -z "$SQLITE_UTILS" ]]; then
        echo "== sqlite-utils is missing: python3 -m pip install sqlite-utils"
        python3 -m pip install --quiet --disable-pip-version-check sqlite-utils 2>&1 | tail -n 3 || true
        find_sqlite_utils
    fi
    [[ -n "$SQLITE_UTILS" ]] || echo "   note: sqlite-utils still not found; its rows are skipped"
fi

# --- data ------------------------------------------------------------------------------------------

make_workdir
JSON="$WORK/people.json"
JSONL="$WORK/people.jsonl"
KURA_BASE="$WORK/base.realm"          # imported once: the source of the export and copy rows
ANCHOR_BASE="$WORK/anchor-base.sqlite"  # the same for the sqlite3 export anchor

echo "== generating $PERSONS people in $WORK"
generate "$PERSONS" json "$JSON"
generate "$PERSONS" jsonl "$JSONL"
printf '   people.json  %12d bytes\n   people.jsonl %12d bytes\n' "$(file_bytes "$JSON")" "$(file_bytes "$JSONL")"

# What every normalized import must store, counted from the input (see expected_rows).
EXPECTED=$(expected_rows "$JSONL")
echo "   expected rows: persons|addresses|dogs|toys|list entries|cities|parks = $EXPECTED"

new_anchor_db() {
    remove_db "$1"
    "$SQLITE3" "$1" ".read $ANCHORS/normalized.sql" > /dev/null
}

# The command of the sqlite3 import anchor: sqlite3_import DB FILE sets SQLITE3_IMPORT.
sqlite3_import() {
    SQLITE3_IMPORT=("$SQLITE3" "$1" ".parameter set :input \"$2\"" ".read $ANCHORS/import_json_each.sql")
}

# Prepares the sources of the export and copy rows when no import run has left them.
ensure_bases() {
    ensure_kura_base "$KURA_BASE" "$JSON" "$EXPECTED"
    if anchors && [[ ! -e "$ANCHOR_BASE" ]]; then
        echo "   (preparing $ANCHOR_BASE: sqlite3 json_each import, not timed)"
        new_anchor_db "$ANCHOR_BASE"
        sqlite3_import "$ANCHOR_BASE" "$JSON"
        "${SQLITE3_IMPORT[@]}" > /dev/null
        check_rows "anchor base" "$ANCHOR_BASE" anchor "$EXPECTED"
    fi
}

# The script of the ATTACH copy: every table of the realm SOURCE, "#meta" and "#types" with INSERT
# OR REPLACE (kura init already wrote their rows), the others with INSERT ... SELECT *.
attach_copy_sql() {
    local source=$1 table verb
    printf "PRAGMA synchronous = NORMAL;\nATTACH '%s' AS src;\nBEGIN;\n" "${source//\'/\'\'}"
    while IFS= read -r table; do
        verb="INSERT"
        [[ "$table" == "#meta" || "$table" == "#types" ]] && verb="INSERT OR REPLACE"
        printf '%s INTO main."%s" SELECT * FROM src."%s";\n' "$verb" "${table//\"/\"\"}" "${table//\"/\"\"}"
    done < <("$SQLITE3" "$source" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    printf 'COMMIT;\n'
}

# --- the measurements ------------------------------------------------------------------------------

# NAMES[i], PARTS[i] (import, export, copy) and ROLES[i]: kura, ref (the sqlite3 anchor every row
# of the part is compared with) or anchor.
NAMES=() PARTS=() ROLES=()
add() {
    NAMES+=("$1") PARTS+=("$2") ROLES+=("$3")
}
if wants import; then
    add "Kura import json" import kura
    add "Kura import jsonl" import kura
    if anchors; then
        add "sqlite3 json_each json" import ref
        if [[ -n "$SQLITE_UTILS" ]]; then
            add "sqlite-utils flat json" import anchor
            add "sqlite-utils flat jsonl" import anchor
        fi
        add "Python json+sqlite3 json" import anchor
    fi
fi
if wants export; then
    add "Kura export" export kura
    anchors && add "sqlite3 json_object export" export ref
fi
if wants copy; then
    add "Kura copy" copy kura
    add "Kura copy into empty" copy kura
    anchors && add "sqlite3 ATTACH copy" copy ref
fi

# bench_run NAME: prepares (not timed), runs NAME once under timed, checks what it wrote, and sets
# RUN_BYTES: the input file for imports, the output file for exports, the source realm for copies.
bench_run() {
    local name=$1 db
    case "$name" in
        "Kura import json" | "Kura import jsonl")
            local input=$JSON
            [[ "$name" == *jsonl ]] && input=$JSONL
            db="$WORK/kura-import.realm"
            new_kura_realm "$db"
            timed /dev/null "$KURA" import "$db" "$input" --type Person
            check_rows "$name" "$db" kura "$EXPECTED"
            RUN_BYTES=$(file_bytes "$input")
            keep_or_remove "$db" "$KURA_BASE" ;;
        "sqlite3 json_each json")
            db="$WORK/anchor-import.sqlite"
            new_anchor_db "$db"
            sqlite3_import "$db" "$JSON"
            timed /dev/null "${SQLITE3_IMPORT[@]}"
            check_rows "$name" "$db" anchor "$EXPECTED"
            RUN_BYTES=$(file_bytes "$JSON")
            keep_or_remove "$db" "$ANCHOR_BASE" ;;
        "sqlite-utils flat json" | "sqlite-utils flat jsonl")
            local input=$JSON nl=()
            [[ "$name" == *jsonl ]] && input=$JSONL nl=(--nl)
            db="$WORK/sqlite-utils.sqlite"
            remove_db "$db"
            timed /dev/null "$SQLITE_UTILS" insert "$db" people "$input" "${nl[@]}"
            local rows
            rows=$("$SQLITE3" "$db" "SELECT count(*) FROM people")
            [[ "$rows" == "$PERSONS" ]] || { echo "error: $name: $rows rows, expected $PERSONS" >&2; exit 1; }
            RUN_BYTES=$(file_bytes "$input")
            remove_db "$db" ;;
        "Python json+sqlite3 json")
            db="$WORK/python.sqlite"
            new_anchor_db "$db"
            timed /dev/null python3 "$ANCHORS/import_normalized.py" "$JSON" "$db"
            check_rows "$name" "$db" anchor "$EXPECTED"
            RUN_BYTES=$(file_bytes "$JSON")
            remove_db "$db" ;;
        "Kura export")
            ensure_bases
            rm -f "$WORK/kura-export.json"
            timed /dev/null "$KURA" export "$KURA_BASE" --output "$WORK/kura-export.json"
            check_export "$name" "$WORK/kura-export.json" "$PERSONS"
            RUN_BYTES=$(file_bytes "$WORK/kura-export.json") ;;
        "sqlite3 json_object export")
            ensure_bases
            timed "$WORK/anchor-export.json" "$SQLITE3" "$ANCHOR_BASE" ".read $ANCHORS/export_json.sql"
            check_export "$name" "$WORK/anchor-export.json" "$PERSONS"
            RUN_BYTES=$(file_bytes "$WORK/anchor-export.json") ;;
        "Kura copy" | "Kura copy into empty")
            # Into a new file (written by VACUUM INTO), or into a realm made by `kura init`, as the
            # ATTACH anchor copies (the set-based copy).
            ensure_bases
            db="$WORK/kura-copy.realm"
            remove_db "$db"
            [[ "$name" == *empty ]] && new_kura_realm "$db"
            timed /dev/null "$KURA" copy "$KURA_BASE" "$db"
            check_rows "$name" "$db" kura "$EXPECTED"
            RUN_BYTES=$(file_bytes "$KURA_BASE")
            remove_db "$db" ;;
        "sqlite3 ATTACH copy")
            ensure_bases
            db="$WORK/attach-copy.realm"
            new_kura_realm "$db"
            attach_copy_sql "$KURA_BASE" > "$WORK/attach-copy.sql"
            timed /dev/null "$SQLITE3" "$db" ".read $WORK/attach-copy.sql"
            check_rows "$name" "$db" kura "$EXPECTED"
            RUN_BYTES=$(file_bytes "$KURA_BASE")
            remove_db "$db" ;;
        *) echo "error: unknown measurement '$name'" >&2; exit 1 ;;
    esac
}

if ((${#NAMES[@]} == 0)); then
    echo "nothing to measure (ONLY=$ONLY)"
    exit 0
fi
echo "== measuring: ${#NAMES[@]} measurements x $RUNS runs ($(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'))"
echo "   kura: $KURA; sqlite3 $("$SQLITE3" --version | cut -d' ' -f1); $(python3 --version)${SQLITE_UTILS:+; $("$SQLITE_UTILS" --version)}"
for ((run = 1; run <= RUNS; run++)); do
    for index in "${!NAMES[@]}"; do
        bench_run "${NAMES[$index]}"
        echo "$RUN_WALL" >> "$WORK/wall.$index"
        echo "$RUN_RSS_KIB" >> "$WORK/rss.$index"
        echo "$RUN_BYTES" > "$WORK/bytes.$index"
        printf '   run %d/%d  %-28s %8.3f s  peak RSS %8.1f MiB\n' \
            "$run" "$RUNS" "${NAMES[$index]}" "$RUN_WALL" "$(awk -v k="$RUN_RSS_KIB" 'BEGIN { print k / 1024 }')"
    done
done

# --- the table -------------------------------------------------------------------------------------

# The median seconds of each part's reference anchor, and each part's time target for Kura.
declare -A REF_SECONDS=() TARGET=([import]=0.5 [export]=1.0 [copy]=1.5)
for index in "${!NAMES[@]}"; do
    if [[ "${ROLES[$index]}" == ref ]]; then
        REF_SECONDS[${PARTS[$index]}]=$(median < "$WORK/wall.$index")
    fi
done

echo
echo "== results: $PERSONS people, median of $RUNS runs (process wall time; peak RSS in MiB)"
echo "   bytes: the input file (import), the file written (export), the source realm (copy)"
echo "   x sqlite3: median / the median of the part's sqlite3 row (json_each import, json_object export, ATTACH copy)"
echo "   targets for Kura: import <= 0.50 x, export <= 1.00 x, copy <= 1.50 x; peak RSS <= $RSS_TARGET_MIB MiB"
printf '%-28s %12s %9s %9s %10s %8s %6s %6s\n' name bytes "median s" "RSS MiB" "x sqlite3" target time RSS
for index in "${!NAMES[@]}"; do
    part=${PARTS[$index]} role=${ROLES[$index]}
    seconds=$(median < "$WORK/wall.$index")
    rss_kib=$(median < "$WORK/rss.$index")
    line=$(awk -v name="${NAMES[$index]}" -v bytes="$(cat "$WORK/bytes.$index")" -v s="$seconds" \
        -v rss="$rss_kib" -v ref="${REF_SECONDS[$part]:-}" -v role="$role" -v target="${TARGET[$part]}" \
        -v rss_target="$RSS_TARGET_MIB" 'BEGIN {
        ratio = "-"; target_text = "-"; time_verdict = "-"; rss_verdict = "-"
        if (ref != "" && ref > 0) ratio = sprintf("%.2f", s / ref)
        if (role == "kura") {
            target_text = sprintf("<=%.2f", target)
            if (ratio != "-") time_verdict = (s / ref <= target + 0) ? "PASS" : "FAIL"
            rss_verdict = (rss / 1024 <= rss_target + 0) ? "PASS" : "FAIL"
        }
        printf "%-28s %12d %9.3f %9.1f %10s %8s %6s %6s\n", name, bytes, s, rss / 1024, ratio, target_text, time_verdict, rss_verdict
    }')
    echo "$line"
    count_verdicts "$line"
done
print_verdicts

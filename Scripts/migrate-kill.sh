#!/usr/bin/env bash
# By hand: kills `kura migrate` with SIGKILL partway through a migration of 200,000 objects (the
# diary scenario: a UUID primary key added to entries that had none), at several moments, and checks
# that every realm left behind opens and is either the old realm, whole (its export is byte for byte
# the export from before), or the migrated one, whole (every entry, distinct keys, same texts and
# dates). Usage: Scripts/migrate-kill.sh [OBJECTS]   (default 200000; needs bash, awk, sha256sum)
set -euo pipefail

OBJECTS=${1:-200000}
# shellcheck source=Scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_release kura
KURA="$BIN/kura"

enter_work migrate-kill

cp "$REPO_DIR/Samples/diary-v1.yaml" v1.yaml
cp "$REPO_DIR/Samples/diary-v2.yaml" v2.yaml

echo "== $OBJECTS diary entries"
awk -v n="$OBJECTS" 'BEGIN { for (i = 0; i < n; i++)
    printf "{\"text\": \"entry %d\", \"date\": {\"$date\": {\"$numberLong\": \"%d\"}}}\n", i, 1700000000000 + i * 3600000 }' > diary.jsonl
"$KURA" init base.realm --schema v1.yaml > /dev/null
"$KURA" import base.realm diary.jsonl --type Diary | tail -n 1
"$KURA" export base.realm --type Diary --format jsonl --output before.jsonl 2> /dev/null
BEFORE=$(sha256sum < before.jsonl | cut -c1-16)
BEFORE_SORTED=$(sort before.jsonl | sha256sum | cut -c1-16)

# A copy of the untouched realm (with its WAL, should one be left).
fresh() {
    rm -f "$1" "$1-wal" "$1-shm"
    cp base.realm "$1"
    if [[ -f base.realm-wal ]]; then cp base.realm-wal "$1-wal"; fi
}

# check REALM: prints what the realm holds after the kill; fails the script if it is neither whole.
check() {
    local version
    version=$("$KURA" schema "$1" | head -n 1)
    "$KURA" export "$1" --type Diary --format jsonl --output after.jsonl 2> /dev/null
    local lines
    lines=$(wc -l < after.jsonl)
    if [[ "$version" == "schemaVersion: 1" ]]; then
        local sum
        sum=$(sha256sum < after.jsonl | cut -c1-16)
        [[ "$sum" == "$BEFORE" ]] || { echo "FAIL: old realm's export differs ($sum, $lines lines)" >&2; exit 1; }
        echo "old realm, version 1, $lines entries, export identical to before ($sum)"
    elif [[ "$version" == "schemaVersion: 2" ]]; then
        local ids rest
        ids=$(grep -o '"id":"[0-9a-f-]*"' after.jsonl | sort -u | wc -l)
        rest=$(sed -E 's/^\{"id":"[0-9a-f-]{36}",/{/' after.jsonl | sort | sha256sum | cut -c1-16)
        [[ "$ids" == "$OBJECTS" && "$rest" == "$BEFORE_SORTED" ]] \
            || { echo "FAIL: migrated realm has $ids distinct ids, texts and dates $rest" >&2; exit 1; }
        echo "migrated realm, version 2, $lines entries, $ids distinct ids, texts and dates unchanged"
    else
        echo "FAIL: unexpected schema: $version" >&2
        exit 1
    fi
}

echo "== an uninterrupted migration, for its duration"
fresh full.realm
START=$(date +%s.%N)
"$KURA" migrate full.realm --schema v2.yaml | tail -n 1
FULL=$(echo "$(date +%s.%N) $START" | awk '{ printf "%.3f", $1 - $2 }')
echo "kura migrate took $FULL s in all; the realm: $(check full.realm)"

echo "== killed with SIGKILL after a share of that time"
INTERRUPTED=0
for share in 0.3 0.45 0.6 0.7 0.8 0.9 0.95; do
    fresh attempt.realm
    delay=$(awk -v f="$FULL" -v s="$share" 'BEGIN { printf "%.3f", f * s }')
    "$KURA" migrate attempt.realm --schema v2.yaml > /dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    if kill -KILL "$pid" 2> /dev/null; then outcome="killed"; else outcome="had finished"; fi
    wait "$pid" 2> /dev/null || true
    wal=$( [[ -f attempt.realm-wal ]] && stat -c %s attempt.realm-wal || echo 0)
    result=$(check attempt.realm)
    if [[ "$result" == old* && "$outcome" == killed ]]; then INTERRUPTED=$((INTERRUPTED + 1)); fi
    printf 'at %s s (%s of it): %s, WAL left %s bytes; %s\n' "$delay" "$share" "$outcome" "$wal" "$result"
done
echo "== $INTERRUPTED kills interrupted the migration; every realm opened whole"

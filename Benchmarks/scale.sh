#!/usr/bin/env bash
# Scale benchmark: costs that grow within one file. Prints the median of RUNS runs of each row and
# marks it PASS or FAIL against its target (a FAIL does not change the exit status; a failing
# command stops the script with status 1):
#   delete     `kura delete` of N and of 4N objects that hold mixed values linking each other (a
#              mixed property and a list<mixed>): the 4N CPU seconds (user + system) over the N
#              ones must be at most 5 (linear: 4, with slack; quadratic, as it was, 16). The wall
#              times are shown too; on a shared machine they include waiting for other processes
#              and for the disk
#   library delete  the same through the library's realm.delete(_:where:) (kura-probe delete, one
#              write whose delete runs in a savepoint of its own): at most 5 too
#   forward    peak RSS of importing 2N documents whose first N link by primary key to the last N
#              (N links pending at once) minus the same documents with the targets first, over N:
#              bytes per pending forward link, at most 256 (it was about 725); and with "$id" and
#              {"$ref": id} instead, where every "$id" is held for the whole input, the peak RSS over
#              that of the keyed import with nothing pending, per "$id": at most 256 (it was about 465)
#   wide YAML  peak RSS of importing one document with a map<string> of K keys, over the file's
#              size, beside the same document in JSON: the YAML import's peak RSS must be at most
#              1.25 x the JSON import's (it was about 1.5 x, and YAML held a second tree)
#
# usage: Benchmarks/scale.sh [N [K]]   (default: 20000 objects to delete, 200000 forward references
#                                       as FORWARD below, and 1000000 keys)
# environment:
#   RUNS               runs per measurement (default 3); the table shows medians
#   FORWARD            pending forward references (default 200000)
#   KURA_BIN           a kura binary to measure instead of building one
#   KURA_PROBE_BIN     a kura-probe binary (the library delete row) instead of building one
#   KURA_SCRATCH_PATH  swift build --scratch-path when building
#   TMPDIR             where the temporary data goes (about 150 MB for the defaults)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

DELETED=${1:-20000}
KEYS=${2:-1000000}
FORWARD=${FORWARD:-200000}
for count in "$DELETED" "$KEYS" "$FORWARD"; do
    if ! [[ "$count" =~ ^[1-9][0-9]*$ ]]; then
        echo "usage: $0 [N [K]]   (N, K and FORWARD positive integers, got '$count')" >&2
        exit 64
    fi
done

find_kura
if [[ -n "${KURA_PROBE_BIN:-}" ]]; then
    PROBE=$KURA_PROBE_BIN
    [[ -x "$PROBE" ]] || { echo "error: KURA_PROBE_BIN=$PROBE is not an executable" >&2; exit 1; }
    echo "== using KURA_PROBE_BIN=$PROBE"
else
    build_probe
fi
make_workdir

# --- data ------------------------------------------------------------------------------------------

cat > "$WORK/schema.yaml" << 'EOF'
types:
  Thing:
    primaryKey: code
    properties:
      code: int
      any: mixed
      anyList: list<mixed>
  Node:
    primaryKey: id
    properties:
      id: int
      next: Node?
  Item:
    properties:
      label: string
      next: Item?
  Wide:
    properties:
      name: string
      m: map<string>
EOF

echo "== generating data in $WORK"
python3 - "$WORK" "$DELETED" "$FORWARD" "$KEYS" << 'EOF'
import sys

work, deleted, forward, keys = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])

# Things 1..n, each linking the one before it from a mixed property and a list<mixed>.
def things(path, n):
    with open(path, "w") as out:
        for i in range(1, n + 1):
            link = '{"$type":"Thing","$key":%d}' % (i - 1) if i > 1 else "null"
            out.write('{"code":%d,"any":%s,"anyList":[%d,"x",%s]}\n' % (i, link, i, link))

things(f"{work}/things-n.jsonl", deleted)
things(f"{work}/things-4n.jsonl", 4 * deleted)

# 2N documents: the first N link to the last N. "forward" writes the linking half first (every link
# waits for its target), "back" the targets first (every link finds its target written).
def halves(path, linking, target, first_linking):
    with open(path, "w") as out:
        parts = [linking, target] if first_linking else [target, linking]
        for part in parts:
            for i in range(1, forward + 1):
                out.write(part(i) + "\n")

keyed_linking = lambda i: '{"id":%d,"next":%d}' % (i, forward + i)
keyed_target = lambda i: '{"id":%d,"next":null}' % (forward + i)
halves(f"{work}/keys-forward.jsonl", keyed_linking, keyed_target, True)
halves(f"{work}/keys-back.jsonl", keyed_linking, keyed_target, False)
ref_linking = lambda i: '{"$id":"a%d","label":"x","next":{"$ref":"b%d"}}' % (i, i)
ref_target = lambda i: '{"$id":"b%d","label":"y","next":null}' % i
halves(f"{work}/refs-forward.jsonl", ref_linking, ref_target, True)
halves(f"{work}/refs-back.jsonl", ref_linking, ref_target, False)

# One document with a map<string> of K keys, in YAML (block style) and in JSON.
with open(f"{work}/wide.yaml", "w") as out:
    out.write("name: wide\nm:\n")
    for i in range(keys):
        out.write("  k%07d: value %07d\n" % (i, i))
with open(f"{work}/wide.json", "w") as out:
    out.write('{"name":"wide","m":{')
    out.write(",".join('"k%07d":"value %07d"' % (i, i) for i in range(keys)))
    out.write("}}\n")
EOF
for file in things-n.jsonl things-4n.jsonl keys-forward.jsonl refs-forward.jsonl wide.yaml wide.json; do
    printf '   %-20s %12d bytes\n' "$file" "$(file_bytes "$WORK/$file")"
done

# fresh_realm DB: an empty realm of the benchmark's schema.
fresh_realm() {
    remove_db "$1"
    "$KURA" init "$1" --schema "$WORK/schema.yaml" > /dev/null
}

# --- the measurements ------------------------------------------------------------------------------

echo "== measuring: $RUNS runs (2 cores: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown))"
declare -A WALLS=() CPUS=() RSS=()
record() {
    WALLS[$1]+="$RUN_WALL"$'\n'
    CPUS[$1]+="$RUN_CPU"$'\n'
    RSS[$1]+="$RUN_RSS_KIB"$'\n'
}
DB="$WORK/bench.realm"
for ((run = 1; run <= RUNS; run++)); do
    for size in n 4n; do
        fresh_realm "$DB"
        "$KURA" import "$DB" "$WORK/things-$size.jsonl" --type Thing > /dev/null
        timed "$WORK/out.txt" "$KURA" delete "$DB" --type Thing
        record "delete $size"
        printf '   run %d/%d  delete %-3s %10.3f s  cpu %7.2f s\n' "$run" "$RUNS" "$size" "$RUN_WALL" "$RUN_CPU"
        fresh_realm "$DB"
        "$KURA" import "$DB" "$WORK/things-$size.jsonl" --type Thing > /dev/null
        timed "$WORK/out.txt" "$PROBE" delete "$DB" Thing
        record "library delete $size"
        printf '   run %d/%d  library delete %-3s %10.3f s  cpu %7.2f s\n' "$run" "$RUNS" "$size" "$RUN_WALL" "$RUN_CPU"
    done
    for input in keys-forward keys-back refs-forward refs-back; do
        fresh_realm "$DB"
        type=Node
        [[ "$input" == refs-* ]] && type=Item
        timed "$WORK/out.txt" "$KURA" import "$DB" "$WORK/$input.jsonl" --type "$type"
        record "$input"
        printf '   run %d/%d  import %-13s %10.3f s  peak RSS %8.1f MiB\n' "$run" "$RUNS" "$input" "$RUN_WALL" \
            "$(awk -v k="$RUN_RSS_KIB" 'BEGIN { print k / 1024 }')"
    done
    for input in wide.yaml wide.json; do
        fresh_realm "$DB"
        timed "$WORK/out.txt" "$KURA" import "$DB" "$WORK/$input" --type Wide
        record "$input"
        printf '   run %d/%d  import %-13s %10.3f s  peak RSS %8.1f MiB\n' "$run" "$RUNS" "$input" "$RUN_WALL" \
            "$(awk -v k="$RUN_RSS_KIB" 'BEGIN { print k / 1024 }')"
    done
done

median_wall() { printf '%s' "${WALLS[$1]}" | median; }
median_cpu() { printf '%s' "${CPUS[$1]}" | median; }
median_rss() { printf '%s' "${RSS[$1]}" | median; }
verdict() { awk -v value="$1" -v limit="$2" 'BEGIN { print (value <= limit ? "PASS" : "FAIL") }'; }

echo
echo "== results: median of $RUNS runs"
# delete_line NAME: the row of the delete measurements recorded as "NAME n" and "NAME 4n".
delete_line() {
    local n four n_cpu four_cpu ratio cpu_ratio
    n=$(median_wall "$1 n")
    four=$(median_wall "$1 4n")
    n_cpu=$(median_cpu "$1 n")
    four_cpu=$(median_cpu "$1 4n")
    ratio=$(awk -v a="$four" -v b="$n" 'BEGIN { printf "%.2f", a / b }')
    cpu_ratio=$(awk -v a="$four_cpu" -v b="$n_cpu" 'BEGIN { printf "%.2f", a / b }')
    printf '%-14s %d and %d objects: wall %.3f s, %.3f s (x %.2f); cpu %.2f s, %.2f s (x %.2f)  target cpu <= 5.00  %s' \
        "$1" "$DELETED" $((4 * DELETED)) "$n" "$four" "$ratio" "$n_cpu" "$four_cpu" "$cpu_ratio" "$(verdict "$cpu_ratio" 5)"
}
for name in delete "library delete"; do
    line=$(delete_line "$name")
    echo "$line"
    count_verdicts "$line"
done
line=$(
    forward_kib=$(median_rss keys-forward)
    back_kib=$(median_rss keys-back)
    bytes=$(awk -v f="$forward_kib" -v b="$back_kib" -v n="$FORWARD" 'BEGIN { printf "%.0f", (f - b) * 1024 / n }')
    printf 'pending link by primary key: (%.1f MiB - %.1f MiB) / %d = %5d bytes  target <= 256  %s' \
        "$(awk -v k="$forward_kib" 'BEGIN { print k / 1024 }')" "$(awk -v k="$back_kib" 'BEGIN { print k / 1024 }')" \
        "$FORWARD" "$bytes" "$(verdict "$bytes" 256)"
)
echo "$line"
count_verdicts "$line"
# Every "$id" is held for the whole input (a later {"$ref": id} may name it), pending or not, so the
# refs imports are measured against the keyed one that holds nothing: per "$id" of the 2N documents.
line=$(
    forward_kib=$(median_rss refs-forward)
    back_kib=$(median_rss refs-back)
    base_kib=$(median_rss keys-back)
    bytes=$(awk -v f="$forward_kib" -v b="$base_kib" -v n="$FORWARD" 'BEGIN { printf "%.0f", (f - b) * 1024 / (2 * n) }')
    printf '"$id" with {"$ref"} forward: (%.1f MiB - %.1f MiB) / %d = %5d bytes (back: %.1f MiB)  target <= 256  %s' \
        "$(awk -v k="$forward_kib" 'BEGIN { print k / 1024 }')" "$(awk -v k="$base_kib" 'BEGIN { print k / 1024 }')" \
        $((2 * FORWARD)) "$bytes" "$(awk -v k="$back_kib" 'BEGIN { print k / 1024 }')" "$(verdict "$bytes" 256)"
)
echo "$line"
count_verdicts "$line"
yaml_kib=$(median_rss wide.yaml)
json_kib=$(median_rss wide.json)
for input in wide.yaml wide.json; do
    kib=$(median_rss "$input")
    printf 'wide mapping %-9s %d keys  %8.3f s  peak RSS %8.1f MiB  %5.1f x its %d bytes\n' "$input" "$KEYS" \
        "$(median_wall "$input")" "$(awk -v k="$kib" 'BEGIN { print k / 1024 }')" \
        "$(awk -v k="$kib" -v s="$(file_bytes "$WORK/$input")" 'BEGIN { printf "%.1f", k * 1024 / s }')" "$(file_bytes "$WORK/$input")"
done
line=$(
    ratio=$(awk -v y="$yaml_kib" -v j="$json_kib" 'BEGIN { printf "%.2f", y / j }')
    printf 'wide mapping: YAML peak RSS over JSON peak RSS %5.2f  target <= 1.25  %s' "$ratio" "$(verdict "$ratio" 1.25)"
)
echo "$line"
count_verdicts "$line"
print_verdicts

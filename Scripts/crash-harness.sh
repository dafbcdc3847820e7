#!/usr/bin/env bash
# By hand: the long form of the SIGKILL crash harness (the short form runs in `swift test`, in
# CrashHarnessTests). Builds kura and kura-crash in release mode, then kills `kura import` (batched
# and atomic), `kura copy` (into an empty, a missing and a populated realm, whole and a selection)
# and `kura migrate` at seeded random moments, and checks every realm left: `kura check` clean before
# anything recovers its WAL, opens, no duplicate keys, exactly a committed state.
# Usage: Scripts/crash-harness.sh [TRIALS] [DOCUMENTS] [kura-crash options...]
#        (defaults: 210 trials, 5000 documents in 12 batches; a migration moves 8 x DOCUMENTS entries)
# Replay a failed trial with the command its FAIL line prints (same seed, size and job list).
set -euo pipefail

TRIALS=${1:-210}
DOCUMENTS=${2:-5000}
shift $(( $# > 2 ? 2 : $# ))
# shellcheck source=Scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_release kura kura-crash

START=$(date +%s)
status=0
"$BIN/kura-crash" --trials "$TRIALS" --size "$DOCUMENTS" --batch-size $(( (DOCUMENTS + 11) / 12 )) --kura "$BIN/kura" "$@" || status=$?
echo "== wall time: $(( $(date +%s) - START )) s (exit status $status)"
exit "$status"

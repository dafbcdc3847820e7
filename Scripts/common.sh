# shellcheck shell=bash disable=SC2034 # sourced; the variables it sets are read by the scripts
# Shared by the scripts run by hand (sourced, not run): building release binaries and a temporary
# work directory that is removed on exit.

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# build_release PRODUCT...: builds each product in release mode and sets BIN to their folder.
build_release() {
    echo "== building $* (release)"
    local product
    for product in "$@"; do
        (cd "$REPO_DIR" && swift build -c release --product "$product" 2>&1 | tail -n 1)
    done
    BIN=$(cd "$REPO_DIR" && swift build -c release --show-bin-path)
}

# enter_work NAME: makes a temporary directory kura-NAME.XXXXXX, removed on exit, sets WORK to it
# and changes into it.
enter_work() {
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/kura-$1.XXXXXX")
    trap 'rm -rf "$WORK"' EXIT
    trap 'exit 130' INT TERM
    cd "$WORK"
}

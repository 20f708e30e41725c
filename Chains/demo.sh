#!/usr/bin/env bash
# Runs chainplan on every example in Chains/.
# Usage: Chains/demo.sh path/to/chainplan
# Keeps going after a failing command and prints each exit status.
set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 path/to/chainplan" >&2
    exit 2
fi

# Resolve the binary before changing directory, so a relative path still works.
case "$1" in
    /*) BIN="$1" ;;
    *) BIN="$PWD/$1" ;;
esac
if [ ! -x "$BIN" ]; then
    echo "$0: not an executable: $1" >&2
    exit 2
fi

# Run from the repository root so that every path printed is relative to it.
cd "$(dirname "$0")/.." || exit 2

run() {
    echo "\$ chainplan $*"
    "$BIN" "$@"
    echo "→ exit $?"
    echo
}

for dir in Chains/*/; do
    dir="${dir%/}"
    [ -f "$dir/chain.json" ] || continue
    echo "=== ${dir#Chains/} ==="
    run validate "$dir/chain.json"
    run paths "$dir/chain.json"
done

echo "=== invalid ==="
for spec in Chains/invalid/*; do
    case "$spec" in
        *.json | *.yaml | *.yml) ;;
        *) continue ;;
    esac
    run validate "$spec"
done

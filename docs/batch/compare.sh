#!/usr/bin/env bash
# Compares two result files of `iago solve/analyze --out` or `iago merge` record by record,
# apart from the field time_ms (docs/batch.md): on one thread (--threads 1, the same --hash)
# merged shards equal one run of the whole input. Exits 1 and shows the first differences
# otherwise.
#
#   docs/batch/compare.sh merged.jsonl one-run.jsonl
set -euo pipefail
if [ $# -ne 2 ]; then
    sed -n '7p' "$0" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in 1 2; do
    file=${!n}
    if [ ! -s "$file" ]; then
        echo "compare: $file is missing or empty" >&2
        exit 1
    fi
    jq -c 'del(.time_ms)' "$file" >"$tmp/$n" || {
        echo "compare: $file is not JSON lines" >&2
        exit 1
    }
done
if ! diff "$tmp/1" "$tmp/2" >"$tmp/diff"; then
    echo "compare: $1 and $2 differ apart from time_ms:" >&2
    head -n 6 "$tmp/diff" >&2
    exit 1
fi
echo "compare: $1 and $2 agree on $(wc -l <"$tmp/1") records apart from time_ms"

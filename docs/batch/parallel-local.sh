#!/usr/bin/env bash
# Runs an `iago solve` or `iago analyze` batch as SHARDS processes on this machine with GNU
# parallel, then merges their results into OUTDIR/merged.jsonl (docs/batch.md).
#
#   docs/batch/parallel-local.sh OUTDIR solve|analyze INPUT [OPTION...]
#   e.g. docs/batch/parallel-local.sh results solve problems.obf --threads 1
#
# Environment: SHARDS (default: the number of cores), JOBS (shards run at once, default: the
# number of cores), IAGO (the binary, default: iago on the PATH).
# Each shard writes OUTDIR/shard-I.jsonl; running the same command again resumes every shard
# where it stopped. The exit status is non-zero if a shard failed (an annotated score that
# disagrees, an unreadable line) or if the merge found results missing.
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '5,6p' "$0" >&2
    exit 2
fi
outdir=$1
shift
iago=${IAGO:-iago}
shards=${SHARDS:-$(nproc)}
jobs=${JOBS:-$(nproc)}
mkdir -p "$outdir"
status=0
# {} is the shard index, 0 to SHARDS-1; --halt never: every shard runs even if one fails.
seq 0 $((shards - 1)) | parallel --jobs "$jobs" --halt never --tag \
    "$iago" "$@" --shard "{}/$shards" --out "$outdir/shard-{}.jsonl" || status=$?
"$iago" merge --out "$outdir/merged.jsonl" "$outdir"/shard-*.jsonl || status=$?
exit "$status"

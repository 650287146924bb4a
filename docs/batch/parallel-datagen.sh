#!/usr/bin/env bash
# Generates self-play data (`iago datagen`) as SHARDS processes on this machine with GNU
# parallel, all writing their chunks into OUTDIR/chunks, then merges them into OUTDIR/merged
# (docs/batch.md).
#
#   docs/batch/parallel-datagen.sh OUTDIR --games N [DATAGEN OPTION...]
#   e.g. docs/batch/parallel-datagen.sh data --games 100000 --openings xot-large.txt --seed 7
#
# Environment: SHARDS (default: the number of cores), JOBS (shards run at once, default: the
# number of cores), IAGO (the binary, default: iago on the PATH).
# Each shard plays one game at a time (--threads 1); running the same command again resumes:
# the chunks already written are kept. OUTDIR/merged must not hold chunks yet.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '6,7p' "$0" >&2
    exit 2
fi
outdir=$1
shift
iago=${IAGO:-iago}
shards=${SHARDS:-$(nproc)}
jobs=${JOBS:-$(nproc)}
mkdir -p "$outdir/chunks"
# {} is the shard index, 0 to SHARDS-1; chunk k is written by shard k mod SHARDS.
seq 0 $((shards - 1)) | parallel --jobs "$jobs" --halt now,fail=1 --tag \
    "$iago" datagen "$@" --threads 1 --shard "{}/$shards" --out "$outdir/chunks"
"$iago" merge --out "$outdir/merged" "$outdir/chunks"

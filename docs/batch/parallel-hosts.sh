#!/usr/bin/env bash
# Runs an `iago solve` or `iago analyze` batch on several machines over ssh with GNU parallel,
# then merges the shards' results here into OUTDIR/merged.jsonl (docs/batch.md).
#
#   HOSTS=8/node1,8/node2 docs/batch/parallel-hosts.sh OUTDIR solve|analyze INPUT [OPTION...]
#
# Environment:
#   HOSTS   the machines, as parallel's --sshlogin takes them: "8/node1,8/node2" runs up to 8
#           shards at once on each, ":" is this machine (required)
#   SHARDS  how many shards (default 32)
#   MODE    gather (default): INPUT and the shard's file go to the host with each job (rsync
#           over ssh) and the file comes back when the job ends: nothing shared;
#           shared: every host sees OUTDIR and INPUT at the same paths (NFS): shards write there
#   IAGO    the binary, here and on the hosts (default: iago on the PATH that a
#           non-interactive ssh login gets)
# Running the same command again resumes each shard from its file. In gather mode a shard's
# file comes back when its job ends, failed or not; the work of a job whose host or
# connection died is lost, and that shard is run again from the file it last sent back.
set -euo pipefail
if [ $# -lt 3 ] || [ -z "${HOSTS:-}" ]; then
    sed -n '5p' "$0" >&2
    exit 2
fi
mkdir -p "$1"
outdir=$(cd "$1" && pwd)
command=$2
input=$3
shift 3
iago=${IAGO:-iago}
shards=${SHARDS:-32}
status=0
case "${MODE:-gather}" in
gather)
    # Relative names in OUTDIR: parallel puts them in a directory of the job's own in the
    # host's home and removes them there afterwards (--cleanup). Not --workdir ...: its
    # directories lie under ~/.parallel/tmp, which one job's cleanup removes when it is empty,
    # while another job on the host may be creating its own there (GNU parallel 20221122).
    cp "$input" "$outdir/input"
    cd "$outdir"
    for ((i = 0; i < shards; i++)); do touch "shard-$i.jsonl"; done
    workdir="iago-batch-${HOSTNAME:-here}-$$-{#}"
    seq 0 $((shards - 1)) | parallel --sshlogin "$HOSTS" --workdir "$workdir" --halt never --tag \
        --transferfile input --transferfile 'shard-{}.jsonl' --return 'shard-{}.jsonl' --cleanup \
        "$iago" "$command" input "$@" --shard "{}/$shards" --out 'shard-{}.jsonl' || status=$?
    ;;
shared)
    # The same paths everywhere: --workdir . runs each job in this directory.
    seq 0 $((shards - 1)) | parallel --sshlogin "$HOSTS" --workdir . --halt never --tag \
        "$iago" "$command" "$input" "$@" --shard "{}/$shards" --out "$outdir/shard-{}.jsonl" \
        || status=$?
    ;;
*)
    echo "MODE must be gather or shared, not $MODE" >&2
    exit 2
    ;;
esac
"$iago" merge --out "$outdir/merged.jsonl" "$outdir"/shard-*.jsonl || status=$?
exit "$status"

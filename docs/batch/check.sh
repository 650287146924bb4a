#!/usr/bin/env bash
# Tests the batch recipes of docs/batch.md on this machine, without a cluster (CI runs it):
# 12 FFO positions of 15-20 empties are solved on one thread once as a whole and then in
# shards by each recipe; every merge must equal the whole run apart from time_ms.
#   - GNU parallel on this machine (parallel-local.sh), run twice: the second run resumes;
#   - GNU parallel over "ssh" (parallel-hosts.sh, gather and shared modes): a stand-in ssh
#     runs the jobs here in a directory of their own, files travel by rsync as to real hosts;
#   - the Slurm array (slurm-solve.sbatch, slurm-merge.sbatch): the script's body once for each
#     SLURM_ARRAY_TASK_ID, one after the other, then one task again alone (slurm-local.sh runs
#     them under a real Slurm);
#   - the Kubernetes indexed Job (k8s-solve-job.yaml, k8s-merge-job.yaml): the container's
#     command once for each JOB_COMPLETION_INDEX, /work mapped to a scratch directory, and the
#     manifests checked by k8s-validate.py (no cluster);
#   - self-play data with GNU parallel (parallel-datagen.sh): the shards' chunk files and their
#     merge must equal those of one process, byte for byte.
# Needs GNU parallel, rsync, jq and python3 with PyYAML.
#
#   docs/batch/check.sh [IAGO]     (default: target/release/iago)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
iago=${1:-${IAGO:-$root/target/release/iago}}
for tool in parallel rsync jq; do
    command -v "$tool" >/dev/null || { echo "check: $tool is not installed" >&2; exit 1; }
done
python3 -c 'import yaml' 2>/dev/null ||
    { echo "check: python3 has no PyYAML (Debian: python3-yaml) to read the Kubernetes manifests" >&2; exit 1; }
parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
    { echo "check: $(command -v parallel) is not GNU parallel (moreutils has one too)" >&2; exit 1; }
[ -x "$iago" ] || { echo "check: no iago binary at $iago (build it first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The recipes call `iago`: this build, first on the PATH.
mkdir "$work/bin"
ln -s "$(cd "$(dirname "$iago")" && pwd)/$(basename "$iago")" "$work/bin/iago"
export PATH="$work/bin:$PATH"
# A home of its own: parallel keeps its files there, and takes --workdir . relative to it when
# the directory lies below it (CI may have no HOME; parallel then takes /tmp, which holds $work).
mkdir "$work/home"
export HOME="$work/home"
unset IAGO
start=$SECONDS
step() { echo "check: $* ($((SECONDS - start)) s)"; }
# Runs a command with its output in a log, shown if it fails.
logged() {
    local log=$1
    shift
    "$@" >>"$log" 2>&1 || {
        cat "$log" >&2
        echo "check: failed: $*" >&2
        exit 1
    }
}
same() { "$here/compare.sh" "$1" "$work/one.jsonl" >/dev/null; }

sed -n 2,13p "$root/tests/data/fforum-20-39.obf" >"$work/input.obf"
logged "$work/one.log" iago solve "$work/input.obf" --threads 1 --out "$work/one.jsonl"
[ "$(wc -l <"$work/one.jsonl")" -eq 12 ] || { echo "check: the whole run has no 12 records" >&2; exit 1; }
step "the whole run"

for run in first again; do
    SHARDS=3 JOBS=2 logged "$work/local.log" \
        "$here/parallel-local.sh" "$work/local" solve "$work/input.obf" --threads 1
    same "$work/local/merged.jsonl"
    step "GNU parallel on this machine, $run"
done

# A stand-in for ssh: runs the command here, from a "home" of the host's own, with the
# variables a login sets (parallel's worker on the host runs the job with $SHELL: CI may have
# none).
cat >"$work/bin/fake-ssh" <<'SSH'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do
    case "$1" in
    -[bcDeFiJLlmOopRSW]) shift 2 ;;
    -*) shift ;;
    *) break ;;
    esac
done
home="$FAKE_SSH_HOMES/$1"
shift
[ "${1-}" = -- ] && shift
mkdir -p "$home" && cd "$home" && HOME=$home SHELL=/bin/bash exec bash -c "$*"
SSH
chmod +x "$work/bin/fake-ssh"
export PARALLEL_SSH="$work/bin/fake-ssh" FAKE_SSH_HOMES="$work/hosts"
HOSTS=2/node1,2/node2 SHARDS=5 MODE=gather logged "$work/gather.log" \
    "$here/parallel-hosts.sh" "$work/gather" solve "$work/input.obf" --threads 1
same "$work/gather/merged.jsonl"
leftover=$(find "$work/hosts" -mindepth 2 | wc -l)
[ "$leftover" -eq 0 ] || { echo "check: $leftover files or directories left on the hosts" >&2; exit 1; }
step "GNU parallel over ssh, gathering the files"
(cd "$work" && HOSTS=2/node1,2/node2 SHARDS=5 MODE=shared logged "$work/shared.log" \
    "$here/parallel-hosts.sh" shared solve input.obf --threads 1)
same "$work/shared/merged.jsonl"
step "GNU parallel over ssh, a shared directory"
unset PARALLEL_SSH FAKE_SSH_HOMES

for ((i = 0; i < 4; i++)); do
    SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=4 SLURM_CPUS_PER_TASK=1 logged "$work/slurm.log" \
        bash "$here/slurm-solve.sbatch" "$work/input.obf" "$work/slurm"
done
logged "$work/slurm.log" bash "$here/slurm-merge.sbatch" "$work/slurm"
same "$work/slurm/merged.jsonl"
# Task 2 lost and run again alone (--array=2 --export=ALL,SHARDS=4).
rm "$work/slurm/shard-2.jsonl" "$work/slurm/merged.jsonl"
SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=1 SHARDS=4 SLURM_CPUS_PER_TASK=1 logged "$work/slurm.log" \
    bash "$here/slurm-solve.sbatch" "$work/input.obf" "$work/slurm"
logged "$work/slurm.log" bash "$here/slurm-merge.sbatch" "$work/slurm"
same "$work/slurm/merged.jsonl"
step "the Slurm array, task by task, and one task again"

# The shell script of a Job's container (the block under args: - |), its /work in $work/k8s.
container_script() {
    awk '/^ *- \|$/ && !done { inside = 1; indent = -1; next }
        inside {
            if ($0 ~ /^ *$/) { print ""; next }
            match($0, /^ */)
            if (indent < 0) indent = RLENGTH
            if (RLENGTH < indent) { inside = 0; done = 1; next }
            print substr($0, indent + 1)
        }' "$1" | sed "s#/work#$work/k8s#g"
}
job="$here/k8s-solve-job.yaml"
completions=$(awk '$1 == "completions:" { print $2 }' "$job")
shards=$(awk '$2 == "name:" && $3 == "SHARDS" { getline; gsub(/[^0-9]/, ""); print }' "$job")
grep -q '^ *completionMode: Indexed$' "$job" || { echo "check: $job is not an indexed Job" >&2; exit 1; }
[ -n "$completions" ] && [ "$completions" = "$shards" ] ||
    { echo "check: $job: completions ($completions) and SHARDS ($shards) differ" >&2; exit 1; }
mkdir -p "$work/k8s"
cp "$work/input.obf" "$work/k8s/input.obf"
solve=$(container_script "$job")
for ((i = 0; i < completions; i++)); do
    JOB_COMPLETION_INDEX=$i SHARDS=$shards logged "$work/k8s.log" sh -c "$solve"
done
logged "$work/k8s.log" sh -c "$(container_script "$here/k8s-merge-job.yaml")"
same "$work/k8s/out/merged.jsonl"
python3 "$here/k8s-validate.py" "$job" "$here/k8s-merge-job.yaml"
step "the Kubernetes indexed Job, index by index; its manifests checked"
echo "check: every recipe's merge equals the whole run apart from time_ms"

# Self-play data: 3 shards of parallel-datagen.sh write the chunk files of one process, byte
# for byte, and their merge is the one process's merge.
datagen_options=(--games 24 --games-per-chunk 4 --depth 3 --label-depth 4 --exact-empties 12 --seed 5)
SHARDS=3 JOBS=2 logged "$work/datagen.log" \
    "$here/parallel-datagen.sh" "$work/datagen" "${datagen_options[@]}"
logged "$work/datagen-one.log" iago datagen "${datagen_options[@]}" --threads 2 --out "$work/datagen-one"
logged "$work/datagen-one.log" iago merge --out "$work/datagen-one-merged" "$work/datagen-one"
diff -r "$work/datagen/chunks" "$work/datagen-one" >/dev/null ||
    { echo "check: the shards' chunks differ from one process's" >&2; exit 1; }
diff -r "$work/datagen/merged" "$work/datagen-one-merged" >/dev/null ||
    { echo "check: the merge of the shards' chunks differs from one process's" >&2; exit 1; }
step "GNU parallel, self-play data in 3 shards: the chunks and their merge equal one process's"

#!/usr/bin/env bash
# Runs the Slurm recipes of docs/batch.md under a real Slurm on this machine (CI runs it after
# check.sh): a one-node cluster (slurmctld, slurmd, slurmdbd over a MariaDB so that sacct
# works, MUNGE) started as root from a scratch directory, and stopped at the end, also on
# failure. The jobs are submitted with the commands of docs/batch.md:
#   1. the array and its merge (slurm-solve.sbatch, slurm-merge.sbatch, afterany): the merge
#      must equal one run of the whole input apart from time_ms (compare.sh);
#   2. a fault: a task killed in the middle of its shard (scancel --signal=KILL), the merge
#      refusing the gap, the task submitted again alone (--array=I --export=ALL,SHARDS=N) and
#      resuming its shard from its --out file, then the merge again, equal to the one run;
#   3. a failed task: a shard with a corrupt input line exits 2, sacct shows it FAILED 2:0, the
#      merge refuses the incomplete set, and `iago merge --partial` merges the rest.
# Installs slurm-wlm, slurmdbd, munge and MariaDB's server and client cores with apt-get where
# missing (Debian 12). Needs root and jq; uses the TCP ports 16817-16819 and 13306 while it
# runs.
#
#   docs/batch/slurm-local.sh [IAGO]     (default: target/release/iago)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
iago=${1:-${IAGO:-$root/target/release/iago}}
export PATH="$PATH:/usr/sbin:/sbin"
start=$SECONDS
say() { echo "slurm-local: $*"; }
step() { say "$* ($((SECONDS - start)) s)"; }
fail() {
    echo "slurm-local: $*" >&2
    exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root: it starts the Slurm daemons"
[ -x "$iago" ] || fail "no iago binary at $iago (build it first)"
command -v jq >/dev/null || fail "jq is not installed"

# --- Slurm, installed where missing --------------------------------------------------------
packages=(slurm-wlm slurmdbd munge mariadb-server-core mariadb-client-core)
missing=0
for tool in slurmctld slurmd slurmdbd sbatch sacct sacctmgr munged mariadbd mariadb-install-db mariadb; do
    command -v "$tool" >/dev/null || missing=1
done
if [ "$missing" -eq 1 ]; then
    say "installing ${packages[*]} with apt-get"
    # The packages' scripts would start munged (and try the other daemons) where no policy
    # forbids it: this script starts its own, and nothing must stay running after it.
    policy=/usr/sbin/policy-rc.d
    made_policy=0
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod 755 "$policy"
        made_policy=1
    fi
    apt_log=$(mktemp)
    export DEBIAN_FRONTEND=noninteractive
    installed=1
    { apt-get install -y --no-install-recommends "${packages[@]}" ||
        { apt-get update && apt-get install -y --no-install-recommends "${packages[@]}"; }; } >"$apt_log" 2>&1 ||
        installed=0
    [ "$made_policy" -eq 0 ] || rm -f "$policy"
    if [ "$installed" -eq 0 ]; then
        tail -n 5 "$apt_log" >&2
        rm -f "$apt_log"
        fail "cannot install Slurm (apt-get install ${packages[*]}): the Slurm recipes are NOT tested"
    fi
    rm -f "$apt_log"
    step "installed $(slurmctld -V)"
fi

# --- The cluster: one node, everything under $work -------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/iago-slurm.XXXXXX")
chmod 755 "$work" # munged wants every directory above its socket searchable by all
mkdir "$work"/{bin,etc,run,log,munge,state,spool,db,jobs}
export SLURM_CONF=$work/etc/slurm.conf
ports=(16817 16818 16819 13306) # slurmctld, slurmd, slurmdbd, MariaDB

# Stops daemons by their pid files: TERM, then KILL those left after 10 s.
stop() {
    local name pid pids=() alive
    for name in "$@"; do
        [ -s "$work/run/$name.pid" ] && pids+=("$(cat "$work/run/$name.pid")")
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    kill "${pids[@]}" 2>/dev/null
    for _ in $(seq 50); do
        alive=()
        for pid in "${pids[@]}"; do
            kill -0 "$pid" 2>/dev/null && alive+=("$pid")
        done
        [ ${#alive[@]} -gt 0 ] || return 0
        sleep 0.2
    done
    kill -KILL "${alive[@]}" 2>/dev/null
}
cleanup() {
    local status=$?
    set +e
    trap - EXIT INT TERM
    if [ -s "$work/run/slurmctld.pid" ]; then
        # Jobs first: a job's slurmstepd outlives slurmd.
        squeue -h -o %A 2>/dev/null | sort -u | xargs -r scancel 2>/dev/null
        for _ in $(seq 50); do
            [ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    if [ "$status" -ne 0 ]; then
        for log in "$work"/log/*.log "$work"/jobs/*/*.log "$work"/jobs/*/*.out; do
            [ -s "$log" ] || continue
            echo "--- ${log#"$work"/} (last lines)" >&2
            tail -n 15 "$log" >&2
        done
    fi
    stop slurmd slurmctld slurmdbd mariadb munged # all at once: their records are read already
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits until a command succeeds, at most $2 seconds.
wait_for() {
    local what=$1 limit=$2 since=$SECONDS
    shift 2
    until "$@" >/dev/null 2>&1; do
        [ $((SECONDS - since)) -lt "$limit" ] || fail "$what: not after $limit s"
        sleep 0.2
    done
}

dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$work/munge/munge.key"
munge_socket=$work/munge/munge.socket
munged --key-file="$work/munge/munge.key" --socket="$munge_socket" --pid-file="$work/run/munged.pid" \
    --log-file="$work/log/munged.log" --seed-file="$work/munge/munged.seed" ||
    fail "munged does not start"

# MariaDB for slurmdbd: without it sacct has no records (slurmctld alone keeps none for it).
mariadb-install-db --no-defaults --datadir="$work/db" --user=root --skip-test-db \
    >"$work/log/mariadb-install.log" 2>&1 || fail "mariadb-install-db failed"
mariadbd --no-defaults --datadir="$work/db" --user=root --socket="$work/run/mariadb.sock" \
    --bind-address=127.0.0.1 --port="${ports[3]}" --pid-file="$work/db/mariadbd.pid" \
    --log-error="$work/log/mariadb.log" --skip-name-resolve --innodb-buffer-pool-size=128M \
    </dev/null >/dev/null 2>&1 &
echo $! >"$work/run/mariadb.pid" # it runs in the foreground: this is its pid, known at once
sql() { mariadb --no-defaults --socket="$work/run/mariadb.sock" -e "$1"; }
wait_for "MariaDB answering" 60 sql 'SELECT 1'
sql "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'iago';
     GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1';"

# The node as slurmd sees this machine (CPUs, sockets, cores, threads), with 90% of its memory.
node=$(hostname -s)
hardware=$(slurmd -C | head -n 1)
memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hardware")
[ -n "$memory" ] || fail "slurmd -C does not describe this machine: $hardware"
hardware="NodeName=$node ${hardware#NodeName=* }"
hardware=${hardware/RealMemory=$memory/RealMemory=$((memory * 9 / 10))}
cat >"$SLURM_CONF" <<EOF
ClusterName=iago
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
AuthType=auth/munge
AuthInfo=socket=$munge_socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
MailProg=/bin/true
MpiDefault=none
# No cgroups (a container may have none to give): processes tracked by their parents.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=${ports[2]}
AccountingStoragePass=$munge_socket
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=512
# A job starts as soon as it is submitted or a CPU is free (by default that may wait 3 s).
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
$hardware NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=iago Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
(
    umask 077 # slurmdbd refuses a configuration (holding a password) that others can read
    cat >"$work/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$munge_socket
DbdHost=localhost
DbdPort=${ports[2]}
SlurmUser=root
PidFile=$work/run/slurmdbd.pid
LogFile=$work/log/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=${ports[3]}
StorageUser=slurm
StoragePass=iago
StorageLoc=slurm_acct_db
EOF
)
slurmdbd || fail "slurmdbd does not start"
wait_for "slurmdbd answering" 60 sacctmgr -n list cluster
sacctmgr -i add cluster iago >/dev/null
slurmctld || fail "slurmctld does not start"
slurmd || fail "slurmd does not start"
node_idle() { [ "$(sinfo -h -n "$node" -o %T)" = idle ]; }
wait_for "node $node idle in sinfo" 60 node_idle
step "a cluster of one node: $(sinfo -h -o '%P %D node %n, %c CPUs, %m MB, %T') ($(slurmctld -V))"

# --- Helpers for the jobs --------------------------------------------------------------------
# The recipes call `iago`: this build, first on the PATH (sbatch passes the environment on).
ln -s "$(cd "$(dirname "$iago")" && pwd)/$(basename "$iago")" "$work/bin/iago"
export PATH="$work/bin:$PATH"
unset IAGO
now() { echo "$EPOCHREALTIME"; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
records() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
# The job id in sbatch's "Submitted batch job N".
submitted() { sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' <<<"$1"; }
# Waits until none of the jobs (ids joined by commas) is pending or running.
wait_jobs() {
    local since=$SECONDS
    while [ -n "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; do
        if [ $((SECONDS - since)) -ge 120 ]; then
            squeue -j "$1" >&2
            fail "jobs $1 still queued after 120 s"
        fi
        sleep 0.2
    done
}
# Waits until sacct has the final records of the jobs ($1, ids joined by commas; $2 of them,
# array tasks counted one by one), keeps them in $accounting (JobID|State|ExitCode lines) and
# prints them as sacct does.
accounting() {
    local since=$SECONDS
    while :; do
        accounting=$(sacct -X -n -P -j "$1" --format=JobID,JobName,State,ExitCode 2>/dev/null || true)
        if [ "$(grep -c . <<<"$accounting")" -eq "$2" ] &&
            ! grep -qvE '^[0-9_]+\|iago-(solve|merge)\|(COMPLETED|FAILED|CANCELLED)' <<<"$accounting"; then
            break
        fi
        [ $((SECONDS - since)) -lt 30 ] || fail "sacct has no final records of jobs $1 after 30 s: $accounting"
        sleep 0.5
    done
    accounting=$(cut -d '|' -f 1,3,4 <<<"$accounting")
    echo "  \$ sacct -X -j $1 --format=JobID,JobName,State,ExitCode,Elapsed"
    sacct -X -j "$1" --format=JobID,JobName,State,ExitCode,Elapsed | sed 's/^/  /'
}
# Fails unless sacct gave job $1 the state $2 (a prefix: CANCELLED by root is CANCELLED) and,
# if given, the exit code $3.
expect() {
    local row
    row=$(grep "^$1|" <<<"$accounting") || fail "sacct has no job $1"
    case "$row" in
    "$1|$2"*) ;;
    *) fail "job $1: $row, not $2" ;;
    esac
    [ -z "${3-}" ] || [ "${row##*|}" = "$3" ] || fail "job $1: $row, not exit code $3"
}
compare() { "$here/compare.sh" "$1" "$2" | sed 's/^/  /'; }
one_run() { iago solve problems.obf --threads 1 --out one.jsonl >one.log 2>&1 || fail "the whole run failed"; }

# --- 1. The array and its merge, as docs/batch.md gives them ------------------------------------
mkdir "$work/jobs/recipe"
cd "$work/jobs/recipe"
sed -n 2,13p "$root/tests/data/fforum-20-39.obf" >problems.obf
one_run
jobid=$(sbatch --parsable --array=0-3 "$here/slurm-solve.sbatch" problems.obf results)
# shellcheck disable=SC2086 # as docs/batch.md writes it
out=$(sbatch --dependency=afterany:$jobid "$here/slurm-merge.sbatch" results)
merge=$(submitted "$out")
say "12 FFO positions of 15-20 empties: array $jobid (4 tasks), merge $merge (afterany)"
wait_jobs "$jobid,$merge"
accounting "$jobid,$merge" 5
for task in 0 1 2 3; do expect "${jobid}_$task" COMPLETED 0:0; done
expect "$merge" COMPLETED 0:0
sed 's/^/  /' "iago-merge-$merge.out"
compare results/merged.jsonl one.jsonl
step "the Slurm array and its merge equal the whole run"

# --- 2. A task killed in the middle of its shard, and submitted again alone -------------------
mkdir "$work/jobs/fault"
cd "$work/jobs/fault"
cp "$root/tests/data/hard-20-first40.obf" problems.obf # 40 positions of 20 empties
one_run
jobid=$(sbatch --parsable --array=0-1 "$here/slurm-solve.sbatch" problems.obf results)
# shellcheck disable=SC2086 # as docs/batch.md writes it
out=$(sbatch --dependency=afterany:$jobid "$here/slurm-merge.sbatch" results)
merge=$(submitted "$out")
say "40 positions of 20 empties: array $jobid (2 tasks of 20), merge $merge (afterany)"
since=$SECONDS
until [ "$(records results/shard-1.jsonl)" -ge 5 ]; do
    [ $((SECONDS - since)) -lt 60 ] || fail "task 1 has not written 5 results after 60 s"
    sleep 0.05
done
scancel --signal=KILL "${jobid}_1"
killed=$(now)
wait_jobs "$jobid,$merge"
kept=$(records results/shard-1.jsonl)
[ "$kept" -lt 20 ] || fail "task 1 ended its shard before the kill: no fault to recover from"
say "task ${jobid}_1 killed with $kept of its 20 results in its file"
accounting "$jobid,$merge" 3
expect "${jobid}_0" COMPLETED 0:0
expect "${jobid}_1" CANCELLED
expect "$merge" FAILED 2:0
sed 's/^/  /' "iago-merge-$merge.out"
grep -q 'have no result' "iago-merge-$merge.out" || fail "the merge does not name the missing results"
# The task again alone, as docs/batch.md says, and the merge after it.
resubmitted=$(now)
rerun=$(sbatch --parsable --array=1 --export=ALL,SHARDS=2 "$here/slurm-solve.sbatch" problems.obf results)
# shellcheck disable=SC2086 # as docs/batch.md writes it
out=$(sbatch --dependency=afterany:$rerun "$here/slurm-merge.sbatch" results)
merge2=$(submitted "$out")
wait_jobs "$rerun,$merge2"
recovered=$(now)
accounting "$jobid,$merge,$rerun,$merge2" 5
expect "${rerun}_1" COMPLETED 0:0
expect "$merge2" COMPLETED 0:0
resume=$(grep 'done already' "iago-solve-${rerun}_1.out") || fail "task ${rerun}_1 did not resume its shard"
echo "  $resume"
sed 's/^/  /' "iago-merge-$merge2.out"
compare results/merged.jsonl one.jsonl
solved=$(awk '/^total:/ { print $2 }' "iago-solve-${rerun}_1.out")
solve_time=$(sed -n 's/^total:.* nodes, \([0-9.]*\) s,.*/\1/p' "iago-solve-${rerun}_1.out")
[ "$solved" -eq $((20 - kept)) ] || fail "the resubmitted task solved $solved positions, not $((20 - kept))"
say "recovery: $kept of shard 1's 20 positions kept from its file, $solved solved by the resubmitted" \
    "task in $solve_time s; positions redone: 1 (the one in progress at the kill; its work was lost)"
say "recovery: $(seconds "$resubmitted" "$recovered") s from the resubmission to the merge" \
    "($(seconds "$killed" "$recovered") s from the kill, the array's end and the failed merge included)"
step "a task killed, submitted again alone, resumed: the merge equals the whole run"

# --- 3. A shard with a corrupt line fails, visibly; --partial merges the rest ------------------
mkdir "$work/jobs/failed"
cd "$work/jobs/failed"
# Line 6 is item 5: shard 1 of 4.
awk 'NR == 6 { print "this line is corrupt"; next } { print }' ../recipe/problems.obf >problems.obf
jobid=$(sbatch --parsable --array=0-3 "$here/slurm-solve.sbatch" problems.obf results)
# shellcheck disable=SC2086 # as docs/batch.md writes it
out=$(sbatch --dependency=afterany:$jobid "$here/slurm-merge.sbatch" results)
merge=$(submitted "$out")
say "the 12 positions, line 6 corrupt: array $jobid (4 tasks), merge $merge (afterany)"
wait_jobs "$jobid,$merge"
accounting "$jobid,$merge" 5
for task in 0 2 3; do expect "${jobid}_$task" COMPLETED 0:0; done
expect "${jobid}_1" FAILED 2:0
expect "$merge" FAILED 2:0
grep '^iago: error' "iago-solve-${jobid}_1.out" | sed 's/^/  /'
[ "$(wc -l <"iago-merge-$merge.out")" -eq 1 ] || fail "the merge's message is not one line"
sed 's/^/  /' "iago-merge-$merge.out"
echo "  \$ iago merge --partial --out results/merged.jsonl results/shard-*.jsonl"
iago merge --partial --out results/merged.jsonl results/shard-*.jsonl 2>&1 | sed 's/^/  /'
jq -c 'select(.item != 5)' ../recipe/one.jsonl >expected.jsonl
compare results/merged.jsonl expected.jsonl
step "a failed task: FAILED 2:0 in sacct, the merge refused, --partial merged the other 11"

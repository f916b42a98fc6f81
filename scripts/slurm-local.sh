#!/usr/bin/env bash
# slurm-local.sh - run a real, throw-away, single-node Slurm cluster on this
# machine, for the tests and for people trying the Slurm executor of
# `train sweep`.
#
# Usage:
#   scripts/slurm-local.sh start          install slurm-wlm + munge if missing,
#                                         write the config, start munged,
#                                         slurmctld and slurmd, wait for the node
#   scripts/slurm-local.sh stop [--purge] cancel all jobs, stop the daemons;
#                                         --purge also deletes the state folder
#   scripts/slurm-local.sh status         show the daemons, sinfo and squeue;
#                                         exit 0 when up, 3 when down
#
# After `start`, point the Slurm client commands at the cluster with
#   export SLURM_CONF=/tmp/rlpool-slurm/slurm.conf
# or simply `source /tmp/rlpool-slurm/env.sh` (start and status print the line).
#
# Environment:
#   RLPOOL_SLURM_DIR        state folder (default /tmp/rlpool-slurm): config,
#                           spool, state save, logs, pid files, munge key/socket
#   RLPOOL_SLURMCTLD_PORT   slurmctld port (default 6817)
#   RLPOOL_SLURMD_PORT      slurmd port (default 6818)
#
# Notes:
#   * The daemons run as root (start needs root, or sudo without a password).
#   * Nothing in /etc/slurm or /etc/munge is used or changed: munged runs with
#     its own key and socket inside the state folder, and slurm.conf tells the
#     daemons and the client commands to use that socket (AuthInfo=socket=...).
#   * The state save folder is wiped on every start, so jobs of an earlier run
#     never come back.
#   * There is no slurmdbd, so `sacct` does not work (accounting storage is
#     disabled). Finished jobs stay visible in `scontrol show job` for
#     MinJobAge (10 minutes), and every finished job is appended to
#     $DIR/jobcomp.log by jobcomp/filetxt.
set -euo pipefail

DIR="${RLPOOL_SLURM_DIR:-/tmp/rlpool-slurm}"
CTLD_PORT="${RLPOOL_SLURMCTLD_PORT:-6817}"
SLURMD_PORT="${RLPOOL_SLURMD_PORT:-6818}"
CONF="$DIR/slurm.conf"
MUNGE_SOCKET="$DIR/munge/munge.socket"
START_TIMEOUT=30   # seconds to wait for the node to become idle
STOP_TIMEOUT=10    # seconds between SIGTERM and SIGKILL on stop

die() {
	echo "slurm-local: error: $*" >&2
	exit 1
}

log() {
	echo "slurm-local: $*"
}

# as_root runs a command as root: directly when we are root, through sudo
# otherwise, and fails with advice when neither is possible.
as_root() {
	if [[ $(id -u) -eq 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "this needs root and sudo is not installed; run the script as root"
	fi
}

# Root is needed for everything but a read-only status. Check sudo early so
# the failure is clear instead of happening half way through a start.
need_root() {
	if [[ $(id -u) -ne 0 ]]; then
		command -v sudo >/dev/null 2>&1 ||
			die "not root and sudo is missing; run the script as root"
		sudo -n true 2>/dev/null || sudo -v ||
			die "sudo failed; run the script as root or fix sudo access"
	fi
}

# install_packages makes sure the Slurm and MUNGE programs exist, installing
# Debian's slurm-wlm and munge packages when one of them is missing.
install_packages() {
	local missing=0 prog
	for prog in slurmctld slurmd sbatch squeue scancel scontrol sinfo munged munge; do
		if ! command -v "$prog" >/dev/null 2>&1 && [[ ! -x /usr/sbin/$prog ]]; then
			missing=1
		fi
	done
	[[ $missing -eq 0 ]] && return 0
	command -v apt-get >/dev/null 2>&1 ||
		die "slurm or munge is missing and apt-get is not available; install slurm-wlm and munge by hand"
	log "installing slurm-wlm and munge with apt-get"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
		die "apt-get update failed; check the network or the apt sources"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null ||
		die "apt-get install slurm-wlm munge failed; see the apt output above"
}

# Daemons live in /usr/sbin, which may not be on PATH for a normal user.
export PATH="$PATH:/usr/sbin:/sbin"

# pid_alive prints the pid stored in a pid file when that process still runs.
pid_alive() {
	local file=$1 pid
	[[ -s $file ]] || return 1
	pid=$(tr -dc '0-9' <"$file")
	[[ -n $pid ]] || return 1
	running "$pid" || return 1
	echo "$pid"
}

# running tells whether a process exists and is not a zombie (in containers
# nobody may reap the killed daemons, and kill -0 succeeds on zombies).
running() {
	local state
	as_root kill -0 "$1" 2>/dev/null || return 1
	state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null || true)
	[[ $state != Z ]]
}

# kill_leftover_steps kills slurmstepd processes of this cluster (their
# working folder is in the state folder) that outlived their slurmd, e.g.
# after a crash, together with all their job processes, so that old jobs
# cannot report to a new controller whose job ids start again at 1.
kill_leftover_steps() {
	local pid cwd victims=() kids
	for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
		cwd=$(as_root readlink "/proc/$pid/cwd" 2>/dev/null || true)
		[[ $cwd == "$DIR" || $cwd == "$DIR"/* ]] || continue
		victims+=("$pid")
		kids=$pid
		# Collect all descendants, breadth first.
		while [[ -n $kids ]]; do
			# shellcheck disable=SC2086  # kids is a list of pids
			kids=$(ps -o pid= --ppid "${kids// /,}" 2>/dev/null | tr -s ' \n' ' ' || true)
			kids=${kids# }
			kids=${kids% }
			# shellcheck disable=SC2206
			[[ -n $kids ]] && victims+=($kids)
		done
	done
	((${#victims[@]} > 0)) || return 0
	log "killing leftover job processes: ${victims[*]}"
	as_root kill -KILL "${victims[@]}" 2>/dev/null || true
}

# port_in_use tells whether something listens on a TCP port already.
port_in_use() {
	local port=$1
	if command -v ss >/dev/null 2>&1; then
		ss -Htln "sport = :$port" 2>/dev/null | grep -q .
	else
		(echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null
	fi
}

# write_config writes slurm.conf for one node with all local CPUs.
write_config() {
	local host cpus mem_mb real_mem margin
	host=$(hostname -s)
	[[ -n $host ]] || die "hostname -s is empty; set a hostname first"
	cpus=$(nproc)
	mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
	# Leave 5% (at least 512 MB) for the OS so slurmd never reports less
	# memory than configured and drains the node.
	margin=$((mem_mb / 20))
	((margin < 512)) && margin=512
	real_mem=$((mem_mb - margin))
	((real_mem < 100)) && real_mem=100

	cat >"$CONF" <<EOF
# Generated by scripts/slurm-local.sh - a single-node test cluster.
# Rewritten on every start; edit the script, not this file.
ClusterName=rlpool-local
SlurmctldHost=${host}(127.0.0.1)
SlurmctldPort=${CTLD_PORT}
SlurmdPort=${SLURMD_PORT}
SlurmUser=root
SlurmdUser=root

# MUNGE with a private key and socket in the state folder.
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=${MUNGE_SOCKET}

StateSaveLocation=${DIR}/state
SlurmdSpoolDir=${DIR}/spool/slurmd
SlurmctldPidFile=${DIR}/run/slurmctld.pid
SlurmdPidFile=${DIR}/run/slurmd.pid
SlurmctldLogFile=${DIR}/log/slurmctld.log
SlurmdLogFile=${DIR}/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info

# No cgroups: plain process tracking, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
MailProg=/bin/true

# Schedule single cores so several 1-CPU jobs share the node.
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,bf_interval=1,sched_min_interval=0
MessageTimeout=10
SlurmdTimeout=30
SlurmctldTimeout=30
ReturnToService=2

# Seconds between SIGTERM and SIGKILL at cancel and time limits.
KillWait=5
# Keep finished jobs visible in scontrol show job for 10 minutes.
MinJobAge=600
JobRequeue=1
InactiveLimit=0

# No slurmdbd: sacct is unavailable; finished jobs go to a text file.
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=${DIR}/jobcomp.log

NodeName=${host} NodeAddr=127.0.0.1 NodeHostname=${host} CPUs=${cpus} RealMemory=${real_mem} State=UNKNOWN
PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP
PartitionName=short Nodes=${host} Default=NO MaxTime=5 State=UP
EOF
}

write_env() {
	cat >"$DIR/env.sh" <<EOF
# Source this file to use the local Slurm cluster (scripts/slurm-local.sh).
export SLURM_CONF=${CONF}
EOF
}

print_env() {
	echo "export SLURM_CONF=${CONF}"
	echo "# or: source ${DIR}/env.sh"
}

# show_logs prints the end of every daemon log, for failed starts.
show_logs() {
	local f
	for f in "$DIR/munge/munged.log" "$DIR/log/slurmctld.log" "$DIR/log/slurmd.log"; do
		[[ -f $f ]] || continue
		echo "----- tail of $f -----" >&2
		as_root tail -n 20 "$f" >&2 || true
	done
}

munge_ok() {
	[[ -S $MUNGE_SOCKET ]] || return 1
	munge -n -S "$MUNGE_SOCKET" 2>/dev/null | unmunge -S "$MUNGE_SOCKET" >/dev/null 2>&1
}

# is_up: all three daemons run and slurmctld answers.
is_up() {
	[[ -f $CONF ]] || return 1
	pid_alive "$DIR/munge/munged.pid" >/dev/null || return 1
	pid_alive "$DIR/run/slurmctld.pid" >/dev/null || return 1
	pid_alive "$DIR/run/slurmd.pid" >/dev/null || return 1
	SLURM_CONF=$CONF scontrol ping 2>/dev/null | grep -q 'is UP'
}

# stop_pidfiles sends SIGTERM to the processes named by pid files (all at
# once, since each daemon takes a second or two to shut down), waits up to
# STOP_TIMEOUT seconds, then uses SIGKILL on what is left. Arguments are
# pairs: a name and a pid file.
stop_pidfiles() {
	local -a names=() pids=()
	local name file pid i k alive
	while (($# >= 2)); do
		name=$1 file=$2
		shift 2
		if pid=$(pid_alive "$file"); then
			names+=("$name")
			pids+=("$pid")
			as_root kill -TERM "$pid" 2>/dev/null || true
		else
			rm -f "$file"
		fi
	done
	((${#pids[@]} > 0)) || return 0
	for ((i = 0; i < STOP_TIMEOUT * 10; i++)); do
		alive=0
		for pid in "${pids[@]}"; do
			running "$pid" && alive=1
		done
		((alive)) || break
		sleep 0.1
	done
	for k in "${!pids[@]}"; do
		pid=${pids[$k]}
		if running "$pid"; then
			log "${names[$k]} (pid $pid) ignored SIGTERM for ${STOP_TIMEOUT}s, sending SIGKILL"
			as_root kill -KILL "$pid" 2>/dev/null || true
			for ((i = 0; i < 50; i++)); do
				running "$pid" || break
				sleep 0.1
			done
		fi
		log "stopped ${names[$k]} (pid $pid)"
	done
}

cmd_start() {
	local t0 t1 i state f port
	t0=$(date +%s.%N)
	need_root
	install_packages

	if is_up; then
		log "already running (state folder $DIR)"
		print_env
		return 0
	fi
	# Half-running leftovers of a crashed run: stop them before starting over.
	cmd_stop >/dev/null 2>&1 || true

	if [[ $(id -u) -ne 0 ]]; then
		die "start must run as root (the daemons run as root); try: sudo $0 start"
	fi

	for port in "$CTLD_PORT" "$SLURMD_PORT"; do
		if port_in_use "$port"; then
			die "TCP port $port is in use (another Slurm?); pick free ports, e.g. RLPOOL_SLURMCTLD_PORT=7817 RLPOOL_SLURMD_PORT=7818 $0 start"
		fi
	done

	# The folder and the munge subfolder must be reachable by everyone (munged
	# insists on it for the socket) but writable only by root.
	mkdir -p "$DIR" "$DIR/munge" "$DIR/run" "$DIR/log" "$DIR/spool/slurmd"
	chmod 755 "$DIR" "$DIR/munge"
	# Clear the saved controller and slurmd state so old jobs don't come back.
	rm -rf "$DIR/state" "$DIR/spool/slurmd"
	mkdir -p "$DIR/state" "$DIR/spool/slurmd"
	# Keep the logs of the previous run as *.prev, start fresh ones. Job ids
	# start again at 1 after the state is cleared, so jobcomp.log goes too.
	for f in "$DIR/log/slurmctld.log" "$DIR/log/slurmd.log" "$DIR/munge/munged.log" "$DIR/jobcomp.log"; do
		[[ -f $f ]] && mv -f "$f" "$f.prev"
	done
	rm -f "$DIR"/run/*.pid "$DIR/munge/munged.pid" "$MUNGE_SOCKET" "$MUNGE_SOCKET.lock"

	write_config
	write_env

	# MUNGE: a private key, created once and kept across restarts.
	if [[ ! -s $DIR/munge/munge.key ]]; then
		if command -v mungekey >/dev/null 2>&1; then
			mungekey --create --bits=1024 --keyfile="$DIR/munge/munge.key"
		else
			dd if=/dev/urandom of="$DIR/munge/munge.key" bs=128 count=1 status=none
		fi
	fi
	chmod 600 "$DIR/munge/munge.key"
	munged --socket="$MUNGE_SOCKET" \
		--key-file="$DIR/munge/munge.key" \
		--pid-file="$DIR/munge/munged.pid" \
		--log-file="$DIR/munge/munged.log" \
		--seed-file="$DIR/munge/munged.seed" ||
		{ show_logs; die "munged failed to start (see its log above)"; }
	for ((i = 0; i < 50; i++)); do
		munge_ok && break
		sleep 0.1
	done
	munge_ok || { show_logs; die "munged does not answer on $MUNGE_SOCKET"; }

	# -c: start with a clean controller state (no old jobs or node states).
	slurmctld -c -f "$CONF" ||
		{ show_logs; die "slurmctld failed to start (see its log above)"; }
	slurmd -f "$CONF" ||
		{ show_logs; die "slurmd failed to start (see its log above)"; }

	# Wait until the node reports idle.
	state=""
	for ((i = 0; i < START_TIMEOUT * 10; i++)); do
		state=$(SLURM_CONF=$CONF sinfo -h -N -o '%T' 2>/dev/null | head -n1 || true)
		[[ $state == idle ]] && break
		sleep 0.1
	done
	if [[ $state != idle ]]; then
		show_logs
		die "node not idle after ${START_TIMEOUT}s (state '${state:-none}'); see the logs above, then run: $0 stop"
	fi
	t1=$(date +%s.%N)
	log "cluster up in $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')s (state folder $DIR)"
	SLURM_CONF=$CONF sinfo
	print_env
}

cmd_stop() {
	local purge=0 running=0
	[[ ${1:-} == --purge ]] && purge=1
	if [[ -f $CONF ]] && pid_alive "$DIR/run/slurmctld.pid" >/dev/null 2>&1; then
		need_root
		running=1
		# Cancel every job (any user) and kill its processes right away, so
		# no job process outlives slurmd; then wait for the jobs to finish.
		local ids i
		ids=$(SLURM_CONF=$CONF squeue -h -o '%A' 2>/dev/null | tr '\n' ' ' || true)
		if [[ -n ${ids// /} ]]; then
			# shellcheck disable=SC2086  # ids is a list of job ids
			SLURM_CONF=$CONF as_root scancel --quiet --full --signal=KILL $ids 2>/dev/null || true
			# shellcheck disable=SC2086
			SLURM_CONF=$CONF as_root scancel --quiet $ids 2>/dev/null || true
			for ((i = 0; i < 100; i++)); do
				SLURM_CONF=$CONF squeue -h -t RUNNING,COMPLETING,SUSPENDED -o '%A' 2>/dev/null | grep -q . || break
				sleep 0.1
			done
			log "cancelled jobs: $ids"
		fi
	fi
	if [[ -d $DIR ]]; then
		pid_alive "$DIR/run/slurmd.pid" >/dev/null 2>&1 && { need_root; running=1; }
		pid_alive "$DIR/munge/munged.pid" >/dev/null 2>&1 && { need_root; running=1; }
		# slurmd and slurmctld together, munged last (they use it).
		stop_pidfiles slurmd "$DIR/run/slurmd.pid" slurmctld "$DIR/run/slurmctld.pid"
		stop_pidfiles munged "$DIR/munge/munged.pid"
		rm -f "$DIR/run/slurmd.pid" "$DIR/run/slurmctld.pid" "$DIR/munge/munged.pid"
		kill_leftover_steps
	fi
	[[ $running -eq 0 ]] && log "not running"
	if [[ $purge -eq 1 && -d $DIR ]]; then
		need_root
		as_root rm -rf "$DIR"
		log "removed $DIR"
	fi
	return 0
}

cmd_status() {
	local name file pid down=0
	for name in munged slurmctld slurmd; do
		case $name in
		munged) file="$DIR/munge/munged.pid" ;;
		*) file="$DIR/run/$name.pid" ;;
		esac
		if pid=$(pid_alive "$file" 2>/dev/null); then
			echo "$name: running (pid $pid)"
		else
			echo "$name: not running"
			down=1
		fi
	done
	if [[ $down -eq 0 ]] && is_up; then
		SLURM_CONF=$CONF sinfo || true
		SLURM_CONF=$CONF squeue || true
		print_env
		return 0
	fi
	echo "cluster is down (state folder $DIR); start it with: $0 start"
	return 3
}

case "${1:-}" in
start) cmd_start ;;
stop)
	shift
	cmd_stop "$@"
	;;
status) cmd_status ;;
-h | --help | help)
	sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
	;;
*)
	echo "usage: $0 start|stop [--purge]|status" >&2
	exit 2
	;;
esac

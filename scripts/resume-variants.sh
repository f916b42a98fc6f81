#!/bin/bash
# resume-variants.sh: continue one run several ways side by side, to compare settings
# from the same point of training (a learning rate or an entropy cost late in a run)
# without paying for the steps before it again.
#
#   scripts/resume-variants.sh RUNDIR SECONDS OUTDIR 'SETTINGS' ['SETTINGS' ...]
#
# Each SETTINGS string is one variant: the -set arguments of `train -resume`, e.g.
# '-set impala.entropy_cost=0.002' ('' resumes unchanged). Variant k copies RUNDIR to
# OUTDIR/vk (the original is not touched), resumes it for SECONDS pinned to its own
# CORES cores (taskset; run.threads and env.num_threads set to CORES), and a table of
# where each ended is printed: env steps, the mean of the last run.recent_episodes
# episodes, the best such mean after the resume and the policy entropy.
#
# Environment: TRAIN (the binary, default bin/train), CORES (cores per run, default 2).
# Runs beyond the machine's cores share them (the cores wrap around).
set -euo pipefail

if [ $# -lt 4 ]; then
	echo "usage: $0 RUNDIR SECONDS OUTDIR 'SETTINGS' ['SETTINGS' ...]" >&2
	exit 2
fi
run=$1 secs=$2 out=$3
shift 3
train=$(realpath "${TRAIN:-bin/train}")
cores=${CORES:-2}
ncpu=$(nproc)
[ -x "$train" ] || { echo "$0: no train binary at $train (make build, or set TRAIN)" >&2; exit 1; }
[ -f "$run/config.toml" ] || { echo "$0: $run is not a run folder (no config.toml)" >&2; exit 1; }
mkdir -p "$out"
[ -z "$(ls -A "$out")" ] || { echo "$0: $out is not empty" >&2; exit 1; }

k=0
for v in "$@"; do
	k=$((k + 1))
	cp -r "$run" "$out/v$k"
	printf '%s\n' "$v" > "$out/v$k.settings"
	list=""
	for ((c = 0; c < cores; c++)); do
		list+="${list:+,}$((((k - 1) * cores + c) % ncpu))"
	done
	# shellcheck disable=SC2086 # each variant's settings are separate words
	(cd "$out" && taskset -c "$list" timeout -s INT "$secs" "$train" -resume "v$k" \
		-set run.threads="$cores" -set env.num_threads="$cores" $v >"v$k.log" 2>&1 || true) &
done
wait

# metrics.csv: env_steps first; recent_return_mean and entropy found by name.
start=$(tail -n 1 "$run/metrics.csv" | cut -d, -f1)
printf '%-4s %-12s %-10s %-10s %-8s %s\n' run env_steps recent best entropy settings
for i in $(seq 1 $k); do
	awk -F, -v start="$start" -v name="v$i" -v set="$(cat "$out/v$i.settings")" '
		NR == 1 { for (c = 1; c <= NF; c++) { if ($c == "recent_return_mean") r = c; if ($c == "entropy") e = c }; next }
		$1 + 0 > start + 0 { steps = $1; if ($r != "NaN") { last = $r; if (best == "" || $r + 0 > best + 0) best = $r }; ent = $e }
		END { printf "%-4s %-12s %-10s %-10s %-8.3f %s\n", name, steps, last, best, ent, set }' "$out/v$i/metrics.csv"
done

#!/bin/sh
# cpu-floor.sh [-cores N] LOG...: how fast a PPO run could have gone had the CPU time it
# used kept every core busy.
#
# Reads the closing lines `train` prints at the end of a run (its output saved to LOG):
#   run DIR: finished at S env steps, W s (...)          (or "interrupted at")
#   run DIR: time by phase in this process: collect C s (..%) at P% CPU, learn L s (..%) at Q% CPU
# and prints, per log, the env steps a second the run reached (S / W), the CPU time per
# env step, and the rate the same CPU time would give on N fully busy cores (default:
# this machine's count), with the ratio of the two. The floor assumes the same work: it
# is an upper bound on what removing idle time alone can buy, not a prediction.
set -eu
cores=$(nproc)
if [ "${1:-}" = "-cores" ]; then
	cores=$2
	shift 2
fi
if [ $# -eq 0 ]; then
	echo "usage: $0 [-cores N] LOG..." >&2
	exit 2
fi
for f in "$@"; do
	awk -v cores="$cores" -v name="$f" '
	/: (finished|interrupted) at [0-9]+ env steps, / {
		for (i = 1; i <= NF; i++) if ($i == "env" && $(i+1) == "steps,") { steps = $(i-1); wall = $(i+2) }
	}
	/time by phase in this process: collect / {
		for (i = 1; i <= NF; i++) {
			if ($i == "collect") { cs = $(i+1); cp = $(i+5) }
			if ($i == "learn") { ls = $(i+1); lp = $(i+5) }
		}
		sub("%", "", cp); sub("%", "", lp)
	}
	END {
		if (steps == "" || cs == "") {
			printf "%s: no closing lines of a PPO run (\"finished at\" or \"interrupted at\", and \"time by phase\")\n", name > "/dev/stderr"
			exit 1
		}
		core = (cs * cp + ls * lp) / 100
		floor = steps / (core / cores)
		printf "%s: %d env steps in %.1f s, %.0f env steps/s; %.3f core-ms per env step; %d busy cores: %.0f env steps/s (the run reached %.2f of it)\n",
			name, steps, wall, steps / wall, 1000 * core / steps, cores, floor, (steps / wall) / floor
	}' "$f"
done

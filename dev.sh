#!/usr/bin/env bash
# The project's one entry point on a fresh machine.
#   ./dev.sh demo [args]   run the main job on embedded defaults (installs what it needs first)
#   ./dev.sh test [args]   install, start real services (Redis, tritonserver), run ruff + pytest, stop them
#   ./dev.sh setup         only create/refresh the virtualenv
#   ./dev.sh deid ARGS     run the deid CLI from the virtualenv
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"
cd "$ROOT"

say() { echo "dev.sh: $*" >&2; }

setup() {
  if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    say "Python >= 3.11 is required (found: $("$PY" --version 2>&1)); set PYTHON=/path/to/python3.11"; exit 1
  fi
  if [[ ! -x "$VENV/bin/python" ]]; then
    if ! "$PY" -m venv "$VENV" 2>/dev/null; then
      if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        say "installing python3-venv"; apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
      fi
      "$PY" -m venv "$VENV"
    fi
  fi
  # Reinstall only when a dependency list changed: a stamp holds the hash of both pyproject.toml files.
  local stamp="$VENV/.deid-installed" want
  want=$(cat pyproject.toml tools/pyproject.toml | sha256sum | cut -d' ' -f1)
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    say "installing dependencies into .venv (first run takes a minute or two)"
    "$VENV/bin/python" -m pip install -q --upgrade pip 2>&1 | grep -v "is ignored" >&2 || true
    # The runtime and, beside it, the tooling (tools/: corpus, evaluation, training) that demo and tests use.
    "$VENV/bin/python" -m pip install -q -e ".[test]" -e tools/ 2>&1 | grep -v -e "is ignored" -e "^\s*$" >&2 || true
    "$VENV/bin/python" -c "import deid_core, schemas, workers, deid_tools.corpus, pydantic, redis, faker, hypothesis, pytest, torch, tritonclient.grpc, pytriton" \
      || { say "dependency installation failed"; exit 1; }
    echo "$want" >"$stamp"
  fi
}

run_tests() {
  setup
  export DEID_RUN_DIR="$ROOT/.run/test-services"
  trap '"$ROOT/scripts/services.sh" stop || true' EXIT
  local env_lines
  env_lines=$("$ROOT/scripts/services.sh" start redis triton broker)
  while IFS= read -r line; do [[ "$line" == *=* ]] && export "${line?}"; done <<<"$env_lines"
  say "services: $(echo "$env_lines" | tr '\n' ' ')"
  "$VENV/bin/ruff" check schemas deid_core workers tools tests
  "$VENV/bin/python" -m pytest "$@"
}

cmd=${1:-help}; shift || true
case "$cmd" in
  setup) setup ;;
  test) run_tests "$@" ;;
  demo) setup; exec "$VENV/bin/deid" demo "$@" ;;
  deid) setup; exec "$VENV/bin/deid" "$@" ;;
  *) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; [[ "$cmd" == help ]] || exit 2 ;;
esac

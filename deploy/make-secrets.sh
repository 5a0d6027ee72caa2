#!/usr/bin/env bash
# Create the secret files deploy/compose.yaml mounts, with fresh random values, if they are missing.
# Never overwrites: rotating the HMAC key is a procedure (docs/deployment.md), not a re-run of this.
#   deploy/make-secrets.sh [DIR]     (default: deploy/secrets)
set -euo pipefail
DIR="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/secrets}"
mkdir -p "$DIR"
chmod 0700 "$DIR"

rand() { python3 -c 'import secrets; print(secrets.token_urlsafe(48))'; }

write() {  # write NAME CONTENT
  local path="$DIR/$1"
  if [[ -e "$path" ]]; then echo "make-secrets: $path exists, kept" >&2; return; fi
  ( umask 077; printf '%s\n' "$2" >"$path" )
  # Compose bind-mounts file secrets with their host mode; the containers run as non-root users
  # (worker and serve 10001, redis 999, grafana 472), so the files are world-readable inside a 0700 directory.
  chmod 0444 "$path"
  echo "make-secrets: wrote $path" >&2
}

# The HMAC key that keys every surrogate mapping: first line "<version>:<secret>".
write deid-hmac "v1:$(rand)"
write redis-password "$(rand)"
# The bearer token deid serve's clients send (Authorization: Bearer <token>).
write serve-token "$(rand)"
write grafana-admin-password "$(rand)"

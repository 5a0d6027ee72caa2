#!/usr/bin/env bash
# Create (or confirm) the deid-stream topics before the workers start (they run with
# DEID_CREATE_TOPICS=false in production). Idempotent: existing topics are left as they are.
#   BOOTSTRAP=kafka:9092 PARTITIONS=12 REPLICATION=3 deploy/create-topics.sh
# Runs wherever kafka-topics.sh is: the apache/kafka image has it in /opt/kafka/bin (KAFKA_BIN).
# Partitions bound the worker parallelism: one partition is consumed by one worker at a time, so
# maxReplicas of the autoscalers equals PARTITIONS. Adding partitions later re-maps patient keys to
# partitions (ordering per patient breaks across the change) and the demographics changelog must
# then grow with it: choose the count up front.
set -euo pipefail

BOOTSTRAP="${BOOTSTRAP:-${DEID_KAFKA_BOOTSTRAP:-kafka:9092}}"
PARTITIONS="${PARTITIONS:-${DEID_TOPIC_PARTITIONS:-12}}"
REPLICATION="${REPLICATION:-3}"
MIN_ISR="${MIN_ISR:-$(( REPLICATION > 1 ? 2 : 1 ))}"
APP_ID="${DEID_APP_ID:-deid-stream}"
KAFKA_BIN="${KAFKA_BIN:-/opt/kafka/bin}"
# Client properties for SASL/SSL clusters (security.protocol, sasl.*, ssl.*), passed to every call.
COMMAND_CONFIG="${KAFKA_COMMAND_CONFIG:-}"

DAY_MS=86400000
# Input topics hold PHI: keep them only as long as a reprocessing window needs (3 days by default).
RETENTION_IN_MS="${RETENTION_IN_MS:-$(( 3 * DAY_MS ))}"
RETENTION_OUT_MS="${RETENTION_OUT_MS:-$(( 30 * DAY_MS ))}"
# Dead letters carry the original (PHI) bytes: short retention, restricted ACLs.
RETENTION_DEAD_LETTER_MS="${RETENTION_DEAD_LETTER_MS:-$(( 14 * DAY_MS ))}"
RETENTION_AUDIT_MS="${RETENTION_AUDIT_MS:-$(( 365 * DAY_MS ))}"

topics() {
  local extra=()
  [[ -n "$COMMAND_CONFIG" ]] && extra=(--command-config "$COMMAND_CONFIG")
  "$KAFKA_BIN/kafka-topics.sh" --bootstrap-server "$BOOTSTRAP" "${extra[@]}" "$@"
}

create() {  # create NAME CONFIG...
  local name=$1; shift
  local args=(--create --if-not-exists --topic "$name" --partitions "$PARTITIONS"
              --replication-factor "$REPLICATION" --config "min.insync.replicas=$MIN_ISR")
  local c
  for c in "$@"; do args+=(--config "$c"); done
  topics "${args[@]}"
  echo "create-topics: $name ready (partitions=$PARTITIONS replication=$REPLICATION $*)" >&2
}

create "${DEID_TOPIC_NOTES_IN:-deid.notes.in}" cleanup.policy=delete "retention.ms=$RETENTION_IN_MS"
# Demographics are keyed by patient id and only the latest event per patient matters: compact.
create "${DEID_TOPIC_DEMOGRAPHICS:-deid.demographics}" cleanup.policy=compact min.cleanable.dirty.ratio=0.1 \
  segment.ms=3600000
# faust's changelog of the demographics table: compacted and co-partitioned with its source topic.
create "${APP_ID}-demographics-changelog" cleanup.policy=compact
create "${DEID_TOPIC_NOTES_OUT:-deid.notes.out}" cleanup.policy=delete "retention.ms=$RETENTION_OUT_MS"
create "${DEID_TOPIC_JSON_OUT:-deid.notes.json}" cleanup.policy=delete "retention.ms=$RETENTION_OUT_MS"
create "${DEID_TOPIC_DEAD_LETTER:-deid.deadletter}" cleanup.policy=delete "retention.ms=$RETENTION_DEAD_LETTER_MS"
create "${DEID_TOPIC_AUDIT:-deid.audit}" cleanup.policy=delete "retention.ms=$RETENTION_AUDIT_MS"

topics --describe --topic "${DEID_TOPIC_NOTES_IN:-deid.notes.in}" >&2

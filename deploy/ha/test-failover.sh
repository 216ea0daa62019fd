#!/usr/bin/env bash
# Failover test (deploy/ha/README.md): etcd, two Patroni/PostgreSQL 15 nodes in synchronous replication, HAProxy
# routing to the primary, two CoalX app nodes through HAProxy, 50 bidding clients, then a host crash of the primary.
# Run as root from anywhere: deploy/ha/test-failover.sh   (KEEP_WORK=1 keeps the temporary folder and its logs)
# Everything listens on loopback ports of its own (below, each overridable); it installs patroni, etcd-server,
# etcd-client and haproxy with apt-get when missing, and stops and removes only what it started.
set -Eeuo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ETCD_PORT=${ETCD_PORT:-23790}
ETCD_PEER_PORT=${ETCD_PEER_PORT:-23800}
PG1_PORT=${PG1_PORT:-55431}
PG2_PORT=${PG2_PORT:-55432}
REST1_PORT=${REST1_PORT:-58008}
REST2_PORT=${REST2_PORT:-58009}
PROXY_PORT=${PROXY_PORT:-55400}
STATS_PORT=${STATS_PORT:-55409}
APP1_PORT=${APP1_PORT:-55501}
APP2_PORT=${APP2_PORT:-55502}
DB_NAME=coalx
PG_BIN=/usr/lib/postgresql/15/bin

say() { printf '[test-failover %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { say "ERROR: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root: it installs packages and runs Patroni as the postgres user"

# --- packages --------------------------------------------------------------------------------------------------
missing=()
command -v patroni >/dev/null || missing+=(patroni)
command -v etcd >/dev/null || missing+=(etcd-server)
command -v etcdctl >/dev/null || missing+=(etcd-client)
command -v haproxy >/dev/null || missing+=(haproxy)
command -v psql >/dev/null || missing+=(postgresql-client)
command -v curl >/dev/null || missing+=(curl)
[ -x "$PG_BIN/postgres" ] || missing+=(postgresql-15)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
fi
[ -d "$ROOT/node_modules" ] || die "run npm ci in $ROOT first"

# --- clean-up: only the processes started here, by pid ------------------------------------------------------------
WORK=$(mktemp -d /tmp/coalx-ha.XXXXXX)
chmod 755 "$WORK"
APP_PIDS=()
PATRONI_PIDS=()
HAPROXY_PID=
ETCD_PID=
result=1

stop_pid() { # pid signal-first seconds-to-wait
  local pid=$1 sig=$2 wait=$3
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill "-$sig" "$pid" 2>/dev/null || true
  for _ in $(seq $((wait * 10))); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
  set +e
  if [ "$result" != 0 ]; then
    for f in "$WORK"/app1.log "$WORK"/app2.log; do
      # without the error objects' indented fields: the message and where it was thrown stay
      [ -f "$f" ] && { echo "--- last lines of $f"; grep -v -E '^ +[a-zA-Z]+: |^ +[}{]' "$f" | tail -n 20 | cut -c1-300; }
    done
    for f in "$WORK"/pg1/patroni.log "$WORK"/pg2/patroni.log; do
      [ -f "$f" ] && { echo "--- last Patroni lines of $f"; grep -E '^[0-9-]+ [0-9:,]+ (INFO|WARNING|ERROR)' "$f" | grep -v -e Traceback -e 'Exception happened' | tail -n 8; }
    done
  fi
  for pid in "${APP_PIDS[@]}"; do stop_pid "$pid" TERM 10; done
  for pid in "${PATRONI_PIDS[@]}"; do stop_pid "$pid" TERM 20; done
  # a postmaster left behind (its Patroni was killed): it and its backends, by the pids it wrote
  for node in pg1 pg2; do
    pidfile="$WORK/$node/data/postmaster.pid"
    [ -f "$pidfile" ] || continue
    pm=$(head -n 1 "$pidfile")
    if [ -n "$pm" ] && [ "$(ps -o comm= -p "$pm" 2>/dev/null)" = postgres ]; then
      children=$(ps -o pid= --ppid "$pm" 2>/dev/null)
      kill -KILL "$pm" $children 2>/dev/null
    fi
  done
  stop_pid "$HAPROXY_PID" TERM 5
  stop_pid "$ETCD_PID" TERM 5
  if [ "${KEEP_WORK:-}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for() { # seconds description command…
  local seconds=$1 what=$2
  shift 2
  for _ in $(seq $((seconds * 4))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.25; done
  die "$what did not come up within $seconds s"
}
http_is() { [ "$(curl -s -o /dev/null -m 2 -w '%{http_code}' "$2")" = "$1" ]; }
has_sync_standby() { curl -s -m 2 "http://127.0.0.1:$REST1_PORT/cluster" | python3 -c 'import json,sys; sys.exit(0 if any(m.get("role")=="sync_standby" and m.get("state") in ("streaming","running") for m in json.load(sys.stdin)["members"]) else 1)'; }
# HAProxy counts a server up until its first checks fail: wait until only the primary is up
proxy_routes_to_primary_only() {
  curl -s -m 2 "http://127.0.0.1:$STATS_PORT/;csv" | python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(line.lstrip("# ") for line in sys.stdin) if r["pxname"] == "postgres-primary" and r["svname"] in ("pg1", "pg2")]
up = [r["svname"] for r in rows if r["status"].startswith("UP")]
sys.exit(0 if up == ["pg1"] and len(rows) == 2 else 1)'
}
fill() { # template → file, @KEY@ replaced by the values given as KEY=value
  local template=$1 out=$2
  shift 2
  local args=()
  for pair in "$@"; do args+=(-e "s|@${pair%%=*}@|${pair#*=}|g"); done
  sed "${args[@]}" "$template" >"$out"
}

# --- etcd ---------------------------------------------------------------------------------------------------------
say "etcd on 127.0.0.1:$ETCD_PORT (work folder $WORK)"
etcd --name coalx-ha --data-dir "$WORK/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "coalx-ha=http://127.0.0.1:$ETCD_PEER_PORT" --enable-v2=true >"$WORK/etcd.log" 2>&1 &
ETCD_PID=$!
wait_for 30 etcd http_is 200 "http://127.0.0.1:$ETCD_PORT/health"

# --- two Patroni nodes, as postgres ---------------------------------------------------------------------------------
start_patroni() { # name pg-port rest-port
  local name=$1
  mkdir -p "$WORK/$name"
  fill "$HERE/patroni.yml.template" "$WORK/$name/patroni.yml" NAME="$name" PG_PORT="$2" REST_PORT="$3" \
    DATA_DIR="$WORK/$name/data" RUN_DIR="$WORK/$name" ETCD="127.0.0.1:$ETCD_PORT"
  chown -R postgres:postgres "$WORK/$name"
  (cd "$WORK/$name" && exec setpriv --reuid=postgres --regid=postgres --init-groups env HOME="$WORK/$name" patroni "$WORK/$name/patroni.yml") >"$WORK/$name/patroni.log" 2>&1 &
  PATRONI_PIDS+=($!)
}
say "Patroni pg1: PostgreSQL 127.0.0.1:$PG1_PORT, REST 127.0.0.1:$REST1_PORT"
start_patroni pg1 "$PG1_PORT" "$REST1_PORT"
wait_for 90 "pg1 as primary" http_is 200 "http://127.0.0.1:$REST1_PORT/primary"
say "Patroni pg2: PostgreSQL 127.0.0.1:$PG2_PORT, REST 127.0.0.1:$REST2_PORT"
start_patroni pg2 "$PG2_PORT" "$REST2_PORT"
wait_for 90 "pg2 as synchronous standby" has_sync_standby

# --- HAProxy --------------------------------------------------------------------------------------------------------
say "HAProxy on 127.0.0.1:$PROXY_PORT (stats http://127.0.0.1:$STATS_PORT/)"
fill "$HERE/haproxy.cfg.template" "$WORK/haproxy.cfg" PROXY_PORT="$PROXY_PORT" STATS_PORT="$STATS_PORT" \
  PG1="127.0.0.1:$PG1_PORT" REST1="$REST1_PORT" PG2="127.0.0.1:$PG2_PORT" REST2="$REST2_PORT"
haproxy -f "$WORK/haproxy.cfg" -db >"$WORK/haproxy.log" 2>&1 &
HAPROXY_PID=$!
wait_for 30 "HAProxy routing to pg1 only" proxy_routes_to_primary_only
wait_for 30 "PostgreSQL through HAProxy" psql -h 127.0.0.1 -p "$PROXY_PORT" -U postgres -d postgres -Atc 'SELECT 1'
psql -h 127.0.0.1 -p "$PROXY_PORT" -U postgres -d postgres -qc "CREATE DATABASE $DB_NAME" >/dev/null

# --- two app nodes through HAProxy ----------------------------------------------------------------------------------
DATABASE_URL="postgres://postgres@127.0.0.1:$PROXY_PORT/$DB_NAME"
# the platform CA's key lives in the database, sealed with this passphrase: the same on every node
CA_KEY_PASSPHRASE="ha-test-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
start_app() { # n port
  mkdir -p "$WORK/app$1"
  (cd "$ROOT/apps/server" && DATA_DIR="$WORK/app$1" WEB_DIST="$WORK/no-web" DATABASE_URL="$DATABASE_URL" DEMO_DATA=1 CA_KEY_PASSPHRASE="$CA_KEY_PASSPHRASE" \
    BID_RATE_LIMIT=100000 LOG_LEVEL="${APP_LOG_LEVEL:-warn}" PORT="$2" HOST=127.0.0.1 exec node --import tsx src/main.ts) >"$WORK/app$1.log" 2>&1 &
  APP_PIDS+=($!)
}
say "app node 1 on 127.0.0.1:$APP1_PORT (loads the demo data)"
start_app 1 "$APP1_PORT"
wait_for 120 "app node 1" http_is 200 "http://127.0.0.1:$APP1_PORT/trade-api/health"
say "app node 2 on 127.0.0.1:$APP2_PORT"
start_app 2 "$APP2_PORT"
wait_for 120 "app node 2" http_is 200 "http://127.0.0.1:$APP2_PORT/trade-api/health"

# --- bids, the crash, the checks ------------------------------------------------------------------------------------
say "bidding, crashing the primary, checking"
set +e
(cd "$ROOT" && APP_URLS="http://127.0.0.1:$APP1_PORT,http://127.0.0.1:$APP2_PORT" \
  PG_URLS="postgres://postgres@127.0.0.1:$PG1_PORT/$DB_NAME,postgres://postgres@127.0.0.1:$PG2_PORT/$DB_NAME" \
  PATRONI_URLS="http://127.0.0.1:$REST1_PORT,http://127.0.0.1:$REST2_PORT" \
  PATRONI_PIDS="${PATRONI_PIDS[0]},${PATRONI_PIDS[1]}" APP_PIDS="${APP_PIDS[0]},${APP_PIDS[1]}" PG_DATA_DIRS="$WORK/pg1/data,$WORK/pg2/data" \
  node --import tsx deploy/ha/failover.mjs)
result=$?
set -e
# the app nodes ran through the failover without a restart
for i in 0 1; do kill -0 "${APP_PIDS[$i]}" 2>/dev/null || { say "app node $((i + 1)) is no longer running"; result=1; }; done
say "$([ "$result" = 0 ] && echo PASSED || echo FAILED)"
exit "$result"

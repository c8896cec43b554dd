#!/usr/bin/env bash
# Load test on loopback: gunicorn + PostgreSQL + Redis (cache db 12, Celery broker db 13) + a Celery worker,
# locust headless with anonymous visitors reading public pages while directors upload a session again and again.
#
#   bench/load/run.sh          full form: 200 visitors + 4 directors for 60 s; fails on any error or public p95 >= 300 ms
#   bench/load/run.sh short    CI form: 50 visitors + 2 directors for 15 s; fails on any error (no latency bound)
#
# Overrides: LOAD_VISITORS, LOAD_DIRECTORS, LOAD_RUN_TIME, LOAD_SPAWN_RATE, LOAD_P95_MS, LOAD_DB, LOAD_PORT,
# LOAD_WORKERS (gunicorn processes), LOAD_OUT (folder for the logs, the CSVs and summary.json),
# LOAD_DROP_DB=1 (drop the database at the end; CI), LOAD_REUSE_DB=1 (keep the seeded database of a former run).
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust) and Redis on 127.0.0.1:6379; exits 3 when either
# does not answer. Every process it starts is stopped on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
PY=$ROOT/.venv/bin/python
MODE=${1:-full}

if [ "$MODE" = short ]; then
  VISITORS=${LOAD_VISITORS:-50}; DIRECTORS=${LOAD_DIRECTORS:-2}; RUN_TIME=${LOAD_RUN_TIME:-15s}
  SPAWN_RATE=${LOAD_SPAWN_RATE:-25}; P95_MS=${LOAD_P95_MS:-}
else
  VISITORS=${LOAD_VISITORS:-200}; DIRECTORS=${LOAD_DIRECTORS:-4}; RUN_TIME=${LOAD_RUN_TIME:-60s}
  SPAWN_RATE=${LOAD_SPAWN_RATE:-50}; P95_MS=${LOAD_P95_MS:-300}
fi
DB=${LOAD_DB:-vp_load}
PORT=${LOAD_PORT:-$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")}
WORKERS=${LOAD_WORKERS:-3}
OUT=${LOAD_OUT:-$ROOT/var/load}
mkdir -p "$OUT"

port_open() { python3 -c "import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(s.connect_ex(('127.0.0.1', $1)))"; }
if ! port_open 5432 || ! port_open 6379; then
  echo "!! load test: PostgreSQL (5432) or Redis (6379) is not answering" >&2
  exit 3
fi
if port_open "$PORT"; then
  echo "!! load test: port $PORT is already taken (set LOAD_PORT)" >&2
  exit 3
fi

export DEBUG=0
export SECRET_KEY=load-test-only-key-0123456789abcdefghijklmnopqrstuvwxyz-not-secret
export ALLOWED_HOSTS=127.0.0.1,localhost
export PORTAL_URL=http://127.0.0.1:$PORT
export SECURE_SSL_REDIRECT=0
export DATABASE_URL=postgres://postgres@127.0.0.1:5432/$DB
export CACHE_URL=rediscache://127.0.0.1:6379/12
export CELERY_BROKER_URL=redis://127.0.0.1:6379/13
export STATIC_ROOT=$OUT/static
export MEDIA_ROOT=$OUT/uploads
export LOG_LEVEL=WARNING
export DJANGO_SETTINGS_MODULE=config.settings

PIDS=()
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  done
}
drop_db() {
  "$PY" -c "import psycopg,sys; psycopg.connect('postgresql://postgres@127.0.0.1:5432/postgres', autocommit=True).execute('DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)')" || true
}
on_exit() {
  cleanup
  if [ "${LOAD_DROP_DB:-0}" = 1 ]; then drop_db; fi
}
trap on_exit EXIT
trap 'exit 130' INT TERM

if [ "${LOAD_REUSE_DB:-0}" = 1 ]; then
  echo "== load ($MODE): database $DB as it is (LOAD_REUSE_DB=1)"
else
  echo "== load ($MODE): database $DB, demo data"
  "$PY" - "$DB" <<'EOF'
import sys
import psycopg
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
    conn.execute(f'DROP DATABASE IF EXISTS "{sys.argv[1]}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{sys.argv[1]}"')
EOF
  "$PY" manage.py migrate --noinput -v0
  "$PY" manage.py seed_demo >"$OUT/seed.log"
fi
"$PY" manage.py collectstatic --noinput -v0
"$PY" bench/load/discover.py "$OUT/urls.json"
"$PY" -c "import redis; [redis.Redis(db=n).flushdb() for n in (12, 13)]"

echo "== load: gunicorn ($WORKERS workers x 4 threads) on 127.0.0.1:$PORT and a Celery worker"
"$ROOT/.venv/bin/gunicorn" config.wsgi:application --bind "127.0.0.1:$PORT" --workers "$WORKERS" \
  --worker-class gthread --threads 4 --timeout 60 --keep-alive 10 --preload --error-logfile "$OUT/gunicorn.log" >>"$OUT/gunicorn.log" 2>&1 &
PIDS+=($!)
"$ROOT/.venv/bin/celery" -A config worker --concurrency 2 --loglevel WARNING --without-mingle --without-gossip \
  >"$OUT/worker.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 60); do
  if "$PY" -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:$PORT/', timeout=5).status != 200)" 2>/dev/null; then
    break
  fi
  sleep 1
done
# As after any deploy, the site is opened before the visitors come: every public page once from each of a few
# parallel clients, so each gunicorn worker has its URL conf and templates loaded and the cache holds the pages.
"$PY" - "$OUT/urls.json" "$PORT" <<'EOF'
import json
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor

pages = json.load(open(sys.argv[1]))["pages"]
base = f"http://127.0.0.1:{sys.argv[2]}"


def fetch(page):
    with urllib.request.urlopen(base + page["url"], timeout=60) as response:
        return response.status


with ThreadPoolExecutor(6) as pool:
    statuses = list(pool.map(fetch, pages * 3))
print(f"warm-up: {len(statuses)} requests, {sum(s == 200 for s in statuses)} answered 200")
EOF

cpu_seconds() {  # CPU seconds used so far by the processes and their children
  local total=0 t pid
  for pid in "$@"; do
    for t in $(ps -o times= -p "$pid" --ppid "$pid" 2>/dev/null); do total=$((total + t)); done
  done
  echo "$total"
}
echo "== load: locust, $VISITORS visitors + $DIRECTORS directors, spawn $SPAWN_RATE/s, $RUN_TIME"
CPU_BEFORE=$(cpu_seconds "${PIDS[0]}"); WORKER_CPU_BEFORE=$(cpu_seconds "${PIDS[1]}"); LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
set +e
LOAD_URLS=$OUT/urls.json LOAD_SUMMARY=$OUT/summary.json LOAD_DIRECTORS=$DIRECTORS \
  "$ROOT/.venv/bin/locust" -f bench/load/locustfile.py --headless --host "http://127.0.0.1:$PORT" \
  --users $((VISITORS + DIRECTORS)) --spawn-rate "$SPAWN_RATE" --run-time "$RUN_TIME" --stop-timeout 10 \
  --csv "$OUT/locust" --only-summary --loglevel WARNING >"$OUT/locust.log" 2>&1
LOCUST_RC=$?
set -e
echo "CPU during the run: gunicorn $(( $(cpu_seconds "${PIDS[0]}") - CPU_BEFORE )) s, Celery worker" \
  "$(( $(cpu_seconds "${PIDS[1]}") - WORKER_CPU_BEFORE )) s; load average before / after: $LOAD_BEFORE /" \
  "$(cut -d' ' -f1 /proc/loadavg) on $(nproc) cores"
grep -h "CPU usage" "$OUT/locust.log" | head -2 || true
# The recomputes of the directors' uploads: the worker must finish every one of them, without an error.
"$PY" - "$OUT/summary.json" "$LOCUST_RC" "${P95_MS}" <<'EOF'
import json
import sys

import django

django.setup()
from bridge.services import SCOPE
from results.models import RecomputeState

path, locust_rc, p95_limit = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    figures = json.load(open(path))
except FileNotFoundError:
    print(f"!! locust wrote no summary (exit {locust_rc}); see locust.log")
    sys.exit(1)
print(f"{'group':<10} {'requests':>8} {'errors':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}")
for group in ("public", "upload", "director"):
    f = figures[group]
    print(f"{group:<10} {f['requests']:>8} {f['errors']:>6} {f['p50']:>7} {f['p95']:>7} {f['p99']:>7} {f['max']:>7}")
print("public pages from the cache:", figures["public_cache"])
for example in figures["error_examples"]:
    print("  error:", example)
import time

for _ in range(60):  # the worker finishes the recomputes of the last uploads
    behind = [s for s in RecomputeState.objects.filter(scope=SCOPE) if s.computed_version != s.latest_version]
    if not behind:
        break
    time.sleep(1)
failed = [s for s in RecomputeState.objects.filter(scope=SCOPE) if s.error]
print(f"recomputes: {len(failed)} failed, {len(behind)} event(s) still processing after the run")
errors = sum(figures[g]["errors"] for g in ("public", "upload", "director"))
ok = errors == 0 and not failed and not behind and locust_rc in (0, 1) and figures["upload"]["requests"] > 0
if p95_limit and figures["public"]["p95"] >= float(p95_limit):
    print(f"!! public p95 {figures['public']['p95']} ms >= {p95_limit} ms")
    ok = False
print("load test:", "passed" if ok else "FAILED", f"({errors} errors)")
sys.exit(0 if ok else 1)
EOF

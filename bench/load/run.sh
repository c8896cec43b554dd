#!/usr/bin/env bash
# Load test on loopback: gunicorn + PostgreSQL + Redis (cache db 12, Celery broker db 13 by default) + a Celery worker,
# locust headless with anonymous visitors reading public pages while directors upload a session again and again.
#
#   bench/load/run.sh          full form: 200 visitors + 4 directors for 60 s; fails on any error or public p95 >= 300 ms
#   bench/load/run.sh short    CI form: 50 visitors + 2 directors for 15 s; fails on any error (no latency bound)
#
# Overrides: LOAD_VISITORS, LOAD_DIRECTORS, LOAD_RUN_TIME, LOAD_SPAWN_RATE, LOAD_P95_MS, LOAD_REUSE_DB=1 (keep
# the seeded database of a former run), and the stack's (bench/load/stack.sh: LOAD_DB, LOAD_PORT, LOAD_WORKERS,
# LOAD_CACHE_DB / LOAD_BROKER_DB, LOAD_OUT, LOAD_DROP_DB=1 ...).
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust) and Redis on 127.0.0.1:6379; exits 3 when either
# does not answer. Every process it starts is stopped on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/../.."
MODE=${1:-full}

if [ "$MODE" = short ]; then
  VISITORS=${LOAD_VISITORS:-50}; DIRECTORS=${LOAD_DIRECTORS:-2}; RUN_TIME=${LOAD_RUN_TIME:-15s}
  SPAWN_RATE=${LOAD_SPAWN_RATE:-25}; P95_MS=${LOAD_P95_MS:-}
else
  VISITORS=${LOAD_VISITORS:-200}; DIRECTORS=${LOAD_DIRECTORS:-4}; RUN_TIME=${LOAD_RUN_TIME:-60s}
  SPAWN_RATE=${LOAD_SPAWN_RATE:-50}; P95_MS=${LOAD_P95_MS:-300}
fi
source bench/load/stack.sh
stack_init "load test" vp_load var/load

if [ "${LOAD_REUSE_DB:-0}" = 1 ]; then
  echo "== load ($MODE): database $DB as it is (LOAD_REUSE_DB=1)"
else
  echo "== load ($MODE): database $DB, demo data"
  stack_create_db
  "$PY" manage.py seed_demo >"$OUT/seed.log"
fi
stack_collectstatic  # discover renders pages, which need the collected files' manifest (DEBUG=0)
"$PY" bench/load/discover.py "$OUT/urls.json"
stack_start
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

echo "== load: locust, $VISITORS visitors + $DIRECTORS directors, spawn $SPAWN_RATE/s, $RUN_TIME"
CPU_BEFORE=$(cpu_seconds "$GUNICORN_PID"); WORKER_CPU_BEFORE=$(cpu_seconds "${CELERY_PIDS[@]}"); LOAD_BEFORE=$(cut -d' ' -f1 /proc/loadavg)
set +e
LOAD_URLS=$OUT/urls.json LOAD_SUMMARY=$OUT/summary.json LOAD_DIRECTORS=$DIRECTORS \
  "$ROOT/.venv/bin/locust" -f bench/load/locustfile.py --headless --host "http://127.0.0.1:$PORT" \
  --users $((VISITORS + DIRECTORS)) --spawn-rate "$SPAWN_RATE" --run-time "$RUN_TIME" --stop-timeout 10 \
  --csv "$OUT/locust" --only-summary --loglevel WARNING >"$OUT/locust.log" 2>&1
LOCUST_RC=$?
set -e
echo "CPU during the run: gunicorn $(( $(cpu_seconds "$GUNICORN_PID") - CPU_BEFORE )) s, Celery worker" \
  "$(( $(cpu_seconds "${CELERY_PIDS[@]}") - WORKER_CPU_BEFORE )) s; load average before / after: $LOAD_BEFORE /" \
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

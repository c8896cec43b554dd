#!/usr/bin/env bash
# Load test of a live tournament day on loopback, on the load test's stack (bench/load/stack.sh: gunicorn +
# PostgreSQL + Redis + Celery worker(s)): the tables of a Mitchell session enter their results on the phone
# page (result, confirmation) while viewers poll the session's live standings and frequency fragments.
# As in production (docker-compose.yml), two gunicorn pools of the same application: `web` and the small
# `live` pool (stack_start_live) that the reverse proxy (deploy/nginx.conf) sends the GETs of the live pages
# and of their fragments to (the viewers' page loads and polls; the tables' requests go to `web`). No nginx
# runs here: locust sends each request straight to the pool the proxy's map picks (bench/live/routing.py
# reads it from deploy/nginx.conf), so the figures leave out the proxy's own hop (not measured).
#
#   bench/live/run.sh          full form: 100 tables + 1,000 viewers for 2 minutes; fails on any error, or when
#                              the posted-result-visible p95 >= 1,000 ms or the viewers' poll or page-load
#                              p95 >= 200 ms
#   bench/live/run.sh short    CI form: 20 tables + 100 viewers for 20 s; fails on any error (no latency bound)
#
# Besides locust's figures it samples the worker's lag (bench/live/lag.py: a new version until it is computed)
# and times one more viewer outside locust's event loop (bench/live/probe.py; printed, not bounded).
# Overrides: LIVE_TABLES, LIVE_VIEWERS, LIVE_ROUNDS (of 2 boards; 16), LIVE_RUN_TIME, LIVE_SPAWN_RATE,
# LIVE_PACE (seconds between a table's boards, "min,max"; 2,5), LIVE_RELOAD_SECONDS (how often a viewer opens the
# page again, on average; 60), LIVE_VISIBLE_P95_MS, LIVE_POLL_P95_MS, LIVE_PAGE_P95_MS, and the
# stack's (bench/load/stack.sh: LOAD_DB, LOAD_PORT, LOAD_WORKERS, LOAD_CELERY_WORKERS,
# LOAD_CELERY_CONCURRENCY, LOAD_CACHE_DB / LOAD_BROKER_DB, LOAD_OUT, LOAD_DROP_DB=1 ...).
# The table throttle is not lifted: gunicorn is told it stands behind one trusted proxy (TRUSTED_PROXY_COUNT=1,
# the production setting behind a reverse proxy) and each table sends its own X-Forwarded-For address, so
# every table is throttled per address at the production rate (TABLE_ENTRY_THROTTLE_PER_MINUTE) as a
# phone of its own would be.
# Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust) and Redis on 127.0.0.1:6379; exits 3 when either
# does not answer. Every process it starts is stopped on exit, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/../.."
MODE=${1:-full}

if [ "$MODE" = short ]; then
  TABLES=${LIVE_TABLES:-20}; VIEWERS=${LIVE_VIEWERS:-100}; RUN_TIME=${LIVE_RUN_TIME:-20s}
  SPAWN_RATE=${LIVE_SPAWN_RATE:-60}; VISIBLE_P95_MS=${LIVE_VISIBLE_P95_MS:-}; POLL_P95_MS=${LIVE_POLL_P95_MS:-}
  PAGE_P95_MS=${LIVE_PAGE_P95_MS:-}
  ROUNDS=${LIVE_ROUNDS:-6}
else
  TABLES=${LIVE_TABLES:-100}; VIEWERS=${LIVE_VIEWERS:-1000}; RUN_TIME=${LIVE_RUN_TIME:-120s}
  SPAWN_RATE=${LIVE_SPAWN_RATE:-200}; VISIBLE_P95_MS=${LIVE_VISIBLE_P95_MS:-1000}
  POLL_P95_MS=${LIVE_POLL_P95_MS:-200}; PAGE_P95_MS=${LIVE_PAGE_P95_MS:-200}; ROUNDS=${LIVE_ROUNDS:-16}
fi
source bench/load/stack.sh
stack_init "live test" vp_live var/live
export TRUSTED_PROXY_COUNT=1

echo "== [${SECONDS}s] live ($MODE): database $DB, a Mitchell of $TABLES tables ($ROUNDS rounds of 2 boards) with table codes"
stack_create_db
"$PY" bench/live/seed.py "$TABLES" "$ROUNDS" "$OUT/seed.json"
echo "== [${SECONDS}s] live: seeded"
stack_start
stack_start_live
# As after any deploy, and as on a real tournament day where the session's page has been open for a while
# before the rounds start: the viewers' pages and fragments are opened once from a few parallel clients at
# the live pool, so each of its workers has its templates loaded and the page cache holds the pages (the
# 1,000 viewers then do not all render the same cold page at once).
"$PY" - "$OUT/seed.json" "$PORT" "$LIVE_PORT" <<'EOF'
import json
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor

seed = json.load(open(sys.argv[1]))
urls = [seed[k] for k in ("page", "boards_page", "standings", "boards")]


def fetch(url):
    request = urllib.request.Request(f"http://127.0.0.1:{sys.argv[3]}{url}", headers={"Host": f"127.0.0.1:{sys.argv[2]}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status


with ThreadPoolExecutor(4) as pool:
    statuses = list(pool.map(fetch, urls * 4))
print(f"warm-up: {len(statuses)} requests, {sum(s == 200 for s in statuses)} answered 200")
EOF

echo "== [${SECONDS}s] live: locust, $TABLES tables + $VIEWERS viewers, spawn $SPAWN_RATE/s, $RUN_TIME"
CPU_BEFORE=$(cpu_seconds "$GUNICORN_PID"); LIVE_CPU_BEFORE=$(cpu_seconds "$LIVE_GUNICORN_PID")
WORKER_CPU_BEFORE=$(cpu_seconds "${CELERY_PIDS[@]}")
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
case $RUN_TIME in *m) SAMPLE_SECONDS=$(( ${RUN_TIME%m} * 60 ));; *) SAMPLE_SECONDS=${RUN_TIME%s};; esac
"$PY" bench/live/lag.py "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['session'])" "$OUT/seed.json")" \
  "$SAMPLE_SECONDS" "$OUT/lag.json" &
LAG_PID=$!
PIDS+=("$LAG_PID")
"$PY" bench/live/probe.py "$OUT/seed.json" "http://127.0.0.1:$LIVE_PORT" "127.0.0.1:$PORT" "$SAMPLE_SECONDS" \
  "$OUT/probe.json" &
PROBE_PID=$!
PIDS+=("$PROBE_PID")
set +e
LIVE_POOLS="web=http://127.0.0.1:$PORT,live=http://127.0.0.1:$LIVE_PORT" \
  LIVE_SEED=$OUT/seed.json LIVE_SUMMARY=$OUT/summary.json LIVE_TABLES=$TABLES \
  "$ROOT/.venv/bin/locust" -f bench/live/locustfile.py --headless --host "http://127.0.0.1:$PORT" \
  --users $((TABLES + VIEWERS)) --spawn-rate "$SPAWN_RATE" --run-time "$RUN_TIME" --stop-timeout 10 \
  --csv "$OUT/locust" --only-summary --loglevel WARNING >"$OUT/locust.log" 2>&1
LOCUST_RC=$?
wait "$LAG_PID" "$PROBE_PID"
set -e
echo "CPU during the run: gunicorn web $(( $(cpu_seconds "$GUNICORN_PID") - CPU_BEFORE )) s," \
  "live $(( $(cpu_seconds "$LIVE_GUNICORN_PID") - LIVE_CPU_BEFORE )) s, Celery" \
  "$(( $(cpu_seconds "${CELERY_PIDS[@]}") - WORKER_CPU_BEFORE )) s; load average before / after:" \
  "$LOAD_BEFORE / $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
grep -h "CPU usage" "$OUT/locust.log" | head -2 || true
# The recomputes of the confirmed results: the workers must finish every one of them, without an error.
"$PY" - "$OUT/summary.json" "$LOCUST_RC" "$VISIBLE_P95_MS" "$POLL_P95_MS" "$PAGE_P95_MS" "$OUT/lag.json" \
  "$OUT/seed.json" "$PORT" "$LIVE_PORT" "$OUT/probe.json" <<'EOF'
import json
import re
import sys
import time
import urllib.request

import django

django.setup()
from bridge.services import SCOPE
from results.models import RecomputeState

path, locust_rc, visible_limit, poll_limit, page_limit, lag_path, seed_path, port, live_port, probe_path = (
    sys.argv[1],
    int(sys.argv[2]),
    *sys.argv[3:11],
)
try:
    figures = json.load(open(path))
except FileNotFoundError:
    print(f"!! locust wrote no summary (exit {locust_rc}); see locust.log")
    sys.exit(1)
groups = ("table page", "table post", "viewer page", "viewer poll")
print(f"{'group':<12} {'requests':>8} {'errors':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}")
for group in (*groups, "visible"):
    f = figures[group]
    print(f"{group:<12} {f['requests']:>8} {f['errors']:>6} {f['p50']:>7} {f['p95']:>7} {f['p99']:>7} {f['max']:>7}")
visible = figures["visible"]
print(
    f"confirmed boards: {figures['confirmed_boards']} ({visible['requests']} seen on the live standings,"
    f" {visible['unseen_at_end']} not yet when the run stopped, the oldest {visible['oldest_unseen_s']} s);"
    f" tables finished: {figures['finished_tables']}; polls: {figures['polls']}"
)


def side_figures(path):
    """What a side sampler (lag.py, probe.py) wrote; None when it wrote nothing readable."""
    try:
        return json.load(open(path))
    except (FileNotFoundError, ValueError):
        return None


lag = side_figures(lag_path)
if lag:
    w = lag["worker_lag"]
    print(
        f"worker lag (new version -> computed, sampled every 0.1 s): {w['requests']} versions, p50 {w['p50']} ms,"
        f" p95 {w['p95']} ms, max {w['max']} ms; {lag['versions_per_recompute']} versions per recompute"
    )
    figures["worker_lag"] = lag
probe = side_figures(probe_path)
if probe:  # bench/live/probe.py: one more viewer, timed outside locust's event loop
    p, q = probe["poll"], probe["page"]
    print(
        f"probe (one client beside locust): polls {p['requests']} p50 {p['p50']} / p95 {p['p95']} ms,"
        f" page loads {q['requests']} p50 {q['p50']} / p95 {q['p95']} ms, {p['errors'] + q['errors']} errors"
    )
    figures["probe"] = probe
for example in figures["error_examples"]:
    print("  error:", example)
for _ in range(60):  # the workers finish the recomputes of the last confirmations
    behind = [s for s in RecomputeState.objects.filter(scope=SCOPE) if s.computed_version != s.latest_version]
    if not behind:
        break
    time.sleep(1)
failed = [s for s in RecomputeState.objects.filter(scope=SCOPE) if s.error]
print(f"recomputes: {len(failed)} failed, {len(behind)} event(s) still processing after the run")
errors = sum(figures[g]["errors"] for g in groups)
# Once the recomputes are done, the live standings show every board the tables confirmed.
sys.path.insert(0, "bench/live")
from standings import boards_by_pair

# A poll that comes while another request renders the new copy gets the one of a moment ago
# (results.live.FastPolls): the standings must show every board within a few seconds, not at once.
# (asked as the viewers ask: the live pool, the site's Host header as the proxy forwards it)
url = f"http://127.0.0.1:{live_port}" + json.load(open(seed_path))["standings"]
for _ in range(20):
    request = urllib.request.Request(url, headers={"Host": f"127.0.0.1:{port}"})
    with urllib.request.urlopen(request, timeout=60) as response:
        shown = boards_by_pair(response.read().decode())
    lost = [p for p, n in figures["confirmed_by_pair"].items() if shown.get(int(p), 0) < n]
    if not lost:
        break
    time.sleep(0.5)
if lost:
    print(f"!! the live standings miss confirmed boards of pairs {', '.join(sorted(lost, key=int))}")
ok = errors == 0 and not lost and not failed and not behind and locust_rc in (0, 1)
ok = ok and figures["confirmed_boards"] > 0 and visible["requests"] > 0
limits = (
    (visible_limit, visible["p95"], "visible"),
    (poll_limit, figures["viewer poll"]["p95"], "viewer poll"),
    (page_limit, figures["viewer page"]["p95"], "viewer page"),
)
for limit, figure, what in limits:
    if limit and figure >= float(limit):
        print(f"!! {what} p95 {figure} ms >= {limit} ms")
        ok = False
summary = {**figures, "recomputes_failed": len(failed), "recomputes_behind": len(behind), "passed": ok}
json.dump(summary, open(path, "w"), indent=2)
print("live test:", "passed" if ok else "FAILED", f"({errors} errors)")
sys.exit(0 if ok else 1)
EOF

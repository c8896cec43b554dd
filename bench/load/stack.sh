# The stack the load tests run against, on loopback: gunicorn + PostgreSQL + Redis + Celery worker(s).
# Sourced by bench/load/run.sh and bench/live/run.sh (bash, `set -euo pipefail`); sets nothing up by itself.
#
#   stack_init NAME DEFAULT_DB DEFAULT_OUT   the shared settings (below), the services checked (exit 3 when
#                                            PostgreSQL or Redis does not answer), the environment exported,
#                                            the exit trap (every process started is stopped, whatever happens)
#   stack_create_db                          a fresh, migrated database $DB (a copy of LOAD_TEMPLATE_DB, a
#                                            migrated database of a former run, when set: migrating is slow)
#   stack_start                              collectstatic, Redis cache/broker emptied, gunicorn and the
#                                            Celery worker(s) started, waiting until the home page answers
#   stack_start_live                         a second, small gunicorn (the `live` pool of docker-compose.yml)
#                                            on $LIVE_PORT, after stack_start; waiting until it answers
#   cpu_seconds PID...                       CPU seconds used so far by the processes and their children
#
# Shared overrides: LOAD_DB, LOAD_PORT, LOAD_WORKERS (gunicorn processes, 3), LOAD_THREADS (threads each, 4),
# LOAD_CELERY_WORKERS (Celery worker processes, 1), LOAD_CELERY_CONCURRENCY (each one's pool, 2),
# LOAD_CACHE_DB / LOAD_BROKER_DB (Redis database numbers, 12 / 13), LOAD_OUT (folder for the logs, the CSVs
# and summary.json), LOAD_STATIC_ROOT (collected static files, var/bench-static: shared by the runs, collected
# again only after a static file changed), LOAD_DROP_DB=1 (drop the database at the end; CI).
# The live pool's: LOAD_LIVE_PORT, LOAD_LIVE_WORKERS (2), LOAD_LIVE_THREADS (4).
# After stack_start, GUNICORN_PID is gunicorn's master and CELERY_PIDS the worker processes; after
# stack_start_live, LIVE_GUNICORN_PID the live pool's master.
# gunicorn as in production (docker-compose.yml): gthread workers, whose idle keep-alive connections wait in
# a poller, not on a thread, so the live test's 1,000 viewers keep theirs open between polls (keep-alive
# 10 s > their 5 s period) at no thread's cost; three processes on two cores keep both busy while a thread
# waits for PostgreSQL or Redis. The anonymous polls and live page loads are answered in front of Django
# (results.live.FastPolls, config/wsgi.py) from one cache read, in the live pool (stack_start_live),
# so that they do not wait for a thread behind the tables' requests (~30-50 ms each) in the main one.

free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }

port_open() { python3 -c "import socket,sys; s=socket.socket(); s.settimeout(1); sys.exit(s.connect_ex(('127.0.0.1', $1)))"; }

stack_init() {
  STACK_NAME=$1
  ROOT=$PWD
  PY=$ROOT/.venv/bin/python
  DB=${LOAD_DB:-$2}
  PORT=${LOAD_PORT:-$(free_port)}
  LIVE_PORT=${LOAD_LIVE_PORT:-$(free_port)}
  LIVE_WORKERS=${LOAD_LIVE_WORKERS:-2}
  LIVE_THREADS=${LOAD_LIVE_THREADS:-4}
  WORKERS=${LOAD_WORKERS:-3}
  THREADS=${LOAD_THREADS:-4}
  CELERY_WORKERS=${LOAD_CELERY_WORKERS:-1}
  CELERY_CONCURRENCY=${LOAD_CELERY_CONCURRENCY:-2}
  CACHE_DB=${LOAD_CACHE_DB:-12}
  BROKER_DB=${LOAD_BROKER_DB:-13}
  OUT=${LOAD_OUT:-$ROOT/$3}
  mkdir -p "$OUT"

  if ! port_open 5432 || ! port_open 6379; then
    echo "!! $STACK_NAME: PostgreSQL (5432) or Redis (6379) is not answering" >&2
    exit 3
  fi
  if port_open "$PORT"; then
    echo "!! $STACK_NAME: port $PORT is already taken (set LOAD_PORT)" >&2
    exit 3
  fi
  if [ "$LIVE_PORT" = "$PORT" ]; then LIVE_PORT=$(free_port); fi

  export DEBUG=0
  export SECRET_KEY=load-test-only-key-0123456789abcdefghijklmnopqrstuvwxyz-not-secret
  export ALLOWED_HOSTS=127.0.0.1,localhost
  export PORTAL_URL=http://127.0.0.1:$PORT
  export SECURE_SSL_REDIRECT=0
  export DATABASE_URL=postgres://postgres@127.0.0.1:5432/$DB
  export CACHE_URL=rediscache://127.0.0.1:6379/$CACHE_DB
  export CELERY_BROKER_URL=redis://127.0.0.1:6379/$BROKER_DB
  export STATIC_ROOT=${LOAD_STATIC_ROOT:-$ROOT/var/bench-static}
  export MEDIA_ROOT=$OUT/uploads
  export LOG_LEVEL=WARNING
  export DJANGO_SETTINGS_MODULE=config.settings

  PIDS=()
  CELERY_PIDS=()
  trap stack_on_exit EXIT
  trap 'exit 130' INT TERM
}

stack_cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  done
}

stack_drop_db() {
  "$PY" -c "import psycopg,sys; psycopg.connect('postgresql://postgres@127.0.0.1:5432/postgres', autocommit=True).execute('DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)')" || true
}

stack_on_exit() {
  stack_cleanup
  if [ "${LOAD_DROP_DB:-0}" = 1 ]; then stack_drop_db; fi
}

stack_create_db() {
  "$PY" - "$DB" "${LOAD_TEMPLATE_DB:-}" <<'EOF'
import sys
import psycopg
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
    conn.execute(f'DROP DATABASE IF EXISTS "{sys.argv[1]}" WITH (FORCE)')
    template = f' TEMPLATE "{sys.argv[2]}"' if sys.argv[2] else ""
    conn.execute(f'CREATE DATABASE "{sys.argv[1]}"{template}')
EOF
  "$PY" manage.py migrate --noinput -v0
}

stack_collectstatic() {
  # Collecting compresses every file again (gzip and brotli, minutes on a busy machine): a folder collected
  # after the last change of any static file (the project's, the apps', the installed packages') is kept.
  local manifest=$STATIC_ROOT/staticfiles.json newer
  if [ -f "$manifest" ]; then  # (find fails without it, and a failed assignment ends the script under set -e)
    newer=$(find "$ROOT"/static "$ROOT"/*/static -newer "$manifest" -print -quit 2>/dev/null
      find "$ROOT"/.venv/lib/*/site-packages/ -maxdepth 0 -newer "$manifest" -print 2>/dev/null) || newer=stale
    if [ -z "$newer" ]; then
      echo "== $STACK_NAME: static files in $STATIC_ROOT are up to date"
      return 0
    fi
  fi
  "$PY" manage.py collectstatic --noinput -v0
}

stack_start() {
  stack_collectstatic
  "$PY" -c "import redis; [redis.Redis(db=n).flushdb() for n in ($CACHE_DB, $BROKER_DB)]"
  echo "== $STACK_NAME: gunicorn ($WORKERS workers x $THREADS threads) on 127.0.0.1:$PORT and" \
    "$CELERY_WORKERS Celery worker(s) of $CELERY_CONCURRENCY"
  stack_gunicorn "$PORT" "$WORKERS" "$THREADS" "$OUT/gunicorn.log"
  GUNICORN_PID=$STARTED_PID
  local n
  for n in $(seq 1 "$CELERY_WORKERS"); do
    "$ROOT/.venv/bin/celery" -A config worker --concurrency "$CELERY_CONCURRENCY" --loglevel WARNING \
      --without-mingle --without-gossip --hostname "load$n@%h" >"$OUT/worker$n.log" 2>&1 &
    CELERY_PIDS+=($!)
    PIDS+=($!)
  done
  stack_wait "$PORT" gunicorn "$OUT/gunicorn.log"
}

# gunicorn as in docker-compose.yml (PORT WORKERS THREADS LOG), started in the background, stopped on exit;
# STARTED_PID its master.
stack_gunicorn() {
  "$ROOT/.venv/bin/gunicorn" config.wsgi:application --bind "127.0.0.1:$1" --workers "$2" \
    --worker-class gthread --threads "$3" --timeout 60 --graceful-timeout 5 --keep-alive 10 --preload \
    --no-control-socket \
    --error-logfile "$4" >>"$4" 2>&1 &
  STARTED_PID=$!
  PIDS+=("$STARTED_PID")
}

stack_wait() {
  for _ in $(seq 1 60); do
    if "$PY" -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:$1/', timeout=5).status != 200)" 2>/dev/null; then
      return 0
    fi
    sleep 1
  done
  echo "!! $STACK_NAME: $2 did not answer within a minute (see $3)" >&2
  exit 1
}

# The live pool (docker-compose.yml's `live` service, behind deploy/nginx.conf): the same application in a
# gunicorn of its own, which the proxy sends the live pages' anonymous reads to, so that they never wait for
# a thread behind the tables' and the directors' requests in the main pool.
# The main pool runs at a lower CPU weight than the live pool, as docker-compose.yml gives them (web
# cpu_shares 512, live the default 1024): on a saturated machine the viewers' small reads go first and the
# tables' requests take the rest. `nice` 3 is about that ratio (CFS weights 526 : 1024); LOAD_WEB_NICE=0 off.
stack_start_live() {
  echo "== $STACK_NAME: live pool, gunicorn ($LIVE_WORKERS workers x $LIVE_THREADS threads) on 127.0.0.1:$LIVE_PORT"
  stack_gunicorn "$LIVE_PORT" "$LIVE_WORKERS" "$LIVE_THREADS" "$OUT/gunicorn-live.log"
  LIVE_GUNICORN_PID=$STARTED_PID
  stack_wait "$LIVE_PORT" "the live pool's gunicorn" "$OUT/gunicorn-live.log"
  local web_nice=${LOAD_WEB_NICE:-3}
  if [ "$web_nice" != 0 ]; then
    # gunicorn --preload forked its workers before it answered: the master and all of them
    renice -n "$web_nice" -p "$GUNICORN_PID" $(pgrep -P "$GUNICORN_PID") >/dev/null
    echo "== $STACK_NAME: main pool at nice $web_nice (docker-compose.yml: web cpu_shares 512, live 1024)"
  fi
}

cpu_seconds() {
  local total=0 t pid
  for pid in "$@"; do
    for t in $(ps -o times= -p "$pid" --ppid "$pid" 2>/dev/null); do total=$((total + t)); done
  done
  echo "$total"
}

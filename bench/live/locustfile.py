"""Load scenario of a live tournament day: the tables' phones enter results while viewers follow the live pages.

Run through bench/live/run.sh (it seeds the session, starts gunicorn and the Celery workers). Environment:
    LIVE_SEED      the JSON written by bench/live/seed.py (required)
    LIVE_SUMMARY   where to write the figures as JSON at the end (optional)
    LIVE_TABLES    how many of the users are tables (default: every table of the seed)
    LIVE_PACE      seconds a table waits between two boards, "min,max" (default "2,5")
    LIVE_POOLS     the gunicorn pools, "web=http://host:port,live=http://host:port" (default: every request
                   to locust's --host)

Routing: production runs two gunicorn pools of the same application behind nginx (deploy/nginx.conf,
docker-compose.yml): the GETs of the live pages and of their fragments go to the small `live` pool,
everything else (the tables' pages and posts) to `web`. There is no nginx here: each request goes straight
to the pool the proxy's `$pool` map would pick (read from deploy/nginx.conf by bench/live/routing.py), with
the site's Host header as the proxy forwards it; so the figures leave out the proxy's own hop (not measured).

Tables (one user per table code) do what the phone page's script does for each board of their current
round: open the table page, North's result POSTed (fetch, Accept: JSON), the page reloaded, East's
confirmation POSTed, which writes the new version and queues the recompute; then the next board. Each table
sends its own X-Forwarded-For (10.x.y.z), as phones reaching gunicorn through the one trusted proxy
(run.sh sets TRUSTED_PROXY_COUNT=1): the per-address table throttle applies, at its production rate, to each
table's own address.
Viewers (every other user) open the session's page, four in five its standings and one in five its
frequency sheets, then poll the page's live fragment every BRIDGE_LIVE_POLL_SECONDS (5 s) with If-None-Match,
as static/bridge/live.js does: 200 with a new ETag, or 304. Now and then (LIVE_RELOAD_SECONDS, on average
every 60 s) a viewer opens the page again: reloads, or stands for a viewer who arrives during the session.
"Visible" latency: from the moment a table's confirmation is answered until the first standings poll whose
fragment shows that table's North-South pair with that many boards played (a Mitchell's N-S pair stays at its
table, so its boards count on the standings grows by one with each board the table confirms).
Every response other than the expected one is an error; so is a confirmation not applied at once.

Arrivals: locust starts the users of a second all at the same instant (its dispatcher hands out
`--spawn-rate` users per 1-second step). Browsers and phones do not come in such steps: each viewer waits a
random moment within its second before it opens the page (200 a second is one every 5 ms, not 200 at once),
and since live.js polls 5 s after each answer from its own page load, the polls of a second's viewers
never come in lockstep either. Each table plays its first board before it enters it (a random wait within
the pace, as between boards), instead of 100 tables posting at the same instant.
"""

import json
import os
import random
import re
import sys
import time
import uuid
from collections import deque
from itertools import count
from pathlib import Path

import gevent
from locust import FastHttpUser, between, constant, events, task
from locust.exception import StopUser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import percentiles  # noqa: E402  bench/load/percentiles.py
import routing  # noqa: E402  bench/live/routing.py
from standings import boards_by_pair  # noqa: E402  bench/live/standings.py

SEED = json.loads(open(os.environ["LIVE_SEED"], encoding="utf-8").read())
TABLES = SEED["tables"][: int(os.environ.get("LIVE_TABLES") or len(SEED["tables"]))]
PACE = [float(x) for x in os.environ.get("LIVE_PACE", "2,5").split(",")]
POLL_SECONDS = 5
ARRIVAL_STEP = 1.0  # seconds: locust's dispatcher starts spawn-rate users per step of this length
# A viewer opens the page again (a reload, or another viewer arriving in his place) on average this often,
# so that page loads are measured all along the run, not only in its first seconds.
RELOAD_SECONDS = float(os.environ.get("LIVE_RELOAD_SECONDS", "60"))
# What a phone form holds (bridge/_table_hidden.html) and the page's CSRF token.
HIDDEN = re.compile(r'<input type="hidden" name="(key|round|board|ns|ew|based_on)" value="([^"]*)">')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
COOKIE = re.compile(r"csrftoken=([^;]+)")
RESULTS = ["3NT N =", "3NT N +1", "3NT N -1", "4S E =", "4S E -2", "2H N +2", "1NT S ="]

GROUPS = ("table page", "table post", "viewer page", "viewer poll")
SAMPLES: dict[str, list[float]] = {g: [] for g in GROUPS}
ERRORS: dict[str, int] = {g: 0 for g in GROUPS}
ERROR_EXAMPLES: list[str] = []
POLLS = {"200": 0, "304": 0}
VISIBLE: list[float] = []  # ms, confirmation answered -> first standings poll showing it
PENDING: dict[int, deque] = {}  # N-S pair number -> (boards it must show, when the confirmation was answered)
CONFIRMED = {"boards": 0, "finished_tables": 0}
BY_PAIR: dict[int, int] = {}  # N-S pair number -> boards its table confirmed
_tables = count()
_viewers = count()
POOLS = dict(item.split("=", 1) for item in os.environ.get("LIVE_POOLS", "").split(",") if item)
ROUTES = routing.rules()


def routed(method: str, path: str) -> tuple[str, dict]:
    """The URL of the pool deploy/nginx.conf sends the request to, and the Host header the proxy forwards
    (the web pool's address stands for the site's)."""
    if not POOLS:
        return path, {}
    base = POOLS[routing.pool(method, path.split("?", 1)[0], ROUTES)]
    return base + path, {"Host": POOLS["web"].split("://", 1)[1]}


def group_of(name: str) -> str:
    for group in GROUPS:
        if name.startswith(group):
            return group
    return "other"


@events.request.add_listener
def _record(request_type, name, response_time, response_length, exception=None, response=None, **kwargs):
    group = group_of(name)
    SAMPLES.setdefault(group, []).append(response_time)
    if exception is not None:
        ERRORS[group] = ERRORS.get(group, 0) + 1
        if len(ERROR_EXAMPLES) < 20:
            ERROR_EXAMPLES.append(f"{name}: {exception}")


def fail(message: str) -> None:
    """An error outside a request (a confirmation not applied): counted with the table's posts."""
    ERRORS["table post"] += 1
    if len(ERROR_EXAMPLES) < 20:
        ERROR_EXAMPLES.append(message)


def summary() -> dict:
    out = {group: percentiles.figures(SAMPLES[group], ERRORS[group]) for group in SAMPLES}
    now = time.monotonic()
    unseen = [now - t for queue in PENDING.values() for _, t in queue]
    out["visible"] = {
        **percentiles.figures(VISIBLE),
        "unseen_at_end": len(unseen),
        "oldest_unseen_s": round(max(unseen), 1) if unseen else 0.0,
    }
    out["confirmed_boards"] = CONFIRMED["boards"]
    out["confirmed_by_pair"] = {str(pair): n for pair, n in BY_PAIR.items()}
    out["finished_tables"] = CONFIRMED["finished_tables"]
    out["polls"] = dict(POLLS)
    out["error_examples"] = ERROR_EXAMPLES
    return out


@events.quitting.add_listener
def _write_summary(environment, **kwargs):
    figures = summary()
    path = os.environ.get("LIVE_SUMMARY")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    if any(figures[group]["errors"] for group in GROUPS):
        environment.process_exit_code = 1


def seen(html: str, at: float) -> None:
    """The standings fragment answered at `at`: every pending confirmation it shows is visible now."""
    if not PENDING:
        return
    played = boards_by_pair(html)
    for pair, queue in PENDING.items():
        shown = played.get(pair, 0)
        while queue and queue[0][0] <= shown:
            VISIBLE.append((at - queue.popleft()[1]) * 1000)


def first_result_form(html: str) -> dict | None:
    """The hidden fields of the page's first "enter the result" form (its first open board); None: none."""
    for form in html.split("<form")[1:]:
        if 'name="kind" value="result"' in form:
            return dict(HIDDEN.findall(form))
    return None


class Table(FastHttpUser):
    """One table's phones (North's and East's share the table's address and cookies here)."""

    fixed_count = len(TABLES)
    wait_time = between(*PACE)

    def on_start(self):
        index = next(_tables)
        self.table = TABLES[index % len(TABLES)]
        self.url = f"/bridge/table/{self.table['code']}/"
        self.address = f"10.{index // 250}.{index % 250}.{1 + index % 200}"
        self.csrf = ""
        self.confirmed = 0
        PENDING.setdefault(self.table["ns"], deque())
        gevent.sleep(random.uniform(*PACE))  # the first board is played before its result is entered

    def _headers(self, method: str, **more) -> tuple[str, dict]:
        url, host = routed(method, self.url)
        headers = {"X-Forwarded-For": self.address, **host, **more}
        if self.csrf:
            headers["Cookie"] = f"csrftoken={self.csrf}"
        return url, headers

    def _page(self, name: str) -> str | None:
        url, headers = self._headers("GET")
        with self.client.get(url, name=name, headers=headers, catch_response=True) as response:
            if response.status_code != 200 or b"</html>" not in (response.content or b""):
                response.failure(f"status {response.status_code}")
                return None
            cookie = COOKIE.search(response.headers.get("Set-Cookie", "") or "")
            if cookie:
                self.csrf = cookie.group(1)
            return response.text

    def _post(self, name: str, form: dict, token: str) -> dict | None:
        url, headers = self._headers(
            "POST",
            Accept="application/json",
            **{"X-CSRFToken": token, "Content-Type": "application/x-www-form-urlencoded"},
        )
        with self.client.post(url, data=form, name=name, headers=headers, catch_response=True) as response:
            try:
                answer = response.json()
            except Exception:
                answer = {}
            if response.status_code != 200 or answer.get("status") != "ok":
                response.failure(f"status {response.status_code} {answer.get('messages', '')}".strip())
                return None
            return answer

    @task
    def play_a_board(self):
        html = self._page("table page")
        if html is None:
            return
        form = first_result_form(html)
        token = TOKEN.search(html)
        if form is None or token is None:
            # no open board left: the table has played its session
            CONFIRMED["finished_tables"] += 1
            raise StopUser()
        contract = RESULTS[(int(form["board"]) + self.table["table"]) % len(RESULTS)]
        form.update(kind="result", key=uuid.uuid4().hex, contract=contract)
        answer = self._post("table post: result (N)", form, token.group(1))
        if answer is None:
            return
        html = self._page("table page: reloaded")  # the page's script reloads after every answer
        if html is None:
            return
        form.update(kind="confirm", key=uuid.uuid4().hex, based_on=str(answer["entry"]["id"]))
        form.pop("contract")
        token = TOKEN.search(html)
        answer = self._post("table post: confirm (E)", form, token.group(1) if token else "")
        if answer is None:
            return
        if not answer["entry"]["applied"]:
            fail(
                f"table {self.table['table']}, board {form['board']}: not applied: {answer['entry']['problem']}"
            )
            return
        self.confirmed += 1
        CONFIRMED["boards"] += 1
        BY_PAIR[self.table["ns"]] = self.confirmed
        PENDING[self.table["ns"]].append((self.confirmed, time.monotonic()))


class Viewer(FastHttpUser):
    """A browser with the session's live page open (live.js: If-None-Match every few seconds)."""

    wait_time = constant(POLL_SECONDS)

    def on_start(self):
        # a moment within locust's spawn step (see the docstring)
        gevent.sleep(random.random() * ARRIVAL_STEP)
        standings = next(_viewers) % 5 != 4
        self.kind = "standings" if standings else "boards"
        self.page = SEED["page"] if standings else SEED["boards_page"]
        self.fragment = SEED[self.kind]
        self.open_page()
        # live.js asks for the fragment POLL_SECONDS after the page's load, and browsers that opened the page at
        # different moments poll at phases spread over the period: so the first poll comes a random part of
        # the period after this load (otherwise the short form's 100 viewers, all arrived within 2 s, would
        # leave 3 s of every 5 with no poll at all).
        gevent.sleep(random.random() * POLL_SECONDS)

    def open_page(self):
        self.etag = ""
        url, headers = routed("GET", self.page)
        with self.client.get(
            url, name=f"viewer page: {self.kind}", headers=headers, catch_response=True
        ) as response:
            if response.status_code != 200 or b"</html>" not in (response.content or b""):
                response.failure(f"status {response.status_code}")
                return
            found = re.search(rb'data-live-etag="([^"]*)"', response.content)
            self.etag = found.group(1).decode().replace("&quot;", '"') if found else ""

    @task
    def poll(self):
        if random.random() < POLL_SECONDS / RELOAD_SECONDS:  # reloaded, or another viewer in his place
            self.open_page()
            return
        url, headers = routed("GET", self.fragment)
        headers["X-Requested-With"] = "fetch"
        if self.etag:
            headers["If-None-Match"] = self.etag
        with self.client.get(
            url, name=f"viewer poll: {self.kind}", headers=headers, catch_response=True
        ) as response:
            at = time.monotonic()
            if response.status_code == 304:
                POLLS["304"] += 1
                return
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                return
            POLLS["200"] += 1
            self.etag = response.headers.get("ETag", "") or ""
            if self.kind == "standings":
                seen(response.text, at)

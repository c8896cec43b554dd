"""Load scenario: anonymous visitors reading the public pages while directors upload a session's results.

Run through bench/load/run.sh (it seeds the demo, starts gunicorn and a Celery worker and writes the URL
list). Environment:
    LOAD_URLS      the JSON written by bench/load/discover.py (required)
    LOAD_SUMMARY   where to write the figures as JSON at the end (optional)
    LOAD_DIRECTORS how many of the users are directors (default 4)

Visitors (every user but the directors) open a random public page every 1-3 s, now and then following a
few pages of the same kind. Directors log in as vezeto@demo.hu, download the session's PBN export once and
upload it again every 10-20 s (4 directors: about 16 uploads a minute on one event, far above the pace of
real rounds): each upload is a new version, the worker recomputes the standings and the recompute drops
the cached pages of that event, so visitors keep reading freshly rendered pages too.
Every response other than the expected one is an error. The figures are kept per group (public pages,
uploads, the directors' other requests) from every request, not from locust's bucketed percentiles.
"""

import json
import os
import random
import re

import percentiles  # bench/load/percentiles.py: locust puts the locustfile's folder on the path
from locust import FastHttpUser, HttpUser, between, events, task

URLS = json.loads(open(os.environ["LOAD_URLS"], encoding="utf-8").read())
PAGES = URLS["pages"]
DIRECTOR = URLS["director"]
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

SAMPLES: dict[str, list[float]] = {"public": [], "upload": [], "director": []}
ERRORS: dict[str, int] = {"public": 0, "upload": 0, "director": 0}
ERROR_EXAMPLES: list[str] = []
CACHE: dict[str, int] = {"hit": 0, "miss": 0, "none": 0}


def group_of(name: str) -> str:
    if name == "upload":
        return "upload"
    return "director" if name.startswith("director") else "public"


@events.request.add_listener
def _record(request_type, name, response_time, response_length, exception=None, response=None, **kwargs):
    group = group_of(name)
    SAMPLES[group].append(response_time)
    if exception is not None:
        ERRORS[group] += 1
        if len(ERROR_EXAMPLES) < 20:
            ERROR_EXAMPLES.append(f"{name}: {exception}")
    elif group == "public" and response is not None:
        CACHE[response.headers.get("X-Page-Cache", "none")] = (
            CACHE.get(response.headers.get("X-Page-Cache", "none"), 0) + 1
        )


def summary() -> dict:
    figures = {}
    for group, values in SAMPLES.items():
        figures[group] = percentiles.figures(values, ERRORS[group])
    figures["public_cache"] = dict(CACHE)
    figures["error_examples"] = ERROR_EXAMPLES
    return figures


@events.quitting.add_listener
def _write_summary(environment, **kwargs):
    figures = summary()
    path = os.environ.get("LOAD_SUMMARY")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
    if any(figures[group]["errors"] for group in SAMPLES):
        environment.process_exit_code = 1


def _normalise_cookies(client):
    """Production cookies are Secure; the scenario talks plain HTTP on loopback, so send them anyway."""
    jar = client.cookies
    for cookie in list(jar):
        if cookie.secure:
            jar.clear(cookie.domain, cookie.path, cookie.name)
            jar.set(cookie.name, cookie.value, domain=cookie.domain, path=cookie.path)


class Visitor(FastHttpUser):
    """geventhttpclient: cheap enough that one locust process drives 200 visitors on a shared machine."""

    weight = 1
    wait_time = between(1, 3)

    def _get(self, page):
        with self.client.get(page["url"], name=f"public: {page['group']}", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code} {response.error or ''}".strip())
            elif b"</html>" not in response.content:
                response.failure("incomplete page")

    @task(6)
    def read_a_page(self):
        self._get(random.choice(PAGES))

    @task(2)
    def browse_a_kind(self):
        group = random.choice(PAGES)["group"]
        same = [p for p in PAGES if p["group"] == group]
        for page in random.sample(same, min(3, len(same))):
            self._get(page)


class Director(HttpUser):
    """requests: multipart uploads and a cookie jar for the login."""

    fixed_count = int(os.environ.get("LOAD_DIRECTORS", "4"))
    wait_time = between(10, 20)

    def on_start(self):
        self.pbn = None
        page = self.client.get(DIRECTOR["login"], name="director: login page")
        token = TOKEN.search(page.text)
        _normalise_cookies(self.client)
        with self.client.post(
            DIRECTOR["login"],
            data={
                "username": DIRECTOR["username"],
                "password": DIRECTOR["password"],
                "csrfmiddlewaretoken": token.group(1) if token else "",
            },
            headers={"Referer": self.host + DIRECTOR["login"]},
            name="director: log in",
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code != 302:
                response.failure(f"login failed: status {response.status_code}")
        _normalise_cookies(self.client)

    @task
    def upload_the_session_again(self):
        if self.pbn is None:
            with self.client.get(
                DIRECTOR["export"], name="director: export", catch_response=True
            ) as response:
                if response.status_code != 200 or b"[Board" not in response.content:
                    response.failure(f"export: status {response.status_code}")
                    return
                self.pbn = response.content
        form = self.client.get(DIRECTOR["upload"], name="director: upload form")
        _normalise_cookies(self.client)
        token = TOKEN.search(form.text)
        with self.client.post(
            DIRECTOR["upload"],
            data={
                "format": "pbn",
                "note": "load test",
                "csrfmiddlewaretoken": token.group(1) if token else "",
            },
            files={"file": ("session.pbn", self.pbn, "application/x-bridge-pbn")},
            headers={"Referer": self.host + DIRECTOR["upload"]},
            name="upload",
            allow_redirects=False,
            catch_response=True,
        ) as response:
            if response.status_code != 302 or not response.headers.get("Location", "").endswith(
                DIRECTOR["session"]
            ):
                response.failure(f"upload: status {response.status_code} {response.error or ''}".strip())

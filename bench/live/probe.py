"""A viewer's requests timed outside locust: one plain client (http.client, one request at a time, its own
process) asks for the session's live standings fragment as live.js does (If-None-Match, gzip) and, every
PAGE_EVERY-th time, for the session's page, at the pool the proxy sends them to, for SECONDS; writes the
figures as JSON.

Why beside locust's own figures: locust's 1,100 users share one event loop, and what it measures includes
how they are scheduled. In this session's first runs locust reported polls p95 132 ms while this client saw
p95 21 ms and gunicorn's own request times were p95 7 ms (locust had started a second's viewers at the
same instant, and they kept polling in lockstep). This client sees what one more viewer would see.

    python bench/live/probe.py SEED_JSON LIVE_URL HOST SECONDS probe.json
"""

import http.client
import json
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))

import percentiles  # noqa: E402  bench/load/percentiles.py

STEP = 0.1  # seconds between two requests
PAGE_EVERY = 5


def probe(seed: dict, base: str, host: str, seconds: float) -> dict:
    address = urlsplit(base)
    times: dict[str, list[float]] = {"poll": [], "page": []}
    errors = {"poll": 0, "page": 0}
    connection, etag, n = None, "", 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        kind = "page" if n % PAGE_EVERY == PAGE_EVERY - 1 else "poll"
        n += 1
        headers = {"Host": host, "Accept-Encoding": "gzip"}
        if kind == "poll":
            headers["X-Requested-With"] = "fetch"
            if etag:
                headers["If-None-Match"] = etag
        started = time.perf_counter()
        try:
            if connection is None:
                connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
            connection.request("GET", seed["standings" if kind == "poll" else "page"], headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status not in (200, 304):
                raise OSError(f"status {response.status}")
            if kind == "poll" and response.status == 200:
                etag = response.getheader("ETag", "")
            times[kind].append((time.perf_counter() - started) * 1000)
        except (OSError, http.client.HTTPException):
            errors[kind] += 1
            connection = None
        time.sleep(STEP)
    return {kind: percentiles.figures(times[kind], errors[kind]) for kind in times}


if __name__ == "__main__":
    seed_path, base, host, seconds, out = sys.argv[1:6]
    figures = probe(json.load(open(seed_path, encoding="utf-8")), base, host, float(seconds))
    with open(out, "w", encoding="utf-8") as file:
        json.dump(figures, file, indent=2)

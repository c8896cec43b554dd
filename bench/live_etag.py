"""Benchmark: what a poll of a live page costs (issue #18), in one process on a scratch PostgreSQL database.

A 24-pair Mitchell session (12 tables) whose first round the tables entered and confirmed through the table
entry service; then the live standings fragment is asked for, each way `static/js/live.js` and
its visitors ask for it, and the medians and 95th percentiles are printed (wall and CPU milliseconds, and the
database queries of one request):

* 304: anonymous, with the ETag of the copy shown (nothing changed: the common poll),
* hit: anonymous, without an ETag (the page cache's shared copy),
* render: the director (logged in: never cached), rendered from the stored rows.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres python bench/live_etag.py
    python bench/live_etag.py --requests 500 --cache redis://127.0.0.1:6379/5
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dbbench import load, percentile, scratch_django  # noqa: E402


def timed(call, repeat):
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus


def queries(call) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument(
        "--cache", default="redis://127.0.0.1:6379/5", help="'locmem' for the in-process cache"
    )
    args = parser.parse_args()

    with scratch_django("live"):
        from django.contrib.auth import get_user_model
        from django.test import Client
        from django.test.utils import override_settings
        from django.urls import reverse
        from django.utils import timezone

        from bridge.services import setup, table_entry
        from demo import bridge_sample as sample
        from federation.models import Federation, Role

        if args.cache == "locmem":
            caches = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
        else:
            caches = {
                "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": args.cache}
            }
        with override_settings(CACHES=caches, ALLOWED_HOSTS=["testserver"]):
            from django.core.cache import cache

            cache.clear()
            mbsz = Federation.objects.create(
                code="mbsz", name="MBSz", short_name="MBSz", game=Federation.BRIDGE
            )
            start = timezone.make_aware(datetime.datetime(2026, 5, 9, 10, 0))
            event = sample.event_with_pairs(mbsz, pairs=24, title="Élő mérés", start=start)
            director = get_user_model().objects.create_user("td@example.hu", "td@example.hu", "jelszo-12345")
            Role.objects.create(user=director, kind=Role.DIRECTOR, event=event)
            session = setup.create_session(
                event,
                movement="mitchell",
                pairs=setup.pairs_from_entries(event),
                announced=event.sessions.first(),
            )
            codes = table_entry.create_codes(session, director)
            sample.confirm_current_round(codes)
            url = reverse("bridge_live_standings", args=[session.pk])
            anonymous, manager = Client(), Client()
            manager.force_login(director)
            first = anonymous.get(url)
            assert first.status_code == 200, first.status_code
            tag = first["ETag"]

            def not_modified():
                response = anonymous.get(url, headers={"if-none-match": tag})
                assert response.status_code == 304, response.status_code

            def hit():
                response = anonymous.get(url)
                assert response.status_code == 200 and response["X-Page-Cache"] == "hit"

            def render():
                assert manager.get(url).status_code == 200

            print(
                f"live standings fragment, {len(codes)} tables, {args.requests} requests, cache {args.cache}"
            )
            print(f"load average {load()}")
            for name, call in (("304", not_modified), ("hit", hit), ("render", render)):
                call()
                walls, cpus = timed(call, args.requests)
                print(
                    f"{name:>7}: wall median {statistics.median(walls):6.2f} ms, p95 {percentile(walls, 95):6.2f} ms;"
                    f" CPU median {statistics.median(cpus):6.2f} ms; {queries(call)} queries"
                )


if __name__ == "__main__":
    main()

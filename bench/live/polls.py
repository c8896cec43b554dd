"""Benchmark: what one poll of a live fragment costs at the WSGI interface, in one process (issue #18).

A scratch PostgreSQL database with the live test's seed (bench/live/seed.py: a Mitchell of TABLES tables),
the first round entered and confirmed at every table and recomputed; the cache is Redis (its own database
number). The live standings fragment is then asked for through the WSGI application, each way a poll can
be answered, and the CPU and wall medians / 95th percentiles are printed with the cache reads and database
queries of one request:

* django 304 / django 200: Django alone (its whole middleware stack), an anonymous poll answered from the
  page cache: the client's copy current (304) or not (200);
* fast 304 / fast 200: the same polls through `results.live.FastPolls` in front of Django (config/wsgi.py);
* first-middleware 304 / 200: the same lookup done by a middleware placed first in Django's stack instead
  (what the WSGI layer saves over it: the request and response objects, the request signals);
* logged-in 304 / render: a director (his own fragment: the recompute-stamp ETag, rendered when it moved).

Run at any commit (`--label` names the run): where results.live has no FastPolls (before it) only the
Django figures are printed, so two checkouts compare back to back on the same data.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wt_x_bench CELERY_BROKER_URL=redis://127.0.0.1:6379/12 \\
        python bench/live/polls.py --cache redis://127.0.0.1:6379/11 --tables 100 --requests 400
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "bench" / "live"))

from dbbench import load, percentile, scratch_django  # noqa: E402


class CountingCache:
    """Counts the calls that reach the cache (each one is a round trip to Redis)."""

    def __init__(self):
        self.calls = 0

    def patch(self, cache):
        for name in ("get", "get_many", "set", "set_many", "add", "delete"):
            original = getattr(cache, name)

            def counted(*args, _original=original, **kwargs):
                self.calls += 1
                return _original(*args, **kwargs)

            setattr(cache, name, counted)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--cache", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--label", default="")
    args = parser.parse_args()

    with scratch_django("polls"):
        from django.conf import settings
        from django.core.handlers.wsgi import WSGIHandler
        from django.db import connection
        from django.http import HttpResponse, HttpResponseNotModified
        from django.test import Client, RequestFactory
        from django.test.utils import CaptureQueriesContext, override_settings

        from bridge.models import PairSession
        from bridge.services.compute import recompute_event
        from demo import bridge_sample as sample

        caches = {
            "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": args.cache}
        }
        with override_settings(
            CACHES=caches, ALLOWED_HOSTS=["testserver"], CELERY_TASK_ALWAYS_EAGER=False, DEBUG=False
        ):
            from django.core.cache import cache

            cache.clear()
            import seed as live_seed

            figures = live_seed.seed(args.tables, 4)
            session = PairSession.objects.get(pk=figures["session"])
            sample.confirm_current_round(session.table_codes.all())
            recompute_event(session.event_id)
            url = figures["standings"]
            from federation.models import Role

            director = Role.objects.filter(event_id=session.event_id, kind=Role.DIRECTOR).first().user
            manager = Client()
            manager.force_login(director)
            director_cookie = (
                f"{settings.SESSION_COOKIE_NAME}={manager.cookies[settings.SESSION_COOKIE_NAME].value}"
            )

            import results.live as live

            fast_path = getattr(live, "FastPolls", None)
            django = WSGIHandler()
            apps = {"django": django}
            if fast_path is not None:
                apps["fast"] = fast_path(django)
                lookup = fast_path(None)

                class FirstMiddleware:
                    def __init__(self, get_response):
                        self.get_response = get_response

                    def __call__(self, request):
                        address = lookup.address(request.META)
                        if address is not None:
                            entry = lookup._from_cache(request.META, address)
                            if isinstance(entry, tuple):  # (entry, render) since the background renderings
                                entry, render = entry
                                if render:  # this variant renders in the request, as it did before them
                                    live.page_cache.unlock_poll(address)
                                    entry = None
                            if isinstance(entry, dict):
                                if live.matches(entry["etag"], request.META.get("HTTP_IF_NONE_MATCH", "")):
                                    response = HttpResponseNotModified()
                                    headers = live.not_modified_headers(entry["headers"])
                                else:
                                    response = HttpResponse(entry["body"])
                                    headers = entry["headers"]
                                for name, value in headers:
                                    response.headers[name] = value
                                return response
                        return self.get_response(request)

                sys.modules[__name__].FirstMiddleware = FirstMiddleware
                with override_settings(MIDDLEWARE=[f"{__name__}.FirstMiddleware", *settings.MIDDLEWARE]):
                    apps["first-middleware"] = WSGIHandler()

            counting = CountingCache()
            counting.patch(cache)

            def call(app, etag=None, cookie=None):
                headers = {}
                if etag:
                    headers["If-None-Match"] = etag
                if cookie:
                    headers["Cookie"] = cookie
                environ = dict(RequestFactory().get(url, headers=headers).environ)
                answer = {}

                def start_response(status, response_headers, exc_info=None):
                    answer["status"], answer["headers"] = status, dict(response_headers)

                result = app(environ, start_response)
                body = b"".join(result)
                if hasattr(result, "close"):
                    result.close()
                return int(answer["status"].split()[0]), answer["headers"], body

            status, headers, body = call(django)
            assert status == 200, status
            tag = headers["ETag"]
            _s, own, _b = call(django, cookie=director_cookie)
            own_tag = own["ETag"]
            cases = [
                ("django 304", django, tag, None, 304),
                ("django 200", django, '"old"', None, 200),
            ]
            for name in ("fast", "first-middleware"):
                if name in apps:
                    call(apps[name])  # the entry kept
                    cases += [
                        (f"{name} 304", apps[name], tag, None, 304),
                        (f"{name} 200", apps[name], '"old"', None, 200),
                    ]
            cases += [
                ("logged-in 304", django, own_tag, director_cookie, 304),
                ("render", django, None, director_cookie, 200),
            ]
            print(
                f"live standings fragment ({len(body)} bytes), {args.tables} tables, {args.requests} requests"
                f" each{', ' + args.label if args.label else ''}; load average {load()}"
            )
            for name, app, etag, cookie, expected in cases:
                status, _h, _b = call(app, etag, cookie)
                assert status == expected, (name, status)
                walls, cpus = [], []
                for _ in range(args.requests):
                    wall, cpu = time.perf_counter(), time.process_time()
                    call(app, etag, cookie)
                    walls.append((time.perf_counter() - wall) * 1000)
                    cpus.append((time.process_time() - cpu) * 1000)
                before = counting.calls
                with CaptureQueriesContext(connection) as queries:
                    call(app, etag, cookie)
                print(
                    f"{name:>22}: CPU median {statistics.median(cpus):6.2f} ms, p95 {percentile(cpus, 95):6.2f} ms;"
                    f" wall median {statistics.median(walls):6.2f} ms, p95 {percentile(walls, 95):6.2f} ms;"
                    f" {counting.calls - before} cache calls, {len(queries)} queries"
                )
            print(f"load average {load()}")


if __name__ == "__main__":
    main()

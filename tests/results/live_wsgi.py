"""Calling the portal as gunicorn does (WSGI), with and without the live polls' fast path in front of Django
(`results.live.FastPolls`), for the tests that compare the two answers."""

import re
from contextlib import contextmanager

from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.middleware.csrf import _unmask_cipher_token as unmask  # noqa: F401  (for the tests)
from django.test import RequestFactory

from results import page_cache
from results.live import FastPolls


@contextmanager
def _test_connection():
    # As Django's test client: the test's transaction must outlive the request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


class Counting:
    """The Django application, counting the requests that reach it."""

    def __init__(self, app):
        self.app = app
        self.calls = 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.app(environ, start_response)


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body
        self.code = int(status.split()[0])

    def __getitem__(self, name):
        return next(v for k, v in self.headers if k.lower() == name.lower())

    def same_as(self, other) -> bool:
        return (self.status, sorted(self.headers), self.body) == (
            other.status,
            sorted(other.headers),
            other.body,
        )

    def differences(self, other) -> tuple:
        """What differs: (status, headers only here, headers only there, the bodies differ)."""
        mine, theirs = set(self.headers), set(other.headers)
        return (self.status, other.status), mine - theirs, theirs - mine, self.body != other.body

    def __repr__(self):
        return f"<{self.status} {sorted(self.headers)} {len(self.body)} bytes>"


class Portal:
    """`django` the plain Django application, `fast` the same behind the fast path."""

    def __init__(self):
        self.django = Counting(WSGIHandler())
        # The renderings the fast path leaves for after its answer (LIVE_RENDER_IN_BACKGROUND), run when the
        # test says (`render_later`), in the test's thread and transaction.
        self.later = []
        self.fast = FastPolls(self.django, later=self.later.append)

    def render_later(self) -> int:
        """Run the renderings queued by the answers so far; how many ran."""
        jobs, self.later[:] = list(self.later), []
        with _test_connection():
            for job in jobs:
                job()
        return len(jobs)

    def environ(self, url, cookies=None, etag=None, **headers):
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        if etag:
            headers["If-None-Match"] = etag
        return dict(RequestFactory().get(url, headers=headers).environ)

    def call(self, app, url, **kwargs) -> Answer:
        environ = self.environ(url, **kwargs)
        started = {}

        def start_response(status, headers, exc_info=None):
            started["status"], started["headers"] = status, list(headers)

        with _test_connection():
            result = app(environ, start_response)
            try:
                body = b"".join(result)
            finally:
                if hasattr(result, "close"):
                    result.close()
        return Answer(started["status"], started["headers"], body)

    def get(self, url, **kwargs) -> Answer:
        """Behind the fast path."""
        return self.call(self.fast, url, **kwargs)

    def plain(self, url, **kwargs) -> Answer:
        """Django alone."""
        return self.call(self.django, url, **kwargs)

    def answered_by_django(self, url, **kwargs) -> tuple[Answer, bool]:
        before = self.django.calls
        answer = self.get(url, **kwargs)
        return answer, self.django.calls > before


# A live page (results.live.live_pages) carries the visitor's own CSRF token (the language switch form).

TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def csrf_cookie(answer: Answer) -> str:
    (cookie,) = [v for k, v in answer.headers if k == "Set-Cookie"]
    return cookie


def csrf_secret(answer: Answer) -> str:
    return re.match(r" ?csrftoken=(\w+);", csrf_cookie(answer)).group(1)


def tokens(answer: Answer) -> list[str]:
    return [t.decode() for t in TOKEN.findall(answer.body)]


def without_token(answer: Answer):
    """The answer with the visitor's CSRF token and cookie taken out (and the cookie's expiry: a second may
    have passed), to compare two visitors' answers."""
    cookie = re.sub(r"csrftoken=\w+;", "csrftoken=X;", csrf_cookie(answer))
    cookie = re.sub(r"expires=[^;]+;", "expires=X;", cookie)
    headers = sorted((k, cookie if k == "Set-Cookie" else v) for k, v in answer.headers)
    return answer.status, headers, page_cache.strip_csrf(answer.body)

"""Security headers on every response, and pages the Content-Security-Policy does not break.

The policy (config/settings.py, django-csp) allows scripts and styles from our own origin only, so no
rendered page may carry an inline <script>, an on*= handler, a style= attribute or a <style> element: the
seeded demo is crawled from the home page as a visitor, a player, a director and a superuser, and every
HTML page reached is parsed for them. tests/e2e/test_csp_browser.py checks the same in Chromium.
"""

import re
from collections import Counter, deque
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from tests.conftest import seeded_demo

pytestmark = pytest.mark.django_db

MAX_PAGES_PER_ROLE = 400
PER_NAME = 3
# Each event's own pages are read for every event: bridge, teams and ulti events differ in what they show.
EVENT_PAGES = {"event_detail", "bridge_event", "teams_event", "ulti_event"}
PER_EVENT = 100
# Links not followed: they change state, leave the HTML pages, or are the admin / API (checked separately).
SKIP = re.compile(
    r"^/(admin/|api/|i18n/|accounts/logout/|static/|media/)|\.(ics|csv|pbn|xml|json|pdf|txt)$|/export|/download"
)


def directives(header):
    return {part.split()[0]: part.split()[1:] for part in (p.strip() for p in header.split(";")) if part}


def assert_security_headers(response):
    csp = response.headers.get("Content-Security-Policy")
    assert csp, f"no Content-Security-Policy on {response.wsgi_request.path}"
    policy = directives(csp)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response.headers["Permissions-Policy"]
    assert "geolocation=()" in response.headers["Permissions-Policy"]


class InlineFinder(HTMLParser):
    """Collects what a `script-src 'self'; style-src 'self'` policy would block."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems, self.links = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        where = f"<{tag} {' '.join(f'{k}={v!r}' for k, v in list(attrs.items())[:3])}>"
        if tag == "script" and not attrs.get("src") and attrs.get("type") != "application/json":
            self.problems.append(f"inline script {where}")
        if tag == "style":
            self.problems.append(f"<style> element {where}")
        for name, value in attrs.items():
            if name.startswith("on"):
                self.problems.append(f"event handler {name}= in {where}")
            if name == "style":
                self.problems.append(f"style attribute in {where}")
            if (
                name in ("href", "src", "action")
                and value
                and value.strip().lower().startswith("javascript:")
            ):
                self.problems.append(f"javascript: URL in {where}")
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])

    handle_startendtag = handle_starttag


def scan(html):
    finder = InlineFinder()
    finder.feed(html)
    return finder.problems, finder.links


def test_the_finder_sees_every_kind_of_inline_code():
    problems, _ = scan(
        '<script>alert(1)</script><script src="/static/a.js"></script>'
        '<script type="application/json" id="x">{}</script><button onclick="go()">x</button>'
        '<div style="color:red"></div><style>p{}</style><a href="javascript:go()">y</a>'
    )
    assert len(problems) == 5 and problems[0].startswith("inline script")


def test_pages_and_api_answers_carry_the_security_headers(client, settings):
    for url in (reverse("home"), reverse("login"), reverse("event-list"), reverse("api_docs"), "/nope/"):
        assert_security_headers(client.get(url))
    assert_security_headers(client.post(reverse("entry-list"), {}, content_type="application/json"))


def test_the_api_docs_page_runs_swagger_ui_from_files(client):
    response = client.get(reverse("api_docs"))
    assert response.status_code == 200
    html = response.content.decode()
    problems, _ = scan(html)
    assert problems == []
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert any("?script" in src or "script=" in src for src in scripts), scripts
    start = client.get(next(src for src in scripts if "script" in src.split("?", 1)[-1]))
    assert start.status_code == 200 and "SwaggerUIBundle" in start.content.decode()
    assert "javascript" in start["Content-Type"]


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The seeded demo, loaded once for this module inside a transaction rolled back at its end."""
    with seeded_demo(django_db_blocker):
        yield


def _crawl(client):
    """Breadth-first from the home page and every event's page, at most PER_NAME pages of one URL name
    reached by links (one calendar month, one club... stands for all); returns (HTML pages read, their URL
    names, {url: problems})."""
    from tournaments.models import Event

    events = [
        reverse("event_detail", args=[pk]) for pk in Event.objects.order_by("pk").values_list("pk", flat=True)
    ]
    seen, queue, problems, pages, per_name = set(), deque([reverse("home"), *events]), {}, 0, Counter()
    while queue and pages < MAX_PAGES_PER_ROLE:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        try:
            name = resolve(urlsplit(url).path).url_name
        except Resolver404:
            continue
        if per_name[name] >= (PER_EVENT if name in EVENT_PAGES else PER_NAME):
            continue
        per_name[name] += 1
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        pages += 1
        assert_security_headers(response)
        found, links = scan(response.content.decode())
        if found:
            problems[url] = found
        for link in links:
            link = urldefrag(link)[0]
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or not parts.path.startswith("/") or SKIP.search(parts.path):
                continue
            if link not in seen:
                queue.append(link)
    return pages, set(per_name), problems


# Pages every role must have reached (and so scanned): the ones that had inline code before the CSP.
MUST_REACH = {
    None: {"home", "calendar", "event_detail", "results", "rankings", "club_list"},
    "jatekos@demo.hu": {"home", "my_entries", "profile", "event_detail"},
    "admin@demo.hu": {
        "bridge_session", "bridge_guide_cards", "bridge_upload", "teams_standings", "teams_bracket",
        "teams_upload", "ulti_event", "ulti_round", "ulti_cards", "ulti_sheet_print", "manage_entries",
        "rankings_season", "audit_log",
    },
}  # fmt: skip


@pytest.mark.parametrize("email", list(MUST_REACH))
def test_no_rendered_page_of_the_demo_has_inline_code(demo, email):
    from django.contrib.auth import get_user_model

    client = Client()
    if email:
        client.force_login(get_user_model().objects.get(username=email))
    pages, names, problems = _crawl(client)
    assert MUST_REACH[email] - names == set(), f"not reached; the crawl read {pages} pages: {sorted(names)}"
    assert problems == {}

"""The live polls' fast path (results.live.FastPolls, issue #18) in front of Django, on a bridge session's
live standings and frequency fragments: it answers an anonymous poll as Django does (same status, headers
and body, 304 included) without reaching Django, keeps the tag while the fragment's bytes do not change,
leaves to Django whatever it cannot answer safely (a logged-in visitor, a language it does not know, a cache
that does not answer) and never serves a fragment the page's permission check would now refuse."""

import gzip
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from results import live, page_cache
from tests.results.live_wsgi import csrf_secret, tokens, unmask, without_token
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def urls(session):
    return {
        "standings": reverse("bridge_live_standings", args=[session.pk]),
        "boards": reverse("bridge_live_boards", args=[session.pk]),
        "one board": reverse("bridge_live_boards", args=[session.pk]) + "?board=2",
    }


@pytest.mark.parametrize("encoding", ["", "gzip, deflate, br"])
@pytest.mark.parametrize("kind", ["standings", "boards", "one board"])
def test_the_fast_path_answers_as_django_does_without_reaching_it(
    portal, session, codes, play, kind, encoding
):
    play(codes[1], 1)
    url = urls(session)[kind]
    asks = {"Accept-Encoding": encoding} if encoding else {}
    first, asked = portal.answered_by_django(url, **asks)
    assert asked and first.code == 200 and first["ETag"].startswith('"c')
    django = portal.plain(url, **asks)  # Django's answer from the page cache
    assert django["X-Page-Cache"] == "hit"
    fast, asked = portal.answered_by_django(url, **asks)
    assert not asked
    assert fast.same_as(django), fast.differences(django)
    assert fast["Cache-Control"] == "no-cache" and fast["Vary"] == "Cookie, Accept-Language, Accept-Encoding"
    assert fast["Content-Language"] == "hu" and "Content-Security-Policy" in dict(fast.headers)
    plain = portal.get(url)
    if encoding:  # gzipped once per stored copy, its own strong tag; the same bytes unpacked
        assert fast["Content-Encoding"] == "gzip" and fast["ETag"].endswith('-gz"')
        assert gzip.decompress(fast.body) == plain.body and len(fast.body) < len(plain.body)
        assert fast["ETag"] == plain["ETag"][:-1] + '-gz"'
    else:
        assert "Content-Encoding" not in dict(fast.headers) and not fast["ETag"].endswith('-gz"')
    # The 304, too.
    tag = fast["ETag"]
    django = portal.plain(url, etag=tag, **asks)
    fast, asked = portal.answered_by_django(url, etag=tag, **asks)
    assert not asked and django.code == 304 and fast.same_as(django), fast.differences(django)
    assert fast.body == b""
    # Another tag: the bytes.
    fast, asked = portal.answered_by_django(url, etag='"c0000"', **asks)
    assert not asked and fast.code == 200 and fast.body == first.body


def test_the_tag_moves_with_a_result_and_stays_while_the_fragment_does_not_change(
    portal, session, codes, play, settings
):
    settings.LIVE_RENDER_SECONDS = 0  # every poll after a recompute starts a new rendering
    standings, boards = urls(session)["standings"], urls(session)["boards"]
    play(codes[1])
    tags = {kind: portal.get(url)["ETag"] for kind, url in (("standings", standings), ("boards", boards))}
    play(codes[2])  # a result: the recompute bumps the event's generation
    # The poll that finds the copy outdated is answered from it at once; the new copy is rendered after.
    waited, asked = portal.answered_by_django(standings, etag=tags["standings"])
    assert waited.code == 304 and not asked and len(portal.later) == 1
    assert portal.render_later() == 1
    moved, asked = portal.answered_by_django(standings, etag=tags["standings"])
    assert moved.code == 200 and moved["ETag"] != tags["standings"] and not asked
    assert moved.body == portal.plain(standings).body  # what Django shows now
    # No board is played at every table yet: the frequency sheets show nothing new, their tag stays.
    assert portal.get(boards, etag=tags["boards"]).code == 304
    portal.render_later()
    assert portal.get(boards, etag=tags["boards"]).code == 304
    again, asked = portal.answered_by_django(standings, etag=moved["ETag"])
    assert again.code == 304 and not asked and not portal.later


def test_rendered_in_the_request_when_the_setting_says_so(portal, session, codes, play, settings):
    settings.LIVE_RENDER_SECONDS = 0
    settings.LIVE_RENDER_IN_BACKGROUND = False
    url = urls(session)["standings"]
    tag = portal.get(url)["ETag"]
    play(codes[1], 1)
    moved, asked = portal.answered_by_django(url, etag=tag)
    assert asked and moved.code == 200 and moved["ETag"] != tag and not portal.later


def test_one_rendering_at_a_time_and_its_lock_let_go_after_it(portal, session, codes, play, settings):
    settings.LIVE_RENDER_SECONDS = 0
    url = urls(session)["standings"]
    tag = portal.get(url)["ETag"]
    play(codes[1], 1)
    for _ in range(3):  # the polls while the new copy is being rendered: the copy of a moment ago
        stale, asked = portal.answered_by_django(url, etag=tag)
        assert stale.code == 304 and not asked
    assert len(portal.later) == 1
    portal.render_later()
    play(codes[2])  # the next result: the lock is free again, the next poll renders
    assert portal.get(url, etag=tag).code in (200, 304) and len(portal.later) == 1


def test_a_rendering_that_fails_lets_go_of_its_lock(portal, session, codes, play, settings, caplog):
    settings.LIVE_RENDER_SECONDS = 0
    url = urls(session)["standings"]
    tag = portal.get(url)["ETag"]
    play(codes[1], 1)
    portal.get(url, etag=tag)
    with mock.patch.object(portal.django, "app", side_effect=RuntimeError("boom")):
        assert portal.render_later() == 1
    assert "rendering" in caplog.text and "boom" in caplog.text
    assert portal.get(url, etag=tag).code == 304 and len(portal.later) == 1  # asked again
    portal.render_later()
    assert portal.get(url, etag=tag).code == 200


def test_between_renderings_the_copy_of_a_moment_ago_is_served_unless_visibility_may_have_changed(
    portal, session, codes, play, settings
):
    settings.LIVE_RENDER_SECONDS = 60
    url = urls(session)["standings"]
    tag = portal.get(url)["ETag"]
    play(codes[1], 1)  # a recompute: what the page shows changed, not who may see it
    stale, asked = portal.answered_by_django(url, etag=tag)
    assert stale.code == 304 and not asked and not portal.later  # rendered less than LIVE_RENDER_SECONDS ago
    settings.LIVE_RENDER_SECONDS = 0
    stale, asked = portal.answered_by_django(url, etag=tag)
    assert stale.code == 304 and not asked and portal.render_later() == 1
    fresh, asked = portal.answered_by_django(url, etag=tag)
    assert not asked and fresh.code == 200 and fresh["ETag"] != tag
    # A save that may change who sees the page bumps the visibility token: Django answers at once.
    settings.LIVE_RENDER_SECONDS = 60
    session.save()
    _again, asked = portal.answered_by_django(url, etag=fresh["ETag"])
    assert asked


@pytest.mark.parametrize(
    "make_private",
    [
        pytest.param(lambda session: _status(session.event, Event.Status.DRAFT), id="event back to draft"),
        pytest.param(lambda session: _status(session.event, Event.Status.RETURNED), id="event returned"),
        pytest.param(lambda session: session.table_codes.all().delete(), id="table codes deleted"),
    ],
)
def test_a_fragment_no_longer_public_is_never_served(portal, session, codes, settings, make_private):
    settings.LIVE_RENDER_SECONDS = 60  # even while a copy of a moment ago could be served
    url = urls(session)["standings"]
    tag = portal.get(url)["ETag"]
    served, asked = portal.answered_by_django(url, etag=tag)
    assert served.code == 304 and not asked
    make_private(session)
    for etag in (None, tag):
        refused, asked = portal.answered_by_django(url, etag=etag)
        assert asked and refused.code in (302, 404), refused
    # However often it is asked (the page cache keeps no copy for the others either).
    assert portal.get(url).code in (302, 404)


def _status(event, status):
    event.status = status
    event.save()


def test_a_draft_session_is_never_answered(portal, session):
    """Without table codes the session is not public: Django refuses, and nothing is kept to serve."""
    url = urls(session)["standings"]
    for _ in range(2):
        refused, asked = portal.answered_by_django(url)
        assert asked and refused.code in (302, 404)


def test_a_logged_in_visitor_goes_to_django(portal, session, codes, clients):
    url = urls(session)["standings"]
    portal.get(url)
    session_cookie = clients["director"].cookies["sessionid"].value
    answer_, asked = portal.answered_by_django(url, cookies={"sessionid": session_cookie})
    assert asked and answer_.code == 200 and "X-Page-Cache" not in dict(answer_.headers)
    assert answer_["ETag"].startswith('"s')  # his own tag: the recompute stamp, not the content digest
    for cookies in ({"messages": "x"},):
        _answer, asked = portal.answered_by_django(url, cookies=cookies)
        assert asked
    environ_headers = {"Authorization": "Token abc"}
    before = portal.django.calls
    portal.call(portal.fast, url, **environ_headers)
    assert portal.django.calls == before + 1


def test_the_language_cookie_picks_the_copy_and_an_unknown_language_goes_to_django(portal, session, codes):
    url = urls(session)["standings"]
    hungarian = portal.get(url)
    english = portal.get(url, cookies={"django_language": "en"})
    assert english["Content-Language"] == "en" and english.body != hungarian.body
    served, asked = portal.answered_by_django(url, cookies={"django_language": "en"})
    assert not asked and served.same_as(portal.plain(url, cookies={"django_language": "en"}))
    served, asked = portal.answered_by_django(url, cookies={"django_language": "hu"})
    assert asked  # a cookie of "hu" is another raw input than none: asked once, then kept
    assert portal.answered_by_django(url, cookies={"django_language": "hu"})[1] is False
    for _ in range(2):
        unknown, asked = portal.answered_by_django(url, cookies={"django_language": "de"})
        assert asked and unknown["Content-Language"] == "hu"


def test_when_the_cache_does_not_answer_django_does(portal, session, codes):
    url = urls(session)["standings"]
    portal.get(url)
    with mock.patch.object(page_cache, "read_poll", side_effect=ConnectionError("redis is down")):
        down, asked = portal.answered_by_django(url)
    assert asked and down.code == 200 and down.body == portal.plain(url).body


def test_other_pages_go_straight_to_django(portal, session, codes):
    page = reverse("home")
    with mock.patch.object(page_cache, "read_poll") as read:
        for _ in range(2):
            answer_, asked = portal.answered_by_django(page)
            assert asked and answer_.code == 200
    read.assert_not_called()
    assert portal.fast.address(portal.environ(page)) is None
    assert portal.fast.address(portal.environ(urls(session)["standings"])) is not None
    assert portal.fast.address(portal.environ(reverse("bridge_session", args=[session.pk]))) is not None


# The live pages themselves (results.live.live_pages): a viewer's first load, from the page cache's copy with
# his own CSRF token (the language switch form), as Django's CSRF middleware gives it.

PAGES = ["bridge_session", "bridge_frequencies"]


def test_live_pages_are_registered(portal):
    portal.fast._path_pattern()
    assert {"bridge_session", "bridge_frequencies"} <= live._PAGES


@pytest.mark.parametrize("name", PAGES)
def test_a_live_page_is_answered_as_django_does_with_the_visitors_own_csrf_token(
    portal, session, codes, play, name
):
    play(codes[1], 1)
    url = reverse(name, args=[session.pk])
    first, asked = portal.answered_by_django(url)
    assert asked and first.code == 200 and tokens(first)
    django = portal.plain(url)
    assert django["X-Page-Cache"] == "hit"
    fast, asked = portal.answered_by_django(url)
    assert not asked
    assert without_token(fast) == without_token(django)
    assert int(fast["Content-Length"]) == len(fast.body)
    # A token of the visitor's own secret in every form, the secret in his new cookie; another visitor
    # gets another one.
    secret = csrf_secret(fast)
    assert tokens(fast) and all(unmask(t) == secret for t in tokens(fast))
    other, asked = portal.answered_by_django(url)
    assert not asked and csrf_secret(other) != secret
    # A visitor who has a CSRF cookie keeps his secret (the cookie set again, as Django does).
    again, asked = portal.answered_by_django(url, cookies={"csrftoken": secret})
    assert not asked and csrf_secret(again) == secret
    assert all(unmask(t) == secret for t in tokens(again))
    assert without_token(again) == without_token(portal.plain(url, cookies={"csrftoken": secret}))
    assert csrf_secret(portal.plain(url, cookies={"csrftoken": secret})) == secret
    # A malformed one is replaced, as Django replaces it.
    bad, asked = portal.answered_by_django(url, cookies={"csrftoken": "not-a-secret!"})
    assert not asked and csrf_secret(bad) not in ("not-a-secret!", secret)
    assert all(unmask(t) == csrf_secret(bad) for t in tokens(bad))


def test_the_token_of_a_page_from_the_fast_path_is_taken_by_the_csrf_check(portal, session, codes):
    url = reverse("bridge_session", args=[session.pk])
    portal.get(url)
    fast, asked = portal.answered_by_django(url)
    assert not asked
    switch = Client(enforce_csrf_checks=True)
    switch.cookies["csrftoken"] = csrf_secret(fast)
    answered = switch.post(
        "/i18n/setlang/", {"language": "en", "next": url, "csrfmiddlewaretoken": tokens(fast)[0]}
    )
    assert answered.status_code == 302
    refused = switch.post("/i18n/setlang/", {"language": "en", "next": url, "csrfmiddlewaretoken": "x" * 64})
    assert refused.status_code == 403


def test_a_live_page_is_rendered_again_after_a_result_and_never_served_once_it_is_not_public(
    portal, session, codes, play, settings
):
    settings.LIVE_RENDER_SECONDS = 0
    settings.LIVE_PAGE_RENDER_SECONDS = 60  # a page less often than its fragments
    url = reverse("bridge_session", args=[session.pk])
    before, fragment = portal.get(url), urls(session)["standings"]
    portal.get(fragment)
    play(codes[1], 1)
    assert portal.get(fragment).code == 200 and portal.render_later() == 1  # the fragment at once
    waited, asked = portal.answered_by_django(url)  # the copy of a moment ago, with his own token
    assert not asked and waited.code == 200 and tokens(waited) and not portal.later
    assert page_cache.strip_csrf(waited.body) == page_cache.strip_csrf(before.body)
    settings.LIVE_PAGE_RENDER_SECONDS = 0
    waited, asked = portal.answered_by_django(url)
    assert not asked and page_cache.strip_csrf(waited.body) == page_cache.strip_csrf(before.body)
    assert portal.render_later() == 1
    after, asked = portal.answered_by_django(url)
    assert not asked and after.code == 200 and tokens(after)
    assert page_cache.strip_csrf(after.body) != page_cache.strip_csrf(before.body)
    assert without_token(after) == without_token(portal.plain(url))
    settings.LIVE_RENDER_SECONDS = 60
    _status(session.event, Event.Status.DRAFT)
    for _ in range(2):
        refused, asked = portal.answered_by_django(url)
        assert asked and refused.code in (302, 404), refused


def test_a_logged_in_visitor_gets_his_own_page_from_django(portal, session, codes, clients):
    url = reverse("bridge_session", args=[session.pk])
    portal.get(url)
    session_cookie = clients["director"].cookies["sessionid"].value
    page, asked = portal.answered_by_django(url, cookies={"sessionid": session_cookie})
    assert asked and page.code == 200 and "X-Page-Cache" not in dict(page.headers)

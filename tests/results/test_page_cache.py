"""The shared cache of public pages: served to anonymous visitors, dropped by the recompute, never personal."""

import datetime
import random
import re

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from bridge.models import SessionStanding
from bridge.services import SCOPE, setup, upload_readers, uploads
from bridge.services.compute import recompute_event
from bridge.views import public
from demo import bridge_sample as sample
from federation.models import Role
from results import page_cache
from results.models import VersionedUpload
from results.services import state_of
from tournaments.models import Event

START = timezone.make_aware(datetime.datetime(2026, 3, 14, 10, 0))
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def event(mbsz):
    return sample.event_with_pairs(mbsz, pairs=14, title="Klubverseny", start=START)


@pytest.fixture
def director(make_user, event):
    return make_user("td@example.hu", kind=Role.DIRECTOR, event=event)


@pytest.fixture
def session(event, director):
    session = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    upload(session, director, seed=3)
    recompute_event(event.pk)
    setup.publish(session, director)
    return session


def upload(session, director, seed):
    rows = sample.play(session, random.Random(seed))
    uploads.upload(
        session,
        upload_readers.parse_csv(sample.csv_text(session, rows)),
        source=VersionedUpload.Source.CSV,
        user=director,
    )


def without_tokens(content: bytes) -> str:
    return TOKEN.sub("", content.decode())


def url(session):
    return reverse("bridge_session", args=[session.pk])


@pytest.mark.django_db
def test_the_second_anonymous_visit_is_served_from_the_cache(client, session, django_assert_num_queries):
    first = client.get(url(session))
    assert first.status_code == 200 and first["X-Page-Cache"] == "miss"
    # Only the session -> event look-up reaches the database; the page itself comes from the cache.
    with django_assert_num_queries(1):
        second = client.get(url(session))
    assert second.status_code == 200 and second["X-Page-Cache"] == "hit"
    assert without_tokens(second.content) == without_tokens(first.content)
    assert "Content-Language" in second and second["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_change_without_a_bump_stays_hidden_until_the_recompute_drops_the_page(
    client, event, session, director, django_capture_on_commit_callbacks
):
    before = client.get(url(session)).content
    rows = sorted(SessionStanding.objects.filter(session=session).values_list("pair_id", "total", "place"))
    # A new upload whose recompute has not run yet: the standings and the page are as before.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        upload(session, director, seed=11)
    assert client.get(url(session))["X-Page-Cache"] == "hit"
    for callback in callbacks:
        callback()  # the recompute task (eager in tests) and the cache bump after its commit
    after_rows = sorted(
        SessionStanding.objects.filter(session=session).values_list("pair_id", "total", "place")
    )
    assert after_rows != rows
    served = client.get(url(session))
    assert served["X-Page-Cache"] == "miss"
    assert without_tokens(served.content) != without_tokens(before)
    # What is served now is exactly what a fresh rendering shows.
    cache.clear()
    fresh = client.get(url(session))
    assert fresh["X-Page-Cache"] == "miss"
    assert without_tokens(served.content) == without_tokens(fresh.content)
    assert client.get(url(session))["X-Page-Cache"] == "hit"


@pytest.mark.django_db
def test_the_bump_waits_for_the_commit_and_then_happens_again(session, django_capture_on_commit_callbacks):
    key = page_cache._gen_key(page_cache.event_scope(session.event_id))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        recompute_event(session.event_id, force=True)
    during = cache.get(key)
    assert during is not None and len(callbacks) >= 1
    for callback in callbacks:
        callback()
    assert cache.get(key) not in (None, during)


@pytest.mark.django_db
def test_logged_in_users_get_their_own_page_and_it_is_not_shared(client, session, director):
    anonymous = client.get(url(session))
    assert client.get(url(session))["X-Page-Cache"] == "hit"
    own = Client()
    own.force_login(director)
    page = own.get(url(session))
    assert page.status_code == 200 and "X-Page-Cache" not in page
    assert director.email in page.content.decode()
    again = client.get(url(session))
    assert again["X-Page-Cache"] == "hit"
    assert director.email not in again.content.decode()
    assert without_tokens(again.content) == without_tokens(anonymous.content)


@pytest.mark.django_db
def test_hungarian_and_english_are_cached_separately(client, session):
    hungarian = client.get(url(session))
    english_client = Client()
    english_client.cookies["django_language"] = "en"
    english = english_client.get(url(session))
    assert english["X-Page-Cache"] == "miss"
    assert english_client.get(url(session))["X-Page-Cache"] == "hit"
    again = client.get(url(session))
    assert again["X-Page-Cache"] == "hit"
    assert '<html lang="hu">' in again.content.decode()
    assert '<html lang="en">' in english_client.get(url(session)).content.decode()
    assert without_tokens(hungarian.content) != without_tokens(english.content)


@pytest.mark.django_db
def test_no_csrf_token_is_stored_and_each_visitor_gets_a_working_one(session):
    visitor = Client(enforce_csrf_checks=True)
    first = visitor.get(url(session))
    assert TOKEN.search(first.content.decode())
    request = RequestFactory().get(url(session))
    with translation.override("hu"):
        key = page_cache.page_key(
            request, public.session_page.page_cache_name, [page_cache.event_scope(session.event_id)], ""
        )
    content, _content_type, _visibility = cache.get(key)
    assert page_cache.CSRF_PLACEHOLDER in content
    assert not TOKEN.search(content.replace(page_cache.CSRF_PLACEHOLDER, b"").decode())

    other = Client(enforce_csrf_checks=True)
    served = other.get(url(session))
    assert served["X-Page-Cache"] == "hit"
    token = TOKEN.search(served.content.decode()).group(1)
    assert token != TOKEN.search(first.content.decode()).group(1)
    assert page_cache.CSRF_PLACEHOLDER.decode() not in served.content.decode()
    # The language switch of the cached page works: its token matches the visitor's CSRF cookie.
    switched = other.post(
        reverse("set_language"), {"language": "en", "next": url(session), "csrfmiddlewaretoken": token}
    )
    assert switched.status_code == 302
    refused = Client(enforce_csrf_checks=True).post(
        reverse("set_language"), {"language": "en", "next": url(session), "csrfmiddlewaretoken": token}
    )
    assert refused.status_code == 403


@pytest.mark.django_db
def test_pages_a_visitor_may_not_see_and_unknown_query_parameters_are_not_cached(client, event, director):
    hidden = setup.create_session(
        event, movement="mitchell", pairs=setup.pairs_from_entries(event), announced=event.sessions.first()
    )
    upload(hidden, director, seed=5)
    recompute_event(event.pk)
    for _ in range(2):  # not published yet: the login page, never a stored copy
        response = client.get(url(hidden))
        assert response.status_code == 302 and "X-Page-Cache" not in response
    setup.publish(hidden, director)
    assert client.get(url(hidden))["X-Page-Cache"] == "miss"
    odd = url(hidden) + "?utm=1"
    assert "X-Page-Cache" not in client.get(odd) and "X-Page-Cache" not in client.get(odd)
    frequencies = reverse("bridge_frequencies", args=[hidden.pk]) + "?board=2"
    assert client.get(frequencies)["X-Page-Cache"] == "miss"
    assert client.get(frequencies)["X-Page-Cache"] == "hit"


@pytest.mark.django_db
def test_publishing_and_event_edits_drop_the_event_page_and_the_calendar(client, event, director):
    event_url = reverse("bridge_event", args=[event.pk])
    calendar_url = reverse("calendar_year", args=[event.start_date.year])
    client.get(event_url), client.get(calendar_url)
    assert client.get(event_url)["X-Page-Cache"] == "hit"
    assert client.get(calendar_url)["X-Page-Cache"] == "hit"
    event.title = "Tavaszi klubverseny"
    event.save()
    page = client.get(calendar_url)
    assert page["X-Page-Cache"] == "miss" and "Tavaszi klubverseny" in page.content.decode()
    page = client.get(event_url)
    assert page["X-Page-Cache"] == "miss" and "Tavaszi klubverseny" in page.content.decode()
    event.status = Event.Status.CANCELLED
    event.save()
    assert "Tavaszi klubverseny" not in client.get(calendar_url).content.decode()


@pytest.mark.django_db
def test_a_rankings_list_rebuild_drops_the_list_page(client, mbsz, make_person):
    from rankings.models import ListKind
    from rankings.services import lists

    list_url = reverse("rankings_masterpoints", args=["mbsz"]) + "?year=2026"
    client.get(list_url)
    assert client.get(list_url)["X-Page-Cache"] == "hit"
    lists.recompute_list(mbsz, ListKind.ANNUAL, 2026, force=True)
    assert client.get(list_url)["X-Page-Cache"] == "miss"


@pytest.mark.django_db
def test_while_one_request_renders_a_dropped_page_the_others_get_the_previous_copy(client, event, session):
    old = client.get(url(session))
    page_cache.bump_now(page_cache.event_scope(event.pk), visibility=False)  # a recompute's bump
    request = RequestFactory().get(url(session))
    name = public.session_page.page_cache_name
    with translation.override("hu"):
        key = page_cache.page_key(request, name, [page_cache.event_scope(event.pk)], "")
    assert cache.add(f"{key}:rendering", 1, 10)  # another process is rendering the new generation
    stale = client.get(url(session))
    assert stale["X-Page-Cache"] == "stale"
    assert without_tokens(stale.content) == without_tokens(old.content)
    assert TOKEN.search(stale.content.decode())  # a fresh token in the old copy, too
    cache.delete(f"{key}:rendering")
    assert client.get(url(session))["X-Page-Cache"] == "miss"
    assert cache.get(f"{key}:rendering") is None  # the renderer let go of its lock
    assert client.get(url(session))["X-Page-Cache"] == "hit"


@pytest.mark.django_db
def test_after_a_change_of_who_may_see_a_page_nobody_gets_its_previous_copy(client, event, session):
    """A save that may change the page's visibility (the event withdrawn here) bumps the visibility token
    too: while one request renders the page again, the others wait for the page's own answer instead of
    getting the copy of before (which they may no longer see)."""
    assert client.get(url(session)).status_code == 200
    request = RequestFactory().get(url(session))
    name = public.session_page.page_cache_name
    Event.objects.filter(pk=event.pk).update(status=Event.Status.DRAFT)  # no signal: the bump below stands
    page_cache.bump_now(page_cache.event_scope(event.pk))  # for the save's
    with translation.override("hu"):
        key = page_cache.page_key(request, name, [page_cache.event_scope(event.pk)], "")
    assert cache.add(f"{key}:rendering", 1, 10)  # another process is rendering the new generation
    answer = client.get(url(session))
    assert answer.status_code in (302, 404) and answer.get("X-Page-Cache") != "stale"
    # The one that renders gets the refusal: it drops the previous copy, so nobody gets it later either.
    cache.delete(f"{key}:rendering")
    assert client.get(url(session)).status_code in (302, 404)
    with translation.override("hu"):
        assert cache.get(page_cache.latest_key(request, name, "")) is None


@pytest.mark.django_db
def test_a_process_local_cache_with_a_separate_worker_caches_nothing(client, session, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a broker and a worker process: its bumps would not reach us
    for _ in range(2):
        response = client.get(url(session))
        assert response.status_code == 200 and "X-Page-Cache" not in response


@pytest.mark.django_db
def test_a_cache_that_does_not_answer_costs_the_cache_not_the_pages_or_the_recompute(
    client, event, session, director, django_capture_on_commit_callbacks
):
    # Nothing listens on port 1: every cache call fails with a connection error.
    dead = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    with override_settings(CACHES={"default": dead}):
        for _ in range(2):
            page = client.get(url(session))
            assert page.status_code == 200 and "X-Page-Cache" not in page
        with django_capture_on_commit_callbacks(execute=True):
            upload(session, director, seed=13)  # the upload, its recompute and the failed bump all go through
        state = state_of(event.pk, SCOPE)
        assert state.computed_version == state.latest_version == 2 and not state.error
        event.title = "Mentés gyorsítótár nélkül"
        event.save()  # the bump of its signal fails quietly too
        assert "Mentés gyorsítótár nélkül" in client.get(url(session)).content.decode()


@pytest.mark.django_db
def test_an_erasure_drops_every_stored_page_that_may_show_the_name(
    client, session, make_user, django_capture_on_commit_callbacks
):
    from bridge.models import Pair
    from federation.models import ErasureRequest
    from federation.services import erasure

    pair = Pair.objects.filter(event=session.event).select_related("player1").first()
    person = pair.player1
    name = f"{person.last_name} {person.first_name}"
    assert name in client.get(url(session)).content.decode()
    assert client.get(url(session))["X-Page-Cache"] == "hit"
    staff = make_user("staff@example.hu", kind=Role.FEDERATION_STAFF, federation=session.event.federation)
    request = ErasureRequest.objects.create(person=person)
    with django_capture_on_commit_callbacks(execute=True):
        erasure.carry_out(request, staff)
    served = client.get(url(session))
    assert served["X-Page-Cache"] == "miss"  # not the copy of before (kept up to PAGE_CACHE_SECONDS before)
    person.refresh_from_db()
    assert name not in served.content.decode() and person.last_name in served.content.decode()

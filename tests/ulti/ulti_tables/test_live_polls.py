"""The live polls' fast path (results.live.FastPolls, issue #18) on ulti's live fragments: the event's
standings (with the page's parameters) and a round's tables are answered as Django answers them (200 and
304: same headers and body) without reaching Django, and no longer once the round or the event is not
public."""

import pytest
from django.urls import reverse

from results import live
from tests.results.live_wsgi import csrf_secret, tokens, unmask, without_token
from ulti.models import Round

pytestmark = pytest.mark.django_db


def urls(rnd):
    return {
        "standings": reverse("ulti_live_standings", args=[rnd.event.pk]),
        "standings of a stage": reverse("ulti_live_standings", args=[rnd.event.pk]) + "?stage=1",
        "round": reverse("ulti_live_round", args=[rnd.pk]),
    }


@pytest.mark.parametrize("kind", ["standings", "standings of a stage", "round"])
def test_the_fast_path_answers_as_django_does_without_reaching_it(portal, rnd, codes, play, kind):
    play(codes[1])
    url = urls(rnd)[kind]
    first, asked = portal.answered_by_django(url)
    assert asked and first.code == 200 and first["ETag"].startswith('"c')
    assert "élő, nem végleges" in first.body.decode()
    django = portal.plain(url)
    fast, asked = portal.answered_by_django(url)
    assert not asked and django["X-Page-Cache"] == "hit" and fast.same_as(django), fast.differences(django)
    tag = fast["ETag"]
    django = portal.plain(url, etag=tag)
    fast, asked = portal.answered_by_django(url, etag=tag)
    assert not asked and django.code == 304 and fast.same_as(django), fast.differences(django)


def test_a_confirmed_table_moves_the_tag(portal, rnd, codes, play, settings):
    settings.LIVE_RENDER_SECONDS = 0
    url = urls(rnd)["round"]
    tag = portal.get(url)["ETag"]
    assert portal.get(url, etag=tag).code == 304
    play(codes[1])
    assert portal.get(url, etag=tag).code == 304  # the copy of a moment ago; the new one rendered after
    assert portal.render_later() == 1
    moved = portal.get(url, etag=tag)
    assert moved.code == 200 and moved["ETag"] != tag


@pytest.mark.parametrize("what", ["round back to draft", "event back to draft"])
def test_a_fragment_no_longer_public_is_never_served(portal, rnd, codes, settings, what):
    settings.LIVE_RENDER_SECONDS = 60
    url = urls(rnd)["round"]
    tag = portal.get(url)["ETag"]
    assert portal.answered_by_django(url, etag=tag)[1] is False
    if what == "round back to draft":
        rnd.status = Round.Status.DRAFT
        rnd.save()
    else:
        event = rnd.event
        event.status = event.Status.DRAFT
        event.save()
    for etag in (None, tag):
        refused, asked = portal.answered_by_django(url, etag=etag)
        assert asked and refused.code in (302, 404), refused


# The live pages themselves (results.live.live_pages): a viewer's first load, from the page cache's copy with
# his own CSRF token, as Django's CSRF middleware gives it.


def test_the_live_standings_page_is_answered_as_django_does_until_it_is_not_public(
    portal, rnd, codes, play, settings
):
    settings.LIVE_RENDER_SECONDS = 60
    portal.fast.paths()  # the URL conf imported: the views have registered their names
    assert "ulti_standings" in live._PAGES
    play(codes[1])
    url = reverse("ulti_standings", args=[rnd.event.pk])
    first, asked = portal.answered_by_django(url)
    assert asked and first.code == 200 and tokens(first)
    django = portal.plain(url)
    fast, asked = portal.answered_by_django(url)
    assert not asked and django["X-Page-Cache"] == "hit" and without_token(fast) == without_token(django)
    secret = csrf_secret(fast)
    assert all(unmask(t) == secret for t in tokens(fast)) and csrf_secret(first) != secret
    event = rnd.event
    event.status = event.Status.DRAFT
    event.save()
    for _ in range(2):
        refused, asked = portal.answered_by_django(url)
        assert asked and refused.code in (302, 404), refused
